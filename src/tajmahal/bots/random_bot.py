"""The ``random`` bot: a uniform choice among the legal moves."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["RandomBot"]


class RandomBot:
    """Plays a uniformly random legal move (seeded).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=2)
    >>> bot = RandomBot(seed=5)
    >>> move = bot.choose(state.view(0), state.legal_moves())
    >>> move in state.legal_moves()
    True
    >>> RandomBot(seed=5).choose(state.view(0), state.legal_moves()) == move
    True
    """

    name: ClassVar[str] = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal_moves: Sequence[Move]) -> Move:
        """A uniformly random element of ``legal_moves``.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> bot = RandomBot(seed=5)
        >>> [str(bot.choose(state.view(0), state.legal_moves())) for _ in range(3)]
        ['play green:elephant+general', 'play yellow:elephant+elephant', 'withdraw']
        """
        return legal_moves[self._rng.randrange(len(legal_moves))]
