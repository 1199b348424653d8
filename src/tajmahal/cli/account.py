"""The match account: what each move of a record changed, visit by visit, in words."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tajmahal.game import GameRecord
from tajmahal.rules.components import BonusKind, Components
from tajmahal.rules.engine import new_game
from tajmahal.rules.errors import IllegalMoveError
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, Withdraw
from tajmahal.rules.scoring import final_bonus
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import INFLUENCE_IDX, SPECIALS, SYMBOLS, tables

__all__ = ["account", "describe", "replayed", "scores_line", "who", "winners_line"]


def describe(
    before: GameState, move: Move, after: GameState, players: Sequence[str] = ()
) -> list[str]:
    """What one move changed that the account reports, from the states around it.

    Prizes won on withdrawing, palaces and bonus tiles, the points the mover
    scored, special cards changing hands at the end of a visit, the scoring of
    cards in hand at the end of the game, and the next visit's heading.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> describe(state, tm.Withdraw(), state.apply(tm.Withdraw()), ['greedy', 'a', 'b'])
    ['  seat 0 (greedy) withdraws without having played and draws a card']
    """
    seat = before.current_player
    assert seat is not None
    board = before.components.board
    end_bonus = _end_bonus(after)
    lines: list[str] = []
    text = ""
    if isinstance(move, Withdraw):
        text = _withdrawal(before, after, seat)
    elif isinstance(move, PlacePalace):
        text = f"places a palace in {board.city(move.city).name}"
        tile_index = before.bonus[tables(before.components).city_of[move.city]]
        if tile_index >= 0:
            text += f" and takes its bonus tile ({_tile_text(before.components, tile_index)})"
    elif isinstance(move, PlaceCrownPalace):
        text = f"places the crown palace in {board.city(move.city).name}"
    elif isinstance(move, PlayCards) and after.scores[seat] > before.scores[seat]:
        text = f"plays {move.colored} with {move.extra}"
    gained = after.scores[seat] - before.scores[seat] - end_bonus[seat]
    if text:
        total = after.scores[seat] - end_bonus[seat]
        points = f": +{gained} (total {total})" if gained else ""
        lines.append(f"  {who(seat, players)} {text}{points}")
    if after.visit != before.visit or after.is_over:
        for special, old, new in zip(
            SPECIALS, before.special_holder, after.special_holder, strict=True
        ):
            if new != old and new >= 0:
                lines.append(f"  {who(new, players)} takes the special card {special.value}")
    if after.is_over:
        parts = [f"{who(s, players)} +{b}" for s, b in enumerate(end_bonus)]
        lines.append("Game end, cards in hand (G1): " + ", ".join(parts))
    elif after.visit != before.visit:
        lines.append(_heading(after))
    return lines


def account(record: GameRecord) -> Iterator[str]:
    """The visit-by-visit account of a record, line by line, ending with the result.

    Raises :class:`~tajmahal.IllegalMoveError` at the first move that is not legal.
    """
    players = record.players
    states = replayed(record)
    state = next(states)
    yield _heading(state)
    for move, after in zip(record.moves, states, strict=True):
        yield from describe(state, move, after, players)
        state = after
    if not state.is_over:
        yield f"(the record stops during visit {state.visit}, after {len(record.moves)} moves)"
    yield scores_line(state.scores, players)
    if state.is_over:
        yield winners_line(state.winners, players)


def replayed(record: GameRecord) -> Iterator[GameState]:
    """The record's states, the initial one first; IllegalMoveError names the first bad move."""
    state = new_game(record.num_players, record.seed, record.components, record.first_player)
    yield state
    for number, move in enumerate(record.moves, start=1):
        try:
            state = state.apply(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number} of the record ({move}): {exc}") from None
        yield state


def _withdrawal(before: GameState, after: GameState, seat: int) -> str:
    if not before.table[seat]:
        return "withdraws without having played and draws a card"
    prizes = [
        SYMBOLS[i].value
        for k, i in enumerate(INFLUENCE_IDX)
        if before.court_influence[k] and not after.court_influence[k]
    ]
    if before.court_crown and not after.court_crown:
        prizes.append("the crown")
    if len(after.province_tiles[seat]) > len(before.province_tiles[seat]) or (
        after.pending_province and not before.pending_province
    ):
        prizes.append(f"province tile {before.visit}")
    return "withdraws and wins " + (", ".join(prizes) if prizes else "nothing")


def _tile_text(components: Components, index: int) -> str:
    tile = components.bonus_tiles[index]
    if tile.kind is BonusKind.COMMODITY:
        return f"commodity {tile}"
    if tile.kind is BonusKind.TAJ_MAHAL:
        return f"Taj Mahal, {tile} points"
    return str(tile) if tile.kind is BonusKind.CARD else f"{tile} points"


def _end_bonus(after: GameState) -> list[int]:
    if not after.is_over:
        return [0] * after.num_players
    return [final_bonus(after.components, hand) for hand in after.hands]


def _heading(state: GameState) -> str:
    province = state.components.board.province(state.province)
    tile = state.components.province_tiles[state.visit - 1]
    goods = "+".join(c.value for c in tile.commodities)
    return f"Visit {state.visit}: {province.name} (province tile {tile.number}: {goods})"


def who(seat: int, players: Sequence[str]) -> str:
    return f"seat {seat} ({players[seat]})" if seat < len(players) else f"seat {seat}"


def scores_line(scores: Sequence[int], players: Sequence[str]) -> str:
    return "Final scores: " + ", ".join(f"{who(s, players)} {v}" for s, v in enumerate(scores))


def winners_line(winners: Sequence[int], players: Sequence[str]) -> str:
    label = "Winner" if len(winners) == 1 else "Winners"
    return f"{label}: " + ", ".join(who(s, players) for s in winners)
