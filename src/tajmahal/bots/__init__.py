"""Bots: the :class:`Bot` protocol, the plugin hooks, the registry and the built-in bots.

>>> import tajmahal as tm
>>> bot = tm.bots.create('random', seed=1)
>>> isinstance(bot, tm.Bot), {'greedy', 'ismcts', 'random'} <= tm.bots.available().keys()
(True, True)
"""

from __future__ import annotations

from tajmahal.bots.base import Bot, describe
from tajmahal.bots.greedy import GreedyBot
from tajmahal.bots.ismcts import IsmctsBot, IsmctsV1Bot, IsmctsV2Bot
from tajmahal.bots.plugins import PluginInfo, plugin_infos
from tajmahal.bots.random_bot import RandomBot
from tajmahal.bots.registry import (
    BotInfo,
    PluginError,
    PluginProblem,
    Registry,
    UnknownBotError,
    available,
    bot_infos,
    create,
    default_registry,
    reload,
)
from tajmahal.bots.specs import PlayerSpec, SpecError, check_spec, parse_spec
from tajmahal.hookspecs import hookimpl

__all__ = [
    "Bot",
    "BotInfo",
    "GreedyBot",
    "IsmctsBot",
    "IsmctsV1Bot",
    "IsmctsV2Bot",
    "PlayerSpec",
    "PluginError",
    "PluginInfo",
    "PluginProblem",
    "RandomBot",
    "Registry",
    "SpecError",
    "UnknownBotError",
    "available",
    "bot_infos",
    "check_spec",
    "create",
    "default_registry",
    "describe",
    "hookimpl",
    "parse_spec",
    "plugin_infos",
    "reload",
]
