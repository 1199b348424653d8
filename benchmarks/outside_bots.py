"""Outside baselines for strength runs: a strategy bot and a flat Monte Carlo bot (issue 36).

Written from the rules and public strategy advice only, against the public API
(``import tajmahal as tm``: the view, the moves, the component types).  They share
no code with ``ismcts`` (its evaluation, its sampler ``view.sample``, its
``Playout``): the deals are sampled here, from the view, and the visit is
simulated here by a small simulator of the majority contest.  They are the
release benchmark::

    python benchmarks/strength.py ismcts file:benchmarks/outside_bots.py:FlatMcBot greedy
    python benchmarks/strength.py ismcts file:benchmarks/outside_bots.py:StrategyBot greedy

:class:`StrategyBot` -- a hand-written strategy:

- **prize contests**: the prizes in the court (influence tiles, the crown, the
  province tile) are valued for this seat: a palace is worth the K6 point, the
  provinces it connects now (K7), a fortress's bonus tile and the provinces
  still to come next to it (a network grown along the visiting order); the
  province tile its commodities now and the sets they start (K4, K5); an
  influence tile completing a pair a special card (E2);
- a lead is trusted by how many cards the rivals still in the visit hold
  and how far ahead it is; it withdraws when what it holds safely is worth
  more than what another card could add;
- **card economy**: a card spent costs what it is worth for the visits to
  come (less and less as the game ends, then its G1 value); the first
  colored card picks the suit it holds most of; a white card is spent only
  for a prize worth it;
- supply cards: whites, the suit it collects, symbols for the next visits.

:class:`FlatMcBot` -- flat Monte Carlo on top of it: for a play-or-withdraw
decision it deals the unseen cards itself (``samples`` deals, the same deals
for every candidate), plays each candidate move and then the rest of the visit
with the strategy's quick policy for every seat (its own simulator: symbol
counts, hands, visit colours, the court), and values the visit's end as the
prizes each seat took, plus the cards it took from the supply on withdrawing
(F2, F3: ``supply`` times what a card is worth in hand), minus the cards it
spent; the candidate with the best mean of (own value - mean rival value) is
played.  Palaces and supply cards
follow :class:`StrategyBot`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import tajmahal as tm

__all__ = ["FlatMcBot", "StrategyBot"]

SYMBOLS = tuple(tm.Symbol)
INFLUENCE = (tm.Symbol.VIZIER, tm.Symbol.GENERAL, tm.Symbol.MONK, tm.Symbol.PRINCESS)
MOGUL = SYMBOLS.index(tm.Symbol.GRAND_MOGUL)
ELEPHANT = SYMBOLS.index(tm.Symbol.ELEPHANT)
#: ``FlatMcBot``'s worth of a card taken from the supply, in cards in hand: withdrawing early
#: takes two (the last to withdraw, fewer), and a hand of cards wins the contests to come
SUPPLY = 6.0
#: ``FlatMcBot``'s deals per decision: about ``ismcts``'s CPU per decision (compiled) at ``SUPPLY``
#: in games against it (18 cost 1.2 times as much there; 18 is ``ismcts-v2``'s CPU against v2)
SAMPLES = 14
PAIR_SPECIAL = {  # C6: two identical influence tiles earn a special card (the standard pairing)
    tm.Symbol.GENERAL: tm.Special.ELEPHANT,
    tm.Symbol.VIZIER: tm.Special.GRAND_MOGUL,
    tm.Symbol.PRINCESS: tm.Special.POINTS,
    tm.Symbol.MONK: tm.Special.COLOR_CHANGE,
}


def counts_of(card: tm.Card) -> tuple[int, ...]:
    return tuple(card.symbols.count(s) for s in SYMBOLS)


def _visits_left(view: tm.PlayerView) -> int:
    """Visits after the current one."""
    return len(view.province_order) - view.visit


# ---------------------------------------------------------------- what things are worth
class Values:
    """What the prizes of the current visit and the cards are worth to each seat, in points."""

    def __init__(self, view: tm.PlayerView) -> None:
        self.view = view
        comps = view.components
        board = comps.board
        self.n = view.num_players
        self.left = _visits_left(view)
        province_of = {c.id: c.province for c in board.cities}
        self.province_of = province_of
        order = view.province_order
        soon = {p: i for i, p in enumerate(order[view.visit:])}  # future province -> visits away
        self.cities = [c.id for c in board.province(view.province).cities]
        tiles = sorted(comps.province_tiles, key=lambda t: t.number)
        to_come: Counter[tm.Commodity] = Counter()
        for tile in tiles[view.visit:]:
            to_come.update(tile.commodities)
        for city, bonus in view.bonus_tiles.items():
            if bonus.commodity is not None and province_of[city] in soon:
                to_come[bonus.commodity] += 1
        self.to_come = to_come
        # per seat: per free city, the palace's worth; the crown palace's best city
        self.palace: list[list[float]] = []
        self.crown: list[float] = []
        self.tile: list[float] = []
        self.pair: list[dict[int, float]] = []
        for seat in range(self.n):
            mine = {c for c, (normal, crown) in view.palaces.items() if seat in (normal, crown)}
            here = {}
            for city in self.cities:
                reached = board.reachable(city, through=mine.__contains__)
                linked = {province_of[c] for c in reached if c in mine} - {view.province}
                future = 0.0
                for other in board.neighbours(city):
                    away = soon.get(province_of[other])
                    if away is not None:
                        future += 0.45 * (0.85**away)
                here[city] = len(linked) + future
            free = [c for c in self.cities if view.palaces[c][0] is None]
            values = []
            for city in free:
                value = here[city]
                on_city = view.bonus_tiles.get(city)
                if on_city is not None:
                    value += self.bonus_value(seat, on_city)
                values.append(value)
            self.palace.append(sorted(values, reverse=True))
            crown_free = [c for c in self.cities if view.palaces[c][1] is None]
            self.crown.append(max((here[c] for c in crown_free), default=0.0))
            court = view.court_province_tile
            tile_value = 0.0 if court is None else self.commodity_value(seat, court.commodities)
            self.tile.append(tile_value)
            pair = {}
            held = Counter(view.influence_tiles[seat])
            for i, symbol in enumerate(INFLUENCE):
                value = 0.6  # a tile towards a later pair
                if held[symbol] % 2 == 1:
                    special = PAIR_SPECIAL[symbol]
                    value = 1.0 + self.special_value(special, seat)
                pair[i] = value
            self.pair.append(pair)

    def owned(self, seat: int) -> Counter[tm.Commodity]:
        owned: Counter[tm.Commodity] = Counter()
        for tile in self.view.province_tiles[seat]:
            owned.update(tile.commodities)
        owned.update(self.view.commodity_tiles[seat])
        return owned

    def commodity_value(self, seat: int, commodities: Sequence[tm.Commodity]) -> float:
        owned = self.owned(seat)
        value = 0.0
        for c in commodities:
            value += 1 + owned[c]  # K4/K5 now
            value += 0.35 * self.to_come[c] * min(1.0, self.left / 6)  # the set it starts
        return value

    def bonus_value(self, seat: int, bonus: tm.BonusTile) -> float:
        if bonus.kind is tm.BonusKind.COMMODITY and bonus.commodity is not None:
            return self.commodity_value(seat, (bonus.commodity,))
        if bonus.kind is tm.BonusKind.CARD:
            return 0.8
        return float(bonus.points)

    def special_value(self, special: tm.Special, seat: int) -> float:
        holder = self.view.special_holder.get(special)
        if holder == seat:
            return 0.0
        left = self.left
        if special is tm.Special.POINTS:
            worth = 1.0 + 1.3 * min(left, 6)
        elif special is tm.Special.COLOR_CHANGE:
            worth = 1.0 + 0.25 * min(left, 6)
        else:
            worth = 1.0 + 0.5 * min(left, 6)
        return worth + (0.5 if holder is not None else 0.0)  # taken from a rival

    def card_cost(self, seat: int) -> float:
        """What one colored card is worth in hand for the visits to come."""
        hand = self.view.hand_sizes[seat]
        scarce = 1.0 + 1.5 / max(hand, 1)
        if self.left == 0:
            return 0.5
        return min(1.0, 0.3 + 0.07 * self.left) * scarce

    def prizes(self, seat: int, won: Sequence[int], taken_cities: int = 0) -> float:
        """The worth of winning symbols ``won`` (indices) now."""
        palaces = [i for i in won if i < 4]
        value = 0.0
        cities = self.palace[seat][taken_cities:]
        placed = min(len(palaces), len(cities))
        if placed:
            value += 1.0 + sum(cities[:placed])
            value += sum(self.pair[seat][i] for i in palaces[:placed])
        if MOGUL in won:
            value += self.crown[seat] + (0.0 if placed else 1.0)
        if ELEPHANT in won:
            value += self.tile[seat]
        return value


def _court(view: tm.PlayerView) -> list[bool]:
    court = [s in view.court_influence for s in SYMBOLS]
    court[MOGUL] = view.court_crown
    court[ELEPHANT] = view.court_province_tile is not None
    return court


def _table_counts(cards: Sequence[tm.Card]) -> list[int]:
    out = [0] * 6
    for card in cards:
        for i, n in enumerate(counts_of(card)):
            out[i] += n
    return out


def _won(mine: Sequence[int], others: Sequence[Sequence[int]], court: Sequence[bool]) -> list[int]:
    won = []
    for i in range(6):
        if court[i] and mine[i] >= 1 and all(mine[i] > o[i] for o in others):
            won.append(i)
    return won


# ---------------------------------------------------------------- the strategy bot
class StrategyBot:
    """A hand-written strategy from the rules and public advice (see the module's docstring)."""

    name = "strategy"

    def __init__(self, seed: int = 0, caution: float = 0.0) -> None:
        self.seed = seed
        self.caution = float(caution)
        self.rng = random.Random(seed)

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        if len(legal_moves) == 1:
            return legal_moves[0]
        values = Values(view)
        if view.phase is tm.Phase.PLAY:
            return self.play(view, legal_moves, values)
        if view.phase is tm.Phase.TAKE:
            return max(legal_moves, key=lambda m: take_value(view, m))
        return max(legal_moves, key=lambda m: city_value(view, values, m))

    def play(self, view: tm.PlayerView, moves: Sequence[tm.Move], values: Values) -> tm.Move:
        seat = view.seat
        court = _court(view)
        mine = _table_counts(view.table[seat])
        active = [s for s in range(view.num_players) if s != seat and not view.withdrawn[s]]
        others = [_table_counts(view.table[s]) for s in active]
        withdraw = next(m for m in moves if isinstance(m, tm.Withdraw))
        held = self.secure_value(view, values, mine, others, active, court)
        cost = values.card_cost(seat)
        best: tm.Move = withdraw
        best_gain = 0.15 if held > 0 else -0.3  # withdrawing keeps the cards
        colour_count = Counter(c.color for c in view.hand)
        for move in moves:
            if not isinstance(move, tm.PlayCards):
                continue
            after = list(mine)
            for i, k in enumerate(counts_of(move.colored)):
                after[i] += k
            spent = cost
            if move.extra is not None:
                for i, k in enumerate(counts_of(move.extra)):
                    after[i] += k
                spent += extra_cost(move.extra, values, seat)
            gain = self.secure_value(view, values, after, others, active, court) - held - spent
            if view.visit_colors[seat] is None:  # the first card fixes the suit: a long one
                gain += 0.12 * colour_count[move.colored.color]
            if gain > best_gain:
                best, best_gain = move, gain
        return best

    def secure_value(
        self,
        view: tm.PlayerView,
        values: Values,
        mine: Sequence[int],
        others: Sequence[Sequence[int]],
        active: Sequence[int],
        court: Sequence[bool],
    ) -> float:
        """The prizes held, each discounted by the chance a rival still playing takes it."""
        won = _won(mine, others, court)
        if not won:
            return 0.0
        total = values.prizes(view.seat, won)
        if not active:
            return total
        risk = 0.0
        for i in won:
            lead = mine[i] - max((o[i] for o in others), default=0)
            hands = sum(min(view.hand_sizes[s], 6) for s in active)
            # a rival playing on adds about one symbol of a kind a turn when it cares
            threat = 0.22 * hands / (lead + 0.5) * self.caution
            risk += min(0.85, threat) * values.prizes(view.seat, [i])
        return max(0.0, total - risk)


def extra_cost(card: tm.Card, values: Values, seat: int) -> float:
    if card.special is tm.Special.POINTS:
        return -2.0  # P6
    if card.special is not None:
        return 0.15  # comes back to the hand (F1)
    return 1.0 + 0.5 * values.card_cost(seat)  # a white card: flexible, and a point at the end


def city_value(view: tm.PlayerView, values: Values, move: tm.Move) -> float:
    board = view.components.board
    if isinstance(move, tm.PlacePalace | tm.PlaceCrownPalace):
        city = move.city
        mine = {c for c, (a, b) in view.palaces.items() if view.seat in (a, b)}
        reached = board.reachable(city, through=lambda c: c in mine)
        linked = {values.province_of[c] for c in reached if c in mine} - {view.province}
        order = view.province_order
        soon = {p: i for i, p in enumerate(order[view.visit:])}
        value = float(len(linked))
        for other in board.neighbours(city):
            away = soon.get(values.province_of[other])
            if away is not None:
                value += 0.45 * (0.85**away)
        if isinstance(move, tm.PlacePalace):
            bonus = view.bonus_tiles.get(city)
            if bonus is not None:
                value += values.bonus_value(view.seat, bonus)
        else:  # leave the free cities to the normal palaces still to come
            value -= 0.01 * (view.palaces[city][0] is None)
        return value
    return 0.0


def take_value(view: tm.PlayerView, move: tm.Move) -> float:
    if not isinstance(move, tm.TakeCard):
        return 0.0
    card = move.card
    left = _visits_left(view)
    symbols = counts_of(card)
    if card.color is tm.Color.WHITE:
        return 2.5 + 0.6 * sum(symbols)
    suits: Counter[tm.Color] = Counter(
        c.color for c in view.hand if c.color not in (tm.Color.WHITE, tm.Color.SPECIAL)
    )
    longest = max(suits.values(), default=0)
    same = suits[card.color]
    value = 0.5 * sum(symbols) + 0.15 * symbols[ELEPHANT] + 0.1 * symbols[MOGUL]
    value += 0.25 * same
    if left <= 2:  # G1: cards of the longest suit count at the end
        value += 1.2 * (same + 1 > longest or same == longest)
    return value


# ---------------------------------------------------------------- the flat Monte Carlo bot
class _Kind:
    __slots__ = ("card", "color", "counts", "special", "white")

    def __init__(self, card: tm.Card) -> None:
        self.card = card
        self.counts = counts_of(card)
        self.white = card.color is tm.Color.WHITE
        self.special = card.special
        self.color = card.color


class FlatMcBot:
    """Flat Monte Carlo over its own sampled deals, its own visit simulator (see the docstring).

    Options: ``samples`` (deals per decision, the same deals for every candidate;
    default ``SAMPLES``, 14: about the CPU per decision of ``ismcts``'s default,
    compiled), ``seed``;
    ``supply`` (what a card taken from the supply on withdrawing is worth, in cards in
    hand; default ``SUPPLY``; 0: the first version, which counted only the W11 card);
    ``halving`` (sequential halving: the same number of simulations, spent in rounds
    that drop the worse half of the candidates; default off).
    """

    name = "flat-mc"

    def __init__(
        self,
        seed: int = 0,
        samples: int = SAMPLES,
        noise: float = 0.35,
        supply: float = SUPPLY,
        halving: bool = False,
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 10000:
            raise ValueError(f"samples must be an int from 1 to 10000, got {samples!r}")
        if isinstance(supply, bool) or not isinstance(supply, int | float) or not 0 <= supply <= 10:
            raise ValueError(f"supply must be a number from 0 to 10, got {supply!r}")
        self.seed = seed
        self.samples = samples
        self.noise = float(noise)
        self.supply = float(supply)
        self.halving = bool(halving)
        self.rng = random.Random(seed)
        self.strategy = StrategyBot(seed=seed)
        self.last_iterations = 0
        self._kinds: dict[tm.Card, _Kind] = {}

    def kind(self, card: tm.Card) -> _Kind:
        kind = self._kinds.get(card)
        if kind is None:
            kind = self._kinds[card] = _Kind(card)
        return kind

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        self.last_iterations = 0
        if len(legal_moves) == 1:
            return legal_moves[0]
        if view.phase is not tm.Phase.PLAY:
            return self.strategy.choose(view, legal_moves)
        values = Values(view)
        candidates = list(legal_moves)
        deals: list[tuple[list[list[tm.Card]], int]] = []
        totals = [0.0] * len(candidates)
        done = [0] * len(candidates)  # deals simulated per candidate (always a prefix of deals)

        def simulate(index: int, upto: int) -> None:
            while len(deals) < upto:
                deals.append((self.deal(view), self.rng.getrandbits(32)))
            for hands, seed in deals[done[index]:upto]:
                sim = _Visit(self, view, values, hands, random.Random(seed))
                sim.first(candidates[index])
                sim.finish()
                totals[index] += sim.outcome(view.seat)
                self.last_iterations += 1
            done[index] = max(done[index], upto)

        alive = list(range(len(candidates)))
        if not self.halving or len(alive) <= 2:
            for index in alive:
                simulate(index, self.samples)
        else:  # sequential halving: the same budget, more of it on the close candidates
            budget = self.samples * len(candidates)
            rounds = (len(alive) - 1).bit_length()  # halving to one candidate
            for _ in range(rounds):
                upto = done[alive[0]] + max(1, budget // (rounds * len(alive)))
                for index in alive:
                    simulate(index, upto)
                alive.sort(key=lambda i: totals[i], reverse=True)
                alive = alive[: (len(alive) + 1) // 2]
        best = max(alive, key=lambda i: totals[i] / done[i])
        return candidates[best]

    def deal(self, view: tm.PlayerView) -> list[list[tm.Card]]:
        """Every seat's hand: its own; the others' known cards, and unseen ones at random."""
        comps = view.components
        unseen = Counter(comps.deck)
        seen: list[tm.Card] = list(view.hand)
        for cards in view.table:
            seen.extend(cards)
        seen.extend(view.discard)
        seen.extend(view.supply)
        for s in range(view.num_players):
            if s != view.seat:
                seen.extend(view.known_cards[s])
        for card in seen:
            if card.special is None and unseen[card] > 0:
                unseen[card] -= 1
        pool = list(unseen.elements())
        self.rng.shuffle(pool)
        hands: list[list[tm.Card]] = []
        for s in range(view.num_players):
            if s == view.seat:
                hands.append(list(view.hand))
                continue
            known = list(view.known_cards[s])
            need = view.hand_sizes[s] - len(known)
            hands.append(known + [pool.pop() for _ in range(min(need, len(pool)))])
        return hands


class _Visit:
    """The rest of the current visit's majority contest, simulated on symbol counts."""

    __slots__ = ("bot", "colors", "counts", "court", "current", "gains", "hands", "n",
                 "placed", "rng", "supply", "values", "withdrawn")  # fmt: skip

    def __init__(
        self,
        bot: FlatMcBot,
        view: tm.PlayerView,
        values: Values,
        hands: list[list[tm.Card]],
        rng: random.Random,
    ) -> None:
        self.bot, self.values, self.rng = bot, values, rng
        self.n = view.num_players
        kind = bot.kind
        self.hands = [[kind(c) for c in hand] for hand in hands]
        self.counts = [_table_counts(cards) for cards in view.table]
        self.colors = list(view.visit_colors)
        self.withdrawn = list(view.withdrawn)
        self.court = _court(view)
        self.current = view.seat
        self.gains = [0.0] * self.n
        self.supply = len(view.supply)  # cards left in the supply (F2)
        self.placed = 0  # normal palaces placed in this visit's province so far (simulated)

    # moves
    def first(self, move: tm.Move) -> None:
        seat = self.current
        if isinstance(move, tm.PlayCards):
            self.play(seat, self.bot.kind(move.colored),
                      None if move.extra is None else self.bot.kind(move.extra))  # fmt: skip
        else:
            self.withdraw(seat)
        self.advance()

    def play(self, seat: int, colored: _Kind, extra: _Kind | None) -> None:
        hand = self.hands[seat]
        counts = self.counts[seat]
        cost = self.values.card_cost(seat)
        for card in (colored, extra):
            if card is None:
                continue
            for i in range(6):
                counts[i] += card.counts[i]
            for j, held in enumerate(hand):
                if held.card == card.card:
                    del hand[j]
                    break
            if card.special is tm.Special.POINTS:
                self.gains[seat] += 2.0
            elif card.special is None:
                self.gains[seat] -= cost + (1.0 if card.white else 0.0)
        changing = extra is not None and extra.special is tm.Special.COLOR_CHANGE  # P4
        if not changing and self.colors[seat] is None:
            self.colors[seat] = colored.color
        if extra is not None and extra.special is not None:
            hand.append(extra)  # F1: special cards return to the hand

    def withdraw(self, seat: int) -> None:
        others = [self.counts[s] for s in range(self.n) if s != seat and not self.withdrawn[s]]
        mine = self.counts[seat]
        worth = self.bot.supply * self.values.card_cost(seat)  # a card taken (F2, F3)
        if worth:
            taken = min(2, self.supply)
            self.supply -= taken
            self.gains[seat] += worth * (taken + (not any(mine)))
        elif not any(mine):
            self.gains[seat] += 0.6  # W11: a card from the deck
        won = _won(mine, others, self.court)
        if won:
            self.gains[seat] += self.values.prizes(seat, won, self.placed)
            self.placed += sum(1 for i in won if i < 4)
            for i in won:
                self.court[i] = False
        self.withdrawn[seat] = True
        self.counts[seat] = [0] * 6

    def advance(self) -> None:
        for step in range(1, self.n + 1):
            seat = (self.current + step) % self.n
            if not self.withdrawn[seat]:
                self.current = seat
                return
        self.current = -1

    def finish(self) -> None:
        guard = 0
        while self.current >= 0 and guard < 200:
            guard += 1
            seat = self.current
            move = self.policy(seat)
            if move is None:
                self.withdraw(seat)
            else:
                self.play(seat, *move)
            self.advance()

    def plays(self, seat: int) -> list[tuple[_Kind, _Kind | None]]:
        hand = self.hands[seat]
        color = self.colors[seat]
        change = any(k.special is tm.Special.COLOR_CHANGE for k in hand)
        colored = [k for k in hand if k.special is None and not k.white
                   and (color is None or k.color is color)]  # fmt: skip
        out: list[tuple[_Kind, _Kind | None]] = [(k, None) for k in colored]
        extras = [k for k in hand if k.white or (k.special is not None
                  and k.special is not tm.Special.COLOR_CHANGE)]  # fmt: skip
        for k in colored:
            for e in extras:
                out.append((k, e))
        if change and color is not None:
            cc = next(k for k in hand if k.special is tm.Special.COLOR_CHANGE)
            out.extend((k, cc) for k in hand
                       if k.special is None and not k.white and k.color is not color)  # fmt: skip
        return out

    def policy(self, seat: int) -> tuple[_Kind, _Kind | None] | None:
        """The strategy's quick rule, with a little noise: a play, or None to withdraw."""
        plays = self.plays(seat)
        if not plays:
            return None
        values = self.values
        court = self.court
        mine = self.counts[seat]
        others = [self.counts[s] for s in range(self.n) if s != seat and not self.withdrawn[s]]
        alone = not others
        held_won = _won(mine, others, court)
        held = values.prizes(seat, held_won, self.placed) if held_won else 0.0
        if held_won and not alone:
            lead = min(mine[i] - max(o[i] for o in others) for i in held_won)
            if held >= 2.5 or lead >= 2 or self.rng.random() < 0.35:
                return None
        cost = values.card_cost(seat)
        best, best_gain = None, 0.1 if held else -0.2
        noise = self.bot.noise
        for colored, extra in plays:
            after = list(mine)
            for i in range(6):
                after[i] += colored.counts[i]
            spent = cost
            if extra is not None:
                for i in range(6):
                    after[i] += extra.counts[i]
                if extra.special is tm.Special.POINTS:
                    spent -= 2.0
                elif extra.special is None:
                    spent += 1.0 + 0.5 * cost
                else:
                    spent += 0.15
            won = _won(after, others, court)
            value = values.prizes(seat, won, self.placed) if won else 0.0
            if not alone:
                value *= 0.75
            gain = value - held - spent + noise * self.rng.random()
            if gain > best_gain:
                best, best_gain = (colored, extra), gain
        return best

    def outcome(self, seat: int) -> float:
        rivals = [self.gains[s] for s in range(self.n) if s != seat]
        return self.gains[seat] - sum(rivals) / len(rivals)
