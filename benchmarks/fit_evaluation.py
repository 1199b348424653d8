"""Fit the ``ismcts`` evaluation's weights and reward scales from self-play (numpy only).

Plays seeded self-play games (``greedy`` by default: cheap and sensible),
records at the start of every visit each seat's :func:`features
<tajmahal.bots.evaluation.features>`, its score, and at the end its final
score and whether it won, then, per number of visits still to play:

1. **weights**: ridge least squares of the points each seat still made
   (final score minus score) on the features;
2. **scale**: the logistic width that makes ``1 / (1 + exp(-margin / scale))``
   the observed chance of winning, ``margin`` being the seat's estimated final
   score minus the best rival's (maximum likelihood over a grid).

It prints the fit's quality on held-out games (every fifth game is held out)
and writes the weights document the bot reads at import::

    python benchmarks/fit_evaluation.py --games 900 --jobs 2 \\
        --out src/tajmahal/bots/evaluation_weights.json

The same arguments give the same file (games are seeded; the fit is exact).
See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

import tajmahal as tm
from tajmahal.bots.evaluation import FEATURES, WEIGHTS_FORMAT, features, load_weights
from tajmahal.bots.evaluation_v1 import FIXED_SCALE, estimated_scores_v1
from tajmahal.referee import bot_seed
from tajmahal.rules.playout import Playout

DEFAULT_SEED = 20261126
RIDGE = 1.0  #: the ridge penalty (in units of samples' squared features), bias not penalised
SCALE_GRID = np.exp(np.linspace(np.log(1.0), np.log(80.0), 200))

#: one sample: (game seed, visits left, features, score, final score, won (a share on
#: ties), the first release's estimate of the final score (for comparison))
Sample = tuple[int, int, list[float], float, float, float, float]


def play_game(args: tuple[int, int, str]) -> list[Sample]:
    """One self-play game; a sample per seat at the start of every visit."""
    seed, num_players, spec = args
    return samples_of(seed, *self_play(seed, num_players, spec))


def self_play(seed: int, num_players: int, spec: str) -> tuple[list[tm.GameState], tuple[int, ...]]:
    """One self-play game: the state at the start of every visit, and the final scores."""
    bots = [tm.bots.create(spec, seed=bot_seed(seed, seat)) for seat in range(num_players)]
    state = tm.new_game(num_players, seed=seed)
    starts: list[tm.GameState] = []
    visit = 0
    while not state.is_over:
        if state.visit != visit:
            visit = state.visit
            starts.append(state)
        seat = state.current_player
        assert seat is not None
        state = state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    return starts, state.scores


def play_and_save(args: tuple[int, int, str]) -> str:
    """One self-play game as a JSON line: its seed, the visits' first states, the final scores."""
    seed, num_players, spec = args
    starts, final = self_play(seed, num_players, spec)
    return json.dumps({"seed": seed, "spec": spec, "final": list(final),
                       "starts": [json.loads(tm.dumps(s)) for s in starts]})  # fmt: skip


def _state(document: object) -> tm.GameState:
    """A saved state (a ``tm.dumps`` document, parsed)."""
    state = tm.loads(json.dumps(document))
    if not isinstance(state, tm.GameState):
        raise ValueError(f"a saved game holds a {type(state).__name__}, not a GameState")
    return state


class SavedGame(NamedTuple):
    """One line of a ``--save`` file."""

    seed: int
    spec: str
    starts: list[tm.GameState]
    final: list[int]


def saved_game(line: str) -> SavedGame:
    """One ``--save`` line, checked: a ValueError (or a ``tm.TajMahalError``) says what is wrong."""
    try:
        game = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg})") from None
    if not isinstance(game, dict):
        raise ValueError("not a saved game (an object with seed, final and starts)")
    seed, final, starts = game.get("seed"), game.get("final"), game.get("starts")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError("seed must be an int")
    if not isinstance(final, list) or not 3 <= len(final) <= 5 or any(
        isinstance(score, bool) or not isinstance(score, int) for score in final
    ):
        raise ValueError("final must be a list of 3 to 5 scores")
    if not isinstance(starts, list):
        raise ValueError("starts must be a list of states")
    states = [_state(document) for document in starts]
    if any(state.num_players != len(final) for state in states):
        raise ValueError("a saved state's seats differ from the final scores'")
    return SavedGame(seed, str(game.get("spec", "?")), states, final)


def samples_of(seed: int, starts: Sequence[tm.GameState], final: Sequence[int]) -> list[Sample]:
    """The samples of one game (a sample per seat at the start of every visit)."""
    num_players = len(final)
    marks: list[tuple[int, list[list[float]], tuple[int, ...], list[float]]] = []
    for state in starts:
        game = Playout(state)
        left = len(state.province_order) - state.visit + 1
        marks.append((left, features(game), state.scores, estimated_scores_v1(game)))
    best = max(final)
    winners = [s for s in range(num_players) if final[s] == best]
    out = []
    for left, values, scores, old in marks:
        for seat in range(num_players):
            won = 1 / len(winners) if seat in winners else 0.0
            out.append(
                (seed, left, values[seat], float(scores[seat]), float(final[seat]), won, old[seat])
            )
    return out


def fit_weights(
    groups: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    prior: np.ndarray | None = None,
    ridge: float = RIDGE,
) -> np.ndarray:
    """Ridge least squares of the seats' differences within each position.

    Features and targets are centred per position (only the differences
    between seats matter to the reward); the bias, first, is then the mean
    of what is left, so that the estimates stay near the real final scores.
    With ``prior`` the penalty pulls the weights towards it (a few strong games
    refine weights fitted on many cheaper ones) instead of towards zero.
    """
    xc, yc = _centred(groups, x), _centred(groups, y)
    xc[:, 0] = 0.0
    penalty = ridge * np.eye(x.shape[1])
    base = np.zeros(x.shape[1]) if prior is None else prior
    w = np.linalg.solve(xc.T @ xc + penalty, xc.T @ yc + penalty @ base)
    w[0] = float(np.mean(y - x[:, 1:] @ w[1:]))
    return w


def _centred(groups: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` minus the mean of their position (rows grouped contiguously)."""
    out = np.array(values, dtype=float)
    bounds = np.flatnonzero(np.diff(groups)) + 1
    for idx in np.split(np.arange(len(groups)), bounds):
        out[idx] -= out[idx].mean(axis=0)
    return out


def log_loss(margin: np.ndarray, won: np.ndarray, scale: float) -> float:
    """Mean negative log likelihood of the wins under ``sigmoid(margin / scale)``."""
    p = np.clip(1 / (1 + np.exp(-margin / scale)), 1e-9, 1 - 1e-9)
    return float(-np.mean(won * np.log(p) + (1 - won) * np.log(1 - p)))


def margins(groups: np.ndarray, estimate: np.ndarray) -> np.ndarray:
    """Per sample, its estimate minus the best other estimate in its group (one position)."""
    out = np.empty_like(estimate)
    bounds = np.flatnonzero(np.diff(groups)) + 1
    for idx in np.split(np.arange(len(groups)), bounds):
        est = estimate[idx]
        order = np.sort(est)
        best, second = order[-1], order[-2]
        out[idx] = est - np.where(est == best, second, best)
    return out


def fit(
    samples: Sequence[Sample],
    visits: int,
    prior: Sequence[Sequence[float]] | None = None,
    ridge: float = RIDGE,
) -> tuple[list[list[float]], list[float], dict[str, dict[str, float]]]:
    """Weights per visits left (1..visits), scales (0..visits), and the held-out quality.

    ``prior``: per visits left (0..visits), the weights the penalty pulls towards.
    """
    seed = np.array([s[0] for s in samples])
    left = np.array([s[1] for s in samples])
    x = np.array([s[2] for s in samples], dtype=float)
    score = np.array([s[3] for s in samples])
    final = np.array([s[4] for s in samples])
    won = np.array([s[5] for s in samples])
    old = np.array([s[6] for s in samples])
    groups = seed * 100 + left  # one position: a game at the start of one visit
    held = seed % 5 == 0
    rows: list[list[float]] = []
    scales: list[float] = []
    quality: dict[str, dict[str, float]] = {}
    for k in range(1, visits + 1):
        at = left == k
        train, test = at & ~held, at & held
        base = None if prior is None else np.array(prior[min(k, len(prior) - 1)], dtype=float)
        w = fit_weights(groups[train], x[train], final[train] - score[train], base, ridge)
        rows.append([round(float(v), 4) for v in w])
        margin = margins(groups[at], score[at] + x[at] @ w)
        fit_at, test_at = train[at], test[at]
        losses = [log_loss(margin[fit_at], won[at][fit_at], s) for s in SCALE_GRID]
        scale = float(SCALE_GRID[int(np.argmin(losses))])
        scales.append(round(scale, 3))
        quality[str(k)] = {
            "train": int(train.sum()),
            "test": int(test.sum()),
            "r2_test": _r2(groups[test], x[test] @ w, final[test] - score[test]),
            "scale": round(scale, 3),
            "log_loss_test": round(log_loss(margin[test_at], won[at][test_at], scale), 4),
            "v1_r2_test": _r2(groups[test], old[test] - score[test], final[test] - score[test]),
            "prior_r2_test": 0.0 if base is None else _r2(
                groups[test], x[test] @ base, final[test] - score[test]
            ),
            "v1_log_loss_test": round(
                log_loss(margins(groups[at], old[at])[test_at], won[at][test_at], FIXED_SCALE), 4
            ),
        }
    # the game over: the margin is final; keep the last visit's width (a gradient for points)
    return rows, [scales[0], *scales], quality


def _r2(groups: np.ndarray, pred: np.ndarray, y: np.ndarray) -> float:
    """R² of the predictions within positions (each centred on its position's mean).

    Only the differences between seats matter to the reward, so a constant
    per position is neither credited nor blamed.
    """
    pred, y = _centred(groups, pred), _centred(groups, y)
    ss = float(np.sum(y**2))
    return round(1 - float(np.sum((y - pred) ** 2)) / ss, 4) if ss else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    """Play, fit, print the quality, write the weights document."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=900, help="self-play games (default 900)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the first game's seed")
    parser.add_argument(
        "--player", default="greedy", help="the self-play bot spec (default greedy)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--seats", default="3,4,5",
        help="the numbers of seats, in turn game by game (default 3,4,5)",
    )
    parser.add_argument("--out", metavar="PATH", help="write the weights document here")
    parser.add_argument("--save", metavar="JSONL", help="append the games played to this file")
    parser.add_argument(
        "--data", metavar="JSONL", action="append", default=[],
        help="fit on games saved by --save (repeatable; --games 0 plays none)",
    )
    parser.add_argument(
        "--prior", metavar="JSON",
        help="a weights document to pull the fit towards (missing features: 0)",
    )
    parser.add_argument("--ridge", type=float, default=RIDGE, help="the ridge penalty")
    parser.add_argument("--play-only", action="store_true", help="with --save: play, no fit")
    args = parser.parse_args(argv)
    if (args.games < 10 and not args.data) or args.games < 0 or args.jobs < 1:
        parser.error("--games must be at least 10 (0 with --data) and --jobs at least 1")
    try:
        tm.bots.check_spec(args.player)
    except tm.TajMahalError as exc:
        parser.error(str(exc))
    try:
        seats = [int(n) for n in args.seats.split(",")]
    except ValueError:
        seats = []
    if not seats or any(not 3 <= n <= 5 for n in seats):
        parser.error(f"--seats must be numbers from 3 to 5, comma-separated, got {args.seats!r}")
    work = [(args.seed + g, seats[g % len(seats)], args.player) for g in range(args.games)]
    prior = None
    if args.prior:  # read before any game is played
        try:
            with open(args.prior, encoding="utf-8") as source:
                loaded = load_weights(source.read())
        except (OSError, UnicodeDecodeError) as exc:
            parser.error(f"cannot read {args.prior}: {exc}")
        except tm.TajMahalError as exc:
            parser.error(f"{args.prior}: {exc}")
        prior = [list(row) + [0.0] * (len(FEATURES) - len(row)) for row in loaded.weights]
    samples: list[Sample] = []
    games = 0
    saved_games: dict[str, dict[str, set[Any]]] = {}  # per file: its seats and players
    for path in args.data:
        try:
            with open(path, encoding="utf-8") as saved:  # a line at a time: files are large
                for number, line in enumerate(saved, 1):
                    try:
                        game = saved_game(line)
                    except (ValueError, tm.TajMahalError) as exc:
                        parser.error(f"{path}, line {number}: {exc}")
                    kinds = saved_games.setdefault(path, {"seats": set(), "players": set()})
                    kinds["seats"].add(len(game.final))
                    kinds["players"].add(game.spec)
                    samples += samples_of(game.seed, game.starts, game.final)
                    games += 1
        except (OSError, UnicodeDecodeError) as exc:
            parser.error(f"cannot read {path}: {exc}")
    if work:
        with multiprocessing.Pool(args.jobs) as pool:
            if args.save:
                with open(args.save, "a", encoding="utf-8") as out:
                    for line in pool.imap(play_and_save, work, chunksize=1):
                        out.write(line + "\n")
                        out.flush()
                        if args.play_only:
                            continue
                        game = saved_game(line)
                        samples += samples_of(game.seed, game.starts, game.final)
            else:
                for part in pool.imap(play_game, work, chunksize=4):
                    samples += part
        games += len(work)
    print(f"{games} games, {len(samples)} samples", file=sys.stderr)
    if args.play_only:
        return 0
    if not samples:
        parser.error("no games to fit: the --data files are empty")
    visits = max(s[1] for s in samples)
    rows, scales, quality = fit(samples, visits, prior, args.ridge)
    for k, q in quality.items():
        print(
            f"visits left {k:>2}: held out R² {q['r2_test']:.3f} (v1 {q['v1_r2_test']:.3f}, "
            f"prior {q['prior_r2_test']:.3f}), "
            f"scale {q['scale']:.2f}, log loss {q['log_loss_test']:.3f} "
            f"(v1 {q['v1_log_loss_test']:.3f})",
            file=sys.stderr,
        )
    document = {
        "format": WEIGHTS_FORMAT,
        "version": 1,
        "features": list(FEATURES),
        "weights": rows,
        "scales": scales,
        "provenance": {
            "command": "python benchmarks/fit_evaluation.py " + " ".join(argv or sys.argv[1:]),
            "player": args.player if work else None,
            "games": games,
            "data": [p.rsplit("/", 1)[-1] for p in args.data],
            "seed": args.seed,
            "prior": args.prior and args.prior.rsplit("/", 1)[-1],
            "ridge": args.ridge,
            "players_per_game": ", ".join(map(str, seats)) + " in turn" if work else None,
            "saved_games": {
                path.rsplit("/", 1)[-1]: {key: sorted(values) for key, values in kinds.items()}
                for path, kinds in saved_games.items()
            },
            "samples": len(samples),
            "held_out": quality,
        },
    }
    text = json.dumps(document, indent=1) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
