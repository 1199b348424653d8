"""What the ``ismcts`` bot knows about Taj Mahal: a position evaluation and a rollout policy.

Both read a :class:`~tajmahal.rules.playout.Playout` directly (lists of card
kinds, palaces by city index) because they run thousands of times per decision.
Their code lives in the private module ``tajmahal.bots._evaluation_core``,
which the compiled build compiles; the functions here document it and add
the default weights.

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
  own palaces;
- the prize contests of the visit about to be played (:data:`CONTEST_FEATURES`):
  the elephants and grand moguls in hand, the influence and elephant symbols
  held beyond the best rival's (who can still win which tile), the hand's size
  against the largest rival hand, the province tile's points for the seat
  (K5) alone and when it leads in elephants, and the provinces a palace in the
  current province would connect (K7).

The weights are fitted from self-play of strong bots (``benchmarks/fit_evaluation.py``,
numpy ridge least squares of the points each seat still made on these
features, pulled towards the ``ismcts-v2`` weights where the strong games are
few) and shipped as package data (``evaluation_weights.json``, read at import:
:data:`WEIGHTS`).  After the last visit the estimate is the final score itself.
The second release's weights (:data:`FEATURES_V2` only, ``greedy`` self-play)
stay as :data:`WEIGHTS_V2` for ``ismcts-v2``.

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

from tajmahal.bots import _evaluation_core as _core
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.playout import Playout

__all__ = [
    "CONTEST_FEATURES",
    "FEATURES",
    "FEATURES_V2",
    "WEIGHTS",
    "WEIGHTS_V2",
    "WEIGHTS_V3",
    "EvaluationWeights",
    "WeightsError",
    "estimated_scores",
    "evaluate",
    "features",
    "heuristic_pick",
    "load_weights",
    "reward_scale",
]

#: the ``ismcts-v2`` evaluation's features (:func:`features`' first columns)
FEATURES_V2: tuple[str, ...] = (
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
#: the prize contests of the visit about to be played (the last columns of :func:`features`)
CONTEST_FEATURES: tuple[str, ...] = (
    "elephant_symbols",
    "grand_mogul_symbols",
    "influence_lead",
    "elephant_lead",
    "hand_lead",
    "province_tile_points",
    "province_tile_if_elephant_lead",
    "palace_links_here",
)
#: the evaluation's features, in the order of :func:`features` and of the weights
FEATURES: tuple[str, ...] = FEATURES_V2 + CONTEST_FEATURES
HAND_CAP = _core.HAND_CAP  #: cards in hand beyond this many count no more
WEIGHTS_FORMAT = "tajmahal-evaluation-weights"
WEIGHTS_FILE = "evaluation_weights.json"  #: the current weights (package data)
WEIGHTS_V2_FILE = "evaluation_weights_v2.json"  #: the ``ismcts-v2`` weights, frozen
WEIGHTS_V3_FILE = "evaluation_weights_v3.json"  #: the ``ismcts-v3`` weights, frozen


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


def load_weights(document: str | None = None, name: str = WEIGHTS_FILE) -> EvaluationWeights:
    """Parse and check a weights document (JSON text); the shipped file ``name`` when ``None``.

    A document names all of :data:`FEATURES`, or only :data:`FEATURES_V2` (the
    ``ismcts-v2`` weights, ``evaluation_weights_v2.json``).

    >>> w = load_weights()
    >>> len(w.weights[12]) == len(FEATURES), w.scales[0] > 0
    (True, True)
    >>> load_weights('{"format": "other"}')
    Traceback (most recent call last):
    ...
    tajmahal.bots.evaluation.WeightsError: not an evaluation weights document (format 'other')
    """
    if document is None:
        document = files("tajmahal.bots").joinpath(name).read_text("utf-8")
    try:
        data = json.loads(document)
    except ValueError as exc:
        raise WeightsError(f"evaluation weights are not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise WeightsError(f"not an evaluation weights document (format {found!r})")
    if data.get("version") != 1:
        raise WeightsError(f"unknown evaluation weights version {data.get('version')!r}")
    names = data.get("features")
    if names != list(FEATURES) and names != list(FEATURES_V2):
        raise WeightsError(f"the features must be {list(FEATURES)} (or the first "
                           f"{len(FEATURES_V2)} of them), got {names!r}")  # fmt: skip
    width = len(names)
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
            or len(row) != width
            or not all(_finite(w) for w in row)
        ):
            raise WeightsError(f"a weight row must be {width} finite numbers, got {row!r}")
    if not all(_finite(s) and 0 < s <= 1000 for s in scales):
        raise WeightsError(f"scales must be numbers above 0 and at most 1000, got {scales!r}")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise WeightsError("provenance must be an object")
    weights = ((0.0,) * width, *(tuple(float(w) for w in row) for row in rows))
    return EvaluationWeights(weights, tuple(float(s) for s in scales), provenance)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


#: the shipped weights (package data ``evaluation_weights.json``)
WEIGHTS = load_weights()
#: the frozen ``ismcts-v2`` weights (package data ``evaluation_weights_v2.json``)
WEIGHTS_V2 = load_weights(name=WEIGHTS_V2_FILE)
#: the frozen ``ismcts-v3`` weights (package data ``evaluation_weights_v3.json``: the third
#: release's shipped weights)
WEIGHTS_V3 = load_weights(name=WEIGHTS_V3_FILE)


def visits_left(game: Playout) -> int:
    """The visits still to play, the current one included (0 once the game is over).

    >>> import tajmahal as tm
    >>> visits_left(Playout(tm.new_game(num_players=3, seed=1)))
    12
    """
    return _core.visits_left(game)


def features(game: Playout) -> list[list[float]]:
    """Per seat, the value of each of :data:`FEATURES` (read by :func:`estimated_scores`).

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> dict(zip(FEATURES, features(game)[0]))["hand"]  # six cards dealt
    6.0
    """
    return _core.features(game)


def estimated_scores(game: Playout, weights: EvaluationWeights = WEIGHTS) -> list[float]:
    """Each seat's estimated final score (the final scores once the game is over).

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> est = estimated_scores(game)  # no points yet: what each hand is worth
    >>> len(est), all(v > 0 for v in est)
    (3, True)
    """
    return _core.estimated_scores(game, weights.weights)


def reward_scale(game: Playout, weights: EvaluationWeights = WEIGHTS) -> float:
    """The margin (in points) that makes a reward of 0.73 (fitted per visits still to play).

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> reward_scale(game) == WEIGHTS.scales[12]  # twelve visits to play
    True
    """
    return _core.reward_scale(game, weights.scales)


def evaluate(
    game: Playout, scale: float | None = None, weights: EvaluationWeights = WEIGHTS
) -> list[float]:
    """One reward in 0..1 per seat: the logistic of its estimated margin over the best rival.

    ``scale`` is :func:`reward_scale` unless given.

    >>> import tajmahal as tm
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> game.scores[0] += 3  # three points ahead of both rivals
    >>> [round(v, 1) for v in estimated_scores(game)]
    [46.6, 41.9, 42.7]
    >>> [round(r, 3) for r in evaluate(game, scale=3.0)]
    [0.787, 0.176, 0.213]
    >>> [round(v, 1) for v in estimated_scores(game, WEIGHTS_V2)]  # ismcts-v2: a weaker hand
    [49.7, 51.9, 46.5]
    >>> est, rewards = estimated_scores(game), evaluate(game)  # the fitted estimates and scale
    >>> max(range(3), key=est.__getitem__) == max(range(3), key=rewards.__getitem__)
    True
    """
    return _core.evaluate(game, weights.weights, weights.scales, scale)


def heuristic_pick(game: Playout, codes: list[int], rng: random.Random) -> int:
    """A cheap, plausible move for the seat to move (the ``heuristic`` rollout policy).

    >>> import random, tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> game.run(random.Random(2), heuristic_pick)
    >>> game.is_over
    True
    """
    return _core.heuristic_pick(game, codes, rng)
