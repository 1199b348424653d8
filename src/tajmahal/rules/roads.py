"""Walking the roads: the one helper for everything that follows roads between cities.

Scoring (K7, K8), the components check that a province's cities are joined
and :meth:`tajmahal.Board.reachable` (which bots use) all call
:func:`reachable`, on city indices or on city ids.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

__all__ = ["reachable"]

C = TypeVar("C", bound=Hashable)


def reachable(
    starts: Iterable[C],
    neighbours: Callable[[C], Iterable[C]],
    through: Callable[[C], bool] | None = None,
) -> set[C]:
    """The cities reached from ``starts`` road by road, entering only cities ``through`` allows.

    ``starts`` are always included; ``through=None`` accepts every city.

    >>> roads = {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}
    >>> sorted(reachable([1], roads.__getitem__))
    [1, 2, 3, 4]
    >>> sorted(reachable([1], roads.__getitem__, through=lambda city: city != 3))
    [1, 2]
    """
    reached = set(starts)
    frontier = list(reached)
    while frontier:
        for other in neighbours(frontier.pop()):
            if other not in reached and (through is None or through(other)):
                reached.add(other)
                frontier.append(other)
    return reached
