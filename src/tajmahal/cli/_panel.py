"""The terminal game's compact table panel: rich markup that fits 80 columns with five seats."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from tajmahal.analysis import CityOption, TableSummary, summarize, withdrawal
from tajmahal.names import (
    SYMBOL_SHORT,
    card_name,
    display_name,
    move_name,
    move_parts,
    symbol_name,
)
from tajmahal.rules.components import INFLUENCE, Card, Color, Components, Symbol
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = [
    "SHORT",
    "SUIT_STYLE",
    "card_markup",
    "move_markup",
    "moves_lines",
    "options_lines",
    "panel_lines",
]

WIDTH = 80
_MEASURE = Console(width=WIDTH, color_system=None)  # only measures text for wrapping
SUIT_STYLE = {
    Color.RED: "bold red",
    Color.YELLOW: "bold yellow",
    Color.GREEN: "bold green",
    Color.VIOLET: "bold magenta",
    Color.WHITE: "bold white",
    Color.SPECIAL: "bold cyan",
}
#: three letters per symbol (``help`` in the game lists them): the library's short names
SHORT = SYMBOL_SHORT


def _short(card: Card) -> str:
    """A card's short name without its suit (the suit is named once for a group of cards)."""
    if card.special is not None:
        return card_name(card, short=True)
    return "+".join(symbol_name(s, short=True) for s in card.symbols)


def card_markup(card: Card, short: bool = False, suit: bool = True) -> str:
    """A card in its suit's colour: ``[bold red]red vizier+monk[/]``
    (:func:`tajmahal.names.card_name`)."""
    text = _short(card) if short and not suit else card_name(card, short=short)
    return f"[{SUIT_STYLE[card.color]}]{escape(text)}[/]"


def move_markup(move: Move, components: Components | None = None) -> str:
    """A move in the library's short words (:func:`tajmahal.names.move_name` ``short``), its
    cards coloured.

    >>> import tajmahal as tm
    >>> move_markup(tm.TakeCard(tm.Card.parse('white:monk')))
    'take [bold white]white mon[/]'
    """
    return "".join(
        escape(text) if card is None else f"[{SUIT_STYLE[card.color]}]{escape(text)}[/]"
        for text, card in move_parts(move, components, short=True)
    )


def _seat_name(seat: int, players: Sequence[str], you: int) -> str:
    name = "you" if seat == you else (players[seat] if seat < len(players) else "")
    return f"{seat} {name.split(':')[0]}"[:10]


def _cards_line(cards: Sequence[Card]) -> str:
    """Cards grouped by suit, the suit named once: ``red viz+monk, eleph · white monk``."""
    groups: dict[Color, list[Card]] = {}
    for card in cards:
        groups.setdefault(card.color, []).append(card)
    parts = []
    for color, mine in groups.items():
        style = SUIT_STYLE[color]
        texts = ", ".join(escape(_short(c)) for c in mine)
        label = "" if color is Color.SPECIAL else f"{color.value} "
        parts.append(f"[{style}]{label}{texts}[/]")
    return ", ".join(parts)


def panel_lines(
    view: PlayerView,
    players: Sequence[str],
    table: TableSummary | None = None,
    *,
    owned: bool = False,
) -> list[Text]:
    """The table as ``view.seat`` sees it, in rich markup, each line at most 80 columns wide.

    A header (visit, province, the prizes still in the court), one row per
    seat (score, cards in hand, its symbol totals with the leader marked
    ``*`` and a tie ``=``, and its cards on the table), with ``owned`` what
    each seat owns (the summary's holdings), the supply, the seat's hand, and
    what withdrawing now would win.

    >>> import tajmahal as tm
    >>> lines = panel_lines(tm.new_game(5, seed=1).view(0), ['you', 'a', 'b', 'c', 'd'])
    >>> max(len(line.plain) for line in lines) <= 80, len(lines) <= 14
    (True, True)
    """
    table = table if table is not None else summarize(view)
    comps = view.components
    court = [SHORT[s] for s in INFLUENCE if s in view.court_influence]
    court += ["crown"] if view.court_crown else []
    tile = view.court_province_tile
    goods = f", tile {tile.number} {'+'.join(c.value for c in tile.commodities)}" if tile else ""
    head = (
        f"[bold]Visit {view.visit}/{len(view.province_order)} "
        f"{escape(display_name(view.province, comps))}[/]{goods} · in the court: "
        + (" ".join(court) or "nothing")
    )
    lines = _wrap("", head)
    symbols = list(Symbol)
    lines.append(
        Text("  seat        pts hd " + " ".join(f"{SHORT[s]:>3}" for s in symbols)
             + " table this visit", style="dim")
    )  # fmt: skip
    for row in table.seats:
        mark = "[bold]>[/]" if row.seat == view.current_player else " "
        name = escape(_seat_name(row.seat, players, view.seat))
        start = f"{mark} {name:<10} {row.score:>3} {row.hand_size:>2} "
        if row.withdrawn:
            lines.append(Text.from_markup(start + "[dim]withdrawn[/]"))
            continue
        cells = []
        for i, prize in enumerate(table.prizes):
            count = row.totals[i]
            if not count:
                cells.append("  .")
                continue
            lead = row.seat in prize.leaders
            flag = ("=" if prize.tied else "*") if lead else " "
            cell = f"{count:>2}{flag}"
            cells.append(f"[bold]{cell}[/]" if lead and not prize.tied else cell)
        played = _cards_line(row.cards) if row.cards else "[dim]-[/]"
        lines.extend(_wrap(start + " ".join(cells) + " ", played))
    owners = [
        f"{escape(_seat_name(h.seat, players, view.seat))}: {escape(', '.join(h.parts()))}"
        for h in table.holdings
        if h.parts()
    ]
    if owned:
        lines.extend(_wrap("Owned: ", "; ".join(owners) or "nothing yet"))
    supply = _cards_line(sorted(view.supply, key=lambda c: c.sort_key)) or "-"
    lines.extend(_wrap("Supply: ", supply))
    lines.extend(_wrap(f"Hand ({len(view.hand)}): ", _cards_line(view.hand) or "-"))
    if view.current_player == view.seat and view.phase.value == "play":
        lines.extend(_wrap("Withdraw now: ", escape(withdrawal(view).text)))
    return lines


def _wrap(start: str, markup: str, width: int = WIDTH) -> list[Text]:
    """``start`` then ``markup`` (rich markup), wrapped at ``width``, the rest indented."""
    head = Text.from_markup(start)
    indent = len(head.plain)
    body = Text.from_markup(markup).wrap(_MEASURE, max(10, width - indent))
    lines = []
    for i, part in enumerate(body):
        part.rstrip()
        lines.append(head + part if i == 0 else Text(" " * indent) + part)
    return lines or [head]


def moves_lines(
    moves: Sequence[Move], width: int = WIDTH, components: Components | None = None
) -> list[Text]:
    """The legal moves numbered from 1, flowing across the lines, cards coloured."""
    lines: list[Text] = []
    line = Text()
    for k, move in enumerate(moves, start=1):
        cell = Text.from_markup(f"{k:>2} {move_markup(move, components)}")
        if line.plain and len(line.plain) + 3 + len(cell.plain) > width:
            lines.append(line)
            line = Text()
        if line.plain:
            line.append("   ")
        line.append_text(cell)
    if line.plain:
        lines.append(line)
    return lines


def options_lines(options: Sequence[CityOption], moves: Sequence[Move]) -> list[Text]:
    """A palace choice: each city's number and what it gives, one line each."""
    by_city = {o.city: o for o in options}
    out = []
    for k, move in enumerate(moves, start=1):
        option = by_city.get(getattr(move, "city", ""))
        text = option.text if option is not None else move_name(move)
        out.extend(_wrap(f"{k:>2} ", escape(text)))
    return out
