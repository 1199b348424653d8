"""Every document and protocol message the tests make the library write or accept, checked
against the published JSON Schemas (tajmahal.serialize.schema).

:func:`install` wraps, for the whole test session, what writes and what reads them:
``tm.dumps`` (every document written) and ``tm.loads`` (every document it accepted), the
referee's message writers (``hello``, ``request``, ``result``) and readers (``ready``,
``move``, ``error``: the messages it accepted), and the bot side's
:class:`~tajmahal.protocol._bot_side.BotConnection` (what it sends, and the messages it
accepted). A document the library rejected is not checked: hostile tests send invalid
ones on purpose. Violations are collected; conftest fails the test that produced them.

Validation is by jsonschema (Draft 2020-12), made cheap by checking each top-level
property's value once per distinct value (the documents of one game share most of them).
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import threading
from collections.abc import Callable
from typing import Any

import jsonschema

from tajmahal.serialize import SCHEMA_NAMES, schema

#: the violations found since the last :func:`take_violations`
_violations: list[str] = []
_lock = threading.Lock()
_MAX_CACHED = 100_000


_ANNOTATIONS = {"description", "title", "default"}


def _inline(node: Any, defs: dict[str, Any], documents: dict[str, Any]) -> Any:
    """``node`` with every ``$ref`` replaced by what it names (the schemas have no cycles)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            rest = {k: v for k, v in node.items() if k != "$ref"}
            name = ref.rsplit("/", 1)[1] if "#/$defs/" in ref else ref.removesuffix(".json")
            inlined = _inline(defs[name] if "#/$defs/" in ref else documents[name], defs, documents)
            if rest.keys() <= _ANNOTATIONS:
                return {**inlined, **rest}
            return {"allOf": [inlined, _inline(rest, defs, documents)]}
        return {k: _inline(v, defs, documents) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs, documents) for v in node]
    return node


Validator = jsonschema.Draft202012Validator


class _Node:
    """One schema, checked in parts: an object's properties and an array's items each by their
    own node, and each distinct valid value of a part remembered, so that it is validated once
    (the documents of one game share most of their parts)."""

    def __init__(self, node: dict[str, Any]) -> None:
        self.properties: dict[str, _Node] = {}
        self.items: _Node | None = None
        shallow = dict(node)
        if isinstance(node.get("properties"), dict):
            self.properties = {k: _Node(sub) for k, sub in node["properties"].items()}
            shallow["properties"] = {name: True for name in self.properties}
        if isinstance(node.get("items"), dict) and "prefixItems" not in node:
            self.items = _Node(node["items"])
            del shallow["items"]
        self.validator = Validator(shallow)
        self.valid: set[str] = set()

    def errors(self, instance: Any, path: str, skip: tuple[str, ...] = ()) -> list[str]:
        key = json.dumps(instance, sort_keys=True)
        if key in self.valid:
            return []
        found = [
            f"{path}{_path(e)}: {e.message[:200]}" for e in self.validator.iter_errors(instance)
        ]
        if isinstance(instance, dict):
            for name, value in instance.items():
                child = self.properties.get(name)
                if child is not None and name not in skip:
                    found += child.errors(value, f"{path}.{name}")
        elif isinstance(instance, list) and self.items is not None:
            for i, value in enumerate(instance):
                found += self.items.errors(value, f"{path}[{i}]")
        if not found and not skip:
            if len(self.valid) > _MAX_CACHED:
                self.valid.clear()
            self.valid.add(key)
        return found


def _path(error: jsonschema.ValidationError) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)


@functools.cache
def _nodes() -> dict[str, _Node]:
    defs = schema("definitions")["$defs"]
    documents = {name: schema(name) for name in SCHEMA_NAMES}
    return {
        name: _Node(_inline(documents[name], defs, documents))
        for name in SCHEMA_NAMES
        if name != "definitions"
    }


def violations_of(name: str, document: Any, skip: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with ``document`` as a ``name`` document or message (empty: it conforms);
    the values of the top-level properties ``skip`` are not looked at (only that they exist)."""
    return _nodes()[name].errors(document, "$", skip)


#: how many documents and messages were checked, by schema name (the session's summary)
checked: collections.Counter[str] = collections.Counter()


def check(name: str, document: Any, what: str, skip: tuple[str, ...] = ()) -> None:
    """Record ``document``'s violations of schema ``name`` (``what``: who wrote or read it)."""
    checked[name] += 1
    if name not in _nodes():
        _record(f"{what}: no schema {name!r} for {json.dumps(document)[:300]}")
        return
    problems = violations_of(name, document, skip)
    if problems:
        _record(f"{what}: {'; '.join(problems[:5])} in {json.dumps(document)[:300]}")


def _record(violation: str) -> None:
    _valid_texts.clear()  # forget the text just taken for valid (rare: only on a violation)
    with _lock:
        _violations.append(violation)


def take_violations() -> list[str]:
    """The violations recorded since the last call (and forget them)."""
    with _lock:
        found = list(_violations)
        _violations.clear()
    return found


def _kind(document: Any) -> str | None:
    fmt = document.get("format") if isinstance(document, dict) else None
    kind = fmt.removeprefix("tajmahal/") if isinstance(fmt, str) else None
    return kind if kind in ("state", "view", "move", "record") else None


def _message(line: bytes) -> Any:
    return json.loads(line.decode("utf-8"))


def _wrap_writer(original: Callable[..., bytes], name: str) -> Callable[..., bytes]:
    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> bytes:
        line = original(*args, **kwargs)
        # a request's view is the text of tm.dumps (checked there), embedded as it is
        skip = ("view",) if name == "message-request" else ()
        check(name, _message(line), f"the referee wrote a {name}", skip)
        return line

    return wrapper


def _wrap_ready(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(message: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        ready = original(message, *args, **kwargs)
        check("message-ready", message, "the referee accepted a ready")
        return ready

    return wrapper


def _wrap_read_move(original: Callable[..., str], reported: type[Exception]) -> Callable[..., str]:
    @functools.wraps(original)
    def wrapper(message: dict[str, Any], *args: Any, **kwargs: Any) -> str:
        try:
            move = original(message, *args, **kwargs)
        except reported:  # a well-formed error answer
            check("message-error", message, "the referee accepted an error")
            raise
        check("message-move", message, "the referee accepted a move")
        return move

    return wrapper


#: digests of the document texts found valid (most texts are written, then read back)
_valid_texts: set[bytes] = set()


def _known_valid(text: str | bytes) -> bool:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    digest = hashlib.blake2b(data, digest_size=16).digest()
    if digest in _valid_texts:
        return True
    if len(_valid_texts) > _MAX_CACHED:
        _valid_texts.clear()
    _valid_texts.add(digest)  # taken back below if the document breaks its schema
    return False


def _check_text(text: str | bytes, verb: str) -> None:
    """Check a document the library wrote or accepted (``verb`` says which), once per text."""
    if _known_valid(text):
        checked["(documents met before)"] += 1
        return
    document = json.loads(text)
    kind = _kind(document)
    if kind is None:
        _record(f"{verb} a document of no known kind: {str(text)[:300]}")
    else:
        check(kind, document, f"{verb} a {kind}")


def _wrap_dumps(original: Callable[..., str]) -> Callable[..., str]:
    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> str:
        text = original(*args, **kwargs)
        _check_text(text, "tm.dumps wrote")
        return text

    return wrapper


def _wrap_loads(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def wrapper(text: str | bytes, *args: Any, **kwargs: Any) -> Any:
        obj = original(text, *args, **kwargs)
        _check_text(text, "tm.loads accepted")
        return obj

    return wrapper


def _install_bot_side() -> None:
    from tajmahal.protocol import _bot_side as bot_side

    connection = bot_side.BotConnection
    send, receive = connection._send, connection._receive
    handshake, next_request = connection.handshake, connection.next_request

    def checked_send(self: Any, message: dict[str, Any]) -> None:
        check(f"message-{message.get('type')}", message, "the bot side sent a message")
        send(self, message)

    def remembering_receive(self: Any) -> dict[str, Any] | None:
        message = receive(self)
        # a trusted request keeps its view as text until it is read (checked then, below)
        unread = isinstance(message, dict) and isinstance(message.get("view"), bot_side._ViewText)
        self._schema_check_last = {**message, "view": {}} if unread else message
        return message

    def checked_handshake(self: Any) -> Any:
        new = self.hello is None
        hello = handshake(self)
        if new:
            check("message-hello", self._schema_check_last, "the bot side accepted a hello")
        return hello

    def checked_next_request(self: Any) -> Any:
        request = next_request(self)
        last = getattr(self, "_schema_check_last", None)
        if request is not None:  # its view is checked when read (below, and by tm.loads)
            check("message-request", last, "the bot side accepted a request", skip=("view",))
        elif self.result is not None and last is not None:
            check("message-result", last, "the bot side accepted a result")
        return request

    read_trusted = bot_side._read_trusted  # a view read as written (tm.loads checks the rest)

    def checked_read_trusted(document: dict[str, Any]) -> Any:
        view = read_trusted(document)
        check("view", document, "the bot side accepted a request's view")
        return view

    bot_side._read_trusted = checked_read_trusted
    connection._send = checked_send  # type: ignore[method-assign]
    connection._receive = remembering_receive  # type: ignore[method-assign]
    connection.handshake = checked_handshake  # type: ignore[method-assign]
    connection.next_request = checked_next_request  # type: ignore[method-assign]


def _replace(original: object, wrapper: object) -> None:
    """Put ``wrapper`` wherever a loaded tajmahal module holds ``original``."""
    import sys

    for name, module in list(sys.modules.items()):
        if name == "tajmahal" or name.startswith("tajmahal."):
            for attribute, value in list(vars(module).items()):
                if value is original:
                    setattr(module, attribute, wrapper)


def installed() -> bool:
    """Whether the check is in place (no test or plugin has put the originals back)."""
    import tajmahal
    import tajmahal.serialize
    from tajmahal.protocol import messages

    wrapped = (tajmahal.dumps, tajmahal.loads, tajmahal.serialize.dumps, tajmahal.serialize.loads,
               messages.hello_line, messages.request_line, messages.read_move)  # fmt: skip
    return all(getattr(f, "__wrapped__", None) is not None for f in wrapped)


def install() -> None:
    """Check every document and message from now on (once per session)."""
    import tajmahal.serialize
    from tajmahal.protocol import messages

    if getattr(tajmahal.serialize.dumps, "__wrapped__", None) is not None:
        return
    for name in ("hello", "request", "result"):
        writer = getattr(messages, f"{name}_line")
        _replace(writer, _wrap_writer(writer, f"message-{name}"))
    _replace(messages.read_ready, _wrap_ready(messages.read_ready))
    _replace(messages.read_move, _wrap_read_move(messages.read_move, messages.BotReportedError))
    _replace(tajmahal.serialize.dumps, _wrap_dumps(tajmahal.serialize.dumps))
    _replace(tajmahal.serialize.loads, _wrap_loads(tajmahal.serialize.loads))
    _install_bot_side()
