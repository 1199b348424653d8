"""Per-seat views (docs/rules.md I1-I4), known cards, and sampling hidden state (view.sample)."""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from helpers import line_components, mid_game_states, random_playout
from tajmahal.rules.components import INFLUENCE, Components, Special
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import tables
from tajmahal.rules.validate import InvalidStateError, find_problems

STANDARD = tm.standard_components()
LINE = line_components()
PROPERTY = settings(max_examples=30, deadline=None)


def hidden_from(state: GameState, seat: int) -> Counter[int]:
    """The card kinds ``seat`` cannot see: the deck and the unknown part of other hands."""
    special = tables(state.components).special
    hidden = Counter(state.deck)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden += Counter(k for k in hand if not special[k]) - Counter(state.known[other])
    return hidden


def hidden_places(state: GameState, seat: int) -> int:
    """Where ``seat``'s hidden cards may lie: each deck position, each hand with unknown cards."""
    special = tables(state.components).special
    hands = sum(
        1
        for other, hand in enumerate(state.hands)
        if other != seat
        and Counter(k for k in hand if not special[k]) - Counter(state.known[other])
    )
    return len(state.deck) + hands


def hidden_part(state: GameState, seat: int) -> tuple[object, ...]:
    """What differs between two states with the same view for ``seat``."""
    others = tuple(h for s, h in enumerate(state.hands) if s != seat)
    return others, state.deck


# ---------------------------------------------------------------------------- I4 and sampling


@PROPERTY
@given(mid_game_states(), st.integers(min_value=0, max_value=2**32))
def test_i4_every_sample_gives_back_the_view(state: GameState, rng_seed: int) -> None:
    rng = random.Random(rng_seed)
    for seat in range(state.num_players):
        view = state.view(seat)
        for _ in range(3):
            sample = view.sample(rng)
            assert sample.view(seat) == view
            assert find_problems(sample) == []
            assert sample.hands[seat] == state.hands[seat]
            assert sample.known == state.known


@settings(max_examples=10, deadline=None)
@given(mid_game_states(), st.integers(min_value=0, max_value=2**32))
def test_sampled_states_are_ordinary_states_playable_to_the_end(
    state: GameState, rng_seed: int
) -> None:
    rng = random.Random(rng_seed)
    seat = state.current_player if state.current_player is not None else 0
    sample = state.view(seat).sample(rng)
    *_, last = random_playout(sample, rng)
    assert last.is_over


@PROPERTY
@given(mid_game_states())
def test_different_rngs_give_different_hidden_states(state: GameState) -> None:
    for seat in range(state.num_players):
        view = state.view(seat)
        samples = [view.sample(random.Random(i)) for i in range(30)]
        assert len({s.seed for s in samples}) == 30  # a fresh seed each time
        if len(hidden_from(state, seat)) >= 2 and hidden_places(state, seat) >= 2:
            # two kinds of hidden card in two places or more: their places vary (cards in
            # one hand alone are a multiset, the same in every sample)
            assert len({hidden_part(s, seat) for s in samples}) > 1


def test_the_same_rng_seed_gives_the_same_sample() -> None:
    view = tm.new_game(4, seed=3).view(1)
    assert view.sample(random.Random(5)) == view.sample(random.Random(5))


def test_a_sampled_view_pickles_without_its_sampler_and_samples_alike() -> None:
    view = tm.new_game(4, seed=3).view(1)
    first = view.sample(random.Random(5))  # keeps a Sampler (compiled: a native class)
    copy = pickle.loads(pickle.dumps(view))
    assert copy == view and copy._sampler is None
    assert copy.sample(random.Random(5)) == first


def test_unseen_cards_are_dealt_uniformly() -> None:
    """Each hidden card is equally likely in any hidden slot: other hands and deck positions."""
    state = tm.new_game(3, seed=11, components=LINE)
    view = state.view(0)
    hidden = hidden_from(state, 0)
    total = sum(hidden.values())  # 12 cards in two other hands + the deck
    rng = random.Random(0)
    runs = 3000
    in_seat_1: Counter[int] = Counter()
    on_top: Counter[int] = Counter()
    for _ in range(runs):
        sample = view.sample(rng)
        in_seat_1.update(sample.hands[1])
        on_top[sample.deck[-1]] += 1
    for kind, count in hidden.items():
        expected = runs * count * 6 / total
        assert abs(in_seat_1[kind] - expected) < 5 * expected**0.5 + 2
        expected_top = runs * count / total
        assert abs(on_top[kind] - expected_top) < 5 * expected_top**0.5 + 2


def test_known_cards_are_kept_in_every_sample() -> None:
    state = next(
        s
        for s in random_playout(tm.new_game(4, seed=2), random.Random(2))
        if s.known[1] and s.current_player != 1
    )
    view = state.view(0)
    for i in range(20):
        sample = view.sample(random.Random(i))
        assert not Counter(state.known[1]) - Counter(sample.hands[1])


def test_an_impossible_view_cannot_be_sampled() -> None:
    view = tm.new_game(4, seed=3).view(1)
    with pytest.raises(InvalidStateError, match="deck_size"):
        attrs.evolve(view, deck_size=view.deck_size + 1).sample(random.Random(0))
    with pytest.raises(InvalidStateError, match=r"\$\.hand"):
        attrs.evolve(view, hand=view.hand[1:]).sample(random.Random(0))
    too_many = (*view.known_cards[:2], view.hand * 2, view.known_cards[3])
    with pytest.raises(InvalidStateError, match="known_cards"):
        attrs.evolve(view, known_cards=too_many).sample(random.Random(0))


# ---------------------------------------------------------------------------- hidden information


def with_hidden_changes(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """``state`` with hidden cards of other hands and the deck redealt, and a new seed."""
    hidden = list(hidden_from(state, seat).elements())
    if len(set(hidden)) < 2:
        return None
    rng.shuffle(hidden)
    special = tables(state.components).special
    hands = list(state.hands)
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        keep = list(state.known[other]) + [k for k in hand if special[k]]
        free = len(hand) - len(keep)
        hands[other] = tuple(sorted(keep + hidden[:free]))
        del hidden[:free]
    return attrs.evolve(state, hands=tuple(hands), deck=tuple(hidden), seed=state.seed + 1)


@PROPERTY
@given(mid_game_states(), st.integers(min_value=0, max_value=2**32))
def test_i4_states_differing_in_hidden_information_give_equal_views(
    state: GameState, rng_seed: int
) -> None:
    rng = random.Random(rng_seed)
    for seat in range(state.num_players):
        other = with_hidden_changes(state, seat, rng)
        if other is None:
            continue
        assert find_problems(other) == []
        assert other.view(seat) == state.view(seat)
        assert tm.dumps(other.view(seat)) == tm.dumps(state.view(seat))
        if other.hands != state.hands:  # the change is visible to its owner
            changed = next(s for s in range(state.num_players) if other.hands[s] != state.hands[s])
            assert other.view(changed) != state.view(changed)


def test_a_view_never_shows_the_seed_or_the_deck_order() -> None:
    state = tm.new_game(4, seed=1)
    reordered = attrs.evolve(state, deck=tuple(reversed(state.deck)), seed=99)
    assert reordered.view(0) == state.view(0)
    assert tm.dumps(reordered.view(0)) == tm.dumps(state.view(0))


# ---------------------------------------------------------------------------- known_cards


def states_of(game_seed: int, players: int = 4, comps: Components = STANDARD) -> list[GameState]:
    return list(random_playout(tm.new_game(players, game_seed, comps), random.Random(game_seed)))


def test_known_cards_hold_taken_supply_cards_until_played() -> None:
    states = states_of(4)
    checked = 0
    for before, after in itertools.pairwise(states):
        seat = before.current_player
        assert seat is not None
        moves = [m for m in before.legal_moves() if before.apply(m) == after]
        move = moves[0]
        if isinstance(move, tm.TakeCard):
            assert after.view(0).known_cards[seat].count(move.card) == (
                before.view(0).known_cards[seat].count(move.card) + 1
            )
            checked += 1
        if isinstance(move, tm.PlayCards) and move.colored in before.view(0).known_cards[seat]:
            # observers cannot tell which copy was played: one known copy fewer, whatever the hand
            known_before = before.view(0).known_cards[seat].count(move.colored)
            assert after.view(0).known_cards[seat].count(move.colored) == known_before - 1
    assert checked > 10


def test_known_cards_list_the_special_cards_held_in_hand() -> None:
    state = next(s for s in states_of(6) if any(h >= 0 for h in s.special_holder))
    view = state.view(0)
    for special, holder in view.special_holder.items():
        if holder is None:
            continue
        card = state.components.special_card(special)
        in_hand = card in state.hand(holder)
        assert (card in view.known_cards[holder]) == in_hand
        assert in_hand or card in view.table[holder]


def test_every_seat_sees_the_same_known_cards() -> None:
    for state in states_of(7)[::25]:
        views = [state.view(s) for s in range(state.num_players)]
        assert len({v.known_cards for v in views}) == 1
        for seat, view in enumerate(views):
            assert not Counter(view.known_cards[seat]) - Counter(view.hand)


def test_view_fields() -> None:
    state = next(s for s in states_of(8) if s.phase is Phase.TAKE)
    view = state.view(1)
    assert view.reshuffles == state.reshuffles
    assert view.deck_size == len(state.deck)
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.province == state.province
    with pytest.raises(tm.TajMahalError, match="seat must be"):
        state.view(state.num_players)


def test_board_and_tiles_follow_each_state_along_a_game() -> None:
    """Views of consecutive states (which share unchanged fields) show each state's own
    palaces, bonus tiles, tiles won and special card holders."""
    comps = STANDARD
    for state in states_of(game_seed=11, players=3):
        ids = [city.id for city in state.components.board.cities]
        for seat in range(state.num_players):
            view = state.view(seat)
            assert view.bonus_tiles == {
                ids[i]: comps.bonus_tiles[b] for i, b in enumerate(state.bonus) if b >= 0
            }
            assert view.province_tiles == tuple(
                tuple(comps.province_tiles[n - 1] for n in owned) for owned in state.province_tiles
            )
            assert [len(ts) for ts in view.commodity_tiles] == list(
                map(len, state.commodity_tiles)
            )
            assert [Counter(held) for held in view.influence_tiles] == [
                Counter(dict(zip(INFLUENCE, held, strict=True))) for held in state.influence
            ]
            assert [view.special_holder[sp] for sp in Special] == [
                None if h < 0 else h for h in state.special_holder
            ]
            palaces = view.palaces
            assert list(palaces) == ids
            for i, cid in enumerate(ids):
                normal, crown = state.normal_palaces[i], state.crown_palaces[i]
                assert palaces[cid] == (
                    None if normal < 0 else normal,
                    None if crown < 0 else crown,
                )


def test_a_view_with_plain_dict_maps_samples_like_the_original() -> None:
    """Sampling reads any mapping, not only FrozenMap, and gives the same state."""
    state = states_of(game_seed=12, players=4)[120]
    view = state.view(state.current_player or 0)
    plain = attrs.evolve(
        view,
        palaces=dict(view.palaces),
        bonus_tiles=dict(view.bonus_tiles),
        special_holder=dict(view.special_holder),
    )
    assert plain.sample(random.Random(3)) == view.sample(random.Random(3))
    assert any(owner != (None, None) for owner in view.palaces.values())
