"""The standard components (docs/rules.md C1–C11), the standard board (docs/rules-notes.md,
"The standard board"), the components loader's validation, and tile setup (S2, S3)."""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.rules.components import (
    INFLUENCE,
    STANDARD_PATH,
    BonusKind,
    Color,
    Commodity,
    Special,
    Symbol,
    load_components,
    parse_components,
)
from tajmahal.rules.setup import place_tiles

COMPS = tm.standard_components()
BOARD = COMPS.board
STANDARD_TEXT = STANDARD_PATH.read_text(encoding="utf-8")

# docs/rules-notes.md, "The standard board"
NEIGHBOURS = {
    "kabul": {"kashmir", "lahore", "multan"},
    "kashmir": {"kabul", "lahore"},
    "lahore": {"kabul", "kashmir", "multan", "delhi"},
    "multan": {"kabul", "lahore", "delhi", "ajmer", "thatta"},
    "thatta": {"multan", "ajmer", "gujarat"},
    "delhi": {"lahore", "multan", "ajmer", "agra", "awadh"},
    "agra": {"delhi", "ajmer", "malwa", "allahabad", "awadh"},
    "ajmer": {"multan", "thatta", "gujarat", "malwa", "agra", "delhi"},
    "gujarat": {"thatta", "ajmer", "malwa"},
    "malwa": {"gujarat", "ajmer", "agra", "allahabad"},
    "awadh": {"delhi", "agra", "allahabad"},
    "allahabad": {"awadh", "agra", "malwa"},
}
PROVINCE_NAMES = {
    "kabul": "Kabul",
    "kashmir": "Kashmir",
    "lahore": "Lahore",
    "multan": "Multan",
    "thatta": "Thatta",
    "delhi": "Delhi",
    "agra": "Agra",
    "ajmer": "Ajmer",
    "gujarat": "Gujarat",
    "malwa": "Malwa",
    "awadh": "Awadh",
    "allahabad": "Allahabad",
}


def symbols(card: tm.Card) -> tuple[str, ...]:
    """A card's symbols as an order-free key."""
    return tuple(sorted(s.value for s in card.symbols))


def pairs(*names: str) -> Counter[tuple[str, ...]]:
    return Counter(tuple(sorted(name.split("+"))) for name in names)


# --------------------------------------------------------------------------- C1–C11


def test_c1_symbols() -> None:
    assert [s.value for s in Symbol] == [
        "vizier",
        "general",
        "monk",
        "princess",
        "grand_mogul",
        "elephant",
    ]
    assert INFLUENCE == (Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS)


def test_c2_card_colors() -> None:
    assert {c.value for c in tm.Color} >= {"red", "yellow", "green", "violet", "white"}
    assert {c.color for c in COMPS.deck} == {
        Color.RED,
        Color.YELLOW,
        Color.GREEN,
        Color.VIOLET,
        Color.WHITE,
    }


def test_c3_deck_counts() -> None:
    assert len(COMPS.deck) == 96
    per_color = Counter(c.color for c in COMPS.deck)
    assert per_color == {
        Color.RED: 21,
        Color.YELLOW: 21,
        Color.GREEN: 21,
        Color.VIOLET: 21,
        Color.WHITE: 12,
    }
    assert all(1 <= len(c.symbols) <= 2 for c in COMPS.deck)
    assert all(c.special is None for c in COMPS.deck)


def test_c4_white_cards() -> None:
    white = Counter(symbols(c) for c in COMPS.deck if c.color is Color.WHITE)
    assert white == {
        ("elephant",): 7,
        ("vizier",): 1,
        ("general",): 1,
        ("monk",): 1,
        ("princess",): 1,
        ("grand_mogul",): 1,
    }


C5_PAIRS = {
    Color.RED: ("vizier+general", "monk+princess", "vizier+monk", "general+princess"),
    Color.YELLOW: ("vizier+monk", "general+princess", "vizier+princess", "general+monk"),
    Color.GREEN: ("vizier+princess", "general+monk", "vizier+general", "monk+princess"),
    Color.VIOLET: ("vizier+monk", "general+princess", "vizier+general", "monk+princess"),
}


@pytest.mark.parametrize("color", list(C5_PAIRS), ids=lambda c: c.value)
def test_c5_colored_suit_composition(color: Color) -> None:
    suit = Counter(symbols(c) for c in COMPS.deck if c.color is color)
    expected = pairs("elephant+elephant") + pairs("elephant+elephant")
    expected += Counter({("elephant", "grand_mogul"): 3})
    for influence in ("vizier", "general", "monk", "princess"):
        expected[tuple(sorted(("elephant", influence)))] = 3
    expected += pairs(*C5_PAIRS[color])
    assert suit == expected
    assert sum(suit.values()) == 21


@pytest.mark.parametrize("color", list(C5_PAIRS), ids=lambda c: c.value)
def test_c5_each_influence_symbol_twice_on_two_influence_cards(color: Color) -> None:
    mixed = [
        c
        for c in COMPS.deck
        if c.color is color and len(set(c.symbols)) == 2 and set(c.symbols) <= set(INFLUENCE)
    ]
    assert len(mixed) == 4
    assert Counter(s for c in mixed for s in c.symbols) == dict.fromkeys(INFLUENCE, 2)


def test_c6_special_cards() -> None:
    specials = {c.special: c for c in COMPS.special_cards}
    assert set(specials) == set(Special)
    assert len(COMPS.special_cards) == 4
    assert specials[Special.ELEPHANT].symbols == (Symbol.ELEPHANT,)
    assert specials[Special.GRAND_MOGUL].symbols == (Symbol.GRAND_MOGUL,)
    assert specials[Special.POINTS].symbols == ()
    assert specials[Special.COLOR_CHANGE].symbols == ()
    assert all(c.color is Color.SPECIAL for c in COMPS.special_cards)
    assert not set(COMPS.special_cards) & set(COMPS.deck)


def test_c6_special_cards_earned_by() -> None:
    assert dict(COMPS.special_earned_by) == {
        Symbol.GENERAL: Special.ELEPHANT,
        Symbol.VIZIER: Special.GRAND_MOGUL,
        Symbol.PRINCESS: Special.POINTS,
        Symbol.MONK: Special.COLOR_CHANGE,
    }


def test_c7_influence_tiles() -> None:
    assert COMPS.influence_tiles_per_symbol == 6
    assert COMPS.influence_tiles_per_symbol * len(INFLUENCE) == 24


C9_TILES = {
    1: ("rice",),
    2: ("tea", "jewels"),
    3: ("spices", "rice"),
    4: ("jewels", "tea"),
    5: ("rice", "spices"),
    6: ("tea", "spices"),
    7: ("jewels", "rice"),
    8: ("spices", "tea"),
    9: ("rice", "jewels"),
    10: ("tea", "rice"),
    11: ("spices", "jewels"),
    12: ("jewels", "spices"),
}


def test_c9_province_tiles() -> None:
    assert {t.number: tuple(c.value for c in t.commodities) for t in COMPS.province_tiles} == (
        C9_TILES
    )
    assert [t.number for t in COMPS.province_tiles] == list(range(1, 13))


def test_c10_bonus_tiles() -> None:
    tiles = COMPS.bonus_tiles
    assert len(tiles) == 16
    taj = [t for t in tiles if t.kind is BonusKind.TAJ_MAHAL]
    assert len(taj) == 1 and taj[0].points == 4
    squares = Counter(
        (t.kind, t.commodity, t.points) for t in tiles if t.kind is not BonusKind.TAJ_MAHAL
    )
    assert squares == {
        (BonusKind.COMMODITY, Commodity.RICE, 0): 2,
        (BonusKind.COMMODITY, Commodity.TEA, 0): 2,
        (BonusKind.COMMODITY, Commodity.SPICES, 0): 2,
        (BonusKind.COMMODITY, Commodity.JEWELS, 0): 2,
        (BonusKind.POINTS, None, 2): 4,
        (BonusKind.CARD, None, 0): 3,
    }


def test_c11_board_counts() -> None:
    assert len(BOARD.provinces) == 12
    assert len(BOARD.cities) == 49
    assert {p.id: len(p.cities) for p in BOARD.provinces} == {
        pid: (5 if pid == "agra" else 4) for pid in NEIGHBOURS
    }
    assert len(BOARD.fortresses) == 16
    assert BOARD.city("agra").fortress
    assert BOARD.city("agra").province == "agra"
    assert BOARD.taj_mahal_city == "agra"
    assert BOARD.final_province == "agra"


# --------------------------------------------------------------------------- the standard board


def province_of(city_id: str) -> str:
    return BOARD.city(city_id).province


def roads_between() -> Counter[frozenset[str]]:
    return Counter(
        frozenset((province_of(a), province_of(b)))
        for a, b in BOARD.roads
        if province_of(a) != province_of(b)
    )


def test_board_provinces_and_names() -> None:
    assert {p.id: p.name for p in BOARD.provinces} == PROVINCE_NAMES
    ids = [c.id for c in BOARD.cities]
    assert len(set(ids)) == 49
    assert all(re.fullmatch(r"[a-z][a-z_]*", i) for i in ids)
    assert len({c.name for c in BOARD.cities}) == 49
    assert all(c.name.strip() and c.name[0].isupper() for c in BOARD.cities)


def test_board_neighbour_table() -> None:
    """Roads join exactly the neighbouring provinces of the standard board's table."""
    touching: dict[str, set[str]] = {pid: set() for pid in NEIGHBOURS}
    for pair in roads_between():
        a, b = sorted(pair)
        touching[a].add(b)
        touching[b].add(a)
    assert touching == NEIGHBOURS


def test_board_one_to_three_roads_per_neighbouring_pair() -> None:
    counts = roads_between()
    neighbour_pairs = {frozenset((a, b)) for a, bs in NEIGHBOURS.items() for b in bs}
    assert set(counts) == neighbour_pairs  # none between non-neighbours
    assert all(1 <= n <= 3 for n in counts.values()), counts


def test_board_north_west_is_sparse() -> None:
    counts = roads_between()
    north_west = [n for pair, n in counts.items() if pair & {"kabul", "kashmir"}]
    rest = [n for pair, n in counts.items() if not pair & {"kabul", "kashmir"}]
    assert counts[frozenset(("kabul", "kashmir"))] == 1
    assert sum(north_west) / len(north_west) < sum(rest) / len(rest)


def test_board_roads_listed_once() -> None:
    keys = [frozenset(r) for r in BOARD.roads]
    assert len(keys) == len(set(keys))
    assert all(len(k) == 2 for k in keys)


def test_board_provinces_connected_inside() -> None:
    for province in BOARD.provinces:
        inside = {c.id for c in province.cities}
        reached = {province.cities[0].id}
        frontier = [province.cities[0].id]
        while frontier:
            for nxt in BOARD.neighbours(frontier.pop()):
                if nxt in inside and nxt not in reached:
                    reached.add(nxt)
                    frontier.append(nxt)
        assert reached == inside, province.id


def test_board_fortresses() -> None:
    forts = Counter(c.province for c in BOARD.fortresses)
    assert sum(forts.values()) == 16
    assert set(forts) == set(NEIGHBOURS)
    assert all(1 <= n <= 2 for n in forts.values()), forts
    assert "agra" in {c.id for c in BOARD.fortresses}


def test_board_whole_map_connected() -> None:
    reached = {"agra"}
    frontier = ["agra"]
    while frontier:
        for nxt in BOARD.neighbours(frontier.pop()):
            if nxt not in reached:
                reached.add(nxt)
                frontier.append(nxt)
    assert len(reached) == 49


Point = tuple[float, float]


def orientation(p: Point, q: Point, r: Point) -> int:
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 0) - (value < 0)


def on_segment(p: Point, q: Point, r: Point) -> bool:
    """Whether q, collinear with p and r, lies on segment pr."""
    return min(p[0], r[0]) <= q[0] <= max(p[0], r[0]) and min(p[1], r[1]) <= q[1] <= max(p[1], r[1])


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd meet anywhere but at one shared endpoint."""
    shared = {a, b} & {c, d}
    if len(shared) == 2:
        return True  # the same segment
    if shared:
        (s,) = shared
        u, v = (b if a == s else a), (d if c == s else c)
        # sharing an endpoint is fine unless the segments run along each other
        return (
            orientation(s, u, v) == 0
            and (u[0] - s[0]) * (v[0] - s[0]) + (u[1] - s[1]) * (v[1] - s[1]) > 0
        )
    o1, o2, o3, o4 = (
        orientation(a, b, c),
        orientation(a, b, d),
        orientation(c, d, a),
        orientation(c, d, b),
    )
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and on_segment(a, c, b))
        or (o2 == 0 and on_segment(a, d, b))
        or (o3 == 0 and on_segment(c, a, d))
        or (o4 == 0 and on_segment(c, b, d))
    )


@pytest.mark.parametrize(
    ("segments", "expected"),
    [
        (((0, 0), (10, 10), (0, 10), (10, 0)), True),  # an X
        (((0, 0), (10, 0), (0, 5), (10, 5)), False),  # parallel
        (((0, 0), (10, 0), (10, 0), (20, 5)), False),  # shared endpoint
        (((0, 0), (10, 0), (0, 0), (0, 10)), False),  # shared endpoint, at a right angle
        (((0, 0), (10, 0), (0, 0), (5, 0)), True),  # shared endpoint, overlapping
        (((0, 0), (10, 0), (5, 0), (5, 10)), True),  # a T
        (((0, 0), (10, 0), (5, 1), (5, 10)), False),  # a near T
        (((0, 0), (10, 0), (5, 0), (15, 0)), True),  # collinear overlap
        (((0, 0), (10, 0), (11, 0), (15, 0)), False),  # collinear apart
    ],
)
def test_segment_intersection_helper(
    segments: tuple[Point, Point, Point, Point], expected: bool
) -> None:
    assert segments_cross(*segments) is expected
    a, b, c, d = segments
    assert segments_cross(c, d, a, b) is expected


def test_board_no_roads_cross() -> None:
    pos = {c.id: (c.x, c.y) for c in BOARD.cities}
    crossing = [
        (r, s)
        for r, s in itertools.combinations(BOARD.roads, 2)
        if segments_cross(pos[r[0]], pos[r[1]], pos[s[0]], pos[s[1]])
    ]
    assert crossing == []


def test_board_no_road_runs_over_another_city() -> None:
    def distance(p: Point, a: Point, b: Point) -> float:
        dx, dy = b[0] - a[0], b[1] - a[1]
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
        return math.dist(p, (a[0] + t * dx, a[1] + t * dy))

    pos = {c.id: (c.x, c.y) for c in BOARD.cities}
    for a, b in BOARD.roads:
        for c in BOARD.cities:
            if c.id not in (a, b):
                assert distance(pos[c.id], pos[a], pos[b]) >= 25, (a, b, c.id)


def test_board_cities_well_spaced() -> None:
    closest = min(
        math.dist((a.x, a.y), (b.x, b.y)) for a, b in itertools.combinations(BOARD.cities, 2)
    )
    assert closest >= 40


def test_board_fits_the_canvas() -> None:
    assert all(0 <= c.x <= 1000 and 0 <= c.y <= 900 for c in BOARD.cities)


def test_board_roughly_geographic() -> None:
    def centre(pid: str) -> Point:
        cities = BOARD.province(pid).cities
        return (sum(c.x for c in cities) / len(cities), sum(c.y for c in cities) / len(cities))

    centres = {pid: centre(pid) for pid in NEIGHBOURS}
    assert min(centres, key=lambda p: centres[p][0] + centres[p][1]) == "kabul"  # north-west
    assert max(centres, key=lambda p: centres[p][0]) in {"allahabad", "awadh"}  # east
    assert centres["gujarat"][1] > centres["agra"][1] and centres["gujarat"][0] < centres["agra"][0]
    assert centres["kashmir"][1] < centres["lahore"][1] < centres["delhi"][1]


# --------------------------------------------------------------------------- loader errors


def edited(old: str, new: str, count: int = 1) -> str:
    """The standard file with ``old`` replaced by ``new`` (which must occur)."""
    assert old in STANDARD_TEXT, old
    return STANDARD_TEXT.replace(old, new, count)


def city_block(city_id: str) -> str:
    match = re.search(
        rf'\[\[board\.cities\]\]\nid = "{city_id}"\n(?:[^\[\n][^\n]*\n)*', STANDARD_TEXT
    )
    assert match, city_id
    return match.group(0)


def rejects(text: str, *fragments: str) -> str:
    with pytest.raises(tm.ComponentsError) as info:
        parse_components(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def test_standard_text_parses_to_the_standard_components() -> None:
    assert parse_components(STANDARD_TEXT, name="standard") == COMPS


def test_unknown_province_of_a_city() -> None:
    block = city_block("ghazni")
    rejects(edited(block, block.replace('"kabul"', '"bactria"')), "ghazni", "bactria")


def test_duplicate_province_id() -> None:
    text = edited('id = "kashmir"\nname = "Kashmir"', 'id = "kabul"\nname = "Kashmir"')
    rejects(text, "board.provinces[1].id", "duplicate province id 'kabul'")


def test_duplicate_city_id() -> None:
    block = city_block("ghazni")
    rejects(
        edited(block, block.replace('id = "ghazni"', 'id = "kabul"')), "duplicate city id 'kabul'"
    )


def test_bad_city_id() -> None:
    block = city_block("ghazni")
    rejects(edited(block, block.replace('id = "ghazni"', 'id = "Ghazni"')), "'Ghazni'")
    rejects(edited(block, block.replace('id = "ghazni"', 'id = "ghazni town"')), "'ghazni town'")


def test_non_ascii_city_id() -> None:
    block = city_block("ghazni")
    rejects(edited(block, block.replace('id = "ghazni"', 'id = "ghaznī"')), "'ghaznī'")


def test_non_finite_city_coordinate() -> None:
    block = city_block("ghazni")
    x_line = next(line for line in block.splitlines() if line.startswith("x = "))
    for bad in ("nan", "inf"):
        text = edited(block, block.replace(x_line, f"x = {bad}"))
        rejects(text, "board.cities[", ".x", "finite number")


def test_road_to_unknown_city() -> None:
    text = edited('["kabul", "ghazni"]', '["kabul", "kandahar"]')
    message = rejects(text, "kandahar")
    assert re.search(r"board\.roads\[\d+\]", message)


def test_road_listed_twice() -> None:
    text = edited('["kabul", "ghazni"],', '["kabul", "ghazni"],\n  ["ghazni", "kabul"],')
    rejects(text, "'ghazni'-'kabul' is listed twice")


def test_road_to_itself() -> None:
    text = edited('["kabul", "ghazni"],', '["kabul", "ghazni"],\n  ["kabul", "kabul"],')
    rejects(text, "road from 'kabul' to itself")


def test_malformed_road() -> None:
    text = edited('["kabul", "ghazni"],', '["kabul", "ghazni"],\n  ["kabul"],')
    rejects(text, "a road is a pair of city ids", "['kabul']")


def test_province_with_fewer_than_four_cities() -> None:
    block = city_block("ghazni")
    moved = block.replace('province = "kabul"', 'province = "multan"')
    rejects(edited(block, moved), "province 'kabul'", "has 3 cities")


def test_province_not_connected_inside() -> None:
    rejects(edited('  ["kabul", "ghazni"],\n', ""), "province 'kabul'", "not connected", "ghazni")


def test_wrong_number_of_province_tiles() -> None:
    tile = '[[province_tiles]]\nnumber = 12\ncommodities = ["jewels", "spices"]\n'
    rejects(edited(tile, ""), "province_tiles", "11 province tiles for 12 provinces")


def test_province_tiles_misnumbered() -> None:
    rejects(edited("number = 12\n", "number = 13\n"), "province_tiles", "numbered 1..12")


def test_k5_a_province_tile_showing_one_commodity_twice_is_rejected() -> None:
    text = edited('commodities = ["tea", "jewels"]', 'commodities = ["tea", "tea"]')
    rejects(text, "province_tiles[1].commodities", "province tile 2 shows 'tea' twice", "K5")


def test_k5_a_province_tile_may_show_two_different_commodities() -> None:
    assert {len(set(t.commodities)) for t in COMPS.province_tiles} == {1, 2}
    assert all(len(set(t.commodities)) == len(t.commodities) for t in COMPS.province_tiles)


def test_province_tile_without_commodities() -> None:
    text = edited('number = 1\ncommodities = ["rice"]', "number = 1\ncommodities = []")
    rejects(text, "province_tiles[0].commodities")


def test_no_fortress_for_the_taj_mahal_tile() -> None:
    block = city_block("agra")
    assert "fortress = true\n" in block
    message = rejects(edited(block, block.replace("fortress = true\n", "")), "board.taj_mahal_city")
    assert "'agra'" in message and "Taj Mahal" in message


def test_taj_mahal_city_outside_the_final_province() -> None:
    text = edited('taj_mahal_city = "agra"', 'taj_mahal_city = "delhi"')
    rejects(text, "board.taj_mahal_city", "'delhi'", "'agra'")


def test_unknown_final_province() -> None:
    rejects(edited('final_province = "agra"', 'final_province = "bengal"'), "'bengal'")


def test_bonus_tiles_not_matching_the_fortresses() -> None:
    block = city_block("gwalior")
    text = edited(block, block.replace("fortress = true\n", ""))
    rejects(text, "bonus_tiles", "16 bonus tiles", "15 fortresses")
    text = edited('kind = "card"\ncount = 3', 'kind = "card"\ncount = 4')
    rejects(text, "bonus_tiles", "17 bonus tiles", "16 fortresses")


def test_two_taj_mahal_tiles() -> None:
    text = edited('kind = "taj_mahal"\npoints = 4', 'kind = "taj_mahal"\npoints = 4\ncount = 2')
    rejects(text, "bonus_tiles", "exactly 1 taj_mahal tile")


def test_bonus_tile_fields() -> None:
    text = edited('kind = "commodity"\ncommodity = "rice"', 'kind = "commodity"')
    rejects(text, "bonus_tiles[1]", "needs 'commodity'")
    text = edited('kind = "card"\ncount = 3', 'kind = "card"\npoints = 1\ncount = 3')
    rejects(text, "bonus_tiles[6].points", "card tiles have no points")


def test_malformed_cards() -> None:
    red_pair = 'color = "red"\nsymbols = ["elephant", "elephant"]\ncount = 2'
    three = 'color = "red"\nsymbols = ["elephant", "elephant", "monk"]\ncount = 2'
    rejects(edited(red_pair, three), "cards[0].symbols", "1 or 2 symbols, got 3")
    rejects(edited(red_pair, 'color = "red"\nsymbols = []'), "cards[0].symbols", "got 0")
    rejects(edited(red_pair, 'color = "red"\ncount = 2'), "cards[0]", "missing key(s) symbols")
    rejects(edited(red_pair, red_pair.replace("count = 2", "count = 0")), "cards[0].count")
    rejects(edited(red_pair, red_pair.replace("count = 2", 'count = "2"')), "cards[0].count")
    rejects(edited(red_pair, red_pair + "\nshade = 1"), "cards[0]", "unknown key(s) shade")
    special = 'color = "special"\nsymbols = ["elephant"]'
    rejects(edited(red_pair, special), "cards[0].color", "[[special_cards]]")


def test_unknown_enum_values() -> None:
    red_pair = 'color = "red"\nsymbols = ["elephant", "elephant"]'
    rejects(edited(red_pair, red_pair.replace('"red"', '"blue"')), "cards[0].color", "'blue'")
    rejects(
        edited(red_pair, red_pair.replace('"elephant"]', '"camel"]')),
        "cards[0].symbols[1]",
        "camel",
    )
    rejects(
        edited('commodities = ["rice"]', 'commodities = ["silk"]'),
        "province_tiles[0].commodities[0]",
        "'silk'",
    )
    rejects(
        edited('commodity = "tea"', 'commodity = "opium"'), "bonus_tiles[2].commodity", "'opium'"
    )
    rejects(edited('kind = "card"', 'kind = "gold"'), "bonus_tiles[6].kind", "'gold'")
    rejects(
        edited('special = "points"', 'special = "joker"'), "special_cards[2].special", "'joker'"
    )
    rejects(
        edited('earned_by = "monk"', 'earned_by = "elephant"'),
        "special_cards[3].earned_by",
        "'elephant' is not an influence symbol",
    )


def test_special_cards_complete() -> None:
    block = '[[special_cards]]\nspecial = "color_change"\nearned_by = "monk"\n'
    rejects(edited(block, ""), "special_cards", "color_change")


def test_wrong_types_name_the_field() -> None:
    block = city_block("ghazni")
    x_line = next(line for line in block.splitlines() if line.startswith("x = "))
    rejects(edited(block, block.replace(x_line, 'x = "west"')), "board.cities[", ".x", "number")
    rejects(edited(block, block.replace("x = ", "fortress = 1\nx = ")), ".fortress", "boolean")


def test_top_level_keys() -> None:
    rejects(edited("version = 1", "version = 2"), "version", "version 1")
    rejects(edited('format = "tajmahal/components"', 'format = "chess"'), "format")
    rejects("extra = 1\n" + STANDARD_TEXT, "top level", "unknown key(s) extra")
    rejects(edited("influence_tiles_per_symbol = 6", "influence_tiles_per_symbol = 1"), "influence")


def test_toml_syntax_error_names_the_line() -> None:
    lines = STANDARD_TEXT.splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("version = "))
    lines[number - 1] = "version = = 1"
    message = rejects("\n".join(lines), "TOML syntax error")
    assert f"line {number}" in message


def test_load_components_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "my_board.toml"
    path.write_text(
        STANDARD_TEXT.replace('name = "standard"', 'name = "mine"', 1), encoding="utf-8"
    )
    comps = load_components(path)
    assert comps.name == "mine"
    assert comps.board == BOARD


def test_load_components_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(edited('["kabul", "ghazni"]', '["kabul", "kandahar"]'), encoding="utf-8")
    with pytest.raises(tm.ComponentsError, match="kandahar") as info:
        load_components(path)
    assert str(path) in str(info.value)


def test_unreadable_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    with pytest.raises(tm.ComponentsError, match="cannot read components file") as info:
        load_components(missing)
    assert "missing.toml" in str(info.value)
    with pytest.raises(tm.ComponentsError, match="cannot read components file"):
        load_components(tmp_path)  # a folder


def test_file_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(STANDARD_TEXT.replace("Kabul", "K\u00e2bul").encode("latin-1"))
    with pytest.raises(tm.ComponentsError, match="cannot read components file") as info:
        load_components(path)
    assert "latin1.toml" in str(info.value)


# --------------------------------------------------------------------------- setup (S2, S3)


def test_s2_tile_12_on_agra() -> None:
    for seed in range(20):
        placement = place_tiles(COMPS, seed)
        assert placement.province_order[11] == "agra"
        assert sorted(placement.province_order) == sorted(NEIGHBOURS)


def test_s3_taj_mahal_tile_on_agra() -> None:
    for seed in range(20):
        tile = place_tiles(COMPS, seed).bonus_tile("agra")
        assert tile is not None and tile.kind is BonusKind.TAJ_MAHAL


def test_s3_square_tiles_on_the_other_fortresses() -> None:
    fortresses = {c.id for c in BOARD.fortresses}
    for seed in range(20):
        placement = place_tiles(COMPS, seed)
        bonus = dict(placement.bonus)
        assert len(placement.bonus) == 16
        assert set(bonus) == fortresses
        squares = Counter(t for city, t in placement.bonus if city != "agra")
        assert sum(squares.values()) == 15
        assert squares == Counter(t for t in COMPS.bonus_tiles if t.kind is not BonusKind.TAJ_MAHAL)


def test_s10_placement_deterministic_per_seed() -> None:
    for seed in (0, 1, 7, 12345):
        assert place_tiles(COMPS, seed) == place_tiles(COMPS, seed)


def test_s10_different_seeds_differ() -> None:
    placements = [place_tiles(COMPS, seed) for seed in range(10)]
    assert len({p.province_order for p in placements}) == 10
    assert len({p.bonus for p in placements}) > 1


def test_huge_count_is_rejected_before_allocating() -> None:
    pair = 'symbols = ["elephant", "elephant"]\ncount = '
    text = edited(pair + "2", pair + "1000000000000")
    rejects(text, "cards[0].count", "must be from 1 to 10000")


def test_k5_a_province_tile_showing_three_commodities_is_rejected() -> None:
    text = edited('commodities = ["tea", "jewels"]', 'commodities = ["tea", "jewels", "rice"]')
    rejects(text, "province_tiles[1].commodities", "province tile 2 shows 3 commodities",
            "one or two (C9, K5)")
    every = 'commodities = ["tea", "jewels", "rice", "spices"]'
    rejects(edited('commodities = ["tea", "jewels"]', every), "shows 4 commodities")
