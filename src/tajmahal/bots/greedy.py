"""The ``greedy`` bot: a readable one-move-ahead heuristic.

Every decision is "pick the move whose immediate value is highest", with
values in estimated points:

- **play or withdraw**: withdraw once the majorities held are worth taking
  (or nothing is within reach); otherwise play the card that brings a prize
  within reach for the least cost in cards;
- **palaces**: the city that connects the most other provinces to the
  current one, plus the value of a fortress's bonus tile;
- **supply cards**: whites, then cards of the colours it already collects,
  counting their symbols.

It reads only what any bot gets — the view, the legal moves and the public
types (cards, the board, :meth:`tajmahal.Board.reachable`) — and imports only
the public API (``from tajmahal import ...``), so a bot author can copy it as
a starting point.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from tajmahal import (
    Board,
    BonusKind,
    BonusTile,
    Card,
    Color,
    Commodity,
    Move,
    Phase,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    PlayerView,
    Special,
    Symbol,
    TakeCard,
    Withdraw,
)

__all__ = ["GreedyBot"]

Counts = tuple[int, ...]  #: per symbol, in Symbol order


class GreedyBot:
    """Plays greedily: takes majorities worth having, connects palaces, keeps whites.

    Options (keyword arguments): ``enough`` — the estimated points of the
    majorities held at which it withdraws (default 4.0); ``card_cost`` — what
    spending one colored card is worth to it (default 0.6).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=4, seed=7)
    >>> bot = GreedyBot(seed=0)
    >>> bot.choose(state.view(0), state.legal_moves()) in state.legal_moves()
    True
    """

    name: ClassVar[str] = "greedy"

    def __init__(self, seed: int = 0, enough: float = 4.0, card_cost: float = 0.6) -> None:
        self.seed = seed  # the bot is deterministic; the seed is accepted for the protocol
        self.enough = enough
        self.card_cost = card_cost

    def choose(self, view: PlayerView, legal_moves: Sequence[Move]) -> Move:
        """The legal move with the highest estimated value (the first one on a tie).

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> str(GreedyBot().choose(state.view(0), state.legal_moves()))
        'play red:elephant+monk'
        >>> str(GreedyBot(enough=0).choose(state.view(0), state.legal_moves()))  # holds enough
        'withdraw'
        >>> after = state.apply(tm.Withdraw())
        >>> str(GreedyBot().choose(after.view(0), after.legal_moves()))  # white cards first
        'take white:elephant'
        """
        if len(legal_moves) == 1:
            return legal_moves[0]
        if view.phase is Phase.PLAY:
            return self._play_or_withdraw(view, legal_moves)
        return max(legal_moves, key=lambda move: self._value(view, move))

    # ------------------------------------------------------------------ playing cards
    def _play_or_withdraw(self, view: PlayerView, legal_moves: Sequence[Move]) -> Move:
        prizes = _Prizes.of(view)
        mine = _table_counts(view.table[view.seat])
        rivals = _rival_best(view)
        held = prizes.worth(mine, rivals)
        withdraw: Move = next(m for m in legal_moves if isinstance(m, Withdraw))  # P8
        if held >= self.enough:
            return withdraw
        alone = all(view.withdrawn[s] for s in range(view.num_players) if s != view.seat)
        # a lead taken now may be lost before the next turn unless nobody else plays on
        certainty = 1.0 if alone else 0.7
        best, best_gain = withdraw, 0.0
        for move in legal_moves:
            if not isinstance(move, PlayCards):
                continue
            after = _add(mine, _card_counts(move.colored), _extra_counts(move.extra))
            gain = certainty * (prizes.worth(after, rivals) - held) - self._cost(view, move)
            if gain > best_gain:
                best, best_gain = move, gain
        return best

    def _cost(self, view: PlayerView, move: PlayCards) -> float:
        """What the cards of a play are worth to keep (special cards come back: F1)."""
        cost = self.card_cost * (1 + 2 / max(len(view.hand), 1))  # scarcer cards cost more
        extra = move.extra
        if extra is None:
            return cost
        if extra.special is Special.POINTS:
            return cost - 2.0  # P6: two points at once
        if extra.special is not None:
            return cost
        return cost + 1.0  # a white card: flexible, and a point at the end (G1)

    # ------------------------------------------------------------------ other decisions
    def _value(self, view: PlayerView, move: Move) -> float:
        if isinstance(move, PlacePalace):
            return _city_value(view, move.city, normal=True)
        if isinstance(move, PlaceCrownPalace):
            return _city_value(view, move.city, normal=False)
        if isinstance(move, TakeCard):
            return _card_value(view, move.card)
        return 0.0


class _Prizes(NamedTuple):
    """What the prizes still in the court are worth to one seat now, in estimated points."""

    influence: frozenset[int]  #: symbol indices of the influence prizes in the court
    crown: bool
    palace_cities: tuple[float, ...]  #: values of the cities free for a palace, best first
    crown_city: float  #: value of the best city free for the crown palace
    province_tile: float  #: 0 when the tile is not in the court

    @classmethod
    def of(cls, view: PlayerView) -> _Prizes:
        cities = [city.id for city in view.components.board.province(view.province).cities]
        free = [c for c in cities if view.palaces[c][0] is None]
        crown_free = [c for c in cities if view.palaces[c][1] is None]
        roads = {c: _road_value(view, c) for c in cities}
        tile = view.court_province_tile
        symbols = _symbols()
        return cls(
            influence=frozenset(
                i for i, s in enumerate(symbols) if s in _influence() and s in view.court_influence
            ),
            crown=view.court_crown,
            palace_cities=tuple(sorted(_city_value(view, c, True, roads[c]) for c in free)[::-1]),
            crown_city=max((roads[c] for c in crown_free), default=0.0),
            province_tile=0.0 if tile is None else _commodity_points(view, tile.commodities),
        )

    def worth(self, mine: Counts, rivals: Counts) -> float:
        """The prizes ``mine`` would win against ``rivals`` on withdrawing (W1–W9)."""
        won = [i for i, n in enumerate(mine) if n >= 1 and n > rivals[i]]
        palaces = sum(1 for i in won if i in self.influence)
        mogul, elephant = _mogul_and_elephant()
        crown = self.crown and mogul in won
        value = 0.0
        if palaces or crown:
            value += 1.0 + sum(self.palace_cities[:palaces])  # K6 once, then each city
            value += self.crown_city if crown else 0.0
            value += 0.5 * palaces  # influence tiles lead to special cards (E2)
        if elephant in won:
            value += self.province_tile
        return value


@functools.cache
def _symbols() -> tuple[Symbol, ...]:
    """Every symbol, in Symbol order: the order of :data:`Counts`."""
    return tuple(Symbol)


@functools.cache
def _mogul_and_elephant() -> tuple[int, int]:
    """The indices of the grand mogul (W7) and the elephant (W9) in :data:`Counts`."""
    return _symbols().index(Symbol.GRAND_MOGUL), _symbols().index(Symbol.ELEPHANT)


@functools.cache
def _influence() -> frozenset[Symbol]:
    """The four influence symbols (C1): each wins a palace (W5)."""
    return frozenset({Symbol.VIZIER, Symbol.GENERAL, Symbol.MONK, Symbol.PRINCESS})


def _city_value(view: PlayerView, city: str, normal: bool, roads: float | None = None) -> float:
    """A palace here: its roads (:func:`_road_value`), plus a fortress's bonus tile (W6)."""
    value = _road_value(view, city) if roads is None else roads
    tile = view.bonus_tiles.get(city) if normal else None
    if tile is not None:
        value += _bonus_value(view, tile)
    return value


def _road_value(view: PlayerView, city: str) -> float:
    """Provinces a palace here would connect (K7), and a little for roads to other provinces."""
    province_of, foreign = _board_facts(view.components.board)
    value = float(len(_connected_provinces(view, city, province_of)))
    value += 0.1 * foreign[city]
    return value


def _connected_provinces(view: PlayerView, start: str, province_of: dict[str, str]) -> set[str]:
    """Other provinces reached from ``start`` through cities holding this seat's palaces."""
    palaces, seat = view.palaces, view.seat
    reached = view.components.board.reachable(start, through=lambda city: seat in palaces[city])
    return {province_of[c] for c in reached} - {province_of[start]}


@functools.lru_cache(maxsize=8)
def _board_facts(board: Board) -> tuple[dict[str, str], dict[str, int]]:
    """Per city id: its province, and how many of its roads lead to another province."""
    province_of = {city.id: city.province for city in board.cities}
    foreign = {
        city.id: sum(province_of[n] != city.province for n in board.neighbours(city.id))
        for city in board.cities
    }
    return province_of, foreign


def _bonus_value(view: PlayerView, tile: BonusTile) -> float:
    if tile.kind is BonusKind.COMMODITY and tile.commodity is not None:
        return _commodity_points(view, (tile.commodity,))
    if tile.kind is BonusKind.CARD:
        return 1.0
    return float(tile.points)


def _commodity_points(view: PlayerView, commodities: Sequence[Commodity]) -> float:
    """K4/K5: 1 point per commodity plus 1 per same commodity already owned."""
    owned = dict.fromkeys(Commodity, 0)
    for tile in view.province_tiles[view.seat]:
        for c in tile.commodities:
            owned[c] += 1
    for c in view.commodity_tiles[view.seat]:
        owned[c] += 1
    return float(sum(1 + owned[c] for c in commodities))


def _card_value(view: PlayerView, card: Card) -> float:
    """Whites first, then cards of the colours in hand; more symbols are better."""
    if card.color is Color.WHITE:
        return 3.0 + len(card.symbols)
    same = sum(1 for c in view.hand if c.color is card.color)
    return len(card.symbols) + 0.4 * same


def _table_counts(cards: Sequence[Card]) -> Counts:
    counts = [0] * len(_symbols())
    for card in cards:
        for i, n in enumerate(_card_counts(card)):
            counts[i] += n
    return tuple(counts)


def _rival_best(view: PlayerView) -> Counts:
    """Per symbol, the highest count of any other seat still on the table (W1)."""
    best = [0] * len(_symbols())
    for seat, cards in enumerate(view.table):
        if seat != view.seat:
            for i, n in enumerate(_table_counts(cards)):
                best[i] = max(best[i], n)
    return tuple(best)


@functools.lru_cache(maxsize=256)
def _card_counts(card: Card) -> Counts:
    """How many of each symbol ``card`` shows (P7: special cards count too)."""
    return tuple(card.symbols.count(s) for s in _symbols())


def _extra_counts(card: Card | None) -> Counts:
    return (0,) * len(_symbols()) if card is None else _card_counts(card)


def _add(*counts: Counts) -> Counts:
    return tuple(sum(column) for column in zip(*counts, strict=True))
