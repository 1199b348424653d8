"""Reading a saved analysis (a ``tajmahal/analysis`` JSON document), checked against its record."""

from __future__ import annotations

import json
import math
from typing import Any

from tajmahal.analysis._review import DecisionReview, GameAnalysis, MoveRating
from tajmahal.game import Game, GameRecord
from tajmahal.names import move_name
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move

__all__ = ["AnalysisFormatError", "load_analysis"]

FORMAT = "tajmahal/analysis"
VERSION = 1
MAX_TEXT = 2_000


class AnalysisFormatError(TajMahalError):
    """A saved analysis that cannot be read, or that does not belong to the record."""


def _fail(path: str, problem: str) -> AnalysisFormatError:
    return AnalysisFormatError(f"analysis{path}: {problem}")


def _get(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], path: str = "") -> Any:
    if key not in doc:
        raise _fail(path, f"missing {key!r}")
    value = doc[key]
    if isinstance(value, bool) and kind is not bool:
        raise _fail(f"{path}.{key}", "expected a number, got a boolean")
    if not isinstance(value, kind):
        raise _fail(f"{path}.{key}", f"wrong type {type(value).__name__}")
    return value


def _value(doc: dict[str, Any], key: str, path: str) -> float:
    value = float(_get(doc, key, (int, float), path))
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise _fail(f"{path}.{key}", f"must lie in 0..1, got {value!r}")
    return value


def load_analysis(text: str | dict[str, Any], record: GameRecord) -> GameAnalysis:
    """The analysis saved by :meth:`GameAnalysis.as_dict` (a dict or its JSON text) of ``record``.

    Every move named must be the legal move the record played or could have
    played at that decision; anything else raises :class:`AnalysisFormatError`
    naming the JSON path.

    >>> import tajmahal as tm
    >>> from tajmahal.analysis import analyse_game
    >>> record = tm.play_match(['greedy', 'random', 'random'], seed=3).record
    >>> review = analyse_game(record, seats=[0], iterations=10)
    >>> load_analysis(review.as_dict(), record) == review
    True
    >>> load_analysis('{"format": "tajmahal/record"}', record)
    Traceback (most recent call last):
    ...
    tajmahal.analysis._document.AnalysisFormatError: analysis.format: expected 'tajmahal/analysis', got 'tajmahal/record'
    """  # noqa: E501
    if isinstance(text, str):
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise _fail("", f"not JSON ({type(exc).__name__})") from None
    else:
        doc = text
    if not isinstance(doc, dict):
        raise _fail("", "expected a JSON object")
    if doc.get("format") != FORMAT:
        raise _fail(".format", f"expected {FORMAT!r}, got {str(doc.get('format'))[:40]!r}")
    if doc.get("version") != VERSION:
        raise _fail(".version", f"unknown version {str(doc.get('version'))[:20]}; known: {VERSION}")
    moves = _get(doc, "moves", int)
    if moves != len(record.moves):
        raise _fail(".moves", f"{moves} moves, but the record has {len(record.moves)}")
    num_players = _get(doc, "num_players", int)
    if num_players != record.num_players:
        raise _fail(".num_players", f"{num_players}, but the record has {record.num_players}")
    seats = _get(doc, "seats", list)
    if not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < num_players
               for s in seats) or len(set(seats)) != len(seats):  # fmt: skip
        raise _fail(".seats", f"expected distinct seats 0..{num_players - 1}")
    iterations = _get(doc, "iterations", int)
    seed = _get(doc, "seed", int)
    threshold = _value(doc, "threshold", "")
    states = Game.from_record(record).states
    decisions = []
    for i, item in enumerate(_get(doc, "decisions", list)):
        path = f".decisions[{i}]"
        if not isinstance(item, dict):
            raise _fail(path, "expected an object")
        index = _get(item, "index", int, path)
        if not 0 <= index < len(record.moves) or states[index].current_player not in seats:
            raise _fail(f"{path}.index", f"{index} is no decision of the analysed seats")
        state = states[index]
        seat = state.current_player
        assert seat is not None
        legal = {str(m): m for m in state.legal_moves()}

        def move(value: Any, where: str, legal: dict[str, Move] = legal) -> Move:
            if not isinstance(value, str) or value not in legal:
                raise _fail(where, f"{str(value)[:60]!r} is not a legal move there")
            return legal[value]

        played = move(item.get("played"), f"{path}.played")
        if played != record.moves[index]:
            raise _fail(f"{path}.played", "is not the move the record played")
        ratings = []
        for j, rating in enumerate(_get(item, "ratings", list, path)):
            where = f"{path}.ratings[{j}]"
            if not isinstance(rating, dict):
                raise _fail(where, "expected an object")
            rated = move(rating.get("move"), f"{where}.move")
            visits = _get(rating, "visits", int, where)
            ratings.append(MoveRating(rated, move_name(rated, state.components),
                                      _value(rating, "value", where), visits))  # fmt: skip
        if not ratings or {r.move for r in ratings} != set(legal.values()):
            raise _fail(f"{path}.ratings", "must rate every legal move once")
        texts = [str(_get(item, key, str, path))[:MAX_TEXT] for key in ("played_text", "best_text")]
        best = move(item.get("best"), f"{path}.best")
        review = DecisionReview(
            index=index, seat=seat, visit=state.visit, played=played, best=best,
            ratings=tuple(ratings), loss=_value(item, "loss", path),
            mistake=bool(_get(item, "mistake", bool, path)),
            played_text=texts[0], best_text=texts[1],
            about_equal="about_equal" in item and bool(_get(item, "about_equal", bool, path)),
        )  # fmt: skip
        decisions.append(review)
    players = tuple(str(p)[:100] for p in _get(doc, "players", list))
    return GameAnalysis(
        num_players, players, tuple(sorted(seats)), iterations, seed, threshold, moves,
        tuple(decisions),
    )  # fmt: skip
