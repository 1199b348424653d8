"""``tajmahal new-bot NAME [DIR]``: write a bot plugin package to start from."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from tajmahal.bots.scaffold import ScaffoldError, class_name, scaffold_bot
from tajmahal.cli._common import Commands, UsageError, add_command

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    command = add_command(
        commands,
        "new-bot",
        _run,
        summary="write a bot plugin package to start from",
        description="Write a bot plugin package into DIR (default ./NAME): pyproject.toml with "
        "the entry point tajmahal finds the bot through, a typed bot class, tests that use "
        "tajmahal.testing (the checks of check-bot), a README with the commands from here to "
        "a tournament, and a GitHub Actions workflow. Its tests, ruff and mypy --strict pass "
        "as written. NAME is the bot's name and its module's: a lowercase Python identifier "
        "that no installed bot or module has.",
    )
    command.add_argument("name", metavar="NAME", help="the bot's name, e.g. mybot")
    command.add_argument("folder", metavar="DIR", nargs="?",
                         help="where to write the package: a new or empty folder "
                         "(default: ./NAME)")  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    try:
        written = scaffold_bot(args.name, args.folder)
    except ScaffoldError as exc:
        raise UsageError(str(exc)) from None
    root = Path(args.folder) if args.folder is not None else Path(args.name)
    print(f"Wrote the bot {args.name!r} ({class_name(args.name)}) into {root}/:")
    for path in written:
        print(f"  {path.relative_to(root)}")
    shown = str(root) if root.is_absolute() else f"./{root}"
    name, where = args.name, shlex.quote(f"{shown}[dev]")
    print(
        "\nNext:\n"
        f"  pip install -e {where}\n"
        f"  pytest {shlex.quote(str(root))}\n"
        f"  tajmahal check-bot {name}\n"
        f"  tajmahal tournament {name} greedy random --games 6"
    )
    return 0
