"""Names for people: a move, a card, a symbol, a city, a tile and a score part in plain words.

The one place where the library says what a thing is called for a person to
read.  The terminal game, the web pages, the replay page and the analysis all
name moves, cards and score parts through these functions, so a move reads
the same on every front end.  The *notation* is something else: ``str(move)``
(``'play red:vizier+monk special:grand_mogul'``) is what
:func:`tajmahal.parse_move` reads and what documents and bot programs
exchange; it never changes.  These names may read better in a later release.

>>> import tajmahal as tm
>>> move = tm.PlayCards(tm.Card.parse('red:vizier+monk'), tm.Card.parse('special:grand_mogul'))
>>> str(move)
'play red:vizier+monk special:grand_mogul'
>>> move_name(move)
'play red vizier+monk with grand mogul card'
>>> move_name(move, short=True)  # the compact form, for long lists of moves
'red viz+mon with grand mogul'
>>> score_part_name('connections')
'palaces'

Every function here takes the library's values (:class:`~tajmahal.Card`,
moves, :class:`~tajmahal.Symbol`...) and returns a ``str``; a value of the
wrong kind is a ``TypeError``, an unknown score part a
:class:`~tajmahal.TajMahalError`.  :mod:`tajmahal.analysis` re-exports the
older names (``analysis.move_name``, ``analysis.card_name``...): the same functions.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence

from tajmahal.rules.components import BonusKind, BonusTile, Card, Components, ProvinceTile, Symbol
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, TakeCard, Withdraw

__all__ = [
    "SCORE_PARTS",
    "SYMBOL_SHORT",
    "and_list",
    "bonus_name",
    "card_name",
    "display_name",
    "move_name",
    "move_parts",
    "plain_text",
    "prize_name",
    "province_tile_name",
    "score_part_name",
    "score_parts_text",
    "symbol_name",
]

#: each symbol in three letters (the compact form of :func:`symbol_name`)
SYMBOL_SHORT: dict[Symbol, str] = {
    Symbol.VIZIER: "viz",
    Symbol.GENERAL: "gen",
    Symbol.MONK: "mon",
    Symbol.PRINCESS: "pri",
    Symbol.GRAND_MOGUL: "mog",
    Symbol.ELEPHANT: "ele",
}

#: the parts a score is made of, in the order a breakdown lists them: (key, name for people).
#: The keys are those of :func:`tajmahal.analysis.score_breakdown` (``ScoreBreakdown.points``).
SCORE_PARTS: tuple[tuple[str, str], ...] = (
    ("connections", "palaces"),
    ("province_tiles", "province tiles"),
    ("commodity_tiles", "commodities"),
    ("bonus_points", "bonus tiles"),
    ("taj_mahal", "Taj Mahal"),
    ("points_card", "points card"),
    ("final_hand", "final hand"),
)
_PART_NAMES = dict(SCORE_PARTS)

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


def symbol_name(symbol: Symbol, *, short: bool = False) -> str:
    """A symbol in words, lower case: ``'grand mogul'``; ``short``: in three letters.

    >>> import tajmahal as tm
    >>> symbol_name(tm.Symbol.GRAND_MOGUL), symbol_name(tm.Symbol.GRAND_MOGUL, short=True)
    ('grand mogul', 'mog')
    """
    if not isinstance(symbol, Symbol):
        raise TypeError(f"symbol_name takes a Symbol, not {type(symbol).__name__}")
    return SYMBOL_SHORT[symbol] if short else symbol.value.replace("_", " ")


def card_name(card: Card, *, short: bool = False) -> str:
    """A card in words: ``'red elephant+vizier'``, ``'white monk'``, ``'color change card'``.

    ``short``: the symbols in three letters and a special card without the
    word "card" (``'red ele+viz'``, ``'color change'``).

    >>> import tajmahal as tm
    >>> card = tm.Card.parse
    >>> card_name(card('red:elephant+vizier')), card_name(card('special:grand_mogul'))
    ('red elephant+vizier', 'grand mogul card')
    >>> card_name(card('red:elephant+vizier'), short=True)
    'red ele+viz'
    """
    if not isinstance(card, Card):
        raise TypeError(f"card_name takes a Card, not {type(card).__name__}")
    if card.special is not None:
        special = card.special.value.replace("_", " ")
        return special if short else f"{special} card"
    return f"{card.color.value} {'+'.join(symbol_name(s, short=short) for s in card.symbols)}"


def move_parts(
    move: Move, components: Components | None = None, *, short: bool = False
) -> tuple[tuple[str, Card | None], ...]:
    """:func:`move_name` in pieces: (text, the card it names or None), for a front end that
    styles each card (the terminal colours them by suit).  The texts joined are the name.

    >>> import tajmahal as tm
    >>> parts = move_parts(tm.TakeCard(tm.Card.parse('white:monk')))
    >>> [text for text, _ in parts], [str(card) for _, card in parts if card is not None]
    (['take ', 'white monk'], ['white:monk'])
    """
    if isinstance(move, PlayCards):
        parts: list[tuple[str, Card | None]] = [] if short else [("play ", None)]
        parts.append((card_name(move.colored, short=short), move.colored))
        if move.extra is not None:
            parts += [(" with ", None), (card_name(move.extra, short=short), move.extra)]
        return tuple(parts)
    if isinstance(move, TakeCard):
        return (("take ", None), (card_name(move.card, short=short), move.card))
    if isinstance(move, Withdraw):
        return (("withdraw", None),)
    if isinstance(move, PlacePalace):
        return ((f"palace in {display_name(move.city, components)}", None),)
    if isinstance(move, PlaceCrownPalace):
        return ((f"crown palace in {display_name(move.city, components)}", None),)
    raise TypeError(f"move_name takes a move, not {type(move).__name__}")


def move_name(move: Move, components: Components | None = None, *, short: bool = False) -> str:
    """A move in words: ``'play red elephant with white monk'``, ``'palace in Dera Ismail Khan'``.

    ``components`` names the cities as the board does (without them, from the
    ids).  ``short``: the compact form for a long list of moves, its cards
    as :func:`card_name` ``short`` gives them and a play without the word "play"
    (``'red ele with white mon'``).

    >>> import tajmahal as tm
    >>> move_name(tm.PlacePalace('dera_ismail_khan'))
    'palace in Dera Ismail Khan'
    >>> move_name(tm.PlayCards(tm.Card.parse('red:monk'), tm.Card.parse('special:color_change')))
    'play red monk with color change card'
    >>> move_name(tm.Withdraw()), move_name(tm.TakeCard(tm.Card.parse('green:general')))
    ('withdraw', 'take green general')
    """
    return "".join(text for text, _ in move_parts(move, components, short=short))


def province_tile_name(tile: ProvinceTile) -> str:
    """A province tile in words, with its commodities.

    >>> import tajmahal as tm
    >>> province_tile_name(tm.standard_components().province_tiles[0])
    'province tile 1 (rice)'
    """
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
    """A bonus tile in words: ``'Taj Mahal tile (+4)'``, ``'+2 points'``, ``'tea tile'``...

    >>> import tajmahal as tm
    >>> names = {bonus_name(tile) for tile in tm.standard_components().bonus_tiles}
    >>> sorted(names)[:4], len(names)
    (['+1 card tile', '+2 points', 'Taj Mahal tile (+4)', 'jewels tile'], 7)
    """
    if tile.kind is BonusKind.TAJ_MAHAL:
        return f"Taj Mahal tile (+{tile.points})"
    if tile.kind is BonusKind.POINTS:
        return f"+{tile.points} points"
    if tile.kind is BonusKind.COMMODITY and tile.commodity is not None:
        return f"{tile.commodity.value} tile"
    return "+1 card tile"


def score_part_name(key: str) -> str:
    """A part of a score (a key of :data:`SCORE_PARTS`) in words.

    >>> score_part_name('province_tiles'), score_part_name('final_hand')
    ('province tiles', 'final hand')
    """
    try:
        return _PART_NAMES[key]
    except (KeyError, TypeError):
        known = ", ".join(_PART_NAMES)
        raise TajMahalError(f"no score part {key!r}: the parts are {known}") from None


def score_parts_text(points: Iterable[tuple[str, int]]) -> str:
    """The parts that scored, in words: ``'palaces 20 + province tiles 9'`` (``'0'``: none).

    ``points``: (score part key, points) pairs, as ``ScoreBreakdown.points`` holds them.

    >>> score_parts_text([('connections', 20), ('taj_mahal', 0), ('province_tiles', 9)])
    'palaces 20 + province tiles 9'
    """
    parts = [f"{score_part_name(key)} {n}" for key, n in points if n]
    return " + ".join(parts) if parts else "0"


def and_list(names: Sequence[str]) -> str:
    """Names joined as a sentence joins them.

    >>> and_list(['a']), and_list(['a', 'b']), and_list(['a', 'b', 'c'])
    ('a', 'a and b', 'a, b and c')
    """
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
