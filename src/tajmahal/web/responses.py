"""What every HTTP endpoint of the server shares: its headers, its pages, its errors, its server.

Every endpoint is a module-level function that finds the
:class:`~tajmahal.web.server.GameServer` in the application's state
(:func:`game_server`), as :func:`~tajmahal.web.app.create_app` puts it there.
"""

from __future__ import annotations

import gzip
import logging
from importlib import resources
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from tajmahal._escape import log_text
from tajmahal.web.server import GameServer

__all__ = [
    "HEADERS", "UNAVAILABLE", "compressed", "error", "error_reply", "game_server", "page",
    "static_text", "unavailable",
]  # fmt: skip

log = logging.getLogger("tajmahal.web")
#: every response's headers
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # the links are secrets: never sent on to other sites
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"
#: what a client is told while the database is away
UNAVAILABLE = "the game database cannot be reached just now: try again in a few seconds"


def game_server(connection: HTTPConnection) -> GameServer:
    """The server behind the application that received ``connection`` (a request or a
    WebSocket): ``app.state.server``."""
    server: GameServer = connection.app.state.server
    return server


def static_text(name: str) -> str:
    """A file of the package's ``static`` folder, as text."""
    return resources.files("tajmahal.web").joinpath("static", name).read_text(encoding="utf-8")


def page(name: str, status: int = 200) -> HTMLResponse:
    """One of the package's static HTML pages, with the content security policy."""
    return HTMLResponse(
        static_text(name), status, headers={**HEADERS, "Content-Security-Policy": _CSP}
    )


def error(status: int, message: str) -> JSONResponse:
    """An HTTP error: ``{"error": message}``."""
    return JSONResponse({"error": message}, status, headers=HEADERS)


def error_reply(message: str, request: str | None = None) -> dict[str, Any]:
    """A WebSocket's error message (``request``: the type of the message it answers).

    >>> error_reply('a message is a JSON object')
    {'type': 'error', 'message': 'a message is a JSON object', 'request': None}
    """
    return {"type": "error", "message": message[:400], "request": request}


async def unavailable(request: Request, exc: Exception) -> Response:
    """A request that met a database outage: 503 and when to try again, never a traceback."""
    log.warning("%s: %s", request.url.path[:80], log_text(str(exc)))
    return JSONResponse({"error": UNAVAILABLE}, 503, headers={**HEADERS, "Retry-After": "5"})


def compressed(request: Request, body: bytes, media_type: str) -> Response:
    """``body`` (gzip-compressed when it was built, and cached so) as it is to a client that
    accepts gzip, expanded for one that does not."""
    headers = {**HEADERS, "Vary": "Accept-Encoding"}
    if _accepts_gzip(request.headers.get("accept-encoding", "")):
        headers["Content-Encoding"] = "gzip"
        return Response(body, media_type=media_type, headers=headers)
    return Response(gzip.decompress(body), media_type=media_type, headers=headers)


def _accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip.

    >>> _accepts_gzip('gzip, deflate, br'), _accepts_gzip('br'), _accepts_gzip('gzip;q=0')
    (True, False, False)
    """
    for part in header.lower().split(","):
        name, _, weight = part.partition(";")
        if name.strip() in ("gzip", "*"):
            value = weight.replace(" ", "").removeprefix("q=")
            try:
                return not weight.strip() or float(value) > 0
            except ValueError:
                return False
    return False
