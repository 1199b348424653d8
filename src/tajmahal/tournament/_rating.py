"""Tournament ratings: openskill's Plackett–Luce model fitted to all the games at once.

The ratings are the mode of the posterior: openskill's new rating (mu 25,
sigma 25/3) as every entrant's prior, times each game's Plackett–Luce
likelihood with openskill's formulas (its spread ``c`` that of new ratings;
ties as Weng and Lin weigh them).  ``sigma**2`` is the inverse of the prior's
precision plus the information the games give at the mode, as openskill
counts a game's information (the likelihood's curvature times openskill's
``gamma = sigma / c``).  The log posterior is strictly concave, so the mode
is unique; Newton steps, entrant by entrant, find it, each step shortened
until it raises the log posterior (a backtracking line search).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import attrs
from openskill.models import PlackettLuce

__all__ = ["fit_ratings"]

_MODEL = PlackettLuce()

#: the Newton steps end once none moves a rating by more than this, or after this many steps
_TOLERANCE = 1e-9
_MAX_STEPS = 200
_ARMIJO = 1e-4  #: a step must gain this share of the gain its slope promises
_MIN_SCALE = 2.0**-40  #: the line search's shortest step (reached only at rounding level)


@attrs.frozen
class _Outcome:
    """One way a game ended, and how many games ended so: the entrants by place, best first."""

    entrants: tuple[int, ...]  #: by place, then by entrant
    groups: tuple[tuple[int, int], ...]  #: (first, end) index of each place, best first
    times: int  #: games that ended this way

    @classmethod
    def prepare(cls, games: Sequence[tuple[Sequence[int], Sequence[float]]]) -> list[_Outcome]:
        """The games' outcomes (seats, places), each once with its count, in a fixed order."""
        counted = Counter(tuple(sorted(zip(places, seats, strict=True))) for seats, places in games)
        outcomes = []
        for ended, times in sorted(counted.items()):
            starts = [i for i, (place, _) in enumerate(ended) if i == 0 or place != ended[i - 1][0]]
            groups = tuple(zip(starts, [*starts[1:], len(ended)], strict=True))
            outcomes.append(cls(tuple(who for _, who in ended), groups, times))
        return outcomes


@attrs.frozen
class _Posterior:
    """The log posterior at ``mu``, its gradient, its curvature and the games' information."""

    mu: tuple[float, ...]
    value: float
    gradient: tuple[float, ...]
    curvature: tuple[float, ...]
    information: tuple[float, ...]


def fit_ratings(
    count: int, games: Sequence[tuple[Sequence[int], Sequence[float]]]
) -> list[tuple[float, float]]:
    """The ratings (mu, sigma) of ``count`` entrants from all ``games`` (seats, places).

    Every entrant's prior is openskill's new rating; the ratings maximise the
    prior times each game's Plackett–Luce likelihood (damped Newton steps,
    entrant by entrant, with a line search), and ``sigma`` comes from the
    games' information at that point.  One game of three new entrants moves
    them a little less than openskill's single update does:

    >>> [(round(mu, 2), round(sigma, 2)) for mu, sigma in fit_ratings(3, [([0, 1, 2], (1, 2, 3))])]
    [(27.63, 8.2), (25.46, 8.08), (21.91, 8.09)]
    >>> plain = _MODEL.rate([[_MODEL.rating()] for _ in range(3)], ranks=[1, 2, 3])
    >>> [(round(team[0].mu, 2), round(team[0].sigma, 2)) for team in plain]
    [(27.87, 8.21), (25.72, 8.06), (21.41, 8.06)]
    """
    outcomes = _Outcome.prepare(games)
    members: dict[int, list[int]] = {}
    for who, root in enumerate(_components(count, outcomes)):
        if root is not None:
            members.setdefault(root, []).append(who)
    current = _posterior((_MODEL.mu,) * count, outcomes)
    for _ in range(_MAX_STEPS):
        step = [g / h for g, h in zip(current.gradient, current.curvature, strict=True)]
        # the likelihood ignores a common shift of entrants who only meet one another; the
        # prior puts their mean at the prior's, where the mode is: keep it there
        for group in members.values():
            mean = math.fsum(step[who] for who in group) / len(group)
            for who in group:
                step[who] -= mean
        slope = math.fsum(g * s for g, s in zip(current.gradient, step, strict=True))
        scale = 1.0
        while True:
            trial = _posterior(
                tuple(m + scale * s for m, s in zip(current.mu, step, strict=True)), outcomes
            )
            if trial.value >= current.value + _ARMIJO * scale * slope or scale <= _MIN_SCALE:
                break
            scale /= 2
        current = trial
        if max((abs(scale * s) for s in step), default=0.0) <= _TOLERANCE:
            break
    prior = 1 / _MODEL.sigma**2
    return [
        (mu, math.sqrt(1 / (prior + information)))
        for mu, information in zip(current.mu, current.information, strict=True)
    ]


def _components(count: int, outcomes: Sequence[_Outcome]) -> list[int | None]:
    """Each entrant's group of entrants linked by games (None: no game)."""
    parent = list(range(count))

    def root(who: int) -> int:
        while parent[who] != who:
            who = parent[who]
        return who

    played = [False] * count
    for outcome in outcomes:
        first = root(outcome.entrants[0])
        for who in outcome.entrants:
            played[who] = True
            parent[root(who)] = first
    return [root(who) if played[who] else None for who in range(count)]


def _posterior(mu: tuple[float, ...], outcomes: Sequence[_Outcome]) -> _Posterior:
    """The log posterior of the ratings ``mu`` given the games' outcomes.

    openskill's Plackett–Luce model, its spread ``c`` that of new ratings;
    players who tie share a place group, each weighted by 1 / its size (Weng
    and Lin's likelihood).  Sums over the games are ``math.fsum`` (exact), and
    within a game they run by place: the same games give the same bits in any
    order, and so do two entrants whose games mirror each other's.
    """
    prior = _MODEL.sigma**2
    value = [-((m - _MODEL.mu) ** 2) / (2 * prior) for m in mu]
    gradient: list[list[float]] = [[-(m - _MODEL.mu) / prior] for m in mu]
    curvature: list[list[float]] = [[1 / prior] for _ in mu]
    information: list[list[float]] = [[] for _ in mu]
    for outcome in outcomes:
        c = math.sqrt(len(outcome.entrants) * (prior + _MODEL.beta**2))
        gamma = _MODEL.sigma / c  # openskill's damping of a game's information
        top = max(mu[who] for who in outcome.entrants)
        strength = [math.exp((mu[who] - top) / c) for who in outcome.entrants]
        rest = []  # each place group's strength and that of all below it
        total = 0.0
        for first, end in reversed(outcome.groups):
            total += sum(strength[first:end])
            rest.append(total)
        rest.reverse()
        terms = [-math.log(r) for r in rest]
        for group, (first, end) in enumerate(outcome.groups):
            for i in range(first, end):
                who = outcome.entrants[i]
                terms.append((mu[who] - top) / (c * (end - first)))
                shares = [strength[i] / r for r in rest[: group + 1]]
                bend = sum(p * (1 - p) for p in shares) / c**2
                gradient[who].append(outcome.times * (1 / (end - first) - sum(shares)) / c)
                curvature[who].append(outcome.times * bend)
                information[who].append(outcome.times * bend * gamma)
        value.append(outcome.times * sum(terms))
    return _Posterior(
        mu,
        math.fsum(value),
        tuple(map(math.fsum, gradient)),
        tuple(map(math.fsum, curvature)),
        tuple(map(math.fsum, information)),
    )
