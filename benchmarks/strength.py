"""How strong is a bot? Matches against a field, seats rotated, win rates with 95% intervals.

The first player spec is the candidate, the others its opponents::

    python benchmarks/strength.py ismcts:iterations=300 greedy greedy --deals 50
    python benchmarks/strength.py ismcts:iterations=300 random random --deals 20 --jobs 2

The gauntlet (the new default against the frozen first release and greedy;
scaling head to head; 4 and 5 players)::

    python benchmarks/strength.py ismcts ismcts-v1 greedy --deals 50 --jobs 2
    python benchmarks/strength.py ismcts:iterations=800 ismcts:iterations=100 greedy --deals 50
    python benchmarks/strength.py ismcts ismcts-v1 greedy greedy --deals 13

Each deal (a game seed) is played once per arrangement of the seats: the
balanced seating design of :mod:`tajmahal.tournament.seating` when it has one
(every seat, and every neighbour order around the table, equally often: 6
games a deal at 3 players, 24 at 4, 20 at 5), else once per cyclic rotation
(3 games a deal at 3 players), so every player plays the same cards from
every seat (paired duplicate deals).  Besides the win rates, the table gives
the *paired point difference* of the candidate against each other player
spec: per deal, the candidate's mean score minus that player's, averaged over
the deals with a 95% normal interval (the deals are the independent units).
A game won jointly (G3) counts as a fraction of a win for each winner.
The table gives, per player spec: games,
wins, the win rate with its 95% Wilson interval, the mean score and the
seconds per decision (the mean over decisions with more than one legal
move, and the slowest one), timed around each bot's ``choose``, the
mean CPU seconds of those decisions (less disturbed by other programs), and,
for a bot that counts them (``last_iterations``), its searches per decision.
See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import tajmahal as tm
from tajmahal.referee import bot_seed
from tajmahal.tournament import seating as seating_module

DEFAULT_SEED = 20260601


class Timed:
    """A bot wrapped so that the time of each of its decisions is recorded."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)
        self.times: list[float] = []  #: seconds of each decision with more than one legal move
        self.cpu: list[float] = []  #: the same decisions' CPU seconds (this process)
        #: the same decisions' searches, for a bot with ``last_iterations`` (``ismcts``)
        self.iterations: list[int] = []

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        start, cpu = time.perf_counter(), time.process_time()
        move = self.bot.choose(view, legal_moves)
        if len(legal_moves) > 1:
            self.times.append(time.perf_counter() - start)
            self.cpu.append(time.process_time() - cpu)
            searched = getattr(self.bot, "last_iterations", None)
            if isinstance(searched, int):
                self.iterations.append(searched)
        return move  # type: ignore[no-any-return]


@dataclass
class Tally:
    """One player spec's results (all its seats together)."""

    games: int = 0
    wins: float = 0.0
    score: int = 0
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)  #: searches per timed decision

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.score += other.score
        self.times += other.times
        self.cpu += other.cpu
        self.iterations += other.iterations


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson(75, 150)]
    [0.421, 0.579]
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale)


def rotations(specs: Sequence[str]) -> list[list[int]]:
    """Per rotation, the index into ``specs`` of the player in each seat."""
    n = len(specs)
    return [[(seat - r) % n for seat in range(n)] for r in range(n)]


def seatings(specs: Sequence[str]) -> list[list[int]]:
    """Per game of a deal, the index into ``specs`` of the player in each seat.

    The balanced design of :func:`tajmahal.tournament.seating.arrangements` if the
    installed library has it, else :func:`rotations`.
    """
    arrangements = getattr(seating_module, "arrangements", None)
    if arrangements is None:
        return rotations(specs)
    return [list(order) for order in arrangements(len(specs))]


def play_deal(args: tuple[Sequence[str], int]) -> list[Tally]:
    """Play one deal under every seating; a tally per entry of ``specs``."""
    specs, seed = args
    tallies = [Tally() for _ in specs]
    for order in seatings(specs):
        bots = [
            Timed(tm.bots.create(specs[i], seed=bot_seed(seed, seat)))
            for seat, i in enumerate(order)
        ]
        try:
            result = tm.play_match(bots, seed=seed)  # type: ignore[arg-type]
        finally:  # bots handed to the referee are ours to close (ismcts:jobs=N's workers)
            for timed in bots:
                closer = getattr(timed.bot, "close", None)
                if callable(closer):
                    closer()
        if result.faults:
            raise RuntimeError(f"deal {seed}: faults {result.faults}")
        for seat, i in enumerate(order):
            tally = tallies[i]
            tally.games += 1
            tally.score += result.scores[seat]
            if seat in result.winners:
                tally.wins += 1 / len(result.winners)
            tally.times += bots[seat].times
            tally.cpu += bots[seat].cpu
            tally.iterations += bots[seat].iterations
    return tallies


class _Serial:
    """The part of a process pool that :func:`run` uses, in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, func: Any, items: Sequence[Any]) -> Any:
        return map(func, items)


def paired_differences(
    specs: Sequence[str], results: Sequence[Sequence[Tally]]
) -> dict[str, tuple[float, float, float]]:
    """The candidate's paired point difference against each other spec: mean, 95% interval.

    Per deal, the candidate's mean score minus the spec's (its entries averaged);
    the deals are the independent units.

    >>> a = [Tally(games=2, score=20), Tally(games=2, score=10)]
    >>> b = [Tally(games=2, score=14), Tally(games=2, score=12)]
    >>> mean, low, high = paired_differences(['x', 'y'], [a, b])['y']
    >>> round(mean, 1), round(low, 1), round(high, 1)
    (3.0, -0.9, 6.9)
    """
    out = {}
    for other in dict.fromkeys(specs[1:]):
        if other == specs[0]:
            continue
        diffs = []
        for tallies in results:
            mine = tallies[0].score / tallies[0].games
            theirs = [t.score / t.games for s, t in zip(specs, tallies, strict=True) if s == other]
            diffs.append(mine - sum(theirs) / len(theirs))
        n = len(diffs)
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.inf
        half = 1.96 * sd / math.sqrt(n)
        out[other] = (mean, mean - half, mean + half)
    return out


def run(
    specs: Sequence[str],
    deals: int,
    seed: int,
    jobs: int,
    progress: bool = False,
    log: str | None = None,
) -> dict[str, Any]:
    """Play every deal; the result is what ``--json`` writes.

    ``log``: a file to which each finished deal's tallies are appended as a JSON
    line, so that a long run stopped early still has its games (see :func:`from_log`).
    """
    for spec in specs:
        tm.bots.check_spec(spec)
    work = [(list(specs), seed + d) for d in range(deals)]
    start = time.perf_counter()
    results: list[list[Tally]] = []
    with multiprocessing.Pool(jobs) if jobs > 1 else _Serial() as pool:
        for tallies in pool.imap(play_deal, work):
            results.append(tallies)
            if log is not None:
                with open(log, "a", encoding="utf-8") as out:
                    line = {"specs": list(specs), "tallies": [asdict(t) for t in tallies]}
                    out.write(json.dumps(line) + "\n")
            if progress:
                print(f"\r{len(results)}/{deals} deals", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return summarize(specs, results, seed, jobs, time.perf_counter() - start)


def from_log(path: str) -> dict[str, Any]:
    """The summary of the deals a ``log`` file holds (seed and jobs unknown: 0)."""
    specs: list[str] = []
    results = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            data = json.loads(line)
            specs = data["specs"]
            results.append([Tally(**t) for t in data["tallies"]])
    return summarize(specs, results, 0, 0, 0.0)


def summarize(
    specs: Sequence[str], results: Sequence[Sequence[Tally]], seed: int, jobs: int, elapsed: float
) -> dict[str, Any]:
    """Per player spec: games, wins, win rate and interval, scores, paired differences, times."""
    deals = len(results)
    merged: dict[str, Tally] = {}
    for tallies in results:
        for spec, tally in zip(specs, tallies, strict=True):
            merged.setdefault(spec, Tally()).add(tally)
    paired = paired_differences(specs, results)
    rows = []
    for spec, t in merged.items():
        low, high = wilson(t.wins, t.games)
        rows.append(
            {
                "player": spec,
                "games": t.games,
                "wins": t.wins,
                "win_rate": t.wins / t.games,
                "ci95": [low, high],
                "mean_score": t.score / t.games,
                "decisions": len(t.times),
                "s_per_decision": sum(t.times) / len(t.times) if t.times else 0.0,
                "max_s_per_decision": max(t.times, default=0.0),
                "cpu_s_per_decision": sum(t.cpu) / len(t.cpu) if t.cpu else 0.0,
                "iterations_per_decision": (
                    sum(t.iterations) / len(t.iterations) if t.iterations else None
                ),
                "paired_point_difference": paired.get(spec),
            }
        )
    return {
        "players": list(specs),
        "deals": deals,
        "games": sum(t.games for t in merged.values()) // len(specs),
        "seed": seed,
        "jobs": jobs,
        "seconds": elapsed,
        "rows": rows,
    }


def table(result: dict[str, Any]) -> str:
    """The results as a Markdown table."""
    out = [
        f"{result['games']} games ({result['deals']} paired duplicate deals), seed "
        f"{result['seed']}, {result['seconds']:.0f} s with {result['jobs']} "
        "job(s)",
        "",
        "| player | games | wins | win rate | 95% CI | mean score | candidate − player "
        "(paired, 95% CI) | s/decision | max s | CPU s | searches |",
        "|---|---:|---:|---:|---|---:|---|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        low, high = r["ci95"]
        pair = r.get("paired_point_difference")
        shown = "" if pair is None else f"{pair[0]:+.1f} ({pair[1]:+.1f} to {pair[2]:+.1f})"
        searched = r.get("iterations_per_decision")
        out.append(
            f"| `{r['player']}` | {r['games']} | {r['wins']:g} | {r['win_rate']:.1%} | "
            f"{low:.1%}–{high:.1%} | {r['mean_score']:.1f} | {shown} | "
            f"{r['s_per_decision']:.3f} | "
            f"{r['max_s_per_decision']:.3f} | {r['cpu_s_per_decision']:.3f} | "
            f"{'' if searched is None else f'{searched:,.0f}'} |"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, play, print the table (and/or write JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", nargs="*", help="3-5 player specs; the first is the candidate")
    parser.add_argument("--deals", type=int, default=50, help="deals, each played per rotation")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--progress", action="store_true", help="count finished deals on stderr")
    parser.add_argument("--log", metavar="PATH", help="append each finished deal as a JSON line")
    parser.add_argument(
        "--from-log", action="store_true", help="summarise the --log file instead of playing"
    )
    args = parser.parse_args(argv)
    if args.from_log:
        if not args.log:
            parser.error("--from-log needs --log PATH")
        print(table(from_log(args.log)))
        return 0
    if not 3 <= len(args.players) <= 5:
        parser.error("give 3 to 5 player specs")
    if args.deals < 1 or args.jobs < 1:
        parser.error("--deals and --jobs must be at least 1")
    try:
        result = run(args.players, args.deals, args.seed, args.jobs, args.progress, args.log)
    except tm.TajMahalError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
