"""One worker-process module for the library's three pools: it starts, talks and cleans up.

A worker that cannot start leaves no file descriptor behind, in each pool: the
search pool of ``ismcts:jobs=N``, the tournament's ``process`` backend and the
web server's bot workers (each failed start used to leak two pipe ends in two
of them).  The failure is a real one: the interpreter to start does not exist.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tajmahal.bots._search_pool import SearchPool
from tajmahal.tournament.backends import MatchOptions, _Pool
from tajmahal.tournament.seating import TournamentError
from tajmahal.worker_process import WorkerProcess, boot_code, exit_text

FDS = Path("/proc/self/fd")
pytestmark = pytest.mark.skipif(not FDS.exists(), reason="counts open files in /proc/self/fd")
ECHO = "tajmahal.worker_process:echo_worker"


def open_fds() -> set[str]:
    return set(os.listdir(FDS))


@pytest.fixture
def no_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting a worker fails in ``subprocess``: its interpreter is not there."""
    monkeypatch.setattr(sys, "executable", "/nonexistent/python3")


def test_a_worker_answers_and_ends_when_its_pipe_closes() -> None:
    before = open_fds()
    worker = WorkerProcess(ECHO, b"setup")
    assert worker.answers.recv_bytes() == b"setup"
    worker.send(("a", 1))
    assert pickle.loads(worker.answers.recv_bytes()) == ("a", 1)
    assert worker.close(kill=False) == 0
    assert worker.close(kill=False) == 0  # twice is harmless
    assert open_fds() == before


def test_a_killed_worker_says_so() -> None:
    worker = WorkerProcess(ECHO, b"setup")
    assert worker.answers.recv_bytes() == b"setup"
    os.kill(worker.pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while worker.process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert worker.exit_text() == "it was killed by SIGKILL"
    worker.close(kill=True)


def test_a_worker_that_cannot_start_leaves_nothing_open(no_interpreter: None) -> None:
    before = open_fds()
    with pytest.raises(OSError):
        WorkerProcess(ECHO, b"setup")
    assert open_fds() == before


def test_the_search_pool_searches_in_process_and_leaks_nothing(no_interpreter: None) -> None:
    before = open_fds()
    pool = SearchPool(b"setup", 2)
    pool.start()
    assert not pool.usable and "cannot start a search worker process" in pool.note
    assert open_fds() == before


def test_the_tournament_pool_refuses_and_leaks_nothing(no_interpreter: None) -> None:
    before = open_fds()
    with pytest.raises(TournamentError, match="cannot start a worker process"):
        _Pool(2, pickle.dumps(MatchOptions()))
    assert open_fds() == before


def test_the_web_bot_pool_leaks_nothing(no_interpreter: None) -> None:
    pytest.importorskip("starlette")
    from tajmahal.web.workers import BotPool

    async def start() -> None:
        pool = BotPool(2)
        with pytest.raises(OSError):
            pool.start()
        await pool.close()

    before = open_fds()
    # in a thread of its own: the session's Playwright browser (if a test started it) keeps
    # an event loop running in the main thread
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, start()).result()
    assert open_fds() == before


def test_boot_code_and_exit_text() -> None:
    assert boot_code("a.b:main").endswith("from a.b import main; main()")
    assert exit_text(0) == "it exited with status 0"
    assert exit_text(-15) == "it was killed by SIGTERM"
    assert exit_text(-200) == "it was killed by signal 200"
