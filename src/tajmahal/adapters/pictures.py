"""What the environments' ``render()`` returns: a text summary, the board as SVG or pixels."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from tajmahal.adapters._extras import missing_extra
from tajmahal.rules.setup import place_tiles
from tajmahal.rules.state import GameState

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["RENDER_MODES", "check_render_mode", "render", "rgb_array", "state_text"]

#: ``"human"``: :func:`state_text` printed (after every step); ``"ansi"``: the same text
#: returned; ``"svg"``: the board picture with its tiles and palaces, returned;
#: ``"rgb_array"``: that picture as pixels (:func:`rgb_array`), for video recorders
RENDER_MODES: tuple[str, ...] = ("human", "ansi", "svg", "rgb_array")


def state_text(state: GameState) -> str:
    """A few lines on the state: visit, province, scores, hands, table, supply, next seat.

    Only public facts and hand sizes are shown, never a hand's cards.

    >>> import tajmahal as tm
    >>> lines = state_text(tm.new_game(num_players=3, seed=1)).splitlines()
    >>> print(*lines[:2], lines[-1], sep=chr(10))
    visit 1 of 12, province thatta, phase play
    seat 0: 0 points, 6 cards in hand, table: -
    next: seat 0
    """
    view = state.view(0)
    lines = [
        f"visit {view.visit} of {len(view.province_order)}, province {view.province}, "
        f"phase {view.phase.value}"
    ]
    for seat in range(view.num_players):
        table = " ".join(map(str, view.table[seat])) or "-"
        withdrawn = ", withdrawn" if view.withdrawn[seat] else ""
        lines.append(
            f"seat {seat}: {view.scores[seat]} points, {view.hand_sizes[seat]} cards in hand, "
            f"table: {table}{withdrawn}"
        )
    lines.append("supply: " + (" ".join(map(str, view.supply)) or "-"))
    if state.is_over:
        lines.append("game over, winners: " + " ".join(f"seat {s}" for s in state.winners))
    else:
        lines.append(f"next: seat {state.current_player}")
    return "\n".join(lines)


def check_render_mode(mode: str | None) -> str | None:
    """``mode`` if it is one of :data:`RENDER_MODES` or None, else an ``AdapterError``.

    >>> check_render_mode('rgb')
    Traceback (most recent call last):
    ...
    tajmahal.adapters.actions.AdapterError: render_mode must be one of human, ansi, svg, ...
    """
    if mode is not None and mode not in RENDER_MODES:
        from tajmahal.adapters.actions import AdapterError

        raise AdapterError(
            f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {mode!r}"
        )
    return mode


def _board_svg(state: GameState) -> str:
    from tajmahal.render import render_board

    placement = place_tiles(state.components, state.seed)
    return render_board(state.components, placement, state)


def rgb_array(state: GameState) -> npt.NDArray[np.uint8]:
    """The board picture (the ``"svg"`` mode's) as an RGB array of shape (height, width, 3).

    The SVG is drawn by resvg (``resvg-py``: a self-contained renderer, no system library)
    on white and decoded by Pillow; both come with the extras ``pettingzoo`` and
    ``gymnasium``.

    >>> import tajmahal as tm
    >>> pixels = rgb_array(tm.new_game(num_players=3, seed=1))
    >>> pixels.dtype.name, pixels.ndim, pixels.shape[2]
    ('uint8', 3, 3)
    """
    try:
        import numpy as np
        import resvg_py
        from PIL import Image
    except ImportError as missing:
        extras = ("gymnasium", "pettingzoo")
        raise missing_extra("render_mode 'rgb_array'", extras, missing) from missing
    png = bytes(resvg_py.svg_to_bytes(svg_string=_board_svg(state), background="white"))
    with Image.open(io.BytesIO(png)) as picture:
        return np.asarray(picture.convert("RGB"), dtype=np.uint8)


def render(state: GameState, mode: str) -> str | npt.NDArray[np.uint8] | None:
    """``state`` drawn as ``mode`` asks (one of :data:`RENDER_MODES`).

    >>> import tajmahal as tm
    >>> render(tm.new_game(num_players=3, seed=1), 'svg').startswith('<svg')
    True
    >>> render(tm.new_game(num_players=3, seed=1), 'human')
    visit 1 of 12, province thatta, phase play
    ...
    """
    if mode == "human":
        print(state_text(state))
        return None
    if mode == "svg":
        return _board_svg(state)
    if mode == "rgb_array":
        return rgb_array(state)
    return state_text(state)
