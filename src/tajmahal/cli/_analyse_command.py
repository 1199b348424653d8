"""``tajmahal analyse``: rate each decision of a recorded game by a search from the seat's view."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from tajmahal.analysis import DEFAULT_ITERATIONS, MISTAKE, analyse_game
from tajmahal.cli._common import (
    Commands,
    UsageError,
    add_command,
    messages_stream,
    read_record,
    write_text,
)

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    command = add_command(
        commands,
        "analyse",
        _run,
        summary="rate every decision of a recorded game, mark the mistakes",
        description="Rate every decision of a seat in a recorded game: an ISMCTS search from "
        "what the seat knew then rates each legal move (a 0-100% estimate of beating the best "
        "rival); a move far below the best is a mistake. Prints each seat's losses and worst "
        "decisions. The same record, options and seed give the same analysis.",
    )
    command.add_argument("record", metavar="RECORD",
                         help="a game record (match --record FILE; '-': standard input)")
    # fmt: off
    command.add_argument("--seat", type=int, action="append", metavar="N",
                         help="a seat to analyse (repeat for several; default: every seat)")
    command.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, metavar="K",
                         help=f"searches per decision (default {DEFAULT_ITERATIONS})")
    command.add_argument("--jobs", type=int, default=1, metavar="J",
                         help="worker processes (default 1; the result does not depend on it)")
    command.add_argument("--seed", type=int, default=0, help="the searches' seed (default 0)")
    command.add_argument("--threshold", type=float, default=MISTAKE, metavar="T",
                         help=f"a loss (0..1) that marks a mistake (default {MISTAKE})")
    command.add_argument("--json", action="store_true", help="print the analysis as JSON")
    command.add_argument("--out", metavar="FILE",
                         help="save the analysis (JSON) to FILE, e.g. RECORD.analysis.json "
                         "('-': standard output)")
    command.add_argument("--html", metavar="PAGE",
                         help="write the replay page with the analysis strip to PAGE "
                         "('-': standard output)")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    # fmt: on


def _run(args: argparse.Namespace) -> int:
    messages = messages_stream(args.out, args.html, "-" if args.json else None)
    record = read_record(args.record)
    if args.iterations < 1:
        raise UsageError(f"--iterations must be at least 1, got {args.iterations}")
    stderr = Console(stderr=True)
    with Progress(
        TextColumn("decisions"), BarColumn(), MofNCompleteColumn(), TextColumn("left"),
        TimeRemainingColumn(), console=stderr, disable=args.quiet or not stderr.is_terminal,
        transient=True,
    ) as progress:  # fmt: skip
        task = progress.add_task("decisions", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        review = analyse_game(
            record, seats=args.seat, iterations=args.iterations, seed=args.seed,
            jobs=args.jobs, threshold=args.threshold, progress=advance,
        )  # fmt: skip
    document = review.as_dict()
    if args.out is not None:
        write_text(args.out, json.dumps(document, indent=1) + "\n")
    if args.html is not None:
        from tajmahal.render.viewer import replay_html

        write_text(args.html, replay_html(record, analysis=review))
    if args.json:
        print(json.dumps(document, indent=1))
    else:
        print("\n".join(review.lines()), file=messages)
        for path in (args.out, args.html):
            if path is not None:
                print(f"wrote {Path(path)}", file=messages)
    return 0
