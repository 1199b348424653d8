"""The referee's decision step: ask a seat, judge its answer, record its faults and time.

One step for every caller: :func:`~tajmahal.play_match` (seats asked in this
process or through the bot protocol) and the web server (seats asked in its
bot workers, asynchronously).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import attrs

from tajmahal._escape import log_text
from tajmahal.faults import Fault, FaultKind
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView
from tajmahal.seat_contract import Answer, SeatPlayer

__all__ = ["Referee"]

log = logging.getLogger("tajmahal.referee")  # every fault: time-outs, crashes, bad moves


class Referee:
    """The decision step of one match: asks each seat for its decisions, keeps the clocks,
    judges each answer and records what went wrong as faults.

    :func:`~tajmahal.play_match` and the web server (whose seats are asked
    asynchronously) share it: :meth:`decide` asks and judges in one call; a
    caller that asks a seat itself calls :meth:`clock_out` (the time the seat
    is given, or a timeout at once), then :meth:`judge` with the answer.
    :attr:`faults` and :attr:`times` are the record's: a fault per faulty
    decision (decision 0: building the bot), seconds per decision.

    >>> import tajmahal as tm
    >>> from tajmahal.referee.seats import InProcessSeat
    >>> seats = [InProcessSeat.build('random', seed=seat, limit=None) for seat in range(3)]
    >>> referee = Referee(seats, time_limit=None, game_time=None)
    >>> state = tm.new_game(3, seed=1)
    >>> seat = state.current_player
    >>> move = referee.decide(seat, 1, state.view(seat), state.legal_moves())
    >>> move in state.legal_moves(), referee.faults, len(referee.times)
    (True, [], 1)
    """

    def __init__(
        self, seats: Sequence[SeatPlayer], time_limit: float | None, game_time: float | None
    ) -> None:
        self.seats = seats
        self.time_limit = time_limit
        self.game_time = game_time
        self.clocks: list[float | None] = [game_time] * len(seats)
        self.faults: list[Fault] = []
        self.times: list[float] = []  #: seconds each decision took, in record order
        self.limit: float | None = None  #: the time the last decision asked for was given
        for number, seat in enumerate(seats):
            setup = getattr(seat, "setup_fault", None)
            if isinstance(setup, Answer) and setup.kind is not None:
                self._fault(Fault(number, 0, setup.kind, setup.detail, setup.traceback))
                self._charge(number, setup.elapsed)

    def decide(
        self, seat: int, decision: int, view: PlayerView, legal: tuple[Move, ...]
    ) -> Move:
        """Ask ``seat`` for decision number ``decision`` and judge its answer: the move played."""
        return self.judge(seat, decision, legal, self.ask(seat, decision, view, legal))

    def ask(self, seat: int, decision: int, view: PlayerView, legal: tuple[Move, ...]) -> Answer:
        """The seat's answer, within its time (a timeout at once if its clock has run out)."""
        early = self.clock_out(seat)
        if early is not None:
            return early
        return self.seats[seat].choose(view, legal, self.limit, decision)

    def clock_out(self, seat: int) -> Answer | None:
        """Before asking ``seat``: a timeout answer if its game clock has run out, else None
        and :attr:`limit` is the time it is given (for a caller that asks the seat itself)."""
        clock = self.clocks[seat]
        if clock is not None and clock <= 0:
            self.limit = None  # not asked
            return Answer(
                kind=FaultKind.TIMEOUT,
                detail=f"its game clock of {self.game_time:g} s has run out",
            )
        self.limit = _least(self.time_limit, clock) if clock is not None else self.time_limit
        return None

    def judge(self, seat: int, decision: int, legal: tuple[Move, ...], answer: Answer) -> Move:
        """The move ``answer`` (to :meth:`ask`) stands for: its choice, or the fallback."""
        clock, limit = self.clocks[seat], self.limit
        if clock is not None and limit is not None:  # asked: the time comes off its clock
            self.clocks[seat] = clock - answer.elapsed
            if answer.kind is FaultKind.TIMEOUT and limit != self.time_limit:
                answer = attrs.evolve(answer, detail=f"{answer.detail} (what was left of its "
                                      f"{self.game_time:g} s game clock)")
        self.times.append(answer.elapsed)
        index = answer.index
        if index is not None and 0 <= index < len(legal):
            return legal[index]
        fallback = legal[0]
        kind = answer.kind if answer.kind is not None else FaultKind.ILLEGAL_MOVE
        detail = f"{answer.detail}; played {fallback}"
        self._fault(Fault(seat, decision, kind, detail, answer.traceback))
        return fallback

    def _fault(self, fault: Fault) -> None:
        self.faults.append(fault)
        log.warning("%s", log_text(fault))  # one line, whatever the bot wrote

    def _charge(self, seat: int, seconds: float) -> None:
        clock = self.clocks[seat]
        if clock is not None:
            self.clocks[seat] = clock - seconds


def _least(*limits: float | None) -> float | None:
    given = [limit for limit in limits if limit is not None]
    return max(0.0, min(given)) if given else None
