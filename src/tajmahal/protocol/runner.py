"""Run a Python bot (registered, or file:) as a bot program: ``python -m tajmahal.protocol.runner``.

This is how ``play_match(..., isolate=True)`` seats a Python bot: in its own
process, seeing only what the protocol sends (its seat's view and the legal
moves), never the referee's state or objects.  ``SPEC`` is a player spec
such as ``greedy`` or ``greedy:enough=5``.  The protocol's stdout is kept
for the messages alone: anything the bot's code prints goes to stderr.

>>> import subprocess, sys
>>> done = subprocess.run([sys.executable, '-m', 'tajmahal.protocol.runner', 'nobody'],
...                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
>>> done.returncode, done.stderr
(2, "tajmahal.protocol.runner: player spec 'nobody': no bot is called 'nobody'; ...")
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO

__all__ = ["SPEC_OPTION", "main"]

#: how the referee passes the spec (``--spec=mybot``): a bare ``mybot`` would be taken for
#: the folder ``./mybot`` where there is one (a program's relative paths are made absolute)
SPEC_OPTION = "--spec="


def main(argv: Sequence[str] | None = None) -> int:
    """Serve one game for the bot ``argv[0]`` (a player spec) on stdin and stdout.

    Returns the exit status: 0 after a game; 2 for a bad spec, a bad
    handshake or a bot that cannot be built (the reason on stderr).

    >>> main(['random', 'greedy'])
    2
    """
    from tajmahal.bots.registry import create
    from tajmahal.bots.specs import check_spec
    from tajmahal.protocol._bot_side import serve
    from tajmahal.protocol.confine import make_undumpable

    make_undumpable()  # the other seats' programs cannot read the views it is sent
    from tajmahal.rules.errors import TajMahalError

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m tajmahal.protocol.runner SPEC", file=sys.stderr)
        return 2
    args[0] = args[0].removeprefix(SPEC_OPTION)  # the referee's form (runner_command)
    try:
        spec = check_spec(args[0])
        if spec.is_command:
            raise TajMahalError(f"player spec {args[0]!r}: the runner runs Python bots only")
    except TajMahalError as exc:
        print(f"tajmahal.protocol.runner: {exc}", file=sys.stderr)
        return 2
    protocol_out = _private_stdout()
    try:
        serve(
            lambda seed: create(spec, seed=seed),
            name=spec.text[:64],
            deterministic=True,  # the Bot protocol asks it of every registered bot
            trust_views=True,  # the views come from the referee that started this process
            input=sys.stdin.buffer,
            output=protocol_out,
        )
    except BaseException as exc:  # a bad handshake, or a constructor that fails
        try:
            described = f"{type(exc).__name__}: {exc}"[:1000]
        except BaseException:
            described = type(exc).__name__
        print(f"tajmahal.protocol.runner: {described}", file=sys.stderr)
        return 2
    return 0


def _private_stdout() -> IO[bytes]:
    """A stream on the real stdout for the protocol; file descriptor 1 becomes stderr."""
    sys.stdout.flush()
    protocol_fd = os.dup(sys.stdout.fileno())
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return os.fdopen(protocol_fd, "wb")


if __name__ == "__main__":
    sys.exit(main())
