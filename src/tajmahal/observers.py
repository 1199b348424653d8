"""The former home of :mod:`tajmahal.referee.observers`, kept for code that imports it.

The same names, the same objects; new code imports from :mod:`tajmahal.referee.observers`.

>>> import tajmahal.observers, tajmahal.referee.observers
>>> tajmahal.observers.Watchers is tajmahal.referee.observers.Watchers
True
"""

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
