"""The adapters' action space, observation encoding and rewards (numpy only)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tajmahal as tm
from helpers import line_components, random_playout
from tajmahal.adapters.actions import ActionSpace, AdapterError, action_space
from tajmahal.adapters.observations import ObservationEncoder, observation_encoder
from tajmahal.adapters.rewards import final_rewards

DOCS = Path(__file__).resolve().parent.parent / "docs" / "adapters.md"


def states(num_players: int, seed: int, components: tm.Components | None = None):  # type: ignore[no-untyped-def]
    """Every state of one random game."""
    state = tm.new_game(num_players, seed=seed, components=components)
    yield state
    yield from random_playout(state, random.Random(seed))


# ---------------------------------------------------------------- the action space


def test_every_action_decodes_to_a_distinct_move_that_encodes_back() -> None:
    space = ActionSpace()
    moves = [space.decode(a) for a in range(space.size)]
    assert len(set(moves)) == space.size == len(space.moves)
    assert [space.encode(m) for m in moves] == list(range(space.size))


def test_the_numbering_is_the_documented_layout() -> None:
    comps = tm.standard_components()
    space = ActionSpace(comps)
    cities = [c.id for c in comps.board.cities]
    colored = [k for k in comps.card_kinds if k.color not in (tm.Color.WHITE, tm.Color.SPECIAL)]
    extras = [k for k in comps.card_kinds if k.color in (tm.Color.WHITE, tm.Color.SPECIAL)]
    plays = len(colored) * (1 + len(extras))
    assert space.decode(0) == tm.Withdraw()
    assert space.decode(1) == tm.PlayCards(colored[0])
    assert space.decode(2) == tm.PlayCards(colored[0], extras[0])
    assert space.decode(1 + plays) == tm.PlacePalace(cities[0])
    assert space.decode(1 + plays + len(cities)) == tm.PlaceCrownPalace(cities[0])
    assert space.decode(1 + plays + 2 * len(cities)) == tm.TakeCard(comps.card_kinds[0])
    takes = len(comps.card_kinds) - len(comps.special_cards)
    assert space.size == 1 + plays + 2 * len(cities) + takes


@pytest.mark.parametrize("num_players", [3, 5])
def test_masks_and_legal_actions_match_the_legal_moves(num_players: int) -> None:
    space = action_space()
    for state in states(num_players, seed=num_players):
        legal = state.legal_moves()
        actions = space.legal_actions(state)
        assert actions == sorted(actions)
        assert {space.decode(a) for a in actions} == set(legal)
        mask = space.mask(state)
        assert mask.dtype == np.int8 and mask.shape == (space.size,)
        assert np.flatnonzero(mask).tolist() == actions
        for seat in range(num_players):
            own = space.mask(state.view(seat))
            if seat == state.current_player:
                assert (own == mask).all()
            else:
                assert not own.any()


def test_custom_components_get_their_own_space() -> None:
    comps = line_components()
    space = ActionSpace(comps)
    assert space.size == 1 + 40 * 11 + 2 * len(comps.board.cities) + 46
    for state in states(3, seed=2, components=comps):
        assert len(space.legal_actions(state)) == len(state.legal_moves())


@pytest.mark.parametrize("bad", [-1, 585, 1.5, "3", None, 10**30])
def test_decode_rejects_what_is_not_an_action(bad: object) -> None:
    with pytest.raises(AdapterError, match=r"expected an integer from 0 to 584"):
        ActionSpace().decode(bad)  # type: ignore[arg-type]


def test_encode_rejects_moves_of_other_components_and_non_moves() -> None:
    space = ActionSpace()
    with pytest.raises(AdapterError, match="no action number"):
        space.encode(tm.PlacePalace("atlantis"))
    with pytest.raises(AdapterError, match="no action number"):
        space.encode(["withdraw"])  # type: ignore[arg-type]
    with pytest.raises(AdapterError, match="GameState or PlayerView"):
        space.mask("withdraw")  # type: ignore[arg-type]
    with pytest.raises(AdapterError, match=r"tajmahal\.Components"):
        ActionSpace("standard")  # type: ignore[arg-type]


def test_numpy_integers_decode() -> None:
    assert ActionSpace().decode(np.int64(0)) == tm.Withdraw()


# ---------------------------------------------------------------- observations


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_encodings_stay_in_bounds_and_split_into_the_layout(num_players: int) -> None:
    encoder = observation_encoder(num_players)
    assert sum(f.size for f in encoder.layout) == encoder.size
    offsets = [f.offset for f in encoder.layout]
    assert offsets == sorted(offsets) and offsets[0] == 0
    for i, state in enumerate(states(num_players, seed=10 + num_players)):
        if i % 7:
            continue
        for seat in range(num_players):
            values = encoder.encode(state.view(seat))
            assert values.dtype == np.float32 and values.shape == (encoder.size,)
            assert (values >= encoder.low).all() and (values <= encoder.high).all()
            named = encoder.split(values)
            assert np.array_equal(np.concatenate([v.ravel() for v in named.values()]), values)


def test_fields_hold_the_views_facts_relative_to_the_observer() -> None:
    state = tm.new_game(4, seed=3)
    for move in random_playout(state, random.Random(3)):
        state = move
        if state.visit == 3:
            break
    encoder = ObservationEncoder(4)
    for seat in range(4):
        view = state.view(seat)
        named = encoder.as_dict(view)
        order = [(seat + r) % 4 for r in range(4)]
        assert named["scores"].tolist() == [view.scores[s] for s in order]
        assert named["hand_sizes"].tolist() == [view.hand_sizes[s] for s in order]
        assert named["seat"].tolist() == [float(s == seat) for s in range(4)]
        assert named["visit"].argmax() == view.visit - 1
        assert named["hand"].sum() == len(view.hand)
        kinds = tm.standard_components().card_kinds
        for card in view.hand:
            assert named["hand"][kinds.index(card)] == view.hand.count(card)
        assert named["deck_size"][0] == view.deck_size
        owners = [(normal, crown) for normal, crown in view.palaces.values()]
        assert named["palaces"].sum() == sum(n is not None for n, _ in owners)
        if view.current_player is not None:
            assert named["current_player"].argmax() == (view.current_player - seat) % 4


def test_hidden_cards_do_not_change_the_encoding() -> None:
    """I4: two states a seat cannot tell apart encode alike for it."""
    encoder = ObservationEncoder(3)
    rng = random.Random(5)
    for i, state in enumerate(states(3, seed=5)):
        if i % 11:
            continue
        for seat in range(3):
            view = state.view(seat)
            other = view.sample(rng)
            assert np.array_equal(encoder.encode(view), encoder.encode(other.view(seat)))


def test_encoder_rejects_other_player_counts_and_non_views() -> None:
    encoder = ObservationEncoder(3)
    with pytest.raises(AdapterError, match="for 3 players"):
        encoder.encode(tm.new_game(4, seed=1).view(0))
    with pytest.raises(AdapterError, match="PlayerView"):
        encoder.encode(tm.new_game(3, seed=1))  # type: ignore[arg-type]
    with pytest.raises(AdapterError, match="3, 4 or 5"):
        ObservationEncoder(6)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_the_incremental_encoder_equals_the_views_encoding(num_players: int) -> None:
    """Step by step for every seat, and jumping between states of two games."""
    encoder = observation_encoder(num_players)
    fast, jumping = encoder.incremental(), encoder.incremental()
    both = [*states(num_players, 1), *states(num_players, 2)]
    for state in both[: len(both) // 2]:
        for seat in range(num_players):
            assert (fast.encode(state, seat) == encoder.encode(state.view(seat))).all()
    rng = random.Random(num_players)
    for state in rng.sample(both, 60):
        seat = rng.randrange(num_players)
        values = jumping.encode(state, seat)
        assert values.dtype == np.float32 and (values == encoder.encode(state.view(seat))).all()
    again = jumping.encode(both[-1], 0)
    again[:] = 7  # a new array each call: the encoder's own stays as it was
    assert (jumping.encode(both[-1], 0) == encoder.encode(both[-1].view(0))).all()


def test_the_incremental_encoder_with_custom_components() -> None:
    comps = line_components()
    encoder = ObservationEncoder(3, comps)
    fast = encoder.incremental()
    for state in states(3, 4, comps):
        assert (fast.encode(state, 1) == encoder.encode(state.view(1))).all()


def test_the_incremental_encoder_rejects_what_it_cannot_encode() -> None:
    fast = observation_encoder(3).incremental()
    with pytest.raises(AdapterError, match="3 players"):
        fast.encode(tm.new_game(4, seed=1), 0)
    with pytest.raises(AdapterError, match=r"expected a tajmahal\.GameState"):
        fast.encode(tm.new_game(3, seed=1).view(0), 0)  # type: ignore[arg-type]
    for seat in (-1, 3, True, "0"):
        with pytest.raises(AdapterError, match=r"seat must be 0\.\.2"):
            fast.encode(tm.new_game(3, seed=1), seat)  # type: ignore[arg-type]


def test_the_docs_list_every_field_in_order_with_its_shape() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", text, re.M)
    encoder = ObservationEncoder(3)
    assert [name for name, _ in rows] == [f.name for f in encoder.layout]
    symbols = {"n": 3, "K": 50, "C": 49, "P": 12, "V": 12, "T": 12, "B": 7}
    for (name, shape), field in zip(rows, encoder.layout, strict=True):
        dims = tuple(int(symbols.get(d.strip(), d.strip())) for d in shape.split("×"))
        assert dims == field.shape, name


# ---------------------------------------------------------------- rewards


@given(st.lists(st.integers(0, 200), min_size=3, max_size=5), st.sampled_from(["rank", "score"]))
def test_rewards_are_zero_sum_and_ordered_like_the_scores(scores: list[int], kind: str) -> None:
    rewards = final_rewards(scores, kind)
    assert abs(sum(rewards)) < 1e-9
    for a, b in zip(scores, rewards, strict=True):
        for c, d in zip(scores, rewards, strict=True):
            assert (a > c) == (b > d)
    if kind == "rank":
        assert all(-1 <= r <= 1 for r in rewards)
        best = max(scores)
        if scores.count(best) == 1:
            assert rewards[scores.index(best)] == 1.0


def test_rewards_reject_unknown_kinds() -> None:
    with pytest.raises(AdapterError, match="'rank' or 'score'"):
        final_rewards([1, 2, 3], "win")
