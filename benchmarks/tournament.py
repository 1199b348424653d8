"""Tournament throughput: games per second on each backend, the speed-up of 2 jobs, the overhead.

In one run, repeated (the median is reported), the same tournament of three
``random`` bots is played with ``serial``, ``process --jobs 1`` and
``process --jobs 2`` (and ``ray`` with ``--ray``):

* games/s: games divided by the wall-clock time of the whole run (pool
  start-up included), and the start-up alone (until the first game ends,
  less that game's time);
* the speed-up: games/s with 2 jobs divided by games/s with 1 job (target
  >= 1.8 on an idle 2-core machine);
* the parallel overhead per game: ((wall time - start-up) x jobs - time
  spent inside the games) / games, the time a game costs beyond playing it
  (pickling, scheduling, idle workers), and as a share of a game played
  serially (target < 5% with random bots);
* pickling alone: bytes and microseconds to pickle and unpickle one job and
  one result;
* the machine's load average before and after, since other programs on the
  machine take cores from the workers.

Usage::

    python benchmarks/tournament.py                 # 120 games x 3 repetitions
    python benchmarks/tournament.py --quick         # a smoke run
    python benchmarks/tournament.py --json -        # JSON only, on stdout
    python benchmarks/tournament.py --ray           # also the ray backend (tajmahal[ray])
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import sys
import time
from typing import Any

from tajmahal.tournament import MatchOptions, play_game, run_tournament, schedule

ENTRANTS = ["random", "random", "random"]


def measure(backend: str, jobs: int, games: int, seed: int) -> dict[str, float]:
    """One tournament: wall seconds, start-up, seconds inside games, games/s, overhead per game.

    The start-up (starting worker processes or Ray) is the time until the
    first game ends, less that game's own time; the overhead per game is
    measured on the rest of the run.
    """
    first: list[float] = []

    def note(result: Any, done: int, total: int) -> None:
        if not first:
            first.append(time.perf_counter() - result.seconds)

    start = time.perf_counter()
    result = run_tournament(ENTRANTS, games=games, seed=seed, backend=backend, jobs=jobs,
                            on_game=note)
    wall = time.perf_counter() - start
    startup = first[0] - start
    inside = sum(game.seconds for game in result.games)
    return {
        "wall_s": wall,
        "startup_s": startup,
        "games_per_s": games / wall,
        "game_ms": 1000 * inside / games,
        "overhead_ms": 1000 * ((wall - startup) * jobs - inside) / games,
    }


def pickling(seed: int, rounds: int = 200) -> dict[str, float]:
    """Bytes and microseconds to pickle + unpickle one job and its result."""
    job = next(schedule(ENTRANTS, 3, 6, seed))
    result = play_game(job, MatchOptions())
    assert not isinstance(result, str)
    start = time.perf_counter()
    for _ in range(rounds):
        pickle.loads(pickle.dumps(job))
        pickle.loads(pickle.dumps(result))
    return {
        "job_bytes": len(pickle.dumps(job)),
        "result_bytes": len(pickle.dumps(result)),
        "roundtrip_us": 1e6 * (time.perf_counter() - start) / rounds,
    }


def run(games: int, reps: int, seed: int, with_ray: bool) -> dict[str, Any]:
    """Every configuration, ``reps`` times interleaved; medians and the per-rep speed-ups."""
    configs = [("serial", 1), ("process", 1), ("process", 2)] + ([("ray", 2)] if with_ray else [])
    load_before = os.getloadavg()
    samples: dict[str, list[dict[str, float]]] = {f"{b} x{j}": [] for b, j in configs}
    for rep in range(reps):
        for backend, jobs in configs:
            samples[f"{backend} x{jobs}"].append(measure(backend, jobs, games, seed + rep))
    speedups = [
        two["games_per_s"] / one["games_per_s"]
        for one, two in zip(samples["process x1"], samples["process x2"], strict=True)
    ]
    rows = {
        name: {key: statistics.median(s[key] for s in runs) for key in runs[0]}
        for name, runs in samples.items()
    }
    game_ms = rows["serial x1"]["game_ms"]
    for row in rows.values():
        row["overhead_share"] = row["overhead_ms"] / game_ms
    return {
        "games": games,
        "reps": reps,
        "cpus": os.cpu_count(),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "rows": rows,
        "speedup_2_jobs": statistics.median(speedups),
        "speedups": speedups,
        "pickling": pickling(seed),
    }


def table(result: dict[str, Any]) -> str:
    """The result as a Markdown table and a few lines of text."""
    lines = [
        f"{result['games']} games of 3 random bots, median of {result['reps']} repetitions; "
        f"{result['cpus']} CPUs; load average before {result['load_before'][0]:.2f}, after "
        f"{result['load_after'][0]:.2f}",
        "",
        "| backend | games/s | start-up s | ms in a game | overhead ms/game | overhead share |",
        "|---|---|---|---|---|---|",
    ]
    for name, row in result["rows"].items():
        lines.append(
            f"| {name} | {row['games_per_s']:.1f} | {row['startup_s']:.2f} | "
            f"{row['game_ms']:.1f} | "
            f"{row['overhead_ms']:.2f} | {row['overhead_share']:.1%} |"
        )
    p = result["pickling"]
    lines += [
        "",
        f"speed-up of 2 jobs over 1 (process): {result['speedup_2_jobs']:.2f} "
        f"(per repetition: {', '.join(f'{s:.2f}' for s in result['speedups'])})",
        f"pickling: a job {p['job_bytes']} bytes, a result {p['result_bytes']} bytes, "
        f"both there and back {p['roundtrip_us']:.0f} µs",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games per run (multiple of 6)")
    parser.add_argument("--reps", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 6 games, once")
    parser.add_argument("--ray", action="store_true", help="also the ray backend (2 CPUs)")
    parser.add_argument("--json", metavar="FILE", help="write the result as JSON ('-': stdout)")
    args = parser.parse_args(argv)
    games, reps = (6, 1) if args.quick else (args.games, args.reps)
    result = run(games, reps, args.seed, args.ray)
    if args.json == "-":
        print(json.dumps(result, indent=2))
        return 0
    print(table(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump(result, stream, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
