"""The ``ismcts`` bot: information-set Monte Carlo tree search (Cowling, Powley, Whitehouse 2012).

One search per decision, one tree shared by every determinisation:

1. **Determinise**: ``view.sample(rng)`` deals the cards this seat cannot see
   (other hands, the deck order) at random; the sample becomes a mutable
   :class:`~tajmahal.rules.playout.Playout`.
2. **Select** down the tree with UCT.  A tree edge is a move code, the same
   in every determinisation; a move legal in only some of them (another
   seat's card, say) is scored with its *availability count* -- how often it
   was legal when its parent was passed -- in place of the parent's visits.
3. **Expand** one untried legal move, then **roll out** to the end of the
   visit with the ``rollout`` policy (``random``, or the cheap ``heuristic``
   below), and **evaluate** the position there (:func:`evaluate`).
4. **Back up** one reward per seat: each node keeps the rewards of the seat
   that chose the move into it, so the search plays 3-5 players properly.

The chosen move is the root's most visited (OpenSpiel's ``MAX_VISIT_COUNT``
final policy), a tie going to the higher mean reward, then to the move tried first.

**Play or withdraw: a flat search** (option ``flat``, default ``"play"``).  The
decisions that play cards or withdraw -- the prize contests -- are searched
flat instead (``_FlatSearch``): every root move is played on the same
sampled deals with the same rollout seeds (common random numbers, so two moves
are compared on the same luck), rolled out to the visit's end and evaluated
as above, and the budget is spent by sequential halving (each round the moves
left share a round's simulations evenly, then the worse half drops out; the
last one standing is played).  ``FLAT_SHARE`` of the iteration budget are
simulations (at least one a move): about the tree's CPU per decision.  The
supply cards and palaces stay with the tree, which measured better there.
Why: with the tree, the play decisions lost about 11 points a game to the
outside baseline's flat search (``benchmarks/split_bot.py``, docs/performance.md);
flat, the same rollouts and evaluation win them.  ``flat="all"`` searches
every decision flat, ``flat="off"`` none (``ismcts-v1`` and ``ismcts-v2``).

**Levels for people**: ``ismcts:level=1`` to ``level=3`` are iteration
budgets (``LEVELS``), each four times the one below; level 3 is the default
budget (330: the CPU per decision of ``ismcts-v2``'s 400, whose evaluation is
cheaper; ``ismcts-v1`` and ``ismcts-v2`` keep their levels, ``LEVELS_V2``).
Levels 4 and 5 spend more CPU on a better model of the game rather than on
more simulations: each simulation plays every seat's play-or-withdraw
decisions by a small search of their own (``inner=2,inner_seats=all``,
``LEVEL_OPTIONS``), at 100 iterations (level 4: about 3 times level 3's CPU
per decision) and 330 (level 5: about 11 times; at 4 and 5 seats, where more
seats' decisions are searched, about 17 and 23 times).  Sixteen times level
3's simulations measured no stronger than level 3; this model measured 6-7
points a game stronger at both levels (docs/performance.md).  Iteration
budgets keep a game reproducible from its seed.

**ismcts-v1** (``IsmctsV1Bot``) is the first release's bot, kept for
head-to-head benchmarks: the same search with the first release's
evaluation, frozen in :mod:`tajmahal.bots.evaluation_v1` (a test pins its
choices on a fixed seed).  **ismcts-v2** (``IsmctsV2Bot``) is the second
release's default, frozen the same way: the same search with the second
release's weights (``evaluation_weights_v2.json``, the twelve features of
:data:`~tajmahal.bots.evaluation.FEATURES_V2`).  **ismcts-v3** (``IsmctsV3Bot``) is the
third release's default, frozen with its weights (``evaluation_weights_v3.json``), its
levels (``LEVELS_V3``, levels 4 and 5 with ``inner=2,inner_seats=all``) and its flat search
of the play decisions; a test pins its decisions on fixed seeds.
"""

from __future__ import annotations

import logging
import pickle
import random
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from tajmahal.bots._evaluation_core import Reward, heuristic_pick
from tajmahal.bots._search import EVERY_SEAT, Node, PlaySearch, iterate, simulate_each
from tajmahal.bots._search_pool import JOBS_VARIABLE, SearchPool, job_cap
from tajmahal.bots.base import current_deadline
from tajmahal.bots.evaluation import WEIGHTS, WEIGHTS_V2, WEIGHTS_V3, EvaluationWeights, evaluate
from tajmahal.bots.evaluation_v1 import evaluate_v1
from tajmahal.bots.seat_model import model_pick
from tajmahal.rules.moves import Move
from tajmahal.rules.playout import Picker, Playout, code_of, sampled
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.views import PlayerView

__all__ = [
    "LEVELS",
    "LEVELS_V2",
    "LEVELS_V3",
    "LEVEL_OPTIONS",
    "IsmctsBot",
    "IsmctsV1Bot",
    "IsmctsV2Bot",
    "IsmctsV3Bot",
    "MoveStatistics",
    "decision_time",
    "decision_work",
]

ROLLOUTS = ("heuristic", "random", "model")
#: ``flat``: which decisions a flat search (``_FlatSearch``) makes instead of the tree
FLAT = ("play", "all", "off")
#: ``inner_seats``: whose later play-or-withdraw decisions an inner search searches
INNER_SEATS = ("own", "all")
#: a flat search runs this share of the iteration budget as simulations: about a tree's CPU
#: per decision (compiled, the default budget: 0.0154 s against 0.0159, benchmarks/flat_cost.py)
FLAT_SHARE = 0.95
MAX_ITERATIONS = 10_000_000
MAX_TIME_LIMIT = 3600.0
#: the default budget (``LEVELS[3]``): about the CPU per decision of ``ismcts-v2``'s 400
#: (compiled build), whose evaluation costs less per iteration
DEFAULT_ITERATIONS = 330
#: levels 4 and 5: an inner search of every seat's play decisions (``inner=2,inner_seats=all``)
#: at these many iterations: about 3 and 11 times level 3's CPU per decision at 3 seats (level
#: 5: 17 times at 4 seats, 23 at 5)
LEVEL4_ITERATIONS = 100
LEVEL5_ITERATIONS = 330
LEVEL_INNER = 2  #: the inner rollouts a candidate of levels 4 and 5
MAX_JOBS = 32  #: the most search processes per decision (``jobs``)
MAX_TREES = 64  #: the most trees per search (``trees``)
MAX_DEPTH = 12  #: the most visits a simulation may run through (``depth``)
MAX_INNER = 16  #: the most rollouts per candidate of an inner search (``inner``)
MAX_EXTEND = 10.0  #: the most ``extend`` may multiply a close decision's budget by
MAX_FOCUS = 2.0  #: the most ``focus`` may multiply a play-or-withdraw decision's budget by
#: the share of searched decisions that are play-or-withdraw decisions (greedy games, 3-5 seats:
#: 548 of 1253; the others: 425 supply cards, 221 palaces, 59 crown palaces)
PLAY_SHARE = 0.44
#: ``focus`` by default: an even budget (1.5 measured no stronger: 102 games, -1.9 points a game,
#: -6.2 to +2.4, against the same bot at 1; docs/performance.md)
DEFAULT_FOCUS = 1.0
DEFAULT_MARGIN = 0.1  #: close: the runner-up has at least 90% of the top move's visits
DECISIONS_PER_VISIT = 4.5  #: decisions with a choice per seat and visit (greedy games, 3-5 seats)
CLOCK_SHARE = 0.9  #: the share of the game clock the bot plans to use (the rest: the referee's)
GRACE = 0.01  #: with a time budget, the workers stop searching this many seconds, plus ...
GRACE_SHARE = 0.05  #: ... this share of the budget, before its end (at most half of it)
STALL_SECONDS = 30.0  #: with an iteration budget, a worker's answer is awaited this long, plus
STALL_FACTOR = 10.0  #: this many times what this process took for its own share
#: the numbers of seats at which the evaluation reads the prize contests (the shipped weights);
#: at the others it keeps ``ismcts-v2``'s weights: at 5 seats the contest weights measured
#: weaker (3 deals, 60 games against four greedy: 36.3 points a game against v2's 45.1); there
#: a level's (or the default) budget is v2's too (400 by default): ``ismcts-v2``'s play
CONTEST_SEATS = frozenset({3, 4})
#: ``level`` -> iterations per decision (level 3 is the default budget)
LEVELS: dict[int, int] = {
    1: 21, 2: 83, 3: DEFAULT_ITERATIONS, 4: LEVEL4_ITERATIONS, 5: LEVEL5_ITERATIONS
}
#: ``level`` -> the options a level sets besides its budget (options given explicitly win):
#: levels 4 and 5 spend their CPU on a better model of the game, not on more simulations
LEVEL_OPTIONS: dict[int, dict[str, Any]] = {
    level: {"inner": LEVEL_INNER, "inner_seats": "all"} for level in (4, 5)
}
#: the levels and default budget of ``ismcts-v1`` and ``ismcts-v2``, frozen
LEVELS_V2: dict[int, int] = {1: 25, 2: 100, 3: 400, 4: 1600, 5: 6400}
#: the levels and default budget of ``ismcts-v3`` (the third release's), frozen
LEVELS_V3: dict[int, int] = {1: 21, 2: 83, 3: 330, 4: 100, 5: 330}


logger = logging.getLogger("tajmahal.bots")


def _number_in(value: object, low: float, high: float, above: bool = False) -> bool:
    """Whether ``value`` is an int or float (not a bool) from ``low`` (excluded if ``above``)
    to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return (low < value if above else low <= value) and value <= high


#: an inner search's cost per rollout a candidate, in plain iterations (``inner_seats``):
#: measured ``inner=3``: 2.8 times an iteration; ``inner=2,inner_seats=all``: 11 times at 3
#: seats, 17 at 4, 23 at 5 (docs/performance.md): the most, 5 seats', counts
INNER_COST = {"own": 1, "all": 11}


def decision_work(options: Mapping[str, object]) -> int | None:
    """About the most plain iterations' work one decision of ``ismcts`` with ``options`` (a
    player spec's) costs: the iteration budget (``iterations``, a ``level``'s, or the
    default: at 5 seats ``ismcts-v2``'s, 400 for level 3's 330) times ``focus`` (a
    play-or-withdraw decision's share), ``extend``, ``depth`` and the inner search's cost;
    None for a budget in seconds only (see :func:`decision_time`).  Options of the wrong type
    count as their defaults, values past an option's most as its most (the bot refuses
    both), so the answer is always a finite number.

    A server bounds what a lobby may ask with it.

    >>> decision_work({}), decision_work({"level": 5}), decision_work({"time_limit": 1.0})
    (400, 9200, None)
    >>> decision_work({"iterations": 1000, "extend": 2.0, "depth": 3, "inner": 16})
    102000
    >>> decision_work({"iterations": 1000, "focus": 2.0})
    2000
    >>> decision_work({"extend": float("inf"), "depth": 10**400, "inner": 10**9})
    816000
    """

    def number(name: str, default: float, most: float) -> float:
        value = options.get(name)
        ok = isinstance(value, int | float) and not isinstance(value, bool) and value > 0
        return min(float(value), most) if ok else default  # type: ignore[arg-type]

    level = options.get("level")
    preset: Mapping[str, object] = {}
    at_five = LEVELS_V2[3] / DEFAULT_ITERATIONS  # a level's budget at 5 seats: v2's (_choose)
    if type(level) is int and level in LEVELS:
        iterations, preset = LEVELS[level] * at_five, LEVEL_OPTIONS.get(level, {})
    elif type(options.get("iterations")) is int:
        iterations = number("iterations", DEFAULT_ITERATIONS, MAX_ITERATIONS)
    elif options.get("time_limit") is not None or options.get("game_time") is not None:
        return None
    else:
        iterations = DEFAULT_ITERATIONS * at_five
    inner = options.get("inner", preset.get("inner", 0))
    seats = options.get("inner_seats", preset.get("inner_seats", "own"))
    per_rollout = INNER_COST.get(seats, 1) if isinstance(seats, str) else 1
    inner_cost = 1 + min(inner if type(inner) is int and inner > 0 else 0, MAX_INNER) * per_rollout
    depth = options.get("depth")
    depth_cost = min(depth if type(depth) is int and depth > 1 else 1, MAX_DEPTH)
    focus = number("focus", DEFAULT_FOCUS, MAX_FOCUS)
    return round(iterations * max(1.0, focus) * number("extend", 1.0, MAX_EXTEND) * depth_cost
                 * inner_cost)  # fmt: skip


def decision_time(options: Mapping[str, object]) -> float | None:
    """The most seconds one decision of ``ismcts`` with ``options`` may search by its own
    ``time_limit``: times ``focus`` (a play-or-withdraw decision's share) and ``extend`` (a
    close decision searches on); None without ``time_limit`` (an iteration budget, or
    ``game_time`` alone: its share of the game clock; a host bounds both with
    :func:`~tajmahal.bots.base.decision_deadline`).  Counted as :func:`decision_work` counts.

    >>> decision_time({"time_limit": 120, "extend": 10}), decision_time({"iterations": 50})
    (1200.0, None)
    >>> decision_time({"time_limit": 2.5, "focus": 2, "extend": "x"})
    5.0
    """
    value = options.get("time_limit")
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return None
    seconds = min(float(value), MAX_TIME_LIMIT)
    for name, most in (("focus", MAX_FOCUS), ("extend", MAX_EXTEND)):
        factor = options.get(name)
        if isinstance(factor, int | float) and not isinstance(factor, bool) and factor > 1:
            seconds *= min(float(factor), most)
    return seconds


def _host_bound(deadline: float | None) -> float | None:
    """``deadline``, or the host's (:func:`~tajmahal.bots.base.decision_deadline`) if sooner."""
    host = current_deadline()
    return deadline if host is None or (deadline is not None and deadline <= host) else host


def _close(rows: list[tuple[int, int, float]], margin: float) -> bool:
    """Whether the two most searched root moves are within ``margin`` (of the top's visits).

    >>> _close([(1, 100, 50.0), (2, 95, 40.0), (3, 5, 1.0)], 0.1)
    True
    >>> _close([(1, 100, 50.0), (2, 80, 40.0)], 0.1), _close([(1, 9, 5.0)], 0.1)
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


class _Search:
    """One decision's trees (``bot.trees`` of them, grown in turn and summed at the root),
    grown by :meth:`run`: the roots and the iterations done so far."""

    __slots__ = ("allowed", "bot", "done", "pick", "reward", "rng", "roots", "view")

    def __init__(
        self, bot: IsmctsBot, view: PlayerView, allowed: frozenset[int] | None, rng: random.Random
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
        deadline = _host_bound(deadline)  # a host's hard limit ends an iteration budget too
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


class _FlatSearch:
    """One play-or-withdraw decision searched flat: every root move simulated on the same deals
    (common random numbers), the budget spent by sequential halving (Karnin, Koren, Somekh
    2013): in each round every move still in the race gets the same number of simulations,
    then the worse half is dropped.  The same interface as :class:`_Search`."""

    __slots__ = ("bot", "codes", "done", "pick", "reward", "rng", "seat", "totals", "view",
                 "visits")  # fmt: skip

    def __init__(
        self, bot: IsmctsBot, view: PlayerView, allowed: frozenset[int] | None, rng: random.Random
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
        deadline = _host_bound(deadline)
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


class _Decision:
    """One decision's searches: ``jobs`` shares, the first in this process, the others in
    the bot's worker processes (or here, when a worker cannot run them: same seeds, same trees).

    With ``jobs=1`` the one share uses the bot's own random stream, as it always has.
    """

    def __init__(self, bot: IsmctsBot, view: PlayerView, allowed: frozenset[int] | None) -> None:
        self.bot, self.view, self.allowed = bot, view, allowed
        jobs = bot.jobs
        if jobs == 1:
            self.seeds: list[int] = []
            self.local: dict[int, _Search | _FlatSearch] = {
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

    def _fresh(self, share: int) -> _Search | _FlatSearch:
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


class IsmctsBot:
    """Information-set MCTS over sampled deals; strong, and slower than greedy.

    Options (keyword arguments, or ``ismcts:iterations=400,c=0.7`` as a player spec):

    - ``level``: 1 (weakest, fastest) to 5, an iteration budget from ``LEVELS``, and for
      levels 4 and 5 the options of ``LEVEL_OPTIONS`` (``inner=2,inner_seats=all``; an option
      given beside the level wins) (not with ``iterations``, ``time_limit`` or ``game_time``);
    - ``iterations``: searches per decision (default 330 when neither ``time_limit``
      nor ``game_time`` is given: ``ismcts-v2``'s CPU per decision at 400);
    - ``time_limit``: seconds per decision instead (or as well: whichever ends first);
    - ``game_time``: seconds for the whole game, spread over the decisions
      still to come (see :meth:`decision_seconds`); with ``time_limit``, each
      decision gets the less of the two;
    - ``jobs``: search processes per decision (default 1: this process only);
      ``jobs=N`` runs ``N - 1`` worker processes beside this one, each growing
      its own tree from its own deals, and picks the move from the summed root
      statistics; an iteration budget is split between them;
    - ``focus``: play-or-withdraw decisions (the prize contests) get ``focus`` times
      the budget, the other decisions (supply cards, palaces) less, so that the
      mean over a game's searched decisions stays the budget (``PLAY_SHARE`` of
      them are play-or-withdraw decisions): default 1 (every decision alike; at
      most 2; 1.5 measured no stronger);
    - ``extend``: when the two most searched moves are within ``margin`` of each
      other after the budget, search on for ``extend - 1`` times the budget
      (default 1: never; at most 10);
    - ``margin``: how close counts as close, as a share of the top move's visits
      (default 0.1);
    - ``trees``: independent trees per search process (default 1), grown in turn from
      their own deals and summed at the root (each gets its share of the budget);
    - ``depth``: the visits each simulation runs through before it is evaluated (default
      1: to this visit's end; at most 12); 2 costs about 1.6 times as much per simulation
      and measured no stronger at level 4;
    - ``inner``: in each simulation, the seat's own later play-or-withdraw decisions are
      searched too (``OwnPlaySearch`` in ``tajmahal.bots._search``): each plain play and
      withdrawing on ``inner`` rollouts to the visit's end, the best played (default 0:
      the rollout policy plays them; at most 16); at 3, about 2.8 times the CPU per
      iteration over a game's decisions, and measured no stronger at level 5's CPU;
    - ``inner_seats``: whose later play decisions an inner search searches: ``"own"``
      (default) or ``"all"`` (every seat's, each for its own reward, so that the others
      contest the prizes as searching players would, not as the cheap policy does; at
      ``inner=2`` about 13 times the CPU per iteration at 3 seats: levels 4 and 5);
    - ``flat``: which decisions a flat search makes instead of the tree: ``"play"``
      (default: play-or-withdraw), ``"all"`` or ``"off"``; a flat search runs
      ``FLAT_SHARE`` (0.95) of the budget as simulations, at least one a move;
    - ``c``: the UCT exploration constant (default 0.7; rewards lie in 0..1);
    - ``rollout``: ``"heuristic"`` (default), ``"random"`` or ``"model"``, the policy that
      plays each simulation on to the end of the visit (``"model"``: every seat's
      play-or-withdraw decisions by the learned :mod:`~tajmahal.bots.seat_model`, fitted to
      what levels 4 and 5 search there, the rest as ``"heuristic"``); from Python also any
      move picker ``pick(playout, codes, rng) -> code`` (see
      :class:`~tajmahal.rules.playout.Playout`).

    With the same seed and an iteration budget it makes the same choices,
    whatever ``jobs`` processes actually ran (a share that a worker could not
    run is searched in this process with the same seed).
    Decisions with one legal move are answered at once, without search.
    A bot with ``jobs`` above 1 holds processes: :meth:`close` stops them (the
    referee calls it at the end of a match; ``with`` works too).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> bot = IsmctsBot(seed=1, iterations=50)
    >>> move = bot.choose(state.view(0), state.legal_moves())
    >>> move in state.legal_moves(), bot.last_iterations  # play or withdraw: flat, 95% of 50
    (True, 48)
    >>> tree = IsmctsBot(seed=1, iterations=50, flat="off")
    >>> tree.choose(state.view(0), state.legal_moves()) in state.legal_moves(), tree.last_iterations
    (True, 50)
    >>> IsmctsBot(flat="some")
    Traceback (most recent call last):
    ...
    ValueError: flat must be one of play, all, off, got 'some'
    >>> IsmctsBot(iterations=0)
    Traceback (most recent call last):
    ...
    ValueError: iterations must be an int from 1 to 10000000, got 0
    >>> top = IsmctsBot(level=5)
    >>> top.iterations, top.inner, top.inner_seats
    (330, 2, 'all')
    """

    name: ClassVar[str] = "ismcts"
    default_focus: ClassVar[float] = DEFAULT_FOCUS
    default_flat: ClassVar[str] = "play"
    levels: ClassVar[dict[int, int]] = LEVELS
    #: the options a level sets besides its budget
    level_options: ClassVar[dict[int, dict[str, Any]]] = LEVEL_OPTIONS
    #: the numbers of seats at which the reward reads the prize contests; at the others the
    #: v2 weights, with the v2 budget for a level (or the default): the same CPU per decision
    contest_seats: ClassVar[frozenset[int]] = CONTEST_SEATS

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float = 0.7,
        rollout: str | Picker = "heuristic",
        level: int | None = None,
        jobs: int = 1,
        extend: float = 1.0,
        margin: float = DEFAULT_MARGIN,
        game_time: float | None = None,
        focus: float | None = None,
        trees: int = 1,
        flat: str | None = None,
        depth: int = 1,
        inner: int | None = None,
        inner_seats: str | None = None,
    ) -> None:
        if level is not None:
            if isinstance(level, bool) or level not in self.levels:
                raise ValueError(
                    f"level must be an int from 1 to {len(self.levels)}, got {level!r}"
                )
            if iterations is not None or time_limit is not None or game_time is not None:
                raise ValueError(
                    "level sets the budget: give level, or iterations/time_limit/game_time"
                )
            iterations = self.levels[level]
            preset = self.level_options.get(level, {})
            inner = preset.get("inner", 0) if inner is None else inner
            inner_seats = preset.get("inner_seats", "own") if inner_seats is None else inner_seats
        inner = 0 if inner is None else inner
        inner_seats = "own" if inner_seats is None else inner_seats
        if iterations is not None and (
            isinstance(iterations, bool)
            or not isinstance(iterations, int)
            or not 1 <= iterations <= MAX_ITERATIONS
        ):
            raise ValueError(
                f"iterations must be an int from 1 to {MAX_ITERATIONS}, got {iterations!r}"
            )
        for what, seconds in (("time_limit", time_limit), ("game_time", game_time)):
            if seconds is not None and not _number_in(seconds, 0, MAX_TIME_LIMIT, above=True):
                raise ValueError(
                    f"{what} must be a number of seconds above 0 and at most "
                    f"{MAX_TIME_LIMIT:g}, got {seconds!r}"
                )
        if not _number_in(c, 0, 100):
            raise ValueError(f"c must be a number from 0 to 100, got {c!r}")
        if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
            raise ValueError(f"jobs must be an int from 1 to {MAX_JOBS}, got {jobs!r}")
        if isinstance(trees, bool) or not isinstance(trees, int) or not 1 <= trees <= MAX_TREES:
            raise ValueError(f"trees must be an int from 1 to {MAX_TREES}, got {trees!r}")
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be an int from 1 to {MAX_DEPTH}, got {depth!r}")
        if isinstance(inner, bool) or not isinstance(inner, int) or not 0 <= inner <= MAX_INNER:
            raise ValueError(f"inner must be an int from 0 to {MAX_INNER}, got {inner!r}")
        if inner_seats not in INNER_SEATS:
            raise ValueError(
                f"inner_seats must be one of {', '.join(INNER_SEATS)}, got {inner_seats!r}"
            )
        if flat is None:
            flat = self.default_flat
        if flat not in FLAT:
            raise ValueError(f"flat must be one of {', '.join(FLAT)}, got {flat!r}")
        if focus is None:
            focus = self.default_focus
        if not _number_in(focus, 1, MAX_FOCUS):
            raise ValueError(f"focus must be a number from 1 to {MAX_FOCUS}, got {focus!r}")
        if not _number_in(extend, 1, MAX_EXTEND):
            raise ValueError(f"extend must be a number from 1 to {MAX_EXTEND}, got {extend!r}")
        if not _number_in(margin, 0, 1) or margin == 1:
            raise ValueError(f"margin must be a number from 0 up to (not including) 1, "
                             f"got {margin!r}")  # fmt: skip
        if not callable(rollout) and rollout not in ROLLOUTS:
            raise ValueError(
                f"rollout must be one of {', '.join(ROLLOUTS)} (or, from Python, a move "
                f"picker), got {rollout!r}"
            )
        self.seed = seed
        self.level = level
        timed = time_limit is not None or game_time is not None
        #: the budget comes from a level (or the default), so it follows the evaluation's cost
        self._level_budget = iterations is None or level is not None
        default = self.levels[3]  # level 3 is the default budget
        self.iterations = iterations if iterations is not None or timed else default
        self.time_limit = None if time_limit is None else float(time_limit)
        self.game_time = None if game_time is None else float(game_time)
        self.c = float(c)
        self.rollout = rollout
        self.jobs = jobs
        self.extend = float(extend)
        self.margin = float(margin)
        self.focus = float(focus)
        self.trees = trees
        self.flat = flat
        self.depth = depth
        self.inner = inner
        self.inner_seats = inner_seats
        self._pick: Picker | None
        if callable(rollout):
            self._pick = rollout
        else:
            self._pick = {"heuristic": heuristic_pick, "model": model_pick}.get(rollout)
        self._rng = random.Random(seed)
        self.last_iterations = 0  #: searches run for the last decision (0: answered at once)
        #: the root moves of the last search, most visited first (empty: answered at once)
        self.last_statistics: tuple[MoveStatistics, ...] = ()
        self.last_extended = False  #: whether the last decision was close and searched on
        #: the shares (of ``jobs``) whose search counted in the last decision (0: answered at
        #: once); fewer than ``jobs`` when a worker was late for a time budget, or is gone
        self.last_shares = 0
        #: search only the moves offered to :meth:`choose` at the root (by default every
        #: legal move is searched and the answer is picked among the offered ones); game
        #: analysis sets it to compare two moves with the whole budget
        self.search_offered_only = False
        self.clock_used = 0.0  #: seconds spent in :meth:`choose` this game (for ``game_time``)
        self._visit = 0  # the visit of the last decision, and the searches made in it
        self._searched_in_visit = 0
        self._decisions = 0
        self._pool: SearchPool | None = None
        self._closer: weakref.finalize[Any, Any] | None = None
        if jobs > 1:  # the workers load the library while the game starts
            self._pool_for_search()

    def choose(self, view: PlayerView, legal_moves: Sequence[Move]) -> Move:
        """The root move searched most often within the budget.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> first = IsmctsBot(seed=3, iterations=30).choose(state.view(0), state.legal_moves())
        >>> again = IsmctsBot(seed=3, iterations=30).choose(state.view(0), state.legal_moves())
        >>> first == again
        True
        """
        started = time.monotonic()
        try:
            return self._choose(view, legal_moves, started)
        finally:
            self.clock_used += time.monotonic() - started

    def _choose(self, view: PlayerView, legal_moves: Sequence[Move], started: float) -> Move:
        self.last_statistics = ()
        self.last_extended = False
        if view.visit < self._visit:  # a new game for a bot used again: a fresh clock
            self.clock_used = 0.0
        if view.visit != self._visit:
            self._visit, self._searched_in_visit = view.visit, 0
        if len(legal_moves) == 1:
            self.last_iterations = self.last_shares = 0
            return legal_moves[0]
        seconds = self.decision_seconds(view)
        share = self.budget_share(view)
        if self._level_budget and view.num_players not in self.contest_seats:
            share *= LEVELS_V2[3] / self.levels[3]  # the cheaper v2 evaluation: v2's budget
        iterations = None if self.iterations is None else max(1, round(self.iterations * share))
        if seconds is not None and self.time_limit is not None and self.game_time is None:
            seconds *= share
        self._searched_in_visit += 1
        by_code = {code_of(view.components, move): move for move in legal_moves}
        allowed = frozenset(by_code) if self.search_offered_only else None
        deadline = None if seconds is None else started + seconds
        decision = _Decision(self, view, allowed)
        decision.run(iterations, deadline)
        if self.extend > 1 and _close(decision.statistics(), self.margin):
            more = None if iterations is None else round(iterations * (self.extend - 1))
            later = None if seconds is None else time.monotonic() + seconds * (self.extend - 1)
            if self.game_time is not None and later is not None:  # never half the clock left
                later = min(later, started + max(0.0, self._clock_left()) / 2)
            decision.run(max(1, more) if more is not None else None, later)
            self.last_extended = True
        self.last_iterations = decision.done
        self.last_shares = decision.shares
        searched = [row for row in decision.statistics() if row[0] in by_code]
        if not searched:  # only when legal_moves are not the view's own legal moves
            return legal_moves[0]

        def trust(row: tuple[int, int, float]) -> tuple[int, float]:
            return row[1], row[2] / row[1]

        best = max(searched, key=trust)
        ranked = sorted(searched, key=trust, reverse=True)  # stable: ties keep the tried order
        ranked.remove(best)
        self.last_statistics = tuple(
            MoveStatistics(by_code[code], visits, total / visits)
            for code, visits, total in [best, *ranked]
        )
        return by_code[best[0]]

    def budget_share(self, view: PlayerView) -> float:
        """This decision's share of the budget (``focus``): more for playing or withdrawing.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> bot = IsmctsBot(focus=1.5)
        >>> bot.budget_share(state.view(0))
        1.5
        >>> round(bot.budget_share(state.apply(tm.Withdraw()).view(0)), 3)  # taking a card
        0.607
        >>> IsmctsBot(focus=1).budget_share(state.view(0))
        1.0
        """
        if view.phase is Phase.PLAY:
            return self.focus
        return max(0.1, (1 - PLAY_SHARE * self.focus) / (1 - PLAY_SHARE))

    def decision_seconds(self, view: PlayerView) -> float | None:
        """The seconds this decision may take: ``time_limit``, or its share of ``game_time``.

        The share is what is left of ``CLOCK_SHARE`` (90%) of the game clock
        (:attr:`clock_used` is this bot's own account of its time; the rest is
        a reserve for the referee's own work) over an estimate of the
        decisions still to come: ``DECISIONS_PER_VISIT`` searched decisions per
        seat in each visit left (measured over greedy games of 3 to 5 players),
        less those already made in this visit.  None: an iteration budget only.

        >>> import tajmahal as tm
        >>> view = tm.new_game(num_players=3, seed=1).view(0)
        >>> round(IsmctsBot(game_time=54.0).decision_seconds(view), 3)  # 54 * 0.9 / (12 * 4.5)
        0.9
        >>> IsmctsBot(game_time=54.0, time_limit=0.5).decision_seconds(view)
        0.5
        >>> IsmctsBot().decision_seconds(view) is None
        True
        """
        seconds = self.time_limit
        if self.game_time is None:
            return seconds
        visits_left = max(1, 13 - view.visit)
        decisions = max(1.0, visits_left * DECISIONS_PER_VISIT - self._searched_in_visit)
        share = max(0.0, self._clock_left()) / decisions
        return share if seconds is None else min(seconds, share)

    def _clock_left(self) -> float:
        """What is left of the share of the game clock the bot plans to use."""
        assert self.game_time is not None
        return self.game_time * CLOCK_SHARE - self.clock_used

    def _pool_for_search(self) -> SearchPool | None:
        """The bot's worker processes (started when the bot is built, and again after
        :meth:`close`), or None if it has none to use."""
        if self._pool is None:
            cap = job_cap()
            size = self.jobs - 1 if cap is None else min(self.jobs, cap) - 1
            note = "" if size == self.jobs - 1 else f"{JOBS_VARIABLE}={cap} in this process"
            try:
                setup = pickle.dumps(self)
            except Exception as exc:  # a rollout picker that cannot be pickled, say
                size, setup = 0, b""
                note = f"the bot cannot be sent to a worker process ({exc})"[:300]
            if note:
                logger.info("ismcts: %d of %d search shares run in-process: %s",
                            self.jobs - size, self.jobs, note)  # fmt: skip
            self._pool = SearchPool(setup, size)
            self._pool.note = note
            self._closer = weakref.finalize(self, self._pool.close)
            self._pool.start()
        return self._pool if self._pool.usable else None

    @property
    def jobs_note(self) -> str:
        """Why fewer than ``jobs`` processes search ("" if none is missing, or none was needed).

        >>> IsmctsBot(jobs=2).jobs_note
        ''
        """
        return "" if self._pool is None else self._pool.note

    def worker_pids(self) -> list[int]:
        """The process ids of the bot's running search workers (empty with ``jobs=1``).

        >>> IsmctsBot(jobs=1).worker_pids()
        []
        """
        return [] if self._pool is None else self._pool.pids()

    def close(self) -> None:
        """Stop the search workers and reap them (a later search starts them again).

        >>> with IsmctsBot(jobs=2, iterations=20) as bot:
        ...     pass
        >>> bot.worker_pids()
        []
        """
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._closer is not None:
            self._closer.detach()
            self._closer = None

    def __enter__(self) -> IsmctsBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        """What a copy (a worker's searcher) keeps: the options, not the processes."""
        state = self.__dict__.copy()
        state["_pool"] = state["_closer"] = None
        return state

    def _rollout_policy(self, seat: int) -> Picker | None:
        """The rollout policy of ``seat``'s searches: ``rollout``, with the later play decisions
        of the seat (or of every seat: ``inner_seats="all"``) searched (``inner`` rollouts a
        candidate) when ``inner`` is set."""
        if not self.inner:
            return self._pick
        searched = EVERY_SEAT if self.inner_seats == "all" else seat
        return PlaySearch(searched, self.inner, self._pick, self.reward)

    def _new_search(
        self, view: PlayerView, allowed: frozenset[int] | None, rng: random.Random
    ) -> _Search | _FlatSearch:
        """One decision's search (what a search worker grows): flat for the decisions ``flat``
        names, else a tree."""
        if self.flat == "all" or (self.flat == "play" and view.phase is Phase.PLAY):
            return _FlatSearch(self, view, allowed, rng)
        return _Search(self, view, allowed, rng)

    def _search_reward(self, seats: int) -> Callable[[Playout], list[float]]:
        """What the searches call for :meth:`reward` at ``seats`` seats: the same evaluation
        with the weights bound (compiled: no Python call between the search and the
        evaluation), or :meth:`reward` itself where a subclass evaluates otherwise."""
        weights = self._reward_weights(seats)
        return self.reward if weights is None else Reward(weights.weights, weights.scales)

    def _reward_weights(self, seats: int) -> EvaluationWeights | None:
        """The weights :meth:`reward` evaluates with at ``seats`` seats (None: another reward)."""
        if type(self).reward is not IsmctsBot.reward:
            return None
        return WEIGHTS if seats in self.contest_seats else WEIGHTS_V2

    def reward(self, game: Playout) -> list[float]:
        """The reward of a position, one per seat (see :mod:`tajmahal.bots.evaluation`).

        >>> import tajmahal as tm
        >>> from tajmahal.rules.playout import Playout
        >>> rewards = IsmctsBot(seed=1).reward(Playout(tm.new_game(num_players=3, seed=1)))
        >>> len(rewards), all(0 < r < 1 for r in rewards)
        (3, True)
        >>> game = Playout(tm.new_game(num_players=5, seed=1))  # 5 seats: the v2 weights
        >>> IsmctsBot().reward(game) == evaluate(game, weights=WEIGHTS_V2)
        True
        """
        if game.num_players in self.contest_seats:
            return evaluate(game)
        return evaluate(game, weights=WEIGHTS_V2)


class IsmctsV1Bot(IsmctsBot):
    """The first release's ismcts, frozen for head-to-head benchmarks against the current one.

    The same search and options, with the first release's evaluation
    (:mod:`tajmahal.bots.evaluation_v1`: hand-set estimates and a fixed
    logistic scale of 3 points, which saturates when one seat leads).

    >>> import tajmahal as tm
    >>> isinstance(tm.bots.create("ismcts-v1:iterations=5"), IsmctsV1Bot)
    True
    """

    name: ClassVar[str] = "ismcts-v1"
    default_focus: ClassVar[float] = 1.0
    default_flat: ClassVar[str] = "off"
    levels: ClassVar[dict[int, int]] = LEVELS_V2
    level_options: ClassVar[dict[int, dict[str, Any]]] = {}  # frozen: budgets only
    contest_seats: ClassVar[frozenset[int]] = frozenset(range(3, 6))  # no budget change

    def reward(self, game: Playout) -> list[float]:
        """The first release's reward: the margin's logistic at a fixed scale.

        >>> import tajmahal as tm
        >>> from tajmahal.rules.playout import Playout
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> IsmctsV1Bot(seed=1).reward(game) == evaluate_v1(game)
        True
        """
        return evaluate_v1(game)


class IsmctsV2Bot(IsmctsBot):
    """The second release's default ismcts, frozen for head-to-head benchmarks.

    The same search and options, with the second release's evaluation: the
    twelve features of :data:`~tajmahal.bots.evaluation.FEATURES_V2` and their
    weights fitted to ``greedy`` self-play (``evaluation_weights_v2.json``).

    >>> import tajmahal as tm
    >>> isinstance(tm.bots.create("ismcts-v2:iterations=5"), IsmctsV2Bot)
    True
    """

    name: ClassVar[str] = "ismcts-v2"
    default_focus: ClassVar[float] = 1.0
    default_flat: ClassVar[str] = "off"
    levels: ClassVar[dict[int, int]] = LEVELS_V2
    level_options: ClassVar[dict[int, dict[str, Any]]] = {}  # frozen: budgets only
    contest_seats: ClassVar[frozenset[int]] = frozenset(range(3, 6))  # no budget change

    def reward(self, game: Playout) -> list[float]:
        """The second release's reward (its weights and scales).

        >>> import tajmahal as tm
        >>> from tajmahal.rules.playout import Playout
        >>> from tajmahal.bots.evaluation import WEIGHTS_V2
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> IsmctsV2Bot(seed=1).reward(game) == evaluate(game, weights=WEIGHTS_V2)
        True
        """
        return evaluate(game, weights=WEIGHTS_V2)

    def _reward_weights(self, seats: int) -> EvaluationWeights | None:
        return WEIGHTS_V2 if type(self).reward is IsmctsV2Bot.reward else None


class IsmctsV3Bot(IsmctsBot):
    """The third release's default ismcts, frozen for head-to-head benchmarks.

    The same search and options as the third release's ``ismcts``: the flat search of the
    play-or-withdraw decisions, its levels (``LEVELS_V3``; levels 4 and 5 search every
    seat's play decisions inside each simulation), the prize-contest evaluation
    (``evaluation_weights_v3.json``) at 3 and 4 seats, ``ismcts-v2``'s weights and budget at 5.

    >>> import tajmahal as tm
    >>> bot = tm.bots.create("ismcts-v3:level=5")
    >>> isinstance(bot, IsmctsV3Bot), bot.iterations, bot.inner, bot.inner_seats, bot.flat
    (True, 330, 2, 'all', 'play')
    """

    name: ClassVar[str] = "ismcts-v3"
    default_focus: ClassVar[float] = 1.0
    default_flat: ClassVar[str] = "play"
    levels: ClassVar[dict[int, int]] = LEVELS_V3
    level_options: ClassVar[dict[int, dict[str, Any]]] = {
        4: {"inner": 2, "inner_seats": "all"},
        5: {"inner": 2, "inner_seats": "all"},
    }
    contest_seats: ClassVar[frozenset[int]] = frozenset({3, 4})

    def reward(self, game: Playout) -> list[float]:
        """The third release's reward: its weights at 3 and 4 seats, ``ismcts-v2``'s at 5.

        >>> import tajmahal as tm
        >>> from tajmahal.rules.playout import Playout
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> IsmctsV3Bot(seed=1).reward(game) == evaluate(game, weights=WEIGHTS_V3)
        True
        """
        if game.num_players in self.contest_seats:
            return evaluate(game, weights=WEIGHTS_V3)
        return evaluate(game, weights=WEIGHTS_V2)

    def _reward_weights(self, seats: int) -> EvaluationWeights | None:
        if type(self).reward is not IsmctsV3Bot.reward:
            return None
        return WEIGHTS_V3 if seats in self.contest_seats else WEIGHTS_V2
