"""The arena on the PostgreSQL cluster: ``tajmahal serve --arena --db postgresql://...`` on
several server processes (:mod:`tajmahal.web.cluster`).

Every process serves the bots' WebSocket and people's challenges; the arena's tables are in
the database (:mod:`tajmahal.web.stores.postgres_arena`), so every process sees the same
accounts, games and ratings.  Each round (every half second) each process

- writes which remote bots are connected to it, and how many games they take there (a
  bot counts as online while that process's heartbeat is fresh);
- asks for the scheduler's lease: the one process that holds it rates the arena's games
  that ended (each once: :meth:`~tajmahal.arena.accounts.ArenaTables.rate_once`) and
  starts new ones, counting every process's games and bots; when its process dies, another
  takes the lease over once it expires (``--lease-ttl``) and the schedule goes on;
- keeps a copy (a replica, :class:`~tajmahal.web.cluster_table.ClusterTable`) of each
  game being played by a bot connected to it but held by another process: when that bot's
  seat is to move, it asks the bot here, judges its answer as the referee does, and hands
  the move (or the fault) to the holder through the cluster's hand-off of people's moves;
  the holder's seat waits for it (its time limit and a little more for the hand-off);
- sends its bots the results of their games that ended.
"""

from __future__ import annotations

import asyncio
import json
import logging

from tajmahal._escape import log_text
from tajmahal.arena.accounts import ArenaBot, ArenaError
from tajmahal.faults import FaultKind
from tajmahal.rules.errors import TajMahalError
from tajmahal.seat_contract import SeatPlayer
from tajmahal.web.arena import Arena, ArenaSettings
from tajmahal.web.arena_remote import FAULT, RemoteSeat
from tajmahal.web.cluster import ClusterServer
from tajmahal.web.cluster_table import ClusterTable, TableCluster
from tajmahal.web.config import GameConfig, ServerSettings
from tajmahal.web.stores.contract import StoredGame, StoreError
from tajmahal.web.stores.postgres import HandedMove
from tajmahal.web.stores.postgres_arena import PostgresArenaStore
from tajmahal.web.table import Rejected, Table, Workers

__all__ = ["ClusterArena", "ClusterArenaTable", "cluster_arena"]

log = logging.getLogger("tajmahal.web")
GRACE = 2.0  #: seconds a holder waits past the time limit for an answer handed from elsewhere
ANNOUNCE_EVERY = 10  #: rounds between two notes of the bots online here, when none changed


class ClusterArenaTable(ClusterTable):
    """A game of the arena on one process of the cluster: its remote bots' seats are played
    by the bots connected here, or by answers handed from the process a bot is connected to."""

    def __init__(
        self, stored: StoredGame, config: GameConfig, settings: ServerSettings,
        workers: Workers, *, cluster: TableCluster, arena: ClusterArena,
    ) -> None:  # fmt: skip
        super().__init__(stored, config, settings, workers, cluster=cluster)
        self.arena = arena
        self.bot_seeds = [arena.bot_seed(stored.seed, n) for n in range(len(config.seats))]

    def remote_seat(self, number: int, name: str) -> SeatPlayer:
        return RemoteSeat(self.arena.hub, name, self.id, number, len(self.config.seats),
                          self.bot_seeds[number])  # fmt: skip

    def _changed(self) -> None:
        super()._changed()
        self.arena.changed(self)

    async def play_handed(self, handed: HandedMove) -> str | None:
        """A remote bot's answer handed from the process it is connected to settles its seat's
        request; anything else as a cluster table plays it."""
        seats = self.config.seats
        if 0 <= handed.seat < len(seats) and seats[handed.seat].remote:
            return self.arena.hub.answered_elsewhere(self.id, handed.seat, handed.number,
                                                     handed.move)  # fmt: skip
        return await super().play_handed(handed)


class ClusterArena(Arena):
    """The arena of one process of a cluster (see the module docs)."""

    def __init__(
        self, server: ClusterServer, store: PostgresArenaStore,
        settings: ArenaSettings | None = None, seed: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__(server, store, settings, seed)
        self.cluster = server.cluster
        self.accounts = store
        self.hub.grace = GRACE
        self.scheduling = False  #: whether this process holds the scheduler's lease now
        self._busy: dict[str, int] = {}  # games each bot plays now, in the whole cluster
        self._online: dict[str, int] = {}  # games each remote bot takes, in the whole cluster
        self._announced: dict[str, int] | None = None
        self._forwarding: set[tuple[str, int, int]] = set()  # (game, seat, decision) asked here
        #: per game, the last decision whose answer was handed from here (its copy may not
        #: show it yet: never asked again)
        self._handed: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._rounds = 0
        cluster = server.cluster

        def make(stored: StoredGame, config: GameConfig, settings: ServerSettings,
                 workers: Workers) -> Table:  # fmt: skip
            return ClusterArenaTable(stored, config, settings, workers, cluster=cluster,
                                     arena=self)  # fmt: skip

        server.make_table = make

    @staticmethod
    def bot_seed(seed: int, seat: int) -> int:
        from tajmahal.referee.match import bot_seed

        return bot_seed(seed, seat)

    async def start(self) -> None:
        self._seat_counts = await asyncio.to_thread(self.store.seat_counts)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        await super().stop()
        for task in list(self._tasks):
            task.cancel()
        if self.scheduling:
            try:
                await asyncio.to_thread(self.accounts.release_schedule, self.cluster.name)
            except ArenaError as exc:
                log.info("arena: %s", log_text(str(exc)))
        self.accounts.close()

    async def _run(self) -> None:
        while True:
            try:
                await self.round()
            except (ArenaError, StoreError) as exc:  # the database is away: the next round
                log.warning("arena: %s", log_text(str(exc)))
            except Exception:  # a bug: logged, the arena goes on
                log.exception("arena: a round failed")
            await asyncio.sleep(self.settings.pause)

    async def round(self) -> None:
        """One round: the bots online here noted, the schedule (if this process holds its
        lease), the copies of the games played by bots connected here, their results."""
        await self._announce()
        was = self.scheduling
        lease = max(self.cluster.ttl, 4 * self.settings.pause)  # (a round never outlives it)
        self.scheduling = await asyncio.to_thread(self.accounts.schedule_lease,
                                                  self.cluster.name, lease)  # fmt: skip
        if self.scheduling != was:
            log.info("arena: this process %s the arena's games",
                     "schedules" if self.scheduling else "no longer schedules")  # fmt: skip
            if self.scheduling:  # the seats the last scheduler gave
                self._seat_counts = await asyncio.to_thread(self.store.seat_counts)
        if self.scheduling:
            await self.settle()
        fresh = set(self.challenges)  # challenges made here during the read stay a round more
        playing = await asyncio.to_thread(self.store.playing)
        ids = {game for game, _, _ in playing}
        self.challenges = {g: v for g, v in self.challenges.items() if g in ids or g not in fresh}
        self.playing = {game: names for game, names, rated in playing if rated}
        busy: dict[str, int] = {}
        for _, names, _ in playing:
            for name in names:
                busy[name] = busy.get(name, 0) + 1
        self._busy = busy
        self._online = await asyncio.to_thread(self.accounts.online, self.cluster.ttl)
        if self.scheduling and self.settings.schedule:
            await self.schedule()
        await self._follow({game: names for game, names, _ in playing})
        await self._results(ids | set(self.playing) | set(self.challenges))
        self._rounds += 1

    async def _announce(self) -> None:
        now = {name: self.hub.capacity(name) for name in self.hub.connections}
        if now != self._announced or self._rounds % ANNOUNCE_EVERY == 0:
            await asyncio.to_thread(self.accounts.announce, self.cluster.name, now)
            self._announced = now

    # ------------------------------------------------------------------ the scheduler's

    def online(self, name: str) -> bool:
        """Whether the remote bot ``name`` is connected to a live process of the cluster."""
        return self._online.get(name, 0) > 0 or self.hub.online(name)

    def busy(self, name: str) -> int:
        return self._busy.get(name, 0)

    def free(self, bot: ArenaBot) -> int:
        here = self.hub.capacity(bot.name)  # (the database may not say so yet)
        online = max(self._online.get(bot.name, 0), here)
        most = bot.max_games if bot.house else min(bot.max_games, online)
        return max(0, most - self.busy(bot.name))

    async def _start_game(self, names: tuple[str, ...], accounts: dict[str, ArenaBot]) -> None:
        await super()._start_game(names, accounts)
        for name in names:  # counted at once: the next game of this round sees them busy
            self._busy[name] = self._busy.get(name, 0) + 1

    async def settle(self) -> None:
        """Rate the arena's games that ended anywhere in the cluster (each once)."""
        for game_id, names, record in await asyncio.to_thread(self.accounts.ended):
            if record is None:
                log.warning("arena: game %s is gone from the database: never rated", game_id)
                await asyncio.to_thread(self.store.drop_game, game_id)
            else:
                try:
                    await self._rate(game_id, names, record, deliver=False)
                except TajMahalError as exc:  # a damaged record: never rated, said once
                    log.error("arena: game %s has no usable record (%s): not rated", game_id,
                              log_text(str(exc)))  # fmt: skip
                    await asyncio.to_thread(self.store.drop_game, game_id)

    # ------------------------------------------------------------------ every process's

    async def _follow(self, playing: dict[str, tuple[str, ...]]) -> None:
        """Keep a copy of each game a bot connected here plays and another process holds;
        let the copies of the games that ended go."""
        for game_id, copy in list(self.server.tables.items()):
            if isinstance(copy, ClusterArenaTable) and copy.kept and game_id not in playing:
                copy.kept = False
        self._handed = {g: n for g, n in self._handed.items() if g in playing}
        for game_id, names in playing.items():
            if self.cluster.holds(game_id) or not any(self.hub.online(n) for n in names):
                continue
            table = self.server.tables.get(game_id)
            if table is None:
                try:
                    table = await self.server.table(game_id)
                except TajMahalError as exc:
                    log.info("game %s: no copy here: %s", game_id, log_text(str(exc)))
                    continue
            if isinstance(table, ClusterArenaTable):
                table.kept = True
                self.changed(table)

    def changed(self, table: ClusterArenaTable) -> None:
        """A copy here moved on: if a bot connected here is to move in it, ask it."""
        state = table.state
        seat = state.current_player
        if table.held or table.closed or seat is None or state.is_over:
            return
        config = table.config.seats[seat]
        if not config.remote or not self.hub.online(config.name):
            return
        key = (table.id, seat, len(table.game) + 1)
        if key in self._forwarding or self._handed.get(table.id, 0) >= key[2]:
            return
        self._forwarding.add(key)
        task = asyncio.get_running_loop().create_task(self._forward(table, seat, key[2]))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _forward(self, table: ClusterArenaTable, seat: int, number: int) -> None:
        """Ask the bot connected here for its move in a game another process holds, and hand
        its judged answer (a move, or a fault) to that process."""
        key = (table.id, seat, number)
        name = table.config.seats[seat].name
        try:
            state = table.state
            legal = state.legal_moves()
            limit = table.config.time_limit or self.settings.time_limit
            remote = RemoteSeat(self.hub, name, table.id, seat, len(table.config.seats),
                                table.bot_seeds[seat])  # fmt: skip
            answer = await self.hub.ask(remote, state.view(seat), legal, limit, number)
            if table.held or len(table.game) + 1 != number or answer.kind is FaultKind.UNAVAILABLE:
                return  # played meanwhile, or asked again elsewhere: not needed
            if answer.index is not None and answer.kind is None:
                text = str(legal[answer.index])
            else:
                kind = answer.kind.value if answer.kind is not None else "protocol"
                text = FAULT + json.dumps({"kind": kind, "detail": answer.detail})
            log.info("arena: %s's answer in game %s (decision %d) handed to the process that "
                     "plays it", name, table.id, number)  # fmt: skip
            self._handed[table.id] = max(number, self._handed.get(table.id, 0))
            await self.cluster.hand(table.id, number, seat, text, None)
        except Rejected as exc:  # (asked again if the holder still waits for it)
            if self._handed.get(table.id) == number:
                self._handed[table.id] = number - 1
            log.info("arena: %s's answer in game %s not played: %s", name, table.id,
                     log_text(str(exc)))  # fmt: skip
        except (StoreError, TajMahalError) as exc:
            log.warning("arena: %s's answer in game %s not handed on: %s", name, table.id,
                        log_text(str(exc)))  # fmt: skip
        finally:
            self._forwarding.discard(key)

    async def _results(self, playing: set[str]) -> None:
        """Send the bots connected here the results of their games that ended (rated by the
        scheduler, wherever it runs)."""
        for name, connections in list(self.hub.connections.items()):
            owed = {key for connection in connections for key in connection.games}
            for game_id, seat in owed:
                if game_id in playing:
                    continue
                result = await self.result_of(name, game_id)
                if result is not None:
                    self.hub.deliver(name, result)
                else:  # over and never played (dropped): no result to send
                    self.hub.forget(game_id, seat)


def cluster_arena(server: ClusterServer, dsn: str, settings: ArenaSettings) -> ClusterArena:
    """The arena of this process of the cluster on the database ``dsn``."""
    return ClusterArena(server, PostgresArenaStore(dsn), settings)

