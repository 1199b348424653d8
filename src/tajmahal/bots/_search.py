"""The ``ismcts`` search's hot loops: the tree node, one tree iteration, one flat simulation
(compiled when built so).

:mod:`tajmahal.bots.ismcts` documents the search and runs :func:`iterate` once per iteration.
"""

from __future__ import annotations

import _random
import math
import random
from collections.abc import Callable
from math import log, sqrt
from typing import Final

from tajmahal.bots._evaluation_core import heuristic_pick
from tajmahal.rules.playout import OVER, PLAY, WITHDRAW, Picker, Playout


class Node:
    """A tree node: the statistics of the move into it, from the view of ``seat``, who chose it."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.total = 0.0  #: sum of ``seat``'s rewards
        self.avail = 1  #: how often the move was legal when the parent was passed
        self.children: dict[int, Node] = {}


def iterate(
    root: Node,
    game: Playout,
    rng: random.Random,
    c: float,
    allowed: frozenset[int] | None,
    pick: Picker | None,
    reward: Callable[[Playout], list[float]],
    depth: int = 1,
) -> None:
    """One simulation: select, expand, roll out to the visit's end, evaluate, back up.

    ``c`` is the UCT exploration constant, ``allowed`` the root moves to search (``None``:
    every legal move), ``pick`` the rollout policy, ``reward`` one reward per seat; the
    rollout runs to the end of the ``depth``-th visit from this one (1: this visit's end).
    """
    visit = game.visit
    node = root
    path: list[Node] = []
    while game.phase != OVER and game.visit == visit:
        codes = game.moves()
        if allowed is not None:  # the root only: the moves offered
            codes = [code for code in codes if code in allowed] or codes
            allowed = None
        children = node.children
        fresh: list[int] = []
        known: list[tuple[int, Node]] = []
        for code in codes:
            child = children.get(code)
            if child is None:
                fresh.append(code)
            else:
                child.avail += 1  # legal in this determinisation: available
                known.append((code, child))
        if fresh:  # expand one untried move, then roll out
            code = fresh[int(rng.random() * len(fresh))]
            child = children[code] = Node(game.current)
            path.append(child)
            game.play(code)
            break
        best_code, best_node, best_score = WITHDRAW, node, -1.0
        for code, child in known:  # UCT with availability counts
            visits = child.visits
            score = child.total / visits + c * sqrt(log(child.avail) / visits)
            if score > best_score:
                best_code, best_node, best_score = code, child, score
        node = best_node
        path.append(node)
        game.play(best_code)
    _roll_out(game, visit + depth, rng, pick)
    rewards = reward(game)
    for node in path:
        node.visits += 1
        node.total += rewards[node.seat]


def simulate(
    game: Playout,
    code: int,
    rng: random.Random,
    pick: Picker | None,
    reward: Callable[[Playout], list[float]],
    seat: int,
    depth: int = 1,
) -> float:
    """One flat simulation: ``code`` played, the rollout policy to the end of the ``depth``-th
    visit from this one (1: this visit's end), ``seat``'s reward there."""
    stop = game.visit + depth
    game.play(code)
    _roll_out(game, stop, rng, pick)
    return reward(game)[seat]


def simulate_each(
    deal: Playout,
    codes: list[int],
    seed: int,
    pick: Picker | None,
    reward: Callable[[Playout], list[float]],
    seat: int,
    depth: int = 1,
) -> list[float]:
    """One flat simulation of each of ``codes`` on a copy of ``deal``, every rollout from the
    same seed: ``seat``'s rewards, in the codes' order.  The same values as :func:`simulate`
    on ``deal.copy()`` with ``random.Random(seed)`` for each code (one generator, seeded again
    for each: no new object)."""
    rng = random.Random(seed)
    values: list[float] = []
    for code in codes:
        if values:  # as random.Random(seed) makes it, without the Python-level method
            _random.Random.seed(rng, seed)
            rng.gauss_next = None  # type: ignore[attr-defined]
        values.append(simulate(deal.copy(), code, rng, pick, reward, seat, depth))
    return values


#: :class:`PlaySearch`'s ``seat`` for searching every seat's play decisions
EVERY_SEAT: Final = -1


class PlaySearch:
    """A rollout policy that searches later play-or-withdraw decisions of one seat, or of all.

    When ``seat`` (every seat for :data:`EVERY_SEAT`) is to play or withdraw in a simulation,
    each plain play and withdrawing is tried on ``k`` rollouts of ``pick`` to the visit's end
    (the same seeds for every candidate) and the best mean reward of the seat to play is
    played; every other decision is ``pick``'s.  A simulation so plays on as searching
    seats would, not as the cheap policy would.
    """

    __slots__ = ("k", "pick", "reward", "seat")

    def __init__(
        self,
        seat: int,
        k: int,
        pick: Picker | None,
        reward: Callable[[Playout], list[float]],
    ) -> None:
        self.seat, self.k, self.pick, self.reward = seat, k, pick, reward

    def __call__(self, game: Playout, codes: list[int], rng: random.Random) -> int:
        pick = self.pick
        if (len(codes) > 1 and game.phase == PLAY
                and (self.seat == EVERY_SEAT or game.current == self.seat)):  # fmt: skip
            return self._search(game, codes, rng)
        if pick is None:
            return codes[int(rng.random() * len(codes))]
        return pick(game, codes, rng)

    def _search(self, game: Playout, codes: list[int], rng: random.Random) -> int:
        stride, seat, pick = game.stride, game.current, self.pick
        stop = game.visit + 1
        seeds = [rng.getrandbits(32) for _ in range(self.k)]
        best, best_value = codes[0], -math.inf  # any reward scale: the first candidate counts
        for code in codes:
            if code != WITHDRAW and code % stride:  # plays with an extra card: not tried
                continue
            value = 0.0
            for seed in seeds:
                trial = game.copy()
                trial.play(code)
                _roll_out(trial, stop, random.Random(seed), pick)
                value += self.reward(trial)[seat]
            if value > best_value:
                best, best_value = code, value
        return best


def _roll_out(game: Playout, stop: int, rng: random.Random, pick: Picker | None) -> None:
    """Play ``pick``'s moves (random ones without it) until visit ``stop`` begins (or the game
    ends)."""
    if pick is heuristic_pick:  # Playout.run's loop, with a direct (compiled: native) call
        while game.phase != OVER and game.visit < stop:
            game.play(heuristic_pick(game, game.moves(), rng))
        return
    while game.phase != OVER and game.visit < stop:
        game.run(rng, pick, visit_end=True)
