"""``tajmahal serve --arena``: rated games scheduled continuously among the arena's bots.

:class:`Arena` sits beside a :class:`~tajmahal.web.server.GameServer`: every
half second it rates the games that have ended (openskill, see
:mod:`tajmahal.arena.ratings`) and, while the server has room
(:attr:`ArenaSettings.games`), starts a new one among the bots that have room
(house bots always, remote bots while connected), chosen by
:func:`tajmahal.arena.choose_game`.  An arena game is an ordinary game of the
server: stored move by move, resumed after a restart, open to spectators, with
its replay and analysis once over.  The arena's own tables (accounts, games,
ratings) are in the same SQLite file (:class:`~tajmahal.arena.ArenaStore`), so a
server killed at any moment rates every game it had started once they end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.routing import Route, WebSocketRoute

from tajmahal._escape import log_text
from tajmahal.arena.accounts import ArenaBot, ArenaStore
from tajmahal.arena.ratings import game_ranks, rate_game
from tajmahal.arena.scheduling import Candidate, choose_game
from tajmahal.bots.specs import check_spec
from tajmahal.game import GameRecord
from tajmahal.referee.match import bot_seed
from tajmahal.rules.errors import TajMahalError
from tajmahal.seat_contract import SeatPlayer
from tajmahal.serialize import loads
from tajmahal.web.app import create_app
from tajmahal.web.arena_remote import BotHub, RemoteSeat, bot_socket
from tajmahal.web.config import ConfigError, GameConfig, SeatConfig, ServerSettings
from tajmahal.web.server import CreatedGame, GameServer
from tajmahal.web.stores.contract import StoredGame
from tajmahal.web.table import Rejected, Table, Workers

__all__ = ["Arena", "ArenaSettings", "ArenaTable", "arena_app"]

log = logging.getLogger("tajmahal.web")
ARENA_CLIENT = "arena"  #: the client address the arena's own games are created for
RETRY = 30.0  #: seconds before the arena tries again after a game could not start


@attrs.frozen
class ArenaSettings:
    """How the arena schedules (``tajmahal serve --arena`` sets these)."""

    games: int = 4  #: arena games played at once on the server, at most
    time_limit: float = 10.0  #: seconds per decision in an arena game
    most_seats: int = 5  #: the most seats of a game (3 to 5)
    pause: float = 0.5  #: seconds between two rounds of rating and scheduling
    schedule: bool = True  #: start rated games (False: only people's challenges)


class ArenaTable(Table):
    """A game of an arena server: its remote bots' seats play over the network."""

    def __init__(self, stored: StoredGame, config: GameConfig, settings: ServerSettings,
                 workers: Workers, hub: BotHub) -> None:  # fmt: skip
        super().__init__(stored, config, settings, workers)
        self.hub = hub
        self._bot_seeds = [bot_seed(stored.seed, n) for n in range(len(config.seats))]

    def remote_seat(self, number: int, name: str) -> SeatPlayer:
        return RemoteSeat(self.hub, name, self.id, number, len(self.config.seats),
                          self._bot_seeds[number])  # fmt: skip


class Arena:
    """The arena of one server (see the module docs)."""

    def __init__(
        self, server: GameServer, store: ArenaStore, settings: ArenaSettings | None = None,
        seed: int | None = None,
    ) -> None:  # fmt: skip
        self.server, self.store = server, store
        self.settings = settings or ArenaSettings()
        self.hub = BotHub(store, self.settings.time_limit)
        self.rng = random.Random(seed)
        #: the arena's unrated games being played: game id -> the account in each seat
        self.playing: dict[str, tuple[str, ...]] = {}
        #: people's games against an arena bot: game id -> (the bot, its seat)
        self.challenges: dict[str, tuple[str, int]] = {}
        self._seat_counts: dict[str, dict[tuple[int, int], int]] = {}
        self._task: asyncio.Task[None] | None = None
        self._resting_until = 0.0  #: after a game that could not start: no new one until then
        server.make_table = self._make_table
        server.exempt.add(ARENA_CLIENT)  # (an address is never this name)
        self.hub.result_of = self.result_of

    def __repr__(self) -> str:
        return f"<Arena {len(self.playing)} games playing, {len(self.hub.connections)} online>"

    def _make_table(self, stored: StoredGame, config: GameConfig, settings: ServerSettings,
                    workers: Workers) -> Table:  # fmt: skip
        return ArenaTable(stored, config, settings, workers, self.hub)

    async def start(self) -> None:
        """Take up the unrated games (a restart's), then rate and schedule until stopped."""
        for game in await asyncio.to_thread(self.store.games, False):
            self.playing[game.game_id] = game.bots
        self._seat_counts = await asyncio.to_thread(self.store.seat_counts)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.settle()
                if self.settings.schedule:
                    await self.schedule()
            except Exception:  # a bug: logged, the arena goes on
                log.exception("arena: a round of rating and scheduling failed")
            await asyncio.sleep(self.settings.pause)

    # ------------------------------------------------------------------ scheduling

    def busy(self, name: str) -> int:
        """The games ``name`` plays now (rated and challenges)."""
        rated = sum(name in bots for bots in self.playing.values())
        return rated + sum(bot == name for bot, _ in self.challenges.values())

    def free(self, bot: ArenaBot) -> int:
        """How many more games ``bot`` may start now."""
        most = bot.max_games if bot.house else min(bot.max_games, self.hub.capacity(bot.name))
        return max(0, most - self.busy(bot.name))

    async def schedule(self) -> None:
        """Start games while the server has room and enough bots have room."""
        if time.monotonic() < self._resting_until:
            return
        while len(self.playing) < self.settings.games:
            bots = await asyncio.to_thread(self.store.bots)
            candidates = [Candidate(b.name, b.mu, b.sigma, b.games, self.free(b)) for b in bots]
            chosen = choose_game(candidates, self.rng, self._seat_counts, self.settings.most_seats)
            if chosen is None:
                return
            accounts = {bot.name: bot for bot in bots}
            try:
                await self._start_game(chosen, accounts)
            except TajMahalError as exc:  # (a house bot this server refuses): tried again later
                log.warning("arena: cannot start a game of %s: %s; trying again in %g s",
                            ", ".join(chosen), log_text(str(exc)), RETRY)  # fmt: skip
                self._resting_until = time.monotonic() + RETRY
                return

    async def _start_game(self, names: tuple[str, ...], accounts: dict[str, ArenaBot]) -> None:
        seats = []
        for name in names:
            house = accounts[name].house
            if house is None:
                seats.append(SeatConfig(False, name, remote=True))
            else:
                spec = check_spec(house)
                seats.append(SeatConfig(False, spec.text, spec))
        config = GameConfig(tuple(seats), time_limit=self.settings.time_limit)
        created = await self.server.create(config, ARENA_CLIENT)
        await asyncio.to_thread(self.store.add_game, created.id, names, created.spectator)
        self.playing[created.id] = names
        for seat, name in enumerate(names):
            mine = self._seat_counts.setdefault(name, {})
            mine[(len(names), seat)] = mine.get((len(names), seat), 0) + 1
        log.info("arena: game %s started: %s", created.id, ", ".join(names))

    # ------------------------------------------------------------------ rating

    async def settle(self) -> None:
        """Rate the arena's games that have ended; tell their remote bots the result."""
        for game_id, names in list(self.playing.items()):
            found, text = await self._record(game_id)
            if not found:
                log.warning("arena: game %s is gone from the database: never rated", game_id)
                await asyncio.to_thread(self.store.drop_game, game_id)
                self.playing.pop(game_id, None)
            elif text is not None:
                await self._rate(game_id, names, text)
                self.playing.pop(game_id, None)
        for game_id, (name, seat) in list(self.challenges.items()):
            found, text = await self._record(game_id)
            if text is not None:
                record = loads(text)
                if isinstance(record, GameRecord):
                    self.hub.deliver(name, _result(game_id, seat, record, None))
            if text is not None or not found:
                self.challenges.pop(game_id, None)

    async def _record(self, game_id: str) -> tuple[bool, str | None]:
        """(whether the game is stored, its record once it is over)."""
        table = self.server.tables.get(game_id)
        if table is not None:
            return True, table.finished_record
        stored = await self.server.workers.stored(self.server.store.load, game_id)
        return stored is not None, None if stored is None else stored.record

    async def _rate(self, game_id: str, names: tuple[str, ...], text: str) -> None:
        record = loads(text)
        if (not isinstance(record, GameRecord) or record.scores is None
                or len(record.scores) != len(names)):  # fmt: skip
            log.error("arena: game %s has no usable record: not rated", game_id)
            await asyncio.to_thread(self.store.drop_game, game_id)
            return
        faulty = {fault.seat for fault in record.faults}
        ranks = game_ranks(record.scores, [n in faulty for n in range(len(names))])
        accounts = {bot.name: bot for bot in await asyncio.to_thread(self.store.bots)}
        before = [(accounts[n].mu, accounts[n].sigma) if n in accounts else (25.0, 25 / 3)
                  for n in names]  # fmt: skip
        after = rate_game(before, ranks)
        if await asyncio.to_thread(self.store.rate, game_id, ranks, after, names):
            log.info("arena: game %s rated: %s", game_id, ", ".join(
                f"{n} #{r} {mu:.1f}/{sigma:.2f}" for n, r, (mu, sigma) in zip(names, ranks, after,
                                                                               strict=True)))
        for seat, name in enumerate(names):
            if name in accounts and accounts[name].house is None:
                self.hub.deliver(name, _result(game_id, seat, record, (ranks[seat], *after[seat])))

    async def result_of(self, name: str, game_id: str) -> dict[str, Any] | None:
        """The ``result`` message of ``name``'s game ``game_id`` if it is over and rated (a
        result the bot may have lost with its connection), else None."""
        games = await asyncio.to_thread(self.store.games_of, name, 100)
        game = next((g for g in games if g.game_id == game_id and g.rated), None)
        if game is None or game.ranks is None:
            return None
        _, text = await self._record(game_id)
        record = loads(text) if text is not None else None
        if not isinstance(record, GameRecord):
            return None
        seat = game.bots.index(name)
        point = next((p for p in await asyncio.to_thread(self.store.history, name)
                      if p.game_id == game_id), None)  # fmt: skip
        rating = None if point is None else (game.ranks[seat], point.mu, point.sigma)
        return _result(game_id, seat, record, rating)

    # ------------------------------------------------------------------ people

    async def challenge(self, data: Any, client: str) -> tuple[CreatedGame, GameConfig, int]:
        """A person's game against an arena bot (unrated): ``{"bot": NAME, "name": PERSON,
        "others": [SPEC, ...]}``, the others the lobby's bots; (the game, its settings, the
        bot's seat).  :class:`~tajmahal.web.config.ConfigError` or
        :class:`~tajmahal.web.table.Rejected` says why not."""
        if not isinstance(data, dict):
            raise ConfigError("a challenge is a JSON object")
        unknown = set(data) - {"bot", "name", "others"}
        if unknown:
            raise ConfigError(f"unknown key {sorted(unknown)[0][:40]!r}")
        name = data.get("bot")
        bot = await asyncio.to_thread(self.store.bot, name) if type(name) is str else None
        if bot is None:
            raise ConfigError("no arena bot has that name")
        if self.free(bot) < 1:
            raise Rejected(f"{bot.name} is not connected, or plays as many games as it may")
        others = data.get("others", ["random"])
        if not isinstance(others, list):
            raise ConfigError("'others' is a list of the other bots' specs")
        person = {"human": True, "name": data.get("name") or "player 1"}
        # the bot's seat is checked as a "random" one, then given to the bot
        parsed = GameConfig.parse({"seats": [person, "random", *others]}, self.server.settings)
        if bot.house is None:
            seat = SeatConfig(False, bot.name, remote=True)
        else:
            spec = check_spec(bot.house)
            seat = SeatConfig(False, spec.text, spec)
        seats = (parsed.seats[0], seat, *parsed.seats[2:])
        config = attrs.evolve(parsed, seats=seats, time_limit=self.settings.time_limit)
        created = await self.server.create(config, client)
        if bot.house is None:
            self.challenges[created.id] = (bot.name, 1)
        return created, config, 1


def _result(game_id: str, seat: int, record: GameRecord,
            rating: tuple[int, float, float] | None) -> dict[str, Any]:  # fmt: skip
    scores = list(record.scores or ())
    faulty = {fault.seat for fault in record.faults}
    ranking = sorted(range(len(scores)), key=lambda s: (s in faulty, -scores[s], s))
    message: dict[str, Any] = {
        "type": "result", "game": game_id, "seat": seat, "scores": scores,
        "winners": list(record.winners or ()), "ranking": ranking, "rated": rating is not None,
    }  # fmt: skip
    if rating is not None:
        message.update(rank=rating[0], mu=round(rating[1], 4), sigma=round(rating[2], 4))
    return message


def arena_app(server: GameServer, arena: Arena) -> Starlette:
    """The server's application (:func:`~tajmahal.web.create_app`) with the arena's pages, its
    JSON and its bots' WebSocket; the arena starts and stops with it."""
    from tajmahal.web import arena_pages

    app = create_app(server)
    app.state.arena = arena
    app.router.routes[:0] = [
        Route("/arena", arena_pages.leaderboard),
        Route("/arena/bot/{name}", arena_pages.bot_page),
        Route("/arena/arena.js", arena_pages.script),
        Route("/api/arena/leaderboard", arena_pages.leaderboard_json),
        Route("/api/arena/challenge", arena_pages.challenge, methods=["POST"]),
        WebSocketRoute("/api/arena/bot", bot_socket),
    ]
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: Starlette) -> AsyncIterator[None]:
        async with inner(application):
            await arena.start()
            try:
                yield
            finally:
                await arena.stop()

    app.router.lifespan_context = lifespan
    return app
