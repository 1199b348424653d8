"""The plugin hooks of ``tajmahal`` (pluggy project name ``"tajmahal"``).

A plugin is a module (or any object) with functions marked
``@tajmahal.hookimpl`` whose names match the hooks below.  Plugins are found
through the entry-point group ``"tajmahal"``; the built-in bots register
through the same hook (see :mod:`tajmahal.bots.builtin`).

Two kinds of hook: **bots** (:func:`tajmahal_bots`, the bots a plugin
offers) and **observers** (:func:`tajmahal_match_started`,
:func:`tajmahal_decision_made`, :func:`tajmahal_match_finished`: a plugin
that watches every match the referee plays, for statistics, logs or
datasets).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:  # annotations only: the hooks' contracts (the bots' floor and below)
    from tajmahal.bots.base import Bot
    from tajmahal.events import DecisionMade, MatchStarted
    from tajmahal.match_result import MatchResult

__all__ = [
    "PROJECT",
    "hookimpl",
    "hookspec",
    "tajmahal_bots",
    "tajmahal_decision_made",
    "tajmahal_match_finished",
    "tajmahal_match_started",
]

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
    offering the same name is an error that names both.  ``tajmahal new-bot
    NAME`` writes such a package to start from, with tests that call
    :func:`tajmahal.testing.check_bot`; ``tajmahal plugins`` lists every
    installed plugin and the hooks it implements.

    >>> import tajmahal as tm
    >>> {'greedy', 'random'} <= set(tm.bots.available())
    True
    """


# ---------------------------------------------------------------------------- observers


@hookspec
def tajmahal_match_started(match: MatchStarted) -> None:
    """Called once before a match's first decision.

    :param match: the players (specs) by seat, the seed and the components.

    **Writing an observer.**  An observer is an object (or module) with any of
    the three observer hooks as methods.  Pass it to
    ``tm.play_match(..., observers=[MyObserver()])``, or publish it as a plugin
    in the entry-point group ``"tajmahal"`` (functions marked
    ``@tajmahal.hookimpl``, as for bots): then it watches every match played
    in a process where the package is installed.  An observer's return value
    is ignored.  An observer that raises does not stop the match: the referee
    reports it with a :class:`tajmahal.referee.observers.ObserverWarning` and stops
    calling that observer for the rest of the match.

    >>> import tajmahal as tm
    >>> class Counter:
    ...     def tajmahal_match_started(self, match):
    ...         self.moves = 0
    ...     def tajmahal_decision_made(self, decision):
    ...         self.moves += 1
    >>> counter = Counter()
    >>> result = tm.play_match(['random'] * 3, seed=2, observers=[counter])
    >>> counter.moves == len(result.record.moves)
    True
    """


@hookspec
def tajmahal_decision_made(decision: DecisionMade) -> None:
    """Called after each decision of a match has been played.

    :param decision: the seat, the view it decided on, the legal moves, the
        move played, the seconds it took, and the events the move caused
        (public facts only; see :mod:`tajmahal.events`).

    >>> import tajmahal as tm
    >>> class Narrator:
    ...     def tajmahal_decision_made(self, decision):
    ...         if decision.number == 1:
    ...             print(decision.events.lines()[0])
    >>> _ = tm.play_match(['greedy', 'random', 'random'], seed=2, observers=[Narrator()])
    seat 0 plays yellow:elephant+monk
    """


@hookspec
def tajmahal_match_finished(result: MatchResult) -> None:
    """Called once when a match has ended, with its :class:`tajmahal.MatchResult`.

    :param result: scores, winners, ranking, faults and the game record.

    >>> import tajmahal as tm
    >>> class Tally:
    ...     def tajmahal_match_finished(self, result):
    ...         print(result.winners)
    >>> _ = tm.play_match(['random'] * 3, seed=1, observers=[Tally()])
    (1,)
    """
