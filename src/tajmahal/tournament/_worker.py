"""A worker process of the ``process`` backend: plays the games it is sent, one at a time.

The backend starts it as a :class:`~tajmahal.worker_process.WorkerProcess`
with two pipes (jobs in, results out) and the parent's process id.  The
worker never imports the user's ``__main__`` (unlike :mod:`multiprocessing`,
which re-runs a script in every worker), so a script without the
``if __name__ == "__main__":`` guard, a script piped on standard input,
``python -c``, the REPL and notebooks all work.

Messages are pickles, framed by :class:`multiprocessing.connection.Connection`:
first the setup (:func:`~tajmahal.tournament.backends.worker_setup`: ``(sys.path,
pickled (MatchOptions, [(plugin name, plugin, origin)]))``),
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

import os

from tajmahal._parent import PARENT_POLL
from tajmahal.worker_process import worker_pipes

__all__ = ["PARENT_POLL", "main"]


def main() -> None:
    """Serve jobs on the pipes named in ``sys.argv``: ``JOBS_FD RESULTS_FD PARENT_PID``."""
    os.environ["TAJMAHAL_SEARCH_JOBS"] = "1"  # a pool of games: no pool of searches per game
    jobs, results = worker_pipes()  # Ctrl-C is the parent's to handle; ends with the parent
    try:
        setup = jobs.recv_bytes()
    except EOFError:
        return
    from tajmahal.tournament.backends import play_game, set_up_worker

    problem, options = set_up_worker(setup)
    results.send(problem)
    if problem is not None:
        return
    while True:
        try:
            job = jobs.recv()
        except EOFError:
            return
        results.send(play_game(job, options))


if __name__ == "__main__":  # pragma: no cover - started through main()
    main()
