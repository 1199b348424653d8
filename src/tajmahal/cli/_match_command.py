"""``tajmahal match`` and ``tajmahal replay``: play a match, or retell a recorded one."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any, TextIO

from tajmahal.cli._account import account, ranking_line, scores_line, who, winners_line
from tajmahal.cli._common import (
    Commands,
    UsageError,
    add_command,
    add_components_option,
    add_quiet_option,
    components_from,
    messages_stream,
    positive_seconds,
    read_record,
    read_text,
    write_record,
    write_text,
)
from tajmahal.faults import Fault
from tajmahal.protocol import ProcessLimits
from tajmahal.referee.match import MatchResult, play_match
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    match = add_command(
        commands,
        "match",
        _run_match,
        summary="play a match between bots",
        description="Play one game between 3 to 5 bots, seat 0 first, and print visit by visit "
        "who won which prize and the points, then the final scores and the winners.",
    )
    match.add_argument(
        "bots",
        nargs="+",
        metavar="PLAYER",
        help="a player spec per seat (3 to 5): NAME[:KEY=VALUE,...], 'cmd:PROGRAM ARGS' or "
        "'file:PATH[:CLASS][:KEY=VALUE,...]'",
    )
    match.add_argument(
        "--seed",
        type=int,
        help="the game's seed (default: an unguessable one from the operating system, printed)",
    )
    match.add_argument(
        "--record",
        metavar="FILE",
        help="write the game record (JSON) to FILE ('-': standard output, the account then "
        "goes to standard error)",
    )
    match.add_argument(
        "--json",
        action="store_true",
        help="print the result as JSON (seed, players, scores, winners, ranking, faults) "
        "instead of the account",
    )
    match.add_argument(
        "--time-limit",
        type=positive_seconds,
        metavar="S",
        help="seconds a bot may take per decision; slower decisions are faults",
    )
    match.add_argument(
        "--isolate",
        action="store_true",
        help="run each bot given by name in its own process (through the bot protocol)",
    )
    match.add_argument(
        "--sandbox",
        action="store_true",
        help="run each bot as a program under bubblewrap (its own PID namespace, no network, "
        "a read-only root; implies --isolate; see docs/trust.md)",
    )
    match.add_argument(
        "--bot-logs", metavar="DIR", help="write each bot program's stderr to a file in DIR"
    )
    add_quiet_option(match)
    add_components_option(match)

    replay = add_command(
        commands,
        "replay",
        _run_replay,
        summary="print the account of a recorded game",
        description="Replay a game record written by 'tajmahal match --record' and print the "
        "same visit-by-visit account.",
    )
    replay.add_argument("file", metavar="FILE", help="a game record (JSON; '-': standard input)")
    add_quiet_option(replay)
    replay.add_argument(
        "--html",
        metavar="OUT.html",
        help="also write a page that steps through the game in a browser (no network "
        "needed; '-': standard output, the account then goes to standard error)",
    )
    replay.add_argument(
        "--analysis",
        metavar="FILE",
        help="with --html: draw this saved analysis of the game on the page "
        "(tajmahal analyse RECORD --out FILE)",
    )


_RESULT_LINES = ("Final scores:", "Winner", "The record stops")


def _run_match(args: argparse.Namespace) -> int:
    bots: list[str] = args.bots
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise UsageError(
            f"a match needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, got {len(bots)}: {' '.join(bots)}"
        )
    messages = messages_stream(args.record, "-" if args.json else None)
    components = components_from(args.components)
    limits = ProcessLimits(log_dir=args.bot_logs)
    result = play_match(
        bots,
        seed=args.seed,
        time_limit=args.time_limit,
        components=components,
        isolate=args.isolate,
        process_limits=limits,
        sandbox=args.sandbox,
    )
    if args.record is not None:
        write_record(args.record, result.record)
    if args.json:
        print(json.dumps(result_document(result), indent=1))
        return 0
    seats = ", ".join(who(s, result.players) for s in range(len(bots)))
    print(f"Match, seed {result.record.seed}: {seats}", file=messages)
    if not args.quiet:
        for line in account(result.record):
            if not line.startswith(_RESULT_LINES):
                print(line, file=messages)
    _print_result(result, messages)
    return 0


def result_document(result: MatchResult) -> dict[str, Any]:
    """What ``match --json`` prints: the result as plain JSON values.

    >>> from tajmahal.referee.match import play_match
    >>> document = result_document(play_match(["greedy", "random", "random"], seed=7))
    >>> document["scores"], document["winners"], document["faults"]
    ([68, 28, 38], [0], [])
    """
    return {
        "seed": result.record.seed,
        "players": list(result.players),
        "scores": list(result.scores),
        "winners": list(result.winners),
        "ranking": list(result.ranking),
        "faults": [
            {"seat": f.seat, "decision": f.decision, "kind": f.kind.value, "detail": f.detail}
            for f in result.faults
        ],
    }


def _print_result(result: MatchResult, out: TextIO) -> None:
    players = result.players
    if result.faults:
        print("\n".join(_fault_lines(result.faults)), file=out)
    print(scores_line(result.scores, players), file=out)
    faulted = {fault.seat for fault in result.faults}
    print(ranking_line(result.ranking, result.scores, players, faulted), file=out)
    print(winners_line(result.winners, players, result.scores), file=out)


def _run_replay(args: argparse.Namespace) -> int:
    if args.analysis is not None and args.html is None:
        raise UsageError("--analysis needs --html: the analysis is drawn on the page")
    messages = messages_stream(args.html)
    record = read_record(args.file)
    lines = list(account(record))  # checks the whole record before printing
    if args.quiet:
        lines = [line for line in lines if line.startswith(_RESULT_LINES)]
    if record.faults:  # where the match printed them: before the final scores
        at = next((i for i, line in enumerate(lines) if line.startswith(_RESULT_LINES)), 0)
        lines[at:at] = _fault_lines(record.faults)
    print("\n".join(lines), file=messages)
    if args.html is not None:
        from tajmahal.render.viewer import replay_html

        analysis = None
        if args.analysis is not None:
            from tajmahal.analysis import load_analysis

            analysis = load_analysis(read_text(args.analysis), record)
        write_text(args.html, replay_html(record, analysis=analysis))
        print(f"wrote {args.html}", file=messages)
    return 0


def _fault_lines(faults: Sequence[Fault]) -> list[str]:
    lines = [f"Faults ({len(faults)}; seats with faults rank after the others):"]
    return lines + [f"  {fault}" for fault in faults]
