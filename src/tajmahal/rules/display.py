"""Pictures of states and views for notebooks (``_repr_svg_``), drawn by a registered drawer.

Nothing in ``rules`` draws or imports from outside ``rules``: the drawing code
(:mod:`tajmahal.render`) registers itself here with :func:`set_svg_drawer`;
``import tajmahal`` registers a drawer that loads it on the first picture.
Without a drawer, states and views have no picture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["set_svg_drawer", "svg_picture"]

_drawer: list[Callable[[Any], str]] = []


def set_svg_drawer(draw: Callable[[Any], str]) -> None:
    """Make ``draw(state_or_view)`` the picture of every GameState and PlayerView."""
    _drawer[:] = [draw]


def svg_picture(obj: Any) -> str | None:
    """The registered drawer's SVG of ``obj``, or None when nothing is registered."""
    return _drawer[0](obj) if _drawer else None
