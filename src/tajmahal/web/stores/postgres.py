"""A :class:`~tajmahal.web.stores.contract.GameStore` in PostgreSQL (psycopg 3), and what several
server processes share through it.

Games, tokens (SHA-256 digests only) and moves are kept as
:class:`~tajmahal.web.stores.sqlite.SQLiteStore` keeps them, and a move returns only once its
transaction is committed (``synchronous_commit=on``). For several processes on one or more
machines the store adds three primitives; every one is a plain table or a PostgreSQL
feature, no home-made cluster protocol:

- **A lease per game** (a row with an expiry, on the database's clock): one process plays
  a game at a time. The holder renews it; a holder that stops (killed, cut off) loses it
  at expiry and another process takes the game over. Each takeover raises the lease's
  *epoch*, and a write given a lease is fenced by it: a process that lost its game can
  no longer change it (:class:`~tajmahal.web.stores.coordination.LeaseLostError`).
- **Notices through LISTEN/NOTIFY**: each committed change of a game ("decision N of game
  G", an undo, the end) reaches every :class:`NoticeListener` once it is committed.
- **Handed moves**: a process that does not hold a game stores a person's move there
  (:meth:`~tajmahal.web.stores.coordination.Coordination.hand_move`); the holder is told,
  takes it with its lease and answers in its row
  (:meth:`~tajmahal.web.stores.coordination.Coordination.answer`). A handed move is not a
  decision: it counts only once the holder has committed it as a move.

The leases, handed moves and live processes are :mod:`tajmahal.web.stores.coordination`
(a part of :class:`PostgresStore`); the notices are :mod:`tajmahal.web.stores.notices`.
The connection and its retries are :mod:`tajmahal.web.stores.postgres_connection`, the
tables :mod:`tajmahal.web.stores.postgres_schema`, and the reading and redaction of an
address :mod:`tajmahal.web.stores.postgres_address` (their public names are also here).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from tajmahal._extras import missing_extra

try:  # the extra 'postgres': without it, an ImportError that names it
    import psycopg
    from psycopg.rows import TupleRow
except ImportError as missing:
    raise missing_extra(__name__, ("postgres",), missing) from missing

from tajmahal._escape import log_text
from tajmahal._moved import renamed_names
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
from tajmahal.web.stores.coordination import (
    Coordination,
    HandedMove,
    Lease,
    LeaseLostError,
    check_lease,
    notify,
)
from tajmahal.web.stores.notices import (
    ANSWERS,
    DECISIONS,
    HANDED,
    GameChanged,
    MoveAnswered,
    MoveHanded,
    Notice,
    moves_digest,
    parse_notice,
)
from tajmahal.web.stores.postgres_address import _reason, address_problem, describe, redact
from tajmahal.web.stores.postgres_connection import (
    EXCLUSIVE_WAIT,  # noqa: F401  (its old home)
    PostgresConnection,
    UncertainWriteError,
)
from tajmahal.web.stores.postgres_schema import QUOTA_LOCK, create_schema

__all__ = [
    "ANSWERS",
    "DECISIONS",
    "HANDED",
    "GameChanged",
    "HandedMove",
    "Lease",
    "LeaseLostError",
    "MoveAnswered",
    "MoveHanded",
    "Notice",
    "NoticeListener",
    "PostgresStore",
    "UncertainWriteError",
    "address_problem",
    "describe",
    "moves_digest",
    "parse_notice",
    "redact",
]

_Connection = psycopg.Connection[TupleRow]
log = logging.getLogger("tajmahal.web")

if not TYPE_CHECKING:  # the former names, deprecated (type checkers see only the new ones)
    __getattr__ = renamed_names(__name__, {
        "Listener": "NoticeListener", "Decision": "GameChanged", "Handed": "MoveHanded",
        "Answer": "MoveAnswered",
    })  # fmt: skip


class PostgresStore(PostgresConnection, Coordination):
    """A :class:`~tajmahal.web.stores.contract.GameStore` in a PostgreSQL database, for one or
    several server processes (``tajmahal serve --db postgresql://...``).

    ``dsn`` is a libpq address: a ``postgresql://user@host/database`` URL or
    ``host=... dbname=...``; a password is best kept in ``~/.pgpass`` or ``PGPASSWORD``.
    The tables are made at the first start. One connection, used by one thread at a time
    (a lock guards it); a connection that broke is opened again at the next call. A move
    is committed with ``synchronous_commit=on`` before :meth:`add_move` returns.

    ``exclusive=True`` (for an application that wants a database alone; ``tajmahal serve``
    shares it, see :mod:`tajmahal.web.cluster`) holds the database for this store alone,
    with a session advisory lock: a second exclusive store gets
    :class:`~tajmahal.web.stores.contract.StoreError`, and the lock goes with the connection (a
    killed process frees it at once).

    Used like :class:`~tajmahal.web.stores.sqlite.SQLiteStore`::

        store = PostgresStore("postgresql://tajmahal@/tajmahal?host=/run/postgresql")
        store.create_game(StoredGame("g1", {"seats": []}, 7, 0.0), [("secret", 0)])
        lease = store.acquire("g1", "web-1", ttl=5.0)   # this process plays g1
        store.add_move("g1", StoredMove(1, 0, "withdraw"), lease=lease)
    """

    def __init__(
        self, dsn: str, *, exclusive: bool = False, connect_timeout: int = 10,
        statement_timeout: float = 30.0, lock_timeout: float = 10.0, idle_timeout: float = 10.0,
    ) -> None:  # fmt: skip
        super().__init__(
            dsn, exclusive=exclusive, connect_timeout=connect_timeout,
            statement_timeout=statement_timeout, lock_timeout=lock_timeout,
            idle_timeout=idle_timeout,
        )  # fmt: skip
        self._run(create_schema, "prepare")

    @property
    def path(self) -> str:
        """Where the games are, for messages (as a SQLite store's ``path``): no password."""
        return self.where


    # ------------------------------------------------------------------ GameStore

    def create_game(
        self, game: StoredGame, tokens: Sequence[tuple[str, int | None]], *,
        quota: Quota | None = None,
    ) -> None:  # fmt: skip
        """Store a new game and its tokens (their digests only); with a ``quota``, only
        within it, counted over every process's games
        (:class:`~tajmahal.web.stores.contract.QuotaError` names the limit), and the game is
        its owner's."""

        def work(db: _Connection) -> None:
            if quota is not None:  # one new game at a time, cluster-wide: counted, then stored
                db.execute("SELECT pg_advisory_xact_lock(%s)", (QUOTA_LOCK,))
                owner = token_digest(quota.owner)
                counts = db.execute(QUOTA_COUNTS.format(p="%s"),
                                    (owner, owner, game.created - 60.0)).fetchone()  # fmt: skip
                assert counts is not None
                refused = quota.refusal(*counts)
                if refused is not None:
                    raise QuotaError(refused)
            db.execute(
                "INSERT INTO games (id, config, seed, created) VALUES (%s, %s, %s, %s)",
                (game.id, json.dumps(game.config), game.seed, game.created),
            )
            for token, seat in tokens:
                db.execute(
                    "INSERT INTO tokens (digest, game_id, seat) VALUES (%s, %s, %s)",
                    (token_digest(token), game.id, seat),
                )
            if quota is not None:
                db.execute("INSERT INTO owners (game_id, owner) VALUES (%s, %s)",
                           (game.id, token_digest(quota.owner)))  # fmt: skip

        self._run(work, "write", taken_game(game.id), game.id)

    def delete_game(self, game_id: str, *, lease: Lease | None = None) -> None:
        """Forget an unfinished game that expired: its moves, links, lease, handed moves and
        settings (a finished game stays); fenced by ``lease`` when given."""

        def work(db: _Connection) -> None:
            if lease is not None:
                check_lease(db, lease)
            row = db.execute("SELECT 1 FROM games WHERE id = %s AND record IS NULL FOR UPDATE",
                             (game_id,)).fetchone()  # fmt: skip
            if row is None:
                return
            for table in ("owners", "handed_moves", "leases", "tokens", "moves"):
                db.execute(f"DELETE FROM {table} WHERE game_id = %s", (game_id,))
            db.execute("DELETE FROM games WHERE id = %s", (game_id,))

        self._run(work, "write")

    def add_move(self, game_id: str, move: StoredMove, *, lease: Lease | None = None) -> None:
        """Commit one move and tell every listener; :class:`DuplicateMoveError` if its number
        is taken, :class:`~tajmahal.web.stores.coordination.LeaseLostError` if ``lease`` is
        given and no longer held."""
        fault = None if move.fault is None else json.dumps(move.fault)

        def work(db: _Connection) -> None:
            if lease is not None:
                check_lease(db, lease)
            db.execute(
                "INSERT INTO moves (game_id, number, seat, move, elapsed, fault) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (game_id, move.number, move.seat, move.move, move.elapsed, fault),
            )
            notify(db, DECISIONS, {"game": game_id, "change": "move", "number": move.number})

        duplicate = DuplicateMoveError(f"game {game_id} already has move {move.number}")
        try:
            self._run(work, "write", duplicate, game_id)
        except UncertainWriteError:  # its commit was cut: stored, or written again now
            if not self._stored_as(game_id, move):
                self._run(work, "write", duplicate, game_id)

    def _stored_as(self, game_id: str, move: StoredMove) -> bool:
        """Whether ``move`` is stored, as given (a write whose commit was cut)."""
        row = self._run(
            lambda db: db.execute(
                "SELECT seat, move FROM moves WHERE game_id = %s AND number = %s",
                (game_id, move.number),
            ).fetchone(),
            "read",
        )
        return row is not None and (row[0], row[1]) == (move.seat, move.move)

    def add_moves(
        self, entries: Sequence[tuple[str, StoredMove]],
        *, leases: Mapping[str, Lease] | None = None,
    ) -> list[Exception | None]:  # fmt: skip
        """Commit several games' moves in one transaction (one ``fsync``: group commit), each
        fenced by its game's lease in ``leases`` when given, and tell every listener.

        Each entry's outcome, in order: None, :class:`DuplicateMoveError` (its number is
        taken) or :class:`~tajmahal.web.stores.coordination.LeaseLostError` (no lease, or no
        longer held); the others are stored all the same."""

        def work(db: _Connection) -> list[Exception | None]:
            if leases is not None:  # the leases' rows locked in one order: no deadlock with
                db.execute(  # a renewal of several at once (renew_all: the same order)
                    "SELECT 1 FROM leases WHERE game_id = ANY(%s) ORDER BY game_id FOR SHARE",
                    (sorted({game_id for game_id, _ in entries}),),
                )
            problems: list[Exception | None] = []
            for game_id, move in entries:
                fault = None if move.fault is None else json.dumps(move.fault)
                try:
                    with db.transaction():  # a savepoint: a failed entry is undone alone
                        if leases is not None:
                            lease = leases.get(game_id)
                            if lease is None:
                                raise LeaseLostError(f"no lease on game {game_id} is given")
                            check_lease(db, lease)
                        db.execute(
                            "INSERT INTO moves (game_id, number, seat, move, elapsed, fault) "
                            "VALUES (%s, %s, %s, %s, %s, %s)",
                            (game_id, move.number, move.seat, move.move, move.elapsed, fault),
                        )
                        told = {"game": game_id, "change": "move", "number": move.number}
                        notify(db, DECISIONS, told)
                    problems.append(None)
                except psycopg.errors.UniqueViolation:
                    problems.append(DuplicateMoveError(
                        f"game {game_id} already has move {move.number}"))  # fmt: skip
                except psycopg.errors.ForeignKeyViolation:
                    problems.append(unknown_game(game_id))
                except LeaseLostError as exc:
                    problems.append(exc)
            return problems

        try:
            return self._run(work, "write")
        except UncertainWriteError:  # the commit was cut: each entry stored, or written again
            missing = [n for n, (game_id, move) in enumerate(entries)
                       if not self._stored_as(game_id, move)]  # fmt: skip
            outcome: list[Exception | None] = [None] * len(entries)
            if missing:
                again = self.add_moves([entries[n] for n in missing], leases=leases)
                for n, problem in zip(missing, again, strict=True):
                    outcome[n] = problem
            return outcome

    def remove_moves(self, game_id: str, first: int, *, lease: Lease | None = None) -> None:
        """Delete the moves numbered ``first`` and later (undo) and tell every listener."""

        def work(db: _Connection) -> None:
            if lease is not None:
                check_lease(db, lease)
            db.execute("DELETE FROM moves WHERE game_id = %s AND number >= %s", (game_id, first))
            notify(db, DECISIONS, {"game": game_id, "change": "undo", "number": first})

        self._run(work, "write")

    def finish(self, game_id: str, record: str, *, lease: Lease | None = None) -> None:
        """Keep the finished game's record and tell every listener."""

        def work(db: _Connection) -> None:
            if lease is not None:
                check_lease(db, lease)
            db.execute("UPDATE games SET record = %s WHERE id = %s", (record, game_id))
            notify(db, DECISIONS, {"game": game_id, "change": "finish"})

        self._run(work, "write")

    def load(self, game_id: str) -> StoredGame | None:
        """The game with its moves, or None."""

        def work(db: _Connection) -> StoredGame | None:
            row = db.execute(
                "SELECT id, config, seed, created, record FROM games WHERE id = %s", (game_id,)
            ).fetchone()
            if row is None:
                return None
            return attrs.evolve(_game(row), moves=_moves_after(db, game_id, 0))

        return self._run(work, "read")

    def sync(self, game_id: str, held: int, digest: str) -> tuple[bool, tuple[StoredMove, ...]]:
        """What a copy of the game holding ``held`` moves of :func:`moves_digest` ``digest``
        lacks: ``(True, the moves after them)`` if the store's first ``held`` moves are those,
        else ``(False, every stored move)`` (the copy forked: an undo it missed). One snapshot.
        """

        def work(db: _Connection) -> tuple[bool, tuple[StoredMove, ...]]:
            db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = db.execute(
                "SELECT count(*), coalesce(md5(string_agg(number || ' ' || seat || ' ' || move, "
                "E'\\n' ORDER BY number)), '') FROM moves WHERE game_id = %s AND number <= %s",
                (game_id, held),
            ).fetchone()
            same = row is not None and row[0] == held and row[1] == digest
            return same, _moves_after(db, game_id, held if same else 0)

        return self._run(work, "read")

    def generation(self, game_id: str) -> tuple[int, str]:
        """The game's generation: how many moves are stored and their :func:`moves_digest`
        (changed by every move, undo and removal)."""
        row = self._run(
            lambda db: db.execute(
                "SELECT count(*), coalesce(md5(string_agg(number || ' ' || seat || ' ' || move, "
                "E'\\n' ORDER BY number)), '') FROM moves WHERE game_id = %s",
                (game_id,),
            ).fetchone(),
            "read",
        )
        return (0, "") if row is None else (int(row[0]), str(row[1]))

    def moves_after(self, game_id: str, number: int) -> tuple[StoredMove, ...]:
        """The game's moves numbered above ``number`` (what a listener has not seen yet)."""
        return self._run(lambda db: _moves_after(db, game_id, number), "read")

    def add_token(self, game_id: str, token: str, seat: int | None) -> None:
        """Another token for a stored game's seat (a rematch's link, given when asked for);
        a token stored already is left as it is."""

        def work(db: _Connection) -> None:
            db.execute(
                "INSERT INTO tokens (digest, game_id, seat) VALUES (%s, %s, %s)"
                " ON CONFLICT (digest) DO NOTHING",
                (token_digest(token), game_id, seat),
            )

        self._run(work, "write", None, game_id)

    def find_token(self, token: str) -> TokenEntry | None:
        """What ``token`` opens, or None."""
        row = self._run(
            lambda db: db.execute(
                "SELECT game_id, seat FROM tokens WHERE digest = %s", (token_digest(token),)
            ).fetchone(),
            "read",
        )
        return None if row is None else TokenEntry(row[0], row[1])

    def unfinished(self) -> list[str]:
        """The ids of the games not yet over, oldest first."""
        rows = self._run(
            lambda db: db.execute(
                "SELECT id FROM games WHERE record IS NULL ORDER BY created, id"
            ).fetchall(),
            "read",
        )
        return [row[0] for row in rows]

    def recent(self, limit: int) -> list[StoredGame]:
        """The newest games, newest first, without their moves (``record`` is '' once over);
        a game whose settings are damaged is left out (reported when it is loaded)."""
        rows = self._run(
            lambda db: db.execute(
                "SELECT id, config, seed, created, CASE WHEN record IS NULL THEN NULL ELSE '' END "
                "FROM games ORDER BY created DESC, id DESC LIMIT %s",
                (max(limit, 0),),
            ).fetchall(),
            "read",
        )
        games = []
        for row in rows:
            try:
                games.append(_game(row))
            except StoreError:  # damaged settings: reported when loaded (as on SQLite)
                continue
        return games


def _moves_after(db: _Connection, game_id: str, number: int) -> tuple[StoredMove, ...]:
    rows = db.execute(
        "SELECT number, seat, move, elapsed, fault FROM moves "
        "WHERE game_id = %s AND number > %s ORDER BY number",
        (game_id, number),
    ).fetchall()
    return tuple(
        StoredMove(n, seat, text, elapsed,
                   None if fault is None else stored_json(fault, game_id, f"move {n}'s fault"))
        for n, seat, text, elapsed, fault in rows
    )  # fmt: skip


def _game(row: Sequence[Any]) -> StoredGame:
    game_id, config, seed, created, record = row
    return StoredGame(game_id, stored_json(config, game_id, "settings"), seed, created,
                      record=record)  # fmt: skip


class NoticeListener:
    """A connection of its own that hears the store's notices (:data:`DECISIONS`,
    :data:`HANDED`, :data:`ANSWERS`, or the ``channels`` given).

    A notice sent while no listener listened is gone: after
    :class:`~tajmahal.web.stores.contract.StoreError` (the connection was lost) open a new listener
    and reload the games from the store.
    """

    def __init__(
        self, dsn: str, channels: Sequence[str] = (DECISIONS, HANDED, ANSWERS),
        *, connect_timeout: int = 10,
    ) -> None:  # fmt: skip
        self.where = describe(dsn)
        self.ignored = 0  #: notices heard on our channels that were not ours (ignored)
        self.pid: int | None = None  #: the listening connection's backend process id
        for channel in channels:
            if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", channel):
                raise ValueError(f"not a channel name: {channel!r}")
        try:
            self._db: _Connection = psycopg.connect(
                dsn, autocommit=True, connect_timeout=connect_timeout,
                application_name="tajmahal-listener",
            )  # fmt: skip
            for channel in channels:
                self._db.execute(f"LISTEN {channel}")
            self.pid = self._db.info.backend_pid
        except psycopg.Error as exc:
            raise StoreError(f"cannot listen to {self.where}: {_reason(exc, dsn)}") from None

    def wait(self, timeout: float) -> list[Notice]:
        """The notices that arrive within ``timeout`` seconds (returns at the first, with any
        already there); [] if none came."""
        try:
            got = list(self._db.notifies(timeout=max(timeout, 0.0), stop_after=1))
            if got:
                got += self._db.notifies(timeout=0.0)
        except psycopg.Error as exc:
            raise StoreError(f"lost the notices of {self.where}: {_reason(exc)}") from exc
        notices = []
        for each in got:
            notice = parse_notice(each.channel, each.payload)
            if notice is not None:
                notices.append(notice)
                continue
            self.ignored += 1  # a hint we cannot read: logged (the first, then every 100th)
            if self.ignored % 100 == 1:
                log.warning("ignored a notice that is not ours on %s (%d so far): %s",
                            log_text(each.channel[:64]), self.ignored,
                            log_text(each.payload[:120]))  # fmt: skip
        return notices

    def close(self) -> None:
        """Stop listening."""
        self._db.close()

    def __enter__(self) -> NoticeListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
