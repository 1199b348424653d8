"""The shape of each kind of document, and how a state, view, move or record is written as one.

A state, view or record document has the fields of the object it holds, under
the same names, after ``format`` and ``version``; most values are copied as
they are (tuples as lists), the others are turned into readable texts and ids
here.  A move document holds the move's text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import attrs
from attrs import AttrsInstance
from cattrs.gen import make_dict_structure_fn

from tajmahal.faults import FaultKind
from tajmahal.game import GameRecord
from tajmahal.rules.components import INFLUENCE, Card, Color, Commodity, Components, Special, Symbol
from tajmahal.rules.errors import FormatError
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import SPECIALS, tables
from tajmahal.rules.views import PlayerView
from tajmahal.serialize._components import card_texts, tile_text
from tajmahal.serialize._converter import CardText, Invalid, converter, json_type

T = TypeVar("T", bound=AttrsInstance)

VERSION = 1  #: the version of state, view and move documents
PREFIX = "tajmahal/"
#: the version each kind of document is written in
VERSIONS: dict[str, int] = {"state": 1, "view": 1, "move": 1, "record": 2}
#: the versions each kind of document is read in
READABLE: dict[str, tuple[int, ...]] = {"state": (1,), "view": (1,), "move": (1,), "record": (1, 2)}
#: the document kinds and the classes they hold
KINDS: dict[str, str] = {
    "state": "GameState",
    "view": "PlayerView",
    "move": "Move",
    "record": "GameRecord",
}


@attrs.define
class StateDoc:
    """The shape of a state document (see the docstring of :mod:`tajmahal.serialize`)."""

    format: str
    version: int
    components: Components
    seed: int
    num_players: int
    first_player: int
    visit: int
    phase: Phase
    current_player: int | None
    hands: list[list[CardText]]
    table: list[list[CardText]]
    withdrawn: list[bool]
    visit_colors: list[Color | None]
    supply: list[CardText]
    deck: list[CardText]
    discard: list[CardText]
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
    known: list[list[CardText]]
    pending_palaces: int
    pending_crown: bool
    pending_province: bool
    pending_takes: int


@attrs.define
class ViewDoc:
    """The shape of a view document (see the docstring of :mod:`tajmahal.serialize`)."""

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
    hand: list[CardText]
    hand_sizes: list[int]
    scores: list[int]
    table: list[list[CardText]]
    withdrawn: list[bool]
    visit_colors: list[Color | None]
    supply: list[CardText]
    deck_size: int
    discard: list[CardText]
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
    known_cards: list[list[CardText]]
    pending_palaces: int
    pending_crown: bool
    pending_takes: int
    pending_province: bool


@attrs.define
class MoveDoc:
    """The shape of a move document."""

    format: str
    version: int
    move: str


@attrs.define
class FaultDoc:
    """The shape of one fault in a record document (version 2)."""

    seat: int
    decision: int
    kind: FaultKind
    detail: str
    traceback: str = ""


@attrs.define
class RecordDoc:
    """The shape of a record document (``tags``, ``faults``, ``times``: version 2 only)."""

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
    tags: dict[str, str] = attrs.Factory(dict)
    faults: list[FaultDoc] = attrs.Factory(list)
    times: list[float] = attrs.Factory(list)


def _structure_fault(value: Any, _: Any) -> FaultDoc:
    if type(value) is not dict:
        raise Invalid(f"expected an object, got {json_type(value)}")
    return _fault_fields(value, FaultDoc)


_fault_fields = make_dict_structure_fn(
    FaultDoc, converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
)
converter.register_structure_hook(FaultDoc, _structure_fault)


# ---------------------------------------------------------------------------- helpers


def build(
    cls: type[T], source: object, sequence: Callable[[Iterable[Any]], Any], **given: Any
) -> T:
    """A ``cls`` of the ``given`` fields and, for each other field, ``source``'s attribute of
    the same name with its lists and tuples (and those inside them) made ``sequence`` (list or
    tuple).

    >>> @attrs.define
    ... class Pair:
    ...     name: str
    ...     values: tuple[tuple[int, ...], ...]
    >>> build(Pair, Pair("a", ((1,), (2, 3))), list, name="b")
    Pair(name='b', values=[[1], [2, 3]])
    """

    def convert(items: list[Any] | tuple[Any, ...]) -> Any:
        if items and type(items[0]) in _SEQUENCES:  # the items of a field share one type
            return sequence([convert(item) for item in items])
        return sequence(items)

    copied = {}
    for field in attrs.fields(cls):
        if field.init and field.name not in given:
            value = getattr(source, field.name)
            copied[field.name] = convert(value) if type(value) in _SEQUENCES else value
    return cls(**copied, **given)


_SEQUENCES = (list, tuple)


def influence_symbols(counts: Sequence[int]) -> list[Symbol]:
    """Influence tile counts (INFLUENCE order) as the list of their symbols."""
    return [sym for sym, n in zip(INFLUENCE, counts, strict=True) for _ in range(n)]


def owner(seat: int) -> int | None:
    """A seat, or None for nobody (-1)."""
    return None if seat < 0 else seat


# ---------------------------------------------------------------------------- writers


def document(
    obj: GameState | PlayerView | Move | GameRecord,
) -> StateDoc | ViewDoc | MoveDoc | RecordDoc:
    """The document that holds ``obj``; FormatError for anything else."""
    if isinstance(obj, GameState):
        return _state_doc(obj)
    if isinstance(obj, PlayerView):
        return _view_doc(obj)
    if isinstance(obj, Move):
        return MoveDoc(PREFIX + "move", VERSIONS["move"], str(obj))
    if isinstance(obj, GameRecord):
        return _written(
            RecordDoc,
            "record",
            obj,
            moves=[str(m) for m in obj.moves],
            tags=dict(obj.tags),
            faults=[
                FaultDoc(f.seat, f.decision, f.kind, f.detail, f.traceback) for f in obj.faults
            ],
            times=list(obj.times),
        )
    raise FormatError(
        f"cannot serialise a {type(obj).__name__}: expected a GameState, PlayerView, "
        "GameRecord or move"
    )


def _written(cls: type[T], kind: str, obj: object, **converted: Any) -> T:
    """A ``kind`` document of ``obj``: the ``converted`` fields, the others copied."""
    return build(cls, obj, list, format=PREFIX + kind, version=VERSIONS[kind], **converted)


def _state_doc(s: GameState) -> StateDoc:
    t = tables(s.components)
    texts = card_texts(s.components)

    def cards(ks: tuple[int, ...]) -> list[CardText]:
        return [texts[k] for k in ks]  # type: ignore[misc]

    ids = t.city_ids
    bonus_tiles = s.components.bonus_tiles
    return _written(
        StateDoc,
        "state",
        s,
        hands=[cards(h) for h in s.hands],
        table=[cards(h) for h in s.table],
        supply=cards(s.supply),
        deck=cards(s.deck),
        discard=cards(s.discard),
        province_order=[t.province_ids[p] for p in s.province_order],
        normal_palaces={ids[c]: o for c, o in enumerate(s.normal_palaces) if o >= 0},
        crown_palaces={ids[c]: o for c, o in enumerate(s.crown_palaces) if o >= 0},
        bonus={ids[c]: tile_text(bonus_tiles[b]) for c, b in enumerate(s.bonus) if b >= 0},
        court_influence=[
            sym for sym, inside in zip(INFLUENCE, s.court_influence, strict=True) if inside
        ],
        commodity_tiles=[
            [c for i in owned if (c := bonus_tiles[i].commodity) is not None]
            for owned in s.commodity_tiles
        ],
        influence=[influence_symbols(held) for held in s.influence],
        special_holder={sp: owner(h) for sp, h in zip(SPECIALS, s.special_holder, strict=True)},
        known=[cards(k) for k in s.known],
    )


def _view_doc(v: PlayerView) -> ViewDoc:
    kind_of = tables(v.components).kind_of
    texts = card_texts(v.components)

    def cards(cs: tuple[Card, ...]) -> list[CardText]:
        return [texts[kind_of[c]] for c in cs]  # type: ignore[misc]

    court_tile = v.court_province_tile
    return _written(
        ViewDoc,
        "view",
        v,
        hand=cards(v.hand),
        table=[cards(cs) for cs in v.table],
        supply=cards(v.supply),
        discard=cards(v.discard),
        court_influence=[s for s in INFLUENCE if s in v.court_influence],
        court_province_tile=None if court_tile is None else court_tile.number,
        palaces={c: list(p) for c, p in v.palaces.items() if p != (None, None)},
        bonus_tiles={c: tile_text(tile) for c, tile in v.bonus_tiles.items()},
        province_tiles=[[p.number for p in ps] for ps in v.province_tiles],
        special_holder={sp: v.special_holder.get(sp) for sp in SPECIALS},
        known_cards=[cards(cs) for cs in v.known_cards],
    )
