"""The PettingZoo and Gymnasium environments: seeding, rewards, masks, rendering, errors."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import pytest

import tajmahal as tm
from helpers import line_components
from tajmahal.adapters.actions import ActionSpace, AdapterError, action_space
from tajmahal.adapters.gymnasium_env import ENV_ID, TajMahalEnv
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.pettingzoo_env import TajMahalAECEnv
from tajmahal.adapters.rewards import final_rewards
from tajmahal.rules.moves import move_from_text


def play_out(environment: TajMahalAECEnv, rng: random.Random) -> dict[str, float]:
    """Random legal actions to the end; each agent's reward as ``last()`` reports it."""
    final: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            final[agent] = reward
            environment.step(None)
            continue
        assert reward == 0
        environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return final


# ---------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("reward", ["rank", "score"])
def test_pettingzoo_pays_the_final_rewards_once_at_the_end(reward: str) -> None:
    environment = TajMahalAECEnv(num_players=4, reward=reward)
    environment.reset(seed=11)
    final = play_out(environment, random.Random(1))
    state = environment.game_state
    assert state is not None and state.is_over
    expected = final_rewards(state.scores, reward)
    assert final == {f"player_{s}": expected[s] for s in range(4)}
    assert environment.agents == []


def test_pettingzoo_reset_seed_deals_the_library_game_and_observes_views() -> None:
    environment = TajMahalAECEnv(num_players=3)
    environment.reset(seed=42)
    state = tm.new_game(3, seed=42)
    assert environment.game_state == state
    encoder, space = observation_encoder(3), action_space()
    for seat in range(3):
        observed = environment.observe(f"player_{seat}")
        assert np.array_equal(observed["observation"], encoder.encode(state.view(seat)))
        assert np.array_equal(observed["action_mask"], space.mask(state.view(seat)))
    first = environment.observe("player_0")
    assert first["observation"] is not environment.observe("player_0")["observation"]


@pytest.mark.parametrize("num_players", [3, 5])
def test_pettingzoo_observes_what_the_full_encoder_encodes_over_whole_games(
    num_players: int,
) -> None:
    """Every step of two random games, for the deciding agent and another: the incremental
    observations equal ``ObservationEncoder.encode(state.view(seat))``, the masks the views'."""
    environment = TajMahalAECEnv(num_players=num_players)
    encoder, space = observation_encoder(num_players), action_space()
    rng = random.Random(num_players)
    for seed in (1, 2):
        environment.reset(seed=seed)
        steps = 0
        while environment.agents and not any(environment.terminations.values()):
            state = environment.game_state
            assert state is not None
            agent = environment.agent_selection
            for seat in (int(agent.split("_")[1]), rng.randrange(num_players)):
                observed = environment.observe(f"player_{seat}")
                assert np.array_equal(observed["observation"], encoder.encode(state.view(seat)))
                assert np.array_equal(observed["action_mask"], space.mask(state.view(seat)))
            mask = environment.observe(agent)["action_mask"]
            environment.step(rng.choice(np.flatnonzero(mask).tolist()))
            steps += 1
        assert environment.game_state is not None and environment.game_state.is_over
        assert steps > 100


def test_the_action_mask_finds_moves_made_elsewhere_by_value() -> None:
    """The mask looks the engine's own move objects up by identity; equal moves made
    elsewhere (here by a subclass that reads them back from their texts) get the same mask."""

    class FromTexts(ActionSpace):
        @staticmethod
        def legal_moves(state: tm.GameState | tm.PlayerView) -> Sequence[tm.Move]:
            return [move_from_text(str(move)) for move in ActionSpace.legal_moves(state)]

    space, copied = action_space(), FromTexts()
    state = tm.new_game(4, seed=4)
    for _ in range(40):
        made = copied.legal_moves(state)
        assert all(a is not b for a, b in zip(made, state.legal_moves(), strict=True))
        assert np.array_equal(copied.mask(state), space.mask(state))
        assert np.flatnonzero(space.mask(state)).tolist() == space.legal_actions(state)
        state = state.apply(state.legal_moves()[-1 if len(state.legal_moves()) < 3 else 1])


def test_pettingzoo_global_state_is_every_seats_view() -> None:
    environment = TajMahalAECEnv(num_players=4)
    environment.reset(seed=13)
    rng = random.Random(13)
    encoder = observation_encoder(4)
    for _ in range(60):
        state = environment.state()
        assert environment.state_space.contains(state)
        for seat, part in enumerate(np.split(state, 4)):
            assert np.array_equal(part, environment.observe(f"player_{seat}")["observation"])
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert environment.state().shape == (4 * encoder.size,)


def test_pettingzoo_resets_without_a_seed_follow_the_last_seed() -> None:
    one, two = TajMahalAECEnv(), TajMahalAECEnv()
    one.reset(seed=5)
    two.reset(seed=5)
    one.reset()
    two.reset()
    assert one.game_state == two.game_state and one.game_state != tm.new_game(3, seed=5)


def test_pettingzoo_rejects_illegal_actions_and_bad_arguments() -> None:
    environment = TajMahalAECEnv()
    with pytest.raises(AdapterError, match="reset"):
        environment.observe("player_0")
    environment.reset(seed=1)
    with pytest.raises(AdapterError, match="no agent is called 'player_3'"):
        environment.observe("player_3")
    with pytest.raises(tm.IllegalMoveError, match=r"not legal|cannot"):
        environment.step(action_space().size - 1)
    with pytest.raises(AdapterError, match="expected an integer"):
        environment.step(-3)
    with pytest.raises(AdapterError, match="None is only for finished agents"):
        environment.step(None)
    with pytest.raises(AdapterError, match="'rank' or 'score'"):
        TajMahalAECEnv(reward="money")
    with pytest.raises(AdapterError, match="must be one of human, ansi, svg, rgb_array"):
        TajMahalAECEnv(render_mode="rgb")
    with pytest.raises(AdapterError, match="3, 4 or 5"):
        TajMahalAECEnv(num_players=2)


def test_pettingzoo_renders_text_and_svg(capsys: pytest.CaptureFixture[str]) -> None:
    text = TajMahalAECEnv(render_mode="ansi")
    text.reset(seed=2)
    text.step(0)
    shown = text.render()
    assert shown is not None and shown.startswith("visit 1 of 12")
    assert "seat 0: 0 points, 7 cards in hand, table: -, withdrawn" in shown  # W11: drew a card
    assert capsys.readouterr().out == ""  # "ansi" returns the text, it prints nothing
    human = TajMahalAECEnv(render_mode="human")
    human.reset(seed=2)
    human.step(0)
    assert human.render() is None
    printed = capsys.readouterr().out
    assert printed.count("visit 1 of 12") == 2 and "next: seat 0" in printed  # step, render
    svg = TajMahalAECEnv(render_mode="svg")
    svg.reset(seed=2)
    picture = svg.render()
    assert picture is not None and picture.startswith("<svg") and 'class="road"' in picture
    quiet = TajMahalAECEnv()
    quiet.reset(seed=2)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None


def test_rgb_array_is_the_svg_as_pixels_in_both_environments() -> None:
    import re

    from tajmahal.adapters.gymnasium_env import TajMahalEnv

    environment = TajMahalAECEnv(render_mode="rgb_array")
    environment.reset(seed=2)
    pixels = environment.render()
    assert isinstance(pixels, np.ndarray) and pixels.dtype == np.uint8 and pixels.ndim == 3
    svg = TajMahalAECEnv(render_mode="svg")
    svg.reset(seed=2)
    drawn = svg.render()
    assert isinstance(drawn, str)
    size = re.search(r'<svg[^>]* width="([\d.]+)" height="([\d.]+)"', drawn)
    assert size is not None, drawn[:300]
    assert pixels.shape == (round(float(size.group(2))), round(float(size.group(1))), 3)
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 20  # a picture, not a blank page
    play_out(environment, random.Random(2))
    assert not np.array_equal(environment.render(), pixels)  # the palaces are drawn
    single = TajMahalEnv(render_mode="rgb_array")
    single.reset(seed=2)
    frame = single.render()
    assert isinstance(frame, np.ndarray) and frame.shape == pixels.shape
    assert "rgb_array" in TajMahalEnv.metadata["render_modes"]
    assert "rgb_array" in TajMahalAECEnv.metadata["render_modes"]


def test_pettingzoo_plays_custom_components() -> None:
    comps = line_components()
    environment = TajMahalAECEnv(num_players=3, components=comps)
    environment.reset(seed=6)
    assert environment.game_state == tm.new_game(3, seed=6, components=comps)
    final = play_out(environment, random.Random(6))
    assert sum(final.values()) == pytest.approx(0.0)


# ---------------------------------------------------------------- Gymnasium


def play_episode(environment: gymnasium.Env[Any, Any], seed: int) -> tuple[float, dict[str, Any]]:
    observation, info = environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = environment.step(action)
        assert not truncated
        if terminated:
            return float(reward), info
        assert reward == 0


@pytest.mark.parametrize("reward", ["rank", "score"])
def test_gymnasium_episode_ends_with_the_seats_final_reward(reward: str) -> None:
    environment = TajMahalEnv(["greedy", "random", "random"], seat=2, reward=reward)
    final, info = play_episode(environment, seed=4)
    state = environment.game_state
    assert state is not None and state.is_over
    assert final == final_rewards(state.scores, reward)[2]
    assert info["scores"] == state.scores and info["winners"] == state.winners
    with pytest.raises(AdapterError, match="episode has ended"):
        environment.step(0)


def test_gymnasium_same_seed_same_episode() -> None:
    one = gymnasium.make(ENV_ID, opponents=["greedy:enough=5", "random"])
    two = gymnasium.make(ENV_ID, opponents=["greedy:enough=5", "random"])
    assert play_episode(one, seed=9) == play_episode(two, seed=9)
    assert one.unwrapped.game_state == two.unwrapped.game_state  # type: ignore[attr-defined]


def test_gymnasium_agent_decides_only_on_its_own_turn() -> None:
    environment = TajMahalEnv(["random", "random", "random"], seat=3)
    observation, _ = environment.reset(seed=8)
    for _ in range(30):
        state = environment.game_state
        assert state is not None and state.current_player == 3
        assert observation["action_mask"].any()
        assert np.array_equal(environment.action_masks(), observation["action_mask"])
        action = int(np.flatnonzero(observation["action_mask"])[-1])
        observation, _, terminated, _, _ = environment.step(action)
        if terminated:
            break


def test_gymnasium_illegal_actions_lose_or_raise() -> None:
    environment = TajMahalEnv(illegal_reward=-5.0)
    observation, _ = environment.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = environment.step(illegal)
    assert (reward, terminated) == (-5.0, True)
    assert info["illegal_action"] == str(action_space().decode(illegal))
    with pytest.raises(AdapterError, match="episode has ended"):
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    environment.reset(seed=1)
    environment.step(int(np.flatnonzero(observation["action_mask"])[0]))  # a new episode
    strict = TajMahalEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(tm.IllegalMoveError):
        strict.step(illegal)


class Crashing:
    """Raises on every decision."""

    name: ClassVar[str] = "crashing"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        raise RuntimeError("boom")


class Cheating(Crashing):
    """Plays a move that is never legal."""

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        return tm.PlacePalace("atlantis")


def test_gymnasium_records_faulty_bots_and_plays_on() -> None:
    environment = TajMahalEnv([Crashing(), Cheating()], seat=0)
    final, info = play_episode(environment, seed=3)
    kinds = {seat: detail for seat, detail in info["faults"]}
    assert "RuntimeError: boom" in kinds[1] and "illegal move" in kinds[2]
    assert -1 <= final <= 1


def test_gymnasium_rejects_bad_arguments() -> None:
    with pytest.raises(AdapterError, match="2 to 4"):
        TajMahalEnv(["random"])
    with pytest.raises(AdapterError, match="2 to 4"):
        TajMahalEnv("random")  # type: ignore[arg-type]
    with pytest.raises(AdapterError, match=r"seat must be 0\.\.2"):
        TajMahalEnv(seat=3)
    with pytest.raises(AdapterError, match="external program"):
        TajMahalEnv(["cmd:./bot", "random"])
    with pytest.raises(tm.TajMahalError, match="nobody"):
        TajMahalEnv(["nobody", "random"])
    with pytest.raises(AdapterError, match="player spec or a bot"):
        TajMahalEnv([42, "random"])  # type: ignore[list-item]
    with pytest.raises(AdapterError, match="'lose' or 'raise'"):
        TajMahalEnv(illegal_action="ignore")


def test_gymnasium_renders_text_and_svg() -> None:
    text = TajMahalEnv(render_mode="ansi")
    text.reset(seed=2)
    assert text.render().startswith("visit 1 of 12")  # type: ignore[union-attr]
    svg = gymnasium.make(ENV_ID, render_mode="svg")
    svg.reset(seed=2)
    assert svg.render().startswith("<svg")  # type: ignore[union-attr]
