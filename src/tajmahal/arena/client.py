"""``tajmahal bot connect``: a bot on this machine plays in a server's arena as one account.

The bot is any player spec (an installed bot, ``file:``, ``cmd:``): it runs
here, in this process (or its own program), and only its answers travel.  The
connection carries the token in the ``Authorization`` header, says how many
games it takes at once and how many it still wants, plays each game's
decisions as they come (each in a thread, so several games go on at once),
and reconnects with backoff (0.5 s, doubling to :data:`MAX_BACKOFF`) whenever
the server restarts or the network drops; the server resends what it is
waiting for.  It returns once the number of games asked for is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import stat
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tajmahal.arena.accounts import TOKEN_PREFIX, ArenaError
from tajmahal.bots.specs import PlayerSpec
from tajmahal.protocol import ProcessSeat, Request
from tajmahal.protocol.messages import PROTOCOL_VERSION
from tajmahal.referee.seats import InProcessSeat
from tajmahal.seat_contract import Answer, SeatPlayer

__all__ = ["BOT_PATH", "MAX_BACKOFF", "arena_url", "play_in_arena", "read_token_file"]

BOT_PATH = "/api/arena/bot"  #: the server's endpoint for remote bots
MAX_BACKOFF = 8.0  #: the longest wait between two attempts to connect
MARGIN = 0.25  #: seconds of a decision's time kept for the network
_FINAL_CODES = {4401: "the server does not know this token", 4400: "the server refused the "
                "handshake"}  # fmt: skip


def arena_url(url: str) -> str:
    """The WebSocket address of a server's bot endpoint, from the server's address.

    >>> arena_url('http://localhost:8000'), arena_url('https://arena.example/')
    ('ws://localhost:8000/api/arena/bot', 'wss://arena.example/api/arena/bot')
    """
    parts = urllib.parse.urlsplit(url.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise ArenaError(f"a server's address is http://HOST:PORT or https://HOST, got {url!r}")
    path = parts.path.rstrip("/")
    if not path.endswith(BOT_PATH):
        path += BOT_PATH
    return urllib.parse.urlunsplit((scheme, parts.netloc, path, "", ""))


def read_token_file(path: str | os.PathLike[str]) -> str:
    """The bot token kept in ``path`` (a file readable by its owner only, ideally)."""
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ArenaError(f"cannot read the token file {path}: {exc}") from None
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100 or not token.isascii():
        raise ArenaError(f"{path} does not hold a bot token (one starts with {TOKEN_PREFIX!r})")
    return token


def _private(path: str | os.PathLike[str]) -> bool:
    try:
        return not Path(path).stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO)
    except OSError:
        return True


class _Games:
    """The seats this connection plays, built when a game's ``hello`` comes."""

    def __init__(self, spec: PlayerSpec) -> None:
        self.spec = spec
        self.seats: dict[tuple[str, int], asyncio.Task[SeatPlayer]] = {}

    def build(self, hello: dict[str, Any]) -> None:
        key = (str(hello["game"]), int(hello["seat"]))
        if key not in self.seats:
            self.seats[key] = asyncio.get_running_loop().create_task(
                asyncio.to_thread(self._build, hello)
            )

    def _build(self, hello: dict[str, Any]) -> SeatPlayer:
        limit = max(0.1, float(hello["time_limit"]) - MARGIN)
        if self.spec.is_command:
            return ProcessSeat.build(self.spec, seat=int(hello["seat"]),
                                     num_players=int(hello["num_players"]),
                                     seed=int(hello["seed"]), time_limit=limit)  # fmt: skip
        return InProcessSeat.build(self.spec, seed=int(hello["seed"]), limit=limit)

    async def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        key = (str(request["game"]), int(request["seat"]))
        decision = int(request["decision"])
        reply = {"type": "move", "game": key[0], "seat": key[1], "decision": decision}
        task = self.seats.get(key)
        if task is None:
            return {**reply, "type": "error", "message": "no hello for this game"}
        seat = await task
        limit = max(0.05, float(request["time_limit"]) - MARGIN)
        asked = Request(decision, limit, tuple(request["legal_moves"]), request["view"])

        def choose() -> Answer:
            return seat.choose(asked.view, asked.legal_moves, limit, decision)

        answer = await asyncio.to_thread(choose)
        if answer.index is None:
            return {**reply, "type": "error", "message": f"{answer.kind}: {answer.detail}"[:300]}
        return {**reply, "move": asked.legal_texts[answer.index]}

    async def close(self, key: tuple[str, int]) -> None:
        task = self.seats.pop(key, None)
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread((await task).close)


async def play_in_arena(
    url: str, token: str, spec: PlayerSpec, games: int, concurrency: int = 1,
    say: Callable[[str], None] = print,
) -> int:  # fmt: skip
    """Play ``games`` games in the arena at ``url`` as the token's account; the games played.

    :class:`~tajmahal.arena.ArenaError` if the server refuses the token (no retry).
    """
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

    address = arena_url(url)
    played = 0
    backoff = 0.5
    seen: set[str] = set()
    playing: set[str] = set()  # the games whose result has not come
    local = _Games(spec)
    while played < games:
        reason = ""
        try:
            async with connect(address, additional_headers={"Authorization": f"Bearer {token}"},
                               max_size=2**22, open_timeout=10, ping_interval=20,
                               ping_timeout=20) as socket:  # fmt: skip
                await socket.send(json.dumps({
                    "type": "ready", "version": PROTOCOL_VERSION, "name": spec.text[:64],
                    "concurrency": concurrency, "games": games - played,
                    "playing": sorted(playing)[:64],  # their results, if lost, come again
                }))  # fmt: skip
                tasks: set[asyncio.Task[None]] = set()

                async def reply(request: dict[str, Any], socket: Any = socket) -> None:
                    try:
                        answer = await local.answer(request)
                    except Exception as exc:  # a request this bot cannot read: said so
                        say(f"cannot answer a request: {type(exc).__name__}: {str(exc)[:200]}")
                        answer = {"type": "error", "game": request.get("game"),
                                  "seat": request.get("seat"),
                                  "message": f"{type(exc).__name__}: {str(exc)[:200]}"}
                    with contextlib.suppress(ConnectionClosed):
                        await socket.send(json.dumps(answer))

                async for text in socket:
                    message = json.loads(text)
                    kind = message.get("type")
                    if kind == "welcome":
                        backoff = 0.5
                        say(f"connected to {address} as {message.get('bot')} "
                            f"({concurrency} games at once, {games - played} to play)")
                    elif kind == "hello":
                        local.build(message)
                        playing.add(str(message["game"]))
                        if message["game"] not in seen:
                            seen.add(message["game"])
                            say(f"game {message['game']}: seat {message['seat'] + 1} of "
                                f"{message['num_players']}")
                    elif kind == "request":
                        task = asyncio.get_running_loop().create_task(reply(message))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                    elif kind == "result":
                        if str(message.get("game")) not in playing and message.get("game") in seen:
                            continue  # a result sent again that arrived already
                        playing.discard(str(message.get("game")))
                        await local.close((str(message.get("game")), int(message.get("seat", 0))))
                        played += 1  # (the server sends as many results as it was asked)
                        say(_result_line(message, played, games))
                        if played >= games:
                            break
                    elif kind == "error":
                        say(f"the server says: {str(message.get('message'))[:300]}")
                if played >= games:
                    return played
                reason = f"closed ({socket.close_code}: {socket.close_reason or 'no reason'})"
                if socket.close_code in _FINAL_CODES:
                    raise ArenaError(f"{_FINAL_CODES[socket.close_code]}: "
                                     f"{socket.close_reason}")  # fmt: skip
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code in _FINAL_CODES:
                raise ArenaError(f"{_FINAL_CODES[code]}: {exc.rcvd.reason if exc.rcvd else ''}"
                                 ) from None  # fmt: skip
            reason = f"connection lost ({code})"
        except InvalidStatus as exc:
            status = exc.response.status_code
            if status in (401, 403, 404):
                raise ArenaError(f"the server refused the connection (HTTP {status}): is it "
                                 "running with --arena, and is the address right?") from None
            reason = f"HTTP {status}"
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            reason = f"{type(exc).__name__}: {str(exc)[:200]}"
        wait = backoff * random.uniform(0.8, 1.2)
        say(f"disconnected: {reason}; connecting again in {wait:.1f} s")
        await asyncio.sleep(wait)
        backoff = min(MAX_BACKOFF, backoff * 2)
    return played


def _result_line(message: dict[str, Any], played: int, games: int) -> str:
    line = f"game {message.get('game')} over: scores {message.get('scores')}"
    if message.get("rated"):
        line += (f", rank {message.get('rank')}; rating now {message.get('mu', 0):.2f} "
                 f"± {message.get('sigma', 0):.2f}")  # fmt: skip
    return f"{line} ({played}/{games})"


def warn_if_shared(path: str | os.PathLike[str], say: Callable[[str], None]) -> None:
    """Say so when a token file can be read by other users."""
    if not _private(path):
        say(f"warning: {path} can be read by other users (chmod 600 {path})")
