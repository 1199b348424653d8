"""Statistics of a tournament: the table (one row per entrant), ratings, head to head.

* **wins** — a shared win (equal top scores) counts ``1 / number of winners``
  (sums are exact: the same games give the same figures in any order);
* **win rate** with its 95% **Wilson** score interval (sound for small counts
  and for rates near 0 or 1);
* **mean score** with a 95% interval (normal approximation: mean ± 1.96 ·
  standard error; none below two games);
* **mean rank**: 1 is first; seats with equal score (and the same fault
  status) share the mean of their places;
* **rating**: ``openskill``'s Plackett–Luce model fitted to all the games
  at once: the ratings are the mode of the posterior, openskill's new rating
  (mu 25, sigma 25/3) as every entrant's prior times each game's
  Plackett–Luce likelihood, and each ``sigma**2`` is the inverse of the
  prior's precision plus the information (as openskill counts it) the games
  give at that mode.  The mode is found by damped Newton steps and every sum
  is exact, so the games count the same in any order (two copies of a
  deterministic bot, which play mirror-image games in balanced blocks, get
  exactly equal ratings) and an early game weighs no more than a late one;
  the table is sorted by the conservative rating ``mu - 3 * sigma``;
* **faults**: faulty decisions (and games with at least one);
* **head to head**: for each pair, the share of their common games in which
  one finished ahead of the other (equal places count a half).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

import attrs

from tajmahal.tournament._rating import fit_ratings
from tajmahal.tournament.results import GameResult, Header
from tajmahal.tournament.sequential import Decision, block_shares, decide

__all__ = [
    "TABLE_COLUMNS",
    "Z95",
    "EntrantRow",
    "HeadToHead",
    "Rating",
    "TournamentResult",
    "summarize",
    "table_cells",
    "wilson",
]

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default); ``(0, 1)`` without trials.

    >>> low, high = wilson(30, 100)
    >>> round(low, 3), round(high, 3)
    (0.219, 0.396)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    scale = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / scale
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


@attrs.frozen
class Rating:
    """An openskill Plackett–Luce rating: ``mu`` (skill) and ``sigma`` (its uncertainty).

    >>> Rating(30.0, 2.0).ordinal
    24.0
    """

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 * sigma`` that orders the table.

        >>> Rating(25.0, 8.0).ordinal
        1.0
        """
        return self.mu - 3 * self.sigma


@attrs.frozen
class EntrantRow:
    """One entrant's line of the table (see the module docstring for each figure).

    >>> row = summarize(_example_header(), _example_games()).table[0]
    >>> row.name, row.games, row.wins, row.win_rate
    ('b', 3, 2.0, 0.6666666666666666)
    """

    name: str
    games: int
    wins: float
    win_rate: float
    win_ci: tuple[float, float]
    mean_score: float
    score_ci: tuple[float, float] | None
    mean_rank: float
    rating: Rating
    faults: int  #: faulty decisions
    faulty_games: int  #: games with at least one fault

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object.

        >>> row = summarize(_example_header(), _example_games()).table[0].to_json()
        >>> row['name'], row['wins'], row['win_ci'], round(row['rating']['mu'], 2)
        ('b', 2.0, [0.2076596008020477, 0.9385080552796037], 29.56)
        """
        data = attrs.asdict(self, recurse=True)
        data["win_ci"] = list(self.win_ci)
        data["score_ci"] = None if self.score_ci is None else list(self.score_ci)
        return data


@attrs.frozen
class HeadToHead:
    """For each pair of entrants: games played together, and how often one finished ahead.

    >>> h2h = summarize(_example_header(), _example_games()).head_to_head
    >>> h2h.met('a', 'b'), h2h.ahead('b', 'a'), h2h.share('b', 'a')
    (3, 2.0, 0.6666666666666666)
    """

    names: tuple[str, ...]
    games: tuple[tuple[int, ...], ...]  #: games[i][j]: games entrants i and j played together
    ahead_counts: tuple[tuple[float, ...], ...]  #: [i][j]: times i finished ahead of j (ties 1/2)

    def met(self, a: str, b: str) -> int:
        """How many games ``a`` and ``b`` played together.

        >>> summarize(_example_header(), _example_games()).head_to_head.met('a', 'a')
        0
        """
        return self.games[self.names.index(a)][self.names.index(b)]

    def ahead(self, a: str, b: str) -> float:
        """How often ``a`` finished ahead of ``b`` (equal places count a half).

        >>> summarize(_example_header(), _example_games()).head_to_head.ahead('c', 'b')
        0.0
        """
        return self.ahead_counts[self.names.index(a)][self.names.index(b)]

    def share(self, a: str, b: str) -> float | None:
        """The share of their common games in which ``a`` finished ahead of ``b``; None if none.

        >>> summarize(_example_header(), _example_games()).head_to_head.share('a', 'c')
        1.0
        """
        met = self.met(a, b)
        return self.ahead(a, b) / met if met else None

    def to_json(self) -> dict[str, dict[str, dict[str, float | int]]]:
        """``{a: {b: {"games": n, "ahead": x}}}`` for each pair that met.

        >>> summarize(_example_header(), _example_games()).head_to_head.to_json()['b']['c']
        {'games': 3, 'ahead': 3.0}
        """
        return {
            a: {b: {"games": self.met(a, b), "ahead": self.ahead(a, b)}
                for b in self.names if self.met(a, b)}
            for a in self.names
        }


@attrs.frozen(repr=False)
class TournamentResult:
    """A tournament's games and what they say: the table (best first) and the head-to-head.

    ``planned`` is the number of games the tournament has; ``games`` those
    played (fewer in a summary of an unfinished run).

    >>> result = summarize(_example_header(), _example_games())
    >>> [row.name for row in result.table], len(result.games), result.planned
    (['b', 'a', 'c'], 3, 3)
    """

    header: Header
    games: tuple[GameResult, ...]
    table: tuple[EntrantRow, ...]
    head_to_head: HeadToHead
    decision: Decision | None = None  #: the sequential test's, when ``until_decided``

    def __repr__(self) -> str:
        """The games played and the table's order (``repr`` stays short).

        >>> summarize(_example_header(), _example_games())
        <TournamentResult 3 of 3 games, 3 players a game; best first: b, a, c>
        """
        order = ", ".join(row.name for row in self.table)
        return (
            f"<TournamentResult {len(self.games)} of {self.planned} games, "
            f"{self.header.num_players} players a game; best first: {order}>"
        )

    @property
    def planned(self) -> int:
        """The number of games the tournament has (its ``games`` argument).

        >>> summarize(_example_header(), ()).planned
        3
        """
        return self.header.games

    def to_json(self) -> dict[str, Any]:
        """Everything the CLI prints, as JSON: the tournament, the table, the head-to-head.

        >>> sorted(summarize(_example_header(), _example_games()).to_json())
        ['decision', 'faults', 'games_played', 'head_to_head', 'table', 'tournament']
        """
        return {
            "tournament": self.header.to_json(),
            "games_played": len(self.games),
            "faults": sum(len(game.faults) for game in self.games),
            "table": [row.to_json() for row in self.table],
            "head_to_head": self.head_to_head.to_json(),
            "decision": None if self.decision is None else self.decision.to_json(),
        }

    def _repr_html_(self) -> str:
        """The table as HTML, for notebooks (Jupyter shows a result as its standings).

        Every text is escaped (entrants' names are player specs: anything).

        >>> html = summarize(_example_header(), _example_games())._repr_html_()
        >>> html.count('<tr>'), '<td>b</td>' in html
        (4, True)
        """
        played = len(self.games)
        caption = (
            f"{played} of {self.planned} games, {self.header.num_players} players a game"
            if played != self.planned
            else f"{played} games, {self.header.num_players} players a game"
        )
        if self.decision is not None and self.decision.verdict is not None:
            caption += f"; the sequential test found {self.decision.verdict} stronger"
        head = "".join(f"<th>{escape(name)}</th>" for name in TABLE_COLUMNS)
        rows = "".join(
            "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in table_cells(row, place))
            + "</tr>"
            for place, row in enumerate(self.table, start=1)
        )  # fmt: skip
        return (
            f'<table class="tajmahal-standings"><caption>{escape(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
        )


#: the table's columns, as ``tajmahal tournament`` prints them (see :func:`table_cells`)
TABLE_COLUMNS: tuple[str, ...] = (
    "#", "entrant", "games", "wins", "win rate (95% CI)", "mean score (95% CI)",
    "mean rank", "rating mu ± sigma", "faults",
)  # fmt: skip


def table_cells(row: EntrantRow, place: int) -> tuple[str, ...]:
    """The texts of one row of the table (:data:`TABLE_COLUMNS`), ``place`` counted from 1.

    >>> table_cells(summarize(_example_header(), _example_games()).table[0], 1)[:5]
    ('1', 'b', '3', '2', '66.7% (20.8%–93.9%)')
    """
    low, high = row.win_ci
    score = f"{row.mean_score:.1f}"
    if row.score_ci is not None:
        score += f" ({row.score_ci[0]:.1f}–{row.score_ci[1]:.1f})"
    return (
        str(place), row.name, str(row.games), f"{row.wins:g}",
        f"{row.win_rate:.1%} ({low:.1%}–{high:.1%})", score, f"{row.mean_rank:.2f}",
        f"{row.rating.mu:.1f} ± {row.rating.sigma:.1f}",
        f"{row.faults} in {row.faulty_games} games" if row.faults else "0",
    )  # fmt: skip


def summarize(header: Header, games: Sequence[GameResult]) -> TournamentResult:
    """The statistics of ``games`` (taken in game order) of the tournament ``header`` describes.

    >>> [row.mean_rank for row in summarize(_example_header(), _example_games()).table]
    [1.3333333333333333, 1.6666666666666667, 3.0]
    """
    ordered = tuple(sorted(games, key=lambda game: game.game))
    decision = None
    if header.until_decided:
        decision = decide(header.names, block_shares(header, ordered))
        if decision.last_block is not None:  # games after the deciding block do not count
            ordered = tuple(game for game in ordered if game.block <= decision.last_block)
    names = header.names
    index = {name: i for i, name in enumerate(names)}
    count = len(names)
    played = [0] * count
    wins: list[list[float]] = [[] for _ in names]
    scores: list[list[int]] = [[] for _ in names]
    ranks: list[list[float]] = [[] for _ in names]
    faults = [0] * count
    faulty_games = [0] * count
    met = [[0] * count for _ in names]
    ahead = [[0.0] * count for _ in names]
    rated: list[tuple[list[int], tuple[float, ...]]] = []
    for game in ordered:
        seats = [index[name] for name in game.players]
        places = game.positions()
        rated.append((seats, places))
        for seat, who in enumerate(seats):
            played[who] += 1
            scores[who].append(game.scores[seat])
            ranks[who].append(places[seat])
            for other_seat, other in enumerate(seats):
                if other != who:
                    met[who][other] += 1
                    if places[seat] < places[other_seat]:
                        ahead[who][other] += 1.0
                    elif places[seat] == places[other_seat]:
                        ahead[who][other] += 0.5
        for seat in game.winners:
            wins[seats[seat]].append(1 / len(game.winners))
        for fault in game.faults:
            faults[seats[fault.seat]] += 1
        for seat in {fault.seat for fault in game.faults}:
            faulty_games[seats[seat]] += 1
    ratings = fit_ratings(count, rated)
    rows = [
        EntrantRow(
            name=names[i],
            games=played[i],
            wins=math.fsum(wins[i]),
            win_rate=math.fsum(wins[i]) / played[i],
            win_ci=wilson(math.fsum(wins[i]), played[i]),
            mean_score=sum(scores[i]) / played[i],
            score_ci=_mean_interval(scores[i]),
            mean_rank=math.fsum(ranks[i]) / played[i],
            rating=Rating(*ratings[i]),
            faults=faults[i],
            faulty_games=faulty_games[i],
        )
        for i in range(count)
        if played[i]
    ]
    rows.sort(key=lambda row: (-row.rating.ordinal, -row.win_rate, row.name))
    head_to_head = HeadToHead(
        names, tuple(map(tuple, met)), tuple(map(tuple, ahead))
    )
    return TournamentResult(header, ordered, tuple(rows), head_to_head, decision)


def _mean_interval(values: Sequence[int]) -> tuple[float, float] | None:
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    variance = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    half = Z95 * math.sqrt(variance / len(values))
    return (mean - half, mean + half)


def _example_header() -> Header:
    """Three entrants at a three-seat table, one deal (for the examples)."""
    return Header(("a", "b", "c"), num_players=3, games=3, seed=0, seating="rotation")


def _example_games() -> tuple[GameResult, ...]:
    """Three games: b wins twice, a once; c is last every time."""
    return (
        GameResult(0, 0, 1, ("a", "b", "c"), (50, 40, 20), (0,), (0, 1, 2), ()),
        GameResult(1, 0, 1, ("b", "c", "a"), (55, 30, 45), (0,), (0, 2, 1), ()),
        GameResult(2, 0, 1, ("c", "a", "b"), (25, 44, 60), (2,), (2, 1, 0), ()),
    )
