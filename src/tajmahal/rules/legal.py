"""Legal moves (V3, P1–P4, P8, W5, W7, F2), and why a move is not legal.

Every move offered is one of the objects built once in :mod:`tajmahal.rules.tables`,
so ``legal_moves`` allocates nothing but the tuple it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tajmahal.rules.moves import (
    MOVE_TYPES,
    Move,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
    Withdraw,
)
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.tables import NO_EXTRA, Tables, tables

if TYPE_CHECKING:  # annotations only: the state module imports this one
    from tajmahal.rules.state import GameState

__all__ = ["legal_moves", "why_illegal"]

WITHDRAW = Withdraw()


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """The legal moves of ``state`` (use :meth:`GameState.legal_moves`, which caches them)."""
    phase = state.phase
    t = tables(state.components)
    if phase is Phase.PLAY:
        return _play_moves(state, t)
    if phase is Phase.TAKE:
        take = t.take
        return tuple([take[k] for k in distinct_kinds(state.supply)])
    cities = t.province_cities[state.province_order[state.visit - 1]]
    if phase is Phase.PALACE:
        normal = state.normal_palaces
        return tuple(t.place[c] for c in cities if normal[c] < 0)
    if phase is Phase.CROWN:
        crown = state.crown_palaces
        return tuple(t.crown[c] for c in cities if crown[c] < 0)
    return ()


def _play_moves(state: GameState, t: Tables) -> tuple[Move, ...]:
    """The plays of the play phase (P1–P4), then withdrawing (V3, P8)."""
    seat = state.current_player
    assert seat is not None
    color = state.visit_colors[seat]
    distinct = distinct_kinds(state.hands[seat])
    colored, colors = t.colored, t.color
    extras = [k for k in distinct if not colored[k]]  # whites, then specials (P1)
    has_color_change = t.color_change in extras
    moves: list[Move] = []
    for k in distinct:
        if not colored[k]:
            break  # kinds are sorted: colored suits come first
        play = t.play_with[k]
        if color is None or colors[k] is color:
            moves.append(play[NO_EXTRA])
            moves.extend([play[e] for e in extras])
        elif has_color_change:
            moves.append(play[t.color_change])  # P4
    moves.append(WITHDRAW)  # V3; P8: always possible
    return tuple(moves)


def distinct_kinds(kinds: Sequence[int]) -> list[int]:
    """The distinct values of sorted ``kinds``, in order.

    A loop, not ``dict.fromkeys``: compiled, it makes no Python-level call.
    """
    out: list[int] = []
    last = -1  # kinds are >= 0
    for k in kinds:
        if k != last:
            out.append(k)
            last = k
    return out


def why_illegal(state: GameState, move: object, seat: int | None) -> str:
    """Say why ``move`` is not legal in ``state`` (for IllegalMoveError)."""
    t = tables(state.components)
    text = f"{move}" if type(move) in MOVE_TYPES else repr(move)
    if type(move) not in MOVE_TYPES:
        return f"{text} is not a move (expected one of {', '.join(m.__name__ for m in MOVE_TYPES)})"
    if state.phase is Phase.OVER:
        return f"cannot {text}: the game is over"
    current = state.current_player
    if seat is not None and seat != current:
        return f"cannot {text} for seat {seat}: it is seat {current}'s decision"
    owed = {
        Phase.PLAY: "play cards or withdraw",
        Phase.PALACE: "place a palace ('palace CITY')",
        Phase.CROWN: "place the crown palace ('crown CITY')",
        Phase.TAKE: "take a supply card ('take CARD')",
    }[state.phase]
    expected = {
        Phase.PLAY: (PlayCards, Withdraw),
        Phase.PALACE: (PlacePalace,),
        Phase.CROWN: (PlaceCrownPalace,),
        Phase.TAKE: (TakeCard,),
    }[state.phase]
    if not isinstance(move, expected):
        return f"cannot {text}: seat {current} must {owed} now"
    assert current is not None
    if isinstance(move, PlayCards):
        return _why_illegal_play(state, t, move, current)
    if isinstance(move, PlacePalace | PlaceCrownPalace):
        province = state.province
        if move.city not in t.city_of:
            return f"cannot {text}: there is no city {move.city!r}"
        city = t.city_of[move.city]
        if t.city_province[city] != state.province_order[state.visit - 1]:
            return f"cannot {text}: {move.city!r} is not in the current province {province!r}"
        kind = "crown" if isinstance(move, PlaceCrownPalace) else "normal"
        return f"cannot {text}: {move.city!r} already holds a {kind} palace (W8)"
    assert isinstance(move, TakeCard)
    return f"cannot {text}: {move.card} is not in the card supply"


def _why_illegal_play(state: GameState, t: Tables, move: PlayCards, seat: int) -> str:
    text = str(move)
    colored, extra = move.colored, move.extra
    for card in (colored, extra):
        if card is not None and card not in t.kind_of:
            return f"cannot {text}: no such card {card} in these components"
    if not t.colored[t.kind_of[colored]]:
        return f"cannot {text}: a play needs exactly one colored card first (P1)"
    if extra is not None and t.colored[t.kind_of[extra]]:
        return f"cannot {text}: the second card must be a white or special card (P1)"
    hand = list(state.hands[seat])
    for card in (colored, extra):
        if card is None:
            continue
        kind = t.kind_of[card]
        if kind not in hand:
            return f"cannot {text}: {card} is not in seat {seat}'s hand"
        hand.remove(kind)
    color = state.visit_colors[seat]
    return (
        f"cannot {text}: cannot play {colored.color.value}: your color this visit is "
        f"{color.value if color is not None else 'free'} (P2)"
    )
