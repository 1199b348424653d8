"""``tajmahal render``: draw the board as SVG, bare, for a seed, or from a record."""

from __future__ import annotations

import argparse

from tajmahal.cli._common import (
    CommandError,
    Commands,
    UsageError,
    add_command,
    add_components_option,
    components_from,
    messages_stream,
    read_record,
    write_text,
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
    render.add_argument(
        "--out", required=True, metavar="FILE.svg",
        help="where to write the SVG ('-': standard output)",
    )  # fmt: skip
    render.add_argument("--seed", type=int, help="lay the province and bonus tiles for this seed")
    render.add_argument(
        "--record", metavar="FILE", help="draw the board of this game record ('-': standard input)"
    )
    render.add_argument(
        "--visit",
        type=int,
        metavar="K",
        help="with --record: the board when visit K ended (default: the record's last state)",
    )
    add_components_option(render)


def _run(args: argparse.Namespace) -> int:
    from tajmahal.render import render_board
    from tajmahal.rules.components import standard_components
    from tajmahal.rules.setup import place_tiles

    if args.visit is not None and args.record is None:
        raise UsageError("--visit needs --record: it picks a visit of a recorded game")
    messages = messages_stream(args.out)
    if args.record is None:
        components = components_from(args.components) or standard_components()
        placement = place_tiles(components, args.seed) if args.seed is not None else None
        write_text(args.out, render_board(components, placement))
        print(f"wrote {args.out}", file=messages)
        return 0
    if args.seed is not None or args.components is not None:
        raise UsageError(
            "--seed and --components cannot be combined with --record: the record has its own"
        )
    record = read_record(args.record)
    state = _state_after_visit(record, args.visit)
    svg = render_board(record.components, state=state, players=record.players)
    write_text(args.out, svg)
    print(f"wrote {args.out}", file=messages)
    return 0


def _state_after_visit(record: GameRecord, visit: int | None) -> GameState:
    """The state when ``visit`` ended (the last state of the record if ``visit`` is None)."""
    states = replay_states(record)
    state = next(states)
    last = len(state.province_order)
    if visit is not None and not 1 <= visit <= last:
        raise UsageError(f"--visit must be a visit from 1 to {last}, got {visit}")
    for after in states:
        if visit is not None and (after.visit > visit or after.is_over) and state.visit == visit:
            return after
        state = after
    if visit is not None:
        raise CommandError(
            f"the record stops during visit {state.visit}, so visit {visit} never ended"
        )
    return state
