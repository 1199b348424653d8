"""The command line: ``tajmahal bots | match | replay | render`` (also ``python -m tajmahal``).

Errors a user can cause (an unknown bot, an unreadable record) print one line
to stderr and exit with status 1; usage errors exit with status 2 (argparse).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from tajmahal.bots.registry import bot_infos
from tajmahal.game import GameRecord
from tajmahal.referee import MatchResult, play_match
from tajmahal.rules.components import BonusKind, Components, load_components
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS, new_game
from tajmahal.rules.errors import IllegalMoveError, TajMahalError
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, Withdraw
from tajmahal.rules.scoring import final_bonus
from tajmahal.rules.setup import TilePlacement, place_tiles
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import INFLUENCE_IDX, SPECIALS, SYMBOLS, tables

__all__ = ["account", "build_parser", "describe", "main"]


class CommandError(TajMahalError):
    """A command that cannot be carried out (bad file, bad option combination)."""


# ---------------------------------------------------------------------------- the account


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
        lines.append(f"  {_who(seat, players)} {text}{points}")
    if after.visit != before.visit or after.is_over:
        for special, old, new in zip(
            SPECIALS, before.special_holder, after.special_holder, strict=True
        ):
            if new != old and new >= 0:
                lines.append(f"  {_who(new, players)} takes the special card {special.value}")
    if after.is_over:
        parts = [f"{_who(s, players)} +{b}" for s, b in enumerate(end_bonus)]
        lines.append("Game end, cards in hand (G1): " + ", ".join(parts))
    elif after.visit != before.visit:
        lines.append(_heading(after))
    return lines


def account(record: GameRecord) -> Iterator[str]:
    """The visit-by-visit account of a record, line by line, ending with the result.

    Raises :class:`~tajmahal.IllegalMoveError` at the first move that is not legal.
    """
    players = record.players
    states = _replayed(record)
    state = next(states)
    yield _heading(state)
    for move, after in zip(record.moves, states, strict=True):
        yield from describe(state, move, after, players)
        state = after
    if not state.is_over:
        yield f"(the record stops during visit {state.visit}, after {len(record.moves)} moves)"
    yield _scores_line(state.scores, players)
    if state.is_over:
        yield _winners_line(state.winners, players)


def _replayed(record: GameRecord) -> Iterator[GameState]:
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


def _who(seat: int, players: Sequence[str]) -> str:
    return f"seat {seat} ({players[seat]})" if seat < len(players) else f"seat {seat}"


def _scores_line(scores: Sequence[int], players: Sequence[str]) -> str:
    return "Final scores: " + ", ".join(f"{_who(s, players)} {v}" for s, v in enumerate(scores))


def _winners_line(winners: Sequence[int], players: Sequence[str]) -> str:
    label = "Winner" if len(winners) == 1 else "Winners"
    return f"{label}: " + ", ".join(_who(s, players) for s in winners)


# ---------------------------------------------------------------------------- commands


def _cmd_bots(args: argparse.Namespace) -> int:
    infos = bot_infos()
    rows = [("NAME", "PACKAGE", "DESCRIPTION")]
    rows += [(i.name, i.origin, i.description) for i in infos.values()]
    widths = [max(len(row[k]) for row in rows) for k in range(2)]
    for name, origin, description in rows:
        print(f"{name:<{widths[0]}}  {origin:<{widths[1]}}  {description}".rstrip())
    return 0


def _cmd_match(args: argparse.Namespace) -> int:
    bots: list[str] = args.bots
    if not MIN_PLAYERS <= len(bots) <= MAX_PLAYERS:
        raise CommandError(
            f"a match needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, got {len(bots)}: {' '.join(bots)}"
        )
    components = _components(args.components)
    result = play_match(bots, seed=args.seed, time_limit=args.time_limit, components=components)
    if args.record is not None:
        _write_record(args.record, result.record)
    seats = ", ".join(_who(s, result.players) for s in range(len(bots)))
    print(f"Match, seed {args.seed}: {seats}")
    if not args.quiet:
        for line in account(result.record):
            if not line.startswith(("Final scores:", "Winner")):
                print(line)
    _print_result(result)
    return 0


def _print_result(result: MatchResult) -> None:
    players = result.players
    if result.faults:
        print(f"Faults ({len(result.faults)}; seats with faults rank after the others):")
        for fault in result.faults:
            print(f"  {fault}")
    print(_scores_line(result.scores, players))
    print("Ranking: " + ", ".join(_who(s, players) for s in result.ranking))
    print(_winners_line(result.winners, players))


def _cmd_replay(args: argparse.Namespace) -> int:
    record = _read_record(args.file)
    lines = list(account(record))  # checks the whole record before printing
    if args.quiet:
        lines = [line for line in lines if line.startswith(("Final scores:", "Winner"))]
    print("\n".join(lines))
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from tajmahal.render import render_board, write_board_svg

    if args.visit is not None and args.record is None:
        raise CommandError("--visit needs --record: it picks a visit of a recorded game")
    if args.record is None:
        write_board_svg(args.out, _components(args.components), seed=args.seed)
        print(f"wrote {args.out}")
        return 0
    if args.seed is not None or args.components is not None:
        raise CommandError(
            "--seed and --components cannot be combined with --record: the record has its own"
        )
    record = _read_record(args.record)
    state = _state_after_visit(record, args.visit)
    comps = record.components
    tiles = place_tiles(comps, record.seed)
    view = state.view(0)  # public facts: palaces and the bonus tiles still on the board
    placement = TilePlacement(tiles.province_order, tuple(sorted(view.bonus_tiles.items())))
    Path(args.out).write_text(render_board(comps, placement, state=view), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def _state_after_visit(record: GameRecord, visit: int | None) -> GameState:
    """The state when ``visit`` ended (the last state of the record if ``visit`` is None)."""
    states = _replayed(record)
    state = next(states)
    last = len(state.province_order)
    if visit is not None and not 1 <= visit <= last:
        raise CommandError(f"--visit must be a visit from 1 to {last}, got {visit}")
    for after in states:
        if visit is not None and (after.visit > visit or after.is_over) and state.visit == visit:
            return after
        state = after
    if visit is not None:
        raise CommandError(
            f"the record stops during visit {state.visit}, so visit {visit} never ended"
        )
    return state


# ---------------------------------------------------------------------------- files


def _components(path: str | None) -> Components | None:
    return None if path is None else load_components(path)


def _read_text(path: str) -> str:
    try:
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read {path}: it is not UTF-8 text") from None


def _read_record(path: str) -> GameRecord:
    from tajmahal.serialize import loads

    text = _read_text(path)
    try:
        record = loads(text)
    except TajMahalError as exc:
        raise CommandError(f"{path} is not a readable game record: {exc}") from None
    if not isinstance(record, GameRecord):
        raise CommandError(f"{path} holds a {type(record).__name__}, not a game record")
    return record


def _write_record(path: str, record: GameRecord) -> None:
    from tajmahal.serialize import dumps

    try:
        Path(path).write_text(dumps(record) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


# ---------------------------------------------------------------------------- parser


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the time limit must be positive, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The ``tajmahal`` argument parser, one sub-command per job.

    >>> build_parser().parse_args(['match', 'greedy', 'random', 'random', '--seed', '7']).seed
    7
    """
    parser = argparse.ArgumentParser(
        prog="tajmahal",
        description="Rules engine, bots and referee for Reiner Knizia's Taj Mahal.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    _add_command(
        commands,
        "bots",
        _cmd_bots,
        summary="list the installed bots",
        description="List every installed bot: its name, the package it comes from, and what "
        "it does. Plugins add bots through the entry-point group 'tajmahal'.",
    )

    match = _add_command(
        commands,
        "match",
        _cmd_match,
        summary="play a match between bots",
        description="Play one game between 3 to 5 bots, seat 0 first, and print visit by visit "
        "who won which prize and the points, then the final scores and the winners.",
    )
    match.add_argument("bots", nargs="+", metavar="BOT", help="a bot name per seat (3 to 5)")
    match.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    match.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    match.add_argument(
        "--time-limit",
        type=_positive_seconds,
        metavar="S",
        help="seconds a bot may take per decision; slower decisions are faults",
    )
    _add_quiet_option(match)
    _add_components_option(match)

    replay = _add_command(
        commands,
        "replay",
        _cmd_replay,
        summary="print the account of a recorded game",
        description="Replay a game record written by 'tajmahal match --record' and print the "
        "same visit-by-visit account.",
    )
    replay.add_argument("file", metavar="FILE", help="a game record (JSON)")
    _add_quiet_option(replay)

    render = _add_command(
        commands,
        "render",
        _cmd_render,
        summary="draw the board as SVG",
        description="Draw the board as an SVG picture: bare, with the tiles as a seed lays "
        "them, or as it stood in a recorded game.",
    )
    render.add_argument("--out", required=True, metavar="FILE.svg", help="where to write the SVG")
    render.add_argument("--seed", type=int, help="lay the province and bonus tiles for this seed")
    render.add_argument("--record", metavar="FILE", help="draw the board of this game record")
    render.add_argument(
        "--visit",
        type=int,
        metavar="K",
        help="with --record: the board when visit K ended (default: the record's last state)",
    )
    _add_components_option(render)
    return parser


def _add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    summary: str,
    description: str,
) -> argparse.ArgumentParser:
    """A sub-command ``name`` that ``run`` carries out."""
    command = commands.add_parser(name, help=summary, description=description)
    command.set_defaults(run=run)
    return command


def _add_quiet_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--quiet", action="store_true", help="print only the result, not the account"
    )


def _add_components_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--components", metavar="FILE", help="a components file (default: standard)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 on success).

    >>> main(['bots']) == 0  # doctest: +ELLIPSIS
    NAME ...
    True
    """
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except TajMahalError as exc:
        print(f"tajmahal: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``tajmahal match ... | head``)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that the exit flush does not fail again
        return 1
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tajmahal: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("tajmahal: interrupted", file=sys.stderr)
        return 130
