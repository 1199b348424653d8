"""A stronger outside baseline: flat Monte Carlo narrowed by sequential halving (issue 51).

The successor of ``outside_bots.FlatMcBot``, written against the public API only
(``import tajmahal as tm``) and sharing no code with ``ismcts`` (not its evaluation,
rollout policy, ``view.sample`` or ``Playout``): the deals, the visit simulator, the
strategy's rollout policy and the values are ``outside_bots.py``'s.  What it adds:

- **common random numbers**: every candidate of a play-or-withdraw decision is
  simulated on the same sampled deals with the same rollout seeds, deal by deal,
  so two candidates are compared on the same luck (a paired difference);
- **sequential halving** (Karnin, Koren and Somekh 2013): the decision's budget
  (``samples`` times the candidates) is spent in rounds; each round the candidates
  still in the race are simulated on the next deals (the same ones for all), then
  the worse half drops out, so the close candidates get most of the simulations;
  the last one standing is played;
- the cards a withdrawal brings in are priced as ``FlatMcBot`` prices them
  (``supply`` times a card in hand).

Run at four times the default ``ismcts``'s CPU per decision (docs/performance.md,
"Issue 51, third round")::

    python benchmarks/strength.py ismcts file:benchmarks/outside_halving.py:HalvingMcBot greedy
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import tajmahal as tm

__all__ = ["SAMPLES", "HalvingMcBot"]

#: simulations per candidate on average (the budget is this times the candidates), by the
#: number of seats: about four times the default ``ismcts``'s CPU per decision in games
#: against it (compiled build: 4.6x, 4.4x and 4.1x in docs/performance.md's tables); the
#: candidates, and so the CPU, grow with the hands
SAMPLES = {3: 56, 4: 44, 5: 28}


def _outside_bots() -> ModuleType:
    """``outside_bots.py`` beside this file (a ``file:`` bot is loaded without its folder
    on ``sys.path``)."""
    name = "tajmahal_benchmarks_outside_bots"
    module = sys.modules.get(name)
    if module is None:
        path = Path(__file__).with_name("outside_bots.py")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


_outside = _outside_bots()


class HalvingMcBot(_outside.FlatMcBot):  # type: ignore[misc,name-defined]
    """Flat Monte Carlo on common deals, narrowed by sequential halving (see the docstring).

    Options: ``samples`` (simulations per candidate on average; default ``SAMPLES``
    for the table's number of seats),
    ``first`` (the deals every candidate gets in the first round, at least; default 4),
    ``marginal`` (a card spent or taken is worth what it is worth at the hand's size in the
    simulation, not at the hand's size when deciding; default off),
    ``noise`` (the rollout policy's noise, as ``FlatMcBot``'s), ``supply`` (what a card a
    withdrawal takes from the supply is worth, in cards in hand), ``halving`` (``false``:
    every candidate on every deal, ``FlatMcBot``'s plain search), ``seed``.
    """

    name = "halving-mc"

    def __init__(
        self,
        seed: int = 0,
        samples: int | None = None,
        noise: float = 0.35,
        supply: float = _outside.SUPPLY,
        halving: bool = True,
        first: int = 4,
        marginal: bool = False,
    ) -> None:
        super().__init__(seed=seed, samples=SAMPLES[3] if samples is None else samples,
                         noise=noise, supply=supply)  # fmt: skip
        self.samples_given = samples
        if isinstance(first, bool) or not isinstance(first, int) or not 1 <= first <= 1000:
            raise ValueError(f"first must be an int from 1 to 1000, got {first!r}")
        if isinstance(noise, bool) or not isinstance(noise, int | float) or not 0 <= noise <= 5:
            raise ValueError(f"noise must be a number from 0 to 5, got {noise!r}")
        self.halving = bool(halving)
        self.first = first
        self.marginal = bool(marginal)

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        self.last_iterations = 0
        if len(legal_moves) == 1:
            return legal_moves[0]
        if view.phase is not tm.Phase.PLAY:
            return self.strategy.choose(view, legal_moves)  # type: ignore[no-any-return]
        values = _outside.Values(view)
        candidates = list(legal_moves)
        # the common random numbers: deal k (hands and rollout seed) is the same for all
        deals: list[tuple[list[list[tm.Card]], int]] = []
        totals = [0.0] * len(candidates)
        done = 0  # deals simulated by every candidate still in the race

        def simulate(alive: list[int], upto: int) -> None:
            while len(deals) < upto:
                deals.append((self.deal(view), self.rng.getrandbits(32)))
            for hands, seed in deals[done:upto]:
                for index in alive:
                    sim = _outside._Visit(self, view, values, hands, random.Random(seed))
                    if self.marginal:
                        sim.values = _HandValues(values, sim.hands)
                    sim.first(candidates[index])
                    sim.finish()
                    totals[index] += sim.outcome(view.seat)
                    self.last_iterations += 1

        alive = list(range(len(candidates)))
        samples = self.samples_given or SAMPLES.get(view.num_players, SAMPLES[3])
        budget = samples * len(candidates)
        if not self.halving or len(alive) <= 2:
            simulate(alive, samples)
            return candidates[max(alive, key=lambda i: totals[i])]
        rounds = (len(alive) - 1).bit_length()  # halving down to one candidate
        spent = 0
        for step in range(rounds):
            share = (budget - spent) // ((rounds - step) * len(alive))
            upto = done + max(self.first if step == 0 else 1, share)
            simulate(alive, upto)
            spent += (upto - done) * len(alive)
            done = upto
            alive.sort(key=lambda i: totals[i], reverse=True)  # the same deals: sums compare
            alive = alive[: (len(alive) + 1) // 2]
        return candidates[alive[0]]


class _HandValues:
    """A visit's values with a card's worth read at the simulated hand's size (``marginal``)."""

    __slots__ = ("hands", "left", "prizes")

    def __init__(self, values: object, hands: list[list[object]]) -> None:
        self.prizes = values.prizes  # type: ignore[attr-defined]
        self.left = values.left  # type: ignore[attr-defined]
        self.hands = hands

    def card_cost(self, seat: int) -> float:
        """``Values.card_cost`` at the seat's hand in the simulation."""
        if self.left == 0:
            return 0.5
        hand = len(self.hands[seat])
        return min(1.0, 0.3 + 0.07 * self.left) * (1.0 + 1.5 / max(hand, 1))
