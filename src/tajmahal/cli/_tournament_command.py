"""``tajmahal tournament``: play many games between bots and print the table, or summarise."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from tajmahal.bots.specs import parse_spec
from tajmahal.cli._common import (
    Commands,
    UsageError,
    add_command,
    add_components_option,
    components_from,
    positive_seconds,
)
from tajmahal.tournament import (
    BACKENDS,
    Decision,
    GameResult,
    TournamentError,
    TournamentResult,
    read_results,
    run_tournament,
    summarize,
)
from tajmahal.tournament.seating import SEATINGS, check_arguments
from tajmahal.tournament.stats import TABLE_COLUMNS, table_cells

__all__ = ["print_table", "register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    command = add_command(
        commands,
        "tournament",
        _run,
        summary="play a tournament between bots and print the table",
        description="Play many games between player specs: each deal under a balanced set of "
        "seatings (every entrant in every seat and directly after every other equally often), "
        "tables balanced when there are more entrants than seats. Prints wins (ties shared), "
        "win rate with its 95% interval, mean score, mean rank, an openskill rating and a "
        "head-to-head table. Name a bot twice to enter two "
        "copies of it.",
    )
    command.add_argument(
        "entrants", nargs="*", metavar="PLAYER",
        help="player specs: NAME[:KEY=VALUE,...], 'cmd:PROGRAM ARGS' or 'file:PATH[:CLASS]'",
    )
    command.add_argument(
        "--games", type=int,
        help="games to play, a multiple of the block size (default: 300 rounded up to whole "
        "blocks of 6, 24 or 20 games for 3, 4 or 5 players)",
    )
    command.add_argument(
        "--players", type=int, metavar="K",
        help="seats per game, 3 to 5 (default: the number of entrants, 4 if more than 5)",
    )
    command.add_argument(
        "--seed", type=int,
        help="the tournament's seed, for the same deals again (default: an unguessable one, "
        "printed; a known seed lets anyone compute the deals)",
    )
    command.add_argument(
        "--backend", choices=BACKENDS, default="process", help="where games run (default process)"
    )
    command.add_argument(
        "--jobs", type=int, metavar="J", help="worker processes or Ray CPUs (default: CPU count)"
    )
    command.add_argument(
        "--ray-address", metavar="ADDR", help="join the Ray cluster at ADDR (--backend ray)"
    )
    command.add_argument("--out", metavar="FILE", help="append each game to FILE (JSON lines)")
    command.add_argument(
        "--resume", action="store_true", help="continue the tournament in --out FILE"
    )
    command.add_argument(
        "--summary", metavar="FILE", help="print the table of the games in FILE; play nothing"
    )
    command.add_argument(
        "--time-limit", type=positive_seconds, metavar="S",
        help="seconds a bot may take per decision; slower decisions are faults",
    )
    command.add_argument(
        "--game-time", type=positive_seconds, metavar="S",
        help="seconds each seat may take for a whole game; decisions past it are faults",
    )
    command.add_argument(
        "--isolate", action="store_true",
        help="run every bot in its own process, through the bot protocol",
    )
    command.add_argument(
        "--sandbox", action="store_true",
        help="run every bot as a program under bubblewrap (its own PID namespace, no network, "
        "a read-only root; implies --isolate; see docs/trust.md)",
    )
    command.add_argument(
        "--seating", choices=SEATINGS,
        help="balanced (the default; --resume keeps the file's): every seat and every "
        "neighbour equally often; rotation: seats only, as results files of version 1",
    )
    command.add_argument(
        "--until-decided", action="store_true",
        help="stop as soon as a sequential test has decided which of the first two entrants is "
        "stronger (5%% error rate), or after --games",
    )
    command.add_argument("--json", action="store_true", help="print the result as JSON")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    add_components_option(command)


def _run(args: argparse.Namespace) -> int:
    if args.summary is not None:
        return _summary(args)
    if not args.entrants:
        raise UsageError("name the entrants (tajmahal tournament greedy random random) "
                         "or give --summary FILE")
    if args.resume and args.out is None:
        raise UsageError("--resume needs --out FILE, the results file to continue")
    entrants = [parse_spec(text) for text in args.entrants]  # parsed once, here
    if args.games is not None and not args.resume:  # what run_tournament checks first
        try:
            check_arguments(entrants, args.players, args.games, args.seating or "balanced")
        except TournamentError as exc:  # entrants, --players, --games that do not fit
            raise UsageError(str(exc)) from None
    stderr = Console(stderr=True)
    with Progress(
        TextColumn("games"), BarColumn(), MofNCompleteColumn(), _RateColumn(),
        TextColumn("left"), TimeRemainingColumn(),
        console=stderr, disable=args.quiet or not stderr.is_terminal, transient=True,
    ) as progress:
        task = progress.add_task("games", total=args.games or 300)

        def advance(result: GameResult, done: int, total: int) -> None:
            if not progress.tasks[0].completed:  # resumed: games done before count, not in speed
                progress.reset(task, total=total, completed=done - 1)
            progress.update(task, completed=done)

        try:
            result = run_tournament(
                entrants, games=args.games, num_players=args.players, seed=args.seed,
                jobs=args.jobs, backend=args.backend, out=args.out, resume=args.resume,
                time_limit=args.time_limit, game_time=args.game_time, isolate=args.isolate,
                sandbox=args.sandbox, components=components_from(args.components),
                ray_address=args.ray_address, on_game=advance, seating=args.seating,
                until_decided=args.until_decided,
            )
        except KeyboardInterrupt:
            if args.out is not None:
                print(f"tajmahal: interrupted; the finished games are in {args.out}: continue "
                      "with --resume", file=sys.stderr)
            raise
    _show(result, args.json, args.out)
    return 0


def _summary(args: argparse.Namespace) -> int:
    if args.entrants or args.resume:
        raise UsageError("--summary reads a results file: give no entrants and no --resume")
    found = read_results(args.summary)
    result = summarize(found.header, found.games)
    if found.half_line:
        print(f"tajmahal: note: {args.summary} ends in a half-written line (a run stopped "
              "while writing it); that game is left out", file=sys.stderr)
    _show(result, args.json, None)
    return 0


def _show(result: TournamentResult, as_json: bool, out: str | None) -> None:
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
        return
    width = shutil.get_terminal_size((120, 24)).columns if sys.stdout.isatty() else 120
    print_table(result, Console(width=max(width, 100), highlight=False))
    if out is not None:
        print(f"Results: {out}")


def print_table(result: TournamentResult, console: Console) -> None:
    """Print the tournament's table and head-to-head table with ``rich``.

    >>> from tajmahal.tournament.stats import _example_games, _example_header
    >>> console = Console(width=120, record=True, file=open(os.devnull, 'w'))
    >>> print_table(summarize(_example_header(), _example_games()), console)
    >>> 'win rate (95% CI)' in console.export_text()
    True
    """
    header = result.header
    played = len(result.games)
    console.print(
        f"Tournament: {played} of {header.games} games, {header.num_players} players per game, "
        f"seed {header.seed}"
        + (f", time limit {header.time_limit:g} s" if header.time_limit else "")
        + (f", game time {header.game_time:g} s" if header.game_time else "")
        + (", bots isolated" if header.isolate else "")
    )
    if header.seating == "rotation":
        console.print(
            "Seated by rotation only: every seat equally often, but the order around the table "
            "as listed, so results may depend on the order the entrants were listed in"
        )
    table = Table(title=None, show_edge=False)
    for name in TABLE_COLUMNS:
        table.add_column(name, justify="left" if name == "entrant" else "right")
    for place, row in enumerate(result.table, start=1):
        texts = table_cells(row, place)
        table.add_row(texts[0], Text(texts[1]), *texts[2:])
    console.print(table)
    names = [row.name for row in result.table]
    h2h = Table(title=None, show_edge=False)
    h2h.add_column("ahead of →", justify="left")
    for name in names:
        h2h.add_column(Text(name), justify="right")
    for a in names:
        cells: list[Any] = [Text(a)]
        for b in names:
            share = result.head_to_head.share(a, b) if a != b else None
            cells.append("" if share is None else f"{share:.0%}")
        h2h.add_row(*cells)
    console.print("Head to head: how often the row's entrant finished ahead of the column's")
    console.print(h2h)
    if result.decision is not None:
        console.print(decision_text(result.decision))


def decision_text(decision: Decision) -> Text:
    """One line on the sequential test (``--until-decided``).

    >>> from tajmahal.tournament.sequential import decide
    >>> text = decision_text(decide(['a', 'b'], [(t, 1.0) for t in range(9)])).plain
    >>> text.split(' (')[0]
    'Decided after 7 blocks: a is stronger than b'
    >>> text.split(' (')[1]
    'a ahead in 100.0% of their games, evidence 22.4 ≥ 20, 5% error rate)'
    """
    if decision.share is None:
        return Text(f"Undecided: {decision.first} and {decision.second} have not met yet")
    share = f"{decision.first} ahead in {decision.share:.1%} of their games"
    evidence = f"evidence {decision.evidence:.3g}"
    if decision.verdict is None:
        return Text(f"Undecided after {decision.blocks} blocks: {share}, {evidence} < "
                    f"{1 / decision.alpha:g} ({decision.alpha:.0%} error rate)")
    loser = decision.second if decision.verdict == decision.first else decision.first
    return Text(f"Decided after {decision.blocks} blocks: {decision.verdict} is stronger than "
                f"{loser} ({share}, {evidence} ≥ {1 / decision.alpha:g}, "
                f"{decision.alpha:.0%} error rate)")


class _RateColumn(ProgressColumn):
    """Games per second, as rich measures it over the last moments."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- games/s" if speed is None else f"{speed:.1f} games/s")


assert os  # used by the docstring example
