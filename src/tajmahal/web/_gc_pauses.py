"""The server process's garbage collector: no long pause while hundreds of games are held.

A server holds every active game's history (some thousands of objects a
game) for as long as the game lasts.  Python's full collection walks all of
them: at 300 games a pause of 100-300 ms, with every acknowledgement and
state message waiting.  So :func:`keep_pauses_short` freezes, once a second,
what has lived that long (:func:`gc.freeze`: left out of collections, still
freed as usual once nothing refers to it), and every :data:`FULL_EVERY`
seconds thaws everything and collects it once: cycles among long-lived
objects are freed then.  Started by :func:`tajmahal.web.serve` (it owns its
process); an application embedding the server chooses its own.
"""

from __future__ import annotations

import gc
import threading
import time

__all__ = ["FREEZE_EVERY", "FULL_EVERY", "keep_pauses_short"]

FREEZE_EVERY = 1.0  #: seconds an object lives before collections leave it out
FULL_EVERY = 600.0  #: seconds between the collections of everything (one pause each)


def keep_pauses_short(
    stop: threading.Event, every: float = FREEZE_EVERY, full_every: float = FULL_EVERY
) -> threading.Thread:
    """Start the thread that freezes long-lived objects until ``stop`` is set.

    >>> import gc, threading
    >>> stop = threading.Event()
    >>> thread = keep_pauses_short(stop, every=0.01)
    >>> kept = [[] for _ in range(100)]
    >>> deadline = time.monotonic() + 60  # a busy machine may run the thread late
    >>> while gc.get_freeze_count() < 100 and time.monotonic() < deadline:
    ...     time.sleep(0.01)
    >>> gc.get_freeze_count() >= 100
    True
    >>> stop.set(); thread.join(); gc.get_freeze_count()
    0
    """

    def run() -> None:
        last_full = time.monotonic()
        try:
            while not stop.wait(every):
                if time.monotonic() - last_full >= full_every:
                    gc.unfreeze()
                    gc.collect()
                    last_full = time.monotonic()
                gc.freeze()
        finally:
            gc.unfreeze()

    thread = threading.Thread(target=run, name="tajmahal-web-collector", daemon=True)
    thread.start()
    return thread
