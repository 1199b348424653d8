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

**Levels for people**: ``ismcts:level=1`` to ``level=5`` are iteration
budgets (``LEVELS``), each four times the one below; level 3 is the default
budget.  Iteration budgets keep a game reproducible from its seed.

**ismcts-v1** (``IsmctsV1Bot``) is the first release's bot, kept for
head-to-head benchmarks: the same search with the first release's
evaluation, frozen in :mod:`tajmahal.bots.evaluation_v1` (a test pins its
choices on a fixed seed).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from tajmahal.bots._evaluation_core import heuristic_pick
from tajmahal.bots._search import Node, iterate
from tajmahal.bots.evaluation import evaluate
from tajmahal.bots.evaluation_v1 import evaluate_v1
from tajmahal.rules.moves import Move
from tajmahal.rules.playout import Picker, Playout, code_of
from tajmahal.rules.views import PlayerView

__all__ = ["LEVELS", "IsmctsBot", "IsmctsV1Bot", "MoveStatistics"]

ROLLOUTS = ("heuristic", "random")
MAX_ITERATIONS = 10_000_000
MAX_TIME_LIMIT = 3600.0
DEFAULT_ITERATIONS = 400
#: ``level`` -> iterations per decision (level 3 is the default budget)
LEVELS: dict[int, int] = {1: 25, 2: 100, 3: 400, 4: 1600, 5: 6400}


class MoveStatistics(NamedTuple):
    """One root move of the last search: how often it was searched and its mean reward.

    ``value`` is the mean of the deciding seat's rewards after the move (0..1,
    a smooth chance of beating the best rival: see :mod:`tajmahal.bots.evaluation`).
    """

    move: Move
    visits: int
    value: float


class IsmctsBot:
    """Information-set MCTS over sampled deals; strong, and slower than greedy.

    Options (keyword arguments, or ``ismcts:iterations=400,c=0.7`` as a player spec):

    - ``level``: 1 (weakest, fastest) to 5, an iteration budget from ``LEVELS``
      (not with ``iterations`` or ``time_limit``);
    - ``iterations``: searches per decision (default 400 when ``time_limit`` is not given);
    - ``time_limit``: seconds per decision instead (or as well: whichever ends first);
    - ``c``: the UCT exploration constant (default 0.7; rewards lie in 0..1);
    - ``rollout``: ``"heuristic"`` (default) or ``"random"``, the policy that plays
      each simulation on to the end of the visit; from Python also any move picker
      ``pick(playout, codes, rng) -> code`` (see :class:`~tajmahal.rules.playout.Playout`).

    With the same seed and an iteration budget it makes the same choices.
    Decisions with one legal move are answered at once, without search.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> bot = IsmctsBot(seed=1, iterations=50)
    >>> move = bot.choose(state.view(0), state.legal_moves())
    >>> move in state.legal_moves(), bot.last_iterations
    (True, 50)
    >>> IsmctsBot(iterations=0)
    Traceback (most recent call last):
    ...
    ValueError: iterations must be an int from 1 to 10000000, got 0
    >>> IsmctsBot(level=5).iterations
    6400
    """

    name: ClassVar[str] = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float = 0.7,
        rollout: str | Picker = "heuristic",
        level: int | None = None,
    ) -> None:
        if level is not None:
            if isinstance(level, bool) or level not in LEVELS:
                raise ValueError(f"level must be an int from 1 to {len(LEVELS)}, got {level!r}")
            if iterations is not None or time_limit is not None:
                raise ValueError("level sets the budget: give level, or iterations/time_limit")
            iterations = LEVELS[level]
        if iterations is not None and (
            isinstance(iterations, bool)
            or not isinstance(iterations, int)
            or not 1 <= iterations <= MAX_ITERATIONS
        ):
            raise ValueError(
                f"iterations must be an int from 1 to {MAX_ITERATIONS}, got {iterations!r}"
            )
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, int | float)
            or not 0 < time_limit <= MAX_TIME_LIMIT
        ):
            raise ValueError(
                f"time_limit must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}, "
                f"got {time_limit!r}"
            )
        if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= c <= 100:
            raise ValueError(f"c must be a number from 0 to 100, got {c!r}")
        if not callable(rollout) and rollout not in ROLLOUTS:
            raise ValueError(
                f"rollout must be one of {', '.join(ROLLOUTS)} (or, from Python, a move "
                f"picker), got {rollout!r}"
            )
        self.seed = seed
        self.level = level
        self.iterations = iterations if iterations is not None or time_limit else DEFAULT_ITERATIONS
        self.time_limit = None if time_limit is None else float(time_limit)
        self.c = float(c)
        self.rollout = rollout
        self._pick: Picker | None
        if callable(rollout):
            self._pick = rollout
        else:
            self._pick = heuristic_pick if rollout == "heuristic" else None
        self._rng = random.Random(seed)
        self.last_iterations = 0  #: searches run for the last decision (0: answered at once)
        #: the root moves of the last search, most visited first (empty: answered at once)
        self.last_statistics: tuple[MoveStatistics, ...] = ()
        #: search only the moves offered to :meth:`choose` at the root (by default every
        #: legal move is searched and the answer is picked among the offered ones); game
        #: analysis sets it to compare two moves with the whole budget
        self.search_offered_only = False
        self._root_codes: frozenset[int] | None = None

    def choose(self, view: PlayerView, legal_moves: Sequence[Move]) -> Move:
        """The root move searched most often within the budget.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> first = IsmctsBot(seed=3, iterations=30).choose(state.view(0), state.legal_moves())
        >>> again = IsmctsBot(seed=3, iterations=30).choose(state.view(0), state.legal_moves())
        >>> first == again
        True
        """
        self.last_statistics = ()
        if len(legal_moves) == 1:
            self.last_iterations = 0
            return legal_moves[0]
        rng = self._rng
        root = Node(view.seat)
        by_code = {code_of(view.components, move): move for move in legal_moves}
        self._root_codes = frozenset(by_code) if self.search_offered_only else None
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        budget = self.iterations
        c, allowed, pick, reward = self.c, self._root_codes, self._pick, self.reward
        done = 0
        while budget is None or done < budget:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            iterate(root, Playout(view.sample(rng)), rng, c, allowed, pick, reward)
            done += 1
        self.last_iterations = done
        searched = [(code, node) for code, node in root.children.items() if code in by_code]
        if not searched:  # only when legal_moves are not the view's own legal moves
            return legal_moves[0]

        def trust(item: tuple[int, Node]) -> tuple[int, float]:
            return item[1].visits, item[1].total / item[1].visits

        best = max(searched, key=trust)
        ranked = sorted(searched, key=trust, reverse=True)  # stable: ties keep the tried order
        ranked.remove(best)
        self.last_statistics = tuple(
            MoveStatistics(by_code[code], node.visits, node.total / node.visits)
            for code, node in [best, *ranked]
        )
        return by_code[best[0]]

    def reward(self, game: Playout) -> list[float]:
        """The reward of a position, one per seat (see :mod:`tajmahal.bots.evaluation`).

        >>> import tajmahal as tm
        >>> from tajmahal.rules.playout import Playout
        >>> rewards = IsmctsBot(seed=1).reward(Playout(tm.new_game(num_players=3, seed=1)))
        >>> len(rewards), all(0 < r < 1 for r in rewards)
        (3, True)
        """
        return evaluate(game)


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

    def reward(self, game: Playout) -> list[float]:
        """The first release's reward: the margin's logistic at a fixed scale.

        >>> import tajmahal as tm
        >>> from tajmahal.rules.playout import Playout
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> IsmctsV1Bot(seed=1).reward(game) == evaluate_v1(game)
        True
        """
        return evaluate_v1(game)
