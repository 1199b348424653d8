"""Tournaments that stop when the answer is known: a sequential test of A against B, by blocks.

The test compares the first two entrants, A and B.  Its observations are
whole blocks (one deal under every arrangement of the seating, see
:mod:`~tajmahal.tournament.seating`) in which both played, taken in block
order: in block ``t``, ``x_t`` is the share of the block's games in which A
finished ahead of B (equal places count a half), and ``y_t = 2 x_t - 1`` lies
in ``[-1, 1]``.  Paired blocks remove the luck of the deal and the seats from
the comparison: two copies of one deterministic bot give ``y_t = 0`` exactly.

**The test** (testing by betting).  For every ``lam`` in ``BETS`` and its
negative, the wealth ``W_t(lam) = prod_{s <= t} (1 + lam * y_s)`` of a
gambler who bets the fraction ``lam`` on A in every block; ``E_t`` is the
mean wealth over all these bets.  If A and B are equally strong
(``E[y_t] = 0`` whatever came before), ``E_t`` is a non-negative martingale
starting at 1, and by Ville's inequality it ever reaches ``1 / alpha`` with
probability at most ``alpha``.  So the tournament stops, *decided*, at the
first block where ``E_t >= 1 / alpha``, for the side (A ahead or B ahead)
whose bets hold most of the wealth.  Error rates, whenever one looks:

* two equally strong entrants are declared different with probability at
  most ``alpha`` (default 0.05), however long the tournament runs;
* when one is stronger, the other is declared the stronger with probability
  at most ``alpha`` as well;
* a clear difference is found fast: when B finishes ahead of A in every game,
  7 blocks decide at ``alpha = 0.05`` (no test can do better than 5 with one
  bounded observation per block).

Games of blocks after the deciding one (in flight when it was decided, or
played by a resumed run) are recorded in the results file but not counted,
so every backend and every summary of the file give the same table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from tajmahal.tournament.results import GameResult, Header
from tajmahal.tournament.seating import TournamentError

__all__ = ["ALPHA", "BETS", "Decision", "SequentialTest", "block_shares", "decide", "evidence"]

ALPHA = 0.05
BETS = (0.25, 0.5, 0.75, 0.95)  #: the fractions bet on each side (each with its negative)


@attrs.frozen
class Decision:
    """What the sequential test says about the first two entrants after the blocks so far.

    ``verdict`` is ``first`` or ``second`` (the name of the entrant found
    stronger) once decided, else ``None``; ``blocks`` the complete blocks
    in which both played, ``share`` the first's mean share of finishing ahead
    of the second over them, ``evidence`` the test's ``E_t`` (decided when it
    reaches ``1 / alpha``), ``last_block`` the block where it was decided.

    >>> d = decide(['a', 'b'], [(t, 1.0) for t in range(10)])
    >>> d.verdict, d.blocks, d.share, round(d.evidence, 1), d.last_block
    ('a', 7, 1.0, 22.4, 6)
    """

    first: str
    second: str
    verdict: str | None
    blocks: int
    share: float | None
    evidence: float
    alpha: float = ALPHA
    last_block: int | None = None

    @property
    def decided(self) -> bool:
        """Whether the test has decided (and the tournament stops).

        >>> decide(['a', 'b'], [(0, 0.5)] * 50).decided
        False
        """
        return self.verdict is not None

    def to_json(self) -> dict[str, object]:
        """The decision as a JSON object.

        >>> decide(['a', 'b'], [(t, 1.0) for t in range(8)]).to_json()['verdict']
        'a'
        """
        return attrs.asdict(self)


def evidence(shares: Sequence[float], bets: Sequence[float] = BETS) -> tuple[float, float]:
    """The mean wealth of the bets on the first entrant and on the second (see the docstring).

    ``E_t`` is the mean of the two.

    >>> evidence([1.0, 1.0])  # the first ahead in every game of two blocks
    (2.669375, 0.21937500000000001)
    >>> evidence([0.5] * 10)
    (1.0, 1.0)
    """
    test = SequentialTest(bets=tuple(bets))
    for share in shares:
        test.add(share)
    return test.wealth()


class SequentialTest:
    """The test's running state: the wealth of every bet, updated one block at a time.

    >>> test = SequentialTest()
    >>> [test.add(1.0) for _ in range(7)][-2:], test.blocks
    ([False, True], 7)
    """

    def __init__(self, alpha: float = ALPHA, bets: tuple[float, ...] = BETS) -> None:
        if not 0 < alpha < 1:
            raise TournamentError(f"alpha must be between 0 and 1, got {alpha!r}")
        self.alpha = alpha
        self.bets = bets
        self.up = [1.0] * len(bets)
        self.down = [1.0] * len(bets)
        self.shares: list[float] = []

    @property
    def blocks(self) -> int:
        """The blocks counted so far."""
        return len(self.shares)

    def wealth(self) -> tuple[float, float]:
        """The mean wealth on the first entrant, and on the second."""
        return math.fsum(self.up) / len(self.bets), math.fsum(self.down) / len(self.bets)

    def add(self, share: float) -> bool:
        """Count one block (the first's share of finishing ahead); whether it is now decided."""
        y = 2 * share - 1
        self.shares.append(share)
        self.up = [w * (1 + lam * y) for w, lam in zip(self.up, self.bets, strict=True)]
        self.down = [w * (1 - lam * y) for w, lam in zip(self.down, self.bets, strict=True)]
        return self.decided

    @property
    def decided(self) -> bool:
        """Whether the evidence has reached ``1 / alpha``."""
        return sum(self.wealth()) / 2 >= 1 / self.alpha


def decide(
    names: Sequence[str], shares: Sequence[tuple[int, float]], alpha: float = ALPHA
) -> Decision:
    """The test on ``shares`` ((block, share of the first ahead of the second) in block order).

    Stops at the first block where the evidence reaches ``1 / alpha``.

    >>> decide(['a', 'b'], [(0, 0.0), (1, 0.1), (2, 0.0)]).verdict is None
    True
    >>> decide(['a', 'b'], [(t, 0.0) for t in range(20)]).verdict
    'b'
    """
    first, second = names[0], names[1]
    test = SequentialTest(alpha)
    last = None
    for block, share in shares:
        if test.add(share):
            last = block
            break
    up, down = test.wealth()
    verdict = None if last is None else first if up >= down else second
    share_mean = math.fsum(test.shares) / test.blocks if test.blocks else None
    return Decision(first, second, verdict, test.blocks, share_mean, (up + down) / 2, alpha, last)


def block_shares(header: Header, games: Sequence[GameResult]) -> list[tuple[int, float]]:
    """Per complete block in which the first two entrants both played, in block order (stopping
    at the first block not yet complete): (block, the first's share of finishing ahead).

    >>> from tajmahal.tournament.stats import _example_games, _example_header
    >>> block_shares(_example_header(), _example_games())  # a ahead of b in 1 of 3 games
    [(0, 0.3333333333333333)]
    """
    first, second = header.names[:2]
    size = header.block_size
    by_block: dict[int, list[GameResult]] = {}
    for game in games:
        by_block.setdefault(game.block, []).append(game)
    shares = []
    for block in range(header.games // size):
        found = by_block.get(block, [])
        if len(found) < size:
            break
        share = block_share(found, first, second)
        if share is not None:
            shares.append((block, share))
    return shares


def block_share(games: Sequence[GameResult], first: str, second: str) -> float | None:
    """The share of ``games`` in which ``first`` finished ahead of ``second`` (None if never met).

    >>> from tajmahal.tournament.stats import _example_games
    >>> block_share(_example_games(), 'b', 'c')
    1.0
    """
    ahead = met = 0.0
    for game in games:
        if first in game.players and second in game.players:
            places = game.positions()
            a, b = places[game.players.index(first)], places[game.players.index(second)]
            met += 1
            ahead += 1.0 if a < b else 0.5 if a == b else 0.0
    return ahead / met if met else None
