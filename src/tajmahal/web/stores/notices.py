"""The notices several server processes send each other through PostgreSQL's LISTEN/NOTIFY.

A notice is a hint to read the database, never the data itself: any role that may connect
may ``NOTIFY`` on these channels, so a payload is parsed with limits (its size, its depth,
each field's type and range) and anything odd is ignored (:func:`parse_notice` returns
None). What a notice says is then checked against the database: a "decision" notice makes
a replica read the game's stored moves, an "answer" makes the sender read the handed move's
row (:meth:`~tajmahal.web.stores.coordination.Coordination.collect_answer`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeGuard

import attrs

from tajmahal._moved import renamed_names

__all__ = [
    "ANSWERS",
    "DECISIONS",
    "HANDED",
    "MAX_NOTICE_BYTES",
    "GameChanged",
    "MoveAnswered",
    "MoveHanded",
    "Notice",
    "moves_digest",
    "parse_notice",
]

DECISIONS = "tajmahal_decisions"  #: channel: a game changed (a move, an undo, its end)
HANDED = "tajmahal_handed"  #: channel: a move was handed to a game's holder
ANSWERS = "tajmahal_answers"  #: channel: the holder answered a handed move (in its row)
MAX_NOTICE_BYTES = 400  #: a payload longer than this is not one of ours (ours are ~60)
MAX_NUMBER = 1_000_000  #: the largest decision number a notice may name
MAX_ID = 2**63 - 1  #: the largest handed move's id (a BIGSERIAL)
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_CHANGES = ("move", "undo", "finish")


@attrs.frozen
class GameChanged:
    """Notice: game ``game_id`` changed. ``change`` is ``'move'`` (decision ``number`` was
    committed), ``'undo'`` (moves ``number`` and later were removed) or ``'finish'``."""

    game_id: str
    change: str
    number: int | None = None


@attrs.frozen
class MoveHanded:
    """Notice: handed move ``id`` waits for the holder of ``game_id``."""

    game_id: str
    id: int


@attrs.frozen
class MoveAnswered:
    """Notice: the holder answered handed move ``id`` (the answer is in its row, not here:
    ``error`` is kept for older senders and never trusted)."""

    game_id: str
    id: int
    error: str | None = None


Notice = GameChanged | MoveHanded | MoveAnswered

if not TYPE_CHECKING:  # the former names, deprecated (type checkers see only the new ones)
    __getattr__ = renamed_names(
        __name__, {"Decision": "GameChanged", "Handed": "MoveHanded", "Answer": "MoveAnswered"}
    )


def parse_notice(channel: str, payload: str) -> Notice | None:
    """A notice from its channel and JSON payload; None if it is not one of ours (too long,
    too deep, a wrong type, a number out of range, an unknown kind).

    >>> parse_notice(DECISIONS, '{"game": "g1", "change": "move", "number": 3}')
    GameChanged(game_id='g1', change='move', number=3)
    >>> parse_notice(ANSWERS, '{"game": "g1", "id": 8}')
    MoveAnswered(game_id='g1', id=8, error=None)
    >>> parse_notice(HANDED, 'not json') is None
    True
    >>> parse_notice(DECISIONS, '{"game": "g1", "change": "undo", "number": 0}') is None
    True
    """
    if type(payload) is not str or len(payload) > MAX_NOTICE_BYTES:
        return None
    if payload.count("{") + payload.count("[") > 1:  # ours are one flat object
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    game, number, ident = data.get("game"), data.get("number"), data.get("id")
    if not isinstance(game, str) or not _GAME_ID.fullmatch(game):
        return None
    if channel == DECISIONS and data.get("change") in _CHANGES:
        if number is None and data["change"] == "finish":
            return GameChanged(game, "finish")
        if _counted(number, MAX_NUMBER):
            return GameChanged(game, data["change"], number)
    elif channel == HANDED and _counted(ident, MAX_ID):
        return MoveHanded(game, ident)
    elif channel == ANSWERS and _counted(ident, MAX_ID):
        return MoveAnswered(game, ident)
    return None


def _counted(value: object, most: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= most


def moves_digest(moves: Iterable[tuple[int, int, str]]) -> str:
    """The digest of a game's moves (number, seat, text), as the database computes it
    (:meth:`~tajmahal.web.stores.postgres.PostgresStore.sync`): equal digests, equal games.

    >>> moves_digest([])
    ''
    >>> len(moves_digest([(1, 0, "withdraw")]))
    32
    """
    lines = "\n".join(f"{number} {seat} {text}" for number, seat, text in moves)
    return hashlib.md5(lines.encode(), usedforsecurity=False).hexdigest() if lines else ""
