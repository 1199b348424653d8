"""The view document's JSON text, written directly: :func:`tajmahal.dumps`'s fast path.

A view is written once per decision for every bot program, so :func:`view_json`
writes the very text that the general writer
(``json.dumps(converter.unstructure(document(view)))``) gives, without the
intermediate document object and cattrs' per-field dispatch.  The texts of the
cards and bonus tiles of one set of components, and of the enums, are made
once; and as successive views share the parts that did not change (the very
same objects, see
:func:`tajmahal.rules.views.make_view`), each such part's last JSON text is
kept and reused while the part is the same object.  A part of a foreign type
(a view built by hand) makes it raise ``KeyError``, ``TypeError`` or
``AttributeError``: :func:`tajmahal.dumps` then uses the general writer.
``tests/test_serialize.py`` checks that both writers agree.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring
from typing import Any, TypeVar

from tajmahal.rules.components import (
    INFLUENCE,
    BonusTile,
    Card,
    Color,
    Commodity,
    Components,
    Special,
    Symbol,
)
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.tables import SPECIALS
from tajmahal.rules.views import PlayerView
from tajmahal.serialize._components import tile_text
from tajmahal.serialize._converter import converter
from tajmahal.serialize._documents import PREFIX, VERSIONS

__all__ = ["view_json"]

T = TypeVar("T")

#: JSON text of any data (the separators and options of tm.dumps)
encode: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
_HEAD = f'{{"format": {encode(PREFIX + "view")}, "version": {VERSIONS["view"]}, "components": '
_PHASE = {id(phase): encode(phase.value) for phase in Phase}
_COLOR = {id(color): encode(color.value) for color in Color} | {id(None): "null"}
#: id(member) -> its value's JSON text, for the enums of the tiles' parts
_VALUE = {id(item): encode(item.value) for kind in (Symbol, Commodity) for item in kind}
_INFLUENCE = [(id(symbol), encode(symbol.value)) for symbol in INFLUENCE]  # in document order
_NOBODY = (None, None)
_SPECIAL_KEYS = [(id(special), encode(special.value)) for special in SPECIALS]


class _Texts:
    """What one set of components writes the same way every time."""

    def __init__(self, comps: Components) -> None:
        self.components = encode(converter.unstructure(comps))
        # by id: the components keep their cards alive, and Card's hash is a Python method
        self.card: dict[int, str] = {id(card): encode(str(card)) for card in comps.card_kinds}
        self.tile: dict[int, str] = {
            id(tile): encode(tile_text(tile)) for tile in comps.bonus_tiles
        }

    def bonus(self, tiles: Mapping[str, BonusTile]) -> str:
        tile = self.tile
        return "{" + ", ".join([
            f"{encode_basestring(city)}: {tile[id(each)]}" for city, each in tiles.items()
        ]) + "}"  # fmt: skip


_TEXTS: dict[int, tuple[Components, _Texts]] = {}  # id(components) -> (components, texts)


def _texts(comps: Components) -> _Texts:
    entry = _TEXTS.get(id(comps))
    if entry is None or entry[0] is not comps:
        if len(_TEXTS) >= 32:  # bounded, as the tables of tajmahal.rules.tables
            _TEXTS.clear()
        entry = _TEXTS[id(comps)] = comps, _Texts(comps)
    return entry[1]


def view_json(v: PlayerView) -> str:
    """The JSON text of the view document of ``v``, as ``tm.dumps(v)`` writes it.

    >>> import json, tajmahal as tm
    >>> from tajmahal.serialize import converter
    >>> from tajmahal.serialize._documents import document
    >>> view = tm.new_game(num_players=3, seed=1).view(0)
    >>> view_json(view) == json.dumps(converter.unstructure(document(view)), ensure_ascii=False)
    True
    """
    texts = _texts(v.components)
    card = texts.card.__getitem__

    def cards(cs: tuple[Card, ...]) -> str:
        return "[" + ", ".join(map(card, map(id, cs))) + "]"

    def per_seat(css: tuple[tuple[Card, ...], ...]) -> str:
        return "[" + ", ".join([cards(cs) for cs in css]) + "]"

    court_tile = v.court_province_tile
    return "".join([
        _HEAD, texts.components,
        ', "seat": ', _int(v.seat),
        ', "num_players": ', _int(v.num_players),
        ', "first_player": ', _int(v.first_player),
        ', "visit": ', _int(v.visit),
        ', "province": ', encode_basestring(v.province),
        ', "province_order": ', _same("province_order", v.province_order, _strings),
        ', "phase": ', _PHASE[id(v.phase)],
        ', "current_player": ', "null" if v.current_player is None else _int(v.current_player),
        ', "hand": ', cards(v.hand),
        ', "hand_sizes": ', _ints(v.hand_sizes),
        ', "scores": ', _ints(v.scores),
        ', "table": ', _same("table", v.table, per_seat),
        ', "withdrawn": [', ", ".join(map(_bool, v.withdrawn)),
        '], "visit_colors": [', ", ".join(map(_COLOR.__getitem__, map(id, v.visit_colors))),
        '], "supply": ', cards(v.supply),
        ', "deck_size": ', _int(v.deck_size),
        ', "discard": ', _same("discard", v.discard, cards),
        ', "reshuffles": ', _int(v.reshuffles),
        ', "court_influence": ', _same("court_influence", v.court_influence, _court),
        ', "court_crown": ', _bool(v.court_crown),
        ', "court_province_tile": ', "null" if court_tile is None else _int(court_tile.number),
        ', "palaces": ', _same("palaces", v.palaces, _palaces),
        ', "bonus_tiles": ', _same("bonus_tiles", v.bonus_tiles, texts.bonus),
        ', "province_tiles": ', _same("province_tiles", v.province_tiles, _numbers),
        ', "commodity_tiles": ', _same("commodity_tiles", v.commodity_tiles, _values),
        ', "influence_tiles": ', _same("influence_tiles", v.influence_tiles, _values),
        ', "special_holder": ', _same("special_holder", v.special_holder, _holders),
        ', "known_cards": ', _same("known_cards", v.known_cards, per_seat),
        ', "pending_palaces": ', _int(v.pending_palaces),
        ', "pending_crown": ', _bool(v.pending_crown),
        ', "pending_takes": ', _int(v.pending_takes),
        ', "pending_province": ', _bool(v.pending_province),
        "}",
    ])  # fmt: skip


def _int(value: int) -> str:
    if type(value) is not int:
        raise TypeError("not an int")  # a bool or a foreign object: the general writer
    return str(value)


def _bool(value: bool) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    raise TypeError("not a bool")


def _ints(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(_int, values)) + "]"


# Each such part's last value and its JSON text, reused while the part is the same object
# (kept here, so that it stays alive and its identity means the same value).
_LAST: dict[str, tuple[object, str]] = {}


def _same(part: str, value: T, write: Callable[[T], str]) -> str:
    last = _LAST.get(part)
    if last is not None and last[0] is value:
        return last[1]
    text = write(value)
    _LAST[part] = (value, text)  # one tuple: a reader in another thread sees both or neither
    return text


def _strings(values: tuple[str, ...]) -> str:
    return encode(list(values))


def _owner(seat: int | None) -> str:
    return "null" if seat is None else _int(seat)


def _court(symbols: frozenset[Symbol]) -> str:
    held = {id(symbol) for symbol in symbols}  # by id: Enum's hash is a Python method
    return "[" + ", ".join([text for key, text in _INFLUENCE if key in held]) + "]"


def _palaces(palaces: Mapping[str, tuple[int | None, int | None]]) -> str:
    written = []
    for city, owners in palaces.items():
        if owners == _NOBODY:  # most cities
            continue
        if type(owners) is not tuple or len(owners) != 2:
            raise TypeError("not a pair of owners")
        normal, crown = owners
        written.append(f"{encode_basestring(city)}: [{_owner(normal)}, {_owner(crown)}]")
    return "{" + ", ".join(written) + "}"


def _numbers(per_seat: tuple[tuple[Any, ...], ...]) -> str:
    return "[" + ", ".join([
        "[" + ", ".join([_int(tile.number) for tile in tiles]) + "]" for tiles in per_seat
    ]) + "]"  # fmt: skip


def _values(per_seat: tuple[tuple[enum.Enum, ...], ...]) -> str:
    value = _VALUE.__getitem__
    return "[" + ", ".join([
        "[" + ", ".join(map(value, map(id, items))) + "]" for items in per_seat
    ]) + "]"  # fmt: skip


def _holders(holder: Mapping[Special, int | None]) -> str:
    seats = {id(special): seat for special, seat in holder.items()}
    return "{" + ", ".join([
        f"{key}: {_owner(seats.get(ident))}" for ident, key in _SPECIAL_KEYS
    ]) + "}"  # fmt: skip
