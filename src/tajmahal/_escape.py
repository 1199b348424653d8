"""Text from outside made harmless for terminals and logs: control and format characters escaped.

Player names, records, components files, bot stderr, fault details and web
requests may hold escape sequences (which clear the screen or retitle the
window), carriage returns and backspaces (which overwrite what was printed),
bidi overrides and isolates (which reorder a line), or newlines (which start
what looks like a log line of its own).  :func:`printable` shows each control
and format character but newline and tab as a Python escape (``\\x1b``,
``\\u202e``); :func:`log_text` escapes newlines too, so that a log record stays
one line; :class:`StderrEscaper` does it for a program's stderr on its way
to a log file.  The command line (``tajmahal.cli``), the referee, the
protocol, tournaments and the web server all use this module, which imports
nothing of the library.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["StderrEscaper", "log_text", "printable"]

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


def log_text(text: object) -> str:
    """``str(text)`` fit for one log line: :func:`printable`, and newlines escaped (``\\n``).

    A bot that writes a newline and a made-up record into its error message
    cannot forge a line of the log, nor drive the terminal that shows it.

    >>> log_text('seat 1: crash: boom\\n2026-01-01 CRITICAL all is lost\\x1b[2J')
    'seat 1: crash: boom\\\\n2026-01-01 CRITICAL all is lost\\\\x1b[2J'
    """
    return printable(str(text)).replace("\n", "\\n")


class StderrEscaper:
    """A program's stderr bytes, chunk by chunk, as :func:`printable` UTF-8 (lines kept).

    Bytes that are not UTF-8 show as ``\\xNN``; a character split between two
    chunks is escaped whole.

    >>> escaper = StderrEscaper()
    >>> escaper.feed(b'red \\x1b[31malert\\r\\n\\xc3') + escaper.feed(b'\\xa9 \\xff\\n')
    b'red \\\\x1b[31malert\\\\x0d\\n\\xc3\\xa9 \\\\xff\\n'
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="backslashreplace")

    def feed(self, data: bytes) -> bytes:
        """The escaped text of ``data`` (and of what the chunks before left unfinished)."""
        return printable(self._decoder.decode(data)).encode("utf-8")
