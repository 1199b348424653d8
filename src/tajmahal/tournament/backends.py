"""Where the games run: in this process, in a pool of processes, or on a Ray cluster.

Every backend plays each :class:`~tajmahal.tournament.GameJob` with :func:`~tajmahal.play_match`
and the same options, so a game's result does not depend on the backend.
Results are handed back as games finish (not in game order); at most a few
games per worker are queued at a time, so stopping early wastes little.

Workers in other processes find bots through the installed plugins (entry
points): a bot registered by hand in the calling process (``Registry.register``)
is only known to the ``serial`` backend.
"""

from __future__ import annotations

import concurrent.futures
import functools
import itertools
import logging
import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED
from typing import Any

import attrs

from tajmahal.referee import play_match
from tajmahal.rules.components import Components
from tajmahal.rules.errors import TajMahalError
from tajmahal.tournament.results import GameResult
from tajmahal.tournament.seating import GameJob, TournamentError

__all__ = ["BACKENDS", "MatchOptions", "play_game", "run_games"]

BACKENDS = ("serial", "process", "ray")
QUEUED_PER_WORKER = 4
log = logging.getLogger("tajmahal.tournament")  # each game finished, worker errors


@attrs.frozen
class MatchOptions:
    """What every game passes to :func:`~tajmahal.play_match` besides players and seed.

    ``observers`` watch every game (each worker process has its own copies);
    ``extra`` holds further keyword arguments of ``play_match`` (such as
    ``process_limits``), as (name, value) pairs.

    >>> MatchOptions(time_limit=1.0).keywords()
    {'time_limit': 1.0, 'game_time': None, 'isolate': False, 'components': None, 'observers': ()}
    """

    time_limit: float | None = None
    game_time: float | None = None
    isolate: bool = False
    components: Components | None = None
    observers: tuple[object, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def keywords(self) -> dict[str, Any]:
        """The keyword arguments for ``play_match``.

        >>> MatchOptions(extra=(('process_limits', None),)).keywords()['process_limits'] is None
        True
        """
        return {"time_limit": self.time_limit, "game_time": self.game_time,
                "isolate": self.isolate, "components": self.components,
                "observers": self.observers, **dict(self.extra)}


def play_game(job: GameJob, options: MatchOptions) -> GameResult | str:
    """Play one game; its result, or a message saying why it could not be played.

    >>> from tajmahal.tournament.seating import schedule
    >>> job = next(schedule(['greedy', 'random', 'random'], 3, 3, seed=1))
    >>> play_game(job, MatchOptions()).players
    ('greedy', 'random', 'random#2')
    """
    start = time.perf_counter()
    try:
        match = play_match(list(job.specs), seed=job.seed, **options.keywords())
    except TajMahalError as exc:
        return f"game {job.game} (seed {job.seed}, {', '.join(job.players)}): {exc}"
    return GameResult(
        game=job.game,
        block=job.block,
        seed=job.seed,
        players=job.players,
        scores=match.scores,
        winners=match.winners,
        ranking=match.ranking,
        faults=tuple(
            attrs.evolve(fault, traceback="") for fault in match.faults  # as the file keeps them
        ),
        seconds=time.perf_counter() - start,
    )


def run_games(
    jobs: Iterable[GameJob],
    options: MatchOptions,
    backend: str,
    workers: int,
    ray_address: str | None = None,
) -> Iterator[GameResult]:
    """Play ``jobs`` on ``backend`` with ``workers`` workers; yield results as games finish.

    Raises :class:`TournamentError` when a game cannot be played (a bot that
    cannot be built); the games finished before are yielded first.

    >>> from tajmahal.tournament.seating import schedule
    >>> jobs = schedule(['greedy', 'random', 'random'], 3, 3, seed=1)
    >>> sorted(r.game for r in run_games(jobs, MatchOptions(), 'serial', 1))
    [0, 1, 2]
    """
    runners: dict[str, Callable[..., Iterator[GameResult | str]]] = {
        "serial": _serial,
        "process": _process,
        "ray": _ray,
    }
    if backend not in runners:
        raise TournamentError(f"unknown backend {backend!r}; the backends: {', '.join(BACKENDS)}")
    for result in runners[backend](jobs, options, workers, ray_address):
        if isinstance(result, str):
            log.error("cannot play %s", result)
            raise TournamentError(f"cannot play {result}")
        log.info("game %d (seed %d, %s) finished: scores %s, %d faults, %.2f s", result.game,
                 result.seed, ", ".join(result.players), result.scores, len(result.faults),
                 result.seconds)  # fmt: skip
        yield result


def _serial(
    jobs: Iterable[GameJob], options: MatchOptions, workers: int, address: str | None
) -> Iterator[GameResult | str]:
    for job in jobs:
        yield play_game(job, options)


_worker_options = MatchOptions()


def _set_worker_options(options: MatchOptions) -> None:
    global _worker_options
    _worker_options = options


def _play_in_worker(job: GameJob) -> GameResult | str:
    return play_game(job, _worker_options)


def _process(
    jobs: Iterable[GameJob], options: MatchOptions, workers: int, address: str | None
) -> Iterator[GameResult | str]:
    # forkserver: workers start from a clean process, not a copy of this one (with its threads)
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])  # workers start with the library imported
    pool = concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=context, initializer=_set_worker_options, initargs=(options,)
    )
    def wait(pending: list[Any]) -> tuple[list[Any], list[Any]]:
        done, rest = concurrent.futures.wait(pending, return_when=FIRST_COMPLETED)
        return list(done), list(rest)

    try:
        def submit(job: GameJob) -> Any:
            return pool.submit(_play_in_worker, job)

        for future in _in_flight(jobs, workers * QUEUED_PER_WORKER, submit, wait):
            try:
                yield future.result()
            except concurrent.futures.process.BrokenProcessPool:
                log.error("a worker process died (killed, or out of memory)")
                raise TournamentError(
                    "a worker process died (killed, or out of memory); the games finished "
                    "so far are kept: resume the tournament to play the rest"
                ) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _in_flight(
    jobs: Iterable[GameJob],
    limit: int,
    submit: Callable[[GameJob], Any],
    wait: Callable[[list[Any]], tuple[list[Any], list[Any]]],
) -> Iterator[Any]:
    """Keep at most ``limit`` jobs submitted; yield each handle (future, reference) once done."""
    queue = iter(jobs)
    pending: list[Any] = []
    while True:
        pending += [submit(job) for job in itertools.islice(queue, limit - len(pending))]
        if not pending:
            return
        done, pending = wait(pending)
        yield from done


def _ray(
    jobs: Iterable[GameJob], options: MatchOptions, workers: int, address: str | None
) -> Iterator[GameResult | str]:
    try:
        import ray
    except ImportError:
        raise TournamentError(
            "the ray backend needs Ray: pip install 'tajmahal[ray]' (from a checkout: "
            "pip install -e '.[ray]')"
        ) from None
    started = not ray.is_initialized()
    if started:
        try:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING,
                         _node_ip_address="127.0.0.1")  # a local instance listens on loopback
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise TournamentError(f"cannot start or join {where}: {exc}") from None
    try:
        remote = ray.remote(num_cpus=1)(play_game)
        shared = ray.put(options)
        cpus = ray.cluster_resources().get("CPU", workers)  # type: ignore[no-untyped-call]
        limit = max(1, int(cpus)) * QUEUED_PER_WORKER
        wait = functools.partial(ray.wait, num_returns=1)
        for reference in _in_flight(jobs, limit, lambda job: remote.remote(job, shared), wait):
            yield ray.get(reference)
    finally:
        if started:
            ray.shutdown()
