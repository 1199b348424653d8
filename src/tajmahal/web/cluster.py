"""Several ``tajmahal serve`` processes on one PostgreSQL database (behind any load balancer).

Built on the store's primitives (:mod:`tajmahal.web.stores.postgres`):

- **One player per game.** A process plays a game (drives its bots, commits its moves)
  only while it holds the game's lease; it renews its leases every ``lease_ttl / 3``
  seconds and looks for games nobody holds (new, released, or of a process that died)
  every ``lease_ttl / 4``: a dead holder's games are taken over a little after its
  leases expire, and their bots go on. Every write goes through :class:`LeasedStore`,
  fenced by the lease: a process that lost a game can no longer change it.
- **Every browser sees every move.** The other processes keep a read-only copy of a
  game that someone watches through them (a replica :class:`ClusterTable`); each process
  runs one :class:`~tajmahal.web.stores.postgres.Listener`, and on "decision N of game G"
  the replica reads the new moves from the store and its connections get the state.
- **A move reaches the holder.** A person's move (or undo) sent to a replica is checked
  there, handed to the holder through the store, played there, and the answer comes back:
  the person's connection gets the ack, or the error, as if the game were local.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import attrs

from tajmahal._escape import log_text
from tajmahal.protocol import ProcessSeat
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import parse_move
from tajmahal.web.config import GameConfig, ServerSettings
from tajmahal.web.server import CreatedGame, GameServer
from tajmahal.web.store import Quota, StoredGame, StoredMove, StoreError, TokenEntry
from tajmahal.web.stores.postgres import (
    Answer,
    Decision,
    Handed,
    HandedMove,
    Lease,
    LeaseLostError,
    Listener,
    Notice,
    PostgresStore,
)
from tajmahal.web.table import Rejected, Table, Workers

__all__ = ["Cluster", "ClusterServer", "ClusterTable", "LeasedStore", "process_name"]

log = logging.getLogger("tajmahal.web")
T = TypeVar("T")
UNDO = "!undo"  #: a handed "move" asking the holder for an undo (no move's text starts so)
HAND_WAIT = 30.0  #: seconds a handed move waits for the holder's answer (at least 4 ttl)
_EARLY = 1000  #: how many answers are kept that came before their handed move's id was known


class LeasedStore:
    """The server's store in a cluster: reads as the store reads; each write of a game is
    fenced by this process's lease on it (:class:`LeaseLostError` without one)."""

    def __init__(self, store: PostgresStore, leases: dict[str, Lease]) -> None:
        self.store = store
        self._leases = leases

    @property
    def path(self) -> str:
        return self.store.path

    def _lease(self, game_id: str) -> Lease:
        lease = self._leases.get(game_id)
        if lease is None:
            raise LeaseLostError(f"this process does not hold game {game_id}")
        return lease

    def create_game(
        self, game: StoredGame, tokens: Sequence[tuple[str, int | None]], *,
        quota: Quota | None = None,
    ) -> None:  # fmt: skip
        self.store.create_game(game, tokens, quota=quota)

    def delete_game(self, game_id: str) -> None:
        """An expired game deleted by its holder (:class:`LeaseLostError` on another process)."""
        self.store.delete_game(game_id, lease=self._lease(game_id))

    def add_move(self, game_id: str, move: StoredMove) -> None:
        self.store.add_move(game_id, move, lease=self._lease(game_id))

    def add_moves(self, entries: Sequence[tuple[str, StoredMove]]) -> list[Exception | None]:
        """Several games' moves in one transaction (group commit), each fenced by its lease."""
        return self.store.add_moves(entries, leases=dict(self._leases))

    def remove_moves(self, game_id: str, first: int) -> None:
        self.store.remove_moves(game_id, first, lease=self._lease(game_id))

    def finish(self, game_id: str, record: str) -> None:
        self.store.finish(game_id, record, lease=self._lease(game_id))

    def load(self, game_id: str) -> StoredGame | None:
        return self.store.load(game_id)

    def moves_after(self, game_id: str, number: int) -> tuple[StoredMove, ...]:
        return self.store.moves_after(game_id, number)

    def find_token(self, token: str) -> TokenEntry | None:
        return self.store.find_token(token)

    def add_token(self, game_id: str, token: str, seat: int | None) -> None:
        self.store.add_token(game_id, token, seat)

    def unfinished(self) -> list[str]:
        return self.store.unfinished()

    def recent(self, limit: int) -> list[StoredGame]:
        return self.store.recent(limit)

    def close(self) -> None:
        self.store.close()


@attrs.define(eq=False)
class _Pending:
    """A move this process handed on, waiting for the holder."""

    game_id: str
    number: int
    seat: int
    text: str
    acknowledge: Callable[[], None] | None
    done: asyncio.Future[None]
    id: int | None = None
    acked: bool = False

    def ack(self) -> None:
        if not self.acked:
            self.acked = True
            if self.acknowledge is not None:
                self.acknowledge()


class ClusterTable(Table):
    """A game on one of several processes: played here while this process holds its lease,
    else a read-only copy that applies the holder's stored moves and hands moves on."""

    def __init__(self, stored: StoredGame, config: GameConfig, settings: ServerSettings,
                 workers: Workers, *, cluster: Cluster) -> None:  # fmt: skip
        super().__init__(stored, config, settings, workers)
        self.cluster = cluster

    @property
    def held(self) -> bool:
        return self.id in self.cluster.leases

    def drive(self) -> None:
        if self.held:
            super().drive()

    async def move(
        self, seat: int, decision: object, text: object,
        acknowledge: Callable[[], None] | None = None,
    ) -> None:  # fmt: skip
        if self.held:
            try:
                await super().move(seat, decision, text, acknowledge)
                return
            except LeaseLostError:
                await self.cluster.lost(self.id)
        await self._hand(seat, decision, text, acknowledge)

    async def undo(self, seat: int, decision: object) -> None:
        if self.held:
            try:
                await super().undo(seat, decision)
                return
            except LeaseLostError:
                await self.cluster.lost(self.id)
        if type(decision) is not int or decision != len(self.game) + 1:
            raise Rejected("this undo is for decision "
                           f"{str(decision)[:20]}, not the current one")  # fmt: skip
        if not self.undo_allowed(seat):
            raise Rejected("undo is possible on your turn, after a move of yours, while every "
                           "other seat is a bot")  # fmt: skip
        await self.cluster.hand(self.id, decision, seat, UNDO, None)

    async def _hand(
        self, seat: int, decision: object, text: object, acknowledge: Callable[[], None] | None
    ) -> None:
        """Check a person's move here, then hand it to the game's holder and wait."""
        async with self._lock:
            number, move = self._checked_move(seat, decision, text)
        await self.cluster.hand(self.id, number, seat, str(move), acknowledge)

    async def play_handed(self, handed: HandedMove) -> str | None:
        """Play a move another process handed here: None if played, else why not."""
        try:
            if handed.move == UNDO:
                await Table.undo(self, handed.seat, handed.number)
            else:
                await Table.move(self, handed.seat, handed.number, handed.move)
        except LeaseLostError:
            await self.cluster.lost(self.id)
            return "the game moved to another server process: send it again"
        except TajMahalError as exc:
            return str(exc)
        return None

    async def keep_record(self) -> None:
        if self.held:
            await super().keep_record()
            return
        stored = await self.cluster.stored(self.cluster.store.load, self.id)
        if stored is not None and stored.record is not None:
            self.finished_record = stored.record
            self._recorded.set()

    async def catch_up(self) -> None:
        """Apply the moves stored since this copy's (a replica; a holder stores them itself)."""
        if self.closed:
            return
        async with self._lock:
            if self.held:
                return
            stored = await self.cluster.stored(
                self.cluster.store.moves_after, self.id, len(self.game)
            )
            self._apply(stored)
            if self.state.is_over and self.finished_record is None:
                await self.keep_record()

    async def take_back(self, first: int) -> None:
        """An undo on the holder: moves ``first`` and later are gone; read what follows."""
        async with self._lock:
            if not self.held and first <= len(self.game):
                while len(self.game) >= first:
                    self.game.pop()
                del self.moves[first - 1 :]
                self._rebuild_events()
                self.rewound = self.version + 1  # as Table.undo: pages get the whole state
                self._changed()
        await self.catch_up()

    def _apply(self, stored: Sequence[StoredMove]) -> None:
        applied = False
        for entry in stored:
            if entry.number != len(self.game) + 1:
                break
            before = self.state
            try:
                move = parse_move(entry.move, before)
            except TajMahalError as exc:  # read across an undo: the undo's notice mends it
                log.info("game %s: stored move %d does not follow: %s", self.id, entry.number,
                         log_text(exc))  # fmt: skip
                break
            self.cluster.acknowledge(self.id, entry)  # the ack first, then the frames
            self.game.push(move)
            self.moves.append(entry)
            applied = True
        if applied:
            self._changed()

    async def become_replica(self) -> None:
        """The lease is gone: stop the bots here (the holder plays them now)."""
        if self._driver is not None:
            self._driver.cancel()
            self._driver = None
        self._referee = None
        seats, self._seats = self._seats, []
        self.workers.pool.forget(self.id)
        for seat in seats:
            if isinstance(seat, ProcessSeat):
                await self.workers.program(seat.close)


def process_name() -> str:
    """This process's name as a lease holder: host, process id and a random part."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    """This process's part in the cluster: its leases, its listener, the moves it handed on."""

    def __init__(self, server: ClusterServer, dsn: str, ttl: float) -> None:
        self.server = server
        self.dsn = dsn
        #: connections of their own: the leases wait neither for moves nor for notices' work
        self.store = PostgresStore(dsn)
        self.leaser = PostgresStore(dsn)
        self.name = process_name()
        self.ttl = ttl
        self.leases: dict[str, Lease] = {}
        self._taking: set[str] = set()  # acquired, not yet in ``leases``
        self._damaged: set[str] = set()  # games that cannot be loaded: not taken again
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tajmahal-web-notices")
        self._leasing = ThreadPoolExecutor(1, thread_name_prefix="tajmahal-web-lease")
        self._chains: dict[str, asyncio.Task[None]] = {}  # per game: its notices, in order
        self._pending: dict[int, _Pending] = {}
        self._waiting: list[_Pending] = []  # handed, id not known yet
        #: answers that came before their sender knew the handed move's id, by (game, id)
        self._early: dict[tuple[str, int], str | None] = {}
        self._notices: asyncio.Queue[Notice | None] = asyncio.Queue()
        self._stop = threading.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._listening: threading.Thread | None = None

    async def stored(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    async def leasing(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._leasing, work, *args)

    def holds(self, game_id: str) -> bool:
        return game_id in self.leases

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._listening = threading.Thread(
            target=self._listen, args=(loop,), name="tajmahal-web-listener", daemon=True
        )
        self._listening.start()
        self._tasks = [loop.create_task(self._hear()), loop.create_task(self._keep())]
        log.info("cluster: this process is %s (leases of %g s)", self.name, self.ttl)

    def halt(self) -> None:
        """Stop listening, renewing and taking games (the leases are still held)."""
        self._stop.set()
        for task in [*self._tasks, *self._chains.values()]:
            task.cancel()

    async def stop(self) -> None:
        """Give every game up at once (another process takes them over) and stop."""
        self.halt()
        for lease in list(self.leases.values()):
            self.leases.pop(lease.game_id, None)
            with contextlib.suppress(StoreError):
                await self.leasing(self.leaser.release, lease)
        for pool in (self._thread, self._leasing):
            pool.shutdown(wait=True)
        self.store.close()
        self.leaser.close()

    # ------------------------------------------------------------------ notices

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """In a thread: the notices, onto the event loop (None: heard again after a loss)."""
        listener: Listener | None = None
        while not self._stop.is_set():
            try:
                if listener is None:
                    listener = Listener(self.dsn)
                    loop.call_soon_threadsafe(self._notices.put_nowait, None)
                for notice in listener.wait(0.5):
                    loop.call_soon_threadsafe(self._notices.put_nowait, notice)
            except StoreError as exc:
                log.warning("cluster: %s; listening again in a second", log_text(exc))
                if listener is not None:
                    with contextlib.suppress(Exception):
                        listener.close()
                listener = None
                self._stop.wait(1.0)
            except RuntimeError:  # the event loop closed: the server stopped
                break
        if listener is not None:
            with contextlib.suppress(Exception):
                listener.close()

    async def _hear(self) -> None:
        """Each game's notices in order, the games' side by side; answers at once."""
        loop = asyncio.get_running_loop()
        while True:
            notice = await self._notices.get()
            if isinstance(notice, Answer):
                self._answered(notice.game_id, notice.id, notice.error)
                continue
            key = "" if notice is None else notice.game_id
            before = self._chains.get(key)
            task = loop.create_task(self._after(before, notice))
            self._chains[key] = task
            task.add_done_callback(functools.partial(self._chained, key))

    def _chained(self, key: str, task: asyncio.Task[None]) -> None:
        if self._chains.get(key) is task:
            del self._chains[key]

    async def _after(self, before: asyncio.Task[None] | None, notice: Notice | None) -> None:
        if before is not None:
            await asyncio.wait([before])  # its outcome is its own
        try:
            await self._heard(notice)
        except Exception:  # a bug: logged, the notices go on
            log.exception("cluster: a notice failed: %s", notice)

    async def _heard(self, notice: Notice | None) -> None:
        tables = self.server.tables
        if notice is None:  # (listening again): what was missed meanwhile
            for each in list(tables.values()):
                if isinstance(each, ClusterTable):
                    await each.catch_up()
            for game_id in list(self.leases):
                await self._take_handed(game_id)
        elif isinstance(notice, Decision):
            table = tables.get(notice.game_id)
            if not isinstance(table, ClusterTable) or table.held:
                return
            if notice.change == "undo" and notice.number is not None:
                await table.take_back(notice.number)
            elif notice.change == "move" and notice.number is not None:
                if notice.number > table.decision:
                    await table.catch_up()
            else:
                await table.catch_up()
        elif isinstance(notice, Handed) and notice.game_id in self.leases:
            await self._take_handed(notice.game_id)

    # ------------------------------------------------------------------ handed moves

    async def hand(self, game_id: str, number: int, seat: int, text: str,
                   acknowledge: Callable[[], None] | None) -> None:  # fmt: skip
        """Hand a checked move to the game's holder; returns once it is played (acknowledged
        first), :class:`Rejected` with the holder's reason if it is not."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        pending = _Pending(game_id, number, seat, text, acknowledge, done)
        self._waiting.append(pending)
        try:
            pending.id = await self.stored(
                self.store.hand_move, game_id, seat, number, text, self.name
            )
            self._pending[pending.id] = pending
            early = (game_id, pending.id)
            if early in self._early:
                self._answered(game_id, pending.id, self._early.pop(early))
            try:
                await asyncio.wait_for(asyncio.shield(done), max(HAND_WAIT, 4 * self.ttl))
            except TimeoutError:
                raise Rejected("the game's server did not answer in time: the game's state "
                               "shows whether the move was played") from None  # fmt: skip
        finally:
            self._waiting.remove(pending)
            if pending.id is not None:
                self._pending.pop(pending.id, None)

    def acknowledge(self, game_id: str, stored: StoredMove) -> None:
        """A replica applies ``stored``: if it is a move handed from here, it was played (the
        database says so: the holder's answer is not awaited, the holder may have died before
        sending it), and its ack goes first."""
        for pending in self._waiting:
            if (pending.game_id, pending.number, pending.seat, pending.text) == (
                game_id, stored.number, stored.seat, stored.move
            ):  # fmt: skip
                pending.ack()
                if not pending.done.done():
                    pending.done.set_result(None)

    def _answered(self, game_id: str, ident: int, error: str | None) -> None:
        pending = self._pending.get(ident)
        if pending is None or pending.game_id != game_id:  # (ids are a database's, or schema's)
            self._early[game_id, ident] = error
            while len(self._early) > _EARLY:
                del self._early[next(iter(self._early))]
            return
        if pending.done.done():
            return
        if error is None:
            pending.ack()
            pending.done.set_result(None)
        else:
            pending.done.set_exception(Rejected(error))

    async def _take_handed(self, game_id: str) -> None:
        lease = self.leases.get(game_id)
        table = self.server.tables.get(game_id)
        if lease is None or not isinstance(table, ClusterTable):
            return
        try:
            handed = await self.stored(self.store.take_handed, lease)
        except LeaseLostError:
            await self.lost(game_id)
            return
        for one in handed:  # (taken from the database: each is answered, whatever happens)
            try:
                error = await table.play_handed(one)
            except Exception:  # a bug: logged, the sender told, the other moves played
                log.exception("game %s: a handed move failed", game_id)
                error = "the game's server could not play it"
            if error is not None:
                log.info("game %s: a handed move refused: %s", game_id, log_text(error))
            with contextlib.suppress(StoreError):
                await self.stored(self.store.answer, one, error)

    # ------------------------------------------------------------------ leases

    async def _keep(self) -> None:
        """Renew the leases, give up those of games gone from memory, take unheld games."""
        every = max(0.1, self.ttl / 4)
        rounds = 0
        while True:
            try:
                await self._renew()
                await self._take_over()
                if rounds % 20 == 19:
                    await self._forget_unwatched()
            except StoreError as exc:
                log.warning("cluster: %s", log_text(exc))
            except Exception:  # a bug: logged, the leases go on
                log.exception("cluster: keeping the leases failed")
            rounds += 1
            await asyncio.sleep(every)

    async def _renew(self) -> None:
        """Every lease renewed in one statement; the games left give theirs up."""
        for game_id, lease in list(self.leases.items()):
            table = self.server.tables.get(game_id)
            if table is None or table.closed or table.finished_record is not None:
                self.leases.pop(game_id, None)
                await self.leasing(self.leaser.release, lease)
        if not self.leases:
            return
        renewed = {lease.game_id: lease for lease in
                   await self.leasing(self.leaser.renew_all, self.name, self.ttl)}  # fmt: skip
        for game_id, stray in renewed.items():
            if game_id not in self.leases and game_id not in self._taking:  # its release failed
                await self.leasing(self.leaser.release, stray)
        for game_id, lease in list(self.leases.items()):
            now = renewed.get(game_id)
            if now is None or now.epoch != lease.epoch:
                await self.lost(game_id)
            elif self.leases.get(game_id) is lease:
                self.leases[game_id] = now

    async def _take_over(self) -> None:
        for game_id in await self.leasing(self.leaser.unheld):
            if self._stop.is_set():
                return
            if game_id in self._damaged:
                continue
            self._taking.add(game_id)
            try:
                await self._take(game_id)
            finally:
                self._taking.discard(game_id)

    async def _take(self, game_id: str) -> None:
        lease = await self.leasing(self.leaser.acquire, game_id, self.name, self.ttl)
        if lease is None:  # another process was quicker
            return
        table = self.server.tables.get(game_id) or await self.server.table(game_id)
        if not isinstance(table, ClusterTable) or table.closed:  # a damaged game: left alone
            self._damaged.add(game_id)
            await self.leasing(self.leaser.release, lease)
            return
        await table.catch_up()  # the last holder is fenced now: the store has every move
        self.leases[game_id] = lease
        log.info("game %s: played by this process from decision %d (epoch %d)",
                 game_id, table.decision, lease.epoch)  # fmt: skip
        if table.state.is_over and table.finished_record is None:
            await table.keep_record()
        table.drive()
        await self._take_handed(game_id)

    async def lost(self, game_id: str) -> None:
        """This process no longer holds ``game_id``: a replica from now on."""
        if self.leases.pop(game_id, None) is None:
            return
        log.info("game %s: now played by another process", game_id)
        table = self.server.tables.get(game_id)
        if isinstance(table, ClusterTable):
            await table.become_replica()
            await table.catch_up()

    async def _forget_unwatched(self) -> None:
        """Replicas nobody watches through this process leave memory (read again when opened)."""
        for game_id, table in list(self.server.tables.items()):
            idle = time.monotonic() - table.last_active > self.ttl
            if isinstance(table, ClusterTable) and not table.held and not table.listeners and idle:
                self.server.tables.pop(game_id, None)
                await table.close()
            elif isinstance(table, ClusterTable) and not table.held:
                await table.catch_up()  # a notice lost with a connection: caught up here


class ClusterServer(GameServer):
    """A :class:`~tajmahal.web.server.GameServer` that shares its PostgreSQL database with
    other processes (see the module docs); ``dsn`` is the database's address."""

    def __init__(self, dsn: str, settings: ServerSettings | None = None) -> None:
        settings = settings or ServerSettings()
        store = PostgresStore(dsn)
        self.cluster = Cluster(self, dsn, settings.lease_ttl)
        super().__init__(LeasedStore(store, self.cluster.leases), settings)
        cluster = self.cluster

        def make(stored: StoredGame, config: GameConfig, settings: ServerSettings,
                 workers: Workers) -> Table:  # fmt: skip
            return ClusterTable(stored, config, settings, workers, cluster=cluster)

        self.make_table = make

    async def resume(self) -> None:
        """Take the games nobody holds (the cluster's first round), then keep doing so."""
        await self.cluster.start()

    async def create(self, config: GameConfig, client: str = "") -> CreatedGame:
        created = await super().create(config, client)
        lease = await self.cluster.leasing(
            self.cluster.leaser.acquire, created.id, self.cluster.name, self.cluster.ttl
        )
        if lease is not None:  # else another process took it first: it plays it
            self.cluster.leases[created.id] = lease
            table = self.tables.get(created.id)
            if table is not None:
                table.drive()
        return created

    async def stop(self) -> None:
        self.cluster.halt()
        for table in list(self.tables.values()):  # no bot may move while the games are given up
            await table.close()
        await self.cluster.stop()
        await super().stop()
