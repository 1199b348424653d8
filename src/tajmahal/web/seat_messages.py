"""What the server sends: each message built from one seat's views only (or public facts).

Hidden information is kept by construction: every function here takes
:class:`~tajmahal.PlayerView` values (never a :class:`~tajmahal.GameState`),
so what a seat receives is a function of what that seat may see.  A
spectator's document is a view with its hand taken out: what is left of a
view is public (I1).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from tajmahal.analysis import (
    card_name,
    city_options,
    display_name,
    move_name,
    plain_text,
    symbol_name,
)
from tajmahal.events import EventKind, explain_views, opening
from tajmahal.render import board_elements, seat_color, state_tiles
from tajmahal.rules.components import Card, Components
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, TakeCard
from tajmahal.rules.views import PlayerView
from tajmahal.serialize import dumps, to_document

__all__ = [
    "board_state",
    "board_svg",
    "decision_lines",
    "live_board",
    "move_label",
    "move_labels",
    "people_names",
    "public_document",
    "seat_document",
    "state_frame",
    "state_text",
    "whole_log",
]

_HIDDEN = frozenset({EventKind.VISIT_END})
MAX_EVENTS = 40  #: the decisions whose events a state message repeats


def seat_document(view: PlayerView) -> dict[str, Any]:
    """The seat's view document (``tm.dumps(view)``, as the bot protocol sends it), as JSON data.

    >>> import tajmahal as tm
    >>> seat_document(tm.new_game(3, seed=1).view(2))['seat']
    2
    """
    document: dict[str, Any] = to_document(view)
    return document


def public_document(view: PlayerView) -> dict[str, Any]:
    """What everybody may know: any seat's view document without the seat and its hand.

    >>> import tajmahal as tm
    >>> state = tm.new_game(3, seed=1)
    >>> public_document(state.view(0)) == public_document(state.view(2))
    True
    >>> 'hand' in public_document(state.view(0))
    False
    """
    document = seat_document(view)
    del document["hand"], document["seat"]
    return document


def board_svg(view: PlayerView, players: Sequence[str], start: PlayerView) -> str:
    """The board as the library draws it (public facts only, whichever seat's view).

    Labels stay where the game's first state puts them (``start``, any seat's
    view of it), as on the replay page: one layout per game, drawn fast.
    """
    layout_tiles = state_tiles(view.components, start)
    return "\n".join(board_elements(view.components, None, view, players, layout_tiles)) + "\n"


def live_board(start: PlayerView) -> dict[str, Any]:
    """The board a page receives once per connection (public facts only).

    ``svg``: the board with every tile of the game's start and no palace,
    every province outline hidden (``render.board_elements(..., live=True)``);
    the page shows on it what :func:`board_state` says.  ``cities``: id ->
    [x, y, plain name]; ``colors``: the seats' palace colours; ``provinces``: [id, name,
    [city ids]] in the board's order (the page's board in words, for screen readers).
    """
    comps = start.components
    tiles = state_tiles(comps, start)
    svg = "\n".join(board_elements(comps, None, start, (), tiles, live=True)) + "\n"
    cities = {c.id: [c.x, c.y, display_name(c.id, comps)] for c in comps.board.cities}
    colors = [seat_color(seat) for seat in range(start.num_players)]
    provinces = [[p.id, p.name, [c.id for c in p.cities]] for p in comps.board.provinces]
    return {"svg": svg, "cities": cities, "colors": colors, "provinces": provinces}


def board_state(view: PlayerView) -> dict[str, Any]:
    """What changes on the board (public facts only): the page updates its board from it.

    >>> import tajmahal as tm
    >>> shown = board_state(tm.new_game(3, seed=1).view(0))
    >>> shown['province'], shown['palaces'], len(shown['tiles'])
    ('thatta', [], 11)
    """
    tiles = state_tiles(view.components, view)
    return {
        "province": None if view.is_over else view.province,
        "palaces": [
            [city, owners[0], owners[1]]
            for city, owners in sorted(view.palaces.items())
            if owners != (None, None)
        ],
        "tiles": sorted(tiles.province),
        "bonus": sorted(tiles.bonus),
    }


def _card_label(card: Card) -> str:
    if card.special is not None:
        return card_name(card).replace(" card", "").title() + " card"
    return f"{card.color.value} " + " + ".join(symbol_name(s).title() for s in card.symbols)


def move_label(move: Move, components: Components | None = None) -> list[Any]:
    """A legal move for people: [label, group, with what, kind].

    ``group``: the colored card's color (plays), else the move's kind;
    ``with``: the white or special card played with it, in words (or None).

    >>> import tajmahal as tm
    >>> move_label(tm.PlayCards(tm.Card.parse('red:vizier+general'),
    ...                         tm.Card.parse('special:grand_mogul')))
    ['red Vizier + General, with Grand Mogul card', 'red', 'Grand Mogul card', 'play']
    >>> move_label(tm.PlacePalace('dera_ismail_khan'))[0]
    'Palace in Dera Ismail Khan'
    """
    if isinstance(move, PlayCards):
        extra = None if move.extra is None else _card_label(move.extra)
        label = _card_label(move.colored) + ("" if extra is None else f", with {extra}")
        return [label, move.colored.color.value, extra, "play"]
    if isinstance(move, TakeCard):
        return [f"Take {_card_label(move.card)}", "take", None, "take"]
    if isinstance(move, PlacePalace | PlaceCrownPalace):
        name = move_name(move, components)
        return [name[:1].upper() + name[1:], "palace", None, "palace"]
    return ["Withdraw", "withdraw", None, "withdraw"]


def move_labels(view: PlayerView, legal: Sequence[Move]) -> list[list[Any]]:
    """Each legal move's :func:`move_label`, a palace choice with what each city gives."""
    options = {o.city: o.text for o in city_options(view)}
    labels = []
    for move in legal:
        label = move_label(move, view.components)
        city = getattr(move, "city", None)
        labels.append([*label, options.get(city) if isinstance(city, str) else None])
    return labels


_SEAT = re.compile(r"\bseat (\d+)\b")


def seats_from_one(text: str) -> str:
    """``text`` (a line, a page) with every "seat N" counted from 1, as people count seats.

    >>> seats_from_one('seat 0 (Ann) ties with seat 2')
    'seat 1 (Ann) ties with seat 3'
    """
    return _SEAT.sub(lambda m: f"seat {int(m.group(1)) + 1}", text)


def for_people(line: str) -> str:
    """An event line as people read it: seats counted from 1, cards in words.

    >>> for_people('seat 0 (Ann) plays red:monk+grand_mogul')
    'seat 1 (Ann) plays red monk+grand mogul'
    """
    return plain_text(seats_from_one(line))


def decision_lines(
    before: PlayerView, move: Move, after: PlayerView, players: Sequence[str], *, private: bool
) -> list[str]:
    """One decision's events in plain words, as the seat of the views (or nobody) knows them."""
    decision = explain_views(before, move, after, private=private)
    return [for_people(e.sentence(players)) for e in decision.events if e.kind not in _HIDDEN]


_LEVEL = re.compile(r"ismcts:level=(\d)")


def people_names(players: Sequence[str], humans: Sequence[int]) -> tuple[str, ...]:
    """The seats' names as the lobby says them: a search bot by its level, people as named.

    >>> people_names(['Ann', 'ismcts:level=3', 'greedy'], [0])
    ('Ann', 'level 3', 'greedy')
    >>> people_names(['ismcts:level=3'], [0])  # a person may call themselves anything
    ('ismcts:level=3',)
    """
    return tuple(
        name if seat in humans or not (level := _LEVEL.fullmatch(name)) else f"level {level[1]}"
        for seat, name in enumerate(players)
    )


def whole_log(
    views: Sequence[PlayerView], moves: Sequence[Move], players: Sequence[str], *, private: bool
) -> list[dict[str, Any]]:
    """Every decision's events as one seat (or nobody) knows them: ``views`` are that seat's
    views of the game's states in order, ``moves`` the moves between them.  What a page asks
    for once (the state messages carry only the latest decisions)."""
    log = [{"decision": 0, "seat": None, "lines": opening_lines(views[0], players)}]
    for number, move in enumerate(moves, start=1):
        before, after = views[number - 1], views[number]
        lines = decision_lines(before, move, after, players, private=private)
        log.append({"decision": number, "seat": before.current_player, "lines": lines})
    return log


def opening_lines(view: PlayerView, players: Sequence[str]) -> list[str]:
    """The first visit's scene: province, tile, supply (public)."""
    return [for_people(event.sentence(players)) for event in opening(view)]


def state_frame(view: PlayerView, **fields: Any) -> dict[str, Any]:
    """The ``state`` message for one seat (``seat`` None: the spectator): the fields of
    ``_fields`` after the view's document.

    ``view`` is that seat's view (any seat's, for the spectator: only its
    public part is sent); ``board`` the :func:`live_board`, given in a full
    message only (the first on a connection, one asked for, one after an
    undo): ``full`` says which.  ``shown`` is :func:`board_state` of the view;
    ``legal`` the texts of the seat's legal moves when it is to move and
    ``labels`` their :func:`move_labels`; ``events`` the decisions as
    (number, mover, lines) for this seat that the page has not had yet.
    """
    seat = fields.get("seat")
    return {"view": public_document(view) if seat is None else seat_document(view),
            **_fields(view, **fields)}  # fmt: skip


def state_text(view: PlayerView, **fields: Any) -> str:
    """:func:`state_frame` as its JSON text (compact): the seat's view document is written
    once, by :func:`tajmahal.dumps`, into the text (not parsed and written again).

    >>> import json, tajmahal as tm
    >>> view = tm.new_game(3, seed=1).view(1)
    >>> fields = dict(game_id='g', decision=0, players=['a', 'b', 'c'], humans=[1], seat=1,
    ...               legal=[], events=[], hints=False, undo=False)
    >>> json.loads(state_text(view, **fields)) == state_frame(view, **fields)
    True
    """
    if fields.get("seat") is None:  # the spectator: the view's public part only
        return json.dumps(state_frame(view, **fields), separators=(",", ":"))
    rest = json.dumps(_fields(view, **fields), separators=(",", ":"))
    return '{"view":' + dumps(view) + "," + rest[1:]


def _fields(
    view: PlayerView,
    *,
    game_id: str,
    decision: int,
    players: Sequence[str],
    humans: Sequence[int],
    seat: int | None,
    legal: Sequence[str],
    labels: Sequence[Sequence[Any]] = (),
    events: Sequence[tuple[int, int | None, list[str]]],
    hints: bool,
    undo: bool,
    table: object = None,
    result: dict[str, Any] | None = None,
    delayed: bool = False,
    board: dict[str, Any] | None = None,
    clocks: list[dict[str, Any] | None] | None = None,
) -> dict[str, Any]:
    """Every field of :func:`state_frame` but the view document (the keywords checked here)."""
    frame = {
        "type": "state",
        "game": game_id,
        "seat": seat,
        "decision": decision,
        "full": board is not None,
        "players": list(players),
        "humans": list(humans),
        "shown": board_state(view),
        "turn": view.current_player,
        "legal": list(legal),
        "labels": [list(label) for label in labels],
        "events": [
            {"decision": number, "seat": mover, "lines": lines}
            for number, mover, lines in events[-MAX_EVENTS:]
        ],
        "hints": hints,
        "undo": undo,
        "table": table,
        "over": view.is_over,
        "result": result,
        "delayed": delayed,
    }
    if board is not None:
        frame["board"] = board
    if clocks is not None:  # a game with a time control: each person's seconds left
        frame["clocks"] = clocks
    return frame

