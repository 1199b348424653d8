"""What a seat answers: the contract between the referee and every kind of seat.

The referee asks each seat for its decisions through :class:`SeatPlayer`
(an in-process bot, :class:`tajmahal.referee.seats.InProcessSeat`; a bot
program, :class:`tajmahal.protocol.ProcessSeat`; the web server's seats) and
gets an :class:`Answer` back: a legal move's index, or a fault.  A contract
below the referee, so that the bot protocol and the web server implement it
without loading the referee.  :mod:`tajmahal.referee.seats` re-exports these
names.
"""

from __future__ import annotations

from typing import Protocol

import attrs

from tajmahal.faults import FaultKind
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["Answer", "SeatPlayer", "timeout_answer"]


@attrs.frozen
class Answer:
    """A seat's answer to one decision: a legal move's index, or a fault; and the time taken.

    >>> Answer(index=2, elapsed=0.01).index
    2
    >>> Answer(kind=FaultKind.TIMEOUT, detail='no move after 1 s').kind.value
    'timeout'
    """

    index: int | None = None  #: the chosen move's position in ``legal_moves``, or None on a fault
    kind: FaultKind | None = None
    detail: str = ""
    traceback: str = ""
    elapsed: float = 0.0  #: seconds the seat took


class SeatPlayer(Protocol):
    """What the referee needs from a seat (an in-process bot, or a bot in another process).

    ``choose`` answers within ``limit`` seconds (None: no limit) with an
    :class:`Answer`; it never raises for anything the bot does.  ``decision``
    is the decision's number in the game (a bot program is told it; an
    in-process bot is not).  ``close``
    releases what the seat holds; the referee calls it once, at the end.

    >>> from tajmahal.referee.seats import InProcessSeat
    >>> seat = InProcessSeat.build('random', seed=1, limit=None)
    >>> isinstance(seat.name, str)
    True
    >>> seat.close()
    """

    @property
    def name(self) -> str: ...

    def choose(
        self, view: PlayerView, legal: tuple[Move, ...], limit: float | None, decision: int = 0
    ) -> Answer:
        """Ask for one decision (see the class docstring).

        >>> import tajmahal as tm
        >>> state = tm.new_game(3, seed=1)
        >>> from tajmahal.referee.seats import InProcessSeat
        >>> seat = InProcessSeat.build('random', seed=1, limit=None)
        >>> seat.choose(state.view(0), state.legal_moves(), limit=1.0).index is not None
        True
        """
        ...

    def close(self) -> None:
        """Release the seat's resources.

        >>> from tajmahal.referee.seats import InProcessSeat
        >>> InProcessSeat.build('random', seed=1, limit=None).close()
        """
        ...


def timeout_answer(limit: float, elapsed: float) -> Answer:
    """The answer of a call that had no move when its ``limit`` ran out.

    >>> timeout_answer(0.5, elapsed=0.52).detail
    'no move after the 0.5 s time limit'
    """
    detail = f"no move after the {limit:.3g} s time limit"
    return Answer(kind=FaultKind.TIMEOUT, detail=detail, elapsed=elapsed)
