"""Events say exactly what happened: draws, empty piles, rule IDs, ties, reshuffles (issue 19).

Each test builds the state where the case occurs (tests/builders.py) and checks the words
against what the engine did; the last one checks every event of whole games against the
full states.
"""

from __future__ import annotations

import re

import attrs
import pytest

import tajmahal as tm
from builders import at_visit, move, situation, start
from tajmahal.events import EventKind, explain
from tajmahal.rules.components import Special
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import SPECIALS, tables


def holding(state: GameState, seat: int, special: Special) -> GameState:
    holder = list(state.special_holder)
    holder[SPECIALS.index(special)] = seat
    return attrs.evolve(state, special_holder=tuple(holder))


def plain_cards(state: GameState, seat: int) -> int:
    special = tables(state.components).special
    return sum(1 for kind in state.hands[seat] if not special[kind])


def withdrawn_with_a_special_on_the_table() -> GameState:
    """Seat 0 wins two palaces (vizier, general) with special:points on its table."""
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: ["red:vizier+general", "red:elephant+vizier", "special:points"],
               1: ["green:monk+princess"], 2: ["yellow:vizier+monk"]},
        visit_colors={0: "red", 1: "green", 2: "yellow"},
        current_player=0,
        bonus={"p5a": "+1 card"},
    )  # fmt: skip
    return holding(state, 0, Special.POINTS).apply(tm.Withdraw())


def test_k3_a_card_drawn_while_a_special_card_is_on_the_table_is_told_and_shown() -> None:
    state = withdrawn_with_a_special_on_the_table()
    assert state.pending_palaces == 2 and state.table[0]  # the withdrawal is not over
    after = state.apply(move("palace p5a"))
    assert plain_cards(after, 0) == plain_cards(state, 0) + 1  # the engine drew a card
    drawer = explain(state, move("palace p5a"), after, audience=0).events[-1]
    drawn = tables(after.components).kinds[state.deck[-1]]  # the top card is the last
    assert drawer.kind is EventKind.DRAW and drawer.card == drawn
    assert drawer.text == f"draws {drawn} for the +1 card bonus tile (K3)"
    assert drawer.rules == ("K3",)
    public = explain(state, move("palace p5a"), after).events[-1]
    assert public.text == "draws a card for the +1 card bonus tile (K3)" and public.card is None


def test_k3_a_draw_from_empty_piles_says_both_are_empty() -> None:
    state = situation(withdrawn_with_a_special_on_the_table(), deck=[], discard=[])
    event = explain(state, move("palace p5a"), audience=0).events[-1]
    assert event.kind is EventKind.DRAW and event.card is None
    assert event.text == "draws nothing: the draw deck and the discard pile are empty (D1)"
    assert event.rules == ("D1",)


def test_w11_both_piles_empty_and_the_visit_ending_in_the_same_move() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: [], 1: [], 2: []},
        withdrawn={1: True, 2: True},
        supply=[],
        deck=[],
        discard=[],
        current_player=0,
    )
    after = state.apply(tm.Withdraw())
    assert after.visit == 2 and plain_cards(after, 0) == plain_cards(state, 0)
    decision = explain(state, tm.Withdraw(), after, audience=0)
    assert [e.kind for e in decision.events][:3] == [
        EventKind.WITHDRAW, EventKind.DRAW, EventKind.VISIT_END,
    ]  # fmt: skip
    assert decision.events[1].text == (
        "draws nothing: the draw deck and the discard pile are empty (D1)"
    )


def test_d1_a_reshuffle_while_the_next_supply_is_dealt_comes_after_the_visit_ends() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: ["red:vizier+general"], 1: [], 2: []},
        visit_colors={0: "red"},
        withdrawn={1: True, 2: True},
        supply=[],
        deck=["white:monk", "white:elephant"],
        discard=["green:monk+princess", "yellow:vizier+monk", "red:elephant+vizier",
                 "violet:elephant+monk"],
        current_player=0,
    )  # fmt: skip
    last: tm.Move = tm.Withdraw()
    after = state.apply(last)
    while after.visit == 1:  # the palace it won, then the visit ends
        state, last = after, after.legal_moves()[0]
        after = state.apply(last)
    decision = explain(state, last, after)
    kinds = [e.kind for e in decision.events]
    assert after.reshuffles == 1
    assert kinds.index(EventKind.VISIT_END) < kinds.index(EventKind.RESHUFFLE) < kinds.index(
        EventKind.SUPPLY
    )
    reshuffle = decision.events[kinds.index(EventKind.RESHUFFLE)]
    assert reshuffle.rules == ("D1",) and reshuffle.text.endswith("(D1)")


def test_d1_a_reshuffle_at_a_draw_follows_the_draw() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: [], 1: ["green:monk+princess"], 2: []},
        supply=["white:monk", "white:elephant", "white:vizier", "white:general", "white:princess"],
        deck=["red:elephant+vizier"],
        discard=["yellow:vizier+monk", "violet:elephant+monk"],
        current_player=0,
    )
    after = state.apply(tm.Withdraw())
    assert after.reshuffles == 1 and after.visit == 1
    decision = explain(state, tm.Withdraw(), after, audience=0)
    assert [e.kind for e in decision.events] == [
        EventKind.WITHDRAW, EventKind.DRAW, EventKind.RESHUFFLE,
    ]  # fmt: skip
    assert decision.events[1].text == "draws red:elephant+vizier from the deck (W11, F3)"


def test_w4_a_tie_does_not_say_nobody_wins_a_prize_someone_may_win_later() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: ["red:vizier+general"], 1: ["green:general+monk"], 2: []},
        visit_colors={0: "red", 1: "green"},
        current_player=0,
    )
    tie = next(e for e in explain(state, tm.Withdraw()).events if e.kind is EventKind.TIE)
    assert tie.text == (
        "ties with seat 1 for the general (1 each) and does not win the general tile (W4)"
    )


CITED = re.compile(r"\(([A-Z]\d+(?:-[A-Z]\d+)?(?:, [A-Z]\d+(?:-[A-Z]\d+)?)*)\)$")


@pytest.mark.parametrize("seed", [2, 9])
def test_every_event_of_whole_games_matches_the_engine(seed: int) -> None:
    """Draws match the cards that came into the hand, cited rules are in ``rules``,
    reshuffles are counted and told after the draw or after the visit's end."""
    num_players = 4 + seed % 2
    record = tm.play_match(["random"] * num_players, seed=seed).record
    states = tm.Game.from_record(record).states
    reshuffles = 0
    for before, made, after in zip(states, record.moves, states[1:], strict=False):
        seat = before.current_player
        assert seat is not None
        events = explain(before, made, after, audience=seat).events
        kinds = [e.kind for e in events]
        for event in events:
            cited = CITED.search(event.text)
            if cited:
                for rule in cited[1].split(", "):
                    first = rule.split("-")[0]
                    assert first in event.rules, (event.text, event.rules)
            assert "nobody wins" not in event.text
        for event in (e for e in events if e.kind is EventKind.DRAW):
            drawn = plain_cards(after, seat) - plain_cards(before, seat)
            assert (event.card is not None) == (drawn == 1), event.text
            assert event.text.startswith("draws nothing") == (drawn == 0), event.text
        assert kinds.count(EventKind.RESHUFFLE) == after.reshuffles - before.reshuffles
        reshuffles += kinds.count(EventKind.RESHUFFLE)
        for i, kind in enumerate(kinds):
            if kind is EventKind.RESHUFFLE and EventKind.VISIT_END in kinds[i:]:
                assert kinds[i - 1] is EventKind.DRAW
    assert reshuffles == states[-1].reshuffles >= 1
