"""Tried and dropped (issue 36): ``ismcts`` with rollouts that play the prize contests greedily.

``ContestRolloutIsmcts`` is ``ismcts`` whose rollout policy, for every seat, plays the
plain card that takes the lead in the most prizes at court (a random one among the
best), withdraws when it leads in some and no card adds a lead, and otherwise (and on
15% of its decisions) plays as the ``heuristic`` policy does::

    python benchmarks/strength.py \\
        file:benchmarks/contest_rollout.py:ContestRolloutIsmcts:iterations=1320 \\
        file:benchmarks/contest_rollout.py:ContestRolloutIsmcts:level=3 ismcts:level=3 \\
        --deals 30 --seed 37030101

It measured no stronger than the cheap policy, and gave more search no edge
(docs/performance.md, "Sixth round").
"""

from __future__ import annotations

import random
from typing import Any

from tajmahal.bots._evaluation_core import court_prizes, heuristic_pick
from tajmahal.bots.ismcts import IsmctsBot
from tajmahal.rules.playout import PLAY, WITHDRAW, Playout

RANDOM_SHARE = 0.15  #: the share of contest decisions played by the heuristic policy


def contest_pick(game: Playout, codes: list[int], rng: random.Random) -> int:
    """The move of the contest-greedy rollout policy (the heuristic one off the contests)."""
    if len(codes) == 1:
        return codes[0]
    if game.phase != PLAY:
        return heuristic_pick(game, codes, rng)
    seat = game.current
    mine, best = game.counts[seat], game.rival_best(seat)
    prizes = court_prizes(game)
    led = [prizes[i] and mine[i] >= 1 and mine[i] > best[i] for i in range(6)]
    stride, symbols = game.stride, game.tables.symbol_counts
    top, picks = 0, []
    for code in codes:
        if code == WITHDRAW or code % stride:
            continue
        added = symbols[code // stride]
        gain = sum(1 for i in range(6) if prizes[i] and not led[i] and mine[i] + added[i] > best[i])
        if gain > top:
            top, picks = gain, [code]
        elif gain == top and gain:
            picks.append(code)
    if rng.random() < RANDOM_SHARE:
        return heuristic_pick(game, codes, rng)
    if picks:
        return picks[int(rng.random() * len(picks))]
    if any(led):
        return WITHDRAW
    return heuristic_pick(game, codes, rng)


class ContestRolloutIsmcts(IsmctsBot):
    """``ismcts`` with :func:`contest_pick` as its rollout policy."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("rollout", contest_pick)
        super().__init__(**options)
