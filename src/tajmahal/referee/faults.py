"""The former home of :mod:`tajmahal.faults` (deprecated: import from there).

The same names, the same objects; importing this module warns.
"""

from tajmahal._moved import warn_moved
from tajmahal.faults import MAX_DETAIL, MAX_SECONDS, MAX_TRACEBACK, Fault, FaultKind

__all__ = ["MAX_DETAIL", "MAX_SECONDS", "MAX_TRACEBACK", "Fault", "FaultKind"]

warn_moved(__name__, "tajmahal.faults")
