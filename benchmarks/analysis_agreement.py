"""Does the game analysis agree with itself?  Two seeds' mistake marks, and the CPU a game.

    .venv/bin/python benchmarks/analysis_agreement.py --games 20 \\
        --build before=/tmp/old/src --build after=src --log benchmarks/results/analysis.jsonl

Plays ``--games`` seeded 3-seat games (``greedy``, ``ismcts:level=1`` and ``random``, their
seats rotating from game to game), then analyses every seat of each game
(``tm.analysis.analyse_game``, ``--iterations``, one process) with seed 0 and with seed 1, in
each build (a folder holding the ``tajmahal`` package, first on ``PYTHONPATH`` of a worker
process of its own; the games are played by the first build).  Per build the table gives,
over the decisions with a choice: how often the two seeds' mistake marks agree, the
decisions either seed marks and how many of them both mark (and their share: the stricter
reading of agreement), the decisions called about equal, and the CPU seconds an analysis of
a game takes (the mean of both seeds).  ``--first-game 20`` analyses games 20 on (another
sample of games than the target's).  Issue 51's target: at least 95% agreement (in both
readings), at no more CPU per game than before.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

PLAYERS = ("greedy", "ismcts:level=1", "random")
SEED = 51_000


def worker(games: int, iterations: int, seeds: tuple[int, ...], first: int = 0) -> None:
    """Analyse each game with each seed; one JSON line per game and seed."""
    import tajmahal as tm

    for game in range(first, first + games):
        shift = game % len(PLAYERS)
        players = list(PLAYERS[shift:] + PLAYERS[:shift])
        record = tm.play_match(players, seed=SEED + game).record
        for seed in seeds:
            start = time.process_time()
            review = tm.analysis.analyse_game(record, iterations=iterations, seed=seed)
            seconds = time.process_time() - start
            marks = {str(d.index): [d.mistake, getattr(d, "about_equal", False)]
                     for d in review.decisions if not d.forced}  # fmt: skip
            print(json.dumps({"game": game, "seed": seed, "seconds": seconds, "marks": marks}),
                  flush=True)  # fmt: skip


def table(name: str, lines: list[dict]) -> dict:
    """One build's agreement row from its workers' lines."""
    by_game: dict[int, dict[int, dict]] = {}
    for line in lines:
        by_game.setdefault(line["game"], {})[line["seed"]] = line
    agree = decisions = either = both = equal = 0
    seconds = []
    for runs in by_game.values():
        if len(runs) < 2:
            continue
        first, second = (runs[s] for s in sorted(runs)[:2])
        seconds += [first["seconds"], second["seconds"]]
        for index, (mark, about) in first["marks"].items():
            other, other_about = second["marks"][index]
            decisions += 1
            agree += mark == other
            either += mark or other
            both += mark and other
            equal += about + other_about
    games = len(seconds) // 2
    row = {"build": name, "games": games, "decisions": decisions,
           "agreement": agree / max(1, decisions), "marked_by_either": either,
           "marked_by_both": both, "both_share": both / max(1, either), "about_equal": equal / 2,
           "cpu_s_per_game": sum(seconds) / max(1, len(seconds))}  # fmt: skip
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", action="append", default=[], metavar="NAME=DIR")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--first-game", type=int, default=0,
                        help="the first game's number (another sample of games: 20, 40, ...)")
    parser.add_argument("--log", help="append the workers' lines (JSON, one a game and seed)")
    parser.add_argument("--from-log", action="store_true", help="print the table of --log")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker:
        worker(int(options.worker[0]), int(options.worker[1]), (0, 1), int(options.worker[2]))
        return 0
    lines: dict[str, list[dict]] = {}
    if options.from_log:
        if not options.log:
            parser.error("--from-log needs --log")
        for text in Path(options.log).read_text().splitlines():
            item = json.loads(text)
            lines.setdefault(item["build"], []).append(item)
    else:
        builds = [tuple(b.split("=", 1)) for b in options.build] or [("src", "src")]
        for name, folder in builds:
            if not (Path(folder) / "tajmahal").is_dir():
                parser.error(f"--build {name}: no tajmahal package in {folder}")
            env = dict(os.environ, PYTHONPATH=str(Path(folder).resolve()))
            command = [sys.executable, str(Path(__file__).resolve()), "--worker",
                       str(options.games), str(options.iterations),
                       str(options.first_game)]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
            if done.returncode != 0:
                raise SystemExit(f"the worker failed on {folder}:\n{done.stderr[-2000:]}")
            lines[name] = [dict(json.loads(t), build=name) for t in done.stdout.splitlines()]
            if options.log:
                with open(options.log, "a") as log:
                    for item in lines[name]:
                        log.write(json.dumps(item) + "\n")
    print(f"{'build':<10} {'games':>5} {'decisions':>9} {'agree':>7} {'marked':>7} "
          f"{'both':>5} {'of them':>7} {'equal':>6} {'CPU s/game':>10}")  # fmt: skip
    for name, items in lines.items():
        row = table(name, items)
        print(f"{name:<10} {row['games']:>5} {row['decisions']:>9} {row['agreement']:>7.1%} "
              f"{row['marked_by_either']:>7} {row['marked_by_both']:>5} {row['both_share']:>7.1%} "
              f"{row['about_equal']:>6.1f} {row['cpu_s_per_game']:>10.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
