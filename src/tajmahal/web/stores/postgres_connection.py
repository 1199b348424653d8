"""The PostgreSQL store's connection: one, used by one thread at a time, opened again once
it broke, each transaction run again on a fresh one when that is safe.

:class:`~tajmahal.web.stores.postgres.PostgresStore` runs every transaction of its own
through ``PostgresConnection._run``; a write whose commit was cut raises
:class:`UncertainWriteError`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from tajmahal._extras import missing_extra

try:  # the extra 'postgres': without it, an ImportError that names it
    import psycopg
    from psycopg.rows import TupleRow
except ImportError as missing:
    raise missing_extra(__name__, ("postgres",), missing) from missing

from tajmahal.web.stores.contract import StoreError, unknown_game
from tajmahal.web.stores.postgres_address import _reason, address_problem, describe
from tajmahal.web.stores.postgres_schema import SERVER_LOCK

__all__ = ["EXCLUSIVE_WAIT", "PostgresConnection", "UncertainWriteError"]

EXCLUSIVE_WAIT = 3.0  #: seconds an exclusive store waits for the database to be free

T = TypeVar("T")
_Connection = psycopg.Connection[TupleRow]
log = logging.getLogger("tajmahal.web")


class UncertainWriteError(StoreError):
    """A write's commit was cut with its connection: it may or may not be stored."""


class _Retry(Exception):
    """The connection was closed before the transaction did anything: run it again."""


class PostgresConnection:
    """The connection to a PostgreSQL database that a store's transactions run on.

    ``dsn`` is a libpq address (its password is never shown: ``where`` names the
    database). One connection, used by one thread at a time (a lock guards it); a
    connection that broke is opened again at the next call. ``exclusive=True`` holds the
    database for this connection alone with a session advisory lock, given up on
    :meth:`close` (or when the connection goes).
    """

    def __init__(
        self, dsn: str, *, exclusive: bool = False, connect_timeout: int = 10,
        statement_timeout: float = 30.0, lock_timeout: float = 10.0, idle_timeout: float = 10.0,
    ) -> None:  # fmt: skip
        problem = address_problem(dsn)
        if problem is not None:  # said without the address: it may hold a password
            raise StoreError(f"the game database's address cannot be read: {problem}")
        self._dsn = dsn  # never shown: it may hold a password
        self.exclusive = exclusive
        self.where = describe(dsn)
        self.connect_timeout = connect_timeout
        #: no statement runs, no lock is waited for, and no transaction stays open (its
        #: process frozen) longer than these seconds: a frozen peer never blocks this one
        self.timeouts = {"statement_timeout": statement_timeout, "lock_timeout": lock_timeout,
                         "idle_in_transaction_session_timeout": idle_timeout}  # fmt: skip
        self.reconnects = 0  #: how many times a statement met a closed connection and was retried
        self._lock = threading.Lock()
        self._db: _Connection | None = None
        self._closed = False

    def _connection(self) -> _Connection:
        if self._closed:
            raise StoreError(f"the game database {self.where} is closed")
        if self._db is None or self._db.closed or self._db.broken:
            self._db = None
            try:
                db = psycopg.connect(
                    self._dsn, autocommit=True, connect_timeout=self.connect_timeout,
                    application_name="tajmahal",
                )  # fmt: skip
            except psycopg.Error as exc:
                raise StoreError(
                    f"cannot open the game database {self.where}: {_reason(exc, self._dsn)}"
                ) from None  # (psycopg's error is not chained: it may quote the address)
            try:
                db.execute("SET synchronous_commit TO on")
                for setting, seconds in self.timeouts.items():
                    db.execute(f"SET {setting} TO {max(1, int(seconds * 1000))}")
                if self.exclusive:
                    self._hold_database(db)
            except psycopg.Error as exc:
                db.close()
                raise StoreError(
                    f"cannot open the game database {self.where}: {_reason(exc, self._dsn)}"
                ) from exc
            self._db = db
        return self._db

    def _hold_database(self, db: _Connection) -> None:
        # a killed holder's session ends a moment after its process: ask for a few seconds
        deadline = time.monotonic() + EXCLUSIVE_WAIT
        while True:
            row = db.execute("SELECT pg_try_advisory_lock(%s)", (SERVER_LOCK,)).fetchone()
            if (row is not None and row[0]) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if row is None or not row[0]:
            db.close()
            raise StoreError(
                f"another tajmahal server uses the game database {self.where} alone"
            )

    def _run(
        self, work: Callable[[_Connection], T], doing: str, conflict: StoreError | None = None,
        game_id: str = "",
    ) -> T:
        """``work`` in one transaction; psycopg's errors become :class:`StoreError`.

        A connection the server closed (a restart, a cut) is found at the first statement:
        the transaction is run again once on a fresh connection when that is safe: a read,
        or a write that failed before its commit (the server rolled it back). A write whose
        commit was cut may or may not be stored: :class:`UncertainWriteError`.
        """
        with self._lock:
            try:
                return self._once(work, doing, conflict, game_id, retry=True)
            except _Retry:
                self.reconnects += 1
                log.info("the game database %s closed a connection: %s again on a fresh one",
                         self.where, doing)  # fmt: skip
                return self._once(work, doing, conflict, game_id, retry=False)

    def _once(
        self, work: Callable[[_Connection], T], doing: str, conflict: StoreError | None,
        game_id: str, *, retry: bool,
    ) -> T:  # fmt: skip
        db = self._connection()
        worked = False
        try:
            with db.transaction():
                result = work(db)
                worked = True
            return result
        except psycopg.errors.UniqueViolation as exc:
            if conflict is None:
                raise StoreError(
                    f"cannot {doing} the game database {self.where}: {_reason(exc, self._dsn)}"
                ) from exc
            raise conflict from exc
        except psycopg.errors.ForeignKeyViolation as exc:
            raise unknown_game(game_id) from exc
        except psycopg.Error as exc:
            cut = isinstance(exc, psycopg.OperationalError) and (db.broken or db.closed)
            if cut:
                self._db = None
                if worked and doing != "read":
                    raise UncertainWriteError(
                        f"cannot {doing} the game database {self.where}: {_reason(exc, self._dsn)} "
                        "(the connection closed during the commit)"
                    ) from exc
                if retry:
                    raise _Retry from exc
            raise StoreError(
                f"cannot {doing} the game database {self.where}: {_reason(exc, self._dsn)}"
            ) from exc

    def close(self) -> None:
        """Release the connection (a later call raises
        :class:`~tajmahal.web.stores.contract.StoreError`)."""
        with self._lock:
            self._closed = True
            if self._db is not None:
                if self.exclusive and not self._db.broken:
                    with contextlib.suppress(psycopg.Error):
                        self._db.execute("SELECT pg_advisory_unlock(%s)", (SERVER_LOCK,))
                self._db.close()
                self._db = None
