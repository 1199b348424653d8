"""The server's databases behind :class:`~tajmahal.web.store.GameStore`, chosen by ``--db``.

A file path opens SQLite (:class:`~tajmahal.web.store.SQLiteStore`, one process); a
``postgresql://`` URL opens PostgreSQL (:class:`~tajmahal.web.stores.postgres.PostgresStore`,
several server processes on one or more machines; ``pip install 'tajmahal[postgres]'``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import tajmahal.web.store
from tajmahal.web.store import SQLiteStore, StoreError

if TYPE_CHECKING:
    import tajmahal.web.stores.postgres

__all__ = ["is_postgres_url", "open_store"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(db: str | os.PathLike[str]) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file.

    >>> is_postgres_url('postgresql://tajmahal@db.example/games'), is_postgres_url('games.sqlite3')
    (True, False)
    """
    return isinstance(db, str) and db.lower().startswith(POSTGRES_SCHEMES)


def open_store(
    db: str | os.PathLike[str], *, exclusive: bool = False
) -> tajmahal.web.store.SQLiteStore | tajmahal.web.stores.postgres.PostgresStore:
    """The store that ``--db`` names: PostgreSQL for a ``postgresql://`` URL, else a SQLite file.

    :class:`~tajmahal.web.store.StoreError` (a clear message) if it cannot be opened, or if
    PostgreSQL is asked for without psycopg installed. Either store's ``path`` says where
    the games are (a PostgreSQL address without its password). ``exclusive``: no other
    exclusive store may use the same PostgreSQL database at the same time (one server
    process per database).

    >>> store = open_store(':memory:')
    >>> type(store).__name__
    'SQLiteStore'
    >>> store.close()
    """
    if not is_postgres_url(db):
        return SQLiteStore(db)
    try:
        from tajmahal.web.stores.postgres import PostgresStore
    except ImportError as exc:
        raise StoreError(
            "a postgresql:// database needs psycopg 3: pip install 'tajmahal[postgres]'"
        ) from exc
    return PostgresStore(str(db), exclusive=exclusive)
