"""The table panel, hints and the analysis page, from :mod:`tajmahal.analysis`.

The table and the hint work from one seat's view only, so neither can reveal
a hidden card; the analysis reads the record, given out once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from tajmahal import analysis
from tajmahal.bots.ismcts import IsmctsBot
from tajmahal.game import GameRecord
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["HINT_ITERATIONS", "analysis_html", "hint_for", "table_lines"]

HINT_ITERATIONS = 300  #: the search bot's iterations for one hint
ANALYSIS_ITERATIONS = 100  #: ... and for each decision of a game's analysis


def table_lines(view: PlayerView, players: Sequence[str]) -> list[str]:
    """The table this visit in plain lines (cards, prizes, what withdrawing would win)."""
    return analysis.summarize(view).lines(players)


def hint_for(view: PlayerView, legal: Sequence[Move], seed: int) -> dict[str, Any]:
    """A search bot's move for the seat of ``view``, with its reasons (JSON-ready)."""
    advice = analysis.hint(IsmctsBot(seed=seed, iterations=HINT_ITERATIONS), view, tuple(legal))
    return {"type": "hint", "move": str(advice.move), "reasons": [advice.text]}


def analysis_html(record: GameRecord, seats: Sequence[int]) -> str:
    """A plain page rating every decision of ``seats`` (the people) in a finished game."""
    title = f"Taj Mahal: analysis of {', '.join(record.players)}"
    result = analysis.analyse_game(record, seats=seats, iterations=ANALYSIS_ITERATIONS)
    body = "<pre>" + escape("\n".join(result.lines())) + "</pre>"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/static/style.css">'
        f'</head><body><header><h1><a href="/">Taj Mahal</a></h1></header><main>'
        f"<h2>{escape(title)}</h2>{body}</main></body></html>\n"
    )
