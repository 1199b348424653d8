"""The command line: ``tajmahal COMMAND ...``, also ``python -m tajmahal COMMAND ...``.

The commands: ``bots``, ``plugins``, ``match``, ``replay``, ``check-bot``, ``new-bot``,
``play``, ``render``, ``tournament``, ``analyse``, ``serve``.

Each sub-command lives in its own module with a ``register(commands)``
function that adds its parser; ``COMMANDS`` lists them in the order
``--help`` shows, and ``EXAMPLES`` holds the examples each ``--help`` ends with.

The exit status (``EXIT_STATUSES``, :doc:`/reference/cli`): 0 success; 1 a failed
check, game or file (an unreadable record, a bot program that cannot start); 2 a usage
error: argparse's (an unknown command or option, a bad value), a bad player spec
(:class:`~tajmahal.bots.SpecError`), options that do not go together (``UsageError``),
or no command at all (the help is printed to standard error); 130 interrupted (Ctrl-C).
An error prints one line to standard error.  Everything a command prints goes through
``tajmahal.cli._terminal.printable``: text from outside (names, files,
fault details, bot stderr) cannot move the cursor, retitle the window or
reorder a line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from tajmahal import __version__
from tajmahal.bots.specs import SpecError
from tajmahal.cli import (
    _analyse_command,
    _bots_command,
    _check_bot_command,
    _match_command,
    _new_bot_command,
    _play_command,
    _plugins_command,
    _render_command,
    _serve_command,
    _tournament_command,
)
from tajmahal.cli._account import account
from tajmahal.cli._common import CommandError, UsageError
from tajmahal.cli._terminal import escaped_output
from tajmahal.rules.errors import TajMahalError

__all__ = [
    "COMMANDS", "EXAMPLES", "EXIT_STATUSES", "CommandError", "UsageError", "account",
    "build_parser", "main",
]  # fmt: skip

COMMANDS = (
    _bots_command, _plugins_command, _match_command, _check_bot_command, _new_bot_command,
    _play_command, _render_command, _tournament_command, _analyse_command, _serve_command,
)

#: each command's examples, shown at the end of its ``--help``
EXAMPLES = {
    "bots": ("tajmahal bots", "tajmahal bots --json"),
    "plugins": ("tajmahal plugins", "tajmahal plugins --all --json"),
    "match": (
        "tajmahal match greedy random random --seed 7",
        "tajmahal match ismcts:iterations=400 greedy random --record game.json --quiet",
        'tajmahal match "cmd:node bot.js" greedy random --isolate --bot-logs logs/',
    ),
    "replay": ("tajmahal replay game.json", "tajmahal replay game.json --html game.html"),
    "check-bot": (
        "tajmahal check-bot mybot",
        'tajmahal check-bot "cmd:python3 -m tajmahal.examples.palace_lover" --json',
        "tajmahal check-bot file:mine.py:MyBot --time-limit 2",
    ),
    "new-bot": ("tajmahal new-bot mybot", "tajmahal new-bot cautious_bot projects/cautious"),
    "play": ("tajmahal play greedy random", "tajmahal play ismcts random random --seat 2"),
    "render": (
        "tajmahal render --out board.svg --seed 7",
        "tajmahal render --record game.json --visit 6 --out visit6.svg",
    ),
    "tournament": (
        "tajmahal tournament mybot greedy random --games 6",
        "tajmahal tournament ismcts greedy random --games 300 --jobs 2 --out results.jsonl",
        "tajmahal tournament --summary results.jsonl",
    ),
    "analyse": (
        "tajmahal analyse game.json --seat 0",
        "tajmahal analyse game.json --seat 1 --html analysis.html",
    ),
    "serve": (
        "tajmahal serve",
        "tajmahal serve --host 0.0.0.0 --allowed-host games.example.org --port 8080",
    ),
}

#: the exit statuses of every command, as ``tajmahal --help`` and docs/reference/cli.md list them
EXIT_STATUSES = (
    (0, "success"),
    (1, "a failed check or game; a file or program that cannot be used"),
    (2, "a usage error: a bad command, option, value or player spec; no command"),
    (130, "interrupted (Ctrl-C)"),
)


def build_parser() -> argparse.ArgumentParser:
    """The ``tajmahal`` argument parser, one sub-command per job.

    >>> build_parser().parse_args(['match', 'greedy', 'random', 'random', '--seed', '7']).seed
    7
    """
    statuses = "".join(f"\n  {code:<4} {meaning}" for code, meaning in EXIT_STATUSES)
    parser = argparse.ArgumentParser(
        prog="tajmahal",
        description="Rules engine, bots and referee for Reiner Knizia's Taj Mahal.",
        epilog="examples:\n  tajmahal match greedy random random --seed 7\n"
        "  tajmahal new-bot mybot\n  tajmahal COMMAND --help\n\n"
        f"exit status:{statuses}",
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"tajmahal {__version__}", help="show the version"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(commands)
    for name, command in commands.choices.items():
        command.formatter_class = HelpFormatter
        command.epilog = "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[name])
    return parser


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, but an epilog's lines (examples, the exit statuses) are kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" not in text:  # a description: one paragraph, wrapped
            return super()._fill_text(text, width, indent)
        return "".join(indent + line for line in text.splitlines(keepends=True))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 on success).

    >>> main(['bots']) == 0  # doctest: +ELLIPSIS
    NAME ...
    True
    """
    with escaped_output():  # whatever a command prints: names, files, faults, bot stderr
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # ``tajmahal`` alone: the help, as a usage error
        parser.print_help(sys.stderr)
        return 2
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (SpecError, UsageError) as exc:  # the command line was wrong
        print(f"tajmahal: error: {exc}", file=sys.stderr)
        return 2
    except TajMahalError as exc:
        print(f"tajmahal: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``tajmahal match ... | head``)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit flush does not fail again
        return 1
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tajmahal: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tajmahal: interrupted", file=sys.stderr)
        return 130
    except (RecursionError, MemoryError) as exc:
        what = type(exc).__name__
        print(f"tajmahal: error: input too large or nested too deeply ({what})", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: one line, not a traceback
        text = str(exc)[:300]
        print(
            f"tajmahal: internal error: {type(exc).__name__}: {text} (please report it)",
            file=sys.stderr,
        )
        return 1
