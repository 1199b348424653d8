"""Drawing the parts of the board as SVG elements."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from xml.sax.saxutils import escape

from tajmahal.render._map_layout import (
    Tiles,
    _badge_width,
    _bonus_size,
    _bonus_text,
    _chip_width,
    _Layout,
)
from tajmahal.render._svg import (
    BONUS_FILL,
    BONUS_FONT,
    BORDER_COLOR,
    CHIP_FONT,
    CITY_FILL,
    CITY_FONT,
    CITY_RADIUS,
    COMMODITY_FILL,
    FORTRESS_HALF,
    HIGHLIGHT,
    INK,
    PROVINCE_FONT,
    PROVINCE_SPACING,
    ROAD_COLOR,
    TAJ_FILL,
    TILE_FILL,
    TILE_SIZE,
    TITLE_FONT,
    Attrs,
    Box,
    Point,
    _el,
    _fmt,
    _open,
    _points,
    _shade,
    _title,
    seat_color,
)
from tajmahal.rules.components import Board, BonusKind, BonusTile, City, Components, ProvinceTile

# ----------------------------------------------------------------- drawing


def _text(
    x: float,
    y: float,
    text: str,
    cls: str,
    size: float,
    *,
    anchor: str = "start",
    bold: bool = False,
    fill: str = INK,
    halo: str | None = None,
    extra: Mapping[str, str | float] | None = None,
) -> str:
    attrs: dict[str, str | float] = {"class": cls, "x": x, "y": y, "font-size": size}
    if anchor != "start":
        attrs["text-anchor"] = anchor
    if bold:
        attrs["font-weight"] = "bold"
    attrs["fill"] = fill
    if halo:
        attrs |= {"stroke": halo, "stroke-width": "3", "stroke-linejoin": "round"}
        attrs["paint-order"] = "stroke"
    attrs |= extra or {}
    return _el("text", attrs, escape(text))


def _fortress(x: float, y: float, fill: str) -> str:
    h, m, n = FORTRESS_HALF, 0.55 * FORTRESS_HALF, 0.2 * FORTRESS_HALF
    outline = [(-h, h), (h, h), (h, -h), (m, -h), (m, -m), (n, -m), (n, -h), (-n, -h), (-n, -m)]
    outline += [(-m, -m), (-m, -h), (-h, -h)]
    return _el(
        "polygon",
        {
            "points": _points((x + dx, y + dy) for dx, dy in outline),
            "fill": fill,
            "stroke": INK,
            "stroke-width": "1.6",
            "stroke-linejoin": "round",
        },
    )


def _circle(x: float, y: float) -> str:
    style = {"fill": CITY_FILL, "stroke": INK, "stroke-width": "1.6"}
    return _el("circle", {"cx": x, "cy": y, "r": CITY_RADIUS, **style})


def _segments(edges: Iterable[tuple[Point, Point]]) -> str:
    return "".join(f"M{_fmt(p[0])},{_fmt(p[1])}L{_fmt(q[0])},{_fmt(q[1])}" for p, q in edges)


def _draw_regions(layout: _Layout, board: Board, current: str | None = None) -> list[str]:
    out: list[str] = []
    province_of = {c.id: c.province for c in board.cities}
    borders: list[tuple[Point, Point]] = []
    for province in board.provinces:
        fill = layout.colors[province.id]
        out.append(f'<g class="province" data-id="{escape(province.id)}">{_title(province.name)}')
        outline: list[tuple[Point, Point]] = []
        for region in layout.regions[province.id]:
            cell = region.cell
            # the stroke in the fill colour hides the seams between one province's cells
            pts = _points(p for p, _ in cell)
            out.append(_el("polygon", {"points": pts, "fill": fill, "stroke": fill}))
            for k, (p, label) in enumerate(cell):
                q = cell[(k + 1) % len(cell)][0]
                if label == "":
                    outline.append((p, q))
                elif province_of.get(label, province.id) != province.id and label < region.city.id:
                    borders.append((p, q))
        if outline:
            style = {"fill": "none", "stroke": _shade(fill, 0.72), "stroke-width": "1.5"}
            out.append(_el("path", {"d": _segments(outline), **style}))
        out.append("</g>")
        if province.id == current:
            highlight = _province_outline(layout, board, province.id)
            style = {"fill": "none", "stroke": HIGHLIGHT, "stroke-width": "5"}
            style |= {"stroke-linecap": "round", "stroke-opacity": "0.9"}
            attrs = {"class": "current-province", "data-province": province.id, "d": highlight}
            out.append(_el("path", {**attrs, **style}))
    if borders:
        style = {"fill": "none", "stroke": BORDER_COLOR, "stroke-width": "1.3"}
        style |= {"stroke-dasharray": "5 3", "stroke-linecap": "round"}
        out.append(_el("path", {"class": "border", "d": _segments(borders), **style}))
    return out


def _draw_outlines(layout: _Layout, board: Board) -> list[str]:
    """Every province's outline, hidden: a live page shows the visited one."""
    style = {"fill": "none", "stroke": HIGHLIGHT, "stroke-width": "5", "visibility": "hidden"}
    style |= {"stroke-linecap": "round", "stroke-opacity": "0.9", "pointer-events": "none"}
    return [
        _el("path", {"class": "province-outline", "data-province": p.id,
                     "d": _province_outline(layout, board, p.id), **style})
        for p in board.provinces
    ]  # fmt: skip


def _province_outline(layout: _Layout, board: Board, province_id: str) -> str:
    """The province's whole outline: its region's edge and its borders with other provinces."""
    province_of = {c.id: c.province for c in board.cities}
    edges = [
        (p, region.cell[(k + 1) % len(region.cell)][0])
        for region in layout.regions[province_id]
        for k, (p, label) in enumerate(region.cell)
        if label == "" or province_of.get(label, province_id) != province_id
    ]
    return _segments(edges)


def _draw_roads(board: Board) -> list[str]:
    out = [f'<g stroke="{ROAD_COLOR}" stroke-width="3" stroke-linecap="round">']
    for a, b in board.roads:
        ca, cb = board.city(a), board.city(b)
        attrs = {"class": "road", "data-from": a, "data-to": b}
        out.append(_el("line", {**attrs, "x1": ca.x, "y1": ca.y, "x2": cb.x, "y2": cb.y}))
    out.append("</g>")
    return out


def _draw_province_label(
    boxes: Mapping[str, Box], province_id: str, name: str, color: str, tile: ProvinceTile | None
) -> list[str]:
    box = boxes[f"province:{province_id}"]
    out = [
        _text(
            (box[0] + box[2]) / 2,
            box[1] + PROVINCE_FONT + 1,
            name.upper(),
            "province-name",
            PROVINCE_FONT,
            anchor="middle",
            bold=True,
            fill=_shade(color, 0.42),
            halo=color,
            extra={"letter-spacing": PROVINCE_SPACING, "data-province": province_id},
        )
    ]
    if tile is None:
        return out
    spot = boxes[f"tile:{province_id}"]  # kept for the widest tile: this one centred in it
    left = (spot[0] + spot[2] - _badge_width(tile)) / 2
    top = spot[1] + 2
    goods = ", ".join(c.value for c in tile.commodities)
    attrs: Attrs = {
        "class": "province-tile",
        "data-province": province_id,
        "data-number": tile.number,
    }
    out.append(_open("g", attrs) + _title(f"province tile {tile.number}: {goods}"))
    square = {"x": left, "y": top, "width": TILE_SIZE, "height": TILE_SIZE, "rx": 3}
    out.append(_el("rect", {**square, "fill": TILE_FILL, "stroke": INK, "stroke-width": "1.3"}))
    middle = top + TILE_SIZE / 2
    number = str(tile.number)
    out.append(
        _text(
            left + TILE_SIZE / 2,
            middle + 4.5,
            number,
            "tile-number",
            12.5,
            anchor="middle",
            bold=True,
        )
    )
    x = left + TILE_SIZE + 3
    for commodity in tile.commodities:
        w = _chip_width(commodity)
        chip = {"x": x, "y": top + 3, "width": w, "height": TILE_SIZE - 6, "rx": 7}
        fill = COMMODITY_FILL[commodity]
        out.append(_el("rect", {**chip, "fill": fill, "stroke": INK, "stroke-width": "0.8"}))
        label = commodity.value
        out.append(_text(x + w / 2, middle + 3, label, "commodity", CHIP_FONT, anchor="middle"))
        x += w + 3
    out.append("</g>")
    return out


def _draw_bonus(spot: Box, tile: BonusTile, city: City) -> list[str]:
    """The tile inside its spot (kept for the widest tile: see ``_layout``), on the city's side."""
    width = min(_bonus_size(tile)[0], spot[2] - spot[0])
    if spot[2] <= city.x:  # left of the city: flush right
        left = spot[2] - width
    elif spot[0] >= city.x:  # right of it: flush left
        left = spot[0]
    else:  # above or below: centred
        left = (spot[0] + spot[2] - width) / 2
    box = (left, spot[1], left + width, spot[3])
    if tile.commodity is not None:
        fill = COMMODITY_FILL[tile.commodity]
    else:
        fill = BONUS_FILL.get(tile.kind, "#ffffff")
    text = _bonus_text(tile)
    middle = (box[0] + box[2]) / 2
    attrs = {"class": "bonus", "data-city": city.id, "data-kind": tile.kind.value}
    size = {"width": box[2] - box[0], "height": box[3] - box[1]}
    return [
        _open("g", attrs) + _title(f"bonus tile on {city.name}: {text}"),
        _el("rect", {"x": box[0], "y": box[1], **size, "rx": 2, "fill": fill, "stroke": INK}),
        _text(middle, box[3] - 3.8, text, "bonus-text", BONUS_FONT, anchor="middle", bold=True),
        "</g>",
    ]


def _draw_city_markers(board: Board) -> list[str]:
    """A circle per city, a castle per fortress (gold for the Taj Mahal's)."""
    out: list[str] = []
    for city in board.cities:
        if city.fortress:
            fill = TAJ_FILL if city.id == board.taj_mahal_city else CITY_FILL
            marker, cls, what = _fortress(city.x, city.y, fill), "city fortress", " (fortress)"
        else:
            marker, cls, what = _circle(city.x, city.y), "city", ""
        out.append(_el("g", {"class": cls, "data-id": city.id}, _title(city.name + what) + marker))
    return out


def _draw_city_names(board: Board, boxes: Mapping[str, Box]) -> list[str]:
    out: list[str] = []
    for city in board.cities:
        box = boxes[f"name:{city.id}"]
        extra = {"data-city": city.id}
        name = city.name
        out.append(
            _text(box[0] + 1, box[3] - 4, name, "city-name", CITY_FONT, halo=CITY_FILL, extra=extra)
        )
    return out


_HOUSE = ((-7.0, 7.0), (7.0, 7.0), (7.0, -1.5), (0.0, -8.5), (-7.0, -1.5))
#: a crown as wide as a palace, with three points
_CROWN = (
    (-8.0, 5.0), (8.0, 5.0), (8.0, -6.0), (4.0, -1.0), (0.0, -8.0), (-4.0, -1.0), (-8.0, -6.0),
)  # fmt: skip


def _owners(value: object) -> tuple[object, object]:
    if isinstance(value, Sequence) and not isinstance(value, str):
        items = (*value, None, None)
        return items[0], items[1]
    return None, None


def _draw_palaces(
    palaces: Mapping[object, object], board: Board, players: Sequence[str] = ()
) -> list[str]:
    """A house per normal palace on its city, a crown per crown palace (beside a house).

    Each in its owner's seat colour with a light rim, so a palace reads on any
    province colour and a crown palace as clearly as a normal one.
    """
    out: list[str] = []
    known = {c.id for c in board.cities}
    for city_id in sorted(k for k in palaces if isinstance(k, str) and k in known):
        city = board.city(city_id)
        normal, crown = _owners(palaces[city_id])
        crown_at = (10.0, -12.0) if isinstance(normal, int) else (0.0, 0.0)
        for owner, shape, (dx, dy), cls, what in (
            (normal, _HOUSE, (0.0, 0.0), "palace", "palace"),
            (crown, _CROWN, crown_at, "crown-palace", "crown palace"),
        ):
            if not isinstance(owner, int) or isinstance(owner, bool):
                continue
            name = f"seat {owner}" + (f" ({players[owner]})" if 0 <= owner < len(players) else "")
            points = _points((city.x + dx + px, city.y + dy + py) for px, py in shape)
            rim = {"points": points, "fill": "none", "stroke": CITY_FILL, "stroke-width": "4"}
            out.append(_el("polygon", {**rim, "stroke-linejoin": "round"}))
            attrs = {
                "class": f"{cls} seat-{owner}",
                "data-city": city_id,
                "points": points,
                "fill": seat_color(owner),
                "stroke": INK,
                "stroke-width": "1.3",
                "stroke-linejoin": "round",
            }
            out.append(_el("polygon", attrs, _title(f"{name}: {what} on {city.name}")))
    return out


def _draw_legend(box: Box, components: Components, tiles: Tiles) -> list[str]:
    x, y = box[0], box[1]
    board = components.board
    subtitle = f"{components.name} board"
    if components.name == "standard":
        subtitle += " (a reconstruction)"
    frame = {"x": x, "y": y, "width": box[2] - x, "height": box[3] - y, "rx": 6}
    heading: Attrs = {"x": x + 12, "y": y + 24, "font-family": TITLE_FONT, "font-size": 19}
    out = [
        '<g class="legend">',
        _el("rect", {**frame, "fill": "#fbf6e9", "stroke": "#b59c74"}),
        _el("text", {**heading, "font-weight": "bold", "fill": INK}, "Taj Mahal"),
        _text(x + 12, y + 38, subtitle, "legend-text", 10, fill="#6b5a45"),
    ]
    lx = x + 20
    rows: list[tuple[str, str]] = [
        (_circle(lx, 0), "city"),
        (_fortress(lx, 0, CITY_FILL), "fortress"),
        (_fortress(lx, 0, TAJ_FILL), f"{board.city(board.taj_mahal_city).name}: the Taj Mahal"),
        (
            f'<path d="M{_fmt(lx - 10)},0h20" stroke="{ROAD_COLOR}" stroke-width="3" '
            'stroke-linecap="round"/>',
            "road",
        ),
        (
            f'<path d="M{_fmt(lx - 10)},0h20" stroke="{BORDER_COLOR}" stroke-width="1.3" '
            'stroke-dasharray="5 3"/>',
            "province border",
        ),
    ]
    if tiles.explained:
        tile: Attrs = {"x": lx - 8, "y": -8, "width": 16, "height": 16, "rx": 3, "fill": TILE_FILL}
        rows.append((_el("rect", {**tile, "stroke": INK}), "province tile: visit order"))
        bonus: Attrs = {"x": lx - 10, "y": -7, "width": 20, "height": 14, "rx": 2, "stroke": INK}
        rows.append(
            (
                _el("rect", {**bonus, "fill": BONUS_FILL[BonusKind.POINTS]}),
                "bonus tile on a fortress",
            )
        )
    for k, (symbol, label) in enumerate(rows):
        row = y + 56 + 18 * k
        out.append(f'<g transform="translate(0 {_fmt(row)})">{symbol}</g>')
        out.append(_text(lx + 18, row + 4, label, "legend-text", 10.5))
    out.append("</g>")
    return out
