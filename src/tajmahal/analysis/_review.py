"""Game analysis: every decision of a seat rated by a search from what the seat knew then."""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from tajmahal.analysis._effects import effect
from tajmahal.game import Game, GameRecord
from tajmahal.names import move_name
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

if TYPE_CHECKING:
    from tajmahal.rules.playout import Playout

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
#: the duel of the best move against the played one: rounds of this many sampled deals (each
#: deal plays both moves, with the same rollout seed) ...
DUEL_DEALS = 24
#: ... at most this many rounds ...
DUEL_ROUNDS = 16
#: ... until the loss lies this many standard errors from the threshold (its mark is clear);
#: a loss within this many of 0 when the rounds run out is "about equal" (never a mistake)
CLEAR = 2.5
#: the analysis races the played move against this many of the search's best other moves
#: (those it rated above the played move, within the mistake threshold of its best) ...
RACE_MOVES = 3
#: ... for at most this many rounds of ``DUEL_DEALS`` deals (a close mark gets the most)
RACE_ROUNDS = 64


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
    #: the move the played one is measured against: the search's choice (its most searched
    #: move), or another of its best moves that rated higher in the race against the played one
    best: Move
    ratings: tuple[MoveRating, ...]  #: every legal move, best first (one move only: forced)
    loss: float  #: the best move's value minus the played move's (0: played the best)
    mistake: bool  #: ``loss`` reaches the analysis's threshold
    played_text: str  #: the played move and its immediate effect, in plain words
    best_text: str  #: the best move and its immediate effect
    #: the race could not tell the played move from the best one: about equal (no mistake)
    about_equal: bool = False

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
            "about_equal": self.about_equal,
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
    threshold: float


class _Rated(NamedTuple):
    """What the search made of one decision."""

    decision: int  #: the move's index in the record
    ratings: tuple[MoveRating, ...]  #: every legal move, best first
    about_equal: bool = False  #: the race could not tell the best and the played move apart


def _rate(job: _Job) -> _Rated:
    """Rate every legal move of one decision with an ISMCTS search from the seat's view; when
    the seat played another move than the best, a race of the played move against the best
    (and the search's next moves rated above the played one) rates them again."""
    from tajmahal.bots.ismcts import IsmctsBot

    comps = job.view.components
    if len(job.legal) == 1:
        only = job.legal[0]
        return _Rated(job.index, (MoveRating(only, move_name(only, comps), 0.0, 0),))
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
    if job.played == best:
        return _Rated(job.index, tuple(ratings))
    played_value = next(r.value for r in ratings if r.move == job.played)
    near = ratings[0].value - job.threshold
    rivals = [best] + [
        r.move
        for r in ratings[1:]
        if r.move != job.played and r.value > played_value and r.value >= near
    ][: RACE_MOVES - 1]
    race = race_moves(job.view, job.played, rivals, job.seed + 1, job.threshold, bot.reward)
    again = {m: (race.values[i], race.deals[i]) for i, m in enumerate(rivals)}
    again[job.played] = (race.played, max(race.deals))
    ratings = [
        attrs.evolve(r, value=round(again[r.move][0], 4), visits=r.visits + again[r.move][1])
        if r.move in again else r
        for r in ratings
    ]  # fmt: skip
    leader = next(r for r in ratings if r.move == rivals[race.leader])
    ratings.remove(leader)  # the move the played one is measured against comes first
    return _Rated(job.index, (leader, *ratings), race.about_equal)


class Race(NamedTuple):
    """The played move against its rivals on the same sampled deals (:func:`race_moves`)."""

    played: float  #: the played move's mean reward on the leader's deals
    values: tuple[float, ...]  #: each rival's mean reward on the deals it was played on
    gains: tuple[float, ...]  #: each rival's mean reward minus the played move's (paired)
    errors: tuple[float, ...]  #: the standard error of each gain
    deals: tuple[int, ...]  #: the deals each rival was played on
    leader: int  #: the rival the mark is decided on: a clear mistake's, else the largest gain
    about_equal: bool  #: the leader's gain lies within ``CLEAR`` standard errors of 0


def race_moves(
    view: PlayerView,
    played: Move,
    rivals: Sequence[Move],
    seed: int,
    threshold: float,
    reward: Callable[[Any], list[float]],
    rounds: int = RACE_ROUNDS,
) -> Race:
    """Race ``played`` against ``rivals`` (legal in ``view``, at least one) on the same deals.

    Each deal samples what ``view`` cannot see and plays the played move and every rival
    still in the race on it, each followed by the cheap ``heuristic`` policy to the visit's
    end with the same rollout seed (common random numbers), scored by ``reward``.  After
    each round of ``DUEL_DEALS`` deals a rival whose gain over the played move lies
    ``CLEAR`` standard errors below ``threshold`` leaves the race, and one that lies
    ``CLEAR`` standard errors above it ends the race (a clear mistake); otherwise the race
    ends when no rival is left or after ``rounds`` rounds.  With one rival and
    ``DUEL_ROUNDS`` rounds it is :func:`duel_moves`.
    """
    from tajmahal.rules.playout import code_of, sampled

    if not rivals:
        raise TajMahalError("a race needs at least one rival to the played move")
    seat = view.seat
    mine = code_of(view.components, played)
    codes = [code_of(view.components, move) for move in rivals]
    rng = random.Random(seed)
    own = [_Sums() for _ in rivals]  # each rival's rewards
    base = [_Sums() for _ in rivals]  # the played move's, on the same deals
    gains = [_Sums() for _ in rivals]  # their differences
    running = list(range(len(rivals)))
    clear: list[int] = []
    for _ in range(rounds):
        for _ in range(DUEL_DEALS):
            deal, rollout_seed = sampled(view, rng), rng.getrandbits(32)
            value = _rollout(deal, mine, rollout_seed, reward, seat)
            for i in running:
                other = _rollout(deal, codes[i], rollout_seed, reward, seat)
                own[i].add(other)
                base[i].add(value)
                gains[i].add(other - value)
        for i in list(running):
            gain, error = gains[i].mean, gains[i].error
            if gain - threshold >= CLEAR * error:
                clear.append(i)
            elif threshold - gain >= CLEAR * error:
                running.remove(i)
        if clear or not running:
            break
    leader = max(clear or range(len(rivals)), key=lambda i: (gains[i].mean, -i))
    return Race(
        base[leader].mean,
        tuple(s.mean for s in own),
        tuple(s.mean for s in gains),
        tuple(s.error for s in gains),
        tuple(s.count for s in own),
        leader,
        abs(gains[leader].mean) <= CLEAR * gains[leader].error,
    )


class _Sums:
    """A running count, sum and sum of squares: a mean and its standard error."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        return self.total / self.count

    @property
    def error(self) -> float:
        if self.count < 2:
            return math.inf
        spread = max(0.0, self.squares - self.total * self.total / self.count)
        return math.sqrt(spread / (self.count - 1) / self.count)


def _rollout(
    deal: Playout, code: int, seed: int, reward: Callable[[Any], list[float]], seat: int
) -> float:
    """``code`` played on a copy of ``deal``, then the heuristic policy to the visit's end."""
    from tajmahal.bots.evaluation import heuristic_pick

    game = deal.copy()
    game.play(code)
    game.run(random.Random(seed), heuristic_pick, visit_end=True)
    return reward(game)[seat]


class Duel(NamedTuple):
    """Two moves compared on the same sampled deals: their mean rewards and the deals played."""

    first: float  #: the first move's mean reward
    second: float  #: the second move's
    deals: int  #: the deals each move was played on
    error: float  #: the standard error of ``first - second`` (paired over the deals)
    about_equal: bool  #: ``first - second`` lies within ``CLEAR`` standard errors of 0


def duel_moves(
    view: PlayerView,
    first: Move,
    second: Move,
    seed: int,
    threshold: float,
    reward: Callable[[Any], list[float]],
) -> Duel:
    """Compare ``first`` and ``second`` (legal in ``view``) with an adaptive budget.

    Each deal samples what ``view`` cannot see, plays each move on it and the cheap
    ``heuristic`` policy on to the visit's end with the same rollout seed (common random
    numbers: the two are compared on the same luck), and scores both with ``reward`` (one
    value per seat).  Rounds of ``DUEL_DEALS`` deals run until the difference of the means
    lies ``CLEAR`` standard errors from ``threshold`` (the mistake mark is clear) or
    ``DUEL_ROUNDS`` rounds have run; it is "about equal" when it lies within ``CLEAR``
    standard errors of 0 at the end.
    """
    race = race_moves(view, second, [first], seed, threshold, reward, DUEL_ROUNDS)
    return Duel(race.values[0], race.played, race.deals[0], race.errors[0], race.about_equal)


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
    best rival).  When the played move is not the search's choice, a race
    (``race_moves``) plays it against that choice and up to ``RACE_MOVES - 1``
    more of the search's moves rated above it, on the same sampled deals,
    round after round: a rival leaves once its gain over the played move is
    clearly below ``threshold``, and the race ends once one is clearly above it
    (or after ``RACE_ROUNDS`` rounds).  The race's leader is the best move, and
    the raced moves get the race's values: the budget grows where the mark is
    close, so that another seed marks the same mistakes.  A decision's loss is
    the best move's value minus the played one's (never below 0); a loss of
    ``threshold`` or more marks a mistake, unless the race could not tell the
    two apart (``about_equal``).  The same record, seats,
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
                     _decision_seed(seed, index), iterations, threshold)
            )  # fmt: skip
    rated = {result.decision: result for result in _run(work, jobs, progress)}
    decisions = []
    for job in work:
        ratings, about_equal = rated[job.index].ratings, rated[job.index].about_equal
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
            mistake=loss > 0 and loss >= threshold and not about_equal,
            played_text=str(effect(view, job.played)),
            best_text=str(effect(view, best.move)),
            about_equal=about_equal,
        )
        decisions.append(review)
    return GameAnalysis(
        players, tuple(record.players), wanted, iterations, seed, threshold, len(record.moves),
        tuple(decisions),
    )  # fmt: skip


def _run(
    work: Sequence[_Job], jobs: int, progress: Callable[[int, int], None] | None
) -> Iterable[_Rated]:
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
