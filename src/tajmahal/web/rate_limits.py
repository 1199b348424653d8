"""How much a client may ask: the :class:`RateLimits` middleware in front of the game page's
WebSocket, and the token bucket every WebSocket's messages pass through.

A seat's page (through :class:`RateLimits`) and a remote arena bot
(:mod:`tajmahal.web.arena_remote`) each get a :class:`TokenBucket`; a message
that finds it empty is dropped, and a connection that keeps flooding is closed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections import Counter

from tajmahal.web.config import ServerSettings
from tajmahal.web.guard import ASGIApp, Message, Receive, Scope, Send
from tajmahal.web.responses import error_reply

__all__ = ["FLOOD_CLOSE", "RateLimits", "TokenBucket"]

log = logging.getLogger("tajmahal.web")
FLOOD_CLOSE = 2000  #: messages dropped for the rate limit before the connection is closed


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


class RateLimits:
    """ASGI middleware: the game page's WebSocket (``/ws/TOKEN``) within the server's limits.

    A connection past :attr:`~tajmahal.web.config.ServerSettings.max_connections_per_client`
    (one client address) or
    :attr:`~tajmahal.web.config.ServerSettings.max_connections_per_seat` (one link) is told
    why and closed (1008) before the application sees it. Each connection's messages pass a
    :class:`TokenBucket` (``messages_per_second``, ``message_burst``): those beyond it are
    dropped (the page is told, once a second), and a connection that sends
    :data:`FLOOD_CLOSE` too many is closed (1008).
    """

    def __init__(self, app: ASGIApp, settings: ServerSettings, path: str = "/ws/") -> None:
        self.app, self.settings, self.path = app, settings, path
        self.per_client: Counter[str] = Counter()  # open connections per client address
        self.per_link: Counter[str] = Counter()  # open connections per link

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or not scope["path"].startswith(self.path):
            await self.app(scope, receive, send)
            return
        client = scope["client"][0] if scope.get("client") else ""
        link = scope["path"][len(self.path) :]
        settings = self.settings
        if self.per_client[client] >= settings.max_connections_per_client:
            log.info("websocket: %s has too many connections", client)
            await _refuse(receive, send, "too many connections from your address")
            return
        if self.per_link[link] >= settings.max_connections_per_seat:
            log.info("websocket: %s: a link has too many connections", client)
            await _refuse(receive, send, "this link is open in too many places")
            return
        self.per_client[client] += 1
        self.per_link[link] += 1
        try:
            await self.app(scope, self._limited(receive, send, client), send)
        finally:
            for counts, key in ((self.per_client, client), (self.per_link, link)):
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]

    def _limited(self, receive: Receive, send: Send, client: str) -> Receive:
        """``receive``, dropping the messages beyond the connection's rate."""
        bucket = TokenBucket(self.settings.messages_per_second, self.settings.message_burst)
        dropped, told = 0, -1.0

        async def limited() -> Message:
            nonlocal dropped, told
            while True:
                message = await receive()
                if message["type"] != "websocket.receive" or bucket.take():
                    return message
                dropped += 1
                if time.monotonic() - told >= 1.0:  # one error a second while dropping
                    told = time.monotonic()
                    log.info("websocket: %s sent too many messages (%d dropped)", client,
                             dropped)  # fmt: skip
                    await _tell(send, "too many messages: slow down (messages are dropped)")
                if dropped >= FLOOD_CLOSE:
                    with contextlib.suppress(Exception):
                        await send({"type": "websocket.close", "code": 1008,
                                    "reason": "too many messages"})  # fmt: skip
                    return {"type": "websocket.disconnect", "code": 1008}

        return limited


async def _tell(send: Send, message: str) -> None:
    """Send an error message on an accepted WebSocket (one that is gone is left alone)."""
    text = json.dumps(error_reply(message), separators=(",", ":"))
    with contextlib.suppress(Exception):
        await send({"type": "websocket.send", "text": text})


async def _refuse(receive: Receive, send: Send, message: str) -> None:
    """Accept a WebSocket only to say why it is closed, then close it (1008)."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await _tell(send, message)
    with contextlib.suppress(Exception):
        await send({"type": "websocket.close", "code": 1008, "reason": message[:100]})
