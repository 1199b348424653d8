"""Which bots play the arena's next game, and in which seats.

Kaggle's simulations and lichess's matchmaking are the model: games go on
continuously between bots of similar skill, and a bot with few games plays
more until its uncertainty falls.  :func:`choose_game` takes the bots that
have room for one more game and

- seats first the one with the fewest rated games (a newcomer plays at once,
  and keeps playing until it has caught up: *exploration*);
- draws the others by how close their rating is to that bot's, as openskill
  measures closeness (mean and uncertainty both), with a floor so that any
  bot can meet any other now and then;
- seats 3 to 5 of them (as many as have room, at random);
- orders them so that each bot's seats even out over time: the order chosen
  is the one whose bots have sat least often in those seats before.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence

import attrs

from tajmahal.arena.ratings import NEW_SIGMA

__all__ = ["BETA", "Candidate", "choose_game", "seat_order"]

BETA = NEW_SIGMA / 2  #: openskill's performance spread: how far apart two bots' games may fall
FLOOR = 0.05  #: the least weight of any bot in the draw (every pairing happens now and then)


@attrs.frozen
class Candidate:
    """A bot that may be seated: its rating, its rated games, and how many more games it may
    start now (its own cap and its connections' less the games it plays)."""

    name: str
    mu: float
    sigma: float
    games: int
    free: int


def choose_game(
    candidates: Sequence[Candidate],
    rng: random.Random,
    seat_counts: Mapping[str, Mapping[tuple[int, int], int]] | None = None,
    most: int = 5,
) -> tuple[str, ...] | None:
    """The bots of the next game in seat order, or None while fewer than 3 have room.

    >>> bots = [Candidate(f'b{n}', 25.0 + n, 8.0, 10 * n, 1) for n in range(6)]
    >>> game = choose_game(bots, random.Random(1))
    >>> 3 <= len(game) <= 5 and 'b0' in game and len(set(game)) == len(game)
    True
    >>> choose_game(bots[:2], random.Random(1)) is None
    True
    """
    ready = [bot for bot in candidates if bot.free > 0]
    if len(ready) < 3:
        return None
    seats = rng.randint(3, min(most, 5, len(ready)))
    ready.sort(key=lambda bot: (bot.games, rng.random()))
    anchor, rest = ready[0], ready[1:]
    chosen = [anchor]
    while len(chosen) < seats:
        weights = [_closeness(anchor, bot) * (1 + bot.sigma / NEW_SIGMA) + FLOOR for bot in rest]
        pick = rng.choices(range(len(rest)), weights)[0]
        chosen.append(rest.pop(pick))
    return seat_order([bot.name for bot in chosen], rng, seat_counts or {})


def _closeness(a: Candidate, b: Candidate) -> float:
    """openskill's chance of a draw between two ratings, up to a constant: 1 when equal."""
    spread = 2 * BETA**2 + a.sigma**2 + b.sigma**2
    return math.exp(-((a.mu - b.mu) ** 2) / (2 * spread))


def seat_order(
    names: Sequence[str],
    rng: random.Random,
    seat_counts: Mapping[str, Mapping[tuple[int, int], int]],
) -> tuple[str, ...]:
    """``names`` in the order whose bots sat least often in those seats (ties at random).

    >>> seat_order(['a', 'b', 'c'], random.Random(0), {'a': {(3, 0): 5}, 'b': {(3, 0): 5}})[0]
    'c'
    """
    n = len(names)
    best: list[tuple[int, float, tuple[str, ...]]] = []
    for order in itertools.permutations(names):
        cost = sum(seat_counts.get(name, {}).get((n, seat), 0) for seat, name in enumerate(order))
        best.append((cost, rng.random(), order))
    return min(best)[2]
