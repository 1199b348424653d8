"""Finding bots: the pluggy plugin manager, the name -> class registry, building bots.

Plugins come from the entry-point group ``"tajmahal"``; the built-in bots are
registered first, through the same ``tajmahal_bots`` hook, as the plugin
``"tajmahal"``.  The default registry is built on first use and cached;
:func:`reload` forgets it (after installing a plugin in a running process).

**Broken plugins.**  One broken plugin never breaks the others: a plugin that
fails to import (any exception, even ``sys.exit``), takes longer than
``PLUGIN_TIMEOUT`` (10) seconds (``TAJMAHAL_PLUGIN_TIMEOUT`` overrides it) to
import or to answer its hook, raises in its hook, returns something that is
not a bot class, implements a hook that does not exist (a misspelling), or
defines ``tajmahal_bots`` without ``@tajmahal.hookimpl`` is skipped and
listed in :attr:`Registry.problems` (``tajmahal bots`` prints them).  Two
plugins offering the same bot name make only that name an error, naming
both; a plugin cannot take a built-in bot's name (the built-in keeps it).
The environment variable ``TAJMAHAL_DISABLED_PLUGINS`` lists entry-point or
package names (comma-separated) not to load at all.

**Installing a plugin trusts it.**  Plugins are Python packages: the default
registry imports every installed one the first time any bot is looked up, in
every process that does (the referee of every match, also with ``isolate``),
since only importing a plugin tells which bots it offers.  A plugin's import
code can change anything in the process, whatever bots a match names; a
plugin with a problem (:attr:`PluginProblem.ran`) may have run too.  Install
only plugins you trust, and list the others in ``TAJMAHAL_DISABLED_PLUGINS``.
"""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import inspect
import logging
import os
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import pluggy

from tajmahal import hookspecs
from tajmahal._escape import log_text
from tajmahal.bots import builtin
from tajmahal.bots.base import Bot, describe
from tajmahal.bots.specs import PlayerSpec, SpecError, bot_class_of, check_spec, parse_spec
from tajmahal.bots.untrusted import exception_text, type_name
from tajmahal.hookspecs import PROJECT
from tajmahal.rules.errors import TajMahalError

log = logging.getLogger("tajmahal.bots")  # plugins skipped or loaded with problems

__all__ = [
    "ENTRY_POINT_GROUP",
    "BotInfo",
    "PluginError",
    "PluginProblem",
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
PLUGIN_TIMEOUT = 10.0  #: seconds a plugin may take to import, or to answer its hook
DISABLED_VARIABLE = "TAJMAHAL_DISABLED_PLUGINS"
TIMEOUT_VARIABLE = "TAJMAHAL_PLUGIN_TIMEOUT"


class PluginError(TajMahalError):
    """A plugin that cannot be registered, or a bot name that two plugins offer.

    >>> import tajmahal as tm
    >>> class Twin:
    ...     name = 'twin'
    ...     def choose(self, view, legal_moves):
    ...         return legal_moves[0]
    >>> class Offers:
    ...     @tm.hookimpl
    ...     def tajmahal_bots(self):
    ...         return [Twin]
    >>> registry = Registry(entry_points=False)
    >>> registry.register(Offers(), name='one', origin='pkg-one')
    >>> registry.register(Offers(), name='two', origin='pkg-two')
    >>> registry.create('twin')
    Traceback (most recent call last):
    ...
    tajmahal.bots.registry.PluginError: bot name 'twin' is registered twice: ...
    >>> sorted(registry.available())  # the other names still work
    ['greedy', 'ismcts', 'ismcts-v1', 'ismcts-v2', 'random']
    """


@attrs.frozen
class PluginProblem:
    """A plugin that was skipped, or the part of it that was: which, from which package, why.

    >>> str(PluginProblem('evil', 'evil-plugin', 'cannot import it: ImportError: x'))
    "plugin 'evil' (package evil-plugin): cannot import it: ImportError: x"
    """

    plugin: str
    package: str
    error: str
    #: whether the plugin's code ran (it was imported, at least in part): it could have
    #: changed anything in the process, though none of its bots are offered
    ran: bool = True

    def __str__(self) -> str:
        return f"plugin {self.plugin!r} (package {self.package}): {self.error}"


class UnknownBotError(SpecError, LookupError):
    """A bot name that no installed plugin provides; a :class:`SpecError` and a ``LookupError``.

    >>> try:
    ...     Registry(entry_points=False).create('nobody')
    ... except LookupError as exc:
    ...     print(type(exc).__name__, '-', exc)  # doctest: +NORMALIZE_WHITESPACE
    UnknownBotError - no bot is called 'nobody'; available bots: greedy, ismcts, ismcts-v1,
    ismcts-v2, random
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
    version: str = ""  #: the distribution's version ("" if unknown)


class Registry:
    """The bots offered by a set of plugins, looked up by name.

    ``Registry()`` holds the built-in bots and every plugin installed in the
    entry-point group ``"tajmahal"``; ``Registry(entry_points=False)`` only the
    built-ins, to which :meth:`register` may add plugin objects (for tests and
    for programs that embed bots).

    >>> registry = Registry(entry_points=False)
    >>> sorted(registry.available())
    ['greedy', 'ismcts', 'ismcts-v1', 'ismcts-v2', 'random']
    >>> registry.create('random', seed=3).name
    'random'
    """

    def __init__(self, *, entry_points: bool = True) -> None:
        self.plugin_manager = pluggy.PluginManager(PROJECT)
        self.plugin_manager.add_hookspecs(hookspecs)
        self._origins: dict[str, str] = {}
        self._infos: dict[str, BotInfo] | None = None
        self._conflicts: dict[str, str] = {}
        self._load_problems: list[PluginProblem] = []
        self._bot_problems: list[PluginProblem] = []
        self.register(builtin, name=BUILTIN_PLUGIN, origin="tajmahal")
        self.entry_points = entry_points  #: whether the installed plugins were loaded
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
        (['first', 'greedy', 'ismcts', 'ismcts-v1', 'ismcts-v2', 'random'], 'my-package')
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
        self._check_hooks(plugin, name)

    @property
    def problems(self) -> tuple[PluginProblem, ...]:
        """The plugins (or parts of them) skipped, and why; empty when all is well.

        >>> import tajmahal as tm
        >>> class Misspelled:
        ...     @tm.hookimpl
        ...     def tajmahal_bot(self):  # one letter short
        ...         return []
        >>> registry = Registry(entry_points=False)
        >>> registry.register(Misspelled(), name='typo')
        >>> [str(problem) for problem in registry.problems]  # doctest: +ELLIPSIS
        ["plugin 'typo' (package typo): implements unknown hook(s) tajmahal_bot; ..."]
        """
        self.bot_infos()
        return tuple(self._load_problems + self._bot_problems)

    def _check_hooks(self, plugin: object, name: str) -> None:
        """Report hooks that do not exist (misspelled) and hook functions left unmarked."""
        callers = self.plugin_manager.get_hookcallers(plugin) or []
        unknown = sorted(caller.name for caller in callers if caller.spec is None)
        known = [caller for caller in callers if caller.spec is not None]
        hooks = ", ".join(sorted(_hook_names()))
        if unknown:
            self._problem(
                name, f"implements unknown hook(s) {', '.join(unknown)}; the hooks are: {hooks}"
            )
        if not known and not unknown:
            marked = [hook for hook in _hook_names() if callable(getattr(plugin, hook, None))]
            if marked:
                self._problem(
                    name, f"defines {', '.join(marked)} without @tajmahal.hookimpl (ignored)"
                )
            else:
                self._problem(name, f"implements none of the hooks ({hooks})")

    def _problem(
        self, plugin: str, error: str, package: str | None = None, *, ran: bool = True
    ) -> None:
        origin = package if package is not None else self._origins.get(plugin, plugin)
        problem = PluginProblem(plugin, origin, error, ran)
        self._load_problems.append(problem)
        what = "loaded, its bots not offered" if ran else "skipped"
        log.warning("%s (%s)", log_text(problem), what)

    def _load_entry_points(self) -> None:
        seen: set[tuple[str, str]] = set()
        disabled = {
            word.strip() for word in os.environ.get(DISABLED_VARIABLE, "").split(",") if word
        }
        for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            key = (entry_point.name, entry_point.value)
            if key in seen:  # the same distribution found twice on sys.path
                continue
            seen.add(key)
            dist = entry_point.dist.name if entry_point.dist is not None else entry_point.name
            if entry_point.name in disabled or dist in disabled:
                continue
            if self.plugin_manager.has_plugin(entry_point.name):
                self._problem(
                    entry_point.name,
                    f"another plugin is named {entry_point.name!r} already (skipped)",
                    dist,
                    ran=False,
                )
                continue
            done, plugin = _bounded(entry_point.load)
            if not done:
                problem = f"cannot import {entry_point.value}: {plugin}"
                self._problem(entry_point.name, problem, dist)
                continue
            try:
                self.register(plugin, name=entry_point.name, origin=dist)
            except PluginError as exc:
                self._problem(entry_point.name, str(exc), dist)

    def bot_infos(self) -> Mapping[str, BotInfo]:
        """Every bot by name, sorted by name; raises :class:`PluginError` on a conflict.

        >>> infos = Registry(entry_points=False).bot_infos()
        >>> list(infos), infos['greedy'].bot_class.__name__, infos['greedy'].plugin
        (['greedy', 'ismcts', 'ismcts-v1', 'ismcts-v2', 'random'], 'GreedyBot', 'tajmahal')
        """
        if self._infos is None:
            self._infos = self._collect()
        return self._infos

    def available(self) -> dict[str, type[Bot]]:
        """Bot name -> bot class, sorted by name.

        >>> bots = Registry(entry_points=False).available()
        >>> sorted((name, bot_class.__name__) for name, bot_class in bots.items())[1:4]
        [('ismcts', 'IsmctsBot'), ('ismcts-v1', 'IsmctsV1Bot'), ('ismcts-v2', 'IsmctsV2Bot')]
        """
        return {name: info.bot_class for name, info in self.bot_infos().items()}

    def bot_class(self, name: str) -> type[Bot]:
        """The class of the bot called ``name`` (in any case).

        An unknown name is an :class:`UnknownBotError` that lists the names and
        suggests the closest ones.

        >>> Registry(entry_points=False).bot_class('Random').__name__
        'RandomBot'
        >>> Registry(entry_points=False).bot_class('gredy')  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tajmahal.bots.registry.UnknownBotError: no bot is called 'gredy' (did you mean 'greedy'?)...
        """
        infos = self.bot_infos()
        name = name.lower() if name not in infos and name not in self._conflicts else name
        if name in self._conflicts:
            raise PluginError(self._conflicts[name])
        if name not in infos:
            close = difflib.get_close_matches(name, list(infos), n=3, cutoff=0.6)
            guess = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
            raise UnknownBotError(
                f"no bot is called {name!r}{guess}; available bots: {', '.join(infos) or '(none)'}"
            )
        return infos[name].bot_class

    def create(self, name: str | PlayerSpec, seed: int = 0, **options: Any) -> Bot:
        """Build a bot from its name or player spec, as ``BotClass(seed=seed, **options)``.

        ``name`` may carry options in the player-spec syntax
        (``'greedy:enough=2'``), or be a parsed :class:`~tajmahal.bots.PlayerSpec`
        (a ``file:`` one too); keyword ``options`` add to them.

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
        spec = name if isinstance(name, PlayerSpec) else parse_spec(name)
        if spec.is_command:
            raise SpecError(
                f"player spec {spec.text!r} names an external program: play_match starts those"
            )
        bot_class = self.bot_class(spec.name) if spec.name is not None else bot_class_of(spec)
        merged = dict(spec.options)
        for key in options:
            if key in merged:
                raise SpecError(f"player spec {spec.text!r}: option {key!r} is given twice")
        merged.update(options)
        check_spec(attrs.evolve(spec, options=tuple(merged.items())), self)
        try:
            return bot_class(seed=seed, **merged)
        except (TypeError, ValueError) as exc:
            shown = ", ".join(f"{k}={v!r}" for k, v in {"seed": seed, **merged}.items())
            what = spec.name if spec.name is not None else bot_class.__name__
            raise SpecError(f"cannot build bot {what!r} with {shown}: {exc}") from None

    def _collect(self) -> dict[str, BotInfo]:
        found: dict[str, BotInfo] = {}
        self._conflicts = {}
        self._bot_problems = []
        for impl in self.plugin_manager.hook.tajmahal_bots.get_hookimpls():
            plugin = impl.plugin_name  # in the order registered: built-ins first
            origin = self._origins[plugin]
            done, offered = _bounded(functools.partial(_offered, impl.function))
            if not done:
                failed = PluginProblem(plugin, origin, f"in tajmahal_bots(): {offered}")
                self._bot_problems.append(failed)
                continue
            for bot_class in offered:
                problem = _bot_class_problem(plugin, bot_class)
                if problem:
                    self._bot_problems.append(PluginProblem(plugin, origin, problem))
                    continue
                name = bot_class.name
                version = distribution_version(origin)
                info = BotInfo(name, bot_class, plugin, origin, describe(bot_class), version)
                first = found.get(name)
                if first is None and name not in self._conflicts:
                    found[name] = info
                    continue
                if first is None:  # a third offer of a name already in conflict
                    continue
                message = (
                    f"bot name {name!r} is registered twice: by plugin {first.plugin!r} "
                    f"(package {first.origin!r}, {_qualname(first.bot_class)}) and by plugin "
                    f"{plugin!r} (package {origin!r}, {_qualname(bot_class)}); "
                    "uninstall one of them or rename its bot"
                )
                self._bot_problems.append(PluginProblem(plugin, origin, message))
                if first.plugin != BUILTIN_PLUGIN:  # a built-in keeps its name
                    del found[name]
                    self._conflicts[name] = message
        return dict(sorted(found.items()))


def _offered(function: Callable[[], Any]) -> list[Any]:
    result = function()
    if result is None:
        return []
    if isinstance(result, str | bytes) or not hasattr(type(result), "__iter__"):
        raise TypeError(f"returned a {type_name(result)}, not a list of bot classes")
    items = []
    for item in result:
        items.append(item)
        if len(items) > 1000:
            raise ValueError("returned more than 1000 bot classes")
    return items


def _bounded(function: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, result) of ``function()`` run in a thread within the plugin timeout, or
    (False, a description of what went wrong).  The user's Ctrl-C still interrupts the wait."""
    box: list[Any] = []

    def run() -> None:
        try:
            box.append((True, function()))
        except BaseException as exc:  # even sys.exit() or KeyboardInterrupt from plugin code
            box.append((False, exception_text(exc, 300)))

    thread = threading.Thread(target=run, name="tajmahal-plugin", daemon=True)
    thread.start()
    limit = _timeout()
    thread.join(limit)
    if not box:
        return False, f"took more than {limit:g} s (skipped; {TIMEOUT_VARIABLE} sets the limit)"
    return box[0]  # type: ignore[no-any-return]


def _timeout() -> float:
    try:
        value = float(os.environ.get(TIMEOUT_VARIABLE, PLUGIN_TIMEOUT))
    except ValueError:
        return PLUGIN_TIMEOUT
    return value if 0 < value <= 3600 else PLUGIN_TIMEOUT


@functools.cache
def _hook_names() -> tuple[str, ...]:
    return tuple(
        name
        for name, value in vars(hookspecs).items()
        if callable(value) and hasattr(value, f"{PROJECT}_spec")
    )


@functools.lru_cache(maxsize=256)
def distribution_version(distribution: str) -> str:
    """The installed version of a distribution (package), or ``""`` if it is not installed.

    >>> distribution_version('tajmahal') != '' == distribution_version('no-such-package-xyz')
    True
    """
    if distribution == PROJECT:  # the running code's own (an editable install's metadata ages)
        from tajmahal import __version__

        return __version__
    try:
        return importlib.metadata.version(distribution)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return ""


def _bot_class_problem(plugin: str, bot_class: Any) -> str | None:
    """What keeps ``bot_class`` from being a Bot class, or None (read without calling it)."""
    if not isinstance(bot_class, type):
        return f"returned a {type_name(bot_class)} from tajmahal_bots(); it must return bot classes"
    name = inspect.getattr_static(bot_class, "name", None)
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        shown = repr(name)[:60] if isinstance(name, str) else type_name(name)
        return (
            f"bot class {_qualname(bot_class)} has name {shown}; a bot name is lowercase "
            "letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    if not callable(inspect.getattr_static(bot_class, "choose", None)):
        return f"bot class {_qualname(bot_class)} has no choose(view, legal_moves) method"
    return None


def _qualname(cls: type[Any]) -> str:
    module = type.__dict__["__module__"].__get__(cls, type)
    qualname = type.__dict__["__qualname__"].__get__(cls, type)
    return f"{str(module)[:80]}.{str(qualname)[:80]}"


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


def create(name: str | PlayerSpec, seed: int = 0, **options: Any) -> Bot:
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
