"""The table this visit as data: each seat's cards and symbol totals, who leads each prize,
and what withdrawing now would win, from one :class:`~tajmahal.PlayerView` alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from tajmahal.names import (
    and_list,
    card_name,
    display_name,
    prize_name,
    province_tile_name,
    symbol_name,
)
from tajmahal.rules.components import (
    INFLUENCE,
    BonusKind,
    Card,
    Color,
    Commodity,
    ProvinceTile,
    Special,
    Symbol,
)
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.views import PlayerView

__all__ = [
    "Holdings",
    "PrizeStanding",
    "SeatTable",
    "TableSummary",
    "Withdrawal",
    "connected_provinces",
    "summarize",
    "withdrawal",
]


def _seat_label(seat: int, players: Sequence[str]) -> str:
    return f"seat {seat} ({players[seat]})" if seat < len(players) else f"seat {seat}"


@attrs.frozen
class Holdings:
    """What one seat owns, all public (I1): palaces, tiles, commodities, special cards."""

    seat: int
    palaces: int  #: normal palaces on the board (W5)
    crown_palaces: int  #: crown palaces on the board (W7)
    influence_tiles: tuple[Symbol, ...]  #: W6
    province_tiles: tuple[ProvinceTile, ...]  #: W9
    commodity_tiles: tuple[Commodity, ...]  #: commodity bonus tiles (K4)
    commodities: tuple[tuple[Commodity, int], ...]  #: owned, on both kinds of tile (K5)
    specials: tuple[Special, ...]  #: special cards in hand (F2)
    #: provinces its palaces link to the visited province, that one included (K6, K7); 0: none
    connection: int

    def parts(self) -> list[str]:
        """Everything owned in words, one item each (empty: nothing yet).

        >>> import tajmahal as tm
        >>> summarize(tm.new_game(3, seed=1).view(0)).holdings[0].parts()
        []
        """
        out = []
        if self.palaces:
            out.append(f"{self.palaces} palace{'s' if self.palaces != 1 else ''}")
        if self.crown_palaces:
            out.append(f"{self.crown_palaces} crown palace{'s' if self.crown_palaces != 1 else ''}")
        if self.connection == 1:
            out.append("a palace in this province")
        elif self.connection:
            others = self.connection - 1
            out.append(f"palaces here linked to {others} other province{'s' if others > 1 else ''}")
        influence = Counter(self.influence_tiles)
        out += [f"{symbol_name(s)} tile" + (f" x{n}" if n > 1 else "")
                for s, n in influence.items()]
        out += [province_tile_name(tile) for tile in self.province_tiles]
        out += [f"{c.value} tile" for c in self.commodity_tiles]
        out += [f"{s.value.replace('_', ' ')} card" for s in self.specials]
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "seat": self.seat,
            "palaces": self.palaces,
            "crown_palaces": self.crown_palaces,
            "influence_tiles": [s.value for s in self.influence_tiles],
            "province_tiles": [t.number for t in self.province_tiles],
            "commodity_tiles": [c.value for c in self.commodity_tiles],
            "commodities": {c.value: n for c, n in self.commodities},
            "specials": [s.value for s in self.specials],
            "connection": self.connection,
            "text": self.parts(),
        }


def holdings(view: PlayerView, seat: int) -> Holdings:
    """What ``seat`` owns, from any seat's view (it is all public).

    >>> import tajmahal as tm
    >>> holdings(tm.new_game(3, seed=1).view(0), 2).palaces
    0
    """
    palaces = sum(1 for owners in view.palaces.values() if owners[0] == seat)
    crowns = sum(1 for owners in view.palaces.values() if owners[1] == seat)
    owned = owned_commodities(view, seat)
    linked = connected_provinces(view, seat) if view.province else None
    return Holdings(
        seat=seat,
        palaces=palaces,
        crown_palaces=crowns,
        influence_tiles=tuple(view.influence_tiles[seat]),
        province_tiles=tuple(view.province_tiles[seat]),
        commodity_tiles=tuple(view.commodity_tiles[seat]),
        commodities=tuple((c, owned[c]) for c in Commodity if owned[c]),
        specials=tuple(s for s, holder in view.special_holder.items() if holder == seat),
        connection=0 if linked is None else 1 + len(linked),
    )


@attrs.frozen
class SeatTable:
    """One seat at the table this visit (docs/rules.md P1–P7, V3)."""

    seat: int
    cards: tuple[Card, ...]  #: the cards it has on the table this visit (empty once withdrawn)
    totals: tuple[int, ...]  #: per Symbol (in ``tm.Symbol`` order), special cards included (P7)
    color: Color | None  #: the colored suit it plays this visit (P2), None before its first play
    withdrawn: bool
    hand_size: int
    score: int

    def total(self, symbol: Symbol) -> int:
        """How many ``symbol`` this seat shows on the table.

        >>> import tajmahal as tm
        >>> summarize(tm.new_game(num_players=3, seed=1).view(0)).seats[0].total(tm.Symbol.MONK)
        0
        """
        return self.totals[list(Symbol).index(symbol)]


@attrs.frozen
class PrizeStanding:
    """Who leads the race for one symbol's prize this visit (W1–W4, W7, W9)."""

    symbol: Symbol
    prize: str  #: the prize in words: 'the vizier', 'the crown', 'province tile 3 (rice+tea)'
    available: bool  #: the prize is still in the court (W3)
    best: int  #: the highest count on the table (0: nobody shows the symbol)
    leaders: tuple[int, ...]  #: the seats showing ``best`` (two or more: a tie, W4)

    @property
    def tied(self) -> bool:
        """Two seats or more share the lead: none of them wins it on withdrawing (W4)."""
        return len(self.leaders) > 1


@attrs.frozen
class Withdrawal:
    """What one seat would win by withdrawing now (W1–W11, K5–K8, F2, F3)."""

    seat: int
    prizes: tuple[Symbol, ...]  #: symbols whose prize it wins (a strict majority, still in court)
    spent: tuple[Symbol, ...]  #: majorities whose prize is already gone (W3)
    ties: tuple[Symbol, ...]  #: ties for a prize still in court: this seat does not win it (W4)
    palaces: int  #: normal palaces it places (W5), one per influence prize
    crown: bool  #: it places the crown palace (W7)
    province_tile: ProvinceTile | None  #: the province tile it takes (W9)
    points: int  #: points scored on withdrawing (with palaces owed: before what they add)
    exact: bool  #: no palace to choose: ``points`` is exactly what withdrawing scores
    draws: bool  #: it has no card on the table: wins nothing and draws a card (W11, F3)
    takes: int  #: supply cards it takes afterwards (F2)
    text: str  #: all of it in plain words

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "seat": self.seat,
            "prizes": [s.value for s in self.prizes],
            "spent": [s.value for s in self.spent],
            "ties": [s.value for s in self.ties],
            "palaces": self.palaces,
            "crown": self.crown,
            "province_tile": None if self.province_tile is None else self.province_tile.number,
            "points": self.points,
            "exact": self.exact,
            "draws": self.draws,
            "takes": self.takes,
            "text": self.text,
        }


@attrs.frozen
class TableSummary:
    """The table this visit, as one seat may know it: :func:`summarize` builds it."""

    seat: int  #: whose view it was built from
    visit: int
    province: str  #: province id
    province_name: str
    province_tile: ProvinceTile | None  #: still in the court, if so
    current_player: int | None
    phase: str  #: 'play', 'palace', 'crown', 'take' or 'over'
    seats: tuple[SeatTable, ...]
    prizes: tuple[PrizeStanding, ...]  #: one per Symbol, in ``tm.Symbol`` order
    #: per seat, what withdrawing now would win (None: withdrawn, or not the play phase)
    withdrawals: tuple[Withdrawal | None, ...]
    #: per seat, what it owns (palaces, tiles, commodities, special cards, its connection)
    holdings: tuple[Holdings, ...] = ()

    def lines(self, players: Sequence[str] = ()) -> list[str]:
        """The summary in plain text, one line per seat and per prize race.

        >>> import tajmahal as tm
        >>> summarize(tm.new_game(num_players=3, seed=1).view(0)).lines()[0]
        'Visit 1, Thatta (province tile 1 (rice) in the court)'
        """
        tile = self.province_tile
        court = f" ({province_tile_name(tile)} in the court)" if tile is not None else ""
        out = [f"Visit {self.visit}, {self.province_name}{court}"]
        for row in self.seats:
            out.append(_seat_line(row, players))
        for prize in self.prizes:
            out.append(_prize_line(prize, players))
        for seat, gain in enumerate(self.withdrawals):
            if gain is not None and self.seats[seat].cards:
                out.append(f"{_seat_label(seat, players)} withdrawing now {gain.text}")
        for owned in self.holdings:
            parts = owned.parts()
            if parts:
                out.append(f"{_seat_label(owned.seat, players)} owns {', '.join(parts)}")
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (for apps and the replay page)."""
        return {
            "seat": self.seat,
            "visit": self.visit,
            "province": self.province,
            "province_name": self.province_name,
            "province_tile": None if self.province_tile is None else self.province_tile.number,
            "current_player": self.current_player,
            "phase": self.phase,
            "seats": [
                {
                    "seat": row.seat,
                    "cards": [str(c) for c in row.cards],
                    "card_names": [card_name(c) for c in row.cards],
                    "totals": {s.value: n for s, n in zip(Symbol, row.totals, strict=True) if n},
                    "color": None if row.color is None else row.color.value,
                    "withdrawn": row.withdrawn,
                    "hand_size": row.hand_size,
                    "score": row.score,
                }
                for row in self.seats
            ],
            "prizes": [
                {
                    "symbol": p.symbol.value,
                    "prize": p.prize,
                    "available": p.available,
                    "best": p.best,
                    "leaders": list(p.leaders),
                }
                for p in self.prizes
            ],
            "withdrawals": [None if w is None else w.as_dict() for w in self.withdrawals],
            "holdings": [h.as_dict() for h in self.holdings],
        }


def _seat_line(row: SeatTable, players: Sequence[str]) -> str:
    who = _seat_label(row.seat, players)
    if row.withdrawn:
        return f"{who}: withdrawn"
    if not row.cards:
        return f"{who}: no cards yet"
    totals = ", ".join(
        f"{symbol_name(s)} {n}" for s, n in zip(Symbol, row.totals, strict=True) if n
    )
    cards = ", ".join(card_name(c) for c in row.cards)
    return f"{who}: {cards} = {totals or 'no symbol'}"


def _prize_line(prize: PrizeStanding, players: Sequence[str]) -> str:
    name = symbol_name(prize.symbol)
    if not prize.available:
        return f"{name}: {prize.prize} is already taken this visit (W3)"
    if not prize.leaders:
        return f"{name}, for {prize.prize}: nobody yet"
    who = and_list([_seat_label(s, players) for s in prize.leaders])
    if prize.tied:
        return f"{name}, for {prize.prize}: {who} tie with {prize.best} (a tie wins nothing, W4)"
    return f"{name}, for {prize.prize}: {who} leads with {prize.best}"


def _totals(cards: Iterable[Card]) -> tuple[int, ...]:
    counts = Counter(symbol for card in cards for symbol in card.symbols)
    return tuple(counts[s] for s in Symbol)


def _available(view: PlayerView, symbol: Symbol) -> bool:
    if symbol in INFLUENCE:
        return symbol in view.court_influence
    if symbol is Symbol.GRAND_MOGUL:
        return view.court_crown
    return view.court_province_tile is not None


def summarize(view: PlayerView) -> TableSummary:
    """The table this visit as ``view.seat`` may know it (public facts only, P1–P7, W1–W4).

    Built from the view alone: two states that look the same to the seat give
    the same summary.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> state = state.apply(state.legal_moves()[0])
    >>> table = summarize(state.view(1))
    >>> monk = table.prizes[2]
    >>> [str(c) for c in table.seats[0].cards], monk.symbol.value, monk.leaders
    (['red:elephant+monk'], 'monk', (0,))
    """
    rows = tuple(
        SeatTable(
            seat=seat,
            cards=cards,
            totals=_totals(cards),
            color=view.visit_colors[seat],
            withdrawn=view.withdrawn[seat],
            hand_size=view.hand_sizes[seat],
            score=view.scores[seat],
        )
        for seat, cards in enumerate(view.table)
    )
    prizes = []
    for i, symbol in enumerate(Symbol):
        best = max(row.totals[i] for row in rows)
        leaders = tuple(row.seat for row in rows if best and row.totals[i] == best)
        name = prize_name(symbol, view.court_province_tile)
        prizes.append(PrizeStanding(symbol, name, _available(view, symbol), best, leaders))
    playing = view.phase is Phase.PLAY
    withdrawals = tuple(
        withdrawal(view, seat) if playing and not view.withdrawn[seat] else None
        for seat in range(view.num_players)
    )
    return TableSummary(
        seat=view.seat,
        visit=view.visit,
        province=view.province,
        province_name=display_name(view.province, view.components),
        province_tile=view.court_province_tile,
        current_player=view.current_player,
        phase=view.phase.value,
        seats=rows,
        prizes=tuple(prizes),
        withdrawals=withdrawals,
        holdings=tuple(holdings(view, seat) for seat in range(view.num_players)),
    )


def owned_commodities(view: PlayerView, seat: int) -> Counter[Commodity]:
    """The commodities ``seat`` owns, on province and commodity bonus tiles (K4, K5)."""
    owned: Counter[Commodity] = Counter(view.commodity_tiles[seat])
    for tile in view.province_tiles[seat]:
        owned.update(tile.commodities)
    return owned


def connected_provinces(
    view: PlayerView, seat: int, extra: Iterable[str] = ()
) -> tuple[str, ...] | None:
    """Provinces (ids) linked by ``seat``'s palaces to those in the visited province (K7).

    ``extra`` are cities counted as holding one of its palaces too.  None when
    it has no palace in the visited province (K6 scores nothing then).
    """
    board = view.components.board
    mine = {city for city, owners in view.palaces.items() if seat in owners} | set(extra)
    here = [c.id for c in board.province(view.province).cities if c.id in mine]
    if not here:
        return None
    reached: set[str] = set(here)
    frontier = list(here)
    while frontier:
        for other in board.neighbours(frontier.pop()):
            if other not in reached and other in mine:
                reached.add(other)
                frontier.append(other)
    provinces = {board.city(c).province for c in reached} - {view.province}
    return tuple(sorted(provinces, key=lambda p: board.province(p).name))


def finishing_points(
    view: PlayerView,
    seat: int,
    *,
    province_tile: bool,
    extra_cities: Iterable[str] = (),
    extra_commodities: Iterable[Commodity] = (),
) -> int:
    """Points a withdrawal scores when it finishes: the province tile (K5), connections (K6–K8)."""
    points = 0
    if province_tile:
        tile = view.components.province_tiles[view.visit - 1]
        owned = owned_commodities(view, seat)
        owned.update(extra_commodities)
        points += sum(1 + owned[c] for c in tile.commodities)
    linked = connected_provinces(view, seat, extra_cities)
    if linked is not None:
        points += 1 + len(linked)
    return points


def withdrawal(view: PlayerView, seat: int | None = None) -> Withdrawal:
    """What ``seat`` (default: the seat to move) would win by withdrawing now.

    Majorities count against the seats still at the table (W1); a prize goes
    only to a strict majority (W2, W4) and only while it is in the court (W3).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> state = state.apply(state.legal_moves()[0])          # seat 0 plays red elephant+monk
    >>> gain = withdrawal(state.view(1), 0)
    >>> [symbol.value for symbol in gain.prizes], gain.palaces, gain.points, gain.exact
    (['monk', 'elephant'], 1, 1, False)
    >>> gain.text
    'wins the monk tile and province tile 1 (rice): 1 palace to place, +1 point before them; then takes 2 supply cards'
    """  # noqa: E501
    if seat is None:
        seat = view.current_player if view.current_player is not None else view.seat
    takes = min(2, len(view.supply))
    then = f"; then takes {takes} supply card{'s' if takes != 1 else ''}" if takes else ""
    mine = _totals(view.table[seat])
    if not view.table[seat]:
        text = "wins nothing (no card on the table) and draws a card" + then
        return Withdrawal(seat, (), (), (), 0, False, None, 0, True, True, takes, text)
    rivals = [_totals(cards) for other, cards in enumerate(view.table) if other != seat and cards]
    won: list[Symbol] = []
    spent: list[Symbol] = []
    ties: list[Symbol] = []
    for i, symbol in enumerate(Symbol):
        count = mine[i]
        best = max((r[i] for r in rivals), default=0)
        if count == 0:
            continue
        if count > best:
            (won if _available(view, symbol) else spent).append(symbol)
        elif count == best and _available(view, symbol):
            ties.append(symbol)
    palaces = sum(1 for s in won if s in INFLUENCE)
    crown = Symbol.GRAND_MOGUL in won
    tile = view.court_province_tile if Symbol.ELEPHANT in won else None
    points = finishing_points(view, seat, province_tile=tile is not None)
    exact = not palaces and not crown
    parts = [prize_name(s, view.court_province_tile) for s in won]
    if won:
        owed = []
        if palaces:
            owed.append(f"{palaces} palace{'s' if palaces > 1 else ''}")
        if crown:
            owed.append("the crown palace")
        text = "wins " + and_list(parts) + (f": {and_list(owed)} to place" if owed else "")
    else:
        text = "wins no prize"
    if points or exact:
        more = "" if exact else " before them"
        text += f", +{points} point{'s' if points != 1 else ''}{more}" if points else ", no points"
    if spent:
        text += f"; {and_list([symbol_name(s) for s in spent])}: prize already taken"
    if ties:
        them = "it" if len(ties) == 1 else "them"
        text += f"; tied on {and_list([symbol_name(s) for s in ties])}: does not win {them}"
    return Withdrawal(
        seat, tuple(won), tuple(spent), tuple(ties), palaces, crown, tile, points, exact,
        False, takes, text + then,
    )  # fmt: skip


def bonus_commodity(view: PlayerView, city: str) -> Commodity | None:
    """The commodity of the commodity bonus tile on ``city``, if one lies there."""
    tile = view.bonus_tiles.get(city)
    if tile is not None and tile.kind is BonusKind.COMMODITY:
        return tile.commodity
    return None
