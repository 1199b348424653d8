"""A fast playout path for search bots: a mutable game that plays moves as small ints.

:class:`Playout` is a private, mutable copy of a :class:`~tajmahal.GameState`.
It follows the same rules as ``legal_moves``/``apply`` (docs/rules.md), move
for move, but skips what a search does not need: no views, no move objects,
no validation, no new immutable state per move.  A move is an int *code*:

- play phase: :data:`WITHDRAW` (-1), or ``colored * stride + extra + 1`` for a
  play (``extra`` a white or special card kind, or -1 for none);
- palace and crown phases: the index of the city;
- take phase: the kind index of the supply card.

``moves()`` lists the codes in the engine's order (``moves()[i]`` is
``state.legal_moves()[i]``), :meth:`Playout.move` and :meth:`Playout.code`
translate between codes and moves, and :meth:`Playout.to_state` gives the
equal :class:`~tajmahal.GameState` back.  Playing a code that is not legal is
undefined behaviour: the caller takes codes from ``moves()``.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Callable

from tajmahal.rules.components import INFLUENCE, BonusKind, Color, Components
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, TakeCard, Withdraw
from tajmahal.rules.setup import seeded_rng
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import ELEPHANT, GRAND_MOGUL, INFLUENCE_IDX, NO_EXTRA, SPECIALS, Tables, tables

__all__ = ["WITHDRAW", "Picker", "Playout", "code_of", "play_out"]

WITHDRAW = -1  #: the code of the withdraw move
PLAY, PALACE, CROWN, TAKE, OVER = range(5)  #: phases as ints (the order of Phase)
_PHASES = (Phase.PLAY, Phase.PALACE, Phase.CROWN, Phase.TAKE, Phase.OVER)
_PHASE_INDEX = {phase: i for i, phase in enumerate(_PHASES)}
_WITHDRAW_MOVE = Withdraw()

#: a move picker: given the playout, the legal codes (never empty) and the random
#: generator of the playout, one of the codes
Picker = Callable[["Playout", list[int], random.Random], int]


class Playout:
    """A mutable game for search: build it from a state, play codes, read the scores.

    >>> import random, tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> game = Playout(state)
    >>> [state.legal_moves()[i] == game.move(code) for i, code in enumerate(game.moves())]
    [True, True, True, True, True, True]
    >>> game.play(game.moves()[0])
    >>> game.to_state() == state.apply(state.legal_moves()[0])
    True
    >>> game.run(random.Random(3))
    >>> game.is_over, len(game.scores)
    (True, 3)
    """

    __slots__ = (
        "_t", "components", "seed", "num_players", "first_player", "visit", "phase", "current",
        "hands", "table", "withdrawn", "colors", "supply", "deck", "discard", "reshuffles",
        "scores", "province_order", "normal", "crown", "bonus", "court_influence", "court_crown",
        "court_tile", "province_tiles", "commodity_tiles", "influence", "holder", "known",
        "pending_palaces", "pending_crown", "pending_province", "pending_takes", "counts",
        "stride", "decisions", "_first_extra", "_symbol_pairs",
    )  # fmt: skip

    def __init__(self, state: GameState) -> None:
        t = self._t = tables(state.components)
        self.components = state.components
        self.seed = state.seed
        self.num_players = state.num_players
        self.first_player = state.first_player
        self.visit = state.visit
        self.phase = _PHASE_INDEX[state.phase]
        self.current = -1 if state.current_player is None else state.current_player
        self.hands = [list(h) for h in state.hands]
        self.table = [list(c) for c in state.table]
        self.withdrawn = list(state.withdrawn)
        self.colors: list[Color | None] = list(state.visit_colors)
        self.supply = list(state.supply)
        self.deck = list(state.deck)
        self.discard = list(state.discard)
        self.reshuffles = state.reshuffles
        self.scores = list(state.scores)
        self.province_order = state.province_order
        self.normal = list(state.normal_palaces)
        self.crown = list(state.crown_palaces)
        self.bonus = list(state.bonus)
        self.court_influence = list(state.court_influence)
        self.court_crown = state.court_crown
        self.court_tile = state.court_province_tile
        self.province_tiles = [list(p) for p in state.province_tiles]
        self.commodity_tiles = [list(c) for c in state.commodity_tiles]
        self.influence = [list(i) for i in state.influence]
        self.holder = list(state.special_holder)
        self.known = [list(k) for k in state.known]
        self.pending_palaces = state.pending_palaces
        self.pending_crown = state.pending_crown
        self.pending_province = state.pending_province
        self.pending_takes = state.pending_takes
        per_kind = t.symbol_counts
        self.counts = [[sum(per_kind[k][i] for k in c) for i in range(6)] for c in self.table]
        self.stride = len(t.kinds) + 1
        self._first_extra, self._symbol_pairs = _statics(t)
        self.decisions = 0  #: moves played on this playout so far

    # ------------------------------------------------------------------ reading
    @property
    def is_over(self) -> bool:
        """True once the game has ended.

        >>> import tajmahal as tm
        >>> Playout(tm.new_game(num_players=3, seed=1)).is_over
        False
        """
        return self.phase == OVER

    def copy(self) -> Playout:
        """An independent copy (a search plays many continuations of one position).

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> other = game.copy()
        >>> other.play(other.moves()[-1])
        >>> game.withdrawn, other.withdrawn
        ([False, False, False], [True, False, False])
        """
        new = Playout.__new__(Playout)
        for name in _SHARED:
            setattr(new, name, getattr(self, name))
        for name in _FLAT:
            setattr(new, name, getattr(self, name)[:])
        for name in _NESTED:
            setattr(new, name, [x[:] for x in getattr(self, name)])
        return new

    def moves(self) -> list[int]:
        """The legal move codes of the seat to move, in the order of ``legal_moves()``.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> game = Playout(state)
        >>> len(game.moves()) == len(state.legal_moves()), game.moves()[-1] == WITHDRAW
        (True, True)
        """
        phase = self.phase
        t = self._t
        if phase == PLAY:
            seat = self.current
            hand = self.hands[seat]
            split = bisect_left(hand, self._first_extra)  # colored kinds sort first
            colored = dict.fromkeys(hand[:split]) if split else ()
            extras = [k + 1 for k in dict.fromkeys(hand[split:])] if split < len(hand) else []
            color = self.colors[seat]
            stride = self.stride
            if color is not None:
                kind_color = t.color
                change = t.color_change + 1
                if change not in extras:
                    colored = [k for k in colored if kind_color[k] is color]
                else:  # P4: other colors only with the color change card
                    out = []
                    for k in colored:
                        base = k * stride
                        if kind_color[k] is color:
                            out.append(base)
                            out += [base + e for e in extras]
                        else:
                            out.append(base + change)
                    out.append(WITHDRAW)
                    return out
            if not extras:
                out = [k * stride for k in colored]
            else:
                out = []
                for k in colored:
                    base = k * stride
                    out.append(base)
                    out += [base + e for e in extras]
            out.append(WITHDRAW)  # V3, P8
            return out
        if phase == TAKE:
            return list(dict.fromkeys(self.supply))
        cities = t.province_cities[self.province_order[self.visit - 1]]
        if phase == PALACE:
            normal = self.normal
            return [c for c in cities if normal[c] < 0]
        if phase == CROWN:
            crown = self.crown
            return [c for c in cities if crown[c] < 0]
        return []

    def move(self, code: int) -> Move:
        """The engine's move object for ``code`` in the current phase.

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> str(game.move(game.moves()[0])), str(game.move(WITHDRAW))
        ('play red:elephant+monk', 'withdraw')
        """
        t, phase = self._t, self.phase
        if phase == PLAY:
            if code == WITHDRAW:
                return _WITHDRAW_MOVE
            colored, extra = divmod(code, self.stride)
            return t.play_with[colored][extra - 1]
        if phase == PALACE:
            return t.place[code]
        if phase == CROWN:
            return t.crown[code]
        return t.take[code]

    def code(self, move: Move) -> int:
        """The code of ``move`` (the inverse of :meth:`move`).

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> game = Playout(state)
        >>> [game.code(m) for m in state.legal_moves()] == game.moves()
        True
        """
        return code_of(self.components, move)

    @property
    def tables(self) -> Tables:
        """The engine's lookup tables for these components (card kinds, cities, roads).

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> len(game.tables.kinds), len(game.tables.city_ids)
        (50, 49)
        """
        return self._t

    def to_state(self) -> GameState:
        """The equal immutable :class:`~tajmahal.GameState`.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=4, seed=2)
        >>> Playout(state).to_state() == state
        True
        """
        return GameState(
            components=self.components,
            seed=self.seed,
            num_players=self.num_players,
            first_player=self.first_player,
            visit=self.visit,
            phase=_PHASES[self.phase],
            current_player=None if self.current < 0 else self.current,
            hands=tuple(map(tuple, self.hands)),
            table=tuple(map(tuple, self.table)),
            withdrawn=tuple(self.withdrawn),
            visit_colors=tuple(self.colors),
            supply=tuple(self.supply),
            deck=tuple(self.deck),
            discard=tuple(self.discard),
            reshuffles=self.reshuffles,
            scores=tuple(self.scores),
            province_order=self.province_order,
            normal_palaces=tuple(self.normal),
            crown_palaces=tuple(self.crown),
            bonus=tuple(self.bonus),
            court_influence=tuple(self.court_influence),
            court_crown=self.court_crown,
            court_province_tile=self.court_tile,
            province_tiles=tuple(map(tuple, self.province_tiles)),
            commodity_tiles=tuple(map(tuple, self.commodity_tiles)),
            influence=tuple(map(tuple, self.influence)),
            special_holder=tuple(self.holder),
            known=tuple(map(tuple, self.known)),
            pending_palaces=self.pending_palaces,
            pending_crown=self.pending_crown,
            pending_province=self.pending_province,
            pending_takes=self.pending_takes,
        )

    # ------------------------------------------------------------------ playing
    def run(
        self, rng: random.Random, pick: Picker | None = None, *, visit_end: bool = False
    ) -> None:
        """Play on to the end of the game (or of the current visit, with ``visit_end``).

        Each move is ``pick(self, codes, rng)``, or uniformly random from ``rng``
        (``codes[int(rng.random() * len(codes))]``) without a picker.

        >>> import random, tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> game.run(random.Random(1), visit_end=True)
        >>> game.visit, game.is_over
        (2, False)
        """
        stop = self.visit + 1 if visit_end else 0  # the visit at which to stop (0: none)
        if pick is not None:
            play, moves = self.play, self.moves
            while self.phase != OVER and self.visit != stop:
                play(pick(self, moves(), rng))
            return
        rand, random_code, stride = rng.random, self._random_code, self.stride
        decisions = 0
        while True:  # play() inlined: the random playout is the hottest loop of a search
            phase = self.phase
            if phase == OVER or self.visit == stop:
                break
            code = random_code(rand())
            decisions += 1
            if phase == PLAY:
                if code == WITHDRAW:
                    self._withdraw()
                else:
                    self._play(*divmod(code, stride))
            elif phase == TAKE:
                self._take(code)
            elif phase == PALACE:
                self._place_palace(code)
            else:
                self._place_crown(code)
        self.decisions += decisions

    def _random_code(self, u: float) -> int:
        """``moves()[int(u * len(moves()))]``, mostly without building the list."""
        phase = self.phase
        if phase != PLAY:
            if phase == TAKE:
                codes = list(dict.fromkeys(self.supply))
            else:
                taken = self.normal if phase == PALACE else self.crown
                cities = self._t.province_cities[self.province_order[self.visit - 1]]
                codes = [c for c in cities if taken[c] < 0]
            return codes[int(u * len(codes))]
        seat = self.current
        hand = self.hands[seat]
        split = bisect_left(hand, self._first_extra)
        extras = [k + 1 for k in dict.fromkeys(hand[split:])] if split < len(hand) else []
        color = self.colors[seat]
        if color is None:
            colored = list(dict.fromkeys(hand[:split]))
        elif self._t.color_change + 1 in extras:  # P4: the rare case, listed in full
            codes = self.moves()
            return codes[int(u * len(codes))]
        else:
            kind_color = self._t.color
            colored = [k for k in dict.fromkeys(hand[:split]) if kind_color[k] is color]
        per = 1 + len(extras)
        i = int(u * (len(colored) * per + 1))
        if i == len(colored) * per:
            return WITHDRAW
        k, j = divmod(i, per)
        return colored[k] * self.stride + (extras[j - 1] if j else 0)

    def play(self, code: int) -> None:
        """Play the legal move ``code`` for the seat to move (as ``GameState.apply`` would).

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> game.play(WITHDRAW)
        >>> game.phase == TAKE, game.current
        (True, 0)
        """
        self.decisions += 1
        phase = self.phase
        if phase == PLAY:
            if code == WITHDRAW:
                self._withdraw()
            else:
                self._play(*divmod(code, self.stride))
        elif phase == TAKE:
            self._take(code)
        elif phase == PALACE:
            self._place_palace(code)
        else:
            self._place_crown(code)

    def _place_crown(self, city: int) -> None:
        self.crown[city] = self.current
        self.pending_crown = False
        self._finish_withdrawal(self.current)

    def _play(self, colored: int, extra: int) -> None:
        t = self._t
        seat = self.current
        hand, known, counts = self.hands[seat], self.known[seat], self.counts[seat]
        pairs = self._symbol_pairs
        extra -= 1
        for k in (colored,) if extra == NO_EXTRA else (colored, extra):
            hand.remove(k)
            if k in known:
                known.remove(k)
            self.table[seat].append(k)
            for i, c in pairs[k]:
                counts[i] += c
        withdrawn, n = self.withdrawn, self.num_players
        nxt = (seat + 1) % n
        while withdrawn[nxt] and nxt != seat:
            nxt = (nxt + 1) % n
        self.current = nxt
        if self.colors[seat] is None and extra != t.color_change:  # P2, P4
            self.colors[seat] = t.color[colored]
        if extra == t.points:  # P6
            self.scores[seat] += 2

    def _next_active(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` (possibly itself) not withdrawn, or -1."""
        withdrawn, n = self.withdrawn, self.num_players
        for step in range(1, n + 1):
            other = (seat + step) % n
            if not withdrawn[other]:
                return other
        return -1

    def _withdraw(self) -> None:
        seat = self.current
        self.withdrawn[seat] = True
        if not self.table[seat]:  # W11
            self._finish_withdrawal(seat, draw=True, placed=False)
            return
        mine = self.counts[seat]
        best = [0] * 6
        for other, cards in enumerate(self.table):
            if other != seat and cards:
                for i, c in enumerate(self.counts[other]):
                    if c > best[i]:
                        best[i] = c
        won = [mine[i] >= 1 and mine[i] > best[i] for i in range(6)]  # W1, W2, W4
        court, held = self.court_influence, self.influence[seat]
        palaces = 0
        for i, symbol in enumerate(INFLUENCE_IDX):  # W5, W3
            if won[symbol] and court[i]:
                court[i] = False
                held[i] += 1
                palaces += 1
        self.pending_palaces = palaces
        if won[GRAND_MOGUL] and self.court_crown:  # W7
            self.court_crown = False
            self.pending_crown = True
        if won[ELEPHANT] and self.court_tile:  # W9
            self.court_tile = False
            self.pending_province = True
        if palaces:
            self.phase = PALACE
        elif self.pending_crown:
            self.phase = CROWN
        else:
            self._finish_withdrawal(seat, placed=False)

    def _place_palace(self, city: int) -> None:
        seat = self.current
        self.normal[city] = seat
        self.pending_palaces -= 1
        tile_index = self.bonus[city]
        if tile_index >= 0:  # W6
            self.bonus[city] = -1
            tile = self.components.bonus_tiles[tile_index]
            if tile.kind is BonusKind.COMMODITY:  # K4
                owned = self._owned(seat)
                self.scores[seat] += 1 + owned[self._t.bonus_commodity[tile_index]]
                self.commodity_tiles[seat].append(tile_index)
            elif tile.kind is BonusKind.CARD:  # K3
                card = self._draw()
                if card >= 0:
                    insort(self.hands[seat], card)
            else:  # K1, K2
                self.scores[seat] += tile.points
        if self.pending_palaces:
            return
        if self.pending_crown:  # W10
            self.phase = CROWN
            return
        self._finish_withdrawal(seat)

    def _owned(self, seat: int) -> list[int]:
        t = self._t
        owned = [0, 0, 0, 0]
        for number in self.province_tiles[seat]:
            for c in t.tile_commodities[number - 1]:
                owned[c] += 1
        for tile in self.commodity_tiles[seat]:
            owned[t.bonus_commodity[tile]] += 1
        return owned

    def _connection_points(self, seat: int) -> int:
        """K6–K8."""
        t = self._t
        current = self.province_order[self.visit - 1]
        normal, crown = self.normal, self.crown
        start = [c for c in t.province_cities[current] if normal[c] == seat or crown[c] == seat]
        if not start:
            return 0
        reached = set(start)
        frontier = start
        adjacency = t.adjacency
        while frontier:
            nxt = []
            for city in frontier:
                for other in adjacency[city]:
                    if other not in reached and (normal[other] == seat or crown[other] == seat):
                        reached.add(other)
                        nxt.append(other)
            frontier = nxt
        provinces = {t.city_province[c] for c in reached}
        provinces.discard(current)
        return 1 + len(provinces)

    def _finish_withdrawal(self, seat: int, draw: bool = False, placed: bool = True) -> None:
        """K5, K6–K8, F1, F3, then the supply cards due (F2) or the end of the turn."""
        t = self._t
        if self.pending_province:  # K5
            self.pending_province = False
            owned = self._owned(seat)
            self.scores[seat] += sum(1 + owned[c] for c in t.tile_commodities[self.visit - 1])
            self.province_tiles[seat].append(self.visit)
        if placed:  # K6: no palace placed in this withdrawal, none in this province
            self.scores[seat] += self._connection_points(seat)
        hand, discard, special = self.hands[seat], self.discard, t.special
        for kind in self.table[seat]:  # F1
            insort(hand if special[kind] else discard, kind)
        if draw:  # W11, F3
            card = self._draw()
            if card >= 0:
                insort(hand, card)
        self.table[seat] = []
        self.counts[seat] = [0] * 6
        takes = min(2, len(self.supply))  # F2
        if takes:
            self.phase = TAKE
            self.pending_takes = takes
            self.current = seat
            return
        self._end_turn(seat)

    def _take(self, kind: int) -> None:
        seat = self.current
        self.supply.remove(kind)
        insort(self.hands[seat], kind)
        insort(self.known[seat], kind)
        self.pending_takes -= 1
        if self.pending_takes and self.supply:
            return
        self.pending_takes = 0
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        nxt = self._next_active(seat)
        if nxt < 0:  # V6
            self._end_visit()
            return
        self.phase = PLAY
        self.current = nxt

    def _draw(self) -> int:
        """The top card of the deck, or -1 (D1: reshuffle the discard pile when it is empty)."""
        if not self.deck:
            if not self.discard:
                return -1
            pile = self.discard
            seeded_rng(self.seed, f"reshuffle/{self.reshuffles}").shuffle(pile)
            self.deck, self.discard = pile, []
            self.reshuffles += 1
        return self.deck.pop()

    def _end_visit(self) -> None:
        """E1–E7, and G1 after the last visit."""
        t = self._t
        n = self.num_players
        for city in t.province_cities[self.province_order[self.visit - 1]]:  # E1
            self.bonus[city] = -1
        for kind in self.supply:
            insort(self.discard, kind)
        hands, holder = self.hands, self.holder
        for seat in range(n):  # E2
            held = self.influence[seat]
            for i, count in enumerate(held):
                if count < 2:
                    continue
                held[i] = count - 2
                special = t.earned[i]
                owner = holder[special]
                if owner != seat:
                    kind = t.special_kind[SPECIALS[special]]
                    if owner >= 0:
                        hand = hands[owner]
                        del hand[bisect_left(hand, kind)]
                    insort(hands[seat], kind)
                    holder[special] = seat
        self.supply = []
        self.court_tile = False
        self.table = [[] for _ in range(n)]
        self.counts = [[0] * 6 for _ in range(n)]
        self.withdrawn = [False] * n
        self.colors = [None] * n
        if self.visit == len(self.province_order):  # E7, G1
            for seat in range(n):
                self.scores[seat] += _final_bonus(t, hands[seat])
            self.phase = OVER
            self.current = -1
            return
        per_symbol = self.components.influence_tiles_per_symbol
        self.court_influence = [  # E5
            per_symbol - sum(held[i] for held in self.influence) > 0 for i in range(len(INFLUENCE))
        ]
        supply: list[int] = []
        for _ in range(2 * n - 1):  # E6
            card = self._draw()
            if card < 0:
                break
            supply.append(card)
        supply.sort()
        self.supply = supply
        self.visit += 1  # E4
        self.court_crown = True
        self.court_tile = True
        self.phase = PLAY
        self.current = (self.first_player + self.visit - 1) % n  # E3


_STATICS: dict[int, tuple[Tables, int, tuple[tuple[tuple[int, int], ...], ...]]] = {}


def _statics(t: Tables) -> tuple[int, tuple[tuple[tuple[int, int], ...], ...]]:
    """The first kind that is not colored (colored kinds sort first), and per kind the
    (symbol, count) pairs of its symbols; computed once per tables."""
    found = _STATICS.get(id(t))
    if found is None or found[0] is not t:
        if len(_STATICS) > 32:  # tables are cached (a few sets of components): stay bounded
            _STATICS.clear()
        first = next((k for k, colored in enumerate(t.colored) if not colored), len(t.colored))
        pairs = tuple(tuple((i, c) for i, c in enumerate(cs) if c) for cs in t.symbol_counts)
        found = _STATICS[id(t)] = (t, first, pairs)
    return found[1], found[2]


def _final_bonus(t: Tables, hand: list[int]) -> int:
    """G1: 1 per special and white card, 1 per card of the longest colored suit."""
    bonus = 0
    suits: dict[object, int] = {}
    for kind in hand:
        if t.special[kind] or t.white[kind]:
            bonus += 1
        else:
            suits[t.color[kind]] = suits.get(t.color[kind], 0) + 1
    return bonus + max(suits.values(), default=0)


_SHARED = (
    "_t", "components", "seed", "num_players", "first_player", "visit", "phase", "current",
    "reshuffles", "province_order", "court_crown", "court_tile", "pending_palaces",
    "pending_crown", "pending_province", "pending_takes", "stride", "decisions", "_first_extra", "_symbol_pairs",
)  # fmt: skip
_FLAT = (
    "withdrawn", "colors", "supply", "deck", "discard", "scores", "normal", "crown", "bonus",
    "court_influence", "holder",
)  # fmt: skip
_NESTED = (
    "hands", "table", "province_tiles", "commodity_tiles", "influence", "known", "counts",
)  # fmt: skip


def code_of(components: Components, move: Move) -> int:
    """The playout code of a move (in the phase the move belongs to).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> [code_of(state.components, m) for m in state.legal_moves()] == Playout(state).moves()
    True
    """
    t = tables(components)
    if isinstance(move, PlayCards):
        extra = NO_EXTRA if move.extra is None else t.kind_of[move.extra]
        return t.kind_of[move.colored] * (len(t.kinds) + 1) + extra + 1
    if isinstance(move, PlacePalace | PlaceCrownPalace):
        return t.city_of[move.city]
    if isinstance(move, TakeCard):
        return t.kind_of[move.card]
    return WITHDRAW


def play_out(state: GameState, rng: random.Random, pick: Picker | None = None) -> tuple[int, ...]:
    """The final scores of ``state`` played to the end (random moves, or ``pick``'s).

    >>> import random, tajmahal as tm
    >>> scores = play_out(tm.new_game(num_players=3, seed=1), random.Random(7))
    >>> len(scores), all(s >= 0 for s in scores)
    (3, True)
    """
    game = Playout(state)
    game.run(rng, pick)
    return tuple(game.scores)
