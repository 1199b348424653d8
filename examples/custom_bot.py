"""A custom bot, written in a few lines, against the built-in ``greedy`` bot.

Shows: the bot protocol (a ``name``, a constructor taking ``seed``, and
``choose(view, legal_moves)``), reading a seat's ``PlayerView`` to decide,
and ``tm.play_match`` with bot instances and bot names, seat rotation and a
summary of the results.  No plugin is needed to play your own bot: pass an
instance.  To publish it, see ``examples/plugin/`` and the docs' tutorial 2.

Run it with ``python examples/custom_bot.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

import tajmahal as tm

MATCHES = 6


class Elephant:
    """Plays for the province tile: elephants first, withdraws once it has the most."""

    name: ClassVar[str] = "elephant"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)  # every random choice comes from the seed

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        if view.phase is not tm.Phase.PLAY:  # palaces and supply cards
            return self.rng.choice(list(legal_moves))
        mine = elephants(view.table[view.seat])
        others = max(elephants(cards) for seat, cards in enumerate(view.table) if seat != view.seat)
        if view.court_province_tile is None or (mine > others and mine > 0):
            return tm.Withdraw()  # the tile is gone, or we lead: cash in
        plays = [m for m in legal_moves if isinstance(m, tm.PlayCards)]
        if not plays:
            return tm.Withdraw()
        return max(plays, key=lambda m: elephants([m.colored] + ([m.extra] if m.extra else [])))


def elephants(cards: Sequence[tm.Card]) -> int:
    """How many elephant symbols the cards show."""
    return sum(card.symbols.count(tm.Symbol.ELEPHANT) for card in cards)


def main() -> None:
    wins: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    print(f"{'seed':>4}  {'seat 0':>16}  {'seat 1':>16}  {'seat 2':>16}  winner")
    for seed in range(MATCHES):
        players: list[str | tm.Bot] = [Elephant(seed=seed), "greedy", "greedy"]
        shift = seed % 3  # every bot sits in every seat
        players = players[shift:] + players[:shift]
        result = tm.play_match(players, seed=seed)
        seats = zip(result.players, result.scores, strict=True)
        cells = [f"{name} {score:3}" for name, score in seats]
        winner = ", ".join(result.players[s] for s in result.winners)
        print(f"{seed:>4}  {cells[0]:>16}  {cells[1]:>16}  {cells[2]:>16}  {winner}")
        wins.update(result.players[s] for s in result.winners)
        for name, score in zip(result.players, result.scores, strict=True):
            totals[name] += score
    print(f"\nelephant: {wins['elephant']} wins of {MATCHES}, average score "
          f"{totals['elephant'] / MATCHES:.1f}")
    print(f"greedy:   {wins['greedy']} wins of {MATCHES}, average score "
          f"{totals['greedy'] / (2 * MATCHES):.1f} (two seats per match)")


if __name__ == "__main__":
    main()
