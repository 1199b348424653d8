"""Who plays which game: entrant names, balanced tables, seat rotation, deal seeds.

A tournament is a sequence of *blocks*.  A block is one table of
``num_players`` entrants and one deal (seed), played ``num_players`` times:
once under each cyclic rotation of the seats, so every entrant at the table
sits in every seat exactly once with the same cards dealt (the duplicate
format).  With more entrants than seats, each block's table is chosen
greedily: the entrants who have played the fewest blocks so far, ties broken
by the fewest meetings with those already chosen, then by entrant order.
Every entrant therefore plays equally often whenever the number of blocks
allows it (after every ``n / gcd(n, k)`` blocks for ``n`` entrants and ``k``
seats), and pairs meet about equally often.

Game ``i`` belongs to block ``i // k`` and uses rotation ``i % k``: the
schedule is a pure function of the entrants, the seat count and the seed, so
every backend and every resumed run plays the same games.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence

import attrs

from tajmahal.bots.specs import parse_spec
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError

__all__ = [
    "MAX_ENTRANTS",
    "MAX_GAMES",
    "GameJob",
    "TournamentError",
    "deal_seed",
    "entrant_names",
    "schedule",
]

MAX_ENTRANTS = 64
MAX_GAMES = 1_000_000


class TournamentError(TajMahalError):
    """A tournament that cannot be run or summarised: bad arguments, or a results file in error.

    >>> from tajmahal.tournament import run_tournament
    >>> run_tournament(['greedy', 'random', 'random'], games=4)
    Traceback (most recent call last):
    ...
    tajmahal.tournament.seating.TournamentError: games must be a positive multiple of 3 ...
    """


@attrs.frozen
class GameJob:
    """One game to play: its number, block, deal seed, and the entrant in each seat.

    ``players`` are entrant names (see :func:`entrant_names`), ``specs`` the
    player specs the referee builds the bots from.

    >>> jobs = list(schedule(['greedy', 'random', 'random'], num_players=3, games=3, seed=1))
    >>> for job in jobs:
    ...     print(job.game, job.players)
    0 ('greedy', 'random', 'random#2')
    1 ('random', 'random#2', 'greedy')
    2 ('random#2', 'greedy', 'random')
    >>> len({job.seed for job in jobs})  # one deal, three rotations
    1
    """

    game: int
    block: int
    seed: int
    players: tuple[str, ...]
    specs: tuple[str, ...]


def entrant_names(specs: Sequence[str]) -> tuple[str, ...]:
    """The entrants' names: the specs as written, a repeated spec numbered ``#2``, ``#3``...

    A spec may be entered more than once (two copies of ``random`` fill a
    three-seat table beside ``greedy``); each copy is a separate entrant.

    >>> entrant_names(['greedy', 'random', 'random', 'random'])
    ('greedy', 'random', 'random#2', 'random#3')
    """
    seen: dict[str, int] = {}
    names = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return tuple(names)


def deal_seed(seed: int, block: int) -> int:
    """The deal (game seed) of ``block`` in a tournament with ``seed``: a 63-bit hash.

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"tajmahal/tournament/{seed}/{block}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check_arguments(specs: Sequence[str], num_players: int | None, games: int) -> int:
    """Check the entrants, seat count and game count; return the seat count.

    The default seat count is the number of entrants (3 to 5), else 4.
    """
    if isinstance(specs, str) or not isinstance(specs, Sequence):
        raise TournamentError("entrants must be a list of player specs, as ['greedy', 'random']")
    if not MIN_PLAYERS <= len(specs) <= MAX_ENTRANTS:
        raise TournamentError(
            f"a tournament needs {MIN_PLAYERS} to {MAX_ENTRANTS} entrants, got {len(specs)}; "
            "name a bot more than once to let copies of it play (greedy random random)"
        )
    for spec in specs:
        parse_spec(spec)  # syntax; the registry is asked later, where the bots run
    if num_players is None:
        num_players = len(specs) if len(specs) <= MAX_PLAYERS else 4
    if (
        isinstance(num_players, bool)
        or not isinstance(num_players, int)
        or not MIN_PLAYERS <= num_players <= min(MAX_PLAYERS, len(specs))
    ):
        raise TournamentError(
            f"num_players must be {MIN_PLAYERS} to {min(MAX_PLAYERS, len(specs))} "
            f"(at most the number of entrants), got {num_players!r}"
        )
    if (
        isinstance(games, bool)
        or not isinstance(games, int)
        or not 0 < games <= MAX_GAMES
        or games % num_players
    ):
        raise TournamentError(
            f"games must be a positive multiple of {num_players} (each deal is played under "
            f"all {num_players} seat rotations), got {games!r}"
        )
    tables = -(-len(specs) // num_players)  # blocks until every entrant has played
    if games < tables * num_players:
        raise TournamentError(
            f"{len(specs)} entrants at {num_players}-seat tables need at least "
            f"{tables * num_players} games so that every entrant plays, got {games}"
        )
    return num_players


def schedule(specs: Sequence[str], num_players: int, games: int, seed: int) -> Iterator[GameJob]:
    """Every game of the tournament, in order, made as asked for (see the module docstring).

    >>> jobs = list(schedule(['a', 'b', 'c', 'd'], num_players=3, games=12, seed=7))
    >>> [job.players for job in jobs[::3]]
    [('a', 'b', 'c'), ('d', 'a', 'b'), ('c', 'd', 'a'), ('b', 'c', 'd')]
    """
    names = entrant_names(specs)
    played = [0] * len(names)
    met = [[0] * len(names) for _ in names]
    for block in range(games // num_players):
        table: list[int] = []
        for _ in range(num_players):
            chosen = min(
                (i for i in range(len(names)) if i not in table),
                key=lambda i: (played[i], sum(met[i][j] for j in table), i),
            )
            table.append(chosen)
        for i, j in itertools.permutations(table, 2):
            met[i][j] += 1
        for i in table:
            played[i] += 1
        seed_of_deal = deal_seed(seed, block)
        for rotation in range(num_players):
            seats = [table[(rotation + seat) % num_players] for seat in range(num_players)]
            yield GameJob(
                game=block * num_players + rotation,
                block=block,
                seed=seed_of_deal,
                players=tuple(names[i] for i in seats),
                specs=tuple(specs[i] for i in seats),
            )
