"""What the sub-commands share: the error type, option helpers, reading and writing files.

A file name ``-`` means standard input where a file is read and standard output where one
is written; a command that writes a file to standard output prints its messages (the
account, ``wrote ...``) to standard error instead (:func:`messages_stream`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from tajmahal.game import GameRecord
from tajmahal.rules.components import Components, load_components, read_regular
from tajmahal.rules.errors import TajMahalError

__all__ = [
    "CommandError",
    "Commands",
    "UsageError",
    "add_command",
    "add_components_option",
    "add_quiet_option",
    "components_from",
    "messages_stream",
    "positive_seconds",
    "read_record",
    "read_text",
    "write_record",
    "write_text",
]

Commands = argparse._SubParsersAction  # the object ``add_subparsers`` returns


class CommandError(TajMahalError):
    """A command that cannot be carried out (an unreadable file): exit status 1."""


class UsageError(CommandError):
    """A command line that is wrong (options that do not go together, a value out of
    range): exit status 2, as argparse's own usage errors."""


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


STDIO = "-"  #: the file name of standard input or output


def read_text(path: str) -> str:
    """A regular UTF-8 file of at most :data:`MAX_INPUT_BYTES` (``-``: standard input, as
    much); CommandError for anything else."""
    try:
        if path == STDIO:
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
            if len(data) > MAX_INPUT_BYTES:
                raise CommandError(f"standard input holds more than {MAX_INPUT_BYTES} bytes")
            return data.decode("utf-8")
        return read_regular(path, MAX_INPUT_BYTES).decode("utf-8")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CommandError(f"cannot read {path}: it is not UTF-8 text") from None


def read_record(path: str) -> GameRecord:
    from tajmahal.serialize import loads

    text = read_text(path)
    name = "standard input" if path == STDIO else path
    try:
        record = loads(text)
    except TajMahalError as exc:
        raise CommandError(f"{name} is not a readable game record: {exc}") from None
    if not isinstance(record, GameRecord):
        raise CommandError(f"{name} holds a {type(record).__name__}, not a game record")
    return record


def write_record(path: str, record: GameRecord) -> None:
    from tajmahal.serialize import dumps

    write_text(path, dumps(record) + "\n")


def write_text(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` (``-``: standard output); a CommandError says why
    it could not."""
    if path == STDIO:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


def messages_stream(*outputs: str | None) -> TextIO:
    """Where a command prints its messages: standard error when one of its ``outputs`` (file
    names) is ``-``, so that standard output holds that file alone; CommandError when two are."""
    if sum(path == STDIO for path in outputs) > 1:
        raise UsageError("only one output can go to standard output ('-')")
    return sys.stderr if STDIO in outputs else sys.stdout
