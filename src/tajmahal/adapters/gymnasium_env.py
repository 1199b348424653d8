"""A Gymnasium environment: one seat for the agent, the others played by bots.

Extra ``tajmahal[gymnasium]``.  Importing this module registers the id
``"tajmahal/TajMahal-v0"``, so ``gymnasium.make("tajmahal/TajMahal-v0",
opponents=["greedy", "random"])`` works too.  Observations are the Dict
``{"observation", "action_mask"}`` of the PettingZoo environment (see
:mod:`tajmahal.adapters.pettingzoo_env`); the reward is 0 until the game
ends, then the agent's :func:`~tajmahal.adapters.rewards.final_rewards`.
An illegal action ends the episode with ``illegal_reward`` and
``info["illegal_action"]`` (or raises, with ``illegal_action="raise"``).
A bot that raises or returns an illegal move is recorded in
``info["faults"]`` and its seat plays its first legal move instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, SupportsFloat

from tajmahal.adapters._extras import missing_extra

try:  # the extra's packages
    import gymnasium
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:
    raise missing_extra(__name__, ("gymnasium",), missing) from missing

from tajmahal.adapters.actions import AdapterError, Mask, action_space
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.pictures import RENDER_MODES, check_render_mode, render
from tajmahal.adapters.rewards import REWARD_KINDS, final_rewards
from tajmahal.bots import Bot
from tajmahal.rules.components import Components
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS, new_game
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState

if TYPE_CHECKING:
    from tajmahal.bots.specs import PlayerSpec

__all__ = ["ENV_ID", "TajMahalEnv"]

ENV_ID = "tajmahal/TajMahal-v0"
Observation = dict[str, Any]


class TajMahalEnv(gymnasium.Env[Observation, np.int64]):
    """The agent plays ``seat``; ``opponents`` (player specs or bots) fill the other seats.

    Player specs are those of :mod:`tajmahal.bots.specs` (``"greedy:enough=5"``);
    each spec's bot is built anew at every reset, seeded from ``np_random``.

    >>> environment = TajMahalEnv(opponents=["greedy", "random"], seat=1)
    >>> observation, info = environment.reset(seed=7)
    >>> observation["observation"].shape, environment.game_state.current_player
    ((1362,), 1)
    >>> action = int(np.flatnonzero(observation["action_mask"])[0])
    >>> observation, reward, terminated, truncated, info = environment.step(action)
    >>> reward, terminated, truncated
    (0.0, False, False)
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012  (as Env)

    def __init__(
        self,
        opponents: Sequence[str | Bot] = ("random", "random"),
        *,
        seat: int = 0,
        reward: str = "rank",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        components: Components | None = None,
    ) -> None:
        if isinstance(opponents, str) or not MIN_PLAYERS - 1 <= len(opponents) <= MAX_PLAYERS - 1:
            raise AdapterError(
                f"opponents must be a list of 2 to 4 player specs or bots, got {opponents!r}"
            )
        num_players = len(opponents) + 1
        if isinstance(seat, bool) or seat not in range(num_players):
            raise AdapterError(f"seat must be 0..{num_players - 1}, got {seat!r}")
        if reward not in REWARD_KINDS:
            raise AdapterError(f"reward must be 'rank' or 'score', got {reward!r}")
        if illegal_action not in ("lose", "raise"):
            raise AdapterError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.opponents = [_parsed(spec) for spec in opponents]  # each spec parsed once, here
        for spec in self.opponents:
            _bot(spec, 0)  # a bad spec fails here, not at the first reset
        self.seat = seat
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = check_render_mode(render_mode)
        self.encoder = observation_encoder(num_players, components)
        self._observations = self.encoder.incremental()  # the agent's last observation reused
        self.actions = action_space(components)
        self.components = self.encoder.components
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    self.encoder.low, self.encoder.high, dtype=np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.actions.size,), dtype=np.int8),
            }
        )
        self.action_space = gymnasium.spaces.Discrete(self.actions.size)
        self.game_state: GameState | None = None  #: the current tajmahal.GameState
        self._bots: dict[int, Bot] = {}
        self._faults: list[tuple[int, str]] = []
        self._ended = False  #: an illegal action ended the episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal ``tm.new_game(n, seed=seed)`` (a seed drawn from ``np_random`` without one).

        The bots are built afresh, seeded from ``np_random``; they play until
        the agent's first decision.

        >>> environment = TajMahalEnv(["random", "random", "random"], seat=2)
        >>> observation, info = environment.reset(seed=3)
        >>> environment.game_state.seed, environment.game_state.current_player
        (3, 2)
        """
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(seed) if seed is not None else int(rng.integers(2**63))
        others = [s for s in range(len(self.opponents) + 1) if s != self.seat]
        self._bots = {
            s: _bot(spec, int(rng.integers(2**63)))
            for s, spec in zip(others, self.opponents, strict=True)
        }
        self._faults = []
        self._ended = False
        self.game_state = new_game(len(others) + 1, seed=game_seed, components=self.components)
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(
        self, action: Any
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the bots until the agent decides again or the end.

        >>> environment = TajMahalEnv()
        >>> _ = environment.reset(seed=1)
        >>> _, reward, terminated, _, info = environment.step(584)  # not legal now
        >>> reward, terminated, info["illegal_action"]
        (-1.0, True, 'take white:elephant')
        """
        state = self._state()
        if state.is_over or self._ended:
            raise AdapterError("the episode has ended: call reset() to start another")
        move = self.actions.decode(action)
        if move not in state.legal_moves():
            if self.illegal_action == "raise":
                state.apply(move)  # raises IllegalMoveError, saying why
            self._ended = True
            info = self._info()
            info["illegal_action"] = str(move)
            return self._observation(), self.illegal_reward, True, False, info
        self.game_state = state.apply(move)
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        state = self.game_state
        reward = final_rewards(state.scores, self.reward_kind)[self.seat] if state.is_over else 0.0
        return self._observation(), reward, state.is_over, False, self._info()

    def action_masks(self) -> Mask:
        """The current action mask (the name sb3-contrib's ``MaskablePPO`` asks for).

        >>> environment = TajMahalEnv()
        >>> _ = environment.reset(seed=1)
        >>> int(environment.action_masks().sum())
        6
        """
        state = self._state()
        own = state.current_player == self.seat
        return self.actions.mask(state if own else state.view(self.seat))

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The state as text (``"ansi"``), the board as SVG (``"svg"``) or as an RGB array of
        shape (height, width, 3) (``"rgb_array"``), or printed (``"human"``).

        In ``"human"`` mode the environment also prints the state after every step.

        >>> environment = TajMahalEnv(render_mode="ansi")
        >>> _ = environment.reset(seed=1)
        >>> environment.render().splitlines()[0]
        'visit 1 of 12, province thatta, phase play'
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: nothing to draw")
            return None
        return render(self._state(), self.render_mode)

    # ------------------------------------------------------------------ helpers

    def _state(self) -> GameState:
        if self.game_state is None:
            raise AdapterError("call reset() before using the environment")
        return self.game_state

    def _observation(self) -> Observation:
        state = self._state()
        if self.seat == state.current_player:
            mask = self.actions.mask(state)
        else:  # the episode is over: nothing is legal
            mask = np.zeros(self.actions.size, dtype=np.int8)
        return {"observation": self._observations.encode(state, self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        state = self._state()
        info: dict[str, Any] = {}
        if self._faults:
            info["faults"] = list(self._faults)
        if state.is_over:
            info["scores"] = state.scores
            info["winners"] = state.winners
        return info

    def _play_bots(self) -> None:
        state = self._state()
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_moves()
            move: Move = legal[0]
            try:
                chosen = self._bots[seat].choose(state.view(seat), legal)
                if chosen in legal:
                    move = chosen
                else:
                    self._faults.append((seat, f"illegal move {chosen!r}"))
            except Exception as exc:  # a bot's failure is recorded, never a crash
                self._faults.append((seat, f"{type(exc).__name__}: {exc}"))
            state = state.apply(move)
        self.game_state = state


def _parsed(spec: str | Bot) -> PlayerSpec | Bot:
    """An opponent's spec parsed (once, when the environment is made), or a ready bot."""
    from tajmahal.bots.specs import parse_spec

    return parse_spec(spec) if isinstance(spec, str) else spec


def _bot(spec: PlayerSpec | Bot, seed: int) -> Bot:
    """A bot from a parsed player spec (``'greedy:enough=5'``) or a ready bot."""
    from tajmahal.bots.specs import PlayerSpec

    if isinstance(spec, PlayerSpec):
        from tajmahal import bots

        if spec.is_command:
            raise AdapterError(
                f"opponent {spec.text!r} is an external program: the environment seats "
                "Python bots (a name with options, a file: spec) or bot objects"
            )
        return bots.create(spec, seed=seed)
    if isinstance(spec, Bot):
        return spec
    raise AdapterError(f"an opponent must be a player spec or a bot, got {spec!r}")


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:TajMahalEnv")
