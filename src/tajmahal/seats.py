"""The former home of :mod:`tajmahal.referee.seats`, kept for code that imports it.

The same names, the same objects; new code imports from :mod:`tajmahal.referee.seats`.

>>> import tajmahal.seats, tajmahal.referee.seats
>>> tajmahal.seats.watching_interrupts is tajmahal.referee.seats.watching_interrupts
True
"""

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
