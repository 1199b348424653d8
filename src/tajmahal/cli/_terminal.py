"""Text from outside made harmless for a terminal: control and format characters escaped.

Player names, records, components files, bot stderr and fault details may hold
escape sequences (which clear the screen or retitle the window), carriage
returns and backspaces (which overwrite what was printed), or bidi overrides
and isolates (which reorder a line).  :func:`printable` (from
:mod:`tajmahal._escape`, which the referee's logs use too) shows each such
character as a Python escape (``\\x1b``, ``\\u202e``); :func:`escaped_output`
puts it in front of ``sys.stdout`` and ``sys.stderr`` while a command runs, so
every line the command line prints passes through it, whoever wrote it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from tajmahal._escape import printable

__all__ = ["EscapingStream", "escaped_output", "printable"]


class EscapingStream:
    """A text stream that writes :func:`printable` text to the stream it wraps."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding...
        return getattr(self.stream, name)


@contextmanager
def escaped_output() -> Iterator[None]:
    """While inside, ``sys.stdout`` and ``sys.stderr`` escape what :func:`printable` escapes."""
    saved = sys.stdout, sys.stderr
    sys.stdout = EscapingStream(saved[0])
    sys.stderr = EscapingStream(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
