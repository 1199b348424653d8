"""Build rule situations directly, in friendly terms (card texts, city ids, seat numbers).

The engine's :class:`~tajmahal.GameState` stores compact indices; these helpers
translate so a test reads like the rule it checks::

    state = situation(
        start(),
        hands={0: ["red:elephant+vizier", "white:monk"], 1: ["green:monk+princess"]},
        table={2: ["yellow:vizier+monk"]},
        normal_palaces={"p5a": 1},
    )
    state = play(state, "play red:elephant+vizier white:monk", "withdraw")

Seats not mentioned in a mapping keep their current value.  Setting a hand also
clears what is publicly known about it (``known``), so views stay consistent.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

import tajmahal as tm
from helpers import line_components
from tajmahal.rules.components import INFLUENCE, Card, Color, Components, Symbol
from tajmahal.rules.moves import move_from_text
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import tables

__all__ = [
    "at_visit",
    "bonus_index",
    "card",
    "city",
    "finish_takes",
    "kind",
    "kinds",
    "line",
    "move",
    "play",
    "situation",
    "start",
]


def card(text: str) -> Card:
    """The card written ``text`` (``"red:elephant+vizier"``, ``"special:points"``)."""
    return Card.parse(text)


def kind(state: GameState, text: str) -> int:
    """The kind index (into ``components.card_kinds``) of the card written ``text``."""
    return tables(state.components).kind_of[card(text)]


def kinds(state: GameState, texts: Iterable[str]) -> tuple[int, ...]:
    """Kind indices of several card texts, sorted as the engine keeps hands and piles."""
    return tuple(sorted(kind(state, t) for t in texts))


def city(state: GameState, city_id: str) -> int:
    """The index of city ``city_id`` (into ``components.board.cities``)."""
    return tables(state.components).city_of[city_id]


def move(text: str) -> tm.Move:
    """The move written ``text`` (``"play red:monk+princess white:elephant"``, ``"palace p1a"``)."""
    return move_from_text(text)


def play(state: GameState, *texts: str) -> GameState:
    """Apply moves given as text, one after another, each by the seat whose turn it is."""
    for text in texts:
        state = state.apply(move(text))
    return state


def finish_takes(state: GameState) -> GameState:
    """Take supply cards (the first legal one each time) until no card is owed (F2)."""
    while state.phase is tm.Phase.TAKE:
        state = state.apply(state.legal_moves()[0])
    return state


@functools.cache
def line() -> Components:
    """The synthetic 12-province line board of ``helpers.line_components``, parsed once."""
    return line_components()


def start(
    num_players: int = 3,
    seed: int = 1,
    components: Components | None = None,
    first_player: int = 0,
) -> GameState:
    """A new game on the synthetic line board (``helpers.line_components``) by default."""
    comps = components if components is not None else line()
    return tm.new_game(num_players, seed, comps, first_player)


def at_visit(state: GameState, visit: int, province: str | None = None) -> GameState:
    """Move the game to ``visit`` (so province tile number ``visit`` is in play, K5).

    ``province``, if given, is swapped into that visit's slot of the province
    order.  The visit's starting player (E3) becomes the current player.
    """
    t = tables(state.components)
    order = list(state.province_order)
    if province is not None:
        target = t.province_of[province]
        here = order.index(target)
        order[here], order[visit - 1] = order[visit - 1], order[here]
    return attrs.evolve(
        state,
        visit=visit,
        province_order=tuple(order),
        current_player=(state.first_player + visit - 1) % state.num_players,
    )


def bonus_index(state: GameState, label: str, skip: int = 0) -> int:
    """The index of the (``skip``+1)-th bonus tile whose ``str`` is ``label``.

    Labels: ``"+4"`` (Taj Mahal), ``"+2"``, ``"+1 card"``, or a commodity (``"tea"``).
    """
    found = [i for i, t in enumerate(state.components.bonus_tiles) if str(t) == label]
    return found[skip]


def _per_seat(
    current: tuple[Any, ...], given: Mapping[int, Any] | Sequence[Any] | None, convert: Any
) -> tuple[Any, ...]:
    if given is None:
        return current
    items = given.items() if isinstance(given, Mapping) else enumerate(given)
    values = list(current)
    for seat, value in items:
        values[seat] = convert(value)
    return tuple(values)


def _per_city(
    state: GameState, current: tuple[int, ...], given: Mapping[str, int] | None
) -> tuple[int, ...]:
    if given is None:
        return current
    values = list(current)
    for city_id, value in given.items():
        values[city(state, city_id)] = value
    return tuple(values)


def situation(
    state: GameState,
    *,
    hands: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    table: Mapping[int, Sequence[str]] | Sequence[Sequence[str]] | None = None,
    visit_colors: Mapping[int, str | None] | None = None,
    withdrawn: Mapping[int, bool] | None = None,
    supply: Sequence[str] | None = None,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] | None = None,
    scores: Mapping[int, int] | Sequence[int] | None = None,
    normal_palaces: Mapping[str, int] | None = None,
    crown_palaces: Mapping[str, int] | None = None,
    bonus: Mapping[str, str | None] | None = None,
    province_tiles: Mapping[int, Sequence[int]] | None = None,
    commodity_tiles: Mapping[int, Sequence[str]] | None = None,
    influence: Mapping[int, Mapping[str, int]] | None = None,
    court: Iterable[str] | None = None,
    current_player: int | None = None,
) -> GameState:
    """``state`` with the given parts replaced (everything else unchanged).

    - ``hands``/``table``: card texts per seat (``table`` in play order);
    - ``visit_colors``: ``"red"`` etc. or ``None`` per seat;
    - ``deck``: card texts, the **last** one is the top card;
    - ``normal_palaces``/``crown_palaces``: city id -> owner seat (-1 removes);
    - ``bonus``: city id -> bonus tile label (see :func:`bonus_index`) or ``None``;
      repeated labels get distinct tiles, and tiles not already in use elsewhere;
    - ``province_tiles``: tile numbers per seat; ``commodity_tiles``: commodity
      names per seat (each gets a distinct commodity bonus tile);
    - ``influence``: per seat, influence symbol name -> tiles held;
    - ``court``: what is in the court, from ``"vizier"``, ``"general"``, ``"monk"``,
      ``"princess"``, ``"crown"`` and ``"province"``.
    """
    changes: dict[str, Any] = {}
    if hands is not None:
        changes["hands"] = _per_seat(state.hands, hands, lambda v: kinds(state, v))
        changes["known"] = _per_seat(state.known, hands, lambda v: ())
    if table is not None:
        changes["table"] = _per_seat(state.table, table, lambda v: tuple(kind(state, c) for c in v))
    if visit_colors is not None:
        changes["visit_colors"] = _per_seat(
            state.visit_colors, visit_colors, lambda v: None if v is None else Color(v)
        )
    if withdrawn is not None:
        changes["withdrawn"] = _per_seat(state.withdrawn, withdrawn, bool)
    if supply is not None:
        changes["supply"] = kinds(state, supply)
    if deck is not None:
        changes["deck"] = tuple(kind(state, c) for c in deck)
    if discard is not None:
        changes["discard"] = kinds(state, discard)
    if scores is not None:
        changes["scores"] = _per_seat(state.scores, scores, int)
    changes["normal_palaces"] = _per_city(state, state.normal_palaces, normal_palaces)
    changes["crown_palaces"] = _per_city(state, state.crown_palaces, crown_palaces)
    used: set[int] = set()
    if commodity_tiles is not None:
        owned = list(state.commodity_tiles)
        for seat, names in commodity_tiles.items():
            owned[seat] = tuple(_free_tile(state, name, used) for name in names)
        changes["commodity_tiles"] = tuple(owned)
    if bonus is not None:
        tiles = list(state.bonus)
        for city_id, label in bonus.items():
            tiles[city(state, city_id)] = -1 if label is None else _free_tile(state, label, used)
        changes["bonus"] = tuple(tiles)
    if province_tiles is not None:
        changes["province_tiles"] = _per_seat(state.province_tiles, province_tiles, tuple)
    if influence is not None:
        changes["influence"] = _per_seat(
            state.influence,
            influence,
            lambda held: tuple(held.get(s.value, 0) for s in INFLUENCE),
        )
    if court is not None:
        inside = set(court)
        changes["court_influence"] = tuple(s.value in inside for s in INFLUENCE)
        changes["court_crown"] = "crown" in inside
        changes["court_province_tile"] = "province" in inside
    if current_player is not None:
        changes["current_player"] = current_player
    return attrs.evolve(state, **changes)


def _free_tile(state: GameState, label: str, used: set[int]) -> int:
    """A bonus tile with this label, not yet handed out by this call nor already owned."""
    owned = {i for tiles in state.commodity_tiles for i in tiles}
    for skip in range(len(state.components.bonus_tiles)):
        try:
            index = bonus_index(state, label, skip)
        except IndexError:
            break
        if index not in used and index not in owned:
            used.add(index)
            return index
    raise ValueError(f"no free bonus tile labelled {label!r}")


#: every symbol's name, for tests that loop over them
SYMBOL_NAMES: tuple[str, ...] = tuple(s.value for s in Symbol)
