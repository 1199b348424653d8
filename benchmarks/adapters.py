"""Steps per second of the adapters' environments, beside the raw engine, in one run.

Every row plays whole random games (each decision a uniformly random legal
action, drawn from the action mask where the framework gives one) for the
same seeds, and divides the steps by the **CPU time** of the process
(``time.process_time``).  One warm-up repetition runs first; the median
over the repetitions is reported.  Rows:

* ``engine``: ``state.legal_moves()`` and ``state.apply(move)``, nothing else;
* ``engine + encoding``: the same, plus what an RL loop needs per decision:
  the deciding seat's encoded observation (``IncrementalEncoder``, as the
  environments encode) and its action mask;
* ``pettingzoo``: the AEC environment, ``agent_iter``/``last()``/``step``
  (one step per decision, the final ``None`` steps not counted);
* ``gymnasium``: the agent's ``env.step`` calls per second, three random bots
  playing the other seats inside them (``decisions/s`` counts every seat's);
* ``openspiel``: ``state.legal_actions()`` / ``state.apply_action()`` on
  ``python_tajmahal``; the setup's chance nodes are dealt before the clock
  starts, a reshuffle's chance nodes count in the time but not in the steps;
* ``openspiel + infostate``: the same plus ``information_state_string`` of
  the deciding seat (what OpenSpiel's ISMCTS asks at every node);
* ``openspiel, own code``: the game's Python methods ``_legal_actions`` and
  ``_apply_action`` called directly, so the adapter's own per-step cost
  shows without the C++/Python crossing of OpenSpiel's Python-game bindings
  (about 15 µs a step here, the same for every Python game);
* ``openspiel engine, same steps``: the engine alone on the very games of the
  ``openspiel, own code`` row (its moves and reshuffle orders recorded before the
  clock starts): ``legal_moves()`` and ``apply(move)`` from a fresh copy of each
  dealt state, a reshuffle ordered as its chance nodes dealt it.  The µs per
  step of ``openspiel, own code`` minus this row's is the **adapter's own cost
  per step beyond the engine** (printed below the table).

``--baseline DIR`` runs the same benchmark of another checkout (``DIR/src``
with ``DIR/benchmarks/adapters.py``, e.g. ``git worktree add /tmp/before main``)
in a child process, one repetition at a time between this checkout's, so
both see the same machine load, and prints the two side by side.  The load
average (``os.getloadavg``) is reported at the start and the end.

Usage::

    python benchmarks/adapters.py                 # 4 players, a table on stdout
    python benchmarks/adapters.py --quick         # a smoke run of a few seconds
    python benchmarks/adapters.py --json out.json # also the results as JSON ('-': JSON only)
    python benchmarks/adapters.py --baseline /tmp/before  # before and after, one run
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
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
    """Random games, each decision also encoding the observation and the mask."""
    encoder, space = observation_encoder(players), action_space()
    if hasattr(encoder, "incremental"):
        encode = encoder.incremental().encode
    else:  # a checkout from before IncrementalEncoder (--baseline)
        encode = lambda state, seat: encoder.encode(state.view(seat))  # noqa: E731
    steps = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = tm.new_game(players, seed=seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            encode(state, seat)
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


def openspiel_setups(players: int, seeds: Sequence[int]) -> list[Any]:
    """One dealt ``python_tajmahal`` state per seed: its setup's chance nodes played."""
    import pyspiel

    import tajmahal.adapters.openspiel_game  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_tajmahal", {"players": players})
    states = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        states.append(state)
    return states


def openspiel(
    players: int, seeds: Sequence[int], states: list[Any], *, information: bool = False
) -> tuple[int, int]:
    steps = 0
    for seed, state in zip(seeds, states, strict=True):
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():  # a reshuffle (D1)
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
                continue
            if information:
                state.information_state_string(state.current_player())  # ISMCTS's node key
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps, steps


@functools.lru_cache(maxsize=8)
def _openspiel_games(players: int, seeds: tuple[int, ...]) -> tuple[tuple[str, list[Any]], ...]:
    """Per seed, ``openspiel_own``'s game: (dealt state as ``tm.dumps``, steps).

    A step is (the move's index in ``legal_moves()``, the chance nodes of the
    reshuffles that followed it, in the order dealt: (outcome drawn, the node's
    ``chance_outcomes()``))."""
    from tajmahal.adapters.actions import action_space

    space = action_space()
    games = []
    for seed, state in zip(seeds, openspiel_setups(players, seeds), strict=True):
        rng = random.Random(seed)
        start = tm.dumps(state.game_state)
        steps: list[Any] = []
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:  # a reshuffle's chance node (D1), as openspiel_own draws it
                outcomes = state.chance_outcomes()
                actions, weights = zip(*outcomes, strict=True)
                outcome = rng.choices(actions, weights)[0]
                state._apply_action(outcome)
                steps[-1][1].append((outcome, outcomes))
                continue
            action = rng.choice(state._legal_actions(player))
            steps.append((state.game_state.legal_moves().index(space.decode(action)), []))
            state._apply_action(action)
        games.append((start, steps))
    return tuple(games)


def openspiel_engine_games(players: int, seeds: Sequence[int]) -> list[tuple[Any, list[Any]]]:
    """``openspiel_own``'s games for the engine alone: fresh dealt states and their steps."""
    return [(tm.loads(start), steps) for start, steps in _openspiel_games(players, tuple(seeds))]


def _ordered(nodes: list[tuple[int, Any]]) -> Callable[[tuple[int, ...], int], tuple[int, ...]]:
    """The reshuffle order of the chance nodes' outcomes (top card first; the engine wants
    it last)."""
    used = 0

    def order(pile: tuple[int, ...], index: int) -> tuple[int, ...]:
        nonlocal used
        used += len(pile)
        return tuple(reversed([outcome for outcome, _ in nodes[used - len(pile) : used]]))

    return order


def openspiel_engine(
    players: int, seeds: Sequence[int], games: list[tuple[Any, list[Any]]]
) -> tuple[int, int]:
    """The engine alone on ``openspiel_own``'s games: ``legal_moves()`` and ``apply``.

    The driver's own work is done as ``openspiel_own`` does it (a random draw per
    decision, a weighted one per chance node, their results unused: the recorded
    game is played), so that the two rows differ by the adapter's work alone."""
    steps = 0
    for seed, (state, record) in zip(seeds, games, strict=True):
        rng = random.Random(seed)
        for index, nodes in record:
            moves = state.legal_moves()
            rng.choice(moves)
            if nodes:  # a reshuffle ordered by chance nodes (a build that has them)
                from tajmahal.rules.reshuffles import ordering_reshuffles

                for _, outcomes in nodes:
                    actions, weights = zip(*outcomes, strict=True)
                    rng.choices(actions, weights)
                with ordering_reshuffles(_ordered(nodes)):
                    state = state.apply(moves[index])
            else:
                state = state.apply(moves[index])
            steps += 1
        assert state.is_over
    return steps, steps


def openspiel_information(players: int, seeds: Sequence[int], states: list[Any]) -> tuple[int, int]:
    return openspiel(players, seeds, states, information=True)


def openspiel_own(players: int, seeds: Sequence[int], states: list[Any]) -> tuple[int, int]:
    """The game's own Python methods called directly: the adapter without pybind's crossing."""
    steps = 0
    for seed, state in zip(seeds, states, strict=True):
        rng = random.Random(seed)
        while not state.is_terminal():
            player = state.current_player()
            if player < 0:  # a reshuffle's chance node (D1)
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state._apply_action(rng.choices(actions, weights)[0])
                continue
            state._apply_action(rng.choice(state._legal_actions(player)))
            steps += 1
    return steps, steps


ROWS: dict[str, Callable[..., tuple[int, int]]] = {
    "engine": engine,
    "engine + encoding": engine_encoding,
    "pettingzoo": pettingzoo,
    "gymnasium": gymnasium,
    "openspiel": openspiel,
    "openspiel + infostate": openspiel_information,
    "openspiel, own code": openspiel_own,
    "openspiel engine, same steps": openspiel_engine,
}


#: what a row needs made before the clock starts
PREPARE: dict[str, Callable[[int, Sequence[int]], Any]] = {
    "openspiel": openspiel_setups,
    "openspiel + infostate": openspiel_setups,
    "openspiel, own code": openspiel_setups,
    "openspiel engine, same steps": openspiel_engine_games,
}


def measure(row: str, players: int, seeds: Sequence[int]) -> tuple[float, float]:
    """(steps/s, decisions/s) of one repetition, per second of CPU time."""
    extra = (PREPARE[row](players, seeds),) if row in PREPARE else ()
    gc.collect()  # the garbage of earlier rows and of the preparation, not in this row's time
    start = time.process_time()
    steps, decisions = ROWS[row](players, seeds, *extra)
    elapsed = time.process_time() - start
    return steps / elapsed, decisions / elapsed


def load() -> list[float]:
    """The machine's 1, 5 and 15 minute load averages."""
    return [round(x, 2) for x in os.getloadavg()]


def baseline_rows(directory: Path, players: int, games: int, seed: int) -> dict[str, Any]:
    """One timed repetition of this benchmark on another checkout's ``src``, in a child."""
    env = {**os.environ, "PYTHONPATH": str(directory / "src")}
    command = [sys.executable, __file__, "--json", "-", "--players", str(players)]
    command += ["--games", str(games), "--reps", "1", "--seed", str(seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the baseline run failed:\n{done.stderr}")
    rows: dict[str, Any] = json.loads(done.stdout)["rows"]
    return rows


def medians(samples: dict[str, list[tuple[float, float]]]) -> dict[str, dict[str, float]]:
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
    return rows


OWN, SAME_STEPS = "openspiel, own code", "openspiel engine, same steps"


def own_beyond_engine(samples: dict[str, list[tuple[float, float]]]) -> float:
    """The adapter's own µs per step beyond the engine: per repetition, then the median."""
    return statistics.median(
        1e6 / own - 1e6 / engine
        for (own, _), (engine, _) in zip(samples[OWN], samples[SAME_STEPS], strict=True)
    )


def run(
    players: int, games: int, reps: int, seed: int, baseline: Path | None = None
) -> dict[str, Any]:
    """Every row, repetitions interleaved (row by row within a repetition), medians.

    With ``baseline``, each timed repetition also runs once on that checkout.
    """
    samples: dict[str, list[tuple[float, float]]] = {row: [] for row in ROWS}
    before: dict[str, list[tuple[float, float]]] = {row: [] for row in ROWS}
    start_load = load()
    for rep in range(reps + 1):  # repetition 0 is the warm-up
        seeds = [(seed + 1000 * rep + g) % 65536 for g in range(games)]
        for row in ROWS:
            sample = measure(row, players, seeds)
            if rep:
                samples[row].append(sample)
        if rep and baseline is not None:  # its timed repetition has the same seeds
            child = baseline_rows(baseline, players, games, seed + 1000 * (rep - 1))
            for row, values in child.items():
                before[row].append((values["steps_per_s"], values["decisions_per_s"]))
    result: dict[str, Any] = {
        "players": players,
        "games_per_repetition": games,
        "repetitions": reps,
        "seed": seed,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load_average": {"start": start_load, "end": load()},
        "rows": medians(samples),
        "openspiel_own_beyond_engine_us": own_beyond_engine(samples),
    }
    if baseline is not None:
        result["baseline"] = {
            "directory": str(baseline),
            "rows": medians(before),
            "openspiel_own_beyond_engine_us": own_beyond_engine(before),
        }
    return result


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['players']} players, {result['games_per_repetition']} random games per "
        f"repetition, median of {result['repetitions']} (CPU time); load average "
        f"{result['load_average']['start']} at the start, {result['load_average']['end']} "
        "at the end",
    ]
    rows = result["rows"]
    old = result.get("baseline", {}).get("rows")
    if old is None:
        lines.append(f"{'':28} {'steps/s':>10} {'decisions/s':>12} {'vs engine':>10}")
        for row, values in rows.items():
            lines.append(
                f"{row:28} {values['steps_per_s']:10.0f} {values['decisions_per_s']:12.0f} "
                f"{values['share_of_engine']:10.3f}"
            )
        lines.append(
            "OpenSpiel adapter's own µs per step beyond the engine (own code - engine, "
            f"same steps): {result['openspiel_own_beyond_engine_us']:.1f}"
        )
        return "\n".join(lines)
    lines.append(f"before: {result['baseline']['directory']}; after: this checkout")
    lines.append(
        f"{'':28} {'steps/s before':>15} {'after':>9} {'vs engine before':>17} {'after':>7}"
    )
    for row, values in rows.items():
        was = old[row]
        lines.append(
            f"{row:28} {was['steps_per_s']:15.0f} {values['steps_per_s']:9.0f} "
            f"{was['share_of_engine']:17.3f} {values['share_of_engine']:7.3f}"
        )

    def adapter_cost(table: dict[str, Any], row: str) -> float:
        """Microseconds per OpenSpiel step beyond the bare engine's."""
        return float(1e6 / table[row]["steps_per_s"] - 1e6 / table["engine"]["steps_per_s"])

    for row in ("openspiel", "openspiel + infostate", "openspiel, own code"):
        was, now = adapter_cost(old, row), adapter_cost(rows, row)
        lines.append(
            f"{row}: cost per step beyond the engine {was:.1f} µs before, "
            f"{now:.1f} µs after ({now / was:.2f}x)"
        )
    was = result["baseline"]["openspiel_own_beyond_engine_us"]
    now = result["openspiel_own_beyond_engine_us"]
    lines.append(
        "OpenSpiel adapter's own µs per step beyond the engine (own code - engine, same "
        f"steps): {was:.1f} before, {now:.1f} after ({now / was:.2f}x)"
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
    parser.add_argument(
        "--baseline", metavar="DIR", type=Path, help="also time the checkout DIR (before/after)"
    )
    args = parser.parse_args(argv)
    if args.baseline is not None and not (args.baseline / "src" / "tajmahal").is_dir():
        parser.error(f"--baseline: {args.baseline} has no src/tajmahal")
    if args.quick:
        args.games, args.reps = 1, 1
    if args.games < 1 or args.reps < 1:
        parser.error("--games and --reps must be at least 1")
    result = run(args.players, args.games, args.reps, args.seed, args.baseline)
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
