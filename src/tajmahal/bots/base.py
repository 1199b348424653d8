"""The Bot protocol: what the referee needs from a bot, and nothing more.

A bot is a class with a ``name`` and a ``choose`` method, built as
``BotClass(seed=..., **options)``.  It sees only its seat's
:class:`~tajmahal.PlayerView` and the legal moves, never the full state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["Bot", "describe"]


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
