"""``tajmahal arena ...`` (the arena's bot accounts) and ``tajmahal bot connect`` (play in one)."""

from __future__ import annotations

import argparse
import os
import sys
import time

from tajmahal.cli._common import CommandError, Commands, add_command

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    """Both commands: ``arena`` and ``bot``."""
    _register_arena(commands)
    _register_bot(commands)


def _register_arena(commands: Commands[argparse.ArgumentParser]) -> None:
    arena = add_command(
        commands,
        "arena",
        _run_arena,
        summary="the arena's bot accounts (for 'tajmahal serve --arena')",
        description="Manage the bot accounts of a server's arena, kept in its game database. "
        "A remote bot's account has a token (shown once, or written to --token-file; only a "
        "digest is kept); a house bot is an installed bot the server plays itself.",
    )
    actions = arena.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add-bot", help="create an account (prints its token once)",
                             description="Create a bot account. Without --house it is a remote "
                             "bot: its token is printed once (or written to --token-file); give "
                             "it to 'tajmahal bot connect'.")  # fmt: skip
    add.add_argument("name", help="the account's name: letters, digits, '_', '.', '-'")
    add.add_argument("--house", metavar="SPEC",
                     help="a house bot: an installed bot the server plays (never cmd: or file:)")
    add.add_argument("--max-games", type=int, default=4, metavar="N",
                     help="games it plays at once, at most (default 4)")
    add.add_argument("--token-file", metavar="FILE",
                     help="write the token to FILE (readable by you only) instead of printing it")
    listing = actions.add_parser("list", help="list the accounts, the best rating first")
    remove = actions.add_parser("remove", help="delete an account and its rating history")
    remove.add_argument("name")
    rotate = actions.add_parser("rotate-token", help="a new token for a remote bot (the old "
                                "one stops working)")  # fmt: skip
    rotate.add_argument("name")
    rotate.add_argument("--token-file", metavar="FILE", help="write the token to FILE")
    for parser in (add, listing, remove, rotate):
        parser.add_argument("--db", metavar="FILE",
                            help="the server's game database (default: games.sqlite3 in your "
                            "data folder)")  # fmt: skip


def _register_bot(commands: Commands[argparse.ArgumentParser]) -> None:
    bot = add_command(
        commands,
        "bot",
        _run_bot,
        summary="play a local bot in a server's arena",
        description="Play in the arena of a 'tajmahal serve --arena' server as one bot account: "
        "your bot runs on this machine, only its moves travel.",
    )
    actions = bot.add_subparsers(dest="action", metavar="ACTION", required=True)
    connect = actions.add_parser(
        "connect", help="play N games as the account of --token-file",
        description="Connect to the server's arena with the token in --token-file and play its "
        "games with the bot SPEC (an installed bot, file:, cmd:), reconnecting by itself "
        "after a restart of the server or a dropped network, until N games are over.",
    )
    connect.add_argument("url", help="the server's address, e.g. http://localhost:8000")
    connect.add_argument("spec", help="the bot that plays: a player spec")
    connect.add_argument("--token-file", required=True, metavar="FILE",
                         help="the file holding the account's token")
    connect.add_argument("--games", type=int, default=10, metavar="N",
                         help="the games to play before it exits (default 10)")
    connect.add_argument("--concurrency", type=int, default=1, metavar="K",
                         help="games played at once (default 1)")


def _store(db: str | None) -> object:
    from tajmahal.arena import ArenaStore
    from tajmahal.web.stores.contract import default_db_path

    if db is not None and db.lower().startswith(("postgresql://", "postgres://")):
        raise CommandError("the arena's accounts are kept in a SQLite file for now")
    return ArenaStore(db if db is not None else default_db_path())


def _write_token(path: str, token: str) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    os.chmod(path, 0o600)


def _run_arena(args: argparse.Namespace) -> int:
    from tajmahal.arena import ArenaStore

    store = _store(args.db)
    assert isinstance(store, ArenaStore)
    try:
        if args.action == "add-bot":
            token = store.add_bot(args.name, args.house, args.max_games)
            if token is None:
                print(f"added the house bot {args.name} ({args.house})")
            elif args.token_file:
                _write_token(args.token_file, token)
                print(f"added the bot {args.name}; its token is in {args.token_file}")
            else:
                print(f"added the bot {args.name}; its token (shown only this once):")
                print(token)
        elif args.action == "rotate-token":
            token = store.rotate_token(args.name)
            if args.token_file:
                _write_token(args.token_file, token)
                print(f"a new token for {args.name} is in {args.token_file}")
            else:
                print(f"a new token for {args.name} (shown only this once; the old one no "
                      "longer works):")  # fmt: skip
                print(token)
        elif args.action == "remove":
            store.remove_bot(args.name)
            print(f"removed the bot {args.name}")
        else:
            _print_table(store)
    finally:
        store.close()
    return 0


def _print_table(store: object) -> None:
    from tajmahal.arena import ArenaStore

    assert isinstance(store, ArenaStore)
    rows = [("#", "BOT", "RATING", "MU", "SIGMA", "GAMES", "KIND", "LAST SEEN")]
    for place, bot in enumerate(store.bots(), 1):
        seen = "-" if bot.last_seen is None else time.strftime(
            "%Y-%m-%d %H:%M", time.gmtime(bot.last_seen))  # fmt: skip
        kind = f"house {bot.house}" if bot.house else "remote"
        rows.append((str(place), bot.name, f"{bot.rating:.2f}", f"{bot.mu:.2f}",
                     f"{bot.sigma:.2f}", str(bot.games), kind, seen))  # fmt: skip
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
              .rstrip())  # fmt: skip


def _run_bot(args: argparse.Namespace) -> int:
    import asyncio

    try:
        import websockets  # noqa: F401
    except ImportError:
        raise CommandError("'tajmahal bot connect' needs the web extra: "
                           "pip install 'tajmahal[web]'") from None  # fmt: skip
    from tajmahal.arena.client import play_in_arena, read_token_file, warn_if_shared
    from tajmahal.bots.specs import check_spec

    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    if not 1 <= args.concurrency <= 64:
        raise CommandError(f"--concurrency is 1 to 64, got {args.concurrency}")
    token = read_token_file(args.token_file)
    warn_if_shared(args.token_file, lambda line: print(line, file=sys.stderr))
    spec = check_spec(args.spec)
    if spec.is_command:
        from tajmahal.protocol import check_command

        check_command(spec)

    def say(line: str) -> None:
        print(line, flush=True)

    played = asyncio.run(play_in_arena(args.url, token, spec, args.games, args.concurrency, say))
    print(f"played {played} games", flush=True)
    return 0
