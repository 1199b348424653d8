"""From a view document to a :class:`~tajmahal.PlayerView` that some state really has.

A view's values are checked one by one as a state's are; then a state is
sampled from the view (:meth:`~tajmahal.PlayerView.sample`) and checked, and
its view must be the one read.
"""

from __future__ import annotations

import random

import attrs

from tajmahal.rules.components import BonusTile, Card
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.tables import SPECIALS
from tajmahal.rules.validate import InvalidStateError, Path, find_problems
from tajmahal.rules.views import PlayerView
from tajmahal.serialize._converter import CardText, Failed
from tajmahal.serialize._documents import ViewDoc, build, influence_symbols, owner
from tajmahal.serialize._reader import Reader


def read_view(doc: ViewDoc) -> PlayerView:
    """The view a document holds, if some state has it."""
    r = Reader(doc.components)
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
    for s, value in enumerate(doc.hand_sizes):
        if value < 0:
            r.fail(("hand_sizes", s), f"cannot be negative, got {value}")
    r.scores(doc.scores)
    if doc.deck_size < 0:
        r.fail(("deck_size",), f"cannot be negative, got {doc.deck_size}")
    r.done()

    def cards(cs: list[CardText], path: Path, keep_order: bool = False) -> tuple[Card, ...]:
        ks = r.kinds(cs, path)
        return tuple(t.kinds[k] for k in (ks if keep_order else sorted(ks)) if k >= 0)

    palaces: dict[str, tuple[int | None, int | None]] = {c: (None, None) for c in t.city_ids}
    for city_id, pair in doc.palaces.items():
        path: Path = ("palaces", city_id)
        if r.city(city_id, path) < 0:
            continue
        if len(pair) != 2:
            r.fail(path, f"expected [normal owner, crown owner], got {len(pair)} entries")
            continue
        for i, seat in enumerate(pair):
            r.seat(seat, n, (*path, i))
        palaces[city_id] = (pair[0], pair[1])
    bonus: dict[str, BonusTile] = {}
    for city_id in t.city_ids:  # board order, as views list them
        if city_id in doc.bonus_tiles:
            index = r.bonus_tile(doc.bonus_tiles[city_id], ("bonus_tiles", city_id))
            if index >= 0:
                bonus[city_id] = comps.bonus_tiles[index]
    for city_id in doc.bonus_tiles:
        r.city(city_id, ("bonus_tiles", city_id))
    court_tile = doc.court_province_tile
    if court_tile is not None and court_tile != doc.visit:
        r.fail(
            ("court_province_tile",), f"the court can hold tile {doc.visit} only, got {court_tile}"
        )
    tiles = comps.province_tiles
    for s, numbers in enumerate(doc.province_tiles):
        for i, number in enumerate(numbers):
            if not 1 <= number <= len(tiles):
                r.fail(("province_tiles", s, i), f"no province tile {number}")
    for s, cs in enumerate(doc.commodity_tiles):
        for i, c in enumerate(cs):
            r.commodity_tile(c, ("commodity_tiles", s, i))
    influence_tiles = tuple(
        tuple(influence_symbols(r.influence(held, ("influence_tiles", s))))
        for s, held in enumerate(doc.influence_tiles)
    )
    r.court(doc.court_influence)
    holders = r.holders(doc.special_holder, n)
    view = build(
        PlayerView,
        doc,
        tuple,
        hand=cards(doc.hand, ("hand",)),
        table=tuple(cards(cs, ("table", s), True) for s, cs in enumerate(doc.table)),
        supply=cards(doc.supply, ("supply",)),
        discard=cards(doc.discard, ("discard",)),
        court_influence=frozenset(doc.court_influence),
        court_province_tile=None if court_tile is None else tiles[doc.visit - 1],
        palaces=FrozenMap(palaces),
        bonus_tiles=FrozenMap(bonus),
        province_tiles=tuple(
            tuple(tiles[k - 1] for k in numbers if 1 <= k <= len(tiles))
            for numbers in doc.province_tiles
        ),
        influence_tiles=influence_tiles,
        special_holder=FrozenMap({sp: owner(h) for sp, h in zip(SPECIALS, holders, strict=True)}),
        known_cards=tuple(cards(cs, ("known_cards", s)) for s, cs in enumerate(doc.known_cards)),
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
        raise Failed([(p.path, p.message) for p in exc.problems]) from None
    problems = find_problems(state)
    if problems:
        raise Failed([(_view_path(p.path, view.seat), p.message) for p in problems])
    again = state.view(view.seat)
    for field in attrs.fields(PlayerView):
        if field.eq and getattr(again, field.name) != getattr(view, field.name):
            raise Failed([((field.name,), "does not agree with the rest of the view")])

