"""The library's worker processes: how one starts, how the parent talks to it, how it ends.

Three pools use worker processes: the search workers of ``ismcts:jobs=N``
(``tajmahal.bots._search_pool``), the tournament's ``process`` backend
(:mod:`tajmahal.tournament.backends`) and the web server's bot workers
(:mod:`tajmahal.web.workers`).  Each worker is ``python -c BOOT`` started by a
:class:`WorkerProcess` with two pipes, requests in and answers out (messages
framed by ``multiprocessing.connection.Connection``), and the parent's
process id; it never imports the caller's ``__main__`` (unlike
``multiprocessing``), so scripts without a ``__main__`` guard, ``python -c``,
the REPL and notebooks all work.  Its side, :func:`worker_pipes`, ignores
Ctrl-C (the parent's to handle), ends within about a second of its parent's
death (even by ``kill -9``), and makes itself non-dumpable.

A worker that cannot start leaves nothing behind: the four pipe ends are
closed and the process, if it started, is reaped.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from typing import Any

from tajmahal._parent import exit_with_parent

__all__ = ["PRCTL", "WorkerProcess", "exit_text", "make_undumpable", "worker_pipes"]

_PR_SET_DUMPABLE = 4
#: the folder that holds the ``tajmahal`` package, put first on a worker's ``sys.path``
LIBRARY_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _libc_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
        return prctl
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return None


PRCTL = _libc_prctl()


def make_undumpable() -> bool:
    """Make this process non-dumpable (``PR_SET_DUMPABLE`` 0); whether it is now (Linux only).

    Its ``/proc/<pid>/`` files then belong to root, and neither a process of
    the same user nor one without ``CAP_SYS_PTRACE`` can read its memory,
    environment or file descriptors or trace it; it leaves no core dump.

    >>> import sys
    >>> make_undumpable() == sys.platform.startswith('linux')
    True
    """
    if PRCTL is None:
        return False
    return PRCTL(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0


def boot_code(entry: str) -> str:
    """The ``python -c`` code that starts a worker: ``entry`` is ``"module:function"``.

    >>> print(boot_code('tajmahal.bots._search_worker:main'))
    import sys; sys.path.insert(0, sys.argv.pop()); from tajmahal.bots._search_worker import main; main()
    """  # noqa: E501
    module, _, function = entry.partition(":")
    return (
        "import sys; sys.path.insert(0, sys.argv.pop()); "
        f"from {module} import {function}; {function}()"
    )


class WorkerProcess:
    """One worker process and its two pipes: ``requests`` (to it), ``answers`` (from it).

    ``entry`` names the worker's main function (``"module:function"``), which
    calls :func:`worker_pipes`; ``setup`` is the first message it receives.
    Starting may raise :class:`OSError` (no process could start, or it died
    before it read its setup): then nothing of it is left open.

    >>> worker = WorkerProcess('tajmahal.worker_process:echo_worker', b'hello')
    >>> worker.answers.recv_bytes()
    b'hello'
    >>> worker.close(kill=False)
    0
    """

    def __init__(
        self, entry: str, setup: bytes, *, environment: Mapping[str, str] | None = None
    ) -> None:
        requests_read, requests_write = os.pipe()
        answers_read, answers_write = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", boot_code(entry), str(requests_read), str(answers_write),
                 str(os.getpid()), LIBRARY_ROOT],
                stdin=subprocess.DEVNULL, pass_fds=(requests_read, answers_write),
                env=None if environment is None else {**os.environ, **environment},
            )  # fmt: skip
        except BaseException:
            for fd in (requests_write, answers_read):
                os.close(fd)
            raise
        finally:
            os.close(requests_read)
            os.close(answers_write)
        self.requests = Connection(requests_write, readable=False)
        self.answers = Connection(answers_read, writable=False)
        self.ready = False  #: whether the worker has answered its setup (the pools set it)
        try:
            self.requests.send_bytes(setup)
        except BaseException:  # it died at once (a cap on memory, a broken interpreter)
            self.close(kill=True)
            raise

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self.process.pid

    def send(self, message: Any) -> None:
        """Send one message (pickled); :class:`OSError` if the worker is gone."""
        self.requests.send(message)

    def exit_text(self, wait: float = 0.0) -> str:
        """Why the worker stopped answering, in words (waiting up to ``wait`` s for its exit)."""
        try:
            code = self.process.wait(timeout=wait) if wait else self.process.poll()
        except subprocess.TimeoutExpired:
            code = None
        return exit_text(code)

    def close(self, kill: bool, wait: float | None = 5.0) -> int:
        """Close the requests pipe (the worker's signal to end), wait up to ``wait`` s for the
        worker to exit (killing it first with ``kill``, then after the wait), reap it and close
        the answers pipe; its exit status.  Safe to call twice."""
        with contextlib.suppress(OSError):
            self.requests.close()
        if kill and self.process.poll() is None:
            self.process.kill()
        try:
            code = self.process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        with contextlib.suppress(OSError):
            self.answers.close()
        return code


def exit_text(code: int | None) -> str:
    """A worker's exit status in words.

    >>> exit_text(None), exit_text(3), exit_text(-9)
    ('its pipe closed', 'it exited with status 3', 'it was killed by SIGKILL')
    """
    if code is None:
        return "its pipe closed"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"it was killed by {signal.Signals(-code).name}"
        return f"it was killed by signal {-code}"
    return f"it exited with status {code}"


def worker_pipes(terminate: bool = True) -> tuple[Connection, Connection]:
    """The worker's side of :class:`WorkerProcess`: its (requests, answers) connections.

    Reads the pipes and the parent from ``sys.argv``, ignores Ctrl-C (the
    parent's to handle), ends this process within about a second of the
    parent's death, and makes it non-dumpable (what it is sent stays as
    private as the parent's memory).  With ``terminate=False`` SIGTERM is
    ignored too: a service's workers, stopped by their server when the whole
    service is told to stop (systemd's SIGTERM to every process of a unit).
    """
    requests_fd, answers_fd, parent = (int(word) for word in sys.argv[1:4])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not terminate:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    exit_with_parent(parent)
    make_undumpable()
    return Connection(requests_fd, writable=False), Connection(answers_fd, readable=False)


def echo_worker() -> None:
    """A worker that answers each message with itself (the doctests' and tests' worker)."""
    requests, answers = worker_pipes()
    while True:
        try:
            answers.send_bytes(requests.recv_bytes())
        except EOFError:
            return
