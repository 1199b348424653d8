"""Where each seat's points came from: the game's points by reason, and the final hand (G1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from tajmahal.events import decisions
from tajmahal.game import Game, GameRecord
from tajmahal.names import SCORE_PARTS, score_parts_text
from tajmahal.rules.components import COLORED, Card, Color

__all__ = ["SOURCES", "ScoreBreakdown", "score_breakdown"]

#: the rules each score part (:data:`tajmahal.names.SCORE_PARTS`) comes from
_RULES = {
    "connections": ("K6", "K7", "K8"),
    "province_tiles": ("K5",),
    "commodity_tiles": ("K4",),
    "bonus_points": ("K2",),
    "taj_mahal": ("K1",),
    "points_card": ("P6",),
    "final_hand": ("G1",),
}

#: the reasons points are scored for, in the order a breakdown lists them: (key, name for
#: people, rules); the names are :func:`tajmahal.names.score_part_name`'s
SOURCES: tuple[tuple[str, str, tuple[str, ...]], ...] = tuple(
    (key, name, _RULES[key]) for key, name in SCORE_PARTS
)


@attrs.frozen
class ScoreBreakdown:
    """One seat's points by reason (:data:`~tajmahal.analysis.SOURCES`), its final hand (G1)."""

    seat: int
    total: int
    #: (source key, points), in the order of :data:`~tajmahal.analysis.SOURCES`
    points: tuple[tuple[str, int], ...]
    #: G1, once the game is over: special cards, white cards, the longest colored suit
    final_hand: tuple[int, int, int] | None

    def get(self, source: str) -> int:
        """Points from ``source`` (a key of :data:`~tajmahal.analysis.SOURCES`)."""
        return dict(self.points)[source]

    def text(self) -> str:
        """``'52 = palaces 20 + province tiles 9 + ...'`` (the parts that scored)."""
        line = f"{self.total} = " + score_parts_text(self.points)
        if self.final_hand is not None:
            special, white, suit = self.final_hand
            line += f" (hand: {special} special, {white} white, suit of {suit})"
        return line

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        hand = self.final_hand
        return {
            "seat": self.seat,
            "total": self.total,
            "points": dict(self.points),
            "final_hand": None if hand is None else {
                "special": hand[0], "white": hand[1], "longest_suit": hand[2]
            },
            "text": self.text(),
        }  # fmt: skip


def _final_hand(hand: Sequence[Card]) -> tuple[int, int, int]:
    special = sum(1 for c in hand if c.special is not None)
    white = sum(1 for c in hand if c.color is Color.WHITE)
    suits = Counter(c.color for c in hand if c.color in COLORED)
    return special, white, max(suits.values(), default=0)


def score_breakdown(record: GameRecord) -> tuple[ScoreBreakdown, ...]:
    """Each seat's points so far, by reason, from the record's public events.

    Once the game is over, the final hands (G1) are shown too: the game is
    over, so nothing is hidden any more.

    >>> import tajmahal as tm
    >>> record = tm.play_match(['greedy', 'random', 'random'], seed=3).record
    >>> rows = score_breakdown(record)
    >>> [row.total for row in rows] == list(record.scores)
    True
    >>> all(sum(n for _, n in row.points) == row.total for row in rows)
    True
    """
    source_of = {rule: key for key, _, rules in SOURCES for rule in rules}
    per_seat = [Counter[str]() for _ in range(record.num_players)]
    for decision in decisions(record):
        for event in decision.events:
            if event.seat is None or not event.points:
                continue
            key = next((source_of[r] for r in event.rules if r in source_of), "final_hand")
            per_seat[event.seat][key] += event.points
    state = Game.from_record(record).state
    return tuple(
        ScoreBreakdown(
            seat=seat,
            total=state.scores[seat],
            points=tuple((key, per_seat[seat][key]) for key, _, _ in SOURCES),
            final_hand=_final_hand(state.hand(seat)) if state.is_over else None,
        )
        for seat in range(record.num_players)
    )
