"""The built-in bots, registered through the same hook as any plugin's.

>>> [bot.name for bot in tajmahal_bots()]
['random', 'greedy', 'ismcts', 'ismcts-v1', 'ismcts-v2', 'ismcts-v3']
"""

from __future__ import annotations

from collections.abc import Iterable

from tajmahal.bots.base import Bot
from tajmahal.bots.greedy import GreedyBot
from tajmahal.bots.ismcts import IsmctsBot, IsmctsV1Bot, IsmctsV2Bot, IsmctsV3Bot
from tajmahal.bots.random_bot import RandomBot
from tajmahal.hookspecs import hookimpl

__all__ = ["tajmahal_bots"]


@hookimpl
def tajmahal_bots() -> Iterable[type[Bot]]:
    """The built-in bots: ``random``, ``greedy``, ``ismcts`` and the frozen ``ismcts-v1`` to
    ``ismcts-v3``."""
    return [RandomBot, GreedyBot, IsmctsBot, IsmctsV1Bot, IsmctsV2Bot, IsmctsV3Bot]
