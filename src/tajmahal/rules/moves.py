"""The moves (every choice a player makes is one move: docs/rules.md) and their text notation.

Grammar of ``str(move)`` (and of :func:`tajmahal.parse_move`)::

    play <colored card> [<white or special card>]   PlayCards
    withdraw                                        Withdraw
    palace <city id>                                PlacePalace
    crown <city id>                                 PlaceCrownPalace
    take <card>                                     TakeCard

where a card is ``color:symbol[+symbol]`` (``red:elephant+vizier``,
``white:monk``) or ``special:<kind>`` (``special:color_change``), and a city
id is the board's lowercase id (``agra``).  Words are separated by
whitespace.  ``str(move)`` writes the colored card first and a card's symbols
as the components list them; :func:`parse_move` also accepts other letter
case, extra whitespace and the symbols of a card in any order.
"""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING, TypeAlias

import attrs

from tajmahal.rules.components import Card, Symbol
from tajmahal.rules.errors import IllegalMoveError, quoted

if TYPE_CHECKING:
    from tajmahal.rules.state import GameState

__all__ = [
    "MOVE_TYPES",
    "Move",
    "PlaceCrownPalace",
    "PlacePalace",
    "PlayCards",
    "TakeCard",
    "Withdraw",
    "move_from_text",
    "parse_move",
]


_CARD_HINT = "a Card, such as Card.parse('red:elephant+vizier')"
_CITY_HINT = "a city id (str), such as 'agra'"


def _wrong_type(move: str, name: str, value: object, expected: str) -> TypeError:
    """The error for a move built from a value of the wrong type (say what was given)."""
    return TypeError(
        f"{move}({name}=...) takes {expected}, got {type(value).__name__} "
        f"{reprlib.repr(value)}; tajmahal.parse_move(text, state) reads a move from its text"
    )


@attrs.frozen(cache_hash=True)
class PlayCards:
    """Play one colored card, optionally with one white or special card (P1).

    The cards are :class:`~tajmahal.Card` values; anything else raises ``TypeError``.

    >>> from tajmahal import Card
    >>> str(PlayCards(Card.parse('red:elephant+vizier'), Card.parse('white:monk')))
    'play red:elephant+vizier white:monk'
    >>> PlayCards('red:elephant+vizier')
    Traceback (most recent call last):
    ...
    TypeError: PlayCards(colored=...) takes a Card, such as Card.parse('red:elephant+vizier'), got str 'red:elephant+vizier'; tajmahal.parse_move(text, state) reads a move from its text
    """  # noqa: E501

    colored: Card
    extra: Card | None = None

    def __attrs_post_init__(self) -> None:
        if not issubclass(type(self.colored), Card):  # type(): never touch a foreign object
            raise _wrong_type("PlayCards", "colored", self.colored, _CARD_HINT)
        if self.extra is not None and not issubclass(type(self.extra), Card):
            raise _wrong_type("PlayCards", "extra", self.extra, _CARD_HINT + " or None")

    def __str__(self) -> str:
        return f"play {self.colored}" + ("" if self.extra is None else f" {self.extra}")


@attrs.frozen(cache_hash=True)
class Withdraw:
    """Withdraw from the current visit (W1–W11).

    >>> str(Withdraw())
    'withdraw'
    """

    def __str__(self) -> str:
        return "withdraw"


@attrs.frozen(cache_hash=True)
class PlacePalace:
    """Place a normal palace for an influence prize won (W5, W6).

    >>> str(PlacePalace('agra'))
    'palace agra'
    """

    city: str

    def __attrs_post_init__(self) -> None:
        if not issubclass(type(self.city), str):
            raise _wrong_type("PlacePalace", "city", self.city, _CITY_HINT)

    def __str__(self) -> str:
        return f"palace {self.city}"


@attrs.frozen(cache_hash=True)
class PlaceCrownPalace:
    """Place the crown palace after winning the grand mogul (W7, W8).

    >>> str(PlaceCrownPalace('agra'))
    'crown agra'
    """

    city: str

    def __attrs_post_init__(self) -> None:
        if not issubclass(type(self.city), str):
            raise _wrong_type("PlaceCrownPalace", "city", self.city, _CITY_HINT)

    def __str__(self) -> str:
        return f"crown {self.city}"


@attrs.frozen(cache_hash=True)
class TakeCard:
    """Take one card from the face-up supply (F2).

    >>> from tajmahal import Card
    >>> str(TakeCard(Card.parse('white:elephant')))
    'take white:elephant'
    """

    card: Card

    def __attrs_post_init__(self) -> None:
        if not issubclass(type(self.card), Card):
            raise _wrong_type("TakeCard", "card", self.card, _CARD_HINT)

    def __str__(self) -> str:
        return f"take {self.card}"


Move: TypeAlias = PlayCards | Withdraw | PlacePalace | PlaceCrownPalace | TakeCard

#: every move class, in the order of the grammar above (``type(move) in MOVE_TYPES``
#: tells a move from anything else, subclasses included)
MOVE_TYPES: tuple[type[Move], ...] = (PlayCards, Withdraw, PlacePalace, PlaceCrownPalace, TakeCard)


def move_from_text(text: str) -> Move:
    """Read a move from its text form without checking legality; raises ``ValueError``.

    >>> move_from_text('palace agra')
    PlacePalace(city='agra')
    """
    words = text.split()
    if not words:
        raise ValueError("empty move text")
    verb, args = words[0].lower(), words[1:]
    if verb == "withdraw" and not args:
        return Withdraw()
    if verb == "play" and len(args) in (1, 2):
        extra = Card.parse(args[1]) if len(args) == 2 else None
        return PlayCards(Card.parse(args[0]), extra)
    if verb == "palace" and len(args) == 1:
        return PlacePalace(args[0])
    if verb == "crown" and len(args) == 1:
        return PlaceCrownPalace(args[0])
    if verb == "take" and len(args) == 1:
        return TakeCard(Card.parse(args[0]))
    raise ValueError(
        f"{quoted(text)} is not a move: expected 'play CARD [CARD]', 'withdraw', "
        "'palace CITY', 'crown CITY' or 'take CARD'"
    )


def parse_move(text: str, state: GameState) -> Move:
    """The legal move of ``state`` written ``text`` (the inverse of ``str(move)``).

    Raises :class:`~tajmahal.IllegalMoveError` when ``text`` is not a move or
    not a legal one in ``state``, saying why and listing the legal moves' texts.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> tm.parse_move('WITHDRAW', state)
    Withdraw()
    >>> tm.parse_move('palace agra', state)
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.IllegalMoveError: 'palace agra' is not a legal move: ...
    """
    legal = state.legal_moves()
    if not isinstance(text, str):
        reason = f"expected the text of a move, got {type(text).__name__}"
    else:
        try:
            move = move_from_text(text.lower())
        except ValueError as exc:
            reason = str(exc)
        else:
            found = {_key(m): m for m in legal}.get(_key(move))
            if found is not None:
                return found
            try:
                state.apply(move)
                reason = "not legal"  # pragma: no cover - apply accepts only legal moves
            except IllegalMoveError as exc:
                reason = str(exc)
    if legal:
        listed = "legal moves: " + ", ".join(str(m) for m in legal)
    else:
        listed = "no move is legal: the game is over"
    shown = quoted(text) if isinstance(text, str) else reprlib.repr(text)
    raise IllegalMoveError(f"{shown} is not a legal move: {reason}; {listed}")


_SYMBOL_ORDER = {s: i for i, s in enumerate(Symbol)}


def _card_key(card: Card | None) -> object:
    if card is None:
        return None
    return card.color, card.special, tuple(sorted(card.symbols, key=_SYMBOL_ORDER.__getitem__))


def _key(move: Move) -> object:
    """``move`` up to the order of the symbols on its cards."""
    if isinstance(move, PlayCards):
        return PlayCards, _card_key(move.colored), _card_key(move.extra)
    if isinstance(move, TakeCard):
        return TakeCard, _card_key(move.card)
    return move
