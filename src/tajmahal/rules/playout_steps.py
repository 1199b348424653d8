"""The rules of the fast playout path: a mutable game state and its transitions.

:class:`PlayoutSteps` holds a game as lists (cards as kind indices, cities as
indices, seats as ints, -1 for "nobody") and changes them in place, rule by
rule as the engine does (docs/rules.md): the transitions below mirror
``GameState.apply`` step for step.  :class:`tajmahal.rules.playout.Playout`
adds the interface a search uses (move codes, ``run``, ``to_state``).
"""

from __future__ import annotations

import operator
from bisect import bisect_left, insort
from typing import Any, Final

import attrs

from tajmahal.rules.components import INFLUENCE, BonusKind, Color, Components
from tajmahal.rules.roads import reachable
from tajmahal.rules.scoring import hand_bonus
from tajmahal.rules.setup import seeded_rng
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import (
    ELEPHANT,
    GRAND_MOGUL,
    INFLUENCE_IDX,
    NO_EXTRA,
    SPECIALS,
    Tables,
    tables,
)

__all__ = ["CROWN", "OVER", "PALACE", "PLAY", "TAKE", "WITHDRAW", "PlayoutSteps"]

# Final: the compiled build reads these as constants, not as module attributes
WITHDRAW: Final = -1  #: the code of the withdraw move
PLAY: Final = 0  #: phases as ints (the order of Phase)
PALACE: Final = 1
CROWN: Final = 2
TAKE: Final = 3
OVER: Final = 4
PHASES = (Phase.PLAY, Phase.PALACE, Phase.CROWN, Phase.TAKE, Phase.OVER)
#: the GameState fields (its ``__init__`` arguments, in order): what :meth:`PlayoutSteps.load` reads
STATE_FIELDS: tuple[str, ...] = tuple(a.name for a in attrs.fields(GameState) if a.init)
_field_values = operator.attrgetter(*STATE_FIELDS)


class PlayoutSteps:
    """A game as mutable lists, and the rules that change it (see the module docstring).

    >>> import tajmahal as tm
    >>> steps = PlayoutSteps(tm.new_game(num_players=3, seed=1))
    >>> steps.visit, steps.phase == PLAY, steps.hands[0][:2], steps.scores
    (1, True, [6, 7], [0, 0, 0])
    """

    __slots__ = (
        "_first_extra",
        "_symbol_pairs",
        "_t",
        "bonus",
        "colors",
        "commodity_tiles",
        "components",
        "counts",
        "court_crown",
        "court_influence",
        "court_tile",
        "crown",
        "current",
        "decisions",
        "deck",
        "discard",
        "first_player",
        "hands",
        "holder",
        "influence",
        "known",
        "normal",
        "num_players",
        "pending_crown",
        "pending_palaces",
        "pending_province",
        "pending_takes",
        "phase",
        "province_order",
        "province_tiles",
        "reshuffles",
        "scores",
        "seed",
        "stride",
        "supply",
        "table",
        "visit",
        "withdrawn",
    )

    def __init__(self, state: GameState | None) -> None:
        if state is None:  # left empty, for Playout.copy (or load) to fill in
            return
        self.load(_field_values(state))

    def load(self, values: tuple[Any, ...]) -> None:
        """Become the game whose GameState fields (``__init__`` arguments, in order) are ``values``.

        What ``PlayoutSteps(state)`` does with the fields of ``state``; a sampler's
        fields load without building the state first.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> steps = PlayoutSteps(None)
        >>> steps.load(tuple(getattr(state, name) for name in STATE_FIELDS))
        >>> steps.hands == PlayoutSteps(state).hands
        True
        """
        (
            components, seed, num_players, first_player, visit, phase, current, hands, table,
            withdrawn, colors, supply, deck, discard, reshuffles, scores, province_order,
            normal, crown, bonus, court_influence, court_crown, court_tile, province_tiles,
            commodity_tiles, influence, holder, known, pending_palaces, pending_crown,
            pending_province, pending_takes,
        ) = values  # fmt: skip
        t = self._t = tables(components)
        self.components: Components = components
        self.seed: int = seed
        self.num_players: int = num_players
        self.first_player: int = first_player
        self.visit: int = visit
        self.phase: int = PHASES.index(phase)  # identity compares (Enum.__hash__ is Python code)
        self.current: int = -1 if current is None else current
        self.hands: list[list[int]] = [list(h) for h in hands]
        self.table: list[list[int]] = [list(c) for c in table]
        self.withdrawn: list[bool] = list(withdrawn)
        self.colors: list[Color | None] = list(colors)
        self.supply: list[int] = list(supply)
        self.deck: list[int] = list(deck)
        self.discard: list[int] = list(discard)
        self.reshuffles: int = reshuffles
        self.scores: list[int] = list(scores)
        self.province_order: tuple[int, ...] = province_order
        self.normal: list[int] = list(normal)
        self.crown: list[int] = list(crown)
        self.bonus: list[int] = list(bonus)
        self.court_influence: list[bool] = list(court_influence)
        self.court_crown: bool = court_crown
        self.court_tile: bool = court_tile
        self.province_tiles: list[list[int]] = [list(p) for p in province_tiles]
        self.commodity_tiles: list[list[int]] = [list(c) for c in commodity_tiles]
        self.influence: list[list[int]] = [list(i) for i in influence]
        self.holder: list[int] = list(holder)
        self.known: list[list[int]] = [list(k) for k in known]
        self.pending_palaces: int = pending_palaces
        self.pending_crown: bool = pending_crown
        self.pending_province: bool = pending_province
        self.pending_takes: int = pending_takes
        per_kind = t.symbol_counts
        self.counts = [[sum(per_kind[k][i] for k in c) for i in range(6)] for c in self.table]
        self.stride = len(t.kinds) + 1
        self._first_extra, self._symbol_pairs = _statics(t)
        self.decisions = 0  #: moves played on this playout so far

    # ------------------------------------------------------------------ the rules
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

    def rival_best(self, seat: int) -> list[int]:
        """Per symbol, the highest count on the table of any other seat still playing (W1).

        >>> import tajmahal as tm
        >>> steps = PlayoutSteps(tm.new_game(num_players=3, seed=1))
        >>> steps.rival_best(0)
        [0, 0, 0, 0, 0, 0]
        """
        best = [0] * 6
        counts = self.counts
        for other, cards in enumerate(self.table):
            if other != seat and cards:
                for i, c in enumerate(counts[other]):
                    if c > best[i]:
                        best[i] = c
        return best

    def _withdraw(self) -> None:
        seat = self.current
        self.withdrawn[seat] = True
        if not self.table[seat]:  # W11
            self._finish_withdrawal(seat, draw=True, placed=False)
            return
        mine = self.counts[seat]
        best = self.rival_best(seat)
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
        reached = reachable(
            start, t.adjacency.__getitem__, lambda c: normal[c] == seat or crown[c] == seat
        )
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
        """The top card of the deck, or -1 (D1: the discard pile is reshuffled as soon as the
        deck runs out, or at this draw if the pile was empty then)."""
        if not self.deck:
            if not self.discard:
                return -1
            self._reshuffle()
        card = self.deck.pop()
        if not self.deck and self.discard:
            self._reshuffle()
        return card

    def _reshuffle(self) -> None:
        """D1, S10: the discard pile shuffled from the game's seed is the new deck."""
        pile = self.discard
        seeded_rng(self.seed, f"reshuffle/{self.reshuffles}").shuffle(pile)
        self.deck, self.discard = pile, []
        self.reshuffles += 1

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
                self.scores[seat] += hand_bonus(t, hands[seat])
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
