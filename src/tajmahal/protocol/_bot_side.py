"""The bot's side of the protocol, for bot programs written in Python.

:class:`BotConnection` speaks the protocol over any pair of byte streams
(stdin and stdout by default): it answers ``hello``, hands out one
:class:`Request` per decision and sends the move you choose.  :func:`serve`
does the whole loop for any :class:`~tajmahal.Bot`.  A bot program can be as
short as::

    from tajmahal.protocol import BotConnection

    connection = BotConnection(name="first")
    for request in connection.requests():
        connection.answer(request.legal_moves[0])

>>> import io
>>> referee_says = io.BytesIO(
...     b'{"type": "hello", "protocol": "tajmahal-bot", "version": 1, "seat": 0,'
...     b' "num_players": 3, "seed": 9, "time_limit": 1.0}\\n'
...     b'{"type": "request", "decision": 1, "time_limit": 1.0,'
...     b' "legal_moves": ["withdraw"], "view": {}}\\n'
...     b'{"type": "result", "scores": [3, 2, 1], "winners": [0], "ranking": [0, 1, 2]}\\n')
>>> bot_says = io.BytesIO()
>>> connection = BotConnection(name='first', input=referee_says, output=bot_says)
>>> for request in connection.requests():
...     connection.answer(request.legal_texts[0])
>>> print(bot_says.getvalue().decode(), end='')
{"type": "ready", "protocol": "tajmahal-bot", "version": 1, "name": "first", "deterministic": false}
{"type": "move", "decision": 1, "move": "withdraw"}
>>> connection.result
Result(scores=(3, 2, 1), winners=(0,), ranking=(0, 1, 2))
"""

from __future__ import annotations

import functools
import json
import sys
import typing
from collections.abc import Callable, Iterator
from typing import IO, Any

import attrs

from tajmahal.bots.base import Bot
from tajmahal.protocol.messages import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    MessageError,
    parse_line,
    shorten,
)
from tajmahal.rules.moves import Move, move_from_text
from tajmahal.rules.views import PlayerView, deferred_view

__all__ = ["BotConnection", "Hello", "Request", "Result", "serve"]

_MOVE_TYPES = typing.get_args(Move)  # exactly these classes are moves


@attrs.frozen
class Hello:
    """The referee's ``hello``: the bot's seat, the number of players, its seed, its time limit.

    >>> Hello(seat=2, num_players=4, seed=17, time_limit=5.0).seat
    2
    """

    seat: int
    num_players: int
    seed: int
    time_limit: float


@attrs.frozen
class Result:
    """The referee's ``result``: final scores, winners and ranking (seats best first).

    >>> Result(scores=(3, 9, 1), winners=(1,), ranking=(1, 0, 2)).winners
    (1,)
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...]


class Request:
    """One decision: its number, the time limit, the legal moves and the seat's view.

    ``legal_texts`` and ``document`` (the view document as parsed JSON) are
    the message as it came; ``legal_moves`` and ``view`` are the same as
    library objects, built on first use (reading a view checks it fully, which
    takes a few milliseconds).  A trusted request (the isolated runner's) keeps
    its view document as text until ``document`` or the view is first read.

    >>> request = Request(4, 1.0, ('withdraw', 'palace agra'), {})
    >>> request.legal_moves
    (Withdraw(), PlacePalace(city='agra'))
    """

    def __init__(
        self, decision: int, time_limit: float, legal_texts: tuple[str, ...],
        document: dict[str, Any], *, trusted: bool = False,
        known_moves: dict[str, Move] | None = None,
    ) -> None:
        self.decision = decision
        self.time_limit = time_limit
        self.legal_texts = legal_texts
        #: a trusted request's view document stays text until read (see next_request)
        self._document: dict[str, Any] | _ViewText = document
        #: the view document comes from the library's own referee (the isolated runner's
        #: parent): read it as written, without proving it possible (see ``view``)
        self.trusted = trusted
        self._known = known_moves  # text -> move, shared by a connection's requests
        self._moves: tuple[Move, ...] | None = None
        self._view: PlayerView | None = None

    @property
    def document(self) -> dict[str, Any]:
        """The view document as parsed JSON (:class:`MessageError` if it is not JSON).

        >>> Request(1, 1.0, (), {'seat': 0}).document
        {'seat': 0}
        """
        document = self._document
        if isinstance(document, _ViewText):  # a trusted request's, parsed on first use
            document = self._document = document.parse()
        return document

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves as :class:`~tajmahal.Move` values, in the order of ``legal_texts``.

        >>> Request(1, 1.0, ('take white:monk',), {}).legal_moves
        (TakeCard(card=<Card white:monk>),)
        """
        if self._moves is None:
            known = self._known
            if known is None:
                self._moves = tuple(move_from_text(text) for text in self.legal_texts)
            else:  # a move met before is handed over again (it is the bot's own, as in-process)
                if len(known) > _MAX_KNOWN_MOVES:
                    known.clear()
                for text in self.legal_texts:
                    if text not in known:
                        known[text] = move_from_text(text)
                self._moves = tuple([known[text] for text in self.legal_texts])
        return self._moves

    @property
    def view(self) -> PlayerView:
        """The seat's :class:`~tajmahal.PlayerView`, read from ``document``.

        >>> import tajmahal as tm
        >>> view = tm.new_game(num_players=3, seed=1).view(0)
        >>> Request(1, 1.0, (), tm.to_document(view)).view == view
        True
        """
        if self._view is None:
            if self.trusted:  # built when the bot reads it
                self._view = deferred_view(functools.partial(_read_trusted_request, self))
            else:
                self._view = _read_checked(self.document)
        return self._view

    def text_of(self, move: Move) -> str:
        """``str(move)``: the request's own text for one of its legal moves (made once).

        >>> import tajmahal as tm
        >>> Request(1, 1.0, ("withdraw",), {}).text_of(tm.Withdraw())
        'withdraw'
        """
        moves = self._moves
        if moves is not None:
            for legal, text in zip(moves, self.legal_texts, strict=True):
                if legal is move:
                    return text
        return str(move)


_MAX_KNOWN_MOVES = 4096  #: the moves a connection keeps by their text (a game meets far fewer)


class _ViewText:
    """A trusted request's view document, still JSON text (parsed when it is read)."""

    __slots__ = ("text",)

    def __init__(self, text: bytes) -> None:
        self.text = text

    def parse(self) -> dict[str, Any]:
        try:
            document = json.loads(self.text)
        except (ValueError, RecursionError):
            shown = shorten(repr(self.text[:200]))
            raise MessageError(f"the request's view is not JSON: {shown}") from None
        if type(document) is not dict:
            raise MessageError("the request's view is not a view document")
        return document


_VIEW_KEY = b', "view": '  # how request_line joins the view document to the request


def _split_request(line: bytes) -> dict[str, Any] | None:
    """A request line as :func:`~tajmahal.protocol.messages.request_line` writes it, parsed
    but for its view document, which is kept as text (``None``: not such a line)."""
    if not line.startswith(b'{"type": "request"'):
        return None
    cut = line.find(_VIEW_KEY)
    end = line.rstrip(b"\r\n")
    if cut < 0 or not end.endswith(b"}"):
        return None
    try:
        message = parse_line(line[:cut] + b"}")
    except MessageError:
        return None
    if message["type"] != "request" or "view" in message:
        return None
    message["view"] = _ViewText(end[cut + len(_VIEW_KEY) : -1])
    return message


def _read_trusted_request(request: Request) -> PlayerView:
    from tajmahal.serialize.view_trusted import readable_as_written

    document = request.document
    if readable_as_written(document):
        return _read_trusted(document)
    return _read_checked(document)


def _read_trusted(document: dict[str, Any]) -> PlayerView:
    from tajmahal.serialize.view_trusted import NotTrusted, trusted_view

    try:
        return trusted_view(document)
    except NotTrusted:  # not as written after all: read it with every check
        return _read_checked(document)


def _read_checked(document: dict[str, Any]) -> PlayerView:
    from tajmahal.serialize import from_document

    view = from_document(document)
    if not isinstance(view, PlayerView):
        raise MessageError("the request's view is not a view document")
    return view


class BotConnection:
    """The protocol from the bot's side: handshake, requests, answers, the result.

    ``name`` and ``deterministic`` go into the ``ready`` message
    (``deterministic``: the same seed and requests always give the same
    answers — ``tajmahal check-bot`` then checks it).  ``input`` and ``output``
    are binary streams (stdin and stdout by default).  See the module
    docstring for a whole game.

    >>> import io
    >>> connection = BotConnection(name='first', deterministic=True,
    ...                            input=io.BytesIO(), output=io.BytesIO())
    >>> connection.name, connection.hello, connection.result
    ('first', None, None)
    """

    def __init__(
        self,
        name: str | None = None,
        *,
        deterministic: bool = False,
        input: IO[bytes] | None = None,
        output: IO[bytes] | None = None,
        trust_views: bool = False,
    ) -> None:
        self.name = name
        self.deterministic = deterministic
        self.trust_views = trust_views  #: see :attr:`Request.trusted`
        self._known_moves: dict[str, Move] = {}
        self.input = input if input is not None else sys.stdin.buffer
        self.output = output if output is not None else sys.stdout.buffer
        self.hello: Hello | None = None
        self.result: Result | None = None
        self._pending: Request | None = None

    def _send(self, message: dict[str, Any]) -> None:
        self.output.write((json.dumps(message) + "\n").encode("utf-8"))
        self.output.flush()

    def _receive(self) -> dict[str, Any] | None:
        line = self.input.readline()
        if not line:
            return None
        if self.trust_views:  # a request's view is parsed only if the bot reads it
            message = _split_request(line)
            if message is not None:
                return message
        return parse_line(line)

    def handshake(self) -> Hello:
        """Read ``hello`` and answer ``ready`` (once); :class:`MessageError` on a bad ``hello``.

        >>> import io
        >>> connection = BotConnection(input=io.BytesIO(b'{"type": "hello", "version": 2}\\n'),
        ...                            output=io.BytesIO())
        >>> connection.handshake()
        Traceback (most recent call last):
        ...
        tajmahal.protocol.messages.MessageError: the referee speaks protocol version 2; this bot speaks version 1
        """  # noqa: E501
        if self.hello is not None:
            return self.hello
        message = self._receive()
        if message is None or message["type"] != "hello":
            raise MessageError(f"expected 'hello' from the referee, got {shorten(repr(message))}")
        if message.get("version") != PROTOCOL_VERSION:
            raise MessageError(
                f"the referee speaks protocol version {message.get('version')}; "
                f"this bot speaks version {PROTOCOL_VERSION}"
            )
        self.hello = Hello(
            int(message["seat"]), int(message["num_players"]), int(message["seed"]),
            float(message["time_limit"]),
        )
        ready: dict[str, Any] = {"type": "ready", "protocol": PROTOCOL_NAME,
                                 "version": PROTOCOL_VERSION}
        if self.name is not None:
            ready["name"] = self.name
        ready["deterministic"] = self.deterministic
        self._send(ready)
        return self.hello

    def next_request(self) -> Request | None:
        """The next request, or ``None`` once the game is over (``result`` is then set).

        >>> import io
        >>> connection = BotConnection(input=io.BytesIO(b''), output=io.BytesIO())
        >>> connection.hello = Hello(0, 3, 1, 1.0)
        >>> connection.next_request() is None, connection.result
        (True, None)
        """
        self.handshake()
        message = self._receive()
        if message is None:
            return None
        if message["type"] == "result":
            self.result = Result(
                tuple(message["scores"]), tuple(message["winners"]), tuple(message["ranking"])
            )
            return None
        if message["type"] != "request":
            raise MessageError(f"expected 'request' or 'result', got {shorten(message['type'])}")
        view = message["view"]
        request = Request(
            int(message["decision"]), float(message["time_limit"]),
            tuple(message["legal_moves"]), {} if isinstance(view, _ViewText) else view,
            trusted=self.trust_views, known_moves=self._known_moves,
        )
        if isinstance(view, _ViewText):
            request._document = view  # parsed when the bot reads it
        self._pending = request
        return request

    def requests(self) -> Iterator[Request]:
        """Every request until the game ends; answer each before asking for the next.

        >>> import io
        >>> connection = BotConnection(input=io.BytesIO(b''), output=io.BytesIO())
        >>> connection.hello = Hello(0, 3, 1, 1.0)
        >>> list(connection.requests())
        []
        """
        while (request := self.next_request()) is not None:
            yield request

    def answer(self, move: Move | str) -> None:
        """Answer the current request with ``move`` (a move or its text).

        >>> import io, tajmahal as tm
        >>> out = io.BytesIO()
        >>> connection = BotConnection(input=io.BytesIO(), output=out)
        >>> connection._pending = Request(7, 1.0, ('withdraw',), {})
        >>> connection.answer(tm.Withdraw()); out.getvalue()
        b'{"type": "move", "decision": 7, "move": "withdraw"}\\n'
        """
        if self._pending is None:
            raise MessageError("there is no request to answer")
        self._send({"type": "move", "decision": self._pending.decision, "move": str(move)})
        self._pending = None

    def report_error(self, message: str) -> None:
        """Answer the current request with an ``error`` (a fault; the referee plays its fallback).

        >>> import io
        >>> out = io.BytesIO()
        >>> connection = BotConnection(input=io.BytesIO(), output=out)
        >>> connection._pending = Request(7, 1.0, ('withdraw',), {})
        >>> connection.report_error('no idea'); out.getvalue()
        b'{"type": "error", "decision": 7, "message": "no idea"}\\n'
        """
        if self._pending is None:
            raise MessageError("there is no request to answer")
        self._send({"type": "error", "decision": self._pending.decision, "message": message[:2000]})
        self._pending = None


def serve(
    make_bot: Callable[[int], Bot],
    *,
    name: str | None = None,
    deterministic: bool = False,
    input: IO[bytes] | None = None,
    output: IO[bytes] | None = None,
    trust_views: bool = False,
) -> Result | None:
    """Play one game as a bot program: ``make_bot(seed)`` builds the bot after ``hello``.

    An exception in the bot's code becomes an ``error`` answer (a fault;
    the exception is also written to stderr), and the game goes on.  At the
    end the bot's ``close()`` is called, if it has one.
    Returns the ``result`` (``None`` if the input ended without one).
    ``trust_views=True`` reads each view document as written, without
    proving that some state has it (see :attr:`Request.trusted`): for a
    program whose referee is this library (the isolated runner).

    >>> import io, tajmahal as tm
    >>> from tajmahal.protocol.messages import hello_line, request_line
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> legal = [str(move) for move in state.legal_moves()]
    >>> referee_says = io.BytesIO(hello_line(0, 3, 9, 1.0)
    ...                           + request_line(1, 1.0, legal, tm.dumps(state.view(0))))
    >>> out = io.BytesIO()
    >>> serve(lambda seed: tm.bots.create('random', seed=seed), name='random',
    ...       input=referee_says, output=out) is None
    True
    >>> out.getvalue().splitlines()[-1]
    b'{"type": "move", "decision": 1, "move": "play green:vizier+princess"}'
    """
    connection = BotConnection(
        name, deterministic=deterministic, input=input, output=output, trust_views=trust_views
    )
    hello = connection.handshake()
    bot = make_bot(hello.seed)
    try:
        for request in connection.requests():
            try:
                move = bot.choose(request.view, request.legal_moves)
                text = request.text_of(move) if type(move) in _MOVE_TYPES else None
            except BaseException as exc:  # a bot's bug is a fault, not the end of the program
                described = _describe(exc)
                print(described, file=sys.stderr, flush=True)
                connection.report_error(described)
                continue
            if text is None:
                connection.report_error(f"the bot returned a {type(move).__name__}, not a move")
            else:
                connection.answer(text)
    finally:  # a bot that holds processes (ismcts:jobs=2) releases them
        closer = getattr(bot, "close", None)
        if callable(closer):
            try:
                closer()
            except Exception as exc:
                print(f"closing the bot: {_describe(exc)}", file=sys.stderr, flush=True)
    return connection.result


def _describe(exc: BaseException) -> str:
    """``Type: message`` of an exception whose ``__str__`` may fail (bounded)."""
    try:
        return f"{type(exc).__name__}: {exc}"[:500]
    except BaseException:
        return f"{type(exc).__name__} (its message cannot be shown)"
