"""C8 (one crown), C12 (unlimited palaces) and I1–I3 (what a view shows and hides)."""

from __future__ import annotations

import random

import attrs

import tajmahal as tm
from builders import card, play, situation, start
from tajmahal.rules.tables import tables

# --------------------------------------------------------------------------- components


def test_c8_one_crown_in_the_court_and_one_crown_palace_a_visit() -> None:
    state = situation(
        start(),
        hands=[["red:elephant+grand_mogul"], ["red:vizier+general"], ["green:monk+princess"]],
    )
    assert state.court_crown
    state = play(state, "play red:elephant+grand_mogul", "play red:vizier+general")
    state = play(state, "play green:monk+princess", "withdraw")  # seat 0 wins the crown
    assert not state.court_crown and state.phase is tm.Phase.CROWN
    state = play(state, f"crown {state.province}a")
    crowns = [c for c in state.crown_palaces if c >= 0]
    assert crowns == [0]
    # nobody else can win a second crown this visit (the crown has left the court)
    assert tm.Phase.CROWN not in {s.phase for s in _rest_of_visit(state)}


def _rest_of_visit(state: tm.GameState) -> list[tm.GameState]:
    states = []
    visit = state.visit
    while state.visit == visit and not state.is_over:
        state = state.apply(state.legal_moves()[-1])
        states.append(state)
    return states


def test_c12_palaces_are_unlimited() -> None:
    state = start()
    t = tables(state.components)
    current = state.province_order[0]
    elsewhere = [c for c in range(len(t.city_ids)) if t.city_province[c] != current]
    normal = list(state.normal_palaces)
    for c in elsewhere:  # seat 0 already has a palace in every other city of the board
        normal[c] = 0
    state = attrs.evolve(state, normal_palaces=tuple(normal))
    state = situation(state, hands=[["red:vizier+general"], [], []], withdrawn={1: True, 2: True})
    state = play(state, "play red:vizier+general", "withdraw")
    assert state.phase is tm.Phase.PALACE and state.current_player == 0
    first = state.legal_moves()[0]
    assert isinstance(first, tm.PlacePalace)
    after = state.apply(first)
    assert sum(owner == 0 for owner in after.normal_palaces) == len(elsewhere) + 1


# --------------------------------------------------------------------------- information


def _mid_visit() -> tm.GameState:
    state = situation(
        start(seed=3),
        hands=[
            ["red:elephant+vizier", "white:monk", "green:monk+princess"],
            ["yellow:vizier+monk", "yellow:elephant+general"],
            ["violet:elephant+elephant", "white:elephant"],
        ],
        supply=["red:vizier+general", "white:princess"],
        deck=["green:elephant+monk", "violet:vizier+monk", "red:elephant+elephant"],
        discard=["yellow:elephant+princess"],
    )
    state = play(state, "play red:elephant+vizier white:monk", "play yellow:vizier+monk")
    return play(state, "withdraw")  # seat 2 withdraws without playing and takes cards


def test_i1_views_show_every_public_fact() -> None:
    state = _mid_visit()
    while state.phase is tm.Phase.TAKE:
        state = state.apply(state.legal_moves()[0])
    view = state.view(1)
    assert view.table[0] == (card("red:elephant+vizier"), card("white:monk"))
    assert view.table[1] == (card("yellow:vizier+monk"),)
    assert view.withdrawn == (False, False, True)
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.deck_size == len(state.deck)
    assert view.supply == tuple(state.components.card_kinds[k] for k in state.supply)
    assert view.discard == tuple(state.components.card_kinds[k] for k in state.discard)
    assert view.scores == state.scores
    assert view.province == state.province and view.visit == state.visit
    taken = view.known_cards[2]  # I1: which supply cards were taken is public history
    assert set(taken) <= {card("red:vizier+general"), card("white:princess")} and taken
    assert view.visit_colors == (tm.Color.RED, tm.Color.YELLOW, None)


def test_i2_a_seat_sees_its_own_hand_including_cards_drawn_from_the_deck() -> None:
    state = _mid_visit()
    drawn = card("red:elephant+elephant")  # the deck's top card, drawn on withdrawing (W11)
    assert drawn in state.hand(2)
    assert state.view(2).hand == state.hand(2)
    assert drawn not in state.view(2).known_cards[2]  # the draw is private
    assert all(state.view(seat).hand == state.hand(seat) for seat in range(3))


def test_i3_nobody_sees_the_deck_order_or_another_hand() -> None:
    state = _mid_visit()
    view = state.view(0)
    fields = {f.name for f in attrs.fields(tm.PlayerView)}
    assert not {"hands", "deck", "seed"} & fields
    # reorder the deck and swap seat 1's unknown cards with deck cards: seat 0 sees no change
    rng = random.Random(5)
    deck = list(state.deck)
    rng.shuffle(deck)
    unknown = [k for k in state.hands[1] if k not in state.known[1]]
    hands = list(state.hands)
    swapped = tuple(sorted(deck[: len(unknown)] + [k for k in state.hands[1] if k not in unknown]))
    hands[1] = swapped
    other = attrs.evolve(
        state, hands=tuple(hands), deck=tuple(deck[len(unknown) :] + unknown), seed=state.seed + 1
    )
    assert other != state
    assert other.view(0) == view
    assert tm.dumps(other.view(0)) == tm.dumps(view)
