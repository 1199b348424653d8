"""A search worker process of ``ismcts:jobs=N``: searches the roots it is sent, one at a time.

:class:`~tajmahal.bots._search_pool.SearchPool` starts
it as a :class:`~tajmahal.worker_process.WorkerProcess`: two pipes (requests
in, answers out) and the parent's process id; like every worker of the library
it never imports the caller's ``__main__``.

Messages are framed by :class:`multiprocessing.connection.Connection`.  In:
the setup (a pickled searcher: the bot with its pool left out), then
``("search", number, view, root codes or None, seed, iterations or None,
deadline or None)`` to start a decision's tree, or ``("more", number,
iterations or None, deadline or None)`` to grow it.  Deadlines are
:func:`time.monotonic` values (one clock for every process on Linux).  Out:
``b"ready"`` (or a one-line error) for the setup, then for each request a JSON
document ``[number, iterations done, [[code, visits, total reward], ...]]``
(the parent checks it: plain data, never a pickle).  The worker ends when its
requests pipe closes, and within about a second when its parent dies.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

from tajmahal.worker_process import worker_pipes

__all__ = ["main"]


def main() -> None:
    """Serve searches on the pipes named in ``sys.argv``: ``REQUESTS_FD ANSWERS_FD PARENT_PID``."""
    # Ctrl-C ignored, ends with its parent (also in the middle of a search), non-dumpable:
    # the views it is sent stay as private as the parent's
    requests, answers = worker_pipes()
    try:
        setup = requests.recv_bytes()
    except EOFError:
        return
    try:
        searcher: Any = pickle.loads(setup)
    except Exception as exc:  # reported to the parent, which searches in-process instead
        answers.send_bytes(f"{type(exc).__name__}: {exc}".replace("\n", " ")[:500].encode())
        return
    answers.send_bytes(b"ready")
    search: Any = None
    while True:
        try:
            request = requests.recv()
        except EOFError:
            return
        if request[0] == "search":
            _, number, view, codes, seed, iterations, deadline = request
            search = searcher._new_search(view, codes, random.Random(seed))
        else:
            _, number, iterations, deadline = request
        search.run(iterations, deadline)
        rows = [list(row) for row in search.rows()]
        answers.send_bytes(json.dumps([number, search.done, rows]).encode())


if __name__ == "__main__":  # pragma: no cover - started through main()
    main()
