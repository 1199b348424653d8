"""The store contract: what the server needs from a database, and what every store shares.

:class:`GameStore` (the interface), the rows it reads and writes (:class:`StoredGame`,
:class:`StoredMove`, :class:`TokenEntry`), its errors and a new game's :class:`Quota`. Its
implementations: :class:`~tajmahal.web.stores.sqlite.SQLiteStore` (one process) and
:class:`~tajmahal.web.stores.postgres.PostgresStore` (several processes).
Seat links are never stored: only the SHA-256 digest of each token is.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from tajmahal.rules.errors import TajMahalError

__all__ = [
    "QUOTA_COUNTS",
    "DuplicateMoveError",
    "GameStore",
    "Quota",
    "QuotaError",
    "StoreError",
    "StoredGame",
    "StoredMove",
    "TokenEntry",
    "default_db_path",
    "stored_json",
    "taken_game",
    "token_digest",
    "unknown_game",
]


class StoreError(TajMahalError):
    """The database cannot be opened or written (a clear message, never a traceback)."""


class DuplicateMoveError(StoreError):
    """A move with this number is already stored for the game (a replayed message)."""


class QuotaError(StoreError):
    """A new game past a :class:`Quota` (the message names the limit): nothing was stored."""


@attrs.frozen
class Quota:
    """The limits a new game is checked against when it is stored, in the same transaction
    as its rows, by what the database holds: every process sharing the database counts the
    same games, and a restart forgets none. ``None``: no such limit.

    A game's owner is kept as the digest of what the server names it by (the client's
    address): :func:`token_digest`, never the address itself.
    """

    owner: str  #: the client's address (kept as its digest)
    open_games: int | None = None  #: unfinished games in the database
    open_per_owner: int | None = None  #: unfinished games of one owner
    per_minute: int | None = None  #: games one owner stored in the last 60 seconds

    def refusal(self, open_games: int, owners_open: int, owners_recent: int) -> str | None:
        """Why a game cannot be added to these counts, or None.

        >>> print(Quota("10.0.0.7", open_per_owner=2).refusal(5, 2, 0))  # doctest: +ELLIPSIS
        your address has 2 unfinished games on this server, the most it may have: ...
        >>> Quota("10.0.0.7", open_per_owner=2).refusal(5, 1, 0) is None
        True
        """
        if self.per_minute is not None and owners_recent >= self.per_minute:
            return f"at most {self.per_minute} new games a minute"
        if self.open_games is not None and open_games >= self.open_games:
            return f"this server has {open_games} unfinished games: no room for more"
        if self.open_per_owner is not None and owners_open >= self.open_per_owner:
            return (
                f"your address has {owners_open} unfinished games on this server, the most it "
                "may have: finish one, or wait until one expires"
            )
        return None


def unknown_game(game_id: str) -> StoreError:
    """The error of a move for a game the database does not hold (every store says it so)."""
    return StoreError(f"no such game {game_id} in the database")


def stored_json(text: str, game_id: str, what: str) -> Any:
    """A JSON column of game ``game_id`` read back; :class:`StoreError` naming the game and
    ``what`` is damaged (every store says it so).

    >>> stored_json('{"seats": []}', 'g1', 'settings')
    {'seats': []}
    >>> stored_json('{not json', 'g1', 'settings')
    Traceback (most recent call last):
    ...
    tajmahal.web.stores.contract.StoreError: game g1 is damaged in the database: its settings are not JSON
    """  # noqa: E501
    try:
        return json.loads(text)
    except RecursionError:
        raise StoreError(f"game {game_id} is damaged in the database: its {what} nest too "
                         "deep") from None  # fmt: skip
    except (ValueError, TypeError):
        raise StoreError(
            f"game {game_id} is damaged in the database: its {what} are not JSON"
        ) from None


def taken_game(game_id: str) -> StoreError:
    """The error of a new game whose id (or one of whose tokens) is already stored."""
    return StoreError(f"game {game_id} or one of its tokens is already in the database")


@attrs.frozen
class StoredMove:
    """One decision as stored: its number (1-based), the seat, the move's text, the time taken
    and, if the referee played a fallback move for a bot, the fault (a JSON-ready dict)."""

    number: int
    seat: int
    move: str
    elapsed: float = 0.0
    fault: dict[str, Any] | None = None


@attrs.frozen
class TokenEntry:
    """What a token opens: a seat of a game, or (``seat`` None) its spectator view."""

    game_id: str
    seat: int | None


@attrs.frozen
class StoredGame:
    """A game as stored: its settings (JSON-ready), its secret seed, its moves, its record."""

    id: str
    config: dict[str, Any]
    seed: int
    created: float
    moves: tuple[StoredMove, ...] = ()
    record: str | None = None  #: ``tm.dumps`` of the finished game's record, else None


class GameStore(Protocol):
    """What the server needs from a database (SQLite here; a server database can follow).

    Methods are called from one thread at a time (the server's storage thread). Two more
    are used when a store has them (both built-in stores do): ``create_game(..., quota=)``
    checks a :class:`Quota` in the database as the game is stored, and
    ``delete_game(game_id)`` deletes an expired unfinished game; without them the server
    counts its limits in its own memory and expired games stay stored.
    """

    def create_game(
        self, game: StoredGame, tokens: Sequence[tuple[str, int | None]]
    ) -> None:
        """Store a new game and its tokens: (token, seat), seat None for the spectator link."""
        ...

    def add_move(self, game_id: str, move: StoredMove) -> None:
        """Commit one move; :class:`DuplicateMoveError` if its number is taken."""
        ...

    def remove_moves(self, game_id: str, first: int) -> None:
        """Delete the moves numbered ``first`` and later (undo)."""
        ...

    def finish(self, game_id: str, record: str) -> None:
        """Keep the finished game's record (``tm.dumps`` of a GameRecord)."""
        ...

    def load(self, game_id: str) -> StoredGame | None:
        """The game with its moves, or None."""
        ...

    def find_token(self, token: str) -> TokenEntry | None:
        """What ``token`` opens, or None."""
        ...

    def add_token(self, game_id: str, token: str, seat: int | None) -> None:
        """Another token for a stored game's seat (None: its spectators); one stored already
        is left as it is."""
        ...

    def unfinished(self) -> list[str]:
        """The ids of the games not yet over (resumed when the server starts)."""
        ...

    def recent(self, limit: int) -> list[StoredGame]:
        """The newest games, newest first, without their moves (``record`` is '' once over)."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...


def token_digest(token: str) -> str:
    """The stored form of a token: its SHA-256 digest in hex.

    >>> len(token_digest('abc'))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def default_db_path() -> Path:
    """The default database file, in the user's data folder.

    ``$XDG_DATA_HOME/tajmahal`` (else ``~/.local/share/tajmahal``) on Linux,
    ``~/Library/Application Support/tajmahal`` on macOS, ``%APPDATA%\\tajmahal``
    on Windows.

    >>> default_db_path().name
    'games.sqlite3'
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "tajmahal" / "games.sqlite3"


#: a new game's quota counts: every unfinished game, the owner's unfinished ones, the owner's
#: games of the last minute (``owners`` holds the owners' digests: the same SQL on both stores)
QUOTA_COUNTS = (
    "SELECT (SELECT count(*) FROM games WHERE record IS NULL), "
    "(SELECT count(*) FROM owners o JOIN games g ON g.id = o.game_id "
    " WHERE o.owner = {p} AND g.record IS NULL), "
    "(SELECT count(*) FROM owners o JOIN games g ON g.id = o.game_id "
    " WHERE o.owner = {p} AND g.created > {p})"
)
