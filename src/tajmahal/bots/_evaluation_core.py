"""The hot code of :mod:`tajmahal.bots.evaluation`, compiled in the compiled build.

The evaluation's features and estimates and the rollout policy, called
thousands of times per ``ismcts`` decision.  :mod:`tajmahal.bots.evaluation`
documents them (mypyc drops a compiled function's docstring) and holds the
weights; here the weights come in as plain tuples.
"""

from __future__ import annotations

import math
import random
import sys
from typing import Final, NamedTuple

from tajmahal.rules.components import COLORED, Special
from tajmahal.rules.playout import CROWN, OVER, PALACE, PLAY, TAKE, WITHDRAW, Playout
from tajmahal.rules.tables import ELEPHANT, GRAND_MOGUL, INFLUENCE_IDX, SPECIALS, Tables

HAND_CAP: Final = 10  #: cards in hand beyond this many count no more
#: the features of ``features`` (the ``ismcts-v2`` evaluation reads these only)
BASE_FEATURES: Final = 12
_POINTS: Final = SPECIALS.index(Special.POINTS)


class _Statics(NamedTuple):
    influence: tuple[int, ...]  #: per kind, its influence and grand mogul symbols
    neighbours: tuple[tuple[int, ...], ...]
    pairs: tuple[tuple[tuple[int, int], ...], ...]  #: per kind, its (symbol, count) pairs


_statics_cache: tuple[Tables, _Statics] | None = None


def _statics(t: Tables) -> _Statics:
    global _statics_cache
    if _statics_cache is not None and _statics_cache[0] is t:
        return _statics_cache[1]
    symbols = (*INFLUENCE_IDX, GRAND_MOGUL)
    influence = tuple(sum(counts[i] for i in symbols) for counts in t.symbol_counts)
    pairs = tuple(tuple((i, c) for i, c in enumerate(cs) if c) for cs in t.symbol_counts)
    statics = _Statics(influence, t.adjacency, pairs)
    _statics_cache = (t, statics)
    return statics


def visits_left(game: Playout) -> int:
    """The visits still to play, the current one included (0 once the game is over)."""
    if game.phase == OVER:
        return 0
    return max(0, len(game.province_order) - game.visit + 1)


def features(game: Playout, contest: bool = True) -> list[list[float]]:
    """Per seat, the value of each feature (``evaluation.FEATURES``, in that order); without
    ``contest``, only the first ``BASE_FEATURES`` (``evaluation.FEATURES_V2``)."""
    # lists indexed by province, city or commodity, not sets, dicts or zips: compiled, these
    # loops stay native (no boxed ints, no hashing)
    t = game.tables
    statics = _statics(t)
    influence_of, neighbours = statics.influence, statics.neighbours
    suit_of = t.suit
    city_province = t.city_province
    visit = game.visit
    order = game.province_order
    future = [False] * len(t.province_ids)  # per province: still to be visited?
    if game.phase != OVER:
        for i in range(visit - 1, len(order)):
            future[order[i]] = True
    to_come = [0, 0, 0, 0]  # commodities on the tiles and bonus tiles still to come
    for number in range(visit, len(order) + 1):
        for c in t.tile_commodities[number - 1]:
            to_come[c] += 1
    bonus_commodity = t.bonus_commodity
    for city, tile in enumerate(game.bonus):
        if tile >= 0 and future[city_province[city]] and bonus_commodity[tile] >= 0:
            to_come[bonus_commodity[tile]] += 1
    n = game.num_players
    palaces: list[list[int]] = [[] for _ in range(n)]
    normal, crown = game.normal, game.crown
    for city in range(len(normal)):
        owner, crowned = normal[city], crown[city]
        if owner >= 0:
            palaces[owner].append(city)
        if crowned >= 0 and crowned != owner:
            palaces[crowned].append(city)
    owned_by: list[list[int]] = []  # per seat, the commodities of its province and bonus tiles
    for seat in range(n):
        owned = [0, 0, 0, 0]
        for number in game.province_tiles[seat]:
            for c in t.tile_commodities[number - 1]:
                owned[c] += 1
        for tile in game.commodity_tiles[seat]:
            owned[bonus_commodity[tile]] += 1
        owned_by.append(owned)
    contests = _contests(game, owned_by) if contest else []
    here = -1 if game.phase == OVER else order[visit - 1]
    scratch = _Scratch(len(city_province), len(future))
    out = []
    for seat in range(n):
        hand = game.hands[seat]
        extras = 0
        symbols = 0
        suits = [0] * len(COLORED)
        for kind in hand:
            symbols += influence_of[kind]
            suit = suit_of[kind]
            if suit < 0:  # a white or special card
                extras += 1
            else:
                suits[suit] += 1
        most = 0
        for count in suits:
            if count > most:
                most = count
        points_card = other_specials = 0
        for index, holder in enumerate(game.holder):
            if holder == seat:
                if index == _POINTS:
                    points_card = 1
                else:
                    other_specials += 1
        unpaired = 0
        for count in game.influence[seat]:
            unpaired += count % 2
        owned = owned_by[seat]
        potential = tiles = 0
        for c in range(4):
            potential += owned[c] * to_come[c]
            tiles += owned[c]
        connection, provinces, linked = _connections(
            palaces[seat], neighbours, city_province, future, here, scratch, seat + 1
        )
        row = (
            [
                1.0,
                float(min(len(hand), HAND_CAP)),
                float(extras),
                float(most),
                float(symbols),
                float(points_card),
                float(other_specials),
                float(unpaired),
                float(potential),
                float(tiles),
                float(connection),
                float(provinces),
            ]
        )
        if contest:
            row.extend(contests[seat])
            row.append(float(linked))
        out.append(row)
    return out


class _Scratch:
    """The lists :func:`_connections` marks, made once per evaluation and shared by its seats
    (each seat marks with its own number: nothing to clear between seats)."""

    __slots__ = ("counted", "own", "reached", "seen")

    def __init__(self, cities: int, provinces: int) -> None:
        self.own = [0] * cities  #: per city, the number of the last seat owning it
        self.seen = [0] * cities  #: per city, the number of the last seat whose walk saw it
        self.reached = [0] * provinces  #: per province, the last group (stamp) reaching it
        self.counted = [0] * provinces  #: per province, the last group (stamp) counting it


def _connections(
    cities: list[int],
    neighbours: tuple[tuple[int, ...], ...],
    city_province: tuple[int, ...],
    future: list[bool],
    here: int,
    scratch: _Scratch,
    mark: int,
) -> tuple[int, int, int]:
    """(connection potential, provinces with a palace, provinces of the largest group next
    to province ``here``) of one seat's palaces (K7).

    ``future`` says per province whether it is still to be visited; ``scratch`` holds the
    marks, ``mark`` (above 0) is this seat's.
    """
    if not cities:
        return 0, 0, 0
    own, seen = scratch.own, scratch.seen
    for city in cities:
        own[city] = mark
    best = [0] * len(future)  # per future province: provinces of the largest group reaching it
    reached, counted = scratch.reached, scratch.counted
    # group stamps: this seat's lie above every earlier seat's (a seat has fewer groups than
    # there are cities, and its last stamp counts its provinces)
    stamp = mark * (len(city_province) + 2)
    for start in cities:
        if seen[start] == mark:
            continue
        stamp += 1
        group = [start]
        seen[start] = mark
        reaches: list[int] = []
        i = 0
        while i < len(group):  # grows while it is read: a breadth-first walk
            city = group[i]
            i += 1
            for other in neighbours[city]:
                if own[other] == mark:
                    if seen[other] != mark:
                        seen[other] = mark
                        group.append(other)
                else:
                    province = city_province[other]
                    if future[province] and reached[province] != stamp:
                        reached[province] = stamp
                        reaches.append(province)
        size = _provinces(group, city_province, counted, stamp)
        for province in reaches:
            if best[province] < size:
                best[province] = size
    provinces = _provinces(cities, city_province, counted, stamp + 1)
    total = 0
    for size in best:
        total += size
    return total, provinces, best[here] if here >= 0 else 0


def _provinces(
    cities: list[int], city_province: tuple[int, ...], counted: list[int], stamp: int
) -> int:
    """How many provinces ``cities`` lie in (``counted``: per province, the last stamp
    that counted it)."""
    found = 0
    for city in cities:
        province = city_province[city]
        if counted[province] != stamp:
            counted[province] = stamp
            found += 1
    return found


def estimated_scores(game: Playout, rows: tuple[tuple[float, ...], ...]) -> list[float]:
    """Each seat's estimated final score with the weight rows ``rows`` (per visits left)."""
    left = visits_left(game)
    if left == 0:
        return [float(s) for s in game.scores]
    row = rows[min(left, len(rows) - 1)]
    scores = game.scores
    table = features(game, len(row) > BASE_FEATURES)  # v2's weights: its features only
    out = []
    for seat, values in enumerate(table):
        out.append(float(scores[seat]) + _dot(row, values))
    return out


#: whether the built-in ``sum`` of floats compensates its rounding (Neumaier: Python 3.12 on)
_COMPENSATED: Final = sys.version_info >= (3, 12)


def _dot(row: tuple[float, ...], values: list[float]) -> float:
    """``sum([row[i] * values[i] for i in range(len(values))])`` to the last bit, the way this
    Python's ``sum`` adds floats (compensated from 3.12), without a list of boxed floats."""
    if not values:
        return 0.0
    total = row[0] * values[0]
    if not _COMPENSATED:
        for i in range(1, len(values)):
            total += row[i] * values[i]
        return total
    c = 0.0
    for i in range(1, len(values)):
        x = row[i] * values[i]
        t = total + x
        if abs(total) >= abs(x):
            c += (total - t) + x
        else:
            c += (x - t) + total
        total = t
    if c != 0.0 and math.isfinite(c):
        total += c
    return total


def _contests(game: Playout, owned_by: list[list[int]]) -> list[list[float]]:
    """Per seat, the prize-contest features but the last (``evaluation.CONTEST_FEATURES``).

    Read at the start of a visit (the court full): the elephants and grand
    moguls in hand, the influence and elephant symbols beyond the best rival's
    (who can win which prize), the hand's size against the largest rival hand,
    the current province tile's points for the seat (K5) alone and times its
    elephant lead.  (The last, the provinces a palace here would connect, comes
    from ``_connections``.)
    """
    t = game.tables
    pairs = _statics(t).pairs
    n = game.num_players
    held: list[list[int]] = []
    sizes: list[int] = []
    for seat in range(n):
        mine = [0, 0, 0, 0, 0, 0]
        for kind in game.hands[seat]:
            for i, count in pairs[kind]:  # its symbols only
                mine[i] += count
        held.append(mine)
        size = len(game.hands[seat])
        sizes.append(size if size < HAND_CAP else HAND_CAP)
    over = game.phase == OVER
    tile = () if over or not game.court_tile else t.tile_commodities[game.visit - 1]
    out = []
    for seat in range(n):
        mine = held[seat]
        rival = [0, 0, 0, 0, 0, 0]
        biggest = 0
        for other in range(n):
            if other != seat:
                theirs = held[other]
                for i in range(6):
                    if theirs[i] > rival[i]:
                        rival[i] = theirs[i]
                if sizes[other] > biggest:
                    biggest = sizes[other]
        influence_lead = 0
        for i in INFLUENCE_IDX:
            if mine[i] > rival[i]:
                influence_lead += mine[i] - rival[i]
        elephant_lead = mine[ELEPHANT] - rival[ELEPHANT]
        tile_points = 0
        if tile:
            owned = owned_by[seat]
            for c in tile:
                tile_points += 1 + owned[c]
        out.append(
            [
                float(mine[ELEPHANT]),
                float(mine[GRAND_MOGUL]),
                float(influence_lead),
                float(elephant_lead if elephant_lead > 0 else 0),
                float(sizes[seat] - biggest),
                float(tile_points),
                float(tile_points * (1 if elephant_lead > 0 else 0)),
            ]
        )
    return out


def reward_scale(game: Playout, scales: tuple[float, ...]) -> float:
    """The reward's logistic width for the visits still to play."""
    return scales[min(visits_left(game), len(scales) - 1)]


def evaluate(
    game: Playout,
    rows: tuple[tuple[float, ...], ...],
    scales: tuple[float, ...],
    scale: float | None = None,
) -> list[float]:
    """One reward in 0..1 per seat: the logistic of its estimated margin over the best rival."""
    est = estimated_scores(game, rows)
    width = reward_scale(game, scales) if scale is None else scale
    top = second = -math.inf  # the two best estimates: each seat's best rival is one of them
    for v in est:
        if v > top:
            top, second = v, top
        elif v > second:
            second = v
    out = []
    for mine in est:
        rival = second if mine == top else top  # a tie for the top: the rival is as good
        margin = (mine - rival) / width
        out.append(1.0 / (1.0 + math.exp(-margin)) if margin > -30 else 0.0)
    return out


class Reward:
    """:func:`evaluate` with its weight rows and scales bound: a callable the search calls
    once a simulation (compiled, without a Python call between the two)."""

    __slots__ = ("rows", "scales")

    def __init__(self, rows: tuple[tuple[float, ...], ...], scales: tuple[float, ...]) -> None:
        self.rows, self.scales = rows, scales

    def __call__(self, game: Playout) -> list[float]:
        return evaluate(game, self.rows, self.scales, None)


def heuristic_pick(game: Playout, codes: list[int], rng: random.Random) -> int:
    """A cheap, plausible move for the seat to move (the ``heuristic`` rollout policy)."""
    if len(codes) == 1:
        return codes[0]
    phase = game.phase
    if phase == PLAY:
        return _play_or_withdraw(game, codes, rng)
    if phase == TAKE:
        white = game.tables.white
        whites = [k for k in codes if white[k]]
        return whites[0] if whites else codes[int(rng.random() * len(codes))]
    if phase in (PALACE, CROWN):
        return _city(game, codes, rng, normal=phase == PALACE)
    return codes[0]  # pragma: no cover - no other phase has moves


def court_prizes(game: Playout) -> list[bool]:
    """Per symbol (indexed like SYMBOLS), whether its prize is still at court this visit."""
    prizes = [game.court_influence[i] for i in range(4)] + [False, False]
    prizes[GRAND_MOGUL] = game.court_crown
    prizes[ELEPHANT] = game.court_tile
    return prizes


def _play_or_withdraw(game: Playout, codes: list[int], rng: random.Random) -> int:
    seat = game.current
    mine, best = game.counts[seat], game.rival_best(seat)
    holding = 0  # the prizes still at court that the seat leads for (court_prizes, inlined)
    court = game.court_influence
    for i in range(6):
        if i == GRAND_MOGUL:
            prize = game.court_crown
        elif i == ELEPHANT:
            prize = game.court_tile
        else:
            prize = court[i]
        if prize and mine[i] >= 1 and mine[i] > best[i]:
            holding += 1
    u = rng.random()
    if holding and u < 0.5 + 0.2 * holding:
        return WITHDRAW
    plain = [c for c in codes if c != WITHDRAW and c % game.stride == 0]
    if not plain or (game.table[seat] and u > 0.93):  # now and then: give up
        return WITHDRAW
    return plain[int(rng.random() * len(plain))]


def _city(game: Playout, codes: list[int], rng: random.Random, normal: bool) -> int:
    seat = game.current
    if normal:
        bonus = [c for c in codes if game.bonus[c] >= 0]
        if bonus:
            return bonus[0]
    t = game.tables
    mine = [
        c
        for c in codes
        if any(game.normal[o] == seat or game.crown[o] == seat for o in t.adjacency[c])
    ]
    pool = mine or codes
    return pool[int(rng.random() * len(pool))]
