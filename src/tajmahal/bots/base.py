"""The Bot protocol: what the referee needs from a bot, and nothing more.

A bot is a class with a ``name`` and a ``choose`` method, built as
``BotClass(seed=..., **options)``.  It sees only its seat's
:class:`~tajmahal.PlayerView` and the legal moves, never the full state.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["Bot", "current_deadline", "decision_deadline", "describe"]


@runtime_checkable
class Bot(Protocol):
    """A player the referee can seat: ``name``, ``choose``, built as ``BotClass(seed=...)``.

    ``name`` is the bot's registered name (lowercase letters, digits, ``_ . -``).
    ``choose`` gets the seat's view and the legal moves (never empty) and returns
    one of those moves.  The same seed and the same calls must give the same
    choices, so that matches can be replayed.  The first line of the class
    docstring is the one-line description ``tajmahal bots`` prints.

    >>> import random
    >>> class FirstMove:
    ...     '''Always plays the first legal move.'''
    ...     name = 'first'
    ...     def __init__(self, seed: int = 0) -> None:
    ...         self.rng = random.Random(seed)
    ...     def choose(self, view, legal_moves):
    ...         return legal_moves[0]
    >>> isinstance(FirstMove(seed=1), Bot)
    True
    """

    name: ClassVar[str]

    def __init__(self, seed: int = 0, **options: Any) -> None: ...

    def choose(self, view: PlayerView, legal_moves: Sequence[Move]) -> Move:
        """Return one of ``legal_moves`` for the seat whose ``view`` this is.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> bot = tm.bots.create('greedy')
        >>> move = bot.choose(state.view(0), state.legal_moves())
        >>> str(move), move in state.legal_moves()
        ('play red:elephant+monk', True)
        """
        ...


def describe(bot_class: type[Any]) -> str:
    """The first line of a bot class's docstring (or an empty string).

    >>> class Quiet:
    ...     '''Plays quietly.
    ...
    ...     More text.'''
    >>> describe(Quiet)
    'Plays quietly.'
    """
    doc = (bot_class.__doc__ or "").strip()
    return doc.splitlines()[0].strip() if doc else ""


_deadlines = threading.local()


@contextlib.contextmanager
def decision_deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, a search bot deciding in this thread stops searching ``seconds`` from
    now at the latest, whatever its own budget, and answers with what it found (a host's hard
    limit: a server's move limit, a hint's or an analysis's time). Nested blocks keep the
    earliest deadline; ``None`` adds none. The built-in ``ismcts`` honours it (the budget it
    cuts short is its own: an iteration budget that ends first plays as it always does).

    >>> with decision_deadline(5.0):
    ...     0 < current_deadline() - time.monotonic() <= 5.0
    True
    >>> current_deadline() is None
    True
    """
    before = current_deadline()
    at = None if seconds is None else time.monotonic() + max(0.0, seconds)
    _deadlines.at = before if at is None else at if before is None else min(before, at)
    try:
        yield
    finally:
        _deadlines.at = before


def current_deadline() -> float | None:
    """The ``time.monotonic()`` time by which a decision in this thread must end (see
    :func:`decision_deadline`), or None."""
    at: float | None = getattr(_deadlines, "at", None)
    return at
