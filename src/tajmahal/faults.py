"""The former home of :mod:`tajmahal.referee.faults`, kept for code that imports it.

The same names, the same objects; new code imports from :mod:`tajmahal.referee.faults`.

>>> import tajmahal.faults, tajmahal.referee.faults
>>> tajmahal.faults.FaultKind is tajmahal.referee.faults.FaultKind
True
"""

from tajmahal.referee.faults import (
    MAX_DETAIL,
    MAX_SECONDS,
    MAX_TRACEBACK,
    Fault,
    FaultKind,
)

__all__ = [
    "MAX_DETAIL",
    "MAX_SECONDS",
    "MAX_TRACEBACK",
    "Fault",
    "FaultKind",
]
