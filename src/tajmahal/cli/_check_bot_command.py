"""``tajmahal check-bot SPEC``: the conformance kit for bot authors.

The checks are :func:`tajmahal.testing.check_bot`'s (handshake, answers, deterministic,
clean exit); this module parses the arguments and prints the report. The exit status is
0 only when every check passes (1 when one fails; 2 for a bad spec).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TextIO

from tajmahal.cli._common import Commands, add_command, positive_seconds
from tajmahal.testing.bot_checks import GameSummary, check_bot

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    command = add_command(
        commands,
        "check-bot",
        _run,
        summary="check that a bot program follows the protocol and the rules",
        description="Play a bot in a few games against random bots (on different seats and "
        "player counts) through the bot protocol, and report whether it completed the "
        "handshake, answered every request in time with a legal move, stayed deterministic "
        "under a fixed seed (if it says it is) and exited cleanly. Exit status 0 only when "
        "every check passes. The same checks from Python: tajmahal.testing.check_bot.",
    )
    command.add_argument("spec", metavar="PLAYER",
                         help="the bot: 'cmd:PROGRAM ARGS', 'file:PATH[:CLASS]' or a "
                         "registered bot's spec")
    command.add_argument("--seed", type=int, default=1,
                         help="the first game's seed (default 1); game N uses seed+N-1")
    command.add_argument("--time-limit", type=positive_seconds, default=5.0, metavar="S",
                         help="seconds the bot may take per decision (default 5)")
    command.add_argument("--start-timeout", type=positive_seconds, default=10.0, metavar="S",
                         help="seconds from start to the bot's 'ready' (default 10)")
    command.add_argument("--sandbox", action="store_true",
                         help="run the bot under bubblewrap (its own PID namespace, no network, "
                         "a read-only root; see docs/trust.md)")
    command.add_argument("--exit-timeout", type=positive_seconds, default=2.0, metavar="S",
                         help="seconds the bot has to exit after the result (default 2)")
    command.add_argument("--json", action="store_true",
                         help="print the checks as JSON (the games' lines go to standard error)")


def _run(args: argparse.Namespace) -> int:
    options = {
        "seed": args.seed, "time_limit": args.time_limit, "start_timeout": args.start_timeout,
        "exit_timeout": args.exit_timeout, "sandbox": args.sandbox,
    }  # fmt: skip
    if args.json:  # the games' lines go to standard error, the document alone to stdout
        report = check_bot(args.spec, progress=_printer(sys.stderr), **options)
        print(json.dumps(report.as_dict(), indent=1))
        return 0 if report.passed else 1
    print(f"Checking {args.spec}")
    report = check_bot(args.spec, progress=_printer(sys.stdout), **options)
    for check in report.checks:
        print(check)
    print(report.summary())
    return 0 if report.passed else 1


def _printer(stream: TextIO) -> Callable[[GameSummary], None]:
    def show(game: GameSummary) -> None:
        print(game, file=stream, flush=True)

    return show
