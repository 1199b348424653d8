"""The ``ismcts`` search's speed, build against build: iterations per CPU second, or
instructions per iteration (callgrind), on the search benchmark's decisions (issue 51).

The decisions are ``benchmarks/run.py``'s ``ismcts`` row: the first decision of visit 6 of a
seeded game that ``greedy`` bots play (``run.visit_six``, its components and seed), searched by
``ismcts-v3`` (``ismcts`` in a build that has no ``ismcts-v3``: the same decisions, the day it was
frozen).  ``flat`` is the play-or-withdraw decision as the bot makes it (the flat search),
``tree`` the same decision searched by the tree (``flat=off``).

    make fast-tree   # or build a commit's compiled build into a folder of its own
    .venv/bin/python benchmarks/search_speed.py --build before=/tmp/old/build/compiled \\
        --build after=build/compiled --seats 3 --rounds 9
    .venv/bin/python benchmarks/search_speed.py --build before=... --build after=... \\
        --instructions

CPU time: each round runs every build once, in a fresh process of its own (the builds' order
rotating), each process timing ``--reps`` decisions (a new bot seed each) by its own CPU time;
the table gives the median iterations per CPU second over rounds, and each build's median
ratio to the first build (per round).  ``--instructions``: callgrind counts one decision of
``--iterations`` and one of a tenth of them in fresh interpreters (``PYTHONHASHSEED=0``); the
difference over the difference in iterations is the instructions per iteration, whatever the
machine's load.  Needs valgrind for ``--instructions``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKLOADS = {"flat": "", "tree": ":flat=off"}


def worker(seats: int, workload: str, iterations: int, reps: int) -> None:
    """Run ``reps`` timed decisions; print one JSON line: spec, iterations, CPU seconds."""
    sys.path.insert(0, str(HERE))
    from run import Settings, bench_components, visit_six

    import tajmahal as tm

    components, _ = bench_components()
    settings = Settings()
    state = visit_six(components, settings, seats)
    name = "ismcts-v3" if "ismcts-v3" in tm.bots.available() else "ismcts"
    spec = name + WORKLOADS[workload]
    view, legal = state.view(state.current_player), state.legal_moves()  # type: ignore[arg-type]
    done, seconds = 0, 0.0
    for rep in range(reps):
        bot = tm.bots.create(spec, seed=settings.seed + rep, iterations=iterations)
        start = time.process_time()
        bot.choose(view, legal)
        seconds += time.process_time() - start
        done += bot.last_iterations  # type: ignore[attr-defined]
    print(json.dumps({"spec": spec, "iterations": done, "seconds": seconds}))


def run_worker(build: Path, args: list[str], callgrind: bool = False) -> tuple[dict, int]:
    env = dict(os.environ, PYTHONPATH=str(build), PYTHONHASHSEED="0")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", *args]
    if callgrind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the worker failed on {build}:\n{done.stderr[-2000:]}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1]), int(found.group(1)) if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="append", default=[], metavar="NAME=DIR",
                        help="a folder holding the tajmahal package (repeatable; default src)")
    parser.add_argument("--seats", type=int, action="append", help="default 3")
    parser.add_argument("--workload", choices=sorted(WORKLOADS), action="append",
                        help="default flat and tree")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--reps", type=int, default=5, help="timed decisions per process")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--instructions", action="store_true", help="count with callgrind")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker:
        seats, workload, iterations, reps = options.worker
        worker(int(seats), workload, int(iterations), int(reps))
        return 0
    builds = [tuple(b.split("=", 1)) for b in options.build] or [("src", "src")]
    if any(len(b) != 2 for b in builds):
        parser.error("--build takes NAME=DIR")
    resolved = [(name, Path(folder).resolve()) for name, folder in builds]
    for name, folder in resolved:
        if not (folder / "tajmahal").is_dir():
            parser.error(f"--build {name}: no tajmahal package in {folder}")
    results: list[dict] = []
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    for seats in options.seats or [3]:
        for workload in options.workload or ["flat", "tree"]:
            rows = measure(resolved, seats, workload, options)
            results.extend(rows)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


def measure(builds: list[tuple[str, Path]], seats: int, workload: str,
            options: argparse.Namespace) -> list[dict]:  # fmt: skip
    """One table: each build's speed on one workload, and its ratio to the first build."""
    title = f"{seats} seats, {workload}, {options.iterations} iterations a decision"
    rows: list[dict] = []
    if options.instructions:
        small = max(1, options.iterations // 10)
        print(f"\n{title}: instructions per iteration ({options.iterations} minus {small})")
        for name, folder in builds:
            big, big_count = run_worker(folder, [str(seats), workload, str(options.iterations),
                                                 "1"], callgrind=True)  # fmt: skip
            low, low_count = run_worker(folder, [str(seats), workload, str(small), "1"],
                                        callgrind=True)  # fmt: skip
            per = (big_count - low_count) / (big["iterations"] - low["iterations"])
            rows.append({"build": name, "seats": seats, "workload": workload,
                         "spec": big["spec"], "instructions_per_iteration": per})  # fmt: skip
        first = rows[0]["instructions_per_iteration"]
        for row in rows:
            row["speed_ratio"] = first / row["instructions_per_iteration"]
            per = row["instructions_per_iteration"]
            print(f"  {row['build']:<10} {row['spec']:<18} {per:>10,.0f} instructions/iteration"
                  f"   speed ×{row['speed_ratio']:.3f}")  # fmt: skip
        return rows
    print(f"\n{title}: iterations per CPU second ({options.rounds} rounds × {options.reps})")
    rates: dict[str, list[float]] = {name: [] for name, _ in builds}
    ratios: dict[str, list[float]] = {name: [] for name, _ in builds}
    specs: dict[str, str] = {}
    args = [str(seats), workload, str(options.iterations), str(options.reps)]
    for round_ in range(options.rounds):
        order = builds[round_ % len(builds):] + builds[: round_ % len(builds)]
        got = {}
        for name, folder in order:
            result, _ = run_worker(folder, args)
            got[name] = result["iterations"] / result["seconds"]
            specs[name] = result["spec"]
        for name, _ in builds:
            rates[name].append(got[name])
            ratios[name].append(got[name] / got[builds[0][0]])
    for name, _ in builds:
        row = {"build": name, "seats": seats, "workload": workload, "spec": specs[name],
               "iterations_per_cpu_s": statistics.median(rates[name]),
               "ratio": statistics.median(ratios[name])}  # fmt: skip
        rows.append(row)
        print(f"  {name:<10} {row['spec']:<18} {row['iterations_per_cpu_s']:>10,.0f} it/CPU-s"
              f"   ×{row['ratio']:.3f} (median of per-round ratios)")
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
