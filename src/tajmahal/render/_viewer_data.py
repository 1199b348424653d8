"""What the replay page shows beside the board: the table panel, the tiles each seat owns,
every seat's final scoring and a saved analysis, as JSON-ready data."""

from __future__ import annotations

from typing import Any

from tajmahal.analysis import GameAnalysis, ScoreBreakdown, holdings, summarize
from tajmahal.names import SCORE_PARTS, card_name, score_part_name, score_parts_text, symbol_name
from tajmahal.rules.views import PlayerView

__all__ = ["analysis_data", "breakdown_data", "owned_data", "table_data"]


def table_data(view: PlayerView) -> dict[str, Any]:
    """The table this visit (public facts only): each seat's cards and totals, the leaders,
    and what withdrawing now would win.

    >>> import tajmahal as tm
    >>> data = table_data(tm.new_game(3, seed=1).view(0))
    >>> data['province'], [row['cards'] for row in data['seats']]
    ('Thatta', [[], [], []])
    """
    table = summarize(view)
    leaders = {p.symbol.value: p for p in table.prizes}
    rows = []
    for row in table.seats:
        totals = []
        for prize, count in zip(table.prizes, row.totals, strict=True):
            if count:
                mark = ""
                if row.seat in prize.leaders:
                    mark = "=" if prize.tied else "*"
                totals.append([symbol_name(prize.symbol), count, mark])
        gain = table.withdrawals[row.seat]
        rows.append({
            "cards": [card_name(c) for c in row.cards],
            "colors": [c.color.value for c in row.cards],
            "totals": totals,
            "withdrawn": row.withdrawn,
            "withdraw": None if gain is None else gain.text,
        })  # fmt: skip
    prizes = [
        [symbol_name(p.symbol), p.prize, p.available, list(p.leaders), p.best]
        for p in leaders.values()
    ]
    return {"province": table.province_name, "seats": rows, "prizes": prizes}


def owned_data(view: PlayerView) -> list[list[str]]:
    """Per seat, the tiles and special cards it owns, in words.

    >>> import tajmahal as tm
    >>> owned_data(tm.new_game(3, seed=1).view(0))
    [[], [], []]
    """
    return [holdings(view, seat).parts() for seat in range(view.num_players)]


def breakdown_data(rows: tuple[ScoreBreakdown, ...]) -> dict[str, Any]:
    """Every seat's points by reason: the parts' names (:func:`tajmahal.names.score_part_name`)
    as columns, one row per seat, and per seat the parts that scored in words
    (:func:`tajmahal.names.score_parts_text`, as the terminal's result says them)."""
    return {
        "columns": [score_part_name(key) for key, _ in SCORE_PARTS],
        "parts": [score_parts_text(row.points) for row in rows],
        "rows": [[n for _, n in row.points] + [row.total] for row in rows],
        "hands": [row.final_hand for row in rows],
    }


def analysis_data(analysis: GameAnalysis) -> dict[str, Any]:
    """The analysis strip: one mark per rated decision, at the step after its move."""
    return {
        "seats": list(analysis.seats),
        "threshold": analysis.threshold,
        "iterations": analysis.iterations,
        "lost": [round(analysis.lost(s), 3) for s in analysis.seats],
        "marks": [
            {
                "step": d.index + 1,
                "seat": d.seat,
                "loss": d.loss,
                "mistake": d.mistake,
                "value": d.played_value,
                "best_value": d.ratings[0].value,
                "played": d.played_text,
                "best": d.best_text,
                "forced": d.forced,
            }
            for d in analysis.decisions
        ],
    }
