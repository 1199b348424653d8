"""An example tajmahal plugin: the ``cautious`` bot.

The entry point ``example = "tajmahal_example"`` (group ``"tajmahal"``) in
``pyproject.toml`` points at this module; tajmahal calls its
``tajmahal_bots()`` hook to learn which bots it offers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import ClassVar

import tajmahal as tm

__all__ = ["CautiousBot", "tajmahal_bots"]


class CautiousBot:
    """Withdraws as soon as it holds any majority; otherwise plays its richest card.

    >>> bot = CautiousBot(seed=1)
    >>> bot.name
    'cautious'
    """

    name: ClassVar[str] = "cautious"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)  # all randomness from the seed: matches replay exactly

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        """One of ``legal_moves``: withdraw when leading on any symbol, else play on."""
        plays = [m for m in legal_moves if isinstance(m, tm.PlayCards)]
        if view.phase is not tm.Phase.PLAY:
            return self.rng.choice(list(legal_moves))  # palaces and supply cards: any will do
        if not plays or self._leads(view):
            return tm.Withdraw()
        return max(plays, key=lambda m: len(m.colored.symbols) + (m.extra is not None))

    @staticmethod
    def _leads(view: tm.PlayerView) -> bool:
        """True when this seat has strictly more of some symbol than every other seat."""

        def counts(cards: Sequence[tm.Card]) -> dict[tm.Symbol, int]:
            found: dict[tm.Symbol, int] = {}
            for card in cards:
                for symbol in card.symbols:
                    found[symbol] = found.get(symbol, 0) + 1
            return found

        mine = counts(view.table[view.seat])
        others = [counts(cards) for seat, cards in enumerate(view.table) if seat != view.seat]
        return any(n > max((o.get(s, 0) for o in others), default=0) for s, n in mine.items())


@tm.hookimpl
def tajmahal_bots() -> Iterable[type[tm.Bot]]:
    """The bots of this plugin."""
    return [CautiousBot]
