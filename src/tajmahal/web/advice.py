"""The table panel, hints and the analysis page, from :mod:`tajmahal.analysis` (views only).

Each works from one seat's view (the analysis of a finished game from its
record), so none can reveal a hidden card.  Without the analysis package the
game page simply shows none of them.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from html import escape
from types import ModuleType
from typing import Any

from tajmahal.game import GameRecord
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["HINT_ITERATIONS", "analysis_html", "hint_for", "table_lines"]

HINT_ITERATIONS = 300  #: the search bot's iterations for one hint
ANALYSIS_ITERATIONS = 150  #: ... and for each decision of a game's analysis


@functools.cache
def _analysis() -> ModuleType | None:
    try:
        return importlib.import_module("tajmahal.analysis")
    except ImportError:
        return None


def table_lines(view: PlayerView, players: Sequence[str]) -> list[str] | None:
    """The table this visit in plain lines (cards, prizes, withdrawing), or None."""
    analysis = _analysis()
    if analysis is None:
        return None
    lines: list[str] = analysis.summarize(view).lines(players)
    return lines


def hint_for(view: PlayerView, legal: Sequence[Move], seed: int) -> dict[str, Any]:
    """A search bot's move for the seat of ``view``, with its reasons (JSON-ready)."""
    analysis = _analysis()
    if analysis is None:
        return {"type": "error", "message": "hints need the tajmahal.analysis package"}
    from tajmahal.bots.ismcts import IsmctsBot

    advice = analysis.hint(IsmctsBot(seed=seed, iterations=HINT_ITERATIONS), view, tuple(legal))
    return {"type": "hint", "move": str(advice.move), "reasons": [advice.text]}


def analysis_html(record: GameRecord) -> str:
    """A plain page rating every decision of a finished game."""
    analysis = _analysis()
    title = f"Taj Mahal: analysis of {', '.join(record.players)}"
    if analysis is None:
        body = "<p>The analysis needs the tajmahal.analysis package.</p>"
    else:
        result = analysis.analyse_game(record, iterations=ANALYSIS_ITERATIONS)
        body = "<pre>" + escape("\n".join(result.lines())) + "</pre>"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/static/style.css">'
        f'</head><body><header><h1><a href="/">Taj Mahal</a></h1></header><main>'
        f"<h2>{escape(title)}</h2>{body}</main></body></html>\n"
    )
