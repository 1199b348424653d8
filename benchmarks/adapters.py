"""Steps per second of the adapters' environments, beside the raw engine, in one run.

Every row plays whole random games (each decision a uniformly random legal
action, drawn from the action mask where the framework gives one) for the
same seeds, and divides the steps by the **CPU time** of the process
(``time.process_time``).  One warm-up repetition runs first; the median
over the repetitions is reported.  Rows:

* ``engine``: ``state.legal_moves()`` and ``state.apply(move)``, nothing else;
* ``engine + encoding``: the same, plus what an RL loop needs per decision:
  the deciding seat's view, its encoded observation and its action mask;
* ``pettingzoo``: the AEC environment, ``agent_iter``/``last()``/``step``
  (one step per decision, the final ``None`` steps not counted);
* ``gymnasium``: the agent's ``env.step`` calls per second, three random bots
  playing the other seats inside them (``decisions/s`` counts every seat's);
* ``openspiel``: ``state.legal_actions()`` / ``state.apply_action()`` on
  ``python_tajmahal`` (the deal's chance node not counted).

Usage::

    python benchmarks/adapters.py                 # 4 players, a table on stdout
    python benchmarks/adapters.py --quick         # a smoke run of a few seconds
    python benchmarks/adapters.py --json out.json # also the results as JSON ('-': JSON only)
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import tajmahal as tm
from tajmahal.adapters.actions import action_space
from tajmahal.adapters.observations import observation_encoder

DEFAULT_SEED = 20240607


def engine(players: int, seeds: Sequence[int]) -> tuple[int, int]:
    """(decisions, decisions) of random games through the engine alone."""
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = tm.new_game(players, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            steps += 1
    return steps, steps


def engine_encoding(players: int, seeds: Sequence[int]) -> tuple[int, int]:
    """Random games, each decision also building the view, observation and mask."""
    encoder, space = observation_encoder(players), action_space()
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = tm.new_game(players, seed=seed)
        while not state.is_over:
            view = state.view(state.current_player)  # type: ignore[arg-type]
            encoder.encode(view)
            mask = space.mask(state)
            action = rng.choice(np.flatnonzero(mask).tolist())
            state = state.apply(space.decode(action))
            steps += 1
    return steps, steps


def pettingzoo(players: int, seeds: Sequence[int]) -> tuple[int, int]:
    from tajmahal.adapters.pettingzoo_env import TajMahalAECEnv

    environment = TajMahalAECEnv(num_players=players)
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        environment.reset(seed=seed)
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return steps, steps


class CountingRandom(tm.bots.RandomBot):
    """The random bot, counting its decisions (the opponents of the Gymnasium row)."""

    calls = 0

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        CountingRandom.calls += 1
        return super().choose(view, legal_moves)


def gymnasium(players: int, seeds: Sequence[int]) -> tuple[int, int]:
    from tajmahal.adapters.gymnasium_env import TajMahalEnv

    environment = TajMahalEnv([CountingRandom(seed=s) for s in range(players - 1)])
    steps = 0
    CountingRandom.calls = 0
    for seed in seeds:
        rng = random.Random(seed)
        observation, _ = environment.reset(seed=seed)
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            observation, _, done, _, _ = environment.step(action)
            steps += 1
    return steps, steps + CountingRandom.calls


def openspiel(players: int, seeds: Sequence[int]) -> tuple[int, int]:
    import pyspiel

    import tajmahal.adapters.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_tajmahal", {"players": players})
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply_action(seed % game.max_chance_outcomes())
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, steps


ROWS: dict[str, Callable[[int, Sequence[int]], tuple[int, int]]] = {
    "engine": engine,
    "engine + encoding": engine_encoding,
    "pettingzoo": pettingzoo,
    "gymnasium": gymnasium,
    "openspiel": openspiel,
}


def measure(row: str, players: int, seeds: Sequence[int]) -> tuple[float, float]:
    """(steps/s, decisions/s) of one repetition, per second of CPU time."""
    start = time.process_time()
    steps, decisions = ROWS[row](players, seeds)
    elapsed = time.process_time() - start
    return steps / elapsed, decisions / elapsed


def run(players: int, games: int, reps: int, seed: int) -> dict[str, Any]:
    """Every row, repetitions interleaved (row by row within a repetition), medians."""
    samples: dict[str, list[tuple[float, float]]] = {row: [] for row in ROWS}
    for rep in range(reps + 1):  # repetition 0 is the warm-up
        seeds = [(seed + 1000 * rep + g) % 65536 for g in range(games)]
        for row in ROWS:
            result = measure(row, players, seeds)
            if rep:
                samples[row].append(result)
    rows = {
        row: {
            "steps_per_s": statistics.median(s for s, _ in values),
            "decisions_per_s": statistics.median(d for _, d in values),
        }
        for row, values in samples.items()
    }
    raw = rows["engine"]["steps_per_s"]
    for values in rows.values():
        values["share_of_engine"] = values["decisions_per_s"] / raw
    return {
        "players": players,
        "games_per_repetition": games,
        "repetitions": reps,
        "seed": seed,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "rows": rows,
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['players']} players, {result['games_per_repetition']} random games per "
        f"repetition, median of {result['repetitions']} (CPU time)",
        f"{'':20} {'steps/s':>10} {'decisions/s':>12} {'vs engine':>10}",
    ]
    for row, values in result["rows"].items():
        lines.append(
            f"{row:20} {values['steps_per_s']:10.0f} {values['decisions_per_s']:12.0f} "
            f"{values['share_of_engine']:10.3f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--games", type=int, default=4, help="random games per repetition")
    parser.add_argument("--reps", type=int, default=5, help="timed repetitions")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--quick", action="store_true", help="1 game, 1 repetition")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON ('-': stdout)")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.reps = 1, 1
    if args.games < 1 or args.reps < 1:
        parser.error("--games and --reps must be at least 1")
    result = run(args.players, args.games, args.reps, args.seed)
    if args.json == "-":
        print(json.dumps(result, indent=2))
        return 0
    print(table(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
