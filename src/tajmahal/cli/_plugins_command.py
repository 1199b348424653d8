"""``tajmahal plugins``: list every installed plugin and what it provides."""

from __future__ import annotations

import argparse
import json

from tajmahal.bots.plugins import plugin_infos
from tajmahal.cli._bots_command import TRUST
from tajmahal.cli._common import Commands, add_command

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    command = add_command(
        commands,
        "plugins",
        _run,
        summary="list the installed plugins and what they provide",
        description="List every plugin installed in the entry-point group 'tajmahal', loaded "
        "or not: its entry point, package and version, what it provides (bots it offers, "
        "match observer hooks: a plugin that only observes runs in every match all the same) "
        "and what went wrong loading it.",
    )
    command.add_argument("--all", action="store_true",
                         help="list tajmahal's own bots too (the plugin 'tajmahal')")
    command.add_argument(
        "--json", action="store_true",
        help="print one JSON document instead: 'plugins', each with name, package, version, "
        "module, status, hooks, bots, observes and problems",
    )  # fmt: skip


def _run(args: argparse.Namespace) -> int:
    infos = plugin_infos(builtin=args.all)
    if args.json:
        print(json.dumps({"plugins": [info.as_dict() for info in infos]}, indent=2))
        return 0
    if not infos:
        print("No plugins installed (tajmahal plugins --all lists tajmahal's own bots).")
        return 0
    rows = [("NAME", "PACKAGE", "VERSION", "MODULE", "PROVIDES")]
    rows += [(i.name, i.package, i.version or "?", i.module or "-",
              i.provides() if i.status.startswith("loaded") else f"({i.status})")
             for i in infos]  # fmt: skip
    widths = [max(len(row[k]) for row in rows) for k in range(4)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[4]]))
    troubled = [info for info in infos if info.problems]
    if troubled:
        print("\nProblems:")
        for info in troubled:
            for problem in info.problems:
                print(f"  {info.name} ({info.package}, {info.status}): {problem}")
    print(f"\n{TRUST}")
    return 0
