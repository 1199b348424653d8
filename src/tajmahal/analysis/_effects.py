"""What each legal move does at once, in plain words, and what each city offers a palace."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import attrs

from tajmahal.analysis._table import (
    _available,
    _totals,
    bonus_commodity,
    connected_provinces,
    finishing_points,
    owned_commodities,
    withdrawal,
)
from tajmahal.names import (
    and_list,
    bonus_name,
    card_name,
    display_name,
    move_name,
    prize_name,
    symbol_name,
)
from tajmahal.rules.components import BonusKind, BonusTile, Special, Symbol
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, TakeCard, Withdraw
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.views import PlayerView

__all__ = ["CityOption", "MoveEffect", "city_options", "effect", "effects", "view_legal_moves"]


@attrs.frozen
class MoveEffect:
    """One move's immediate effect: its plain name, the points it scores at once, in words."""

    move: Move
    name: str  #: the move in plain words ('play red elephant with white monk')
    text: str  #: what it does at once ('leads elephant 2 to 1 for province tile 3')
    points: int  #: points it scores at once (with palaces still to place: before them)

    def __str__(self) -> str:
        return f"{self.name}: {self.text}"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"move": str(self.move), "name": self.name, "text": self.text, "points": self.points}


@attrs.frozen
class CityOption:
    """What a palace (or the crown palace) in one city gives (W5–W8, K1–K8)."""

    city: str  #: city id
    name: str  #: its plain name
    province: str  #: its province's plain name
    crown: bool  #: the crown palace (no bonus tile, W7)
    bonus: BonusTile | None  #: the bonus tile taken there (W6)
    connections: tuple[str, ...] | None  #: provinces (plain names) linked when it scores
    points: int  #: points this placement scores at once (the bonus tile, and the withdrawal's
    #: province tile and connections when it is the last placement)
    last: bool  #: the last placement of the withdrawal: it finishes (K5–K8 scored)
    text: str

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "city": self.city,
            "name": self.name,
            "province": self.province,
            "crown": self.crown,
            "bonus": None if self.bonus is None else str(self.bonus),
            "connections": None if self.connections is None else list(self.connections),
            "points": self.points,
            "last": self.last,
            "text": self.text,
        }


def view_legal_moves(view: PlayerView) -> tuple[Move, ...]:
    """The seat's legal moves when it is its turn (else empty): they depend on what it sees.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> view_legal_moves(state.view(0)) == state.legal_moves(), view_legal_moves(state.view(1))
    (True, ())
    """
    if view.current_player != view.seat or view.is_over:
        return ()
    return view.sample(random.Random(0)).legal_moves()


def effects(view: PlayerView, moves: Sequence[Move] | None = None) -> tuple[MoveEffect, ...]:
    """The effect of each of ``moves`` (default: the seat's legal moves), in their order."""
    chosen = view_legal_moves(view) if moves is None else moves
    return tuple(effect(view, move) for move in chosen)


def effect(view: PlayerView, move: Move) -> MoveEffect:
    """What ``move`` by the seat to move does at once, from ``view`` alone.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> told = effect(state.view(0), state.legal_moves()[0])
    >>> told.name
    'play red elephant+monk'
    >>> told.text
    'leads monk 1 to 0 for the monk tile; leads elephant 1 to 0 for province tile 1 (rice); red is your color this visit'
    """  # noqa: E501
    seat = view.current_player
    if seat is None:
        raise TajMahalError("the game is over: no move has an effect")
    comps = view.components
    name = move_name(move, comps)
    if isinstance(move, Withdraw):
        gain = withdrawal(view, seat)
        return MoveEffect(move, name, gain.text, gain.points)
    if isinstance(move, PlayCards):
        text, points = _play_text(view, seat, move)
        return MoveEffect(move, name, text, points)
    if isinstance(move, PlacePalace | PlaceCrownPalace):
        option = _city_option(view, seat, move.city, crown=isinstance(move, PlaceCrownPalace))
        text = option.text.removeprefix(f"{option.name}: ")  # the name says where
        return MoveEffect(move, name, text, option.points)
    assert isinstance(move, TakeCard)
    card = move.card
    if card.color.value == "white":
        why = "a white card: plays with any suit later, 1 point in hand at the end (G1)"
    else:
        suit = card.color.value
        why = f"{suit} for a later visit; it lengthens your {suit} suit (G1)"
    return MoveEffect(move, name, why, 0)


def _play_text(view: PlayerView, seat: int, move: PlayCards) -> tuple[str, int]:
    cards = [move.colored] + ([move.extra] if move.extra is not None else [])
    before = _totals(view.table[seat])
    after = _totals(list(view.table[seat]) + cards)
    rivals = {o: _totals(c) for o, c in enumerate(view.table) if o != seat and c}
    parts: list[str] = []
    played = {s for card in cards for s in card.symbols}
    for i, symbol in enumerate(Symbol):
        if symbol not in played:
            continue
        best = max((r[i] for r in rivals.values()), default=0)
        mine = after[i]
        prize = prize_name(symbol, view.court_province_tile)
        gone = "" if _available(view, symbol) else " (prize already taken)"
        if mine > best:
            verb = "still leads" if before[i] > best else "leads"
            parts.append(f"{verb} {symbol_name(symbol)} {mine} to {best} for {prize}{gone}")
        elif mine == best:
            tied = and_list([f"seat {o}" for o, r in rivals.items() if r[i] == best])
            parts.append(f"ties {tied} on {symbol_name(symbol)} at {mine}{gone}")
        else:
            leader = and_list([f"seat {o}" for o, r in rivals.items() if r[i] == best])
            parts.append(f"{symbol_name(symbol)} {mine}, behind {leader} with {best}")
    points = 0
    if move.extra is not None and move.extra.special is Special.POINTS:
        points = 2
        parts.append("+2 points (P6)")
    if move.extra is not None and move.extra.special is Special.COLOR_CHANGE:
        parts.append("the color change card lets it be another suit (P4)")
    elif view.visit_colors[seat] is None:
        parts.append(f"{move.colored.color.value} is your color this visit")
    if not parts:
        parts.append(f"no symbol ({card_name(move.colored)})")
    return "; ".join(parts), points


def city_options(view: PlayerView) -> tuple[CityOption, ...]:
    """For a palace or crown palace choice: what each free city of the province gives.

    Empty outside those choices.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> while state.phase is not tm.Phase.PALACE:  # always the first legal move
    ...     state = state.apply(state.legal_moves()[0])
    >>> for option in city_options(state.view(0))[1:3]:
    ...     print(option.text)
    Nasarpur: finishing the withdrawal scores +1 (K5-K8); +1 in all
    Thatta: bonus tile +2 (K2); finishing the withdrawal scores +1 (K5-K8); +3 in all
    """
    seat = view.current_player
    if seat is None or view.phase not in (Phase.PALACE, Phase.CROWN):
        return ()
    crown = view.phase is Phase.CROWN
    slot = 1 if crown else 0
    province = view.components.board.province(view.province)
    return tuple(
        _city_option(view, seat, city.id, crown=crown)
        for city in province.cities
        if view.palaces[city.id][slot] is None
    )


def _city_option(view: PlayerView, seat: int, city: str, *, crown: bool) -> CityOption:
    comps = view.components
    board = comps.board
    bonus = None if crown else view.bonus_tiles.get(city)
    points = 0
    words: list[str] = []
    if bonus is not None:
        if bonus.kind is BonusKind.COMMODITY and bonus.commodity is not None:
            gained = 1 + owned_commodities(view, seat)[bonus.commodity]
            words.append(f"{bonus_name(bonus)} +{gained} (K4)")
            points += gained
        elif bonus.kind is BonusKind.CARD:
            words.append("the +1 card tile: draws a card (K3)")
        else:
            rule = "K1" if bonus.kind is BonusKind.TAJ_MAHAL else "K2"
            name = "Taj Mahal tile" if rule == "K1" else "bonus tile"
            words.append(f"{name} +{bonus.points} ({rule})")
            points += bonus.points
    last = crown or (view.pending_palaces <= 1 and not view.pending_crown)
    linked = connected_provinces(view, seat, [city])
    names = None if linked is None else tuple(display_name(p, comps) for p in linked)
    if last:
        commodity = bonus_commodity(view, city) if bonus is not None else None
        finish = finishing_points(
            view, seat, province_tile=view.pending_province, extra_cities=[city],
            extra_commodities=[commodity] if commodity is not None else [],
        )  # fmt: skip
        points += finish
        if names:
            words.append(f"connects {and_list(list(names))}")
        words.append(f"finishing the withdrawal scores +{finish} (K5-K8)")
    elif names:
        words.append(f"connects {and_list(list(names))}")
    if not words:
        words.append("no bonus tile")
    city_name = board.city(city).name
    province = board.province(board.city(city).province).name
    text = f"{city_name}: " + "; ".join(words) + f"; +{points} in all"
    return CityOption(city, city_name, province, crown, bonus, names, points, last, text)
