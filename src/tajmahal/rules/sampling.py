"""Sampling: the hidden cards of a view dealt at random, as a full state (``PlayerView.sample``).

The sample keeps the seat's own hand, every public fact and every known card,
and deals the cards the seat cannot see uniformly at random to the other
hands and the deck.  States are built as the class the state module registers
(:func:`register_state_class`): it imports the views, which import this module,
so this module cannot import it back.
"""

from __future__ import annotations

import operator
import random
from collections import Counter
from collections.abc import Callable, Mapping
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from tajmahal.rules.components import INFLUENCE
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.problems import InvalidStateError, Path, Problem
from tajmahal.rules.tables import SPECIALS, Tables, tables

if TYPE_CHECKING:  # annotations only: the state and views modules import this one
    from tajmahal.rules.state import GameState
    from tajmahal.rules.views import PlayerView

__all__ = ["Sampler", "register_state_class"]

K = TypeVar("K")
V = TypeVar("V")

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


class Sampler:
    """What every sample of one view shares, computed once: the public state and the unseen pool.

    >>> import random, tajmahal as tm
    >>> view = tm.new_game(num_players=3, seed=5).view(0)
    >>> Sampler(view).sample(random.Random(1)).view(0) == view
    True
    """

    def __init__(self, view: PlayerView) -> None:
        self.problems: list[Problem] = []
        comps = view.components
        t = tables(comps)
        kind_of = t.kind_of.__getitem__
        special = t.special
        n, seat = view.num_players, view.seat
        hand = tuple(sorted(map(kind_of, view.hand)))
        known = [tuple(sorted(map(kind_of, cs))) if cs else () for cs in view.known_cards]
        order = view.province_order
        if sorted(order) != sorted(t.province_ids):  # also what check_state says of a state
            self.fail(("province_order",), "must list every province exactly once")
        elif order[-1] != comps.board.final_province:
            final = comps.board.final_province
            self.fail(("province_order",), f"the final province {final!r} comes last (S2)")
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

    def __reduce__(self) -> tuple[type[None], tuple[()]]:
        return type(None), ()  # a cache: a pickled view carries none (compiled, it could not)

    def fail(self, path: Path, message: str) -> None:
        self.problems.append(Problem(path, message))

    def sample(self, rng: random.Random) -> GameState:
        assert _state_class is not None  # registered when tajmahal.rules.state is imported
        return _state_class(*self.fields(rng))

    def fields(self, rng: random.Random) -> tuple[Any, ...]:
        """The ``__init__`` arguments of a sample, in order (what :meth:`sample` builds)."""
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
        return tuple(args)


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
