"""The messages of the bot protocol, as both sides write and read them (see ``docs/protocol.md``).

Every message is one JSON object on one line of UTF-8, ended by ``\\n``.
The referee writes ``hello``, ``request`` and ``result``; the bot answers
``hello`` with ``ready`` and each ``request`` with ``move`` (or ``error``).
Readers ignore keys they do not know, so that later versions can add some.

>>> hello_line(seat=1, num_players=3, seed=7, time_limit=2.5)
b'{"type": "hello", "protocol": "tajmahal-bot", "version": 1, "seat": 1, "num_players": 3, "seed": 7, "time_limit": 2.5}\\n'
>>> read_move(parse_line(b'{"type": "move", "move": "withdraw"}\\n'), decision=4)
'withdraw'
"""  # noqa: E501

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from json.encoder import encode_basestring
from typing import Any

import attrs

from tajmahal.rules.errors import TajMahalError

__all__ = [
    "MAX_LINE_BYTES",
    "MAX_NAME_LENGTH",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "MessageError",
    "Ready",
    "hello_line",
    "parse_line",
    "read_move",
    "read_ready",
    "request_line",
    "result_line",
    "shorten",
]

PROTOCOL_NAME = "tajmahal-bot"
PROTOCOL_VERSION = 1
#: the longest line a bot may write, newline included; a longer one is a protocol fault
MAX_LINE_BYTES = 64 * 1024
MAX_NAME_LENGTH = 64


class MessageError(TajMahalError, ValueError):
    """A line that is not the message the protocol expects at that point.

    >>> parse_line(b'hello?\\n')
    Traceback (most recent call last):
    ...
    tajmahal.protocol.messages.MessageError: not JSON: 'hello?'
    """


@attrs.frozen
class Ready:
    """What a bot says of itself in its ``ready`` message.

    >>> read_ready(parse_line(b'{"type": "ready", "version": 1, "name": "first"}'))
    Ready(name='first', deterministic=False)
    """

    name: str | None
    deterministic: bool


def shorten(text: str, limit: int = 120) -> str:
    """``text`` with control characters escaped, cut to about ``limit`` characters.

    >>> shorten('abc\\x00' + 'x' * 200, limit=10)
    "'abc\\\\x00xxx...' (204 characters)"
    """
    shown = repr(text[: limit + 1])
    if len(text) <= limit:
        return shown
    return f"{shown[: limit + 1]}...{shown[0]} ({len(text)} characters)"


def _dump(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def hello_line(seat: int, num_players: int, seed: int, time_limit: float) -> bytes:
    """The referee's first message: who the bot is in this game, and how long it may think.

    >>> hello_line(0, 4, 12, 5.0)[:50]
    b'{"type": "hello", "protocol": "tajmahal-bot", "ver'
    """
    return _dump(
        {
            "type": "hello",
            "protocol": PROTOCOL_NAME,
            "version": PROTOCOL_VERSION,
            "seat": seat,
            "num_players": num_players,
            "seed": seed,
            "time_limit": time_limit,
        }
    )


def request_line(
    decision: int, time_limit: float, legal_moves: Sequence[str], view_document: str
) -> bytes:
    """A decision request: the decision's number, the legal moves' texts, the view document.

    ``view_document`` is ``tm.dumps(view)``, embedded as it is (an object, not a string).

    >>> request_line(3, 1.0, ['withdraw'], '{"format": "tajmahal/view"}')
    b'{"type": "request", "decision": 3, "time_limit": 1.0, "legal_moves": ["withdraw"], "view": {"format": "tajmahal/view"}}\\n'
    """  # noqa: E501
    if type(decision) is int and type(time_limit) is float and math.isfinite(time_limit):
        # written directly (once per decision): the text json.dumps gives these values
        moves = ", ".join(map(encode_basestring, legal_moves))
        head = (
            f'{{"type": "request", "decision": {decision!r}, "time_limit": {time_limit!r}, '
            f'"legal_moves": [{moves}]}}'
        )
    else:
        head = json.dumps(
            {
                "type": "request",
                "decision": decision,
                "time_limit": time_limit,
                "legal_moves": list(legal_moves),
            },
            ensure_ascii=False,
        )
    return f'{head[:-1]}, "view": {view_document}}}\n'.encode()


def result_line(
    scores: Sequence[int], winners: Sequence[int], ranking: Sequence[int]
) -> bytes:
    """The referee's last message: the final scores, the winners and the ranking.

    >>> result_line([30, 41, 12], [1], [1, 0, 2])
    b'{"type": "result", "scores": [30, 41, 12], "winners": [1], "ranking": [1, 0, 2]}\\n'
    """
    return _dump(
        {
            "type": "result",
            "scores": list(scores),
            "winners": list(winners),
            "ranking": list(ranking),
        }
    )


def parse_line(line: bytes) -> dict[str, Any]:
    """One line as a message: a JSON object with a string ``type``; :class:`MessageError` if not.

    >>> parse_line(b'{"type": "move", "move": "withdraw"}\\r\\n')['move']
    'withdraw'
    >>> parse_line(b'[1, 2]')
    Traceback (most recent call last):
    ...
    tajmahal.protocol.messages.MessageError: not a JSON object with a "type": '[1, 2]'
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise MessageError(f"not UTF-8: {shorten(repr(line[:200]))}") from None
    text = text.rstrip("\r\n")
    try:
        message = json.loads(text)
    except RecursionError:
        raise MessageError(f"JSON nested too deeply: {shorten(text)}") from None
    except ValueError:
        raise MessageError(f"not JSON: {shorten(text)}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise MessageError(f'not a JSON object with a "type": {shorten(text)}')
    return message


def _expect_type(message: dict[str, Any], *types: str) -> None:
    if message["type"] not in types:
        wanted = " or ".join(repr(t) for t in types)
        raise MessageError(f"expected a {wanted} message, got type {shorten(message['type'])}")


def read_ready(message: dict[str, Any]) -> Ready:
    """The bot's answer to ``hello``; checks the type, the version, ``name`` and ``deterministic``.

    >>> read_ready({'type': 'ready', 'version': 2})
    Traceback (most recent call last):
    ...
    tajmahal.protocol.messages.MessageError: the bot speaks protocol version 2; this referee speaks version 1
    """  # noqa: E501
    _expect_type(message, "ready")
    version = message.get("version")
    if version != PROTOCOL_VERSION or isinstance(version, bool):
        raise MessageError(
            f"the bot speaks protocol version {json.dumps(version)[:40]}; "
            f"this referee speaks version {PROTOCOL_VERSION}"
        )
    name = message.get("name")
    if name is not None and not (
        isinstance(name, str) and 0 < len(name) <= MAX_NAME_LENGTH and name.isprintable()
    ):
        raise MessageError(
            f'"name" must be a printable string of 1 to {MAX_NAME_LENGTH} characters, got '
            f"{json.dumps(name)[:60]}"
        )
    deterministic = message.get("deterministic", False)
    if not isinstance(deterministic, bool):
        shown = json.dumps(deterministic)[:40]
        raise MessageError(f'"deterministic" must be true or false, got {shown}')
    return Ready(name, deterministic)


def read_move(message: dict[str, Any], decision: int) -> str:
    """The move text of a ``move`` message answering request ``decision``.

    An ``error`` message (the bot cannot choose) raises :class:`BotReportedError`.

    >>> read_move({'type': 'move', 'decision': 5, 'move': 'withdraw'}, decision=6)
    Traceback (most recent call last):
    ...
    tajmahal.protocol.messages.MessageError: the answer is for decision 5, not for decision 6
    """
    _expect_type(message, "move", "error")
    if message["type"] == "error":
        text = message.get("message")
        raise BotReportedError(text if isinstance(text, str) else json.dumps(text))
    if "decision" in message and message["decision"] != decision:
        raise MessageError(
            f"the answer is for decision {json.dumps(message['decision'])[:40]}, "
            f"not for decision {decision}"
        )
    move = message.get("move")
    if not isinstance(move, str):
        raise MessageError(f'"move" must be a string, got {json.dumps(move)[:60]}')
    return move


class BotReportedError(MessageError):
    """A bot's ``error`` answer: it could not choose a move (its message is the text).

    >>> read_move({'type': 'error', 'message': 'ValueError: no idea'}, decision=1)
    Traceback (most recent call last):
    ...
    tajmahal.protocol.messages.BotReportedError: ValueError: no idea
    """
