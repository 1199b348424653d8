"""Every request passes here first: trusted host names, same-origin writes, secret-free logs.

- :class:`Guard` is ASGI middleware in front of the whole application.  It
  answers only the host names it was given (a DNS-rebinding page names its
  own host: refused with 400), refuses a state-changing request (``POST``,
  ``PUT``, ``PATCH``, ``DELETE``) that is not ``application/json`` or that a
  browser sent from another origin (403), and refuses a WebSocket opened by a
  page of another origin (403 before the handshake completes).
- :class:`LogGuard` is a :class:`logging.Filter` that removes the seat
  tokens from every line (paths under ``/ws/``, ``/play/``, ``/watch/``,
  ``/record/``, ``/replay/``, ``/analysis/``) and rate-limits floods of one
  kind of line (a storm of ``Too many open files`` errors).  :func:`guard_logs`
  installs it on the loggers a server writes to (uvicorn's own included),
  without configuring the root logger.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

__all__ = [
    "LOCAL_HOSTS",
    "SERVER_LOGGERS",
    "Guard",
    "LogGuard",
    "guard_logs",
    "guarded_http",
    "host_name",
    "redact",
]

#: the names a server answers to unless told more (``--allowed-host``)
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: the loggers a running server writes to (uvicorn's, asyncio's for accept errors, its own)
SERVER_LOGGERS = (
    "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "asyncio",
    "websockets", "websockets.server", "tajmahal", "tajmahal.web",
)  # fmt: skip
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_SECRET_PATH = re.compile(r"/(ws|play|watch|record|replay|analysis)/[^\s\"'<>?#]+")
_SECRET_FIELD = re.compile(r"""(\\?["']token\\?["']\s*:\s*\\?["'])[^"'\\\s]*""")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def host_name(header: str) -> str:
    """The name in a ``Host`` header, lowercase, without the port (``[::1]:80`` -> ``::1``).

    >>> host_name('LocalHost:8000'), host_name('[::1]:8000'), host_name('127.0.0.1')
    ('localhost', '::1', '127.0.0.1')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    if header.count(":") == 1:
        return header.split(":", 1)[0]
    return header.rstrip(".")


def redact(text: str) -> str:
    """``text`` with the token of every secret path and every message's ``"token"`` replaced.

    >>> redact('"WebSocket /ws/AbC-123_xyz" [accepted]')
    '"WebSocket /ws/…" [accepted]'
    >>> redact('< TEXT {"token": "AbC-123_xyz", "type": "state"}')
    '< TEXT {"token": "…", "type": "state"}'
    """
    return _SECRET_FIELD.sub(r"\1…", _SECRET_PATH.sub(r"/\1/…", text))


class Guard:
    """ASGI middleware: trusted hosts, same-origin writes and WebSockets (see the module docs)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str] = LOCAL_HOSTS) -> None:
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed_hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}  # fmt: skip
        host = headers.get("host", "")
        refusal = None
        if host_name(host) not in self.allowed:
            refusal = 400, "this server does not answer to that host name (see --allowed-host)"
        elif kind == "websocket" or scope.get("method", "GET") in _UNSAFE:
            refusal = self._cross_site(kind, host, headers)
            if refusal is None and kind == "http":
                media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
                if media != "application/json":
                    refusal = 415, "a request that changes something is sent as application/json"
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, message = refusal
        logging.getLogger("tajmahal.web").info(
            "guard: refused %s %s from %s: %s", scope.get("method", "WebSocket"),
            redact(scope.get("path", "")), (scope.get("client") or ("?",))[0], message,
        )  # fmt: skip
        if kind == "websocket":  # closed before it is accepted: the client sees HTTP 403
            await send({"type": "websocket.close", "code": 1008, "reason": message[:100]})
            return
        body = json.dumps({"error": message}).encode()
        await send({"type": "http.response.start", "status": status, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff"),
        ]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    def _cross_site(kind: str, host: str, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why a request from a browser page is not same-origin, or None.

        A browser names the page's origin in ``Origin`` on every cross-origin
        request (and on every WebSocket); a client that is no browser sends
        neither ``Origin`` nor ``Sec-Fetch-Site`` and is no cross-site threat.
        """
        origin = headers.get("origin")
        site = headers.get("sec-fetch-site")
        if site == "same-origin":
            return None
        if origin is None:
            if site in (None, "none"):  # typed into the address bar, or no browser
                return None
            return 403, "a request from another site's page is refused"
        if origin.lower() in (f"http://{host.lower()}", f"https://{host.lower()}"):
            return None
        return 403, "a request from another site's page is refused"


class LogGuard(logging.Filter):
    """Redacts secret paths from every record and drops floods of one kind of line.

    Each kind of line (logger and message template) may pass ``burst`` times
    at once and ``rate`` times a second after that; the first line that
    passes after some were dropped says how many.
    """

    def __init__(self, rate: float = 5.0, burst: int = 50) -> None:
        super().__init__()
        self.rate, self.burst = rate, float(burst)
        self._buckets: dict[tuple[str, str], list[float]] = {}  # kind -> [level, at, dropped]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._admit(record):
            return False
        record.msg = redact(str(record.msg))
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True

    def _admit(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg)[:200])
        now = time.monotonic()
        with self._lock:
            bucket = self._buckets.get(kind)
            if bucket is None:
                if len(self._buckets) > 10_000:
                    self._buckets.clear()
                bucket = self._buckets[kind] = [self.burst, now, 0.0]
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
            if bucket[0] < 1:
                bucket[2] += 1
                return False
            bucket[0] -= 1
            dropped, bucket[2] = int(bucket[2]), 0.0
        if dropped:
            record.msg = f"{record.msg} ({dropped} similar lines dropped)"
        return True


def _redacted(value: object) -> object:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, int | float) or value is None:
        return value
    text = str(value)
    cleaned = redact(text)
    return value if cleaned == text else cleaned


_INSTALLED: LogGuard | None = None


def guard_logs() -> LogGuard:
    """Install the one :class:`LogGuard` on :data:`SERVER_LOGGERS` (once); it is returned.

    A filter on a logger sees the records logged there (not those of its
    children), so each logger the server writes to gets it.  The root logger
    and its handlers are left as they are.
    """
    global _INSTALLED
    if _INSTALLED is None:
        _INSTALLED = LogGuard()
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if _INSTALLED not in logger.filters:
            logger.addFilter(_INSTALLED)
    return _INSTALLED


def guarded_http(max_sockets: int, max_per_client: int, header_timeout: float) -> type[Any]:
    """uvicorn's h11 protocol with the limits it lacks: a request's headers must arrive within
    ``header_timeout`` seconds (also each later request on a kept-alive connection), and at
    most ``max_sockets`` connections are open (``max_per_client`` from one address); a
    connection past a cap is closed at once, before it holds a file for long."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    per_client: dict[str, int] = {}

    class GuardedH11(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _counted = ""
        _accepted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            client = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            if len(self.connections) >= max_sockets or per_client.get(client, 0) >= max_per_client:
                transport.abort()  # a flood: no reply, no log line (floods make storms)
                return
            per_client[client] = per_client.get(client, 0) + 1
            self._counted, self._accepted = client, True
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            waiting_for = self.cycle
            self._deadline = self.loop.call_later(header_timeout, self._too_slow, waiting_for)

        def _too_slow(self, waiting_for: object) -> None:
            self._deadline = None
            if self.cycle is waiting_for and not self.transport.is_closing():
                self.transport.abort()  # no whole request within the time: a slow client

        def _uncount(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            client, self._counted = self._counted, ""
            if client:
                left = per_client.get(client, 1) - 1
                if left > 0:
                    per_client[client] = left
                else:
                    per_client.pop(client, None)

        def connection_lost(self, exc: Exception | None) -> None:
            self._uncount()
            if self._accepted:
                super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._accepted:
                super().data_received(data)

        def eof_received(self) -> None:
            return None

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._uncount()  # the WebSocket has its own pings and limits (per client, per link)
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return GuardedH11
