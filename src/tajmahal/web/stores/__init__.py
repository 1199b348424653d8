"""The server's databases behind :class:`~tajmahal.web.stores.contract.GameStore`, chosen by
``--db``.

A file path opens SQLite (:class:`~tajmahal.web.stores.sqlite.SQLiteStore`, one process); a
``postgresql://`` URL opens PostgreSQL (:class:`~tajmahal.web.stores.postgres.PostgresStore`,
several server processes on one or more machines; ``pip install 'tajmahal[postgres]'``).
The store contract's names (:mod:`~tajmahal.web.stores.contract`) and the SQLite store are
importable from here too.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from tajmahal.web.stores.contract import (
    DuplicateMoveError,
    GameStore,
    Quota,
    QuotaError,
    StoredGame,
    StoredMove,
    StoreError,
    TokenEntry,
    default_db_path,
    token_digest,
)
from tajmahal.web.stores.sqlite import SQLiteStore

if TYPE_CHECKING:
    import tajmahal.web.stores.postgres

__all__ = [
    "DuplicateMoveError",
    "GameStore",
    "Quota",
    "QuotaError",
    "SQLiteStore",
    "StoreError",
    "StoredGame",
    "StoredMove",
    "TokenEntry",
    "default_db_path",
    "is_postgres_url",
    "open_store",
    "token_digest",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: libpq's ``key=value`` address: its first word is one of libpq's connection keywords
_KEY_VALUE = re.compile(
    r"\s*(host|hostaddr|port|dbname|user|password|passfile|service|sslmode|options|"
    r"connect_timeout|application_name|target_session_attrs|sslrootcert|sslcert|sslkey)\s*=",
    re.IGNORECASE,
)
#: what looks like a URL of another scheme (a typo of postgresql:// too): never a file name
_OTHER_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:/")
#: ``user:password@host...`` without its scheme: never a file name either
_CREDENTIALS = re.compile(r"[^/:@\s]+:[^/\s]*@")


def is_postgres_url(db: str | os.PathLike[str]) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file: a
    ``postgresql://`` URL, or libpq's ``key=value`` pairs (``host=... dbname=...``).

    >>> is_postgres_url('postgresql://tajmahal@db.example/games'), is_postgres_url('games.sqlite3')
    (True, False)
    >>> is_postgres_url('host=/run/postgresql dbname=games')
    True
    """
    if not isinstance(db, str):
        return False
    return db.lower().startswith(POSTGRES_SCHEMES) or _KEY_VALUE.match(db) is not None


def open_store(
    db: str | os.PathLike[str], *, exclusive: bool = False
) -> SQLiteStore | tajmahal.web.stores.postgres.PostgresStore:
    """The store that ``--db`` names: PostgreSQL for a ``postgresql://`` URL, else a SQLite file.

    :class:`~tajmahal.web.stores.contract.StoreError` (a clear message) if it cannot be opened,
    or if PostgreSQL is asked for without psycopg installed; an address that is neither (another
    scheme's URL, a typo of ``postgresql://``) is refused without being echoed. Either
    store's ``path`` says where the games are (a PostgreSQL address without its password).
    ``exclusive``: no other exclusive store may use the same PostgreSQL database at the same
    time (one server process per database).

    >>> store = open_store(':memory:')
    >>> type(store).__name__
    'SQLiteStore'
    >>> store.close()
    """
    if not is_postgres_url(db):
        if isinstance(db, str) and _OTHER_URL.match(db):  # never echoed: it may hold a password
            scheme = db.split(":", 1)[0][:20]
            raise StoreError(
                f"the game database is an SQLite file or a postgresql:// URL, not a {scheme!r} "
                "address (the address is not shown: it may hold a password)"
            )
        if isinstance(db, str) and _CREDENTIALS.match(db):
            raise StoreError(
                "the game database is an SQLite file or a postgresql:// URL: this looks like a "
                "user and password without postgresql:// (not shown: it may hold a password)"
            )
        return SQLiteStore(db)
    try:
        from tajmahal.web.stores.postgres import PostgresStore
    except ImportError as exc:
        raise StoreError(
            "a postgresql:// database needs psycopg 3: pip install 'tajmahal[postgres]'"
        ) from exc
    return PostgresStore(str(db), exclusive=exclusive)
