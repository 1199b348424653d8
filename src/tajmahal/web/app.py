"""The Starlette application in front of a :class:`~tajmahal.web.server.GameServer`.

Pages (:mod:`tajmahal.web.pages`): ``/`` (the lobby), ``/how-to-play``, ``/play/TOKEN`` (a
seat), ``/watch/TOKEN`` (the spectator), ``/record/TOKEN``, ``/replay/TOKEN`` and
``/analysis/TOKEN`` (once the game is over; the analysis's strip from
``/analysis/TOKEN/marks``). The lobby's JSON (:mod:`tajmahal.web.lobby`): ``/api/...``.
The game page talks over ``/ws/TOKEN`` (:mod:`tajmahal.web.socket`). Every endpoint
is a module-level function that finds the server in ``app.state.server``;
:func:`create_app` only assembles the routes, the middleware (:class:`~tajmahal.web.guard.Guard`,
then :class:`~tajmahal.web.rate_limits.RateLimits`) and that state.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from tajmahal.web import lobby, pages
from tajmahal.web.guard import Guard
from tajmahal.web.lobby import MAX_BODY_BYTES
from tajmahal.web.rate_limits import RateLimits
from tajmahal.web.responses import unavailable
from tajmahal.web.server import GameServer
from tajmahal.web.socket import game_socket
from tajmahal.web.stores.contract import StoreError

__all__ = ["MAX_BODY_BYTES", "create_app", "routes"]


def routes() -> list[BaseRoute]:
    """The server's routes (an application may add its own, as the arena does)."""
    return [
        Route("/", pages.lobby),
        Route("/how-to-play", pages.how_to_play),
        Route("/play/{token}", pages.seat_page),
        Route("/watch/{token}", pages.watch_page),
        Route("/record/{token}", pages.record),
        Route("/replay/{token}", pages.replay),
        Route("/analysis/{token}", pages.analysis),
        Route("/analysis/{token}/marks", pages.analysis_marks),
        Route("/api/bots", lobby.bots),
        Route("/api/limits", lobby.limits),
        Route("/api/health", lobby.health),
        Route("/api/games", lobby.games, methods=["GET"]),
        Route("/api/games", lobby.create, methods=["POST"]),
        WebSocketRoute("/ws/{token}", game_socket),
        Route("/static/favicon.svg", pages.icon),
        Route("/favicon.ico", pages.icon),  # pages without a link ask for it
        Mount("/static", StaticFiles(packages=[("tajmahal.web", "static")]), name="static"),
    ]


def create_app(server: GameServer) -> Starlette:
    """The web application for ``server`` (start it with any ASGI server, e.g. uvicorn).

    The application starts the server (resuming its games) when it starts,
    and stops it when it stops.
    """
    app = Starlette(
        routes=routes(),
        lifespan=_lifespan,
        exception_handlers={StoreError: unavailable},
        middleware=[
            Middleware(Guard, allowed_hosts=server.settings.allowed_hosts),
            Middleware(RateLimits, settings=server.settings),
        ],
    )
    app.state.server = server
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """The server starts (its games resumed) with the application, and stops with it."""
    server: GameServer = app.state.server
    await server.start()
    try:
        yield
    finally:
        await server.stop()
