"""``run_tournament``: schedule the games, play them on a backend, keep the results, summarise."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tajmahal.bots.specs import check_spec
from tajmahal.protocol import check_sandbox
from tajmahal.rules.components import Components
from tajmahal.tournament.backends import BACKENDS, MatchOptions, run_games
from tajmahal.tournament.results import (
    GameResult,
    Header,
    open_for_append,
    seconds,
    write_line,
)
from tajmahal.tournament.seating import TournamentError, check_arguments, schedule
from tajmahal.tournament.stats import TournamentResult, summarize

__all__ = ["run_tournament"]


def run_tournament(
    entrants: Sequence[str],
    games: int = 300,
    num_players: int | None = None,
    *,
    seed: int | None = None,
    jobs: int | None = None,
    backend: str = "process",
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    time_limit: float | None = None,
    game_time: float | None = None,
    isolate: bool = False,
    sandbox: bool = False,
    components: Components | None = None,
    ray_address: str | None = None,
    observers: Sequence[object] = (),
    match_options: Mapping[str, Any] | None = None,
    on_game: Callable[[GameResult, int, int], None] | None = None,
) -> TournamentResult:
    """Play a tournament between player specs and return its table.

    ``entrants`` are player specs (``'greedy'``, ``'ismcts:iterations=400'``);
    a spec entered twice is two entrants (``random``, ``random#2``).  Tables
    have ``num_players`` seats (default: the number of entrants, or 4 when
    there are more than 5).  Every deal is played under all seat rotations,
    so ``games`` must be a multiple of ``num_players``; with more entrants
    than seats, tables are balanced (see :mod:`tajmahal.tournament.seating`).
    ``seed`` fixes every deal.  The default, ``None``, draws an unguessable
    63-bit seed from the operating system (the file's seed when resuming), kept
    in the results' header; each game's seed is derived from it
    (:func:`~tajmahal.tournament.deal_seed`).  A seed you pass makes the
    tournament reproducible, and makes its deals computable to anyone who
    knows it, bot authors included (docs/reference/records.md).

    ``backend`` is ``'serial'``, ``'process'`` (``jobs`` processes, default the
    CPU count) or ``'ray'`` (a local Ray instance with ``jobs`` CPUs, or the
    cluster at ``ray_address``; needs the ``ray`` extra,
    ``pip install -e '.[ray]'`` from a checkout); all
    three give the same games.  ``out`` is a JSON-lines file that gets every
    game as it finishes; ``resume=True`` continues the tournament the file
    holds, playing only the games it lacks.  ``time_limit`` (seconds per
    decision), ``game_time`` (seconds per seat for a whole game), ``isolate``
    (every bot in its own process, through the bot protocol), ``sandbox``
    (those processes under bubblewrap: docs/trust.md), ``components``
    and ``match_options`` (further keywords) go to :func:`~tajmahal.play_match`
    for every game, and so do ``observers`` (:mod:`tajmahal.observers`): with
    the ``process`` and ``ray`` backends each worker watches its games with its
    own copies of them (they must pickle), so an observer should write what it
    sees (as :class:`~tajmahal.observers.DecisionDataset` does) rather than
    keep it in memory.  ``on_game(result, done,
    total)`` is called as each game finishes (a progress bar).

    >>> import tajmahal as tm
    >>> result = tm.run_tournament(['greedy', 'random', 'random'], games=6, backend='serial',
    ...                            seed=0)
    >>> [(row.name, row.games, row.wins) for row in result.table]
    [('greedy', 6, 4.0), ('random#2', 6, 1.0), ('random', 6, 1.0)]
    """
    num_players = check_arguments(entrants, num_players, games)
    for spec in entrants:
        check_spec(spec)  # an unknown bot or option fails before any game
    if backend not in BACKENDS:
        raise TournamentError(f"unknown backend {backend!r}; the backends: {', '.join(BACKENDS)}")
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 1024:
        raise TournamentError(f"jobs must be a whole number from 1 to 1024, got {jobs!r}")
    time_limit, game_time = seconds(time_limit, "time_limit"), seconds(game_time, "game_time")
    if not isinstance(isolate, bool):
        raise TournamentError(f"isolate must be True or False, got {isolate!r}")
    if not isinstance(sandbox, bool):
        raise TournamentError(f"sandbox must be True or False, got {sandbox!r}")
    if sandbox:
        check_sandbox()  # before any game, naming what is missing
        isolate = True
        match_options = {**(match_options or {}), "sandbox": True}
    if ray_address is not None and backend != "ray":
        raise TournamentError("ray_address is for the 'ray' backend only")
    if seed is None:
        seed = _seed_from(out) if resume and out is not None else None
        seed = secrets.randbits(63) if seed is None else seed
    header = Header(tuple(entrants), num_players, games, seed, time_limit, game_time, isolate)
    options = MatchOptions(
        time_limit, game_time, isolate, components, tuple(observers),
        tuple((match_options or {}).items()),
    )
    stream = None
    finished: list[GameResult] = []
    if out is not None:
        stream, found = open_for_append(Path(out), header, resume)
        finished = list(found.games) if found is not None else []
    elif resume:
        raise TournamentError("resume needs the results file (out) to resume from")
    done = {game.game for game in finished}
    todo = (job for job in schedule(entrants, num_players, games, seed) if job.game not in done)
    try:
        for result in run_games(todo, options, backend, jobs, ray_address):
            if stream is not None:
                write_line(stream, result.to_json())
            finished.append(result)
            if on_game is not None:
                on_game(result, len(finished), games)
    finally:
        if stream is not None:
            stream.close()
    return summarize(header, finished)


def _seed_from(out: str | os.PathLike[str]) -> int | None:
    """The seed of the tournament in ``out``, if the file exists and holds one."""
    from tajmahal.tournament.results import read_results

    path = Path(out)
    if not path.exists() or path.stat().st_size == 0:
        return None
    return read_results(path).header.seed
