"""Building the events of one move from the views around it (the words and the rules)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tajmahal.events._model import Event, EventKind
from tajmahal.names import and_list, prize_name, symbol_name
from tajmahal.rules.components import (
    COLORED,
    INFLUENCE,
    BonusKind,
    BonusTile,
    Card,
    Color,
    Commodity,
    Components,
    ProvinceTile,
    Special,
    Symbol,
)
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, TakeCard, Withdraw
from tajmahal.rules.state import Phase
from tajmahal.rules.views import PlayerView

__all__ = ["Narrator", "visit_start"]


# ---------------------------------------------------------------------------- words


def _rules(*ids: str) -> str:
    return f" ({', '.join(ids)})"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _goods(tile: ProvinceTile) -> str:
    return "+".join(c.value for c in tile.commodities)


def _bonus_name(tile: BonusTile) -> str:
    if tile.kind is BonusKind.TAJ_MAHAL:
        return f"Taj Mahal tile (+{tile.points})"
    if tile.kind is BonusKind.POINTS:
        return f"{tile} points bonus tile"
    return f"{tile} bonus tile"


def _owned(view: PlayerView, seat: int) -> Counter[Commodity]:
    owned: Counter[Commodity] = Counter(view.commodity_tiles[seat])
    for tile in view.province_tiles[seat]:
        owned.update(tile.commodities)
    return owned


def _commodity_terms(owned: Counter[Commodity], goods: Sequence[Commodity]) -> tuple[int, str]:
    points, terms = 0, []
    for commodity in goods:
        points += 1 + owned[commodity]
        more = f" + {owned[commodity]} already owned" if owned[commodity] else ""
        terms.append(f"{commodity.value} 1{more}")
    return points, ", ".join(terms)


def _symbols(cards: Sequence[Card]) -> Counter[Symbol]:
    return Counter(symbol for card in cards for symbol in card.symbols)


def _plain_cards_in_hand(view: PlayerView, seat: int) -> int:
    """How many cards other than special cards ``seat`` holds in hand (public: hand sizes,
    special card holders and the table)."""
    held = sum(1 for holder in view.special_holder.values() if holder == seat)
    on_table = sum(1 for card in view.table[seat] if card.special is not None)
    return view.hand_sizes[seat] - (held - on_table)


# ---------------------------------------------------------------------------- the narrator


class Narrator:
    """Builds the events of one move from the views around it (public facts + optional hand)."""

    def __init__(self, before: PlayerView, after: PlayerView, seat: int, private: bool) -> None:
        self.before, self.after, self.seat, self.private = before, after, seat, private
        self.components: Components = before.components
        self.events: list[Event] = []
        self.reshuffles_told = 0  # reshuffles reported so far (at a draw, or the next supply)

    def add(
        self,
        kind: EventKind,
        seat: int | None,
        text: str,
        *,
        rules: tuple[str, ...] = (),
        points: int = 0,
        card: Card | None = None,
        city: str | None = None,
    ) -> None:
        self.events.append(Event(kind, seat, text, rules, points, card, city))

    def sees_hand(self, seat: int) -> bool:
        return self.private and seat == self.before.seat

    def run(self, move: Move) -> None:
        before, after, seat = self.before, self.after, self.seat
        if isinstance(move, PlayCards):
            self.play(move)
        elif isinstance(move, Withdraw):
            self.withdraw()
        elif isinstance(move, PlacePalace | PlaceCrownPalace):
            self.palace(move)
        elif isinstance(move, TakeCard):
            self.add(
                EventKind.TAKE, seat, f"takes {move.card} from the supply" + _rules("F2"),
                rules=("F2",), card=move.card,
            )  # fmt: skip
        ended = after.visit != before.visit or (after.is_over and not before.is_over)
        finished = isinstance(move, Withdraw | PlacePalace | PlaceCrownPalace) and not (
            after.phase in (Phase.PALACE, Phase.CROWN) and after.current_player == seat
        )
        if finished and before.table[seat]:
            self.withdrawal_scoring()
        if ended:
            self.visit_end()
        self.reshuffles()  # any not told yet (none: a move draws once, then the supply)

    def reshuffles(self, most: int | None = None) -> None:
        """Report the reshuffles of this move not reported yet (at most ``most``)."""
        left = self.after.reshuffles - self.before.reshuffles - self.reshuffles_told
        for _ in range(left if most is None else min(left, most)):
            text = "the discard pile is shuffled into a new draw deck" + _rules("D1")
            self.add(EventKind.RESHUFFLE, None, text, rules=("D1",))
            self.reshuffles_told += 1

    # -- P
    def play(self, move: PlayCards) -> None:
        cards = str(move.colored) + (f" with {move.extra}" if move.extra is not None else "")
        self.add(EventKind.PLAY, self.seat, f"plays {cards}", card=move.colored)
        if move.extra is not None and move.extra.special is Special.POINTS:
            text = "scores 2 points: the points special card" + _rules("P6")
            self.add(EventKind.POINTS, self.seat, text, rules=("P6",), points=2)

    # -- W
    def withdraw(self) -> None:
        before, seat = self.before, self.seat
        if not before.table[seat]:
            self.add(EventKind.WITHDRAW, seat, "withdraws without having played", rules=("W11",))
            self.draws("from the deck", ("W11", "F3"))
            return
        self.add(EventKind.WITHDRAW, seat, "withdraws", rules=("V3",))
        mine = _symbols(before.table[seat])
        others = {
            other: _symbols(cards)
            for other, cards in enumerate(before.table)
            if other != seat and cards
        }
        for symbol in Symbol:
            count = mine[symbol]
            if count == 0:
                continue
            best = max((c[symbol] for c in others.values()), default=0)
            prize = self.prize_in_court(symbol)
            name = symbol_name(symbol)
            if count > best and prize is not None:
                rule = {Symbol.GRAND_MOGUL: "W7", Symbol.ELEPHANT: "W9"}.get(symbol, "W5")
                text = f"wins the {name} majority ({count} to {best}) and takes {prize}"
                self.add(EventKind.PRIZE, seat, text + _rules("W2", rule), rules=("W2", rule))
            elif count > best:
                text = f"has the {name} majority, but {prize_name(symbol)} was already taken"
                self.add(EventKind.NO_PRIZE, seat, text + _rules("W3"), rules=("W3",))
            elif count == best and prize is not None:
                tied = [s for s, c in others.items() if c[symbol] == count]
                names = and_list([f"seat {s}" for s in tied])
                text = f"ties with {names} for the {name} ({count} each) and does not win {prize}"
                self.add(EventKind.TIE, seat, text + _rules("W4"), rules=("W4",))

    def prize_in_court(self, symbol: Symbol) -> str | None:
        before = self.before
        if symbol in INFLUENCE:
            return f"the {symbol.value} tile" if symbol in before.court_influence else None
        if symbol is Symbol.GRAND_MOGUL:
            return "the crown" if before.court_crown else None
        tile = before.court_province_tile
        return None if tile is None else f"province tile {tile.number} ({_goods(tile)})"

    def palace(self, move: PlacePalace | PlaceCrownPalace) -> None:
        before, seat = self.before, self.seat
        city = self.components.board.city(move.city)
        if isinstance(move, PlaceCrownPalace):
            text = f"places the crown palace in {city.name}" + _rules("W7")
            self.add(EventKind.CROWN_PALACE, seat, text, rules=("W7",), city=city.id)
            return
        self.add(
            EventKind.PALACE, seat, f"places a palace in {city.name}" + _rules("W5"),
            rules=("W5",), city=city.id,
        )  # fmt: skip
        tile = before.bonus_tiles.get(city.id)
        if tile is None:
            return
        taken = f"takes the {_bonus_name(tile)} in {city.name}"
        rules: tuple[str, ...]
        if tile.kind is BonusKind.COMMODITY:
            assert tile.commodity is not None
            points, terms = _commodity_terms(_owned(before, seat), [tile.commodity])
            text = f"{taken}: {_plural(points, 'point')}, {terms}" + _rules("W6", "K4")
            rules = ("W6", "K4")
        elif tile.kind is BonusKind.CARD:
            points, text, rules = 0, taken + _rules("W6", "K3"), ("W6", "K3")
        else:
            rule = "K1" if tile.kind is BonusKind.TAJ_MAHAL else "K2"
            points = tile.points
            text = f"{taken}: {_plural(points, 'point')}" + _rules("W6", rule)
            rules = ("W6", rule)
        self.add(EventKind.BONUS_TILE, seat, text, rules=rules, points=points, city=city.id)
        if tile.kind is BonusKind.CARD:
            self.draws("for the +1 card bonus tile", ("K3",))

    def draws(self, how: str, rules: tuple[str, ...]) -> None:
        """A card the mover drew in this move (W11/F3, K3), named only to the seat that drew it.

        Only the draw brings a card other than a special card into the hand in a
        withdrawal or palace move (played cards are discarded, special cards come
        back, F1, or change hands, E2), so those cards count the draw.
        """
        before, after, seat = self.before, self.after, self.seat
        if _plain_cards_in_hand(after, seat) <= _plain_cards_in_hand(before, seat):
            text = "draws nothing: the draw deck and the discard pile are empty"
            self.add(EventKind.DRAW, seat, text + _rules("D1"), rules=("D1",))
            return
        card = None
        if self.sees_hand(seat):
            new = Counter(after.hand) - Counter(before.hand)
            drawn = [c for c in new.elements() if c.special is None]
            card = drawn[0] if drawn else None
        what = str(card) if card is not None else "a card"
        self.add(EventKind.DRAW, seat, f"draws {what} {how}" + _rules(*rules), rules=rules,
                 card=card)  # fmt: skip
        # D1: the draw found the deck empty, or took its last card with discards waiting
        if before.deck_size == 0 or (before.deck_size == 1 and before.discard):
            self.reshuffles(most=1)

    # -- K5-K8
    def withdrawal_scoring(self) -> None:
        before, after, seat = self.before, self.after, self.seat
        won = after.province_tiles[seat][len(before.province_tiles[seat]) :]
        for tile in won:  # K5
            owned = _owned(after, seat)
            owned.subtract(tile.commodities)
            points, terms = _commodity_terms(owned, tile.commodities)
            text = f"scores {_plural(points, 'point')}: province tile {tile.number}, {terms}"
            self.add(EventKind.POINTS, seat, text + _rules("K5"), rules=("K5",), points=points)
        board = self.components.board
        province = board.province(before.province)

        def mine(city: str) -> bool:
            return seat in after.palaces[city]

        here = [c.id for c in province.cities if mine(c.id)]
        if not here:
            return
        reached: set[str] = set(here)
        frontier = list(here)
        while frontier:  # K7: roads through cities holding one of the seat's palaces
            for other in board.neighbours(frontier.pop()):
                if other not in reached and mine(other):
                    reached.add(other)
                    frontier.append(other)
        linked = sorted(
            {board.city(c).province for c in reached} - {province.id},
            key=lambda p: board.province(p).name,
        )
        names = [board.province(p).name for p in linked]
        where = f"{'palace' if len(here) == 1 else 'palaces'} in {province.name}"
        rules: tuple[str, ...] = ("K6", "K7")
        if names:
            why = f"{where} connected to {and_list(names)}"
        else:
            why, rules = f"{where}, connected to no other province", ("K6",)
        points = 1 + len(names)
        text = f"scores {_plural(points, 'point')}: {why}" + _rules(*rules)
        self.add(EventKind.POINTS, seat, text, rules=rules, points=points)

    # -- E, G
    def visit_end(self) -> None:
        before, after = self.before, self.after
        province = self.components.board.province(before.province)
        text = f"visit {before.visit} ({province.name}) ends" + _rules("V6")
        self.add(EventKind.VISIT_END, None, text, rules=("V6",))
        left = [
            f"the {_bonus_name(tile)} in {self.components.board.city(city).name}"
            for city, tile in before.bonus_tiles.items()
            if self.components.board.city(city).province == province.id
            and city not in after.bonus_tiles
            and not self.took_bonus(city)
        ]
        tile = before.court_province_tile
        if tile is not None and not any(tile in tiles for tiles in after.province_tiles):
            left.insert(0, f"province tile {tile.number}")
        if left:
            text = f"{and_list(left)} {'leaves' if len(left) == 1 else 'leave'} the game"
            self.add(EventKind.TILES_LEFT, None, text + _rules("E1"), rules=("E1",))
        self.special_cards()
        if after.is_over:
            self.game_end()
        else:
            self.reshuffles()  # D1, while the next supply is dealt (E6)
            self.events.extend(visit_start(after))

    def took_bonus(self, city: str) -> bool:
        return any(e.kind is EventKind.BONUS_TILE and e.city == city for e in self.events)

    def special_cards(self) -> None:
        before, after = self.before, self.after
        earned = dict(self.components.special_earned_by)  # C6
        for seat in range(before.num_players):
            returned = Counter(before.influence_tiles[seat]) - Counter(after.influence_tiles[seat])
            gained = [
                special
                for special, holder in after.special_holder.items()
                if holder == seat and before.special_holder.get(special) != seat
            ]
            for symbol, count in sorted(returned.items(), key=lambda item: item[0].value):
                if count < 2:
                    continue
                special = earned.get(symbol)
                if special not in gained:
                    text = f"returns two {symbol.value} tiles and keeps its special card"
                else:
                    assert special is not None
                    old = before.special_holder.get(special)
                    source = "from beside the board" if old is None else f"from seat {old}"
                    text = (
                        f"returns two {symbol.value} tiles and takes the "
                        f"{special.value.replace('_', ' ')} special card {source}"
                    )
                self.add(EventKind.SPECIAL_CARD, seat, text + _rules("E2"), rules=("E2",))

    def game_end(self) -> None:
        before, after = self.before, self.after
        scored = Counter[int]()
        for event in self.events:
            if event.seat is not None:
                scored[event.seat] += event.points
        for other in range(after.num_players):
            points = after.scores[other] - before.scores[other] - scored[other]
            detail = self.hand_detail() if self.sees_hand(other) else "cards in hand"
            text = f"scores {_plural(points, 'point')}: {detail}" + _rules("G1")
            self.add(EventKind.POINTS, other, text, rules=("G1",), points=points)
        best = max(after.scores)
        winners = [s for s, v in enumerate(after.scores) if v == best]
        if len(winners) == 1:
            text = f"the game ends: seat {winners[0]} wins with {best} points (G3)"
        else:
            names = and_list([f"seat {s}" for s in winners])
            text = f"the game ends: {names} share the win with {best} points each (G3)"
        self.add(EventKind.GAME_END, None, text, rules=("E7", "G1", "G3"))

    def hand_detail(self) -> str:
        hand = self.after.hand
        special = sum(1 for c in hand if c.special is not None)
        white = sum(1 for c in hand if c.color is Color.WHITE)
        suits = Counter(c.color for c in hand if c.color in COLORED)
        longest = max(suits.values(), default=0)
        return (
            f"cards in hand: {_plural(special, 'special card')}, {white} white, "
            f"{longest} of the longest colored suit"
        )


def visit_start(view: PlayerView) -> tuple[Event, Event]:
    """The start of the current visit (E3-E5) and its new card supply (E6)."""
    province = view.components.board.province(view.province)
    tile = view.court_province_tile
    what = f"province tile {tile.number}: {_goods(tile)}" if tile is not None else "no tile"
    text = f"Visit {view.visit}: {province.name} ({what}), seat {view.current_player} starts"
    supply = ", ".join(str(card) for card in view.supply) or "no cards"
    return (
        Event(EventKind.VISIT_START, None, text + " (E3-E5)", rules=("E3", "E4", "E5")),
        Event(EventKind.SUPPLY, None, f"the card supply: {supply} (E6)", rules=("E6",)),
    )
