"""tajmahal's pytest plugin: the fixture ``bot_checks`` for a bot's own test suite.

pytest loads it by itself wherever tajmahal is installed (the entry point
``tajmahal`` of the group ``pytest11``; ``pytest -p no:tajmahal`` leaves it out).
Loading it imports nothing of tajmahal's machinery: that waits for the first use.

``bot_checks(spec, **options)`` runs :func:`tajmahal.testing.check_bot` once per spec
and options in a test session and returns the same :class:`~tajmahal.testing.BotReport`
to every test that asks again::

    from tajmahal.testing import BotChecks

    def test_mybot_answers_every_request(bot_checks: BotChecks) -> None:
        check = bot_checks("mybot").check("answers")
        assert check.passed, check.detail

    def test_mybot_exits_cleanly(bot_checks: BotChecks) -> None:  # no games played again
        assert bot_checks("mybot").check("clean exit").passed
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # nothing of tajmahal is imported when pytest loads the plugin
    from tajmahal.testing.bot_checks import BotChecks

__all__ = ["bot_checks"]


@pytest.fixture(scope="session")
def bot_checks() -> BotChecks:
    """A :class:`~tajmahal.testing.BotChecks`: each spec's games played once per session."""
    from tajmahal.testing.bot_checks import BotChecks

    return BotChecks()
