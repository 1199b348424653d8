"""The fixed action space: one stable integer per possible move of a components set.

The layout, for the standard components (585 actions)::

    0                       withdraw
    1 ...                   play: per colored card kind (in card order), the card
                            alone, then with each white or special card kind
    then                    palace <city>, per city in board order
    then                    crown <city>, per city in board order
    then                    take <card>, per deck card kind (no special cards)

Card order is :attr:`tajmahal.Components.card_kinds`; city order is the
board's.  The numbers depend only on the components, never on a game, so a
policy trained on them stays valid across games.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from tajmahal.adapters._extras import missing_extra

try:  # the extra's packages
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:
    raise missing_extra(__name__, ("gymnasium", "pettingzoo", "openspiel"), missing) from missing

from tajmahal.rules.components import COLORED, Color, Components, standard_components
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.legal import WITHDRAW
from tajmahal.rules.moves import (
    Move,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
    Withdraw,
)
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import tables
from tajmahal.rules.views import PlayerView

__all__ = ["ActionSpace", "AdapterError", "action_space"]

Mask = npt.NDArray[np.int8]


class AdapterError(TajMahalError):
    """A value an adapter cannot use (an unknown action number, a move of other components...).

    >>> ActionSpace().decode(10_000)
    Traceback (most recent call last):
    ...
    tajmahal.adapters.actions.AdapterError: action 10000 is not in this action space: ...
    """


class ActionSpace:
    """Every possible move of a components set, numbered ``0 .. size - 1``.

    >>> import tajmahal as tm
    >>> space = ActionSpace(tm.standard_components())
    >>> space.size, space.encode(tm.Withdraw()), str(space.decode(1))
    (585, 0, 'play red:vizier+general')
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> [str(space.decode(a)) for a in space.legal_actions(state)][-2:]
    ['play green:vizier+princess', 'play green:elephant+general']
    """

    def __init__(self, components: Components | None = None) -> None:
        comps = components if components is not None else standard_components()
        if not isinstance(comps, Components):
            raise AdapterError(
                f"components must be a tajmahal.Components, got {type(comps).__name__}"
            )
        self.components = comps
        kinds = comps.card_kinds
        extras = [k for k in kinds if k.color in (Color.WHITE, Color.SPECIAL)]
        moves: list[Move] = [Withdraw()]
        for card in kinds:
            if card.color in COLORED:
                moves.append(PlayCards(card))
                moves.extend(PlayCards(card, extra) for extra in extras)
        cities = [c.id for c in comps.board.cities]
        moves.extend(PlacePalace(c) for c in cities)
        moves.extend(PlaceCrownPalace(c) for c in cities)
        moves.extend(TakeCard(k) for k in kinds if k.color is not Color.SPECIAL)
        # the engine's own objects where it has them: apply finds those by identity
        own = _engine_moves(comps)
        self._moves: tuple[Move, ...] = tuple(own.get(m, m) for m in moves)
        self._index: dict[Move, int] = {m: i for i, m in enumerate(moves)}
        self._by_identity: dict[int, tuple[Move, int]] = {}
        #: the number of each move object of ``_moves`` by its id (they live as long as this)
        self._own_numbers = {id(m): i for i, m in enumerate(self._moves)}

    @property
    def size(self) -> int:
        """How many actions there are (the ``n`` of a ``Discrete(n)`` space).

        >>> ActionSpace().size
        585
        """
        return len(self._moves)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move, indexed by its action number.

        >>> str(ActionSpace().moves[-1])
        'take white:elephant'
        """
        return self._moves

    def encode(self, move: Move) -> int:
        """The action number of ``move``; :class:`AdapterError` for a move of other components.

        >>> import tajmahal as tm
        >>> space = ActionSpace()
        >>> space.encode(tm.PlacePalace('agra')) == 441 + [c.id for c in
        ...     tm.standard_components().board.cities].index('agra')
        True
        >>> space.encode(tm.PlacePalace('atlantis'))
        Traceback (most recent call last):
        ...
        tajmahal.adapters.actions.AdapterError: PlacePalace(city='atlantis') has no action ...
        """
        try:
            return self._index[move]
        except (KeyError, TypeError):
            raise AdapterError(
                f"{move!r} has no action number: not a move of the "
                f"{self.components.name!r} components"
            ) from None

    def decode(self, action: int) -> Move:
        """The move numbered ``action`` (any int-like value, numpy integers included).

        >>> str(ActionSpace().decode(0))
        'withdraw'
        """
        moves = self._moves
        if type(action) is int and 0 <= action < len(moves):  # the common case, checked at once
            return moves[action]
        try:
            index = int(action)
            if index != action or not 0 <= index < len(moves):
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            raise AdapterError(
                f"action {action!r} is not in this action space: "
                f"expected an integer from 0 to {len(moves) - 1}"
            ) from None
        return moves[index]

    def legal_actions(self, state: GameState | PlayerView) -> list[int]:
        """The action numbers of the legal moves, ascending (see :meth:`mask` for views).

        >>> import tajmahal as tm
        >>> ActionSpace().legal_actions(tm.new_game(num_players=3, seed=1))
        [0, 67, 78, 210, 232, 276]
        """
        return sorted(self._numbers(self.legal_moves(state)))

    def mask(self, state: GameState | PlayerView) -> Mask:
        """An int8 array of :attr:`size` entries, 1 where the action is legal.

        Given a view, the mask is that of the seat's own decision: all zeros
        when the view's seat does not owe the next move (or the game is over).

        >>> import tajmahal as tm
        >>> space = ActionSpace()
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> mask = space.mask(state)
        >>> mask.dtype.name, int(mask.sum()), bool((space.mask(state.view(0)) == mask).all())
        ('int8', 6, True)
        >>> int(space.mask(state.view(1)).sum())
        0
        """
        legal = bytearray(len(self._moves))  # item stores, then one array: faster than numpy's
        moves = state.legal_moves() if type(state) is GameState else self.legal_moves(state)
        own = self._own_numbers
        try:
            for move in moves:  # the engine's own move objects: found by identity
                legal[own[id(move)]] = 1
        except KeyError:  # a move made elsewhere
            for number in self._numbers(moves):
                legal[number] = 1
        return np.frombuffer(legal, _INT8)  # owns nothing else: a new mask each call

    def _numbers(self, moves: Sequence[Move]) -> list[int]:
        """The action numbers of ``moves``, looking the engine's own move objects up by identity.

        The engine hands out the same move objects again and again (its tables
        hold them); an identity lookup skips hashing them.
        """
        known, index = self._by_identity, self._index
        numbers = []
        for move in moves:
            hit = known.get(id(move))
            if hit is not None and hit[0] is move:
                numbers.append(hit[1])
                continue
            number = index[move]
            if len(known) < 4 * len(self._moves):  # bounded: moves made elsewhere are new objects
                known[id(move)] = (move, number)  # the move is kept alive, so its id stays its own
            numbers.append(number)
        return numbers

    @staticmethod
    def legal_moves(state: GameState | PlayerView) -> Sequence[Move]:
        """The legal moves of a state, or of a view's seat when it owes the next move.

        A view's seat sees its own hand and everything public, which is all
        its legal moves depend on: they are those of any state the view
        could come from.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> ActionSpace.legal_moves(state.view(0)) == state.legal_moves()
        True
        """
        if isinstance(state, GameState):
            return state.legal_moves()
        if not isinstance(state, PlayerView):
            raise AdapterError(
                f"expected a tajmahal.GameState or PlayerView, got {type(state).__name__}"
            )
        if state.current_player != state.seat:
            return ()
        return state.sample(random.Random(0)).legal_moves()


_INT8 = np.dtype(np.int8)


def _engine_moves(components: Components) -> dict[Move, Move]:
    """The move objects the engine hands out for these components, each by itself."""
    t = tables(components)
    own: list[Move] = [WITHDRAW, *t.play.values(), *t.place, *t.crown, *t.take]
    return {m: m for m in own}


@functools.lru_cache(maxsize=8)
def action_space(components: Components | None = None) -> ActionSpace:
    """The (cached, shared) action space of ``components`` (default: the standard ones).

    >>> action_space() is action_space()
    True
    """
    return ActionSpace(components)
