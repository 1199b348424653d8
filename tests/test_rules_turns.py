"""docs/rules.md §3 Visits and turns (V1–V6) and §4 Playing cards (P1–P8).

Also: IllegalMoveError messages for plays, and ``apply`` never changing its input.
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest

import tajmahal as tm
from builders import card, finish_takes, move, play, situation, start
from helpers import random_playout
from tajmahal.rules import scoring
from tajmahal.rules.components import Color
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import ELEPHANT, GRAND_MOGUL

RED = ["red:elephant+vizier", "red:monk+princess", "red:vizier+general"]
GREEN = ["green:monk+princess", "green:vizier+general", "green:general+monk"]
YELLOW = ["yellow:vizier+monk", "yellow:general+princess", "yellow:general+monk"]


def three(**parts: Any) -> GameState:
    """A 3-player first visit; seats 0-2 hold RED, GREEN, YELLOW unless told otherwise."""
    hands: dict[int, list[str]] = {0: RED, 1: GREEN, 2: YELLOW}
    hands.update(parts.pop("hands", {}))
    return situation(start(3), hands=hands, **parts)


def texts(state: GameState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def withdraw_always(state: GameState) -> GameState:
    """Everyone withdraws at once (W11) and takes the first supply cards."""
    return finish_takes(state.apply(tm.Withdraw()))


# ---------------------------------------------------------------------------- V1


def test_v1_twelve_visits_one_per_province_in_tile_order() -> None:
    state = start(4, seed=3)
    visits: list[tuple[int, str]] = []
    while not state.is_over:
        if not visits or visits[-1][0] != state.visit:
            visits.append((state.visit, state.province))
        state = withdraw_always(state)
    assert [v for v, _ in visits] == list(range(1, 13))
    provinces = [p for _, p in visits]
    assert len(set(provinces)) == 12
    board = state.components.board
    assert provinces == [board.provinces[i].id for i in state.province_order]


def test_v1_random_game_runs_visits_1_to_12_in_order() -> None:
    seen = [s.visit for s in random_playout(start(3, seed=8), random.Random(8))]
    assert seen[0] == 1 and seen[-1] == 12
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(seen))


# ---------------------------------------------------------------------------- V2


def test_v2_starting_player_moves_first_each_visit() -> None:
    state = start(3, seed=2)
    for visit in range(1, 6):
        assert state.visit == visit
        assert state.current_player == state.starting_player == (visit - 1) % 3
        for _ in range(3):
            state = withdraw_always(state)


def test_v2_turns_pass_clockwise_skipping_withdrawn_players() -> None:
    hands = {0: RED, 1: GREEN, 2: YELLOW, 3: ["violet:vizier+monk", "violet:monk+princess"]}
    state = situation(start(4), hands=hands)
    state = play(state, "play red:elephant+vizier")
    state = finish_takes(play(state, "withdraw"))  # seat 1 leaves without playing
    assert state.current_player == 2
    state = play(state, "play yellow:vizier+monk", "play violet:vizier+monk")
    assert state.current_player == 0
    state = play(state, "play red:monk+princess")
    assert state.current_player == 2  # seat 1 is skipped


# ---------------------------------------------------------------------------- V3


def test_v3_a_turn_is_play_or_withdraw() -> None:
    state = three()
    moves = state.legal_moves()
    assert {type(m) for m in moves} == {tm.PlayCards, tm.Withdraw}
    assert moves.count(tm.Withdraw()) == 1
    assert state.phase is Phase.PLAY


# ---------------------------------------------------------------------------- V4


def test_v4_withdrawn_player_takes_no_more_turns() -> None:
    state = play(three(), "play red:elephant+vizier")
    state = finish_takes(play(state, "withdraw"))
    assert state.withdrawn == (False, True, False)
    for _ in range(4):  # seats 2 and 0 alternate
        assert state.current_player != 1
        state = state.apply(next(m for m in state.legal_moves() if isinstance(m, tm.PlayCards)))
    assert state.current_player != 1
    with pytest.raises(tm.IllegalMoveError, match="seat 1"):
        state.apply(tm.Withdraw(), seat=1)


# ---------------------------------------------------------------------------- V5


def test_v5_lone_remaining_player_plays_on_until_withdrawing() -> None:
    state = three()
    state = finish_takes(play(state, "withdraw"))  # seat 0
    state = finish_takes(play(state, "withdraw"))  # seat 1
    assert state.current_player == 2
    state = play(state, "play yellow:vizier+monk")
    assert state.current_player == 2 and state.phase is Phase.PLAY
    state = play(state, "play yellow:general+princess")
    assert state.current_player == 2 and state.phase is Phase.PLAY
    assert len(state.table[2]) == 2
    state = play(state, "withdraw")  # wins vizier, general, monk, princess
    assert state.phase is Phase.PALACE and state.current_player == 2


def test_v5_lone_player_with_played_cards_keeps_the_turn_after_others_leave() -> None:
    state = play(three(), "play red:elephant+vizier")
    state = finish_takes(play(state, "withdraw"))  # seat 1
    state = finish_takes(play(state, "withdraw"))  # seat 2
    assert state.current_player == 0
    state = play(state, "play red:monk+princess")
    assert state.current_player == 0
    assert state.visit == 1


# ---------------------------------------------------------------------------- V6


def test_v6_visit_ends_when_everyone_has_withdrawn() -> None:
    state = play(three(), "play red:elephant+vizier")
    for seat in (1, 2):
        assert state.current_player == seat
        state = withdraw_always(state)
    assert state.visit == 1 and state.current_player == 0
    state = play(state, "withdraw", "palace " + state.components.board.provinces[
        state.province_order[0]].cities[1].id)
    state = finish_takes(state)
    assert state.visit == 2
    assert state.withdrawn == (False, False, False)
    assert state.table == ((), (), ())
    assert state.phase is Phase.PLAY


# ---------------------------------------------------------------------------- P1


def test_p1_plays_are_one_colored_card_plus_at_most_one_white_or_special() -> None:
    hand = ["red:elephant+vizier", "white:monk", "white:elephant", "special:points"]
    state = three(hands={0: hand})
    assert texts(state) == {
        "play red:elephant+vizier",
        "play red:elephant+vizier white:elephant",
        "play red:elephant+vizier white:monk",
        "play red:elephant+vizier special:points",
        "withdraw",
    }


def test_p1_white_or_special_card_alone_is_illegal() -> None:
    state = three(hands={0: ["white:monk", "special:points", "red:monk+princess"]})
    for lone in ("white:monk", "special:points"):
        with pytest.raises(tm.IllegalMoveError, match="colored card"):
            state.apply(tm.PlayCards(card(lone)))


def test_p1_two_colored_cards_are_illegal() -> None:
    state = three(hands={0: ["red:monk+princess", "red:elephant+vizier"]})
    with pytest.raises(tm.IllegalMoveError, match="white or special"):
        state.apply(move("play red:monk+princess red:elephant+vizier"))


def test_p1_white_first_is_illegal() -> None:
    state = three(hands={0: ["red:monk+princess", "white:monk"]})
    with pytest.raises(tm.IllegalMoveError, match="colored card"):
        state.apply(tm.PlayCards(card("white:monk"), card("red:monk+princess")))


# ---------------------------------------------------------------------------- P2


def test_p2_first_colored_card_fixes_the_visit_color() -> None:
    state = three(hands={0: ["red:elephant+vizier", "red:monk+princess", "green:vizier+general"]})
    assert "play green:vizier+general" in texts(state)  # free before the first card
    state = play(state, "play red:elephant+vizier")
    assert state.visit_colors[0] is Color.RED
    state = play(state, "play green:monk+princess", "play yellow:vizier+monk")
    assert texts(state) == {"play red:monk+princess", "withdraw"}


def test_p2_off_color_play_is_refused_saying_why() -> None:
    state = three(hands={0: ["red:elephant+vizier", "green:vizier+general"]})
    state = play(state, "play red:elephant+vizier", "play green:monk+princess")
    state = play(state, "play yellow:vizier+monk")
    with pytest.raises(tm.IllegalMoveError, match="your color this visit is red"):
        state.apply(move("play green:vizier+general"))


def test_p2_each_new_visit_frees_the_color() -> None:
    state = play(three(), "play red:elephant+vizier", "play green:monk+princess")
    assert state.visit_colors[:2] == (Color.RED, Color.GREEN)
    for _ in range(3):
        state = withdraw_always(state) if state.phase is Phase.PLAY else state
        while state.phase in (Phase.PALACE, Phase.CROWN):
            state = state.apply(state.legal_moves()[0])
        state = finish_takes(state)
    assert state.visit == 2
    assert state.visit_colors == (None, None, None)
    state = situation(state, hands={1: ["red:monk+princess", "yellow:vizier+monk"]})
    assert state.current_player == 1
    assert {"play red:monk+princess", "play yellow:vizier+monk"} <= texts(state)


# ---------------------------------------------------------------------------- P3


def test_p3_players_may_share_a_color() -> None:
    state = three(hands={1: ["red:monk+princess", "red:general+princess"]})
    state = play(state, "play red:elephant+vizier", "play red:monk+princess")
    assert state.visit_colors[:2] == (Color.RED, Color.RED)


# ---------------------------------------------------------------------------- P4


def test_p4_color_change_on_first_turn_does_not_fix_the_color() -> None:
    hand = ["red:elephant+vizier", "green:vizier+general", "green:monk+princess",
            "special:color_change"]
    state = three(hands={0: hand})
    state = play(state, "play red:elephant+vizier special:color_change")
    assert state.visit_colors[0] is None
    state = play(state, "play green:monk+princess", "play yellow:vizier+monk")
    # still free: the next colored card fixes it, here green
    assert {"play green:vizier+general", "play green:monk+princess"} <= texts(state)
    state = play(state, "play green:vizier+general")
    assert state.visit_colors[0] is Color.GREEN
    state = play(state, "play green:general+monk", "play yellow:general+princess")
    assert texts(state) == {"play green:monk+princess", "withdraw"}


def test_p4_color_change_allows_any_color_without_changing_it() -> None:
    hand = ["red:elephant+vizier", "red:monk+princess", "yellow:vizier+princess",
            "special:color_change"]
    state = three(hands={0: hand}, visit_colors={0: "red"}, table={0: ["red:vizier+general"]})
    assert "play yellow:vizier+princess" not in texts(state)
    assert "play yellow:vizier+princess special:color_change" in texts(state)
    assert "play red:monk+princess special:color_change" in texts(state)
    state = play(state, "play yellow:vizier+princess special:color_change")
    assert state.visit_colors[0] is Color.RED
    state = play(state, "play green:monk+princess", "play yellow:vizier+monk")
    assert texts(state) == {"play red:elephant+vizier", "play red:monk+princess", "withdraw"}


def test_p4_without_color_change_other_colors_are_not_offered() -> None:
    hand = ["red:elephant+vizier", "yellow:vizier+princess", "white:monk"]
    state = three(hands={0: hand}, visit_colors={0: "red"}, table={0: ["red:vizier+general"]})
    assert not any("yellow" in t for t in texts(state))


# ---------------------------------------------------------------------------- P5


def test_p5_played_cards_stay_on_the_table_until_withdrawal() -> None:
    state = three(hands={0: ["red:elephant+vizier", "red:monk+princess", "white:monk"]})
    state = play(state, "play red:elephant+vizier white:monk", "play green:monk+princess")
    state = play(state, "play yellow:vizier+monk", "play red:monk+princess")
    table = [str(c) for c in state.view(1).table[0]]
    assert table == ["red:elephant+vizier", "white:monk", "red:monk+princess"]
    assert state.hand(0) == ()
    # no move takes a card back: with an empty hand only withdrawing is left for seat 0
    state = play(state, "play green:vizier+general", "play yellow:general+princess")
    assert state.legal_moves() == (tm.Withdraw(),)


# ---------------------------------------------------------------------------- P6


def test_p6_points_card_scores_two_at_once() -> None:
    state = three(hands={0: ["red:elephant+vizier", "special:points"]}, scores={0: 5})
    state = play(state, "play red:elephant+vizier special:points")
    assert state.scores == (7, 0, 0)
    assert state.phase is Phase.PLAY and state.current_player == 1


# ---------------------------------------------------------------------------- P7


def test_p7_special_elephant_and_grand_mogul_count_as_symbols() -> None:
    state = three(
        hands={0: []},
        table={0: ["red:elephant+vizier", "special:elephant", "red:monk+princess",
                   "special:grand_mogul"]},
    )
    counts = scoring.symbol_counts(state, 0)
    assert counts[ELEPHANT] == 2
    assert counts[GRAND_MOGUL] == 1


def test_p7_special_elephant_breaks_a_tie_for_the_province() -> None:
    mine = ["red:elephant+vizier", "special:elephant"]
    state = three(table={0: mine, 1: ["yellow:elephant+monk"]}, hands={0: [], 1: ["white:monk"]})
    state = play(state, "withdraw")  # vizier won too: one palace first
    assert state.phase is Phase.PALACE
    state = finish_takes(state.apply(state.legal_moves()[0]))
    assert state.province_tiles[0] == (1,)
    assert "special:elephant" in [str(c) for c in state.hand(0)]  # F1: back to the hand


def test_p7_special_grand_mogul_wins_the_crown() -> None:
    state = three(
        table={0: ["red:elephant+elephant", "special:grand_mogul"],
               1: ["yellow:elephant+elephant", "white:elephant"]},
    )
    state = play(state, "withdraw")
    assert state.phase is Phase.CROWN and not state.court_crown


# ---------------------------------------------------------------------------- P8


@pytest.mark.parametrize(
    "hand",
    [[], ["white:monk", "white:elephant"], ["special:points", "white:vizier"]],
    ids=["empty", "whites", "special-and-white"],
)
def test_p8_no_colored_card_means_withdraw(hand: list[str]) -> None:
    state = three(hands={0: hand})
    assert state.legal_moves() == (tm.Withdraw(),)


def test_p8_only_off_color_cards_means_withdraw() -> None:
    state = three(
        hands={0: ["yellow:vizier+monk", "green:vizier+general", "white:monk"]},
        visit_colors={0: "red"},
        table={0: ["red:elephant+vizier"]},
    )
    assert state.legal_moves() == (tm.Withdraw(),)


# ---------------------------------------------------------------------------- errors


def test_illegal_play_of_a_card_not_in_hand_says_so() -> None:
    state = three()
    with pytest.raises(tm.IllegalMoveError, match="not in seat 0's hand"):
        state.apply(move("play red:elephant+elephant"))
    with pytest.raises(tm.IllegalMoveError, match="white:monk is not in seat 0's hand"):
        state.apply(move("play red:elephant+vizier white:monk"))


def test_illegal_play_of_a_card_that_does_not_exist_says_so() -> None:
    # one colored card is given: the problem is the card, not the shape of the play (P1)
    state = three()
    with pytest.raises(tm.IllegalMoveError) as info:
        state.apply(move("play red:grand_mogul+grand_mogul"))
    assert "not in seat 0's hand" in str(info.value) or "no such card" in str(info.value)


def test_illegal_move_by_the_wrong_seat_says_whose_turn_it_is() -> None:
    state = three()
    with pytest.raises(tm.IllegalMoveError, match=r"seat 2.*seat 0's decision"):
        state.apply(move("play yellow:vizier+monk"), seat=2)
    assert state.apply(move("play red:elephant+vizier"), seat=0).current_player == 1


def test_illegal_move_in_the_wrong_phase_says_what_is_owed() -> None:
    state = play(three(), "withdraw")
    assert state.phase is Phase.TAKE
    with pytest.raises(tm.IllegalMoveError, match="must take a supply card"):
        state.apply(move("play red:elephant+vizier"))
    with pytest.raises(tm.IllegalMoveError, match="must take a supply card"):
        state.apply(tm.Withdraw())


def test_illegal_move_that_is_not_a_move() -> None:
    with pytest.raises(tm.IllegalMoveError, match="is not a move"):
        three().apply("withdraw")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- apply is pure


@pytest.mark.parametrize("seed", [1, 2])
def test_apply_never_changes_its_input_state(seed: int) -> None:
    rng = random.Random(seed)
    for state in random_playout(start(4, seed=seed), rng):
        if state.is_over:
            break
        before = copy.deepcopy(state)
        for legal in state.legal_moves()[:6]:
            state.apply(legal)
        with pytest.raises(tm.IllegalMoveError):
            state.apply(tm.PlacePalace("nowhere"))
        assert state == before
        assert state.legal_moves() == before.legal_moves()


def test_apply_refuses_a_move_subclass_even_if_it_claims_equality() -> None:
    class EqualsAnything(tm.Withdraw):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = tm.Withdraw.__hash__

    state = three()
    with pytest.raises(tm.IllegalMoveError, match="is not a move"):
        state.apply(EqualsAnything())


def test_apply_plays_the_engines_own_object_for_an_equal_move() -> None:
    state = three()
    legal = state.legal_moves()[0]
    copy = tm.parse_move(str(legal), state)
    assert copy == legal
    assert state.apply(copy) == state.apply(legal)
