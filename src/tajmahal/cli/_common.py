"""What the sub-commands share: the error type, option helpers, reading and writing files."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from tajmahal.game import GameRecord
from tajmahal.rules.components import Components, load_components, read_regular
from tajmahal.rules.errors import TajMahalError

__all__ = [
    "CommandError",
    "Commands",
    "add_command",
    "add_components_option",
    "add_quiet_option",
    "components_from",
    "positive_seconds",
    "read_record",
    "read_text",
    "write_record",
    "write_text",
]

Commands = argparse._SubParsersAction  # the object ``add_subparsers`` returns


class CommandError(TajMahalError):
    """A command that cannot be carried out (bad file, bad option combination)."""


def add_command(
    commands: Commands[argparse.ArgumentParser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    summary: str,
    description: str,
) -> argparse.ArgumentParser:
    """A sub-command ``name`` that ``run`` carries out."""
    command = commands.add_parser(name, help=summary, description=description)
    command.set_defaults(run=run)
    return command


def add_quiet_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--quiet", action="store_true", help="print only the result, not the account"
    )


def add_components_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--components", metavar="FILE", help="a components file (default: standard)"
    )


def positive_seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the time limit must be positive, got {text}")
    return value


def components_from(path: str | None) -> Components | None:
    return None if path is None else load_components(path)


MAX_INPUT_BYTES = 20_000_000  #: the largest file a command reads


def read_text(path: str) -> str:
    """A regular UTF-8 file of at most :data:`MAX_INPUT_BYTES`; CommandError for anything else."""
    try:
        return read_regular(path, MAX_INPUT_BYTES).decode("utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read {path}: it is not UTF-8 text") from None


def read_record(path: str) -> GameRecord:
    from tajmahal.serialize import loads

    text = read_text(path)
    try:
        record = loads(text)
    except TajMahalError as exc:
        raise CommandError(f"{path} is not a readable game record: {exc}") from None
    if not isinstance(record, GameRecord):
        raise CommandError(f"{path} holds a {type(record).__name__}, not a game record")
    return record


def write_record(path: str, record: GameRecord) -> None:
    from tajmahal.serialize import dumps

    write_text(path, dumps(record) + "\n")


def write_text(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``; a CommandError says why it could not."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
