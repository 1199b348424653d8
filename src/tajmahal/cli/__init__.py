"""The command line: ``tajmahal COMMAND ...``, also ``python -m tajmahal COMMAND ...``.

The commands: ``bots``, ``match``, ``replay``, ``check-bot``, ``play``, ``render``,
``tournament``, ``analyse``, ``serve``, ``arena``, ``bot``.

Each sub-command lives in its own module with a ``register(commands)``
function that adds its parser; ``COMMANDS`` lists them in the order
``--help`` shows.  Errors a user can cause (an unknown bot, an unreadable
record) print one line to stderr and exit with status 1; usage errors exit
with status 2 (argparse).  Everything a command prints goes through
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
from tajmahal.cli import (
    _analyse_command,
    _arena_command,
    _bots_command,
    _check_bot_command,
    _match_command,
    _play_command,
    _render_command,
    _serve_command,
    _tournament_command,
)
from tajmahal.cli._account import account
from tajmahal.cli._common import CommandError
from tajmahal.cli._terminal import escaped_output
from tajmahal.rules.errors import TajMahalError

__all__ = ["COMMANDS", "CommandError", "account", "build_parser", "main"]

COMMANDS = (
    _bots_command, _match_command, _check_bot_command, _play_command, _render_command,
    _tournament_command, _analyse_command, _serve_command, _arena_command,
)


def build_parser() -> argparse.ArgumentParser:
    """The ``tajmahal`` argument parser, one sub-command per job.

    >>> build_parser().parse_args(['match', 'greedy', 'random', 'random', '--seed', '7']).seed
    7
    """
    parser = argparse.ArgumentParser(
        prog="tajmahal",
        description="Rules engine, bots and referee for Reiner Knizia's Taj Mahal.",
    )
    parser.add_argument(
        "--version", action="version", version=f"tajmahal {__version__}", help="show the version"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 on success).

    >>> main(['bots']) == 0  # doctest: +ELLIPSIS
    NAME ...
    True
    """
    with escaped_output():  # whatever a command prints: names, files, faults, bot stderr
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
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
