"""What several server processes share through the PostgreSQL store (see
:mod:`tajmahal.web.stores.postgres`): a lease per game, moves handed to a game's holder and
their answers, and the live processes (a heartbeat each). A mixin of
:class:`~tajmahal.web.stores.postgres.PostgresStore`: each method is one transaction of its
``_run``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import attrs
import psycopg
from psycopg.rows import TupleRow

from tajmahal.web.stores.contract import StoreError
from tajmahal.web.stores.notices import ANSWERS, HANDED

__all__ = [
    "ANSWERS_KEPT",
    "MAX_ANSWER_TEXT",
    "MAX_MOVE_TEXT",
    "Coordination",
    "HandedMove",
    "Lease",
    "LeaseLostError",
    "check_lease",
    "notify",
]

T = TypeVar("T")
Connection = psycopg.Connection[TupleRow]
MAX_MOVE_TEXT = 4096  #: the longest move text a process may hand on
MAX_ANSWER_TEXT = 1000  #: an answer's error is cut to this
ANSWERS_KEPT = 600.0  #: seconds an answered handed move nobody collected is kept


class LeaseLostError(StoreError):
    """The lease given with a write is no longer held (released, or taken over after expiry)."""


@attrs.frozen
class Lease:
    """One process's hold on a game: who, the epoch (raised at each takeover) and when it
    expires (seconds since the epoch, on the database's clock)."""

    game_id: str
    holder: str
    epoch: int
    expires: float


@attrs.frozen
class HandedMove:
    """A move a process handed to the game's holder: the seat it checked the token of, the
    decision number the person answered, the move's text and the process that sent it."""

    id: int
    game_id: str
    seat: int
    number: int
    move: str
    sender: str


def notify(db: Connection, channel: str, payload: dict[str, Any]) -> None:
    # inside the caller's transaction: PostgreSQL delivers it at commit, never before
    db.execute("SELECT pg_notify(%s, %s)", (channel, json.dumps(payload)))


def check_lease(db: Connection, lease: Lease) -> None:
    """The fence: ``lease`` still holds its game (the row stays locked until commit, so a
    takeover waits for this transaction and then sees what it wrote)."""
    held = db.execute(
        "SELECT 1 FROM leases WHERE game_id = %s AND holder = %s AND epoch = %s FOR SHARE",
        (lease.game_id, lease.holder, lease.epoch),
    ).fetchone()
    if held is None:
        raise LeaseLostError(
            f"{lease.holder} no longer holds game {lease.game_id} (epoch {lease.epoch})"
        )


class Coordination:
    """Leases, handed moves and live processes, for :class:`PostgresStore`."""

    def _run(
        self, work: Callable[[Connection], T], doing: str, conflict: StoreError | None = None,
        game_id: str = "",
    ) -> T:  # pragma: no cover - PostgresStore's
        raise NotImplementedError

    # ------------------------------------------------------------------ leases

    def acquire(self, game_id: str, holder: str, ttl: float) -> Lease | None:
        """Hold ``game_id`` for ``ttl`` seconds if nobody else does (free, released or
        expired); None if another holder has it. Of several processes asking at once, one
        gets it. Asked again by its holder, the lease is extended (same epoch)."""

        def work(db: Connection) -> Lease | None:
            row = db.execute(
                "INSERT INTO leases AS l (game_id, holder, epoch, expires) "
                "VALUES (%(game)s, %(holder)s, 1, "
                "  clock_timestamp() + make_interval(secs => %(ttl)s)) "
                "ON CONFLICT (game_id) DO UPDATE SET "
                "  holder = EXCLUDED.holder, expires = EXCLUDED.expires, "
                "  epoch = l.epoch + CASE WHEN l.holder = EXCLUDED.holder "
                "    AND l.expires > clock_timestamp() THEN 0 ELSE 1 END "
                "WHERE l.holder IS NULL OR l.holder = EXCLUDED.holder "
                "  OR l.expires <= clock_timestamp() "
                "RETURNING epoch, extract(epoch FROM expires)::float8",
                {"game": game_id, "holder": holder, "ttl": float(ttl)},
            ).fetchone()
            return None if row is None else Lease(game_id, holder, row[0], row[1])

        return self._run(work, "write")

    def renew(self, lease: Lease, ttl: float) -> Lease | None:
        """Extend a held lease by ``ttl`` seconds from now; None if it was lost (taken over or
        released). A lease past its expiry that nobody took yet is renewed."""

        def work(db: Connection) -> Lease | None:
            row = db.execute(
                "UPDATE leases SET expires = clock_timestamp() + make_interval(secs => %s) "
                "WHERE game_id = %s AND holder = %s AND epoch = %s "
                "RETURNING extract(epoch FROM expires)::float8",
                (float(ttl), lease.game_id, lease.holder, lease.epoch),
            ).fetchone()
            return None if row is None else attrs.evolve(lease, expires=row[0])

        return self._run(work, "write")

    def renew_all(self, holder: str, ttl: float) -> list[Lease]:
        """Extend every lease ``holder`` holds by ``ttl`` seconds from now, in one statement
        (a process's periodic renewal); the leases renewed (one missing was lost)."""

        def work(db: Connection) -> list[Lease]:
            rows = db.execute(  # the rows locked in one order, as add_moves locks them
                "UPDATE leases SET expires = clock_timestamp() + make_interval(secs => %s) "
                "WHERE game_id IN (SELECT game_id FROM leases WHERE holder = %s "
                "  ORDER BY game_id FOR UPDATE) AND holder = %s "
                "RETURNING game_id, epoch, extract(epoch FROM expires)::float8",
                (float(ttl), holder, holder),
            ).fetchall()
            return [Lease(game_id, holder, epoch, expires) for game_id, epoch, expires in rows]

        return self._run(work, "write")

    def release(self, lease: Lease) -> bool:
        """Give the game up at once (another process may take it); False if already lost."""

        def work(db: Connection) -> bool:
            cursor = db.execute(
                "UPDATE leases SET holder = NULL, expires = '-infinity' "
                "WHERE game_id = %s AND holder = %s AND epoch = %s",
                (lease.game_id, lease.holder, lease.epoch),
            )
            return cursor.rowcount == 1

        return self._run(work, "write")

    def holder(self, game_id: str) -> Lease | None:
        """The game's lease if someone holds it now (not released, not expired), else None."""
        row = self._run(
            lambda db: db.execute(
                "SELECT holder, epoch, extract(epoch FROM expires)::float8 FROM leases "
                "WHERE game_id = %s AND holder IS NOT NULL AND expires > clock_timestamp()",
                (game_id,),
            ).fetchone(),
            "read",
        )
        return None if row is None else Lease(game_id, row[0], row[1], row[2])

    def unheld(self) -> list[str]:
        """The unfinished games nobody holds now (never held, released or expired), oldest
        first: what a process looks for to take over."""
        rows = self._run(
            lambda db: db.execute(
                "SELECT g.id FROM games g WHERE g.record IS NULL AND NOT EXISTS ("
                "  SELECT 1 FROM leases l WHERE l.game_id = g.id AND l.holder IS NOT NULL"
                "  AND l.expires > clock_timestamp()) ORDER BY g.created, g.id"
            ).fetchall(),
            "read",
        )
        return [row[0] for row in rows]

    # ------------------------------------------------------------------ handed moves

    def hand_move(self, game_id: str, seat: int, number: int, move: str, sender: str) -> int:
        """Store a person's move for the game's holder and tell it; the handed move's id.

        ``number`` is the decision the person answered (the holder refuses a stale one)."""
        if len(move) > MAX_MOVE_TEXT:
            raise StoreError(f"a move's text has at most {MAX_MOVE_TEXT} characters")

        def work(db: Connection) -> int:
            row = db.execute(
                "INSERT INTO handed_moves (game_id, seat, number, move, sender) "
                "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                (game_id, seat, number, move, sender),
            ).fetchone()
            assert row is not None
            notify(db, HANDED, {"game": game_id, "id": row[0]})
            return int(row[0])

        return self._run(work, "write")

    def take_handed(self, lease: Lease) -> list[HandedMove]:
        """The moves handed for the leased game not taken yet, oldest first (marked taken:
        each is answered once); :class:`LeaseLostError` if the lease is no longer held (they
        stay for the holder). Answers nobody collected for :data:`ANSWERS_KEPT` s go."""

        def work(db: Connection) -> list[HandedMove]:
            check_lease(db, lease)
            rows = db.execute(
                "UPDATE handed_moves SET taken = true WHERE game_id = %s AND NOT taken "
                "RETURNING id, game_id, seat, number, move, sender",
                (lease.game_id,),
            ).fetchall()
            db.execute(
                "DELETE FROM handed_moves WHERE game_id = %s AND answered "
                "AND sent < clock_timestamp() - make_interval(secs => %s)",
                (lease.game_id, ANSWERS_KEPT),
            )
            return sorted((HandedMove(*row) for row in rows), key=lambda m: m.id)

        return self._run(work, "write")

    def answer(self, handed: HandedMove, error: str | None = None) -> None:
        """Tell the sender what became of its handed move: None once played, else why not
        (kept in its row; the notice only says where to look)."""
        text = None if error is None else error[:MAX_ANSWER_TEXT]

        def work(db: Connection) -> None:
            db.execute(
                "UPDATE handed_moves SET answered = true, error = %s WHERE id = %s",
                (text, handed.id),
            )
            notify(db, ANSWERS, {"game": handed.game_id, "id": handed.id})

        self._run(work, "write")

    def collect_answer(self, game_id: str, ident: int) -> tuple[bool, str | None]:
        """The holder's answer to handed move ``ident``, read from its row (then removed):
        ``(True, None)`` played, ``(True, why)`` refused, ``(False, None)`` not answered yet.
        A move nobody holds a row of (forged, or collected) is ``(False, None)``."""
        row = self._run(
            lambda db: db.execute(
                "DELETE FROM handed_moves WHERE id = %s AND game_id = %s AND answered "
                "RETURNING error",
                (ident, game_id),
            ).fetchone(),
            "write",
        )
        return (False, None) if row is None else (True, row[0])

    def withdraw(self, game_id: str, ident: int) -> bool:
        """Take back handed move ``ident`` if the holder has not taken it yet (True: it will
        never be played)."""
        cursor = self._run(
            lambda db: db.execute(
                "DELETE FROM handed_moves WHERE id = %s AND game_id = %s AND NOT taken",
                (ident, game_id),
            ),
            "write",
        )
        return cursor.rowcount == 1

    # ------------------------------------------------------------------ processes

    def beat(self, name: str, alive: float) -> tuple[int, int]:
        """Say that process ``name`` is alive; ``(live processes, unfinished games)``, a
        process being live if it said so within ``alive`` seconds (on the database's clock).
        Processes silent for ten times that are forgotten."""

        def work(db: Connection) -> tuple[int, int]:
            db.execute(
                "INSERT INTO processes (name, seen) VALUES (%s, clock_timestamp()) "
                "ON CONFLICT (name) DO UPDATE SET seen = EXCLUDED.seen",
                (name,),
            )
            db.execute(
                "DELETE FROM processes WHERE seen < clock_timestamp() - make_interval(secs => %s)",
                (10 * alive,),
            )
            row = db.execute(
                "SELECT (SELECT count(*) FROM processes "
                "  WHERE seen > clock_timestamp() - make_interval(secs => %s)), "
                "(SELECT count(*) FROM games WHERE record IS NULL)",
                (alive,),
            ).fetchone()
            assert row is not None
            return int(row[0]), int(row[1])

        return self._run(work, "write")

    def leave(self, name: str) -> None:
        """Process ``name`` stops: the others share its games at once."""
        self._run(lambda db: db.execute("DELETE FROM processes WHERE name = %s", (name,)), "write")
