"""CPU seconds per decision of player specs on the same positions, side by side.

The positions: every ninth decision with a choice of four seeded ``greedy`` games at each
number of seats.  Each round builds every spec afresh (seed = the round) and times its
decisions on all the positions with the process's CPU clock, the specs in turn, so that a
change in the machine's load falls on all alike; the table gives each spec's median over the
rounds and its ratio to the first spec's::

    PYTHONPATH=build/compiled python benchmarks/decision_cost.py ismcts-v3 ismcts:rollout=model

See docs/performance.md ("A learned model of the other seats").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

import tajmahal as tm


def positions(seats: int, games: int = 4, every: int = 9) -> list[tm.GameState]:
    """Every ``every``-th decision with a choice of ``games`` seeded greedy games."""
    found = []
    for seed in range(games):
        state = tm.new_game(num_players=seats, seed=seed)
        for number, move in enumerate(tm.play_match(["greedy"] * seats, seed=seed).record.moves):
            if number % every == 0 and len(state.legal_moves()) > 1:
                found.append(state)
            state = state.apply(move)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", help="player specs; the first is the reference")
    parser.add_argument("--seats", type=int, action="append", help="3, 4 or 5 (repeatable)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the median counts)")
    args = parser.parse_args(argv)
    print("| seats | decisions | " + " | ".join(f"`{s}` CPU s (ratio)" for s in args.specs) + " |")
    print("|---|---:|" + "---:|" * len(args.specs))
    for seats in args.seats or [3, 4, 5]:
        states = positions(seats)
        times: dict[str, list[float]] = {spec: [] for spec in args.specs}
        for number in range(args.rounds):
            for spec in args.specs:
                bot = tm.bots.create(spec, seed=number)
                started = time.process_time()
                for state in states:
                    bot.choose(state.view(state.current_player), state.legal_moves())
                times[spec].append((time.process_time() - started) / len(states))
        base = statistics.median(times[args.specs[0]])
        cells = [f"{statistics.median(times[s]):.4f} ({statistics.median(times[s]) / base:.2f}×)"
                 for s in args.specs]  # fmt: skip
        print(f"| {seats} | {len(states)} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
