"""The board of a game (tajmahal.render with a state): tiles left, key, highlight, notebooks."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import attrs
import pytest

import tajmahal as tm
from helpers import text_of, with_class
from tajmahal.render import render_board

COMPS = tm.standard_components()
PLAYERS = ("greedy", "greedy", "random", "random")


@pytest.fixture(scope="module")
def states() -> list[tm.GameState]:
    record = tm.play_match(list(PLAYERS), seed=7).record
    return list(tm.Game.from_record(record).states)


@pytest.fixture(scope="module")
def visit7(states: list[tm.GameState]) -> tm.GameState:
    return next(s for s in states if s.visit == 7 and s.phase is tm.Phase.PLAY)


def test_only_the_tiles_still_on_the_board_are_drawn(visit7: tm.GameState) -> None:
    placement = tm.place_tiles(COMPS, visit7.seed)  # every tile, as setup laid them
    root = ET.fromstring(render_board(COMPS, placement, state=visit7))
    view = visit7.view(0)
    bonus = {b.get("data-city") for b in with_class(root, "bonus")}
    assert bonus == set(view.bonus_tiles) and len(bonus) < len(placement.bonus)
    tiles = {
        t.get("data-province"): t.get("data-number") for t in with_class(root, "province-tile")
    }
    upcoming = {pid: str(k) for k, pid in enumerate(view.province_order, 1) if k > 7}
    assert tiles == upcoming


def test_the_key_names_each_seat_with_its_colour_and_score(visit7: tm.GameState) -> None:
    root = ET.fromstring(render_board(COMPS, state=visit7, players=PLAYERS))
    (key,) = with_class(root, "key")
    seats = [text_of(e) for e in with_class(key, "key-seat")]
    assert seats == [f"seat {s} {name}" for s, name in enumerate(PLAYERS)]
    scores = [int(text_of(e)) for e in with_class(key, "key-score")]
    assert scores == list(visit7.scores)
    assert "Visit 7 of 12" in text_of(key) and "to play" in text_of(key)
    (current,) = with_class(root, "current-province")
    assert current.get("data-province") == visit7.province
    colours = {p.get("fill") for p in root.iter("{http://www.w3.org/2000/svg}polygon")}
    assert {"#d1495b", "#2e86ab", "#3a9d23", "#f0a202"} <= colours


def test_the_end_of_the_game_shows_the_shared_win(states: list[tm.GameState]) -> None:
    root = ET.fromstring(render_board(COMPS, state=states[-1], players=PLAYERS))
    (key,) = with_class(root, "key")
    assert "Game over" in text_of(key) and text_of(key).count("shares the win") == 2
    assert with_class(root, "current-province") == [] and with_class(root, "province-tile") == []


def test_crown_palaces_are_as_large_as_palaces(states: list[tm.GameState]) -> None:
    root = ET.fromstring(render_board(COMPS, state=states[-1]))

    def width(element: ET.Element) -> float:
        xs = [float(p.split(",")[0]) for p in element.get("points", "").split()]
        return max(xs) - min(xs)

    crowns, houses = with_class(root, "crown-palace"), with_class(root, "palace")
    assert crowns and houses
    assert min(width(c) for c in crowns) >= max(width(h) for h in houses)


def test_every_region_lies_inside_the_frame() -> None:
    root = ET.fromstring(render_board())
    x, y, w, h = (float(v) for v in root.get("viewBox", "").split())
    for province in with_class(root, "province"):
        for polygon in province:
            for point in polygon.get("points", "").split():
                px, py = (float(v) for v in point.split(","))
                assert x < px < x + w and y < py < y + h


def test_states_and_views_show_as_pictures_in_notebooks(visit7: tm.GameState) -> None:
    assert visit7._repr_svg_() == render_board(COMPS, state=visit7)
    view = visit7.view(2)
    assert view._repr_svg_() == render_board(COMPS, state=view)
    assert "key-hand" not in visit7._repr_svg_()  # a state's picture: public facts only


def hand_lines(svg: str) -> list[str]:
    return [el.text or "" for el in with_class(ET.fromstring(svg), "key-hand")]


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_views_picture_shows_its_own_hand_and_no_other(visit7: tm.GameState, seat: int) -> None:
    view = visit7.view(seat)
    lines = hand_lines(view._repr_svg_() or "")
    assert lines[0] == f"hand of seat {seat}: {len(view.hand)} cards"
    shown = " ".join(lines[1:]).replace(",", "")
    for color in {card.color.value for card in view.hand}:
        assert f"{color}:" in shown
    words = [w for w in shown.split() if not w.endswith(":")]
    assert sorted(words) == sorted(str(card).partition(":")[2] for card in view.hand)
    others = {str(c) for s in range(visit7.num_players) if s != seat for c in visit7.hands[s]}
    assert not others - {str(c) for c in view.hand} & set(words)  # no hidden card shown


def test_the_hand_fits_inside_the_key_and_the_picture(visit7: tm.GameState) -> None:
    root = ET.fromstring(render_board(state=visit7.view(0)))
    _, y, _, h = (float(v) for v in root.get("viewBox", "").split())
    key = with_class(root, "key")[0]
    frame = key.find("{http://www.w3.org/2000/svg}rect")
    assert frame is not None
    bottom = float(frame.get("y", "0")) + float(frame.get("height", "0"))
    for line in with_class(root, "key-hand"):
        assert float(line.get("y", "0")) < bottom <= y + h


def test_an_empty_hand_is_said(visit7: tm.GameState) -> None:
    view = attrs.evolve(visit7.view(1), hand=())
    assert hand_lines(render_board(state=view)) == ["hand of seat 1: no cards"]
