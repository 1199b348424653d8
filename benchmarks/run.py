"""Benchmarks of the tajmahal rules engine (see benchmarks/README.md).

Measures, for 3, 4 and 5 players, with a fixed seed, a warm-up and several
repetitions (the median is reported unless a row says otherwise):

* random playouts: decisions (moves applied) per second and full games per second,
  per second of the process's CPU time (less disturbed by other programs);
* matches per second: ``tm.play_match`` with ``random`` bots (the referee asks each
  bot with its view, as in any match);
* the microseconds of one ``legal_moves()`` on a fresh (uncached) state and of one
  ``apply()`` on a state whose legal moves are already known (mean and median);
* the view cost: ``state.view(seat)`` for the deciding seat at every decision of
  games played as a match plays them (view, then apply), mean and median, and its
  mean divided by the mean ``apply()`` of the same games;
* ``tm.dumps`` / ``tm.loads`` microseconds per state, and ``view.sample``: the first
  sample of a view (which prepares what every sample of it shares) and a repeated one;
* the fast playout path (``tajmahal.rules.playout``): the same random games from
  their deals, decisions per second, beside ``legal_moves``/``apply`` on the same
  deals (both timed without the deal), and the ratio (per repetition, then the median);
* the ``ismcts`` bot: search iterations per second at the first decision of visit 6;
* the memory retained per state along a game (tracemalloc over a full game's
  trail of states, as a random playout leaves them);
* with ``--compare-openspiel``: random playouts of OpenSpiel's pure-Python games
  ``python_block_dominoes``, ``python_liars_poker`` and ``python_kuhn_poker`` in the
  same run, interleaved with ours, and the ratio of our decisions per second to
  each one's (per repetition, then the median).

Usage::

    python benchmarks/run.py                      # full run, table on stdout
    python benchmarks/run.py --quick              # a smoke run of a few seconds
    python benchmarks/run.py --json results.json  # also write JSON ('-': JSON only, to stdout)
    python benchmarks/run.py --compare-openspiel  # needs OpenSpiel (the 'bench' extra)
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import attrs

import tajmahal as tm
from tajmahal.bots.ismcts import IsmctsBot
from tajmahal.rules.playout import Playout

PLAYER_COUNTS = (3, 4, 5)
DEFAULT_SEED = 20240607
#: OpenSpiel's pure-Python games, each registered by importing its module
OPENSPIEL_GAMES = {
    "python_block_dominoes": "open_spiel.python.games.block_dominoes",
    "python_liars_poker": "open_spiel.python.games.liars_poker",
    "python_kuhn_poker": "open_spiel.python.games.kuhn_poker",
}


# ----------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class Settings:
    """How much work one run does."""

    seed: int = DEFAULT_SEED
    reps: int = 9  #: timed repetitions (after one warm-up)
    games: int = 15  #: random playouts per repetition and player count
    matches: int = 4  #: play_match calls with random bots per repetition and player count
    trail_games: int = 4  #: games whose states feed the per-call timings
    codec_states: int = 150  #: states per repetition for dumps/loads/sample
    openspiel_games: int = 600  #: OpenSpiel playouts per repetition
    ismcts_iterations: int = 300  #: iterations of one timed ismcts decision
    quick: bool = False  #: the --quick smoke settings


QUICK = Settings(
    reps=2,
    games=2,
    matches=1,
    trail_games=1,
    codec_states=20,
    openspiel_games=100,
    ismcts_iterations=30,
    quick=True,
)


# ----------------------------------------------------------------------------- components


def bench_components() -> tuple[tm.Components, str]:
    """The components every benchmark game uses, and their name."""
    return tm.standard_components(), "standard"


# ----------------------------------------------------------------------------- helpers


def median(values: Sequence[float]) -> float:
    """The median of ``values`` (0.0 when there are none)."""
    return statistics.median(values) if values else 0.0


def mean(values: Sequence[float]) -> float:
    """The mean of ``values`` (0.0 when there are none)."""
    return statistics.fmean(values) if values else 0.0


def playout(state: tm.GameState, rng: random.Random) -> Iterator[tm.GameState]:
    """Every state of one game played with uniformly random legal moves."""
    yield state
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
        yield state


def game_seed(settings: Settings, players: int, rep: int, game: int) -> int:
    """The setup seed of one benchmark game (fixed by the run's seed)."""
    return settings.seed + 100_000 * players + 1_000 * rep + game


def trail(comps: tm.Components, settings: Settings, players: int) -> list[tm.GameState]:
    """The states of ``settings.trail_games`` seeded random games."""
    states: list[tm.GameState] = []
    for g in range(settings.trail_games):
        rng = random.Random(settings.seed + g)
        seed = game_seed(settings, players, 99, g)
        states.extend(playout(tm.new_game(players, seed=seed, components=comps), rng))
    return states


def time_each(calls: Sequence[Callable[[], object]]) -> list[float]:
    """Microseconds taken by each call."""
    out: list[float] = []
    clock = time.perf_counter_ns
    for call in calls:
        start = clock()
        call()
        out.append((clock() - start) / 1000)
    return out


def spread(states: Sequence[Any], count: int) -> list[Any]:
    """At most ``count`` items of ``states``, evenly spread along it."""
    if len(states) <= count:
        return list(states)
    step = len(states) / count
    return [states[int(i * step)] for i in range(count)]


# ----------------------------------------------------------------------------- measurements


def random_playouts(
    comps: tm.Components, settings: Settings, players: int, rep: int
) -> tuple[float, float, int]:
    """One repetition: (decisions per second, games per second, decisions)."""
    rng = random.Random(settings.seed * 7 + rep)
    decisions = 0
    start = time.process_time()
    for g in range(settings.games):
        state = tm.new_game(players, seed=game_seed(settings, players, rep, g), components=comps)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            decisions += 1
    elapsed = time.process_time() - start
    return decisions / elapsed, settings.games / elapsed, decisions


def random_matches(settings: Settings, players: int, rep: int) -> float:
    """One repetition: ``tm.play_match`` with ``random`` bots, matches per second of CPU time."""
    start = time.process_time()
    for g in range(settings.matches):
        tm.play_match(["random"] * players, seed=game_seed(settings, players, rep, g))
    return settings.matches / (time.process_time() - start)


def view_and_apply_us(
    comps: tm.Components, settings: Settings, players: int
) -> tuple[list[float], list[float]]:
    """Microseconds of each ``view`` and each ``apply`` in games played as a match plays them.

    At every decision the deciding seat's view is built, then a random legal
    move is applied: each view follows the view of the state before, as in a
    match (views reuse what did not change since).
    """
    views: list[float] = []
    applies: list[float] = []
    clock = time.perf_counter_ns
    for g in range(settings.trail_games):
        rng = random.Random(settings.seed + g)
        state = tm.new_game(players, seed=game_seed(settings, players, 97, g), components=comps)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            start = clock()
            state.view(seat)
            views.append((clock() - start) / 1000)
            move = rng.choice(state.legal_moves())
            start = clock()
            state = state.apply(move)
            applies.append((clock() - start) / 1000)
    return views, applies


def dealt_playouts(
    comps: tm.Components, settings: Settings, players: int, rep: int
) -> tuple[float, float]:
    """The games of :func:`random_playouts` from their dealt first states, timed without the
    deal: (decisions/s with ``legal_moves``/``apply``, decisions/s on the fast playout path).

    Both pick each move uniformly at random; the two runs are back to back.
    """
    deals = [
        tm.new_game(players, seed=game_seed(settings, players, rep, g), components=comps)
        for g in range(settings.games)
    ]
    rng = random.Random(settings.seed * 7 + rep)
    decisions = 0
    start = time.process_time()
    for state in deals:
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            decisions += 1
    engine = decisions / (time.process_time() - start)
    rng = random.Random(settings.seed * 7 + rep)
    decisions = 0
    start = time.process_time()
    for state in deals:
        game = Playout(state)  # the copy into the playout's lists is part of the path
        game.run(rng)
        decisions += game.decisions
    return engine, decisions / (time.process_time() - start)


def visit_six(comps: tm.Components, settings: Settings, players: int) -> tm.GameState:
    """The first decision of visit 6 of a seeded game played by ``greedy`` bots."""
    state = tm.new_game(players, seed=game_seed(settings, players, 97, 0), components=comps)
    greedy = tm.bots.create("greedy")
    while state.visit < 6:
        seat = state.current_player
        assert seat is not None
        state = state.apply(greedy.choose(state.view(seat), state.legal_moves()))
    return state


def ismcts_rate(state: tm.GameState, settings: Settings, rep: int) -> float:
    """Iterations per CPU second of one ``ismcts`` decision (its fixed iteration budget)."""
    bot = IsmctsBot(seed=settings.seed + rep, iterations=settings.ismcts_iterations)
    seat = state.current_player
    assert seat is not None
    view, legal = state.view(seat), state.legal_moves()
    start = time.process_time()
    bot.choose(view, legal)
    return bot.last_iterations / (time.process_time() - start)


def legal_moves_us(states: Sequence[tm.GameState]) -> list[float]:
    """``legal_moves()`` on fresh copies of ``states`` (nothing cached yet)."""
    fresh = [attrs.evolve(s) for s in states if not s.is_over]
    return time_each([s.legal_moves for s in fresh])


def apply_us(states: Sequence[tm.GameState], rng: random.Random) -> list[float]:
    """``apply()`` of a random legal move, its legal moves already known (as in a playout)."""
    calls: list[Callable[[], object]] = []
    for s in states:
        if not s.is_over:
            move = rng.choice(s.legal_moves())
            calls.append(lambda s=s, move=move: s.apply(move))  # type: ignore[misc]
    return time_each(calls)


def codec_us(states: Sequence[tm.GameState]) -> tuple[list[float] | None, list[float] | None]:
    """``tm.dumps`` and ``tm.loads`` per state, or None while they do not exist."""
    dumps = getattr(tm, "dumps", None)
    loads = getattr(tm, "loads", None)
    if dumps is None:
        return None, None
    out = time_each([lambda s=s: dumps(s) for s in states])  # type: ignore[misc]
    if loads is None:
        return out, None
    texts = [dumps(s) for s in states]
    return out, time_each([lambda x=x: loads(x) for x in texts])  # type: ignore[misc]


def sample_us(
    states: Sequence[tm.GameState], rng: random.Random
) -> tuple[list[float], list[float]] | None:
    """``view.sample(rng)`` for the deciding seat's view: a view's first sample, then another.

    None while views cannot sample.
    """
    views = [s.view(s.current_player) for s in states if s.current_player is not None]
    if not views or not hasattr(views[0], "sample"):
        return None
    first = time_each([lambda v=v: v.sample(rng) for v in views])  # type: ignore[misc]
    again = time_each([lambda v=v: v.sample(rng) for v in views])  # type: ignore[misc]
    return first, again


def memory_per_state(comps: tm.Components, settings: Settings, players: int) -> float:
    """Bytes retained per state by a full game's trail of states (tracemalloc)."""
    rng = random.Random(settings.seed)
    first = tm.new_game(players, seed=game_seed(settings, players, 98, 0), components=comps)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        states = list(playout(first, rng))
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return retained / len(states)


# ----------------------------------------------------------------------------- OpenSpiel


def openspiel_games() -> dict[str, Any]:
    """OpenSpiel's pure-Python games of :data:`OPENSPIEL_GAMES` (ImportError if missing)."""
    pyspiel = importlib.import_module("pyspiel")  # optional: the 'bench' extra
    games = {}
    for name, module in OPENSPIEL_GAMES.items():
        importlib.import_module(module)  # registers the game
        games[name] = pyspiel.load_game(name)
    return games


def openspiel_playouts(game: Any, settings: Settings, rep: int) -> tuple[float, float, int]:
    """One repetition of OpenSpiel random playouts: (decisions/s, games/s, decisions).

    Chance nodes (the deal) are sampled from their outcome probabilities and are
    not counted as decisions; their cost is part of the game, as our deals are.
    """
    rng = random.Random(settings.seed * 7 + rep)
    decisions = 0
    start = time.process_time()
    for _ in range(settings.openspiel_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    elapsed = time.process_time() - start
    return decisions / elapsed, settings.openspiel_games / elapsed, decisions


# ----------------------------------------------------------------------------- the run


@dataclass
class Row:
    """One player count's results."""

    decisions_per_s: list[float] = field(default_factory=list)
    dealt_per_s: list[float] = field(default_factory=list)
    playout_per_s: list[float] = field(default_factory=list)
    playout_ratio: list[float] = field(default_factory=list)
    ismcts_per_s: list[float] = field(default_factory=list)
    games_per_s: list[float] = field(default_factory=list)
    matches_per_s: list[float] = field(default_factory=list)
    decisions: int = 0
    games: int = 0
    legal_us: list[float] = field(default_factory=list)
    apply_us: list[float] = field(default_factory=list)
    view_us: list[float] = field(default_factory=list)
    match_apply_us: list[float] = field(default_factory=list)  #: apply beside the views
    dumps_us: list[float] | None = None
    loads_us: list[float] | None = None
    sample_us: list[float] | None = None
    sample_again_us: list[float] | None = None
    memory: float = 0.0


@dataclass
class SpielRow:
    """One OpenSpiel game's results."""

    rates: list[float] = field(default_factory=list)
    games_per_s: list[float] = field(default_factory=list)
    decisions: int = 0


def optional_median(values: list[float] | None) -> float | None:
    """The median, or None for a measurement that does not exist."""
    return None if values is None else median(values)


def _extend(values: list[float] | None, more: list[float]) -> list[float]:
    return (values or []) + more


def run(settings: Settings, compare_openspiel: bool) -> dict[str, Any]:
    """Run every measurement; the result is what ``--json`` writes."""
    comps, board = bench_components()
    rows = {n: Row() for n in PLAYER_COUNTS}
    spiels = openspiel_games() if compare_openspiel else {}
    spiel_rows = {name: SpielRow() for name in spiels}
    rng = random.Random(settings.seed)
    searched = {n: visit_six(comps, settings, n) for n in PLAYER_COUNTS}
    for rep in range(-1, settings.reps):  # rep -1 is the warm-up
        for n in PLAYER_COUNTS:
            gc.collect()  # playouts run with no other benchmark data alive
            rate, games, decisions = random_playouts(comps, settings, n, rep)
            matches = random_matches(settings, n, rep)
            dealt, fast = dealt_playouts(comps, settings, n, rep)
            iterations = ismcts_rate(searched[n], settings, rep)
            states = trail(comps, settings, n)
            legal = legal_moves_us(states)
            applied = apply_us(states, rng)
            viewed, applied_beside = view_and_apply_us(comps, settings, n)
            some = spread(states, settings.codec_states)
            dumps, loads = codec_us(some)
            sampled = sample_us(some, rng)
            del states, some
            if rep < 0:
                continue
            row = rows[n]
            row.decisions_per_s.append(rate)
            row.dealt_per_s.append(dealt)
            row.playout_per_s.append(fast)
            row.playout_ratio.append(fast / dealt)
            row.ismcts_per_s.append(iterations)
            row.games_per_s.append(games)
            row.matches_per_s.append(matches)
            row.decisions += decisions
            row.games += settings.games
            row.legal_us += legal
            row.apply_us += applied
            row.view_us += viewed
            row.match_apply_us += applied_beside
            if dumps is not None:
                row.dumps_us = _extend(row.dumps_us, dumps)
            if loads is not None:
                row.loads_us = _extend(row.loads_us, loads)
            if sampled is not None:
                row.sample_us = _extend(row.sample_us, sampled[0])
                row.sample_again_us = _extend(row.sample_again_us, sampled[1])
        for name, game in spiels.items():
            gc.collect()
            rate, games, decisions = openspiel_playouts(game, settings, rep)
            if rep >= 0:
                spiel_rows[name].rates.append(rate)
                spiel_rows[name].games_per_s.append(games)
                spiel_rows[name].decisions += decisions
    for n in PLAYER_COUNTS:
        rows[n].memory = memory_per_state(comps, settings, n)
    result: dict[str, Any] = {
        "machine": machine(),
        "board": board,
        "settings": vars(settings),
        "players": {
            str(n): {
                "decisions_per_s": median(r.decisions_per_s),
                "games_per_s": median(r.games_per_s),
                "matches_per_s": median(r.matches_per_s),
                "decisions_per_game": r.decisions / r.games if r.games else 0.0,
                "dealt_decisions_per_s": median(r.dealt_per_s),
                "playout_decisions_per_s": median(r.playout_per_s),
                "playout_ratio": median(r.playout_ratio),
                "ismcts_iterations_per_s": median(r.ismcts_per_s),
                "legal_moves_us": median(r.legal_us),
                "apply_us": median(r.apply_us),
                "apply_mean_us": mean(r.apply_us),
                "view_us": median(r.view_us),
                "view_mean_us": mean(r.view_us),
                "view_per_apply": mean(r.view_us) / mean(r.match_apply_us)
                if r.match_apply_us
                else 0.0,
                "dumps_us": optional_median(r.dumps_us),
                "loads_us": optional_median(r.loads_us),
                "sample_us": optional_median(r.sample_us),
                "sample_again_us": optional_median(r.sample_again_us),
                "memory_bytes_per_state": r.memory,
            }
            for n, r in rows.items()
        },
        "openspiel": None,
    }
    if spiels:
        played = settings.openspiel_games * settings.reps
        result["openspiel"] = {
            "version": _version("open-spiel"),
            "games": {
                name: {
                    "decisions_per_s": median(row.rates),
                    "games_per_s": median(row.games_per_s),
                    "decisions_per_game": row.decisions / played,
                    # per repetition, ours / theirs in the same repetition; the median
                    "ratio": {
                        str(n): median(
                            [
                                ours / them
                                for ours, them in zip(
                                    rows[n].decisions_per_s, row.rates, strict=True
                                )
                            ]
                        )
                        for n in PLAYER_COUNTS
                    },
                }
                for name, row in spiel_rows.items()
            },
        }
    return result


def _version(dist: str) -> str | None:
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    """What the run ran on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "tajmahal": tm.__version__,
    }


# ----------------------------------------------------------------------------- output


def table(result: dict[str, Any]) -> str:
    """The results as a Markdown table (one column per player count)."""
    players = result["players"]

    def line(label: str, key: str, fmt: str) -> str:
        cells = []
        for n in PLAYER_COUNTS:
            value = players[str(n)][key]
            cells.append("n/a" if value is None else format(value, fmt))
        return f"| {label} | " + " | ".join(cells) + " |"

    m = result["machine"]
    s = result["settings"]
    out = [
        f"tajmahal {m['tajmahal']} on {m['cpu']} ({m['nproc']} CPUs), "
        f"{m['implementation']} {m['python']}; board: {result['board']}",
        f"seed {s['seed']}, {s['reps']} repetitions after a warm-up, median"
        + (" (--quick)" if s["quick"] else ""),
        "",
        "| measure | " + " | ".join(f"{n} players" for n in PLAYER_COUNTS) + " |",
        "|---|" + "---:|" * len(PLAYER_COUNTS),
        line("random playout: decisions/s", "decisions_per_s", ",.0f"),
        line("random playout: games/s", "games_per_s", ",.1f"),
        line("`play_match`, `random` bots: matches/s", "matches_per_s", ",.1f"),
        line("decisions per game (mean)", "decisions_per_game", ".1f"),
        line("from the deal, `legal_moves`/`apply`: decisions/s", "dealt_decisions_per_s", ",.0f"),
        line("from the deal, fast playout path: decisions/s", "playout_decisions_per_s", ",.0f"),
        line("fast playout speed-up (same deals)", "playout_ratio", ".2f"),
        line("`ismcts` iterations/s (visit 6)", "ismcts_iterations_per_s", ",.0f"),
        line("`legal_moves()` µs (fresh state)", "legal_moves_us", ".2f"),
        line("`apply()` µs, median", "apply_us", ".2f"),
        line("`apply()` µs, mean", "apply_mean_us", ".2f"),
        line("`state.view(seat)` µs, median (as in a match)", "view_us", ".2f"),
        line("`state.view(seat)` µs, mean (as in a match)", "view_mean_us", ".2f"),
        line("view cost: mean view / mean `apply()`", "view_per_apply", ".2f"),
        line("`tm.dumps` µs per state", "dumps_us", ".1f"),
        line("`tm.loads` µs per state", "loads_us", ".1f"),
        line("`view.sample` µs, first of a view", "sample_us", ".1f"),
        line("`view.sample` µs, repeated", "sample_again_us", ".1f"),
        line("memory per state (bytes)", "memory_bytes_per_state", ",.0f"),
    ]
    spiel = result["openspiel"]
    if spiel is not None:
        for name, game in spiel["games"].items():
            ratio = game["ratio"]
            out += [
                f"| OpenSpiel `{name}` decisions/s | "
                + " | ".join(format(game["decisions_per_s"], ",.0f") for _ in PLAYER_COUNTS)
                + " |",
                f"| **ratio** ours / `{name}` (decisions/s) | "
                + " | ".join(f"**{ratio[str(n)]:.2f}**" for n in PLAYER_COUNTS)
                + " |",
            ]
        out.append("")
        for name, game in spiel["games"].items():
            out.append(
                f"OpenSpiel {spiel['version']} `{name}`: {game['games_per_s']:,.0f} games/s, "
                f"{game['decisions_per_game']:.1f} decisions per game"
            )
    return "\n".join(out)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description="Benchmarks of the tajmahal rules engine.")
    parser.add_argument("--quick", action="store_true", help="a short smoke run (seconds)")
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON ('-': stdout)")
    parser.add_argument(
        "--compare-openspiel",
        action="store_true",
        help="also time OpenSpiel's pure-Python games (pip install 'tajmahal[bench]')",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the run's fixed seed")
    parser.add_argument("--reps", type=int, help="timed repetitions (after one warm-up)")
    parser.add_argument("--games", type=int, help="random playouts per repetition")
    parser.add_argument("--matches", type=int, help="play_match calls per repetition")
    group = parser.add_argument_group("the ratios of issue 23 (benchmarks/ratios.py)")
    group.add_argument("--ratios", action="store_true",
                       help="the ratios table: several builds side by side, interleaved")
    group.add_argument("--build", action="append", default=[], metavar="NAME=DIR",
                       help="a build: a directory holding the tajmahal package (repeatable; "
                       "default: pure=src, and compiled=build/compiled if it exists)")
    group.add_argument("--before", metavar="GIT_REF",
                       help="also a build 'before' of the src directory of this commit")
    group.add_argument("--rounds", type=int, help="rounds of batches (default 7, 2 with --quick)")
    group.add_argument("--adapters", action="store_true",
                       help="add the rows of benchmarks/adapters.py, run on each build")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; print the table (and/or write JSON)."""
    args = parse_args(argv)
    if args.ratios:
        from ratios import run_ratios

        return run_ratios(args)
    settings = QUICK if args.quick else Settings()
    changes: dict[str, int] = {"seed": args.seed}
    if args.reps is not None:
        changes["reps"] = max(1, args.reps)
    if args.games is not None:
        changes["games"] = max(1, args.games)
    if args.matches is not None:
        changes["matches"] = max(1, args.matches)
    settings = Settings(**(vars(settings) | changes))
    try:
        result = run(settings, args.compare_openspiel)
    except ImportError as exc:
        print(
            f"--compare-openspiel needs OpenSpiel ({exc}); install it with "
            "pip install 'tajmahal[bench]' (package open-spiel)",
            file=sys.stderr,
        )
        return 2
    if args.json == "-":
        print(json.dumps(result, indent=2))
        return 0
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
