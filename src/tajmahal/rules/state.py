"""GameState: one immutable snapshot of a game (the API reference: docs/reference/api.md).

The fields are a compact representation: cards are *kind* indices into
``components.card_kinds``, cities index ``components.board.cities``, seats are
ints and ``-1`` means "nobody".  Use the properties and :meth:`GameState.view`
for friendly values; the engine (:mod:`tajmahal.rules.engine`) makes states.
"""

from __future__ import annotations

from typing import Any

import attrs

from tajmahal.rules.components import Card, Components
from tajmahal.rules.legal import legal_moves as _legal_moves
from tajmahal.rules.moves import Move
from tajmahal.rules.sampling import register_state_class
from tajmahal.rules.snapshot import Phase, evolve
from tajmahal.rules.transitions import apply as _apply
from tajmahal.rules.views import PlayerView, make_view

__all__ = ["GameState", "Phase", "evolve"]


Seats = tuple[int, ...]
Kinds = tuple[int, ...]


# No __weakref__ slot: it would sit after the fields and forbid evolve's class swap.
# cache_hash: a state is hashed once (its hash walks every field), not on every call.
@attrs.frozen(repr=False, weakref_slot=False, cache_hash=True)
class GameState:
    """An immutable game state; build one with :func:`tajmahal.new_game`.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=4, seed=7)
    >>> state.current_player, state.visit, state.is_over
    (0, 1, False)
    >>> after = state.apply(state.legal_moves()[0])
    >>> after is not state and state.current_player == 0
    True
    """

    components: Components
    seed: int
    num_players: int
    first_player: int
    visit: int  #: 1..12
    phase: Phase
    current_player: int | None  #: the seat owing the next move; None once the game is over
    hands: tuple[Kinds, ...]  #: per seat, sorted card kinds in hand (special cards included)
    table: tuple[Kinds, ...]  #: per seat, card kinds played this visit, in play order
    withdrawn: tuple[bool, ...]
    visit_colors: tuple[Any, ...]  #: per seat, the Color fixed this visit (P2) or None
    supply: Kinds  #: sorted card kinds face up
    deck: Kinds  #: the draw deck, top card last
    discard: Kinds  #: sorted card kinds
    reshuffles: int  #: how often the discard pile became the deck (D1)
    scores: tuple[int, ...]
    province_order: tuple[int, ...]  #: province index by visit - 1 (S2)
    normal_palaces: Seats  #: per city, owner of the normal palace or -1
    crown_palaces: Seats  #: per city, owner of the crown palace or -1
    bonus: tuple[int, ...]  #: per city, index into components.bonus_tiles or -1
    court_influence: tuple[bool, ...]  #: per influence symbol (INFLUENCE order), in the court?
    court_crown: bool
    court_province_tile: bool
    province_tiles: tuple[tuple[int, ...], ...]  #: per seat, tile numbers owned
    commodity_tiles: tuple[tuple[int, ...], ...]  #: per seat, bonus tile indices owned
    influence: tuple[tuple[int, ...], ...]  #: per seat, influence tiles held (INFLUENCE order)
    special_holder: Seats  #: per Special (enum order), holder or -1 (beside the board)
    known: tuple[Kinds, ...]  #: per seat, sorted kinds publicly known to be in hand
    pending_palaces: int = 0
    pending_crown: bool = False
    pending_province: bool = False
    pending_takes: int = 0
    _legal: Any = attrs.field(default=None, init=False, eq=False, hash=False)
    #: the converted parts of the last view along this state's history (views.make_view);
    #: evolve hands it on to the next state, whose view reuses what did not change
    _view_memo: Any = attrs.field(
        default=None, init=False, eq=False, hash=False, metadata={"evolve": "share"}
    )

    # ------------------------------------------------------------------ public API
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move for :attr:`current_player`, in a fixed order, without duplicates.

        >>> import tajmahal as tm
        >>> moves = tm.new_game(num_players=3, seed=1).legal_moves()
        >>> len(moves), str(moves[0]), str(moves[-1])
        (6, 'play red:elephant+monk', 'withdraw')
        """
        legal = self._legal
        if legal is None:
            legal = _legal_moves(self)
            object.__setattr__(self, "_legal", legal)
        return legal  # type: ignore[no-any-return]

    def apply(self, move: object, *, seat: int | None = None) -> GameState:
        """The state after ``move``; ``self`` is unchanged.

        ``seat``, if given, is the seat claiming the move: a move made out of
        turn raises :class:`~tajmahal.IllegalMoveError` as any illegal move does.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> after = state.apply(tm.Withdraw())
        >>> after.withdrawn, state.withdrawn
        ((True, False, False), (False, False, False))
        >>> state.apply(tm.Withdraw(), seat=2)
        Traceback (most recent call last):
        ...
        tajmahal.rules.errors.IllegalMoveError: cannot withdraw for seat 2: it is seat 0's decision
        """
        return _apply(self, move, seat)

    def view(self, seat: object) -> PlayerView:  # object: checked (also in the compiled build)
        """What ``seat`` may know (docs/rules.md I1–I4): public facts and its own hand.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> view = state.view(1)
        >>> view.seat, view.hand == state.hand(1), view.hand_sizes
        (1, True, (6, 6, 6))
        """
        return make_view(self, seat)

    @property
    def is_over(self) -> bool:
        """True once the 12th visit has ended and final scoring is done.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> while not state.is_over:  # always the last legal move: withdraw when playing
        ...     state = state.apply(state.legal_moves()[-1])
        >>> state.is_over, state.visit, state.current_player, state.legal_moves()
        (True, 12, None, ())
        """
        return self.phase is Phase.OVER

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the highest final score (G3); empty before the end.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> state.winners
        ()
        >>> while not state.is_over:
        ...     state = state.apply(state.legal_moves()[0])
        >>> state.scores, state.winners
        ((37, 49, 32), (1,))
        """
        if self.phase is not Phase.OVER:
            return ()
        best = max(self.scores)
        return tuple(s for s, v in enumerate(self.scores) if v == best)

    @property
    def province(self) -> str:
        """Id of the province visited now.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> state.province, tm.place_tiles(state.components, seed=1).province_order[0]
        ('thatta', 'thatta')
        """
        return self.components.board.provinces[self.province_order[self.visit - 1]].id

    @property
    def starting_player(self) -> int:
        """The seat that started the current visit (S8, E3).

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1, first_player=2)
        >>> state.starting_player
        2
        >>> while state.visit == 1:
        ...     state = state.apply(state.legal_moves()[0])
        >>> state.visit, state.starting_player  # E3: one seat clockwise
        (2, 0)
        """
        return (self.first_player + self.visit - 1) % self.num_players

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand (hidden information: for the state's owner only).

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> [str(card) for card in state.hand(0)[:3]]
        ['red:elephant+monk', 'red:elephant+princess', 'yellow:elephant+elephant']
        >>> len(state.hand(0)), state.view(1).hand_sizes[0]  # seat 1 sees only the count
        (6, 6)
        """
        kinds = self.components.card_kinds
        return tuple(kinds[k] for k in self.hands[seat])

    def __repr__(self) -> str:
        return (
            f"<GameState {self.num_players} players, seed {self.seed}, visit {self.visit}, "
            f"{self.phase.value}, current {self.current_player}, scores {list(self.scores)}>"
        )

    def _repr_svg_(self) -> str | None:
        """The board as an SVG picture, as Jupyter shows it (public facts only)."""
        from tajmahal.rules.display import svg_picture

        return svg_picture(self)


register_state_class(GameState)  # samples of views are GameStates (see views)
