"""The frameworks' own test suites, run against our adapters (the real suites, no mocks).

- PettingZoo: ``pettingzoo.test.api_test`` and ``seed_test``;
- Gymnasium: ``gymnasium.utils.env_checker.check_env`` (through ``gymnasium.make``, so that
  it checks every render mode too), with Gymnasium's warnings turned into errors;
- OpenSpiel: ``pyspiel.random_sim_test`` (with serialisation) for 3 and 5 players, the
  partial-tree checks of OpenSpiel's integration ``api_test`` with ``deal_seeds`` (so its
  400 sampled states reach decisions), and a full game of OpenSpiel's ``ISMCTSBot`` against
  random play.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.test.state_test import test_state_space as check_state_space

from tajmahal.adapters import gymnasium_env
from tajmahal.adapters.pettingzoo_env import env as pettingzoo_env
from tajmahal.adapters.rewards import final_rewards
from tajmahal.rules.reshuffles import ordering_reshuffles

try:  # the 'openspiel' extra: open_spiel may have no wheel for the newest Python
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from tajmahal.adapters import openspiel_game
except ImportError:
    pyspiel = None
needs_openspiel = pytest.mark.skipif(
    pyspiel is None, reason="open_spiel is not installed (the 'openspiel' extra; no wheel for "
    f"Python {sys.version_info.major}.{sys.version_info.minor}?)"
)

# PettingZoo warns that a Dict observation is "not a NumPy array" for every env outside
# its own list of dict-observation games; its classic games get the same warning.
DICT_OBSERVATION = r".*(not a NumPy array|should be gymnasium\.spaces\.box)"


@pytest.mark.parametrize("num_players", [3, 5])
def test_pettingzoo_api_test(num_players: int, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", DICT_OBSERVATION)
        api_test(pettingzoo_env(num_players=num_players), num_cycles=1000)
    assert "Passed API test" in capsys.readouterr().out


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(
        lambda render_mode=None: pettingzoo_env(render_mode=render_mode),
        custom_tests={"svg": lambda picture: picture.startswith("<svg")},
    )
    assert "visit 1 of 12" in capsys.readouterr().out  # "human" printed the state


def test_pettingzoo_state_space_test() -> None:
    """PettingZoo's state-space check (its ``state_test`` as a whole needs a parallel env
    and unmasked random actions, which a turn-based game with masks cannot take)."""
    environment = pettingzoo_env(num_players=3)
    environment.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_state_space(environment)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: pettingzoo_env(num_players=4), num_cycles=1000)


@pytest.mark.parametrize(
    "opponents", [["greedy", "random"], ["random", "greedy", "random", "cautious"]]
)
def test_gymnasium_check_env(opponents: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        environment = gymnasium.make(gymnasium_env.ENV_ID, opponents=opponents, seat=1)
        check_env(environment.unwrapped)


@needs_openspiel
@pytest.mark.parametrize("players", [3, 5])
def test_openspiel_random_sim_test(players: int) -> None:
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@needs_openspiel
@pytest.mark.parametrize("players", [3, 5])
def test_openspiel_random_sim_test_with_one_setup_chance_node(players: int) -> None:
    params = {"players": players, "deal_seeds": 50}
    game = pyspiel.load_game(openspiel_game.GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@needs_openspiel
def test_openspiel_api_test_reaches_decisions_with_one_setup_chance_node() -> None:
    import unittest

    from absl import flags
    from open_spiel.integration_tests import api_test as openspiel_api_test

    flags.FLAGS.mark_as_parsed()  # the suite's module defines absl flags; none is given here
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 4, "deal_seeds": 100})
    suite_class = type("EnforceAPIPartialTree_python_tajmahal_Test",
                       (openspiel_api_test.EnforceAPIOnPartialTreeBase,),
                       {"game_name": openspiel_game.GAME_NAME, "game": game})  # fmt: skip
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(suite_class)
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=0).run(suite)
    assert result.testsRun >= 5 and result.wasSuccessful(), result.failures + result.errors
    states = suite_class.some_states  # the 400 states OpenSpiel's sampler returned
    decisions = [s for s in states if not s.is_chance_node() and not s.is_terminal()]
    assert len(states) == 400 and len(decisions) > 300, len(decisions)
    assert len({s.current_player() for s in decisions}) == 4  # every seat's decisions
    # with the default setup (122 chance nodes) the same sampler reaches no decision
    from open_spiel.python.algorithms.sample_some_states import sample_some_states

    default = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 4})
    assert all(s.is_chance_node() for s in sample_some_states(default, max_states=400))


@needs_openspiel
def test_openspiel_ismcts_plays_a_full_game_against_random() -> None:
    game = pyspiel.load_game(openspiel_game.GAME_NAME, {"players": 3})
    random_state = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, random_state),
        uct_c=2.0,
        max_simulations=4,
        random_state=random_state,
    )
    worlds: set[tuple[tuple[int, ...], ...]] = set()

    def resample(state: pyspiel.State, player: int) -> pyspiel.State:
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(player) == state.information_state_string(player)
        worlds.add(world.game_state.hands[1:])
        return world

    bot.set_resampler(resample)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.is_chance_node():  # the setup, and any reshuffle (D1)
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            action = int(random_state.choice(actions, p=probabilities))
        elif state.current_player() == 0:  # its search resamples what seat 0 has not seen
            action = bot.step(state)
            decisions += 1
        else:
            action = int(random_state.choice(legal))
        assert action in legal
        state.apply_action(action)
    assert decisions > 10
    assert len(worlds) > decisions  # the search saw other hands than the real ones
    assert state.game_state.is_over
    assert state.returns() == list(final_rewards(state.game_state.scores, "rank"))


def test_adapters_benchmark_quick_run() -> None:
    """benchmarks/adapters.py runs and reports every environment beside the engine."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "adapters.py"), "--quick", "--json", "-"],
        capture_output=True, text=True, timeout=120, cwd=root,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert list(rows) == [
        "engine",
        "engine + encoding",
        "pettingzoo",
        "gymnasium",
        "openspiel",
        "openspiel + infostate",
        "openspiel, own code",
        "openspiel engine, same steps",
    ]
    assert all(row["steps_per_s"] > 0 for row in rows.values())
    assert rows["gymnasium"]["decisions_per_s"] > rows["gymnasium"]["steps_per_s"]  # bots too
    assert rows["engine"]["share_of_engine"] == 1.0
    own, same = rows["openspiel, own code"], rows["openspiel engine, same steps"]
    beyond = json.loads(done.stdout)["openspiel_own_beyond_engine_us"]
    assert beyond == pytest.approx(1e6 / own["steps_per_s"] - 1e6 / same["steps_per_s"])


@needs_openspiel
def test_adapters_benchmark_replays_the_openspiel_games_on_the_engine_alone() -> None:
    """The "engine, same steps" row plays the very games of the "own code" row, to the end."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "adapters.py"
    spec = importlib.util.spec_from_file_location("bench_adapters", path)
    assert spec is not None and spec.loader is not None
    adapters = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(adapters)
    seeds = [3, 4]
    own_states = adapters.openspiel_setups(4, seeds)
    games = adapters.openspiel_engine_games(4, seeds)
    steps = adapters.openspiel_own(4, seeds, own_states)
    assert steps == adapters.openspiel_engine(4, seeds, games)
    for state, (start, record) in zip(own_states, games, strict=True):
        assert any(nodes for _, nodes in record)  # reshuffles, ordered by chance nodes
        for index, nodes in record:  # the recorded game again, checking each final state
            with ordering_reshuffles(adapters._ordered(nodes)):
                start = start.apply(start.legal_moves()[index])
        assert start == state.game_state and start.is_over


def test_adapters_benchmark_compares_a_baseline_checkout_in_one_run() -> None:
    """--baseline times another checkout (here this one) in the same run, with the load."""
    root = Path(__file__).resolve().parent.parent
    script = str(root / "benchmarks" / "adapters.py")
    done = subprocess.run(
        [sys.executable, script, "--quick", "--json", "-", "--baseline", str(root)],
        capture_output=True, text=True, timeout=300, cwd=root,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result["baseline"]["rows"]) == set(result["rows"])
    assert len(result["load_average"]["start"]) == 3
    refused = subprocess.run(
        [sys.executable, script, "--quick", "--baseline", str(root / "docs")],
        capture_output=True, text=True, timeout=60, cwd=root,
    )
    assert refused.returncode == 2 and "has no src/tajmahal" in refused.stderr
