"""Where a one-process server keeps its games: a
:class:`~tajmahal.web.stores.contract.GameStore` in one SQLite file.

Every accepted move is committed before the server acknowledges it, so that a
server stopped at any moment (even by ``kill -9``) starts again where it stood.
Seat links are never stored: only the SHA-256 digest of each token is.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from tajmahal.web.stores.contract import (
    QUOTA_COUNTS,
    DuplicateMoveError,
    Quota,
    QuotaError,
    StoredGame,
    StoredMove,
    StoreError,
    TokenEntry,
    stored_json,
    taken_game,
    token_digest,
    unknown_game,
)

__all__ = ["SQLiteStore"]

_ROWS = 150  #: moves in one INSERT (6 values each: within SQLite's oldest limit, 999)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    created REAL NOT NULL,
    record TEXT
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    elapsed REAL NOT NULL,
    fault TEXT,
    PRIMARY KEY (game_id, number)
);
CREATE INDEX IF NOT EXISTS games_created ON games(created);
CREATE TABLE IF NOT EXISTS owners (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    owner TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS owners_owner ON owners(owner);
"""


class SQLiteStore:
    """A :class:`~tajmahal.web.stores.contract.GameStore` in one SQLite file (the standard
    library's ``sqlite3``).

    Write-ahead logging with ``synchronous=FULL``: a committed move survives
    the process being killed and the machine losing power.

    >>> store = SQLiteStore(':memory:')
    >>> store.create_game(StoredGame('g1', {'seats': []}, 7, 0.0), [('secret', 0)])
    >>> store.add_move('g1', StoredMove(1, 0, 'withdraw'))
    >>> store.add_move('g1', StoredMove(1, 0, 'withdraw'))
    Traceback (most recent call last):
    ...
    tajmahal.web.stores.contract.DuplicateMoveError: game g1 already has move 1
    >>> store.find_token('secret'), store.find_token('guess')
    (TokenEntry(game_id='g1', seat=0), None)
    >>> [m.move for m in store.load('g1').moves], store.unfinished()
    (['withdraw'], ['g1'])
    >>> store.close()
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                _private_file(Path(self.path))
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from exc
        self._lock = threading.Lock()

    def _write(
        self, statements: Sequence[tuple[str, Sequence[Any]]], *, game_id: str = "",
        conflict: StoreError | None = None, quota: tuple[Quota, float] | None = None,
    ) -> None:  # fmt: skip
        """The statements in one transaction: ``conflict`` if one breaks a unique key,
        :func:`unknown_game` if one names a game that is not stored; first ``quota`` checked
        (a new game's, created at the time given) by the rows the transaction sees."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")  # the write lock: counted and written alone
                try:
                    if quota is not None:
                        _check_quota(self._db, *quota)
                    for sql, values in statements:
                        self._db.execute(sql, values)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                raise _integrity_error(exc, game_id, conflict) from exc
            except sqlite3.Error as exc:
                raise StoreError(f"cannot write the game database {self.path}: {exc}") from exc

    def _read(self, sql: str, values: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, values).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"cannot read the game database {self.path}: {exc}") from exc

    def create_game(
        self, game: StoredGame, tokens: Sequence[tuple[str, int | None]], *,
        quota: Quota | None = None,
    ) -> None:  # fmt: skip
        """Store a new game and its tokens; with a ``quota``, only within it
        (:class:`QuotaError` names the limit), and the game is its owner's."""
        statements: list[tuple[str, Sequence[Any]]] = [(
            "INSERT INTO games (id, config, seed, created) VALUES (?, ?, ?, ?)",
            (game.id, json.dumps(game.config), game.seed, game.created),
        )]  # fmt: skip
        for token, seat in tokens:
            statements.append((
                "INSERT INTO tokens (digest, game_id, seat) VALUES (?, ?, ?)",
                (token_digest(token), game.id, seat),
            ))  # fmt: skip
        if quota is not None:
            statements.append(("INSERT INTO owners (game_id, owner) VALUES (?, ?)",
                               (game.id, token_digest(quota.owner))))  # fmt: skip
        self._write(statements, game_id=game.id, conflict=taken_game(game.id),
                    quota=None if quota is None else (quota, game.created))  # fmt: skip

    def add_move(self, game_id: str, move: StoredMove) -> None:
        fault = None if move.fault is None else json.dumps(move.fault)
        self._write([(
            "INSERT INTO moves (game_id, number, seat, move, elapsed, fault) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, move.number, move.seat, move.move, move.elapsed, fault),
        )], game_id=game_id, conflict=_duplicate(game_id, move))  # fmt: skip

    def add_moves(self, entries: Sequence[tuple[str, StoredMove]]) -> list[Exception | None]:
        """Commit several games' moves in one transaction (one ``fsync``: group commit).

        Each entry's outcome, in order: None, the :class:`DuplicateMoveError` of a move
        whose number is taken, or the :class:`StoreError` of a game that is not stored
        (the others are stored all the same).

        >>> store = SQLiteStore(':memory:')
        >>> store.create_game(StoredGame('g1', {'seats': []}, 7, 0.0), [])
        >>> store.add_moves([('g1', StoredMove(1, 0, 'withdraw')), ('g1', StoredMove(1, 1, 'x')),
        ...                  ('g1', StoredMove(2, 1, 'withdraw'))])
        [None, DuplicateMoveError('game g1 already has move 1'), None]
        >>> store.close()
        """
        rows = [(game_id, move.number, move.seat, move.move, move.elapsed,
                 None if move.fault is None else json.dumps(move.fault))
                for game_id, move in entries]  # fmt: skip
        problems: list[Exception | None] = []
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for start in range(0, len(rows), _ROWS):
                        problems += self._insert_moves(rows[start : start + _ROWS])
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot write the game database {self.path}: {exc}") from exc
        return problems

    def _insert_moves(self, rows: list[tuple[Any, ...]]) -> list[Exception | None]:
        """Insert moves in one statement (few calls into SQLite: each lets go of the GIL and
        waits to take it back from a busy event loop); one at a time if one is taken."""
        try:
            self._db.execute(
                "INSERT INTO moves (game_id, number, seat, move, elapsed, fault) VALUES "
                + ",".join(["(?, ?, ?, ?, ?, ?)"] * len(rows)),
                [value for row in rows for value in row],
            )
            return [None] * len(rows)
        except sqlite3.IntegrityError:  # the statement was undone alone: each row again
            pass
        problems: list[Exception | None] = []
        for row in rows:
            try:  # a failed statement is undone alone; the transaction goes on
                self._db.execute(
                    "INSERT INTO moves (game_id, number, seat, move, elapsed, fault) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    row,
                )
                problems.append(None)
            except sqlite3.IntegrityError as exc:
                duplicate = DuplicateMoveError(f"game {row[0]} already has move {row[1]}")
                problems.append(_integrity_error(exc, row[0], duplicate))
        return problems

    def remove_moves(self, game_id: str, first: int) -> None:
        self._write([("DELETE FROM moves WHERE game_id = ? AND number >= ?", (game_id, first))])

    def finish(self, game_id: str, record: str) -> None:
        self._write([("UPDATE games SET record = ? WHERE id = ?", (record, game_id))])

    def delete_game(self, game_id: str) -> None:
        """Forget an unfinished game that expired: its moves, its links, its settings (its
        owner's quota counts it no more)."""
        self._write([
            ("DELETE FROM owners WHERE game_id = ? AND game_id IN "
             "(SELECT id FROM games WHERE record IS NULL)", (game_id,)),
            ("DELETE FROM tokens WHERE game_id = ?", (game_id,)),
            ("DELETE FROM moves WHERE game_id = ?", (game_id,)),
            ("DELETE FROM games WHERE id = ? AND record IS NULL", (game_id,)),
        ])  # fmt: skip

    def load(self, game_id: str) -> StoredGame | None:
        rows = self._read(
            "SELECT id, config, seed, created, record FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            return None
        moves = self._read(
            "SELECT number, seat, move, elapsed, fault FROM moves WHERE game_id = ? "
            "ORDER BY number",
            (game_id,),
        )
        stored = tuple(
            StoredMove(n, seat, text, elapsed,
                       None if fault is None else stored_json(fault, game_id, f"move {n}'s fault"))
            for n, seat, text, elapsed, fault in moves
        )  # fmt: skip
        return attrs.evolve(_game(rows[0]), moves=stored)

    def add_token(self, game_id: str, token: str, seat: int | None) -> None:
        """Another token for a stored game's seat (a rematch's link, given when asked for);
        a token stored already is left as it is."""
        self._write([("INSERT OR IGNORE INTO tokens (digest, game_id, seat) VALUES (?, ?, ?)",
                      (token_digest(token), game_id, seat))], game_id=game_id)  # fmt: skip

    def find_token(self, token: str) -> TokenEntry | None:
        rows = self._read(
            "SELECT game_id, seat FROM tokens WHERE digest = ?", (token_digest(token),)
        )
        return TokenEntry(rows[0][0], rows[0][1]) if rows else None

    def unfinished(self) -> list[str]:
        rows = self._read("SELECT id FROM games WHERE record IS NULL ORDER BY created")
        return [row[0] for row in rows]

    def recent(self, limit: int) -> list[StoredGame]:
        rows = self._read(  # the records themselves are not read: '' marks a finished game
            "SELECT id, config, seed, created, CASE WHEN record IS NULL THEN NULL ELSE '' END "
            "FROM games ORDER BY created DESC LIMIT ?",
            (limit,),
        )
        games = []
        for row in rows:
            try:
                games.append(_game(row))
            except StoreError:  # damaged settings: reported when loaded
                continue
        return games

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _check_quota(db: sqlite3.Connection, quota: Quota, created: float) -> None:
    owner = token_digest(quota.owner)
    row = db.execute(QUOTA_COUNTS.format(p="?"), (owner, owner, created - 60.0)).fetchone()
    refused = quota.refusal(*row)
    if refused is not None:
        raise QuotaError(refused)


def _private_file(path: Path) -> None:
    """Create the database file readable by its owner only (0600: it holds every unfinished
    game's seed), in a folder made 0700 if it creates one; an existing file is made 0600 too.
    SQLite gives its ``-wal`` and ``-shm`` files the database file's mode."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    if path.stat().st_mode & 0o077:
        with contextlib.suppress(OSError):  # someone else's file: left as it is
            path.chmod(0o600)


def _duplicate(game_id: str, move: StoredMove) -> DuplicateMoveError:
    return DuplicateMoveError(f"game {game_id} already has move {move.number}")


def _integrity_error(
    exc: sqlite3.IntegrityError, game_id: str, conflict: StoreError | None
) -> StoreError:
    """SQLite's one error for two causes: a missing game (foreign key) or a taken key."""
    if "FOREIGN KEY" in str(exc):
        return unknown_game(game_id)
    return conflict or StoreError(f"cannot write the game database: {exc}")


def _game(row: Sequence[Any]) -> StoredGame:
    game_id, config, seed, created, record = row
    return StoredGame(game_id, stored_json(config, game_id, "settings"), seed, created,
                      record=record)  # fmt: skip
