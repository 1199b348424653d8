"""Describing objects that untrusted code made, without running any of their methods.

A bot's exception or return value may have a ``__str__``, ``__repr__`` or
``__eq__`` that raises, stalls or returns a 20 MB text.  These helpers read
only what the interpreter itself stores (the type's name, the characters of a
``str``) and bound the size of everything they return.  Calling ``str()`` on
a bot's exception is still bot code: :func:`exception_text` does it, so call
it only where a time limit bounds it (the referee calls it in the thread
that runs the bot's call, within the call's time).
"""

from __future__ import annotations

import traceback as _traceback
from types import TracebackType
from typing import Any

__all__ = ["bounded", "exception_text", "plain_text", "traceback_text", "type_name"]

_TYPE_NAME = type.__dict__["__name__"]  # the C getter: no metaclass property can intercept it
_TRACEBACK = BaseException.__dict__["__traceback__"]
TRACEBACK_FRAMES = 12


def bounded(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, saying how much was cut.

    >>> bounded('x' * 30, 20)
    'xxxxxx... (30 chars)'
    >>> bounded('short', 20)
    'short'
    """
    if len(text) <= limit:
        return text
    note = f"... ({len(text)} chars)"
    return text[: max(0, limit - len(note))] + note


def plain_text(value: Any, limit: int) -> str | None:
    """A plain ``str`` copy of at most ``limit`` characters if ``value`` is a string, else None.

    A ``str`` subclass is copied character by character by ``str`` itself, so
    none of its methods run.

    >>> class Loud(str):
    ...     def __str__(self): raise RuntimeError('no')
    >>> text = plain_text(Loud('hello'), 3)
    >>> text, type(text).__name__, plain_text(42, 3)
    ('hel', 'str', None)
    """
    if not issubclass(type(value), str):
        return None
    return str.__getitem__(value, slice(0, limit))


def type_name(value: Any) -> str:
    """The name of ``value``'s type, read without running any of its code.

    >>> type_name(3), type_name(ValueError('x'))
    ('int', 'ValueError')
    """
    name = plain_text(_TYPE_NAME.__get__(type(value), type), 100)
    return name if name else "?"


def exception_text(exc: BaseException, limit: int) -> str:
    """``"TypeName: message"`` of at most ``limit`` characters; never raises.

    Runs the exception's ``__str__`` (bot code: call it under a time limit).

    >>> exception_text(ValueError('bad value ' * 100), 40)
    'ValueError: bad value ba... (1000 chars)'
    >>> class Broken(Exception):
    ...     def __str__(self): raise RuntimeError('no')
    >>> exception_text(Broken(), 80)
    'Broken: <str() raised RuntimeError>'
    """
    name = type_name(exc)
    try:
        raw = str(exc)
        message = plain_text(raw, limit) or ""
        total = str.__len__(raw) if issubclass(type(raw), str) else 0
    except BaseException as error:  # even SystemExit from a __str__: it is the bot's
        message = f"<str() raised {type_name(error)}>"
        total = len(message)
    head = f"{name}: {message}" if message else name
    if total <= len(message) and len(head) <= limit:
        return head
    note = f"... ({total} chars)"
    return head[: max(0, limit - len(note))] + note


def traceback_text(exc: BaseException, limit: int) -> str:
    """The last frames of ``exc``'s traceback (file, line, function, source), bounded; never raises.

    >>> try:
    ...     {}['missing']
    ... except KeyError as exc:
    ...     text = traceback_text(exc, 500)
    >>> text.splitlines()[0].startswith('  File')
    True
    """
    try:
        tb = _TRACEBACK.__get__(exc)
        if not isinstance(tb, TracebackType):
            return ""
        frames = list(_traceback.walk_tb(tb))[-TRACEBACK_FRAMES:]
        summary = _traceback.StackSummary.extract(iter(frames), limit=TRACEBACK_FRAMES)
        lines = "".join(summary.format())
    except BaseException:  # a traceback is a courtesy; the fault is recorded without it
        return ""
    if len(lines) > limit:
        lines = "...\n" + lines[-(limit - 4) :]
    return lines
