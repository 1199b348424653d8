"""The parts of a view, converted from a state's compact fields, and the memo that shares them.

:func:`tajmahal.rules.views.make_view` keeps, on each state it views, a
:class:`Memo` of the parts it converted and the fields they came from; the
next state inherits it (:func:`~tajmahal.rules.snapshot.evolve`), and its view
converts again only the fields that are not the very same objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tajmahal.rules.components import (
    INFLUENCE,
    BonusTile,
    Card,
    Commodity,
    Components,
    ProvinceTile,
    Special,
    Symbol,
)
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.tables import COMMODITIES, SPECIALS, Tables

if TYPE_CHECKING:  # annotations only: the state module imports the views, which import this
    from tajmahal.rules.state import GameState

__all__ = ["Memo", "Palaces", "Public", "per_seat", "with_specials"]

Palaces = FrozenMap[str, tuple[int | None, int | None]]

_NONE: Any = object()  #: stands for a field no state has: nothing is the same object


class Public:
    """The parts of a view that change only a few times a visit, with the fields they come from."""

    __slots__ = (
        "bonus",
        "bonus_tiles",
        "commodity_tiles",
        "court",
        "court_influence",
        "crown",
        "influence",
        "influence_tiles",
        "normal",
        "owned_commodities",
        "owned_provinces",
        "palaces",
        "province_order",
        "province_tiles",
        "provinces",
        "special_holder",
        "specials",
    )

    provinces: tuple[int, ...]
    province_order: tuple[str, ...]
    court: tuple[bool, ...]
    court_influence: frozenset[Symbol]
    normal: tuple[int, ...]
    crown: tuple[int, ...]
    palaces: Palaces
    bonus: tuple[int, ...]
    bonus_tiles: FrozenMap[str, BonusTile]
    owned_provinces: tuple[tuple[int, ...], ...]
    province_tiles: tuple[tuple[ProvinceTile, ...], ...]
    owned_commodities: tuple[tuple[int, ...], ...]
    commodity_tiles: tuple[tuple[Commodity, ...], ...]
    influence: tuple[tuple[int, ...], ...]
    influence_tiles: tuple[tuple[Symbol, ...], ...]
    specials: tuple[int, ...]
    special_holder: FrozenMap[Special, int | None]

    def __init__(self, state: GameState, t: Tables, old: Public | None) -> None:
        """Convert the fields of ``state``, reusing each part of ``old`` whose field is the same."""
        comps = state.components
        raw: Any
        self.provinces = raw = state.province_order
        self.province_order = (
            old.province_order
            if old is not None and raw is old.provinces
            else tuple(map(t.province_ids.__getitem__, raw))
        )
        self.court = raw = state.court_influence
        self.court_influence = (
            old.court_influence
            if old is not None and raw is old.court
            else frozenset(s for s, here in zip(INFLUENCE, raw, strict=True) if here)
        )
        self.normal, self.crown = normal, crown = state.normal_palaces, state.crown_palaces
        if old is None:
            self.palaces = _palaces(normal, crown, t.city_ids)
        elif normal is old.normal and crown is old.crown:
            self.palaces = old.palaces
        else:
            self.palaces = _changed_palaces(old, normal, crown, t.city_ids)
        self.bonus = raw = state.bonus
        self.bonus_tiles = (
            old.bonus_tiles
            if old is not None and raw is old.bonus
            else _bonus_tiles(raw, t, comps)
        )
        self.owned_provinces = raw = state.province_tiles
        self.province_tiles = (
            old.province_tiles
            if old is not None and raw is old.owned_provinces
            else _province_tiles(raw, comps)
        )
        self.owned_commodities = raw = state.commodity_tiles
        self.commodity_tiles = (
            old.commodity_tiles
            if old is not None and raw is old.owned_commodities
            else _commodity_tiles(raw, t)
        )
        self.influence = raw = state.influence
        self.influence_tiles = (
            old.influence_tiles
            if old is not None and raw is old.influence
            else _influence_tiles(raw)
        )
        self.specials = raw = state.special_holder
        self.special_holder = (
            old.special_holder
            if old is not None and raw is old.specials
            else _special_holder(raw)
        )

    def matches(self, state: GameState) -> bool:
        """Is every field these parts come from the very same object in ``state``?"""
        return (
            state.normal_palaces is self.normal
            and state.crown_palaces is self.crown
            and state.bonus is self.bonus
            and state.court_influence is self.court
            and state.influence is self.influence
            and state.special_holder is self.specials
            and state.province_tiles is self.owned_provinces
            and state.commodity_tiles is self.owned_commodities
            and state.province_order is self.provinces
        )


class Memo:
    """What a state hands on to the next for its views: converted parts and their fields.

    Each pair is ``(field, converted)``.  A bot never sees the memo, only the
    (immutable) converted values.
    """

    __slots__ = (
        "components",
        "discard",
        "hand_cards",
        "hands",
        "holders",
        "known",
        "public",
        "supply",
        "table",
    )

    components: Components
    public: Public | None
    supply: tuple[Any, tuple[Card, ...]]
    discard: tuple[Any, tuple[Card, ...]]
    table: tuple[tuple[Any, ...], tuple[tuple[Card, ...], ...]]
    hands: tuple[Any, ...]  #: the hands field
    hand_cards: tuple[tuple[Card, ...] | None, ...]  #: per seat, converted if it was viewed
    holders: Any  #: the special_holder field the known cards were converted with
    known: tuple[tuple[Any, ...], tuple[tuple[Card, ...], ...]]

    def __reduce__(self) -> tuple[type[None], tuple[()]]:
        return type(None), ()  # a cache: a pickled state carries none (it unpickles as None)

    @classmethod
    def blank(cls, comps: Components, n: int) -> Memo:
        """A memo that matches nothing (for a state without one)."""
        memo = cls()
        memo.components, memo.public, memo.holders = comps, None, _NONE
        memo.supply = memo.discard = (_NONE, ())
        nothing = (_NONE,) * n
        memo.table = memo.known = nothing, ((),) * n
        memo.hands, memo.hand_cards = nothing, (None,) * n
        return memo


def per_seat(
    raw: tuple[Any, ...],
    old: tuple[tuple[Any, ...], tuple[Any, ...]],
    convert: Callable[[Any], Any],
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``(raw, converted)`` for a per-seat field, reusing each seat's old value where unchanged."""
    old_raw, old_values = old
    if raw is old_raw:
        return old
    return raw, tuple(
        [v if r is o else convert(r) for r, o, v in zip(raw, old_raw, old_values, strict=True)]
    )


def _palaces(normal: tuple[int, ...], crown: tuple[int, ...], city_ids: tuple[str, ...]) -> Palaces:
    """city id -> (normal palace owner, crown palace owner), None for nobody."""
    owners = zip(map(_owner, normal), map(_owner, crown), strict=True)
    return FrozenMap._own(dict(zip(city_ids, owners, strict=True)))


def _changed_palaces(
    old: Public, normal: tuple[int, ...], crown: tuple[int, ...], city_ids: tuple[str, ...]
) -> Palaces:
    """The old palaces map with the cities whose palaces changed (one or two a withdrawal)."""
    data = dict(old.palaces._data)
    changes = zip(normal, crown, old.normal, old.crown, strict=True)
    for i, (n, c, old_n, old_c) in enumerate(changes):
        if n != old_n or c != old_c:
            data[city_ids[i]] = (_owner(n), _owner(c))
    return FrozenMap._own(data)


def with_specials(
    state: GameState, t: Tables, seat: int, known: tuple[int, ...]
) -> tuple[int, ...]:
    """``known`` plus the special cards ``seat`` holds in hand (who holds which is public)."""
    holders = state.special_holder
    if seat not in holders:
        return known
    hand = state.hands[seat]
    held = [
        k
        for k, holder in zip(t.special_kinds, holders, strict=True)
        if holder == seat and k in hand
    ]
    return tuple(sorted(known + tuple(held))) if held else known


def _bonus_tiles(bonus: tuple[int, ...], t: Tables, comps: Components) -> FrozenMap[str, BonusTile]:
    """city id -> the bonus tile still on it."""
    city_ids, bonus_tiles = t.city_ids, comps.bonus_tiles
    return FrozenMap({city_ids[i]: bonus_tiles[b] for i, b in enumerate(bonus) if b >= 0})


def _province_tiles(
    owned: tuple[tuple[int, ...], ...], comps: Components
) -> tuple[tuple[ProvinceTile, ...], ...]:
    """Per seat, the province tiles owned (by number)."""
    tiles = comps.province_tiles
    return tuple(tuple([tiles[n - 1] for n in mine]) if mine else () for mine in owned)


def _commodity_tiles(
    owned: tuple[tuple[int, ...], ...], t: Tables
) -> tuple[tuple[Commodity, ...], ...]:
    """Per seat, the commodities of the commodity bonus tiles owned."""
    return tuple(
        tuple([COMMODITIES[t.bonus_commodity[i]] for i in mine]) if mine else () for mine in owned
    )


def _influence_tiles(influence: tuple[tuple[int, ...], ...]) -> tuple[tuple[Symbol, ...], ...]:
    """Per seat, one symbol per influence tile held."""
    return tuple(
        tuple([s for s, n in zip(INFLUENCE, held, strict=True) for _ in range(n)])
        if any(held)
        else ()
        for held in influence
    )


def _special_holder(holders: tuple[int, ...]) -> FrozenMap[Special, int | None]:
    """Special -> the seat holding it, None beside the board."""
    return FrozenMap._own(dict(zip(SPECIALS, map(_owner, holders), strict=True)))


def _owner(seat: int) -> int | None:
    return None if seat < 0 else seat
