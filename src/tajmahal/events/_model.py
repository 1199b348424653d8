"""The event data: :class:`EventKind`, :class:`Event`, :class:`Decision`."""

from __future__ import annotations

import enum
from collections.abc import Sequence

import attrs

from tajmahal.rules.components import Card
from tajmahal.rules.moves import Move

__all__ = ["Decision", "Event", "EventKind", "seat_name"]


class EventKind(enum.Enum):
    """What an :class:`Event` reports.

    >>> EventKind.TIE.value
    'tie'
    """

    PLAY = "play"  #: cards played (P1-P5)
    WITHDRAW = "withdraw"  #: a seat withdraws (V3, W11)
    PRIZE = "prize"  #: a prize won on withdrawing (W2, W5, W7, W9)
    NO_PRIZE = "no_prize"  #: a majority whose prize was already taken this visit (W3)
    TIE = "tie"  #: a prize lost to a tie (W4)
    PALACE = "palace"  #: a normal palace placed (W5)
    CROWN_PALACE = "crown_palace"  #: the crown palace placed (W7)
    BONUS_TILE = "bonus_tile"  #: a bonus tile taken from a fortress (W6, K1-K4)
    POINTS = "points"  #: points scored (P6, K5-K8, G1)
    DRAW = "draw"  #: a card drawn from the deck (W11, F3, K3)
    TAKE = "take"  #: a card taken from the face-up supply (F2)
    RESHUFFLE = "reshuffle"  #: the discard pile became the draw deck (D1)
    SPECIAL_CARD = "special_card"  #: a pair of influence tiles traded for a special card (E2)
    TILES_LEFT = "tiles_left"  #: tiles not won leave the game (E1)
    VISIT_END = "visit_end"  #: every seat has withdrawn (V6)
    VISIT_START = "visit_start"  #: the next province and its tile, the starting seat (E3-E5)
    SUPPLY = "supply"  #: a new face-up card supply (E6)
    GAME_END = "game_end"  #: final scoring and the winners (E7, G1-G3)


@attrs.frozen
class Event:
    """One thing a decision caused.

    ``seat`` is the seat it concerns (None for the table as a whole), ``text``
    says it in plain words, rule IDs included, ``points`` is what it scored
    for ``seat``, ``card`` a card it names (a drawn card only for the seat
    that drew it), ``city`` a city it names.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> event = tm.events.explain(state, tm.Withdraw()).events[1]
    >>> event.kind, event.seat, event.card
    (<EventKind.DRAW: 'draw'>, 0, None)
    >>> event.sentence(['ann', 'bob', 'cy'])
    'seat 0 (ann) draws a card from the deck (W11, F3)'
    """

    kind: EventKind
    seat: int | None
    text: str
    rules: tuple[str, ...] = ()
    points: int = 0
    card: Card | None = None
    city: str | None = None

    def sentence(self, players: Sequence[str] = ()) -> str:
        """The text with its subject: ``"seat 2 (greedy) wins ..."`` (players name the seats).

        >>> Event(EventKind.RESHUFFLE, None, 'the discard pile becomes the deck').sentence()
        'the discard pile becomes the deck'
        """
        if self.seat is None:
            return self.text
        return f"{seat_name(self.seat, players)} {self.text}"

    def __str__(self) -> str:
        return self.sentence()


@attrs.frozen
class Decision:
    """One decision as data: who made it, the move, and the events it caused, in order.

    ``scores`` are the scores after the move; ``visit`` the visit it was made in.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> decision = tm.events.explain(state, tm.Withdraw())
    >>> decision.seat, str(decision.move), [e.kind.value for e in decision.events]
    (0, 'withdraw', ['withdraw', 'draw'])
    """

    seat: int
    move: Move
    events: tuple[Event, ...]
    scores: tuple[int, ...]
    visit: int

    def lines(self, players: Sequence[str] = ()) -> list[str]:
        """Each event as a sentence.

        >>> import tajmahal as tm
        >>> tm.events.explain(tm.new_game(num_players=3, seed=1), tm.Withdraw()).lines()
        ['seat 0 withdraws without having played', 'seat 0 draws a card from the deck (W11, F3)']
        """
        return [event.sentence(players) for event in self.events]


def seat_name(seat: int, players: Sequence[str] = ()) -> str:
    """``"seat 2 (greedy)"``, or ``"seat 2"`` without a name for it.

    >>> seat_name(1, ['greedy', 'random']), seat_name(3)
    ('seat 1 (random)', 'seat 3')
    """
    return f"seat {seat} ({players[seat]})" if 0 <= seat < len(players) else f"seat {seat}"
