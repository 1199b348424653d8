"""The referee: runs a match between bots, judges their decisions, ranks the seats.

Nothing a bot does stops a match or makes :func:`play_match` raise: a bot
that raises (any exception, even ``SystemExit`` or ``KeyboardInterrupt``),
returns something that is not one of the legal moves, stalls, or cannot even
be built is recorded as a :class:`Fault`; the referee plays the *fallback
move* for that decision — the first legal move, a fixed choice so that the
record stays reproducible — and ranks seats with faults after all clean
seats.

**How bots are asked.**  Each seat is a :class:`~tajmahal.seat_contract.SeatPlayer`.
Without a time limit or a game clock, a Python bot
(:class:`~tajmahal.referee.seats.InProcessSeat`) runs in the referee's thread
(there is nothing to bound, and no thread is started).  With either, the match
is played in a thread of its own, which runs every bot's decisions itself,
while the calling thread keeps the time: at a call's deadline it abandons the
call and the match goes on in a new thread (a hand-over to a worker thread and
back at every decision would cost more than the rest of the referee); in a
match with bot programs, each Python bot runs in a worker thread of its own
instead.  The thread that runs a bot's call also reads and judges what it
returned, within the call's time, so that the referee never runs a method of
an object a bot made outside the bot's time.  Each seat gets its
own copies of the legal moves, made once per distinct move: a bot that
mutates them cannot change the engine's own, nor another seat's.  Its view
is built the first time the bot reads it (a bot that never looks at its view
costs none).  The user's Ctrl-C still stops the match (it reaches the
referee, not the bot).

**Time.**  ``time_limit`` bounds each whole decision: the bot's ``choose``
and everything its objects do until the referee has its answer; building the
bot gets the same limit.  ``game_time`` is a clock per seat (the total
seconds of all its decisions); once it runs out, every further decision of
that seat is a timeout fault.  A decision that exceeds its time keeps
running in its thread (Python cannot stop a thread): see "Abandoned calls" in
:mod:`tajmahal.referee.seats` for what that costs and its limit.

**Trust.**  Bots run in the referee's own process.  The referee survives
everything a bot does through the interfaces it is given, but it cannot
defend against a bot that walks the interpreter: one that patches modules,
reads the referee's frames or the engine's state through ``gc``, mutates
shared immutable values with ``object.__setattr__``, exhausts memory, or
never releases the GIL.  Run untrusted bots in a separate process:
``isolate=True`` runs every bot given by a spec as a child process speaking
the bot protocol (:class:`~tajmahal.protocol.ProcessSeat`), as ``cmd:PROGRAM``
specs always do; there, the time limit is hard (a late program is killed).
``sandbox=True`` runs those programs under bubblewrap as well.  What a bot
can and cannot do in each mode: docs/trust.md.

**Seeds.**  A game is a pure function of its seed, and the tile layout is
public: with a small seed, a bot can find it by trying seeds until the layout
matches, and then knows every hand and the deck order.  ``play_match``
therefore draws an unguessable 63-bit seed from the operating system unless
a seed is given (kept in the record, so the match can still be replayed).
Each bot's seed is a SHA-256 digest of the game seed and its seat
(:func:`bot_seed`), from which the game seed cannot be recovered; a bot
program's log file is named by a keyed digest of the game seed
(:func:`bot_log_name`), never by the seed.  A seed the caller passes makes the
deal computable to whoever knows it (docs/reference/records.md).
"""

from __future__ import annotations

import hashlib
import inspect
import itertools
import logging
import secrets
import threading
from collections.abc import Mapping, Sequence

import attrs

from tajmahal.bots.base import Bot
from tajmahal.bots.specs import PlayerSpec, check_spec
from tajmahal.bots.untrusted import type_name
from tajmahal.events import DecisionMade, MatchStarted, explain
from tajmahal.faults import Fault, FaultKind
from tajmahal.game import GameRecord
from tajmahal.match_result import MatchResult
from tajmahal.protocol import ProcessLimits, ProcessSeat, check_command, check_sandbox
from tajmahal.referee.decisions import Referee
from tajmahal.referee.observers import Watchers
from tajmahal.referee.record_tags import check_tags, match_tags
from tajmahal.referee.seats import (
    CallAbandoned,
    InProcessSeat,
    MatchStopped,
    MatchTimer,
    check_seconds,
    watching_interrupts,
)
from tajmahal.rules.components import Components
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS, new_game
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView, lazy_view
from tajmahal.seat_contract import Answer, SeatPlayer

log = logging.getLogger("tajmahal.referee")  # every fault: time-outs, crashes, bad moves

__all__ = ["Fault", "FaultKind", "MatchResult", "bot_log_name", "bot_seed", "play_match"]


def bot_seed(seed: int, seat: int) -> int:
    """The seed the referee gives the bot in ``seat`` for a match played with ``seed``.

    >>> bot_seed(7, 0) == bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    digest = hashlib.sha256(f"tajmahal/bot/{seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def bot_log_name(seed: int, seat: int) -> str:
    """The name of the stderr log of the bot program in ``seat`` for a match played with ``seed``.

    A keyed BLAKE2b digest of the seed names the game, so a bot that lists
    the log folder learns no seed from the names (the digest of a seed nobody
    knows reveals nothing; the same match always gets the same name).

    >>> bot_log_name(3, 0)
    'game-eaf926b7323d658b-seat0.log'
    >>> bot_log_name(3, 1)[:21] == bot_log_name(3, 0)[:21] != bot_log_name(4, 0)[:21]
    True
    """
    digest = hashlib.blake2b(str(seed).encode(), digest_size=8, key=b"tajmahal/bot-log")
    return f"game-{digest.hexdigest()}-seat{seat}.log"


def play_match(
    players: Sequence[str | PlayerSpec | Bot | ProcessSeat],
    seed: int | None = None,
    time_limit: float | None = None,
    *,
    components: Components | None = None,
    game_time: float | None = None,
    isolate: bool = False,
    process_limits: ProcessLimits | None = None,
    tags: Mapping[str, str] | None = None,
    sandbox: bool = False,
    observers: Sequence[object] = (),
) -> MatchResult:
    """Play one game between 3–5 bots (player specs or instances), seat 0 first.

    Bots given by player spec (``'greedy'``, ``'greedy:enough=5'``,
    ``'file:bots/mine.py'``, or a parsed :class:`~tajmahal.bots.PlayerSpec`:
    each spec is parsed and checked once, here) are built
    as ``BotClass(seed=bot_seed(seed, seat), **options)``; a bad spec, or a
    ``TypeError``/``ValueError`` from a constructor given options (a bad
    option value), raises :class:`~tajmahal.bots.SpecError` before the game
    starts.  ``seed=None`` (the default) draws an unguessable seed (see
    "Seeds" above); ``result.record.seed`` keeps it.  ``time_limit`` is in
    seconds per decision, ``game_time`` in seconds per seat for the whole
    game (both: above 0 and at most one day).  ``components`` defaults to the
    standard ones.  ``tags`` (such as ``{'event': 'club night'}``) are kept
    in the record beside the ones the referee writes (see
    :class:`~tajmahal.GameRecord`).

    A ``cmd:PROGRAM ARGS`` spec seats a bot program speaking the bot protocol
    (:mod:`tajmahal.protocol`); ``isolate=True`` runs every bot given by a
    spec that way too, each in its own process, with the same results.
    ``sandbox=True`` implies ``isolate`` and runs every program under
    bubblewrap (its own PID namespace, no network, a read-only root: see
    docs/trust.md); where bubblewrap cannot run it raises
    :class:`~tajmahal.protocol.SandboxError`, naming what is missing.
    ``process_limits`` (:class:`~tajmahal.protocol.ProcessLimits`) caps those
    programs' memory, start-up and exit time (without ``time_limit`` they
    get ``process_limits.decision_timeout`` per decision).  Every program is
    ended, with every process it started, before ``play_match`` returns or
    raises.  (A :class:`~tajmahal.protocol.ProcessSeat` the caller started
    for a seat may stand in that seat; the match ends it too.)

    ``observers`` watch the match (see :mod:`tajmahal.referee.observers`), beside
    every installed observer plugin.

    >>> import tajmahal as tm
    >>> result = tm.play_match(['greedy', 'random', 'random'], seed=3)
    >>> sorted(result.ranking), result.faults, result.winners[0] == result.ranking[0]
    ([0, 1, 2], (), True)
    >>> tm.play_match(['greedy', 'random', 'random'], seed=3).record == result.record
    True
    >>> tm.play_match(['random'] * 3, time_limit=0)
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.TajMahalError: time_limit must be a number of seconds above 0 and at most 86400, got 0
    """  # noqa: E501
    if isinstance(players, str) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        count = "a string" if isinstance(players, str) else f"{len(players)}"
        raise TajMahalError(
            f"a match needs {MIN_PLAYERS} to {MAX_PLAYERS} players (bot names or bots), "
            f"got {count}"
        )
    time_limit = check_seconds(time_limit, "time_limit")
    game_time = check_seconds(game_time, "game_time")
    if seed is not None and type(seed) is not int:
        raise TajMahalError(f"seed must be an integer or None, got {type(seed).__name__}")
    seated: list[PlayerSpec | Bot | ProcessSeat] = []
    for number, player in enumerate(players):
        if isinstance(player, str | PlayerSpec):
            spec = check_spec(player)  # every spec, parsed once, before any bot is built
            if spec.is_command:
                check_command(spec)
            seated.append(spec)
        elif not callable(inspect.getattr_static(player, "choose", None)):
            raise TajMahalError(
                f"seat {number}: a {type_name(player)} is neither a player spec nor a bot "
                "(an object with choose(view, legal_moves))"
            )
        else:
            seated.append(player)
    if not isinstance(sandbox, bool):
        raise TajMahalError(f"sandbox must be True or False, got {sandbox!r}")
    if sandbox:
        check_sandbox()
        isolate = True
        process_limits = attrs.evolve(process_limits or ProcessLimits(), sandbox=True)
    given_tags = check_tags(tags)
    watchers = Watchers(observers)
    if seed is None:
        seed = secrets.randbits(63)
    with watching_interrupts():
        result = _play(
            seated, seed, time_limit, game_time, components, isolate, process_limits, watchers
        )
    known = match_tags(seated, time_limit, game_time)
    record = attrs.evolve(result.record, tags={**known, **given_tags})
    result = attrs.evolve(result, record=record)
    watchers.finished(result)
    return result


def _play(
    players: Sequence[PlayerSpec | Bot | ProcessSeat],
    seed: int,
    time_limit: float | None,
    game_time: float | None,
    components: Components | None,
    isolate: bool = False,
    process_limits: ProcessLimits | None = None,
    watchers: Watchers | None = None,
) -> MatchResult:
    watchers = watchers if watchers is not None else Watchers(plugins=False)
    limit = time_limit if time_limit is not None else game_time
    seats = _build_seats(players, seed, limit, isolate, process_limits)
    try:
        referee = Referee(seats, time_limit, game_time)
        names = tuple(seat.name for seat in seats)
        game = _Game(referee, new_game(len(seats), seed, components), watchers)
        first = game.state
        watchers.started(MatchStarted(names, seed, first.components))
        in_process = [seat for seat in seats if isinstance(seat, InProcessSeat)]
        if limit is not None and len(in_process) == len(seats):
            _run_timed(game, in_process, limit)
        else:  # bot programs keep their own time; Python bots run in their seats' workers
            game.run()
        final, moves = game.state, game.moves
        faulty = {fault.seat for fault in referee.faults}
        ranking = tuple(
            sorted(range(len(seats)), key=lambda s: (s in faulty, -final.scores[s], s))
        )
        top = ranking[0]
        winners = tuple(
            s
            for s in ranking
            if (s in faulty) == (top in faulty) and final.scores[s] == final.scores[top]
        )
        for seat_player in seats:
            if isinstance(seat_player, ProcessSeat):  # the protocol's last message
                seat_player.finish(final.scores, sorted(winners), ranking)
    finally:
        for seat_player in seats:
            seat_player.close()
    return MatchResult(
        players=names,
        scores=final.scores,
        winners=tuple(sorted(winners)),
        ranking=ranking,
        record=GameRecord(
            num_players=first.num_players,
            seed=first.seed,
            moves=tuple(moves),
            first_player=first.first_player,
            components=first.components,
            players=names,
            scores=final.scores,
            winners=final.winners,
            faults=tuple(referee.faults),
            times=tuple([round(t, 6) for t in referee.times]),
        ),
        faults=tuple(referee.faults),
    )


def _build_seats(
    players: Sequence[PlayerSpec | Bot | ProcessSeat],
    seed: int,
    limit: float | None,
    isolate: bool,
    process_limits: ProcessLimits | None,
) -> list[SeatPlayer]:
    """One seat per player, built in seat order; closes them all if one spec is bad.

    ``players`` are checked already (specs parsed: :func:`play_match`).
    A ``cmd:`` spec (or any spec, with ``isolate``) is a bot program's seat,
    started here; its handshake is awaited when the referee reads its
    ``setup_fault``, so that the programs start up side by side.
    """
    seats: list[SeatPlayer] = []
    try:
        for number, player in enumerate(players):
            spec = player if isinstance(player, PlayerSpec) else None
            if spec is not None and (spec.is_command or isolate):
                log = bot_log_name(seed, number)
                seats.append(ProcessSeat.build(
                    spec, seat=number, num_players=len(players), seed=bot_seed(seed, number),
                    time_limit=limit, limits=process_limits, log_name=log,
                ))
            elif isinstance(player, ProcessSeat):  # started by the caller (tajmahal check-bot)
                seats.append(player)
            else:
                seats.append(InProcessSeat.build(player, bot_seed(seed, number), limit))
    except BaseException:
        for seat in seats:
            seat.close()
        raise
    return seats


class _Game:
    """The match's moves so far: played by one thread, taken over by another after a timeout."""

    def __init__(self, referee: Referee, state: GameState, watchers: Watchers) -> None:
        self.referee, self.state, self.watchers = referee, state, watchers
        self.moves: list[Move] = []  # the history: the first state and the moves rebuild the rest
        #: the decision last asked for: the seat, its view and the legal moves
        self.asked: tuple[int, PlayerView, tuple[Move, ...]] | None = None

    def run(self) -> None:
        """Play the match to its end."""
        while not self.state.is_over:
            state = self.state
            seat = state.current_player
            assert seat is not None
            # a view the bot fills in by reading it (a bot that never looks costs no view)
            view, legal = lazy_view(state, seat), state.legal_moves()
            self.asked = seat, view, legal
            self._play(self.referee.decide(seat, len(self.moves) + 1, view, legal))

    def resume(self, answer: Answer) -> None:
        """Go on from the decision last asked for, whose call was abandoned with ``answer``."""
        assert self.asked is not None
        seat, _, legal = self.asked
        self._play(self.referee.judge(seat, len(self.moves) + 1, legal, answer))
        self.run()

    def _play(self, move: Move) -> None:
        state = self.state
        after = state.apply(move)
        self.moves.append(move)
        if self.watchers:  # what the move caused, for observers (public facts only)
            assert self.asked is not None
            seat, view, legal = self.asked
            made = DecisionMade(len(self.moves), seat, view, legal, move,
                                self.referee.times[-1], explain(state, move, after))  # fmt: skip
            self.watchers.decision(made)
        self.state = after


_TICK = 0.1  #: the longest the timing thread sleeps (the most a deadline can be seen late)
_MIN_TICK = 0.005  #: its shortest sleep with a very short time limit


def _run_timed(game: _Game, seats: Sequence[InProcessSeat], limit: float) -> None:
    """Play ``game`` in a thread of its own while this thread keeps the time.

    The match thread runs the bots' calls itself (a hand-over to a worker thread
    and back at each decision costs more than the rest of the referee); this
    thread wakes at each call's deadline and abandons a late call: the match goes
    on in a new thread, and the late call's thread leaves it when the call
    returns.  The user's Ctrl-C reaches this thread: the match stops (a running
    call is abandoned), and the interrupt is raised here.
    """
    timer = MatchTimer(tick=min(_TICK, max(_MIN_TICK, limit)))
    for seat in seats:
        seat.timed_by(timer)
    ended = threading.Event()  # set once no thread plays the match any more
    failures: list[BaseException] = []

    def play(timeout: Answer | None) -> None:
        try:
            if timeout is None:
                game.run()
            else:
                game.resume(timeout)
        except CallAbandoned:
            return  # the match went on in another thread
        except BaseException as exc:  # raised in the caller's thread (a stop is no failure)
            if not isinstance(exc, MatchStopped):
                failures.append(exc)
        ended.set()

    def start(timeout: Answer | None) -> None:
        name = f"tajmahal-match-{next(_MATCH_THREADS)}"
        threading.Thread(target=play, args=(timeout,), name=name, daemon=True).start()
        timer.resume = None

    start(None)
    try:
        while not ended.wait(timer.wait()):
            timeout = timer.abandon_late()
            if timeout is not None:
                start(timeout)
    except BaseException:  # the user's Ctrl-C: stop the match before its seats close
        out = timer.stop()  # until no thread plays the match: its call abandoned, or it ended
        while not out and not ended.wait(_TICK):
            out = timer.stop()
        raise
    if failures:
        raise failures[0]


_MATCH_THREADS = itertools.count(1)
