"""The arena's bot accounts, rated games and rating history, in the server's SQLite file
(:class:`ArenaStore`; the PostgreSQL cluster's store shares its statements: :class:`ArenaTables`).

An account is a name and either a token (a *remote* bot: a program anywhere that
connects with it) or a house spec (a *house* bot: one the server plays itself,
a built-in bot or an installed plugin, never ``cmd:`` or ``file:``).  A token
is 256 random bits, shown once when it is made; only its SHA-256 digest is
stored, and a presented token is compared with it in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs

from tajmahal.arena.ratings import NEW_MU, NEW_SIGMA, conservative
from tajmahal.rules.errors import TajMahalError

__all__ = [
    "TOKEN_PREFIX",
    "ArenaBot",
    "ArenaError",
    "ArenaGame",
    "ArenaStore",
    "ArenaTables",
    "RatingPoint",
    "check_bot_name",
    "check_house_spec",
    "token_digest",
]

T = TypeVar("T")
TOKEN_PREFIX = "tmb_"  #: every bot token starts so (a secret scanner can find a leaked one)
DEFAULT_MAX_GAMES = 4  #: the games one account plays at once unless told otherwise
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS arena_bots (
    name TEXT PRIMARY KEY,
    digest TEXT UNIQUE,
    house TEXT,
    max_games INTEGER NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    last_seen REAL
);
CREATE TABLE IF NOT EXISTS arena_games (
    game_id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    bots TEXT NOT NULL,
    watch TEXT NOT NULL,
    rated INTEGER NOT NULL DEFAULT 0,
    ranks TEXT,
    rate INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS arena_ratings (
    name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    at REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    rank INTEGER NOT NULL,
    PRIMARY KEY (name, game_id)
);
CREATE INDEX IF NOT EXISTS arena_games_rated ON arena_games(rated);
"""


class ArenaError(TajMahalError):
    """A bad account name or spec, an unknown or taken name, an unusable database."""


def check_bot_name(name: object) -> str:
    """An account's name: 1 to 40 letters, digits, ``_``, ``.`` or ``-``, a letter or digit first.

    >>> check_bot_name('greedy-2')
    'greedy-2'
    >>> check_bot_name('no spaces')
    Traceback (most recent call last):
    ...
    tajmahal.arena.accounts.ArenaError: a bot's name is 1 to 40 letters, digits, '_', '.' or '-' (a letter or digit first), got 'no spaces'
    """  # noqa: E501
    if type(name) is not str or not _NAME.fullmatch(name):
        shown = repr(name)[:60] if type(name) is str else f"a {type(name).__name__}"
        raise ArenaError(
            "a bot's name is 1 to 40 letters, digits, '_', '.' or '-' (a letter or digit first), "
            f"got {shown}"
        )
    return name


def check_house_spec(text: str) -> str:
    """A house bot's spec, checked: an installed bot (built-in or plugin), never a program.

    >>> check_house_spec('greedy')
    'greedy'
    >>> check_house_spec('cmd:./mybot')
    Traceback (most recent call last):
    ...
    tajmahal.arena.accounts.ArenaError: a house bot is an installed bot (built-in or a plugin), never 'cmd:' or 'file:': got 'cmd:./mybot'
    """  # noqa: E501
    from tajmahal.bots.specs import SpecError, check_spec, parse_spec

    try:
        spec = parse_spec(text)
        if spec.is_command or spec.is_file:
            raise ArenaError(
                "a house bot is an installed bot (built-in or a plugin), never 'cmd:' or "
                f"'file:': got {text[:80]!r}"
            )
        return check_spec(spec).text
    except SpecError as exc:
        raise ArenaError(str(exc)) from None


def token_digest(token: str) -> str:
    """The stored form of a bot token: its SHA-256 digest (hex).

    >>> len(token_digest('tmb_x'))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    """A new bot token: :data:`TOKEN_PREFIX` and 256 random bits, URL-safe."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


@attrs.frozen
class ArenaBot:
    """One account as the table shows it (never its token)."""

    name: str
    house: str | None  #: the spec the server plays, or None for a remote bot
    max_games: int  #: games it plays at once, at most
    mu: float
    sigma: float
    games: int  #: rated games played
    created: float
    last_seen: float | None  #: when a remote bot last connected or left (None: never)

    @property
    def rating(self) -> float:
        """The conservative rating, ``mu - 3 sigma``."""
        return conservative(self.mu, self.sigma)


@attrs.frozen
class ArenaGame:
    """A game the arena scheduled: the account in each seat, and its spectator link."""

    game_id: str
    created: float
    bots: tuple[str, ...]
    watch: str  #: the spectator's token (public: the lobby lists it too)
    rated: bool
    ranks: tuple[int, ...] | None


@attrs.frozen
class RatingPoint:
    """A bot's rating after one of its games."""

    game_id: str
    at: float
    mu: float
    sigma: float
    rank: int


class ArenaTables:
    """The arena's tables on a SQL database: what :class:`ArenaStore` (SQLite) and the
    PostgreSQL cluster's store (:mod:`tajmahal.web.stores.postgres_arena`) share.

    A subclass gives ``_write`` (``work`` in one transaction, its statements written
    with ``?`` placeholders), ``_read`` and ``path``; ``_for_update`` locks the rows a
    rating reads where the database has row locks.
    """

    path: str
    _for_update = ""  #: appended to the rating's reads: " FOR UPDATE" on PostgreSQL

    def _write(self, work: Callable[[Any], T]) -> T:  # pragma: no cover - the subclasses'
        raise NotImplementedError

    def _read(self, sql: str, values: Sequence[Any] = ()) -> list[Any]:  # pragma: no cover
        raise NotImplementedError

    def close(self) -> None:  # pragma: no cover - the subclasses'
        raise NotImplementedError

    # ------------------------------------------------------------------ accounts

    def add_bot(
        self, name: str, house: str | None = None, max_games: int = DEFAULT_MAX_GAMES
    ) -> str | None:
        """Create an account; its token (shown once), or None for a house bot (no token)."""
        check_bot_name(name)
        if house is not None:
            house = check_house_spec(house)
        if not 1 <= max_games <= 64:
            raise ArenaError(f"a bot plays 1 to 64 games at once, got {max_games}")
        token = None if house is not None else new_token()

        def work(db: Any) -> None:
            if db.execute("SELECT 1 FROM arena_bots WHERE name = ?", (name,)).fetchone():
                raise ArenaError(f"there is already a bot named {name!r}")
            db.execute(
                "INSERT INTO arena_bots (name, digest, house, max_games, mu, sigma, games, "
                "created) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                (name, None if token is None else token_digest(token), house, max_games,
                 NEW_MU, NEW_SIGMA, time.time()),
            )  # fmt: skip

        self._write(work)
        return token

    def remove_bot(self, name: str) -> None:
        """Delete an account and its rating history (its games stay, with their records)."""

        def work(db: Any) -> None:
            if db.execute("DELETE FROM arena_bots WHERE name = ?", (name,)).rowcount == 0:
                raise ArenaError(f"no bot named {name[:40]!r}")
            db.execute("DELETE FROM arena_ratings WHERE name = ?", (name,))

        self._write(work)

    def rotate_token(self, name: str) -> str:
        """A new token for a remote bot (the old one stops working at once); shown once."""
        token = new_token()

        def work(db: Any) -> None:
            row = db.execute("SELECT house FROM arena_bots WHERE name = ?", (name,)).fetchone()
            if row is None:
                raise ArenaError(f"no bot named {name[:40]!r}")
            if row[0] is not None:
                raise ArenaError(f"{name!r} is a house bot: the server plays it, it has no token")
            db.execute("UPDATE arena_bots SET digest = ? WHERE name = ?",
                       (token_digest(token), name))  # fmt: skip

        self._write(work)
        return token

    def authenticate(self, token: object) -> str | None:
        """The name of the remote bot whose token this is, or None."""
        if type(token) is not str or not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        digest = token_digest(token)
        rows = self._read("SELECT name, digest FROM arena_bots WHERE digest = ?", (digest,))
        if rows and hmac.compare_digest(rows[0][1], digest):
            return str(rows[0][0])
        return None

    def bots(self) -> list[ArenaBot]:
        """Every account, the best conservative rating first."""
        rows = self._read("SELECT name, house, max_games, mu, sigma, games, created, last_seen "
                          "FROM arena_bots")  # fmt: skip
        bots = [ArenaBot(*row) for row in rows]
        return sorted(bots, key=lambda bot: (-bot.rating, bot.name))

    def bot(self, name: str) -> ArenaBot | None:
        return next((bot for bot in self.bots() if bot.name == name), None)

    def seen(self, name: str, at: float | None = None) -> None:
        """Note that a remote bot connected or left now."""
        self._write(lambda db: db.execute("UPDATE arena_bots SET last_seen = ? WHERE name = ?",
                                          (time.time() if at is None else at, name)))  # fmt: skip

    # ------------------------------------------------------------------ games

    def add_game(self, game_id: str, bots: Sequence[str], watch: str, rate: bool = True) -> None:
        """Note a game of the arena's bots (before its first move): who sits where (a seat of
        someone without an account is named in brackets, ``"(Ann)"``); ``rate=False``: a
        challenge that is not rated (noted so that its bots' results reach them)."""
        self._write(lambda db: db.execute(
            "INSERT INTO arena_games (game_id, created, bots, watch, rate) VALUES (?, ?, ?, ?, ?)",
            (game_id, time.time(), json.dumps(list(bots)), watch, int(rate)),
        ))  # fmt: skip

    def games(self, rated: bool | None = None, limit: int = 100_000) -> list[ArenaGame]:
        """The arena's games, newest first (``rated``: only those rated, or only those still
        being played)."""
        where = "" if rated is None else f"WHERE rated = {int(rated)}"
        rows = self._read(f"SELECT game_id, created, bots, watch, rated, ranks FROM arena_games "
                          f"{where} ORDER BY created DESC LIMIT ?", (limit,))  # fmt: skip
        return [_game(row) for row in rows]

    def playing(self) -> list[tuple[str, tuple[str, ...], bool]]:
        """The games being played: (id, the seats' names, whether it is rated when over)."""
        rows = self._read("SELECT game_id, bots, rate FROM arena_games WHERE rated = 0")
        return [(row[0], tuple(json.loads(row[1])), bool(row[2])) for row in rows]

    def games_of(self, name: str, limit: int = 20) -> list[ArenaGame]:
        """A bot's newest games."""
        pattern = "%" + json.dumps(name) + "%"
        rows = self._read("SELECT game_id, created, bots, watch, rated, ranks FROM arena_games "
                          "WHERE bots LIKE ? ORDER BY created DESC LIMIT ?", (pattern, limit))
        return [_game(row) for row in rows if name in json.loads(row[2])]

    def rate(self, game_id: str, ranks: Sequence[int], rated: Sequence[tuple[float, float]],
             bots: Sequence[str]) -> bool:  # fmt: skip
        """Store a finished game's new ratings (``rated``: each seat's ``(mu, sigma)``), once:
        False if it was rated already.  A removed account's seat is skipped."""
        return self._write(lambda db: self._store_rating(db, game_id, ranks, rated, bots))

    def rate_once(self, game_id: str, ranks: Sequence[int]) -> list[tuple[float, float]] | None:
        """Rate a finished game from its bots' ratings now, in one transaction: each seat's new
        ``(mu, sigma)``, or None if the game was rated already (or is not the arena's, or is an
        unrated challenge: then it is only marked over).  Safe to call again after any failure,
        from any process: a game is rated once.  A seat without an account plays as a newcomer
        (its rating is not kept)."""
        from tajmahal.arena.ratings import rate_game

        def work(db: Any) -> list[tuple[float, float]] | None:
            row = db.execute("SELECT bots, rate FROM arena_games WHERE game_id = ? AND rated = 0"
                             + self._for_update, (game_id,)).fetchone()  # fmt: skip
            if row is None:
                return None
            bots = json.loads(row[0])
            if not row[1]:  # a challenge not rated: over
                db.execute("UPDATE arena_games SET rated = 3, ranks = ? WHERE game_id = ?",
                           (json.dumps(list(ranks)), game_id))  # fmt: skip
                return None
            now: dict[str, tuple[float, float]] = {}
            for name in sorted(set(bots)):  # (rows locked in one order: two ratings never deadlock)
                found = db.execute("SELECT mu, sigma FROM arena_bots WHERE name = ?"
                                   + self._for_update, (name,)).fetchone()  # fmt: skip
                if found is not None:
                    now[name] = (found[0], found[1])
            after = rate_game([now.get(name, (NEW_MU, NEW_SIGMA)) for name in bots], ranks)
            self._store_rating(db, game_id, ranks, after, bots)
            return after

        return self._write(work)

    @staticmethod
    def _store_rating(
        db: Any, game_id: str, ranks: Sequence[int], rated: Sequence[tuple[float, float]],
        bots: Sequence[str],
    ) -> bool:  # fmt: skip
        claimed = db.execute("UPDATE arena_games SET rated = 1, ranks = ? WHERE game_id = ? "
                             "AND rated = 0", (json.dumps(list(ranks)), game_id)).rowcount
        if not claimed:  # (the claim locks the row: a second rating waits, then finds it rated)
            return False
        now = time.time()
        for name, rank, (mu, sigma) in zip(bots, ranks, rated, strict=True):
            changed = db.execute(
                "UPDATE arena_bots SET mu = ?, sigma = ?, games = games + 1 WHERE name = ?",
                (mu, sigma, name),
            ).rowcount
            if changed:
                db.execute("INSERT INTO arena_ratings (name, game_id, at, mu, sigma, rank) "
                           "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name, game_id) DO UPDATE "
                           "SET at = excluded.at, mu = excluded.mu, sigma = excluded.sigma, "
                           "rank = excluded.rank",
                           (name, game_id, now, mu, sigma, rank))  # fmt: skip
        return True

    def drop_game(self, game_id: str) -> None:
        """Forget a scheduled game that cannot be played (it is never rated)."""
        self._write(lambda db: db.execute("UPDATE arena_games SET rated = 2 WHERE game_id = ?",
                                          (game_id,)))  # fmt: skip

    def history(self, name: str, limit: int = 500) -> list[RatingPoint]:
        """A bot's rating after each of its rated games, oldest first (the latest ``limit``)."""
        rows = self._read("SELECT game_id, at, mu, sigma, rank FROM arena_ratings WHERE name = ? "
                          "ORDER BY at DESC LIMIT ?", (name, limit))  # fmt: skip
        return [RatingPoint(*row) for row in reversed(rows)]

    def seat_counts(self) -> dict[str, dict[tuple[int, int], int]]:
        """How often each bot sat in each seat, per number of players: ``{name: {(n, seat): k}}``
        (the games never played and the challenges left out)."""
        counts: dict[str, dict[tuple[int, int], int]] = {}
        for (text,) in self._read("SELECT bots FROM arena_games WHERE rated != 2 AND rate = 1"):
            bots = json.loads(text)
            for seat, name in enumerate(bots):
                mine = counts.setdefault(name, {})
                mine[(len(bots), seat)] = mine.get((len(bots), seat), 0) + 1
        return counts


class ArenaStore(ArenaTables):
    """The arena's tables in a SQLite file (the server's game database, or any other).

    Safe to use from several threads (one connection, one lock) and beside the
    game store on the same file (write-ahead log, a busy timeout).

    >>> store = ArenaStore(':memory:')
    >>> token = store.add_bot('mine')
    >>> token.startswith('tmb_'), store.authenticate(token), store.authenticate('tmb_guess')
    (True, 'mine', None)
    >>> store.close()
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":  # like the game store's: readable by its owner only
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None, timeout=30.0)  # fmt: skip
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(arena_games)")}
            if "rate" not in columns:  # a file of 0.2's arena: challenges were not noted
                self._db.execute("ALTER TABLE arena_games ADD COLUMN rate INTEGER NOT NULL "
                                 "DEFAULT 1")  # fmt: skip
        except (sqlite3.Error, OSError) as exc:
            raise ArenaError(f"cannot open the arena database {self.path}: {exc}") from None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<ArenaStore {self.path}>"

    def _write(self, work: Callable[[Any], T]) -> T:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = work(self._db)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return result
            except sqlite3.Error as exc:
                raise ArenaError(f"cannot write the arena database {self.path}: {exc}") from None

    def _read(self, sql: str, values: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, values).fetchall()
            except sqlite3.Error as exc:
                raise ArenaError(f"cannot read the arena database {self.path}: {exc}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _game(row: Sequence[Any]) -> ArenaGame:
    ranks = None if row[5] is None else tuple(json.loads(row[5]))
    return ArenaGame(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4] == 1, ranks)
