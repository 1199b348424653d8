"""docs/rules.md §2 Setup (S1–S10), checked on the synthetic line board of tests/helpers.py."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import tajmahal as tm
from builders import start
from helpers import line_components, random_playout
from tajmahal.rules.components import INFLUENCE, BonusKind
from tajmahal.rules.state import Phase
from tajmahal.rules.tables import tables

COMPONENTS = line_components()
SEEDS = range(8)


# ---------------------------------------------------------------------------- S1


@pytest.mark.parametrize("players", [3, 4, 5])
def test_s1_three_to_five_players_seated_0_to_n_minus_1(players: int) -> None:
    state = start(players)
    assert state.num_players == players
    assert len(state.hands) == len(state.scores) == len(state.table) == players
    assert state.current_player == 0


@pytest.mark.parametrize("players", [0, 1, 2, 6, 7])
def test_s1_new_game_rejects_other_player_counts(players: int) -> None:
    with pytest.raises(tm.TajMahalError) as info:
        tm.new_game(players, seed=1, components=COMPONENTS)
    message = str(info.value)
    assert "3, 4 or 5" in message
    assert str(players) in message


@pytest.mark.parametrize("bad", [True, 4.0, "4", None])
def test_s1_new_game_rejects_non_int_player_counts(bad: object) -> None:
    with pytest.raises(tm.TajMahalError, match="num_players"):
        tm.new_game(bad, seed=1, components=COMPONENTS)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "first"), [(3, 0), (3, 2), (4, 3), (5, 1)])
def test_s1_turns_pass_clockwise_from_seat_i_to_i_plus_1(players: int, first: int) -> None:
    state = start(players, first_player=first)
    seen = [state.current_player]
    for _ in range(players):
        play = next(m for m in state.legal_moves() if isinstance(m, tm.PlayCards))
        state = state.apply(play)
        seen.append(state.current_player)
    assert seen == [(first + k) % players for k in range(players + 1)]


# ---------------------------------------------------------------------------- S2


@pytest.mark.parametrize("seed", SEEDS)
def test_s2_tile_12_on_final_province_others_shuffled(seed: int) -> None:
    state = start(4, seed)
    t = tables(COMPONENTS)
    order = [t.province_ids[p] for p in state.province_order]
    assert order[-1] == COMPONENTS.board.final_province
    assert sorted(order) == sorted(t.province_ids)
    assert order == list(tm.place_tiles(COMPONENTS, seed).province_order)


def test_s2_province_order_depends_on_the_seed() -> None:
    orders = {start(3, seed).province_order[:-1] for seed in range(20)}
    assert len(orders) > 1
    firsts = {order[0] for order in orders}
    assert len(firsts) > 1  # any non-final province may hold tile 1


def test_s2_provinces_visited_in_tile_order() -> None:
    state = start(3, seed=5)
    assert state.province == COMPONENTS.board.provinces[state.province_order[0]].id
    visited: list[str] = []
    while not state.is_over:
        if not visited or visited[-1] != state.province:
            visited.append(state.province)
        state = state.apply(state.legal_moves()[-1])  # withdraw, or the last take
    t = tables(COMPONENTS)
    assert visited == [t.province_ids[p] for p in state.province_order]


# ---------------------------------------------------------------------------- S3


@pytest.mark.parametrize("seed", SEEDS)
def test_s3_taj_mahal_on_its_fortress_squares_one_per_fortress(seed: int) -> None:
    state = start(3, seed)
    t = tables(COMPONENTS)
    tiles = COMPONENTS.bonus_tiles
    taj_city = t.city_of[COMPONENTS.board.taj_mahal_city]
    assert tiles[state.bonus[taj_city]].kind is BonusKind.TAJ_MAHAL
    for c, index in enumerate(state.bonus):
        assert (index >= 0) == t.fortress[c], t.city_ids[c]
    # identical tiles are interchangeable: compare the tiles as values
    squares = [tiles[i] for c, i in enumerate(state.bonus) if t.fortress[c] and c != taj_city]
    expected = [tile for tile in tiles if tile.kind is not BonusKind.TAJ_MAHAL]
    assert Counter(squares) == Counter(expected)
    assert len(squares) == 15


def test_s3_square_tiles_are_shuffled_by_seed() -> None:
    layouts = {start(3, seed).bonus for seed in range(10)}
    assert len(layouts) > 1


# ---------------------------------------------------------------------------- S4


def test_s4_court_holds_one_influence_tile_each_and_the_crown() -> None:
    state = start(4)
    assert state.court_influence == (True,) * len(INFLUENCE)
    assert state.court_crown is True
    assert all(held == (0, 0, 0, 0) for held in state.influence)
    # the supply is what is neither in the court nor held: 6 - 1 = 5 of each, 20 in all
    per_symbol = COMPONENTS.influence_tiles_per_symbol
    assert per_symbol * len(INFLUENCE) - sum(state.court_influence) == 20
    view = state.view(0)
    assert view.court_influence == frozenset(INFLUENCE)
    assert view.court_crown


# ---------------------------------------------------------------------------- S5


def test_s5_special_cards_beside_the_board() -> None:
    state = start(5)
    assert state.special_holder == (-1, -1, -1, -1)
    t = tables(COMPONENTS)
    for hand in state.hands:
        assert not any(t.special[k] for k in hand)
    assert all(holder is None for holder in state.view(0).special_holder.values())


# ---------------------------------------------------------------------------- S6


@pytest.mark.parametrize("players", [3, 4, 5])
def test_s6_deal_six_secret_cards_from_the_96(players: int) -> None:
    state = start(players, seed=players)
    t = tables(COMPONENTS)
    assert [len(h) for h in state.hands] == [6] * players
    everything = Counter(state.deck) + Counter(state.supply)
    for hand in state.hands:
        everything += Counter(hand)
    assert everything == Counter(t.deck)
    assert sum(everything.values()) == 96
    view = state.view(1)
    assert view.hand == state.hand(1)
    assert view.hand_sizes == (6,) * players
    assert view.known_cards == ((),) * players  # nothing of any hand is public


def test_s6_deal_is_shuffled_by_seed() -> None:
    assert len({start(3, seed).hands for seed in range(5)}) == 5


# ---------------------------------------------------------------------------- S7


@pytest.mark.parametrize(("players", "supply"), [(3, 5), (4, 7), (5, 9)])
def test_s7_supply_is_2n_minus_1(players: int, supply: int) -> None:
    state = start(players)
    assert len(state.supply) == supply == 2 * players - 1
    assert len(state.deck) == 96 - 6 * players - supply
    assert state.discard == ()
    assert state.view(0).supply == tuple(COMPONENTS.card_kinds[k] for k in state.supply)


# ---------------------------------------------------------------------------- S8


def test_s8_scores_zero_and_seat_0_starts() -> None:
    state = start(4)
    assert state.scores == (0, 0, 0, 0)
    assert state.first_player == state.starting_player == state.current_player == 0
    assert state.phase is Phase.PLAY


@pytest.mark.parametrize("first", [1, 2])
def test_s8_caller_may_choose_the_starting_seat(first: int) -> None:
    state = start(3, first_player=first)
    assert state.current_player == state.starting_player == first


@pytest.mark.parametrize("first", [-1, 3, True])
def test_s8_starting_seat_must_exist(first: int) -> None:
    with pytest.raises(tm.TajMahalError, match="first_player"):
        tm.new_game(3, seed=1, components=COMPONENTS, first_player=first)


# ---------------------------------------------------------------------------- S9


def test_s9_first_province_tile_is_in_the_court() -> None:
    state = start(3)
    assert state.court_province_tile is True
    assert state.view(2).court_province_tile == COMPONENTS.province_tiles[0]
    assert state.province_tiles == ((), (), ())


# ---------------------------------------------------------------------------- S10


@pytest.mark.parametrize("players", [3, 5])
def test_s10_same_seed_same_moves_same_game(players: int) -> None:
    one = list(random_playout(start(players, seed=11), random.Random(3)))
    two = list(random_playout(start(players, seed=11), random.Random(3)))
    assert one == two
    assert one[-1].is_over


def test_s10_different_seeds_differ() -> None:
    a, b = start(4, seed=1), start(4, seed=2)
    assert a.hands != b.hands or a.supply != b.supply
    assert start(4, seed=1) == a
