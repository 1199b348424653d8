"""Text from outside made harmless for a terminal: control and format characters escaped.

Player names, records, components files, bot stderr and fault details may hold
escape sequences (which clear the screen or retitle the window), carriage
returns and backspaces (which overwrite what was printed), or bidi overrides
and isolates (which reorder a line).  :func:`printable` shows each such
character as a Python escape (``\\x1b``, ``\\u202e``); :func:`escaped_output`
puts it in front of ``sys.stdout`` and ``sys.stderr`` while a command runs, so
every line the command line prints passes through it, whoever wrote it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

__all__ = ["EscapingStream", "escaped_output", "printable"]

# Every character of Unicode categories Cc (C0, DEL, C1) but newline and tab, Cf (format:
# bidi embeddings, overrides, isolates and marks, zero-width characters, soft hyphen, tags,
# interlinear annotations...), Zl and Zp (line and paragraph separators) and Cs (lone
# surrogates).  tests/test_hostile.py checks this against unicodedata.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    "\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else (f"\\U{code:08x}")
    )


def printable(text: str) -> str:
    """``text`` with every control and format character but newline and tab escaped.

    >>> printable('ok\\x1b]0;owned\\x07 \\u202egnp.exe\\n')
    'ok\\\\x1b]0;owned\\\\x07 \\\\u202egnp.exe\\n'
    """
    return _UNSAFE.sub(_escape, text)


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
