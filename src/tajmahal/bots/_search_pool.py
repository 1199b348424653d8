"""The worker processes of ``ismcts:jobs=N``: started once per bot, reused every decision.

A :class:`SearchPool` holds ``N - 1`` worker processes
(:mod:`tajmahal.bots._search_worker`, started as every worker of the library
is: :mod:`tajmahal.worker_process`; the calling process searches the
first share itself).  Workers start when the bot is built (they load the
library meanwhile); one that died starts again at the next search.  They
stop with :meth:`SearchPool.close` (the bot's ``close()``, which the referee
calls at the end of a match), when the bot is garbage collected, or within a
second of their parent's death.  Every wait is bounded: a worker that dies,
stalls or cannot start is reported to the caller, which searches its share
in-process instead.

**Caps.**  Starting a process may fail (a bot program's ``max_processes``
limit, ``RLIMIT_NPROC``): the pool then stays empty and says why in
:attr:`SearchPool.note`.  The environment variable ``TAJMAHAL_SEARCH_JOBS``
caps the processes a bot may use in this process (``1``: none); the
tournament's worker processes set it to ``1``, so that a pool of games does
not start a pool per game.
"""

from __future__ import annotations

import json
import logging
import math
import os
import pickle
import subprocess
import time
import weakref
from multiprocessing.connection import wait as connection_wait
from typing import Any, Self

from tajmahal.worker_process import WorkerProcess

__all__ = ["JOBS_VARIABLE", "SearchPool", "SearchProcesses", "job_cap"]

JOBS_VARIABLE = "TAJMAHAL_SEARCH_JOBS"  #: the most search jobs a bot may use in this process
MAX_ANSWER = 1 << 22  #: the largest answer a worker may send, in bytes
MAX_FAILURES = 3  #: workers that may die or stall before the pool gives up for good
CLOSE_WAIT = 2.0  #: seconds a closing worker has to exit before it is killed
SEARCH_WORKER = "tajmahal.bots._search_worker:main"  #: the workers' main function

log = logging.getLogger("tajmahal.bots")

Rows = list[tuple[int, int, float]]  #: (move code, visits, total reward) per root move


def job_cap() -> int | None:
    """The cap on search jobs set by ``TAJMAHAL_SEARCH_JOBS`` (None: no cap; bad values: 1).

    >>> import os
    >>> os.environ.get('TAJMAHAL_SEARCH_JOBS') is None and job_cap() is None
    True
    """
    text = os.environ.get(JOBS_VARIABLE)
    if text is None or not text.strip():
        return None
    try:
        return max(1, int(text))
    except ValueError:
        return 1


class SearchPool:
    """``size`` search workers for one bot; see the module docs.

    ``setup`` is the pickled searcher every worker builds its trees with.
    """

    def __init__(self, setup: bytes, size: int) -> None:
        self.setup, self.size = setup, size
        self.workers: list[WorkerProcess | None] = [None] * size
        self.failures = 0
        self.note = ""  #: why the pool runs fewer workers than asked ("" if it does not)

    @property
    def usable(self) -> bool:
        """Whether the pool may still run searches (it has not given up)."""
        return self.failures < MAX_FAILURES and self.size > 0

    def pids(self) -> list[int]:
        """The process ids of the running workers."""
        return [worker.process.pid for worker in self.workers if worker is not None]

    def start(self) -> None:
        """Start the workers not running yet (they load the library while the caller goes on)."""
        for slot, worker in enumerate(self.workers):
            if worker is None and self.usable:
                try:
                    self.workers[slot] = WorkerProcess(SEARCH_WORKER, self.setup)
                except OSError as exc:  # a process cap (EAGAIN), no memory: search in-process
                    self._give_up(f"cannot start a search worker process ({exc})")

    def send(self, slot: int, request: tuple[Any, ...]) -> bool:
        """Hand ``request`` to worker ``slot`` (started if need be); False if it cannot take it."""
        if not self.usable:
            return False
        worker = self.workers[slot]
        if worker is None:
            try:
                worker = self.workers[slot] = WorkerProcess(SEARCH_WORKER, self.setup)
            except OSError as exc:  # a process cap (EAGAIN), no memory: search in-process
                self._give_up(f"cannot start a search worker process ({exc})")
                return False
        try:
            worker.requests.send(request)
        except OSError:
            self.drop(slot, "its pipe is closed")
            return False
        return True

    def collect(self, expected: dict[int, int], until: float | None) -> dict[int, tuple[int, Rows]]:
        """The answers of the workers in ``expected`` (slot -> request number) by ``until``.

        ``until`` is a :func:`time.monotonic` time (None: as long as a worker
        lives).  Returns slot -> (iterations done, rows); a worker that died
        or answered nonsense is dropped, one that is late is left running
        (its late answer is skipped next time).
        """
        answers: dict[int, tuple[int, Rows]] = {}
        waiting: dict[Any, int] = {}
        for slot in expected:
            worker = self.workers[slot]
            if worker is not None:
                waiting[worker.answers] = slot
        while waiting:
            timeout = None if until is None else max(0.0, until - time.monotonic())
            ready = connection_wait(list(waiting), timeout)
            if not ready:
                break
            for connection in ready:
                slot = waiting[connection]
                worker = self.workers[slot]
                assert worker is not None
                try:
                    data = worker.answers.recv_bytes(MAX_ANSWER)
                except (EOFError, OSError):
                    del waiting[connection]
                    self.drop(slot, self._exit_text(worker))
                    continue
                if not worker.ready:  # the setup's answer comes first
                    if data != b"ready":
                        del waiting[connection]
                        self._give_up("a search worker could not set up: "
                                      + data.decode("utf-8", "replace")[:300])
                        continue
                    worker.ready = True
                    continue
                answer = _parse(data)
                if answer is None:
                    del waiting[connection]
                    self.drop(slot, "it sent an answer that is not a search result")
                    continue
                number, done, rows = answer
                if number == expected[slot]:
                    answers[slot] = done, rows
                    del waiting[connection]
        return answers

    def drop(self, slot: int, why: str) -> None:
        """Stop worker ``slot`` (dead, stalled or confused); another starts at its next request."""
        worker = self.workers[slot]
        self.workers[slot] = None
        if worker is not None:
            worker.close(kill=True, wait=CLOSE_WAIT)
        self.failures += 1
        log.warning("ismcts: a search worker was stopped (%s); its share is searched in-process",
                    why)
        if not self.usable:
            self._give_up(f"{MAX_FAILURES} search workers failed; the last: {why}")

    def _give_up(self, why: str) -> None:
        if not self.note:
            log.warning("ismcts: searching in-process only: %s", why)
        self.note = why
        self.failures = MAX_FAILURES
        self.close()

    @staticmethod
    def _exit_text(worker: WorkerProcess) -> str:
        try:
            code = worker.process.wait(timeout=CLOSE_WAIT)
        except subprocess.TimeoutExpired:
            return "it closed its pipe"
        return f"it exited with status {code}"

    def close(self) -> None:
        """Stop every worker and reap it (a worker holds nothing worth a graceful exit)."""
        for slot, worker in enumerate(self.workers):
            self.workers[slot] = None
            if worker is not None:
                worker.close(kill=True, wait=CLOSE_WAIT)


class SearchProcesses:
    """A searching bot's worker processes (``jobs - 1`` of them, in a :class:`SearchPool`):
    started when the bot is built and again after :meth:`close`, stopped by :meth:`close`
    (``with`` too), left out of a copy of the bot (a worker's searcher)."""

    jobs: int
    _pool: SearchPool | None
    _closer: weakref.finalize[Any, Any] | None

    def _pool_for_search(self) -> SearchPool | None:
        """The bot's worker processes (started when the bot is built, and again after
        :meth:`close`), or None if it has none to use."""
        if self._pool is None:
            cap = job_cap()
            size = self.jobs - 1 if cap is None else min(self.jobs, cap) - 1
            note = "" if size == self.jobs - 1 else f"{JOBS_VARIABLE}={cap} in this process"
            try:
                setup = pickle.dumps(self)
            except Exception as exc:  # a rollout picker that cannot be pickled, say
                size, setup = 0, b""
                note = f"the bot cannot be sent to a worker process ({exc})"[:300]
            if note:
                log.info("ismcts: %d of %d search shares run in-process: %s",
                         self.jobs - size, self.jobs, note)  # fmt: skip
            self._pool = SearchPool(setup, size)
            self._pool.note = note
            self._closer = weakref.finalize(self, self._pool.close)
            self._pool.start()
        return self._pool if self._pool.usable else None

    @property
    def jobs_note(self) -> str:
        """Why fewer than ``jobs`` processes search ("" if none is missing, or none was needed).

        >>> from tajmahal.bots.ismcts import IsmctsBot
        >>> IsmctsBot(jobs=2).jobs_note
        ''
        """
        return "" if self._pool is None else self._pool.note

    def worker_pids(self) -> list[int]:
        """The process ids of the bot's running search workers (empty with ``jobs=1``).

        >>> from tajmahal.bots.ismcts import IsmctsBot
        >>> IsmctsBot(jobs=1).worker_pids()
        []
        """
        return [] if self._pool is None else self._pool.pids()

    def close(self) -> None:
        """Stop the search workers and reap them (a later search starts them again).

        >>> from tajmahal.bots.ismcts import IsmctsBot
        >>> with IsmctsBot(jobs=2, iterations=20) as bot:
        ...     pass
        >>> bot.worker_pids()
        []
        """
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._closer is not None:
            self._closer.detach()
            self._closer = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Any]:
        """What a copy (a worker's searcher) keeps: the options, not the processes."""
        state = self.__dict__.copy()
        state["_pool"] = state["_closer"] = None
        return state


def _parse(data: bytes) -> tuple[int, int, Rows] | None:
    """A worker's answer checked: ``[number, done, [[code, visits, total], ...]]``, or None."""
    try:
        number, done, rows = json.loads(data)
        checked = [(int(code), int(visits), float(total)) for code, visits, total in rows]
    except (ValueError, TypeError):
        return None
    if type(number) is not int or type(done) is not int or done < 0:
        return None
    if any(visits < 0 or not math.isfinite(total) for _, visits, total in checked):
        return None
    return number, done, checked
