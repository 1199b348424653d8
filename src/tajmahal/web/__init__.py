"""Play in the browser: ``tajmahal serve`` (install ``tajmahal[web]``).

People and bots at one table, each person through a secret link to their
seat; live over WebSocket; every move committed to SQLite before it is
acknowledged, so a restarted server resumes every unfinished game.  A seat
receives only what its view holds (see :mod:`tajmahal.web.frames`).

The pieces, for an application that embeds them:

- :class:`~tajmahal.web.store.SQLiteStore` (or any :class:`~tajmahal.web.store.GameStore`);
- :class:`~tajmahal.web.server.GameServer`: the games, without HTTP;
- :func:`~tajmahal.web.app.create_app`: a Starlette application in front of it;
- :func:`serve`: all three, run by uvicorn (what ``tajmahal serve`` does).
"""

from __future__ import annotations

import logging
import os

from tajmahal.web.app import create_app
from tajmahal.web.config import ConfigError, GameConfig, SeatConfig, ServerSettings
from tajmahal.web.server import CreatedGame, GameServer
from tajmahal.web.store import GameStore, SQLiteStore, StoreError, default_db_path
from tajmahal.web.stores import open_store

__all__ = [
    "ConfigError",
    "CreatedGame",
    "GameConfig",
    "GameServer",
    "GameStore",
    "SQLiteStore",
    "SeatConfig",
    "ServerSettings",
    "StoreError",
    "create_app",
    "default_db_path",
    "serve",
]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | os.PathLike[str] | None = None,
    settings: ServerSettings | None = None,
    *,
    announce: bool = True,
) -> None:
    """Run the server until it is stopped (Ctrl-C or SIGTERM); ``port=0`` picks a free port.

    The address it listens on is printed (``listening on http://HOST:PORT``). ``db`` is a
    SQLite file, or a ``postgresql://`` URL (``tajmahal[postgres]``; one process per
    database until the server integration of issue 39).
    """
    import uvicorn

    store = open_store(db if db is not None else default_db_path(), exclusive=True)
    app = create_app(GameServer(store, settings))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        access_log=False,  # request paths hold the seats' secret tokens
        ws_max_size=2**20,  # larger WebSocket messages close the connection (1009)
        ws_per_message_deflate=False,  # compressing each board costs more CPU than it saves
        log_level="info",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    if announce:
        _announce_when_started(server, store.path)
    server.run()


def _announce_when_started(server: object, db: str) -> None:
    """Print the address once uvicorn has bound its socket (so ``port=0`` is told too)."""
    import uvicorn

    assert isinstance(server, uvicorn.Server)
    startup = server.startup

    async def announcing(sockets: object = None) -> None:
        await startup(sockets=sockets)  # type: ignore[arg-type]
        for bound in server.servers:
            for sock in bound.sockets:
                host, port = sock.getsockname()[:2]
                shown = f"[{host}]" if ":" in host else host
                print(f"tajmahal: listening on http://{shown}:{port} (games in {db})", flush=True)

    server.startup = announcing  # type: ignore[method-assign]
