"""Instruction counts of the engine's hot workloads under callgrind: figures the load cannot move.

    .venv/bin/python benchmarks/instructions.py --build pure=src --build compiled=build/compiled

CPU time on a shared machine moves with its load; the number of instructions a
workload executes does not.  For each build (a directory holding the ``tajmahal``
package, put first on ``PYTHONPATH``) and each workload, this script runs the
workload in a fresh interpreter under ``valgrind --tool=callgrind`` twice, at a
large and a small size, and reports the difference, so that imports and first-call
set-up (tables, components, generated code) drop out:

- ``ismcts``: one ``ismcts`` decision (seed 1) of 300 iterations minus one of 1, at
  the first decision of visit 6 with at least three legal moves of a greedy 4-player
  game (seed 20260601);
- ``loop``: 5 seeded 4-player games by ``rng.choice(state.legal_moves())`` and
  ``state.apply`` minus 1 game;
- ``dumps``: the same games, also writing ``tm.dumps`` of the deciding seat's view
  at each decision (what a referee sends each bot program), minus 1 game;
- ``pettingzoo``: 5 seeded games through the PettingZoo AEC environment
  (``agent_iter``/``last``/``step``, a random legal action from the mask; needs the
  ``pettingzoo`` extra) minus 1 game;
- ``openspiel``: 5 seeded 4-player games of ``python_tajmahal`` through the game's own
  Python methods (``benchmarks/adapters.py``'s "openspiel, own code" loop; needs the
  ``openspiel`` extra) minus 1 game, every setup dealt before either size plays;
- ``openspiel_engine``: the engine alone (``legal_moves``/``apply``) on the very steps of
  the ``openspiel`` games (adapters.py's "openspiel engine, same steps": the games are
  recorded first, at both sizes alike), minus 1 game;
- ``match`` and ``time_limit``: 5 seeded ``play_match`` games of four ``random`` bots
  minus 1, without a time limit and with ``time_limit=60`` (each decision handed to
  the seat's worker thread; callgrind runs the threads one at a time, and counts no
  time spent in the kernel, so the thread switches themselves do not show).

With both OpenSpiel workloads, a row gives the **adapter's own instructions per step
beyond the engine**: (``openspiel`` - ``openspiel_engine``) / the steps of the 4 games.

The last rows divide the first build's counts by each other build's (the compiled
speed-up in instructions).  Instruction counts and CPU time do not scale alike:
the timed ratios are ``run.py --ratios``'s.  ``--run WORKLOAD SIZE`` runs one
workload in this interpreter (what valgrind runs).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEED = 20260601
#: workload -> (large size, small size, what the difference counts)
WORKLOADS: dict[str, tuple[int, int, str]] = {
    "ismcts": (300, 1, "ismcts, 299 iterations at visit 6 (4 players)"),
    "loop": (5, 1, "public-API loop, 4 random games (legal_moves/apply)"),
    "dumps": (5, 1, "tm.dumps of the deciding seat's view, 4 random games"),
    "pettingzoo": (5, 1, "PettingZoo AEC environment, 4 random games (last/step)"),
    "openspiel": (5, 1, "OpenSpiel game's own methods, 4 random games"),
    "openspiel_engine": (5, 1, "the engine alone on the same OpenSpiel steps"),
    "match": (5, 1, "play_match, 4 random bots, 4 games"),
    "time_limit": (5, 1, "play_match with time_limit, 4 random bots, 4 games"),
}
OPENSPIEL_GAMES = 5  #: the games both OpenSpiel workloads prepare, whatever their size


def run_workload(name: str, size: int) -> int:
    """Run one workload at ``size`` in this interpreter; the steps it played (0: not counted)."""
    import tajmahal as tm

    if name in ("openspiel", "openspiel_engine"):
        import adapters  # benchmarks/adapters.py: its loops, on the same games

        seeds = range(SEED, SEED + OPENSPIEL_GAMES)
        if name == "openspiel":
            states = adapters.openspiel_setups(4, seeds)  # both sizes deal every setup
            gc.collect()  # the preparation's garbage: collected now, at both sizes alike
            return adapters.openspiel_own(4, seeds[:size], states[:size])[0]
        games = adapters.openspiel_engine_games(4, seeds)  # both sizes record every game
        gc.collect()
        return adapters.openspiel_engine(4, seeds[:size], games[:size])[0]

    if name in ("loop", "dumps"):
        for seed in range(SEED, SEED + size):
            rng = random.Random(seed)
            state = tm.new_game(4, seed=seed)
            while not state.is_over:
                if name == "dumps":
                    tm.dumps(state.view(state.current_player))
                state = state.apply(rng.choice(state.legal_moves()))
        return 0
    if name in ("match", "time_limit"):
        limit = 60.0 if name == "time_limit" else None
        for seed in range(SEED, SEED + size):
            tm.play_match(["random"] * 4, seed=seed, time_limit=limit)
        return 0
    if name == "pettingzoo":
        from adapters import pettingzoo  # benchmarks/adapters.py: its random-play loop

        pettingzoo(4, range(SEED, SEED + size))
        return 0
    state = tm.new_game(4, seed=SEED)
    greedy = [tm.bots.create("greedy", seed=seat) for seat in range(4)]
    while state.visit < 6 or len(state.legal_moves()) < 3:
        seat = state.current_player
        assert seat is not None
        state = state.apply(greedy[seat].choose(state.view(seat), state.legal_moves()))
    bot = tm.bots.create("ismcts", seed=1, iterations=size)
    bot.choose(state.view(state.current_player), state.legal_moves())
    return 0


def count(build: Path, name: str, size: int) -> tuple[int, int]:
    """Instructions callgrind collects for one run of a workload with ``build`` first,
    and the steps the workload reports having played."""
    env = dict(os.environ, PYTHONPATH=str(build), PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, str(Path(__file__).resolve()), "--run", name, str(size)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed for {name} {size} on {build}:\n{done.stderr[-2000:]}")
    steps = re.search(r"^steps (\d+)$", done.stdout, re.MULTILINE)
    return int(found.group(1)), int(steps.group(1)) if steps else 0


def table(builds: dict[str, Path], names: list[str]) -> str:
    """The Markdown table of net instruction counts (millions) and speed-ups."""
    counts, steps = {}, {}
    for build, path in builds.items():
        for name in names:
            (large, large_steps), (small, small_steps) = (
                count(path, name, WORKLOADS[name][0]),
                count(path, name, WORKLOADS[name][1]),
            )
            counts[build, name], steps[build, name] = large - small, large_steps - small_steps
    first = next(iter(builds))
    lines = [
        "| workload | " + " | ".join(builds) + " |",
        "|---|" + "---|" * len(builds),
    ]
    for name in names:
        cells = [f"{counts[b, name] / 1e6:.1f} M" for b in builds]
        lines.append(f"| {WORKLOADS[name][2]} | " + " | ".join(cells) + " |")
    for name in names:
        cells = [
            "" if b == first else f"{counts[first, name] / counts[b, name]:.2f}" for b in builds
        ]
        lines.append(f"| {first} / build, {name} | " + " | ".join(cells) + " |")
    if "openspiel" in names and "openspiel_engine" in names:
        for label, values in (
            ("OpenSpiel steps (4 games)", [f"{steps[b, 'openspiel']}" for b in builds]),
            ("OpenSpiel own code, instructions per step", [
                f"{counts[b, 'openspiel'] / steps[b, 'openspiel']:,.0f}" for b in builds]),
            ("the engine on the same steps, instructions per step", [
                f"{counts[b, 'openspiel_engine'] / steps[b, 'openspiel_engine']:,.0f}"
                for b in builds]),
            ("OpenSpiel adapter's own instructions per step beyond the engine", [
                f"{(counts[b, 'openspiel'] - counts[b, 'openspiel_engine']) / steps[b, 'openspiel']:,.0f}"  # noqa: E501
                for b in builds]),
        ):  # fmt: skip
            lines.append(f"| {label} | " + " | ".join(values) + " |")
    return "\n".join(lines)


def parse_build(text: str) -> tuple[str, Path]:
    name, sep, folder = text.partition("=")
    path = (ROOT / folder).resolve() if sep else Path()
    if not sep or not name or not (path / "tajmahal" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"expected NAME=DIR with DIR/tajmahal, got {text!r}")
    return name, path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", type=parse_build, metavar="NAME=DIR",
                        help="a folder holding the tajmahal package (default: pure=src)")
    parser.add_argument("--workload", action="append", choices=sorted(WORKLOADS),
                        help="a workload (default: all)")  # fmt: skip
    parser.add_argument("--run", nargs=2, metavar=("WORKLOAD", "SIZE"),
                        help="run one workload in this interpreter")  # fmt: skip
    args = parser.parse_args(argv)
    if args.run:
        name, size = args.run
        if name not in WORKLOADS or not size.isdigit():
            parser.error(f"--run takes one of {sorted(WORKLOADS)} and a size, got {args.run}")
        steps = run_workload(name, int(size))
        if steps:
            print(f"steps {steps}")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    builds = dict(args.build or [parse_build("pure=src")])
    print(table(builds, args.workload or list(WORKLOADS)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
