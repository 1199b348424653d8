"""Problems found in a state or a view: where (a JSON path) and what, and the error listing them.

:mod:`tajmahal.rules.validate` finds them in states, the views' sampling in
views; both raise :class:`InvalidStateError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from tajmahal.rules.errors import TajMahalError

__all__ = ["InvalidStateError", "Path", "Problem", "format_path"]

Path = tuple[str | int, ...]
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MAX_LISTED = 8


def format_path(path: Path) -> str:
    """A JSON path for ``path``: ``$``, then ``.key`` or ``['odd key']`` and ``[index]``.

    >>> format_path(('hands', 2, 0)), format_path(('normal_palaces', 'agra')), format_path(())
    ('$.hands[2][0]', '$.normal_palaces.agra', '$')
    """
    parts = ["$"]
    for part in path:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif _IDENT.match(part):
            parts.append(f".{part}")
        else:
            parts.append(f"[{part!r}]")
    return "".join(parts)


@attrs.frozen
class Problem:
    """One impossible part of a state: where (a path, see :func:`format_path`) and what.

    >>> str(Problem(('scores', 1), 'a score cannot be negative, got -3'))
    '$.scores[1]: a score cannot be negative, got -3'
    """

    path: Path
    message: str

    def __str__(self) -> str:
        return f"{format_path(self.path)}: {self.message}"


class InvalidStateError(TajMahalError, ValueError):
    """A state (or view) that no game can reach; ``problems`` lists what is wrong.

    >>> err = InvalidStateError([Problem(('visit',), 'must be 1..12, got 13')])
    >>> str(err), len(err.problems)
    ('impossible state: $.visit: must be 1..12, got 13', 1)
    """

    def __init__(self, problems: Iterable[Problem], what: str = "state") -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        listed = "; ".join(str(p) for p in self.problems[:_MAX_LISTED])
        more = len(self.problems) - _MAX_LISTED
        if more > 0:
            listed += f"; and {more} more"
        super().__init__(f"impossible {what}: {listed}")
