"""Lookup tables the engine's hot path uses, computed once per :class:`Components`.

Cards are handled as *kind* indices (positions in ``components.card_kinds``),
cities and provinces as indices into the board's tuples, symbols as indices
into :class:`Symbol`.  Every move object the engine can offer is built here,
once, so ``legal_moves`` allocates nothing but the tuple it returns.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from tajmahal.rules.components import (
    COLORED,
    INFLUENCE,
    BonusKind,
    BonusTile,
    Card,
    Color,
    Commodity,
    Components,
    Special,
    Symbol,
)
from tajmahal.rules.moves import PlaceCrownPalace, PlacePalace, PlayCards, TakeCard

__all__ = ["SYMBOLS", "Tables", "tables"]

SYMBOLS: tuple[Symbol, ...] = tuple(Symbol)
SPECIALS: tuple[Special, ...] = tuple(Special)
COMMODITIES: tuple[Commodity, ...] = tuple(Commodity)
# Final: the compiled build reads these as constants, not as module attributes
ELEPHANT: Final = SYMBOLS.index(Symbol.ELEPHANT)
GRAND_MOGUL: Final = SYMBOLS.index(Symbol.GRAND_MOGUL)
#: indices of the influence symbols, in INFLUENCE order (0..3 in SYMBOLS too)
INFLUENCE_IDX: Final[tuple[int, ...]] = tuple(SYMBOLS.index(s) for s in INFLUENCE)
NO_EXTRA: Final = -1


class Tables:
    """Precomputed, read-only lookups for one set of components.

    A plain class, not an attrs one: compiled, it is a native class whose fields the
    engine's hot code reads directly (an attrs class's are generic attribute lookups).
    Built only by :func:`tables`, with every field given by keyword.
    """

    kinds: tuple[Card, ...]
    kind_of: dict[Card, int]
    #: id() of each card of ``kinds`` -> its kind: the engine's own move objects hold these very
    #: cards, and a Card's hash is Python code (attrs)
    kind_of_id: dict[int, int]
    color: tuple[Color, ...]
    #: per kind, its suit as an index into COLORED (-1 for white and special cards): hot loops
    #: count suits in lists, not in dictionaries keyed by Color (enum hashing is Python code)
    suit: tuple[int, ...]
    colored: tuple[bool, ...]
    white: tuple[bool, ...]
    special: tuple[bool, ...]
    #: per kind, the count of each symbol (indexed like SYMBOLS)
    symbol_counts: tuple[tuple[int, ...], ...]
    #: Special -> kind index of that special card
    special_kind: dict[Special, int]
    #: influence index (0..3) -> special index (into SPECIALS) it earns (E2)
    earned: tuple[int, ...]
    color_change: int
    points: int
    deck: tuple[int, ...]
    city_ids: tuple[str, ...]
    city_of: dict[str, int]
    city_province: tuple[int, ...]
    fortress: tuple[bool, ...]
    adjacency: tuple[tuple[int, ...], ...]
    province_ids: tuple[str, ...]
    province_of: dict[str, int]
    province_cities: tuple[tuple[int, ...], ...]
    #: (colored kind, extra kind or NO_EXTRA) -> the PlayCards move
    play: dict[tuple[int, int], PlayCards]
    #: the same moves for the hot path: per colored kind, extra kind or NO_EXTRA -> move
    play_with: tuple[dict[int, PlayCards], ...]
    place: tuple[PlacePalace, ...]
    crown: tuple[PlaceCrownPalace, ...]
    take: tuple[TakeCard, ...]
    #: per province tile number - 1, the commodity indices shown
    tile_commodities: tuple[tuple[int, ...], ...]
    #: per bonus tile index, the commodity index or -1
    bonus_commodity: tuple[int, ...]
    #: per Special (enum order), the kind index of that special card, -1 if the components lack it
    special_kinds: tuple[int, ...]
    #: per kind, how many cards of it the deck has
    deck_counts: tuple[int, ...]
    #: bonus tile -> the first index of an equal tile in components.bonus_tiles
    bonus_tile_index: dict[BonusTile, int]
    #: commodity -> index of a commodity bonus tile showing it (views turn tiles back to indices)
    commodity_tile_index: dict[Commodity, int]

    def __init__(self, **fields: Any) -> None:
        for name, value in fields.items():
            setattr(self, name, value)


#: the components asked for last and their tables: the hot path asks for one set again and again
_recent: tuple[Components, Tables] | None = None


def tables(components: Components) -> Tables:
    """The lookup tables of ``components`` (cached: built once per components).

    >>> import tajmahal as tm
    >>> tables(tm.standard_components()) is tables(tm.standard_components())
    True
    """
    global _recent
    recent = _recent
    if recent is not None and recent[0] is components:  # no hashing of the components
        return recent[1]
    found = _tables(components)
    _recent = (components, found)
    return found


@functools.lru_cache(maxsize=32)  # bounded: loaded documents may carry many components
def _tables(components: Components) -> Tables:
    kinds = components.card_kinds
    kind_of = {card: i for i, card in enumerate(kinds)}
    special_kind = {c.special: kind_of[c] for c in components.special_cards if c.special}
    earned_by = dict(components.special_earned_by)
    board = components.board
    city_ids = tuple(c.id for c in board.cities)
    city_of = {cid: i for i, cid in enumerate(city_ids)}
    province_ids = tuple(p.id for p in board.provinces)
    province_of = {pid: i for i, pid in enumerate(province_ids)}
    adjacency: list[list[int]] = [[] for _ in city_ids]
    for a, b in board.roads:
        adjacency[city_of[a]].append(city_of[b])
        adjacency[city_of[b]].append(city_of[a])
    deck_counts = [0] * len(kinds)
    for card in components.deck:
        deck_counts[kind_of[card]] += 1
    first_tile = {tile: i for i, tile in reversed(list(enumerate(components.bonus_tiles)))}
    play: dict[tuple[int, int], PlayCards] = {}
    for i, card in enumerate(kinds):
        if card.color in COLORED:
            play[i, NO_EXTRA] = PlayCards(card)
            for j, extra in enumerate(kinds):
                if extra.color in (Color.WHITE, Color.SPECIAL):
                    play[i, j] = PlayCards(card, extra)
    return Tables(
        kinds=kinds,
        kind_of=kind_of,
        kind_of_id={id(card): i for i, card in enumerate(kinds)},
        color=tuple(c.color for c in kinds),
        suit=tuple(COLORED.index(c.color) if c.color in COLORED else -1 for c in kinds),
        colored=tuple(c.color in COLORED for c in kinds),
        white=tuple(c.color is Color.WHITE for c in kinds),
        special=tuple(c.color is Color.SPECIAL for c in kinds),
        symbol_counts=tuple(tuple(c.symbols.count(s) for s in SYMBOLS) for c in kinds),
        special_kind=special_kind,
        earned=tuple(SPECIALS.index(earned_by[s]) for s in INFLUENCE),
        color_change=special_kind[Special.COLOR_CHANGE],
        points=special_kind[Special.POINTS],
        deck=tuple(sorted(kind_of[c] for c in components.deck)),
        city_ids=city_ids,
        city_of=city_of,
        city_province=tuple(province_of[c.province] for c in board.cities),
        fortress=tuple(c.fortress for c in board.cities),
        adjacency=tuple(tuple(a) for a in adjacency),
        province_ids=province_ids,
        province_of=province_of,
        province_cities=tuple(tuple(city_of[c.id] for c in p.cities) for p in board.provinces),
        play=play,
        play_with=tuple(
            {extra: move for (colored, extra), move in play.items() if colored == i}
            for i in range(len(kinds))
        ),
        place=tuple(PlacePalace(cid) for cid in city_ids),
        crown=tuple(PlaceCrownPalace(cid) for cid in city_ids),
        take=tuple(TakeCard(c) for c in kinds),
        tile_commodities=tuple(
            tuple(COMMODITIES.index(c) for c in t.commodities) for t in components.province_tiles
        ),
        bonus_commodity=tuple(
            COMMODITIES.index(t.commodity)
            if t.kind is BonusKind.COMMODITY and t.commodity is not None
            else -1
            for t in components.bonus_tiles
        ),
        special_kinds=tuple(special_kind[sp] for sp in SPECIALS),  # the loader requires all four
        deck_counts=tuple(deck_counts),
        bonus_tile_index=first_tile,
        commodity_tile_index={
            tile.commodity: i for tile, i in first_tile.items() if tile.commodity is not None
        },
    )
