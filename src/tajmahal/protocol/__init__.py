"""The bot protocol: bots as separate programs, in any language, kept out of the referee.

A bot program reads JSON lines on stdin and writes JSON lines on stdout:
``hello`` → ``ready``, then one ``request`` per decision (the seat's view
document and the legal moves in move notation) → one ``move``, and a last
``result``.  ``docs/protocol.md`` is the specification.

- The referee's side: :class:`ProcessPlayer` (one program, one seat, one
  match), :class:`ProcessLimits`, :class:`BotProcessError` and
  :class:`ProcessFault`; :class:`ProcessSeat`, the referee's seat for a
  program.  The referee seats one for each ``cmd:PROGRAM`` player spec and,
  with ``isolate=True``, one for every registered bot
  (:func:`runner_command`).
- How programs are confined (:mod:`tajmahal.protocol.confine`):
  :func:`check_sandbox` and :class:`SandboxError` for ``sandbox=True``.
- The bot's side, for Python programs: :class:`BotConnection` and
  :func:`serve`.

>>> import sys, tajmahal as tm
>>> bot = f'cmd:{sys.executable} -m tajmahal.protocol.runner random'  # any program will do
>>> result = tm.play_match([bot, 'greedy', 'random'], seed=1)
>>> result.players[1:], result.faults
(('greedy', 'random'), ())
"""

from __future__ import annotations

from tajmahal.protocol._bot_side import BotConnection, Hello, Request, Result, serve
from tajmahal.protocol._player import (
    BotProcessError,
    ProcessFault,
    ProcessLimits,
    ProcessPlayer,
    move_texts,
    read_answer,
)
from tajmahal.protocol._seat import ProcessSeat, check_command, runner_command
from tajmahal.protocol.confine import SandboxError, check_sandbox
from tajmahal.protocol.messages import (
    MAX_LINE_BYTES,
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    MessageError,
    Ready,
)

__all__ = [
    "MAX_LINE_BYTES",
    "PROTOCOL_NAME",
    "PROTOCOL_VERSION",
    "BotConnection",
    "BotProcessError",
    "Hello",
    "MessageError",
    "ProcessFault",
    "ProcessLimits",
    "ProcessPlayer",
    "ProcessSeat",
    "Ready",
    "Request",
    "Result",
    "SandboxError",
    "check_command",
    "check_sandbox",
    "move_texts",
    "read_answer",
    "runner_command",
    "serve",
]

