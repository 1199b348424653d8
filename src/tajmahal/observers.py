"""The former home of :mod:`tajmahal.referee.observers` (deprecated).

The same names, the same objects; importing this module warns: import from the new home
(this module is removed in 0.4.0).
"""

from tajmahal._moved import warn_moved
from tajmahal.referee.observers import (
    HOOKS,
    DecisionDataset,
    ObserverWarning,
    Watchers,
)

__all__ = [
    "HOOKS",
    "DecisionDataset",
    "ObserverWarning",
    "Watchers",
]

warn_moved(__name__, "tajmahal.referee.observers")
