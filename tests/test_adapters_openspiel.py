"""The OpenSpiel game python_tajmahal: chance, information states, resampling, serialisation."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import tajmahal as tm
from tajmahal.adapters.actions import AdapterError, action_space
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.openspiel_game import GAME_NAME, TajMahalState


def played(game: pyspiel.Game, deal: int, decisions: int, seed: int = 0) -> TajMahalState:
    """The state after the deal and ``decisions`` random legal actions."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    state.apply_action(deal)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state  # type: ignore[no-any-return]


def test_game_declares_imperfect_information_and_zero_sum() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    assert game.num_players() == 4 and game.num_distinct_actions() == action_space().size
    assert game.observation_tensor_size() == observation_encoder(4).size
    assert game.information_state_tensor_size() == observation_encoder(4).size
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


def test_the_chance_outcome_is_the_deal_seed() -> None:
    game = pyspiel.load_game(GAME_NAME, {"deals": 10})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(10))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "deal 4"
    state.apply_action(4)
    assert state.game_state == tm.new_game(3, seed=4)
    legal = state.legal_actions()
    assert [state.action_to_string(0, a) for a in legal] == [
        str(action_space().decode(a)) for a in legal
    ]


def test_information_state_string_shows_own_draws_and_never_other_hands() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)  # seat 0 withdraws before playing: W11, it draws the top card
    own = state.information_state_string(0)
    other = state.information_state_string(1)
    hand1 = " ".join(str(c) for c in state.game_state.hand(1))
    assert "withdraw [drew" in own and "[drew" not in other
    assert f"hand {hand1}" in other and f"hand {hand1}" not in own
    before = game.new_initial_state()
    before.apply_action(2)
    assert own.startswith(before.information_state_string(0))  # perfect recall: it only grows


@pytest.mark.parametrize("decisions", [1, 40, 120])
def test_resampling_keeps_the_players_information_state(decisions: int) -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    state = played(game, deal=21, decisions=decisions, seed=decisions)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in range(4):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.observation_string(player) == state.observation_string(player)
        assert other.current_player() == state.current_player()
        assert other.legal_actions() == state.legal_actions() or state.current_player() != player
    worlds = {
        str(state.resample_from_infostate(0, sampler).game_state.hands) for _ in range(5)
    }
    assert len(worlds) > 1  # the other hands really are dealt anew


def test_serialisation_round_trips_mid_game() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state = played(game, deal=8, decisions=60)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.game_state == state.game_state
    assert str(state2) == str(state) and state2.history() == state.history()
    for player in range(3):
        assert state2.information_state_string(player) == state.information_state_string(player)
    clone = state.clone()
    assert clone.game_state is state.game_state  # immutable: clones share the engine state


def test_terminal_returns_and_observations() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = played(game, deal=3, decisions=10_000)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    scores = state.game_state.scores
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    assert returns[scores.index(max(scores))] == max(returns)
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()


def test_public_observer_leaves_the_hand_out() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = played(game, deal=5, decisions=3)
    public = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    public.set_from(state, 0)
    assert not public.dict["hand"].any() and public.dict["hand_sizes"].any()
    assert '"hand":' not in public.string_from(state, 0)
    recall = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    )
    assert recall.string_from(state, 0) == recall.string_from(state, 1).replace("seat 1", "seat 0")


def test_bad_parameters_and_observers_are_refused() -> None:
    with pytest.raises(AdapterError, match="players must be 3, 4 or 5"):
        pyspiel.load_game(GAME_NAME, {"players": 6})
    with pytest.raises(AdapterError, match="deals must be"):
        pyspiel.load_game(GAME_NAME, {"deals": 0})
    game = pyspiel.load_game(GAME_NAME)
    everyone = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(AdapterError, match="ALL_PLAYERS"):
        game.make_py_observer(everyone)
    with pytest.raises(AdapterError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})
    with pytest.raises(AdapterError, match="chance node"):
        game.new_initial_state().game_state  # noqa: B018


def test_impossible_actions_raise_without_changing_the_state() -> None:
    game = pyspiel.load_game(GAME_NAME, {"deals": 100})
    state = game.new_initial_state()
    with pytest.raises(AdapterError, match="deal 100 does not exist"):
        state.apply_action(100)
    assert state.is_chance_node()
    state.apply_action(99)
    before = str(state)
    with pytest.raises(tm.IllegalMoveError):
        state.apply_action(action_space().size - 1)  # take a card: not now
    with pytest.raises(AdapterError, match="not in this action space"):
        state.apply_action(action_space().size)
    assert str(state) == before and state.game_state == tm.new_game(3, seed=99)
    assert state.history() == [99]
