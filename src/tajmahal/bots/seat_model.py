"""A learned model of every seat's play-or-withdraw decisions, for the search's simulations.

Levels 4 and 5 of ``ismcts`` play each seat's later play-or-withdraw decisions inside a
simulation by a small search of their own (``PlaySearch``, private): the
others contest the prizes as searching players would, at 11-23 times the default's CPU.
:class:`SeatModel` is a cheap stand-in fitted to that search's choices: each candidate (a
plain play of one card, or withdrawing) gets a score, a weighted sum of the
:data:`FEATURES` of the move for the seat to play, and the best-scoring candidate is played
(every other decision is the ``heuristic`` rollout policy's).  ``ismcts:rollout=model``
plays its simulations with it.

The weights are package data (``seat_model_weights.json``); the recipe that makes them
(self-play positions, the search's choices as labels, a conditional-logit fit, held-out
agreement) is ``benchmarks/fit_seat_model.py`` (docs/performance.md).

>>> import random, tajmahal as tm
>>> from tajmahal.rules.playout import Playout
>>> game = Playout(tm.new_game(num_players=3, seed=1))
>>> MODEL(game, game.moves(), random.Random(0)) in game.moves()
True
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

from tajmahal.bots._evaluation_core import heuristic_pick
from tajmahal.bots._seat_core import HAND_CAP, VISITS, seat_best, seat_pick, set_weights
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.playout import PLAY, WITHDRAW, Playout

__all__ = [
    "FEATURES",
    "MODEL",
    "SEAT_MODEL_FILE",
    "SEAT_MODEL_FORMAT",
    "SeatModel",
    "SeatModelError",
    "candidate_features",
    "load_seat_model",
    "model_pick",
]

SEAT_MODEL_FORMAT = "tajmahal-seat-model"
SEAT_MODEL_FILE = "seat_model_weights.json"  #: the shipped weights (package data)
MAX_DOCUMENT = 1_000_000  #: the most characters a weights document may hold

#: the features of a candidate, in the weights' order.  ``w_*`` are nonzero for withdrawing
#: only, ``p_*`` for a play only; "prizes" are those still at court this visit, "lead" a
#: strictly higher count than every other seat still playing (who would win it now)
FEATURES: tuple[str, ...] = (
    "w_bias",  # withdrawing
    "w_leading",  # prizes the seat would take by withdrawing now
    "w_tied",  # prizes at court the seat ties for (at least one symbol)
    "w_table",  # cards the seat has played this visit
    "w_plays",  # plain plays the seat could make instead
    "w_rivals",  # other seats still playing
    "w_late",  # the game's progress (visit / 12)
    "w_empty",  # the seat has played nothing (withdrawing draws a card)
    "w_leading_special",  # of w_leading: the grand mogul's and the elephant's prizes
    "w_trailing",  # prizes at court a rival leads the seat for
    "w_hand",  # cards in hand (at most 8)
    "w_alone",  # no other seat is still playing
    "p_new_leads",  # prizes the play makes the seat lead for
    "p_ties",  # prizes the play draws level on
    "p_behind",  # prizes the play adds to and still trails on
    "p_padding",  # symbols added to prizes the seat already led for
    "p_idle",  # symbols added to prizes no longer at court
    "p_leading_after",  # prizes the seat leads for after the play
    "p_hand_after",  # cards left in hand after the play (at most 8)
    "p_rivals",  # other seats still playing
    "p_new_special",  # of p_new_leads: the grand mogul's and the elephant's prizes
    "p_late",  # the game's progress (visit / 12)
)
_WIDTH = len(FEATURES)


class SeatModelError(TajMahalError, ValueError):
    """A seat model weights document that is missing or does not match its schema."""


def _prizes(game: Playout) -> list[bool]:
    """Per symbol (indexed like the tables' symbols), whether its prize is at court."""
    prizes = [game.court_influence[i] for i in range(4)] + [game.court_crown, game.court_tile]
    return prizes


def candidate_features(game: Playout, codes: list[int]) -> list[tuple[int, list[float]]]:
    """The model's candidates among ``codes`` (withdrawing and the plain plays of one card, in
    the codes' order) with their :data:`FEATURES`, for the seat to play in the play phase.

    >>> import tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> rows = candidate_features(game, game.moves())
    >>> [code for code, _ in rows] == [c for c in game.moves() if c % game.stride == 0 or c < 0]
    True
    >>> all(len(values) == len(FEATURES) for _, values in rows)
    True
    """
    seat, stride = game.current, game.stride
    mine, best = game.counts[seat], game.rival_best(seat)
    prizes = _prizes(game)
    leading = tied = special = trailing = 0
    for i in range(6):
        if not prizes[i]:
            continue
        if best[i] > mine[i]:
            trailing += 1
        elif mine[i] >= 1:
            if mine[i] > best[i]:
                leading += 1
                special += i >= 4
            else:
                tied += 1
    withdrawn = game.withdrawn
    rivals = sum(1 for other in range(game.num_players) if other != seat and not withdrawn[other])
    plain = [code for code in codes if code != WITHDRAW and code % stride == 0]
    hand = min(len(game.hands[seat]), HAND_CAP)
    late = game.visit / VISITS
    symbols = game.tables.symbol_counts
    rows: list[tuple[int, list[float]]] = []
    for code in codes:
        if code == WITHDRAW:
            empty = 0.0 if game.table[seat] else 1.0
            rows.append((code, [1.0, leading, tied, len(game.table[seat]), len(plain), rivals,
                                late, empty, special, trailing, hand, float(not rivals)]
                          + [0.0] * 10))  # fmt: skip
            continue
        if code % stride:
            continue
        new_leads = ties = behind = padding = idle = new_special = 0
        after_leading = leading
        for i, added in enumerate(symbols[code // stride]):
            if not added:
                continue
            if not prizes[i]:
                idle += added
                continue
            before, after = mine[i], mine[i] + added
            if before > best[i] and before >= 1:
                padding += added
            elif after > best[i]:
                new_leads += 1
                new_special += i >= 4
                after_leading += 1
            elif after == best[i]:
                ties += 1
            else:
                behind += 1
        rows.append((code, [0.0] * 12 + [new_leads, ties, behind, padding, idle, after_leading,
                                         hand - 1, rivals, new_special, late]))  # fmt: skip
    return rows


class SeatModel:
    """A move picker (:data:`~tajmahal.rules.playout.Picker`): the play-or-withdraw decisions by
    the fitted weights, every other decision by the ``heuristic`` rollout policy.

    ``weights`` has one number per entry of :data:`FEATURES`; ``provenance`` says where they
    come from.  A candidate's score is the weights' dot product with its features; the best
    score is played, a tie going to the first candidate (withdrawing comes first).
    """

    __slots__ = ("provenance", "weights")

    def __init__(self, weights: tuple[float, ...], provenance: Mapping[str, Any] | None = None):
        if len(weights) != _WIDTH or not all(_finite(w) for w in weights):
            raise SeatModelError(f"a seat model needs {_WIDTH} finite weights, got {weights!r}")
        self.weights = tuple(float(w) for w in weights)
        self.provenance: Mapping[str, Any] = dict(provenance or {})

    def __call__(self, game: Playout, codes: list[int], rng: random.Random) -> int:
        if len(codes) > 1 and game.phase == PLAY:
            return self.best(game, codes)
        return heuristic_pick(game, codes, rng)

    def best(self, game: Playout, codes: list[int]) -> int:
        """The best-scoring candidate of the seat to play (``codes``: the play phase's moves)."""
        return seat_best(game, codes, self.weights)

    def scores(self, game: Playout, codes: list[int]) -> dict[int, float]:
        """Each candidate's score (the model's preference; higher is played)."""
        weights = self.weights
        return {code: sum(w * v for w, v in zip(weights, values, strict=True))
                for code, values in candidate_features(game, codes)}  # fmt: skip

    def __reduce__(self) -> tuple[Any, ...]:
        return (SeatModel, (self.weights, dict(self.provenance)))

    def __repr__(self) -> str:
        return f"SeatModel({self.provenance.get('name', 'unnamed')!r})"


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def load_seat_model(path: str | Path | None = None, document: str | None = None) -> SeatModel:
    """The seat model of a weights document: ``document`` (JSON text), the file at ``path``, or
    the shipped ``seat_model_weights.json`` when neither is given.

    >>> load_seat_model().weights == MODEL.weights
    True
    >>> load_seat_model(document='{"format": "other"}')
    Traceback (most recent call last):
    ...
    tajmahal.bots.seat_model.SeatModelError: not a seat model weights document (format 'other')
    >>> load_seat_model("/nonexistent/weights.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.seat_model.SeatModelError: cannot read seat model weights .../weights.json: ...
    """
    where = "the shipped seat model weights" if path is None else f"{path}"
    if document is None:
        try:
            if path is None:
                document = files("tajmahal.bots").joinpath(SEAT_MODEL_FILE).read_text("utf-8")
            else:
                with open(path, encoding="utf-8") as handle:
                    document = handle.read(MAX_DOCUMENT + 1)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise SeatModelError(f"cannot read seat model weights {where}: {reason}") from None
    if len(document) > MAX_DOCUMENT:
        raise SeatModelError(f"seat model weights are over {MAX_DOCUMENT} characters")
    try:
        data = json.loads(document)
    except (ValueError, RecursionError) as exc:
        raise SeatModelError(f"seat model weights are not JSON: {str(exc)[:200]}") from None
    if not isinstance(data, dict) or data.get("format") != SEAT_MODEL_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise SeatModelError(f"not a seat model weights document (format {found!r:.80})")
    if data.get("version") != 1:
        raise SeatModelError(f"unknown seat model weights version {data.get('version')!r:.40}")
    if data.get("features") != list(FEATURES):
        raise SeatModelError(f"the features must be {list(FEATURES)}")
    weights = data.get("weights")
    if not isinstance(weights, list) or len(weights) != _WIDTH:
        raise SeatModelError(f"weights must be a list of {_WIDTH} numbers")
    if not all(_finite(w) for w in weights):
        raise SeatModelError("every weight must be a finite number")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise SeatModelError("provenance must be an object")
    return SeatModel(tuple(weights), provenance)


#: the rollout policy of ``ismcts:rollout=model`` (the shipped model's moves; compiled when
#: built so): ``MODEL(game, codes, rng)`` without the Python call
model_pick = seat_pick


#: the shipped seat model (package data ``seat_model_weights.json``)
MODEL = load_seat_model()
set_weights(MODEL.weights)
