"""A view document the library itself wrote, read back without the checks: the runner's read path.

:func:`tajmahal.loads` trusts nothing: it checks every value and samples a state
from the view to prove that some state has it (milliseconds).  The isolated
runner (:mod:`tajmahal.protocol.runner`) receives its views from the referee
that started it, which wrote them with :func:`tajmahal.dumps` from real states:
:func:`trusted_view` turns such a document straight into the
:class:`~tajmahal.PlayerView`.  It still never returns a wrong view: a document
it cannot read as it expects (other components than the standard ones, a
missing key, a value of another type) raises :class:`NotTrusted`, and the
caller then reads it with the full checks.
"""

from __future__ import annotations

from typing import Any

from tajmahal.rules.components import Card, Color, Commodity, Components, Symbol
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.snapshot import Phase, fast_constructor
from tajmahal.rules.tables import SPECIALS, tables
from tajmahal.rules.views import PlayerView
from tajmahal.serialize._components import _standard, tile_indices
from tajmahal.serialize._documents import PREFIX, VERSIONS

__all__ = ["NotTrusted", "readable_as_written", "trusted_view"]


class NotTrusted(Exception):
    """The document is not one this reader takes as it is (read it with the checks)."""


class _Parts:
    """What the documents of one set of components name: cards and tiles by their texts."""

    def __init__(self, comps: Components) -> None:
        t = tables(comps)
        self.components = comps
        self.card: dict[str, Card] = {str(card): card for card in comps.card_kinds}
        self.city_ids = t.city_ids
        indices = tile_indices(comps)
        self.bonus = {text: comps.bonus_tiles[i] for text, i in indices.items()}


_PARTS: list[_Parts] = []  # the standard components' (made on first use)
_PHASES = {phase.value: phase for phase in Phase}
_COLORS: dict[str | None, Color | None] = {color.value: color for color in Color} | {None: None}
_SYMBOLS = {symbol.value: symbol for symbol in Symbol}
_COMMODITIES = {commodity.value: commodity for commodity in Commodity}
_NOBODY = (None, None)
_new_view = fast_constructor(PlayerView)  # every field given, so no attrs per-field setattr


def _standard_parts() -> _Parts:
    if not _PARTS:
        comps = _standard()
        if comps is None:
            raise NotTrusted("no standard components")
        _PARTS.append(_Parts(comps))
    return _PARTS[0]


def readable_as_written(doc: object) -> bool:
    """Whether ``doc`` says it is a view document of the standard components (cheap).

    >>> readable_as_written({"format": "tajmahal/view", "version": 1, "components": "standard"})
    True
    """
    return (
        type(doc) is dict
        and doc.get("format") == PREFIX + "view"
        and doc.get("version") == VERSIONS["view"]
        and doc.get("components") == "standard"
    )


def trusted_view(doc: dict[str, Any]) -> PlayerView:
    """The view of a view document written by :func:`tajmahal.dumps` (read as written).

    >>> import tajmahal as tm
    >>> view = tm.new_game(num_players=3, seed=1).view(2)
    >>> trusted_view(tm.to_document(view)) == view
    True
    """
    try:
        return _read(doc)
    except NotTrusted:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise NotTrusted(f"{type(exc).__name__}: {exc}") from None


def _read(doc: dict[str, Any]) -> PlayerView:
    if (
        doc["format"] != PREFIX + "view"
        or doc["version"] != VERSIONS["view"]
        or doc["components"] != "standard"
    ):
        raise NotTrusted("not a view document of the standard components")
    parts = _standard_parts()
    comps = parts.components
    card = parts.card.__getitem__

    def cards(texts: list[str]) -> tuple[Card, ...]:
        return tuple(map(card, texts))

    def per_seat(lists: list[list[str]]) -> tuple[tuple[Card, ...], ...]:
        return tuple([tuple(map(card, texts)) for texts in lists])

    visit = doc["visit"]
    tiles = comps.province_tiles
    placed = doc["palaces"]
    bonus = doc["bonus_tiles"]
    holder = doc["special_holder"]
    return _new_view(
        components=comps,
        seat=_int(doc["seat"]),
        num_players=_int(doc["num_players"]),
        first_player=_int(doc["first_player"]),
        visit=_int(visit),
        province=_str(doc["province"]),
        province_order=tuple(map(_str, doc["province_order"])),
        phase=_PHASES[doc["phase"]],
        current_player=None if doc["current_player"] is None else _int(doc["current_player"]),
        hand=cards(doc["hand"]),
        hand_sizes=tuple(map(_int, doc["hand_sizes"])),
        scores=tuple(map(_int, doc["scores"])),
        table=per_seat(doc["table"]),
        withdrawn=tuple(map(_bool, doc["withdrawn"])),
        visit_colors=tuple([_COLORS[c] for c in doc["visit_colors"]]),
        supply=cards(doc["supply"]),
        deck_size=_int(doc["deck_size"]),
        discard=cards(doc["discard"]),
        court_influence=frozenset([_SYMBOLS[s] for s in doc["court_influence"]]),
        court_crown=_bool(doc["court_crown"]),
        court_province_tile=None if doc["court_province_tile"] is None else tiles[visit - 1],
        palaces=FrozenMap._own(
            {c: (tuple(placed[c]) if c in placed else _NOBODY) for c in parts.city_ids}
        ),
        bonus_tiles=FrozenMap._own(
            {c: parts.bonus[bonus[c]] for c in parts.city_ids if c in bonus}
        ),
        province_tiles=tuple([tuple([tiles[k - 1] for k in ks]) for ks in doc["province_tiles"]]),
        commodity_tiles=tuple(
            [tuple([_COMMODITIES[c] for c in cs]) for cs in doc["commodity_tiles"]]
        ),
        influence_tiles=tuple([tuple([_SYMBOLS[s] for s in ss]) for ss in doc["influence_tiles"]]),
        special_holder=FrozenMap._own({sp: holder[sp.value] for sp in SPECIALS}),
        known_cards=per_seat(doc["known_cards"]),
        pending_palaces=_int(doc["pending_palaces"]),
        pending_crown=_bool(doc["pending_crown"]),
        pending_takes=_int(doc["pending_takes"]),
        pending_province=_bool(doc["pending_province"]),
        reshuffles=_int(doc["reshuffles"]),
    )


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {type(value).__name__}")
    return value


def _str(value: Any) -> str:
    if type(value) is not str:
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected a boolean, got {type(value).__name__}")
    return value

