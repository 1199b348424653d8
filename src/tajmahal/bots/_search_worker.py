"""A search worker process of ``ismcts:jobs=N``: searches the roots it is sent, one at a time.

:class:`~tajmahal.bots._search_pool.SearchPool` starts
``python -c 'from tajmahal.bots._search_worker import main; main()'`` with two
pipes (requests in, answers out) and the parent's process id.  Like the
tournament's workers it never imports the caller's ``__main__``.

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
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

from tajmahal._parent import exit_with_parent

__all__ = ["main"]


def main() -> None:
    """Serve searches on the pipes named in ``sys.argv``: ``REQUESTS_FD ANSWERS_FD PARENT_PID``."""
    requests_fd, answers_fd, parent = (int(word) for word in sys.argv[1:4])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    exit_with_parent(parent)  # also in the middle of a search
    from tajmahal.protocol.confine import make_undumpable

    make_undumpable()  # the views it is sent stay as private as the parent's
    requests = Connection(requests_fd, writable=False)
    answers = Connection(answers_fd, readable=False)
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
