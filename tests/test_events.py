"""tm.events: what each decision caused, with reasons and rule IDs, from public facts only."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tajmahal as tm
from builders import at_visit, finish_takes, play, situation, start
from helpers import mid_game_states
from tajmahal.events import EventKind, decisions, explain, opening


def kinds(decision: tm.events.Decision) -> list[str]:
    return [event.kind.value for event in decision.events]


def texts(decision: tm.events.Decision) -> list[str]:
    return [event.text for event in decision.events]


# ---------------------------------------------------------------------------- whole games


def test_the_points_of_each_decision_add_up_to_the_score_changes() -> None:
    record = tm.play_match(["greedy", "random", "greedy", "random"], seed=11).record
    state = tm.new_game(4, 11)
    for move in record.moves:
        after = state.apply(move)
        for audience in (None, 0, 3):
            decision = explain(state, move, after, audience=audience)
            points = [0] * 4
            for event in decision.events:
                if event.seat is not None:
                    points[event.seat] += event.points
            assert points == [a - b for a, b in zip(after.scores, state.scores, strict=True)]
            assert decision.scores == after.scores and decision.move is move
        state = after


def test_a_recorded_game_tells_every_visit_and_ends_with_final_scoring() -> None:
    record = tm.play_match(["random"] * 3, seed=4).record
    steps = list(decisions(record))
    assert len(steps) == len(record.moves)
    every = [event for step in steps for event in step.events]
    starts = [e.text for e in every if e.kind is EventKind.VISIT_START]
    assert [t.split(":")[0] for t in starts] == [f"Visit {k}" for k in range(2, 13)]
    assert sum(e.kind is EventKind.VISIT_END for e in every) == 12
    final = [e for e in steps[-1].events if e.rules == ("G1",)]
    assert [e.seat for e in final] == [0, 1, 2]
    assert steps[-1].events[-1].kind is EventKind.GAME_END
    assert opening(tm.new_game(3, 4))[0].text.startswith("Visit 1: ")


# ---------------------------------------------------------------------------- rule by rule


def test_w2_w4_prizes_won_and_lost_to_a_tie() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={
            0: ["red:vizier+general", "red:elephant+vizier"],
            1: ["green:general+monk"],
            2: ["yellow:vizier+monk"],
        },
        visit_colors={0: "red", 1: "green", 2: "yellow"},
        current_player=0,
    )
    decision = explain(state, tm.Withdraw())
    assert kinds(decision) == ["withdraw", "prize", "tie", "prize"]
    assert texts(decision)[1:] == [
        "wins the vizier majority (2 to 1) and takes the vizier tile (W2, W5)",
        "ties with seat 1 for the general (1 each) and does not win the general tile (W4)",
        "wins the elephant majority (1 to 0) and takes province tile 1 (rice) (W2, W9)",
    ]


def test_w3_a_majority_whose_prize_is_gone_wins_nothing() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: ["red:vizier+general"], 1: ["green:general+monk"]},
        visit_colors={0: "red", 1: "green"},
        court=["general", "monk", "princess", "crown", "province"],
        current_player=0,
    )
    decision = explain(state, tm.Withdraw())
    assert texts(decision)[1] == (
        "has the vizier majority, but the vizier tile was already taken (W3)"
    )
    assert decision.events[1].kind is EventKind.NO_PRIZE


def test_k4_k6_k7_bonus_tile_and_connections_with_their_reasons() -> None:
    state = situation(
        at_visit(start(), 2, province="p5"),
        table={0: ["red:vizier+general"], 1: ["green:elephant+monk"]},
        visit_colors={0: "red", 1: "green"},
        normal_palaces={"p4d": 0, "p3d": 0, "p6a": 1},
        bonus={"p5a": "tea"},
        commodity_tiles={0: ["tea"]},
        province_tiles={0: [2]},  # tea + jewels
        current_player=0,
    )
    after = play(state, "withdraw", "palace p5c")
    decision = explain(after, tm.PlacePalace("p5a"))
    assert kinds(decision)[:3] == ["palace", "bonus_tile", "points"]
    bonus, connected = decision.events[1], decision.events[2]
    # K4: 1 + 2 tea already owned (the tea bonus tile and province tile 2)
    assert bonus.text == (
        "takes the tea bonus tile in P5A: 3 points, tea 1 + 2 already owned (W6, K4)"
    )
    assert bonus.points == 3 and bonus.city == "p5a"
    # K6 + K7: p5a joins p4d by road, and p4d's chain reaches p3? no: p4a-p4c hold nothing
    assert connected.text == "scores 2 points: palaces in P5 connected to P4 (K6, K7)"
    assert connected.rules == ("K6", "K7") and connected.points == 2


def test_k5_the_province_tile_is_scored_after_the_palaces_with_what_is_owned() -> None:
    state = situation(
        at_visit(start(), 3, province="p5"),  # tile 3: spices + rice
        table={0: ["red:elephant+elephant"], 1: ["green:general+monk"]},
        visit_colors={0: "red", 1: "green"},
        province_tiles={0: [1]},  # rice
        current_player=0,
    )
    decision = explain(state, tm.Withdraw())
    scored = [e for e in decision.events if e.kind is EventKind.POINTS]
    assert [e.text for e in scored] == [
        "scores 3 points: province tile 3, spices 1, rice 1 + 1 already owned (K5)"
    ]


def test_p6_the_points_special_card_scores_two() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        hands={0: ["red:vizier+general", "special:points"]},
        current_player=0,
    )
    decision = explain(
        state, tm.PlayCards(tm.Card.parse("red:vizier+general"), tm.Card.parse("special:points"))
    )
    assert kinds(decision) == ["play", "points"]
    assert decision.events[1].points == 2 and decision.events[1].rules == ("P6",)


def test_w11_f3_the_card_drawn_is_shown_only_to_the_seat_that_drew_it() -> None:
    state = situation(start(), deck=["yellow:vizier+monk"], current_player=0)
    drawn = tm.Card.parse("yellow:vizier+monk")
    cards = {
        audience: explain(state, tm.Withdraw(), audience=audience).events[1].card
        for audience in (None, 0, 1, 2)
    }
    assert cards == {None: None, 0: drawn, 1: None, 2: None}


def test_d1_e1_e2_reshuffle_tiles_left_and_special_cards() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: ["red:vizier+general"]},
        court=["vizier", "crown", "province"],
        withdrawn={1: True, 2: True},
        visit_colors={0: "red"},
        bonus={"p5a": "+2"},
        supply=[],
        deck=[],
        discard=["white:elephant", "white:monk"],
        influence={1: {"monk": 2}},
        current_player=0,
    )
    after = finish_takes(play(state, "withdraw", "palace p5b"))
    decision = explain(state.apply(tm.Withdraw()), tm.PlacePalace("p5b"))
    assert after.visit == 2
    listed = kinds(decision)
    assert "reshuffle" in listed and "tiles_left" in listed and "special_card" in listed
    by_kind = {e.kind: e for e in decision.events}
    assert by_kind[EventKind.TILES_LEFT].text == (
        "province tile 1 and the +2 points bonus tile in P5A leave the game (E1)"
    )
    assert by_kind[EventKind.SPECIAL_CARD].text == (
        "returns two monk tiles and takes the color change special card from beside the board (E2)"
    )
    assert listed[-2:] == ["visit_start", "supply"]


def test_g3_a_win_and_a_shared_win() -> None:
    state = tm.new_game(3, 1)
    while not state.is_over:
        before, state = state, state.apply(state.legal_moves()[-1])
    decision = explain(before, before.legal_moves()[-1], state)
    assert decision.events[-1].text == "the game ends: seat 1 wins with 15 points (G3)"
    record = tm.play_match(["greedy", "greedy", "random", "random"], seed=7).record
    assert record.winners == (0, 1)
    last = list(decisions(record))[-1].events[-1]
    assert last.text == "the game ends: seat 0 and seat 1 share the win with 58 points each (G3)"


# ---------------------------------------------------------------------------- information


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=mid_game_states(), data=st.data())
def test_i3_events_for_a_seat_are_the_same_in_every_world_it_cannot_tell_apart(
    state: tm.GameState, data: st.DataObject
) -> None:
    """Deal the hidden cards differently (view.sample): if the seat's views before and after
    the move agree, so do its events; and no event names a card another seat drew."""
    if state.is_over:
        return
    audience = data.draw(st.integers(0, state.num_players - 1))
    other = state.view(audience).sample(random.Random(data.draw(st.integers(0, 2**32))))
    both = [m for m in state.legal_moves() if m in other.legal_moves()]  # the mover's hand differs
    move = data.draw(st.sampled_from(both))
    mine = explain(state, move, audience=audience)
    theirs = explain(other, move, audience=audience)
    if state.apply(move).view(audience) == other.apply(move).view(audience):
        assert mine == theirs
    for event in mine.events:
        if event.kind is EventKind.DRAW and event.seat != audience:
            assert event.card is None
    public = explain(state, move)
    assert all(e.card is None for e in public.events if e.kind is EventKind.DRAW)


def test_a_finished_game_has_no_move_to_explain() -> None:
    state = tm.new_game(3, 1)
    while not state.is_over:
        state = state.apply(state.legal_moves()[-1])
    with pytest.raises(tm.TajMahalError, match="the game is over"):
        explain(state, tm.Withdraw())
