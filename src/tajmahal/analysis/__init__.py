"""Reading a position and learning from a game: the table, what each move does, hints, analysis.

Everything here is built from a :class:`~tajmahal.PlayerView` alone (what one
seat may know), so it never reveals a hidden card:

- :func:`summarize` -- the table this visit: each seat's cards and symbol
  totals (special cards included), who leads or ties each prize, who has
  withdrawn, what withdrawing now would win (:func:`withdrawal`) and what
  each seat owns (:func:`holdings`): the one table panel of the terminal, the
  replay page and the web page;
- :func:`effect` / :func:`effects` -- each legal move's immediate effect in
  plain words; :func:`city_options` -- what each city gives a palace;
- :func:`hint` -- a bot's move with its reasons (a search bot adds its estimates);
- :func:`analyse_game` -- every decision of a recorded game rated by a search
  from what the deciding seat knew then, mistakes marked, losses totalled;
- :func:`score_breakdown` -- where each seat's points came from;
- ``display_name``, ``move_name``, ``card_name`` and friends -- plain names for the
  library's ids: :mod:`tajmahal.names`'s functions (:func:`~tajmahal.names.move_name`...),
  re-exported.

The rules the texts cite are in ``docs/rules.md``.
"""

from __future__ import annotations

from tajmahal.analysis._document import AnalysisFormatError, load_analysis
from tajmahal.analysis._effects import (
    CityOption,
    MoveEffect,
    city_options,
    effect,
    effects,
    view_legal_moves,
)
from tajmahal.analysis._hints import Estimate, Hint, hint, search_estimates
from tajmahal.analysis._review import (
    DEFAULT_ITERATIONS,
    MISTAKE,
    DecisionReview,
    GameAnalysis,
    MoveRating,
    analyse_game,
)
from tajmahal.analysis._scoring import SOURCES, ScoreBreakdown, score_breakdown
from tajmahal.analysis._table import (
    Holdings,
    PrizeStanding,
    SeatTable,
    TableSummary,
    Withdrawal,
    connected_provinces,
    holdings,
    summarize,
    withdrawal,
)
from tajmahal.names import (
    bonus_name,
    card_name,
    display_name,
    move_name,
    plain_text,
    prize_name,
    province_tile_name,
    symbol_name,
)

__all__ = [
    "DEFAULT_ITERATIONS",
    "MISTAKE",
    "SOURCES",
    "AnalysisFormatError",
    "CityOption",
    "DecisionReview",
    "Estimate",
    "GameAnalysis",
    "Hint",
    "Holdings",
    "MoveEffect",
    "MoveRating",
    "PrizeStanding",
    "ScoreBreakdown",
    "SeatTable",
    "TableSummary",
    "Withdrawal",
    "analyse_game",
    "bonus_name",
    "card_name",
    "city_options",
    "connected_provinces",
    "display_name",
    "effect",
    "effects",
    "hint",
    "holdings",
    "load_analysis",
    "move_name",
    "plain_text",
    "prize_name",
    "province_tile_name",
    "score_breakdown",
    "search_estimates",
    "summarize",
    "symbol_name",
    "view_legal_moves",
    "withdrawal",
]
