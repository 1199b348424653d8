"""The moves (the decision model of DESIGN.md) and their text notation.

Grammar of ``str(move)`` (and of :func:`tajmahal.parse_move`)::

    play <colored card> [<white or special card>]   PlayCards
    withdraw                                        Withdraw
    palace <city id>                                PlacePalace
    crown <city id>                                 PlaceCrownPalace
    take <card>                                     TakeCard

where a card is ``color:symbol[+symbol]`` (``red:elephant+vizier``,
``white:monk``) or ``special:<kind>`` (``special:color_change``).
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from tajmahal.rules.components import Card

__all__ = ["Move", "PlaceCrownPalace", "PlacePalace", "PlayCards", "TakeCard", "Withdraw"]


@attrs.frozen(cache_hash=True)
class PlayCards:
    """Play one colored card, optionally with one white or special card (P1).

    >>> from tajmahal import Card
    >>> str(PlayCards(Card.parse('red:elephant+vizier'), Card.parse('white:monk')))
    'play red:elephant+vizier white:monk'
    """

    colored: Card
    extra: Card | None = None

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

    def __str__(self) -> str:
        return f"palace {self.city}"


@attrs.frozen(cache_hash=True)
class PlaceCrownPalace:
    """Place the crown palace after winning the grand mogul (W7, W8).

    >>> str(PlaceCrownPalace('agra'))
    'crown agra'
    """

    city: str

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

    def __str__(self) -> str:
        return f"take {self.card}"


Move: TypeAlias = PlayCards | Withdraw | PlacePalace | PlaceCrownPalace | TakeCard


def move_from_text(text: str) -> Move:
    """Read a move from its text form without checking legality; raises ``ValueError``."""
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
        f"{text!r} is not a move: expected 'play CARD [CARD]', 'withdraw', "
        "'palace CITY', 'crown CITY' or 'take CARD'"
    )
