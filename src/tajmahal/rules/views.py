"""PlayerView: what one seat may know (RULES.md §11), and sampling the hidden rest.

A view is computed from public facts (I1) and the seat's own hand (I2) only,
so two states that differ in nothing the seat may see give equal views (I4).
:meth:`PlayerView.sample` goes the other way: it deals the cards the seat
cannot see at random and returns an ordinary :class:`GameState` whose view
for that seat is the view itself (what ISMCTS-style search bots need).
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Callable, Mapping
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from tajmahal.rules.components import (
    INFLUENCE,
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
from tajmahal.rules.problems import InvalidStateError, Path, Problem
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.tables import COMMODITIES, SPECIALS, Tables, tables

if TYPE_CHECKING:  # annotations only: the state module imports this one
    from tajmahal.rules.state import GameState

__all__ = ["PlayerView", "make_view", "register_state_class"]

Palaces = FrozenMap[str, tuple[int | None, int | None]]
K = TypeVar("K")
V = TypeVar("V")


@attrs.frozen
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
            sampler = _Sampler(self)
            state = sampler.sample(rng)
            consistent = state.view(self.seat) == self
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


def make_view(state: GameState, seat: int) -> PlayerView:
    """Build ``seat``'s view of ``state`` (use :meth:`GameState.view`).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=2)
    >>> make_view(state, 2) == state.view(2), make_view(state, 2).hand == state.hand(2)
    (True, True)
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise TajMahalError(f"seat must be 0..{state.num_players - 1}, got {seat!r}")
    comps = state.components
    t = tables(comps)
    kind = t.kinds.__getitem__

    def cards(ks: tuple[int, ...]) -> tuple[Card, ...]:
        return tuple(map(kind, ks))

    court = state.court_influence
    court_influence = frozenset(s for s, here in zip(INFLUENCE, court, strict=True) if here)
    tiles = comps.province_tiles
    holders = state.special_holder
    province_tile = tiles[state.visit - 1] if state.court_province_tile else None
    return PlayerView(
        components=comps,
        seat=seat,
        num_players=state.num_players,
        first_player=state.first_player,
        visit=state.visit,
        province=state.province,
        province_order=tuple(map(t.province_ids.__getitem__, state.province_order)),
        phase=state.phase,
        current_player=state.current_player,
        hand=cards(state.hands[seat]),
        hand_sizes=tuple(map(len, state.hands)),
        scores=state.scores,
        table=tuple(map(cards, state.table)),
        withdrawn=state.withdrawn,
        visit_colors=state.visit_colors,
        supply=cards(state.supply),
        deck_size=len(state.deck),
        discard=cards(state.discard),
        court_influence=court_influence,
        court_crown=state.court_crown,
        court_province_tile=province_tile,
        palaces=_palaces(state, t.city_ids),
        bonus_tiles=_bonus_tiles(state, t),
        province_tiles=tuple(
            tuple([tiles[n - 1] for n in owned]) if owned else () for owned in state.province_tiles
        ),
        commodity_tiles=tuple(
            tuple([COMMODITIES[t.bonus_commodity[i]] for i in owned]) if owned else ()
            for owned in state.commodity_tiles
        ),
        influence_tiles=_influence_tiles(state.influence),
        special_holder=_special_holder(holders),
        known_cards=tuple(
            cards(_with_specials(state, t, seat, known) if seat in holders else known)
            for seat, known in enumerate(state.known)
        ),
        pending_palaces=state.pending_palaces,
        pending_crown=state.pending_crown,
        pending_takes=state.pending_takes,
        pending_province=state.pending_province,
        reshuffles=state.reshuffles,
    )


def _palaces(state: GameState, city_ids: tuple[str, ...]) -> Palaces:
    """city id -> (normal palace owner, crown palace owner), None for nobody."""
    owners = zip(map(_owner, state.normal_palaces), map(_owner, state.crown_palaces), strict=True)
    return FrozenMap(dict(zip(city_ids, owners, strict=True)))


def _with_specials(
    state: GameState, t: Tables, seat: int, known: tuple[int, ...]
) -> tuple[int, ...]:
    """``known`` plus the special cards ``seat`` holds in hand (who holds which is public)."""
    holders = state.special_holder
    if seat not in holders:
        return known
    hand = state.hands[seat]
    held = [
        k
        for k, holder in zip(t.special_kinds, holders, strict=True)
        if holder == seat and k in hand
    ]
    return tuple(sorted(known + tuple(held))) if held else known


def _bonus_tiles(state: GameState, t: Tables) -> FrozenMap[str, BonusTile]:
    """city id -> the bonus tile still on it."""
    city_ids, bonus_tiles = t.city_ids, state.components.bonus_tiles
    return FrozenMap({city_ids[i]: bonus_tiles[b] for i, b in enumerate(state.bonus) if b >= 0})


def _influence_tiles(influence: tuple[tuple[int, ...], ...]) -> tuple[tuple[Symbol, ...], ...]:
    """Per seat, one symbol per influence tile held."""
    return tuple(
        tuple([s for s, n in zip(INFLUENCE, held, strict=True) for _ in range(n)])
        if any(held)
        else ()
        for held in influence
    )


def _special_holder(holders: tuple[int, ...]) -> FrozenMap[Special, int | None]:
    """Special -> the seat holding it, None beside the board."""
    return FrozenMap(dict(zip(SPECIALS, map(_owner, holders), strict=True)))


def _owner(seat: int) -> int | None:
    return None if seat < 0 else seat


# ---------------------------------------------------------------------------- sampling

#: the class a sample is built as, and its constructor's field names (set by register_state_class)
_state_class: Callable[..., GameState] | None = None
_FIELDS: tuple[str, ...] = ()
_SEED = _HANDS = _DECK = 0


def register_state_class(cls: type[GameState]) -> None:
    """Build samples as ``cls`` (:class:`~tajmahal.GameState`, which registers itself).

    The state module imports this one (``GameState.view`` builds a view), so
    this one cannot import it back: imports inside ``rules/`` run one way.

    >>> import tajmahal as tm
    >>> register_state_class(tm.GameState)  # done once, on import
    """
    global _state_class, _FIELDS, _SEED, _HANDS, _DECK
    _FIELDS = tuple(a.name for a in attrs.fields(cls) if a.init)
    _SEED, _HANDS, _DECK = (_FIELDS.index(name) for name in ("seed", "hands", "deck"))
    _state_class = cls


class _Sampler:
    """What every sample of one view shares, computed once: the public state and the unseen pool."""

    def __init__(self, view: PlayerView) -> None:
        self.problems: list[Problem] = []
        comps = view.components
        t = tables(comps)
        kind_of = t.kind_of.__getitem__
        special = t.special
        n, seat = view.num_players, view.seat
        hand = tuple(sorted(map(kind_of, view.hand)))
        known = [tuple(sorted(map(kind_of, cs))) if cs else () for cs in view.known_cards]
        if len(hand) != view.hand_sizes[seat]:
            self.fail(("hand",), f"{len(hand)} cards, but hand_sizes says {view.hand_sizes[seat]}")
        if known[seat] and Counter(known[seat]) - Counter(hand):
            self.fail(("known_cards", seat), "lists cards that are not in the hand")
        # the cards of the deck nobody but their holders can see, as counts per kind
        pool = list(t.deck_counts)
        table = tuple(tuple(map(kind_of, cs)) if cs else () for cs in view.table)
        supply = tuple(map(kind_of, view.supply))
        discard = tuple(map(kind_of, view.discard))
        seen: list[tuple[Path, tuple[int, ...]]] = [(("hand",), hand)]
        seen += [(("table", s), ks) for s, ks in enumerate(table)]
        seen += [(("supply",), supply), (("discard",), discard)]
        seen += [(("known_cards", s), known[s]) for s in range(n) if s != seat]
        for path, kinds in seen:
            for i, k in enumerate(kinds):
                if special[k]:
                    continue
                pool[k] -= 1
                if pool[k] < 0:
                    self.fail((*path, i), f"one {t.kinds[k]} more than the components have")
        self.slots = [(s, view.hand_sizes[s] - len(known[s])) for s in range(n) if s != seat]
        for s, free in self.slots:
            if free < 0:
                self.fail(("known_cards", s), f"more known cards than hand_sizes[{s}]")
        self.pool = list(chain.from_iterable(map(repeat, range(len(pool)), pool)))
        wanted = sum(free for _, free in self.slots) + view.deck_size
        if not self.problems and len(self.pool) != wanted:
            self.fail(
                ("deck_size",),
                f"{len(self.pool)} cards are unseen, the other hands and the deck hold {wanted}",
            )
        if self.problems:
            raise InvalidStateError(self.problems, "view")
        base_hands = list(known)
        base_hands[seat] = hand
        self.base_hands = tuple(base_hands)
        fields = _public_fields(view, t, known, table, supply, discard)
        self.args: list[Any] = [fields.get(name) for name in _FIELDS]

    def fail(self, path: Path, message: str) -> None:
        self.problems.append(Problem(path, message))

    def sample(self, rng: random.Random) -> GameState:
        pool = self.pool[:]
        rand = rng.random
        # Fisher-Yates with float draws (biased by at most 2**-53): 3x faster than rng.shuffle
        i = len(pool) - 1
        for j in [int(rand() * (k + 1)) for k in range(i, 0, -1)]:
            pool[i], pool[j] = pool[j], pool[i]
            i -= 1
        hands = list(self.base_hands)
        start = 0
        for seat, free in self.slots:
            if free:
                hands[seat] = tuple(sorted(hands[seat] + tuple(pool[start : start + free])))
                start += free
        args = self.args[:]
        args[_SEED] = rng.getrandbits(63)
        args[_HANDS] = tuple(hands)
        args[_DECK] = tuple(pool[start:])
        assert _state_class is not None  # registered when tajmahal.rules.state is imported
        return _state_class(*args)


def _public_fields(
    view: PlayerView,
    t: Tables,
    known: list[tuple[int, ...]],
    table: tuple[tuple[int, ...], ...],
    supply: tuple[int, ...],
    discard: tuple[int, ...],
) -> dict[str, Any]:
    """Every GameState field but seed, hands and deck, from the view (and its cards as kinds)."""
    city_ids = t.city_ids
    first_tile = t.bonus_tile_index
    commodity_tile = t.commodity_tile_index
    special = t.special
    owners = list(map(_mapping(view.palaces).__getitem__, city_ids))
    bonus = _mapping(view.bonus_tiles)
    return {
        "components": view.components,
        "num_players": view.num_players,
        "first_player": view.first_player,
        "visit": view.visit,
        "phase": view.phase,
        "current_player": view.current_player,
        "table": table,
        "withdrawn": view.withdrawn,
        "visit_colors": view.visit_colors,
        "supply": tuple(sorted(supply)),
        "discard": tuple(sorted(discard)),
        "reshuffles": view.reshuffles,
        "scores": view.scores,
        "province_order": tuple(map(t.province_of.__getitem__, view.province_order)),
        "normal_palaces": tuple([-1 if o is None else o for o in map(_first, owners)]),
        "crown_palaces": tuple([-1 if o is None else o for o in map(_second, owners)]),
        "bonus": tuple([first_tile[bonus[c]] if c in bonus else -1 for c in city_ids]),
        "court_influence": tuple(s in view.court_influence for s in INFLUENCE),
        "court_crown": view.court_crown,
        "court_province_tile": view.court_province_tile is not None,
        "province_tiles": tuple(
            tuple([p.number for p in ps]) if ps else () for ps in view.province_tiles
        ),
        "commodity_tiles": tuple(
            tuple([commodity_tile[c] for c in cs]) if cs else () for cs in view.commodity_tiles
        ),
        "influence": tuple(
            tuple([held.count(s) for s in INFLUENCE]) if held else _NO_INFLUENCE
            for held in view.influence_tiles
        ),
        "special_holder": tuple(_seat(view.special_holder[sp]) for sp in SPECIALS),
        "known": tuple(tuple([k for k in ks if not special[k]]) if ks else () for ks in known),
        "pending_palaces": view.pending_palaces,
        "pending_crown": view.pending_crown,
        "pending_province": view.pending_province,
        "pending_takes": view.pending_takes,
    }


_first, _second = operator.itemgetter(0), operator.itemgetter(1)
_NO_INFLUENCE = (0,) * len(INFLUENCE)


def _mapping(m: Mapping[K, V]) -> Mapping[K, V]:
    """A FrozenMap's dict itself (C-level lookups), any other mapping as it is."""
    return m._data if type(m) is FrozenMap else m


def _seat(owner: int | None) -> int:
    return -1 if owner is None else owner
