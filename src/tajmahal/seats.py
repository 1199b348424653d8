"""The former home of :mod:`tajmahal.referee.seats` (deprecated).

The same names, the same objects; importing this module warns: import from the new home
(this module is removed in 0.4.0).
"""

from tajmahal._moved import warn_moved
from tajmahal.referee.seats import (
    MAX_ABANDONED,
    Answer,
    InProcessSeat,
    SeatPlayer,
    abandoned_calls,
    check_seconds,
    reraise_user_interrupt,
    watching_interrupts,
)

__all__ = [
    "MAX_ABANDONED",
    "Answer",
    "InProcessSeat",
    "SeatPlayer",
    "abandoned_calls",
    "check_seconds",
    "reraise_user_interrupt",
    "watching_interrupts",
]

warn_moved(__name__, "tajmahal.referee.seats")
