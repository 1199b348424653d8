"""The key beside a game's board: the visit, each seat's colour, name and score, the court."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from tajmahal.render._draw import _HOUSE, _text
from tajmahal.render._map_layout import Tiles
from tajmahal.render._svg import (
    INK,
    TITLE_FONT,
    Attrs,
    Box,
    _el,
    _points,
    _text_width,
    seat_color,
)
from tajmahal.rules.components import INFLUENCE, Components
from tajmahal.rules.views import PlayerView

__all__ = ["PANEL_WIDTH", "draw_panel", "panel_height", "state_tiles"]

PANEL_WIDTH = 250.0
_ROW = 22.0


def state_tiles(components: Components, view: PlayerView) -> Tiles:
    """The tiles still on the board: the province tiles of the visits to come, the bonus tiles
    no palace has taken (the current visit's tile lies in the court, E4)."""
    by_number = {t.number: t for t in components.province_tiles}
    province = {
        pid: by_number[k]
        for k, pid in enumerate(view.province_order, start=1)
        if k > view.visit and k in by_number and not view.is_over
    }
    return Tiles(province, dict(view.bonus_tiles), explained=True)


def panel_height(view: PlayerView, hand: bool = False) -> float:
    lines = len(_facts(view)) + (len(_hand_lines(view)) if hand else 0)
    return 66.0 + _ROW * view.num_players + 8 + 16 * lines + 4


def _hand_lines(view: PlayerView) -> list[tuple[float, str]]:
    """The view's own hand, by color, wrapped to the key's width, as (indent, text) lines."""
    by_color: dict[str, list[str]] = {}
    for card in sorted(view.hand, key=lambda card: card.sort_key):
        color, _, symbols = str(card).partition(":")
        by_color.setdefault(color, []).append(symbols)
    lines = [(0.0, f"hand of seat {view.seat}: {_cards(len(view.hand))}")]
    room = PANEL_WIDTH - 24 - 12
    for color, cards in by_color.items():
        words = [symbols + ("," if k < len(cards) - 1 else "") for k, symbols in enumerate(cards)]
        line = f"{color}:"
        for word in words:  # the first card stays beside its color
            if _text_width(f"{line} {word}", 11) > room and not line.endswith(":"):
                lines.append((12.0, line))
                line = word
            else:
                line = f"{line} {word}"
        lines.append((12.0, line))
    return lines


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}" if count else "no cards"


def _facts(view: PlayerView) -> list[tuple[float, str]]:
    """The court (two prizes a line) and the card supply, as (indent, text) lines."""
    court = [s.value for s in INFLUENCE if s in view.court_influence]
    if view.court_crown:
        court.append("crown")
    pairs = [", ".join(court[k : k + 2]) for k in range(0, len(court), 2)] or ["empty"]
    tile = view.court_province_tile
    if tile is not None:
        goods = "+".join(c.value for c in tile.commodities)
        pairs.append(f"province tile {tile.number} ({goods})")
    lines = [(0.0 if k == 0 else 37.0, ("court: " if k == 0 else "") + text)
             for k, text in enumerate(pairs)]  # fmt: skip
    lines.append((0.0, f"supply: {len(view.supply)} cards, deck: {view.deck_size}"))
    return lines


def _seat_label(seat: int, players: Sequence[str]) -> str:
    return _label(seat, players[seat] if seat < len(players) else "")


@lru_cache(maxsize=64)  # a replay draws the same few labels at every step
def _label(seat: int, name: str) -> str:
    label = f"seat {seat}" + (f" {name}" if name else "")
    room = PANEL_WIDTH - 110
    if _text_width(label, 12) <= room:
        return label
    width, kept = _text_width("…", 12), 0  # the longest start that fits with "…" (linear)
    for char in label:
        width += _text_width(char, 12)
        if width > room and kept >= 7:
            break
        kept += 1
    return label[:kept] + "…"


def draw_panel(
    box: Box, view: PlayerView, players: Sequence[str], hand: bool = False
) -> list[str]:
    """The key: visit and province, a row per seat (colour, name, score, who is to play), court;
    with ``hand``, the view's own hand (only its seat may see it: the picture of a view)."""
    x, y = box[0], box[1]
    board = view.components.board
    frame: Attrs = {"x": x, "y": y, "width": box[2] - x, "height": box[3] - y, "rx": 6}
    province = board.province(view.province).name
    title = "Game over" if view.is_over else f"Visit {view.visit} of {len(view.province_order)}"
    heading: Attrs = {"x": x + 12, "y": y + 26, "font-family": TITLE_FONT, "font-size": 19}
    out = [
        '<g class="key">',
        _el("rect", {**frame, "fill": "#fbf6e9", "stroke": "#b59c74"}),
        _el("text", {**heading, "font-weight": "bold", "fill": INK, "class": "visit"}, title),
    ]
    where = "final scores" if view.is_over else f"in {province}"
    out.append(_text(x + 12, y + 44, where, "key-province", 12.5, bold=True, fill="#8a1c1c"))
    top = y + 66
    best = max(view.scores)
    for seat in range(view.num_players):
        row = top + _ROW * seat
        house = _points((x + 20 + px * 0.9, row - 4 + py * 0.9) for px, py in _HOUSE)
        swatch = {"points": house, "fill": seat_color(seat), "stroke": INK, "stroke-width": "1"}
        out.append(_el("polygon", swatch))
        note = ""
        if view.is_over and view.scores[seat] == best:
            note = "wins" if view.scores.count(best) == 1 else "shares the win"
        elif seat == view.current_player:
            note = "to play"
        elif view.withdrawn[seat]:
            note = "withdrawn"
        attrs = {"data-seat": seat}
        label = _seat_label(seat, players)
        bold = seat == view.current_player or bool(note and view.is_over)
        out.append(_text(x + 34, row + 4, label, "key-seat", 12, bold=bold, extra=attrs))
        score = str(view.scores[seat])
        out.append(
            _text(x + PANEL_WIDTH - 70, row + 4, score, "key-score", 13, anchor="end",
                  bold=True, extra=attrs)
        )  # fmt: skip
        if note:
            out.append(_text(x + PANEL_WIDTH - 64, row + 4, note, "key-note", 10, fill="#6b5a45"))
    row = top + _ROW * view.num_players + 8
    for k, (indent, text) in enumerate(_facts(view)):
        out.append(_text(x + 12 + indent, row + 16 * k + 4, text, "key-text", 11, fill="#4a3b2b"))
    if hand:
        row += 16 * len(_facts(view))
        for k, (indent, text) in enumerate(_hand_lines(view)):
            y_text = row + 16 * k + 4
            out.append(_text(x + 12 + indent, y_text, text, "key-hand", 11, fill="#1f3b5a"))
    out.append("</g>")
    return out
