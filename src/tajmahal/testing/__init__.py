"""Test kit for bot authors: the checks of ``tajmahal check-bot`` as a function.

:func:`check_bot` plays a bot through the bot protocol in a few games and returns a
:class:`BotReport` (``passed``, each :class:`Check` with what it saw, each game), the
report ``tajmahal check-bot`` prints. Call it from a bot's own test suite, as
PettingZoo's ``api_test`` or Gymnasium's ``check_env``::

    from tajmahal.testing import check_bot

    def test_mybot_passes_the_checks() -> None:
        report = check_bot("mybot")
        assert report.passed, report  # the message is the whole report

Under pytest, the fixture ``bot_checks`` (this package's pytest plugin, registered
through the ``pytest11`` entry point, see :mod:`tajmahal.testing.pytest_plugin`) runs
the checks of a spec once per test session, so that several tests can look at one
report.

>>> from tajmahal.testing import check_bot
>>> report = check_bot('greedy')
>>> report.passed, [check.name for check in report.checks]
(True, ['handshake', 'answers', 'deterministic', 'clean exit'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tajmahal._lazy import lazy_names

if TYPE_CHECKING:  # for type checkers and IDEs: these load on first use (below), so that
    # pytest's loading of tajmahal.testing.pytest_plugin stays cheap
    from tajmahal.testing.bot_checks import (
        CHECKS,
        GAMES,
        BotChecks,
        BotReport,
        Check,
        GameSummary,
        check_bot,
    )

__all__ = ["CHECKS", "GAMES", "BotChecks", "BotReport", "Check", "GameSummary", "check_bot"]

if not TYPE_CHECKING:  # hidden from type checkers, which see the imports above
    __getattr__, __dir__ = lazy_names(
        __name__, dict.fromkeys(__all__, "tajmahal.testing.bot_checks"), __all__
    )
