"""What ``ismcts:jobs=N`` buys: iterations per decision at an equal time budget, per ``jobs``.

Every ``jobs`` value decides the same positions (decisions with a choice,
from greedy games), interleaved (one decision each in turn, so that a change
in the machine's load touches every value alike), after a first decision
that starts the workers.  Prints, per ``jobs``: the mean iterations per
decision, their ratio to ``jobs=1``, the shares that counted (a worker late
for the time budget does not), and the mean wall seconds per decision::

    python benchmarks/parallel_search.py --time-limit 0.2 --jobs 1 2 --decisions 40

On a machine busy with other programs the ratio says what that machine can
give, not what the search can do: measure on an idle one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import tajmahal as tm
from tajmahal.bots.ismcts import IsmctsBot
from tajmahal.rules.state import GameState


def positions(count: int, seed: int) -> list[GameState]:
    """``count`` states with more than two legal moves, from greedy games of 3 players."""
    found: list[GameState] = []
    greedy = tm.bots.create("greedy")
    while len(found) < count:
        state = tm.new_game(3, seed=seed)
        while not state.is_over and len(found) < count:
            if len(state.legal_moves()) > 2:
                found.append(state)
            seat = state.current_player
            assert seat is not None
            state = state.apply(greedy.choose(state.view(seat), state.legal_moves()))
        seed += 1
    return found


def measure(jobs_values: Sequence[int], time_limit: float, decisions: int, seed: int) -> list[str]:
    """One line per ``jobs`` value (see the module docs)."""
    states = positions(decisions + 1, seed)
    bots = {jobs: IsmctsBot(seed=seed, time_limit=time_limit, jobs=jobs) for jobs in jobs_values}
    iterations: dict[int, list[int]] = {jobs: [] for jobs in jobs_values}
    shares: dict[int, list[int]] = {jobs: [] for jobs in jobs_values}
    walls: dict[int, list[float]] = {jobs: [] for jobs in jobs_values}
    try:
        for number, state in enumerate(states):
            seat = state.current_player
            assert seat is not None
            for jobs, bot in bots.items():
                start = time.perf_counter()
                bot.choose(state.view(seat), state.legal_moves())
                if number:  # the first decision starts the workers: not counted
                    walls[jobs].append(time.perf_counter() - start)
                    iterations[jobs].append(bot.last_iterations)
                    shares[jobs].append(bot.last_shares)
    finally:
        for bot in bots.values():
            bot.close()
    base = sum(iterations[jobs_values[0]]) / decisions
    lines = []
    for jobs in jobs_values:
        mean = sum(iterations[jobs]) / decisions
        lines.append(
            f"jobs={jobs}: {mean:.0f} iterations per decision ({mean / base:.2f}x jobs="
            f"{jobs_values[0]}), shares counted {sum(shares[jobs]) / decisions:.2f} of {jobs}, "
            f"{sum(walls[jobs]) / decisions:.3f} s wall per decision "
            f"(time_limit {time_limit:g} s, {decisions} decisions)"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=0.2, help="seconds per decision")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="jobs values")
    parser.add_argument("--decisions", type=int, default=40, help="decisions per jobs value")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.time_limit <= 0 or any(j < 1 for j in args.jobs):
        parser.error("--decisions, --time-limit and --jobs must be positive")
    for line in measure(args.jobs, args.time_limit, args.decisions, args.seed):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
