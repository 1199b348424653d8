"""The tables of the PostgreSQL store, made at its first start (one process at a time),
and the advisory lock keys its processes share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psycopg
    import psycopg.rows

__all__ = ["ARENA_SCHEMA", "QUOTA_LOCK", "SCHEMA", "SCHEMA_LOCK", "SERVER_LOCK", "create_schema"]

SCHEMA_LOCK = 0x74616A6D  #: advisory lock key ("tajm"): one process creates the tables
SERVER_LOCK = 0x74616A6E  #: advisory lock key: the one server process of an exclusive store
QUOTA_LOCK = 0x74616A6F  #: advisory lock key: new games counted and stored one at a time

#: the statements that make (or complete) the tables, each safe to run again
SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        seed BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        record TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS tokens (
        digest TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        seat INTEGER
    )""",
    """CREATE TABLE IF NOT EXISTS moves (
        game_id TEXT NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        move TEXT NOT NULL,
        elapsed DOUBLE PRECISION NOT NULL,
        fault TEXT,
        PRIMARY KEY (game_id, number)
    )""",
    "CREATE INDEX IF NOT EXISTS games_created ON games(created)",
    # holder NULL: released; epoch rises at each change of holder (the fence)
    """CREATE TABLE IF NOT EXISTS leases (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        holder TEXT,
        epoch BIGINT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS handed_moves (
        id BIGSERIAL PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        number INTEGER NOT NULL,
        move TEXT NOT NULL,
        sender TEXT NOT NULL,
        sent TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
    )""",
    "CREATE INDEX IF NOT EXISTS handed_moves_game ON handed_moves(game_id, id)",
    # the holder's answer is kept in the row: the sender reads it there (a notice is a hint)
    "ALTER TABLE handed_moves ADD COLUMN IF NOT EXISTS taken BOOLEAN NOT NULL DEFAULT false",
    "ALTER TABLE handed_moves ADD COLUMN IF NOT EXISTS answered BOOLEAN NOT NULL DEFAULT false",
    "ALTER TABLE handed_moves ADD COLUMN IF NOT EXISTS error TEXT",
    # the live server processes (a heartbeat each round): each takes its fair share of games
    """CREATE TABLE IF NOT EXISTS processes (
        name TEXT PRIMARY KEY,
        seen TIMESTAMPTZ NOT NULL
    )""",
    # a game's owner (the digest of the client's address): the quotas, counted in the database
    """CREATE TABLE IF NOT EXISTS owners (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        owner TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS owners_owner ON owners(owner)",
]

#: the arena's tables (:mod:`tajmahal.web.stores.postgres_arena`): as the SQLite file's
#: (:mod:`tajmahal.arena.accounts`), plus what its server processes share
ARENA_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS arena_bots (
        name TEXT PRIMARY KEY,
        digest TEXT UNIQUE,
        house TEXT,
        max_games INTEGER NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        created DOUBLE PRECISION NOT NULL,
        last_seen DOUBLE PRECISION
    )""",
    # rated: 0 being played, 1 rated, 2 never played, 3 over (a challenge not rated)
    """CREATE TABLE IF NOT EXISTS arena_games (
        game_id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        bots TEXT NOT NULL,
        watch TEXT NOT NULL,
        rated INTEGER NOT NULL DEFAULT 0,
        ranks TEXT,
        rate INTEGER NOT NULL DEFAULT 1
    )""",
    "CREATE INDEX IF NOT EXISTS arena_games_rated ON arena_games(rated)",
    """CREATE TABLE IF NOT EXISTS arena_ratings (
        name TEXT NOT NULL,
        game_id TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        rank INTEGER NOT NULL,
        PRIMARY KEY (name, game_id)
    )""",
    # the remote bots connected to each process, and how many games they take there
    """CREATE TABLE IF NOT EXISTS arena_online (
        process TEXT NOT NULL,
        name TEXT NOT NULL,
        capacity INTEGER NOT NULL,
        PRIMARY KEY (process, name)
    )""",
    # the one scheduler of the cluster: a lease (one row), taken over once it expires
    """CREATE TABLE IF NOT EXISTS arena_scheduler (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        holder TEXT NOT NULL,
        expires TIMESTAMPTZ NOT NULL
    )""",
]


def create_schema(db: psycopg.Connection[psycopg.rows.TupleRow]) -> None:
    """Make the tables that are missing, in ``db``'s transaction,
    one process at a time."""
    db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
    for statement in (*SCHEMA, *ARENA_SCHEMA):
        db.execute(statement)
