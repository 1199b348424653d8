"""The former home of :mod:`tajmahal.hookspecs` (deprecated).

The same names, the same objects; importing this module warns: import from the new home
(this module is removed in 0.4.0).
"""

from tajmahal._moved import warn_moved
from tajmahal.hookspecs import (
    PROJECT,
    hookimpl,
    hookspec,
    tajmahal_bots,
    tajmahal_decision_made,
    tajmahal_match_finished,
    tajmahal_match_started,
)

__all__ = [
    "PROJECT",
    "hookimpl",
    "hookspec",
    "tajmahal_bots",
    "tajmahal_decision_made",
    "tajmahal_match_finished",
    "tajmahal_match_started",
]

warn_moved(__name__, "tajmahal.hookspecs")
