"""The plugin hooks of ``tajmahal`` (pluggy project name ``"tajmahal"``).

A plugin is a module (or any object) with functions marked
``@tajmahal.hookimpl`` whose names match the hooks below.  Plugins are found
through the entry-point group ``"tajmahal"``; the built-in bots register
through the same hook (see :mod:`tajmahal.bots.builtin`).
"""

from __future__ import annotations

from collections.abc import Iterable

import pluggy

from tajmahal.bots.base import Bot

__all__ = ["PROJECT", "hookimpl", "hookspec", "tajmahal_bots"]

PROJECT = "tajmahal"
#: marks a hook declaration (used in this module only)
hookspec = pluggy.HookspecMarker(PROJECT)
#: marks a plugin's implementation of a hook: ``@tajmahal.hookimpl``
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def tajmahal_bots() -> Iterable[type[Bot]]:  # type: ignore[empty-body]
    """Return the bot classes this plugin provides.

    **Writing a bot.**  A bot is a class with

    - ``name``: a class attribute, the name players type
      (``tajmahal match mybot random random``): lowercase letters, digits and
      ``_ . -``, starting with a letter or digit, unique among all installed
      plugins;
    - ``__init__(self, seed: int = 0, **options)``: the referee builds every
      bot as ``BotClass(seed=...)``; take all randomness from that seed
      (``random.Random(seed)``) so that matches replay exactly;
    - ``choose(self, view, legal_moves) -> Move``: ``view`` is the seat's
      :class:`tajmahal.PlayerView` (public facts and the bot's own hand, never
      the full state); ``legal_moves`` is the non-empty tuple of legal moves,
      in a fixed order.  Return one of them.
    - a docstring whose first line describes the bot (``tajmahal bots``
      prints it).

    A bot that raises, returns a move that is not in ``legal_moves`` or
    exceeds the referee's time limit is not stopped: the referee records a
    fault, plays the first legal move for it, and ranks it after every seat
    without faults.

    **Publishing it.**  Implement this hook in a module of your package and
    name that module in the entry-point group ``"tajmahal"`` of your
    ``pyproject.toml``::

        # my_bots/__init__.py
        import tajmahal as tm

        class Cautious:
            '''Withdraws as soon as it holds a majority.'''
            name = "cautious"
            def __init__(self, seed: int = 0) -> None: ...
            def choose(self, view, legal_moves): ...

        @tm.hookimpl
        def tajmahal_bots():
            return [Cautious]

        # pyproject.toml
        [project.entry-points.tajmahal]
        my_bots = "my_bots"

    After ``pip install``, ``tajmahal bots`` lists the bot and
    ``tajmahal.bots.create("cautious", seed=1)`` builds it.  Two plugins
    offering the same name is an error that names both.

    >>> import tajmahal as tm
    >>> {'greedy', 'random'} <= set(tm.bots.available())
    True
    """
