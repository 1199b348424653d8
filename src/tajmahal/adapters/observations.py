"""A :class:`~tajmahal.PlayerView` as a flat float32 array, with a documented layout.

Per-seat fields are **relative to the observing seat**: row 0 is the seat
itself, row 1 the next seat clockwise (seat + 1), and so on; so are seat
one-hots (``current_player``, palace owners, ...).  Only the field ``seat``
gives the absolute seat.  ``n`` is the number of players, ``K`` the card
kinds (:attr:`tajmahal.Components.card_kinds`), ``C`` the cities, ``P`` the
provinces, ``V`` the visits, ``T`` the province tiles and ``B`` the distinct
bonus tiles (in the order the components first list them).
``ObservationEncoder.layout`` lists every field with its offset;
:meth:`ObservationEncoder.as_dict` gives the same numbers by name.

:class:`IncrementalEncoder` gives the very same numbers straight from a
:class:`~tajmahal.GameState` and a seat, without building the view: from
index tables computed once, rewriting only the fields whose parts of the
state changed since the seat's previous observation (successive states
share their unchanged parts).  The environments use it.
"""

from __future__ import annotations

import array
import functools
import types
from collections.abc import Sequence
from typing import Any, NamedTuple

from tajmahal.adapters._extras import missing_extra

try:  # the extra's packages
    import numpy as np
    import numpy.typing as npt
except ImportError as missing:
    raise missing_extra(__name__, ("gymnasium", "pettingzoo", "openspiel"), missing) from missing

from tajmahal.rules.components import (
    COLORED,
    INFLUENCE,
    Card,
    Commodity,
    Components,
    Special,
    standard_components,
)
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import COMMODITIES as COMMODITY_ORDER
from tajmahal.rules.tables import tables
from tajmahal.rules.viewparts import with_specials
from tajmahal.rules.views import PlayerView

__all__ = ["Field", "IncrementalEncoder", "ObservationEncoder", "observation_encoder"]

_COMMODITIES = {c: i for i, c in enumerate(Commodity)}
_INFLUENCE = {s: i for i, s in enumerate(INFLUENCE)}
_COLORED = {c: i for i, c in enumerate(COLORED)}
_PHASES = list(Phase)  # .index() finds a member by identity, without Enum's Python __hash__

Array = npt.NDArray[np.float32]
UNBOUNDED = float(np.finfo(np.float32).max)  #: the upper bound of unbounded fields


class Field(NamedTuple):
    """One field of the flat observation: ``values[offset : offset + size]``.

    >>> field = ObservationEncoder(3).field('scores')
    >>> field.shape, field.description
    ((3,), 'points per seat')
    """

    name: str
    shape: tuple[int, ...]
    offset: int
    high: float  #: every value lies in [0, high]
    description: str

    @property
    def size(self) -> int:
        """How many numbers the field holds.

        >>> ObservationEncoder(4).field('palaces').size
        196
        """
        return int(np.prod(self.shape))


class ObservationEncoder:
    """Encodes the views of one components set and player count.

    >>> import tajmahal as tm
    >>> encoder = ObservationEncoder(3)
    >>> values = encoder.encode(tm.new_game(num_players=3, seed=1).view(0))
    >>> values.shape, values.dtype.name, encoder.size
    ((1362,), 'float32', 1362)
    """

    def __init__(self, num_players: int, components: Components | None = None) -> None:
        from tajmahal.adapters.actions import AdapterError

        if isinstance(num_players, bool) or num_players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            raise AdapterError(f"num_players must be 3, 4 or 5, got {num_players!r}")
        comps = components if components is not None else standard_components()
        self.components = comps
        self.num_players = n = num_players
        kinds = comps.card_kinds
        self._kind = {card: i for i, card in enumerate(kinds)}
        self._city = {c.id: i for i, c in enumerate(comps.board.cities)}
        self._province = {p.id: i for i, p in enumerate(comps.board.provinces)}
        self._bonus = {tile: i for i, tile in enumerate(dict.fromkeys(comps.bonus_tiles))}
        counts = [comps.deck.count(card) or 1 for card in kinds]
        k, c, p = len(kinds), len(comps.board.cities), len(comps.board.provinces)
        v, t, b = len(comps.board.provinces), len(comps.province_tiles), len(self._bonus)
        cards = float(len(comps.deck) + len(comps.special_cards))
        most = float(max(counts))
        specs: list[tuple[str, tuple[int, ...], float, str]] = [
            ("seat", (n,), 1, "one-hot: the observing seat (absolute)"),
            ("visit", (v,), 1, "one-hot: the visit, 1..V"),
            ("province_order", (v, p), 1, "one-hot per visit: the province visited then"),
            ("phase", (len(Phase),), 1, "one-hot: play, palace, crown, take, over"),
            ("current_player", (n,), 1, "one-hot: the seat owing the next move (none at the end)"),
            ("first_player", (n,), 1, "one-hot: the seat that started the game"),
            ("hand", (k,), most, "own hand: cards per kind"),
            ("hand_sizes", (n,), cards, "cards in hand per seat"),
            ("scores", (n,), UNBOUNDED, "points per seat"),
            ("table", (n, k), most, "per seat, cards per kind played this visit"),
            ("withdrawn", (n,), 1, "per seat, 1 once withdrawn this visit"),
            ("visit_colors", (n, len(COLORED)), 1, "per seat, one-hot: red, yellow, green, violet"),
            ("supply", (k,), most, "face-up supply: cards per kind"),
            ("deck_size", (1,), cards, "cards in the draw deck"),
            ("discard", (k,), most, "discard pile: cards per kind"),
            ("reshuffles", (1,), UNBOUNDED, "how often the discard pile became the deck"),
            ("court_influence", (len(INFLUENCE),), 1, "1 per influence symbol still in the court"),
            ("court_crown", (1,), 1, "1 while the crown is in the court"),
            ("court_province_tile", (1,), 1, "1 while the province tile is in the court"),
            ("palaces", (c, n), 1, "per city, one-hot: owner of the normal palace"),
            ("crown_palaces", (c, n), 1, "per city, one-hot: owner of the crown palace"),
            ("bonus_tiles", (c, b), 1, "per city, one-hot: the bonus tile still on it"),
            ("province_tiles", (n, t), 1, "per seat, 1 per province tile owned (by number)"),
            ("commodity_tiles", (n, len(Commodity)), cards, "per seat, commodity bonus tiles"),
            ("influence_tiles", (n, len(INFLUENCE)), cards, "per seat, influence tiles"),
            ("special_holder", (len(Special), n), 1, "per special card, one-hot: its holder"),
            ("known_cards", (n, k), most, "per seat, cards per kind known to be in its hand"),
            ("pending", (4,), cards, "palaces, crown, takes, province tile still owed"),
        ]
        layout, offset = [], 0
        for name, shape, high, description in specs:
            field = Field(name, shape, offset, float(high), description)
            layout.append(field)
            offset += field.size
        self.layout: tuple[Field, ...] = tuple(layout)
        self._fields = {f.name: f for f in layout}
        self._at = {f.name: f.offset for f in layout}
        self.size: int = offset
        self.high: Array = np.concatenate(
            [np.full(f.size, f.high, dtype=np.float32) for f in layout]
        )
        self.low: Array = np.zeros(offset, dtype=np.float32)

    def field(self, name: str) -> Field:
        """The field called ``name`` (``KeyError`` if none).

        >>> ObservationEncoder(3).field('seat').offset
        0
        """
        return self._fields[name]

    def encode(self, view: PlayerView) -> Array:
        """The view as a new float32 array of ``size`` numbers (see ``layout``).

        >>> import tajmahal as tm
        >>> encoder = ObservationEncoder(3)
        >>> view = tm.new_game(num_players=3, seed=1).view(2)
        >>> values = encoder.encode(view)
        >>> hand = encoder.field('hand')
        >>> int(values[hand.offset : hand.offset + hand.size].sum()), len(view.hand)
        (6, 6)
        """
        from tajmahal.adapters.actions import AdapterError

        if not isinstance(view, PlayerView):
            raise AdapterError(f"expected a tajmahal.PlayerView, got {type(view).__name__}")
        if view.num_players != self.num_players or view.components != self.components:
            raise AdapterError(
                f"this encoder is for {self.num_players} players and the "
                f"{self.components.name!r} components; the view has {view.num_players} "
                f"players and the {view.components.name!r} components"
            )
        out = [0.0] * self.size  # a list, then one array: far faster than numpy item stores
        at = self._at
        n, me = self.num_players, view.seat
        kind, city = self._kind, self._city
        k = len(kind)
        rel = [(s - me) % n for s in range(n)]

        def cards(offset: int, held: Sequence[Card]) -> None:
            for card in held:
                out[offset + kind[card]] += 1

        out[at["seat"] + me] = 1
        out[at["visit"] + view.visit - 1] = 1
        p = len(self._province)
        for i, pid in enumerate(view.province_order):
            out[at["province_order"] + i * p + self._province[pid]] = 1
        out[at["phase"] + _PHASES.index(view.phase)] = 1
        if view.current_player is not None:
            out[at["current_player"] + rel[view.current_player]] = 1
        out[at["first_player"] + rel[view.first_player]] = 1
        cards(at["hand"], view.hand)
        sizes, scores, withdrawn = at["hand_sizes"], at["scores"], at["withdrawn"]
        table, known, colors = at["table"], at["known_cards"], at["visit_colors"]
        tiles, commodities = at["province_tiles"], at["commodity_tiles"]
        influence, num_tiles = at["influence_tiles"], len(self.components.province_tiles)
        for s in range(n):
            r = rel[s]
            out[sizes + r] = view.hand_sizes[s]
            out[scores + r] = view.scores[s]
            out[withdrawn + r] = view.withdrawn[s]
            cards(table + r * k, view.table[s])
            cards(known + r * k, view.known_cards[s])
            color = view.visit_colors[s]
            if color in _COLORED:
                out[colors + r * len(COLORED) + _COLORED[color]] = 1
            for tile in view.province_tiles[s]:
                out[tiles + r * num_tiles + tile.number - 1] = 1
            for commodity in view.commodity_tiles[s]:
                out[commodities + r * len(Commodity) + _COMMODITIES[commodity]] += 1
            for symbol in view.influence_tiles[s]:
                out[influence + r * len(INFLUENCE) + _INFLUENCE[symbol]] += 1
        cards(at["supply"], view.supply)
        out[at["deck_size"]] = view.deck_size
        cards(at["discard"], view.discard)
        out[at["reshuffles"]] = view.reshuffles
        for symbol in view.court_influence:
            out[at["court_influence"] + _INFLUENCE[symbol]] = 1
        out[at["court_crown"]] = view.court_crown
        out[at["court_province_tile"]] = view.court_province_tile is not None
        normal, crown = at["palaces"], at["crown_palaces"]
        for city_id, (owner, crown_owner) in view.palaces.items():
            if owner is not None:
                out[normal + city[city_id] * n + rel[owner]] = 1
            if crown_owner is not None:
                out[crown + city[city_id] * n + rel[crown_owner]] = 1
        b, bonus = len(self._bonus), at["bonus_tiles"]
        for city_id, bonus_tile in view.bonus_tiles.items():
            out[bonus + city[city_id] * b + self._bonus[bonus_tile]] = 1
        holders = at["special_holder"]
        for i, special in enumerate(Special):
            holder = view.special_holder[special]
            if holder is not None:
                out[holders + i * n + rel[holder]] = 1
        pending = at["pending"]
        out[pending : pending + 4] = (
            view.pending_palaces,
            view.pending_crown,
            view.pending_takes,
            view.pending_province,
        )
        return np.frombuffer(array.array("f", out), dtype=np.float32)  # owns its buffer

    def as_dict(self, view: PlayerView) -> dict[str, Array]:
        """The same numbers by field name, each an array of the field's shape.

        >>> import tajmahal as tm
        >>> encoded = ObservationEncoder(3).as_dict(tm.new_game(num_players=3, seed=1).view(0))
        >>> encoded['scores'].tolist(), encoded['palaces'].shape
        ([0.0, 0.0, 0.0], (49, 3))
        """
        return self.split(self.encode(view))

    def split(self, values: Array) -> dict[str, Array]:
        """A flat array (from :meth:`encode`) cut into its fields.

        >>> import numpy as np
        >>> encoder = ObservationEncoder(3)
        >>> list(encoder.split(np.zeros(encoder.size, np.float32)))[:3]
        ['seat', 'visit', 'province_order']
        """
        return {
            f.name: values[f.offset : f.offset + f.size].reshape(f.shape).copy()
            for f in self.layout
        }


    def incremental(self) -> IncrementalEncoder:
        """A new :class:`IncrementalEncoder` of this encoder (one per environment or thread).

        >>> import tajmahal as tm
        >>> encoder = ObservationEncoder(3)
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> bool((encoder.incremental().encode(state, 1) == encoder.encode(state.view(1))).all())
        True
        """
        return IncrementalEncoder(self)


class IncrementalEncoder:
    """``encode(state.view(seat))`` from the state itself, updated from the last state encoded.

    It keeps one array of the last state with every per-seat field by
    *absolute* seat (and every hand); a new state rewrites only the entries
    whose parts of the state are not the very same objects as the last
    state's (successive states share their unchanged parts), and a seat's
    observation is one gather through that seat's precomputed index table,
    which turns absolute seats into relative ones and picks the seat's hand.
    Not thread-safe: one per environment.

    >>> import tajmahal as tm
    >>> encoder = observation_encoder(4)
    >>> fast = encoder.incremental()
    >>> state = tm.new_game(num_players=4, seed=3)
    >>> for _ in range(30):
    ...     state = state.apply(state.legal_moves()[0])
    >>> all((fast.encode(state, s) == encoder.encode(state.view(s))).all() for s in range(4))
    True
    """

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.encoder = encoder
        comps = encoder.components
        self._tables = tables(comps)
        self._at = encoder._at
        n = encoder.num_players
        self._kinds = k = len(comps.card_kinds)
        self._hands_at = encoder.size  #: every hand, by absolute seat, after the fields
        #: then two constants, 0.0 and 1.0: the gather writes the field ``seat`` from them
        self._zero_at = self._hands_at + n * k
        self._values = array.array("f", bytes(4 * (encoder.size + n * k + 2)))
        self._values[self._zero_at + 1] = 1.0
        self._array = np.frombuffer(self._values, dtype=np.float32)
        self._zeros_k = array.array("f", bytes(4 * self._kinds))
        self._bonus_slot = tuple(encoder._bonus[tile] for tile in comps.bonus_tiles)
        self._commodity = tuple(
            -1 if c < 0 else _COMMODITIES[COMMODITY_ORDER[c]]
            for c in self._tables.bonus_commodity
        )
        #: per field, where it starts and ends and zeros of its size (stored as they are)
        self._spans = {
            f.name: (f.offset, f.offset + f.size, array.array("f", bytes(4 * f.size)))
            for f in encoder.layout
        }
        self._scalars = tuple(
            encoder._at[name]
            for name in (
                "visit",
                "phase",
                "first_player",
                "current_player",
                "deck_size",
                "reshuffles",
                "court_crown",
                "court_province_tile",
                "pending",
            )
        )
        self._last: GameState | None = None
        self._onehots: list[int] = []  #: the one-hot entries the last state set
        self._zeros_all = array.array("f", bytes(4 * self._zero_at))  #: all but the constants
        #: a "last state" every part of a state differs from (empty parts encode as zeros)
        self._blank: Any = types.SimpleNamespace(
            **dict.fromkeys(_PARTS, ()), hands=((),) * n, table=((),) * n, known=((),) * n,
            special_holder=(-1,),
        )
        self._gather = [self._seat_table(seat) for seat in range(n)]

    def _seat_table(self, me: int) -> npt.NDArray[np.intp]:
        """Per entry of ``me``'s observation, the entry of the absolute array it shows."""
        enc, n = self.encoder, self.encoder.num_players
        table = np.arange(enc.size, dtype=np.intp)
        for field in enc.layout:
            block = table[field.offset : field.offset + field.size]
            if field.name == "hand":
                block[:] = self._hands_at + me * self._kinds + np.arange(field.size)
            elif field.name == "seat":  # one-hot: the constant 1.0 at ``me``, 0.0 elsewhere
                block[:] = self._zero_at
                block[me] = self._zero_at + 1
            elif field.name in _SEAT_FIRST:  # rows by seat: row r shows seat (me + r) % n
                rows = block.reshape(n, -1)
                rows[:] = rows[[(r + me) % n for r in range(n)]]
            elif field.name in _SEAT_LAST:  # columns by seat
                columns = block.reshape(-1, n)
                columns[:] = columns[:, [(r + me) % n for r in range(n)]]
        return table

    def encode(self, state: GameState, seat: int) -> Array:
        """``seat``'s observation of ``state``: a new array, as ``encode(state.view(seat))``.

        >>> import tajmahal as tm
        >>> fast = observation_encoder(3).incremental()
        >>> fast.encode(tm.new_game(num_players=3, seed=1), 0).shape
        (1362,)
        """
        enc = self.encoder
        if state is not self._last:
            if type(state) is not GameState and not isinstance(state, GameState):
                from tajmahal.adapters.actions import AdapterError

                raise AdapterError(f"expected a tajmahal.GameState, got {type(state).__name__}")
            if state.num_players != enc.num_players or (
                state.components is not enc.components and state.components != enc.components
            ):
                enc.encode(state.view(0))  # raises the encoder's error
            self._update(state, self._last)
            self._last = state
        n = enc.num_players
        if (  # an exact int needs no isinstance checks
            type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int))
        ) or not 0 <= seat < n:
            from tajmahal.adapters.actions import AdapterError

            raise AdapterError(f"seat must be 0..{n - 1}, got {seat!r}")
        return self._array.take(self._gather[seat])

    def _update(self, s: GameState, last: GameState | None) -> None:
        """Rewrite the entries of the absolute array whose parts of the state changed.

        Written flat (no helper calls; one step changes a few parts): the environments
        encode every decision, so this is their hottest code.
        """
        a, at, n, k = self._values, self._at, self.encoder.num_players, self._kinds
        zeros_k, spans = self._zeros_k, self._spans
        if last is None:  # the first state: every part is new, written from zeros
            a[: self._zero_at] = self._zeros_all
            self._onehots = []
            last = self._blank
        visit, phase, first, current, deck, reshuffles, crown, tile, pending = self._scalars
        onehots = [visit + s.visit - 1, phase + _PHASES.index(s.phase), first + s.first_player]
        if s.current_player is not None:
            onehots.append(current + s.current_player)
        if onehots != self._onehots:  # the one-hots' entries moved
            for index in self._onehots:
                a[index] = 0.0
            for index in onehots:
                a[index] = 1.0
            self._onehots = onehots
        a[deck] = len(s.deck)
        a[reshuffles] = s.reshuffles
        a[crown] = s.court_crown
        a[tile] = s.court_province_tile
        a[pending] = s.pending_palaces
        a[pending + 1] = s.pending_crown
        a[pending + 2] = s.pending_takes
        a[pending + 3] = s.pending_province
        if s.province_order is not last.province_order:
            base, end, zeros = spans["province_order"]
            a[base:end] = zeros
            width = len(self._tables.province_ids)
            for i, province in enumerate(s.province_order):
                a[base + i * width + province] = 1.0
        hands, table, known = s.hands, s.table, s.known
        holders = s.special_holder
        new_holders = holders is not last.special_holder
        old_hands, old_table, old_known = last.hands, last.table, last.known
        if (
            new_holders or hands is not old_hands or table is not old_table
            or known is not old_known
        ):
            sizes, rows, known_at = at["hand_sizes"], at["table"], at["known_cards"]
            hands_at = self._hands_at
            for seat in range(n):
                hand, before = hands[seat], old_hands[seat]
                hand_changed = hand is not before
                if hand_changed:  # the cards that left, then those that came
                    base = hands_at + seat * k
                    for kind in before:
                        a[base + kind] -= 1.0
                    for kind in hand:
                        a[base + kind] += 1.0
                    a[sizes + seat] = len(hand)
                row, before = table[seat], old_table[seat]
                if row is not before:
                    base = rows + seat * k
                    for kind in before:
                        a[base + kind] -= 1.0
                    for kind in row:
                        a[base + kind] += 1.0
                if new_holders or known[seat] is not old_known[seat] or (
                    hand_changed and seat in holders
                ):
                    mine = known[seat]
                    if seat in holders:
                        mine = with_specials(s, self._tables, seat, mine)
                    base = known_at + seat * k
                    a[base : base + k] = zeros_k
                    for kind in mine:
                        a[base + kind] += 1.0
        if s.scores is not last.scores:
            base = at["scores"]
            for seat, score in enumerate(s.scores):
                a[base + seat] = score
        if s.withdrawn is not last.withdrawn:
            base = at["withdrawn"]
            for seat, flag in enumerate(s.withdrawn):
                a[base + seat] = flag
        if s.visit_colors is not last.visit_colors:
            base, end, zeros = spans["visit_colors"]
            a[base:end] = zeros
            width = len(COLORED)
            for seat, color in enumerate(s.visit_colors):
                slot = _COLORED.get(color)
                if slot is not None:
                    a[base + seat * width + slot] = 1.0
        if s.supply is not last.supply:
            base = at["supply"]
            for kind in last.supply:
                a[base + kind] -= 1.0
            for kind in s.supply:
                a[base + kind] += 1.0
        if s.discard is not last.discard:
            base = at["discard"]
            for kind in last.discard:
                a[base + kind] -= 1.0
            for kind in s.discard:
                a[base + kind] += 1.0
        if (
            s.court_influence is not last.court_influence
            or s.normal_palaces is not last.normal_palaces
            or s.crown_palaces is not last.crown_palaces
            or s.bonus is not last.bonus
            or s.province_tiles is not last.province_tiles
            or s.commodity_tiles is not last.commodity_tiles
            or s.influence is not last.influence
            or new_holders
        ):
            self._rewrite_rest(s, last)

    def _rewrite_rest(self, s: GameState, last: GameState) -> None:
        """Rewrite the parts that change a few times a visit (court, palaces, tiles, holders)."""
        a, at, n = self._values, self._at, self.encoder.num_players
        spans = self._spans

        def clear(name: str) -> int:
            start, end, zeros = spans[name]
            a[start:end] = zeros
            return start

        if s.court_influence is not last.court_influence:
            for i, here in enumerate(s.court_influence):
                a[at["court_influence"] + i] = here
        if s.normal_palaces is not last.normal_palaces:
            base = clear("palaces")
            for city, owner in enumerate(s.normal_palaces):
                if owner >= 0:
                    a[base + city * n + owner] = 1.0
        if s.crown_palaces is not last.crown_palaces:
            base = clear("crown_palaces")
            for city, owner in enumerate(s.crown_palaces):
                if owner >= 0:
                    a[base + city * n + owner] = 1.0
        if s.bonus is not last.bonus:
            base, kinds = clear("bonus_tiles"), len(self.encoder._bonus)
            for city, b in enumerate(s.bonus):
                if b >= 0:
                    a[base + city * kinds + self._bonus_slot[b]] = 1.0
        if s.province_tiles is not last.province_tiles:
            base, width = clear("province_tiles"), len(self.encoder.components.province_tiles)
            for seat, numbers in enumerate(s.province_tiles):
                for number in numbers:
                    a[base + seat * width + number - 1] = 1.0
        if s.commodity_tiles is not last.commodity_tiles:
            base, width = clear("commodity_tiles"), len(Commodity)
            for seat, owned in enumerate(s.commodity_tiles):
                for b in owned:
                    a[base + seat * width + self._commodity[b]] += 1.0
        if s.influence is not last.influence:
            base, width = at["influence_tiles"], len(INFLUENCE)
            for seat, held in enumerate(s.influence):
                for i, tiles_held in enumerate(held):
                    a[base + seat * width + i] = tiles_held
        if s.special_holder is not last.special_holder:
            base = clear("special_holder")
            for i, holder in enumerate(s.special_holder):
                if holder >= 0:
                    a[base + i * n + holder] = 1.0


#: the parts of a state the incremental encoder compares with the last state's
_PARTS = ("province_order", "scores", "withdrawn", "visit_colors", "supply", "discard",
          "court_influence", "normal_palaces", "crown_palaces", "bonus", "province_tiles",
          "commodity_tiles", "influence")  # fmt: skip

#: fields whose first axis is the seat, and fields whose last axis is
_SEAT_FIRST = frozenset(
    {
        "current_player",
        "first_player",
        "hand_sizes",
        "scores",
        "table",
        "withdrawn",
        "visit_colors",
        "province_tiles",
        "commodity_tiles",
        "influence_tiles",
        "known_cards",
    }
)
_SEAT_LAST = frozenset({"palaces", "crown_palaces", "special_holder"})


@functools.lru_cache(maxsize=16)
def observation_encoder(
    num_players: int, components: Components | None = None
) -> ObservationEncoder:
    """The (cached, shared) encoder for ``num_players`` and ``components``.

    >>> observation_encoder(4) is observation_encoder(4)
    True
    """
    return ObservationEncoder(num_players, components)
