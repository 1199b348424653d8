"""The referee: runs a match between bots, judges their decisions, ranks the seats.

A bot that raises, returns a move that is not legal, or takes longer than the
time limit never stops the match.  The referee records a :class:`Fault`, plays
the *fallback move* for that decision — the first legal move, a fixed choice
so that the record stays reproducible — and ranks seats with faults after all
clean seats.

**Time limits.**  A Python thread cannot be killed safely, so with a
``time_limit`` each ``choose`` call runs in a daemon worker thread that the
referee waits for at most ``time_limit`` seconds.  A call that returns late is
a timeout (its move is ignored).  A call that is still running is abandoned:
the match goes on, and until that call returns the seat gets the fallback move
(a timeout fault each time) instead of being asked again, so a bot never runs
twice at once.  The trade-off: an abandoned call keeps running and competes for
the interpreter with the rest of the match (it may slow other bots down) until
it ends or the process exits.  Without a time limit, ``choose`` runs in the
calling thread and nothing is timed.

**Trust.**  Bots run in the referee's own process.  The referee survives a
bot's faults (exceptions, illegal or fake moves, slowness) and only ever
plays the engine's own move objects; it cannot defend against a bot that
deliberately tampers with the interpreter (patching modules, mutating frozen
objects).  Run untrusted bots in a separate process.

**Seeds.**  A game is a pure function of its seed, and the tile layout is
public: with a small seed, a bot can find it by trying seeds until the layout
matches, and then knows every hand and the deck order.  For competitive
matches pass ``seed=None``: the referee then draws an unguessable 63-bit seed
(kept in the record, so the match can still be replayed).
"""

from __future__ import annotations

import enum
import hashlib
import secrets
import threading
import time
from collections.abc import Sequence

import attrs

from tajmahal.bots.base import Bot
from tajmahal.bots.registry import create
from tajmahal.bots.specs import check_spec
from tajmahal.game import Game, GameRecord
from tajmahal.rules.components import Components
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import (
    Move,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
    Withdraw,
)
from tajmahal.rules.views import PlayerView

__all__ = ["Fault", "FaultKind", "MatchResult", "bot_seed", "play_match"]

_MOVE_TYPES = (PlayCards, Withdraw, PlacePalace, PlaceCrownPalace, TakeCard)


class FaultKind(enum.Enum):
    """What a bot did wrong in one decision."""

    EXCEPTION = "exception"  #: ``choose`` raised
    ILLEGAL_MOVE = "illegal_move"  #: ``choose`` returned something not in ``legal_moves``
    TIMEOUT = "timeout"  #: ``choose`` took longer than the time limit


@attrs.frozen
class Fault:
    """One faulty decision: the seat, the decision's number in the record (1-based), what happened.

    The move the record holds for decision ``decision`` is the fallback move.

    >>> str(Fault(seat=2, decision=14, kind=FaultKind.TIMEOUT, detail='took 1.20 s'))
    'seat 2, decision 14: timeout: took 1.20 s'
    """

    seat: int
    decision: int
    kind: FaultKind
    detail: str

    def __str__(self) -> str:
        return f"seat {self.seat}, decision {self.decision}: {self.kind.value}: {self.detail}"


@attrs.frozen
class MatchResult:
    """The outcome of :func:`play_match`.

    ``scores`` are the game's final scores.  ``ranking`` lists the seats best
    first: seats without faults before seats with faults, each group by score
    (highest first), then by seat.  ``winners`` are the seats ranked first
    with an equal score (a faulty seat wins only if every seat is faulty).
    ``record`` is the game's :class:`~tajmahal.GameRecord`, whose own
    ``winners`` follow the rules alone (G3).

    >>> import tajmahal as tm
    >>> result = tm.play_match(['random', 'random', 'random'], seed=1)
    >>> result.scores, result.ranking, result.winners
    ((29, 49, 43), (1, 2, 0), (1,))
    >>> tm.replay(result.record).scores == result.scores
    True
    """

    players: tuple[str, ...]  #: each seat's player spec as given, or the bot instance's name
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    record: GameRecord
    faults: tuple[Fault, ...]

    @property
    def faulty_seats(self) -> frozenset[int]:
        """The seats with at least one fault.

        >>> import tajmahal as tm
        >>> class Stubborn:
        ...     name = 'stubborn'
        ...     def choose(self, view, legal_moves):
        ...         return tm.Withdraw()  # even when it must take a card or place a palace
        >>> result = tm.play_match(['random', Stubborn(), 'random'], seed=1)
        >>> result.faulty_seats, result.faults[0].kind, result.ranking[-1]
        (frozenset({1}), <FaultKind.ILLEGAL_MOVE: 'illegal_move'>, 1)
        """
        return frozenset(fault.seat for fault in self.faults)


def bot_seed(seed: int, seat: int) -> int:
    """The seed the referee gives the bot in ``seat`` for a match played with ``seed``.

    >>> bot_seed(7, 0) == bot_seed(7, 0) != bot_seed(7, 1)
    True
    """
    digest = hashlib.sha256(f"tajmahal/bot/{seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_match(
    players: Sequence[str | Bot],
    seed: int | None = 0,
    time_limit: float | None = None,
    *,
    components: Components | None = None,
) -> MatchResult:
    """Play one game between 3–5 bots (names or instances), seat 0 first.

    Bots given by name or player spec (``'greedy'``, ``'greedy:enough=5'``)
    are built with :func:`tajmahal.bots.create` and the seed :func:`bot_seed`
    derives for their seat; a bad spec raises
    :class:`~tajmahal.bots.SpecError` before the game starts.  ``seed=None`` draws an
    unguessable seed (see "Seeds" above); ``result.record.seed`` keeps it.
    ``time_limit`` is in seconds per decision.  ``components`` defaults to
    the standard ones.

    >>> import tajmahal as tm
    >>> result = tm.play_match(['greedy', 'random', 'random'], seed=3)
    >>> sorted(result.ranking), result.faults, result.winners[0] == result.ranking[0]
    ([0, 1, 2], (), True)
    >>> tm.play_match(['greedy', 'random', 'random'], seed=3).record == result.record
    True
    """
    if isinstance(players, str) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        count = "a string" if isinstance(players, str) else f"{len(players)}"
        raise TajMahalError(
            f"a match needs {MIN_PLAYERS} to {MAX_PLAYERS} players (bot names or bots), "
            f"got {count}"
        )
    if time_limit is not None and not time_limit > 0:
        raise TajMahalError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    for player in players:
        if isinstance(player, str):
            check_spec(player)  # every spec before any bot is built
    if seed is None:
        seed = secrets.randbits(63)
    bots = [_seat_bot(player, seed, seat) for seat, player in enumerate(players)]
    names = tuple(
        player if isinstance(player, str) else _bot_name(bot)
        for player, bot in zip(players, bots, strict=True)
    )
    game = Game.new(len(bots), seed, components, players=names)
    judge = _Judge(bots, time_limit)
    while not game.state.is_over:
        state = game.state
        seat = state.current_player
        assert seat is not None
        legal = state.legal_moves()
        move = judge.decide(seat, len(game) + 1, state.view(seat), legal)
        game.push(move)
    final = game.state
    faulty = {fault.seat for fault in judge.faults}
    ranking = tuple(
        sorted(range(len(bots)), key=lambda s: (s in faulty, -final.scores[s], s))
    )
    top = ranking[0]
    winners = tuple(
        s
        for s in ranking
        if (s in faulty) == (top in faulty) and final.scores[s] == final.scores[top]
    )
    return MatchResult(
        players=names,
        scores=final.scores,
        winners=tuple(sorted(winners)),
        ranking=ranking,
        record=game.record(),
        faults=tuple(judge.faults),
    )


def _seat_bot(player: str | Bot, seed: int, seat: int) -> Bot:
    if isinstance(player, str):
        return create(player, seed=bot_seed(seed, seat))
    if not callable(getattr(player, "choose", None)):
        raise TajMahalError(
            f"seat {seat}: {player!r} is neither a bot name nor a bot (an object with "
            "choose(view, legal_moves))"
        )
    return player


def _bot_name(bot: Bot) -> str:
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else type(bot).__name__


class _Call:
    """One ``choose`` call, run in the calling thread or in a worker thread."""

    def __init__(self, bot: Bot, view: PlayerView, legal: tuple[Move, ...]) -> None:
        self.bot, self.view, self.legal = bot, view, legal
        self.move: object = None
        self.error: BaseException | None = None
        self.elapsed = 0.0

    def run(self) -> None:
        start = time.perf_counter()
        try:
            self.move = self.bot.choose(self.view, self.legal)
        except KeyboardInterrupt:
            raise  # the user stops the match, not the bot
        except BaseException as exc:  # even sys.exit(): a bot's bug is a fault, not the referee's
            self.error = exc
        finally:
            self.elapsed = time.perf_counter() - start


class _Judge:
    """Asks each bot for its decisions and turns misbehaviour into faults."""

    def __init__(self, bots: Sequence[Bot], time_limit: float | None) -> None:
        self.bots = bots
        self.time_limit = time_limit
        self.faults: list[Fault] = []
        self.busy: dict[int, tuple[threading.Thread, int]] = {}  # seat -> abandoned call

    def decide(self, seat: int, decision: int, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        fallback = legal[0]
        if seat in self.busy:
            thread, since = self.busy[seat]
            if thread.is_alive():
                return self._fault(
                    seat, decision, FaultKind.TIMEOUT,
                    f"still running decision {since}, which exceeded the time limit",
                    fallback,
                )
            del self.busy[seat]
        call = _Call(self.bots[seat], view, legal)
        limit = self.time_limit
        if limit is None:
            call.run()
        else:
            thread = threading.Thread(target=call.run, name=f"tajmahal-seat-{seat}", daemon=True)
            thread.start()
            thread.join(limit)
            if thread.is_alive():
                self.busy[seat] = (thread, decision)
                return self._fault(
                    seat, decision, FaultKind.TIMEOUT,
                    f"no move after the {limit:g} s time limit", fallback,
                )
        if call.error is not None:
            detail = f"{type(call.error).__name__}: {call.error}"
            return self._fault(seat, decision, FaultKind.EXCEPTION, detail, fallback)
        if limit is not None and call.elapsed > limit:
            detail = f"took {call.elapsed:.3f} s, more than the {limit:g} s time limit"
            return self._fault(seat, decision, FaultKind.TIMEOUT, detail, fallback)
        chosen = _legal_twin(call.move, legal)
        if chosen is None:
            move = call.move
            shown = str(move) if type(move) in _MOVE_TYPES else _safe_repr(move)
            detail = f"returned {shown}, which is not one of the {len(legal)} legal moves"
            return self._fault(seat, decision, FaultKind.ILLEGAL_MOVE, detail, fallback)
        return chosen

    def _fault(
        self, seat: int, decision: int, kind: FaultKind, detail: str, fallback: Move
    ) -> Move:
        self.faults.append(Fault(seat, decision, kind, f"{detail}; played {fallback}"))
        return fallback


def _legal_twin(move: object, legal: tuple[Move, ...]) -> Move | None:
    """The engine's own legal move equal to ``move``, or None.

    Only the exact move classes qualify (a subclass could override ``__eq__``),
    and the engine's object is played, never the bot's.
    """
    if type(move) not in _MOVE_TYPES:
        return None
    try:
        return legal[legal.index(move)]
    except Exception:  # not legal, or an exotic field's __eq__ raised
        return None


def _safe_repr(value: object) -> str:
    try:
        return repr(value)[:200]
    except Exception:
        return f"<unprintable {type(value).__name__}>"

