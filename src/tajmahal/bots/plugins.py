"""Every installed plugin and what it provides, as ``tajmahal plugins`` lists them.

A plugin is an entry point of the group ``"tajmahal"`` (plus the built-in bots,
registered the same way as the plugin ``"tajmahal"``).  :func:`plugin_infos` reads
them from a :class:`~tajmahal.bots.Registry` (by default the one every match uses):
which hooks each implements, the bots it offers, whether it only observes matches,
and every problem loading it met (datasette's ``datasette plugins`` is the model).
"""

from __future__ import annotations

import importlib.metadata
import os
from collections.abc import Iterator

import attrs

from tajmahal.bots.registry import (
    BUILTIN_PLUGIN,
    DISABLED_VARIABLE,
    ENTRY_POINT_GROUP,
    Registry,
    default_registry,
    distribution_version,
)

__all__ = ["PluginInfo", "plugin_infos"]

BOT_HOOK = "tajmahal_bots"


@attrs.frozen
class PluginInfo:
    """One installed plugin: where it comes from, what it provides, what went wrong.

    >>> info = plugin_infos(Registry(entry_points=False), builtin=True)[0]
    >>> info.name, info.package, info.status, info.bots[:2]
    ('tajmahal', 'tajmahal', 'loaded', ('greedy', 'ismcts'))
    >>> info.provides()
    'bots: greedy, ismcts, ismcts-v1, ismcts-v2, ismcts-v3, random'
    """

    name: str  #: the entry point's name (the plugin's name in the plugin manager)
    package: str  #: the distribution that installed it
    version: str  #: the distribution's version ("" if unknown)
    module: str  #: what the entry point names (``"my_bots"``, ``"pkg.mod:obj"``)
    #: "loaded", "loaded with problems" (some of it is not used), "not loaded" (it could
    #: not be imported or registered) or "disabled" (named in TAJMAHAL_DISABLED_PLUGINS)
    status: str
    hooks: tuple[str, ...] = ()  #: the hooks it implements, sorted
    bots: tuple[str, ...] = ()  #: the names of the bots it offers that can be seated
    problems: tuple[str, ...] = ()  #: what went wrong, one line each

    @property
    def observes(self) -> bool:
        """Whether it implements an observer hook (it watches every match played).

        >>> PluginInfo('stats', 'tm-stats', '1.0', 'tm_stats', 'loaded',
        ...            hooks=('tajmahal_match_finished',)).observes
        True
        """
        return any(hook != BOT_HOOK for hook in self.hooks)

    def provides(self) -> str:
        """What it provides, in a few words (``tajmahal plugins`` prints it).

        >>> PluginInfo('stats', 'tm-stats', '1.0', 'tm_stats', 'loaded',
        ...            hooks=('tajmahal_decision_made', 'tajmahal_match_finished')).provides()
        'observes: decision_made, match_finished'
        """
        parts = []
        if self.bots:
            parts.append(f"bots: {', '.join(self.bots)}")
        watched = [hook.removeprefix("tajmahal_") for hook in self.hooks if hook != BOT_HOOK]
        if watched:
            parts.append(f"observes: {', '.join(watched)}")
        return "; ".join(parts) or "nothing"

    def as_dict(self) -> dict[str, object]:
        """The plugin as ``tajmahal plugins --json`` lists it.

        >>> PluginInfo('broken', 'tm-broken', '0.1', 'tm_broken', 'not loaded',
        ...            problems=('cannot import tm_broken: ImportError: x',)).as_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'name': 'broken', 'package': 'tm-broken', 'version': '0.1', 'module': 'tm_broken',
         'status': 'not loaded', 'hooks': (), 'bots': (),
         'problems': ('cannot import tm_broken: ImportError: x',), 'observes': False}
        """
        return {**attrs.asdict(self), "observes": self.observes}


def plugin_infos(registry: Registry | None = None, *, builtin: bool = False) -> list[PluginInfo]:
    """Every plugin installed in the entry-point group ``"tajmahal"``, loaded or not.

    :param registry: whose plugins; the default registry (the one matches use) if None.
    :param builtin: list tajmahal's own bots as the plugin ``"tajmahal"`` too, first.

    >>> names = [info.name for info in plugin_infos(builtin=True)]
    >>> names[0]
    'tajmahal'
    """
    registry = registry if registry is not None else default_registry()
    offered: dict[str, list[str]] = {}
    for info in registry.bot_infos().values():
        offered.setdefault(info.plugin, []).append(info.name)
    troubles: dict[tuple[str, str], list[str]] = {}
    for problem in registry.problems:
        troubles.setdefault((problem.plugin, problem.package), []).append(problem.error)
    manager = registry.plugin_manager
    found: list[PluginInfo] = []
    if builtin:
        found.append(_info(registry, BUILTIN_PLUGIN, BUILTIN_PLUGIN, "tajmahal.bots.builtin",
                           offered, troubles))  # fmt: skip
    disabled = {word.strip() for word in os.environ.get(DISABLED_VARIABLE, "").split(",")}
    claimed: set[str] = {BUILTIN_PLUGIN}
    for name, package, module in _entry_points() if registry.entry_points else ():
        if name in disabled or package in disabled:
            found.append(PluginInfo(name, package, distribution_version(package), module,
                                    "disabled"))  # fmt: skip
            continue
        if name in claimed or not manager.has_plugin(name):  # skipped: a twin, or not loaded
            errors = troubles.get((name, package), ["not loaded"])
            found.append(PluginInfo(name, package, distribution_version(package), module,
                                    "not loaded", problems=tuple(errors)))  # fmt: skip
            continue
        claimed.add(name)
        found.append(_info(registry, name, package, module, offered, troubles))
    for name, plugin in manager.list_name_plugin():  # registered by a program, not installed
        if name not in claimed and plugin is not None:
            package = registry._origins.get(name, name)
            found.append(_info(registry, name, package, "", offered, troubles))
    return found


def _info(
    registry: Registry,
    name: str,
    package: str,
    module: str,
    offered: dict[str, list[str]],
    troubles: dict[tuple[str, str], list[str]],
) -> PluginInfo:
    plugin = registry.plugin_manager.get_plugin(name)
    callers = registry.plugin_manager.get_hookcallers(plugin) or []
    hooks = tuple(sorted(caller.name for caller in callers if caller.spec is not None))
    errors = tuple(troubles.get((name, package), ()))
    status = "loaded with problems" if errors else "loaded"
    return PluginInfo(name, package, distribution_version(package), module, status, hooks,
                      tuple(offered.get(name, ())), errors)  # fmt: skip


def _entry_points() -> Iterator[tuple[str, str, str]]:
    """(name, package, what it names) of each entry point of the group, each once."""
    seen: set[tuple[str, str]] = set()
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        key = (entry_point.name, entry_point.value)
        if key in seen:  # the same distribution found twice on sys.path
            continue
        seen.add(key)
        dist = entry_point.dist.name if entry_point.dist is not None else entry_point.name
        yield entry_point.name, dist, entry_point.value
