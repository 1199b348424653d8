"""HTTP and WebSocket in front of a :class:`~tajmahal.web.server.GameServer` (Starlette).

Pages: ``/`` (the lobby), ``/how-to-play``, ``/play/TOKEN`` (a seat), ``/watch/TOKEN`` (the
spectator), ``/record/TOKEN`` and ``/replay/TOKEN`` (once the game is over).
The game page talks over ``/ws/TOKEN``; every message it sends carries the
token again, and a message whose token is not the connection's is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tajmahal._escape import log_text
from tajmahal.game import GameRecord
from tajmahal.rules.errors import TajMahalError
from tajmahal.serialize import loads
from tajmahal.web.config import GameConfig
from tajmahal.web.guard import Guard
from tajmahal.web.rate_limits import TokenBucket
from tajmahal.web.rematch import rematch
from tajmahal.web.server import GameServer
from tajmahal.web.stores.contract import StoreError
from tajmahal.web.table import ConnectionOutbox, Rejected, Table

__all__ = ["MAX_BODY_BYTES", "create_app"]

log = logging.getLogger("tajmahal.web")
MAX_BODY_BYTES = 16 * 1024  #: the largest request body the lobby accepts
_FLOOD_CLOSE = 2000  #: messages dropped for the rate limit before the connection is closed
_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the links are secrets: never sent on to other sites
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"


def _static(name: str) -> str:
    return resources.files("tajmahal.web").joinpath("static", name).read_text(encoding="utf-8")


def _page(name: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        _static(name), status, headers={**_HEADERS, "Content-Security-Policy": _CSP}
    )


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers=_HEADERS)


def create_app(server: GameServer) -> Starlette:
    """The web application for ``server`` (start it with any ASGI server, e.g. uvicorn).

    The application starts the server (resuming its games) when it starts,
    and stops it when it stops.
    """
    per_client: Counter[str] = Counter()
    per_token: Counter[str] = Counter()

    async def lobby(request: Request) -> Response:
        return _page("lobby.html")

    async def how_to_play(request: Request) -> Response:
        return _page("how-to-play.html")

    async def seat_page(request: Request) -> Response:
        opened = await server.open(request.path_params["token"])
        if opened is None or opened[1] is None:
            return _page("unknown.html", 404)
        return _page("game.html")

    async def watch_page(request: Request) -> Response:
        opened = await server.open(request.path_params["token"])
        if opened is None or opened[1] is not None:
            return _page("unknown.html", 404)
        return _page("game.html")

    async def bots(request: Request) -> Response:
        from tajmahal.bots.registry import bot_infos

        names = sorted(bot_infos())
        return JSONResponse({"bots": names, "commands": server.settings.allow_commands},
                            headers=_HEADERS)  # fmt: skip

    async def limits(request: Request) -> Response:
        return JSONResponse(server.settings.caps(), headers=_HEADERS)

    async def health(request: Request) -> Response:
        return JSONResponse(server.health(), headers=_HEADERS)

    async def games(request: Request) -> Response:
        return JSONResponse({"games": await server.games()}, headers=_HEADERS)

    async def create(request: Request) -> Response:
        client = request.client.host if request.client else ""
        body = b""
        try:
            async with asyncio.timeout(server.settings.header_timeout):  # a slow body too
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > MAX_BODY_BYTES:
                        log.info("lobby: %s sent a request of more than %d bytes", client,
                                 MAX_BODY_BYTES)  # fmt: skip
                        return _error(413, f"a request has at most {MAX_BODY_BYTES} bytes")
        except TimeoutError:
            log.info("lobby: %s sent its request too slowly", client)
            return _error(408, "the request came too slowly")
        try:
            data = json.loads(body)
            config = GameConfig.parse(data, server.settings)
            created = await server.create(config, client)
        except StoreError:  # the database is away: 503 (the handler below)
            raise
        except (TajMahalError, ValueError, RecursionError) as exc:
            message = str(exc) if isinstance(exc, TajMahalError) else "the body is not JSON"
            log.info("lobby: %s: refused a game: %s", client, log_text(message))
            status = 429 if isinstance(exc, Rejected) else 400
            return _error(status, message)
        seats = [
            {"seat": n, "name": seat.name, "human": seat.human,
             "link": None if token is None else f"/play/{token}"}
            for n, (seat, token) in enumerate(zip(config.seats, created.seats, strict=True))
        ]  # fmt: skip
        return JSONResponse(
            {"id": created.id, "seats": seats, "spectator": f"/watch/{created.spectator}"},
            201,
            headers=_HEADERS,
        )

    async def finished(request: Request) -> tuple[Table | None, Response | None]:
        opened = await server.open(request.path_params["token"])
        if opened is None:
            return None, _error(404, "no game has this link")
        table = opened[0]
        await table.record_stored()  # a game that has just ended: its record is being stored
        if table.finished_record is None:
            return None, _error(409, "the record is given out once the game is over")
        return table, None

    async def record(request: Request) -> Response:
        table, refused = await finished(request)
        if table is None or table.finished_record is None:
            return refused or _error(404, "no record")
        return Response(table.finished_record, media_type="application/json", headers={
            **_HEADERS, "Content-Disposition": f'attachment; filename="tajmahal-{table.id}.json"'
        })  # fmt: skip

    async def replay(request: Request) -> Response:
        table, refused = await finished(request)
        if table is None or table.finished_record is None:
            return refused or _error(404, "no record")
        page = await server.shared_results.get(
            ("replay", table.id), table.workers.drawn, _replay_page, table.finished_record,
            table.config.humans,
        )  # fmt: skip
        return HTMLResponse(page, headers=_HEADERS)

    async def analysis(request: Request) -> Response:
        table, refused = await finished(request)
        if table is None or table.finished_record is None:
            return refused or _error(404, "no record")
        page = await server.shared_results.get(
            ("analysis", table.id), table.workers.bot, _analysis_page, table.finished_record,
            table.config.humans,
        )  # fmt: skip
        return HTMLResponse(page, headers=_HEADERS)

    async def websocket(socket: WebSocket) -> None:
        token = socket.path_params["token"]
        client = socket.client.host if socket.client else ""
        try:
            opened = await server.open(token)
        except StoreError as exc:  # the database is away: try again later (close code 1013)
            log.warning("websocket: %s", log_text(exc))
            await socket.accept()
            await _refuse(socket, _UNAVAILABLE, 1013)
            return
        await socket.accept()
        if opened is None:
            log.info("websocket: %s used an unknown link", client)
            await _refuse(socket, "no game has this link", 4404)
            return
        table, seat = opened
        settings = server.settings
        if per_client[client] >= settings.max_connections_per_client:
            log.info("websocket: %s has too many connections", client)
            await _refuse(socket, "too many connections from your address", 1008)
            return
        if per_token[token] >= settings.max_connections_per_seat:
            log.info("game %s: seat %s has too many connections", table.id, seat)
            await _refuse(socket, "this link is open in too many places", 1008)
            return
        per_client[client] += 1
        per_token[token] += 1
        listener = ConnectionOutbox(seat)
        table.listeners.add(listener)
        table.tell(listener)
        if table.halted:
            listener.reply(_err(table.halted))
        sender = asyncio.get_running_loop().create_task(_send(socket, table, listener))
        try:
            await _receive(socket, table, seat, token, listener, client)
        finally:
            listener.closed = True
            table.listeners.discard(listener)
            server.release(table)
            sender.cancel()
            per_client[client] -= 1
            per_token[token] -= 1
            if per_client[client] <= 0:
                del per_client[client]
            if per_token[token] <= 0:
                del per_token[token]

    async def _receive(
        socket: WebSocket, table: Table, seat: int | None, token: str, listener: ConnectionOutbox,
        client: str,
    ) -> None:  # fmt: skip
        settings = server.settings
        bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
        dropped, told = 0, -1.0
        who = f"game {table.id}: {'spectator' if seat is None else f'seat {seat}'} ({client})"
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                size = len(raw)
                fits = size <= settings.max_message_bytes
                text = raw.decode("utf-8", "replace") if fits else None
            else:
                size = len(text.encode("utf-8", "replace"))
            if not bucket.take():
                dropped += 1
                if time.monotonic() - told >= 1.0:  # one error a second while dropping
                    told = time.monotonic()
                    log.info("%s: too many messages (%d dropped)", who, dropped)
                    listener.reply(_err("too many messages: slow down (messages are dropped)"))
                if dropped >= _FLOOD_CLOSE:
                    await socket.close(1008, "too many messages")
                    return
                continue
            if text is None or size > settings.max_message_bytes:
                log.info("%s: a message of %d bytes refused", who, size)
                listener.reply(_err(f"a message has at most {settings.max_message_bytes} bytes"))
                continue
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):
                log.info("%s: a message that is not JSON", who)
                listener.reply(_err("a message is a JSON object"))
                continue
            await _handle(data, table, seat, token, listener, who, client)

    async def _handle(
        data: Any, table: Table, seat: int | None, token: str, listener: ConnectionOutbox, who: str,
        client: str = "",
    ) -> None:  # fmt: skip
        kind = data.get("type") if isinstance(data, dict) else None
        try:
            if not isinstance(data, dict) or type(kind) is not str:
                raise Rejected('a message is a JSON object with a "type"')
            given = data.get("token")
            if type(given) is not str or not hmac.compare_digest(
                given.encode("utf-8", "replace"), token.encode()
            ):
                raise Rejected("this message's token is not this connection's link")
            if kind == "state":
                table.tell(listener, whole=True)
                return
            if kind == "log":  # the whole game's events, for the page's log (once per load)
                key = ("log", table.id, table.version, seat)
                listener.reply(await server.shared_results.get(key, table.log, seat))
                return
            if kind == "rematch":  # the next game, or (create false) whether there is one
                create = data.get("create") is True
                listener.reply(await rematch(server, table, seat, token, client, create))
                return
            if kind not in ("move", "undo", "hint"):
                raise Rejected(f"unknown message type {kind[:30]!r}")
            if seat is None:
                raise Rejected("a spectator only watches")
            if kind == "move":
                ack = {"type": "ack", "decision": data.get("decision")}
                await table.move(seat, data.get("decision"), data.get("move"),
                                 lambda: listener.reply(ack))  # stored: the ack, then the state
            elif kind == "undo":
                await table.undo(seat, data.get("decision"))
                listener.reply({"type": "ack", "undo": True})
            else:
                asked = data.get("decision")
                key = ("hint", table.id, seat, asked if type(asked) is int else None)
                listener.reply(await server.shared_results.get(key, table.hint, seat, asked))
        except Rejected as exc:
            log.info("%s: refused %s: %s", who, log_text(kind) if type(kind) is str else "?",
                     log_text(exc))
            listener.reply(_err(str(exc), kind if type(kind) is str else None))
        except TajMahalError as exc:
            log.warning("%s: could not do %s: %s", who, kind, exc)
            listener.reply(_err(f"the server could not do it: {exc}", kind))
        except Exception:
            log.exception("%s: internal error", who)
            listener.reply(_err("internal error (logged on the server)", kind))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    static = StaticFiles(packages=[("tajmahal.web", "static")])
    routes = [
        Route("/", lobby),
        Route("/how-to-play", how_to_play),
        Route("/play/{token}", seat_page),
        Route("/watch/{token}", watch_page),
        Route("/record/{token}", record),
        Route("/replay/{token}", replay),
        Route("/analysis/{token}", analysis),
        Route("/api/bots", bots),
        Route("/api/limits", limits),
        Route("/api/health", health),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games", create, methods=["POST"]),
        WebSocketRoute("/ws/{token}", websocket),
        Mount("/static", static, name="static"),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={StoreError: _unavailable},
        middleware=[Middleware(Guard, allowed_hosts=server.settings.allowed_hosts)],
    )


def _replay_page(text: str, humans: tuple[int, ...] = ()) -> str:
    """Runs in a worker thread: the replay page of a finished game's record (seats counted
    from 1, as on the game page; bots by their lobby names)."""
    from tajmahal.web._table_analysis import replay_page
    from tajmahal.web.seat_messages import people_names

    record = loads(text)
    assert isinstance(record, GameRecord)
    return replay_page(attrs.evolve(record, players=people_names(record.players, humans)))


def _analysis_page(text: str, humans: tuple[int, ...]) -> str:
    """Runs in a worker thread: the analysis page of the people's decisions (every seat's in a
    game of bots only)."""
    from tajmahal.web._table_analysis import analysis_html
    from tajmahal.web.seat_messages import people_names

    record = loads(text)
    assert isinstance(record, GameRecord)
    named = attrs.evolve(record, players=people_names(record.players, humans))  # "level 3"
    return analysis_html(named, humans or range(len(record.players)))


_UNAVAILABLE = "the game database cannot be reached just now: try again in a few seconds"


async def _unavailable(request: Request, exc: Exception) -> Response:
    """A request that met a database outage: 503 and when to try again, never a traceback."""
    log.warning("%s: %s", request.url.path[:80], log_text(str(exc)))
    return JSONResponse({"error": _UNAVAILABLE}, 503, headers={**_HEADERS, "Retry-After": "5"})


def _err(message: str, request: str | None = None) -> dict[str, Any]:
    return {"type": "error", "message": message[:400], "request": request}


async def _refuse(socket: WebSocket, message: str, code: int) -> None:
    with contextlib.suppress(Exception):
        await socket.send_json(_err(message))
        await socket.close(code, message[:100])


async def _send(socket: WebSocket, table: Table, listener: ConnectionOutbox) -> None:
    """Send the connection's messages in the order they were queued: replies (an ``ack`` as
    soon as the move is stored) and the state messages the table's backlog builds."""
    try:
        while socket.application_state == WebSocketState.CONNECTED:
            item = await listener.next()
            if listener.dropped and listener.queue.empty():  # the page reads again: the state
                listener.dropped = False
                table.tell(listener)
            if isinstance(item, str):
                await socket.send_text(item)
            else:
                await socket.send_text(json.dumps(item, separators=(",", ":")))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
