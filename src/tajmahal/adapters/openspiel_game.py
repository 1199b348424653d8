"""The OpenSpiel game ``python_tajmahal`` (extra ``tajmahal[openspiel]``).

Importing this module registers the game: ``pyspiel.load_game("python_tajmahal",
{"players": 4})``, played with the standard components.  Its one parameter is
``players`` (3 to 5, default 3).

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

import functools
import json
import random
from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import truediv
from typing import Any

import attrs

from tajmahal.adapters._extras import missing_extra

try:  # the extra's packages
    import numpy as np
    import pyspiel
except ImportError as missing:
    raise missing_extra(__name__, ("openspiel",), missing) from missing

from tajmahal.adapters.actions import AdapterError, action_space
from tajmahal.adapters.observations import observation_encoder
from tajmahal.adapters.pictures import state_text
from tajmahal.adapters.rewards import final_rewards
from tajmahal.rules.components import BonusKind, Components, standard_components
from tajmahal.rules.engine import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, new_game
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move, PlayCards, TakeCard
from tajmahal.rules.reshuffles import ordering_reshuffles
from tajmahal.rules.snapshot import evolve
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import tables
from tajmahal.serialize import dumps, from_document, to_document

__all__ = [
    "GAME_NAME",
    "STATE_FORMAT",
    "TajMahalGame",
    "TajMahalObserver",
    "TajMahalState",
    "deserialize_game_and_state",
    "serialize_game_and_state",
]

GAME_NAME = "python_tajmahal"
STATE_FORMAT = "tajmahal/openspiel-state"  #: the ``format`` of a serialised state
_STATE_VERSION = 1
_MAX_DOCUMENT = 4 << 20  #: characters: far above any game's document
_PARAMETERS = {"players": MIN_PLAYERS}

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


@attrs.frozen
class _Setup:
    """The chance model of the setup for one components set (see the module docstring)."""

    components: Components
    provinces: tuple[int, ...]  #: provinces the random tiles go to (board order)
    final_province: int
    fortresses: tuple[int, ...]  #: city indices of the fortresses that get a random tile
    taj_city: int
    taj_tile: int  #: index into components.bonus_tiles
    bonus_kinds: tuple[int, ...]  #: per distinct random bonus tile, its first index in bonus_tiles
    bonus_counts: tuple[int, ...]  #: per distinct random bonus tile, how many there are
    deck_counts: tuple[int, ...]  #: per card kind, how many the deck has
    cards: int  #: the deck's size

    @property
    def tiles(self) -> int:
        return len(self.provinces) + len(self.fortresses)

    @property
    def nodes(self) -> int:
        return self.tiles + self.cards


@functools.lru_cache(maxsize=4)
def _setup(components: Components) -> _Setup:
    board, t = components.board, tables(components)
    final = t.province_of[board.final_province]
    taj_index = next(
        i for i, tile in enumerate(components.bonus_tiles) if tile.kind is BonusKind.TAJ_MAHAL
    )
    squares = Counter(
        components.bonus_tiles.index(tile) for tile in components.bonus_tiles if tile.kind
        is not BonusKind.TAJ_MAHAL
    )
    kinds = tuple(sorted(squares))
    return _Setup(
        components=components,
        provinces=tuple(p for p in range(len(board.provinces)) if p != final),
        final_province=final,
        fortresses=tuple(
            t.city_of[c.id] for c in board.fortresses if c.id != board.taj_mahal_city
        ),
        taj_city=t.city_of[board.taj_mahal_city],
        taj_tile=taj_index,
        bonus_kinds=kinds,
        bonus_counts=tuple(squares[k] for k in kinds),
        deck_counts=t.deck_counts,
        cards=len(t.deck),
    )


@functools.lru_cache(maxsize=8)
def _blank_state(players: int) -> GameState:
    """A state whose deal the chance nodes replace (never viewed, so it holds no view memo)."""
    return new_game(players, seed=0)


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
        comps = standard_components()
        setup = _setup(comps)
        cards = len(comps.deck) + len(comps.special_cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space().size,
            max_chance_outcomes=max(len(comps.card_kinds), len(comps.board.provinces)),
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
        return _rebuild(self, document)


# ---------------------------------------------------------------------- the nodes


@attrs.frozen
class _Deal:
    """The setup in progress: the outcomes drawn so far (a chance node)."""

    players: int
    outcomes: tuple[int, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return self

    def owner(self, setup: _Setup, node: int) -> int | str:
        """Who gets node ``node``'s outcome: "tile", a seat, "supply" or "deck"."""
        card = node - setup.tiles
        if card < 0:
            return "tile"
        if card < HAND_SIZE * self.players:
            return card // HAND_SIZE
        return "supply" if card < (HAND_SIZE + 2) * self.players - 1 else "deck"

    def outcomes_now(self, setup: _Setup) -> list[tuple[int, float]]:
        node, drawn = len(self.outcomes), self.outcomes
        if node < len(setup.provinces):
            left = [p for p in setup.provinces if p not in drawn]
            return [(p, 1.0 / len(left)) for p in left]
        if node < setup.tiles:
            taken = Counter(drawn[len(setup.provinces) :])
            counts = [c - taken[i] for i, c in enumerate(setup.bonus_counts)]
        else:
            taken = Counter(drawn[setup.tiles :])
            counts = [c - taken[k] for k, c in enumerate(setup.deck_counts)]
        total = sum(counts)
        return [(i, c / total) for i, c in enumerate(counts) if c]

    def state(self, setup: _Setup) -> GameState:
        """The engine state the complete setup deals."""
        n, out = self.players, self.outcomes
        provinces = out[: len(setup.provinces)]
        bonus = [-1] * len(setup.components.board.cities)
        bonus[setup.taj_city] = setup.taj_tile
        for city, b in zip(setup.fortresses, out[len(setup.provinces) : setup.tiles], strict=True):
            bonus[city] = setup.bonus_kinds[b]
        cards = out[setup.tiles :]
        hands = tuple(tuple(sorted(cards[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(n))
        dealt = HAND_SIZE * n + 2 * n - 1
        changes = {
            "province_order": (*provinces, setup.final_province),
            "bonus": tuple(bonus),
            "hands": hands,
            "supply": tuple(sorted(cards[HAND_SIZE * n : dealt])),
            "deck": tuple(reversed(cards[dealt:])),  # the first card dealt is the top
        }
        return evolve(_blank_state(n), changes)

    def info_string(self, setup: _Setup, seat: int, private: bool) -> str:
        comps, t = setup.components, tables(setup.components)
        out = self.outcomes
        laid = out[: len(setup.provinces)]
        lines = [f"seat {seat}", "setup", "provinces " + " ".join(t.province_ids[p] for p in laid)]
        tiles = comps.bonus_tiles
        placed = zip(setup.fortresses, out[len(setup.provinces) : setup.tiles], strict=False)
        lines.append(
            "bonus " + " ".join(f"{t.city_ids[c]}={tiles[setup.bonus_kinds[b]]}" for c, b in placed)
        )
        mine, supply = [], []
        for node in range(setup.tiles, len(out)):
            owner = self.owner(setup, node)
            if owner == seat:
                mine.append(out[node])
            elif owner == "supply":
                supply.append(out[node])
        if private:
            lines.append(f"hand {_cards(comps, sorted(mine))}")
        lines.append(f"supply {_cards(comps, sorted(supply))}")
        lines.append(f"cards dealt {max(0, len(out) - setup.tiles)}")
        return "\n".join(lines)


#: the decisions so far, newest first: (earlier steps, action, new supply or "")
Steps = tuple[Any, int, str] | None


@functools.lru_cache(maxsize=1)
def _action_of_id() -> tuple[tuple[Move, ...], dict[int, int]]:
    """The action space's moves (the engine's own objects) and their numbers by id.

    The moves are kept here, alive, so no other object can have their ids."""
    moves = action_space().moves
    return moves, {id(move): number for number, move in enumerate(moves)}


#: a state's legal actions in increasing order, and action number -> the engine's move
_Legal = tuple[list[int], dict[int, Move]]


def _legal_table(moves: tuple[Move, ...]) -> _Legal:
    """The legal actions of ``moves`` and their moves.

    The engine hands out its own move objects (its tables hold them), so they are
    numbered by identity, without hashing a move.  Not cached across states: a table
    of every legal-moves tuple seen (1 in 3 found again over four random games) kept
    thousands of objects alive and cost more time than it saved."""
    try:
        numbers = list(map(_action_of_id()[1].__getitem__, map(id, moves)))
    except KeyError:  # a move the engine made elsewhere: looked up by value
        numbers = action_space()._numbers(moves)
    return sorted(numbers), dict(zip(numbers, moves, strict=True))


class _Record:
    """A decision node or the end: the engine state and each seat's information trail.

    Never changed after it is made (its two dicts are caches), so cloning shares
    it (OpenSpiel deep-copies a state's attributes).  A plain class with slots:
    one is made per step, faster than an attrs class.
    """

    __slots__ = ("_legal", "_strings", "draws", "length", "parent", "starts", "state", "steps")

    _legal: _Legal | None
    _strings: dict[tuple[int, bool], str] | None

    def __init__(
        self,
        state: GameState,
        starts: tuple[str, ...],
        steps: Steps,
        length: int,
        draws: tuple[tuple[tuple[int, str], ...], ...],
        parent: _Record | None = None,
    ) -> None:
        self.state = state
        self.starts = starts  #: per seat, its first hand and the public setup
        self.steps = steps
        self.length = length  #: the number of steps
        self.draws = draws  #: per seat, (step, cards it drew)
        #: the nearest record before whose information strings were asked for: this one's
        #: extend them.  Only those are kept alive (with their states), not every step's.
        self.parent = parent
        self._strings = None  # made on first use: most records are never asked for strings
        self._legal = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Record:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Record], tuple[Any, ...]]:
        # OpenSpiel's own C++ serialisation pickles a state's attributes: the record
        # travels as this library's document text (see the module's warning)
        return _record_from_document, (json.dumps(_record_document(self)),)

    def legal(self) -> _Legal:
        """The legal actions in order, and action -> the engine's own move (shared: read only)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _legal_table(self.state.legal_moves())
        return legal

    def next(self, after: GameState, action: int, supply: str = "", draws: Any = None) -> _Record:
        """The record one step on: ``action`` made ``after`` (``supply``: its new supply's text)."""
        parent = self if self._strings is not None else self.parent
        return _Record(
            after,
            self.starts,
            (self.steps, action, supply),
            self.length + 1,
            self.draws if draws is None else draws,
            parent,
        )

    def info_string(self, seat: int, private: bool = True) -> str:
        """The seat's information string: the nearest cached one before, plus the steps since."""
        key = (seat, private)
        strings = self._strings
        if strings is None:
            strings = self._strings = {}
        known = strings.get(key)
        if known is not None:
            return known
        record = self.parent
        while record is not None and (record._strings is None or key not in record._strings):
            record = record.parent
        if record is None or record._strings is None:  # none before: all at once (linear)
            text = self._info_string(seat, private)
        else:
            text = "\n".join([record._strings[key], *self._lines(seat, private, record.length)])
        strings[key] = text
        return text

    def _lines(self, seat: int, private: bool, first: int = 0) -> list[str]:
        """The lines of the steps from step ``first`` on."""
        lines = []
        steps = self.steps
        for _ in range(self.length - first):
            assert steps is not None
            steps, action, supply = steps
            lines.append(_action_text(action) + supply)
        lines.reverse()
        if private:
            for step, cards in reversed(self.draws[seat]):
                if step < first:
                    break
                lines[step - first] += f" [drew {cards}]"
        return lines

    def _info_string(self, seat: int, private: bool) -> str:
        start = self.starts[seat] if private else self.starts[seat].partition("\n")[2]
        return "\n".join([f"seat {seat}", start, *self._lines(seat, private)])


class _Reshuffle:
    """A move waiting for the chance nodes that order a reshuffled discard pile (D1).

    Never changed after it is made, so cloning shares it.  A plain class with slots:
    one is made per chance node, faster than an attrs class."""

    __slots__ = ("action", "chosen", "counts", "kinds", "orders", "pile", "record")

    def __init__(
        self,
        record: _Record,
        action: int,
        orders: tuple[tuple[int, ...], ...],
        pile: tuple[int, ...],
        chosen: tuple[int, ...],
        kinds: tuple[int, ...],
        counts: tuple[int, ...],
    ) -> None:
        self.record = record  #: the state before the move
        self.action = action
        self.orders = orders  #: the piles already ordered in this move (top first)
        self.pile = pile  #: the pile being ordered now (sorted kinds)
        self.chosen = chosen  #: its cards dealt so far, top first
        self.kinds = kinds  #: the kinds with cards not dealt yet, in order
        self.counts = counts  #: how many cards of each of those kinds are not dealt yet

    def __deepcopy__(self, memo: dict[int, Any]) -> _Reshuffle:
        return self

    def outcomes_now(self) -> list[tuple[int, float]]:
        total = len(self.pile) - len(self.chosen)
        return list(zip(self.kinds, map(truediv, self.counts, repeat(total)), strict=True))

    def deal(self, kind: int) -> _Reshuffle | None:
        """The node after dealing a card of ``kind`` next (None: not in the pile any more)."""
        kinds, counts = self.kinds, self.counts
        try:
            i = kinds.index(kind)
        except ValueError:
            return None
        count = counts[i] - 1
        if count:
            counts = (*counts[:i], count, *counts[i + 1 :])
        else:
            kinds, counts = (*kinds[:i], *kinds[i + 1 :]), (*counts[:i], *counts[i + 1 :])
        chosen = (*self.chosen, kind)
        return _Reshuffle(self.record, self.action, self.orders, self.pile, chosen, kinds, counts)

    def info_string(self, seat: int, private: bool) -> str:
        return (
            f"{self.record.info_string(seat, private)}\n{_action_text(self.action)} "
            f"[reshuffle {len(self.orders) + 1}: {len(self.chosen)} of {len(self.pile)} cards]"
        )


_Node = _Deal | _Record | _Reshuffle


class _PileToOrder(Exception):
    """Raised inside ``apply`` when a reshuffle needs an order no chance node gave yet."""

    def __init__(self, pile: tuple[int, ...]) -> None:
        super().__init__("a reshuffle waits for its chance nodes")
        self.pile = pile


def _step_list(steps: Steps) -> list[tuple[int, str]]:
    """The steps oldest first."""
    out = []
    while steps is not None:
        steps, action, supply = steps
        out.append((action, supply))
    out.reverse()
    return out


def _cards(components: Components, kinds: Iterable[int]) -> str:
    texts = _card_texts(components)
    return " ".join([texts[k] for k in kinds]) or "-"


@functools.lru_cache(maxsize=8)
def _card_texts(components: Components) -> tuple[str, ...]:
    return tuple(map(str, components.card_kinds))


@functools.lru_cache(maxsize=1024)
def _action_text(action: int) -> str:
    return str(action_space().decode(action))


def _public_start(state: GameState) -> str:
    view = state.view(0)
    bonus = " ".join(f"{city}={tile}" for city, tile in view.bonus_tiles.items())
    return (
        f"provinces {' '.join(view.province_order)}\nbonus {bonus}\n"
        f"supply {_cards(state.components, state.supply)}"
    )


def _first_record(state: GameState) -> _Record:
    public = _public_start(state)
    comps = state.components
    starts = tuple(f"hand {_cards(comps, hand)}\n{public}" for hand in state.hands)
    return _Record(state, starts, None, 0, ((),) * state.num_players)


def _play(record: _Record, action: int) -> _Node:
    """The node after ``action``: a record, or the chance nodes of a reshuffle it causes."""
    before = record.state
    move = _move(record, action)
    after = before.apply(move)  # most moves reshuffle nothing: applied as they are
    if after.reshuffles != before.reshuffles:  # applied again, its pile ordered by chance
        return _play_ordered(record, action, ())  # nodes (the seed's order dropped)
    return _advance(record, action, move, after)


def _move(record: _Record, action: int) -> Move:
    """The engine's move of ``action`` (decoded when not legal: ``apply`` says why)."""
    move = record.legal()[1].get(action)
    return action_space().decode(action) if move is None else move


def _play_ordered(record: _Record, action: int, orders: tuple[tuple[int, ...], ...]) -> _Node:
    """The node after ``action``, each reshuffle it makes ordered by ``orders`` (top card
    first) while there are orders, then a reshuffle node waiting for its chance nodes."""
    move = _move(record, action)
    used = 0

    def order(pile: tuple[int, ...], index: int) -> tuple[int, ...]:
        nonlocal used
        if used == len(orders):
            raise _PileToOrder(pile)
        used += 1
        return tuple(reversed(orders[used - 1]))  # top card last, as the engine keeps decks

    try:
        with ordering_reshuffles(order):
            after = record.state.apply(move)
    except _PileToOrder as waiting:
        pile = waiting.pile
        counted = sorted(Counter(pile).items())
        kinds, counts = tuple(k for k, _ in counted), tuple(c for _, c in counted)
        return _Reshuffle(record, action, orders, pile, (), kinds, counts)
    return _advance(record, action, move, after)


def _advance(record: _Record, action: int, move: Move, after: GameState) -> _Record:
    """The record after ``move``: its step, and who drew what (only when the deck moved)."""
    before = record.state
    if after.deck is before.deck and after.reshuffles == before.reshuffles:
        return record.next(after, action)
    supply = ""
    kind_of = tables(before.components).kind_of
    mover = before.current_player
    taken = kind_of[move.card] if isinstance(move, TakeCard) else None
    if after.supply is not before.supply:
        expected = _without(sorted(before.supply), () if taken is None else (taken,))
        if expected != sorted(after.supply):
            supply = f" [supply {_cards(after.components, after.supply)}]"
    draws = record.draws
    for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
        if old is new:
            continue
        expected = sorted(old)
        if seat == mover and isinstance(move, PlayCards):
            played = [kind_of[c] for c in (move.colored, move.extra) if c is not None]
            expected = _without(expected, sorted(played))
        if seat == mover and taken is not None:
            insort(expected, taken)
        drawn = _without(sorted(new), expected)
        if drawn:
            entry = (record.length, _cards(after.components, drawn))
            draws = (*draws[:seat], (*draws[seat], entry), *draws[seat + 1 :])
    return record.next(after, action, supply, draws)


def _without(kinds: list[int], removed: Iterable[int]) -> list[int]:
    """The sorted ``kinds`` less one of each of the sorted ``removed`` it holds (a multiset
    difference, as ``Counter(kinds) - Counter(removed)``)."""
    out: list[int] = []
    it = iter(removed)
    pending = next(it, None)
    for kind in kinds:
        while pending is not None and pending < kind:
            pending = next(it, None)
        if pending is not None and pending == kind:
            pending = next(it, None)
        else:
            out.append(kind)
    return out


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
        self._node: _Node = _Deal(game.players, ())
        self._base: _Record | None = None  #: where history() starts (None: the first node)

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
                f"{self.get_game().setup.nodes} chance nodes drawn"
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
        if type(node) is not _Record:
            return _CHANCE
        player = node.state.current_player
        return _TERMINAL if player is None else player

    def _legal_actions(self, player: int) -> list[int]:
        node = self._node
        if type(node) is not _Record:
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
        if type(node) is _Record:
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
        deal = _Deal(node.players, (*node.outcomes, action))
        self._node = _first_record(deal.state(setup)) if len(deal.outcomes) == setup.nodes else deal

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
        return type(node) is _Record and node.state.is_over

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
        clone._node = clone._base = _Record(sampled, starts, record.steps, record.length, draws)
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
        base = self._base
        return json.dumps(
            {
                "format": STATE_FORMAT,
                "version": _STATE_VERSION,
                "players": self.num_players(),
                "base": None if base is None else _record_document(base),
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


# ---------------------------------------------------------------------- resampling


def _redeal(setup: _Setup, deal: _Deal, seat: int, rng: random.Random) -> list[int]:
    """The outcomes of ``deal`` with every card ``seat`` has not seen drawn again."""
    out = list(deal.outcomes)
    hidden = [
        node
        for node in range(setup.tiles, len(out))
        if deal.owner(setup, node) not in (seat, "supply")
    ]
    pool = Counter(dict(enumerate(setup.deck_counts)))
    pool.subtract(out[node] for node in range(setup.tiles, len(out)) if node not in hidden)
    cards = list(pool.elements())
    rng.shuffle(cards)
    for node, card in zip(hidden, cards, strict=False):
        out[node] = card
    return out


# ---------------------------------------------------------------------- serialisation


def _record_document(record: _Record) -> dict[str, Any]:
    return {
        "state": to_document(record.state),
        "starts": list(record.starts),
        "steps": [[a, s] for a, s in _step_list(record.steps)],
        "draws": [[[step, cards] for step, cards in seat] for seat in record.draws],
    }


def _record_from_document(text: str) -> _Record:
    document = json.loads(text)
    return _read_record(document, ("record",))


def _problem(path: tuple[str | int, ...], message: str) -> AdapterError:
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return AdapterError(f"not a python_tajmahal state document: {where}: {message}")


def _strings(value: Any, path: tuple[str | int, ...]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _problem(path, "expected a list of strings")
    return value


def _int(value: Any, path: tuple[str | int, ...], below: int) -> int:
    if type(value) is not int or not 0 <= value < below:
        raise _problem(path, f"expected an integer from 0 to {below - 1}, got {value!r:.40}")
    return value


def _read_record(document: Any, path: tuple[str | int, ...]) -> _Record:
    if not isinstance(document, dict) or set(document) != {"state", "starts", "steps", "draws"}:
        raise _problem(path, "expected an object with state, starts, steps and draws")
    try:
        state = from_document(document["state"])
    except TajMahalError as exc:
        raise _problem((*path, "state"), str(exc)) from None
    if not isinstance(state, GameState):
        raise _problem((*path, "state"), "expected a tajmahal/state document")
    n, size = state.num_players, action_space().size
    starts = _strings(document["starts"], (*path, "starts"))
    if len(starts) != n:
        raise _problem((*path, "starts"), f"expected {n} strings")
    steps: Steps = None
    raw_steps = document["steps"]
    if not isinstance(raw_steps, list):
        raise _problem((*path, "steps"), "expected a list")
    for i, step in enumerate(raw_steps):
        if not isinstance(step, list) or len(step) != 2 or not isinstance(step[1], str):
            raise _problem((*path, "steps", i), "expected [action, supply text]")
        steps = (steps, _int(step[0], (*path, "steps", i, 0), size), step[1])
    raw_draws = document["draws"]
    if not isinstance(raw_draws, list) or len(raw_draws) != n:
        raise _problem((*path, "draws"), f"expected {n} lists")
    draws = []
    for s, seat in enumerate(raw_draws):
        if not isinstance(seat, list):
            raise _problem((*path, "draws", s), "expected a list")
        entries = []
        for i, entry in enumerate(seat):
            where = (*path, "draws", s, i)
            if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], str):
                raise _problem(where, "expected [step, cards text]")
            entries.append((_int(entry[0], (*where, 0), max(1, len(raw_steps))), entry[1]))
        draws.append(tuple(entries))
    return _Record(state, tuple(starts), steps, len(raw_steps), tuple(draws))


def _read_document(text: Any) -> dict[str, Any]:
    """The checked JSON object of a serialised state; AdapterError for anything else."""
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError:
            raise _problem((), "not UTF-8 text") from None
    if not isinstance(text, str):
        raise AdapterError(f"a serialised python_tajmahal state is text, got {type(text).__name__}")
    if len(text) > _MAX_DOCUMENT:
        raise _problem((), f"longer than {_MAX_DOCUMENT} characters")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        raise _problem((), "not JSON (OpenSpiel's pickled form is never read)") from None
    if not isinstance(document, dict):
        raise _problem((), "expected a JSON object")
    if document.get("format") != STATE_FORMAT or document.get("version") != _STATE_VERSION:
        raise _problem(("format",), f"expected format {STATE_FORMAT!r}, version {_STATE_VERSION}")
    if set(document) != {"format", "version", "players", "base", "history"}:
        raise _problem((), "expected the keys format, version, players, base and history")
    players = document["players"]
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise _problem(("players",), "expected 3, 4 or 5")
    if not isinstance(document["history"], list):
        raise _problem(("history",), "expected a list of actions")
    return document


def _rebuild(game: TajMahalGame, document: dict[str, Any]) -> TajMahalState:
    state: TajMahalState = game.new_initial_state()
    if document["base"] is not None:
        base = _read_record(document["base"], ("base",))
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
    game = pyspiel.load_game(GAME_NAME, {"players": document["players"]})
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
