"""What the ``ismcts`` bot knows about Taj Mahal: a position evaluation and a rollout policy.

Both read a :class:`~tajmahal.rules.playout.Playout` directly (lists of card
kinds, palaces by city index) because they run thousands of times per decision.

**Evaluation** (:func:`evaluate`), at the start of a visit: each seat's
*estimated final score* (:func:`estimated_scores`) is its score plus a
linear estimate of the points it will still make, ``weights · features``,
with one weight vector per number of visits still to play.  The features
(:data:`FEATURES`, computed by :func:`features`) are the strategic terms of
the game:

- the hand: its size (at most ``HAND_CAP`` cards: cards win later
  majorities), what it would score now at the end of the game (G1: its white
  and special cards, its longest suit), and its influence and grand mogul
  symbols (card quality);
- the special cards held: the ``points`` card (P6, 2 points a visit) and the
  others; influence tiles one short of a pair (E2);
- owned commodities times the same commodities still to come on the
  province tiles and commodity bonus tiles of the provinces not yet visited
  (K4, K5: each scores one more per tile already owned);
- palaces next to provinces still to come: for each such province, the
  provinces of the largest own palace group reaching one of its cities by a
  road (K7: a palace placed there would score them); the provinces holding
  own palaces.

The weights are fitted from self-play (``benchmarks/fit_evaluation.py``,
numpy least squares of the points each seat still made on these features)
and shipped as package data (``evaluation_weights.json``, read at import:
:data:`WEIGHTS`).  After the last visit the estimate is the final score itself.

**Reward**, one per seat: ``1 / (1 + exp(-(own estimate - best rival's
estimate) / scale))``, a smooth probability of winning from the margin over
the strongest rival.  The ``scale`` (:func:`reward_scale`) depends on the
visits still to play and is fitted with the weights, so that the logistic is
the self-play games' observed chance of winning for that margin: a lead of a
few points early in the game is no sure win and the reward does not
saturate, so the search still tells a better move from a worse one when far
ahead or behind.  (The first release used a fixed scale of 3: 44% of its
card-play decisions saw root rewards above 0.95 or below 0.05; the
``ismcts-v1`` bot keeps its evaluation, :mod:`tajmahal.bots.evaluation_v1`.)
Why not the final score share: in a game of 3–5, points taken from a weak
rival are worth less than points taken from the leader, and the share
rewards them alike.  Why not the rank itself: 0/1 for first place hides
every point gained or lost when nobody changes places.  The margin's
logistic keeps the rank's aim (beat the best rival) and the points' gradient.

**Rollout policy** (:func:`heuristic_pick`), for every seat:
withdraw (mostly) once a prize still in the court is held, otherwise play a
colored card (mostly without a white or special card), now and then giving
up; put palaces on fortresses with a bonus tile, then next to one's own
palaces; take white cards first.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from importlib.resources import files
from typing import Any, NamedTuple

from tajmahal.rules.components import Special
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.playout import CROWN, OVER, PALACE, PLAY, TAKE, WITHDRAW, Playout
from tajmahal.rules.tables import ELEPHANT, GRAND_MOGUL, INFLUENCE_IDX, SPECIALS, Tables

__all__ = [
    "FEATURES",
    "WEIGHTS",
    "EvaluationWeights",
    "WeightsError",
    "estimated_scores",
    "evaluate",
    "features",
    "heuristic_pick",
    "load_weights",
    "reward_scale",
]

#: the evaluation's features, in the order of :func:`features` and of the weights
FEATURES: tuple[str, ...] = (
    "bias",
    "hand",
    "white_and_special_cards",
    "longest_suit",
    "influence_symbols",
    "points_card",
    "other_special_cards",
    "unpaired_influence",
    "commodity_potential",
    "owned_commodities",
    "connection_potential",
    "palace_provinces",
)
HAND_CAP = 10  #: cards in hand beyond this many count no more
WEIGHTS_FORMAT = "tajmahal-evaluation-weights"
_POINTS = SPECIALS.index(Special.POINTS)


class WeightsError(TajMahalError, ValueError):
    """An evaluation weights document that does not match its schema."""


class EvaluationWeights(NamedTuple):
    """Fitted evaluation weights: per visits still to play, a weight per feature and a scale."""

    #: ``weights[left]`` (``left`` 1..visits): one weight per entry of :data:`FEATURES`
    weights: tuple[tuple[float, ...], ...]
    #: ``scales[left]`` (``left`` 0..visits): the reward's logistic width in points
    scales: tuple[float, ...]
    #: where the weights come from (the fitting command, games, seed)
    provenance: Mapping[str, Any]


def load_weights(document: str | None = None) -> EvaluationWeights:
    """Parse and check a weights document (JSON text); the shipped one when ``None``.

    >>> w = load_weights()
    >>> len(w.weights[12]) == len(FEATURES), w.scales[0] > 0
    (True, True)
    >>> load_weights('{"format": "other"}')
    Traceback (most recent call last):
    ...
    tajmahal.bots.evaluation.WeightsError: not an evaluation weights document (format 'other')
    """
    if document is None:
        document = files("tajmahal.bots").joinpath("evaluation_weights.json").read_text("utf-8")
    try:
        data = json.loads(document)
    except ValueError as exc:
        raise WeightsError(f"evaluation weights are not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise WeightsError(f"not an evaluation weights document (format {found!r})")
    if data.get("version") != 1:
        raise WeightsError(f"unknown evaluation weights version {data.get('version')!r}")
    if data.get("features") != list(FEATURES):
        raise WeightsError(f"the features must be {list(FEATURES)}, got {data.get('features')!r}")
    rows, scales = data.get("weights"), data.get("scales")
    if not isinstance(rows, list) or not rows or not isinstance(scales, list):
        raise WeightsError("weights and scales must be lists")
    if len(scales) != len(rows) + 1:
        raise WeightsError(
            f"{len(rows)} weight rows need {len(rows) + 1} scales, got {len(scales)}"
        )
    for row in rows:
        if (
            not isinstance(row, list)
            or len(row) != len(FEATURES)
            or not all(_finite(w) for w in row)
        ):
            raise WeightsError(f"a weight row must be {len(FEATURES)} finite numbers, got {row!r}")
    if not all(_finite(s) and 0 < s <= 1000 for s in scales):
        raise WeightsError(f"scales must be numbers above 0 and at most 1000, got {scales!r}")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise WeightsError("provenance must be an object")
    weights = ((0.0,) * len(FEATURES), *(tuple(float(w) for w in row) for row in rows))
    return EvaluationWeights(weights, tuple(float(s) for s in scales), provenance)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


#: the shipped weights (package data ``evaluation_weights.json``)
WEIGHTS = load_weights()


class _Statics(NamedTuple):
    influence: tuple[int, ...]  #: per kind, its influence and grand mogul symbols
    neighbours: tuple[tuple[int, ...], ...]


_statics_cache: tuple[Tables, _Statics] | None = None


def _statics(t: Tables) -> _Statics:
    global _statics_cache
    if _statics_cache is not None and _statics_cache[0] is t:
        return _statics_cache[1]
    symbols = (*INFLUENCE_IDX, GRAND_MOGUL)
    influence = tuple(sum(counts[i] for i in symbols) for counts in t.symbol_counts)
    statics = _Statics(influence, t.adjacency)
    _statics_cache = (t, statics)
    return statics


def visits_left(game: Playout) -> int:
    """The visits still to play, the current one included (0 once the game is over).

    >>> import tajmahal as tm
    >>> visits_left(Playout(tm.new_game(num_players=3, seed=1)))
    12
    """
    if game.phase == OVER:
        return 0
    return max(0, len(game.province_order) - game.visit + 1)


def features(game: Playout) -> list[list[float]]:
    """Per seat, the value of each of :data:`FEATURES` (read by :func:`estimated_scores`).

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> dict(zip(FEATURES, features(game)[0]))["hand"]  # six cards dealt
    6.0
    """
    t = game.tables
    statics = _statics(t)
    influence_of, neighbours = statics.influence, statics.neighbours
    special, white, color = t.special, t.white, t.color
    city_province = t.city_province
    visit = game.visit
    order = game.province_order
    future = set(order[visit - 1 :]) if game.phase != OVER else set()
    to_come = [0, 0, 0, 0]  # commodities on the tiles and bonus tiles still to come
    for number in range(visit, len(order) + 1):
        for c in t.tile_commodities[number - 1]:
            to_come[c] += 1
    bonus_commodity = t.bonus_commodity
    for city, tile in enumerate(game.bonus):
        if tile >= 0 and city_province[city] in future and bonus_commodity[tile] >= 0:
            to_come[bonus_commodity[tile]] += 1
    n = game.num_players
    palaces: list[list[int]] = [[] for _ in range(n)]
    for city, (owner, crowned) in enumerate(zip(game.normal, game.crown, strict=True)):
        if owner >= 0:
            palaces[owner].append(city)
        if crowned >= 0 and crowned != owner:
            palaces[crowned].append(city)
    out = []
    for seat in range(n):
        hand = game.hands[seat]
        extras = 0
        symbols = 0
        suits: dict[object, int] = {}
        for kind in hand:
            symbols += influence_of[kind]
            if special[kind] or white[kind]:
                extras += 1
            else:
                suits[color[kind]] = suits.get(color[kind], 0) + 1
        points_card = other_specials = 0
        for index, holder in enumerate(game.holder):
            if holder == seat:
                if index == _POINTS:
                    points_card = 1
                else:
                    other_specials += 1
        unpaired = sum(count % 2 for count in game.influence[seat])
        owned = [0, 0, 0, 0]
        for number in game.province_tiles[seat]:
            for c in t.tile_commodities[number - 1]:
                owned[c] += 1
        for tile in game.commodity_tiles[seat]:
            owned[bonus_commodity[tile]] += 1
        potential = sum(o * f for o, f in zip(owned, to_come, strict=True))
        connection, provinces = _connections(palaces[seat], neighbours, city_province, future)
        out.append(
            [
                1.0,
                float(min(len(hand), HAND_CAP)),
                float(extras),
                float(max(suits.values(), default=0)),
                float(symbols),
                float(points_card),
                float(other_specials),
                float(unpaired),
                float(potential),
                float(sum(owned)),
                float(connection),
                float(provinces),
            ]
        )
    return out


def _connections(
    cities: list[int],
    neighbours: tuple[tuple[int, ...], ...],
    city_province: tuple[int, ...],
    future: set[int],
) -> tuple[int, int]:
    """(connection potential, provinces with a palace) of one seat's palaces (K7)."""
    if not cities:
        return 0, 0
    own = set(cities)
    seen: set[int] = set()
    best: dict[int, int] = {}  # future province -> provinces of the largest group reaching it
    for start in cities:
        if start in seen:
            continue
        group = [start]
        seen.add(start)
        reaches: set[int] = set()
        for city in group:  # grows while it is read: a breadth-first walk
            for other in neighbours[city]:
                if other in own:
                    if other not in seen:
                        seen.add(other)
                        group.append(other)
                elif city_province[other] in future:
                    reaches.add(city_province[other])
        size = len({city_province[c] for c in group})
        for province in reaches:
            if best.get(province, 0) < size:
                best[province] = size
    return sum(best.values()), len({city_province[c] for c in own})


def estimated_scores(game: Playout, weights: EvaluationWeights = WEIGHTS) -> list[float]:
    """Each seat's estimated final score (the final scores once the game is over).

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> est = estimated_scores(game)  # no points yet: what each hand is worth
    >>> len(est), all(v > 0 for v in est)
    (3, True)
    """
    left = visits_left(game)
    if left == 0:
        return [float(s) for s in game.scores]
    row = weights.weights[min(left, len(weights.weights) - 1)]
    return [
        float(score) + sum(w * f for w, f in zip(row, values, strict=True))
        for score, values in zip(game.scores, features(game), strict=True)
    ]


def reward_scale(game: Playout, weights: EvaluationWeights = WEIGHTS) -> float:
    """The margin (in points) that makes a reward of 0.73 (fitted per visits still to play).

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> reward_scale(game) == WEIGHTS.scales[12]  # twelve visits to play
    True
    """
    return weights.scales[min(visits_left(game), len(weights.scales) - 1)]


def evaluate(
    game: Playout, scale: float | None = None, weights: EvaluationWeights = WEIGHTS
) -> list[float]:
    """One reward in 0..1 per seat: the logistic of its estimated margin over the best rival.

    ``scale`` is :func:`reward_scale` unless given.

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> game.scores[0] += 3  # three points ahead of both rivals, but a weaker hand
    >>> [round(v, 1) for v in estimated_scores(game)]
    [49.7, 51.9, 46.5]
    >>> [round(r, 3) for r in evaluate(game, scale=3.0)]
    [0.322, 0.678, 0.142]
    >>> est, rewards = estimated_scores(game), evaluate(game)  # the fitted estimates and scale
    >>> max(range(3), key=est.__getitem__) == max(range(3), key=rewards.__getitem__)
    True
    """
    est = estimated_scores(game, weights)
    width = reward_scale(game, weights) if scale is None else scale
    out = []
    for seat, mine in enumerate(est):
        rival = max(v for s, v in enumerate(est) if s != seat)
        margin = (mine - rival) / width
        out.append(1.0 / (1.0 + math.exp(-margin)) if margin > -30 else 0.0)
    return out


def heuristic_pick(game: Playout, codes: list[int], rng: random.Random) -> int:
    """A cheap, plausible move for the seat to move (the ``heuristic`` rollout policy).

    >>> import random, tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> game.run(random.Random(2), heuristic_pick)
    >>> game.is_over
    True
    """
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


def _play_or_withdraw(game: Playout, codes: list[int], rng: random.Random) -> int:
    seat = game.current
    mine, best = game.counts[seat], game.rival_best(seat)
    prizes = [game.court_influence[i] for i in range(4)] + [False, False]
    prizes[GRAND_MOGUL] = game.court_crown
    prizes[ELEPHANT] = game.court_tile
    holding = sum(1 for i in range(6) if prizes[i] and mine[i] >= 1 and mine[i] > best[i])
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
