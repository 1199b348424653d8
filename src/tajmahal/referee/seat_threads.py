"""The threads that run in-process bots' calls, bounded in time.

See "Worker threads", "Ctrl-C" and "Abandoned calls" in :mod:`tajmahal.referee.seats`.

A seat's calls run in a daemon thread of its own (:class:`_SeatThread`), or in
the match's own thread timed by a :class:`MatchTimer`; a call that exceeds its
time is abandoned (it keeps running: a thread cannot be killed) and counted
(:func:`abandoned_calls`); :func:`watching_interrupts` tells the user's Ctrl-C
from a bot's own ``KeyboardInterrupt``.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from tajmahal.bots.untrusted import type_name
from tajmahal.faults import FaultKind
from tajmahal.seat_contract import Answer, timeout_answer

__all__ = [
    "CallAbandoned",
    "MatchStopped",
    "MatchTimer",
    "abandoned_calls",
    "reraise_user_interrupt",
    "watching_interrupts",
]


_LOCK = threading.Lock()
_ABANDONED: set[_Job] = set()
_BUSY: dict[int, _Job] = {}  # id(bot) -> its abandoned call, while it runs
_COUNTER = itertools.count(1)


def abandoned_calls() -> int:
    """How many abandoned bot calls (past their time limit) are still running in this process.

    >>> abandoned_calls() >= 0
    True
    """
    with _LOCK:
        return len(_ABANDONED)


class _Job:
    """One call of bot code; ``work`` returns an :class:`Answer` (or the built bot)."""

    __slots__ = ("abandoned", "finished", "owner", "result", "signal", "work")

    def __init__(self, work: Callable[[], Any], owner: object = None) -> None:
        self.work, self.owner = work, owner
        self.finished = False
        self.abandoned = False
        self.result: Any = None
        #: released when the call has finished (a threaded call: the worker's, see _SeatThread.call)
        self.signal: threading.Lock | None = None

    def run(self) -> None:
        """Run the call in the worker thread, then signal its end."""
        try:
            self.result = self.work()
        except BaseException as exc:  # the work functions catch the bot's; this is a last guard
            reraise_user_interrupt(exc)
            self.result = _internal_fault(exc)
        finally:
            self.work = _nothing  # drop references to the bot's objects
            with _LOCK:
                self.finished = True
                if self.abandoned:
                    _ABANDONED.discard(self)
                    if _BUSY.get(id(self.owner)) is self:
                        del _BUSY[id(self.owner)]
                self.owner = None
            if self.signal is not None:
                self.signal.release()

    def run_here(self) -> None:
        """Run the call in the calling thread (no time limit: it cannot be abandoned)."""
        try:
            self.result = _guarded(self.work)
        finally:
            self.work = _nothing
            self.finished, self.owner = True, None

    def abandon(self) -> bool:
        """After the wait timed out: whether the call finished after all; if not, it is
        abandoned (counted in :func:`abandoned_calls`, its bot busy until it returns)."""
        with _LOCK:
            if self.finished:
                return True
            self.abandoned = True
            _ABANDONED.add(self)
            if self.owner is not None:
                _BUSY[id(self.owner)] = self
        return False


def _nothing() -> None:
    return None


def _guarded(work: Callable[[], Any]) -> Any:
    """``work()``, or a fault :class:`Answer` if it raised (the work functions catch the
    bot's exceptions; this is a last guard)."""
    try:
        return work()
    except BaseException as exc:
        reraise_user_interrupt(exc)
        return _internal_fault(exc)


def _internal_fault(exc: BaseException) -> Answer:
    return Answer(kind=FaultKind.EXCEPTION, detail=f"internal: {type_name(exc)}")


_PRESSED = threading.Event()  # set by the SIGINT handler of watching_interrupts()


@contextlib.contextmanager
def watching_interrupts() -> Iterator[None]:
    """While active, a ``KeyboardInterrupt`` from the user's Ctrl-C is told apart from a bot's.

    Bot calls without a time limit run in the calling thread, where both
    look alike; in the main thread this wraps the SIGINT handler to mark a
    real Ctrl-C (and then calls the previous handler), and the seat re-raises
    a marked one instead of recording it as the bot's fault.  Elsewhere
    nothing is needed: Python raises the user's Ctrl-C in the main thread only.

    >>> with watching_interrupts():
    ...     pass
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def on_sigint(number: int, frame: FrameType | None) -> None:
        _PRESSED.set()
        if callable(previous):
            previous(number, frame)
        elif previous != signal.SIG_IGN:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _PRESSED.clear()


def reraise_user_interrupt(exc: BaseException) -> None:
    """Re-raise ``exc`` if it is the user's Ctrl-C (see :func:`watching_interrupts`).

    >>> reraise_user_interrupt(KeyboardInterrupt())  # raised by code, not by Ctrl-C: returns
    """
    if type(exc) is KeyboardInterrupt and _PRESSED.is_set():
        raise exc


class _SeatThread:
    """A daemon thread that runs one seat's calls, one at a time, in order.

    The thread starts with the first call that has a time limit: a seat
    whose calls have none (no ``time_limit``, no game clock) never starts one.
    Each call is handed over through a queue and its end signalled on one lock
    that the worker keeps for all its calls (held while no call has ended), so
    that a call allocates no lock of its own; a call that times out leaves that
    lock to the abandoned call and the worker takes a new one.
    """

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.done = _held_lock()

    def _start(self) -> None:
        name = f"tajmahal-seat-{next(_COUNTER)}"
        self.thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while (job := self.jobs.get()) is not None:
            job.run()

    def call(self, job: _Job, limit: float | None) -> tuple[bool, float]:
        """Run ``job``; (finished within ``limit``, seconds waited).

        Without a limit the call runs in the calling thread (nothing to
        bound, and no thread switch to pay for); see :func:`watching_interrupts`.
        """
        start = time.perf_counter()
        if limit is None:
            job.run_here()
            return True, time.perf_counter() - start
        if self.thread is None:
            self._start()
        done = job.signal = self.done
        self.jobs.put(job)
        if done.acquire(True, limit):
            return True, time.perf_counter() - start
        # the late call releases ``done`` whenever it ends: the next call waits on a new lock
        self.done = _held_lock()
        return job.abandon(), time.perf_counter() - start

    def stop(self) -> None:
        if self.thread is not None:
            self.jobs.put(None)  # the thread ends after the call it may still be running


class CallAbandoned(BaseException):
    """Raised in a match thread whose bot call was abandoned: the match went on in another
    thread, and this one leaves it when the call returns (see :class:`MatchTimer`)."""


class MatchStopped(BaseException):
    """Raised in a match thread about to ask a bot once the match was stopped (Ctrl-C)."""


class MatchTimer:
    """The clock of a match played in a thread of its own (see ``_run_timed`` in the match).

    The match thread runs each bot call itself, with no hand-over to another
    thread, and marks it as running; the thread that started the match sleeps
    until the running call's deadline (at most ``tick`` seconds, so that a call
    begun meanwhile is seen in time) and abandons a call past it.  The late
    call's thread leaves the match when the call returns; the match goes on in
    a new thread, from the timeout answer :meth:`abandon_late` returns.

    >>> timer = MatchTimer(tick=0.1)
    >>> timer.wait(), timer.abandon_late()  # no call running: sleep a tick, nothing late
    (0.1, None)
    >>> job = _Job(lambda: 42)
    >>> timer.call(job, limit=1.0)[0], job.result, timer.running
    (True, 42, None)
    """

    def __init__(self, tick: float) -> None:
        self.tick = tick
        self.running: tuple[_Job, float, float] | None = None  # the call, its start, its limit
        self.stopped = False
        #: the answer of an abandoned call until a new thread has taken the match over
        self.resume: Answer | None = None

    def call(self, job: _Job, limit: float) -> tuple[bool, float]:
        """Run ``job`` in this thread, the match's: (True, seconds taken), as a worker's call.

        Raises :class:`CallAbandoned` if the call was abandoned meanwhile, and
        :class:`MatchStopped` instead of starting a call once the match is stopped.
        """
        if self.stopped:
            raise MatchStopped
        start = time.perf_counter()
        self.running = (job, start, limit)
        job.run()
        if job.abandoned:
            raise CallAbandoned
        self.running = None
        return True, time.perf_counter() - start

    def wait(self) -> float:
        """Seconds the timing thread may sleep: to the running call's deadline, at most a tick."""
        running = self.running
        if running is None:
            return self.tick
        _, start, limit = running
        return min(self.tick, max(0.0, start + limit - time.perf_counter()))

    def abandon_late(self) -> Answer | None:
        """If the running call is past its limit, abandon it: its timeout answer (else None)."""
        running = self.running
        if running is None:
            return None
        job, start, limit = running
        elapsed = time.perf_counter() - start
        if elapsed < limit or job.abandon():  # in time, or finished after all
            return None
        self.resume = timeout_answer(limit, elapsed)
        self.running = None
        return self.resume

    def stop(self) -> bool:
        """Start no more calls; whether the match thread is out of the match now (its
        running call abandoned, or none taking the match over)."""
        self.stopped = True
        running = self.running
        if running is not None and not running[0].abandon():
            self.running = None
            return True
        return self.resume is not None


def _held_lock() -> threading.Lock:
    lock = threading.Lock()
    lock.acquire()
    return lock


