"""The former home of :mod:`tajmahal.referee.record_tags` (deprecated).

The same names, the same objects; importing this module warns: import from the new home
(this module is removed in 0.4.0).
"""

from tajmahal._moved import warn_moved
from tajmahal.referee.record_tags import (
    RESERVED,
    check_tags,
    match_tags,
)

__all__ = [
    "RESERVED",
    "check_tags",
    "match_tags",
]

warn_moved(__name__, "tajmahal.referee.record_tags")
