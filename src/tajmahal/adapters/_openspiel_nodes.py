"""The decision nodes and reshuffles of the OpenSpiel game ``python_tajmahal``.

A decision node holds the engine state and each seat's information trail; a move that
reshuffles the discard pile waits for the chance nodes that order the new deck.
"""

from __future__ import annotations

import functools
import json
from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import truediv
from typing import Any

from tajmahal.adapters._openspiel_setup import _cards, _Deal
from tajmahal.adapters.actions import action_space
from tajmahal.rules.moves import Move, PlayCards, TakeCard
from tajmahal.rules.reshuffles import ordering_reshuffles
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import tables

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


class _DecisionNode:
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
        parent: _DecisionNode | None = None,
    ) -> None:
        self.state = state
        self.starts = starts  #: per seat, its first hand and the public setup
        self.steps = steps
        self.length = length  #: the number of steps
        self.draws = draws  #: per seat, (step, cards it drew)
        #: the nearest node before whose information strings were asked for: this one's
        #: extend them.  Only those are kept alive (with their states), not every step's.
        self.parent = parent
        self._strings = None  # made on first use: most nodes are never asked for strings
        self._legal = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _DecisionNode:
        return self

    def __reduce__(self) -> tuple[Callable[..., _DecisionNode], tuple[Any, ...]]:
        # OpenSpiel's own C++ serialisation pickles a state's attributes: the node
        # travels as this library's document text (see openspiel_game's warning); imported
        # here: the saved documents are read into decision nodes
        from tajmahal.adapters._openspiel_saved import _node_document, _node_from_document

        return _node_from_document, (json.dumps(_node_document(self)),)

    def legal(self) -> _Legal:
        """The legal actions in order, and action -> the engine's own move (shared: read only)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _legal_table(self.state.legal_moves())
        return legal

    def next(
        self, after: GameState, action: int, supply: str = "", draws: Any = None
    ) -> _DecisionNode:
        """The node one step on: ``action`` made ``after`` (``supply``: its new supply's text)."""
        parent = self if self._strings is not None else self.parent
        return _DecisionNode(
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
        record: _DecisionNode,
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


_Node = _Deal | _DecisionNode | _Reshuffle


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


def _first_decision_node(state: GameState) -> _DecisionNode:
    public = _public_start(state)
    comps = state.components
    starts = tuple(f"hand {_cards(comps, hand)}\n{public}" for hand in state.hands)
    return _DecisionNode(state, starts, None, 0, ((),) * state.num_players)


def _play(record: _DecisionNode, action: int) -> _Node:
    """The node after ``action``: a decision node, or the chance nodes of a reshuffle it causes."""
    before = record.state
    move = _move(record, action)
    after = before.apply(move)  # most moves reshuffle nothing: applied as they are
    if after.reshuffles != before.reshuffles:  # applied again, its pile ordered by chance
        return _play_ordered(record, action, ())  # nodes (the seed's order dropped)
    return _advance(record, action, move, after)


def _move(record: _DecisionNode, action: int) -> Move:
    """The engine's move of ``action`` (decoded when not legal: ``apply`` says why)."""
    move = record.legal()[1].get(action)
    return action_space().decode(action) if move is None else move


def _play_ordered(record: _DecisionNode, action: int, orders: tuple[tuple[int, ...], ...]) -> _Node:
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


def _advance(record: _DecisionNode, action: int, move: Move, after: GameState) -> _DecisionNode:
    """The decision node after ``move``: its step, and who drew what (only when the deck moved)."""
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
