"""How fast a client may send: the token bucket every WebSocket's messages pass through.

A seat's page (:mod:`tajmahal.web.app`) and a remote arena bot
(:mod:`tajmahal.web.arena_remote`) each get a :class:`TokenBucket`; a message
that finds it empty is dropped, and a connection that keeps flooding is closed.
"""

from __future__ import annotations

import time

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once; :meth:`grant` adds one more
    (a bot sent a request may always answer it, even past ``burst``).

    >>> bucket = TokenBucket(rate=0.0, burst=2)
    >>> bucket.take(), bucket.take(), bucket.take()
    (True, True, False)
    >>> bucket.grant()
    >>> bucket.take()
    True
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.level, self.at = float(burst), time.monotonic()

    def grant(self) -> None:
        """One message more, beyond the rate and the burst."""
        self.level += 1

    def take(self) -> bool:
        """Whether a message may pass now (it uses one of the bucket's tokens)."""
        now = time.monotonic()
        self.level = max(self.level, min(self.burst, self.level + (now - self.at) * self.rate))
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True
