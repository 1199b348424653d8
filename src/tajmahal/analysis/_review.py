"""Game analysis: every decision of a seat rated by a search from what the seat knew then."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from tajmahal.analysis._effects import effect
from tajmahal.analysis._names import move_name
from tajmahal.game import Game, GameRecord
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = [
    "DEFAULT_ITERATIONS",
    "MISTAKE",
    "DecisionReview",
    "GameAnalysis",
    "MoveRating",
    "analyse_game",
]

DEFAULT_ITERATIONS = 300
#: a decision whose move rates this far below the best one (0..1 reward) is a mistake
MISTAKE = 0.08
MAX_JOBS = 64


@attrs.frozen
class MoveRating:
    """One legal move rated by the search: its mean reward (0..1) over ``visits`` searches."""

    move: Move
    name: str
    value: float  #: rounded to 4 decimals (what a saved analysis keeps)
    visits: int


@attrs.frozen
class DecisionReview:
    """One decision of the analysed seat, rated."""

    index: int  #: the move's index in the record (0: the first move)
    seat: int
    visit: int
    played: Move
    best: Move  #: the search's choice (its most searched move)
    ratings: tuple[MoveRating, ...]  #: every legal move, best first (one move only: forced)
    loss: float  #: the best move's value minus the played move's (0: played the best)
    mistake: bool  #: ``loss`` reaches the analysis's threshold
    played_text: str  #: the played move and its immediate effect, in plain words
    best_text: str  #: the best move and its immediate effect

    @property
    def forced(self) -> bool:
        """Only one legal move: nothing to decide."""
        return len(self.ratings) == 1

    @property
    def played_value(self) -> float:
        """The played move's rating."""
        return next(r.value for r in self.ratings if r.move == self.played)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "index": self.index,
            "seat": self.seat,
            "visit": self.visit,
            "played": str(self.played),
            "best": str(self.best),
            "loss": round(self.loss, 4),
            "mistake": self.mistake,
            "played_text": self.played_text,
            "best_text": self.best_text,
            "ratings": [
                {"move": str(r.move), "name": r.name, "value": round(r.value, 4),
                 "visits": r.visits}
                for r in self.ratings
            ],
        }


@attrs.frozen
class GameAnalysis:
    """The analysis of a recorded game: :func:`analyse_game` builds it."""

    num_players: int
    players: tuple[str, ...]
    seats: tuple[int, ...]  #: the seats analysed
    iterations: int
    seed: int
    threshold: float
    moves: int  #: moves in the record analysed
    decisions: tuple[DecisionReview, ...]  #: in the record's order

    def lost(self, seat: int) -> float:
        """What ``seat`` lost over the game: the sum of its decisions' losses."""
        return sum(d.loss for d in self.decisions if d.seat == seat)

    def mistakes(self, seat: int) -> tuple[DecisionReview, ...]:
        """``seat``'s decisions marked as mistakes, in the record's order."""
        return tuple(d for d in self.decisions if d.seat == seat and d.mistake)

    def worst(self, seat: int, count: int = 3) -> tuple[DecisionReview, ...]:
        """``seat``'s ``count`` costliest decisions, costliest first."""
        mine = [d for d in self.decisions if d.seat == seat and d.loss > 0]
        return tuple(sorted(mine, key=lambda d: (-d.loss, d.index))[:count])

    def lines(self) -> list[str]:
        """A plain-text report: each seat's total loss and mistakes, then its worst decisions."""
        out = [
            f"Analysis: {self.iterations} searches per decision, seed {self.seed}, "
            f"a mistake loses {self.threshold:.0%} or more"
        ]
        for seat in self.seats:
            mine = [d for d in self.decisions if d.seat == seat]
            who = f"seat {seat}" + (f" ({self.players[seat]})" if seat < len(self.players) else "")
            out.append(
                f"{who}: {len(mine)} decisions, {len(self.mistakes(seat))} mistakes, "
                f"lost {self.lost(seat):.2f} in all (the sum of its drops in win estimate)"
            )
            for d in self.worst(seat):
                out.append(
                    f"  move {d.index + 1}, visit {d.visit}: cost {d.loss:.0%} "
                    f"({d.played_value:.0%} played, {d.ratings[0].value:.0%} best)"
                )
                out.append(f"    played {d.played_text}")
                out.append(f"    best   {d.best_text}")
        return out

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: the document ``tajmahal analyse --out`` saves beside the record."""
        return {
            "format": "tajmahal/analysis",
            "version": 1,
            "num_players": self.num_players,
            "players": list(self.players),
            "seats": list(self.seats),
            "iterations": self.iterations,
            "seed": self.seed,
            "threshold": self.threshold,
            "moves": self.moves,
            "lost": {str(s): round(self.lost(s), 4) for s in self.seats},
            "decisions": [d.as_dict() for d in self.decisions],
        }


@attrs.frozen
class _Job:
    index: int
    view: PlayerView
    legal: tuple[Move, ...]
    played: Move
    seed: int
    iterations: int


def _rate(job: _Job) -> tuple[int, tuple[MoveRating, ...]]:
    """Rate every legal move of one decision with an ISMCTS search from the seat's view."""
    from tajmahal.bots.ismcts import IsmctsBot

    comps = job.view.components
    if len(job.legal) == 1:
        return job.index, (MoveRating(job.legal[0], move_name(job.legal[0], comps), 0.0, 0),)
    # every root move is tried once before any is tried twice: give each a few searches
    bot = IsmctsBot(seed=job.seed, iterations=max(job.iterations, 3 * len(job.legal)))
    bot.choose(job.view, job.legal)
    stats = list(bot.last_statistics)
    seen = {s.move for s in stats}
    ratings = [
        MoveRating(s.move, move_name(s.move, comps), round(s.value, 4), s.visits) for s in stats
    ]
    ratings += [
        MoveRating(m, move_name(m, comps), 0.0, 0) for m in job.legal if m not in seen
    ]  # never happens with enough searches; kept so that every move is listed
    best = ratings[0].move
    if job.played != best:  # the search tried a move it dislikes rarely: rate both again,
        duel = IsmctsBot(seed=job.seed + 1, iterations=max(20, job.iterations // 2))
        duel.search_offered_only = True  # the whole budget on the two of them
        duel.choose(job.view, (best, job.played))
        again = {s.move: s for s in duel.last_statistics}
        ratings = [_rerated(r, again[r.move]) if r.move in again else r for r in ratings]
    return job.index, tuple(ratings)


def _rerated(rating: MoveRating, duel: Any) -> MoveRating:
    """``rating`` with the value of a second search between the best and the played move."""
    return attrs.evolve(rating, value=round(duel.value, 4), visits=rating.visits + duel.visits)


def _decision_seed(seed: int, index: int) -> int:
    return random.Random(f"tajmahal-analysis/{seed}/{index}").getrandbits(63)


def analyse_game(
    record: GameRecord,
    *,
    seats: Iterable[int] | None = None,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    jobs: int = 1,
    threshold: float = MISTAKE,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """Rate every decision of ``seats`` (default: every seat) in ``record``.

    Each decision is searched by the ``ismcts`` bot from the deciding seat's
    view at that moment (what it knew then, never the hidden cards), with
    ``iterations`` searches (at least three per legal move), and every legal
    move gets the search's mean reward (0..1, a smooth chance of beating the
    best rival).  The best move is the search's choice.  UCT searches a move
    it dislikes rarely, so when the played move is not the best, a second
    search (half the budget, at least 20) compares the two alone and gives
    both their values.  A decision's loss is the best move's value minus the
    played one's (never below 0); a loss of ``threshold`` or more marks a
    mistake.  The same record, seats,
    iterations and seed give the same analysis, with any ``jobs`` (worker
    processes).  ``progress(done, total)`` is called after each decision.

    >>> import tajmahal as tm
    >>> record = tm.play_match(['greedy', 'random', 'random'], seed=3).record
    >>> review = analyse_game(record, seats=[0], iterations=20)
    >>> all(d.seat == 0 for d in review.decisions), review.lost(0) >= 0
    (True, True)
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or not iterations >= 1:
        raise TajMahalError(f"iterations must be a positive int, got {iterations!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise TajMahalError(f"jobs must be an int from 1 to {MAX_JOBS}, got {jobs!r}")
    if not 0 <= threshold <= 1:
        raise TajMahalError(f"threshold must lie in 0..1, got {threshold!r}")
    players = record.num_players
    given = list(range(players)) if seats is None else list(seats)
    for seat in given:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise TajMahalError(f"seat must be 0..{players - 1}, got {seat!r}")
    wanted = tuple(sorted(set(given)))
    states = Game.from_record(record).states
    work = []
    for index, move in enumerate(record.moves):
        state = states[index]
        mover = state.current_player
        if mover is not None and mover in wanted:
            work.append(
                _Job(index, state.view(mover), state.legal_moves(), move,
                     _decision_seed(seed, index), iterations)
            )  # fmt: skip
    rated = dict(_run(work, jobs, progress))
    decisions = []
    for job in work:
        ratings = rated[job.index]
        view = job.view
        best = ratings[0]
        played = next(r for r in ratings if r.move == job.played)
        loss = round(max(0.0, best.value - played.value), 4) if len(ratings) > 1 else 0.0
        review = DecisionReview(
            index=job.index,
            seat=view.seat,
            visit=view.visit,
            played=job.played,
            best=best.move,
            ratings=ratings,
            loss=loss,
            mistake=loss > 0 and loss >= threshold,
            played_text=str(effect(view, job.played)),
            best_text=str(effect(view, best.move)),
        )
        decisions.append(review)
    return GameAnalysis(
        players, tuple(record.players), wanted, iterations, seed, threshold, len(record.moves),
        tuple(decisions),
    )  # fmt: skip


def _run(
    work: Sequence[_Job], jobs: int, progress: Callable[[int, int], None] | None
) -> Iterable[tuple[int, tuple[MoveRating, ...]]]:
    total = len(work)
    if jobs == 1 or total <= 1:
        for done, job in enumerate(work, 1):
            yield _rate(job)
            if progress is not None:
                progress(done, total)
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = [pool.submit(_rate, job) for job in work]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            yield future.result()
            if progress is not None:
                progress(done, total)
