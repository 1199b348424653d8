"""One game on one of several server processes (see :mod:`tajmahal.web.cluster`): played
here while this process holds its lease, else a read-only copy (a replica) that follows the
store and hands people's moves on to the holder.

A replica never trusts what it holds: each catch-up sends the database the number and the
digest of the moves it has (:meth:`~tajmahal.web.stores.postgres.PostgresStore.sync`), and
on any difference (an undo it missed, a notice lost with a connection) it reads the game
again from the store. So a copy cannot fork from the database, whatever notices it heard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from tajmahal._escape import log_text
from tajmahal.protocol import ProcessSeat
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move, parse_move
from tajmahal.web.config import GameConfig, ServerSettings
from tajmahal.web.stores.contract import StoredGame, StoredMove, StoreError
from tajmahal.web.stores.postgres import (
    HandedMove,
    Lease,
    LeaseLostError,
    PostgresStore,
    moves_digest,
)
from tajmahal.web.table import Rejected, Table, Workers

__all__ = ["UNDO", "ClusterTable", "TableCluster"]

log = logging.getLogger("tajmahal.web")
T = TypeVar("T")
UNDO = "!undo"  #: a handed "move" asking the holder for an undo (no move's text starts so)
BACKOFF = (0.2, 5.0)  #: the first and longest wait before a bot's move is stored again
_BACKGROUND: set[asyncio.Task[None]] = set()  # tasks started here, kept until done


class TableCluster(Protocol):
    """What a :class:`ClusterTable` asks of its process's part in the cluster."""

    leases: dict[str, Lease]
    store: PostgresStore

    async def stored(self, work: Callable[..., T], *args: Any) -> T: ...

    async def hand(self, game_id: str, number: int, seat: int, text: str,
                   acknowledge: Callable[[], None] | None) -> None: ...  # fmt: skip

    async def lost(self, game_id: str) -> None: ...

    def acknowledge(self, game_id: str, stored: StoredMove) -> None: ...


class ClusterTable(Table):
    """A game on one of several processes: played here while this process holds its lease,
    else a read-only copy that follows the store and hands moves on."""

    def __init__(self, stored: StoredGame, config: GameConfig, settings: ServerSettings,
                 workers: Workers, *, cluster: TableCluster) -> None:  # fmt: skip
        super().__init__(stored, config, settings, workers)
        self.cluster = cluster
        self._undoing = 0  # undos handed on from here, not answered yet (no catch-up meanwhile)
        self.reloads = 0  #: how many times this copy differed from the store and was read again

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
        async with self._lock:
            number, checked = self._checked_move(seat, decision, text)
        await self.cluster.hand(self.id, number, seat, str(checked), acknowledge)
        self._refresh_soon()  # acknowledged: the state follows

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
        self._undoing += 1  # this copy waits for the answer: the page gets the ack first
        try:
            await self.cluster.hand(self.id, decision, seat, UNDO, None)
        finally:
            self._undoing -= 1
        self._refresh_soon()  # the rewound state, after the ack (the caller's reply, at once)

    def _refresh_soon(self) -> None:
        """Catch up in a moment (the notice may come later, or never), again a little later
        while the database cannot be read."""

        async def refresh() -> None:
            delay = BACKOFF[0]
            while not self.closed:
                try:
                    await self.catch_up()
                    return
                except StoreError as exc:
                    log.info("game %s: catching up again in %.1f s: %s", self.id, delay,
                             log_text(exc))  # fmt: skip
                await asyncio.sleep(delay)
                delay = min(2 * delay, BACKOFF[1])

        task = asyncio.get_running_loop().create_task(refresh())
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)

    async def _commit(
        self, stored: StoredMove, move: Move, acknowledge: Callable[[], None] | None = None
    ) -> None:
        """As a table commits, but a bot's move waits for a database that is away (stored
        once it is back; a person's is refused with the reason), and a bot's move fenced
        off (another process plays the game now) ends the bots here quietly."""
        delay = BACKOFF[0]
        while True:
            try:
                await super()._commit(stored, move, acknowledge)
                return
            except LeaseLostError:
                if self.seat_is_human(stored.seat):
                    raise
                task = asyncio.get_running_loop().create_task(self.cluster.lost(self.id))
                _BACKGROUND.add(task)
                task.add_done_callback(_BACKGROUND.discard)
                raise asyncio.CancelledError from None  # (the bot driver ends, no traceback)
            except StoreError as exc:
                if self.seat_is_human(stored.seat) or self.closed or not self.held:
                    raise
                log.warning("game %s: a bot's move %d waits for the database (%s); again in "
                            "%.1f s", self.id, stored.number, log_text(exc), delay)  # fmt: skip
                await asyncio.sleep(delay)
                delay = min(2 * delay, BACKOFF[1])

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
        """Make this copy the store's game (a replica, or a game about to be taken over; a
        holder stores its moves itself): the moves stored since, after the database checked
        the ones held here; the whole game read again if they differ.
        :class:`~tajmahal.web.stores.contract.StoreError` if
        the database cannot be read."""
        if self.closed:
            return
        async with self._lock:
            if self.held:
                return
            digest = moves_digest((m.number, m.seat, m.move) for m in self.moves)
            same, stored = await self.cluster.stored(
                self.cluster.store.sync, self.id, len(self.moves), digest
            )
            if self._apply(stored) if same else self._reload(stored):
                self._changed()
            if self.state.is_over and self.finished_record is None:
                await self.keep_record()

    async def follow(self) -> None:
        """A notice's catch-up: none while an undo handed on from here waits for its answer
        (it catches up after, so that the page gets the undo's ack before its state)."""
        if not self._undoing:
            await self.catch_up()

    def _reload(self, stored: Sequence[StoredMove]) -> bool:
        """The store's game differs from this copy: keep the moves both have, then the store's."""
        common = 0
        for mine, theirs in zip(self.moves, stored, strict=False):
            if (mine.number, mine.seat, mine.move) != (theirs.number, theirs.seat, theirs.move):
                break
            common += 1
        log.info("game %s: this copy differs from the store after move %d: read again",
                 self.id, common)  # fmt: skip
        self.reloads += 1
        while len(self.game) > common:
            self.game.pop()
        del self.moves[common:]
        self._rebuild_events()
        self.rewound = self.version + 1  # as Table.undo: pages get the whole state
        self._apply(stored[common:])
        return True

    def _apply(self, stored: Sequence[StoredMove]) -> bool:
        applied = False
        for entry in stored:
            if entry.number != len(self.game) + 1:
                break
            try:
                move = parse_move(entry.move, self.state)
            except TajMahalError as exc:  # a damaged row: the copy stays before it
                log.warning("game %s: stored move %d does not follow: %s", self.id,
                            entry.number, log_text(exc))  # fmt: skip
                break
            self.cluster.acknowledge(self.id, entry)  # the ack first, then the frames
            self.game.push(move)
            self.moves.append(entry)
            applied = True
        return applied

    async def hand_back(self) -> Lease | None:
        """Between decisions (no move being stored): stop playing this game here; the lease
        to release (None: it was not held)."""
        async with self._lock:
            lease = self.cluster.leases.pop(self.id, None)
            if lease is not None:
                await self.become_replica()
        return lease

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
                with contextlib.suppress(Exception):
                    await self.workers.program(seat.close)
