"""Scoring: majorities (W1–W4), commodities (K4–K5), road connections (K6–K8), game end (G1).

Pure functions of a :class:`GameState` (and a seat); the engine adds the points.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tajmahal.rules.components import COLORED, Components
from tajmahal.rules.roads import reachable
from tajmahal.rules.tables import SYMBOLS, Tables, tables

if TYPE_CHECKING:  # annotations only: the state module imports the engine, which imports this
    from tajmahal.rules.state import GameState

__all__ = [
    "commodity_points",
    "connection_points",
    "final_bonus",
    "owned_commodities",
    "symbol_counts",
    "symbols_won",
]


def symbol_counts(state: GameState, seat: int) -> list[int]:
    """How many of each symbol (SYMBOLS order) ``seat`` has on the table (P7: specials count)."""
    per_kind = tables(state.components).symbol_counts
    counts = [0] * len(SYMBOLS)
    for kind in state.table[seat]:
        for i, n in enumerate(per_kind[kind]):
            counts[i] += n
    return counts


def symbols_won(state: GameState, seat: int) -> tuple[int, ...]:
    """Symbol indices ``seat`` wins on withdrawing now (W1, W2, W4).

    Only players whose cards are still on the table compete (W1): those who
    withdrew earlier have empty tables.  Whether the prize is still there (W3)
    is the engine's concern.
    """
    mine = symbol_counts(state, seat)
    best_other = [0] * len(SYMBOLS)
    for other in range(state.num_players):
        if other != seat and state.table[other]:
            for i, n in enumerate(symbol_counts(state, other)):
                if n > best_other[i]:
                    best_other[i] = n
    return tuple(i for i, n in enumerate(mine) if n >= 1 and n > best_other[i])


def owned_commodities(state: GameState, seat: int) -> list[int]:
    """Per commodity (Commodity order), how many ``seat`` owns on province and bonus tiles."""
    t = tables(state.components)
    owned = [0, 0, 0, 0]
    for number in state.province_tiles[seat]:
        for c in t.tile_commodities[number - 1]:
            owned[c] += 1
    for tile in state.commodity_tiles[seat]:
        owned[t.bonus_commodity[tile]] += 1
    return owned


def commodity_points(owned: list[int], commodities: Iterable[int]) -> int:
    """Points for a newly won tile showing ``commodities`` (K4, K5): 1 + same already owned each."""
    return sum(1 + owned[c] for c in commodities)


def connection_points(state: GameState, seat: int) -> int:
    """K6–K8: 1 for palaces in the current province, +1 per other province connected to them."""
    t = tables(state.components)
    current = state.province_order[state.visit - 1]
    normal, crown = state.normal_palaces, state.crown_palaces
    start = [c for c in t.province_cities[current] if normal[c] == seat or crown[c] == seat]
    if not start:
        return 0
    reached = reachable(
        start, t.adjacency.__getitem__, lambda city: normal[city] == seat or crown[city] == seat
    )
    provinces = {t.city_province[c] for c in reached}
    return 1 + len(provinces - {current})


def final_bonus(components: Components, hand: Iterable[int]) -> int:
    """G1: 1 per special card and per white card in hand, 1 per card of the longest colored suit."""
    return hand_bonus(tables(components), hand)


def hand_bonus(t: Tables, hand: Iterable[int]) -> int:
    """:func:`final_bonus` with the components' tables at hand (the playouts' path)."""
    others = 0
    suits = [0] * len(COLORED)
    suit_of = t.suit
    for kind in hand:
        suit = suit_of[kind]
        if suit < 0:  # a special or white card
            others += 1
        else:
            suits[suit] += 1
    return others + max(suits)
