"""python_tajmahal: the chance model, information states, resampling, serialisation."""

# ruff: noqa: E402  (the module skips before importing the adapter when open_spiel is missing)

from __future__ import annotations

import base64
import math
import pickle
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is missing (the 'openspiel' extra: no wheel for this Python?)"
)

import tajmahal as tm
from tajmahal.adapters.actions import AdapterError, action_space
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.openspiel_game import (
    GAME_NAME,
    TajMahalState,
    deserialize_game_and_state,
    serialize_game_and_state,
)
from tajmahal.rules.tables import tables

SETUP_NODES = 11 + 15 + 96  # province tiles, bonus tiles, cards
FINAL = tables(tm.standard_components()).province_of["agra"]  #: its tile is never drawn


def chance(state: TajMahalState, rng: np.random.RandomState) -> None:
    """Apply one outcome of a chance node, drawn with its probability."""
    actions, probabilities = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rng.choice(actions, p=probabilities)))


def played(game: pyspiel.Game, decisions: int, seed: int = 0) -> TajMahalState:
    """The state after a random setup and ``decisions`` random player actions."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while decisions > 0 and not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions -= 1
    while state.is_chance_node():
        chance(state, rng)
    return state  # type: ignore[no-any-return]


def reshuffling(game: pyspiel.Game) -> TajMahalState:
    """The first chance node of a reshuffle (D1) in the first random game that has one."""
    for seed in range(20):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                if len(state.history()) > SETUP_NODES:
                    return state  # type: ignore[no-any-return]
                chance(state, rng)
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    raise AssertionError("no reshuffle in 20 games")


def test_game_declares_imperfect_information_and_zero_sum() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    assert game.num_players() == 4 and game.num_distinct_actions() == action_space().size
    assert game.max_chance_outcomes() == len(tm.standard_components().card_kinds)
    assert game.observation_tensor_size() == observation_encoder(4).size
    assert game.information_state_tensor_size() == observation_encoder(4).size
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


def test_the_setup_lays_each_tile_and_deals_each_card_at_a_chance_node() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    comps = tm.standard_components()
    t = tables(comps)
    state = game.new_initial_state()
    outcomes: list[int] = []
    rng = np.random.RandomState(4)
    while state.is_chance_node():
        pairs = state.chance_outcomes()
        assert sum(p for _, p in pairs) == pytest.approx(1.0)
        assert state.legal_actions() == [a for a, _ in pairs]
        if len(outcomes) >= 26:  # a card: probability = cards of that kind left / cards left
            left = Counter(t.deck) - Counter(outcomes[26:])
            assert pairs == [(k, c / sum(left.values())) for k, c in sorted(left.items())]
        chance(state, rng)
        outcomes.append(state.history()[-1])
    assert len(outcomes) == SETUP_NODES and state.current_player() == 0
    dealt = state.game_state
    cards = outcomes[26:]
    assert dealt.hands == tuple(tuple(sorted(cards[6 * s : 6 * s + 6])) for s in range(3))
    assert dealt.supply == tuple(sorted(cards[18:23]))
    assert dealt.deck == tuple(reversed(cards[23:]))  # the first card dealt is the top
    assert dealt.province_order[:11] == tuple(outcomes[:11])
    assert dealt.province == t.province_ids[outcomes[0]]
    assert sorted(dealt.province_order) == list(range(12))
    assert Counter(b for b in dealt.bonus if b >= 0) == Counter(
        comps.bonus_tiles.index(tile) for tile in comps.bonus_tiles
    )
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("reshuffled deck")


def test_information_state_string_shows_own_draws_and_never_other_hands() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = played(game, decisions=0, seed=2)
    before = state.information_state_string(0)
    state.apply_action(0)  # seat 0 withdraws before playing: W11, it draws the top card
    own = state.information_state_string(0)
    other = state.information_state_string(1)
    hand1 = " ".join(str(c) for c in state.game_state.hand(1))
    assert "withdraw [drew" in own and "[drew" not in other
    assert f"hand {hand1}" in other and f"hand {hand1}" not in own
    assert own.startswith(before)  # perfect recall: it only grows


def test_information_strings_built_step_by_step_equal_those_built_at_once() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    rng = np.random.RandomState(6)
    state = played(game, decisions=0, seed=6)
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
            continue
        seat = int(rng.randint(4))
        state.information_state_string(seat)  # cached now, the next ones extend it
        state.apply_action(int(rng.choice(state.legal_actions())))
    record = state._node
    for seat in range(4):
        for private in (True, False):
            assert record.info_string(seat, private) == record._info_string(seat, private)


def test_one_information_state_fits_many_deals() -> None:
    """The attack of issue 19: from seat 0's information state, name seat 1's hand."""
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    state = played(game, decisions=0, seed=5)
    history = state.history()
    seen = state.information_state_string(0)
    # swap a card of seat 1 with a different one of seat 2: seat 0 sees the same, seat 1 not
    cards = history[26:]
    i = 6
    j = next(j for j in range(12, 18) if cards[j] != cards[i])
    swapped = list(history)
    swapped[26 + i], swapped[26 + j] = cards[j], cards[i]
    other = game.new_initial_state()
    for action in swapped:
        other.apply_action(action)
    assert other.information_state_string(0) == seen
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    assert other.game_state.hands[1] != state.game_state.hands[1]
    # how many setups the chance model has with seat 0's information state: its own six
    # cards, the tiles and the supply fixed, every arrangement of the unseen cards
    t = tables(tm.standard_components())
    unseen = Counter(t.deck) - Counter(state.game_state.hands[0]) - Counter(state.game_state.supply)
    count = math.factorial(sum(unseen.values())) // math.prod(
        math.factorial(c) for c in unseen.values()
    )
    assert count > 10**100
    # and the information state does not name seat 1's hand: 30 resamples, 30 hands
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(0, sampler) for _ in range(30)]
    assert all(s.information_state_string(0) == seen for s in samples)
    assert len({s.game_state.hands[1] for s in samples}) == 30


@pytest.mark.parametrize("decisions", [1, 40, 120])
def test_resampling_keeps_the_players_information_state(decisions: int) -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    state = played(game, decisions=decisions, seed=decisions)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for player in range(4):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.observation_string(player) == state.observation_string(player)
        assert other.current_player() == state.current_player()
        assert other.legal_actions() == state.legal_actions() or state.current_player() != player
        assert other.game_state.hands[player] == state.game_state.hands[player]
    worlds = {state.resample_from_infostate(0, sampler).game_state.deck for _ in range(5)}
    assert len(worlds) > 1  # the deck really is dealt anew


def test_resampling_during_the_setup_redeals_only_unseen_cards() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    rng = np.random.RandomState(8)
    state = game.new_initial_state()
    for _ in range(26 + 18 + 3):  # the tiles, the three hands and three supply cards
        chance(state, rng)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(1, sampler) for _ in range(10)]
    history = state.history()
    for sample in samples:
        assert sample.information_state_string(1) == state.information_state_string(1)
        assert sample.history()[:26] == history[:26]  # the tiles
        assert sample.history()[32:38] == history[32:38]  # seat 1's hand
        assert sample.history()[44:] == history[44:]  # the supply so far
    assert len({tuple(s.history()[26:32]) for s in samples}) > 1


def test_a_reshuffle_is_a_run_of_chance_nodes_dealing_the_pile() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 5})
    state = reshuffling(game)
    before = state.game_state
    pile = {k: p for k, p in state.chance_outcomes()}
    seen = state.information_state_string(2)
    assert "[reshuffle 1: 0 of" in seen
    absent = next(k for k in range(50) if k not in pile)
    with pytest.raises(AdapterError, match="not an outcome of this chance node"):
        state.apply_action(absent)
    assert state.information_state_string(2) == seen
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    resampled = state.resample_from_infostate(2, sampler)
    assert resampled.is_chance_node()
    assert resampled.information_state_string(2) == seen
    chosen: list[int] = []
    rng = np.random.RandomState(3)
    reshuffles = before.reshuffles
    while state.is_chance_node():
        chance(state, rng)
        chosen.append(state.history()[-1])
    after = state.game_state
    assert after.reshuffles == reshuffles + 1
    counts = Counter(chosen)
    assert pile == {k: c / len(chosen) for k, c in counts.items()}  # the pile, dealt whole
    # the deck is the dealt order, less the cards drawn from its top since
    assert tuple(reversed(after.deck)) == tuple(chosen[len(chosen) - len(after.deck) :])


def test_serialisation_round_trips_through_the_librarys_document() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    state = played(game, decisions=60, seed=8)
    text = state.serialize()
    assert text.startswith('{"format": "tajmahal/openspiel-state"')
    state2 = game.deserialize_state(text)
    assert state2.game_state == state.game_state
    assert str(state2) == str(state) and state2.history() == state.history()
    for player in range(3):
        assert state2.information_state_string(player) == state.information_state_string(player)
    game3, state3 = deserialize_game_and_state(serialize_game_and_state(game, state))
    assert game3.num_players() == 3 and state3.history() == state.history()
    # a resampled state: its engine state travels as tm.dumps writes it, then its history
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    resampled = state.resample_from_infostate(1, sampler)
    resampled.apply_action(resampled.legal_actions()[0])
    again = game.deserialize_state(resampled.serialize())
    assert again.game_state == resampled.game_state and again.history() == resampled.history()
    assert again.information_state_string(1) == resampled.information_state_string(1)
    clone = state.clone()
    assert clone.game_state is state.game_state  # immutable: clones share the engine state
    # OpenSpiel's own C++ round trip (what random_sim_test runs) keeps working
    _, state4 = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, resampled)
    )
    assert state4.game_state == resampled.game_state


def crafted_pickle(marker: Path) -> str:
    """OpenSpiel's serialised form with a pickle that would create ``marker``."""

    class Payload:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (exec, (f"open({str(marker)!r}, 'w').write('pwned')",))

    blob = base64.b64encode(pickle.dumps({"_node": Payload()})).decode()
    return f"history=\nmove_number=0\n__dict__={blob}"


def test_a_crafted_pickle_is_refused_and_never_run(tmp_path: Path) -> None:
    game = pyspiel.load_game(GAME_NAME)
    marker = tmp_path / "pwned"
    state_text = crafted_pickle(marker)
    whole = pyspiel.serialize_game_and_state(game, game.new_initial_state())
    whole = whole[: whole.index("[State]") + len("[State]\n")] + state_text
    for text in (state_text, whole, base64.b64encode(state_text.encode()).decode()):
        with pytest.raises(AdapterError, match="not a python_tajmahal state document"):
            game.deserialize_state(text)
        with pytest.raises(AdapterError, match="not a python_tajmahal state document"):
            deserialize_game_and_state(text)
    assert not marker.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "tajmahal/openspiel-state", "version": 2}', r"\$\.format: expected"),
        ('{"format": "tajmahal/openspiel-state", "version": 1, "players": 9, "base": null, '
         '"history": []}', r"\$\.players"),
        ('{"format": "tajmahal/openspiel-state", "version": 1, "players": 3, "base": null, '
         f'"history": [{FINAL}]}}', rf"\$\.history\[0\]: {FINAL} is not an outcome"),
        ('{"format": "tajmahal/openspiel-state", "version": 1, "players": 3, "base": null, '
         '"history": [-1]}', r"\$\.history\[0\]: expected an integer"),
        ('{"format": "tajmahal/openspiel-state", "version": 1, "players": 3, "base": {}, '
         '"history": []}', r"\$\.base: expected an object"),
        ("[" * 100_000, "not JSON"),
        ("x" * (5 << 20), "longer than"),
    ],
)
def test_bad_documents_are_clear_errors(text: str, message: str) -> None:
    game = pyspiel.load_game(GAME_NAME)
    with pytest.raises(AdapterError, match=message):
        game.deserialize_state(text)


def test_a_forged_engine_state_is_refused() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = played(game, decisions=3, seed=1)
    resampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    text = resampled.serialize().replace('"scores": [', '"scores": [-5, ', 1)
    with pytest.raises(AdapterError, match=r"\$\.base\.state"):
        game.deserialize_state(text)
    with pytest.raises(AdapterError, match="3-player state; this game has 4"):
        pyspiel.load_game(GAME_NAME, {"players": 4}).deserialize_state(resampled.serialize())


def test_terminal_returns_and_observations() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = played(game, decisions=10_000, seed=3)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    scores = state.game_state.scores
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    assert returns[scores.index(max(scores))] == max(returns)
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()


def test_public_observer_leaves_the_hand_out() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = played(game, decisions=3, seed=5)
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
    setup = game.new_initial_state()
    public.set_from(setup, 1)
    assert not public.tensor.any()
    assert "hand" not in recall.string_from(setup, 1)


def test_bad_parameters_and_observers_are_refused() -> None:
    with pytest.raises(AdapterError, match="players must be 3, 4 or 5"):
        pyspiel.load_game(GAME_NAME, {"players": 6})
    game = pyspiel.load_game(GAME_NAME)
    everyone = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(AdapterError, match="ALL_PLAYERS"):
        game.make_py_observer(everyone)
    with pytest.raises(AdapterError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})
    with pytest.raises(AdapterError, match="setup is still being dealt"):
        game.new_initial_state().game_state  # noqa: B018


def test_impossible_actions_raise_without_changing_the_state() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    with pytest.raises(AdapterError, match="not an outcome of this chance node"):
        state.apply_action(FINAL)  # the final province's tile is never drawn
    assert state.history() == []
    state = played(game, decisions=0, seed=9)
    before, history = str(state), state.history()
    with pytest.raises(tm.IllegalMoveError):
        state.apply_action(action_space().size - 1)  # take a card: not now
    with pytest.raises(AdapterError, match="not in this action space"):
        state.apply_action(action_space().size)
    assert str(state) == before and state.history() == history


def test_cloned_states_step_on_independently_of_the_shared_caches() -> None:
    """Records and their legal-action tables are shared between clones: stepping one clone,
    or changing a returned list, moves no other."""
    game = pyspiel.load_game(GAME_NAME, {"players": 4})
    state = played(game, decisions=40, seed=12)
    seat = state.current_player()
    legal, seen = state.legal_actions(), state.information_state_string(seat)
    clones = [state.clone() for _ in range(3)]
    rng = np.random.RandomState(12)
    for number, clone in enumerate(clones):
        for _ in range(30 * number + 1):  # a different number of random steps each
            if clone.is_terminal():
                break
            if clone.is_chance_node():
                chance(clone, rng)
            else:
                clone.apply_action(int(rng.choice(clone.legal_actions())))
        again = game.deserialize_state(clone.serialize())  # replayed from scratch
        assert clone.legal_actions() == again.legal_actions()
        assert clone.chance_outcomes() == again.chance_outcomes()
        for s in range(4):
            assert clone.information_state_string(s) == again.information_state_string(s)
    mine = state._legal_actions(seat)
    mine.clear()  # the caller's own list
    assert state.legal_actions() == legal == state._legal_actions(seat)
    assert state.information_state_string(seat) == seen


def test_cards_drawn_are_the_multiset_difference_of_hands() -> None:
    """The adapter's sorted-list difference (who drew what) is Counter subtraction."""
    from tajmahal.adapters.openspiel_game import _without

    rng = np.random.RandomState(5)
    for _ in range(300):
        kinds = sorted(int(k) for k in rng.randint(0, 6, rng.randint(0, 9)))
        removed = sorted(int(k) for k in rng.randint(0, 6, rng.randint(0, 5)))
        expected = sorted((Counter(kinds) - Counter(removed)).elements())
        assert _without(kinds, removed) == expected


def test_information_strings_asked_now_and_then_extend_the_last_one_asked() -> None:
    """A record keeps only the records before it whose strings were asked for; strings asked
    after gaps of any length, for other seats or the public form, are those built at once."""
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    rng = np.random.RandomState(8)
    state = played(game, decisions=0, seed=8)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
            continue
        decisions += 1
        if decisions % int(rng.randint(1, 90)) == 0:
            seat, private = int(rng.randint(3)), bool(rng.randint(2))
            record = state._node
            assert record.info_string(seat, private) == record._info_string(seat, private)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert decisions > 100


def test_deal_seeds_deals_the_whole_setup_in_one_chance_node() -> None:
    game = pyspiel.load_game(GAME_NAME, {"players": 4, "deal_seeds": 5})
    assert str(game) == "python_tajmahal(deal_seeds=5,players=4)"
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(seed, 0.2) for seed in range(5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal of seed 3"
    assert "deal one of 5 seeds" in str(state)
    unseen = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert unseen.history() == [] and unseen.is_chance_node()
    with pytest.raises(AdapterError, match="0 of 1 chance nodes drawn"):
        state.game_state  # noqa: B018
    with pytest.raises(AdapterError, match="not an outcome"):
        state.apply_action(5)
    state.apply_action(3)
    assert state.current_player() == 0 and state.history() == [3]
    assert tm.dumps(state.game_state) == tm.dumps(tm.new_game(4, seed=3))
    assert state.information_state_string(2).startswith("seat 2\nhand ")
    rng = np.random.RandomState(4)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    # the document names deal_seeds: it comes back whole, and a default game refuses it
    text = serialize_game_and_state(game, state)
    again_game, again = deserialize_game_and_state(text)
    assert again_game.deal_seeds == 5 and again.history() == state.history()
    assert tm.dumps(again.game_state) == tm.dumps(state.game_state)
    with pytest.raises(AdapterError, match="deal_seeds=5; this game has deal_seeds=0"):
        pyspiel.load_game(GAME_NAME, {"players": 4}).deserialize_state(text)
    with pytest.raises(AdapterError, match=r"\$\.deal_seeds: expected 0 to 65536"):
        game.deserialize_state(text.replace('"deal_seeds": 5', '"deal_seeds": "5"'))
    # the default game's documents are as before: no deal_seeds key
    assert "deal_seeds" not in pyspiel.load_game(GAME_NAME).new_initial_state().serialize()


@pytest.mark.parametrize("seeds", [-1, 65_537, True, "7"])
def test_bad_deal_seeds_are_refused(seeds: object) -> None:
    with pytest.raises((AdapterError, pyspiel.SpielError), match="deal_seeds"):
        pyspiel.load_game(GAME_NAME, {"deal_seeds": seeds})
