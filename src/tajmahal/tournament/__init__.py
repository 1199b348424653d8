"""Tournaments: many matches between player specs, with balanced seatings, statistics, ratings.

:func:`run_tournament` schedules the games (:mod:`~tajmahal.tournament.seating`),
plays them on a backend (:mod:`~tajmahal.tournament.backends`), appends each
finished game to a JSON-lines file (:mod:`~tajmahal.tournament.results`) and
returns the statistics (:mod:`~tajmahal.tournament.stats`).
:func:`summarize_file` recomputes them from a results file alone.

>>> import tajmahal as tm
>>> result = tm.run_tournament(['greedy', 'random', 'random'], games=6, backend='serial',
...                            seed=0)
>>> [row.name for row in result.table], len(result.games)
(['greedy', 'random', 'random#2'], 6)
"""

from __future__ import annotations

import os

from tajmahal.tournament._runner import run_tournament
from tajmahal.tournament.backends import BACKENDS, MatchOptions, play_game, run_games
from tajmahal.tournament.results import GameResult, Header, ResultsFile, read_results
from tajmahal.tournament.seating import (
    GameJob,
    TournamentError,
    arrangements,
    block_size,
    deal_seed,
    entrant_names,
    schedule,
)
from tajmahal.tournament.sequential import Decision, SequentialTest
from tajmahal.tournament.stats import (
    EntrantRow,
    HeadToHead,
    Rating,
    TournamentResult,
    summarize,
    wilson,
)

__all__ = [
    "BACKENDS",
    "Decision",
    "EntrantRow",
    "GameJob",
    "GameResult",
    "HeadToHead",
    "Header",
    "MatchOptions",
    "Rating",
    "ResultsFile",
    "SequentialTest",
    "TournamentError",
    "TournamentResult",
    "arrangements",
    "block_size",
    "deal_seed",
    "entrant_names",
    "play_game",
    "read_results",
    "run_games",
    "run_tournament",
    "schedule",
    "summarize",
    "summarize_file",
    "wilson",
]


def summarize_file(path: str | os.PathLike[str]) -> TournamentResult:
    """The statistics of the games in a results file (a finished run or not).

    >>> import tempfile, pathlib, tajmahal as tm
    >>> path = pathlib.Path(tempfile.mkdtemp()) / 'results.jsonl'
    >>> played = tm.run_tournament(['greedy', 'random', 'random'], games=6, backend='serial',
    ...                            out=path)
    >>> summarize_file(path).table == played.table
    True
    """
    found = read_results(path)
    return summarize(found.header, found.games)
