"""``tajmahal render``: draw the board as SVG, bare, for a seed, or from a record."""

from __future__ import annotations

import argparse
from pathlib import Path

from tajmahal.cli._common import (
    CommandError,
    Commands,
    add_command,
    add_components_option,
    components_from,
    read_record,
)
from tajmahal.game import GameRecord, replay_states
from tajmahal.rules.state import GameState

__all__ = ["register"]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    render = add_command(
        commands,
        "render",
        _run,
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
    add_components_option(render)


def _run(args: argparse.Namespace) -> int:
    from tajmahal.render import render_board, write_board_svg

    if args.visit is not None and args.record is None:
        raise CommandError("--visit needs --record: it picks a visit of a recorded game")
    if args.record is None:
        write_board_svg(args.out, components_from(args.components), seed=args.seed)
        print(f"wrote {args.out}")
        return 0
    if args.seed is not None or args.components is not None:
        raise CommandError(
            "--seed and --components cannot be combined with --record: the record has its own"
        )
    record = read_record(args.record)
    state = _state_after_visit(record, args.visit)
    svg = render_board(record.components, state=state, players=record.players)
    Path(args.out).write_text(svg, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def _state_after_visit(record: GameRecord, visit: int | None) -> GameState:
    """The state when ``visit`` ended (the last state of the record if ``visit`` is None)."""
    states = replay_states(record)
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
