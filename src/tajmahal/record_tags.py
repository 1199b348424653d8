"""The former home of :mod:`tajmahal.referee.record_tags`, kept for code that imports it.

The same names, the same objects; new code imports from :mod:`tajmahal.referee.record_tags`.

>>> import tajmahal.record_tags, tajmahal.referee.record_tags
>>> tajmahal.record_tags.match_tags is tajmahal.referee.record_tags.match_tags
True
"""

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
