"""OpenSpiel's Python ISMCTS as a tajmahal bot, for strength runs at equal time (issue 24).

Seat it with a ``file:`` player spec (needs the ``openspiel`` extra)::

    python benchmarks/strength.py ismcts:time_limit=0.5 \\
        file:benchmarks/openspiel_ismcts_bot.py:OpenSpielIsmcts:time_limit=0.5 greedy

At each decision with more than one legal move it deals a state consistent
with the seat's :class:`~tajmahal.PlayerView` (``view.sample``: the bot gets
only the view, never another seat's hand), makes it the root of an OpenSpiel
state of the adapter's game ``python_tajmahal`` (a state that starts at that
point, as the adapter's resampled states do), and runs
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` from it: every simulation
deals the unseen cards again (``resample_from_infostate``), ``uct_c=2.0``,
one random rollout to the end of the game per leaf
(``RandomRolloutEvaluator(1)``), the game's "rank" returns, and the most
visited root action (``MAX_VISIT_COUNT``; ties broken by the bot's seeded
random state).  The action is mapped back to the offered move with the
adapter's action space.

Options (``file:...:OpenSpielIsmcts:time_limit=0.5,simulations=100``):

- ``time_limit``: seconds of search per decision (default 0.5), measured
  with :func:`time.monotonic`, the clock of ``ismcts:time_limit``; the
  search stops at the first simulation that ends past it (after at least
  two: the first only expands the root);
- ``simulations``: a simulation budget (at least 2), whichever ends first
  (for tests);
- ``seed``: the seed of every random choice (deals, rollouts, ties); the
  harness gives it, as it gives every bot.

:attr:`OpenSpielIsmcts.simulations` lists the simulations of each searched
decision (``last_iterations`` the last one's, which ``strength.py``
reports); with ``keep_worlds=true``, :attr:`OpenSpielIsmcts.searched_worlds`
holds the engine state of every world each search dealt at its root (for tests).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import tajmahal as tm
from tajmahal.adapters import openspiel_game
from tajmahal.adapters.actions import action_space


class _TimedSearch(ismcts.ISMCTSBot):  # type: ignore[misc]  # open_spiel has no type hints
    """``ISMCTSBot`` whose search runs until a deadline instead of a simulation count."""

    deadline: float | None = None  #: time.monotonic() at which to stop (None: the count only)
    done = 0  #: simulations of the last search

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        # ISMCTSBot.run_search with its `for _ in range(max_simulations)` loop bounded by
        # the deadline too; at least two simulations (the first only expands the root, and
        # the final policy needs a visited child); the rest as in open_spiel's
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            self.done = 0
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        self.done = 0
        while self.done < self._max_simulations:
            if self.done >= 2 and self.deadline is not None and time.monotonic() >= self.deadline:
                break
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            self.done += 1
        return self.get_final_policy(state, self._root_node)  # type: ignore[no-any-return]


class OpenSpielIsmcts:
    """OpenSpiel's Python ISMCTS searching ``python_tajmahal`` from the seat's view."""

    name: ClassVar[str] = "openspiel-ismcts"

    def __init__(
        self,
        seed: int = 0,
        time_limit: float = 0.5,
        simulations: int | None = None,
        keep_worlds: bool = False,
    ) -> None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
            raise ValueError(f"time_limit must be a number of seconds, got {time_limit!r}")
        if not 0 < time_limit <= 3600:
            raise ValueError(f"time_limit must be above 0 and at most 3600, got {time_limit!r}")
        if simulations is not None and (
            isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 2
        ):
            raise ValueError(f"simulations must be an int of at least 2, got {simulations!r}")
        self.time_limit = float(time_limit)
        self.max_simulations = simulations
        self.keep_worlds = bool(keep_worlds)
        self._rng = random.Random(seed)
        self._random_state = np.random.RandomState(self._rng.getrandbits(32))
        self._searches: dict[int, _TimedSearch] = {}
        self.simulations: list[int] = []  #: simulations of each searched decision
        #: the last decision's simulations (0: answered at once), as ``ismcts`` names it
        self.last_iterations = 0
        #: with keep_worlds: per searched decision, the world each simulation started from
        self.searched_worlds: list[list[tm.GameState]] = []

    def _search(self, players: int) -> _TimedSearch:
        search = self._searches.get(players)
        if search is None:
            game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": players})
            search = _TimedSearch(
                game,
                mcts.RandomRolloutEvaluator(1, self._random_state),
                uct_c=2.0,
                max_simulations=self.max_simulations or 2**62,
                random_state=self._random_state,
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            )
            search.set_resampler(self._resample)
            self._searches[players] = search
        return search

    def _resample(self, state: Any, player: int) -> Any:
        world = state.resample_from_infostate(player, self._random_state.uniform)
        if self.keep_worlds:
            self.searched_worlds[-1].append(world.game_state)
        return world

    def root(self, view: tm.PlayerView) -> Any:
        """An OpenSpiel ``python_tajmahal`` state that starts at ``view``, hidden cards dealt.

        Built, as the adapter builds a resampled state, from a state consistent
        with the view (``view.sample``); it holds nothing the seat has not seen.
        """
        world = view.sample(random.Random(self._rng.getrandbits(64)))
        game = self._search(view.num_players)._game
        state = game.new_initial_state()
        record = openspiel_game._first_decision_node(world)
        state._node = state._base = record
        return state

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        """The most visited root action of a search of ``time_limit`` seconds."""
        started = time.monotonic()
        if len(legal_moves) == 1:
            self.last_iterations = 0
            return legal_moves[0]
        search = self._search(view.num_players)
        search.deadline = started + self.time_limit
        root = self.root(view)
        if self.keep_worlds:
            self.searched_worlds.append([])
        policy = search.run_search(root)
        self.simulations.append(search.done)
        self.last_iterations = search.done
        actions = [a for a, _ in policy]
        chosen = int(self._random_state.choice(actions, p=[p for _, p in policy]))
        for move in legal_moves:
            if action_space().encode(move) == chosen:
                return move
        raise RuntimeError(f"the search chose action {chosen}, not an offered move")
