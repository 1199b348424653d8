"""The former home of :mod:`tajmahal.hookspecs`, kept for code that imports it.

The same names, the same objects; new code imports from :mod:`tajmahal.hookspecs`.

>>> import tajmahal.bots.hookspecs, tajmahal.hookspecs
>>> tajmahal.bots.hookspecs.tajmahal_match_started is tajmahal.hookspecs.tajmahal_match_started
True
"""

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
