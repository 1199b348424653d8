"""docs/rules.md §6 Scoring on withdrawal (K1–K9) and the worked examples T1, T2, T3, T5 (§12).

Most tests use the line board's province p2 (cities p2a fortress, p2b, p2c
fortress, p2d; roads p1d-p2a and p2d-p3a lead out of it).  T3 builds the
rulebook's figure as a custom board.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from builders import at_visit, city, finish_takes, kind, kinds, play, situation, start
from helpers import board_toml, components_with_board, random_playout
from tajmahal.rules import scoring
from tajmahal.rules.state import GameState, Phase

TWO_INFLUENCE = ["red:vizier+general"]  # wins vizier and general: two palaces


def visit(players: int = 3, number: int = 1, **parts: Any) -> GameState:
    """Visit ``number`` in province p2 (so province tile ``number`` is at stake), seat 0 to move.

    The fortresses p2a and p2c are empty unless ``bonus`` says otherwise.
    """
    state = at_visit(start(players, seed=6, first_player=0), number, "p2")
    state = situation(state, current_player=0)
    bonus: dict[str, str | None] = {"p2a": None, "p2c": None}
    bonus.update(parts.pop("bonus", {}))
    return situation(state, bonus=bonus, **parts)


def owned(state: GameState, seat: int) -> dict[str, int]:
    names = ("rice", "tea", "spices", "jewels")
    return dict(zip(names, scoring.owned_commodities(state, seat), strict=True))


# ---------------------------------------------------------------------------- K1-K3


def test_k1_taj_mahal_tile_scores_4_and_leaves_the_game() -> None:
    state = visit(table={0: TWO_INFLUENCE}, bonus={"p2a": "+4"})
    state = play(state, "withdraw", "palace p2a")
    assert state.scores[0] == 4
    assert state.bonus[city(state, "p2a")] == -1
    assert state.commodity_tiles[0] == ()
    state = play(state, "palace p2b")
    assert state.scores[0] == 4 + 1


def test_k2_plus_two_tile_scores_2_and_leaves_the_game() -> None:
    state = visit(table={0: TWO_INFLUENCE}, bonus={"p2c": "+2"})
    state = play(state, "withdraw", "palace p2c")
    assert state.scores[0] == 2
    assert state.bonus[city(state, "p2c")] == -1
    assert state.commodity_tiles[0] == ()


def test_k3_plus_one_card_tile_draws_the_top_card_and_scores_nothing() -> None:
    deck = ["white:elephant", "green:monk+princess"]  # top card last
    state = visit(table={0: TWO_INFLUENCE}, hands={0: ["red:monk+princess"]},
                  bonus={"p2a": "+1 card"}, deck=deck)
    state = play(state, "withdraw", "palace p2a")
    assert state.scores[0] == 0
    assert state.hands[0] == kinds(state, ["red:monk+princess", "green:monk+princess"])
    assert state.deck == (kind(state, "white:elephant"),)
    assert state.bonus[city(state, "p2a")] == -1
    assert state.commodity_tiles[0] == ()


# ---------------------------------------------------------------------------- K4


def test_k4_commodity_tile_scores_1_plus_same_commodities_owned() -> None:
    state = visit(
        table={0: TWO_INFLUENCE},
        bonus={"p2a": "tea"},
        province_tiles={0: [2, 6]},  # tea+jewels, tea+spices: two tea
        commodity_tiles={0: ["rice", "jewels"]},  # not tea: no points
    )
    state = play(state, "withdraw", "palace p2a")
    assert state.scores[0] == 1 + 2
    assert owned(state, 0)["tea"] == 3  # the tile stays in front of the player
    assert state.bonus[city(state, "p2a")] == -1


def test_k4_two_tiles_in_one_withdrawal_score_one_after_the_other() -> None:
    state = visit(table={0: TWO_INFLUENCE}, bonus={"p2a": "spices", "p2c": "spices"})
    state = play(state, "withdraw", "palace p2c")
    assert state.scores[0] == 1
    state = play(state, "palace p2a")
    assert state.scores[0] == 1 + 2 + 1  # the second counts the first; +1 for the province


def test_k4_province_tile_of_the_same_withdrawal_does_not_count_for_bonus_tiles() -> None:
    # visit 10: province tile 10 shows tea and rice
    state = visit(number=10, table={0: ["red:vizier+general", "red:elephant+elephant"]},
                  bonus={"p2a": "tea"})
    state = play(state, "withdraw", "palace p2a")
    assert state.scores[0] == 1  # no tea owned yet: the province tile comes later (K5)
    state = play(state, "palace p2b")
    # K5: tea 1 + 1 (the bonus tile just won) and rice 1; K6: 1
    assert state.scores[0] == 1 + 3 + 1


# ---------------------------------------------------------------------------- K5


def test_k5_province_tile_scores_each_commodity_plus_same_owned() -> None:
    state = visit(
        number=1,  # tile 1: rice only
        table={0: ["red:elephant+elephant"]},
        province_tiles={0: [3]},  # spices+rice
        commodity_tiles={0: ["rice", "tea"]},
    )
    state = play(state, "withdraw")
    assert state.province_tiles[0] == (3, 1)
    assert state.scores[0] == 1 + 2  # no palace: no K6 point
    assert owned(state, 0)["rice"] == 3


def test_k5_two_commodity_tile_scores_both() -> None:
    state = visit(number=12, table={0: ["red:elephant+elephant"]},  # jewels+spices
                  province_tiles={0: [11]})  # spices+jewels
    state = play(state, "withdraw")
    assert state.scores[0] == (1 + 1) + (1 + 1)


# ---------------------------------------------------------------------------- K6


def test_k6_one_point_for_the_province_however_many_palaces() -> None:
    table = ["red:vizier+general", "red:monk+princess"]
    state = visit(table={0: table})
    state = play(state, "withdraw", "palace p2a", "palace p2b", "palace p2c", "palace p2d")
    assert state.scores[0] == 1


def test_k6_a_crown_palace_alone_earns_the_province_point() -> None:
    state = visit(table={0: ["red:elephant+grand_mogul"], 1: ["yellow:elephant+elephant"]})
    state = play(state, "withdraw", "crown p2c")
    assert state.scores[0] == 1


def test_k6_no_palace_in_the_province_no_point() -> None:
    state = visit(table={0: ["red:elephant+elephant"]}, normal_palaces={"p1d": 0, "p3a": 0},
                  court=["crown", "province"])
    state = play(state, "withdraw")  # wins the province tile (rice, 1) only
    assert state.scores[0] == 1


# ---------------------------------------------------------------------------- K7


CHAIN = {"p1d": 0, "p3a": 0, "p3b": 0, "p3d": 0, "p4a": 0}  # p3c is the gap to p4


@pytest.mark.parametrize(
    ("normal", "crown", "points"),
    [
        ({}, {}, 1 + 2),  # p1 and p3; the empty p3c breaks the chain to p4
        ({"p3c": 1}, {}, 1 + 2),  # another player's palace breaks it too
        ({}, {"p3c": 0}, 1 + 3),  # their own crown palace connects
        ({"p3c": 1}, {"p3c": 0}, 1 + 3),  # a shared city connects for them
        ({"p3c": 0}, {"p3c": 2}, 1 + 3),  # ... whoever's crown palace it also holds
    ],
    ids=["gap", "other-player", "own-crown", "shared-own-crown", "shared-own-normal"],
)
def test_k7_connected_provinces_through_cities_with_their_palace(
    normal: dict[str, int], crown: dict[str, int], points: int
) -> None:
    state = visit(table={0: TWO_INFLUENCE}, normal_palaces={**CHAIN, **normal},
                  crown_palaces=crown)
    state = play(state, "withdraw", "palace p2a", "palace p2d")
    assert state.scores[0] == points


def test_k7_a_palace_in_the_province_not_touching_the_road_connects_nothing() -> None:
    state = visit(table={0: TWO_INFLUENCE}, normal_palaces=CHAIN)
    state = play(state, "withdraw", "palace p2b", "palace p2c")  # p2a, p2d stay empty
    assert state.scores[0] == 1


def test_k7_other_players_palaces_connect_nothing_for_us() -> None:
    chain = {name: 1 for name in CHAIN}
    state = visit(table={0: TWO_INFLUENCE}, normal_palaces=chain)
    state = play(state, "withdraw", "palace p2a", "palace p2d")
    assert state.scores[0] == 1
    assert scoring.connection_points(state, 1) == 0  # seat 1 has nothing in p2


# ---------------------------------------------------------------------------- K8


def test_k8_a_province_counts_once() -> None:
    palaces = {"p1a": 0, "p1b": 0, "p1c": 0, "p1d": 0, "p3a": 0, "p3b": 0}
    table = ["red:vizier+general", "red:monk+princess"]
    state = visit(table={0: table}, normal_palaces=palaces)
    state = play(state, "withdraw", "palace p2a", "palace p2b", "palace p2c", "palace p2d")
    assert state.scores[0] == 1 + 2


# ---------------------------------------------------------------------------- K9


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_k9_scores_never_go_down(seed: int) -> None:
    states = list(random_playout(start(4, seed=seed), random.Random(seed)))
    for before, after in itertools.pairwise(states):
        assert all(b <= a for b, a in zip(before.scores, after.scores, strict=True))
    assert states[-1].is_over and max(states[-1].scores) > 0


def test_k9_points_are_added_at_once_to_the_existing_score() -> None:
    state = visit(table={0: TWO_INFLUENCE}, bonus={"p2a": "+2"}, scores={0: 30, 1: 12})
    state = play(state, "withdraw", "palace p2a")
    assert state.scores[:2] == (32, 12)
    state = play(state, "palace p2b")
    assert state.scores[:2] == (33, 12)


# ---------------------------------------------------------------------------- T1, T2


def test_t1_two_tea_bonus_tiles_in_one_withdrawal() -> None:
    state = visit(
        table={0: TWO_INFLUENCE},
        province_tiles={0: [2, 4]},  # tea+jewels, jewels+tea: two tea
        bonus={"p2a": "tea", "p2c": "tea"},
    )
    state = play(state, "withdraw", "palace p2a")
    assert state.scores[0] == 3  # 1 + 1 + 1
    state = play(state, "palace p2c")
    assert state.scores[0] == 3 + 4 + 1  # 1 + 1 + 1 + 1; then 1 for the province (K6)
    assert owned(state, 0)["tea"] == 4


def test_t2_province_tile_after_the_two_tea_tiles() -> None:
    state = visit(
        number=10,  # province tile 10: tea and rice
        table={0: ["red:vizier+general", "red:elephant+elephant"]},
        province_tiles={0: [2, 4, 1, 3]},  # two tea; rice, spices+rice: two rice
        bonus={"p2a": "tea", "p2c": "tea"},
    )
    state = play(state, "withdraw", "palace p2a", "palace p2c")
    assert state.phase is Phase.TAKE
    tiles_points = 3 + 4 + 8  # T1's 7, then 8 = 1 + 1 + 4 tea + 2 rice
    assert state.scores[0] == tiles_points + 1  # the rulebook's 15 leaves out the palace point
    assert owned(state, 0)["tea"] == 5 and owned(state, 0)["rice"] == 3


# ---------------------------------------------------------------------------- T3

T3_PROVINCES = [(p, [f"{p}{i}" for i in range(1, 5)]) for p in "abcdefghijk"]
T3_PROVINCES.append(("l", [f"l{i}" for i in range(1, 6)]))
T3_ROADS = [road for _, cities in T3_PROVINCES for road in itertools.pairwise(cities)] + [
    ("a4", "b1"), ("a4", "c1"), ("a2", "e1"), ("a1", "d1"), ("a3", "i1"), ("a3", "b2"),
    ("i1", "h1"), ("h1", "g1"), ("e2", "f1"), ("c2", "g1"), ("a2", "c3"),
    ("i4", "j2"), ("j4", "k3"), ("k4", "l5"),  # no palaces: only so that the board is connected
]  # fmt: skip
T3_FORTRESSES = [f"{p}4" for p in "bcdefghijk"] + ["j1", "k1", "l1", "l2", "l3", "l4"]
T3 = components_with_board(board_toml(T3_PROVINCES, T3_ROADS, T3_FORTRESSES, "l", "l1"))
RED, BLUE, BROWN, GRAY = 0, 1, 2, 3
T3_NORMAL = {
    "a1": BLUE, "a3": BLUE, "d1": BLUE,
    "b1": RED, "c1": RED, "c2": RED, "e1": RED, "d3": RED, "f1": RED, "h3": RED, "g2": RED,
    "i1": BROWN, "b2": BROWN, "h1": BROWN, "g1": BROWN, "e3": BROWN, "f3": BROWN,
    "d2": GRAY, "b3": GRAY, "k2": GRAY,
}  # fmt: skip
T3_CROWN = {"a3": BROWN, "i1": BLUE}


def t3_state(**extra_palaces: int) -> GameState:
    """Province A on visit 1: blue and brown have withdrawn; red withdraws with monk+princess."""
    state = at_visit(start(4, seed=9, components=T3), 1, "a")
    return situation(
        state,
        table={RED: ["red:monk+princess"], BLUE: [], BROWN: [], GRAY: []},
        withdrawn={BLUE: True, BROWN: True},
        normal_palaces={**T3_NORMAL, **extra_palaces},
        crown_palaces=T3_CROWN,
        court=["monk", "princess", "province"],
        current_player=RED,
    )


def test_t3_red_scores_1_plus_2_plus_1() -> None:
    state = play(t3_state(), "withdraw")
    assert {m.city for m in state.legal_moves()} == {"a2", "a4"}  # type: ignore[union-attr]
    state = play(state, "palace a4", "palace a2")
    assert state.scores[RED] == 1 + 2 + 1  # A; B and C through a4; E through a2
    assert scoring.connection_points(state, RED) == 4


def test_t3_city_with_two_players_palaces_connects_for_both() -> None:
    state = play(t3_state(), "withdraw", "palace a4", "palace a2")
    assert scoring.connection_points(state, BLUE) == 1 + 2  # D via a1; I via a3 and i1
    assert scoring.connection_points(state, BROWN) == 1 + 4  # B, I, H, G via a3's crown


def test_t3_player_without_a_palace_in_the_province_scores_nothing() -> None:
    state = play(t3_state(), "withdraw", "palace a4", "palace a2")
    assert scoring.connection_points(state, GRAY) == 0


def test_t3_red_palaces_behind_gaps_do_not_count_and_c_counts_once() -> None:
    # c3 gives red a second path into C (a2-c3); C still counts once (K8)
    state = play(t3_state(c3=RED), "withdraw", "palace a4", "palace a2")
    assert state.scores[RED] == 4


# ---------------------------------------------------------------------------- T5

ANNA, BOB, CHRIS, DORIS = 0, 1, 2, 3


def test_t5_withdrawn_cards_stop_counting() -> None:
    state = visit(
        4,
        table={
            ANNA: ["red:elephant+elephant", "red:elephant+vizier", "white:vizier"],
            BOB: ["yellow:elephant+vizier", "yellow:vizier+monk"],
            CHRIS: ["green:general+monk", "green:vizier+general"],
            DORIS: ["violet:elephant+grand_mogul", "violet:general+princess",
                    "violet:vizier+monk", "white:monk"],
        },
        hands={CHRIS: ["green:elephant+princess"]},
    )
    anna_cards = kinds(state, state_table_texts(state, ANNA))
    state = play(state, "withdraw")  # Anna: elephant majority; vizier only ties with Bob
    assert state.phase is Phase.TAKE
    assert state.province_tiles[ANNA] == (1,) and state.influence[ANNA] == (0, 0, 0, 0)
    assert state.table[ANNA] == () and all(k in state.discard for k in anna_cards)
    state = finish_takes(state)

    state = play(state, "withdraw")  # Bob: now the vizier majority, nothing else
    assert state.pending_palaces == 1 and not state.pending_crown
    state = finish_takes(play(state, "palace p2a"))
    assert state.influence[BOB] == (1, 0, 0, 0)

    state = play(state, "play green:elephant+princess")  # Chris plays on
    state = play(state, "withdraw")  # Doris: monk and grand mogul
    assert state.pending_palaces == 1 and state.pending_crown
    state = finish_takes(play(state, "palace p2b", "crown p2a"))
    assert state.influence[DORIS] == (0, 0, 1, 0)
    assert state.crown_palaces[city(state, "p2a")] == DORIS

    assert state.current_player == CHRIS
    state = play(state, "withdraw")  # Chris, last: princess and general
    assert state.pending_palaces == 2 and not state.pending_crown
    state = play(state, "palace p2c", "palace p2d")
    assert state.influence[CHRIS] == (0, 1, 0, 1)
    assert state.province_tiles[CHRIS] == ()  # elephant majority, but the tile is gone
    assert state.phase is Phase.TAKE and state.pending_takes == 1
    assert finish_takes(state).visit == 2  # everyone has withdrawn (V6)


def state_table_texts(state: GameState, seat: int) -> list[str]:
    return [str(state.components.card_kinds[k]) for k in state.table[seat]]
