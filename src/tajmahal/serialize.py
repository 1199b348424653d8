"""JSON documents for states, views, moves and game records (DESIGN.md, "Serialization").

Every document is a JSON object that starts with its kind and format version::

    {"format": "tajmahal/state", "version": 1, "components": "standard", ...}

Kinds: ``state`` (:class:`~tajmahal.GameState`), ``view``
(:class:`~tajmahal.PlayerView`), ``move`` (any move) and ``record``
(:class:`~tajmahal.GameRecord`).  The values are readable: cards as their
text (``"red:elephant+vizier"``), enums as their values (``"play"``,
``"vizier"``), cities and provinces as ids, seats as ints (``null`` for
nobody), moves in the notation of :mod:`tajmahal.rules.moves`.  The standard
components are referenced by name (``"components": "standard"``); any other
components are embedded in full, in the shape of a components TOML file, so a
document is self-contained.

- A state document has one key per :class:`~tajmahal.GameState` field:
  per-city fields map city ids to values and list only cities that hold
  something (``normal_palaces``, ``crown_palaces``: owner seats; ``bonus``:
  bonus tile texts such as ``"commodity:rice"``, ``"points:2"``, ``"card"``,
  ``"taj_mahal"``); ``influence`` and ``court_influence`` list symbols;
  ``commodity_tiles`` lists commodities; ``special_holder`` maps every special
  card to a seat or ``null``; ``deck`` lists the draw deck, top card last.
- A view document has one key per :class:`~tajmahal.PlayerView` field, with
  ``palaces`` mapping the cities that hold a palace to ``[normal, crown]``
  owners and ``court_province_tile`` the tile's number or ``null``.  It holds
  only what the view's seat may see (RULES.md I1–I4).
- A move document is ``{"format": "tajmahal/move", "version": 1, "move": "withdraw"}``.
- A record document holds ``num_players``, ``seed``, ``first_player``,
  ``players``, ``moves`` (texts), ``scores`` and ``winners`` (``null`` before the end).

:func:`dumps` is deterministic (the same object gives the same text).
:func:`loads` trusts nothing: any problem raises :class:`~tajmahal.FormatError`
naming the JSON path (``$.hands[2][0]``) and what is wrong, and a loaded
state, view or record is checked as strictly as the engine's own (impossible
states are rejected, records are replayed).
"""

from __future__ import annotations

import enum
import functools
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NewType, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

from tajmahal.game import GameRecord
from tajmahal.rules.components import (
    COLORED,
    INFLUENCE,
    MAX_COUNT,
    BonusKind,
    BonusTile,
    Card,
    Color,
    Commodity,
    Components,
    Special,
    Symbol,
    components_from_data,
    standard_components,
)
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS, new_game
from tajmahal.rules.errors import ComponentsError, FormatError, IllegalMoveError
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.moves import (
    Move,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
    Withdraw,
    move_from_text,
)
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import SPECIALS, Tables, tables
from tajmahal.rules.validate import InvalidStateError, Path, find_problems, format_path
from tajmahal.rules.views import PlayerView

__all__ = ["KINDS", "VERSION", "converter", "dumps", "loads"]

VERSION = 1
PREFIX = "tajmahal/"
#: the document kinds and the classes they hold
KINDS: dict[str, str] = {
    "state": "GameState",
    "view": "PlayerView",
    "move": "Move",
    "record": "GameRecord",
}
_MAX_LISTED = 8

Doc = dict[str, Any]


# ---------------------------------------------------------------------------- errors


class _Invalid(ValueError):
    """One problem with one JSON value (raised by the converter's hooks)."""


class _Nested(Exception):
    """Problems inside an array or object: (index or key, exception) pairs."""

    def __init__(self, children: list[tuple[str | int, BaseException]]) -> None:
        super().__init__(f"{len(children)} problem(s)")
        self.children = children


class _Failed(Exception):
    """Problems found while reading one document; becomes a FormatError at the boundary."""

    def __init__(self, problems: Sequence[tuple[Path, str]]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = list(problems)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    names.update({int: "an integer", float: "a number", type(None): "null"})
    return names.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    """A short text for a JSON value (containers by their type only: they may be huge)."""
    if isinstance(value, dict | list):
        return _json_type(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _walk(exc: BaseException, path: Path) -> list[tuple[Path, str]]:
    """The (path, message) problems inside an exception raised while structuring."""
    if isinstance(exc, _Nested):
        return [p for key, child in exc.children for p in _walk(child, (*path, key))]
    if isinstance(exc, ClassValidationError):
        found: list[tuple[Path, str]] = []
        with_notes, without = exc.group_exceptions()
        for child, note in with_notes:
            found += _walk(child, (*path, note.name))
        for child in without:
            found += _walk(child, path)
        return found
    if isinstance(exc, IterableValidationError):  # pragma: no cover - our hooks raise _Nested
        with_notes_i, without_i = exc.group_exceptions()
        found = [p for child, note in with_notes_i for p in _walk(child, (*path, note.index))]
        return found + [p for child in without_i for p in _walk(child, path)]
    if isinstance(exc, ForbiddenExtraKeysError):
        return [(path, f"unknown key(s) {', '.join(sorted(exc.extra_fields))}")]
    if isinstance(exc, KeyError):
        return [(path, "required key missing")]
    if isinstance(exc, _Invalid):
        return [(path, str(exc))]
    raise exc  # a bug in a hook: let the boundary report it


# ---------------------------------------------------------------------------- the converter

#: the one converter: strict JSON types in, documents out
converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)


def _strict(kind: type, name: str) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            shown = "" if isinstance(value, dict | list | None) else f" {_show(value)}"
            raise _Invalid(f"expected {name}, got {_json_type(value)}{shown}")
        return value

    return structure


converter.register_structure_hook(int, _strict(int, "an integer"))
converter.register_structure_hook(bool, _strict(bool, "a boolean"))
converter.register_structure_hook(str, _strict(str, "a string"))

E = TypeVar("E", bound=enum.Enum)


def _enum_hook(cls: type[E]) -> Callable[[Any, Any], E]:
    allowed = ", ".join(m.value for m in cls)
    what = cls.__name__.lower()

    def structure(value: Any, _: Any) -> E:
        if type(value) is str:
            try:
                return cls(value)
            except ValueError:
                pass
        raise _Invalid(f"unknown {what} {_show(value)}; allowed: {allowed}")

    return structure


for _enum in (Phase, Color, Symbol, Commodity, Special):
    converter.register_structure_hook(_enum, _enum_hook(_enum))
    converter.register_unstructure_hook(_enum, lambda member: member.value)


#: a card written as its text (``"red:elephant+vizier"``); read as text, checked by Card.parse
_CardText = NewType("_CardText", str)
_CARD_TEXTS: set[str] = set()  # texts known to parse, so each is parsed once


def _structure_card(value: Any, _: Any) -> _CardText:
    if type(value) is not str:
        raise _Invalid(f"expected a card such as 'red:elephant+vizier', got {_json_type(value)}")
    if value not in _CARD_TEXTS:
        try:
            Card.parse(value)
        except ValueError as exc:
            raise _Invalid(str(exc)) from None
        if len(_CARD_TEXTS) < 1000:  # real cards are few
            _CARD_TEXTS.add(value)
    return _CardText(value)


converter.register_structure_hook(_CardText, _structure_card)
converter.register_unstructure_hook_func(lambda t: t == list[_CardText], list)
converter.register_unstructure_hook_func(
    lambda t: t == list[list[_CardText]], lambda piles: [list(p) for p in piles]
)


@functools.lru_cache(maxsize=32)
def _card_texts(comps: Components) -> tuple[str, ...]:
    """The text of each card kind."""
    return tuple(str(card) for card in comps.card_kinds)


@functools.lru_cache(maxsize=32)
def _text_kinds(comps: Components) -> dict[str, int]:
    """Card text -> card kind."""
    return {text: kind for kind, text in enumerate(_card_texts(comps))}


@functools.lru_cache(maxsize=32)
def _tile_indices(comps: Components) -> dict[str, int]:
    """Bonus tile text -> index of the first such tile (the engine's canonical index)."""
    return {text: i for i, text in reversed(list(enumerate(map(_tile_text, comps.bonus_tiles))))}


def _is_list(t: Any) -> bool:
    return get_origin(t) is list


def _is_dict(t: Any) -> bool:
    return get_origin(t) is dict


def _list_hook(t: Any) -> Callable[[Any, Any], list[Any]]:
    (elem,) = get_args(t)
    handler = converter.get_structure_hook(elem)

    def structure(value: Any, _: Any) -> list[Any]:
        if type(value) is not list:
            raise _Invalid(f"expected an array, got {_json_type(value)}")
        out: list[Any] = []
        failed: list[tuple[str | int, BaseException]] = []
        for i, item in enumerate(value):
            try:
                out.append(handler(item, elem))
            except Exception as exc:  # collected with its index
                failed.append((i, exc))
        if failed:
            raise _Nested(failed)
        return out

    return structure


def _dict_hook(t: Any) -> Callable[[Any, Any], dict[Any, Any]]:
    key_type, value_type = get_args(t)
    key_handler = converter.get_structure_hook(key_type)
    value_handler = converter.get_structure_hook(value_type)

    def structure(value: Any, _: Any) -> dict[Any, Any]:
        if type(value) is not dict:
            raise _Invalid(f"expected an object, got {_json_type(value)}")
        out: dict[Any, Any] = {}
        failed: list[tuple[str | int, BaseException]] = []
        for key, item in value.items():
            try:
                out[key_handler(key, key_type)] = value_handler(item, value_type)
            except Exception as exc:  # collected with its key
                failed.append((key, exc))
        if failed:
            raise _Nested(failed)
        return out

    return structure


converter.register_structure_hook_factory(_is_list, _list_hook)
converter.register_structure_hook_factory(_is_dict, _dict_hook)


# -- components: a name for the standard set, the whole set otherwise


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
    """Consecutive equal items as (item, count), in order."""
    runs: list[tuple[Any, int]] = []
    for item in items:
        if runs and runs[-1][0] == item:
            runs[-1] = (item, runs[-1][1] + 1)
        else:
            runs.append((item, 1))
    return runs


def _components_data(comps: Components) -> Doc:
    """The components as the tables of a components file (so loading validates them the same)."""
    board = comps.board

    def bonus(tile: BonusTile, count: int) -> Doc:
        entry: Doc = {"kind": tile.kind.value}
        if tile.kind is BonusKind.COMMODITY and tile.commodity is not None:
            entry["commodity"] = tile.commodity.value
        if tile.kind in (BonusKind.TAJ_MAHAL, BonusKind.POINTS):
            entry["points"] = tile.points
        entry["count"] = count
        return entry

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
        "bonus_tiles": [bonus(tile, n) for tile, n in _runs(comps.bonus_tiles)],
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


def _embedded(data: dict[str, Any]) -> Components:
    key = repr(data)
    comps = _EMBEDDED.get(key)
    if comps is not None:
        return comps
    for section in ("cards", "bonus_tiles"):
        entries = data.get(section)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            count = entry.get("count") if isinstance(entry, dict) else None
            if type(count) is int and count > MAX_COUNT:
                raise _Invalid(f"{section}[{i}].count: {count} is too many (at most {MAX_COUNT})")
    try:
        comps = _intern(components_from_data(data, source=""))
    except ComponentsError as exc:
        raise _Invalid(f"invalid components: {str(exc).removeprefix(': ')}") from None
    if len(_EMBEDDED) > 16:
        _EMBEDDED.clear()
    _EMBEDDED[key] = comps
    return comps


def _structure_components(value: Any, _: Any) -> Components:
    if value == "standard":
        comps = _standard()
        if comps is None:
            raise _Invalid("the standard components cannot be loaded in this installation")
        return comps
    if type(value) is not dict:
        raise _Invalid(f"expected 'standard' or an object of components, got {_show(value)}")
    return _embedded(value)


converter.register_structure_hook(Components, _structure_components)
converter.register_unstructure_hook(Components, _components_ref)


# ---------------------------------------------------------------------------- documents


@attrs.define
class _StateDoc:
    """The shape of a state document (see the module docstring)."""

    format: str
    version: int
    components: Components
    seed: int
    num_players: int
    first_player: int
    visit: int
    phase: Phase
    current_player: int | None
    hands: list[list[_CardText]]
    table: list[list[_CardText]]
    withdrawn: list[bool]
    visit_colors: list[Color | None]
    supply: list[_CardText]
    deck: list[_CardText]
    discard: list[_CardText]
    reshuffles: int
    scores: list[int]
    province_order: list[str]
    normal_palaces: dict[str, int]
    crown_palaces: dict[str, int]
    bonus: dict[str, str]
    court_influence: list[Symbol]
    court_crown: bool
    court_province_tile: bool
    province_tiles: list[list[int]]
    commodity_tiles: list[list[Commodity]]
    influence: list[list[Symbol]]
    special_holder: dict[Special, int | None]
    known: list[list[_CardText]]
    pending_palaces: int
    pending_crown: bool
    pending_province: bool
    pending_takes: int


@attrs.define
class _ViewDoc:
    """The shape of a view document (see the module docstring)."""

    format: str
    version: int
    components: Components
    seat: int
    num_players: int
    first_player: int
    visit: int
    province: str
    province_order: list[str]
    phase: Phase
    current_player: int | None
    hand: list[_CardText]
    hand_sizes: list[int]
    scores: list[int]
    table: list[list[_CardText]]
    withdrawn: list[bool]
    visit_colors: list[Color | None]
    supply: list[_CardText]
    deck_size: int
    discard: list[_CardText]
    reshuffles: int
    court_influence: list[Symbol]
    court_crown: bool
    court_province_tile: int | None
    palaces: dict[str, list[int | None]]
    bonus_tiles: dict[str, str]
    province_tiles: list[list[int]]
    commodity_tiles: list[list[Commodity]]
    influence_tiles: list[list[Symbol]]
    special_holder: dict[Special, int | None]
    known_cards: list[list[_CardText]]
    pending_palaces: int
    pending_crown: bool
    pending_takes: int
    pending_province: bool


@attrs.define
class _MoveDoc:
    """The shape of a move document."""

    format: str
    version: int
    move: str


@attrs.define
class _RecordDoc:
    """The shape of a record document."""

    format: str
    version: int
    components: Components
    num_players: int
    seed: int
    first_player: int
    players: list[str]
    moves: list[str]
    scores: list[int] | None
    winners: list[int] | None


_DOCS: dict[str, type[Any]] = {
    "state": _StateDoc,
    "view": _ViewDoc,
    "move": _MoveDoc,
    "record": _RecordDoc,
}


def _symbols(counts: Sequence[int]) -> list[Symbol]:
    """Influence tile counts (INFLUENCE order) as the list of their symbols."""
    return [sym for sym, n in zip(INFLUENCE, counts, strict=True) for _ in range(n)]


def _owner(seat: int) -> int | None:
    return None if seat < 0 else seat


def _tile_text(tile: BonusTile) -> str:
    """``taj_mahal``, ``points:2``, ``card`` or ``commodity:rice``."""
    if tile.kind is BonusKind.POINTS:
        return f"points:{tile.points}"
    if tile.kind is BonusKind.COMMODITY and tile.commodity is not None:
        return f"commodity:{tile.commodity.value}"
    return str(tile.kind.value)


# ---------------------------------------------------------------------------- dumps


def dumps(obj: GameState | PlayerView | Move | GameRecord, *, indent: int | None = None) -> str:
    """The JSON document of a state, view, move or record (deterministic: same object, same text).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> text = tm.dumps(state)
    >>> text[:60]
    '{"format": "tajmahal/state", "version": 1, "components": "st'
    >>> tm.loads(text) == state
    True
    >>> tm.dumps(tm.Withdraw())
    '{"format": "tajmahal/move", "version": 1, "move": "withdraw"}'
    """
    if isinstance(obj, GameState):
        doc: Any = _state_doc(obj)
    elif isinstance(obj, PlayerView):
        doc = _view_doc(obj)
    elif isinstance(obj, (PlayCards, Withdraw, PlacePalace, PlaceCrownPalace, TakeCard)):
        doc = _MoveDoc(PREFIX + "move", VERSION, str(obj))
    elif isinstance(obj, GameRecord):
        doc = _record_doc(obj)
    else:
        raise FormatError(
            f"cannot serialise a {type(obj).__name__}: expected a GameState, PlayerView, "
            "GameRecord or move"
        )
    return json.dumps(
        converter.unstructure(doc), ensure_ascii=False, allow_nan=False, indent=indent
    )


def _state_doc(s: GameState) -> _StateDoc:
    t = tables(s.components)
    texts = _card_texts(s.components)

    def cards(ks: tuple[int, ...]) -> list[_CardText]:
        return [texts[k] for k in ks]  # type: ignore[misc]

    ids = t.city_ids
    bonus_tiles = s.components.bonus_tiles
    commodity: list[list[Commodity]] = [
        [c for i in owned if (c := bonus_tiles[i].commodity) is not None]
        for owned in s.commodity_tiles
    ]
    return _StateDoc(
        format=PREFIX + "state",
        version=VERSION,
        components=s.components,
        seed=s.seed,
        num_players=s.num_players,
        first_player=s.first_player,
        visit=s.visit,
        phase=s.phase,
        current_player=s.current_player,
        hands=[cards(h) for h in s.hands],
        table=[cards(h) for h in s.table],
        withdrawn=list(s.withdrawn),
        visit_colors=list(s.visit_colors),
        supply=cards(s.supply),
        deck=cards(s.deck),
        discard=cards(s.discard),
        reshuffles=s.reshuffles,
        scores=list(s.scores),
        province_order=[t.province_ids[p] for p in s.province_order],
        normal_palaces={ids[c]: o for c, o in enumerate(s.normal_palaces) if o >= 0},
        crown_palaces={ids[c]: o for c, o in enumerate(s.crown_palaces) if o >= 0},
        bonus={ids[c]: _tile_text(bonus_tiles[b]) for c, b in enumerate(s.bonus) if b >= 0},
        court_influence=[
            sym for sym, inside in zip(INFLUENCE, s.court_influence, strict=True) if inside
        ],
        court_crown=s.court_crown,
        court_province_tile=s.court_province_tile,
        province_tiles=[list(p) for p in s.province_tiles],
        commodity_tiles=commodity,
        influence=[_symbols(held) for held in s.influence],
        special_holder={
            sp: (None if h < 0 else h) for sp, h in zip(SPECIALS, s.special_holder, strict=True)
        },
        known=[cards(k) for k in s.known],
        pending_palaces=s.pending_palaces,
        pending_crown=s.pending_crown,
        pending_province=s.pending_province,
        pending_takes=s.pending_takes,
    )


def _view_doc(v: PlayerView) -> _ViewDoc:
    t = tables(v.components)
    texts = _card_texts(v.components)

    def cards(cs: tuple[Card, ...]) -> list[_CardText]:
        return [texts[t.kind_of[c]] for c in cs]  # type: ignore[misc]

    return _ViewDoc(
        format=PREFIX + "view",
        version=VERSION,
        components=v.components,
        seat=v.seat,
        num_players=v.num_players,
        first_player=v.first_player,
        visit=v.visit,
        province=v.province,
        province_order=list(v.province_order),
        phase=v.phase,
        current_player=v.current_player,
        hand=cards(v.hand),
        hand_sizes=list(v.hand_sizes),
        scores=list(v.scores),
        table=[cards(cs) for cs in v.table],
        withdrawn=list(v.withdrawn),
        visit_colors=list(v.visit_colors),
        supply=cards(v.supply),
        deck_size=v.deck_size,
        discard=cards(v.discard),
        reshuffles=v.reshuffles,
        court_influence=[s for s in INFLUENCE if s in v.court_influence],
        court_crown=v.court_crown,
        court_province_tile=None if v.court_province_tile is None else v.court_province_tile.number,
        palaces={c: list(p) for c, p in v.palaces.items() if p != (None, None)},
        bonus_tiles={c: _tile_text(tile) for c, tile in v.bonus_tiles.items()},
        province_tiles=[[p.number for p in ps] for ps in v.province_tiles],
        commodity_tiles=[list(cs) for cs in v.commodity_tiles],
        influence_tiles=[list(ss) for ss in v.influence_tiles],
        special_holder={sp: v.special_holder.get(sp) for sp in SPECIALS},
        known_cards=[cards(cs) for cs in v.known_cards],
        pending_palaces=v.pending_palaces,
        pending_crown=v.pending_crown,
        pending_takes=v.pending_takes,
        pending_province=v.pending_province,
    )


def _record_doc(r: GameRecord) -> _RecordDoc:
    return _RecordDoc(
        format=PREFIX + "record",
        version=VERSION,
        components=r.components,
        num_players=r.num_players,
        seed=r.seed,
        first_player=r.first_player,
        players=list(r.players),
        moves=[str(m) for m in r.moves],
        scores=None if r.scores is None else list(r.scores),
        winners=None if r.winners is None else list(r.winners),
    )


# ---------------------------------------------------------------------------- loads


def loads(text: str | bytes) -> GameState | PlayerView | Move | GameRecord:
    """The object a document holds; :class:`~tajmahal.FormatError` for anything else.

    The error names the JSON path and the problem; no other exception escapes.

    >>> import tajmahal as tm
    >>> tm.loads('{"format": "tajmahal/move", "version": 1, "move": "palace agra"}')
    PlacePalace(city='agra')
    >>> tm.loads('{"format": "tajmahal/move", "version": 1, "move": 7}')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.FormatError: cannot read the move document: $.move: expected a string, got an integer 7
    """  # noqa: E501
    try:
        return _loads(text)
    except FormatError:
        raise
    except _Failed as failed:
        raise FormatError(_message("the document", failed.problems)) from None
    except RecursionError:
        raise FormatError("cannot read the document: it is nested too deeply") from None
    except MemoryError:
        raise FormatError("cannot read the document: it is too large") from None
    except Exception as exc:  # the promise: nothing but FormatError escapes
        raise FormatError(
            f"cannot read the document: internal error ({type(exc).__name__}: {exc}); "
            "please report it"
        ) from None


def _message(what: str, problems: Sequence[tuple[Path, str]]) -> str:
    lines = list(dict.fromkeys(f"{format_path(p)}: {m}" for p, m in problems))
    listed = "; ".join(lines[:_MAX_LISTED])
    if len(lines) > _MAX_LISTED:
        listed += f"; and {len(lines) - _MAX_LISTED} more"
    return f"cannot read {what}: {listed}"


def _no_constant(name: str) -> Any:
    raise _Failed([((), f"not JSON: {name} is not a number JSON allows")])


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Failed([((), f"number {text[:20]} is out of range")])
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise _Failed([((), f"key {twice!r} appears twice in one object")])
    return out


def _parse(text: Any) -> Any:
    if not isinstance(text, (str, bytes, bytearray)):
        raise FormatError(
            f"cannot read the document: expected JSON text, got {type(text).__name__}"
        )
    if not text.strip():
        raise FormatError("cannot read the document: it is empty")
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_constant=_no_constant,
            parse_float=_float,
        )
    except _Failed:
        raise
    except ValueError as exc:  # JSONDecodeError, bad UTF-8 in bytes
        raise FormatError(f"cannot read the document: not JSON: {exc}") from None


def _loads(text: Any) -> GameState | PlayerView | Move | GameRecord:
    data = _parse(text)
    if type(data) is not dict:
        raise _Failed([((), f"expected an object, got {_json_type(data)}")])
    kind = _kind(data)
    doc_type = _DOCS[kind]
    what = f"the {kind} document"
    try:
        doc = converter.structure(data, doc_type)
    except Exception as exc:  # turned into paths, or re-raised by _walk
        raise FormatError(_message(what, _walk(exc, ()))) from None
    try:
        obj: GameState | PlayerView | Move | GameRecord = _READERS[kind](doc)
        return obj
    except _Failed as failed:
        raise FormatError(_message(what, failed.problems)) from None


def _kind(data: dict[str, Any]) -> str:
    fmt, version = data.get("format"), data.get("version")
    kinds = ", ".join(PREFIX + k for k in KINDS)
    if "format" not in data:
        raise _Failed([(("format",), f"required key missing (one of {kinds})")])
    if type(fmt) is not str or not fmt.startswith(PREFIX) or fmt[len(PREFIX) :] not in KINDS:
        raise _Failed([(("format",), f"unknown format {_show(fmt)}; allowed: {kinds}")])
    if "version" not in data:
        raise _Failed([(("version",), "required key missing")])
    if type(version) is not int:
        raise _Failed([(("version",), f"expected an integer, got {_json_type(version)}")])
    if version > VERSION:
        raise _Failed(
            [(("version",), f"version {version} is newer than this library reads ({VERSION})")]
        )
    if version != VERSION:
        raise _Failed([(("version",), f"unknown version {version}; this library reads {VERSION}")])
    return fmt[len(PREFIX) :]


class _Reader:
    """Turns a structured document into engine values, collecting problems with their paths."""

    def __init__(self, comps: Components) -> None:
        self.comps = comps
        self.t: Tables = tables(comps)
        self.text_kinds = _text_kinds(comps)
        self.problems: list[tuple[Path, str]] = []

    def fail(self, path: Path, message: str) -> None:
        self.problems.append((path, message))

    def done(self) -> None:
        if self.problems:
            raise _Failed(self.problems)

    def players(self, n: int, path: Path = ("num_players",)) -> None:
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            self.fail(path, f"Taj Mahal is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
            self.done()

    def per_seat(self, doc: Any, n: int, names: Sequence[str]) -> None:
        for name in names:
            if len(getattr(doc, name)) != n:
                self.fail(
                    (name,), f"expected one entry per seat ({n}), got {len(getattr(doc, name))}"
                )

    def kinds(self, cards: list[_CardText], path: Path) -> tuple[int, ...]:
        text_kinds = self.text_kinds
        try:
            return tuple([text_kinds[c] for c in cards])
        except KeyError:
            pass
        for i, c in enumerate(cards):
            if c not in text_kinds:
                self.fail((*path, i), f"{c} is not a card of these components")
        return tuple(text_kinds.get(c, -1) for c in cards)

    def city(self, city_id: str, path: Path) -> int:
        city = self.t.city_of.get(city_id)
        if city is None:
            self.fail(path, f"unknown city id {_show(city_id)}")
            return -1
        return city

    def provinces(self, ids: list[str], path: Path) -> tuple[int, ...]:
        out = []
        for i, pid in enumerate(ids):
            index = self.t.province_of.get(pid)
            if index is None:
                self.fail((*path, i), f"unknown province id {_show(pid)}")
            out.append(-1 if index is None else index)
        return tuple(out)

    def seat(self, value: int | None, n: int, path: Path) -> int:
        if value is None:
            return -1
        if not 0 <= value < n:
            self.fail(path, f"a seat is 0..{n - 1} (or null for nobody), got {value}")
        return value

    def bonus_tile(self, text: str, path: Path) -> int:
        index = _tile_indices(self.comps).get(text)
        if index is not None:
            return index
        allowed = ", ".join(dict.fromkeys(_tile_text(t) for t in self.comps.bonus_tiles))
        self.fail(path, f"no bonus tile {_show(text)} in these components; allowed: {allowed}")
        return -1

    def commodity_tile(self, commodity: Commodity, path: Path) -> int:
        for i, tile in enumerate(self.comps.bonus_tiles):
            if tile.kind is BonusKind.COMMODITY and tile.commodity is commodity:
                return i
        self.fail(path, f"these components have no {commodity.value} bonus tile")
        return -1

    def influence(self, symbols: list[Symbol], path: Path) -> tuple[int, ...]:
        for i, s in enumerate(symbols):
            if s not in INFLUENCE:
                self.fail((*path, i), f"{s.value!r} is not an influence symbol")
        return tuple(symbols.count(s) for s in INFLUENCE)

    def court(self, symbols: list[Symbol]) -> tuple[bool, ...]:
        counts = self.influence(symbols, ("court_influence",))
        if any(c > 1 for c in counts):
            self.fail(("court_influence",), "the court holds at most one tile of each symbol")
        return tuple(c > 0 for c in counts)

    def holders(self, holders: dict[Special, int | None], n: int) -> tuple[int, ...]:
        for sp in SPECIALS:
            if sp not in holders:
                self.fail(("special_holder",), f"missing {sp.value!r} (a seat, or null)")
        return tuple(self.seat(holders.get(sp), n, ("special_holder", sp.value)) for sp in SPECIALS)


def _sorted_kinds(kinds: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(kinds))


def _read_state(doc: _StateDoc) -> GameState:
    r = _Reader(doc.components)
    n = doc.num_players
    r.players(n)
    r.per_seat(doc, n, ("hands", "table", "withdrawn", "visit_colors", "scores"))
    r.per_seat(doc, n, ("province_tiles", "commodity_tiles", "influence", "known"))
    r.done()
    cities = len(r.t.city_ids)
    normal, crown, bonus = [-1] * cities, [-1] * cities, [-1] * cities
    for name, target in (("normal_palaces", normal), ("crown_palaces", crown)):
        for city_id, owner in getattr(doc, name).items():
            city = r.city(city_id, (name, city_id))
            if city >= 0:
                target[city] = r.seat(owner, n, (name, city_id))
    for city_id, text in doc.bonus.items():
        city = r.city(city_id, ("bonus", city_id))
        if city >= 0:
            bonus[city] = r.bonus_tile(text, ("bonus", city_id))
    original: dict[Path, tuple[int, ...]] = {  # piles as written, to name the right index
        ("hands", s): r.kinds(h, ("hands", s)) for s, h in enumerate(doc.hands)
    }
    original |= {("known", s): r.kinds(h, ("known", s)) for s, h in enumerate(doc.known)}
    original[("supply",)] = r.kinds(doc.supply, ("supply",))
    original[("discard",)] = r.kinds(doc.discard, ("discard",))
    state = GameState(
        components=doc.components,
        seed=doc.seed,
        num_players=n,
        first_player=doc.first_player,
        visit=doc.visit,
        phase=doc.phase,
        current_player=doc.current_player,
        hands=tuple(_sorted_kinds(original["hands", s]) for s in range(n)),
        table=tuple(r.kinds(cs, ("table", s)) for s, cs in enumerate(doc.table)),
        withdrawn=tuple(doc.withdrawn),
        visit_colors=tuple(doc.visit_colors),
        supply=_sorted_kinds(original["supply",]),
        deck=r.kinds(doc.deck, ("deck",)),
        discard=_sorted_kinds(original["discard",]),
        reshuffles=doc.reshuffles,
        scores=tuple(doc.scores),
        province_order=r.provinces(doc.province_order, ("province_order",)),
        normal_palaces=tuple(normal),
        crown_palaces=tuple(crown),
        bonus=tuple(bonus),
        court_influence=r.court(doc.court_influence),
        court_crown=doc.court_crown,
        court_province_tile=doc.court_province_tile,
        province_tiles=tuple(tuple(p) for p in doc.province_tiles),
        commodity_tiles=tuple(
            tuple(r.commodity_tile(c, ("commodity_tiles", s, i)) for i, c in enumerate(cs))
            for s, cs in enumerate(doc.commodity_tiles)
        ),
        influence=tuple(r.influence(h, ("influence", s)) for s, h in enumerate(doc.influence)),
        special_holder=r.holders(doc.special_holder, n),
        known=tuple(_sorted_kinds(original["known", s]) for s in range(n)),
        pending_palaces=doc.pending_palaces,
        pending_crown=doc.pending_crown,
        pending_province=doc.pending_province,
        pending_takes=doc.pending_takes,
    )
    r.done()
    problems = find_problems(state)
    if problems:
        raise _Failed([(_unsorted(p.path, original), p.message) for p in problems])
    return state


def _unsorted(path: Path, original: Mapping[Path, tuple[int, ...]]) -> Path:
    """The path of a problem in a sorted pile, as an index into the pile as written."""
    if len(path) < 2 or not isinstance(path[-1], int) or path[:-1] not in original:
        return path
    written = original[path[:-1]]
    ordered = sorted(written)
    index = path[-1]
    if index >= len(ordered):
        return path
    kind = ordered[index]
    rank = ordered[:index].count(kind)
    positions = [i for i, k in enumerate(written) if k == kind]
    return (*path[:-1], positions[rank])


def _read_view(doc: _ViewDoc) -> PlayerView:
    r = _Reader(doc.components)
    comps, t = r.comps, r.t
    n = doc.num_players
    r.players(n)
    r.per_seat(doc, n, ("hand_sizes", "scores", "table", "withdrawn", "visit_colors"))
    r.per_seat(doc, n, ("province_tiles", "commodity_tiles", "influence_tiles", "known_cards"))
    if not 0 <= doc.seat < n:
        r.fail(("seat",), f"a seat is 0..{n - 1}, got {doc.seat}")
    if sorted(doc.province_order) != sorted(t.province_ids):
        r.fail(("province_order",), "must list every province id exactly once")
    if not 1 <= doc.visit <= len(t.province_ids):
        r.fail(("visit",), f"must be 1..{len(t.province_ids)}, got {doc.visit}")
    for name in ("hand_sizes", "scores"):
        for s, value in enumerate(getattr(doc, name)):
            if value < 0:
                r.fail((name, s), f"cannot be negative, got {value}")
    if doc.deck_size < 0:
        r.fail(("deck_size",), f"cannot be negative, got {doc.deck_size}")
    r.done()
    kinds = t.kinds

    def cards(cs: list[_CardText], path: Path, keep_order: bool = False) -> tuple[Card, ...]:
        ks = r.kinds(cs, path)
        ks = ks if keep_order else _sorted_kinds(ks)
        return tuple(kinds[k] for k in ks if k >= 0)

    palaces: dict[str, tuple[int | None, int | None]] = {c: (None, None) for c in t.city_ids}
    for city_id, pair in doc.palaces.items():
        path: Path = ("palaces", city_id)
        if r.city(city_id, path) < 0:
            continue
        if len(pair) != 2:
            r.fail(path, f"expected [normal owner, crown owner], got {len(pair)} entries")
            continue
        for i, owner in enumerate(pair):
            r.seat(owner, n, (*path, i))
        palaces[city_id] = (pair[0], pair[1])
    bonus: dict[str, BonusTile] = {}
    for city_id in t.city_ids:  # board order, as views list them
        if city_id in doc.bonus_tiles:
            index = r.bonus_tile(doc.bonus_tiles[city_id], ("bonus_tiles", city_id))
            if index >= 0:
                bonus[city_id] = comps.bonus_tiles[index]
    for city_id in doc.bonus_tiles:
        r.city(city_id, ("bonus_tiles", city_id))
    tile = doc.court_province_tile
    if tile is not None and tile != doc.visit:
        r.fail(("court_province_tile",), f"the court can hold tile {doc.visit} only, got {tile}")
    province_tiles = []
    for s, numbers in enumerate(doc.province_tiles):
        for i, number in enumerate(numbers):
            if not 1 <= number <= len(comps.province_tiles):
                r.fail(("province_tiles", s, i), f"no province tile {number}")
        province_tiles.append(
            tuple(
                comps.province_tiles[k - 1] for k in numbers if 1 <= k <= len(comps.province_tiles)
            )
        )
    for s, cs in enumerate(doc.commodity_tiles):
        for i, c in enumerate(cs):
            r.commodity_tile(c, ("commodity_tiles", s, i))
    influence = []
    for s, held in enumerate(doc.influence_tiles):
        counts = r.influence(held, ("influence_tiles", s))
        influence.append(tuple(_symbols(counts)))
    r.court(doc.court_influence)
    holders = r.holders(doc.special_holder, n)
    view = PlayerView(
        components=comps,
        seat=doc.seat,
        num_players=n,
        first_player=doc.first_player,
        visit=doc.visit,
        province=doc.province,
        province_order=tuple(doc.province_order),
        phase=doc.phase,
        current_player=doc.current_player,
        hand=cards(doc.hand, ("hand",)),
        hand_sizes=tuple(doc.hand_sizes),
        scores=tuple(doc.scores),
        table=tuple(cards(cs, ("table", s), True) for s, cs in enumerate(doc.table)),
        withdrawn=tuple(doc.withdrawn),
        visit_colors=tuple(doc.visit_colors),
        supply=cards(doc.supply, ("supply",)),
        deck_size=doc.deck_size,
        discard=cards(doc.discard, ("discard",)),
        court_influence=frozenset(doc.court_influence),
        court_crown=doc.court_crown,
        court_province_tile=None if tile is None else comps.province_tiles[doc.visit - 1],
        palaces=FrozenMap(palaces),
        bonus_tiles=FrozenMap(bonus),
        province_tiles=tuple(province_tiles),
        commodity_tiles=tuple(tuple(cs) for cs in doc.commodity_tiles),
        influence_tiles=tuple(influence),
        special_holder=FrozenMap({sp: _owner(h) for sp, h in zip(SPECIALS, holders, strict=True)}),
        known_cards=tuple(cards(cs, ("known_cards", s)) for s, cs in enumerate(doc.known_cards)),
        pending_palaces=doc.pending_palaces,
        pending_crown=doc.pending_crown,
        pending_takes=doc.pending_takes,
        pending_province=doc.pending_province,
        reshuffles=doc.reshuffles,
    )
    r.done()
    _check_view(view)
    return view


#: state paths -> view paths, for problems found in a state sampled from a view
_STATE_TO_VIEW = {
    "known": "known_cards",
    "deck": "deck_size",
    "normal_palaces": "palaces",
    "crown_palaces": "palaces",
    "bonus": "bonus_tiles",
    "influence": "influence_tiles",
}


def _view_path(path: Path, seat: int) -> Path:
    if not path:
        return path
    head = path[0]
    if head == "hands":
        return (
            ("hand", *path[2:]) if len(path) > 1 and path[1] == seat else ("hand_sizes", *path[1:2])
        )
    if head == "deck":
        return ("deck_size",)
    if head == "seed":
        return ()
    return (_STATE_TO_VIEW.get(str(head), head), *path[1:])


def _check_view(view: PlayerView) -> None:
    """A view is possible when some state has it: sample one and compare."""
    try:
        state = view.sample(random.Random(0))
    except InvalidStateError as exc:
        raise _Failed([(p.path, p.message) for p in exc.problems]) from None
    problems = find_problems(state)
    if problems:
        raise _Failed([(_view_path(p.path, view.seat), p.message) for p in problems])
    again = state.view(view.seat)
    for field in attrs.fields(PlayerView):
        if field.eq and getattr(again, field.name) != getattr(view, field.name):
            raise _Failed([((field.name,), "does not agree with the rest of the view")])


def _read_move(doc: _MoveDoc) -> Move:
    try:
        move = move_from_text(doc.move)
    except ValueError as exc:
        raise _Failed([(("move",), str(exc))]) from None
    problem = _move_problem(move)
    if problem:
        raise _Failed([(("move",), problem)])
    return move


def _move_problem(move: Move) -> str | None:
    """What makes ``move`` impossible in any game (P1; ids; symbols), or None."""
    if isinstance(move, PlayCards):
        if move.colored.color not in COLORED:
            return f"a play starts with one colored card (P1), not {move.colored}"
        if move.extra is not None and move.extra.color in COLORED:
            return f"the second card is a white or special card (P1), not {move.extra}"
    if isinstance(move, PlacePalace | PlaceCrownPalace):
        ident = move.city.replace("_", "").replace("-", "")
        if not ident.isascii() or not ident.isalnum() or move.city != move.city.lower():
            return f"{move.city!r} is not a city id (lowercase letters, digits, '_', '-')"
    cards = [move.colored, move.extra] if isinstance(move, PlayCards) else []
    cards += [move.card] if isinstance(move, TakeCard) else []
    for card in cards:
        if card is not None and card.special is None and not 1 <= len(card.symbols) <= 2:
            return f"{card}: a card shows one or two symbols"
    return None


def _read_record(doc: _RecordDoc) -> GameRecord:
    r = _Reader(doc.components)
    n = doc.num_players
    r.players(n)
    if not 0 <= doc.first_player < n:
        r.fail(("first_player",), f"a seat is 0..{n - 1}, got {doc.first_player}")
    if doc.players and len(doc.players) != n:
        r.fail(("players",), f"one name per seat ({n}), or none, got {len(doc.players)}")
    moves: list[Move] = []
    for i, text in enumerate(doc.moves):
        try:
            moves.append(move_from_text(text))
        except ValueError as exc:
            r.fail(("moves", i), str(exc))
    r.done()
    record = GameRecord(
        num_players=n,
        seed=doc.seed,
        moves=tuple(moves),
        first_player=doc.first_player,
        components=doc.components,
        players=tuple(doc.players),
        scores=None if doc.scores is None else tuple(doc.scores),
        winners=None if doc.winners is None else tuple(doc.winners),
    )
    state = new_game(n, doc.seed, doc.components, doc.first_player)
    for i, move in enumerate(record.moves):
        try:
            state = state.apply(move)
        except IllegalMoveError as exc:
            raise _Failed([(("moves", i), f"move {i + 1} ({move}) is not legal: {exc}")]) from None
    result = (record.scores, record.winners)
    if result != (None, None) and result != (
        (state.scores, state.winners) if state.is_over else None
    ):
        replayed = (
            f"scores {state.scores}, winners {state.winners}"
            if state.is_over
            else "the game is not over"
        )
        raise _Failed([(("scores",), f"the result does not match the replayed game ({replayed})")])
    return record


_READERS: dict[str, Callable[[Any], Any]] = {
    "state": _read_state,
    "view": _read_view,
    "move": _read_move,
    "record": _read_record,
}
