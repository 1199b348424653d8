"""Bots from local Python files: the ``file:PATH[:CLASS][:OPTIONS]`` player spec.

A bot author can seat a class from a Python file without packaging it as a
plugin (like catanatron's ``--code``)::

    tajmahal match file:bots/mine.py random random
    tajmahal match file:bots/mine.py:Cautious:margin=2 greedy random

The file is loaded as a module of its own (not on ``sys.path``: a helper
module beside it is not importable unless installed), once per process and
version of the file (its size and modification time), when the spec is
checked — before any game.  Its *Bot classes* are the classes it defines
(not those it imports) with a ``choose(view, legal_moves)`` method; ``CLASS``
picks one (it may also name an imported class), and may be left out when the
file defines exactly one.  The bot is built as ``CLASS(seed=..., **options)``,
as registered bots are.

Loading the file runs its code in the referee's process (as installing a
plugin does: trusted code, docs/trust.md); ``isolate=True`` runs the bot
itself in a child process, which loads the file again.  Every problem is a
:class:`~tajmahal.bots.SpecError` naming the spec, with no traceback: the
file is missing or not a regular file, has a syntax error, raises (or calls
``sys.exit``) while loading (the line and the exception are named), takes
longer than the plugin time limit to load, defines no Bot class, several
without ``CLASS``, or ``CLASS`` is missing or not a Bot class.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import stat
import sys
import traceback
import types
from typing import TYPE_CHECKING, Any

from tajmahal.bots.registry import _bounded
from tajmahal.bots.specs import PlayerSpec, SpecError
from tajmahal.bots.untrusted import exception_text, plain_text

if TYPE_CHECKING:
    from tajmahal.bots.base import Bot

__all__ = ["MAX_FILE_BYTES", "file_bot_class"]

MAX_FILE_BYTES = 4_000_000  #: the largest bot file read
_MODULE_PREFIX = "tajmahal_file_bot_"


def file_bot_class(spec: PlayerSpec) -> type[Bot]:
    """The Bot class a ``file:`` spec names, its file loaded (or taken from this process's cache).

    >>> import tajmahal.bots.greedy as greedy
    >>> from tajmahal.bots.specs import parse_spec
    >>> file_bot_class(parse_spec(f'file:{greedy.__file__}')).__name__
    'GreedyBot'
    >>> file_bot_class(parse_spec('file:/no/such/bot.py'))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.specs.SpecError: player spec 'file:/no/such/bot.py': cannot read '/no/such/bot.py': No such file or directory
    """  # noqa: E501
    assert spec.path is not None, "not a file: spec"
    shown = _shown(spec.text)
    try:
        status = os.stat(spec.path)
    except OSError as exc:
        raise SpecError(
            f"player spec {shown}: cannot read {_shown(spec.path)}: {exc.strerror or exc}"
        ) from None
    if not stat.S_ISREG(status.st_mode):
        raise SpecError(f"player spec {shown}: {_shown(spec.path)} is not a regular file")
    loaded = _load(spec.path, status.st_mtime_ns, status.st_size)
    if isinstance(loaded, str):
        raise SpecError(f"player spec {shown}: {loaded}")
    return _pick(loaded, spec, shown)


@functools.lru_cache(maxsize=64)
def _load(path: str, mtime_ns: int, size: int) -> types.ModuleType | str:
    """The module of the file at ``path`` as it is now, or what went wrong (cached per version)."""
    del mtime_ns, size  # the cache key: a changed file is loaded again
    where = _shown(path)
    try:
        with open(path, "rb") as file:
            source = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return f"cannot read {where}: {exc.strerror or exc}"
    if len(source) > MAX_FILE_BYTES:
        return f"{where} is larger than {MAX_FILE_BYTES} bytes"
    try:
        code = compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return f"syntax error in {where} at line {exc.lineno}: {plain_text(exc.msg, 200)}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"cannot compile {where}: {exception_text(exc, 200)}"
    name = _MODULE_PREFIX + hashlib.sha256(path.encode()).hexdigest()[:16]
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module  # as an import does: the file's own classes may look it up

    def run() -> str | None:
        try:
            exec(code, module.__dict__)
        except BaseException as exc:  # even sys.exit(): the file is not allowed to end us
            return _failure(exc, path)
        return None

    finished, failure = _bounded(run)
    if not finished or failure is not None:
        sys.modules.pop(name, None)
        return f"loading {where} failed: {failure}"
    return module


def _failure(exc: BaseException, path: str) -> str:
    """What went wrong while the file ran: the exception and the file's line, no traceback."""
    lines = [frame.lineno for frame in traceback.extract_tb(exc.__traceback__)
             if frame.filename == path]  # fmt: skip
    where = f"line {lines[-1]}: " if lines and lines[-1] is not None else ""
    return f"{where}{exception_text(exc, 300)}"


def _pick(module: types.ModuleType, spec: PlayerSpec, shown: str) -> type[Bot]:
    """The class the spec asks for, or the module's only Bot class."""
    where = _shown(spec.path or "")
    found = _bot_classes(module)
    names = ", ".join(cls.__name__ for cls in found) or "none"
    if spec.class_name is not None:
        chosen = vars(module).get(spec.class_name)
        if chosen is None:
            raise SpecError(
                f"player spec {shown}: {where} has no {spec.class_name!r}; its Bot classes: {names}"
            )
        if not _is_bot_class(chosen):
            raise SpecError(
                f"player spec {shown}: {spec.class_name!r} in {where} is not a Bot class "
                "(a class with a choose(view, legal_moves) method)"
            )
        return chosen  # type: ignore[no-any-return]
    if not found:
        raise SpecError(
            f"player spec {shown}: {where} defines no Bot class "
            "(a class with a choose(view, legal_moves) method)"
        )
    if len(found) > 1:
        raise SpecError(
            f"player spec {shown}: {where} defines several Bot classes ({names}): name one, "
            f"as in 'file:PATH:{found[0].__name__}'"
        )
    return found[0]


def _bot_classes(module: types.ModuleType) -> list[type[Bot]]:
    """The Bot classes the module defines itself, in the order it defines them."""
    found: list[type[Bot]] = []
    for value in list(vars(module).values()):
        if _is_bot_class(value) and value.__module__ == module.__name__ and value not in found:
            found.append(value)
    return found


def _is_bot_class(value: Any) -> bool:
    return isinstance(value, type) and callable(inspect.getattr_static(value, "choose", None))


def _shown(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")
