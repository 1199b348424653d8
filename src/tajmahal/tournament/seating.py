"""Who plays which game: entrant names, balanced tables, balanced seatings, deal seeds.

A tournament is a sequence of *blocks*.  A block is one table of
``num_players`` entrants and one deal (seed), played once under each
arrangement of a *seating design* (the duplicate format: the same cards for
every arrangement).  The ``"balanced"`` design (the default) balances both
who sits where and who sits after whom:

* every entrant at the table sits in every seat equally often, and
* for every pair of entrants, each sits directly after the other equally
  often, counted around the table (turns pass from the last seat to the
  first, and the starting player moves one seat on every visit, so the
  order around the table is what matters, not only the seats).

It takes a set of orders around the table in which every pair is
neighbours in both directions equally often, and plays each under all
``num_players`` rotations of the seats.  At 3 seats these are the two
directions around the table (all 6 orders; also the Williams design with its
reverse); at 4 seats all 6 orders around the table (24 games: no smaller set
balances neighbours around a table of 4); at 5 seats the four orders
``i -> i + k (mod 5)``, ``k = 1..4`` (20 games), in which every entrant also
sits two places after every other equally often.  At 3 and 4 seats every
order is played, so two copies of a deterministic bot get exactly equal
results whatever order the entrants are listed in.

The ``"rotation"`` design (what every results file of format version 1 used) plays
only the ``num_players`` cyclic rotations of the table as listed: every seat
equally often, but the second entrant always plays right after the first.
That matters: the same deterministic ``ismcts`` entered twice beside
``greedy`` won 30 games (mean score 61.1) listed second against 28.5 (54.9)
listed first, over 60 games on the same deals.

With more entrants than seats, each block's table is chosen greedily: the
entrants who have played the fewest blocks so far, ties broken by the fewest
meetings with those already chosen, then by entrant order.  Every entrant
therefore plays equally often whenever the number of blocks allows it, and
pairs meet about equally often.

Game ``i`` belongs to block ``i // b`` (``b`` games per block) and is that
block's arrangement ``i % b``: the schedule is a pure function of the
entrants, the seat count, the design and the seed, so every backend and every
resumed run plays the same games.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Iterator, Sequence

import attrs

from tajmahal.bots.specs import PlayerSpec, parse_spec
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError

__all__ = [
    "MAX_ENTRANTS",
    "MAX_GAMES",
    "SEATINGS",
    "GameJob",
    "TournamentError",
    "arrangements",
    "block_size",
    "deal_seed",
    "default_games",
    "entrant_names",
    "schedule",
]

MAX_ENTRANTS = 64
MAX_GAMES = 1_000_000
SEATINGS = ("balanced", "rotation")  #: the seating designs (see the module docstring)


class TournamentError(TajMahalError):
    """A tournament that cannot be run or summarised: bad arguments, or a results file in error.

    >>> from tajmahal.tournament import run_tournament
    >>> run_tournament(['greedy', 'random', 'random'], games=4)
    Traceback (most recent call last):
    ...
    tajmahal.tournament.seating.TournamentError: games must be a positive multiple of 6 ...
    """


@attrs.frozen
class GameJob:
    """One game to play: its number, block, deal seed, and the entrant in each seat.

    ``players`` are entrant names (see :func:`entrant_names`), ``specs`` the
    player specs the referee builds the bots from (parsed once, by
    :func:`~tajmahal.run_tournament`, and sent to the workers as they are).

    >>> jobs = list(schedule(['greedy', 'random', 'random'], num_players=3, games=6, seed=1))
    >>> for job in jobs:
    ...     print(job.game, job.players)
    0 ('greedy', 'random', 'random#2')
    1 ('random', 'random#2', 'greedy')
    2 ('random#2', 'greedy', 'random')
    3 ('greedy', 'random#2', 'random')
    4 ('random#2', 'random', 'greedy')
    5 ('random', 'greedy', 'random#2')
    >>> len({job.seed for job in jobs})  # one deal, six arrangements
    1
    """

    game: int
    block: int
    seed: int
    players: tuple[str, ...]
    specs: tuple[str | PlayerSpec, ...]


def entrant_names(specs: Sequence[str | PlayerSpec]) -> tuple[str, ...]:
    """The entrants' names: the specs as written, a repeated spec numbered ``#2``, ``#3``...

    A spec may be entered more than once (two copies of ``random`` fill a
    three-seat table beside ``greedy``); each copy is a separate entrant.

    >>> entrant_names(['greedy', 'random', 'random', 'random'])
    ('greedy', 'random', 'random#2', 'random#3')
    """
    seen: dict[str, int] = {}
    names = []
    for text in map(str, specs):
        seen[text] = seen.get(text, 0) + 1
        names.append(text if seen[text] == 1 else f"{text}#{seen[text]}")
    return tuple(names)


def deal_seed(seed: int, block: int) -> int:
    """The deal (game seed) of ``block`` in a tournament with ``seed``: a 63-bit hash.

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"tajmahal/tournament/{seed}/{block}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@functools.cache
def arrangements(num_players: int, seating: str = "balanced") -> tuple[tuple[int, ...], ...]:
    """The games of one block: per game, the table position of the entrant in each seat.

    >>> arrangements(3, 'rotation')
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    >>> arrangements(3)
    ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2))
    >>> [len(arrangements(n)) for n in (3, 4, 5)]
    [6, 24, 20]
    """
    if seating not in SEATINGS:
        raise TournamentError(f"unknown seating {seating!r}; the seatings: {', '.join(SEATINGS)}")
    n = num_players
    if seating == "rotation":
        orders = [tuple(range(n))]
    elif all(n % d for d in range(2, n)):  # a prime: the steps k = 1..n-1 around the table
        orders = [tuple(k * i % n for i in range(n)) for k in range(1, n)]
    else:  # every order around the table (position 0 first)
        orders = [(0, *rest) for rest in itertools.permutations(range(1, n))]
    return tuple(
        tuple(order[(rotation + seat) % n] for seat in range(n))
        for order in orders
        for rotation in range(n)
    )


def block_size(num_players: int, seating: str = "balanced") -> int:
    """The number of games in a block: one per arrangement of the seating design.

    >>> block_size(4), block_size(4, 'rotation')
    (24, 4)
    """
    return len(arrangements(num_players, seating))


def default_games(
    specs: Sequence[str | PlayerSpec], num_players: int | None, seating: str = "balanced"
) -> int:
    """About 300 games: 300 rounded up to whole blocks (and to every entrant playing once).

    >>> [default_games(['a'] * n, None) for n in (3, 4, 5)]
    [300, 312, 300]
    """
    if num_players is None and not isinstance(specs, str) and isinstance(specs, Sequence):
        num_players = len(specs) if len(specs) <= MAX_PLAYERS else 4
    if (
        not isinstance(num_players, int)
        or num_players not in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        or seating not in SEATINGS
    ):
        return 300  # check_arguments says what is wrong
    size = block_size(num_players, seating)
    tables = -(-len(specs) // num_players)
    return max(-(-300 // size), tables) * size


def parse_entrants(specs: Sequence[str | PlayerSpec]) -> tuple[PlayerSpec, ...]:
    """The entrants as parsed player specs (each text parsed once), checked for their number.

    >>> [spec.name for spec in parse_entrants(['greedy', 'random', 'Random'])]
    ['greedy', 'random', 'random']
    >>> parse_entrants('greedy random random')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.tournament.seating.TournamentError: entrants must be a list of player specs, ...
    """
    _check_entrants(specs)
    return tuple(spec if isinstance(spec, PlayerSpec) else parse_spec(spec) for spec in specs)


def _check_entrants(specs: Sequence[str | PlayerSpec]) -> None:
    if isinstance(specs, str) or not isinstance(specs, Sequence):
        raise TournamentError("entrants must be a list of player specs, as ['greedy', 'random']")
    if not MIN_PLAYERS <= len(specs) <= MAX_ENTRANTS:
        raise TournamentError(
            f"a tournament needs {MIN_PLAYERS} to {MAX_ENTRANTS} entrants, got {len(specs)}; "
            "name a bot more than once to let copies of it play (greedy random random)"
        )


def check_arguments(
    specs: Sequence[str | PlayerSpec], num_players: int | None, games: int,
    seating: str = "balanced",
) -> int:
    """Check the entrants, seat count, game count and seating; return the seat count.

    The default seat count is the number of entrants (3 to 5), else 4.
    """
    _check_entrants(specs)
    for spec in specs:
        if not isinstance(spec, PlayerSpec):
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
    if not isinstance(seating, str) or seating not in SEATINGS:
        raise TournamentError(f"unknown seating {seating!r}; the seatings: {', '.join(SEATINGS)}")
    size = block_size(num_players, seating)
    if (
        isinstance(games, bool)
        or not isinstance(games, int)
        or not 0 < games <= MAX_GAMES
        or games % size
    ):
        raise TournamentError(
            f"games must be a positive multiple of {size} (each deal is played under the "
            f"{size} arrangements of the {seating} seating of {num_players} players), "
            f"got {games!r}"
        )
    tables = -(-len(specs) // num_players)  # blocks until every entrant has played
    if games < tables * size:
        raise TournamentError(
            f"{len(specs)} entrants at {num_players}-seat tables need at least "
            f"{tables * size} games so that every entrant plays, got {games}"
        )
    return num_players


def schedule(
    specs: Sequence[str | PlayerSpec],
    num_players: int,
    games: int,
    seed: int,
    seating: str = "balanced",
) -> Iterator[GameJob]:
    """Every game of the tournament, in order, made as asked for (see the module docstring).

    >>> jobs = list(schedule(['a', 'b', 'c', 'd'], num_players=3, games=24, seed=7))
    >>> [job.players for job in jobs[::6]]
    [('a', 'b', 'c'), ('d', 'a', 'b'), ('c', 'd', 'a'), ('b', 'c', 'd')]
    """
    names = entrant_names(specs)
    played = [0] * len(names)
    met = [[0] * len(names) for _ in names]
    design = arrangements(num_players, seating)
    for block in range(games // len(design)):
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
        for number, positions in enumerate(design):
            seats = [table[position] for position in positions]
            yield GameJob(
                game=block * len(design) + number,
                block=block,
                seed=seed_of_deal,
                players=tuple(names[i] for i in seats),
                specs=tuple(specs[i] for i in seats),
            )
