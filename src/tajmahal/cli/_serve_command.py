"""``tajmahal serve``: play in the browser, people and bots at one table (``tajmahal[web]``)."""

from __future__ import annotations

import argparse

from tajmahal.cli._common import CommandError, Commands, UsageError, add_command

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    serve = add_command(
        commands,
        "serve",
        _run,
        summary="play in the browser (needs tajmahal[web])",
        description="Serve the lobby and the game pages: create a game with 3 to 5 seats, people "
        "or bots, and give each person their seat's secret link. Games are kept in an SQLite "
        "file; a restarted server resumes every unfinished game.",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (0.0.0.0: the whole home network; "
                       "default 127.0.0.1, this machine only)")  # fmt: skip
    serve.add_argument("--port", type=int, default=8000, help="the port (0: any free port)")
    serve.add_argument("--db", metavar="FILE|URL",
                       help="the game database: an SQLite file (default: games.sqlite3 in your "
                       "data folder), a postgresql:// URL or libpq's 'host=... dbname=...' "
                       "pairs (needs tajmahal[postgres]; the password is never printed)")
    serve.add_argument("--allow-commands", action="store_true",
                       help="allow 'cmd:' and 'file:' bots (they run programs, or a Python "
                       "file's code, on this machine)")
    serve.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                       help="a host name or address the server answers to besides this "
                       "machine's loopback names (this machine's LAN name or address, with "
                       "--host 0.0.0.0); repeatable")
    serve.add_argument("--isolate", action="store_true",
                       help="run every bot in a process of its own")
    serve.add_argument("--sandbox", action="store_true",
                       help="run programs and isolated bots under bubblewrap (no network, "
                       "read-only files, the game database out of reach)")
    serve.add_argument("--idle-expiry", type=float, default=7 * 24 * 3600.0, metavar="SECONDS",
                       help="an unfinished game without a move for this long is deleted "
                       "(default a week)")
    serve.add_argument("--open-games-per-client", type=int, default=20, metavar="N",
                       help="unfinished games one client address may have (default 20)")
    serve.add_argument("--max-iterations", type=int, default=10_000, metavar="N",
                       help="the most search iterations per decision a lobby's bot may ask, "
                       "counting what focus, extend, depth and inner cost (default 10000); a "
                       "bot's time budget must fit the game's move limit")
    serve.add_argument("--allow-search-processes", action="store_true",
                       help="let a lobby's bot start search processes of its own (ismcts "
                       "jobs > 1) inside the server")
    serve.add_argument("--connections-per-address", type=int, default=100, metavar="N",
                       help="open HTTP connections one address may hold (default 100; behind a "
                       "reverse proxy every connection comes from the proxy: raise it)")
    serve.add_argument("--log-level", choices=("warning", "info", "debug", "trace"),
                       default="info", help="how much the server logs (default info); no "
                       "level shows a seat's secret link")
    serve.add_argument("--games-per-minute", type=int, default=30, metavar="N",
                       help="new games one client address may create per minute (default 30)")
    serve.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS",
                       help="a bot's time per decision when the game sets none (default 10)")
    serve.add_argument("--lease-ttl", type=float, default=5.0, metavar="SECONDS",
                       help="with a postgresql:// database, how long a process's hold on a "
                       "game lasts unrenewed: another process takes a dead one's games over "
                       "a little after (default 5)")
    serve.add_argument("--bot-workers", type=int, default=0, metavar="N",
                       help="worker processes for the bots (default 0: one per core)")
    serve.add_argument("--arena", action="store_true",
                       help="run the arena: rated games among the bot accounts of "
                       "'tajmahal arena' (house bots, and remote bots while connected)")
    serve.add_argument("--arena-games", type=int, default=4, metavar="N",
                       help="arena games played at once (default 4; with a postgresql:// "
                       "database, in the whole cluster)")
    serve.add_argument("--arena-rated-challenges", action="store_true",
                       help="with --arena: people's challenges of the arena's bots are rated "
                       "(the bot's rating moves; people play as newcomers, not kept)")


def _run(args: argparse.Namespace) -> int:
    try:
        from tajmahal.web import ServerSettings, serve
    except ImportError as exc:
        raise CommandError(
            f"'tajmahal serve' needs the web extra: pip install 'tajmahal[web]', "
            f"from a checkout pip install -e '.[web]' ({exc})"
        ) from None
    from tajmahal.referee.seats import check_seconds

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, got {args.port}")
    limit = check_seconds(args.time_limit, "--time-limit")
    assert limit is not None
    for name in ("open_games_per_client", "max_iterations", "connections_per_address"):
        if getattr(args, name) < 1:
            option = "--" + name.replace("_", "-")
            raise UsageError(f"{option} must be at least 1, got {getattr(args, name)}")
    if not 0 < args.idle_expiry <= 366 * 24 * 3600:  # NaN fails too
        raise UsageError(f"--idle-expiry is 0 to 31622400 seconds, got {args.idle_expiry}")
    if args.games_per_minute < 1:
        raise UsageError(f"--games-per-minute must be at least 1, got {args.games_per_minute}")
    import logging

    from tajmahal.web.guard import LOCAL_HOSTS, host_name

    hosts = list(LOCAL_HOSTS)
    for name in args.allowed_host:
        shown = host_name(name)
        if not shown or any(c in shown for c in "/ ,*"):
            raise UsageError(f"--allowed-host takes a host name or an address, got {name!r}")
        hosts.append(shown)
    if args.sandbox:
        from tajmahal.protocol import SandboxError, check_sandbox

        try:
            check_sandbox()
        except SandboxError as exc:
            raise CommandError(f"--sandbox: {exc}") from None
    level = {"trace": 5, "debug": logging.DEBUG, "info": logging.INFO}.get(args.log_level)
    logging.basicConfig(level=level or logging.WARNING,
                        format="%(asctime)s %(name)s: %(message)s")  # fmt: skip
    if not 0.5 <= args.lease_ttl <= 600:  # NaN fails too
        raise UsageError(f"--lease-ttl is 0.5 to 600 seconds, got {args.lease_ttl}")
    if args.bot_workers < 0:
        raise UsageError(f"--bot-workers must be 0 (one per core) or more: {args.bot_workers}")
    settings = ServerSettings(
        bot_workers=args.bot_workers,
        lease_ttl=args.lease_ttl,
        allow_commands=args.allow_commands,
        isolate=args.isolate,
        sandbox=args.sandbox,
        allowed_hosts=tuple(dict.fromkeys(hosts)),
        default_time_limit=limit,
        games_per_minute=args.games_per_minute,
        idle_expiry=args.idle_expiry,
        open_games_per_client=args.open_games_per_client,
        max_iterations=args.max_iterations,
        max_sockets_per_client=args.connections_per_address,
        allow_search_processes=args.allow_search_processes,
    )
    arena = None
    if args.arena:
        from tajmahal.web import ArenaSettings

        if not 1 <= args.arena_games <= 1000:
            raise CommandError(f"--arena-games is 1 to 1000, got {args.arena_games}")
        arena = ArenaSettings(games=args.arena_games, time_limit=limit,
                              rated_challenges=args.arena_rated_challenges)  # fmt: skip
    elif args.arena_rated_challenges:
        raise UsageError("--arena-rated-challenges goes with --arena")
    serve(args.host, args.port, args.db, settings, log_level=args.log_level, arena=arena)
    return 0
