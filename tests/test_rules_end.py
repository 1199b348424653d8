"""Rule tests: finishing a withdrawal (F1–F3), the end of a visit (E1–E7), drawing (D1),
the game end (G1–G3) and the rulebook's worked example T4 (docs/rules.md §7–§10, §12).

Every situation is built directly (``builders.situation`` and ``attrs.evolve``) on
the synthetic line board; none of these rules depends on the map.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import pytest

import tajmahal as tm
from builders import at_visit, card, kind, situation, start
from tajmahal import Phase, PlacePalace, Special, Symbol, TakeCard, Withdraw
from tajmahal.rules.components import INFLUENCE
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import SPECIALS, tables

# docs/rules.md C6 [DECISION]: which two identical influence tiles earn which special card
EARNS = {
    "vizier": Special.GRAND_MOGUL,
    "general": Special.ELEPHANT,
    "princess": Special.POINTS,
    "monk": Special.COLOR_CHANGE,
}
SUPPLY5 = [
    "white:elephant",
    "green:vizier+general",
    "violet:elephant+elephant",
    "yellow:general+monk",
    "red:monk+princess",
]
SOME_CARDS = [
    "red:vizier+general",
    "red:elephant+monk",
    "yellow:vizier+princess",
    "yellow:elephant+elephant",
    "green:general+monk",
    "green:elephant+grand_mogul",
    "violet:monk+princess",
    "violet:elephant+vizier",
    "white:princess",
    "white:elephant",
]


# ------------------------------------------------------------------ small private helpers


def names(state: GameState, pile: Iterable[int]) -> Counter[str]:
    """The multiset of card texts of a hand, table or pile."""
    return Counter(str(state.components.card_kinds[k]) for k in pile)


def hand(state: GameState, seat: int) -> Counter[str]:
    return names(state, state.hands[seat])


def holder(state: GameState, special: Special) -> int:
    return state.special_holder[SPECIALS.index(special)]


def held(state: GameState, seat: int, symbol: str) -> int:
    return state.influence[seat][INFLUENCE.index(Symbol(symbol))]


def with_specials(state: GameState, holders: Mapping[Special, int]) -> GameState:
    """``state`` where ``holders`` say who holds which special card (the hands must agree)."""
    values = list(state.special_holder)
    for special, seat in holders.items():
        values[SPECIALS.index(special)] = seat
    return attrs.evolve(state, special_holder=tuple(values))


def last_take(state: GameState, seat: int, last_card: str, **parts: Any) -> GameState:
    """Everyone has withdrawn; ``seat`` owes the visit's last card, ``last_card``."""
    n = state.num_players
    state = situation(
        state,
        withdrawn={s: True for s in range(n)},
        table={s: [] for s in range(n)},
        supply=[last_card],
        **parts,
    )
    return attrs.evolve(state, phase=Phase.TAKE, current_player=seat, pending_takes=1)


def end_visit(
    state: GameState, seat: int = 0, last_card: str = "white:elephant", **parts: Any
) -> GameState:
    """The state right after the visit of ``state`` ends (``seat`` took the last card)."""
    return last_take(state, seat, last_card, **parts).apply(TakeCard(card(last_card)), seat=seat)


def current_cities(state: GameState) -> tuple[int, ...]:
    return tables(state.components).province_cities[state.province_order[state.visit - 1]]


def fortress_here(state: GameState) -> str:
    t = tables(state.components)
    return next(t.city_ids[c] for c in current_cities(state) if t.fortress[c])


def final_scores(
    hands: Mapping[int, Sequence[str]],
    scores: Sequence[int] = (0, 0, 0),
    last: tuple[int, str] = (0, "white:elephant"),
    **parts: Any,
) -> tuple[int, ...]:
    """Final scores when visit 12 ends with these hands (``last``: who takes which last card)."""
    state = situation(at_visit(start(), 12), hands=hands, scores=scores)
    after = end_visit(state, seat=last[0], last_card=last[1], **parts)
    assert after.is_over
    return after.scores


# ------------------------------------------------------------------ F1–F3


def test_f1_played_cards_discarded_special_cards_return_to_hand() -> None:
    played = ["red:elephant+vizier", "white:monk", "red:elephant+general", "special:points"]
    state = situation(
        start(),
        hands={0: ["green:monk+princess"]},
        table={0: played},
        visit_colors={0: "red"},
        discard=["yellow:vizier+monk"],
        court=[],  # every prize is gone (W3): this withdrawal wins nothing
    )
    state = with_specials(state, {Special.POINTS: 0})

    after = state.apply(Withdraw())

    assert after.table[0] == ()
    assert names(after, after.discard) == Counter(
        ["yellow:vizier+monk", "red:elephant+vizier", "white:monk", "red:elephant+general"]
    )
    assert hand(after, 0) == Counter(["green:monk+princess", "special:points"])
    assert holder(after, Special.POINTS) == 0
    assert after.scores == state.scores  # the points card scored when played (P6), not now


def test_f1_cards_are_discarded_only_after_the_palaces_are_placed() -> None:
    state = situation(start(), table={0: ["red:elephant+vizier"]}, court=["vizier"])
    placing = state.apply(Withdraw())
    assert placing.phase is Phase.PALACE
    assert names(placing, placing.table[0]) == Counter(["red:elephant+vizier"])
    assert placing.discard == state.discard

    done = placing.apply(placing.legal_moves()[0])

    assert done.table[0] == ()
    assert names(done, done.discard) == names(state, state.discard) + Counter(
        ["red:elephant+vizier"]
    )


def test_f2_withdrawing_player_takes_two_supply_cards_of_choice() -> None:
    state = situation(start(), table={0: ["red:elephant+vizier"]}, court=[], supply=SUPPLY5)
    before = hand(state, 0)

    taking = state.apply(Withdraw())
    assert (taking.phase, taking.current_player, taking.pending_takes) == (Phase.TAKE, 0, 2)
    assert set(taking.legal_moves()) == {TakeCard(card(c)) for c in SUPPLY5}
    once = taking.apply(TakeCard(card("violet:elephant+elephant")), seat=0)
    assert (once.phase, once.current_player) == (Phase.TAKE, 0)
    twice = once.apply(TakeCard(card("yellow:general+monk")), seat=0)

    assert hand(twice, 0) == before + Counter(["violet:elephant+elephant", "yellow:general+monk"])
    assert names(twice, twice.supply) == Counter(SUPPLY5) - Counter(
        ["violet:elephant+elephant", "yellow:general+monk"]
    )
    assert (twice.phase, twice.current_player) == (Phase.PLAY, 1)


def test_f2_identical_supply_cards_are_one_choice_and_both_can_be_taken() -> None:
    supply = ["white:elephant", "white:elephant", "red:monk+princess"]
    state = situation(start(), table={0: ["red:elephant+vizier"]}, court=[], supply=supply)
    taking = state.apply(Withdraw())
    assert len(taking.legal_moves()) == 2
    after = taking.apply(TakeCard(card("white:elephant"))).apply(TakeCard(card("white:elephant")))
    assert hand(after, 0)["white:elephant"] == hand(state, 0)["white:elephant"] + 2
    assert names(after, after.supply) == Counter(["red:monk+princess"])


def test_f2_last_player_takes_the_single_remaining_card() -> None:
    state = situation(
        start(),
        table={0: ["red:elephant+vizier"]},
        withdrawn={1: True, 2: True},
        court=[],
        supply=["green:vizier+general"],
    )
    taking = state.apply(Withdraw())
    assert taking.pending_takes == 1
    assert taking.legal_moves() == (TakeCard(card("green:vizier+general")),)
    after = taking.apply(taking.legal_moves()[0])
    assert hand(after, 0) == hand(state, 0) + Counter(["green:vizier+general"])
    assert after.visit == 2  # that was the visit's last card


def test_f2_fewer_cards_taken_when_fewer_remain() -> None:
    state = situation(
        start(), table={0: ["red:elephant+vizier"]}, court=[], supply=["white:elephant"]
    )
    taking = state.apply(Withdraw())
    assert taking.pending_takes == 1
    after = taking.apply(TakeCard(card("white:elephant")))
    assert (after.phase, after.current_player, after.supply) == (Phase.PLAY, 1, ())


def test_f2_no_card_taken_from_an_empty_supply() -> None:
    state = situation(start(), table={0: ["red:elephant+vizier"]}, court=[], supply=[])
    after = state.apply(Withdraw())
    assert (after.phase, after.current_player) == (Phase.PLAY, 1)
    assert after.hands[0] == state.hands[0]


def test_f3_withdrawing_without_playing_draws_the_top_deck_card_first() -> None:
    deck = ["white:elephant", "green:vizier+general", "red:monk+princess"]  # last = top
    state = situation(start(), deck=deck, supply=SUPPLY5[:3])
    assert state.table[0] == ()

    after = state.apply(Withdraw())

    assert hand(after, 0) == hand(state, 0) + Counter(["red:monk+princess"])
    assert after.deck == tuple(kind(state, c) for c in deck[:2])
    assert after.supply == state.supply  # the supply cards come after the draw
    assert (after.phase, after.current_player, after.pending_takes) == (Phase.TAKE, 0, 2)
    assert after.scores == state.scores
    once = after.apply(after.legal_moves()[0])
    done = once.apply(once.legal_moves()[-1])
    assert sum(hand(done, 0).values()) == sum(hand(state, 0).values()) + 3


def test_f3_last_player_withdrawing_without_playing_draws_then_takes_the_last_card() -> None:
    state = situation(
        start(),
        withdrawn={1: True, 2: True},
        deck=["white:elephant", "violet:monk+princess"],
        supply=["green:vizier+general"],
    )
    after = state.apply(Withdraw())
    assert hand(after, 0) == hand(state, 0) + Counter(["violet:monk+princess"])
    assert after.pending_takes == 1
    ended = after.apply(TakeCard(card("green:vizier+general")))
    assert ended.visit == 2
    assert hand(ended, 0) == hand(after, 0) + Counter(["green:vizier+general"])


# ------------------------------------------------------------------ E1–E7


def test_e1_unwon_province_and_bonus_tiles_leave_the_game() -> None:
    state = at_visit(start(), 3)
    here = current_cities(state)
    assert any(state.bonus[c] >= 0 for c in here)  # the province still has a bonus tile
    elsewhere = {c: b for c, b in enumerate(state.bonus) if c not in here}

    after = end_visit(
        state,
        court=["monk", "princess", "crown", "province"],  # vizier and general were won
        influence={1: {"vizier": 1}, 2: {"general": 1}},
    )

    assert all(after.bonus[c] == -1 for c in here)
    assert {c: after.bonus[c] for c in elsewhere} == elsewhere
    assert all(3 not in tiles for tiles in after.province_tiles)
    assert after.commodity_tiles == state.commodity_tiles
    # influence tiles stay where they are: nobody is handed the unwon ones
    assert after.influence == ((0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0))
    assert after.court_influence == (True,) * 4 and after.court_crown


def test_e1_won_province_tile_stays_with_its_owner() -> None:
    state = situation(at_visit(start(), 3), province_tiles={1: [3]})
    after = end_visit(state, court=[])
    assert after.province_tiles[1] == (3,)


@pytest.mark.parametrize(("symbol", "special"), sorted(EARNS.items()))
def test_e2_two_identical_tiles_earn_the_special_card(symbol: str, special: Special) -> None:
    state = situation(start(), influence={1: {symbol: 2}})
    assert holder(state, special) == -1

    after = end_visit(state)

    assert held(after, 1, symbol) == 0  # both tiles back to the supply
    assert holder(after, special) == 1
    assert hand(after, 1) == hand(state, 1) + Counter([f"special:{special.value}"])


def test_e2_special_card_taken_from_another_players_hand() -> None:
    state = situation(
        start(),
        hands={2: ["special:points", "red:vizier+general"]},
        influence={0: {"princess": 2}, 2: {"princess": 1}},
    )
    state = with_specials(state, {Special.POINTS: 2})

    after = end_visit(state, seat=1)

    assert holder(after, Special.POINTS) == 0
    assert hand(after, 0)["special:points"] == 1
    assert hand(after, 2) == Counter(["red:vizier+general"])
    assert held(after, 0, "princess") == 0
    assert held(after, 2, "princess") == 1


def test_e2_holder_of_the_card_keeps_it_and_still_returns_the_tiles() -> None:
    state = situation(
        start(),
        hands={0: ["special:grand_mogul", "green:general+monk"]},
        influence={0: {"vizier": 2, "monk": 1}},
    )
    state = with_specials(state, {Special.GRAND_MOGUL: 0})

    after = end_visit(state, seat=2)

    assert holder(after, Special.GRAND_MOGUL) == 0
    assert hand(after, 0) == Counter(["special:grand_mogul", "green:general+monk"])
    assert held(after, 0, "vizier") == 0
    assert held(after, 0, "monk") == 1


def test_e2_one_tile_earns_nothing() -> None:
    state = situation(start(), influence={0: {"vizier": 1, "general": 1, "monk": 1}})
    after = end_visit(state)
    assert after.influence[0] == state.influence[0]
    assert after.special_holder == (-1,) * 4


def test_e2_two_pairs_earn_two_cards() -> None:
    state = situation(start(), influence={2: {"general": 2, "monk": 2, "princess": 1}})
    after = end_visit(state)
    assert holder(after, Special.ELEPHANT) == 2
    assert holder(after, Special.COLOR_CHANGE) == 2
    assert holder(after, Special.POINTS) == -1
    assert hand(after, 2) == hand(state, 2) + Counter(["special:elephant", "special:color_change"])
    assert after.influence[2] == (0, 0, 0, 1)


def test_e2_trade_happens_at_the_end_of_the_visit_not_on_withdrawal() -> None:
    state = situation(
        start(),
        table={0: ["red:elephant+vizier"]},
        withdrawn={1: True, 2: True},
        court=["vizier"],
        influence={0: {"vizier": 1}},
        supply=["white:elephant"],
    )
    placing = state.apply(Withdraw())
    taking = placing.apply(placing.legal_moves()[0])
    assert taking.phase is Phase.TAKE
    assert held(taking, 0, "vizier") == 2
    assert holder(taking, Special.GRAND_MOGUL) == -1

    after = taking.apply(TakeCard(card("white:elephant")))

    assert after.visit == 2
    assert held(after, 0, "vizier") == 0
    assert holder(after, Special.GRAND_MOGUL) == 0


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_e3_starting_player_moves_one_seat_clockwise(num_players: int) -> None:
    for first in range(num_players):
        state = start(num_players, first_player=first)
        for visit in range(1, 12):
            assert state.visit == visit
            starting = (first + visit - 1) % num_players
            assert state.current_player == state.starting_player == starting
            # the last to withdraw is the seat *before* the starting player: no shortcut
            last = (first + visit - 2) % num_players
            state = end_visit(state, seat=last)
        assert state.current_player == (first + 11) % num_players


def test_e3_rotation_does_not_depend_on_who_withdrew_last() -> None:
    state = start(4, first_player=3)
    results = {end_visit(state, seat=s).current_player for s in range(4)}
    assert results == {0}  # 3 -> 0, clockwise with wrap-around


def test_e4_next_province_becomes_current_and_its_tile_goes_to_the_court() -> None:
    state = situation(at_visit(start(), 5), court=[])  # the province tile of visit 5 was won
    after = end_visit(state)
    t = tables(after.components)
    assert after.visit == 6
    assert after.province == t.province_ids[state.province_order[5]]
    assert after.court_province_tile
    assert [after.bonus[c] for c in current_cities(after)] == [
        state.bonus[c] for c in current_cities(after)
    ]


def test_e4_next_visit_starts_with_everyone_in_and_colors_free() -> None:
    state = situation(at_visit(start(), 2), visit_colors={0: "red", 1: "green", 2: "red"})
    after = end_visit(state, seat=1)
    assert after.withdrawn == (False, False, False)
    assert after.table == ((), (), ())
    assert after.visit_colors == (None, None, None)
    assert (after.phase, after.pending_takes) == (Phase.PLAY, 0)


def test_e5_court_refilled_with_one_influence_tile_each_and_the_crown() -> None:
    state = situation(start(), court=[], influence={0: {"vizier": 1, "monk": 1}, 1: {"general": 1}})
    after = end_visit(state)
    assert after.court_influence == (True, True, True, True)
    assert after.court_crown


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_e6_new_supply_of_2n_minus_1_cards_from_the_deck(num_players: int) -> None:
    state = start(num_players)
    size = 2 * num_players - 1
    after = end_visit(state)
    assert len(after.supply) == size
    assert names(after, after.supply) == names(state, state.deck[-size:])  # from the top
    assert after.deck == state.deck[:-size]


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_e6_new_supply_also_before_the_12th_visit(num_players: int) -> None:
    state = at_visit(start(num_players), 11)
    after = end_visit(state)
    assert after.visit == 12 and not after.is_over
    assert len(after.supply) == 2 * num_players - 1
    assert (after.phase, after.current_player) == (Phase.PLAY, after.starting_player)


def test_e7_game_ends_after_the_12th_visit() -> None:
    state = at_visit(start(), 12)
    after = end_visit(state)
    assert after.is_over and after.phase is Phase.OVER
    assert after.current_player is None
    assert after.legal_moves() == ()
    assert after.visit == 12
    assert after.supply == () and after.deck == state.deck  # no new supply after the end
    assert after.winners
    with pytest.raises(tm.IllegalMoveError):
        after.apply(Withdraw())


def test_e7_game_goes_on_after_the_11th_visit() -> None:
    after = end_visit(at_visit(start(), 11))
    assert not after.is_over
    assert after.winners == ()


def test_e7_game_ends_when_the_last_withdrawal_takes_no_card() -> None:
    state = situation(
        at_visit(start(), 12),
        table={1: ["red:elephant+vizier"]},
        withdrawn={0: True, 2: True},
        court=[],
        supply=[],
        current_player=1,
    )
    after = state.apply(Withdraw())
    assert after.is_over and after.current_player is None


def test_e7_a_pair_completed_in_the_last_visit_takes_its_special_card_for_final_scoring() -> None:
    # [DECISION] E7: the end of the 12th visit runs E1 and E2, then final scoring (G1)
    hands = {0: ["red:vizier+general"], 1: [], 2: []}
    base = at_visit(start(), 12)
    city_ids = tables(base.components).city_ids
    state = situation(
        base,
        bonus={city_ids[c]: None for c in current_cities(base)},  # no bonus tile to score
        hands=hands,
        table={0: ["green:vizier+general"]},
        withdrawn={1: True, 2: True},
        court=["vizier"],
        influence={0: {"vizier": 1}},
        supply=[],
        current_player=0,
    )
    after = state.apply(Withdraw())  # the vizier: a second vizier tile, and a palace
    after = after.apply(after.legal_moves()[0])
    assert after.is_over
    assert holder(after, EARNS["vizier"]) == 0  # E2 ran at the end of visit 12
    assert held(after, 0, "vizier") == 0
    assert [c.special for c in after.hand(0)].count(EARNS["vizier"]) == 1
    palace = 1  # K6: one palace in the current province
    assert after.scores[0] - state.scores[0] == palace + 1 + 1  # G1: the special card, 1 red


def test_e7_e1_runs_at_the_end_of_the_12th_visit_and_e3_to_e6_do_not() -> None:
    base = at_visit(start(), 12)
    fortress = fortress_here(base)
    state = situation(base, bonus={fortress: "+2"}, court=["monk"])
    after = end_visit(state)
    assert after.is_over
    here = tables(after.components).city_of[fortress]
    assert after.bonus[here] == -1 and not after.court_province_tile  # E1
    assert after.visit == 12 and after.starting_player == state.starting_player  # no E3, E4
    assert after.court_influence == state.court_influence and not after.court_crown  # no E5
    assert after.supply == () and after.deck == state.deck  # no E6


# ------------------------------------------------------------------ D1


def reshuffle_ready(seed: int = 1) -> GameState:
    """End of visit 4, 3 players: two cards left in the deck, the rest in the discard pile."""
    state = at_visit(start(seed=seed), 4)
    return attrs.evolve(state, deck=state.deck[-2:], discard=tuple(sorted(state.deck[:-2])))


def test_d1_discard_pile_reshuffled_when_deck_empty() -> None:
    state = reshuffle_ready()
    pile = names(state, state.deck) + names(state, state.discard)

    after = end_visit(state)

    assert len(after.supply) == 5
    assert names(after, after.supply) >= names(state, state.deck)  # the last two deck cards
    assert after.discard == ()
    assert after.reshuffles == state.reshuffles + 1
    assert len(after.deck) == len(state.discard) - 3
    assert names(after, after.supply) + names(after, after.deck) == pile
    assert list(after.deck) != sorted(after.deck)  # shuffled, not turned over as it lay


def test_d1_reshuffle_is_deterministic_from_the_seed() -> None:
    state = reshuffle_ready()
    assert end_visit(state) == end_visit(reshuffle_ready())
    other = attrs.evolve(state, seed=state.seed + 1)
    assert end_visit(other).deck != end_visit(state).deck


def test_d1_withdrawing_without_playing_draws_from_the_reshuffled_discard() -> None:
    state = situation(start(), deck=[], discard=SOME_CARDS)
    after = state.apply(Withdraw())
    drawn = hand(after, 0) - hand(state, 0)
    assert sum(drawn.values()) == 1
    assert drawn <= Counter(SOME_CARDS)
    assert names(after, after.deck) == Counter(SOME_CARDS) - drawn
    assert after.discard == ()
    assert after.reshuffles == 1


def withdrawing_onto_a_card_tile(discard: list[str]) -> tuple[tm.GameState, str]:
    """Seat 0 about to win the vizier and a fortress with a "+1 card" tile, the deck empty."""
    base = start()
    fortress = fortress_here(base)
    state = situation(
        base,
        table={0: ["red:elephant+vizier"]},
        court=["vizier"],
        bonus={fortress: "+1 card"},
        deck=[],
        discard=discard,
    )
    return state, fortress


def test_d1_bonus_card_tile_draws_from_the_reshuffled_discard() -> None:
    state, fortress = withdrawing_onto_a_card_tile(SOME_CARDS)
    after = state.apply(Withdraw()).apply(PlacePalace(fortress))

    drawn = hand(after, 0) - hand(state, 0)
    assert sum(drawn.values()) == 1 and drawn <= Counter(SOME_CARDS)
    assert names(after, after.deck) == Counter(SOME_CARDS) - drawn
    # the played card was discarded after the draw (F1 after K3): it starts the new pile
    assert names(after, after.discard) == Counter(["red:elephant+vizier"])


def test_d1_no_card_drawn_when_deck_and_discard_are_empty_and_the_game_goes_on() -> None:
    state = situation(start(), deck=[], discard=[], supply=["white:elephant"])
    after = state.apply(Withdraw())  # W11 wants a deck card: there is none
    assert after.hands[0] == state.hands[0]
    assert (after.phase, after.current_player, after.pending_takes) == (Phase.TAKE, 0, 1)
    after = after.apply(TakeCard(card("white:elephant")))
    assert (after.phase, after.current_player) == (Phase.PLAY, 1)


def test_d1_bonus_card_tile_with_nothing_to_draw_gives_nothing() -> None:
    state, fortress = withdrawing_onto_a_card_tile([])
    after = state.apply(Withdraw()).apply(PlacePalace(fortress))
    assert after.hands[0] == state.hands[0]
    assert after.normal_palaces[tables(after.components).city_of[fortress]] == 0
    assert after.phase is Phase.TAKE


def test_d1_empty_supply_when_deck_and_discard_are_empty_and_the_game_goes_on() -> None:
    state = situation(at_visit(start(), 6), deck=[], discard=[])
    ended = end_visit(state)
    assert (ended.visit, ended.supply, ended.phase) == (7, (), Phase.PLAY)
    after = ended
    for _ in range(3):  # everyone withdraws without playing: nothing to draw or take
        after = after.apply(Withdraw())
    assert (after.visit, after.phase) == (8, Phase.PLAY)
    assert after.hands == ended.hands


def test_d1_supply_deal_continues_from_the_reshuffled_pile() -> None:
    state = at_visit(start(5), 4)  # 9 supply cards, 1 left in the deck
    state = attrs.evolve(state, deck=state.deck[-1:], discard=tuple(sorted(state.deck[:12])))
    after = end_visit(state)
    assert len(after.supply) == 9
    assert len(after.deck) == 12 - 8
    assert after.reshuffles == 1


def test_d1_the_last_deck_card_drawn_reshuffles_the_discard_pile_at_once() -> None:
    state = situation(start(), discard=SOME_CARDS)
    state = attrs.evolve(state, deck=state.deck[-1:])  # one card left
    after = state.apply(Withdraw())  # W11: seat 0 draws the deck's last card
    assert hand(after, 0) - hand(state, 0) == names(state, state.deck)
    assert after.discard == () and after.reshuffles == 1  # not at the next draw: now
    assert names(after, after.deck) == Counter(SOME_CARDS)


def test_d1_a_supply_deal_that_empties_the_deck_reshuffles_before_the_visit_starts() -> None:
    state = at_visit(start(), 4)  # 3 players: the supply takes 5 cards, the deck has exactly 5
    state = situation(state, discard=SOME_CARDS)
    state = attrs.evolve(state, deck=state.deck[-5:])
    after = end_visit(state)
    assert names(after, after.supply) == names(state, state.deck)
    assert after.reshuffles == 1 and after.discard == ()
    # the pile as it lay when the deck ran out: the old discards, the last card taken
    assert names(after, after.deck) == Counter(SOME_CARDS)


def test_d1_when_the_deck_runs_out_onto_an_empty_pile_the_reshuffle_waits() -> None:
    state = situation(start(), discard=[])
    state = attrs.evolve(state, deck=state.deck[-1:])
    after = state.apply(Withdraw())  # the last deck card; nothing to reshuffle yet
    assert (after.deck, after.discard, after.reshuffles) == ((), (), 0)


def test_d1_a_visit_never_starts_with_an_empty_deck_while_the_discard_pile_holds_cards() -> None:
    import random

    starts = exhausted = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = tm.new_game(5, seed=seed)  # 5 players: 9 supply cards a visit
        visit = 1
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            if state.visit != visit and not state.is_over:
                visit, starts = state.visit, starts + 1
                assert state.deck or not state.discard, (seed, visit)
                exhausted += state.reshuffles > 0
    assert starts > 100 and exhausted > 10  # the deck did run out in these games


# ------------------------------------------------------------------ G1–G3, T4


def test_t4_final_hands_score_6_4_6() -> None:
    hands = {
        # 1 special + 2 white + 3 red = 6
        0: [
            "special:elephant",
            "white:elephant",
            "white:monk",
            "red:vizier+general",
            "red:elephant+monk",
            "red:elephant+elephant",
        ],
        # 1 special + 1 white + 2 green = 4
        1: ["special:points", "white:vizier", "green:monk+princess", "green:elephant+vizier"],
        # 1 special + 0 white + 5 violet = 6 (the fifth violet taken on the last visit)
        2: [
            "special:color_change",
            "violet:vizier+general",
            "violet:monk+princess",
            "violet:elephant+monk",
            "violet:elephant+vizier",
        ],
    }
    holders = {Special.ELEPHANT: 0, Special.POINTS: 1, Special.COLOR_CHANGE: 2}
    state = with_specials(at_visit(start(), 12), holders)
    state = situation(state, hands=hands, scores=[20, 22, 19])
    after = end_visit(state, seat=2, last_card="violet:elephant+elephant")
    assert after.scores == (26, 26, 25)


@pytest.mark.parametrize(
    ("hand_cards", "points"),
    [
        ([], 0),
        (["white:elephant", "white:grand_mogul"], 2),
        (["red:vizier+general", "red:vizier+monk", "yellow:vizier+monk"], 2),
        (["special:points", "green:monk+princess"], 2),
    ],
)
def test_g1_points_for_special_white_and_longest_suit(hand_cards: list[str], points: int) -> None:
    state = situation(at_visit(start(), 12), hands={1: hand_cards})
    if "special:points" in hand_cards:
        state = with_specials(state, {Special.POINTS: 1})
    after = end_visit(state, seat=0)
    assert after.scores[1] - state.scores[1] == points


def test_g1_suit_tie_counts_one_suit() -> None:
    hands = {
        0: [
            "red:vizier+general",
            "red:monk+princess",
            "yellow:vizier+monk",
            "yellow:elephant+monk",
        ],
        1: ["green:vizier+general", "violet:vizier+monk", "white:monk"],
        2: [],
    }
    # seat 0: red 2 = yellow 2 -> 2; seat 1: green 1 = violet 1 -> 1, + 1 white
    assert final_scores(hands, last=(2, "white:elephant")) == (2, 2, 1)


def test_g1_cards_taken_on_the_last_visit_count() -> None:
    hands = {0: ["green:vizier+general"], 1: [], 2: []}
    assert final_scores(hands, last=(0, "green:monk+princess")) == (2, 0, 0)


def test_g1_special_card_earned_at_the_end_of_visit_12_counts() -> None:
    hands = {0: ["red:vizier+general"], 1: ["special:grand_mogul", "green:general+monk"], 2: []}
    state = situation(at_visit(start(), 12), hands=hands, influence={0: {"vizier": 2}})
    state = with_specials(state, {Special.GRAND_MOGUL: 1})
    after = end_visit(state, seat=2)
    assert holder(after, Special.GRAND_MOGUL) == 0
    assert after.scores == (2, 1, 1)  # E2 before G1: seat 1 lost the card and its point


def test_g2_other_suits_and_influence_tiles_are_worth_nothing() -> None:
    hands = {
        0: [
            "red:vizier+general",
            "red:vizier+monk",
            "red:monk+princess",
            "yellow:vizier+monk",
            "yellow:general+monk",
            "green:general+monk",
            "violet:vizier+general",
        ],
        1: [],
        2: [],
    }
    influence = {0: {"vizier": 1, "general": 1, "monk": 1, "princess": 1}}
    assert final_scores(hands, last=(0, "violet:monk+princess"), influence=influence) == (3, 0, 0)


def test_g3_equal_highest_totals_share_the_win() -> None:
    state = situation(
        at_visit(start(), 12), hands={0: ["white:monk"], 1: [], 2: []}, scores=[30, 28, 31]
    )
    after = end_visit(state, seat=1, last_card="white:elephant")  # 31, 29, 31
    assert after.scores == (31, 29, 31)
    assert after.winners == (0, 2)


def test_g3_single_highest_total_wins_alone() -> None:
    state = situation(at_visit(start(), 12), hands={0: [], 1: [], 2: []}, scores=[30, 28, 31])
    after = end_visit(state, seat=1, last_card="white:elephant")
    assert after.scores == (30, 29, 31)
    assert after.winners == (2,)


def test_g3_final_cards_decide_who_shares_the_win() -> None:
    state = situation(at_visit(start(), 12), hands={0: [], 1: [], 2: []}, scores=[30, 28, 31])
    after = end_visit(state, seat=0, last_card="white:elephant")
    assert after.scores == (31, 28, 31)
    assert after.winners == (0, 2)


def test_g3_all_equal_totals_all_win() -> None:
    state = situation(at_visit(start(), 12), hands={0: [], 1: [], 2: []}, scores=[9, 9, 9])
    after = end_visit(state, seat=0, last_card="red:vizier+general")
    assert after.scores == (10, 9, 9) and after.winners == (0,)
    state = situation(state, hands={1: ["white:monk"], 2: ["green:vizier+general"]})
    after = end_visit(state, seat=0, last_card="red:vizier+general")
    assert after.scores == (10, 10, 10) and after.winners == (0, 1, 2)


def test_g3_no_winners_before_the_end() -> None:
    assert start().winners == ()
