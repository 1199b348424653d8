"""Play in the browser: ``tajmahal serve`` (install ``tajmahal[web]``).

People and bots at one table, each person through a secret link to their
seat; live over WebSocket; every move committed to SQLite before it is
acknowledged, so a restarted server resumes every unfinished game.  A seat
receives only what its view holds (see :mod:`tajmahal.web.seat_messages`).

The pieces, for an application that embeds them:

- :class:`~tajmahal.web.stores.sqlite.SQLiteStore` (or any
  :class:`~tajmahal.web.stores.contract.GameStore`);
- :class:`~tajmahal.web.server.GameServer`: the games, without HTTP;
- :func:`~tajmahal.web.app.create_app`: a Starlette application in front of it;
- :func:`serve`: all three, run by uvicorn (what ``tajmahal serve`` does).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import threading
from typing import TYPE_CHECKING

import attrs

from tajmahal._extras import missing_extra

try:  # the extra 'web': without it, an ImportError that names it (uvicorn loads on use)
    import starlette  # noqa: F401

    if importlib.util.find_spec("uvicorn") is None:
        raise ModuleNotFoundError(name="uvicorn")
except ImportError as missing:
    raise missing_extra(__name__, ("web",), missing) from missing

from tajmahal.web.app import create_app
from tajmahal.web.arena import ArenaSettings
from tajmahal.web.config import ConfigError, GameConfig, SeatConfig, ServerSettings
from tajmahal.web.server import CreatedGame, GameServer
from tajmahal.web.stores import is_postgres_url, open_store
from tajmahal.web.stores.contract import GameStore, StoreError, default_db_path
from tajmahal.web.stores.sqlite import SQLiteStore

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = [
    "ArenaSettings",
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
    log_level: str = "info",
    arena: ArenaSettings | None = None,
) -> None:
    """Run the server until it is stopped (Ctrl-C or SIGTERM); ``port=0`` picks a free port.

    The address it listens on is printed (``listening on http://HOST:PORT``),
    and the host names it answers to: ``settings.allowed_hosts`` (loopback
    names by default) and ``host`` itself when it names one address.  ``db``
    is a SQLite file (one server process), or a ``postgresql://`` URL
    (``tajmahal[postgres]``; several server processes may share the database,
    see :mod:`tajmahal.web.cluster`).  It
    installs :class:`~tajmahal.web.guard.LogGuard` on the loggers it writes to
    (no seat token in any line, floods dropped) and configures no root logger:
    where the lines go is the application's choice (``tajmahal serve`` prints
    them).  ``arena``: also run the arena (:mod:`tajmahal.web.arena`), on a SQLite file.
    """
    import uvicorn

    from tajmahal.web._gc_pauses import keep_pauses_short
    from tajmahal.web.guard import guard_logs, guarded_http, host_name

    settings = settings or ServerSettings()
    named = host_name(host)
    if named not in ("0.0.0.0", "::", "") and named not in settings.allowed_hosts:
        settings = attrs.evolve(settings, allowed_hosts=(*settings.allowed_hosts, named))
    _more_files(settings.max_sockets + 200)
    game_server, where = _game_server(db if db is not None else default_db_path(), settings)
    app = create_app(game_server) if arena is None else _arena_app(game_server, db, arena)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_http(
            settings.max_sockets, settings.max_sockets_per_client, settings.header_timeout
        ),
        access_log=False,  # request paths hold the seats' secret tokens (redacted anyway)
        ws_max_size=2**20,  # larger WebSocket messages close the connection (1009)
        ws_per_message_deflate=False,  # compressing each board costs more CPU than it saves
        limit_concurrency=settings.max_sockets,  # requests being handled at once: 503 past it
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,  # the largest request head
        log_level=log_level,  # uvicorn's loggers (``trace`` is the most it says)
        lifespan="on",
    )
    guard_logs()  # after uvicorn's Config has set up its loggers
    server = uvicorn.Server(config)
    if announce:
        _announce_when_started(server, where, settings, named in ("0.0.0.0", "::", ""))
    stop = threading.Event()
    collector = keep_pauses_short(stop)  # no long pause of the garbage collector
    try:
        server.run()
    finally:
        stop.set()
        collector.join()


def _game_server(
    db: str | os.PathLike[str], settings: ServerSettings
) -> tuple[GameServer, str]:
    """A SQLite file's server (one process), or a cluster's on PostgreSQL; where its games are."""
    if not is_postgres_url(db):
        store = open_store(db, exclusive=True)
        return GameServer(store, settings), store.path
    try:
        from tajmahal.web.cluster import ClusterServer
    except ImportError as exc:
        raise StoreError(
            "a postgresql:// database needs psycopg 3: pip install 'tajmahal[postgres]'"
        ) from exc
    server = ClusterServer(str(db), settings)
    return server, server.cluster.store.path


def _arena_app(
    server: GameServer, db: str | os.PathLike[str] | None, settings: ArenaSettings
) -> Starlette:
    """The application with the arena (its tables in the server's SQLite file)."""
    from tajmahal.arena import ArenaError, ArenaStore
    from tajmahal.web.arena import Arena, arena_app

    if db is not None and is_postgres_url(db):
        raise StoreError("the arena runs on a SQLite database for now, not on PostgreSQL")
    try:
        store = ArenaStore(db if db is not None else default_db_path())
    except ArenaError as exc:
        raise StoreError(str(exc)) from None
    return arena_app(server, Arena(server, store, settings))


def _more_files(wanted: int) -> None:
    """Raise the soft limit on open files towards ``wanted`` (within the hard limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))


def _announce_when_started(
    server: object, db: str, settings: ServerSettings, everywhere: bool
) -> None:
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
        names = ", ".join(f"[{n}]" if ":" in n else n for n in settings.allowed_hosts)
        print(f"tajmahal: answering to the host names {names}", flush=True)
        if everywhere:
            print(
                "tajmahal: other machines reach this one only by a name given with "
                "--allowed-host NAME (this machine's LAN address or name)",
                flush=True,
            )

    server.startup = announcing  # type: ignore[method-assign]
