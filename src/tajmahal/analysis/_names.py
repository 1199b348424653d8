"""Plain names for the library's ids: cities, provinces, symbols, cards, tiles and moves."""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence

from tajmahal.rules.components import BonusKind, BonusTile, Card, Components, ProvinceTile, Symbol
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, TakeCard, Withdraw

__all__ = [
    "and_list",
    "bonus_name",
    "card_name",
    "display_name",
    "move_name",
    "plain_text",
    "prize_name",
    "province_tile_name",
    "symbol_name",
]

_CARD_TEXT = re.compile(r"\b(red|yellow|green|violet|white|special):([a-z_+]+)")
_SMALL = frozenset({"of", "and", "the", "ka", "ki", "ul", "ud"})


def display_name(identifier: str | enum.Enum, components: Components | None = None) -> str:
    """The plain name of an id: a city or province by its name on the board, else in words.

    >>> import tajmahal as tm
    >>> display_name('dera_ismail_khan', tm.standard_components())
    'Dera Ismail Khan'
    >>> display_name('dera_ismail_khan'), display_name(tm.Special.COLOR_CHANGE)
    ('Dera Ismail Khan', 'Color Change')
    >>> display_name(tm.Symbol.GRAND_MOGUL)
    'Grand Mogul'
    """
    text = identifier.value if isinstance(identifier, enum.Enum) else str(identifier)
    if components is not None:
        board = components.board
        for look_up in (board.city, board.province):
            try:
                return look_up(text).name
            except KeyError:
                pass
    words = [w for w in text.replace("-", "_").split("_") if w]
    return " ".join(
        w if i and w in _SMALL else w[:1].upper() + w[1:] for i, w in enumerate(words)
    )


def symbol_name(symbol: Symbol) -> str:
    """A symbol in words, lower case: ``'grand mogul'``.

    >>> import tajmahal as tm
    >>> symbol_name(tm.Symbol.GRAND_MOGUL)
    'grand mogul'
    """
    return symbol.value.replace("_", " ")


def card_name(card: Card) -> str:
    """A card in words: ``'red elephant+vizier'``, ``'white monk'``, ``'color change card'``.

    >>> import tajmahal as tm
    >>> card = tm.Card.parse
    >>> card_name(card('red:elephant+vizier')), card_name(card('special:grand_mogul'))
    ('red elephant+vizier', 'grand mogul card')
    """
    if card.special is not None:
        return f"{card.special.value.replace('_', ' ')} card"
    return f"{card.color.value} {'+'.join(symbol_name(s) for s in card.symbols)}"


def province_tile_name(tile: ProvinceTile) -> str:
    """``'province tile 2 (tea+jewels)'``."""
    return f"province tile {tile.number} ({'+'.join(c.value for c in tile.commodities)})"


def prize_name(symbol: Symbol, province_tile: ProvinceTile | None = None) -> str:
    """What a majority of ``symbol`` wins, in words.

    >>> import tajmahal as tm
    >>> prize_name(tm.Symbol.VIZIER), prize_name(tm.Symbol.GRAND_MOGUL)
    ('the vizier tile', 'the crown')
    """
    if symbol is Symbol.GRAND_MOGUL:
        return "the crown"
    if symbol is Symbol.ELEPHANT:
        return province_tile_name(province_tile) if province_tile else "the province tile"
    return f"the {symbol_name(symbol)} tile"


def bonus_name(tile: BonusTile) -> str:
    """A bonus tile in words: ``'Taj Mahal tile (+4)'``, ``'+2 points'``, ``'tea tile'``..."""
    if tile.kind is BonusKind.TAJ_MAHAL:
        return f"Taj Mahal tile (+{tile.points})"
    if tile.kind is BonusKind.POINTS:
        return f"+{tile.points} points"
    if tile.kind is BonusKind.COMMODITY and tile.commodity is not None:
        return f"{tile.commodity.value} tile"
    return "+1 card tile"


def move_name(move: Move, components: Components | None = None) -> str:
    """A move in words: ``'play red elephant with white monk'``, ``'palace in Dera Ismail Khan'``.

    >>> import tajmahal as tm
    >>> move_name(tm.PlacePalace('dera_ismail_khan'))
    'palace in Dera Ismail Khan'
    >>> move_name(tm.PlayCards(tm.Card.parse('red:monk'), tm.Card.parse('special:color_change')))
    'play red monk with color change card'
    """
    if isinstance(move, PlayCards):
        extra = f" with {card_name(move.extra)}" if move.extra is not None else ""
        return f"play {card_name(move.colored)}{extra}"
    if isinstance(move, Withdraw):
        return "withdraw"
    if isinstance(move, PlacePalace):
        return f"palace in {display_name(move.city, components)}"
    if isinstance(move, PlaceCrownPalace):
        return f"crown palace in {display_name(move.city, components)}"
    assert isinstance(move, TakeCard)
    return f"take {card_name(move.card)}"


def and_list(names: Sequence[str]) -> str:
    """``'a'``, ``'a and b'``, ``'a, b and c'``."""
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def plain_text(text: str) -> str:
    """Card notation inside a sentence made plain: ``red:monk+princess`` is ``red monk+princess``.

    >>> plain_text('seat 1 plays red:monk+grand_mogul with special:color_change')
    'seat 1 plays red monk+grand mogul with color change card'
    """

    def word(match: re.Match[str]) -> str:
        color, rest = match.groups()
        if color == "special":
            return f"{rest.replace('_', ' ')} card"
        return f"{color} {rest.replace('_', ' ')}"

    return _CARD_TEXT.sub(word, text)
