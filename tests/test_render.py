"""SVG pictures of the board (tajmahal.render)."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

import tajmahal as tm
from helpers import svg_classes, text_of, with_class
from tajmahal.render import _geometry, _map_layout, _svg, render_board, write_board_svg
from tajmahal.rules.components import STANDARD_PATH, parse_components

SVG = "{http://www.w3.org/2000/svg}"
COMPS = tm.standard_components()
BOARD = COMPS.board


@pytest.fixture(scope="module")
def bare() -> ET.Element:
    return ET.fromstring(render_board())


@pytest.fixture(scope="module")
def placement() -> tm.TilePlacement:
    return tm.place_tiles(COMPS, seed=3)


@pytest.fixture(scope="module")
def tiled(placement: tm.TilePlacement) -> ET.Element:
    return ET.fromstring(render_board(COMPS, placement))


def test_svg_document(bare: ET.Element) -> None:
    assert bare.tag == f"{SVG}svg"
    x, y, width, height = (float(v) for v in bare.get("viewBox", "").split())
    assert (width, height) == (float(bare.get("width", 0)), float(bare.get("height", 0)))
    assert all(x <= c.x <= x + width and y <= c.y <= y + height for c in BOARD.cities)


def test_city_markers(bare: ET.Element) -> None:
    cities = with_class(bare, "city")
    assert len(cities) == 49
    assert {c.get("data-id") for c in cities} == {c.id for c in BOARD.cities}
    fortresses = with_class(bare, "fortress")
    assert len(fortresses) == 16
    assert {c.get("data-id") for c in fortresses} == {c.id for c in BOARD.fortresses}


def test_city_names(bare: ET.Element) -> None:
    names = with_class(bare, "city-name")
    assert sorted(text_of(n) for n in names) == sorted(c.name for c in BOARD.cities)


def test_one_line_per_road(bare: ET.Element) -> None:
    lines = with_class(bare, "road")
    assert len(lines) == len(BOARD.roads)
    assert all(line.tag == f"{SVG}line" for line in lines)
    for line, (a, b) in zip(lines, BOARD.roads, strict=True):
        ca, cb = BOARD.city(a), BOARD.city(b)
        ends = tuple(float(line.get(k, "nan")) for k in ("x1", "y1", "x2", "y2"))
        assert ends == pytest.approx((ca.x, ca.y, cb.x, cb.y), abs=0.05)


def test_province_regions_and_names(bare: ET.Element) -> None:
    regions = with_class(bare, "province")
    assert len(regions) == 12
    assert {r.get("data-id") for r in regions} == {p.id for p in BOARD.provinces}
    names = with_class(bare, "province-name")
    assert sorted(text_of(n) for n in names) == sorted(p.name.upper() for p in BOARD.provinces)


def test_bare_board_has_no_tiles(bare: ET.Element) -> None:
    assert with_class(bare, "province-tile") == []
    assert with_class(bare, "bonus") == []


def test_province_tiles_shown(tiled: ET.Element, placement: tm.TilePlacement) -> None:
    tiles = with_class(tiled, "province-tile")
    assert len(tiles) == 12
    shown = {t.get("data-province"): int(t.get("data-number", 0)) for t in tiles}
    assert shown == {pid: k for k, pid in enumerate(placement.province_order, start=1)}
    for tile in tiles:
        numbers = with_class(tile, "tile-number")
        assert [text_of(n) for n in numbers] == [tile.get("data-number")]
    assert shown["agra"] == 12
    chips = Counter(text_of(c) for c in with_class(tiled, "commodity"))
    expected = Counter(c.value for t in COMPS.province_tiles for c in t.commodities)
    assert chips == expected


def test_bonus_tiles_shown(tiled: ET.Element, placement: tm.TilePlacement) -> None:
    bonus = with_class(tiled, "bonus")
    assert len(bonus) == 16
    assert {b.get("data-city") for b in bonus} == {c.id for c in BOARD.fortresses}
    for element in bonus:
        tile = placement.bonus_tile(element.get("data-city", ""))
        assert tile is not None and element.get("data-kind") == tile.kind.value
    (taj,) = (b for b in bonus if b.get("data-city") == "agra")
    assert "Taj Mahal" in text_of(taj)


def test_only_the_bonus_tiles_left_are_shown(placement: tm.TilePlacement) -> None:
    left = tm.TilePlacement(placement.province_order, placement.bonus[:5])
    root = ET.fromstring(render_board(COMPS, left))
    assert {b.get("data-city") for b in with_class(root, "bonus")} == {c for c, _ in left.bonus}


class FakeState:
    """Anything with ``palaces`` will do (the engine's GameState or PlayerView)."""

    def __init__(self) -> None:
        self.palaces = {"agra": (0, 1), "delhi": (2, None), "mathura": (None, 3), "nowhere": (1, 1)}


def test_palaces_from_a_state(placement: tm.TilePlacement) -> None:
    root = ET.fromstring(render_board(COMPS, placement, state=FakeState()))
    palaces = with_class(root, "palace")
    crowns = with_class(root, "crown-palace")
    assert sorted((p.get("data-city"), sorted(svg_classes(p))) for p in palaces) == [
        ("agra", ["palace", "seat-0"]),
        ("delhi", ["palace", "seat-2"]),
    ]
    assert sorted((p.get("data-city"), sorted(svg_classes(p))) for p in crowns) == [
        ("agra", ["crown-palace", "seat-1"]),
        ("mathura", ["crown-palace", "seat-3"]),
    ]


def test_state_without_palaces_draws_none() -> None:
    root = ET.fromstring(render_board(state=object()))
    assert with_class(root, "palace") == [] and with_class(root, "crown-palace") == []


def test_render_is_pure(placement: tm.TilePlacement) -> None:
    assert render_board(COMPS, placement) == render_board(COMPS, placement)
    assert render_board() == render_board(COMPS, None)


def test_write_board_svg(tmp_path: Path) -> None:
    path = tmp_path / "board.svg"
    write_board_svg(path, seed=3)
    assert path.read_text(encoding="utf-8") == render_board(COMPS, tm.place_tiles(COMPS, 3))
    write_board_svg(str(path))
    assert path.read_text(encoding="utf-8") == render_board()


def test_names_are_escaped() -> None:
    text = STANDARD_PATH.read_text(encoding="utf-8").replace(
        'name = "Agra"\nprovince', 'name = "Agra & <Sikri>"\nprovince', 1
    )
    comps = parse_components(text)
    root = ET.fromstring(render_board(comps))
    assert "Agra & <Sikri>" in [text_of(n) for n in with_class(root, "city-name")]


def test_a_custom_board_renders() -> None:
    """A small custom board: two provinces of four cities each."""
    text = STANDARD_PATH.read_text(encoding="utf-8")
    head = text[: text.index("# ---- province tiles")]  # the format, cards and special cards
    cities = "".join(
        f'\n[[board.cities]]\nid = "{p}{k}"\nname = "{p.title()} {k}"\nprovince = "{p}"\n'
        f"{'fortress = true' if k == 0 else ''}\nx = {100 * k + (0 if p == 'east' else 50)}\n"
        f"y = {100 if p == 'north' else 300}\n"
        for p in ("north", "east")
        for k in range(4)
    )
    roads = [f'["{p}{k}", "{p}{k + 1}"]' for p in ("north", "east") for k in range(3)]
    roads.append('["north0", "east0"]')
    board = (
        '\n[board]\nfinal_province = "east"\ntaj_mahal_city = "east0"\n'
        f"roads = [{', '.join(roads)}]\n"
        '\n[[board.provinces]]\nid = "north"\nname = "North"\n'
        '\n[[board.provinces]]\nid = "east"\nname = "East"\n' + cities
    )
    tiles = (
        '\n[[province_tiles]]\nnumber = 1\ncommodities = ["rice"]\n'
        '\n[[province_tiles]]\nnumber = 2\ncommodities = ["tea", "jewels"]\n'
        '\n[[bonus_tiles]]\nkind = "taj_mahal"\npoints = 4\n'
        '\n[[bonus_tiles]]\nkind = "card"\n'
    )
    comps = parse_components(head + tiles + board)
    root = ET.fromstring(render_board(comps, tm.place_tiles(comps, 1)))
    assert len(with_class(root, "city")) == 8
    assert len(with_class(root, "road")) == 7
    assert len(with_class(root, "province-tile")) == 2
    assert len(with_class(root, "bonus")) == 2


@pytest.mark.parametrize("seed", [None, 0, 3, 5, 8])
def test_labels_clear_of_each_other_roads_and_cities(seed: int | None) -> None:
    """On the standard board no label covers another label, a road or a city."""
    placement = tm.place_tiles(COMPS, seed) if seed is not None else None
    layout = _map_layout._layout(COMPS, _map_layout.placement_tiles(COMPS, placement))
    pos = {c.id: (c.x, c.y) for c in BOARD.cities}
    problems = [
        f"{k} overlaps {k2}"
        for (k, a), (k2, b) in itertools.combinations(layout.boxes.items(), 2)
        if _geometry._boxes_overlap(a, b)
    ]
    for key, box in layout.boxes.items():
        problems += [
            f"{key} on road {a}-{b}"
            for a, b in BOARD.roads
            if _geometry._segment_hits_box(pos[a], pos[b], box)
        ]
        problems += [
            f"{key} on city {c}"
            for c, p in pos.items()
            if _geometry._circle_hits_box(p, _svg.CITY_RADIUS + 2, box)
        ]
        x0, y0, x1, y1 = layout.view
        if not (x0 <= box[0] and y0 <= box[1] and box[2] <= x1 and box[3] <= y1):
            problems.append(f"{key} outside the picture")
    assert problems == []


def test_render_draws_palaces_of_a_game_state() -> None:
    import tajmahal as tm

    state = tm.new_game(3, seed=5)
    while state.phase is not tm.Phase.PALACE and not state.is_over:
        moves = state.legal_moves()
        state = state.apply(moves[0] if len(moves) > 1 else moves[-1])
    if state.phase is tm.Phase.PALACE:
        state = state.apply(state.legal_moves()[0])
    placed = sum(owner >= 0 for owner in state.normal_palaces)
    assert placed >= 1
    svg = render_board(state.components, state=state)
    assert svg.count('class="palace seat-') == placed
    view_svg = render_board(state.components, state=state.view(1))
    assert view_svg.count('class="palace seat-') == placed  # the same board...
    assert "key-hand" in view_svg and "key-hand" not in svg  # ...and the view's own hand


def test_three_hundred_games_share_one_layout_and_each_tile_stays_in_its_spot() -> None:
    """A server draws many games at once: the layout depends on the components, not the deal."""
    from tajmahal.render._panel import state_tiles

    layouts = set()
    for seed in range(300):
        start = tm.new_game(3 + seed % 3, seed=seed).view(0)
        layouts.add(id(_map_layout._layout(COMPS, state_tiles(COMPS, start))))
        layouts.add(id(_map_layout._layout(COMPS, _map_layout.placement_tiles(
            COMPS, tm.place_tiles(COMPS, seed)))))  # fmt: skip
    assert len(layouts) == 1
    layout = _map_layout._layout(COMPS, state_tiles(COMPS, tm.new_game(3, seed=1).view(0)))
    for seed in (1, 2):  # every tile drawn inside the spot kept for it
        root = ET.fromstring(render_board(COMPS, tm.place_tiles(COMPS, seed)))
        for tile in with_class(root, "bonus"):
            rect = tile.find(f"{SVG}rect")
            assert rect is not None
            left, width = float(rect.get("x", 0)), float(rect.get("width", 0))
            spot = layout.boxes[f"bonus:{tile.get('data-city')}"]
            assert spot[0] - 0.1 <= left and left + width <= spot[2] + 0.1  # drawn rounded


def test_the_drawn_pieces_a_layout_keeps_are_bounded() -> None:
    layout = _map_layout._layout(COMPS, _map_layout.NO_TILES)
    for n in range(_map_layout.DRAWN_KEPT + 50):
        layout.drawn(("test", n), list)
    assert len(layout.cache) <= _map_layout.DRAWN_KEPT
    layout.cache.clear()
