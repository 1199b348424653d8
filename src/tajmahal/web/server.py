"""The server's core, without HTTP: its games, their tokens, resuming them, creating new ones.

An application can embed it: build a :class:`GameServer` over a store, ``await
start()`` (resumes every unfinished game), then :meth:`~GameServer.create` games
and :meth:`~GameServer.open` tokens; :func:`tajmahal.web.create_app` puts HTTP and
WebSocket in front of it.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import re
import secrets
import time
import uuid
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import attrs

from tajmahal._escape import log_text
from tajmahal._moved import REMOVED_IN
from tajmahal.rules.errors import TajMahalError
from tajmahal.web.config import ConfigError, GameConfig, ServerSettings, check_bots
from tajmahal.web.stores.contract import GameStore, Quota, QuotaError, StoredGame, StoreError
from tajmahal.web.table import Rejected, Table, Workers

__all__ = ["CreatedGame", "GameServer", "SingleFlight", "new_token"]

log = logging.getLogger("tajmahal.web")
T = TypeVar("T")


def new_token() -> str:
    """A secret link's token: 128 random bits, URL-safe.

    >>> len(new_token()) >= 22 and new_token() != new_token()
    True
    """
    return secrets.token_urlsafe(16)


@attrs.frozen
class CreatedGame:
    """A new game's id and its secret tokens (given out once, never stored in the clear)."""

    id: str
    seats: tuple[str | None, ...]  #: each human seat's token; None for bot seats
    spectator: str


class GameServer:
    """The games of one server (see the module docs)."""

    def __init__(self, store: GameStore, settings: ServerSettings | None = None) -> None:
        self.store = store
        self.settings = settings or ServerSettings()
        self.workers = Workers(store, self.settings)
        self.tables: dict[str, Table] = {}
        #: builds a game's table (a cluster's server builds tables that know their lease)
        self.make_table: Callable[[StoredGame, GameConfig, ServerSettings, Workers], Table] = Table
        self._loading: dict[str, asyncio.Lock] = {}
        self._created: dict[str, list[float]] = {}
        self._owners: dict[str, str] = {}  # unfinished game id -> the address that created it
        self._generation = 0  # counts the games created and expired: the games list is new
        self._sweeper: asyncio.Task[None] | None = None
        #: analyses, hints, replay pages and the games list: once each, a few at a time
        self.shared_results = SingleFlight(self.settings.expensive_jobs)
        #: the clients that create the server's own games (the arena), no address's limits
        self.exempt: set[str] = set()

    @property
    def expensive(self) -> SingleFlight:
        """Deprecated: :attr:`shared_results` (this name is removed in tajmahal 0.4.0)."""
        warnings.warn(
            f"GameServer.expensive is deprecated and will be removed in tajmahal {REMOVED_IN}: "
            "use GameServer.shared_results",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.shared_results

    async def start(self) -> None:
        """Start the bots' worker processes; resume every unfinished game where it stood."""
        self.workers.pool.start()
        await self.resume()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def resume(self) -> None:
        """Resume every unfinished game (a cluster's server takes the games nobody plays)."""
        for game_id in await self.workers.stored(self.store.unfinished):
            table = await self.table(game_id)
            if table is not None:
                log.info("game %s: resumed at decision %d", game_id, table.decision)
                table.drive()

    async def _sweep_forever(self) -> None:
        every = max(0.5, min(10.0, self.settings.idle_expiry / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # a bug: logged, the sweeping goes on
                log.exception("sweeping the games failed")

    async def sweep(self) -> None:
        """Release the finished games nobody watches (their records stay stored: pages read
        them again from there) and expire the unfinished games idle past
        ``settings.idle_expiry`` seconds (deleted: their links open nothing any more)."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.listeners:
                continue
            if table.finished_record is not None:
                self.tables.pop(table.id, None)
                self._owners.pop(table.id, None)
                await table.close()
                log.debug("game %s: over, left memory", table.id)
            elif now - table.last_active > self.settings.idle_expiry:
                delete = getattr(self.store, "delete_game", None)
                kept = None
                if delete is not None:
                    try:  # first, while this process holds it (in a cluster, only its holder
                        await self.workers.stored(delete, table.id)  # deletes it)
                    except StoreError as exc:
                        kept = exc
                self.tables.pop(table.id, None)
                self._owners.pop(table.id, None)
                await table.close()
                self._generation += 1
                if kept is not None:
                    log.info("game %s: left memory, not deleted here: %s", table.id,
                             log_text(kept))  # fmt: skip
                    continue
                log.info("game %s: expired after %g s without a move", table.id,
                         self.settings.idle_expiry)  # fmt: skip

    def health(self) -> dict[str, Any]:
        """What a health check reads (``/api/health``): the games in memory (a cluster
        server adds its part: whether it listens, whether it is behind the database)."""
        return {"games": len(self.tables)}

    async def stop(self) -> None:
        """Stop every game's bots, the worker processes and threads (the games stay stored)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            await table.close()
        self.tables.clear()
        await self.workers.close()
        self.store.close()

    async def table(self, game_id: str) -> Table | None:
        """The game ``game_id``, loaded from the store the first time."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(game_id)
            if table is None:
                try:
                    stored = await self.workers.stored(self.store.load, game_id)
                    if stored is None:
                        return None
                    config = GameConfig.parse(
                        _settings_of(stored), self.settings, stored=True
                    )
                    table = await self.workers.drawn(
                        self.make_table, stored, config, self.settings, self.workers
                    )
                except (TajMahalError, ValueError, TypeError, KeyError, RecursionError) as exc:
                    # a damaged row: reported, the game skipped, the other games go on
                    log.error("game %s: cannot be loaded: %s", game_id,
                              log_text(f"{type(exc).__name__}: {exc}"[:500]))  # fmt: skip
                    return None
                refused = config.refusal(self.settings)
                if refused is not None:  # the server's settings changed since it was created
                    table.halted = f"this game cannot go on on this server: {refused}"
                    log.warning("game %s: waits: %s", game_id, log_text(refused))
                if table.state.is_over and table.finished_record is None:
                    await table.keep_record()  # the server stopped between last move and record
                self.tables[game_id] = table
        self._loading.pop(game_id, None)
        return table

    def release(self, table: Table) -> None:
        """Forget a finished game nobody watches (it is loaded again when a link is opened)."""
        if table.finished_record is not None and not table.listeners:
            self.tables.pop(table.id, None)

    async def open(self, token: object) -> tuple[Table, int | None] | None:
        """The table and seat (None: the spectator) that ``token`` opens, or None."""
        if type(token) is not str or not 16 <= len(token) <= 64:
            return None
        entry = await self.workers.stored(self.store.find_token, token)
        if entry is None:
            return None
        table = await self.table(entry.game_id)
        return None if table is None else (table, entry.seat)

    async def create(self, config: GameConfig, client: str = "") -> CreatedGame:
        """Store a new game (its seed drawn from the operating system) and start its bots.

        A ``client`` in ``exempt`` (the server's own, the arena's) is under the server's
        limits but not a client address's.

        Every registered bot is built once first (:func:`~tajmahal.web.config.check_bots`):
        a bot that cannot be built refuses the game (:class:`~tajmahal.web.config.ConfigError`).
        """
        refused = config.refusal(self.settings)
        if refused is not None:
            raise ConfigError(refused)
        scheduled = client in self.exempt
        recent = [t for t in self._created.get(client, []) if t > time.monotonic() - 60]
        if len(recent) >= self.settings.games_per_minute and not scheduled:
            raise Rejected(f"at most {self.settings.games_per_minute} new games a minute")
        open_games = sum(1 for t in self.tables.values() if not t.state.is_over)
        if open_games >= self.settings.max_open_games:
            raise Rejected(f"this server has {open_games} unfinished games: no room for more")
        tables = self.tables
        mine = sum(1 for game_id, owner in self._owners.items() if owner == client
                   and game_id in tables and not tables[game_id].state.is_over)  # fmt: skip
        if mine >= self.settings.open_games_per_client and not scheduled:
            raise Rejected(
                f"your address has {mine} unfinished games on this server, the most it may have: "
                "finish one, or wait until one expires"
            )
        self._created = {c: t for c, t in self._created.items() if c != client and
                         t[-1] > time.monotonic() - 60}  # fmt: skip
        if not scheduled:
            self._created[client] = [*recent, time.monotonic()]
        await self.workers.bot(check_bots, config)
        game_id = uuid.uuid4().hex[:12]
        seats = tuple(new_token() if seat.human else None for seat in config.seats)
        spectator = new_token()
        tokens: list[tuple[str, int | None]] = [(spectator, None)]
        tokens += [(token, n) for n, token in enumerate(seats) if token is not None]
        # the spectator's link is public (the lobby lists it): kept beside the settings
        settings = {**config.as_json(), WATCH_KEY: f"/watch/{spectator}"}
        stored = StoredGame(game_id, settings, secrets.randbits(63), time.time())
        create: Callable[..., None] = self.store.create_game
        if "quota" in inspect.signature(create).parameters:  # counted in the database: every
            quota = Quota(client, self.settings.max_open_games,  # process's games, restarts too
                          self.settings.open_games_per_client, self.settings.games_per_minute)
            create = functools.partial(create, quota=quota)
        try:
            await self.workers.stored(create, stored, tokens)
        except QuotaError as exc:
            raise Rejected(str(exc)) from None
        self._owners[game_id] = client
        self._generation += 1
        log.info("game %s: created, seats %s", game_id, log_text(", ".join(config.players)))
        table = await self.table(game_id)
        assert table is not None
        table.drive()
        return CreatedGame(game_id, seats, spectator)

    async def games(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest games, for the lobby's list: no seat's token, no seed; the spectator's
        link (public) of the games that kept it.

        Read and built in worker threads, once a second at most however many ask (and again
        when a game was created or expired).
        """
        listed: list[dict[str, Any]] = await self.shared_results.get(
            ("games", limit, self._generation, int(time.monotonic())), self._games, limit
        )
        for entry in listed:
            table = self.tables.get(entry["id"])
            if table is not None:
                state = table.state
                entry.update(waiting=table.halted, decision=table.decision, visit=state.visit,
                             scores=list(state.scores))  # fmt: skip
        return listed

    async def _games(self, limit: int) -> list[dict[str, Any]]:
        stored = await self.workers.stored(self.store.recent, limit)
        return await self.workers.drawn(_listed, stored)


WATCH_KEY = "watch"  #: the stored settings' key of the spectator's link (games since 0.2.0)
_WATCH_LINK = re.compile(r"/watch/[A-Za-z0-9_-]{16,64}")


def _settings_of(stored: StoredGame) -> object:
    """The lobby's settings of a stored game, without the spectator's link kept beside them."""
    config = stored.config
    if isinstance(config, dict) and WATCH_KEY in config:
        return {key: value for key, value in config.items() if key != WATCH_KEY}
    return config


def _listed(games: list[StoredGame]) -> list[dict[str, Any]]:
    """Runs in a worker thread: the lobby's entries of ``games`` (a damaged one left out),
    each with its spectator's link where it was kept (the seats' links are never kept)."""
    listed = []
    for stored in games:
        try:
            seats = stored.config["seats"]
            players = [str(seat["name"]) for seat in seats]
            humans = [n for n, seat in enumerate(seats) if seat["human"] is True]
        except (TypeError, KeyError):
            continue
        watch = stored.config.get(WATCH_KEY)
        listed.append({"id": stored.id, "created": stored.created, "players": players,
                       "humans": humans, "over": stored.record is not None,
                       "waiting": None,
                       "watch": watch if isinstance(watch, str)
                       and _WATCH_LINK.fullmatch(watch) else None})  # fmt: skip
    return listed


class SingleFlight:
    """Expensive results computed once per key, however many ask at once, at most ``jobs``
    of a kind (a key's first item) at a time, the latest ``size`` kept (a failed one is
    forgotten: asked again, it runs again).

    >>> async def double(n):
    ...     return 2 * n
    >>> async def main():
    ...     once = SingleFlight(jobs=2)
    ...     return await asyncio.gather(*(once.get(('double', 21), double, 21) for _ in range(3)))
    >>> asyncio.run(main())
    [42, 42, 42]
    """

    def __init__(self, jobs: int, size: int = 256) -> None:
        self._jobs = jobs
        self._slots: dict[object, asyncio.Semaphore] = {}  # per kind: a hint waits for no analysis
        self._size = size
        self._tasks: dict[object, asyncio.Task[Any]] = {}

    async def get(self, key: object, work: Callable[..., Awaitable[T]], *args: Any) -> T:
        """``await work(*args)``, shared by every caller with the same ``key``.

        A key of a kind and a game id is logged when its work starts (debug level).
        """
        task = self._tasks.get(key)
        if task is None:
            if isinstance(key, tuple) and len(key) >= 2:
                log.debug("computing %s of game %s", key[0], key[1])
            kind = key[0] if isinstance(key, tuple) and key else key
            slots = self._slots.setdefault(kind, asyncio.Semaphore(self._jobs))
            task = asyncio.get_running_loop().create_task(self._run(slots, work, *args))
            self._tasks[key] = task
            while len(self._tasks) > self._size:
                del self._tasks[next(iter(self._tasks))]
        try:
            result: T = await asyncio.shield(task)
        except BaseException:
            if task.done() and self._tasks.get(key) is task:
                del self._tasks[key]
            raise
        return result

    @staticmethod
    async def _run(slots: asyncio.Semaphore, work: Callable[..., Awaitable[T]], *args: Any) -> T:
        async with slots:
            return await work(*args)
