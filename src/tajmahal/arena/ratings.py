"""The arena's ratings: openskill's Plackett-Luce model, updated after each rated game.

Each bot has a mean ``mu`` (its skill) and an uncertainty ``sigma``; a new bot
starts at openskill's 25 and 25/3.  A game's ranks come from its final scores
(ties share a rank), every seat with a fault after every seat without, as the
referee ranks them.  The table is ordered by the conservative rating
``mu - 3 sigma``: a bot climbs by winning *and* by playing enough games for the
arena to be sure of it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["NEW_MU", "NEW_SIGMA", "conservative", "game_ranks", "rate_game"]

NEW_MU = 25.0  #: a new bot's mean (openskill's default)
NEW_SIGMA = 25.0 / 3  #: a new bot's uncertainty (openskill's default)


def conservative(mu: float, sigma: float) -> float:
    """The rating the table is ordered by: ``mu - 3 sigma``.

    >>> conservative(25.0, 25.0 / 3)
    0.0
    """
    return mu - 3 * sigma


def game_ranks(scores: Sequence[int], faulty: Sequence[bool]) -> list[int]:
    """Each seat's rank (1 is first): fewer points rank lower, equal points share a rank, and
    a seat with a fault ranks after every seat without one.

    >>> game_ranks([40, 55, 40, 12], [False, False, False, False])
    [2, 1, 2, 4]
    >>> game_ranks([40, 55, 40], [False, True, False])
    [1, 3, 1]
    """
    keys = [(bool(bad), -score) for score, bad in zip(scores, faulty, strict=True)]
    return [1 + sum(other < key for other in keys) for key in keys]


def rate_game(
    ratings: Sequence[tuple[float, float]], ranks: Sequence[int]
) -> list[tuple[float, float]]:
    """The ratings ``(mu, sigma)`` after one game with these ranks (openskill's Plackett-Luce).

    >>> after = rate_game([(25.0, 25 / 3)] * 3, [1, 2, 3])
    >>> after[0][0] > 25 > after[2][0], all(sigma < 25 / 3 for _, sigma in after)
    (True, True)
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = model.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]
