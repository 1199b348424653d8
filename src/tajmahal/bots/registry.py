"""Finding bots: the pluggy plugin manager, the name -> class registry, building bots.

Plugins come from the entry-point group ``"tajmahal"``; the built-in bots are
registered first, through the same ``tajmahal_bots`` hook, as the plugin
``"tajmahal"``.  The default registry is built on first use and cached;
:func:`reload` forgets it (after installing a plugin in a running process).
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
from collections.abc import Mapping
from typing import Any

import attrs
import pluggy

from tajmahal.bots import builtin, hookspecs
from tajmahal.bots.base import Bot, describe
from tajmahal.bots.hookspecs import PROJECT
from tajmahal.bots.specs import SpecError, check_spec, parse_spec
from tajmahal.rules.errors import TajMahalError

__all__ = [
    "ENTRY_POINT_GROUP",
    "BotInfo",
    "PluginError",
    "Registry",
    "UnknownBotError",
    "available",
    "bot_infos",
    "create",
    "default_registry",
    "reload",
]

ENTRY_POINT_GROUP = "tajmahal"
BUILTIN_PLUGIN = "tajmahal"
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_.-]*")


class PluginError(TajMahalError):
    """A plugin that cannot be loaded, or whose bots break the rules (a duplicate name, ...).

    >>> import tajmahal as tm
    >>> class Copycat:
    ...     @tm.hookimpl
    ...     def tajmahal_bots(self):
    ...         return [tm.bots.RandomBot]
    >>> registry = Registry(entry_points=False)
    >>> registry.register(Copycat(), name='copycat')
    >>> registry.available()
    Traceback (most recent call last):
    ...
    tajmahal.bots.registry.PluginError: bot name 'random' is registered twice: ...
    """


class UnknownBotError(SpecError, LookupError):
    """A bot name that no installed plugin provides; a :class:`SpecError` and a ``LookupError``.

    >>> try:
    ...     Registry(entry_points=False).create('nobody')
    ... except LookupError as exc:
    ...     print(type(exc).__name__, '-', exc)
    UnknownBotError - no bot is called 'nobody'; available bots: greedy, random
    """

    def __str__(self) -> str:  # LookupError would quote the message like a key
        return str(self.args[0]) if self.args else ""


@attrs.frozen
class BotInfo:
    """One registered bot: its name, class, the plugin and package it comes from.

    >>> import tajmahal as tm
    >>> info = tm.bots.bot_infos()['random']
    >>> info.origin, info.plugin
    ('tajmahal', 'tajmahal')
    """

    name: str
    bot_class: type[Bot]
    plugin: str  #: the plugin's name in the plugin manager (an entry point's name)
    origin: str  #: the distribution (package) that installed the plugin
    description: str  #: the first line of the class docstring


class Registry:
    """The bots offered by a set of plugins, looked up by name.

    ``Registry()`` holds the built-in bots and every plugin installed in the
    entry-point group ``"tajmahal"``; ``Registry(entry_points=False)`` only the
    built-ins, to which :meth:`register` may add plugin objects (for tests and
    for programs that embed bots).

    >>> registry = Registry(entry_points=False)
    >>> sorted(registry.available())
    ['greedy', 'random']
    >>> registry.create('random', seed=3).name
    'random'
    """

    def __init__(self, *, entry_points: bool = True) -> None:
        self.plugin_manager = pluggy.PluginManager(PROJECT)
        self.plugin_manager.add_hookspecs(hookspecs)
        self._origins: dict[str, str] = {}
        self._infos: dict[str, BotInfo] | None = None
        self.register(builtin, name=BUILTIN_PLUGIN, origin="tajmahal")
        if entry_points:
            self._load_entry_points()

    def register(self, plugin: object, name: str, origin: str | None = None) -> None:
        """Add a plugin object (a module or any object with ``@hookimpl`` functions).

        >>> import tajmahal as tm
        >>> class FirstMove:
        ...     '''Always plays the first legal move.'''
        ...     name = 'first'
        ...     def __init__(self, seed=0):
        ...         self.seed = seed
        ...     def choose(self, view, legal_moves):
        ...         return legal_moves[0]
        >>> class MyPlugin:
        ...     @tm.hookimpl
        ...     def tajmahal_bots(self):
        ...         return [FirstMove]
        >>> registry = Registry(entry_points=False)
        >>> registry.register(MyPlugin(), name='mine', origin='my-package')
        >>> sorted(registry.available()), registry.bot_infos()['first'].origin
        (['first', 'greedy', 'random'], 'my-package')
        >>> registry.register(MyPlugin(), name='mine')
        Traceback (most recent call last):
        ...
        tajmahal.bots.registry.PluginError: two plugins are named 'mine'; ...
        """
        if self.plugin_manager.has_plugin(name):
            raise PluginError(f"two plugins are named {name!r}; plugin names must be unique")
        try:
            self.plugin_manager.register(plugin, name=name)
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise PluginError(f"cannot register plugin {name!r}: {exc}") from None
        self._origins[name] = origin if origin is not None else name
        self._infos = None

    def _load_entry_points(self) -> None:
        seen: set[tuple[str, str]] = set()
        for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            key = (entry_point.name, entry_point.value)
            if key in seen:  # the same distribution found twice on sys.path
                continue
            seen.add(key)
            dist = entry_point.dist.name if entry_point.dist is not None else entry_point.name
            try:
                plugin = entry_point.load()
            except Exception as exc:
                raise PluginError(
                    f"cannot load plugin {entry_point.name!r} ({entry_point.value}) from "
                    f"package {dist!r}: {type(exc).__name__}: {exc}"
                ) from None
            self.register(plugin, name=entry_point.name, origin=dist)

    def bot_infos(self) -> Mapping[str, BotInfo]:
        """Every bot by name, sorted by name; raises :class:`PluginError` on a conflict.

        >>> infos = Registry(entry_points=False).bot_infos()
        >>> list(infos), infos['greedy'].bot_class.__name__, infos['greedy'].plugin
        (['greedy', 'random'], 'GreedyBot', 'tajmahal')
        """
        if self._infos is None:
            self._infos = self._collect()
        return self._infos

    def available(self) -> dict[str, type[Bot]]:
        """Bot name -> bot class, sorted by name.

        >>> bots = Registry(entry_points=False).available()
        >>> {name: bot_class.__name__ for name, bot_class in bots.items()}
        {'greedy': 'GreedyBot', 'random': 'RandomBot'}
        """
        return {name: info.bot_class for name, info in self.bot_infos().items()}

    def bot_class(self, name: str) -> type[Bot]:
        """The class of the bot called ``name``; :class:`UnknownBotError` lists the names.

        >>> Registry(entry_points=False).bot_class('random').__name__
        'RandomBot'
        """
        infos = self.bot_infos()
        if name not in infos:
            raise UnknownBotError(
                f"no bot is called {name!r}; available bots: {', '.join(infos) or '(none)'}"
            )
        return infos[name].bot_class

    def create(self, name: str, seed: int = 0, **options: Any) -> Bot:
        """Build a bot from its name or player spec, as ``BotClass(seed=seed, **options)``.

        ``name`` may carry options in the player-spec syntax
        (``'greedy:enough=2'``); keyword ``options`` add to them.

        >>> registry = Registry(entry_points=False)
        >>> registry.create('greedy', seed=1, enough=2.0).enough
        2.0
        >>> registry.create('greedy:card_cost=0.5').card_cost
        0.5
        >>> registry.create('greedy', speed=3)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tajmahal.bots.specs.SpecError: player spec 'greedy': bot 'greedy' has no option 'speed'; ...
        """
        spec = parse_spec(name)
        if spec.is_command:
            raise SpecError(
                f"player spec {name!r} names an external program: play_match starts those"
            )
        assert spec.name is not None
        bot_class = self.bot_class(spec.name)
        merged = dict(spec.options)
        for key in options:
            if key in merged:
                raise SpecError(f"player spec {name!r}: option {key!r} is given twice")
        merged.update(options)
        check_spec(attrs.evolve(spec, options=tuple(merged.items())), self)
        try:
            return bot_class(seed=seed, **merged)
        except (TypeError, ValueError) as exc:
            shown = ", ".join(f"{k}={v!r}" for k, v in {"seed": seed, **merged}.items())
            raise SpecError(f"cannot build bot {spec.name!r} with {shown}: {exc}") from None

    def _collect(self) -> dict[str, BotInfo]:
        found: dict[str, BotInfo] = {}
        for impl in self.plugin_manager.hook.tajmahal_bots.get_hookimpls():
            plugin = impl.plugin_name
            for bot_class in self._call(plugin, impl.function):
                name = _check_bot_class(plugin, bot_class)
                info = BotInfo(name, bot_class, plugin, self._origins[plugin], describe(bot_class))
                if name in found:
                    first = found[name]
                    raise PluginError(
                        f"bot name {name!r} is registered twice: by plugin {first.plugin!r} "
                        f"(package {first.origin!r}, {_qualname(first.bot_class)}) and by plugin "
                        f"{plugin!r} (package {info.origin!r}, {_qualname(bot_class)}); "
                        "uninstall one of them or rename its bot"
                    )
                found[name] = info
        return dict(sorted(found.items()))

    @staticmethod
    def _call(plugin: str, function: Any) -> list[Any]:
        try:
            result = function()
            return [] if result is None else list(result)
        except Exception as exc:
            raise PluginError(
                f"plugin {plugin!r} failed in tajmahal_bots(): {type(exc).__name__}: {exc}"
            ) from None


def _check_bot_class(plugin: str, bot_class: Any) -> str:
    """The bot's name, after checking that ``bot_class`` looks like a Bot class."""
    if not isinstance(bot_class, type):
        raise PluginError(
            f"plugin {plugin!r} returned {bot_class!r} from tajmahal_bots(); "
            "it must return bot classes"
        )
    name = getattr(bot_class, "name", None)
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise PluginError(
            f"bot class {_qualname(bot_class)} of plugin {plugin!r} has name {name!r}; a bot "
            "name is lowercase letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    if not callable(getattr(bot_class, "choose", None)):
        raise PluginError(
            f"bot class {_qualname(bot_class)} of plugin {plugin!r} has no choose(view, "
            "legal_moves) method"
        )
    return name


def _qualname(cls: type[Any]) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


@functools.cache
def default_registry() -> Registry:
    """The registry of the built-in bots and every installed plugin (built once).

    >>> registry = default_registry()
    >>> registry is default_registry(), {'greedy', 'random'} <= registry.available().keys()
    (True, True)
    """
    return Registry()


def reload() -> None:
    """Forget the default registry: the next lookup discovers the plugins again.

    >>> before = default_registry()
    >>> reload()
    >>> default_registry() is before, 'random' in available()
    (False, True)
    """
    default_registry.cache_clear()


def bot_infos() -> Mapping[str, BotInfo]:
    """Every installed bot's :class:`BotInfo`, by name.

    >>> import tajmahal as tm
    >>> tm.bots.bot_infos()['greedy'].description.split()[0]
    'Plays'
    """
    return default_registry().bot_infos()


def available() -> dict[str, type[Bot]]:
    """Bot name -> bot class, for the built-in bots and every installed plugin.

    >>> import tajmahal as tm
    >>> tm.bots.available()['random'].name
    'random'
    """
    return default_registry().available()


def create(name: str, seed: int = 0, **options: Any) -> Bot:
    """Build the installed bot called ``name``; :class:`UnknownBotError` lists the names.

    >>> import tajmahal as tm
    >>> tm.bots.create('greedy', seed=1).name
    'greedy'
    >>> tm.bots.create('nobody')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.registry.UnknownBotError: no bot is called 'nobody'; available bots: ...
    """
    return default_registry().create(name, seed, **options)
