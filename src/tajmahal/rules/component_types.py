"""The game's physical components (docs/rules.md §1) as data: cards, tiles, the board.

Everything here is static data: frozen values, built by the loader
(:mod:`tajmahal.rules.loading`, which reads and validates components files)
and looked up by the engine.  :mod:`tajmahal.rules.components` offers both.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable

import attrs

from tajmahal.rules.errors import quoted
from tajmahal.rules.roads import reachable

__all__ = [
    "COLORED",
    "INFLUENCE",
    "Board",
    "BonusKind",
    "BonusTile",
    "Card",
    "City",
    "Color",
    "Commodity",
    "Components",
    "Province",
    "ProvinceTile",
    "Special",
    "Symbol",
]



class Symbol(enum.Enum):
    """A symbol printed on a card (C1).

    >>> Card.parse('green:monk+princess').symbols
    (<Symbol.MONK: 'monk'>, <Symbol.PRINCESS: 'princess'>)
    >>> Symbol.ELEPHANT in INFLUENCE
    False
    """

    VIZIER = "vizier"
    GENERAL = "general"
    MONK = "monk"
    PRINCESS = "princess"
    GRAND_MOGUL = "grand_mogul"
    ELEPHANT = "elephant"


#: The four influence symbols, in the order the library lists them.
INFLUENCE: tuple[Symbol, ...] = (Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS)


class Color(enum.Enum):
    """A card's suit (C2); special cards have the pseudo-suit ``SPECIAL``.

    >>> Card.parse('white:monk').color, Card.parse('special:points').color
    (<Color.WHITE: 'white'>, <Color.SPECIAL: 'special'>)
    >>> [color.value for color in COLORED]
    ['red', 'yellow', 'green', 'violet']
    """

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    VIOLET = "violet"
    WHITE = "white"
    SPECIAL = "special"


#: The four colored suits.
COLORED: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.VIOLET)


class Commodity(enum.Enum):
    """A commodity shown on province tiles and commodity bonus tiles (C9, C10).

    >>> from tajmahal.rules.components import standard_components
    >>> standard_components().province_tiles[1].commodities
    (<Commodity.TEA: 'tea'>, <Commodity.JEWELS: 'jewels'>)
    """

    RICE = "rice"
    TEA = "tea"
    SPICES = "spices"
    JEWELS = "jewels"


class Special(enum.Enum):
    """The four special cards (C6).

    >>> from tajmahal.rules.components import standard_components
    >>> Card.parse('special:color_change').special
    <Special.COLOR_CHANGE: 'color_change'>
    >>> dict(standard_components().special_earned_by)[Symbol.GENERAL]  # E2
    <Special.ELEPHANT: 'elephant'>
    """

    ELEPHANT = "elephant"
    GRAND_MOGUL = "grand_mogul"
    POINTS = "points"
    COLOR_CHANGE = "color_change"


class BonusKind(enum.Enum):
    """The kind of a bonus tile on a fortress (C10).

    >>> from tajmahal.rules.components import standard_components
    >>> from collections import Counter
    >>> Counter(tile.kind.value for tile in standard_components().bonus_tiles)
    Counter({'commodity': 8, 'points': 4, 'card': 3, 'taj_mahal': 1})
    """

    TAJ_MAHAL = "taj_mahal"
    POINTS = "points"
    CARD = "card"
    COMMODITY = "commodity"


_COLOR_ORDER = {c: i for i, c in enumerate(Color)}
_SYMBOL_ORDER = {s: i for i, s in enumerate(Symbol)}


@attrs.frozen(cache_hash=True, repr=False)
class Card:
    """A card as a value: its color and symbols (two identical cards are equal).

    >>> card = Card(Color.RED, (Symbol.ELEPHANT, Symbol.VIZIER))
    >>> str(card)
    'red:elephant+vizier'
    >>> Card.parse('white:elephant') == Card(Color.WHITE, (Symbol.ELEPHANT,))
    True
    """

    color: Color
    symbols: tuple[Symbol, ...]
    special: Special | None = None

    def __str__(self) -> str:
        if self.special is not None:
            return f"special:{self.special.value}"
        return f"{self.color.value}:{'+'.join(s.value for s in self.symbols)}"

    def __repr__(self) -> str:
        """The card's text form, in a repr that says it is a card.

        >>> Card(Color.RED, (Symbol.ELEPHANT, Symbol.VIZIER))
        <Card red:elephant+vizier>
        """
        return f"<Card {self}>"

    @property
    def sort_key(self) -> tuple[int, ...]:
        """The order the library lists cards in: by color, then symbols.

        >>> cards = [Card.parse(text) for text in ('white:monk', 'red:monk', 'red:vizier')]
        >>> [str(card) for card in sorted(cards, key=lambda card: card.sort_key)]
        ['red:vizier', 'red:monk', 'white:monk']
        """
        special = list(Special).index(self.special) if self.special is not None else -1
        return (_COLOR_ORDER[self.color], special, *(_SYMBOL_ORDER[s] for s in self.symbols))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its text form (``str(card)``); raises ``ValueError``.

        >>> Card.parse('red:vizier+monk') == Card(Color.RED, (Symbol.VIZIER, Symbol.MONK))
        True
        >>> card = Card.parse('special:elephant')
        >>> card.special, card.symbols
        (<Special.ELEPHANT: 'elephant'>, (<Symbol.ELEPHANT: 'elephant'>,))
        >>> Card.parse('blue:monk')
        Traceback (most recent call last):
        ...
        ValueError: 'blue:monk' is not a card: unknown color, symbol or special
        """
        color_text, sep, rest = text.strip().partition(":")
        if not sep or not rest:
            raise ValueError(f"{quoted(text)} is not a card: expected 'color:symbol[+symbol]'")
        try:
            color = Color(color_text)
            if color is Color.SPECIAL:
                special = Special(rest)
                return cls(color, _SPECIAL_SYMBOLS[special], special)
            return cls(color, tuple(Symbol(s) for s in rest.split("+")))
        except ValueError:
            problem = "unknown color, symbol or special"
            raise ValueError(f"{quoted(text)} is not a card: {problem}") from None


_SPECIAL_SYMBOLS: dict[Special, tuple[Symbol, ...]] = {
    Special.ELEPHANT: (Symbol.ELEPHANT,),
    Special.GRAND_MOGUL: (Symbol.GRAND_MOGUL,),
    Special.POINTS: (),
    Special.COLOR_CHANGE: (),
}


@attrs.frozen(cache_hash=True)
class ProvinceTile:
    """A numbered province tile with its commodities (C9).

    >>> from tajmahal.rules.components import standard_components
    >>> tile = standard_components().province_tiles[1]
    >>> tile.number, [commodity.value for commodity in tile.commodities]
    (2, ['tea', 'jewels'])
    """

    number: int
    commodities: tuple[Commodity, ...]


@attrs.frozen(cache_hash=True)
class BonusTile:
    """A bonus tile (C10): ``points`` is its value for TAJ_MAHAL and POINTS tiles.

    ``str(tile)`` is how boards and views print it.

    >>> from tajmahal.rules.components import standard_components
    >>> taj = standard_components().bonus_tiles[0]
    >>> taj.kind, taj.points, str(taj)
    (<BonusKind.TAJ_MAHAL: 'taj_mahal'>, 4, '+4')
    >>> str(BonusTile(BonusKind.COMMODITY, Commodity.TEA)), str(BonusTile(BonusKind.CARD))
    ('tea', '+1 card')
    """

    kind: BonusKind
    commodity: Commodity | None = None
    points: int = 0

    def __str__(self) -> str:
        if self.kind is BonusKind.COMMODITY and self.commodity is not None:
            return self.commodity.value
        if self.kind is BonusKind.CARD:
            return "+1 card"
        return f"+{self.points}"


@attrs.frozen(cache_hash=True)
class City:
    """A city on the board; ``x``/``y`` place it in drawings.

    >>> from tajmahal.rules.components import standard_components
    >>> agra = standard_components().board.city('agra')
    >>> agra.name, agra.province, agra.fortress
    ('Agra', 'agra', True)
    """

    id: str
    name: str
    province: str
    fortress: bool
    x: float
    y: float


@attrs.frozen(cache_hash=True)
class Province:
    """A province and its cities.

    >>> from tajmahal.rules.components import standard_components
    >>> kabul = standard_components().board.province('kabul')
    >>> kabul.name, [city.id for city in kabul.cities]
    ('Kabul', ['kabul', 'ghazni', 'jalalabad', 'peshawar'])
    """

    id: str
    name: str
    cities: tuple[City, ...]


@attrs.frozen(cache_hash=True, repr=False)
class Board:
    """Provinces, cities and roads (C11).

    ``final_province`` takes the highest province tile (S2) and
    ``taj_mahal_city`` holds the Taj Mahal tile (S3).

    >>> from tajmahal.rules.components import standard_components
    >>> board = standard_components().board
    >>> len(board.provinces), len(board.cities), board.final_province, board.taj_mahal_city
    (12, 49, 'agra', 'agra')
    >>> len(board.roads), board.roads[0]
    (83, ('jalalabad', 'peshawar'))
    """

    provinces: tuple[Province, ...]
    cities: tuple[City, ...]
    roads: tuple[tuple[str, str], ...]
    final_province: str
    taj_mahal_city: str

    def __repr__(self) -> str:
        """A summary: what the board holds, not every city (``repr`` stays short).

        >>> from tajmahal.rules.components import standard_components
        >>> standard_components().board
        <Board 12 provinces, 49 cities, 83 roads, final province agra, Taj Mahal in agra>
        """
        return (
            f"<Board {len(self.provinces)} provinces, {len(self.cities)} cities, "
            f"{len(self.roads)} roads, final province {self.final_province}, "
            f"Taj Mahal in {self.taj_mahal_city}>"
        )

    def city(self, city_id: str) -> City:
        """The city with this id (``KeyError`` if none).

        >>> from tajmahal.rules.components import standard_components
        >>> board = standard_components().board
        >>> board.city('peshawar').province
        'kabul'
        >>> board.city('atlantis')
        Traceback (most recent call last):
        ...
        KeyError: 'atlantis'
        """
        return _board_index(self)[0][city_id]

    def province(self, province_id: str) -> Province:
        """The province with this id (``KeyError`` if none).

        >>> from tajmahal.rules.components import standard_components
        >>> standard_components().board.province('agra').name
        'Agra'
        """
        return _board_index(self)[1][province_id]

    def neighbours(self, city_id: str) -> tuple[str, ...]:
        """Ids of the cities one road away, in file order.

        >>> from tajmahal.rules.components import standard_components
        >>> board = standard_components().board
        >>> board.neighbours('agra')
        ('mathura', 'kannauj', 'fatehpur_sikri', 'delhi')
        >>> all('agra' in board.neighbours(city) for city in board.neighbours('agra'))
        True
        """
        return _board_index(self)[2][city_id]

    def reachable(self, start: str, through: Callable[[str], bool]) -> frozenset[str]:
        """Ids of the cities reached from ``start`` by road, entering only those ``through`` allows.

        ``start`` is included.  With ``through`` "holds my palace", these are
        the cities a palace in ``start`` connects (K7).

        >>> from tajmahal.rules.components import standard_components
        >>> board = standard_components().board
        >>> sorted(board.reachable('agra', through=lambda city: city in {'delhi', 'kabul'}))
        ['agra', 'delhi']
        """
        return frozenset(reachable([start], _board_index(self)[2].__getitem__, through))

    @property
    def fortresses(self) -> tuple[City, ...]:
        """The fortress cities, in file order.

        >>> from tajmahal.rules.components import standard_components
        >>> fortresses = standard_components().board.fortresses
        >>> len(fortresses), fortresses[0].id, all(city.fortress for city in fortresses)
        (16, 'kabul', True)
        """
        return tuple(c for c in self.cities if c.fortress)


@functools.lru_cache(maxsize=32)  # bounded: loaded documents may carry many boards
def _board_index(
    board: Board,
) -> tuple[dict[str, City], dict[str, Province], dict[str, tuple[str, ...]]]:
    cities = {c.id: c for c in board.cities}
    provinces = {p.id: p for p in board.provinces}
    adjacent: dict[str, list[str]] = {c.id: [] for c in board.cities}
    for a, b in board.roads:
        adjacent[a].append(b)
        adjacent[b].append(a)
    return cities, provinces, {k: tuple(v) for k, v in adjacent.items()}


@attrs.frozen(cache_hash=True, repr=False)
class Components:
    """A complete set of components: the deck, special cards, tiles and board.

    >>> from tajmahal.rules.components import standard_components
    >>> comps = standard_components()
    >>> len(comps.deck), len(comps.board.cities), len(comps.bonus_tiles)
    (96, 49, 16)
    """

    name: str
    deck: tuple[Card, ...]
    special_cards: tuple[Card, ...]
    #: (influence symbol, special card) pairs: two tiles of the symbol earn the card (E2).
    special_earned_by: tuple[tuple[Symbol, Special], ...]
    influence_tiles_per_symbol: int
    province_tiles: tuple[ProvinceTile, ...]
    bonus_tiles: tuple[BonusTile, ...]
    board: Board

    def __repr__(self) -> str:
        """A summary: what the set holds (``repr`` stays short).

        >>> from tajmahal.rules.components import standard_components
        >>> standard_components()  # doctest: +ELLIPSIS
        <Components 'standard': 96 cards, 4 special cards, 12 province tiles, 16 bonus tiles, ...>
        """
        return (
            f"<Components {self.name!r}: {len(self.deck)} cards, {len(self.special_cards)} special "
            f"cards, {len(self.province_tiles)} province tiles, {len(self.bonus_tiles)} bonus "
            f"tiles, {self.board!r}>"
        )

    @property
    def card_kinds(self) -> tuple[Card, ...]:
        """Every distinct card (deck and special cards), in the library's card order.

        >>> from tajmahal.rules.components import standard_components
        >>> kinds = standard_components().card_kinds
        >>> len(kinds), str(kinds[0]), str(kinds[-1])
        (50, 'red:vizier+general', 'special:color_change')
        >>> list(kinds) == sorted(kinds, key=lambda card: card.sort_key)
        True
        """
        return _card_kinds(self)

    def special_card(self, special: Special) -> Card:
        """The special card of this kind.

        >>> from tajmahal.rules.components import standard_components
        >>> card = standard_components().special_card(Special.GRAND_MOGUL)
        >>> str(card), card.symbols
        ('special:grand_mogul', (<Symbol.GRAND_MOGUL: 'grand_mogul'>,))
        """
        return next(c for c in self.special_cards if c.special is special)


@functools.lru_cache(maxsize=32)  # bounded, as _board_index
def _card_kinds(comps: Components) -> tuple[Card, ...]:
    return tuple(sorted(set(comps.deck) | set(comps.special_cards), key=lambda c: c.sort_key))
