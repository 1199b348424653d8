"""The tags a match's record keeps: what the referee knew, and what the caller adds.

Tags are short texts by short lowercase names, in the manner of a PGN
file's headers.  The referee writes ``date`` (UTC, ISO 8601), ``library``
(``tajmahal`` and its version), ``package.<seat>`` (the distribution that
installed each seat's bot, with its version, or ``unknown``), ``time_limit``
and ``game_time`` (seconds, or ``none``).  A caller adds its own, such as
``event``.
"""

from __future__ import annotations

import datetime
import functools
import importlib.metadata
from collections.abc import Mapping, Sequence
from typing import Any

from tajmahal.bots.registry import distribution_version
from tajmahal.bots.specs import PlayerSpec, parse_spec
from tajmahal.bots.untrusted import plain_text
from tajmahal.game import MAX_TAGS, tag_problem
from tajmahal.rules.errors import TajMahalError

__all__ = ["RESERVED", "check_tags", "match_tags"]

#: the tags the referee writes (a caller cannot set them)
RESERVED = ("date", "library", "time_limit", "game_time")


def check_tags(tags: Mapping[str, str] | None) -> dict[str, str]:
    """The caller's tags, checked: a clear error for a bad or reserved one.

    >>> check_tags({'event': 'club night'})
    {'event': 'club night'}
    >>> check_tags({'date': 'today'})
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.TajMahalError: tag 'date' is written by the referee; reserved: date, library, time_limit, game_time, package.<seat>
    """  # noqa: E501
    if tags is None:
        return {}
    if not isinstance(tags, Mapping) or len(tags) > MAX_TAGS // 2:
        raise TajMahalError(f"tags are a mapping of at most {MAX_TAGS // 2} names to texts")
    checked: dict[str, str] = {}
    for name, value in tags.items():
        problem = tag_problem(name, value)
        if problem:
            raise TajMahalError(problem)
        if name in RESERVED or name.startswith("package."):
            raise TajMahalError(
                f"tag {name!r} is written by the referee; reserved: {', '.join(RESERVED)}, "
                "package.<seat>"
            )
        checked[name] = value
    return checked


def match_tags(
    players: Sequence[Any], time_limit: float | None, game_time: float | None
) -> dict[str, str]:
    """The tags the referee writes for a match between ``players`` (specs, parsed or not, or bots).

    >>> tags = match_tags(['greedy', 'random', 'random'], 1.5, None)
    >>> tags['time_limit'], tags['game_time'], tags['package.0'].split()[0]
    ('1.5', 'none', 'tajmahal')
    """
    now = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    tags = {
        "date": now.isoformat().replace("+00:00", "Z"),
        "library": f"tajmahal {_version('tajmahal')}",
        "time_limit": "none" if time_limit is None else f"{time_limit:g}",
        "game_time": "none" if game_time is None else f"{game_time:g}",
    }
    for seat, player in enumerate(players):
        tags[f"package.{seat}"] = _package(player)
    return tags


def _package(player: object) -> str:
    """The distribution (with its version) that installed a player's bot, or ``unknown``."""
    if isinstance(player, str | PlayerSpec):
        from tajmahal.bots.registry import bot_infos

        name = (parse_spec(player) if isinstance(player, str) else player).name
        info = bot_infos().get(name) if name is not None else None
        return f"{info.origin} {_version(info.origin)}" if info is not None else "unknown"
    module = plain_text(type.__dict__["__module__"].__get__(type(player), type), 200) or ""
    top = module.split(".")[0]
    dists = _distributions().get(top, [])
    return f"{dists[0]} {_version(dists[0])}" if dists else "unknown"


@functools.cache
def _distributions() -> Mapping[str, list[str]]:
    return importlib.metadata.packages_distributions()


def _version(distribution: str) -> str:
    return distribution_version(distribution) or "unknown"
