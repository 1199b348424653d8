"""docs/rules.md §5 Withdrawing (W1–W11), on the line board's province p2.

p2 has cities p2a (fortress), p2b, p2c (fortress), p2d; the fortresses' bonus
tiles are removed unless a test puts one there, so only the rule under test scores.
"""

from __future__ import annotations

from typing import Any

import pytest

import tajmahal as tm
from builders import at_visit, city, finish_takes, kind, kinds, play, situation, start
from tajmahal.rules import scoring
from tajmahal.rules.components import INFLUENCE, Symbol
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import SYMBOLS

P2 = ("p2a", "p2b", "p2c", "p2d")
ALL_COURT = ("vizier", "general", "monk", "princess", "crown", "province")
VIZIER = INFLUENCE.index(Symbol.VIZIER)


def visit(players: int = 3, **parts: Any) -> GameState:
    """Visit 1 in province p2, seat 0 to move, empty fortresses unless ``bonus`` says otherwise."""
    state = at_visit(start(players, seed=4), 1, "p2")
    bonus: dict[str, str | None] = {"p2a": None, "p2c": None}
    bonus.update(parts.pop("bonus", {}))
    return situation(state, bonus=bonus, **parts)


def won(state: GameState, seat: int) -> set[str]:
    return {SYMBOLS[i].value for i in scoring.symbols_won(state, seat)}


def cities_offered(state: GameState) -> set[str]:
    places = (tm.PlacePalace, tm.PlaceCrownPalace)
    return {m.city for m in state.legal_moves() if isinstance(m, places)}


# ---------------------------------------------------------------------------- W1


def test_w1_cards_of_players_who_withdrew_count_zero() -> None:
    state = visit(
        table={
            0: ["red:monk+princess", "white:monk"],  # monk 2, princess 1
            1: ["yellow:vizier+monk", "yellow:general+monk"],  # monk 2, vizier 1, general 1
            2: ["green:monk+princess"],  # monk 1, princess 1
        },
    )
    assert won(state, 0) == set()  # monk and princess are ties
    state = play(state, "withdraw")
    assert state.phase is Phase.TAKE  # nothing won
    assert state.influence[0] == (0, 0, 0, 0)
    state = finish_takes(state)
    assert state.table[0] == ()
    assert won(state, 1) == {"monk", "vizier", "general"}  # seat 0's two monks are gone
    state = play(state, "withdraw", "palace p2a", "palace p2b", "palace p2c")
    state = finish_takes(state)
    assert won(state, 2) == {"monk", "princess"}  # alone now; the monk tile is taken (W3)
    state = play(state, "withdraw")
    assert state.phase is Phase.PALACE and state.pending_palaces == 1
    assert not state.court_influence[INFLUENCE.index(Symbol.PRINCESS)]


def test_w1_compares_symbol_by_symbol_with_each_other_player() -> None:
    state = visit(
        table={
            0: ["red:elephant+vizier", "white:grand_mogul"],
            1: ["yellow:elephant+elephant"],
            2: ["green:vizier+general"],
        },
    )
    assert won(state, 0) == {"grand_mogul"}  # elephant 1<2, vizier 1=1
    assert won(state, 1) == {"elephant"}
    assert won(state, 2) == {"general"}


# ---------------------------------------------------------------------------- W2


def test_w2_majority_is_over_every_single_other_player_not_their_sum() -> None:
    state = visit(
        4,
        table={
            0: ["red:vizier+general", "white:vizier"],  # vizier 2
            1: ["yellow:vizier+monk"],
            2: ["green:vizier+princess"],
            3: ["violet:vizier+monk"],
        },
    )
    assert "vizier" in won(state, 0)  # 2 > 1, though the others hold 3 together
    state = play(state, "withdraw")
    assert state.phase is Phase.PALACE and state.pending_palaces == 2  # vizier and general


def test_w2_needs_at_least_one_symbol() -> None:
    state = visit(table={0: ["red:elephant+elephant"], 1: [], 2: []})
    assert won(state, 0) == {"elephant"}  # 0 vizier beats nobody's 0
    state = finish_takes(play(state, "withdraw"))
    assert state.influence[0] == (0, 0, 0, 0)
    assert state.court_influence == (True, True, True, True) and state.court_crown


# ---------------------------------------------------------------------------- W3


def test_w3_prize_taken_earlier_this_visit_yields_nothing() -> None:
    state = visit(
        table={0: ["red:elephant+grand_mogul", "white:vizier"]},
        court=["general", "monk", "princess"],  # vizier, crown and province tile are gone
    )
    assert won(state, 0) == {"elephant", "grand_mogul", "vizier"}
    before = state
    state = play(state, "withdraw")
    assert state.phase is Phase.TAKE
    assert state.influence == before.influence
    assert state.province_tiles == before.province_tiles
    assert state.normal_palaces == before.normal_palaces
    assert state.crown_palaces == before.crown_palaces
    assert state.scores == before.scores


def test_w3_second_vizier_majority_in_one_visit_wins_nothing() -> None:
    state = visit(
        table={0: ["red:vizier+general", "white:vizier"], 1: ["yellow:vizier+monk"], 2: []},
        hands={1: ["yellow:vizier+princess"], 2: []},
    )
    state = finish_takes(play(state, "withdraw", "palace p2a", "palace p2b"))
    assert state.influence[0][VIZIER] == 1
    state = play(state, "play yellow:vizier+princess")  # seat 1 now holds 2 viziers
    assert won(state, 1) == {"vizier", "monk", "princess"}
    state = finish_takes(play(state, "withdraw"))  # seat 2, without playing
    state = play(state, "withdraw")  # seat 1, alone
    assert state.phase is Phase.PALACE and state.pending_palaces == 2  # monk and princess
    assert state.influence[1] == (0, 0, 1, 1)


# ---------------------------------------------------------------------------- W4


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (["red:vizier+general"], ["yellow:vizier+monk", "white:general"]),  # tie, fewer
        (["red:elephant+grand_mogul"], ["yellow:elephant+grand_mogul"]),  # ties
    ],
    ids=["influence", "elephant-and-crown"],
)
def test_w4_tie_wins_nothing(mine: list[str], theirs: list[str]) -> None:
    state = visit(table={0: mine, 1: theirs, 2: []})
    assert won(state, 0) == set()
    before = state
    state = play(state, "withdraw")
    assert state.phase is Phase.TAKE
    assert state.court_influence == before.court_influence
    assert state.court_crown and state.court_province_tile
    assert state.scores == before.scores


# ---------------------------------------------------------------------------- W5


def test_w5_influence_win_takes_the_tile_and_places_a_palace_on_an_empty_city() -> None:
    state = visit(
        table={0: ["red:vizier+general"], 1: ["yellow:general+princess", "white:general"]},
        normal_palaces={"p2b": 2},
        crown_palaces={"p2c": 1},
    )
    state = play(state, "withdraw")
    assert state.phase is Phase.PALACE and state.current_player == 0
    assert state.influence[0] == (1, 0, 0, 0)
    assert state.court_influence == (False, True, True, True)
    assert cities_offered(state) == {"p2a", "p2c", "p2d"}  # p2b holds a normal palace
    state = play(state, "palace p2d")
    assert state.normal_palaces[city(state, "p2d")] == 0
    assert state.phase is Phase.TAKE


def test_w5_palace_errors_say_why() -> None:
    state = play(visit(table={0: ["red:vizier+general"]}, normal_palaces={"p2b": 2}), "withdraw")
    with pytest.raises(tm.IllegalMoveError, match="already holds a normal palace"):
        state.apply(tm.PlacePalace("p2b"))
    with pytest.raises(tm.IllegalMoveError, match="'p3a' is not in the current province 'p2'"):
        state.apply(tm.PlacePalace("p3a"))
    with pytest.raises(tm.IllegalMoveError, match="no city 'atlantis'"):
        state.apply(tm.PlacePalace("atlantis"))
    with pytest.raises(tm.IllegalMoveError, match="must place a palace"):
        state.apply(tm.PlaceCrownPalace("p2a"))
    with pytest.raises(tm.IllegalMoveError, match="must place a palace"):
        state.apply(tm.Withdraw())


# ---------------------------------------------------------------------------- W6


def test_w6_palace_on_fortress_takes_and_scores_its_tile_at_once() -> None:
    state = visit(table={0: ["red:vizier+general"]}, bonus={"p2a": "+2", "p2c": "+2"})
    state = play(state, "withdraw", "palace p2a")
    assert state.scores[0] == 2  # at once, before the withdrawal ends
    assert state.bonus[city(state, "p2a")] == -1
    state = play(state, "palace p2b")  # no fortress: no tile
    assert state.bonus[city(state, "p2c")] >= 0
    assert state.scores[0] == 2 + 1  # K6: one point for the province


def test_w6_fortress_whose_tile_is_gone_gives_nothing() -> None:
    state = visit(table={0: ["red:vizier+monk"]})
    state = play(state, "withdraw", "palace p2a")
    state = play(state, "palace p2c")
    assert state.scores[0] == 1


# ---------------------------------------------------------------------------- W7


def test_w7_crown_palace_may_share_a_city() -> None:
    state = visit(table={0: ["red:elephant+grand_mogul"], 1: ["yellow:elephant+elephant"]},
                  normal_palaces={"p2b": 1})
    state = play(state, "withdraw")
    assert state.phase is Phase.CROWN and not state.court_crown
    assert cities_offered(state) == set(P2)
    state = play(state, "crown p2b")
    assert state.crown_palaces[city(state, "p2b")] == 0
    assert state.normal_palaces[city(state, "p2b")] == 1
    assert state.scores[0] == 1  # K6


def test_w7_crown_palace_takes_no_tile_and_a_later_normal_palace_does() -> None:
    state = visit(
        table={
            0: ["red:elephant+grand_mogul"],
            1: ["yellow:vizier+monk"],
            2: ["green:elephant+elephant"],
        },
        bonus={"p2a": "+2"},
    )
    state = play(state, "withdraw", "crown p2a")
    assert state.scores[0] == 1  # the province point only
    assert state.bonus[city(state, "p2a")] >= 0
    state = finish_takes(state)
    state = play(state, "withdraw")  # seat 1 wins vizier and monk
    assert "p2a" in cities_offered(state)  # a crown-only city accepts a normal palace
    state = play(state, "palace p2a")
    assert state.scores[1] == 2
    assert state.bonus[city(state, "p2a")] == -1
    state = play(state, "palace p2b")
    assert state.scores[1] == 3
    assert state.normal_palaces[city(state, "p2a")] == 1
    assert state.crown_palaces[city(state, "p2a")] == 0


def test_w7_crown_already_taken_wins_nothing() -> None:
    state = visit(table={0: ["red:elephant+grand_mogul"], 1: ["yellow:elephant+elephant"]},
                  court=["vizier", "general", "monk", "princess", "province"])
    state = play(state, "withdraw")
    assert state.phase is Phase.TAKE and state.crown_palaces == visit().crown_palaces


# ---------------------------------------------------------------------------- W8


def test_w8_one_normal_and_one_crown_palace_per_city() -> None:
    state = visit(table={0: ["red:elephant+grand_mogul"], 1: ["yellow:elephant+elephant"]},
                  crown_palaces={"p2d": 2})
    state = play(state, "withdraw")
    assert cities_offered(state) == {"p2a", "p2b", "p2c"}
    with pytest.raises(tm.IllegalMoveError, match="already holds a crown palace"):
        state.apply(tm.PlaceCrownPalace("p2d"))


def test_w8_all_four_influence_and_crown_in_a_four_city_province() -> None:
    table = ["red:vizier+general", "red:monk+princess", "red:elephant+grand_mogul"]
    state = visit(table={0: table, 1: ["yellow:elephant+elephant"], 2: []})
    assert won(state, 0) == {"vizier", "general", "monk", "princess", "grand_mogul"}
    state = play(state, "withdraw")
    assert state.pending_palaces == 4 and state.pending_crown
    for name in ("p2c", "p2a", "p2d", "p2b"):
        state = play(state, f"palace {name}")
    assert state.phase is Phase.CROWN
    # every city holds one of their own palaces: the crown palace must join one
    assert cities_offered(state) == set(P2)
    state = play(state, "crown p2c")
    assert state.crown_palaces[city(state, "p2c")] == state.normal_palaces[city(state, "p2c")] == 0
    assert state.scores[0] == 1
    assert state.influence[0] == (1, 1, 1, 1) and state.court_influence == (False,) * 4


# ---------------------------------------------------------------------------- W9


def test_w9_elephant_majority_takes_the_province_tile() -> None:
    state = visit(table={0: ["red:elephant+elephant"], 1: ["yellow:elephant+monk"]})
    state = play(state, "withdraw")
    assert state.province_tiles[0] == (1,)
    assert not state.court_province_tile
    assert state.view(1).court_province_tile is None


def test_w9_province_tile_taken_already_gives_nothing() -> None:
    state = visit(table={0: ["red:elephant+elephant"]}, court=ALL_COURT[:-1])
    state = play(state, "withdraw")
    assert state.province_tiles[0] == ()


# ---------------------------------------------------------------------------- W10


def test_w10_palaces_then_crown_then_province_tile_then_connections() -> None:
    state = visit(
        table={0: ["red:vizier+general", "red:elephant+grand_mogul", "white:elephant"]},
        bonus={"p2a": "+2"},
        normal_palaces={"p1d": 0},  # road p1d-p2a: connects province p1 once p2a is ours
    )
    state = play(state, "withdraw")
    assert state.phase is Phase.PALACE and state.pending_palaces == 2
    assert state.pending_crown and state.pending_province
    assert state.province_tiles[0] == () and state.scores[0] == 0
    with pytest.raises(tm.IllegalMoveError, match="must place a palace"):
        state.apply(tm.PlaceCrownPalace("p2b"))
    state = play(state, "palace p2a")  # the player chooses the order of the cities
    assert state.phase is Phase.PALACE and state.scores[0] == 2  # W6 only
    state = play(state, "palace p2d")
    assert state.phase is Phase.CROWN and state.scores[0] == 2
    state = play(state, "crown p2b")
    assert state.phase is Phase.TAKE
    assert state.province_tiles[0] == (1,)
    # +2 tile, then province tile 1 (rice: 1), then 1 for p2 and 1 for connected p1
    assert state.scores[0] == 2 + 1 + 1 + 1


# ---------------------------------------------------------------------------- W11


def test_w11_withdrawing_without_playing_wins_nothing_and_draws_the_top_card() -> None:
    deck = ["green:vizier+general", "white:monk", "red:vizier+monk"]  # top card last
    state = visit(deck=deck, table={1: [], 2: []}, hands={0: ["red:monk+princess"]})
    state = play(state, "withdraw")
    assert state.phase is Phase.TAKE and state.pending_takes == 2
    assert state.hands[0] == tuple(sorted((kind(state, "red:monk+princess"),
                                           kind(state, "red:vizier+monk"))))
    assert len(state.deck) == 2
    assert state.scores == (0, 0, 0)
    assert state.influence[0] == (0, 0, 0, 0) and state.court_crown and state.court_province_tile
    state = finish_takes(state)
    assert len(state.hands[0]) == 4
    assert state.current_player == 1


def test_w11_a_player_who_played_draws_nothing() -> None:
    deck = ["white:monk", "white:elephant", "green:vizier+general"]
    state = visit(deck=deck, hands={0: ["red:vizier+monk", "red:monk+princess"]})
    state = play(state, "play red:vizier+monk")
    state = finish_takes(play(state, "withdraw"))  # seats 1 and 2 each draw one
    state = finish_takes(play(state, "withdraw"))
    assert state.current_player == 0 and state.deck == (kind(state, "white:monk"),)
    state = play(state, "play red:monk+princess", "withdraw")
    while state.phase is Phase.PALACE:
        state = state.apply(state.legal_moves()[0])
    assert state.phase is Phase.TAKE
    assert state.hands[0] == ()  # no deck card drawn
    assert state.deck == (kind(state, "white:monk"),)


def test_w11_last_player_may_withdraw_without_playing() -> None:
    deck = ["red:vizier+monk", "white:monk", "white:elephant"]  # one each for seats 0, 1, 2
    state = visit(deck=deck, hands={2: ["yellow:vizier+monk"]}, table={0: [], 1: [], 2: []})
    state = finish_takes(play(state, "withdraw"))
    state = finish_takes(play(state, "withdraw"))
    assert state.current_player == 2 and len(state.supply) == 1
    supply = state.supply
    state = play(state, "withdraw")
    assert state.hands[2] == kinds(state, ["yellow:vizier+monk", "red:vizier+monk"])
    assert state.phase is Phase.TAKE and state.pending_takes == 1
    state = state.apply(tm.TakeCard(state.components.card_kinds[supply[0]]))
    assert state.visit == 2
