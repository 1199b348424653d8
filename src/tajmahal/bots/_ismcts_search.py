"""One decision's search for the ``ismcts`` bots: the tree, the flat search, the shares.

:class:`TreeSearch` grows ``trees`` information-set trees (:mod:`tajmahal.bots._search`);
:class:`FlatSearch` searches a play-or-withdraw decision flat, by sequential halving;
:class:`SearchShares` runs a decision's ``jobs`` shares, the first in this process, the
others in the bot's worker processes.  What they need of the bot is :class:`Searcher`
(:class:`~tajmahal.bots.IsmctsBot` is one), so this module never imports the bot's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from tajmahal.bots._search import Node, iterate, simulate_each
from tajmahal.bots._search_pool import SearchPool
from tajmahal.bots.base import current_deadline
from tajmahal.rules.moves import Move
from tajmahal.rules.playout import Picker, Playout, sampled
from tajmahal.rules.views import PlayerView

__all__ = [
    "FLAT_SHARE",
    "FlatSearch",
    "MoveStatistics",
    "SearchShares",
    "Searcher",
    "TreeSearch",
    "close_call",
]

#: a flat search runs this share of the iteration budget as simulations: about a tree's CPU
#: per decision (compiled, the default budget: 0.0154 s against 0.0159, benchmarks/flat_cost.py)
FLAT_SHARE = 0.95
GRACE = 0.01  #: with a time budget, the workers stop searching this many seconds, plus ...
GRACE_SHARE = 0.05  #: ... this share of the budget, before its end (at most half of it)
STALL_SECONDS = 30.0  #: with an iteration budget, a worker's answer is awaited this long, plus
STALL_FACTOR = 10.0  #: this many times what this process took for its own share


class Searcher(Protocol):
    """What a decision's search needs of its bot: its options, policies, random stream and
    worker processes."""

    c: float
    depth: int
    trees: int
    jobs: int
    _rng: random.Random
    _decisions: int

    def _rollout_policy(self, seat: int) -> Picker | None: ...

    def _search_reward(self, seats: int) -> Callable[[Playout], list[float]]: ...

    def _new_search(
        self, view: PlayerView, allowed: frozenset[int] | None, rng: random.Random
    ) -> TreeSearch | FlatSearch: ...

    def _pool_for_search(self) -> SearchPool | None: ...


def host_bound(deadline: float | None) -> float | None:
    """``deadline``, or the host's (:func:`~tajmahal.bots.base.decision_deadline`) if sooner."""
    host = current_deadline()
    return deadline if host is None or (deadline is not None and deadline <= host) else host


def close_call(rows: list[tuple[int, int, float]], margin: float) -> bool:
    """Whether the two most searched root moves are within ``margin`` (of the top's visits).

    >>> close_call([(1, 100, 50.0), (2, 95, 40.0), (3, 5, 1.0)], 0.1)
    True
    >>> close_call([(1, 100, 50.0), (2, 80, 40.0)], 0.1), close_call([(1, 9, 5.0)], 0.1)
    (False, False)
    """
    if len(rows) < 2:
        return False
    first, second = sorted((visits for _, visits, _ in rows), reverse=True)[:2]
    return second >= (1 - margin) * first


class MoveStatistics(NamedTuple):
    """One root move of the last search: how often it was searched and its mean reward.

    ``value`` is the mean of the deciding seat's rewards after the move (0..1,
    a smooth chance of beating the best rival: see :mod:`tajmahal.bots.evaluation`).
    """

    move: Move
    visits: int
    value: float


class TreeSearch:
    """One decision's trees (``bot.trees`` of them, grown in turn and summed at the root),
    grown by :meth:`run`: the roots and the iterations done so far."""

    __slots__ = ("allowed", "bot", "done", "pick", "reward", "rng", "roots", "view")

    def __init__(
        self, bot: Searcher, view: PlayerView, allowed: frozenset[int] | None, rng: random.Random
    ) -> None:
        self.bot, self.view, self.allowed, self.rng = bot, view, allowed, rng
        self.pick = bot._rollout_policy(view.seat)
        self.reward = bot._search_reward(view.num_players)
        self.roots = [Node(view.seat) for _ in range(bot.trees)]
        self.done = 0

    def run(self, iterations: int | None, deadline: float | None) -> None:
        """Search ``iterations`` more times, or until ``deadline`` (:func:`time.monotonic`),
        whichever ends first; at least once."""
        bot, roots, view, rng, allowed = self.bot, self.roots, self.view, self.rng, self.allowed
        c, pick, reward, depth = bot.c, self.pick, self.reward, bot.depth
        trees = len(roots)
        done = 0
        deadline = host_bound(deadline)  # a host's hard limit ends an iteration budget too
        while iterations is None or done < iterations:
            if deadline is not None and done and time.monotonic() >= deadline:
                break
            root = roots[(self.done + done) % trees]
            iterate(root, sampled(view, rng), rng, c, allowed, pick, reward, depth)
            done += 1
        self.done += done

    def rows(self) -> list[tuple[int, int, float]]:
        """(move code, visits, total reward) of each root move, in the order they were tried
        (the first tree's order, then moves first tried in the others)."""
        if len(self.roots) == 1:
            children = self.roots[0].children
            return [(code, node.visits, node.total) for code, node in children.items()]
        merged: dict[int, list[float]] = {}
        for root in self.roots:
            for code, node in root.children.items():
                entry = merged.setdefault(code, [0, 0.0])
                entry[0] += node.visits
                entry[1] += node.total
        return [(code, int(visits), total) for code, (visits, total) in merged.items()]


class FlatSearch:
    """One play-or-withdraw decision searched flat: every root move simulated on the same deals
    (common random numbers), the budget spent by sequential halving (Karnin, Koren, Somekh
    2013): in each round every move still in the race gets the same number of simulations,
    then the worse half is dropped.  The same interface as :class:`TreeSearch`."""

    __slots__ = ("bot", "codes", "done", "pick", "reward", "rng", "seat", "totals", "view",
                 "visits")  # fmt: skip

    def __init__(
        self, bot: Searcher, view: PlayerView, allowed: frozenset[int] | None, rng: random.Random
    ) -> None:
        self.bot, self.view, self.rng, self.seat = bot, view, rng, view.seat
        self.pick = bot._rollout_policy(view.seat)
        self.reward = bot._search_reward(view.num_players)
        codes = sampled(view, random.Random(0)).moves()  # the seat's own moves: in every deal
        self.codes = [code for code in codes if allowed is None or code in allowed] or codes
        self.visits = dict.fromkeys(self.codes, 0)
        self.totals = dict.fromkeys(self.codes, 0.0)
        self.done = 0

    def run(self, iterations: int | None, deadline: float | None) -> None:
        """``FLAT_SHARE`` of ``iterations`` simulations (at least one a move) in one halving
        race; with a ``deadline``, races of growing size until it (or the simulations) ends."""
        cap = None if iterations is None else round(iterations * FLAT_SHARE)
        if deadline is None:  # one race; a host's hard limit may cut it short
            self._race(cap or 1, current_deadline())
            return
        deadline = host_bound(deadline)
        budget, spent = 8 * len(self.codes), 0
        while cap is None or spent < cap:
            size = budget if cap is None else min(budget, cap - spent)
            if not self._race(size, deadline):
                return
            spent, budget = spent + size, budget * 2

    def _race(self, budget: int, deadline: float | None) -> bool:
        """Sequential halving over all root moves, ``budget`` simulations in all (each move at
        least one, whatever the deadline); False once ``deadline`` stopped it."""
        alive = list(self.codes)
        left = max(budget, len(alive))
        first = True
        while True:
            spend = left // max(1, (len(alive) - 1).bit_length())  # the rounds left share it
            each = max(1, spend // len(alive)) if first else spend // len(alive)
            first = False
            for _ in range(each):  # the same number each: the best mean wins the last round
                if (deadline is not None and self.done >= len(self.codes)
                        and time.monotonic() >= deadline):
                    return False  # checked between deals: every move has as many
                deal, seed = sampled(self.view, self.rng), self.rng.getrandbits(32)
                self._simulate_all(alive, deal, seed)  # the moves in one compiled loop
            left = max(0, left - each * len(alive))
            if len(alive) == 1:
                return True
            alive.sort(key=lambda code: self.totals[code] / self.visits[code], reverse=True)
            alive = alive[: (len(alive) + 1) // 2]

    def _simulate_all(self, codes: list[int], deal: Playout, seed: int) -> None:
        values = simulate_each(deal, codes, seed, self.pick, self.reward, self.seat, self.bot.depth)
        visits, totals = self.visits, self.totals
        for code, value in zip(codes, values, strict=True):
            visits[code] += 1
            totals[code] += value
        self.done += len(codes)

    def rows(self) -> list[tuple[int, int, float]]:
        """(move code, simulations, total reward) of each root move simulated, in the moves'
        order."""
        return [(code, self.visits[code], self.totals[code])
                for code in self.codes if self.visits[code]]  # fmt: skip


class SearchShares:
    """One decision's searches: ``jobs`` shares, the first in this process, the others in
    the bot's worker processes (or here, when a worker cannot run them: same seeds, same trees).

    With ``jobs=1`` the one share uses the bot's own random stream, as it always has.
    """

    def __init__(self, bot: Searcher, view: PlayerView, allowed: frozenset[int] | None) -> None:
        self.bot, self.view, self.allowed = bot, view, allowed
        jobs = bot.jobs
        if jobs == 1:
            self.seeds: list[int] = []
            self.local: dict[int, TreeSearch | FlatSearch] = {
                0: bot._new_search(view, allowed, bot._rng)
            }
        else:
            self.seeds = [bot._rng.getrandbits(63) for _ in range(jobs)]
            self.local = {0: self._fresh(0)}
        self.asked = [0] * jobs  #: iterations asked of each share so far (budgets by iterations)
        self.remote: dict[int, tuple[int, list[tuple[int, int, float]]]] = {}  # share -> answer
        self.started: set[int] = set()  # shares whose worker has its tree
        self.lost: set[int] = set()  # shares given up for this decision (a time budget)
        bot._decisions += 1
        self.number = bot._decisions

    def _fresh(self, share: int) -> TreeSearch | FlatSearch:
        return self.bot._new_search(self.view, self.allowed, random.Random(self.seeds[share]))

    def run(self, iterations: int | None, deadline: float | None) -> None:
        """Grow every share's tree: ``iterations`` split over the shares, or until ``deadline``."""
        jobs = len(self.asked)
        if iterations is None:
            shares: list[int | None] = [None] * jobs
        else:
            shares = [iterations // jobs + (share < iterations % jobs) for share in range(jobs)]
        pool = self.bot._pool_for_search() if jobs > 1 else None
        search_end = deadline
        if deadline is not None and pool is not None:  # time for the answers within the budget
            left = max(0.0, deadline - time.monotonic())
            search_end = deadline - min(GRACE + GRACE_SHARE * left, left / 2)
        expected: dict[int, int] = {}
        for share in range(1, jobs):
            wanted = shares[share]
            if wanted == 0 or share in self.lost:
                continue
            if share not in self.local and pool is not None:
                if share in self.started:
                    request: tuple[Any, ...] = ("more", self.number, wanted, search_end)
                else:
                    request = ("search", self.number, self.view, self.allowed,
                               self.seeds[share], wanted, search_end)  # fmt: skip
                if pool.send(share - 1, request):
                    self.started.add(share)
                    expected[share - 1] = self.number
                    self.asked[share] += wanted or 0
                    continue
            self._here(share, wanted, deadline)
        began = time.monotonic()
        self.local[0].run(shares[0], search_end)
        self.asked[0] += shares[0] or 0
        if pool is None or not expected:
            return
        if deadline is not None:
            until: float | None = deadline
        else:  # an iteration budget: as long as this share took, with a wide margin
            until = time.monotonic() + STALL_SECONDS + STALL_FACTOR * (time.monotonic() - began)
        answers = pool.collect(expected, until)
        for slot in expected:
            share = slot + 1
            if slot in answers:
                self.remote[share] = answers[slot]
                continue
            if deadline is None:  # stalled or dead: its share again here, the same tree
                if pool.workers[slot] is not None:
                    pool.drop(slot, f"no answer within {(until or began) - began:.0f} s")
                self.started.discard(share)
                self.remote.pop(share, None)
                self._here(share, 0, None)
            elif pool.workers[slot] is None:  # died under a time budget: its share is lost
                self.lost.add(share)
                self.remote.pop(share, None)

    def _here(self, share: int, wanted: int | None, deadline: float | None) -> None:
        """Run ``share`` in this process: all it was asked so far, then ``wanted`` more."""
        if self.seeds and share not in self.local:
            if deadline is not None or wanted is None:  # a time budget: no time to catch up
                self.lost.add(share)
                return
            self.local[share] = self._fresh(share)
            if self.asked[share]:
                self.local[share].run(self.asked[share], None)
        if wanted and share in self.local:
            self.local[share].run(wanted, None)
            self.asked[share] += wanted

    @property
    def shares(self) -> int:
        """The shares whose search counts."""
        return len(self.local) + sum(1 for share in self.remote if share not in self.local)

    @property
    def done(self) -> int:
        """Iterations run over every share."""
        here = sum(search.done for search in self.local.values())
        return here + sum(answer[0] for share, answer in self.remote.items()
                          if share not in self.local)  # fmt: skip

    def statistics(self) -> list[tuple[int, int, float]]:
        """The merged (code, visits, total reward) of each root move, in the order first tried
        (this process's share first, then the others in share order)."""
        merged: dict[int, list[float]] = {}
        tables = [self.local[0].rows()]
        for share in range(1, len(self.asked)):
            if share in self.local:
                tables.append(self.local[share].rows())
            elif share in self.remote:
                tables.append(self.remote[share][1])
        for rows in tables:
            for code, visits, total in rows:
                entry = merged.setdefault(code, [0, 0.0])
                entry[0] += visits
                entry[1] += total
        return [(code, int(visits), total) for code, (visits, total) in merged.items()]
