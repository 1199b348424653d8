"""The library's worker processes end when the process that started them dies."""

from __future__ import annotations

import contextlib
import os
import threading
import time

__all__ = ["PARENT_POLL", "exit_with_parent"]

PARENT_POLL = 0.5  #: seconds between checks that the parent is still alive


def exit_with_parent(parent: int) -> None:
    """Start a daemon thread that ends this process within :data:`PARENT_POLL` seconds of the
    death of process ``parent`` (then its children are re-parented), even by ``kill -9``.

    Under a cap on threads no thread starts: the worker still ends when its pipes close.

    >>> exit_with_parent(os.getppid())  # the parent is alive: nothing happens
    """
    with contextlib.suppress(RuntimeError):
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)
