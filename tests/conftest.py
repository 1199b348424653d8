"""Test-session setup shared by every test module."""

from __future__ import annotations

import signal

# A test run started in the background by a non-interactive shell (``cmd &``, some CI
# runners) inherits SIGINT ignored, and children started from it would inherit that too.
# The Ctrl-C tests need what a terminal gives: KeyboardInterrupt on SIGINT, here and in
# the programs the tests start.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
