"""The library's exception hierarchy (RULES-independent, imported everywhere)."""

from __future__ import annotations

__all__ = ["ComponentsError", "FormatError", "IllegalMoveError", "TajMahalError"]

#: the longest text an error message quotes whole
QUOTED_LIMIT = 80


def quoted(text: str) -> str:
    """``repr(text)``, cut to QUOTED_LIMIT characters: error messages quote hostile input too.

    >>> quoted("red:monk"), quoted("x" * 1000)[-5:], len(quoted(chr(1) * 1000))
    ("'red:monk'", 'xx...', 80)
    """
    shown = repr(text[:QUOTED_LIMIT])
    if len(text) <= QUOTED_LIMIT and len(shown) <= QUOTED_LIMIT:
        return shown
    return shown[: QUOTED_LIMIT - 3] + "..."


class TajMahalError(Exception):
    """Base class of every error the library raises on purpose.

    >>> import tajmahal as tm
    >>> try:
    ...     tm.new_game(num_players=2, seed=1)
    ... except tm.TajMahalError as exc:
    ...     print(exc)
    Taj Mahal is for 3, 4 or 5 players, not 2
    """


class IllegalMoveError(TajMahalError, ValueError):
    """A move that is not legal in the state it was applied to.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> state.apply(tm.PlacePalace('agra'))
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.IllegalMoveError: cannot palace agra: seat 0 must play cards or withdraw now
    >>> issubclass(IllegalMoveError, ValueError)
    True
    """  # noqa: E501


class FormatError(TajMahalError, ValueError):
    """A serialised document that cannot be read back (bad JSON, wrong shape, impossible state).

    >>> import tajmahal as tm
    >>> try:
    ...     tm.loads('{"format": "tajmahal/move"}')
    ... except tm.FormatError as exc:
    ...     print(exc)
    cannot read the document: $.version: required key missing
    """


class ComponentsError(TajMahalError, ValueError):
    """A components file (deck, tiles, board) that is malformed or inconsistent.

    >>> from tajmahal.rules.components import parse_components
    >>> parse_components('cards = 1', source='mine.toml')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.ComponentsError: mine.toml: top level: missing key(s) board, bonus_tiles, province_tiles, special_cards
    """  # noqa: E501
