"""Components in documents: ``"standard"`` for the standard set, the whole set otherwise.

Embedded components have the shape of a components file, so reading them
validates them as loading a file does.  Also here: the texts that documents
use for cards and bonus tiles, looked up once per set of components.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from tajmahal.rules.components import (
    MAX_COUNT,
    BonusKind,
    BonusTile,
    Components,
    components_from_data,
    standard_components,
)
from tajmahal.rules.errors import ComponentsError
from tajmahal.serialize._converter import Invalid, converter, show

Doc = dict[str, Any]


def _standard() -> Components | None:
    try:
        return standard_components()
    except ComponentsError:
        return None


#: components seen, so equal components loaded again are the same object (fast lookups)
_INTERNED: dict[Components, Components] = {}


def _intern(comps: Components) -> Components:
    if len(_INTERNED) > 64:
        _INTERNED.clear()
    return _INTERNED.setdefault(comps, comps)


@functools.lru_cache(maxsize=16)
def _components_ref(comps: Components) -> str | Doc:
    if comps == _standard():
        return "standard"
    _intern(comps)
    return _components_data(comps)


def _runs(items: Sequence[Any]) -> list[tuple[Any, int]]:
    """Consecutive equal items as (item, count), in order.

    >>> _runs("aabca")
    [('a', 2), ('b', 1), ('c', 1), ('a', 1)]
    """
    runs: list[tuple[Any, int]] = []
    for item in items:
        if runs and runs[-1][0] == item:
            runs[-1] = (item, runs[-1][1] + 1)
        else:
            runs.append((item, 1))
    return runs


def _bonus_entry(tile: BonusTile, count: int) -> Doc:
    entry: Doc = {"kind": tile.kind.value}
    if tile.kind is BonusKind.COMMODITY and tile.commodity is not None:
        entry["commodity"] = tile.commodity.value
    if tile.kind in (BonusKind.TAJ_MAHAL, BonusKind.POINTS):
        entry["points"] = tile.points
    entry["count"] = count
    return entry


def _components_data(comps: Components) -> Doc:
    """The components as the tables of a components file (so loading validates them the same)."""
    board = comps.board
    return {
        "name": comps.name,
        "influence_tiles_per_symbol": comps.influence_tiles_per_symbol,
        "cards": [
            {"color": c.color.value, "symbols": [s.value for s in c.symbols], "count": n}
            for c, n in _runs(comps.deck)
        ],
        "special_cards": [
            {"special": special.value, "earned_by": symbol.value}
            for symbol, special in comps.special_earned_by
        ],
        "province_tiles": [
            {"number": p.number, "commodities": [c.value for c in p.commodities]}
            for p in comps.province_tiles
        ],
        "bonus_tiles": [_bonus_entry(tile, n) for tile, n in _runs(comps.bonus_tiles)],
        "board": {
            "final_province": board.final_province,
            "taj_mahal_city": board.taj_mahal_city,
            "provinces": [{"id": p.id, "name": p.name} for p in board.provinces],
            "cities": [
                {
                    "id": c.id,
                    "name": c.name,
                    "province": c.province,
                    "fortress": c.fortress,
                    "x": c.x,
                    "y": c.y,
                }
                for c in board.cities
            ],
            "roads": [[a, b] for a, b in board.roads],
        },
    }


#: embedded components already read, by the repr of their JSON value (exact for JSON data)
_EMBEDDED: dict[str, Components] = {}


def _embedded(data: Doc) -> Components:
    key = repr(data)
    comps = _EMBEDDED.get(key)
    if comps is not None:
        return comps
    for section in ("cards", "bonus_tiles"):
        entries = data.get(section)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            count = entry.get("count") if isinstance(entry, dict) else None
            if type(count) is int and count > MAX_COUNT:
                raise Invalid(f"{section}[{i}].count: {count} is too many (at most {MAX_COUNT})")
    try:
        comps = _intern(components_from_data(data, source=""))
    except ComponentsError as exc:
        raise Invalid(f"invalid components: {str(exc).removeprefix(': ')}") from None
    if len(_EMBEDDED) > 16:
        _EMBEDDED.clear()
    _EMBEDDED[key] = comps
    return comps


def _structure_components(value: Any, _: Any) -> Components:
    if value == "standard":
        comps = _standard()
        if comps is None:
            raise Invalid("the standard components cannot be loaded in this installation")
        return comps
    if type(value) is not dict:
        raise Invalid(f"expected 'standard' or an object of components, got {show(value)}")
    return _embedded(value)


converter.register_structure_hook(Components, _structure_components)
converter.register_unstructure_hook(Components, _components_ref)


# ---------------------------------------------------------------------------- texts


def tile_text(tile: BonusTile) -> str:
    """``taj_mahal``, ``points:2``, ``card`` or ``commodity:rice``.

    >>> from tajmahal.rules.components import BonusKind, BonusTile, Commodity
    >>> tile_text(BonusTile(BonusKind.COMMODITY, commodity=Commodity.RICE))
    'commodity:rice'
    """
    if tile.kind is BonusKind.POINTS:
        return f"points:{tile.points}"
    if tile.kind is BonusKind.COMMODITY and tile.commodity is not None:
        return f"commodity:{tile.commodity.value}"
    return str(tile.kind.value)


@functools.lru_cache(maxsize=32)
def card_texts(comps: Components) -> tuple[str, ...]:
    """The text of each card kind."""
    return tuple(str(card) for card in comps.card_kinds)


@functools.lru_cache(maxsize=32)
def text_kinds(comps: Components) -> dict[str, int]:
    """Card text -> card kind."""
    return {text: kind for kind, text in enumerate(card_texts(comps))}


@functools.lru_cache(maxsize=32)
def tile_indices(comps: Components) -> dict[str, int]:
    """Bonus tile text -> index of the first such tile (the engine's canonical index)."""
    indices: dict[str, int] = {}
    for i, tile in enumerate(comps.bonus_tiles):
        indices.setdefault(tile_text(tile), i)
    return indices
