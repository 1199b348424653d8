"""Seat players: how the referee asks one seat for its decisions, bounded in time.

The referee talks to every seat through the
:class:`~tajmahal.seat_contract.SeatPlayer` protocol (``name``, ``choose``,
``close``; :mod:`tajmahal.seat_contract`, re-exported here);
:class:`InProcessSeat` runs a Python bot in this process.  A seat answers each
decision with an :class:`~tajmahal.seat_contract.Answer`: the index of the
chosen legal move, or a fault — never a bot's own object, so the referee never
touches what a bot made.

**Worker threads.**  With a time limit, an in-process seat runs all its
bot's code — building the bot, reading its ``name``, ``choose``, and
describing whatever it returned or raised — in one daemon worker thread of
its own, and waits for each call at most the time allowed.  Without a time
limit the same code runs in the calling thread (there is nothing to bound).
A match played in a thread of its own (every seat in-process, with a time
limit) runs the decisions in that thread instead, timed by a
:class:`MatchTimer`: the thread that started the match abandons a late call,
and the match goes on in a new thread.

**Ctrl-C.**  A ``KeyboardInterrupt`` or ``SystemExit`` raised by a bot is
the bot's fault; the user's Ctrl-C stops the match.  Python raises the
user's Ctrl-C in the main thread only: with a time limit it reaches the
referee waiting there, not the thread running the bot; without one,
:func:`~tajmahal.referee.seats.watching_interrupts` marks it as it arrives.

**Moves handed to a bot.**  The engine's moves are values shared by every
game (built once per set of components).  A seat hands its bot copies of
them, its own: made the first time the seat meets each move, and handed over
again at every later decision that offers that move (no copying per
decision).  A bot that changes one in place (``object.__setattr__``) changes
only what it is itself handed; what it returns is judged by value against
the engine's moves, as always.

**Abandoned calls.**  A thread cannot be killed: a call that exceeds its
time keeps running.  The seat does not ask its bot again until that call
returns (each decision meanwhile is a timeout fault), and a bot object never
runs two calls at once, also across matches.  At most
:data:`MAX_ABANDONED` abandoned calls may be running in one process; while
that many are, new in-process seats are not started (their decisions are
``unavailable`` faults), so that a process running many matches does not
slow down without bound.  Run untrusted bots in a separate process.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import time
from typing import TYPE_CHECKING, Any

import attrs

from tajmahal.bots.base import Bot
from tajmahal.bots.untrusted import exception_text, plain_text, traceback_text, type_name
from tajmahal.faults import MAX_DETAIL, MAX_SECONDS, MAX_TRACEBACK, FaultKind
from tajmahal.referee.move_copies import copy_move, judge_choice
from tajmahal.referee.seat_threads import (
    _BUSY,
    _LOCK,
    CallAbandoned,
    MatchStopped,
    MatchTimer,
    _guarded,
    _Job,
    _SeatThread,
    abandoned_calls,
    reraise_user_interrupt,
    watching_interrupts,
)
from tajmahal.rules.components import Card
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import (
    Move,
)
from tajmahal.rules.views import PlayerView
from tajmahal.seat_contract import Answer, SeatPlayer, timeout_answer

if TYPE_CHECKING:  # the bots package loads when a seat is first built from a spec
    from tajmahal.bots.specs import PlayerSpec

__all__ = [
    "MAX_ABANDONED",
    "Answer",
    "CallAbandoned",
    "InProcessSeat",
    "MatchStopped",
    "MatchTimer",
    "SeatPlayer",
    "abandoned_calls",
    "check_seconds",
    "reraise_user_interrupt",
    "timeout_answer",
    "watching_interrupts",
]

MAX_ABANDONED = 16  #: abandoned bot calls that may run at once in one process
MAX_NAME = 64  #: the most characters of a bot's name
CLOSE_LIMIT = 5.0  #: seconds a bot's ``close()`` may take at the end of a match


# ---------------------------------------------------------------------------- the seat


class InProcessSeat:
    """A Python bot in this process, run in a worker thread of its own (see the module docs).

    Build it with :meth:`build`; a bot that cannot be built (its constructor
    raised or stalled) leaves the seat without a bot: :attr:`~InProcessSeat.setup_fault`
    says why and every decision is an ``unavailable`` answer.

    >>> import tajmahal as tm
    >>> seat = InProcessSeat.build('greedy', seed=1, limit=2.0)
    >>> state = tm.new_game(3, seed=1)
    >>> answer = seat.choose(state.view(0), state.legal_moves(), limit=2.0)
    >>> str(state.legal_moves()[answer.index]), seat.name, seat.setup_fault
    ('play red:elephant+monk', 'greedy', None)
    >>> seat.close()
    """

    #: why the seat has no bot (its constructor raised or stalled), or None
    setup_fault: Answer | None

    def __init__(self, bot: Bot | None, name: str) -> None:
        self.bot, self._name = bot, name
        self._owns_bot = False  # built here from a spec: closed with the seat
        self._worker: _SeatThread | None = None
        self._timer: MatchTimer | None = None  # the match's, when it runs in a thread of its own
        self.setup_fault = None
        # the engine's moves (by id) -> this seat's copies, made once each per seat
        self._copies: dict[int, Move] = {}
        self._cards: dict[int, Card] = {}
        self._originals: list[Move] = []

    @property
    def busy(self) -> bool:
        """Whether a call of this seat's bot that was abandoned (past its time) still runs.

        >>> InProcessSeat(None, 'nobody').busy
        False
        """
        bot = self.bot
        if bot is None or not _BUSY:
            return False
        with _LOCK:
            running = _BUSY.get(id(bot))
        return running is not None and not running.finished

    @classmethod
    def _running(cls, bot: Bot, name: str, worker: _SeatThread) -> InProcessSeat:
        seat = cls(bot, name)
        seat._worker = worker
        return seat

    @property
    def name(self) -> str:
        """The seat's player name: the spec, or the bot instance's ``name`` (safely read).

        >>> class Nameless:
        ...     def choose(self, view, legal_moves):
        ...         return legal_moves[0]
        >>> InProcessSeat.build('greedy:enough=3', seed=0, limit=None).name
        'greedy:enough=3'
        >>> InProcessSeat.build(Nameless(), seed=0, limit=None).name
        'Nameless'
        """
        return self._name

    @classmethod
    def build(
        cls, player: str | PlayerSpec | Bot, seed: int, limit: float | None, registry: Any = None
    ) -> InProcessSeat:
        """A seat for ``player`` (a player spec or a bot instance), built within ``limit`` seconds.

        A spec given as text is parsed and checked here; a :class:`~tajmahal.bots.PlayerSpec`
        is taken as checked already (the referee checks every spec once, on entry).

        A spec's bot is built as ``BotClass(seed=seed, **options)``.  A
        ``TypeError`` or ``ValueError`` from a constructor given options is a
        bad option value: :class:`~tajmahal.bots.SpecError`.  Any other
        failure, or a constructor that stalls, is the seat's
        :attr:`~InProcessSeat.setup_fault`.

        >>> import tajmahal as tm
        >>> class Picky:
        ...     name = 'picky'
        ...     def __init__(self, seed=0, level=1):
        ...         if level not in (1, 2):
        ...             raise ValueError(f'level is 1 or 2, not {level}')
        ...     def choose(self, view, legal_moves):
        ...         return legal_moves[0]
        >>> class Plugin:
        ...     @tm.hookimpl
        ...     def tajmahal_bots(self):
        ...         return [Picky]
        >>> registry = tm.bots.Registry(entry_points=False)
        >>> registry.register(Plugin(), name='picky')
        >>> InProcessSeat.build('picky:level=3', seed=0, limit=1.0, registry=registry)
        Traceback (most recent call last):
        ...
        tajmahal.bots.specs.SpecError: player spec 'picky:level=3': bad option value: ...
        """
        from tajmahal.bots.specs import PlayerSpec, SpecError, bot_class_of, check_spec

        if isinstance(player, str | PlayerSpec):
            spec = check_spec(player, registry) if isinstance(player, str) else player
            if spec.is_command:
                raise SpecError(f"player spec {spec.text!r}: in-process seats run Python bots only")
            bot_class = bot_class_of(spec, registry)
            options = dict(spec.options)
            name = spec.text

            def make() -> Any:
                return _construct(bot_class, seed, options)

        else:
            if not callable(inspect.getattr_static(player, "choose", None)):
                raise TajMahalError(
                    f"a {type_name(player)} is neither a player spec nor a bot (an object with "
                    "choose(view, legal_moves))"
                )
            instance, name = player, ""

            def make() -> Any:
                return _name_of(instance)

        if abandoned_calls() >= MAX_ABANDONED:
            seat = cls(None, name or type_name(player))
            seat.setup_fault = Answer(
                kind=FaultKind.UNAVAILABLE,
                detail=f"not started: {MAX_ABANDONED} abandoned bot calls are still running in "
                "this process (see 'Abandoned calls' in the docs of tajmahal.referee.seats)",
            )
            return seat
        worker = _SeatThread()
        job = _Job(make)
        finished, elapsed = worker.call(job, limit)
        if not finished:
            worker.stop()
            seat = cls(None, name or type_name(player))
            seat.setup_fault = Answer(
                kind=FaultKind.TIMEOUT,
                detail=f"building the bot took more than {limit:g} s",
                elapsed=elapsed,
            )
            return seat
        result = job.result
        if isinstance(player, str | PlayerSpec):
            if isinstance(result, _BadOption):
                worker.stop()
                raise SpecError(f"player spec {name!r}: bad option value: {result.detail}")
            if isinstance(result, Answer):
                worker.stop()
                seat = cls(None, name)
                seat.setup_fault = attrs.evolve(result, elapsed=elapsed)
                return seat
            seat = cls._running(result, name, worker)
            seat._owns_bot = True
            return seat
        if isinstance(result, Answer):  # reading ``name`` failed: the bot still plays
            return cls._running(player, type_name(player), worker)
        return cls._running(player, result, worker)

    def choose(
        self, view: PlayerView, legal: tuple[Move, ...], limit: float | None, decision: int = 0
    ) -> Answer:
        """Ask the bot for one decision (see :class:`SeatPlayer`).

        >>> import tajmahal as tm
        >>> class Slow:
        ...     name = 'slow'
        ...     def choose(self, view, legal_moves):
        ...         import time; time.sleep(0.5); return legal_moves[0]
        >>> seat = InProcessSeat.build(Slow(), seed=0, limit=1.0)
        >>> state = tm.new_game(3, seed=1)
        >>> seat.choose(state.view(0), state.legal_moves(), limit=0.05).kind
        <FaultKind.TIMEOUT: 'timeout'>
        """
        if self.bot is None or self._worker is None:
            fault = self.setup_fault
            why = fault.detail if fault is not None else "no bot"
            return Answer(kind=FaultKind.UNAVAILABLE, detail=f"the seat has no bot ({why})")
        bot = self.bot
        running = None
        if _BUSY:  # only while some call is abandoned (reading an empty dict needs no lock)
            with _LOCK:
                running = _BUSY.get(id(bot))
        if running is not None and not running.finished:
            return Answer(
                kind=FaultKind.TIMEOUT,
                detail="the bot is still running an earlier call that exceeded its time limit",
            )
        copies = self._copies_of(legal)

        def work() -> Answer | int:
            try:
                chosen = bot.choose(view, copies)
            except BaseException as exc:  # SystemExit, KeyboardInterrupt: the bot's, not the user's
                reraise_user_interrupt(exc)
                return Answer(
                    kind=FaultKind.EXCEPTION,
                    detail=exception_text(exc, MAX_DETAIL - 100),
                    traceback=traceback_text(exc, MAX_TRACEBACK),
                )
            return judge_choice(chosen, legal, copies)

        result: Answer | int
        if limit is None:  # in this thread: nothing to bound (see watching_interrupts)
            start = time.perf_counter()
            result = _guarded(work)
            elapsed = time.perf_counter() - start
        else:
            job = _Job(work, bot)
            calls = self._timer if self._timer is not None else self._worker
            finished, elapsed = calls.call(job, limit)
            if not finished:
                return timeout_answer(limit, elapsed)
            result = job.result
        if limit is not None and elapsed > limit:
            detail = f"took {elapsed:.3f} s, more than the {limit:.3g} s time limit"
            return Answer(kind=FaultKind.TIMEOUT, detail=detail, elapsed=elapsed)
        if type(result) is int:
            return Answer(index=result, elapsed=elapsed)
        assert isinstance(result, Answer)
        return attrs.evolve(result, elapsed=elapsed)

    def timed_by(self, timer: MatchTimer) -> None:
        """Run the bot's decisions in the calling thread from now on, timed by ``timer``
        (a match in a thread of its own); building and closing the bot keep the worker.

        >>> import tajmahal as tm
        >>> seat = InProcessSeat.build('random', seed=1, limit=1.0)
        >>> seat.timed_by(MatchTimer(tick=0.1))
        >>> state = tm.new_game(3, seed=1)
        >>> seat.choose(state.view(0), state.legal_moves(), limit=1.0).index is not None
        True
        >>> seat.close()
        """
        self._timer = timer

    def _copies_of(self, legal: tuple[Move, ...]) -> tuple[Move, ...]:
        """The seat's own copies of ``legal`` (see "Moves handed to a bot" in the module docs)."""
        copies = self._copies
        try:
            return tuple(map(copies.__getitem__, map(id, legal)))
        except KeyError:
            for move in legal:
                if id(move) not in copies:
                    self._originals.append(move)  # alive while its id is a key
                    copies[id(move)] = copy_move(move, self._cards)
            return tuple([copies[id(move)] for move in legal])

    def close(self) -> None:
        """Call the bot's own ``close()`` if it has one (within ``CLOSE_LIMIT``, 5 seconds;
        what it raises is ignored), then stop the worker thread (after the call it may
        still be running).

        A bot that holds processes or files (``ismcts:jobs=2``) releases them
        here, at the end of the match.  A bot instance handed to the referee
        (not a spec) is the caller's: it is not closed.

        >>> InProcessSeat.build('random', seed=0, limit=None).close()
        """
        bot, worker = self.bot, self._worker
        if bot is not None and worker is not None and self._owns_bot:
            closer = inspect.getattr_static(bot, "close", None)
            if callable(closer) and not _BUSY.get(id(bot)):

                def work() -> None:
                    with contextlib.suppress(Exception):
                        bot.close()  # type: ignore[attr-defined]

                worker.call(_Job(work, owner=bot), CLOSE_LIMIT)
        if worker is not None:
            worker.stop()
            self._worker = None
        self.bot = None


@attrs.frozen
class _BadOption:
    detail: str


def _construct(bot_class: Any, seed: int, options: dict[str, Any]) -> Any:
    """Runs in the worker: the bot, or a :class:`_BadOption`, or a fault :class:`Answer`."""
    try:
        return bot_class(seed=seed, **options)
    except (TypeError, ValueError) as exc:
        if options:
            return _BadOption(exception_text(exc, MAX_DETAIL - 100))
        return _setup_exception(exc)
    except BaseException as exc:
        reraise_user_interrupt(exc)
        return _setup_exception(exc)


def _setup_exception(exc: BaseException) -> Answer:
    return Answer(
        kind=FaultKind.EXCEPTION,
        detail="building the bot: " + exception_text(exc, MAX_DETAIL - 100),
        traceback=traceback_text(exc, MAX_TRACEBACK),
    )


def _name_of(bot: Any) -> str | Answer:
    """Runs in the worker: the bot's ``name`` if it is a short printable string."""
    try:
        name = plain_text(getattr(bot, "name", None), MAX_NAME + 1)
    except BaseException as exc:
        reraise_user_interrupt(exc)
        return Answer(kind=FaultKind.EXCEPTION, detail=exception_text(exc, 100))
    if name and len(name) <= MAX_NAME and name.isprintable():
        return name
    return type_name(bot)


def check_seconds(value: object, what: str) -> float | None:
    """``value`` as a number of seconds (None stays None); a clear error if it is not one.

    >>> check_seconds(1.5, 'time_limit'), check_seconds(None, 'game_time')
    (1.5, None)
    >>> check_seconds(float('nan'), 'time_limit')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.TajMahalError: time_limit must be a number of seconds above 0 and at most 86400, got nan
    """  # noqa: E501
    if value is None:
        return None
    if type(value) not in (int, float) or not (0 < value <= MAX_SECONDS):  # type: ignore[operator]
        shown = value if type(value) in (int, float) else type_name(value)
        raise TajMahalError(
            f"{what} must be a number of seconds above 0 and at most {MAX_SECONDS:g}, got {shown}"
        )
    assert isinstance(value, int | float) and math.isfinite(value)
    return float(value)

