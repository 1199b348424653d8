"""The OpenSpiel game ``python_tajmahal`` (extra ``tajmahal[openspiel]``).

Importing this module registers the game: ``pyspiel.load_game("python_tajmahal",
{"players": 4})``, played with the standard components.  Its parameters are
``players`` (3 to 5, default 3) and ``deal_seeds`` (default 0: the setup's chance nodes
below; N from 1 to 65,536: the whole setup is one chance node, see below).

**Chance model.**  As in OpenSpiel's card games, the setup is a run of chance
nodes, each laying one tile or dealing one card, and nothing else is random:

1. 11 nodes lay the province tiles: outcome ``p`` (a province's index in board
   order) puts the next tile on province ``p``, uniformly among the provinces
   still bare; the last tile always goes to the final province (S2);
2. 15 nodes lay the bonus tiles, one per fortress but the Taj Mahal's in board
   order: outcome ``b`` (an index into the distinct bonus tiles) with
   probability proportional to how many such tiles are left (S3);
3. 96 nodes deal the cards, one node per card: outcome ``k`` (a card kind) with
   probability proportional to the cards of kind ``k`` not yet dealt.  The
   first six go to seat 0's hand, the next six to seat 1's ..., then the
   supply, then the draw deck from its top card down (S4–S7).
4. A move that empties the deck while the discard pile holds cards (D1)
   becomes a run of chance nodes, one per card of the pile, dealing the new
   deck from its top card down the same way; then the move takes effect.

With ``deal_seeds=N`` the setup is one chance node instead of the 122 of steps
1–3: N equally likely outcomes, outcome ``k`` dealing the game ``tm.new_game(players,
seed=k)`` deals (so the deals are those N, not every deal).  Algorithms that
explore the tree breadth first then reach the decisions: OpenSpiel's own
``api_test`` samples 400 states, all of them setup nodes with the default.  The
reshuffles' chance nodes are as above, and ``resample_from_infostate`` during play
deals the hidden cards among every deal the player's view allows, as by default.

Tiles and the supply are public; a seat sees the cards dealt into its own
hand and nothing of the other hands or the deck, so one information state
fits every deal that differs only in what the seat cannot see.  Outcome
numbers are below ``max_chance_outcomes()`` (50, the card kinds).

**Information.**  A player's information-state string (perfect recall) is
its seat, its first hand and the public setup, then one line per decision:
the move, the new supply when one was dealt, and the cards this player drew
into its hand (nobody else sees those).  During the setup it is the tiles
laid, the player's cards so far and how many cards were dealt; during a
reshuffle, the line of the move and how many cards of the new deck are dealt.
The observation string is the player's :class:`~tajmahal.PlayerView` as
``tm.dumps`` writes it; both tensors are the view as
:class:`~tajmahal.adapters.observations.ObservationEncoder` encodes it (zeros
during the setup).  ``resample_from_infostate(player, sampler)`` deals
everything the player has not seen again, uniformly among the deals the chance
model allows with the player's information state (the hidden cards of
:meth:`tajmahal.PlayerView.sample`; during the setup, the other seats' cards
dealt so far; during a reshuffle, the pile's order from its first card), so
OpenSpiel's ``ISMCTSBot`` can search the game.  A resampled state's
``history()`` starts at the resampled point.

**Returns** are paid at the end only: the "rank" rewards of
:func:`~tajmahal.adapters.rewards.final_rewards`, zero-sum, in [-1, 1].

**Serialisation.**  ``state.serialize()`` writes a JSON document of this
library (format ``tajmahal/openspiel-state``): the player count, the actions
of ``history()`` and, for a resampled state, the engine state it started from
as ``tm.dumps`` writes it.  ``game.deserialize_state(text)`` and this module's
:func:`deserialize_game_and_state` read it back by replaying every action
through the rules (each one checked); anything else, a pickle above all, is an
:class:`~tajmahal.adapters.actions.AdapterError`.  Nothing is unpickled.

.. warning::

   ``pyspiel.deserialize_game_and_state(text)`` and ``pyspiel.deserialize_state``
   called from C++ (``random_sim_test(serialize=True)``, C++ algorithms) do not
   reach this module: OpenSpiel's C++ code reads the Python attributes of a
   Python game's state with ``pickle.loads``, so a crafted string runs code
   there.  Pass those functions only strings you wrote yourself; for strings
   from anywhere else use :func:`deserialize_game_and_state` or
   ``game.deserialize_state`` from Python.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tajmahal.adapters._extras import missing_extra

try:  # the extra's packages
    import numpy as np
    import pyspiel
except ImportError as missing:
    raise missing_extra(__name__, ("openspiel",), missing) from missing

from tajmahal.adapters._openspiel_nodes import (
    _action_text,
    _DecisionNode,
    _first_decision_node,
    _Node,
    _play,
    _play_ordered,
    _Reshuffle,
    _without,  # noqa: F401  (its old home: tests read it)
)
from tajmahal.adapters._openspiel_saved import (
    _STATE_VERSION,
    _int,
    _node_document,
    _node_from_document,
    _problem,
    _read_document,
    _read_node,
)
from tajmahal.adapters._openspiel_saved import STATE_FORMAT as _SAVED_FORMAT
from tajmahal.adapters._openspiel_setup import (
    _MAX_DEAL_SEEDS,
    _cards,
    _Deal,
    _redeal,
    _Setup,
    _setup,
)
from tajmahal.adapters.actions import AdapterError, action_space
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.pictures import state_text
from tajmahal.adapters.rewards import final_rewards
from tajmahal.rules.components import standard_components
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import tables
from tajmahal.serialize import dumps

__all__ = [
    "GAME_NAME",
    "STATE_FORMAT",
    "TajMahalGame",
    "TajMahalObserver",
    "TajMahalState",
    "deserialize_game_and_state",
    "serialize_game_and_state",
]

#: the name old pickles (OpenSpiel's C++ serialisation) give the reader of a node
_record_from_document = _node_from_document

GAME_NAME = "python_tajmahal"
STATE_FORMAT = _SAVED_FORMAT  #: the ``format`` of a serialised state
_PARAMETERS = {"players": MIN_PLAYERS, "deal_seeds": 0}

_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

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
    (4, 585, 50)
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        players = params["players"]
        if isinstance(players, bool) or players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise AdapterError(f"players must be 3, 4 or 5, got {players!r}")
        seeds = params["deal_seeds"]
        if isinstance(seeds, bool) or seeds not in range(_MAX_DEAL_SEEDS + 1):
            raise AdapterError(
                f"deal_seeds must be 0 (the setup's chance nodes) or 1 to {_MAX_DEAL_SEEDS} "
                f"(one chance node), got {seeds!r}"
            )
        comps = standard_components()
        setup = _setup(comps)
        cards = len(comps.deck) + len(comps.special_cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space().size,
            max_chance_outcomes=max(len(comps.card_kinds), len(comps.board.provinces), seeds),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # a seat's turns in one visit: at most one play per card it can hold, then
            # withdraw, palaces, crown and supply cards; far more than any game needs
            max_game_length=len(comps.board.provinces) * players * (cards + 16) + setup.nodes,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.players: int = players
        self.setup: _Setup = setup
        self.deal_seeds: int = seeds  #: 0, or the outcomes of the one setup chance node

    def new_initial_state(self) -> TajMahalState:
        """The first chance node of the setup: the first province tile.

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

    def deserialize_state(self, text: str) -> TajMahalState:
        """The state :meth:`TajMahalState.serialize` wrote (never unpickles).

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME)
        >>> state = game.new_initial_state()
        >>> state.apply_action(3)
        >>> game.deserialize_state(state.serialize()).history()
        [3]
        >>> game.deserialize_state("gASVAAAA")
        Traceback (most recent call last):
        ...
        tajmahal.adapters.actions.AdapterError: not a python_tajmahal state document: ...
        """
        document = _read_document(text)
        if document["players"] != self.players:
            raise AdapterError(
                f"the document holds a {document['players']}-player state; "
                f"this game has {self.players} players"
            )
        if document["deal_seeds"] != self.deal_seeds:
            raise AdapterError(
                f"the document holds a state of deal_seeds={document['deal_seeds']}; "
                f"this game has deal_seeds={self.deal_seeds}"
            )
        return _rebuild(self, document)


class TajMahalState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """One node of ``python_tajmahal``: a chance node of the setup or a reshuffle, a decision, or the end.

    >>> import pyspiel
    >>> game = pyspiel.load_game(GAME_NAME)
    >>> state = game.new_initial_state()
    >>> while state.is_chance_node():  # the setup: always the first outcome here
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> state.current_player(), len(state.history()), state.game_state.hand(0)[0].color.value
    (0, 122, 'red')
    """  # noqa: E501

    def __init__(self, game: TajMahalGame) -> None:
        super().__init__(game)
        self._node: _Node = _Deal(game.players, (), game.deal_seeds)
        self._base: _DecisionNode | None = None  #: where history() starts (None: the first node)

    @property
    def game_state(self) -> GameState:
        """The :class:`~tajmahal.GameState` (before the move, during a reshuffle).

        ``AdapterError`` during the setup.

        >>> import pyspiel
        >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
        >>> state.game_state
        Traceback (most recent call last):
        ...
        tajmahal.adapters.actions.AdapterError: the setup is still being dealt: ...
        """
        node = self._node
        if isinstance(node, _Deal):
            raise AdapterError(
                f"the setup is still being dealt: {len(node.outcomes)} of "
                f"{node.nodes(self.get_game().setup)} chance nodes drawn"
            )
        return (node.record if isinstance(node, _Reshuffle) else node).state

    def current_player(self) -> int:
        """The seat to decide, ``pyspiel.PlayerId.CHANCE`` at chance nodes, TERMINAL at the end.

        >>> import pyspiel
        >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
        >>> state.current_player() == pyspiel.PlayerId.CHANCE
        True
        """
        node = self._node
        if type(node) is not _DecisionNode:
            return _CHANCE
        player = node.state.current_player
        return _TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        if type(node) is not _DecisionNode:
            return []
        return list(node.legal()[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of this chance node with their probabilities (empty elsewhere).

        >>> import pyspiel
        >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
        >>> outcomes = state.chance_outcomes()  # the first province tile: 11 provinces
        >>> len(outcomes), round(sum(p for _, p in outcomes), 9)
        (11, 1.0)
        """
        node = self._node
        if type(node) is _Reshuffle:
            return node.outcomes_now()
        if type(node) is _Deal:
            return node.outcomes_now(self.get_game().setup)
        return []

    def _apply_action(self, action: int) -> None:
        node, action = self._node, int(action)
        if type(node) is _DecisionNode:
            self._node = _play(node, action)
            return
        if type(node) is _Reshuffle:
            after = node.deal(action)
            if after is None:
                raise self._not_an_outcome(action)
            if len(after.chosen) < len(after.pile):
                self._node = after
            else:
                self._node = _play_ordered(
                    node.record, node.action, (*node.orders, after.chosen)
                )
            return
        assert isinstance(node, _Deal)
        if action not in dict(self.chance_outcomes()):
            raise self._not_an_outcome(action)
        setup: _Setup = self.get_game().setup
        deal = _Deal(node.players, (*node.outcomes, action), node.seeds)
        done = len(deal.outcomes) == deal.nodes(setup)
        self._node = _first_decision_node(deal.state(setup)) if done else deal

    def _not_an_outcome(self, action: int) -> AdapterError:
        return AdapterError(
            f"{action} is not an outcome of this chance node; the outcomes are "
            f"{[a for a, _ in self.chance_outcomes()]}"
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player != pyspiel.PlayerId.CHANCE:
            return str(action_space().decode(action))
        node = self._node
        comps = self.get_game().setup.components
        if isinstance(node, _Deal):
            setup = self.get_game().setup
            owner = node.owner(setup, len(node.outcomes))
            if owner == "deal":
                return f"deal of seed {action}"
            if len(node.outcomes) < len(setup.provinces):
                province = tables(comps).province_ids[action]
                return f"province tile {len(node.outcomes) + 1}: {province}"
            if owner == "tile":
                return f"bonus tile: {comps.bonus_tiles[setup.bonus_kinds[action]]}"
            where = f"seat {owner}" if isinstance(owner, int) else owner
            return f"deal to {where}: {comps.card_kinds[action]}"
        return f"reshuffled deck: {comps.card_kinds[action]}"

    def is_terminal(self) -> bool:
        """True once the game is over.

        >>> import pyspiel
        >>> pyspiel.load_game(GAME_NAME).new_initial_state().is_terminal()
        False
        """
        node = self._node
        return type(node) is _DecisionNode and node.state.is_over

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
        """A state ``player_id`` cannot tell from this one, all it has not seen dealt anew.

        ``probability_sampler()`` (e.g. ``pyspiel.UniformProbabilitySampler(0., 1.)``)
        seeds the new deal of what the player has not seen (see the module docstring).

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME)
        >>> state = game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[-1][0])
        >>> state.apply_action(state.legal_actions()[0])
        >>> other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
        >>> other.information_state_string(1) == state.information_state_string(1)
        True
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        game: TajMahalGame = self.get_game()
        node = self._node
        clone: TajMahalState = game.new_initial_state()
        if isinstance(node, _Deal):
            for action in _redeal(game.setup, node, player_id, rng):
                clone.apply_action(action)
            return clone
        record = node.record if isinstance(node, _Reshuffle) else node
        sampled = record.state.view(player_id).sample(rng)
        public = record.starts[player_id].partition("\n")[2]  # the setup everybody saw
        starts = tuple(
            record.starts[s]
            if s == player_id
            else f"hand (resampled) {_cards(sampled.components, sampled.hands[s])}\n{public}"
            for s in range(len(record.starts))
        )
        draws = tuple(d if s == player_id else () for s, d in enumerate(record.draws))
        clone._node = clone._base = _DecisionNode(
            sampled, starts, record.steps, record.length, draws
        )
        if isinstance(node, _Reshuffle):
            clone.apply_action(node.action)  # the move again: its reshuffle's chance nodes next
        return clone

    def serialize(self) -> str:
        """This state as a ``tajmahal/openspiel-state`` JSON document (no pickle).

        >>> import pyspiel
        >>> state = pyspiel.load_game(GAME_NAME).new_initial_state()
        >>> state.apply_action(2)
        >>> state.serialize()
        '{"format": "tajmahal/openspiel-state", "version": 1, "players": 3, "base": null, "history": [2]}'
        """  # noqa: E501
        base, seeds = self._base, self.get_game().deal_seeds
        return json.dumps(
            {
                "format": STATE_FORMAT,
                "version": _STATE_VERSION,
                "players": self.num_players(),
                **({"deal_seeds": seeds} if seeds else {}),  # written only when set
                "base": None if base is None else _node_document(base),
                "history": [int(a) for a in self.history()],
            }
        )

    def __str__(self) -> str:
        node = self._node
        if isinstance(node, _Deal):
            return node.info_string(self.get_game().setup, 0, private=False).partition("\n")[2]
        state = self.game_state
        comps = state.components
        hands = "\n".join(f"hand {s}: {_cards(comps, h)}" for s, h in enumerate(state.hands))
        text = f"{state_text(state)}\n{hands}\ndeck: {_cards(comps, state.deck)}"
        if isinstance(node, _Reshuffle):
            deck = _cards(comps, node.chosen)
            text += f"\n{_action_text(node.action)}: reshuffling, the new deck from the top: {deck}"
        return text


def _rebuild(game: TajMahalGame, document: dict[str, Any]) -> TajMahalState:
    state: TajMahalState = game.new_initial_state()
    if document["base"] is not None:
        base = _read_node(document["base"], ("base",))
        if base.state.num_players != game.players:
            raise _problem(("base", "state"), f"expected a {game.players}-player state")
        state._node = state._base = base
    limit = max(game.num_distinct_actions(), game.max_chance_outcomes())
    for i, action in enumerate(document["history"]):
        _int(action, ("history", i), limit)
        if state.is_terminal():
            raise _problem(("history", i), "the game was already over")
        try:
            state.apply_action(action)
        except (TajMahalError, pyspiel.SpielError) as exc:
            raise _problem(("history", i), str(exc)) from None
    return state


def serialize_game_and_state(game: TajMahalGame, state: TajMahalState) -> str:
    """The state's document (:meth:`TajMahalState.serialize`); it names the player count.

    >>> import pyspiel
    >>> game = pyspiel.load_game(GAME_NAME, {"players": 4})
    >>> text = serialize_game_and_state(game, game.new_initial_state())
    >>> game2, state2 = deserialize_game_and_state(text)
    >>> game2.num_players(), state2.is_chance_node()
    (4, True)
    """
    if state.get_game().num_players() != game.num_players():
        raise AdapterError("the state belongs to another game")
    return state.serialize()


def deserialize_game_and_state(text: str) -> tuple[TajMahalGame, TajMahalState]:
    """The game and state of a document :func:`serialize_game_and_state` wrote (no pickle).

    Use this, not ``pyspiel.deserialize_game_and_state``, for text from elsewhere.

    >>> deserialize_game_and_state('{"format": "tajmahal/move"}')
    Traceback (most recent call last):
    ...
    tajmahal.adapters.actions.AdapterError: not a python_tajmahal state document: $.format: ...
    """
    document = _read_document(text)
    params = {"players": document["players"], "deal_seeds": document["deal_seeds"]}
    game = pyspiel.load_game(GAME_NAME, params)
    return game, _rebuild(game, document)


class TajMahalObserver:
    """OpenSpiel's observer for ``python_tajmahal`` (``game.make_py_observer()``).

    ``tensor`` is the view's encoding, ``dict`` its fields by name (views
    into ``tensor``).  With ``private_info`` NONE (the public observer) the
    own hand is left out: zeros in the tensor, absent from the strings.

    >>> import pyspiel
    >>> game = pyspiel.load_game(GAME_NAME)
    >>> state = game.new_initial_state()
    >>> observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    >>> observer.string_from(state, 0).splitlines()[:2]
    ['seat 0', 'setup']
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
        self._observations = self.encoder.incremental()  # each seat's last observation reused
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {
            f.name: self.tensor[f.offset : f.offset + f.size].reshape(f.shape)
            for f in self.encoder.layout
        }

    def set_from(self, state: TajMahalState, player: int) -> None:
        """Write ``player``'s view of ``state`` into ``tensor`` (zeros during the setup).

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME)
        >>> state = game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> observer = game.make_py_observer()
        >>> observer.set_from(state, 2)
        >>> int(observer.dict["seat"][2]), int(observer.dict["hand"].sum())
        (1, 6)
        """
        node = state._node
        if isinstance(node, _Deal):
            self.tensor.fill(0)
            return
        record = node.record if isinstance(node, _Reshuffle) else node
        self.tensor[:] = self._observations.encode(record.state, player)
        if not self.private:
            self.dict["hand"].fill(0)

    def string_from(self, state: TajMahalState, player: int) -> str:
        """``player``'s information state (perfect recall) or observation, as text.

        >>> import pyspiel
        >>> game = pyspiel.load_game(GAME_NAME)
        >>> state = game.new_initial_state()
        >>> while state.is_chance_node():
        ...     state.apply_action(state.chance_outcomes()[0][0])
        >>> game.make_py_observer().string_from(state, 0)[:28]
        '{"format": "tajmahal/view", '
        """
        node = state._node
        if isinstance(node, _Deal):
            return node.info_string(state.get_game().setup, player, self.private)
        if self.perfect_recall:
            return node.info_string(player, self.private)
        record = node.record if isinstance(node, _Reshuffle) else node
        text = dumps(record.state.view(player))
        if self.private:
            return text
        document = json.loads(text)
        del document["hand"]
        return json.dumps(document)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, TajMahalGame)
