"""Who orders a reshuffled discard pile (D1): the game's seed, or a caller for one ``apply``.

By default a reshuffle is a shuffle of the sorted discard pile drawn from the
game's seed (S10).  A caller that models the reshuffle as chance events of
its own (the OpenSpiel adapter: one chance node per card) orders the pile
itself inside :func:`ordering_reshuffles`.  Only :meth:`tajmahal.GameState.apply`
asks; the fast playout path (:mod:`tajmahal.rules.playout`) always uses the seed.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence

from tajmahal.rules.errors import TajMahalError

__all__ = ["ReshuffleOrder", "ordered_pile", "ordering_reshuffles"]

#: (the discard pile, sorted card kinds; the reshuffle's index) -> the new deck, top card last
ReshuffleOrder = Callable[[tuple[int, ...], int], Sequence[int]]

_ORDER: contextvars.ContextVar[ReshuffleOrder | None] = contextvars.ContextVar(
    "tajmahal_reshuffle_order", default=None
)


class ordering_reshuffles:
    """Within the block, ``order(pile, index)`` gives the deck every reshuffle makes.

    >>> with ordering_reshuffles(lambda pile, index: pile[::-1]):
    ...     ordered_pile((3, 5, 8), 0)
    (8, 5, 3)
    """

    __slots__ = ("_order", "_token")

    def __init__(self, order: ReshuffleOrder) -> None:
        self._order = order

    def __enter__(self) -> None:
        self._token = _ORDER.set(self._order)

    def __exit__(self, *exc: object) -> None:
        _ORDER.reset(self._token)


def ordered_pile(pile: tuple[int, ...], index: int) -> tuple[int, ...] | None:
    """The deck the caller's order makes of ``pile``, or None when no caller orders it.

    A caller's deck must hold exactly the pile's cards (:class:`TajMahalError` if not).

    >>> ordered_pile((1, 2), 0) is None
    True
    """
    order = _ORDER.get()
    if order is None:
        return None
    deck = tuple(order(pile, index))
    if sorted(deck) != sorted(pile):
        raise TajMahalError(f"a reshuffle order must hold the discard pile's cards, got {deck!r}")
    return deck
