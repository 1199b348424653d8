"""``tajmahal bots``: list the installed bots."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tajmahal.bots.registry import DISABLED_VARIABLE, BotInfo, default_registry
from tajmahal.bots.specs import option_types
from tajmahal.cli._common import Commands, add_command

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    command = add_command(
        commands,
        "bots",
        _run,
        summary="list the installed bots",
        description="List every installed bot: its name, the package it comes from, and what "
        "it does, and the plugins that were skipped and why. Plugins add bots through the "
        "entry-point group 'tajmahal'. Installing a plugin trusts it: its code runs in every "
        f"process that looks up a bot; {DISABLED_VARIABLE} lists plugins not to load. "
        "'tajmahal plugins' lists every plugin, those that offer no bot too.",
    )
    command.add_argument(
        "--json", action="store_true",
        help="print one JSON document instead of the table: 'bots' (name, package, version, "
        "plugin, description, the options it declares types for) and 'problems' (plugin, package, "
        "error, ran)",
    )  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    registry = default_registry()
    infos = registry.bot_infos()
    if args.json:
        document = {
            "bots": [_bot_document(info) for info in infos.values()],
            "problems": [
                {"plugin": p.plugin, "package": p.package, "error": p.error, "ran": p.ran}
                for p in registry.problems
            ],
        }
        print(json.dumps(document, indent=2))
        return 0
    rows = [("NAME", "PACKAGE", "VERSION", "DESCRIPTION")]
    rows += [(i.name, i.origin, i.version or "?", i.description) for i in infos.values()]
    widths = [max(len(row[k]) for row in rows) for k in range(3)]
    for name, origin, version, description in rows:
        line = f"{name:<{widths[0]}}  {origin:<{widths[1]}}  {version:<{widths[2]}}  {description}"
        print(line.rstrip())
    problems = registry.problems
    ran = [problem for problem in problems if problem.ran]
    if ran:
        print(f"\nLoaded with problems, their bots not offered ({len(ran)}; their code ran):")
        for problem in ran:
            print(f"  {problem}")
    skipped = [problem for problem in problems if not problem.ran]
    if skipped:
        print(f"\nSkipped, not loaded ({len(skipped)}):")
        for problem in skipped:
            print(f"  {problem}")
    print(f"\n{TRUST}")
    return 0


TRUST = (
    "Installing a plugin trusts it: every installed plugin is imported, and its code runs, "
    "in every tajmahal process that looks up a bot (the referee of every match, also with "
    f"--isolate). {DISABLED_VARIABLE}=NAME,... (entry-point or package names) keeps "
    "plugins from loading."
)


def _bot_document(info: BotInfo) -> dict[str, Any]:
    """One bot as ``--json`` lists it: ``options`` are those it declares types for."""
    try:
        options = {
            name: ["None" if kind is type(None) else str(getattr(kind, "__name__", kind))
                   for kind in kinds]
            for name, kinds in option_types(info.bot_class).items()
        }  # fmt: skip
    except Exception:  # a plugin's class whose declarations cannot be read: none shown
        options = {}
    return {
        "name": info.name, "package": info.origin, "version": info.version or None,
        "plugin": info.plugin, "description": info.description, "options": options,
    }  # fmt: skip
