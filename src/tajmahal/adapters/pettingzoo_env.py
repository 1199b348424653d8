"""A PettingZoo AEC environment: every seat an agent (extra ``tajmahal[pettingzoo]``).

Agents are ``"player_0"`` .. ``"player_{n-1}"`` (seat numbers).  ``observe(agent)``
returns ``{"observation": float32 array, "action_mask": int8 array}``: the
agent's view encoded by :class:`~tajmahal.adapters.observations.ObservationEncoder`
and the mask of :class:`~tajmahal.adapters.actions.ActionSpace` (all zeros
when it is not that agent's decision).  Rewards are 0 until the game ends,
then :func:`~tajmahal.adapters.rewards.final_rewards` of the final scores.
``reset(seed=s)`` deals the game ``tm.new_game(n, seed=s)``; a reset without a
seed continues a sequence of seeds drawn from the last seed given (or from
the operating system's entropy if none was).  Forced moves (one legal move)
are decisions too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

from tajmahal.adapters._extras import missing_extra

try:  # the extra's packages
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector
    from pettingzoo.utils.env import AECIterable
except ImportError as missing:
    raise missing_extra(__name__, ("pettingzoo",), missing) from missing

from tajmahal.adapters.actions import AdapterError, action_space
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.pictures import RENDER_MODES, check_render_mode, render
from tajmahal.adapters.rewards import REWARD_KINDS, final_rewards
from tajmahal.rules.components import Components
from tajmahal.rules.engine import new_game
from tajmahal.rules.state import GameState

__all__ = ["TajMahalAECEnv", "env"]


class TajMahalAECEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # untyped base
    """Taj Mahal for ``num_players`` agents; ``reward`` is ``"rank"`` or ``"score"``.

    >>> environment = TajMahalAECEnv(num_players=3)
    >>> environment.reset(seed=7)
    >>> environment.agent_selection, int(environment.action_space('player_0').n)
    ('player_0', 585)
    >>> observation = environment.observe('player_0')
    >>> observation['observation'].shape, int(observation['action_mask'].sum())
    ((1362,), 13)
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "tajmahal_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 3,
        *,
        reward: str = "rank",
        render_mode: str | None = None,
        components: Components | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARD_KINDS:
            raise AdapterError(f"reward must be 'rank' or 'score', got {reward!r}")
        self.encoder = observation_encoder(num_players, components)
        self._observations = self.encoder.incremental()  # each seat's last observation reused
        self.actions = action_space(components)
        self.components = self.encoder.components
        self.reward = reward
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agents = self.possible_agents[:]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = gymnasium.spaces.Box(
            self.encoder.low, self.encoder.high, dtype=np.float32
        )
        mask = gymnasium.spaces.Box(0, 1, (self.actions.size,), dtype=np.int8)
        self._observation_space = gymnasium.spaces.Dict(
            {"observation": observation, "action_mask": mask}
        )
        self._action_space = gymnasium.spaces.Discrete(self.actions.size)
        #: the space of :meth:`state`: every seat's observation, seat 0's first
        self.state_space = gymnasium.spaces.Box(
            np.tile(self.encoder.low, num_players),
            np.tile(self.encoder.high, num_players),
            dtype=np.float32,
        )
        self._seeds: random.Random | None = None
        self.game_state: GameState | None = None  #: the current tajmahal.GameState

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same Dict space for every agent.

        >>> TajMahalAECEnv().observation_space('player_1')['action_mask'].shape
        (585,)
        """
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(size)`` of the action space, the same for every agent.

        >>> TajMahalAECEnv().action_space('player_2')
        Discrete(585)
        """
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``tm.new_game(num_players, seed=seed)`` when a seed is given.

        >>> environment = TajMahalAECEnv(4)
        >>> environment.reset(seed=3)
        >>> environment.game_state.seed, environment.agents
        (3, ['player_0', 'player_1', 'player_2', 'player_3'])
        """
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = int(seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            game_seed = self._seeds.getrandbits(63)
        self.game_state = new_game(
            len(self.possible_agents), seed=game_seed, components=self.components
        )
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._seat_agent()

    def _seat_agent(self) -> str:
        assert self.game_state is not None and self.game_state.current_player is not None
        return self.possible_agents[self.game_state.current_player]

    def _game(self) -> GameState:
        if self.game_state is None:
            raise AdapterError("call reset() before using the environment")
        return self.game_state

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's encoded view and its action mask (new arrays on every call).

        >>> environment = TajMahalAECEnv()
        >>> environment.reset(seed=1)
        >>> int(environment.observe('player_1')['action_mask'].sum())  # not its turn
        0
        """
        state = self.game_state
        if state is None:
            raise AdapterError("call reset() before using the environment")
        seat = self._seat_of.get(agent) if type(agent) is str else None
        if seat is None:
            raise AdapterError(
                f"no agent is called {agent!r}; the agents are {', '.join(self.possible_agents)}"
            )
        if seat == state.current_player:
            mask = self.actions.mask(state)
        else:  # not its decision: nothing is legal for it
            mask = np.zeros(self.actions.size, dtype=np.int8)
        return {"observation": self._observations.encode(state, seat), "action_mask": mask}

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        """Yields the selected agent while any is left, at most ``max_iter`` times.

        PettingZoo's own ``AECIterable``, iterated by a generator (every step calls it).

        >>> environment = TajMahalAECEnv()
        >>> environment.reset(seed=1)
        >>> next(iter(environment.agent_iter())), len(list(environment.agent_iter(3)))
        ('player_0', 3)
        """
        return _Agents(self, max_iter)

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, terminated, truncated and info.

        PettingZoo's own ``last()``, read straight from the environment's dicts (it is
        called every step).

        >>> environment = TajMahalAECEnv()
        >>> environment.reset(seed=1)
        >>> observation, reward, terminated, truncated, info = environment.last()
        >>> int(observation['action_mask'].sum()), reward, terminated, truncated, info
        (6, 0.0, False, False, {})
        """
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> npt.NDArray[np.float32]:
        """The global state for centralised training: every seat's encoded view, seat 0's first.

        Together the views show every hand; the draw deck's order stays hidden.

        >>> environment = TajMahalAECEnv()
        >>> environment.reset(seed=1)
        >>> environment.state().shape == environment.state_space.shape == (3 * 1362,)
        True
        """
        state = self._game()
        encode = self._observations.encode
        return np.concatenate([encode(state, seat) for seat in range(state.num_players)])

    def step(self, action: int | None) -> None:
        """Play the selected agent's action; after the end, each agent steps ``None`` once.

        An action that is not legal raises :class:`~tajmahal.IllegalMoveError`.

        >>> environment = TajMahalAECEnv()
        >>> environment.reset(seed=1)
        >>> environment.step(0)  # withdraw
        >>> environment.game_state.withdrawn
        (True, False, False)
        """
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        state = self.game_state
        if state is None:
            raise AdapterError("call reset() before using the environment")
        if action is None:
            raise AdapterError(f"{agent} must act: None is only for finished agents")
        state = state.apply(self.actions.decode(action))
        self.game_state = state
        self._cumulative_rewards[agent] = 0.0
        player = state.current_player  # None once the game is over
        if player is None:
            self._clear_rewards()
            for agent_name, value in zip(
                self.agents, final_rewards(state.scores, self.reward), strict=True
            ):
                self.rewards[agent_name] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
            self._accumulate_rewards()
        else:  # every reward is 0 until the end: nothing to clear or accumulate
            self.agent_selection = self.possible_agents[player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The state as text (``"ansi"``), the board as SVG (``"svg"``) or as an RGB array of
        shape (height, width, 3) (``"rgb_array"``), or printed (``"human"``).

        In ``"human"`` mode the environment also prints the state after every step.

        >>> environment = TajMahalAECEnv(render_mode='svg')
        >>> environment.reset(seed=1)
        >>> environment.render().startswith('<svg')
        True
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: nothing to draw")
            return None
        return render(self._game(), self.render_mode)

    def close(self) -> None:
        """Nothing to release (the environment holds no outside resources).

        >>> TajMahalAECEnv().close()
        """


class _Agents(AECIterable):  # type: ignore[misc]  # untyped base
    """PettingZoo's ``AECIterable``, its iterator a generator (no Python ``__next__`` per step)."""

    def __iter__(self) -> Iterator[str]:
        environment, left = self.env, self.max_iter
        while environment.agents and left > 0:
            left -= 1
            yield environment.agent_selection


def env(**kwargs: Any) -> TajMahalAECEnv:
    """A new :class:`TajMahalAECEnv` (PettingZoo's customary constructor name).

    >>> env(num_players=5).num_agents
    5
    """
    return TajMahalAECEnv(**kwargs)
