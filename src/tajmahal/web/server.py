"""The server's core, without HTTP: its games, their tokens, resuming them, creating new ones.

An application can embed it: build a :class:`GameServer` over a store, ``await
start()`` (resumes every unfinished game), then :meth:`~GameServer.create` games
and :meth:`~GameServer.open` tokens; :func:`tajmahal.web.create_app` puts HTTP and
WebSocket in front of it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import uuid
from typing import Any

import attrs

from tajmahal._escape import log_text
from tajmahal.rules.errors import TajMahalError
from tajmahal.web.config import GameConfig, ServerSettings
from tajmahal.web.store import GameStore, StoredGame
from tajmahal.web.table import Rejected, Table, Workers

__all__ = ["CreatedGame", "GameServer", "new_token"]

log = logging.getLogger("tajmahal.web")


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
        self._loading: dict[str, asyncio.Lock] = {}
        self._created: dict[str, list[float]] = {}

    async def start(self) -> None:
        """Start the bots' worker processes; resume every unfinished game where it stood."""
        self.workers.pool.start()
        for game_id in await self.workers.stored(self.store.unfinished):
            table = await self.table(game_id)
            if table is not None:
                log.info("game %s: resumed at decision %d", game_id, table.decision)
                table.drive()

    async def stop(self) -> None:
        """Stop every game's bots, the worker processes and threads (the games stay stored)."""
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
                stored = await self.workers.stored(self.store.load, game_id)
                if stored is None:
                    return None
                try:
                    config = GameConfig.parse(stored.config, self.settings, stored=True)
                    table = await self.workers.drawn(
                        Table, stored, config, self.settings, self.workers
                    )
                except TajMahalError as exc:  # a damaged row: the other games go on
                    log.error("game %s: cannot be loaded: %s", game_id, log_text(exc))
                    return None
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
        """Store a new game (its seed drawn from the operating system) and start its bots."""
        recent = [t for t in self._created.get(client, []) if t > time.monotonic() - 60]
        if len(recent) >= self.settings.games_per_minute:
            raise Rejected(f"at most {self.settings.games_per_minute} new games a minute")
        open_games = sum(1 for t in self.tables.values() if not t.state.is_over)
        if open_games >= self.settings.max_open_games:
            raise Rejected(f"this server has {open_games} unfinished games: no room for more")
        self._created = {c: t for c, t in self._created.items() if c != client and
                         t[-1] > time.monotonic() - 60}  # fmt: skip
        self._created[client] = [*recent, time.monotonic()]
        game_id = uuid.uuid4().hex[:12]
        seats = tuple(new_token() if seat.human else None for seat in config.seats)
        spectator = new_token()
        tokens: list[tuple[str, int | None]] = [(spectator, None)]
        tokens += [(token, n) for n, token in enumerate(seats) if token is not None]
        stored = StoredGame(game_id, config.as_json(), secrets.randbits(63), time.time())
        await self.workers.stored(self.store.create_game, stored, tokens)
        log.info("game %s: created, seats %s", game_id, log_text(", ".join(config.players)))
        table = await self.table(game_id)
        assert table is not None
        table.drive()
        return CreatedGame(game_id, seats, spectator)

    async def games(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest games, for the lobby's list (no token, no seed)."""
        listed = []
        for stored in await self.workers.stored(self.store.recent, limit):
            table = self.tables.get(stored.id)
            try:
                config = GameConfig.parse(stored.config, self.settings, stored=True)
            except TajMahalError:
                continue
            entry: dict[str, Any] = {
                "id": stored.id,
                "created": stored.created,
                "players": list(config.players),
                "humans": list(config.humans),
                "over": stored.record is not None,
            }
            if table is not None:
                state = table.state
                entry.update(decision=table.decision, visit=state.visit,
                             scores=list(state.scores))  # fmt: skip
            listed.append(entry)
        return listed
