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
flat instead (``FlatSearch``): every root move is played on the same
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

**Levels for people**: ``ismcts:level=1`` to ``level=5`` (see
:mod:`tajmahal.bots.search_options`).

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
import random
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from tajmahal.bots._evaluation_core import Reward, heuristic_pick
from tajmahal.bots._ismcts_search import (
    FlatSearch,
    MoveStatistics,
    SearchShares,
    TreeSearch,
    close_call,
)
from tajmahal.bots._search import EVERY_SEAT, PlaySearch
from tajmahal.bots._search_pool import SearchPool, SearchProcesses
from tajmahal.bots.evaluation import WEIGHTS, WEIGHTS_V2, WEIGHTS_V3, EvaluationWeights, evaluate
from tajmahal.bots.evaluation_v1 import evaluate_v1
from tajmahal.bots.search_options import (
    DEFAULT_FOCUS,
    DEPRECATED_SPEC_OPTIONS,
    LEVEL_OPTIONS,
    LEVELS,
    LEVELS_V2,
    LEVELS_V3,
    SearchOptions,
    decision_time,
    decision_work,
)
from tajmahal.rules.moves import Move
from tajmahal.rules.playout import Picker, Playout, code_of
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.views import PlayerView

# isort: off
# the names this module held before the options and the searches had modules of their own
from tajmahal.bots._ismcts_search import (
    FLAT_SHARE as FLAT_SHARE, GRACE as GRACE, GRACE_SHARE as GRACE_SHARE,
    STALL_FACTOR as STALL_FACTOR, STALL_SECONDS as STALL_SECONDS,
)
from tajmahal.bots.search_options import (
    DEFAULT_C as DEFAULT_C, DEFAULT_ITERATIONS as DEFAULT_ITERATIONS,
    DEFAULT_MARGIN as DEFAULT_MARGIN, FLAT as FLAT, INNER_COST as INNER_COST,
    INNER_SEATS as INNER_SEATS, LEVEL4_ITERATIONS as LEVEL4_ITERATIONS,
    LEVEL5_ITERATIONS as LEVEL5_ITERATIONS, LEVEL_INNER as LEVEL_INNER, MAX_DEPTH as MAX_DEPTH,
    MAX_EXTEND as MAX_EXTEND, MAX_FOCUS as MAX_FOCUS, MAX_INNER as MAX_INNER,
    MAX_ITERATIONS as MAX_ITERATIONS, MAX_JOBS as MAX_JOBS, MAX_TIME_LIMIT as MAX_TIME_LIMIT,
    MAX_TREES as MAX_TREES, ROLLOUTS as ROLLOUTS,
)  # fmt: skip
# isort: on

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
    "SearchOptions",
    "decision_time",
    "decision_work",
]

#: the share of searched decisions that are play-or-withdraw decisions (greedy games, 3-5 seats:
#: 548 of 1253; the others: 425 supply cards, 221 palaces, 59 crown palaces)
PLAY_SHARE = 0.44
DECISIONS_PER_VISIT = 4.5  #: decisions with a choice per seat and visit (greedy games, 3-5 seats)
CLOCK_SHARE = 0.9  #: the share of the game clock the bot plans to use (the rest: the referee's)
#: the numbers of seats at which the evaluation reads the prize contests (the shipped weights);
#: at the others it keeps ``ismcts-v2``'s weights: at 5 seats the contest weights measured
#: weaker (3 deals, 60 games against four greedy: 36.3 points a game against v2's 45.1); there
#: a level's (or the default) budget is v2's too (400 by default): ``ismcts-v2``'s play
CONTEST_SEATS = frozenset({3, 4})

logger = logging.getLogger("tajmahal.bots")


class IsmctsBot(SearchProcesses):
    """Information-set MCTS over sampled deals; strong, and slower than greedy.

    Options: keyword arguments, ``options=SearchOptions(...)`` (not both), or a player
    spec's (``ismcts:iterations=400,c=0.7``), the same options checked by the same rules:
    the budget (``level`` 1 to 5, or ``iterations``, ``time_limit``, ``game_time``), the
    search processes (``jobs``), the model (``flat``, ``inner``, ``inner_seats``,
    ``rollout``, ``c``) and the tuning knobs that measured no stronger (``focus``,
    ``extend``, ``margin``, ``trees``, ``depth``: a spec naming one warns);
    :class:`~tajmahal.bots.search_options.SearchOptions` says what each does.
    :attr:`options` holds them as given, the attributes of the same names as the bot
    searches with them (a level's budget and options, the class's defaults).

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
    #: the options a player spec may name but that warn: measured no stronger (see
    #: :data:`~tajmahal.bots.search_options.DEPRECATED_SPEC_OPTIONS`)
    deprecated_spec_options: ClassVar[Mapping[str, str]] = DEPRECATED_SPEC_OPTIONS
    python_only_options: ClassVar[frozenset[str]] = frozenset({"options"})  #: not in a spec

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
        options: SearchOptions | None = None,
    ) -> None:
        keywords = SearchOptions(
            level=level, iterations=iterations, time_limit=time_limit, game_time=game_time, c=c,
            jobs=jobs, trees=trees, depth=depth, inner=inner, inner_seats=inner_seats,
            flat=flat, focus=focus, extend=extend, margin=margin, rollout=rollout,
        )  # fmt: skip
        if options is None:
            options = keywords
        elif not isinstance(options, SearchOptions):
            raise TypeError(f"options must be a SearchOptions, got {type(options).__name__}")
        elif keywords != SearchOptions():
            raise TypeError(
                "give the options as options=SearchOptions(...) or as keywords, not both "
                f"(keywords given: {', '.join(keywords.given())})"
            )
        #: the options as given (None: the bot's default); the attributes below resolve them
        self.options = options
        self.seed = seed
        self._settle(options)
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

    def _settle(self, options: SearchOptions) -> None:
        """Set the bot's attributes from ``options``: a level's budget and options, the class's
        defaults for the options not given."""
        level, iterations = options.level, options.iterations
        inner, inner_seats = options.inner, options.inner_seats
        if level is not None:
            iterations = self.levels[level]
            preset = self.level_options.get(level, {})
            inner = preset.get("inner", 0) if inner is None else inner
            inner_seats = preset.get("inner_seats", "own") if inner_seats is None else inner_seats
        self.level = level
        timed = options.time_limit is not None or options.game_time is not None
        #: the budget comes from a level (or the default), so it follows the evaluation's cost
        self._level_budget = iterations is None or level is not None
        default = self.levels[3]  # level 3 is the default budget
        self.iterations = iterations if iterations is not None or timed else default
        self.time_limit = None if options.time_limit is None else float(options.time_limit)
        self.game_time = None if options.game_time is None else float(options.game_time)
        self.c = float(options.c)
        self.rollout = options.rollout
        self.jobs = options.jobs
        self.extend = float(options.extend)
        self.margin = float(options.margin)
        self.focus = float(self.default_focus if options.focus is None else options.focus)
        self.trees = options.trees
        self.flat = self.default_flat if options.flat is None else options.flat
        self.depth = options.depth
        self.inner = 0 if inner is None else inner
        self.inner_seats = "own" if inner_seats is None else inner_seats
        self._pick: Picker | None
        if callable(options.rollout):
            self._pick = options.rollout
        else:
            self._pick = heuristic_pick if options.rollout == "heuristic" else None

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
        decision = SearchShares(self, view, allowed)
        decision.run(iterations, deadline)
        if self.extend > 1 and close_call(decision.statistics(), self.margin):
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
    ) -> TreeSearch | FlatSearch:
        """One decision's search (what a search worker grows): flat for the decisions ``flat``
        names, else a tree."""
        if self.flat == "all" or (self.flat == "play" and view.phase is Phase.PLAY):
            return FlatSearch(self, view, allowed, rng)
        return TreeSearch(self, view, allowed, rng)

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
