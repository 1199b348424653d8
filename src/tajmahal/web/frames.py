"""What the server sends: each message built from one seat's views only (or public facts).

Hidden information is kept by construction: every function here takes
:class:`~tajmahal.PlayerView` values (never a :class:`~tajmahal.GameState`),
so what a seat receives is a function of what that seat may see.  A
spectator's document is a view with its hand taken out: what is left of a
view is public (I1).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tajmahal.events import EventKind, explain_views, opening
from tajmahal.render import board_elements
from tajmahal.render._panel import state_tiles
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView
from tajmahal.serialize import dumps

__all__ = ["board_svg", "decision_lines", "public_document", "seat_document", "state_frame"]

_HIDDEN = frozenset({EventKind.VISIT_END})
MAX_EVENTS = 40  #: the decisions whose events a state message repeats


def seat_document(view: PlayerView) -> dict[str, Any]:
    """The seat's view document (``tm.dumps(view)``, as the bot protocol sends it), as JSON data.

    >>> import tajmahal as tm
    >>> seat_document(tm.new_game(3, seed=1).view(2))['seat']
    2
    """
    document: dict[str, Any] = json.loads(dumps(view))
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


def decision_lines(
    before: PlayerView, move: Move, after: PlayerView, players: Sequence[str], *, private: bool
) -> list[str]:
    """One decision's events in plain words, as the seat of the views (or nobody) knows them."""
    decision = explain_views(before, move, after, private=private)
    return [e.sentence(players) for e in decision.events if e.kind not in _HIDDEN]


def opening_lines(view: PlayerView, players: Sequence[str]) -> list[str]:
    """The first visit's scene: province, tile, supply (public)."""
    return [event.sentence(players) for event in opening(view)]


def state_frame(
    view: PlayerView,
    *,
    game_id: str,
    decision: int,
    players: Sequence[str],
    humans: Sequence[int],
    seat: int | None,
    board: str,
    legal: Sequence[str],
    events: Sequence[tuple[int, int | None, list[str]]],
    hints: bool,
    undo: bool,
    table: object = None,
    result: dict[str, Any] | None = None,
    delayed: bool = False,
) -> dict[str, Any]:
    """The ``state`` message for one seat (``seat`` None: the spectator).

    ``view`` is that seat's view (any seat's, for the spectator: only its
    public part is sent); ``board`` is :func:`board_svg` of it; ``legal`` the
    texts of the seat's legal moves when it is to move; ``events`` the latest
    decisions as (number, mover, lines) for this seat.
    """
    return {
        "type": "state",
        "game": game_id,
        "seat": seat,
        "decision": decision,
        "players": list(players),
        "humans": list(humans),
        "view": public_document(view) if seat is None else seat_document(view),
        "board": board,
        "turn": view.current_player,
        "legal": list(legal),
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
