"""The arena's remote bots: one WebSocket per connected program, the seats they play.

A remote bot connects to ``/api/arena/bot`` with its token in the
``Authorization: Bearer`` header (never in the URL), says ``ready`` (the
protocol version, how many games it plays at once), and is then sent, per
game, a ``hello`` and one ``request`` per decision of its seat; it answers
each with a ``move`` (or an ``error``).  Every message names its ``game``.
Answers are judged by the referee's own rules for bot programs
(:func:`tajmahal.protocol.read_answer`, then the referee's judge): a late,
illegal or malformed answer is a recorded fault, the referee plays the
fallback move, the game goes on.  A connection that sends a message that is
not JSON, one over :data:`MAX_MESSAGE_BYTES`, or floods, is closed and faulted
in the decisions it owed; one that does not answer in time is closed as
stalled.  A bot that is not connected when asked gets its time limit to
connect (its programs reconnect by themselves) and then a ``timeout`` fault.
docs/protocol.md ("Over the network") is the specification.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tajmahal._escape import log_text
from tajmahal.arena.accounts import ArenaError, ArenaStore
from tajmahal.faults import FaultKind
from tajmahal.protocol import BotProcessError, read_answer
from tajmahal.protocol.messages import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    MessageError,
    read_ready,
    request_line,
)
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView
from tajmahal.seat_contract import Answer
from tajmahal.serialize import dumps
from tajmahal.web.rate_limits import TokenBucket

__all__ = ["MAX_MESSAGE_BYTES", "BotHub", "RemoteSeat", "bot_socket"]

log = logging.getLogger("tajmahal.web")
MAX_MESSAGE_BYTES = 64 * 1024  #: the longest message a bot may send (a protocol line's limit)
READY_SECONDS = 10.0  #: from the connection to the bot's ``ready``
#: a connection's steady rate of messages besides its answers (one per request is allowed too)
MESSAGES_PER_SECOND = 2.0
MESSAGE_BURST = 20
FLOOD_CLOSE = 200  #: messages dropped for the rate limit before the connection is closed
OUTBOX = 64  #: messages queued for a bot that does not read before it counts as stalled
FAILED_LOGINS = 20  #: unknown tokens from one address in a minute before it is refused
MAX_CONNECTIONS = 8  #: connections per account at once


class _BotConnection:
    """One open WebSocket of a remote bot: its outbox, how many games it takes."""

    def __init__(self, name: str, concurrency: int, client: str, games: int | None) -> None:
        self.name, self.concurrency, self.client = name, concurrency, client
        self.games_left = games  #: the results it still wants (None: no end)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX)
        self.games: set[tuple[str, int]] = set()  #: the (game, seat) pairs it was sent
        self.closing: str | None = None  #: why the server closes it (None: open)
        #: one more message for each request the bot was sent: an answer is never dropped
        self.bucket = TokenBucket(MESSAGES_PER_SECOND, MESSAGE_BURST)

    @property
    def capacity(self) -> int:
        """The games it plays at once: its concurrency, at most the results it still wants
        (the games it plays now count among them)."""
        if self.closing is not None:
            return 0
        if self.games_left is None:
            return self.concurrency
        return min(self.concurrency, self.games_left)

    def send_result(self, text: str) -> bool:
        """Send a game's result: one fewer that it wants."""
        if not self.send(text):
            return False
        if self.games_left is not None:
            self.games_left = max(0, self.games_left - 1)
        return True

    def send(self, text: str) -> bool:
        """Queue a message (False: the bot does not read its messages: it is stalled)."""
        if self.closing is not None:
            return False
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            return False
        return True

    def close(self, why: str) -> None:
        if self.closing is None:
            self.closing = why
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


class _AwaitedAnswer:
    """A request waiting for its answer."""

    def __init__(self, seat: RemoteSeat, decision: int, legal: Sequence[Move], line: str,
                 limit: float) -> None:  # fmt: skip
        self.seat, self.decision, self.legal, self.limit = seat, decision, legal, limit
        self.texts = [str(move) for move in legal]
        self.line = line
        self.future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.started = time.monotonic()
        self.connection: _BotConnection | None = None

    def settle(self, answer: Answer) -> None:
        if not self.future.done():
            self.future.set_result(answer)

    def fault(self, kind: FaultKind, detail: str) -> None:
        self.settle(Answer(kind=kind, detail=detail, elapsed=time.monotonic() - self.started))


class RemoteSeat:
    """A remote arena bot's seat in one game: the table awaits ``decide``."""

    setup_fault = None

    def __init__(self, hub: BotHub, account: str, game: str, seat: int, num_players: int,
                 seed: int) -> None:  # fmt: skip
        self.hub, self.account, self.game, self.seat = hub, account, game, seat
        self.num_players, self.seed = num_players, seed

    def __repr__(self) -> str:
        return f"<RemoteSeat {self.account} in game {self.game}, seat {self.seat}>"

    @property
    def name(self) -> str:
        return self.account

    async def decide(
        self, view: PlayerView, legal: Sequence[Move], limit: float | None, decision: int
    ) -> Answer:
        return await self.hub.ask(self, view, legal, limit, decision)

    def choose(self, view: Any, legal: Any, limit: Any, decision: int = 0) -> Answer:
        """Never called: a remote seat is asked through ``decide``."""
        return Answer(kind=FaultKind.UNAVAILABLE, detail="asked out of turn")  # pragma: no cover

    def close(self) -> None:
        self.hub.forget(self.game, self.seat)

    def hello(self, time_limit: float) -> str:
        return json.dumps({
            "type": "hello", "protocol": PROTOCOL_NAME, "version": PROTOCOL_VERSION,
            "game": self.game, "seat": self.seat, "num_players": self.num_players,
            "seed": self.seed, "time_limit": time_limit,
        })  # fmt: skip


class BotHub:
    """The remote bots' connections, and the requests they owe (see the module docs)."""

    def __init__(self, store: ArenaStore, default_limit: float = 10.0) -> None:
        self.store = store
        self.default_limit = default_limit
        self.connections: dict[str, list[_BotConnection]] = {}
        self._pending: dict[tuple[str, int], _AwaitedAnswer] = {}
        self._arrived: dict[str, asyncio.Event] = {}
        self._undelivered: dict[str, list[str]] = {}  #: results for bots not connected
        self._failed: Counter[str] = Counter()  # unknown tokens per address this minute
        self._failed_minute = 0
        #: the result of a bot's game that is over, or None (the arena says): sent again to a
        #: bot that names the game in its ``ready`` (a result lost with a connection)
        self.result_of: Callable[[str, str], Awaitable[dict[str, Any] | None]] | None = None

    # ------------------------------------------------------------------ what the arena asks

    def online(self, name: str) -> bool:
        return bool(self.connections.get(name))

    def capacity(self, name: str) -> int:
        """How many games the bot's connections take at once."""
        return sum(c.capacity for c in self.connections.get(name, ()))

    async def ask(
        self, seat: RemoteSeat, view: PlayerView, legal: Sequence[Move], limit: float | None,
        decision: int,
    ) -> Answer:  # fmt: skip
        """Send the request to the bot (when it is connected) and wait for its judged answer."""
        seconds = limit if limit is not None else self.default_limit
        text = request_line(decision, float(seconds), [str(m) for m in legal], dumps(view))
        head = '{"type": "request", '
        line = (f'{head}"game": {json.dumps(seat.game)}, "seat": {seat.seat}, '
                f"{text.decode()[len(head):].rstrip()}")  # fmt: skip
        pending = _AwaitedAnswer(seat, decision, legal, line, seconds)
        key = (seat.game, seat.seat)
        self._pending[key] = pending
        try:
            self._dispatch(pending, seconds)
            try:
                return await asyncio.wait_for(asyncio.shield(pending.future), seconds)
            except TimeoutError:
                connection = pending.connection
                if connection is None:
                    return Answer(kind=FaultKind.TIMEOUT, elapsed=seconds,
                                  detail=f"the bot was not connected within the {seconds:.3g} s "
                                  "time limit")  # fmt: skip
                log.info("arena: %s stalled in game %s (no answer within %.3g s): disconnected",
                         seat.account, seat.game, seconds)  # fmt: skip
                connection.close("stalled: no answer within the time limit")
                return Answer(kind=FaultKind.TIMEOUT, elapsed=seconds,
                              detail=f"no answer within the {seconds:.3g} s time limit; the "
                              "connection was closed")  # fmt: skip
        finally:
            if self._pending.get(key) is pending:
                del self._pending[key]

    def _dispatch(self, pending: _AwaitedAnswer, seconds: float) -> None:
        """Send a pending request on a connection of its bot (the one that has its game, else
        the least busy); without one it waits for the bot to connect."""
        seat = pending.seat
        live = [c for c in self.connections.get(seat.account, ()) if c.closing is None]
        if not live:
            pending.connection = None
            return
        key = (seat.game, seat.seat)
        connection = next((c for c in live if key in c.games), None)
        if connection is None:
            connection = min(live, key=lambda c: len(c.games) - c.capacity)
            connection.games.add(key)
            connection.send(seat.hello(seconds))
        pending.connection = connection
        connection.bucket.grant()
        if not connection.send(pending.line):
            connection.close("stalled: it does not read its messages")

    def forget(self, game: str, seat: int) -> None:
        for connections in self.connections.values():
            for connection in connections:
                connection.games.discard((game, seat))

    def deliver(self, name: str, message: dict[str, Any]) -> None:
        """Send a message to the bot's connection that played the game (a result), or keep it
        for when it connects again."""
        text = json.dumps(message)
        key = (str(message.get("game")), int(message.get("seat", -1)))
        live = [c for c in self.connections.get(name, ()) if c.closing is None]
        connection = next((c for c in live if key in c.games), live[0] if live else None)
        if connection is None or not connection.send_result(text):
            kept = self._undelivered.setdefault(name, [])
            kept.append(text)
            del kept[:-100]
        self.forget(*key)

    # ------------------------------------------------------------------ connections

    async def serve(self, socket: WebSocket) -> None:
        """One bot's connection, from the handshake to its end."""
        client = socket.client.host if socket.client else ""
        await socket.accept()
        minute = int(time.monotonic() // 60)
        if minute != self._failed_minute:
            self._failed_minute, self._failed = minute, Counter()
        if self._failed[client] >= FAILED_LOGINS:
            await _close(socket, 1008, "too many unknown tokens from your address: wait a minute")
            return
        try:
            name = await asyncio.to_thread(self.store.authenticate, _bearer(socket))
        except ArenaError as exc:  # the database is unusable: said, never a traceback
            log.error("arena: cannot check a token: %s", log_text(str(exc)))
            await _close(socket, 1011, "the server cannot check tokens now: try again later")
            return
        if name is None:
            self._failed[client] += 1
            log.info("arena: a connection from %s with no valid token refused", client)
            await _close(socket, 4401, "no valid bot token in the Authorization header "
                         "('Authorization: Bearer TOKEN')")  # fmt: skip
            return
        if len(self.connections.get(name, ())) >= MAX_CONNECTIONS:
            await _close(socket, 1008, f"a bot has at most {MAX_CONNECTIONS} connections")
            return
        try:
            ready = await asyncio.wait_for(_first_message(socket), READY_SECONDS)
            concurrency = _concurrency(ready.get("concurrency", 1))
            games = ready.get("games")
            if games is not None and (type(games) is not int or games < 0):
                raise ValueError('"games" is the number of games the bot still plays, if given')
            playing = ready.get("playing", [])
            if not isinstance(playing, list) or len(playing) > 64 or not all(
                    type(g) is str and len(g) <= 40 for g in playing):  # fmt: skip
                raise ValueError('"playing" lists the ids of the games the bot was playing')
            read_ready(ready)
        except (TimeoutError, MessageError, ValueError) as exc:
            why = "no 'ready' in time" if isinstance(exc, TimeoutError) else str(exc)
            await _close(socket, 4400, f"handshake: {why}"[:120])
            return
        except WebSocketDisconnect:
            return
        connection = _BotConnection(name, concurrency, client, games)
        connection.send(json.dumps({"type": "welcome", "bot": name, "concurrency": concurrency}))
        self.connections.setdefault(name, []).append(connection)
        log.info("arena: %s connected from %s (%d games at once)", name, client, concurrency)
        await self._seen(name)
        kept = self._undelivered.pop(name, [])
        for text in kept:
            connection.send_result(text)
        sent = {json.loads(text).get("game") for text in kept}
        for game in dict.fromkeys(playing):  # games that ended while it was away
            if game in sent:
                continue
            result = None if self.result_of is None else await self.result_of(name, game)
            if result is not None:
                connection.send_result(json.dumps(result))
        self._arrived.setdefault(name, asyncio.Event()).set()
        for pending in list(self._pending.values()):  # requests waiting for this bot
            if pending.seat.account == name and pending.connection is None:
                left = pending.started + pending.limit - time.monotonic()
                self._dispatch(pending, max(0.1, left))
        sender = asyncio.get_running_loop().create_task(_send(socket, connection))
        try:
            await self._receive(socket, connection)
        finally:
            connection.close(connection.closing or "closed")
            self.connections[name].remove(connection)
            if not self.connections[name]:
                del self.connections[name]
            for pending in list(self._pending.values()):  # owed answers: asked again elsewhere
                if pending.connection is connection and not pending.future.done():
                    pending.connection = None
                    left = pending.started + pending.limit - time.monotonic()
                    self._dispatch(pending, max(0.1, left))
            with contextlib.suppress(asyncio.TimeoutError, Exception):
                await asyncio.wait_for(sender, 2.0)
            sender.cancel()
            log.info("arena: %s disconnected (%s)", name, log_text(connection.closing or "?"))
            await self._seen(name)

    async def _seen(self, name: str) -> None:
        try:
            await asyncio.to_thread(self.store.seen, name)
        except ArenaError as exc:  # only the "last seen" column is behind
            log.warning("arena: %s", log_text(str(exc)))

    async def _receive(self, socket: WebSocket, connection: _BotConnection) -> None:
        bucket = connection.bucket
        dropped = 0
        while connection.closing is None:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            data = raw.encode("utf-8", "replace") if raw is not None else message.get("bytes")
            if data is None:
                continue
            if not bucket.take():
                dropped += 1
                if dropped >= FLOOD_CLOSE:
                    self._lost(connection, "flooded the server with messages")
                    return
                continue
            if len(data) > MAX_MESSAGE_BYTES:
                self._lost(connection, f"sent a message longer than {MAX_MESSAGE_BYTES} bytes")
                return
            try:
                parsed = json.loads(data)
            except (ValueError, RecursionError):
                parsed = None
            if not isinstance(parsed, dict) or not isinstance(parsed.get("type"), str):
                self._lost(connection, 'sent a message that is not a JSON object with a "type"')
                return
            self._handle(connection, parsed)

    def _lost(self, connection: _BotConnection, why: str) -> None:
        """The conversation is lost (as for a program whose output is not protocol): the
        connection is closed, and each answer it owed is a ``protocol`` fault."""
        log.info("arena: %s %s: disconnected", connection.name, why)
        for pending in list(self._pending.values()):
            if pending.connection is connection:
                pending.fault(FaultKind.PROTOCOL, f"the bot {why}; the connection was closed")
        connection.close(why)

    def _handle(self, connection: _BotConnection, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "concurrency":
            try:
                connection.concurrency = _concurrency(message.get("concurrency"), least=0)
            except ValueError as exc:
                connection.send(_error(str(exc)))
            return
        if kind not in ("move", "error"):
            connection.send(_error(f"unknown message type {kind[:30]!r}"))
            return
        game, seat = message.get("game"), message.get("seat")
        pending = None
        if type(game) is str:
            for key, waiting in self._pending.items():
                if key[0] == game and waiting.connection is connection and (
                        seat is None or key[1] == seat):  # fmt: skip
                    pending = waiting
                    break
        if pending is None:
            connection.send(_error(f"no request of yours waits for an answer in game "
                                   f"{str(game)[:20]!r} (too late, or not yours)"))  # fmt: skip
            return
        elapsed = time.monotonic() - pending.started
        try:
            move = read_answer(message, pending.decision, pending.legal, pending.texts)
        except BotProcessError as failure:
            pending.settle(Answer(kind=FaultKind(failure.kind.value), detail=failure.detail,
                                  elapsed=elapsed))  # fmt: skip
            return
        index = next(i for i, candidate in enumerate(pending.legal) if candidate is move)
        pending.settle(Answer(index=index, elapsed=elapsed))


def _bearer(socket: WebSocket) -> str | None:
    header = socket.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _concurrency(value: object, least: int = 1) -> int:
    if type(value) is not int or not least <= value <= 64:
        raise ValueError(f'"concurrency" is a whole number from {least} to 64')
    return value


def _error(message: str) -> str:
    return json.dumps({"type": "error", "message": message[:400]})


async def _first_message(socket: WebSocket) -> dict[str, Any]:
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect()
    raw = message.get("text") or (message.get("bytes") or b"").decode("utf-8", "replace")
    if len(raw) > MAX_MESSAGE_BYTES:
        raise MessageError("the message is too long")
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        raise MessageError("the first message is the bot's 'ready' (JSON)") from None
    if not isinstance(parsed, dict) or not isinstance(parsed.get("type"), str):
        raise MessageError('the first message is a JSON object with a "type": "ready"')
    return parsed


async def _send(socket: WebSocket, connection: _BotConnection) -> None:
    try:
        while True:
            text = await connection.outbox.get()
            if text is None:
                break
            await socket.send_text(text)
        reason = (connection.closing or "closed")[:100]
        code = 1008 if connection.closing not in (None, "closed") else 1000
        await _close(socket, code, reason)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


async def _close(socket: WebSocket, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        if socket.application_state == WebSocketState.CONNECTED:
            if code not in (1000, 1008):
                await socket.send_text(_error(reason))
            await socket.close(code, reason[:100])


async def bot_socket(socket: WebSocket) -> None:
    """The endpoint ``/api/arena/bot``: the arena's hub serves the connection."""
    hub: BotHub = socket.app.state.arena.hub
    await hub.serve(socket)
