"""What the environments' ``render()`` returns: a text summary or the board as SVG."""

from __future__ import annotations

from tajmahal.rules.setup import place_tiles
from tajmahal.rules.state import GameState

__all__ = ["RENDER_MODES", "check_render_mode", "render", "state_text"]

#: ``"human"``: :func:`state_text` printed (after every step); ``"ansi"``: the same text
#: returned; ``"svg"``: the board picture with its tiles and palaces, returned
RENDER_MODES: tuple[str, ...] = ("human", "ansi", "svg")


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

    >>> check_render_mode('rgb_array')
    Traceback (most recent call last):
    ...
    tajmahal.adapters.actions.AdapterError: render_mode must be one of human, ansi, svg ...
    """
    if mode is not None and mode not in RENDER_MODES:
        from tajmahal.adapters.actions import AdapterError

        raise AdapterError(
            f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {mode!r}"
        )
    return mode


def render(state: GameState, mode: str) -> str | None:
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
        from tajmahal.render import render_board

        placement = place_tiles(state.components, state.seed)
        return render_board(state.components, placement, state)
    return state_text(state)
