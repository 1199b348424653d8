"""The moves a seat hands its bot, and how what the bot returns is judged.

A seat hands its bot copies of the engine's moves, its own (see "Moves handed
to a bot" in :mod:`tajmahal.referee.seats`); what the bot returns is judged by
value against the engine's legal moves, touching nothing the bot made beyond
reading its fields without running its code.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tajmahal.bots.untrusted import plain_text, type_name
from tajmahal.faults import MAX_DETAIL, FaultKind
from tajmahal.rules.components import Card, Color, Special, Symbol
from tajmahal.rules.moves import (
    MOVE_TYPES,
    Move,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
)
from tajmahal.seat_contract import Answer

__all__ = ["copy_move", "judge_choice"]


def copy_move(move: Move, cards: dict[int, Card]) -> Move:
    """A fresh copy of an engine move (fresh cards too): what a bot mutates stays its own.

    ``cards`` maps the engine's cards to their copies within one seat.  The copy is
    filled in field by field, without the constructor's type checks (the engine's
    moves hold the library's own types); the slots attrs adds beside the fields
    (its hash cache) start empty, as the constructor leaves them.
    """
    kind = type(move)
    copy = _NEW(kind)
    if kind is PlayCards:
        assert isinstance(move, PlayCards)
        extra = None if move.extra is None else _copy_card(move.extra, cards)
        _SET(copy, "colored", _copy_card(move.colored, cards))
        _SET(copy, "extra", extra)
    elif kind is TakeCard:
        assert isinstance(move, TakeCard)
        _SET(copy, "card", _copy_card(move.card, cards))
    elif kind is PlacePalace or kind is PlaceCrownPalace:
        assert isinstance(move, PlacePalace | PlaceCrownPalace)
        _SET(copy, "city", move.city)
    for name in _INTERNAL_SLOTS[kind]:
        _SET(copy, name, None)
    return copy


def _internal_slots(kind: type) -> tuple[str, ...]:
    """The slots of an attrs class that are not its fields (attrs' hash cache)."""
    fields = {field.name for field in attrs.fields(kind)}
    slots = getattr(kind, "__slots__", ())
    return tuple(n for n in slots if n not in fields and n != "__weakref__")


_NEW = object.__new__
_SET = object.__setattr__
_INTERNAL_SLOTS = {kind: _internal_slots(kind) for kind in MOVE_TYPES}


def _copy_card(card: Card, cards: dict[int, Card]) -> Card:
    copy = cards.get(id(card))
    if copy is None:
        copy = cards[id(card)] = Card(card.color, card.symbols, card.special)
    return copy


def judge_choice(chosen: object, legal: Sequence[Move], copies: Sequence[Move]) -> Answer | int:
    """Runs in the worker: the index of the legal move ``chosen`` is, checking exact types
    field by field, or a fault."""
    for index, copy in enumerate(copies):  # most bots return one of the moves handed over
        if copy is chosen:
            if _unchanged(copy, legal[index]):  # unless the bot changed that copy since
                return index
            break
    problem = _foreign_part(chosen)
    if problem is None:
        for index, move in enumerate(legal):  # exact types only: == runs no bot code
            if move == chosen:
                return index
        shown = str(chosen)  # our own __str__ over exact library types
    else:
        shown = problem
    detail = f"returned {shown}, which is not one of the {len(legal)} legal moves"
    return Answer(kind=FaultKind.ILLEGAL_MOVE, detail=detail[:MAX_DETAIL])


def _unchanged(copy: object, move: Move) -> bool:
    """Whether ``copy`` (handed to a bot) still holds the very objects of ``move``'s fields,
    the engine's own values, all the way down: checked by identity, so no bot code runs."""
    kind = type(move)
    if type(copy) is not kind:
        return False
    get = object.__getattribute__
    try:
        if kind is PlayCards:
            assert isinstance(move, PlayCards)
            extra, copied = move.extra, get(copy, "extra")
            return _same_card(get(copy, "colored"), move.colored) and (
                copied is None if extra is None else _same_card(copied, extra)
            )
        if kind is TakeCard:
            assert isinstance(move, TakeCard)
            return _same_card(get(copy, "card"), move.card)
        if kind is PlacePalace or kind is PlaceCrownPalace:
            assert isinstance(move, PlacePalace | PlaceCrownPalace)
            return get(copy, "city") is move.city
    except AttributeError:  # a field deleted
        return False
    return True  # Withdraw: no fields


def _same_card(copy: object, card: Card) -> bool:
    get = object.__getattribute__
    return (
        type(copy) is Card
        and get(copy, "color") is card.color
        and get(copy, "symbols") is card.symbols
        and get(copy, "special") is card.special
    )


def _foreign_part(chosen: object) -> str | None:
    """None if ``chosen`` is exactly a move class with exactly the library's field types;
    else a description that names foreign objects by type only."""
    kind = type(chosen)
    if kind is str:  # a plain string is safe to show (say, a move's text instead of the move)
        assert isinstance(chosen, str)
        return f"the string {chosen[:60]!r}" + ("..." if len(chosen) > 60 else "")
    if kind not in MOVE_TYPES:
        return f"an object of type {type_name(chosen)}"
    try:
        if kind is PlacePalace or kind is PlaceCrownPalace:
            city = object.__getattribute__(chosen, "city")
            text = plain_text(city, 101)
            if type(city) is not str or text is None or len(text) > 100:
                return f"a {kind.__name__} whose city is a {type_name(city)}, not a city id"
        elif kind is TakeCard:
            return _card_problem(object.__getattribute__(chosen, "card"), "TakeCard")
        elif kind is PlayCards:
            problem = _card_problem(object.__getattribute__(chosen, "colored"), "PlayCards")
            extra = object.__getattribute__(chosen, "extra")
            if problem is None and extra is not None:
                problem = _card_problem(extra, "PlayCards")
            return problem
    except AttributeError:
        return f"a {kind.__name__} with missing fields"
    return None


def _card_problem(card: object, where: str) -> str | None:
    if type(card) is not Card:
        return f"a {where} holding a {type_name(card)}, not a Card"
    color = object.__getattribute__(card, "color")
    symbols = object.__getattribute__(card, "symbols")
    special = object.__getattribute__(card, "special")
    if (
        type(color) is not Color
        or type(symbols) is not tuple
        or len(symbols) > 4
        or any(type(s) is not Symbol for s in symbols)
        or (special is not None and type(special) is not Special)
    ):
        return f"a {where} whose Card has fields of foreign types"
    return None
