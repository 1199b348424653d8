"""``tajmahal bots``: list the installed bots."""

from __future__ import annotations

import argparse

from tajmahal.bots.registry import bot_infos
from tajmahal.cli._common import Commands, add_command

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    add_command(
        commands,
        "bots",
        _run,
        summary="list the installed bots",
        description="List every installed bot: its name, the package it comes from, and what "
        "it does. Plugins add bots through the entry-point group 'tajmahal'.",
    )


def _run(args: argparse.Namespace) -> int:
    infos = bot_infos()
    rows = [("NAME", "PACKAGE", "DESCRIPTION")]
    rows += [(i.name, i.origin, i.description) for i in infos.values()]
    widths = [max(len(row[k]) for row in rows) for k in range(2)]
    for name, origin, description in rows:
        print(f"{name:<{widths[0]}}  {origin:<{widths[1]}}  {description}".rstrip())
    return 0
