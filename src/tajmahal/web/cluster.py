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
  runs one :class:`~tajmahal.web.stores.postgres.NoticeListener`, and on "decision N of game G"
  the replica reads the new moves from the store and its connections get the state.
  A notice is only a hint: the replica checks what it holds against the database on
  every notice, after every re-listen and before a takeover, and reads the game again on
  any difference, so it never forks (:mod:`tajmahal.web.cluster_table`).
- **A move reaches the holder.** A person's move (or undo) sent to a replica is checked
  there, handed to the holder through the store, played there, and the answer comes back:
  the person's connection gets the ack, or the error, as if the game were local. The
  answer is read from the handed move's row (the notice only says when to look).
- **Faults.** The listener reconnects with backoff after any error and then re-syncs every
  game this process holds or shows; until it has, the process says it is behind
  (:meth:`Cluster.health`, the log). A takeover that fails for one game releases its lease
  and goes on with the others; the lease connection waits for no lock longer than half a
  lease. Each process takes unheld games up to its fair share (the unfinished games over
  the live processes, known from a heartbeat table) and gives games beyond it back between
  decisions, so a process that joins receives games.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
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
from tajmahal.web.cluster_table import UNDO, ClusterTable
from tajmahal.web.config import GameConfig, ServerSettings
from tajmahal.web.server import CreatedGame, GameServer
from tajmahal.web.stores.contract import Quota, StoredGame, StoredMove, StoreError, TokenEntry
from tajmahal.web.stores.postgres import (
    GameChanged,
    Lease,
    LeaseLostError,
    MoveAnswered,
    MoveHanded,
    Notice,
    NoticeListener,
    PostgresStore,
)
from tajmahal.web.table import Rejected, Table, Workers

__all__ = ["UNDO", "Cluster", "ClusterServer", "ClusterTable", "LeasedStore", "process_name"]

log = logging.getLogger("tajmahal.web")
T = TypeVar("T")
HAND_WAIT = 30.0  #: seconds a handed move waits for the holder's answer (at least 4 ttl)
POLL = 1.0  #: seconds between reads of a handed move's row (a lost notice costs no more)
BACKOFF = (0.2, 5.0)  #: the listener's first and longest wait before listening again
MAX_QUEUED = 10_000  #: notices waiting for the event loop; past this: a full re-sync instead


class LeasedStore:
    """The server's store in a cluster: reads as the store reads; each write of a game is
    fenced by this process's lease on it
    (:class:`~tajmahal.web.stores.coordination.LeaseLostError` without one)."""

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
        """An expired game deleted by its holder
        (:class:`~tajmahal.web.stores.coordination.LeaseLostError` on another process)."""
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
class _HandedOn:
    """A move this process handed on, waiting for the holder."""

    game_id: str
    number: int
    seat: int
    text: str
    acknowledge: Callable[[], None] | None
    woken: asyncio.Event = attrs.field(factory=asyncio.Event)
    id: int | None = None
    acked: bool = False

    def ack(self) -> None:
        if not self.acked:
            self.acked = True
            if self.acknowledge is not None:
                self.acknowledge()
        self.woken.set()


def process_name() -> str:
    """This process's name as a lease holder: host, process id and a random part."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


class Cluster:
    """This process's part in the cluster: its leases, its listener, the moves it handed on."""

    def __init__(self, server: ClusterServer, dsn: str, ttl: float) -> None:
        self.server = server
        self.dsn = dsn
        self.ttl = ttl
        #: connections of their own: the leases wait neither for moves nor for notices' work,
        #: and no lock longer than half a lease (a frozen peer's row is skipped, not waited on)
        held_open = max(2.0, 2 * ttl)  # a peer frozen inside a transaction is cut after this
        self.store = PostgresStore(dsn, idle_timeout=held_open)
        self.leaser = PostgresStore(dsn, lock_timeout=max(0.2, ttl / 2),
                                    statement_timeout=max(2.0, 2 * ttl),
                                    idle_timeout=held_open)  # fmt: skip
        self.name = process_name()
        self.leases: dict[str, Lease] = {}
        self.share: int | None = None  #: games this process may take (None: not known yet)
        self.live = 1  #: live processes, as the database last said
        self._taking: set[str] = set()  # acquired, not yet in ``leases``
        self._damaged: set[str] = set()  # games that cannot be loaded: not taken again
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tajmahal-web-notices")
        self._leasing = ThreadPoolExecutor(1, thread_name_prefix="tajmahal-web-lease")
        self._chains: dict[tuple[str, str], asyncio.Task[None]] = {}  # a game's work, in order
        self._queued: set[tuple[str, str]] = set()  # work asked for and not started (coalesced)
        self._pending: dict[int, _HandedOn] = {}
        self._waiting: list[_HandedOn] = []  # handed, answer not known yet
        self._notices: asyncio.Queue[Notice | None] = asyncio.Queue()
        self._stop = threading.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._listening: threading.Thread | None = None
        self.listening = False  #: whether the listener is connected now
        self.listener_pid: int | None = None  #: its backend's process id (for operators)
        #: why this process may be behind the database (notices missed), None once re-synced
        self.behind: str | None = "starting"
        self.relistens = 0  #: how many times the listener connected again after a loss
        self.ignored = 0  #: notices that were not ours (ignored, logged)
        self.failures = 0  #: games a re-sync or takeover could not do (done again later)

    async def stored(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    async def leasing(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._leasing, work, *args)

    def holds(self, game_id: str) -> bool:
        return game_id in self.leases

    def health(self) -> dict[str, Any]:
        """What this process knows of its part: for the health view and operators."""
        return {
            "process": self.name, "listening": self.listening, "behind": self.behind,
            "held": len(self.leases), "share": self.share, "live_processes": self.live,
            "relistens": self.relistens, "ignored_notices": self.ignored,
            "listener_pid": self.listener_pid,
            "failures": self.failures,
            "reconnects": self.store.reconnects + self.leaser.reconnects,
        }  # fmt: skip

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
        with contextlib.suppress(StoreError):
            await self.leasing(self.leaser.leave, self.name)
        for pool in (self._thread, self._leasing):
            pool.shutdown(wait=True)
        self.store.close()
        self.leaser.close()

    # ------------------------------------------------------------------ notices

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """In a thread: the notices, onto the event loop (None: heard again after a loss).
        Nothing ends it but the server's stop: any error is followed by listening again."""
        listener: NoticeListener | None = None
        delay, counted = BACKOFF[0], 0
        while not self._stop.is_set() and not loop.is_closed():
            try:
                if listener is None:
                    listener, counted = NoticeListener(self.dsn), 0
                    self.listener_pid, self.listening, delay = listener.pid, True, BACKOFF[0]
                    if self.behind is not None and self.behind != "starting":
                        self.relistens += 1
                    loop.call_soon_threadsafe(self._notice, None)
                for notice in listener.wait(0.5):
                    loop.call_soon_threadsafe(self._notice, notice)
                self.ignored += listener.ignored - counted
                counted = listener.ignored
            except Exception as exc:  # anything: listen again, a little later each time
                if loop.is_closed():
                    break
                self.listening = False
                self.behind = self.behind or "the notices' connection was lost"
                log.warning("cluster: not listening (%s); again in %.1f s",
                            log_text(str(exc) or type(exc).__name__), delay)  # fmt: skip
                if listener is not None:
                    with contextlib.suppress(Exception):
                        listener.close()
                listener = None
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF[1])
        self.listening = False
        if listener is not None:
            with contextlib.suppress(Exception):
                listener.close()

    def _notice(self, notice: Notice | None) -> None:
        """On the event loop: queue a notice; a flood is dropped for a full re-sync."""
        if self._notices.qsize() >= MAX_QUEUED:
            self.behind = self.behind or "too many notices at once"
            return
        self._notices.put_nowait(notice)

    async def _hear(self) -> None:
        """Each game's work in order, the games' side by side; one of each kind waiting."""
        while True:
            notice = await self._notices.get()
            if isinstance(notice, MoveAnswered):
                self._answered(notice.game_id, notice.id)
            elif notice is None:
                self._chain(("", "sync"), self.resync)
            elif isinstance(notice, MoveHanded):
                if notice.game_id in self.leases:
                    self._chain((notice.game_id, "handed"),
                                functools.partial(self._take_handed, notice.game_id))  # fmt: skip
            elif isinstance(notice, GameChanged):
                table = self.server.tables.get(notice.game_id)
                if isinstance(table, ClusterTable) and not table.held:
                    self._chain((notice.game_id, "sync"), table.follow)

    def _chain(self, key: tuple[str, str], work: Callable[[], Any]) -> None:
        """Run ``work`` after the work of the same key; not again if one is still waiting."""
        if key in self._queued:
            return
        self._queued.add(key)
        before = self._chains.get(key)
        task = asyncio.get_running_loop().create_task(self._after(key, before, work))
        self._chains[key] = task
        task.add_done_callback(functools.partial(self._chained, key))

    def _chained(self, key: tuple[str, str], task: asyncio.Task[None]) -> None:
        if self._chains.get(key) is task:
            del self._chains[key]

    async def _after(
        self, key: tuple[str, str], before: asyncio.Task[None] | None, work: Callable[[], Any]
    ) -> None:
        if before is not None:
            await asyncio.wait([before])  # its outcome is its own
        self._queued.discard(key)
        try:
            await work()
        except StoreError as exc:  # the database is away: the next re-sync reads it again
            self.behind = self.behind or "a notice's work failed"
            log.info("cluster: %s (%s): %s", key[1], key[0], log_text(exc))
        except Exception:  # a bug: logged, the notices go on
            log.exception("cluster: a notice's work failed (%s of %s)", key[1], key[0])

    async def resync(self) -> None:
        """After listening again (notices were missed): every game shown here read again and
        checked, every held game's handed moves taken, every handed move's answer read; each
        game on its own (one that fails does not stop the others)."""
        started = time.monotonic()
        failed = 0
        for table in list(self.server.tables.values()):
            if not isinstance(table, ClusterTable) or self._stop.is_set():
                continue
            try:
                if table.held:
                    await self._take_handed(table.id)
                else:
                    await table.follow()
            except Exception as exc:  # this game later; the others now
                failed += 1
                log.info("game %s: not re-synced: %s", table.id, log_text(exc))
        for pending in self._waiting:
            pending.woken.set()  # its row is read again now
        self.failures += failed
        if failed:
            self.behind = f"{failed} games not re-synced"
            log.warning("cluster: behind the database: %d games not re-synced", failed)
        elif self.listening:
            if self.behind is not None:
                log.info("cluster: caught up with the database in %.2f s",
                         time.monotonic() - started)  # fmt: skip
            self.behind = None

    # ------------------------------------------------------------------ handed moves

    async def hand(self, game_id: str, number: int, seat: int, text: str,
                   acknowledge: Callable[[], None] | None) -> None:  # fmt: skip
        """Hand a checked move to the game's holder; returns once it is played (acknowledged
        first), :class:`Rejected` with the holder's reason if it is not. What became of it
        is read from the database: the stored move, or the answer in the handed move's row
        (an answer notice only says when to look: a forged one acknowledges nothing)."""
        pending = _HandedOn(game_id, number, seat, text, acknowledge)
        self._waiting.append(pending)
        try:
            pending.id = await self.stored(
                self.store.hand_move, game_id, seat, number, text, self.name
            )
            self._pending[pending.id] = pending
            deadline = time.monotonic() + max(HAND_WAIT, 4 * self.ttl)
            while not pending.acked:  # acked: its stored move was read (catch_up)
                pending.woken.clear()
                try:
                    answered, error = await self.stored(
                        self.store.collect_answer, game_id, pending.id
                    )
                except StoreError as exc:  # the database is away: asked again in a moment
                    log.info("game %s: a handed move's answer not read: %s", game_id,
                             log_text(exc))  # fmt: skip
                    answered, error = False, None
                if pending.acked:  # its stored move was read meanwhile: played (one answer)
                    return
                if answered:
                    if error is not None:
                        raise Rejected(error)
                    pending.ack()
                    return
                if time.monotonic() > deadline:
                    await self._give_up(pending)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(pending.woken.wait(), POLL)
        finally:
            self._waiting.remove(pending)
            if pending.id is not None:
                self._pending.pop(pending.id, None)

    async def _give_up(self, pending: _HandedOn) -> None:
        assert pending.id is not None
        with contextlib.suppress(StoreError):
            if await self.stored(self.store.withdraw, pending.game_id, pending.id):
                raise Rejected("the game's server did not take the move in time; it was not "
                               "played: send it again")  # fmt: skip
        raise Rejected("the game's server did not answer in time: the game's state "
                       "shows whether the move was played")  # fmt: skip

    def acknowledge(self, game_id: str, stored: StoredMove) -> None:
        """A replica applies ``stored``: if it is a move handed from here, it was played (the
        database says so: the holder's answer is not awaited, the holder may have died before
        sending it), and its ack goes first."""
        for pending in self._waiting:
            if (pending.game_id, pending.number, pending.seat, pending.text) == (
                game_id, stored.number, stored.seat, stored.move
            ):  # fmt: skip
                pending.ack()

    def _answered(self, game_id: str, ident: int) -> None:
        """An answer notice: the sender reads the row now (a forged one reads nothing)."""
        pending = self._pending.get(ident)
        if pending is not None and pending.game_id == game_id:
            pending.woken.set()

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
        """Say this process lives, renew the leases, give up those of games gone from memory
        and those beyond this process's share, take unheld games up to it."""
        every = max(0.1, self.ttl / 4)
        rounds = 0
        while True:
            try:
                await self._beat()
                await self._renew()
                if not await self._spread():
                    await self._take_over()
                if rounds % 20 == 19:
                    await self._forget_unwatched()
                if self.behind is not None and self.listening and rounds % 4 == 3:
                    self._chain(("", "sync"), self.resync)
            except StoreError as exc:
                log.warning("cluster: %s", log_text(exc))
            except Exception:  # a bug: logged, the leases go on
                log.exception("cluster: keeping the leases failed")
            rounds += 1
            await asyncio.sleep(every)

    async def _beat(self) -> None:
        self.live, unfinished = await self.leasing(self.leaser.beat, self.name, self.ttl)
        self.share = math.ceil(unfinished / max(self.live, 1))

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

    async def _spread(self) -> bool:
        """Give back the games beyond this process's share (others take them), one a round,
        between decisions (no move being stored); whether one was given back."""
        if self.share is None or self.live < 2 or len(self.leases) <= self.share:
            return False
        tables = [self.server.tables.get(game_id) for game_id in self.leases]
        held = [t for t in tables if isinstance(t, ClusterTable)]
        if not held:
            return False
        # a person's turn first (no bot thinking), then the least recently active
        held.sort(key=lambda t: (not t.seat_is_human(t.state.current_player or 0),
                                 t.last_active))  # fmt: skip
        table = held[0]
        lease = await table.hand_back()
        if lease is None:
            return False
        log.info("game %s: given back for another process (%d held, a share of %d)",
                 table.id, len(self.leases), self.share)  # fmt: skip
        with contextlib.suppress(StoreError):
            await self.leasing(self.leaser.release, lease)
        return True

    async def _take_over(self) -> None:
        for game_id in await self.leasing(self.leaser.unheld):
            if self._stop.is_set():
                return
            if self.share is not None and len(self.leases) + len(self._taking) >= self.share:
                return
            if game_id in self._damaged or game_id in self.leases:
                continue
            self._taking.add(game_id)
            try:
                await self._take(game_id)
            except Exception as exc:  # this game later (its lease released); the others now
                self.failures += 1
                log.warning("game %s: not taken over: %s", game_id,
                            log_text(str(exc) or type(exc).__name__))  # fmt: skip
            finally:
                self._taking.discard(game_id)

    async def _take(self, game_id: str) -> None:
        lease = await self.leasing(self.leaser.acquire, game_id, self.name, self.ttl)
        if lease is None:  # another process was quicker
            return
        try:
            table = self.server.tables.get(game_id) or await self.server.table(game_id)
            if not isinstance(table, ClusterTable) or table.closed:  # damaged: left alone
                self._damaged.add(game_id)
                raise StoreError(f"game {game_id} cannot be loaded")
            await table.catch_up()  # the last holder is fenced now: the store has every move
        except BaseException:
            with contextlib.suppress(Exception):
                await self.leasing(self.leaser.release, lease)
            raise
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
            with contextlib.suppress(StoreError):
                await table.catch_up()

    async def _forget_unwatched(self) -> None:
        """Replicas nobody watches through this process leave memory (read again when opened)."""
        for game_id, table in list(self.server.tables.items()):
            idle = time.monotonic() - table.last_active > self.ttl
            if isinstance(table, ClusterTable) and not table.held and not table.listeners and idle:
                self.server.tables.pop(game_id, None)
                await table.close()
            elif isinstance(table, ClusterTable) and not table.held:
                with contextlib.suppress(StoreError):
                    await table.follow()  # a notice lost with a connection: caught up here


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

    def health(self) -> dict[str, Any]:
        """This process's health: the server's, with its part in the cluster."""
        return {**super().health(), "cluster": self.cluster.health()}

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
