"""A worker process of the ``process`` backend: plays the games it is sent, one at a time.

The backend starts ``python -c 'from tajmahal.tournament._worker import main; main()'``
with two pipes (jobs in, results out) and the parent's process id.  The
worker never imports the user's ``__main__`` (unlike :mod:`multiprocessing`,
which re-runs a script in every worker), so a script without the
``if __name__ == "__main__":`` guard, a script piped on standard input,
``python -c``, the REPL and notebooks all work.

Messages are pickles, framed by :class:`multiprocessing.connection.Connection`:
first the setup ``(sys.path, pickled (MatchOptions, [(plugin name, plugin, origin)]))``,
answered by ``None`` or a one-line error; then one :class:`GameJob` per
message, answered by its :class:`GameResult` or a message why it could not
be played.  Search bots search in the worker's own process
(``TAJMAHAL_SEARCH_JOBS=1``: ``ismcts:jobs=N`` starts no processes of its own
here; with an iteration budget it makes the same moves).  The worker ends
when its jobs pipe closes, and within about a
second when its parent dies (even by ``kill -9``), taking the bot programs
it started with it.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from multiprocessing.connection import Connection
from typing import Any

from tajmahal._parent import PARENT_POLL, exit_with_parent

__all__ = ["PARENT_POLL", "main"]


def main() -> None:
    """Serve jobs on the pipes named in ``sys.argv``: ``JOBS_FD RESULTS_FD PARENT_PID``."""
    jobs_fd, results_fd, parent = (int(word) for word in sys.argv[1:4])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    os.environ["TAJMAHAL_SEARCH_JOBS"] = "1"  # a pool of games: no pool of searches per game
    exit_with_parent(parent)
    jobs, results = Connection(jobs_fd, writable=False), Connection(results_fd, readable=False)
    try:
        setup = jobs.recv_bytes()
    except EOFError:
        return
    problem, options = _set_up(setup)
    results.send(problem)
    if problem is not None:
        return
    from tajmahal.tournament.backends import play_game

    while True:
        try:
            job = jobs.recv()
        except EOFError:
            return
        results.send(play_game(job, options))


def _set_up(message: bytes) -> tuple[str | None, Any]:
    """Unpickle the setup; (None, options), or (a one-line error, None)."""
    import pickle

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


if __name__ == "__main__":  # pragma: no cover - started through main()
    main()
