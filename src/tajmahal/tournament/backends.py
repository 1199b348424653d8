"""Where the games run: in this process, in a pool of processes, or on a Ray cluster.

Every backend plays each :class:`~tajmahal.tournament.GameJob` with :func:`~tajmahal.play_match`
and the same options, so a game's result does not depend on the backend.
Results are handed back as games finish (not in game order); at most a few
games per worker are queued at a time, so stopping early wastes little.

The ``process`` backend starts its workers as fresh interpreters running
``tajmahal.tournament._worker`` (:class:`~tajmahal.worker_process.WorkerProcess`,
as every worker of the library): they never re-run the caller's main module,
so a script without the ``if __name__ == "__main__":`` guard, a script on
standard input, ``python -c``, the REPL and notebooks all work.  Workers find
bots through the installed plugins (entry points), and also through the
plugins registered by hand in the calling process (``Registry.register``) if
they can be imported by name; a bot defined in the main module (a script, a
notebook) cannot, and is a clear error before any game (see
``check_workers_can_build``).  A worker exits within a second when the
process that started it dies, even by ``kill -9``.

The ``process`` and ``ray`` workers already use every core for games, so a
search bot there never starts search processes of its own
(``TAJMAHAL_SEARCH_JOBS=1``): ``ismcts:jobs=N`` searches its ``N`` shares
in the worker's process (the same moves with an iteration budget; with a time
budget, one share's worth of search).  Run it with ``backend='serial'`` to
let it use its processes.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.metadata
import itertools
import logging
import os
import pickle
import signal
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import wait as connection_wait
from typing import TYPE_CHECKING, Any

import attrs

from tajmahal._escape import log_text
from tajmahal._extras import missing_extra
from tajmahal.referee.match import play_match
from tajmahal.rules.components import Components
from tajmahal.rules.errors import TajMahalError
from tajmahal.tournament.results import GameResult
from tajmahal.tournament.seating import GameJob, TournamentError
from tajmahal.worker_process import WorkerProcess, boot_code

__all__ = ["BACKENDS", "MatchOptions", "play_game", "run_games", "set_up_worker",
           "worker_setup"]

BACKENDS = ("serial", "process", "ray")
QUEUED_PER_WORKER = 4  #: Ray tasks queued per CPU
GAME_WORKER = "tajmahal.tournament._worker:main"  #: the workers' main function
WORKER_BOOT = boot_code(GAME_WORKER)  #: the ``python -c`` code that starts a worker
if TYPE_CHECKING:
    from tajmahal.bots.specs import PlayerSpec

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
    >>> job = next(schedule(['greedy', 'random', 'random'], 3, 6, seed=1))
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
    >>> jobs = schedule(['greedy', 'random', 'random'], 3, 6, seed=1)
    >>> sorted(r.game for r in run_games(jobs, MatchOptions(), 'serial', 1))
    [0, 1, 2, 3, 4, 5]
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
            log.error("cannot play %s", log_text(result))
            raise TournamentError(f"cannot play {result}")
        players = log_text(", ".join(result.players))
        log.info("game %d (seed %d, %s) finished: scores %s, %d faults, %.2f s", result.game,
                 result.seed, players, result.scores, len(result.faults),
                 result.seconds)  # fmt: skip
        yield result


def _serial(
    jobs: Iterable[GameJob], options: MatchOptions, workers: int, address: str | None
) -> Iterator[GameResult | str]:
    for job in jobs:
        yield play_game(job, options)


def _process(
    jobs: Iterable[GameJob], options: MatchOptions, workers: int, address: str | None
) -> Iterator[GameResult | str]:
    try:
        setup = worker_setup(options)
    except Exception as exc:  # whatever cannot be pickled says why
        raise TournamentError(
            f"the process backend cannot send the match options to its workers ({exc}); "
            "define observers in a module, or use backend='serial'"
        ) from None
    pool = _Pool(workers, setup)
    try:
        yield from pool.run(jobs)
    finally:
        pool.close()


def worker_setup(options: Any) -> bytes:
    """The first message of a worker process that plays or hosts bots (this backend's, the web
    server's): this process's ``sys.path``, ``options`` and its plugins registered by hand
    (:func:`hand_plugins`), pickled; :func:`set_up_worker` reads it in the worker.

    >>> set_up_worker(worker_setup('options'))
    (None, 'options')
    """
    plugins, _ = hand_plugins()
    return pickle.dumps((list(sys.path), pickle.dumps((options, plugins))))


def set_up_worker(message: bytes) -> tuple[str | None, Any]:
    """In a worker process, take :func:`worker_setup`'s message: adopt the parent's
    ``sys.path``, register its plugins; (None, the options), or (a one-line error, None).

    >>> set_up_worker(b'nonsense')
    ("UnpicklingError: invalid load key, 'n'.", None)
    """
    try:
        path, rest = pickle.loads(message)
        sys.path[:] = path  # the parent's, so that what it names can be imported here
        options, plugins = pickle.loads(rest)
        from tajmahal.bots import default_registry

        for name, plugin, origin in plugins:
            if isinstance(plugin, tuple):  # ("module", its name)
                plugin = importlib.import_module(plugin[1])
            default_registry().register(plugin, name=name, origin=origin)
    except Exception as exc:  # any failure is reported to the parent
        return f"{type(exc).__name__}: {exc}".replace("\n", " "), None
    return None, options


def hand_plugins() -> tuple[list[tuple[str, Any, str]], dict[str, str]]:
    """The plugins registered by hand in this process, for the workers to register too.

    Returns (name, plugin, origin) for those a worker can import by name (a
    module, or an object of a class in a module), and for each bot of the
    others, why not.  Built-in and installed (entry-point) plugins are left
    out: workers load those themselves.
    """
    from tajmahal.bots.registry import BUILTIN_PLUGIN, ENTRY_POINT_GROUP, default_registry

    registry = default_registry()
    installed = {e.name for e in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    by_plugin: dict[str, list[Any]] = {}
    for info in registry.bot_infos().values():
        by_plugin.setdefault(info.plugin, []).append(info)
    sendable: list[tuple[str, Any, str]] = []
    refused: dict[str, str] = {}
    for name, infos in by_plugin.items():
        if name == BUILTIN_PLUGIN or name in installed:
            continue
        plugin = registry.plugin_manager.get_plugin(name)
        where = plugin.__name__ if isinstance(plugin, types.ModuleType) else \
            type(plugin).__module__
        mains = [info.name for info in infos if info.bot_class.__module__ == "__main__"]
        if where == "__main__" or mains:
            for info in infos:
                refused[info.name] = (
                    f"bot {info.name!r} is defined in the main module (this script or "
                    "notebook), which the process backend's workers do not run"
                )
            continue
        try:
            sent = ("module", where) if isinstance(plugin, types.ModuleType) else plugin
            pickle.dumps(sent)
        except Exception as exc:  # whatever cannot be pickled says why
            for info in infos:
                refused[info.name] = f"bot {info.name!r} comes from a plugin that cannot be " \
                                     f"sent to the workers ({exc})"
            continue
        sendable.append((name, sent, infos[0].origin))
    return sendable, refused


def check_workers_can_build(specs: Sequence[str | PlayerSpec], backend: str) -> None:
    """Raise :class:`TournamentError` (one line) if a bot cannot be built in ``backend``'s workers.

    >>> check_workers_can_build(['greedy', 'random', 'random'], 'process')
    """
    if backend == "serial":
        return
    from tajmahal.bots.specs import PlayerSpec, parse_spec

    _, refused = hand_plugins()
    for spec in specs:
        parsed = spec if isinstance(spec, PlayerSpec) else parse_spec(spec)
        if not parsed.is_command and parsed.name in refused:
            raise TournamentError(
                f"{refused[parsed.name]}: move the class into a module and install it as a "
                "plugin, give it as a bot program (cmd:), or use backend='serial'"
            )


class _GameWorker(WorkerProcess):
    """One worker process (see :mod:`~tajmahal.tournament._worker`) and the game it plays."""

    def __init__(self, setup: bytes) -> None:
        super().__init__(GAME_WORKER, setup)
        self.job: GameJob | None = None

    def failure(self) -> str:
        """Why the worker stopped answering: its exit status, read from the system."""
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "a worker process stopped answering"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            cause = f"a worker process was killed by {name}"
            if -code == signal.SIGKILL:
                cause += " (kill -9, or the system's out-of-memory killer)"
        else:
            cause = f"a worker process exited with status {code}"
        if self.job is not None:
            cause += f" while playing game {self.job.game} (seed {self.job.seed}, " \
                     f"{', '.join(self.job.players)})"
        return cause

    def stop(self, kill: bool) -> None:
        """End the worker: at once with ``kill``, else once it has seen its pipe close."""
        self.close(kill, wait=None if kill else 60)


class _Pool:
    """Worker processes, each playing one game at a time."""

    def __init__(self, workers: int, setup: bytes) -> None:
        self.workers: list[_GameWorker] = []
        self.failed = False
        try:
            for _ in range(workers):
                self.workers.append(_GameWorker(setup))
        except OSError as exc:
            self.close()
            raise TournamentError(f"cannot start a worker process: {exc}") from None

    def run(self, jobs: Iterable[GameJob]) -> Iterator[GameResult | str]:
        """Play ``jobs``; yield each result as its game finishes."""
        queue = iter(jobs)
        more = True
        while True:
            for worker in self.workers:
                if more and worker.ready and worker.job is None:
                    worker.job = next(queue, None)
                    more = worker.job is not None
                    if worker.job is not None:
                        with contextlib.suppress(OSError):  # it died: reported below
                            worker.send(worker.job)
            if not more and all(worker.job is None for worker in self.workers):
                return
            yield from self._finished()

    def _finished(self) -> Iterator[GameResult | str]:
        """Wait for at least one message; yield the results among them."""
        waiting = {worker.answers: worker for worker in self.workers}
        for ready in connection_wait(list(waiting)):
            worker = waiting[ready]  # type: ignore[index]
            try:
                message = worker.answers.recv()
            except (EOFError, OSError):
                self.failed = True
                failure = worker.failure()
                log.error("%s", log_text(failure))
                raise TournamentError(
                    f"{failure}; the games finished so far are kept: resume the "
                    "tournament to play the rest"
                ) from None
            if not worker.ready:
                if message is not None:
                    self.failed = True
                    shown = log_text(message)
                    log.error("a worker process could not set up the tournament: %s", shown)
                    raise TournamentError(
                        f"a worker process could not set up the tournament: {message} (bots, "
                        "observers and components must be importable by name in a new process)"
                    )
                worker.ready = True
            else:
                worker.job = None
                yield message

    def close(self) -> None:
        """Stop the workers: at once if a game is unfinished, else once they see the pipe close."""
        kill = self.failed or any(worker.job is not None for worker in self.workers)
        for worker in self.workers:
            worker.stop(kill)


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


def _play_game_alone(job: GameJob, options: MatchOptions) -> GameResult | str:
    """:func:`play_game` in a Ray worker: its search bots start no processes of their own."""
    os.environ["TAJMAHAL_SEARCH_JOBS"] = "1"
    return play_game(job, options)


class MissingExtraError(TournamentError, ImportError):
    """A backend whose extra is not installed: a TournamentError and an ImportError."""


def _ray(
    jobs: Iterable[GameJob], options: MatchOptions, workers: int, address: str | None
) -> Iterator[GameResult | str]:
    try:  # an optional dependency, typed as Any: the package type-checks without the extra
        ray: Any = importlib.import_module("ray")
    except ImportError as missing:
        named = missing_extra("the ray backend", ("ray",), missing)
        raise MissingExtraError(f"{named} (from a checkout: pip install -e '.[ray]')",
                                name=named.name) from None  # fmt: skip
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
        remote = ray.remote(num_cpus=1)(_play_game_alone)
        shared = ray.put(options)
        cpus = ray.cluster_resources().get("CPU", workers)
        limit = max(1, int(cpus)) * QUEUED_PER_WORKER
        wait = functools.partial(ray.wait, num_returns=1)
        for reference in _in_flight(jobs, limit, lambda job: remote.remote(job, shared), wait):
            yield ray.get(reference)
    finally:
        if started:
            ray.shutdown()
