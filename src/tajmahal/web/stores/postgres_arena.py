"""The arena's tables in PostgreSQL: ``tajmahal serve --arena --db postgresql://...`` on
several server processes.

:class:`PostgresArenaStore` keeps the accounts, games, ratings and rating history as
:class:`~tajmahal.arena.ArenaStore` keeps them in a SQLite file (the same statements:
:class:`~tajmahal.arena.accounts.ArenaTables`), and adds what the processes share:

- **who is online where**: each process writes the remote bots connected to it and the
  games they take (:meth:`PostgresArenaStore.announce`); a process counts only while its
  heartbeat (the cluster's ``processes`` table) is fresh, so a killed process's bots
  drop out by themselves (:meth:`PostgresArenaStore.online`);
- **one scheduler**: a lease in one row (:meth:`PostgresArenaStore.schedule_lease`), renewed
  by its holder each round and taken over once it expires (its process died or froze);
- **ratings once**: a game is claimed and rated in one transaction that locks its row and
  its bots' rows (:meth:`~tajmahal.arena.accounts.ArenaTables.rate_once`), so retries,
  two schedulers for a moment, or a ``kill -9`` in the middle rate it once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from tajmahal.arena.accounts import ArenaError, ArenaTables
from tajmahal.web.stores.contract import StoreError
from tajmahal.web.stores.postgres_connection import PostgresConnection
from tajmahal.web.stores.postgres_schema import create_schema

__all__ = ["PostgresArenaStore"]

T = TypeVar("T")


class _Statements:
    """A connection that takes the arena's statements as SQLite writes them (``?``)."""

    def __init__(self, db: Any) -> None:
        self._db = db

    def execute(self, sql: str, values: Sequence[Any] = ()) -> Any:
        return self._db.execute(sql.replace("?", "%s"), tuple(values))


class PostgresArenaStore(PostgresConnection, ArenaTables):
    """The arena's tables in a PostgreSQL database (see the module docs); ``dsn`` as for
    :class:`~tajmahal.web.stores.postgres.PostgresStore`. Errors are
    :class:`~tajmahal.arena.ArenaError`, their messages without the address's password."""

    _for_update = " FOR UPDATE"

    def __init__(self, dsn: str, *, lock_timeout: float = 10.0) -> None:
        try:
            super().__init__(dsn, lock_timeout=lock_timeout)
            self._run(create_schema, "prepare")
        except StoreError as exc:
            raise ArenaError(str(exc).replace("game database", "arena database")) from None
        self.path = self.where

    def __repr__(self) -> str:
        return f"<PostgresArenaStore {self.where}>"

    def _write(self, work: Callable[[Any], T]) -> T:
        try:
            return self._run(lambda db: work(_Statements(db)), "write")
        except StoreError as exc:
            raise ArenaError(str(exc).replace("game database", "arena database")) from None

    def _read(self, sql: str, values: Sequence[Any] = ()) -> list[Any]:
        try:
            rows: list[Any] = self._run(
                lambda db: db.execute(sql.replace("?", "%s"), tuple(values)).fetchall(), "read"
            )
        except StoreError as exc:
            raise ArenaError(str(exc).replace("game database", "arena database")) from None
        return rows

    # ------------------------------------------------------------------ the cluster's

    def announce(self, process: str, capacities: Mapping[str, int]) -> None:
        """The remote bots connected to ``process`` now, and the games each takes there."""

        def work(db: Any) -> None:
            db.execute("DELETE FROM arena_online WHERE process = ?", (process,))
            for name, capacity in capacities.items():
                db.execute("INSERT INTO arena_online (process, name, capacity) VALUES (?, ?, ?)",
                           (process, name, capacity))  # fmt: skip
            # the rows of processes the cluster forgot (dead for ten leases)
            db.execute("DELETE FROM arena_online WHERE process NOT IN "
                       "(SELECT name FROM processes)")  # fmt: skip

        self._write(work)

    def online(self, alive: float) -> dict[str, int]:
        """Each remote bot connected to a live process (one whose heartbeat is younger than
        ``alive`` seconds): the games it takes at once, all its connections together."""
        rows = self._read(
            "SELECT o.name, sum(o.capacity) FROM arena_online o JOIN processes p "
            "ON p.name = o.process WHERE p.seen > clock_timestamp() - make_interval(secs => ?) "
            "GROUP BY o.name", (float(alive),),
        )  # fmt: skip
        return {str(name): int(capacity) for name, capacity in rows}

    def schedule_lease(self, holder: str, ttl: float) -> bool:
        """Whether ``holder`` is the cluster's scheduler for the next ``ttl`` seconds: it takes
        the lease if nobody holds it or it expired, and renews its own."""

        def work(db: Any) -> bool:
            row = db.execute(
                "INSERT INTO arena_scheduler AS s (id, holder, expires) "
                "VALUES (1, ?, clock_timestamp() + make_interval(secs => ?)) "
                "ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, "
                "expires = EXCLUDED.expires "
                "WHERE s.holder = EXCLUDED.holder OR s.expires <= clock_timestamp() "
                "RETURNING holder", (holder, float(ttl)),
            ).fetchone()  # fmt: skip
            return row is not None

        return self._write(work)

    def release_schedule(self, holder: str) -> None:
        """``holder`` stops scheduling: another process may start at once."""
        self._write(lambda db: db.execute("DELETE FROM arena_scheduler WHERE holder = ?",
                                          (holder,)))  # fmt: skip

    def ended(self) -> list[tuple[str, tuple[str, ...], str | None]]:
        """The arena's games being played whose game is over or gone: (id, the seats' names,
        the record; None if the game is gone from the database)."""
        rows = self._read(
            "SELECT a.game_id, a.bots, g.record, g.id IS NULL FROM arena_games a "
            "LEFT JOIN games g ON g.id = a.game_id "
            "WHERE a.rated = 0 AND (g.id IS NULL OR g.record IS NOT NULL)"
        )  # fmt: skip
        return [(row[0], tuple(json.loads(row[1])), None if row[3] else row[2]) for row in rows]
