"""The seat model's hot path (compiled when built so): the best-scoring play-or-withdraw move.

:mod:`tajmahal.bots.seat_model` documents the model, its features and its weights;
:func:`seat_best` scores :func:`~tajmahal.bots.seat_model.candidate_features` with the weights
without building the feature lists, and :func:`seat_pick` is the rollout policy of
``ismcts:rollout=model`` (the shipped weights, set by :mod:`~tajmahal.bots.seat_model` when it
loads them; until then every weight is 0).
"""

from __future__ import annotations

import math
import random

from tajmahal.bots._evaluation_core import heuristic_pick
from tajmahal.rules.playout import PLAY, WITHDRAW, Playout

HAND_CAP = 8  #: cards in hand beyond this many count no more
VISITS = 12.0  #: a game's visits: the progress feature is visit / VISITS
WIDTH = 22  #: the number of weights (the model's features)
#: the weights :func:`seat_pick` plays by (replaced, never changed in place, by
#: :func:`set_weights`)
_weights: tuple[float, ...] = (0.0,) * WIDTH


def set_weights(weights: tuple[float, ...]) -> None:
    """Make ``weights`` (:data:`WIDTH` numbers) the ones :func:`seat_pick` plays by."""
    global _weights
    if len(weights) != WIDTH:
        raise ValueError(f"the seat model needs {WIDTH} weights, got {len(weights)}")
    _weights = tuple(float(w) for w in weights)


def seat_pick(game: Playout, codes: list[int], rng: random.Random) -> int:
    """The rollout policy of ``ismcts:rollout=model``: the play-or-withdraw decisions by the
    weights (:func:`seat_best`), every other decision by ``heuristic_pick``."""
    if len(codes) > 1 and game.phase == PLAY:
        return seat_best(game, codes, _weights)
    return heuristic_pick(game, codes, rng)


def seat_best(game: Playout, codes: list[int], weights: tuple[float, ...]) -> int:
    """The candidate (withdrawing, or a plain play of one card) whose features' dot product
    with ``weights`` is highest, a tie going to the first (withdrawing comes first)."""
    (wb, wl, wt, wtab, wp, wr, wlate, we, ws, wtr, wh, wa,
     pn, pt, pb, ppad, pi, pla, ph, pr, pns, plate) = weights  # fmt: skip
    seat, stride = game.current, game.stride
    mine, best = game.counts[seat], game.rival_best(seat)
    prizes = [game.court_influence[i] for i in range(4)] + [game.court_crown, game.court_tile]
    leading = tied = special = trailing = 0
    for i in range(6):
        if prizes[i]:
            if best[i] > mine[i]:
                trailing += 1
            elif mine[i] >= 1:
                if mine[i] > best[i]:
                    leading += 1
                    special += i >= 4
                else:
                    tied += 1
    withdrawn = game.withdrawn
    rivals = 0
    for other in range(game.num_players):
        if other != seat and not withdrawn[other]:
            rivals += 1
    hand = min(len(game.hands[seat]), HAND_CAP)
    late = game.visit / VISITS
    symbols = game.tables.symbol_counts
    # a play's score: what every play shares, then what its card adds
    shared = pla * leading + ph * (hand - 1) + pr * rivals + plate * late
    best_code, best_score = codes[0], -math.inf
    plain = 0
    for code in codes:
        if code == WITHDRAW or code % stride:
            continue
        plain += 1
        score = shared
        for i, added in enumerate(symbols[code // stride]):
            if not added:
                continue
            if not prizes[i]:
                score += pi * added
                continue
            before, after = mine[i], mine[i] + added
            if before > best[i] and before >= 1:
                score += ppad * added
            elif after > best[i]:
                score += pn + pla + (pns if i >= 4 else 0.0)
            elif after == best[i]:
                score += pt
            else:
                score += pb
        if score > best_score:
            best_code, best_score = code, score
    if WITHDRAW in codes:
        table = len(game.table[seat])
        score = (wb + wl * leading + wt * tied + wtab * table + wp * plain + wr * rivals
                 + wlate * late + (0.0 if table else we) + ws * special + wtr * trailing
                 + wh * hand + (0.0 if rivals else wa))  # fmt: skip
        if score >= best_score:  # withdrawing comes first in the codes: it wins a tie
            best_code = WITHDRAW
    return best_code
