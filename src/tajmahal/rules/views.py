"""PlayerView: what one seat may know (docs/rules.md §11), and sampling the hidden rest.

A view is computed from public facts (I1) and the seat's own hand (I2) only,
so two states that differ in nothing the seat may see give equal views (I4).
:meth:`PlayerView.sample` goes the other way: it deals the cards the seat
cannot see at random and returns an ordinary :class:`GameState` whose view
for that seat is the view itself (what ISMCTS-style search bots need).
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from tajmahal.rules.components import (
    BonusTile,
    Card,
    Color,
    Commodity,
    Components,
    ProvinceTile,
    Special,
    Symbol,
)
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.problems import InvalidStateError, Problem
from tajmahal.rules.sampling import Sampler
from tajmahal.rules.snapshot import Phase, fast_constructor
from tajmahal.rules.tables import tables
from tajmahal.rules.viewparts import Memo, Palaces, Public, per_seat, with_specials

if TYPE_CHECKING:  # annotations only: the state module imports this one
    from tajmahal.rules.state import GameState

__all__ = ["PlayerView", "deferred_view", "lazy_view", "make_view"]



# No __weakref__ slot, so that make_view can build views the fast way (snapshot.fast_constructor);
# cache_hash: a view is hashed once.
@attrs.frozen(weakref_slot=False, cache_hash=True, repr=False)
class PlayerView:
    """Everything public (I1) plus ``seat``'s own hand (I2), and nothing else (I3, I4).

    Two states that differ only in what ``seat`` may not see give equal views.

    >>> import tajmahal as tm
    >>> view = tm.new_game(num_players=4, seed=7).view(1)
    >>> view.seat, len(view.hand), view.hand_sizes, view.deck_size
    (1, 6, (6, 6, 6, 6), 65)
    >>> import random
    >>> view.sample(random.Random(0)).view(1) == view
    True
    """

    components: Components = attrs.field(repr=False)
    seat: int
    num_players: int
    first_player: int
    visit: int  #: 1..12
    province: str  #: id of the province visited now
    province_order: tuple[str, ...]  #: province ids in visiting order (tiles lie face up, S2)
    phase: Phase
    current_player: int | None
    hand: tuple[Card, ...]  #: this seat's hand, in card order
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    table: tuple[tuple[Card, ...], ...]  #: per seat, cards played this visit (empty once withdrawn)
    withdrawn: tuple[bool, ...]
    visit_colors: tuple[Color | None, ...]
    supply: tuple[Card, ...]
    deck_size: int
    discard: tuple[Card, ...]
    court_influence: frozenset[Symbol]
    court_crown: bool
    court_province_tile: ProvinceTile | None
    palaces: Palaces  #: city id -> (normal palace owner, crown palace owner), every city
    bonus_tiles: FrozenMap[str, BonusTile]  #: city id -> bonus tile still on the board
    province_tiles: tuple[tuple[ProvinceTile, ...], ...]
    commodity_tiles: tuple[tuple[Commodity, ...], ...]  #: per seat, commodity bonus tiles
    influence_tiles: tuple[tuple[Symbol, ...], ...]
    special_holder: FrozenMap[Special, int | None]  #: None: beside the board
    #: per seat, the cards known from public history to be in its hand: cards it took
    #: from the supply and has not played since, and the special cards it holds in hand
    known_cards: tuple[tuple[Card, ...], ...]
    pending_palaces: int
    pending_crown: bool
    pending_takes: int
    pending_province: bool  #: the withdrawing seat won the province tile, scored after its palaces
    reshuffles: int = 0  #: how often the discard pile became the draw deck (D1)
    _sampler: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    #: what builds a view made by deferred_view() not yet filled in (else None)
    _pending: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    def __repr__(self) -> str:
        """A summary in the manner of :class:`GameState`'s, with the seat's hand.

        >>> import tajmahal as tm
        >>> tm.new_game(num_players=4, seed=7).view(1)
        <PlayerView seat 1 of 4, visit 1, play, current 0, scores [0, 0, 0, 0], hand 6 cards>
        """
        return (
            f"<PlayerView seat {self.seat} of {self.num_players}, visit {self.visit}, "
            f"{self.phase.value}, current {self.current_player}, scores {list(self.scores)}, "
            f"hand {len(self.hand)} cards>"
        )

    @property
    def is_over(self) -> bool:
        """True once the game has ended.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> state.view(0).is_over
        False
        >>> while not state.is_over:  # always the last legal move: withdraw when playing
        ...     state = state.apply(state.legal_moves()[-1])
        >>> view = state.view(0)
        >>> view.is_over, view.phase, view.scores
        (True, <Phase.OVER: 'over'>, (10, 15, 11))
        """
        return self.phase is Phase.OVER

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with this view, the unseen cards dealt at random.

        The seat's own hand, every public fact and every known card are kept;
        the other cards the seat cannot see are dealt uniformly at random to
        the other hands (filling each to its size) and the draw deck (in a
        random order), and the state gets a fresh seed drawn from ``rng`` (so
        future reshuffles are unknown too).  The result is an ordinary state,
        playable to the end, and ``state.view(self.seat) == self``.  Raises
        :class:`~tajmahal.rules.problems.InvalidStateError` for a view no
        state can have (only possible for a view built by hand).

        >>> import random, tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=5)
        >>> view = state.view(0)
        >>> guess = view.sample(random.Random(1))
        >>> guess.hand(0) == state.hand(0), guess.view(0) == view
        (True, True)
        """
        sampler = self._sampler
        if sampler is not None:
            return sampler.sample(rng)  # type: ignore[no-any-return]
        try:  # the first sample checks the view: a view built by hand may be inconsistent
            sampler = Sampler(self)
            state = sampler.sample(rng)
            # operator.eq: attrs' __eq__ itself (compiled code may not reach it through ==)
            consistent = operator.eq(state.view(self.seat), self)
        except InvalidStateError:
            raise
        except (IndexError, KeyError, ValueError, TypeError, AttributeError) as exc:
            problem = Problem((), f"its parts do not fit together ({type(exc).__name__})")
            raise InvalidStateError([problem], "view") from None
        if not consistent:
            problem = Problem((), "no state has this view (a sampled state shows another one)")
            raise InvalidStateError([problem], "view")
        object.__setattr__(self, "_sampler", sampler)
        return state

    def _repr_svg_(self) -> str | None:
        """The board as this seat sees it, as an SVG picture (as Jupyter shows it)."""
        from tajmahal.rules.display import svg_picture

        return svg_picture(self)


_new_view = fast_constructor(PlayerView)  # PlayerView(...) without attrs' per-field setattr
_SLOTS = tuple(name for name in vars(PlayerView)["__slots__"] if name != "_pending")


def lazy_view(state: GameState, seat: object) -> PlayerView:
    """``state.view(seat)``, built the first time one of its attributes is read.

    The referee hands these to bots: a bot that never looks at its view (a
    random bot) costs no view.  It is an ordinary :class:`PlayerView` in
    every way (type, fields, equality, pickling); until it is read it holds
    ``state`` privately.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=2)
    >>> view = lazy_view(state, 1)
    >>> view.hand == state.hand(1), view == state.view(1)
    (True, True)
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise TajMahalError(f"seat must be 0..{state.num_players - 1}, got {seat!r}")
    return deferred_view(functools.partial(make_view, state, seat))


def deferred_view(build: Callable[[], PlayerView]) -> PlayerView:
    """A view filled in from ``build()`` the first time one of its attributes is read.

    ``build`` runs at most once (twice only if two threads read at once: both get the
    same view); what it raises, the first read raises.  See :func:`lazy_view`.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=2)
    >>> view = deferred_view(lambda: state.view(0))
    >>> view.seat, view == state.view(0)
    (0, True)
    """
    view: PlayerView = object.__new__(PlayerView)
    object.__setattr__(view, "_pending", build)
    return view


def _fill_on_first_use(view: PlayerView, name: str) -> Any:
    """PlayerView.__getattr__: reached only for an attribute that is not set, which for a
    view made by :func:`lazy_view` means that it has not been filled in yet."""
    try:
        pending = object.__getattribute__(view, "_pending")
    except AttributeError:
        pending = None
    if pending is None:
        raise AttributeError(f"'PlayerView' object has no attribute {name!r}")
    full = pending()
    for slot in _SLOTS:
        object.__setattr__(view, slot, object.__getattribute__(full, slot))
    object.__setattr__(view, "_pending", None)  # last: a second reader fills it in too
    return object.__getattribute__(view, name)


# hidden from mypy (a __getattr__ it could see would make every misspelt view attribute an
# Any); a partialmethod, so that it binds as a method also when compiled (a compiled
# function is not a descriptor)
setattr(PlayerView, "__getattr__", functools.partialmethod(_fill_on_first_use))  # noqa: B010


def make_view(state: GameState, seat: object) -> PlayerView:
    """Build ``seat``'s view of ``state`` (use :meth:`GameState.view`).

    Successive states share their unchanged fields
    (:func:`~tajmahal.rules.snapshot.evolve`), so a view reuses every part of
    the last view built along its state's history whose fields are the very
    same objects (the memo a state hands on to the next); only what
    changed is converted again.  Every part is immutable.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=2)
    >>> make_view(state, 2) == state.view(2), make_view(state, 2).hand == state.hand(2)
    (True, True)
    >>> after = state.apply(state.legal_moves()[0])
    >>> after.view(2).palaces is state.view(2).palaces  # no palace placed: the same map
    True
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise TajMahalError(f"seat must be 0..{state.num_players - 1}, got {seat!r}")
    comps = state.components
    t = tables(comps)
    old: Memo | None = state._view_memo
    if old is None or old.components is not comps or len(old.hands) != state.num_players:
        old = Memo.blank(comps, state.num_players)
    public = old.public
    if public is None or not public.matches(state):
        public = Public(state, t, public)
    kind = t.kinds.__getitem__

    def cards(ks: tuple[int, ...]) -> tuple[Card, ...]:
        return tuple(map(kind, ks))

    memo = Memo()
    memo.components, memo.public = comps, public
    raw: Any = state.supply
    memo.supply = raw, old.supply[1] if raw is old.supply[0] else cards(raw)
    raw = state.discard
    memo.discard = raw, old.discard[1] if raw is old.discard[0] else cards(raw)
    memo.table = per_seat(state.table, old.table, cards)
    hands, old_hands = state.hands, old.hands
    hand = old.hand_cards[seat] if hands[seat] is old_hands[seat] else None
    if hand is None:
        hand = cards(hands[seat])
    memo.hands = hands
    memo.hand_cards = tuple(
        [
            hand if s == seat else cached if h is old_hands[s] else None
            for s, (h, cached) in enumerate(zip(hands, old.hand_cards, strict=True))
        ]
    )
    holders = state.special_holder
    raw = state.known
    old_known, old_known_cards = old.known
    same_holders = holders is old.holders
    memo.holders = holders
    memo.known = raw, tuple(
        [
            old_known_cards[s]
            if k is old_known[s] and same_holders and (s not in holders or hands[s] is old_hands[s])
            else cards(with_specials(state, t, s, k) if s in holders else k)
            for s, k in enumerate(raw)
        ]
    )
    object.__setattr__(state, "_view_memo", memo)  # a cache: the state's value is unchanged
    visit = state.visit
    return _new_view(
        components=comps,
        seat=seat,
        num_players=state.num_players,
        first_player=state.first_player,
        visit=visit,
        province=public.province_order[visit - 1],
        province_order=public.province_order,
        phase=state.phase,
        current_player=state.current_player,
        hand=hand,
        hand_sizes=tuple(map(len, hands)),
        scores=state.scores,
        table=memo.table[1],
        withdrawn=state.withdrawn,
        visit_colors=state.visit_colors,
        supply=memo.supply[1],
        deck_size=len(state.deck),
        discard=memo.discard[1],
        court_influence=public.court_influence,
        court_crown=state.court_crown,
        court_province_tile=comps.province_tiles[visit - 1] if state.court_province_tile else None,
        palaces=public.palaces,
        bonus_tiles=public.bonus_tiles,
        province_tiles=public.province_tiles,
        commodity_tiles=public.commodity_tiles,
        influence_tiles=public.influence_tiles,
        special_holder=public.special_holder,
        known_cards=memo.known[1],
        pending_palaces=state.pending_palaces,
        pending_crown=state.pending_crown,
        pending_takes=state.pending_takes,
        pending_province=state.pending_province,
        reshuffles=state.reshuffles,
    )
