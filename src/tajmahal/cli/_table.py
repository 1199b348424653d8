"""A seat's view laid out for a person at the terminal (what ``tajmahal play`` shows)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from tajmahal.events import seat_name
from tajmahal.rules.components import INFLUENCE, Card, Color
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["describe_view", "numbered_moves"]

_COLOR_ORDER = (Color.RED, Color.YELLOW, Color.GREEN, Color.VIOLET, Color.WHITE, Color.SPECIAL)


def _cards(cards: Iterable[Card]) -> str:
    counts = Counter(str(card) for card in cards)
    return ", ".join(f"{text} x{n}" if n > 1 else text for text, n in counts.items()) or "-"


def _by_colour(cards: Sequence[Card]) -> list[str]:
    width = max(len(c.value) for c in _COLOR_ORDER)
    lines = []
    for color in _COLOR_ORDER:
        mine = [card for card in cards if card.color is color]
        if mine:
            shown = _cards(c for c in mine).replace(f"{color.value}:", "")
            lines.append(f"    {color.value:<{width}}  {len(mine)}: {shown}")
    return lines


def describe_view(view: PlayerView, players: Sequence[str]) -> list[str]:
    """What ``view.seat`` may see: the province, the court, every seat's table and score,
    the supply, its own hand by colour and the cards it knows others hold.

    >>> import tajmahal as tm
    >>> lines = describe_view(tm.new_game(3, seed=1).view(0), ['you', 'greedy', 'random'])
    >>> lines[0]
    '=== Visit 1 of 12: Thatta (province tile 1: rice) ==='
    """
    board = view.components.board
    province = board.province(view.province)
    tile = view.court_province_tile
    goods = "+".join(c.value for c in tile.commodities) if tile is not None else ""
    tile_text = f" (province tile {tile.number}: {goods})" if tile is not None else ""
    lines = [
        f"=== Visit {view.visit} of {len(view.province_order)}: {province.name}{tile_text} ==="
    ]
    for city in province.cities:
        normal, crown = view.palaces[city.id]
        notes = ["fortress"] if city.fortress else []
        bonus = view.bonus_tiles.get(city.id)
        if bonus is not None:
            notes.append(f"bonus tile {bonus}")
        if normal is not None:
            notes.append(f"palace of seat {normal}")
        if crown is not None:
            notes.append(f"crown palace of seat {crown}")
        lines.append(f"  {city.name} [{city.id}]" + (f": {', '.join(notes)}" if notes else ""))
    court = [s.value for s in INFLUENCE if s in view.court_influence]
    court += ["crown"] if view.court_crown else []
    court += [f"province tile {tile.number}"] if tile is not None else []
    lines.append("Court: " + (", ".join(court) or "empty"))
    lines.append(f"Supply ({len(view.supply)}): {_cards(view.supply)}")
    lines.append(f"Deck: {view.deck_size} cards; discard pile: {len(view.discard)} cards")
    lines.append("Seats (score, cards in hand, this visit's table):")
    for seat in range(view.num_players):
        marks = " <- to play" if seat == view.current_player else ""
        color = view.visit_colors[seat]
        played = "withdrawn" if view.withdrawn[seat] else _cards(view.table[seat])
        played += f" [color {color.value}]" if color and not view.withdrawn[seat] else ""
        score = view.scores[seat]
        lines.append(
            f"  {seat_name(seat, players)}: {score} point{'' if score == 1 else 's'}, "
            f"{view.hand_sizes[seat]} cards; table: {played}{marks}"
        )
        owned = _owned(view, seat)
        if owned:
            lines.append(f"      owns {owned}")
    lines.append(f"Your hand ({len(view.hand)}):")
    lines += _by_colour(view.hand)
    known = [
        f"  {seat_name(seat, players)}: {_cards(cards)}"
        for seat, cards in enumerate(view.known_cards)
        if seat != view.seat and cards
    ]
    if known:
        lines.append("Cards known to be in other hands:")
        lines += known
    return lines


def _owned(view: PlayerView, seat: int) -> str:
    parts = []
    if view.influence_tiles[seat]:
        counts = Counter(s.value for s in view.influence_tiles[seat])
        parts.append("influence " + ", ".join(f"{k} x{n}" for k, n in sorted(counts.items())))
    if view.province_tiles[seat]:
        parts.append(
            "province tiles " + ", ".join(str(t.number) for t in view.province_tiles[seat])
        )
    if view.commodity_tiles[seat]:
        parts.append("commodities " + ", ".join(c.value for c in view.commodity_tiles[seat]))
    specials = [s.value for s, holder in view.special_holder.items() if holder == seat]
    if specials:
        parts.append("special cards " + ", ".join(specials))
    return "; ".join(parts)


def numbered_moves(moves: Sequence[Move]) -> list[str]:
    """The legal moves, numbered from 1, in move notation.

    >>> import tajmahal as tm
    >>> numbered_moves(tm.new_game(3, seed=1).legal_moves())[-1]
    '   6. withdraw'
    """
    return [f"  {k:>2}. {move}" for k, move in enumerate(moves, start=1)]
