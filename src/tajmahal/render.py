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

import itertools
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple
from xml.sax.saxutils import escape

from tajmahal.rules.components import (
    Board,
    BonusKind,
    BonusTile,
    City,
    Commodity,
    Components,
    Province,
    ProvinceTile,
    standard_components,
)
from tajmahal.rules.setup import TilePlacement, place_tiles
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView

__all__ = ["render_board", "write_board_svg"]

Point = tuple[float, float]
#: An axis-aligned box: (left, top, right, bottom).
Box = tuple[float, float, float, float]
#: A convex polygon as (vertex, label of the edge from it to the next vertex).
Cell = list[tuple[Point, str]]
#: XML attributes of an element.
Attrs = dict[str, str | float]

# ----------------------------------------------------------------- appearance

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
TITLE_FONT = "DejaVu Serif, Georgia, serif"
BACKGROUND = "#f3ead3"
INK = "#2f2419"
ROAD_COLOR = "#8c6239"
BORDER_COLOR = "#8a7456"
CITY_FILL = "#fffaf0"
TAJ_FILL = "#f4cf57"
TILE_FILL = "#fffdf6"
CITY_RADIUS = 7.0
FORTRESS_HALF = 8.5
#: Room kept free around every city for its marker and the palaces drawn on it.
MARKER_CLEAR = 13.0
#: Room around the cities' bounding box (the picture's margin).
MARGIN = 48.0
#: Least room between two labels.
LABEL_GAP = 3.0
CITY_FONT = 11.5
PROVINCE_FONT = 13.0
PROVINCE_SPACING = 2.0
TILE_SIZE = 20.0
CHIP_FONT = 8.5
BONUS_FONT = 9.0
BONUS_HEIGHT = 14.0
LEGEND_WIDTH = 196.0

#: Province fills; each province takes one its neighbours have not taken.
PROVINCE_PALETTE = (
    "#ecd3a4",
    "#cfe4c2",
    "#f1c3b3",
    "#c9dcee",
    "#e3d0ea",
    "#f5e6a6",
    "#c8e6df",
)
COMMODITY_FILL = {
    Commodity.RICE: "#f7f3e3",
    Commodity.TEA: "#b7dc9c",
    Commodity.SPICES: "#f4a876",
    Commodity.JEWELS: "#a8c2f2",
}
BONUS_FILL = {
    BonusKind.TAJ_MAHAL: TAJ_FILL,
    BonusKind.POINTS: "#fff1b8",
    BonusKind.CARD: "#e2d7f3",
}
#: Palace colours by seat (cycled for more seats).
SEAT_COLORS = ("#d1495b", "#2e86ab", "#3a9d23", "#f0a202", "#7b4fa0")

# DejaVu Sans advance widths in 1/2048 em; other characters count as 0.62 em.
_LOWER = (
    "1255 1300 1126 1300 1260 721 1300 1298 569 569 1186 569 1995 "
    "1298 1253 1300 1300 842 1067 803 1298 1212 1675 1212 1212 1075"
)
_UPPER = (
    "1401 1405 1430 1577 1294 1178 1587 1540 604 604 1343 1141 1767 "
    "1532 1612 1235 1612 1423 1300 1251 1499 1401 2025 1403 1251 1403"
)
_WIDTHS: dict[str, int] = {
    **dict(zip("abcdefghijklmnopqrstuvwxyz", map(int, _LOWER.split()), strict=True)),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", map(int, _UPPER.split()), strict=True)),
    **dict.fromkeys("0123456789", 1303),
    **dict(zip(" .,-+'():/", (651, 651, 651, 739, 1716, 563, 799, 799, 690, 690), strict=True)),
}


def _text_width(text: str, size: float, *, bold: bool = False, spacing: float = 0.0) -> float:
    """Estimated advance width of ``text`` (slightly generous)."""
    em = sum(_WIDTHS.get(ch, 1270) for ch in text) / 2048
    return em * size * (1.15 if bold else 1.0) * 1.03 + spacing * max(len(text) - 1, 0)


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _attrs(attrs: Mapping[str, str | float]) -> str:
    """XML attributes; numbers are written with one decimal at most."""
    return "".join(
        f' {k}="{escape(v, {chr(34): "&quot;"}) if isinstance(v, str) else _fmt(v)}"'
        for k, v in attrs.items()
    )


def _el(tag: str, attrs: Mapping[str, str | float], body: str | None = None) -> str:
    """One SVG element, empty or with ``body`` (already XML) inside."""
    if body is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"


def _open(tag: str, attrs: Mapping[str, str | float]) -> str:
    """The start tag of an element whose content follows."""
    return f"<{tag}{_attrs(attrs)}>"


def _title(text: str) -> str:
    return f"<title>{escape(text)}</title>"


def _shade(color: str, factor: float) -> str:
    """``color`` (#rrggbb) darkened by ``factor`` (0 black .. 1 unchanged)."""
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{max(0, min(255, round(c * factor))):02x}" for c in rgb)


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)


# ----------------------------------------------------------------- geometry


def _clip(cell: Cell, a: float, b: float, c: float, label: str) -> Cell:
    """Clip a convex cell to the half-plane ``a*x + b*y <= c``; new edges get ``label``."""
    out: Cell = []
    n = len(cell)
    for k in range(n):
        (p, lab), (q, _) = cell[k], cell[(k + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append((p, lab))
        if (fp <= 0) != (fq <= 0):
            t = fp / (fp - fq)
            cut = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            out.append((cut, label if fp <= 0 else lab))
    return out


def _segment_hits_box(p: Point, q: Point, box: Box) -> bool:
    """Whether segment pq meets the box (Liang–Barsky clipping)."""
    x0, y0, x1, y1 = box
    if max(p[0], q[0]) < x0 or min(p[0], q[0]) > x1:
        return False
    if max(p[1], q[1]) < y0 or min(p[1], q[1]) > y1:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    lo, hi = 0.0, 1.0
    for den, num in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if den == 0:
            if num < 0:
                return False
            continue
        t = num / den
        if den < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def _boxes_overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _circle_hits_box(center: Point, radius: float, box: Box) -> bool:
    nx = min(max(center[0], box[0]), box[2])
    ny = min(max(center[1], box[1]), box[3])
    return math.hypot(nx - center[0], ny - center[1]) < radius


# ----------------------------------------------------------------- layout


class _Region(NamedTuple):
    """One city's share of its province."""

    city: City
    cell: Cell


class _Layout(NamedTuple):
    """Where everything goes, in drawing coordinates."""

    view: Box
    regions: dict[str, list[_Region]]
    colors: dict[str, str]
    #: Keys ``name:<city>``, ``bonus:<city>``, ``province:<province>`` and ``legend``.
    boxes: dict[str, Box]


class _Buckets:
    """A spatial hash of boxes: which items may meet a box."""

    def __init__(self, size: float = 40.0) -> None:
        self.size = size
        self.cells: dict[tuple[int, int], set[int | str]] = {}

    def _keys(self, box: Box) -> Iterable[tuple[int, int]]:
        s = self.size
        xs = range(math.floor(box[0] / s), math.floor(box[2] / s) + 1)
        ys = range(math.floor(box[1] / s), math.floor(box[3] / s) + 1)
        return itertools.product(xs, ys)

    def add(self, item: int | str, box: Box) -> None:
        for k in self._keys(box):
            self.cells.setdefault(k, set()).add(item)

    def discard(self, item: int | str, box: Box) -> None:
        for k in self._keys(box):
            self.cells.get(k, set()).discard(item)

    def near(self, box: Box) -> set[int | str]:
        found: set[int | str] = set()
        for k in self._keys(box):
            found |= self.cells.get(k, set())
        return found


class _Placer:
    """Greedy placement of label boxes away from roads, cities and each other."""

    def __init__(self, view: Box, roads: list[tuple[Point, Point]], cities: list[Point]) -> None:
        self.view = view
        self.roads = roads
        self.cities = cities
        self.placed: dict[str, Box] = {}
        self._roads = _Buckets()
        for i, (p, q) in enumerate(roads):
            self._roads.add(i, (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1])))
        self._cities = _Buckets()
        r = MARKER_CLEAR
        for i, (x, y) in enumerate(cities):
            self._cities.add(i, (x - r, y - r, x + r, y + r))
        self._labels = _Buckets()

    def place(self, key: str, box: Box) -> None:
        """Put ``key`` at ``box`` (moving it if it was placed already)."""
        self.remove(key)
        self.placed[key] = box
        self._labels.add(key, box)

    def remove(self, key: str) -> None:
        if key in self.placed:
            self._labels.discard(key, self.placed.pop(key))

    def cost(
        self, box: Box, key: str, *, road_weight: float = 40.0, limit: float = math.inf
    ) -> float:
        """How bad a spot is: outside the picture, on a label, a city or roads."""
        x0, y0, x1, y1 = self.view
        cost = 0.0
        if box[0] < x0 or box[1] < y0 or box[2] > x1 or box[3] > y1:
            cost += 1000
        gap = LABEL_GAP
        padded = (box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap)
        for other in self._labels.near(padded):
            if other != key and _boxes_overlap(padded, self.placed[str(other)]):
                cost += 1000
        if cost >= limit:
            return cost
        for i in self._cities.near(box):
            if _circle_hits_box(self.cities[int(i)], MARKER_CLEAR, box):
                cost += 800
        if cost >= limit:
            return cost
        for i in self._roads.near(box):
            p, q = self.roads[int(i)]
            if _segment_hits_box(p, q, box):
                cost += road_weight
        return cost

    def search(
        self, key: str, candidates: Iterable[tuple[Box, float]], road_weight: float = 40.0
    ) -> tuple[Box, float]:
        """The cheapest candidate for ``key`` and its cost (candidates carry a bias each)."""
        best_box: Box | None = None
        best_cost = math.inf
        for box, bias in sorted(candidates, key=lambda c: c[1]):
            if bias >= best_cost:
                break
            total = bias + self.cost(box, key, road_weight=road_weight, limit=best_cost - bias)
            if total < best_cost:
                best_box, best_cost = box, total
        if best_box is None:
            raise ValueError(f"no spot for {key}")
        return best_box, best_cost

    def best(
        self, key: str, candidates: Iterable[tuple[Box, float]], road_weight: float = 40.0
    ) -> Box:
        """Put ``key`` on the cheapest candidate."""
        box, _ = self.search(key, candidates, road_weight)
        self.place(key, box)
        return box


def _around(center: Point, width: float, height: float) -> list[tuple[Box, float]]:
    """Candidate boxes beside a city marker, each with a preference bias (right is best)."""
    x, y = center
    spots: list[tuple[float, float, float]] = []  # (left, top, bias)
    for extra, penalty in ((1.0, 0.0), (8.0, 8.0), (17.0, 20.0)):
        r = MARKER_CLEAR + extra
        e = 0.75 * r
        spots += [
            (x + r, y - height / 2, penalty),
            (x + e, y - e - height, penalty + 1),
            (x + e, y + e, penalty + 1.2),
            (x - r - width, y - height / 2, penalty + 1.5),
            (x - e - width, y - e - height, penalty + 2),
            (x - e - width, y + e, penalty + 2.2),
            (x - width / 2, y - r - height, penalty + 2.5),
            (x - width / 2, y + r, penalty + 2.5),
        ]
    return [((left, top, left + width, top + height), bias) for left, top, bias in spots]


class _RegionSpots:
    """Candidate label spots on a grid over a province's region."""

    def __init__(self, cells: list[list[Point]], center: Point, step: float = 6.0) -> None:
        xs = [p[0] for cell in cells for p in cell]
        ys = [p[1] for cell in cells for p in cell]
        self.center = center
        self.step = step
        self.origin = ox, oy = min(xs), min(ys)
        self.size = nx, ny = int((max(xs) - ox) / step), int((max(ys) - oy) / step)
        # which grid points lie in the region: each convex cell, scanline by scanline
        self.grid = [[False] * (nx + 1) for _ in range(ny + 1)]
        for cell in cells:
            edges = list(zip(cell, cell[1:] + cell[:1], strict=True))
            for j, row in enumerate(self.grid):
                y = oy + j * step
                cuts = [
                    p[0] + (y - p[1]) * (q[0] - p[0]) / (q[1] - p[1])
                    for p, q in edges
                    if min(p[1], q[1]) <= y <= max(p[1], q[1]) and p[1] != q[1]
                ]
                if cuts:
                    lo = max(0, math.ceil((min(cuts) - ox) / step))
                    hi = min(nx, math.floor((max(cuts) - ox) / step))
                    row[lo : hi + 1] = [True] * max(0, hi - lo + 1)

    def __call__(self, width: float, height: float) -> list[tuple[Box, float]]:
        """Boxes of this size with their centre inside, biased towards the centre and inside."""
        step, (ox, oy), (cx, cy), grid = self.step, self.origin, self.center, self.grid
        wi, hi = math.ceil(width / step / 2) * 2, math.ceil(height / step / 2) * 2
        spots: list[tuple[Box, float]] = []
        for j in range(self.size[1] - hi + 1):
            top, middle, bottom = grid[j], grid[j + hi // 2], grid[j + hi]
            for i in range(self.size[0] - wi + 1):
                if not middle[i + wi // 2]:
                    continue
                outside = 4 - top[i] - top[i + wi] - bottom[i] - bottom[i + wi]
                if outside > 1:
                    continue
                mx, my = ox + (i + wi / 2) * step, oy + (j + hi / 2) * step
                box = (mx - width / 2, my - height / 2, mx + width / 2, my + height / 2)
                spots.append((box, 25 * outside + 0.08 * math.hypot(mx - cx, my - cy)))
        if not spots:  # a region too small for the label: centre it on the cities
            spots.append(((cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2), 0.0))
        return spots


def _bonus_text(tile: BonusTile) -> str:
    if tile.kind is BonusKind.TAJ_MAHAL:
        return f"Taj Mahal +{tile.points}"
    return str(tile)


def _bonus_size(tile: BonusTile) -> tuple[float, float]:
    return _text_width(_bonus_text(tile), BONUS_FONT, bold=True) + 8, BONUS_HEIGHT


def _chip_width(commodity: Commodity) -> float:
    return _text_width(commodity.value, CHIP_FONT) + 7


def _badge_width(tile: ProvinceTile) -> float:
    return TILE_SIZE + sum(_chip_width(c) + 3 for c in tile.commodities)


def _province_colors(board: Board) -> dict[str, str]:
    province_of = {c.id: c.province for c in board.cities}
    near: dict[str, set[str]] = {p.id: set() for p in board.provinces}
    for a, b in board.roads:
        pa, pb = province_of[a], province_of[b]
        if pa != pb:
            near[pa].add(pb)
            near[pb].add(pa)
    colors: dict[str, str] = {}
    used = dict.fromkeys(PROVINCE_PALETTE, 0)
    for p in board.provinces:
        taken = {colors[q] for q in near[p.id] if q in colors}
        free = [c for c in PROVINCE_PALETTE if c not in taken] or list(PROVINCE_PALETTE)
        colors[p.id] = min(free, key=lambda c: (used[c], PROVINCE_PALETTE.index(c)))
        used[colors[p.id]] += 1
    return colors


def _region_radius(board: Board) -> float:
    """How far a province's region reaches beyond its cities."""
    longest = 0.0
    for a, b in board.roads:
        ca, cb = board.city(a), board.city(b)
        if ca.province == cb.province:
            longest = max(longest, math.hypot(ca.x - cb.x, ca.y - cb.y))
    return min(max(0.62 * longest, 60.0), 140.0)


def _regions(board: Board, view: Box) -> dict[str, list[_Region]]:
    """Each city's Voronoi cell, cut to a circle around the city and to the picture.

    A cell edge is labelled with the id of the city on its other side, ``""``
    where the region ends and ``"#edge"`` along the picture's edge.
    """
    radius = _region_radius(board)
    sides = 28
    x0, y0, x1, y1 = view
    frame = ((-1.0, 0.0, -x0), (1.0, 0.0, x1), (0.0, -1.0, -y0), (0.0, 1.0, y1))
    out: dict[str, list[_Region]] = {p.id: [] for p in board.provinces}
    for city in board.cities:
        cell: Cell = [
            (
                (
                    city.x + radius * math.cos(2 * math.pi * k / sides),
                    city.y + radius * math.sin(2 * math.pi * k / sides),
                ),
                "",
            )
            for k in range(sides)
        ]
        for a, b, c in frame:
            cell = _clip(cell, a, b, c, "#edge")
        for other in board.cities:
            if other.id == city.id or math.hypot(other.x - city.x, other.y - city.y) > 2 * radius:
                continue
            a, b = other.x - city.x, other.y - city.y
            c = (other.x**2 + other.y**2 - city.x**2 - city.y**2) / 2
            cell = _clip(cell, a, b, c, other.id)
        out[city.province].append(_Region(city, cell))
    return out


def _province_tiles(
    components: Components, placement: TilePlacement | None
) -> dict[str, ProvinceTile]:
    if placement is None:
        return {}
    by_number = {t.number: t for t in components.province_tiles}
    order = placement.province_order
    return {pid: by_number[k] for k, pid in enumerate(order, start=1) if k in by_number}


def _legend_rows(placement: TilePlacement | None) -> int:
    return 5 + (2 if placement is not None else 0)


def _place_province(
    placer: _Placer, province: Province, regions: list[_Region], tile: ProvinceTile | None
) -> None:
    """Place a province's name and tile: one above the other, side by side, or apart."""
    cx = sum(c.x for c in province.cities) / len(province.cities)
    cy = sum(c.y for c in province.cities) / len(province.cities)
    spots = _RegionSpots([[p for p, _ in r.cell] for r in regions], (cx, cy))

    name_key, tile_key = f"province:{province.id}", f"tile:{province.id}"
    name_w = _text_width(province.name.upper(), PROVINCE_FONT, bold=True, spacing=PROVINCE_SPACING)
    name_w, name_h = name_w + 4, PROVINCE_FONT + 5
    if tile is None:
        placer.best(name_key, spots(name_w, name_h))
        return
    tile_w, tile_h = _badge_width(tile) + 4, TILE_SIZE + 4
    options: list[tuple[float, int, dict[str, Box]]] = []
    # the name above the tile
    box, cost = placer.search(name_key, spots(max(name_w, tile_w), name_h + tile_h))
    mx = (box[0] + box[2]) / 2
    top = box[1] + name_h
    name_box = (mx - name_w / 2, box[1], mx + name_w / 2, top)
    tile_box = (mx - tile_w / 2, top, mx + tile_w / 2, box[3])
    if placer.cost(box, name_key) == 0:  # clear of everything: done
        placer.place(name_key, name_box)
        placer.place(tile_key, tile_box)
        return
    options.append((cost, 0, {name_key: name_box, tile_key: tile_box}))
    # side by side
    box, cost = placer.search(name_key, spots(name_w + tile_w, max(name_h, tile_h)))
    my = (box[1] + box[3]) / 2
    middle = box[0] + name_w
    name_box = (box[0], my - name_h / 2, middle, my + name_h / 2)
    options.append(
        (
            cost + 5,
            1,
            {name_key: name_box, tile_key: (middle, my - tile_h / 2, box[2], my + tile_h / 2)},
        )
    )
    # apart, the tile near the name
    name_box, name_cost = placer.search(name_key, spots(name_w, name_h))
    placer.place(name_key, name_box)
    nx, ny = (name_box[0] + name_box[2]) / 2, (name_box[1] + name_box[3]) / 2
    near = [
        (b, bias + 0.15 * math.hypot((b[0] + b[2]) / 2 - nx, (b[1] + b[3]) / 2 - ny))
        for b, bias in spots(tile_w, tile_h)
    ]
    tile_box, tile_cost = placer.search(tile_key, near)
    options.append((name_cost + tile_cost + 10, 2, {name_key: name_box, tile_key: tile_box}))
    for key, box in min(options, key=lambda o: o[:2])[2].items():
        placer.place(key, box)


def _layout(components: Components, placement: TilePlacement | None) -> _Layout:
    board = components.board
    xs = [c.x for c in board.cities]
    ys = [c.y for c in board.cities]
    view: Box = (min(xs) - MARGIN, min(ys) - MARGIN, max(xs) + MARGIN, max(ys) + MARGIN)
    regions = _regions(board, view)
    position = {c.id: (c.x, c.y) for c in board.cities}
    roads = [(position[a], position[b]) for a, b in board.roads]
    placer = _Placer(view, roads, list(position.values()))

    # City names and bonus tiles beside their city, the busiest cities first;
    # a few passes let early choices make way for later ones.
    bonus = {c.id: placement.bonus_tile(c.id) for c in board.fortresses} if placement else {}
    degree = {c.id: len(board.neighbours(c.id)) for c in board.cities}
    order = sorted(board.cities, key=lambda c: (-degree[c.id] - 2 * c.fortress, c.id))
    for _ in range(3):
        for city in order:
            width = _text_width(city.name, CITY_FONT) + 2
            placer.best(f"name:{city.id}", _around(position[city.id], width, CITY_FONT + 3))
            tile = bonus.get(city.id)
            if tile is not None:
                placer.best(f"bonus:{city.id}", _around(position[city.id], *_bonus_size(tile)))

    # Province names and tiles: the clearest spot of the province's region.
    tiles = _province_tiles(components, placement)
    for province in board.provinces:
        _place_province(placer, province, regions[province.id], tiles.get(province.id))

    # The legend: in a free corner, else below the board.
    height = 72.0 + 18 * (_legend_rows(placement) - 1)
    left, top, right, bottom = view
    corners = [
        (right - 6 - LEGEND_WIDTH, top + 6),
        (right - 6 - LEGEND_WIDTH, bottom - 6 - height),
        (left + 6, bottom - 6 - height),
        (left + 6, top + 6),
    ]
    spots = [((x, y, x + LEGEND_WIDTH, y + height), float(i)) for i, (x, y) in enumerate(corners)]
    box = placer.best("legend", spots, road_weight=400.0)
    if placer.cost(box, "legend") >= 1:
        placer.place("legend", (left + 6, bottom + 6, left + 6 + LEGEND_WIDTH, bottom + 6 + height))
        view = (left, top, right, bottom + 12 + height)
    return _Layout(view, regions, _province_colors(board), dict(placer.placed))


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


def _draw_regions(layout: _Layout, board: Board) -> list[str]:
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
    if borders:
        style = {"fill": "none", "stroke": BORDER_COLOR, "stroke-width": "1.3"}
        style |= {"stroke-dasharray": "5 3", "stroke-linecap": "round"}
        out.append(_el("path", {"class": "border", "d": _segments(borders), **style}))
    return out


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
    left, top = boxes[f"tile:{province_id}"][0] + 2, boxes[f"tile:{province_id}"][1] + 2
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


def _draw_bonus(box: Box, tile: BonusTile, city: City) -> list[str]:
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


def _draw_cities(board: Board, boxes: Mapping[str, Box]) -> list[str]:
    out: list[str] = []
    for city in board.cities:
        if city.fortress:
            fill = TAJ_FILL if city.id == board.taj_mahal_city else CITY_FILL
            marker, cls, what = _fortress(city.x, city.y, fill), "city fortress", " (fortress)"
        else:
            marker, cls, what = _circle(city.x, city.y), "city", ""
        out.append(_el("g", {"class": cls, "data-id": city.id}, _title(city.name + what) + marker))
    for city in board.cities:
        box = boxes[f"name:{city.id}"]
        extra = {"data-city": city.id}
        name = city.name
        out.append(
            _text(box[0] + 1, box[3] - 4, name, "city-name", CITY_FONT, halo=CITY_FILL, extra=extra)
        )
    return out


_HOUSE = ((-6.5, 6.5), (6.5, 6.5), (6.5, -1.5), (0.0, -8.0), (-6.5, -1.5))
_CROWN = ((-5.0, 3.0), (5.0, 3.0), (5.0, -3.5), (2.5, -0.5), (0.0, -4.5), (-2.5, -0.5), (-5, -3.5))


def _owners(value: object) -> tuple[object, object]:
    if isinstance(value, Sequence) and not isinstance(value, str):
        items = (*value, None, None)
        return items[0], items[1]
    return None, None


def _draw_palaces(state: object, board: Board) -> list[str]:
    palaces = getattr(state, "palaces", None)
    if not isinstance(palaces, Mapping):
        return []
    out: list[str] = []
    known = {c.id for c in board.cities}
    for city_id in sorted(k for k in palaces if isinstance(k, str) and k in known):
        city = board.city(city_id)
        normal, crown = _owners(palaces[city_id])
        for owner, shape, dx, dy, cls, what in (
            (normal, _HOUSE, 0.0, 0.0, "palace", "palace"),
            (crown, _CROWN, 6.5, -6.5, "crown-palace", "crown palace"),
        ):
            if not isinstance(owner, int) or isinstance(owner, bool):
                continue
            attrs = {
                "class": f"{cls} seat-{owner}",
                "data-city": city_id,
                "points": _points((city.x + dx + px, city.y + dy + py) for px, py in shape),
                "fill": SEAT_COLORS[owner % len(SEAT_COLORS)],
                "stroke": INK,
                "stroke-width": "1.1",
                "stroke-linejoin": "round",
            }
            out.append(_el("polygon", attrs, _title(f"seat {owner}: {what} on {city.name}")))
    return out


def _draw_legend(box: Box, components: Components, placement: TilePlacement | None) -> list[str]:
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
    if placement is not None:
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


def render_board(
    components: Components | None = None,
    placement: TilePlacement | None = None,
    state: GameState | PlayerView | None = None,
) -> str:
    """The board as an SVG document (a string); a pure function.

    ``components`` defaults to :func:`~tajmahal.standard_components`.  Given a
    ``placement`` (from :func:`~tajmahal.place_tiles`), each province shows its
    tile's number and commodities and each fortress its bonus tile.  Given a
    ``state`` (a GameState or any seat's PlayerView: palaces are public), each
    palace is drawn on its city, a house (normal palace) or a crown (crown
    palace) in its owner's seat colour.

    Elements carry classes for styling and inspection: ``province``,
    ``province-name``, ``province-tile``, ``road``, ``city`` (with ``fortress``
    on fortresses), ``city-name``, ``bonus``, ``palace``, ``crown-palace`` and
    ``legend``; ``data-id``/``data-city`` attributes name the ids.

    >>> from tajmahal import place_tiles, standard_components
    >>> comps = standard_components()
    >>> svg = render_board(comps, place_tiles(comps, seed=3))
    >>> svg.startswith('<svg') and svg.rstrip().endswith('</svg>')
    True
    >>> svg.count('class="road"') == len(comps.board.roads)
    True
    """
    comps = components if components is not None else standard_components()
    board = comps.board
    layout = _layout(comps, placement)
    x0, y0, x1, y1 = layout.view
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
    out += _draw_regions(layout, board)
    out += _draw_roads(board)
    tiles = _province_tiles(comps, placement)
    for p in board.provinces:
        color = layout.colors[p.id]
        out += _draw_province_label(layout.boxes, p.id, p.name, color, tiles.get(p.id))
    if placement is not None:
        for city_id, tile in placement.bonus:
            if f"bonus:{city_id}" in layout.boxes:
                out += _draw_bonus(layout.boxes[f"bonus:{city_id}"], tile, board.city(city_id))
    out += _draw_cities(board, layout.boxes)
    if state is not None:
        out += _draw_palaces(state.view(0) if isinstance(state, GameState) else state, board)
    out += _draw_legend(layout.boxes["legend"], comps, placement)
    out.append("</svg>")
    return "\n".join(out) + "\n"


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
