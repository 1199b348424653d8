"""The lobby's JSON API: ``/api/bots``, ``/api/limits``, ``/api/health``, ``/api/games``
(the games being played, and ``POST``: a new game).

Each is a Starlette endpoint reading the server from the application's state
(:func:`~tajmahal.web.responses.game_server`).
"""

from __future__ import annotations

import asyncio
import json
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tajmahal._escape import log_text
from tajmahal.rules.errors import TajMahalError
from tajmahal.web.config import GameConfig
from tajmahal.web.responses import HEADERS, error, game_server
from tajmahal.web.stores.contract import StoreError
from tajmahal.web.table import Rejected

__all__ = ["MAX_BODY_BYTES", "bots", "create", "games", "health", "limits"]

log = logging.getLogger("tajmahal.web")
MAX_BODY_BYTES = 16 * 1024  #: the largest request body the lobby accepts


async def bots(request: Request) -> Response:
    """``GET /api/bots``: the bots a seat may name, and whether programs are allowed."""
    from tajmahal.bots.registry import bot_infos

    names = sorted(bot_infos())
    allowed = game_server(request).settings.allow_commands
    return JSONResponse({"bots": names, "commands": allowed}, headers=HEADERS)


async def limits(request: Request) -> Response:
    """``GET /api/limits``: what the lobby may ask
    (:meth:`~tajmahal.web.config.ServerSettings.caps`)."""
    arena = getattr(request.app.state, "arena", None) is not None  # the lobby links it
    return JSONResponse({**game_server(request).settings.caps(), "arena": arena}, headers=HEADERS)


async def health(request: Request) -> Response:
    """``GET /api/health``: the server's health (:meth:`~tajmahal.web.server.GameServer.health`)."""
    return JSONResponse(game_server(request).health(), headers=HEADERS)


async def games(request: Request) -> Response:
    """``GET /api/games``: the newest games (no seat's link)."""
    return JSONResponse({"games": await game_server(request).games()}, headers=HEADERS)


async def create(request: Request) -> Response:
    """``POST /api/games``: a new game from its settings (a JSON body of at most
    :data:`MAX_BODY_BYTES`): its seats' links and the spectator's (201), or why not."""
    server = game_server(request)
    client = request.client.host if request.client else ""
    body = b""
    try:
        async with asyncio.timeout(server.settings.header_timeout):  # a slow body too
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    log.info("lobby: %s sent a request of more than %d bytes", client,
                             MAX_BODY_BYTES)  # fmt: skip
                    return error(413, f"a request has at most {MAX_BODY_BYTES} bytes")
    except TimeoutError:
        log.info("lobby: %s sent its request too slowly", client)
        return error(408, "the request came too slowly")
    try:
        data = json.loads(body)
        config = GameConfig.parse(data, server.settings)
        created = await server.create(config, client)
    except StoreError:  # the database is away: 503 (the application's handler)
        raise
    except (TajMahalError, ValueError, RecursionError) as exc:
        message = str(exc) if isinstance(exc, TajMahalError) else "the body is not JSON"
        log.info("lobby: %s: refused a game: %s", client, log_text(message))
        status = 429 if isinstance(exc, Rejected) else 400
        return error(status, message)
    seats = [
        {"seat": n, "name": seat.name, "human": seat.human,
         "link": None if token is None else f"/play/{token}"}
        for n, (seat, token) in enumerate(zip(config.seats, created.seats, strict=True))
    ]  # fmt: skip
    return JSONResponse(
        {"id": created.id, "seats": seats, "spectator": f"/watch/{created.spectator}"},
        201,
        headers=HEADERS,
    )
