"""Where does ``ismcts`` lose? A bot that splits the decisions between two bots (issue 36).

``SplitBot`` lets one bot make the play-or-withdraw decisions and another
everything else (supply cards, palaces), so a strength run tells which kind
of decision a bot loses points on::

    python benchmarks/strength.py "file:benchmarks/split_bot.py:SplitBot:play=flat" \\
        file:benchmarks/outside_bots.py:FlatMcBot:samples=14 greedy --deals 40

``play=flat``: ``FlatMcBot`` plays or withdraws, ``ismcts`` (tree search,
``flat=off``) makes the other decisions; ``play=ismcts``: the other way round.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path

import tajmahal as tm
from tajmahal.bots.ismcts import IsmctsBot


def _outside_bots():  # type: ignore[no-untyped-def]
    """``outside_bots.py`` beside this file (a ``file:`` bot is loaded without its folder
    on ``sys.path``)."""
    name = "tajmahal_benchmarks_outside_bots"
    module = sys.modules.get(name)
    if module is None:
        path = Path(__file__).with_name("outside_bots.py")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


FlatMcBot = _outside_bots().FlatMcBot

__all__ = ["SplitBot"]


class SplitBot:
    """``play`` (``flat`` or ``ismcts``) plays or withdraws; the other decides the rest."""

    name = "split"

    def __init__(self, seed: int = 0, play: str = "flat") -> None:
        if play not in ("flat", "ismcts"):
            raise ValueError(f"play must be flat or ismcts, got {play!r}")
        self.flat = FlatMcBot(seed=seed)
        self.ismcts = IsmctsBot(seed=seed + 1, flat="off")
        self.play = play

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        playing = view.phase is tm.Phase.PLAY
        bot = self.flat if playing == (self.play == "flat") else self.ismcts
        return bot.choose(view, legal_moves)
