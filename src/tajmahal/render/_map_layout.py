"""Where everything goes: province regions, and labels placed clear of roads and cities."""

from __future__ import annotations

import functools
import itertools
import math
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import NamedTuple

from tajmahal.render._geometry import _boxes_overlap, _circle_hits_box, _clip, _segment_hits_box
from tajmahal.render._svg import (
    BONUS_FONT,
    BONUS_HEIGHT,
    CHIP_FONT,
    CITY_FONT,
    LABEL_GAP,
    LEGEND_WIDTH,
    MARGIN,
    MARKER_CLEAR,
    PROVINCE_FONT,
    PROVINCE_PALETTE,
    PROVINCE_SPACING,
    TILE_SIZE,
    Box,
    Cell,
    Point,
    _text_width,
)
from tajmahal.rules.components import (
    Board,
    BonusKind,
    BonusTile,
    City,
    Commodity,
    Components,
    Province,
    ProvinceTile,
)
from tajmahal.rules.setup import TilePlacement

# ----------------------------------------------------------------- layout

DRAWN_KEPT = 4096  #: drawn pieces a layout keeps (a few MB at most; the least recent go)


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
    #: drawn elements that depend only on the layout, kept with it (see ``drawn``)
    cache: OrderedDict[object, list[str]]

    def drawn(self, key: object, draw: Callable[[], list[str]]) -> list[str]:
        """``draw()``, computed once per layout and ``key`` (the latest :data:`DRAWN_KEPT` kept).

        ``key`` names everything the elements depend on besides the layout, so one
        layout serves every game of a server without growing without bound.
        """
        cache = self.cache
        found = cache.get(key)
        if found is None:
            found = cache[key] = draw()
            if len(cache) > DRAWN_KEPT:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return found


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


class Tiles(NamedTuple):
    """The tiles to draw: province tiles by province id, bonus tiles by city id."""

    province: dict[str, ProvinceTile]
    bonus: dict[str, BonusTile]
    #: whether the legend explains tiles (the picture shows a tile placement)
    explained: bool


NO_TILES = Tiles({}, {}, explained=False)


def placement_tiles(components: Components, placement: TilePlacement | None) -> Tiles:
    """Every tile where setup lays it (S2, S3)."""
    if placement is None:
        return NO_TILES
    by_number = {t.number: t for t in components.province_tiles}
    order = placement.province_order
    province = {pid: by_number[k] for k, pid in enumerate(order, start=1) if k in by_number}
    return Tiles(province, dict(placement.bonus), explained=True)


def _legend_rows(tiles: Tiles) -> int:
    return 5 + (2 if tiles.explained else 0)


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


def _layout(components: Components, tiles: Tiles = NO_TILES) -> _Layout:
    """Where everything goes: one layout per set of components, whatever the deal.

    A picture with tiles keeps a spot for a tile on every province and every
    city a bonus tile may lie on, each as wide as the widest tile setup may lay
    there (S2, S3); each tile is then drawn inside its spot.  So the layout
    depends on the components only (not on the game, its deal or its step):
    every game a server draws shares it, and labels never move during a game.
    The bare board (no tiles) has a layout of its own.
    """
    if tiles == NO_TILES:
        return _cached_layout(components, (), (), False)
    taken = frozenset(tiles.bonus) - {c.id for c in components.board.fortresses}
    province, bonus = _reserved_tiles(components, taken)
    return _cached_layout(components, province, bonus, tiles.explained)


@functools.lru_cache(maxsize=16)
def _reserved_tiles(
    components: Components, others: frozenset[str]
) -> tuple[tuple[tuple[str, ProvinceTile], ...], tuple[tuple[str, BonusTile], ...]]:
    """The widest tile each spot may hold: every province; the Taj Mahal city; the other
    fortresses; and ``others`` (cities beyond those where setup lays bonus tiles)."""
    board = components.board
    province: tuple[tuple[str, ProvinceTile], ...] = ()
    if components.province_tiles:
        widest = max(components.province_tiles, key=lambda t: (_badge_width(t), t.number))
        province = tuple(sorted((p.id, widest) for p in board.provinces))
    bonus: dict[str, BonusTile] = {}
    tiles = components.bonus_tiles
    if tiles:
        squares = [t for t in tiles if t.kind is not BonusKind.TAJ_MAHAL] or list(tiles)
        taj = [t for t in tiles if t.kind is BonusKind.TAJ_MAHAL] or list(tiles)
        for city in board.fortresses:
            choice = taj if city.id == board.taj_mahal_city else squares
            bonus[city.id] = max(choice, key=_widest)
        for city_id in others:
            bonus[city_id] = max(tiles, key=_widest)
    return province, tuple(sorted(bonus.items()))


def _widest(tile: BonusTile) -> tuple[float, str]:
    return _bonus_size(tile)[0], _bonus_text(tile)


@functools.lru_cache(maxsize=16)  # one per set of components (see _layout)
def _cached_layout(
    components: Components,
    province_tiles: tuple[tuple[str, ProvinceTile], ...],
    bonus_tiles: tuple[tuple[str, BonusTile], ...],
    explained: bool,
) -> _Layout:
    tiles = Tiles(dict(province_tiles), dict(bonus_tiles), explained)
    board = components.board
    xs = [c.x for c in board.cities]
    ys = [c.y for c in board.cities]
    margin = max(MARGIN, _region_radius(board) + 6)  # every region whole inside the frame
    view: Box = (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)
    regions = _regions(board, view)
    position = {c.id: (c.x, c.y) for c in board.cities}
    roads = [(position[a], position[b]) for a, b in board.roads]
    placer = _Placer(view, roads, list(position.values()))

    # City names and bonus tiles beside their city, the busiest cities first;
    # a few passes let early choices make way for later ones.
    bonus = tiles.bonus
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
    for province in board.provinces:
        _place_province(placer, province, regions[province.id], tiles.province.get(province.id))

    # The legend: in a free corner, else below the board.
    height = 72.0 + 18 * (_legend_rows(tiles) - 1)
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
    return _Layout(view, regions, _province_colors(board), dict(placer.placed), OrderedDict())
