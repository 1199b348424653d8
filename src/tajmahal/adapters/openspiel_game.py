"""The OpenSpiel game ``python_tajmahal`` (extra ``tajmahal[openspiel]``).

Importing this module registers the game: ``pyspiel.load_game("python_tajmahal",
{"players": 4})``, played with the standard components.  Parameters: ``players``
(3 to 5, default 3) and ``deals`` (default 65536), the number of chance outcomes
described below.

**Chance model.**  The game starts with one explicit chance node whose
outcomes are the deal numbers ``0 .. deals - 1``, each with probability
``1 / deals``; outcome ``d`` is the game ``tm.new_game(players, seed=d)``.
That seed fixes everything random in Taj Mahal: the tiles laid out at setup,
the shuffled deck (so every later draw and supply) and every reshuffle of the
discard pile (D1).  After it, every node is a player's decision, with the
actions of :class:`~tajmahal.adapters.actions.ActionSpace` (585 for the
standard components).  So the OpenSpiel game is exactly Taj Mahal played on
one of ``deals`` equally likely deals.

**Information.**  The game is declared imperfect-information.  A player's
information-state string (perfect recall) is its seat, its first hand, the
public setup (province order, bonus tiles, supply), then one line per
decision: the move, the new supply when one was dealt, and the cards this
player drew into its hand (nobody else sees those).  The observation string
is the player's :class:`~tajmahal.PlayerView` as ``tm.dumps`` writes it; both
tensors are the view as :class:`~tajmahal.adapters.observations.ObservationEncoder`
encodes it (the information-state tensor is therefore not of perfect recall).
``resample_from_infostate(player, sampler)`` deals the cards the player cannot
see at random with :meth:`tajmahal.PlayerView.sample`, keeping the player's
information state, so OpenSpiel's ``ISMCTSBot`` can search the game.  A
resampled state starts a fresh OpenSpiel history (its ``history()`` is empty)
and gets a fresh seed for future reshuffles.

**Returns** are paid at the end only: the "rank" rewards of
:func:`~tajmahal.adapters.rewards.final_rewards`, zero-sum, in [-1, 1].
Serialisation goes through ``tm.dumps``/``tm.loads``.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pyspiel

from tajmahal.adapters.actions import AdapterError, action_space
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.pictures import state_text
from tajmahal.adapters.rewards import final_rewards
from tajmahal.rules.components import Card, Components, standard_components
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS, new_game
from tajmahal.rules.moves import PlayCards, TakeCard
from tajmahal.rules.state import GameState
from tajmahal.serialize import dumps, loads

__all__ = ["GAME_NAME", "TajMahalGame", "TajMahalObserver", "TajMahalState"]

GAME_NAME = "python_tajmahal"
DEFAULT_DEALS = 65536
_PARAMETERS = {"players": MIN_PLAYERS, "deals": DEFAULT_DEALS}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Taj Mahal",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


class TajMahalGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """Taj Mahal for OpenSpiel; build it with ``pyspiel.load_game``.

    >>> import pyspiel
    >>> game = pyspiel.load_game(GAME_NAME, {"players": 4})
    >>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
    (4, 585, 65536)
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        players, deals = params["players"], params["deals"]
        if isinstance(players, bool) or players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise AdapterError(f"players must be 3, 4 or 5, got {players!r}")
        if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= 2**20:
            raise AdapterError(f"deals must be an int from 1 to {2**20}, got {deals!r}")
        comps = standard_components()
        cards = len(comps.deck) + len(comps.special_cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space().size,
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # a seat's turns in one visit: at most one play per card it can hold, then
            # withdraw, palaces, crown and supply cards; far more than any game needs
            max_game_length=len(comps.board.provinces) * players * (cards + 16),
        )
        super().__init__(_GAME_TYPE, info, params)
        self.players: int = players
        self.deals: int = deals

    def new_initial_state(self) -> TajMahalState:
        """The chance node that draws the deal.

        >>> import pyspiel
        >>> pyspiel.load_game(GAME_NAME).new_initial_state().is_chance_node()
        True
        """
        return TajMahalState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TajMahalObserver:
        """An observer (OpenSpiel's observation API): tensor, named pieces and strings.

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME)
        >>> observer = game.make_py_observer()
        >>> observer.tensor.shape, list(observer.dict)[:2]
        ((1362,), ['seat', 'visit'])
        """
        return TajMahalObserver(
            self.players,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


#: the decisions so far, newest first: (earlier steps, action, new supply or "")
Steps = tuple[Any, int, str] | None


@attrs.frozen
class _Record:
    """What a node knows: the engine state and each seat's information trail.

    Immutable, so cloning shares it (OpenSpiel deep-copies a state's attributes),
    and pickled through ``tm.dumps`` (OpenSpiel's serialisation pickles them).
    """

    state: GameState
    starts: tuple[str, ...]  #: per seat, its first hand and the public setup
    steps: Steps
    length: int  #: the number of steps
    draws: tuple[tuple[tuple[int, str], ...], ...]  #: per seat, (step, cards it drew)
    _strings: dict[tuple[int, bool], str] = attrs.field(factory=dict, eq=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Record:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Record], tuple[Any, ...]]:
        args = (dumps(self.state), self.starts, self.steps, self.length, self.draws)
        return _restore, args

    def info_string(self, seat: int, private: bool = True) -> str:
        known = self._strings.get((seat, private))
        if known is None:
            known = self._strings[seat, private] = self._info_string(seat, private)
        return known

    def _info_string(self, seat: int, private: bool) -> str:
        lines = []
        steps = self.steps
        while steps is not None:
            steps, action, supply = steps
            lines.append(_action_text(action) + supply)
        lines.reverse()
        if private:
            for step, cards in self.draws[seat]:
                lines[step] += f" [drew {cards}]"
        start = self.starts[seat] if private else _public_start(self.state)
        return "\n".join([f"seat {seat}", start, *lines])


def _restore(text: str, starts: Any, steps: Any, length: Any, draws: Any) -> _Record:
    state = loads(text)
    if not isinstance(state, GameState):
        raise AdapterError("a serialised python_tajmahal state must hold a game state")
    return _Record(state, starts, steps, length, draws)


def _cards(state: GameState, kinds: Any) -> str:
    texts = _card_texts(state.components)
    return " ".join([texts[k] for k in kinds]) or "-"


@functools.lru_cache(maxsize=8)
def _card_texts(components: Components) -> tuple[str, ...]:
    return tuple(map(str, components.card_kinds))


@functools.lru_cache(maxsize=1024)
def _action_text(action: int) -> str:
    return str(action_space().decode(action))


@functools.lru_cache(maxsize=8)
def _kind_of(components: Components) -> dict[Card, int]:
    return {card: i for i, card in enumerate(components.card_kinds)}


def _public_start(state: GameState) -> str:
    view = state.view(0)
    bonus = " ".join(f"{city}={tile}" for city, tile in view.bonus_tiles.items())
    return (
        f"provinces {' '.join(view.province_order)}\nbonus {bonus}\n"
        f"supply {_cards(state, state.supply)}"
    )


def _deal(num_players: int, seed: int) -> _Record:
    state = new_game(num_players, seed=seed)
    public = _public_start(state)
    starts = tuple(f"hand {_cards(state, state.hands[s])}\n{public}" for s in range(num_players))
    return _Record(state, starts, None, 0, ((),) * num_players)


def _step(record: _Record, action: int) -> _Record:
    before = record.state
    space = action_space()
    for move in before.legal_moves():  # the engine's own move object: the fastest apply
        if space.encode(move) == action:
            break
    else:
        move = space.decode(action)  # not legal: apply says why
    after = before.apply(move)
    mover = before.current_player
    kind_of = _kind_of(before.components)
    supply = ""
    if after.supply is not before.supply:
        expected = Counter(before.supply)
        if isinstance(move, TakeCard):
            expected[kind_of[move.card]] -= 1
        if +expected != Counter(after.supply):
            supply = f" [supply {_cards(after, after.supply)}]"
    draws = record.draws
    for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
        if old is new:
            continue
        expected = Counter(old)
        if seat == mover and isinstance(move, PlayCards):
            expected -= Counter(kind_of[c] for c in (move.colored, move.extra) if c is not None)
        if seat == mover and isinstance(move, TakeCard):
            expected[kind_of[move.card]] += 1
        drawn = Counter(new) - expected
        if drawn:
            entry = (record.length, _cards(after, sorted(drawn.elements())))
            draws = (*draws[:seat], (*draws[seat], entry), *draws[seat + 1 :])
    steps = (record.steps, action, supply)
    return _Record(after, record.starts, steps, record.length + 1, draws)


class TajMahalState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """One node of ``python_tajmahal``: the deal's chance node, a decision, or the end.

    >>> import pyspiel
    >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
    >>> state.apply_action(7)  # deal 7: tm.new_game(3, seed=7)
    >>> state.current_player(), len(state.legal_actions()), state.game_state.seed
    (0, 13, 7)
    """

    def __init__(self, game: TajMahalGame) -> None:
        super().__init__(game)
        self._record: _Record | None = None

    @property
    def game_state(self) -> GameState:
        """The :class:`~tajmahal.GameState` (``AdapterError`` before the deal).

        >>> import pyspiel
        >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
        >>> state.apply_action(3)
        >>> state.game_state.num_players
        3
        """
        if self._record is None:
            raise AdapterError("the deal has not been drawn yet: this is the chance node")
        return self._record.state

    def current_player(self) -> int:
        """The seat to decide, ``pyspiel.PlayerId.CHANCE`` before the deal, TERMINAL at the end.

        >>> import pyspiel
        >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
        >>> state.current_player() == pyspiel.PlayerId.CHANCE
        True
        """
        if self._record is None:
            return int(pyspiel.PlayerId.CHANCE)
        state = self._record.state
        if state.current_player is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return action_space().legal_actions(self.game_state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every deal number with probability ``1 / deals``.

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME, {"deals": 4})
        >>> game.new_initial_state().chance_outcomes()
        [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
        """
        deals = self.get_game().deals
        return [(d, 1.0 / deals) for d in range(deals)]

    def _apply_action(self, action: int) -> None:
        if self._record is None:
            deals = self.get_game().deals
            if not 0 <= action < deals:
                raise AdapterError(f"deal {action} does not exist: the deals are 0 to {deals - 1}")
            self._record = _deal(self.num_players(), int(action))
        else:
            self._record = _step(self._record, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(action_space().decode(action))

    def is_terminal(self) -> bool:
        """True once the game is over.

        >>> import pyspiel
        >>> pyspiel.load_game(GAME_NAME).new_initial_state().is_terminal()
        False
        """
        return self._record is not None and self._record.state.is_over

    def returns(self) -> list[float]:
        """Each seat's "rank" reward at the end, zeros before.

        >>> import pyspiel
        >>> pyspiel.load_game(GAME_NAME).new_initial_state().returns()
        [0.0, 0.0, 0.0]
        """
        if not self.is_terminal():
            return [0.0] * self.num_players()
        return list(final_rewards(self.game_state.scores, "rank"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TajMahalState:
        """A state ``player_id`` cannot tell from this one, hidden cards dealt at random.

        ``probability_sampler()`` (e.g. ``pyspiel.UniformProbabilitySampler(0., 1.)``)
        seeds the deal of the unseen cards (:meth:`tajmahal.PlayerView.sample`).

        >>> import pyspiel
        >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
        >>> state.apply_action(5)
        >>> state.apply_action(state.legal_actions()[0])
        >>> other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
        >>> other.information_state_string(1) == state.information_state_string(1)
        True
        """
        record = self._record
        if record is None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = record.state.view(player_id).sample(rng)
        public = _public_start(record.state)
        starts = tuple(
            record.starts[s] if s == player_id else f"hand (resampled) "
            f"{_cards(sampled, sampled.hands[s])}\n{public}"
            for s in range(len(record.starts))
        )
        draws = tuple(d if s == player_id else () for s, d in enumerate(record.draws))
        clone = self.get_game().new_initial_state()
        clone._record = _Record(sampled, starts, record.steps, record.length, draws)
        return clone  # type: ignore[no-any-return]

    def __str__(self) -> str:
        record = self._record
        if record is None:
            return "chance node: the deal"
        state = record.state
        hands = "\n".join(f"hand {s}: {_cards(state, h)}" for s, h in enumerate(state.hands))
        return f"{state_text(state)}\n{hands}\ndeck: {_cards(state, state.deck)}"


class TajMahalObserver:
    """OpenSpiel's observer for ``python_tajmahal`` (``game.make_py_observer()``).

    ``tensor`` is the view's encoding, ``dict`` its fields by name (views
    into ``tensor``).  With ``private_info`` NONE (the public observer) the
    own hand is left out: zeros in the tensor, absent from the strings.

    >>> import pyspiel
    >>> game = pyspiel.load_game(GAME_NAME)
    >>> state = game.new_initial_state()
    >>> state.apply_action(1)
    >>> observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    >>> observer.string_from(state, 0).splitlines()[0]
    'seat 0'
    """

    def __init__(self, num_players: int, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise AdapterError(f"python_tajmahal observers take no parameters, got {params!r}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise AdapterError("python_tajmahal observes one seat: private_info ALL_PLAYERS")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = observation_encoder(num_players)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {
            f.name: self.tensor[f.offset : f.offset + f.size].reshape(f.shape)
            for f in self.encoder.layout
        }

    def set_from(self, state: TajMahalState, player: int) -> None:
        """Write ``player``'s view of ``state`` into ``tensor`` (zeros before the deal).

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME)
        >>> state = game.new_initial_state()
        >>> state.apply_action(1)
        >>> observer = game.make_py_observer()
        >>> observer.set_from(state, 2)
        >>> int(observer.dict["seat"][2]), int(observer.dict["hand"].sum())
        (1, 6)
        """
        record = state._record
        if record is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self.encoder.encode(record.state.view(player))
        if not self.private:
            self.dict["hand"].fill(0)

    def string_from(self, state: TajMahalState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as text.

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME)
        >>> state = game.new_initial_state()
        >>> state.apply_action(1)
        >>> game.make_py_observer().string_from(state, 0)[:28]
        '{"format": "tajmahal/view", '
        """
        record = state._record
        if record is None:
            return "the deal has not been drawn yet"
        if self.perfect_recall:
            return record.info_string(player, self.private)
        text = dumps(record.state.view(player))
        if self.private:
            return text
        document = json.loads(text)
        del document["hand"]
        return json.dumps(document)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, TajMahalGame)
