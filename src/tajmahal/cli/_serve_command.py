"""``tajmahal serve``: play in the browser, people and bots at one table (``tajmahal[web]``)."""

from __future__ import annotations

import argparse

from tajmahal.cli._common import CommandError, Commands, add_command

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
                       "data folder) or a postgresql:// URL (needs tajmahal[postgres])")
    serve.add_argument("--allow-commands", action="store_true",
                       help="allow 'cmd:' and 'file:' bots (they run programs, or a Python "
                       "file's code, on this machine)")
    serve.add_argument("--isolate", action="store_true",
                       help="run every bot in a process of its own")
    serve.add_argument("--games-per-minute", type=int, default=30, metavar="N",
                       help="new games one client address may create per minute (default 30)")
    serve.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS",
                       help="a bot's time per decision when the game sets none (default 10)")
    serve.add_argument("--bot-workers", type=int, default=0, metavar="N",
                       help="worker processes for the bots (default 0: one per core)")


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
        raise CommandError(f"--port must be 0 to 65535, got {args.port}")
    limit = check_seconds(args.time_limit, "--time-limit")
    assert limit is not None
    if args.games_per_minute < 1:
        raise CommandError(f"--games-per-minute must be at least 1, got {args.games_per_minute}")
    if args.bot_workers < 0:
        raise CommandError(f"--bot-workers must be 0 (one per core) or more: {args.bot_workers}")
    settings = ServerSettings(
        bot_workers=args.bot_workers,
        allow_commands=args.allow_commands,
        isolate=args.isolate,
        default_time_limit=limit,
        games_per_minute=args.games_per_minute,
    )
    serve(args.host, args.port, args.db, settings)
    return 0
