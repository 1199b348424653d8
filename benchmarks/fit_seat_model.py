"""Fit the seat model (``tajmahal.bots.seat_model``) to what level 5's inner search plays.

The recipe, end to end (numpy only here; the bot evaluates the model in plain Python):

1. **generate**: seeded self-play games at 3, 4 and 5 seats, every move played by the
   rollout policy the search's simulations use (``--policy heuristic``, or ``model``: the
   current shipped model, for a second round).  At every play-or-withdraw decision with at
   least two candidates (withdrawing and the plain plays) the *teacher* labels the position:
   level 5's inner search (:class:`~tajmahal.bots._search.PlaySearch`: each candidate on the
   same rollouts to the visit's end, the seat to play's reward there, by the evaluation of
   ``ismcts`` at that number of seats) with ``--rollouts`` rollouts a candidate (level 5
   uses 2; more gives a cleaner label).  A sample is the candidates' features and their
   mean rewards.
2. **fit**: a conditional logit (softmax over the candidates of a decision) on the targets
   ``softmax(reward / --temperature)``, ridge ``--ridge``, by full-batch gradient descent
   (Adam); every fifth game is held out.
3. **evaluate** on the held-out decisions: how often the model's pick is the teacher's best
   candidate, and the mean reward it gives up against the best (regret), beside the same
   for the ``heuristic`` policy (its own pick on the same positions) and for a random pick.

The same arguments give the same file (games and rollouts are seeded)::

    python benchmarks/fit_seat_model.py --games 12 --rollouts 4            # a smoke run
    python benchmarks/fit_seat_model.py --games 600 --rollouts 16 --jobs 2 \\
        --out src/tajmahal/bots/seat_model_weights.json

See docs/performance.md ("A learned model of the other seats") for the shipped run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

import tajmahal as tm
from tajmahal.bots._evaluation_core import heuristic_pick
from tajmahal.bots._search import _roll_out
from tajmahal.bots.ismcts import IsmctsBot
from tajmahal.bots.seat_model import FEATURES, MODEL, SEAT_MODEL_FORMAT, candidate_features
from tajmahal.rules.playout import OVER, PLAY, Playout

DEFAULT_SEED = 20261129

#: one labelled decision: (game index, seats, the candidates' features, their mean rewards,
#: the heuristic policy's pick's index)
Sample = tuple[int, int, list[list[float]], list[float], int]


def label_game(args: tuple[int, int, int, int, str]) -> list[Sample]:
    """Play game ``index`` at ``seats`` seats (seed ``seed + index``) by the policy, and label
    its play-or-withdraw decisions with ``rollouts`` rollouts a candidate."""
    index, seats, seed, rollouts, policy = args
    pick = MODEL if policy == "model" else heuristic_pick
    reward = IsmctsBot()._search_reward(seats)
    rng = random.Random(seed * 1_000_003 + index)
    game = Playout(tm.new_game(num_players=seats, seed=seed + index))
    samples: list[Sample] = []
    while game.phase != OVER:
        codes = game.moves()
        if game.phase == PLAY and len(codes) > 1:
            rows = candidate_features(game, codes)
            if len(rows) > 1:
                seat, stop = game.current, game.visit + 1
                seeds = [rng.getrandbits(32) for _ in range(rollouts)]
                values = []
                for code, _ in rows:
                    total = 0.0
                    for s in seeds:
                        trial = game.copy()
                        trial.play(code)
                        _roll_out(trial, stop, random.Random(s), pick)
                        total += reward(trial)[seat]
                    values.append(total / rollouts)
                own = heuristic_pick(game, codes, random.Random(rng.getrandbits(32)))
                candidates = [code for code, _ in rows]
                mine = candidates.index(own) if own in candidates else -1
                samples.append((index, seats, [v for _, v in rows], values, mine))
        game.play(pick(game, codes, rng))
    return samples


def generate(games: int, seed: int, rollouts: int, policy: str, jobs: int) -> list[Sample]:
    """Label ``games`` games, their seats cycling 3, 4, 5."""
    tasks = [(i, 3 + i % 3, seed, rollouts, policy) for i in range(games)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(label_game, tasks, chunksize=1)
    else:
        parts = [label_game(task) for task in tasks]
    return [sample for part in parts for sample in part]


def _arrays(samples: Sequence[Sample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (rows of every candidate), values and each row's decision number."""
    x = np.array([row for s in samples for row in s[2]], dtype=float)
    v = np.array([value for s in samples for value in s[3]], dtype=float)
    group = np.array([n for n, s in enumerate(samples) for _ in s[3]], dtype=int)
    return x, v, group


def _softmax_by(scores: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    top = np.full(groups, -np.inf)
    np.maximum.at(top, group, scores)
    e = np.exp(scores - top[group])
    total = np.zeros(groups)
    np.add.at(total, group, e)
    return e / total[group]


def fit(samples: Sequence[Sample], temperature: float, ridge: float, steps: int) -> np.ndarray:
    """The conditional logit's weights on soft targets (Adam, full batch)."""
    x, v, group = _arrays(samples)
    n = len(samples)
    target = _softmax_by(v / temperature, group, n)
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)  # features to about 0..1 while fitting
    xs = x / scale
    w = np.zeros(x.shape[1])
    m = np.zeros_like(w)
    s = np.zeros_like(w)
    rate, b1, b2 = 0.05, 0.9, 0.999
    for step in range(1, steps + 1):
        p = _softmax_by(xs @ w, group, n)
        grad = xs.T @ (p - target) / n + ridge * w
        m = b1 * m + (1 - b1) * grad
        s = b2 * s + (1 - b2) * grad * grad
        w -= rate * (m / (1 - b1**step)) / (np.sqrt(s / (1 - b2**step)) + 1e-12)
    return w / scale


def evaluate(samples: Sequence[Sample], weights: np.ndarray) -> dict[str, Any]:
    """Agreement with the teacher's best and mean regret: the model, heuristic, random."""
    rows: dict[str, list[float]] = {"model": [], "heuristic": [], "random": []}
    agree = {"model": 0, "heuristic": 0}
    for _, _, feats, values, own in samples:
        values_a = np.array(values)
        best = float(values_a.max())
        scores = np.array(feats) @ weights
        pick = int(np.argmax(scores))  # the first best: as SeatModel.best
        rows["model"].append(best - values_a[pick])
        agree["model"] += values_a[pick] == best
        if own >= 0:
            rows["heuristic"].append(best - values_a[own])
            agree["heuristic"] += values_a[own] == best
        rows["random"].append(best - float(values_a.mean()))
    n = len(samples)
    return {
        "decisions": n,
        "model_agreement": agree["model"] / n,
        "heuristic_agreement": agree["heuristic"] / max(1, len(rows["heuristic"])),
        "model_regret": float(np.mean(rows["model"])),
        "heuristic_regret": float(np.mean(rows["heuristic"])),
        "random_regret": float(np.mean(rows["random"])),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="self-play games (3, 4, 5 seats)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the first game's seed")
    parser.add_argument("--rollouts", type=int, default=16, help="teacher rollouts a candidate")
    parser.add_argument("--policy", choices=("heuristic", "model"), default="heuristic",
                        help="the games' and rollouts' policy (model: the shipped model)")
    parser.add_argument("--temperature", type=float, default=0.02, help="targets' softmax width")
    parser.add_argument("--ridge", type=float, default=1e-4, help="ridge penalty")
    parser.add_argument("--steps", type=int, default=3000, help="gradient steps")
    parser.add_argument("--jobs", type=int, default=1, help="processes labelling games")
    parser.add_argument("--out", metavar="PATH", help="write the weights document here")
    parser.add_argument("--data", metavar="PATH", help="save (or, if it exists, reuse) the "
                        "labelled samples as JSON")  # fmt: skip
    args = parser.parse_args(argv)
    if args.games < 5 or args.rollouts < 1:
        parser.error("--games must be at least 5 and --rollouts at least 1")
    started = time.process_time(), time.perf_counter()
    samples: list[Sample] | None = None
    if args.data:
        try:
            with open(args.data, encoding="utf-8") as handle:
                samples = [tuple(s) for s in json.load(handle)]  # type: ignore[misc]
            print(f"reusing {len(samples)} samples from {args.data}", file=sys.stderr)
        except FileNotFoundError:
            samples = None
    if samples is None:
        samples = generate(args.games, args.seed, args.rollouts, args.policy, args.jobs)
        if args.data:
            with open(args.data, "w", encoding="utf-8") as handle:
                json.dump(samples, handle)
    labelled = time.perf_counter() - started[1]
    train = [s for s in samples if s[0] % 5 != 4]
    held = [s for s in samples if s[0] % 5 == 4]
    weights = fit(train, args.temperature, args.ridge, args.steps)
    report = {"train": evaluate(train, weights), "held_out": evaluate(held, weights)}
    for seats in (3, 4, 5):
        part = [s for s in held if s[1] == seats]
        if part:
            report[f"held_out_{seats}_seats"] = evaluate(part, weights)
    report["labelling_wall_s"] = round(labelled, 1)
    print(json.dumps(report, indent=1))
    print("weights:", dict(zip(FEATURES, np.round(weights, 4).tolist(), strict=True)))
    if args.out:
        document = {
            "format": SEAT_MODEL_FORMAT,
            "version": 1,
            "features": list(FEATURES),
            "weights": [round(float(w), 6) for w in weights],
            "provenance": {
                "name": f"fit_seat_model {args.policy} r{args.rollouts} g{args.games}",
                "command": "python benchmarks/fit_seat_model.py " + " ".join(
                    a for a in (argv if argv is not None else sys.argv[1:])),
                "games": args.games,
                "decisions": len(samples),
                "seed": args.seed,
                "teacher": f"PlaySearch, {args.rollouts} rollouts a candidate, {args.policy}",
                "held_out": report["held_out"],
            },
        }
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(document, indent=1) + "\n")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
