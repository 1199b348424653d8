"""Test helpers: small custom boards and random playouts."""

from __future__ import annotations

import functools
import itertools
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence

from hypothesis import strategies as st

import tajmahal as tm
from tajmahal.rules.components import STANDARD_PATH, Components, parse_components

_STANDARD = STANDARD_PATH.read_text(encoding="utf-8")
#: the standard file's deck, special cards and tiles, without its board
NON_BOARD_TOML = (
    _STANDARD[: _STANDARD.index("\n[board]")] if "\n[board]" in _STANDARD else _STANDARD
)


def board_toml(
    provinces: Sequence[tuple[str, Sequence[str]]],
    roads: Sequence[tuple[str, str]],
    fortresses: Sequence[str],
    final: str,
    taj: str,
) -> str:
    """A [board] section: provinces as (id, city ids); cities laid on a grid."""
    lines = ["[board]", f'final_province = "{final}"', f'taj_mahal_city = "{taj}"', "roads = ["]
    lines += [f'  ["{a}", "{b}"],' for a, b in roads]
    lines.append("]")
    for pid, _ in provinces:
        lines += ["[[board.provinces]]", f'id = "{pid}"', f'name = "{pid.title()}"']
    for row, (pid, cities) in enumerate(provinces):
        for col, cid in enumerate(cities):
            lines += [
                "[[board.cities]]",
                f'id = "{cid}"',
                f'name = "{cid.title()}"',
                f'province = "{pid}"',
                f"fortress = {'true' if cid in fortresses else 'false'}",
                f"x = {col * 50}",
                f"y = {row * 50}",
            ]
    return "\n".join(lines) + "\n"


def line_board(num_provinces: int = 12, extra_fortresses: int = 4) -> str:
    """Provinces p1..pN in a row, 4 cities each (5 in the last), chained by one road each."""
    provinces = []
    roads: list[tuple[str, str]] = []
    fortresses = []
    for k in range(1, num_provinces + 1):
        size = 5 if k == num_provinces else 4
        cities = [f"p{k}{'abcde'[i]}" for i in range(size)]
        provinces.append((f"p{k}", cities))
        roads += list(itertools.pairwise(cities))
        fortresses.append(cities[0])
        if k <= extra_fortresses:
            fortresses.append(cities[2])
        if k > 1:
            roads.append((provinces[-2][1][-1], cities[0]))
    final = f"p{num_provinces}"
    return board_toml(provinces, roads, fortresses, final, f"{final}a")


def components_with_board(board: str, non_board: str = NON_BOARD_TOML) -> Components:
    return parse_components(non_board + "\n" + board, source="<test board>")


def line_components() -> Components:
    return components_with_board(line_board())


def random_playout(state, rng: random.Random) -> Iterator:  # type: ignore[no-untyped-def]
    """Yield every state of a game played with uniformly random legal moves."""
    yield state
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
        yield state


@functools.cache
def _standard_and_line() -> tuple[Components, Components]:
    return tm.standard_components(), line_components()


@st.composite
def mid_game_states(draw: st.DrawFn) -> tm.GameState:
    """A state after a random number of random legal moves (possibly the end of the game).

    3 to 5 players, any seed and first player, on the standard components or the line
    board of :func:`line_components`.
    """
    comps = draw(st.sampled_from(_standard_and_line()))
    players = draw(st.integers(min_value=3, max_value=5))
    state = tm.new_game(
        players,
        seed=draw(st.integers(min_value=0, max_value=2**40)),
        components=comps,
        first_player=draw(st.integers(min_value=0, max_value=players - 1)),
    )
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    for _ in range(draw(st.integers(min_value=0, max_value=450))):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    return state


# ---------------------------------------------------------------------------- SVG pictures


def svg_classes(element: ET.Element) -> set[str]:
    """The element's ``class`` attribute as a set of names."""
    return set(element.get("class", "").split())


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    """Every element below ``root`` (itself included) that has the class ``name``."""
    return [e for e in root.iter() if name in svg_classes(e)]


def text_of(element: ET.Element) -> str:
    """All the text inside ``element``."""
    return "".join(element.itertext())

