"""From text or data to an object: strict JSON, the document's format and version, its reader."""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from tajmahal.game import GameRecord
from tajmahal.rules.errors import FormatError
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState
from tajmahal.rules.validate import Path, format_path
from tajmahal.rules.views import PlayerView
from tajmahal.serialize._converter import Failed, converter, json_type, problems_in, show
from tajmahal.serialize._documents import (
    KINDS,
    PREFIX,
    READABLE,
    MoveDoc,
    RecordDoc,
    StateDoc,
    ViewDoc,
)
from tajmahal.serialize._reader import read_move, read_record, read_state
from tajmahal.serialize._view_reader import read_view

_MAX_LISTED = 8
#: the deepest nesting of a document given as data (no document nests deeper than about 6)
MAX_DEPTH = 200
#: the most values (keys, items) in a document given as data, each shared one counted each
#: time: far above any document's (records and embedded components are bounded far lower)
MAX_VALUES = 1_000_000
#: a FormatError's message is at most about _MAX_LISTED times this long
MAX_PROBLEM_LINE = 240

Obj = GameState | PlayerView | Move | GameRecord
#: kind -> (document class, reader)
_READERS: dict[str, tuple[type[Any], Callable[[Any], Obj]]] = {
    "state": (StateDoc, read_state),
    "view": (ViewDoc, read_view),
    "move": (MoveDoc, read_move),
    "record": (RecordDoc, read_record),
}


def message(what: str, problems: Sequence[tuple[Path, str]]) -> str:
    """The text of a FormatError: the first problems (each once), and how many more.

    >>> message("the move document", [(("move",), "expected a string"), ((), "too long")])
    'cannot read the move document: $.move: expected a string; $: too long'
    """
    lines = list(dict.fromkeys(_cut(f"{format_path(p)}: {m}") for p, m in problems))
    listed = "; ".join(lines[:_MAX_LISTED])
    if len(lines) > _MAX_LISTED:
        listed += f"; and {len(lines) - _MAX_LISTED} more"
    return f"cannot read {what}: {listed}"


def _cut(line: str) -> str:
    """One problem's line, at most MAX_PROBLEM_LINE characters (so a message stays short)."""
    return line if len(line) <= MAX_PROBLEM_LINE else line[: MAX_PROBLEM_LINE - 3] + "..."


def read(text: Any) -> Obj:
    """The object a document's text holds; FormatError or Failed for a bad document."""
    return _read_data(_parse(text))


def read_data(data: Any) -> Obj:
    """The object a document's data holds (as ``json.loads`` gives it); as :func:`read`."""
    check_json(data)
    return _read_data(data)


def _read_data(data: Any) -> Obj:
    if type(data) is not dict:
        raise Failed([((), f"expected an object, got {json_type(data)}")])
    kind = _kind(data)
    doc_type, reader = _READERS[kind]
    what = f"the {kind} document"
    try:
        doc = converter.structure(data, doc_type)
    except Exception as exc:  # turned into paths, or re-raised by problems_in
        raise FormatError(message(what, problems_in(exc))) from None
    try:
        return reader(doc)
    except Failed as failed:
        raise FormatError(message(what, failed.problems)) from None


def check_json(data: Any) -> None:
    """Failed or FormatError unless ``data`` is a value that JSON text can give.

    That is: dicts with string keys, lists, strings, booleans, ``None``, finite floats and
    integers of at most ``sys.get_int_max_str_digits()`` digits, exactly of those types,
    nested at most MAX_DEPTH deep and holding at most MAX_VALUES values.

    >>> check_json({"a": [1, 2.5, None, True, "x"]})
    >>> check_json({"a": [1, (2, 3)]})
    Traceback (most recent call last):
    ...
    tajmahal.serialize._converter.Failed: 1 problem(s)
    """
    count = 0
    stack: list[tuple[dict[Any, Any] | list[Any], Path]] = []
    if type(data) in (dict, list):
        stack.append((data, ()))
    else:
        _check_leaf(data, ())
    while stack:
        container, path = stack.pop()
        if len(path) >= MAX_DEPTH:  # also ends a container that holds itself
            raise FormatError("cannot read the document: it is nested too deeply")
        count += len(container)
        if count > MAX_VALUES:
            raise FormatError(f"cannot read the document: it holds more than {MAX_VALUES} values")
        if type(container) is dict:
            for key in container:
                if type(key) is not str:
                    raise Failed([(path, f"not JSON: key {show(key)} is not a string")])
            items: Any = container.items()
        else:
            items = enumerate(container)
        for step, value in items:
            kind = type(value)
            if kind is dict or kind is list:
                stack.append((value, (*path, step)))
            elif kind is not str:
                _check_leaf(value, (*path, step))


def _check_leaf(value: Any, path: Path) -> None:
    kind = type(value)
    if kind is int:
        limit = sys.get_int_max_str_digits()
        if limit and value.bit_length() > 3 * limit and abs(value) >= _power_of_ten(limit):
            raise Failed([(path, f"not JSON: an integer of more than {limit} digits")])
    elif kind is float:
        if not math.isfinite(value):
            raise Failed([(path, f"not JSON: {value!r} is not a number JSON allows")])
    elif kind is not str and kind is not bool and value is not None:
        raise Failed([(path, f"not JSON: {kind.__name__} is not a JSON type")])


@functools.lru_cache(maxsize=2)
def _power_of_ten(digits: int) -> int:
    power: int = 10**digits
    return power


def _no_constant(name: str) -> Any:
    raise Failed([((), f"not JSON: {name} is not a number JSON allows")])


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Failed([((), f"number {text[:20]} is out of range")])
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise Failed([((), f"key {twice!r} appears twice in one object")])
    return out


def _parse(text: Any) -> Any:
    if not isinstance(text, (str, bytes, bytearray)):
        raise FormatError(
            f"cannot read the document: expected JSON text, got {type(text).__name__}"
        )
    if not text.strip():
        raise FormatError("cannot read the document: it is empty")
    try:
        return json.loads(
            text,
            object_pairs_hook=_object,
            parse_constant=_no_constant,
            parse_float=_float,
        )
    except Failed:
        raise
    except ValueError as exc:  # JSONDecodeError, bad UTF-8 in bytes
        raise FormatError(f"cannot read the document: not JSON: {exc}") from None


def _kind(data: dict[str, Any]) -> str:
    fmt, version = data.get("format"), data.get("version")
    kinds = ", ".join(PREFIX + k for k in KINDS)
    if "format" not in data:
        raise Failed([(("format",), f"required key missing (one of {kinds})")])
    if type(fmt) is not str or not fmt.startswith(PREFIX) or fmt[len(PREFIX) :] not in KINDS:
        raise Failed([(("format",), f"unknown format {show(fmt)}; allowed: {kinds}")])
    if "version" not in data:
        raise Failed([(("version",), "required key missing")])
    if type(version) is not int:
        raise Failed([(("version",), f"expected an integer, got {json_type(version)}")])
    kind = fmt[len(PREFIX) :]
    readable = READABLE[kind]
    shown = " and ".join(str(v) for v in readable)
    if version > max(readable):
        raise Failed(
            [(("version",), f"version {version} is newer than this library reads ({shown})")]
        )
    if version not in readable:
        raise Failed([(("version",), f"unknown version {version}; this library reads {shown}")])
    return kind
