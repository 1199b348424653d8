"""SVG pictures of the board (and, later, of a game state).

:func:`render_board` draws the board of a set of components as a standalone
SVG document: the provinces as soft coloured regions, the roads, the cities
(fortresses as little castles, the Taj Mahal's in gold), and, given a
:class:`~tajmahal.rules.setup.TilePlacement`, the province tiles and the bonus
tiles that setup put on the board.  Everything is computed from the
components (city positions are the ``x``/``y`` of the components file), so a
custom board draws as well as the standard one.

Each province is drawn as the part of the plane nearer to its cities than to
any other city, rounded off around its cities.  Labels go where they cover no
road, city or other label if such a spot exists: city names and bonus tiles
beside their city, province names and tiles at the clearest spot of their
province.  Text widths are estimated from DejaVu Sans metrics, which are
wider than most sans-serif fonts, so the layout holds in other fonts too.

Rendering is a pure function of its arguments; only :func:`write_board_svg`
touches the file system.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from functools import partial
from html import escape
from pathlib import Path

from tajmahal.game import GameRecord
from tajmahal.render._draw import (
    _draw_bonus,
    _draw_city_markers,
    _draw_city_names,
    _draw_legend,
    _draw_outlines,
    _draw_palaces,
    _draw_province_label,
    _draw_regions,
    _draw_roads,
)
from tajmahal.render._map_layout import Tiles, _layout, placement_tiles
from tajmahal.render._panel import PANEL_WIDTH, draw_panel, panel_height
from tajmahal.render._panel import state_tiles as state_tiles  # the tiles a page shows
from tajmahal.render._svg import BACKGROUND, FONT, Attrs, _el, _fmt, _open, _title, seat_color
from tajmahal.rules.components import Components, standard_components
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.setup import TilePlacement, place_tiles
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView

__all__ = [
    "notebook_picture",
    "notebook_replay",
    "render_board",
    "seat_color",
    "write_board_svg",
]


def render_board(
    components: Components | None = None,
    placement: TilePlacement | None = None,
    state: GameState | PlayerView | None = None,
    *,
    players: Sequence[str] = (),
) -> str:
    """The board as an SVG document (a string); a pure function.

    The picture of a :class:`~tajmahal.PlayerView` also shows, in the key, the
    view's own hand (what that seat sees); a GameState's picture shows no hand.

    ``components`` defaults to :func:`~tajmahal.standard_components`.  Given a
    ``placement`` (from :func:`~tajmahal.place_tiles`), each province shows its
    tile's number and commodities and each fortress its bonus tile.

    Given a ``state`` (a GameState or any seat's PlayerView: only public facts
    are drawn), the board is the game's: each palace on its city, a house
    (normal palace) or a crown (crown palace) in its owner's seat colour; only
    the tiles still on the board (the province tiles of the visits to come,
    the bonus tiles no palace has taken), whatever ``placement`` says; the
    province visited now outlined; and beside the map a key with the visit,
    each seat's colour, name (``players``) and score, who is to play, and
    the court.

    Elements carry classes for styling and inspection: ``province``,
    ``province-name``, ``province-tile``, ``road``, ``city`` (with ``fortress``
    on fortresses), ``city-name``, ``bonus``, ``palace``, ``crown-palace``,
    ``legend``, ``current-province``, ``key``, ``key-seat`` and ``key-score``;
    ``data-id``/``data-city``/``data-seat`` attributes name the ids.

    >>> from tajmahal import place_tiles, standard_components
    >>> comps = standard_components()
    >>> svg = render_board(comps, place_tiles(comps, seed=3))
    >>> svg.startswith('<svg') and svg.rstrip().endswith('</svg>')
    True
    >>> svg.count('class="road"') == len(comps.board.roads)
    True
    >>> import tajmahal as tm
    >>> game = render_board(state=tm.new_game(3, seed=3), players=['ann', 'bob', 'cy'])
    >>> 'Visit 1 of 12' in game and '>seat 1 bob<' in game
    True
    >>> 'hand of seat 2: 6 cards' in render_board(state=tm.new_game(3, seed=3).view(2))
    True
    """
    own_hand = isinstance(state, PlayerView)
    return "\n".join(board_elements(components, placement, state, players, hand=own_hand)) + "\n"


def board_elements(
    components: Components | None,
    placement: TilePlacement | None,
    state: object,
    players: Sequence[str] = (),
    layout_tiles: Tiles | None = None,
    *,
    hand: bool = False,
    live: bool = False,
) -> list[str]:
    """:func:`render_board`'s document as a list of its elements (one string each, in order).

    ``hand``: the key also shows the view's own hand (``state`` a PlayerView).

    ``live``: the board a page keeps and updates itself (the web game): no key
    and no palaces; every province's outline (``province-outline``, hidden)
    and every tile of ``layout_tiles`` drawn, so that the page shows the visited
    province and hides the tiles taken; an empty ``<g id="palaces">`` layer
    under the city names for the page to draw palaces in.

    ``layout_tiles`` (a superset of the tiles shown) fixes where labels go, so that the
    pictures of one game's steps keep every label in place and share most elements.
    """
    comps = components if components is not None else standard_components()
    board = comps.board
    view = state.view(state.current_player or 0) if isinstance(state, GameState) else state
    if not isinstance(view, PlayerView):
        view = None  # an object with only ``palaces``: drawn as they are
    tiles = state_tiles(comps, view) if view is not None else placement_tiles(comps, placement)
    if live and layout_tiles is not None:
        tiles = layout_tiles
    layout = _layout(comps, layout_tiles or tiles)
    x0, y0, x1, y1 = layout.view
    if view is not None and not live:  # the key to the right of the map
        hand = hand and isinstance(state, PlayerView)
        panel = (x1 + 4, y0 + 6, x1 + 4 + PANEL_WIDTH, y0 + 6 + panel_height(view, hand))
        x1, y1 = panel[2] + 10, max(y1, panel[3] + 10)
    width, height = x1 - x0, y1 - y0
    frame = {"x": x0, "y": y0, "width": width, "height": height}
    svg: Attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "width": width,
        "height": height,
        "viewBox": f"{_fmt(x0)} {_fmt(y0)} {_fmt(width)} {_fmt(height)}",
        "font-family": FONT,
    }
    out = [
        _open("svg", svg),
        _title(f"Taj Mahal: the {comps.name} board"),
        _el("rect", {**frame, "fill": BACKGROUND}),
    ]
    # what depends only on the layout (and the tiles shown) is drawn once per layout
    drawn, boxes = layout.drawn, layout.boxes
    current = view.province if view is not None and not view.is_over and not live else None
    out += drawn(("regions", current), lambda: _draw_regions(layout, board, current))
    if live:
        out += drawn("outlines", lambda: _draw_outlines(layout, board))
    out += drawn("roads", lambda: _draw_roads(board))
    for p in board.provinces:
        tile = tiles.province.get(p.id)
        label = partial(_draw_province_label, boxes, p.id, p.name, layout.colors[p.id], tile)
        out += drawn(("province", p.id, tile), label)
    for city_id, bonus in sorted(tiles.bonus.items()):
        if f"bonus:{city_id}" in boxes:
            box = boxes[f"bonus:{city_id}"]
            out += drawn(
                ("bonus", city_id, bonus), partial(_draw_bonus, box, bonus, board.city(city_id))
            )
    out += drawn("markers", lambda: _draw_city_markers(board))
    palaces = getattr(view if view is not None else state, "palaces", None)
    if live:
        out.append('<g id="palaces"></g>')
    elif isinstance(palaces, Mapping):
        for city_id, owners in sorted(palaces.items(), key=lambda item: str(item[0])):
            if owners != (None, None):
                one = {city_id: owners}
                draw = partial(_draw_palaces, one, board, players)
                out += drawn(("palaces", city_id, owners, tuple(players)), draw)
    out += drawn("names", lambda: _draw_city_names(board, boxes))
    out += drawn(("legend", tiles.explained), lambda: _draw_legend(boxes["legend"], comps, tiles))
    if view is not None and not live:
        out += draw_panel(panel, view, players, hand)
    out.append("</svg>")
    return out


def write_board_svg(
    path: str | os.PathLike[str],
    components: Components | None = None,
    seed: int | None = None,
) -> None:
    """Write :func:`render_board`'s picture of the board to ``path`` (UTF-8).

    With a ``seed``, the tiles lie where :func:`~tajmahal.place_tiles` lays
    them for that seed; without one, the bare board is drawn.

    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = pathlib.Path(folder) / 'board.svg'
    ...     write_board_svg(target, seed=3)
    ...     target.read_text(encoding='utf-8').startswith('<svg')
    True
    """
    comps = components if components is not None else standard_components()
    placement = place_tiles(comps, seed) if seed is not None else None
    Path(path).write_text(render_board(comps, placement), encoding="utf-8")


def notebook_picture(state: GameState | PlayerView) -> str:
    """The picture Jupyter shows for a state or a view (``_repr_svg_``): public facts only.

    >>> import tajmahal as tm
    >>> notebook_picture(tm.new_game(3, seed=1).view(0)).startswith('<svg')
    True
    """
    return render_board(state.components, state=state)


def notebook_replay(record: GameRecord) -> str:
    """The replay page in an iframe (``srcdoc``, escaped), or why the record cannot be shown:
    what Jupyter shows for a record (``_repr_html_``)."""
    from tajmahal.render.viewer import replay_html

    try:
        page = replay_html(record)
    except TajMahalError as exc:
        return f"<p>This record does not replay: {escape(str(exc))}</p>"
    return (
        f'<iframe title="Taj Mahal replay" srcdoc="{escape(page, quote=True)}" '
        'sandbox="allow-scripts" style="width: 100%; height: 760px; border: 0"></iframe>'
    )

