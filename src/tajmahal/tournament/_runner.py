"""``run_tournament``: schedule the games, play them on a backend, keep the results, summarise."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from tajmahal.bots.specs import PlayerSpec, check_spec
from tajmahal.protocol import ProcessLimits, check_sandbox
from tajmahal.rules.components import Components
from tajmahal.tournament.backends import (
    BACKENDS,
    MatchOptions,
    check_workers_can_build,
    run_games,
)
from tajmahal.tournament.results import (
    GameResult,
    Header,
    open_for_append,
    seconds,
    write_line,
)
from tajmahal.tournament.seating import (
    TournamentError,
    check_arguments,
    default_games,
    parse_entrants,
    schedule,
)
from tajmahal.tournament.sequential import SequentialTest, block_share
from tajmahal.tournament.stats import TournamentResult, summarize

__all__ = ["run_tournament"]


def run_tournament(
    entrants: Sequence[str | PlayerSpec],
    games: int | None = None,
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
    seating: str | None = None,
    until_decided: bool = False,
) -> TournamentResult:
    r"""Play a tournament between player specs and return its table.

    ``entrants`` are player specs (``'greedy'``, ``'ismcts:iterations=400'``,
    ``'file:bots/mine.py'``, or parsed :class:`~tajmahal.bots.PlayerSpec`\ s:
    each is parsed once, here, and travels as a ``PlayerSpec`` to the
    workers); a spec entered twice is two entrants (``random``, ``random#2``).  Tables
    have ``num_players`` seats (default: the number of entrants, or 4 when
    there are more than 5).  Every deal is played under every arrangement of
    the ``seating`` design, a *block*: ``"balanced"`` (the default for a new
    tournament; a resumed one keeps its file's) puts every
    entrant in every seat and directly after every other equally often (6
    games per block at 3 seats, 24 at 4, 20 at 5); ``"rotation"`` only rotates
    the seats (``num_players`` games), as files of format version 1 did.
    ``games`` must be a multiple of the block size (default: 300 rounded up
    to whole blocks, and to enough blocks for every entrant to play); with
    more entrants than seats, tables are balanced (see :mod:`tajmahal.tournament.seating`).
    ``until_decided=True`` stops as soon as a sequential test on the blocks
    has decided which of the first two entrants is stronger (at most
    ``games`` games; see :mod:`tajmahal.tournament.sequential` for its error
    rates); ``result.decision`` says what it found.
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
    for every game, and so do ``observers`` (:mod:`tajmahal.referee.observers`): with
    the ``process`` and ``ray`` backends each worker watches its games with its
    own copies of them (they must pickle), so an observer should write what it
    sees (as :class:`~tajmahal.referee.observers.DecisionDataset` does) rather than
    keep it in memory.  ``on_game(result, done,
    total)`` is called as each game finishes (a progress bar).

    >>> import tajmahal as tm
    >>> result = tm.run_tournament(['greedy', 'random', 'random'], games=6, backend='serial',
    ...                            seed=0)
    >>> [(row.name, row.games, row.wins) for row in result.table]
    [('greedy', 6, 4.0), ('random', 6, 1.0), ('random#2', 6, 1.0)]
    """
    parsed = parse_entrants(entrants)  # each spec parsed once, here; PlayerSpecs from now on
    if seating is None:
        before = _header_from(out) if resume and out is not None else None
        seating = "balanced" if before is None else before.seating
    if games is None:
        games = default_games(parsed, num_players, seating)
    num_players = check_arguments(parsed, num_players, games, seating)
    if not isinstance(until_decided, bool):
        raise TournamentError(f"until_decided must be True or False, got {until_decided!r}")
    specs = tuple(check_spec(spec) for spec in parsed)  # no unknown bot or option: no game
    if backend not in BACKENDS:
        raise TournamentError(f"unknown backend {backend!r}; the backends: {', '.join(BACKENDS)}")
    check_workers_can_build(specs, backend)
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
        if out is not None:  # its header holds the seed of every deal: out of the bots' sight
            limits = match_options.get("process_limits") or ProcessLimits()
            if not isinstance(limits, ProcessLimits):
                raise TournamentError(f"process_limits must be a ProcessLimits, got {limits!r}")
            hidden = (*limits.hidden, Path(out))
            match_options["process_limits"] = attrs.evolve(limits, hidden=hidden)
    if ray_address is not None and backend != "ray":
        raise TournamentError("ray_address is for the 'ray' backend only")
    if seed is None:
        before = _header_from(out) if resume and out is not None else None
        seed = secrets.randbits(63) if before is None else before.seed
    header = Header(tuple(spec.text for spec in specs), num_players, games, seed, time_limit,
                    game_time, isolate, seating, until_decided)  # fmt: skip
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
    todo = (
        job for job in schedule(specs, num_players, games, seed, seating)
        if job.game not in done
    )
    watch = _Sequential(header, finished) if until_decided else None
    try:
        if watch is None or not watch.decided:
            for result in run_games(todo, options, backend, jobs, ray_address):
                if stream is not None:
                    write_line(stream, result.to_json())
                finished.append(result)
                if on_game is not None:
                    on_game(result, len(finished), games)
                if watch is not None and watch.add(result):
                    break  # decided: the games still in flight are dropped
    finally:
        if stream is not None:
            stream.close()
    return summarize(header, finished)


class _Sequential:
    """The sequential test, fed each block as soon as it and every block before it are complete."""

    def __init__(self, header: Header, games: list[GameResult]) -> None:
        self.header = header
        self.first, self.second = header.names[:2]
        self.test = SequentialTest()
        self.waiting: dict[int, list[GameResult]] = {}
        self.next_block = 0
        self.decided = False
        for game in games:
            self.add(game)

    def add(self, game: GameResult) -> bool:
        """Count a finished game; whether the test has now decided."""
        self.waiting.setdefault(game.block, []).append(game)
        size = self.header.block_size
        while not self.decided and len(self.waiting.get(self.next_block, ())) == size:
            share = block_share(self.waiting.pop(self.next_block), self.first, self.second)
            self.next_block += 1
            if share is not None:
                self.decided = self.test.add(share)
        return self.decided


def _header_from(out: str | os.PathLike[str]) -> Header | None:
    """The header of the tournament in ``out``, if the file exists and holds one."""
    from tajmahal.tournament.results import read_results

    path = Path(out)
    if not path.exists() or path.stat().st_size == 0:
        return None
    return read_results(path).header
