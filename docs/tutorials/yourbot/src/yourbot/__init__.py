"""yourbot: a tajmahal bot that plays for the prizes it can still win."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import ClassVar

import tajmahal as tm

Moves = Sequence[tm.Move]
PalaceMove = tm.PlacePalace | tm.PlaceCrownPalace


class YourBot:
    """Plays for the prizes still in the court; withdraws once it leads for one."""

    name: ClassVar[str] = "yourbot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)  # all randomness comes from the seed

    def choose(self, view: tm.PlayerView, legal_moves: Moves) -> tm.Move:
        """Pick one of ``legal_moves`` for the seat whose view this is."""
        if view.phase is tm.Phase.PLAY:
            return self.play_or_withdraw(view, legal_moves)
        if view.phase is tm.Phase.TAKE:
            return self.take_card(view, legal_moves)
        return self.place_palace(view, legal_moves)

    def play_or_withdraw(self, view: tm.PlayerView, moves: Moves) -> tm.Move:
        wanted = prizes_left(view)
        mine = symbols(view.table[view.seat])
        best_other: Counter[tm.Symbol] = Counter()
        for seat, cards in enumerate(view.table):
            if seat != view.seat:
                best_other |= symbols(cards)  # | keeps the larger count of each symbol
        if any(mine[s] > best_other[s] for s in wanted):
            return tm.Withdraw()  # we lead for a prize: take it now
        plays = [m for m in moves if isinstance(m, tm.PlayCards)]
        if not plays:
            return tm.Withdraw()
        # the play that brings the most symbols of prizes still to be won
        return max(plays, key=lambda m: sum(symbols(cards_of(m))[s] for s in wanted))

    def place_palace(self, view: tm.PlayerView, moves: Moves) -> tm.Move:
        board = view.components.board
        palaces = [m for m in moves if isinstance(m, PalaceMove)]

        def value(move: PalaceMove) -> int:
            # a bonus tile (normal palaces only), plus our palaces next door
            tile = isinstance(move, tm.PlacePalace) and move.city in view.bonus_tiles
            ours = sum(view.seat in view.palaces[c] for c in board.neighbours(move.city))
            return 2 * tile + ours

        best = max(value(m) for m in palaces)
        return self.rng.choice([m for m in palaces if value(m) == best])

    def take_card(self, view: tm.PlayerView, moves: Moves) -> tm.Move:
        suits = Counter(card.color for card in view.hand)
        takes = [m for m in moves if isinstance(m, tm.TakeCard)]

        def value(move: tm.TakeCard) -> int:
            # white cards first, then the suit we hold most of
            color = move.card.color
            return 10 if color is tm.Color.WHITE else suits[color]

        return max(takes, key=value)


def cards_of(move: tm.PlayCards) -> list[tm.Card]:
    """The one or two cards a play puts on the table."""
    return [move.colored] if move.extra is None else [move.colored, move.extra]


def symbols(cards: Iterable[tm.Card]) -> Counter[tm.Symbol]:
    """How many of each symbol the cards show."""
    return Counter(symbol for card in cards for symbol in card.symbols)


def prizes_left(view: tm.PlayerView) -> set[tm.Symbol]:
    """The symbols whose prize is still in the court this visit."""
    left = set(view.court_influence)
    if view.court_crown:
        left.add(tm.Symbol.GRAND_MOGUL)
    if view.court_province_tile is not None:
        left.add(tm.Symbol.ELEPHANT)
    return left


@tm.hookimpl
def tajmahal_bots() -> list[type[tm.Bot]]:
    """The bots this package adds to tajmahal."""
    return [YourBot]
