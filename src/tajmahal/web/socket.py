"""The game page's WebSocket, ``/ws/TOKEN``: a seat's (or the spectator's) conversation.

Every message the page sends carries the token again, and a message whose token is not the
connection's is refused. What the page receives is queued in the connection's
:class:`~tajmahal.web.table.ConnectionOutbox`: replies, and the state messages the table
builds. How many connections and how many messages a second a client may use is the
:class:`~tajmahal.web.rate_limits.RateLimits` middleware's to say, before this endpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tajmahal._escape import log_text
from tajmahal.rules.errors import TajMahalError
from tajmahal.web.rematch import rematch
from tajmahal.web.responses import UNAVAILABLE, error_reply, game_server
from tajmahal.web.server import GameServer
from tajmahal.web.stores.contract import StoreError
from tajmahal.web.table import ConnectionOutbox, Rejected, Table

__all__ = ["game_socket", "refuse"]

log = logging.getLogger("tajmahal.web")


async def game_socket(socket: WebSocket) -> None:
    """``/ws/TOKEN``: the seat's or the spectator's messages, until the page goes."""
    server = game_server(socket)
    token = socket.path_params["token"]
    client = socket.client.host if socket.client else ""
    try:
        opened = await server.open(token)
    except StoreError as exc:  # the database is away: try again later (close code 1013)
        log.warning("websocket: %s", log_text(exc))
        await socket.accept()
        await refuse(socket, UNAVAILABLE, 1013)
        return
    await socket.accept()
    if opened is None:
        log.info("websocket: %s used an unknown link", client)
        await refuse(socket, "no game has this link", 4404)
        return
    table, seat = opened
    outbox = ConnectionOutbox(seat)
    table.listeners.add(outbox)
    table.tell(outbox)
    if table.halted:
        outbox.reply(error_reply(table.halted))
    sender = asyncio.get_running_loop().create_task(_send(socket, table, outbox))
    who = f"game {table.id}: {'spectator' if seat is None else f'seat {seat}'} ({client})"
    try:
        await _receive(server, socket, table, seat, token, outbox, who, client)
    finally:
        outbox.closed = True
        table.listeners.discard(outbox)
        server.release(table)
        sender.cancel()


async def refuse(socket: WebSocket, message: str, code: int) -> None:
    """Tell an accepted connection why it is closed, and close it with ``code``."""
    with contextlib.suppress(Exception):
        await socket.send_json(error_reply(message))
        await socket.close(code, message[:100])


async def _receive(
    server: GameServer, socket: WebSocket, table: Table, seat: int | None, token: str,
    outbox: ConnectionOutbox, who: str, client: str,
) -> None:  # fmt: skip
    most = server.settings.max_message_bytes
    while True:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            size = len(raw)
            text = raw.decode("utf-8", "replace") if size <= most else None
        else:
            size = len(text.encode("utf-8", "replace"))
        if text is None or size > most:
            log.info("%s: a message of %d bytes refused", who, size)
            outbox.reply(error_reply(f"a message has at most {most} bytes"))
            continue
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            log.info("%s: a message that is not JSON", who)
            outbox.reply(error_reply("a message is a JSON object"))
            continue
        await _handle(server, data, table, seat, token, outbox, who, client)


async def _handle(
    server: GameServer, data: Any, table: Table, seat: int | None, token: str,
    outbox: ConnectionOutbox, who: str, client: str,
) -> None:  # fmt: skip
    kind = data.get("type") if isinstance(data, dict) else None
    try:
        if not isinstance(data, dict) or type(kind) is not str:
            raise Rejected('a message is a JSON object with a "type"')
        given = data.get("token")
        if type(given) is not str or not hmac.compare_digest(
            given.encode("utf-8", "replace"), token.encode()
        ):
            raise Rejected("this message's token is not this connection's link")
        if kind == "state":
            table.tell(outbox, whole=True)
            return
        if kind == "log":  # the whole game's events, for the page's log (once per load)
            key = ("log", table.id, table.version, seat)
            outbox.reply(await server.shared_results.get(key, table.log, seat))
            return
        if kind == "rematch":  # the next game, or (create false) whether there is one
            create = data.get("create") is True
            outbox.reply(await rematch(server, table, seat, token, client, create))
            return
        if kind not in ("move", "undo", "hint"):
            raise Rejected(f"unknown message type {kind[:30]!r}")
        if seat is None:
            raise Rejected("a spectator only watches")
        if kind == "move":
            ack = {"type": "ack", "decision": data.get("decision")}
            await table.move(seat, data.get("decision"), data.get("move"),
                             lambda: outbox.reply(ack))  # stored: the ack, then the state
        elif kind == "undo":
            await table.undo(seat, data.get("decision"))
            outbox.reply({"type": "ack", "undo": True})
        else:
            asked = data.get("decision")
            key = ("hint", table.id, seat, asked if type(asked) is int else None)
            outbox.reply(await server.shared_results.get(key, table.hint, seat, asked))
    except Rejected as exc:
        log.info("%s: refused %s: %s", who, log_text(kind) if type(kind) is str else "?",
                 log_text(exc))
        outbox.reply(error_reply(str(exc), kind if type(kind) is str else None))
    except TajMahalError as exc:
        log.warning("%s: could not do %s: %s", who, kind, exc)
        outbox.reply(error_reply(f"the server could not do it: {exc}", kind))
    except Exception:
        log.exception("%s: internal error", who)
        outbox.reply(error_reply("internal error (logged on the server)", kind))


async def _send(socket: WebSocket, table: Table, outbox: ConnectionOutbox) -> None:
    """Send the connection's messages in the order they were queued: replies (an ``ack`` as
    soon as the move is stored) and the state messages the table's backlog builds."""
    try:
        while socket.application_state == WebSocketState.CONNECTED:
            item = await outbox.next()
            if outbox.dropped and outbox.queue.empty():  # the page reads again: the state
                outbox.dropped = False
                table.tell(outbox)
            if isinstance(item, str):
                await socket.send_text(item)
            else:
                await socket.send_text(json.dumps(item, separators=(",", ":")))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
