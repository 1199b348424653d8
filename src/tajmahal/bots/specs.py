"""Player specs: one syntax, everywhere a player is named (CLI, ``play_match``, tournaments).

::

    random                       a registered bot by name (any case: Random is random)
    ismcts:iterations=400,c=0.7  options, passed to the constructor as keywords
                                 (values read as JSON scalars, else as strings)
    cmd:node bots/random.js      an external program speaking the bot protocol
    file:bots/mine.py:MyBot      a local Python file's Bot class, without packaging it
    file:bots/mine.py            (the file's only Bot class)
    file:bots/mine.py:MyBot:depth=3,style=bold   (and options, as for a named bot)

A ``file:`` spec's path runs to the first ``.py`` followed by ``:`` or the
end; it is made absolute when the spec is parsed (so that worker processes
and isolated bots find the same file).  The file is read and loaded (once
per process and version of the file) when the spec is checked, before any
game: see :mod:`tajmahal.bots.file_bots`.

A bad spec (bad syntax, unknown bot, unknown option, a value of the wrong
type) is a :class:`SpecError` naming the spec, raised before any game starts.
An option's type is what the bot declares: its ``option_types`` class
attribute (a mapping from option name to a type or a tuple of types, among
``int``, ``float``, ``str``, ``bool`` and ``None``) if it has one, else the
annotations of its constructor's parameters (``enough: float = 4.0``).  An
``int`` is a ``float`` too; a ``float`` must be finite; a type the spec syntax
cannot write (a callable, a class of the bot's own) is left to the
constructor, which judges the value's range (a ``ValueError`` or
``TypeError`` there is a bad value too).

A bot class may also declare ``deprecated_spec_options`` (option name -> why, the removal
release included): a spec naming one still works and warns (``DeprecationWarning``); and
``python_only_options``, keyword arguments a spec cannot give (an object of the bot's own,
such as ``IsmctsBot``'s ``options``): a spec's value for one is refused.

>>> spec = parse_spec('ismcts:iterations=400,c=0.7,rollout=random')
>>> spec.name, spec.options
('ismcts', (('iterations', 400), ('c', 0.7), ('rollout', 'random')))
>>> parse_spec('cmd:node "my bots/random.js"').command
('node', 'my bots/random.js')
>>> spec = parse_spec('file:/srv/bots/mine.py:MyBot:depth=3')
>>> spec.path, spec.class_name, spec.options
('/srv/bots/mine.py', 'MyBot', (('depth', 3),))
>>> import os
>>> parse_spec('file:mine.py').path == os.path.join(os.getcwd(), 'mine.py')
True
"""

from __future__ import annotations

import inspect
import json
import math
import os
import re
import shlex
import types
import typing
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from tajmahal.game import MAX_PLAYER_NAME
from tajmahal.rules.errors import TajMahalError

if TYPE_CHECKING:
    from tajmahal.bots.base import Bot

__all__ = [
    "MAX_SPEC_LENGTH",
    "BotLookup",
    "PlayerSpec",
    "SpecError",
    "bot_class_of",
    "check_spec",
    "option_types",
    "parse_spec",
    "warn_deprecated_options",
]

#: the most characters of a player spec (4,096): a record keeps a spec as its player's name,
#: with room for a tournament's ``#N`` (see :data:`tajmahal.game.MAX_PLAYER_NAME`)
MAX_SPEC_LENGTH = MAX_PLAYER_NAME - 64
COMMAND_PREFIX = "cmd:"
FILE_PREFIX = "file:"
#: a file: spec's path (to the first ".py" followed by ":" or the end), then what follows
_FILE = re.compile(r"(.+?\.py)(?::(.*))?", re.S)
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*", re.IGNORECASE | re.ASCII)  # matched lowercased
_OPTION = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

OptionValue = str | int | float | bool | None
_SCALARS: dict[str, type] = {
    "int": int, "float": float, "str": str, "bool": bool, "None": type(None),
}  # fmt: skip


class SpecError(TajMahalError, ValueError):
    """A player spec that cannot be used: bad syntax, unknown bot, unknown option or bad value.

    >>> parse_spec('ismcts:iterations')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.specs.SpecError: player spec 'ismcts:iterations': option 'iterations' has no ...
    """


@attrs.frozen
class PlayerSpec:
    """One parsed player spec: a registered bot, an external command or a local Python file.

    ``name`` and ``options`` describe a registered bot; ``command`` (the
    program and its arguments, shlex-split) an external program; ``path``
    (absolute), ``class_name`` (None: the file's only Bot class) and
    ``options`` a bot in a local file.  ``text`` is the spec as written,
    which is also how results name the player; ``resolved`` is the spec with
    the file's absolute path, which any process can parse to the same spec.

    A spec is parsed once, where it enters the library (:func:`tajmahal.play_match`,
    :func:`tajmahal.run_tournament`, the command line, the web lobby), and
    travels as a :class:`PlayerSpec` from there: those accept either.

    >>> spec = parse_spec('greedy:enough=5')
    >>> spec.is_command, spec.name, dict(spec.options), str(spec)
    (False, 'greedy', {'enough': 5}, 'greedy:enough=5')
    """

    text: str
    name: str | None = None
    options: tuple[tuple[str, OptionValue], ...] = ()
    command: tuple[str, ...] = ()
    path: str | None = None
    class_name: str | None = None
    resolved: str = attrs.field(
        default=attrs.Factory(lambda self: self.text, takes_self=True), repr=False
    )

    @property
    def is_command(self) -> bool:
        """Whether this spec names an external program (``cmd:...``).

        >>> parse_spec('cmd:./mybot --fast').is_command, parse_spec('random').is_command
        (True, False)
        """
        return bool(self.command)

    @property
    def is_file(self) -> bool:
        """Whether this spec names a bot class in a local Python file (``file:...``).

        >>> parse_spec('file:/srv/mine.py').is_file, parse_spec('random').is_file
        (True, False)
        """
        return self.path is not None

    def __str__(self) -> str:
        return self.text


@runtime_checkable
class BotLookup(Protocol):
    """What checking a spec needs of a registry: a bot's class by its name.

    :class:`tajmahal.bots.Registry` is one (the default: the installed plugins);
    the registry module imports this one, never the other way round at load time.

    >>> from tajmahal.bots import default_registry
    >>> isinstance(default_registry(), BotLookup)
    True
    """

    def bot_class(self, name: str) -> type[Bot]:
        """The class of the bot called ``name``; an error naming the problem otherwise."""
        ...


def parse_spec(text: str) -> PlayerSpec:
    """Parse a player spec (see the module docstring for the syntax).

    >>> parse_spec('random').name
    'random'
    >>> parse_spec('mybot:style=bold,depth=2,verbose=true').options
    (('style', 'bold'), ('depth', 2), ('verbose', True))
    >>> parse_spec('Random').name  # names are matched case-insensitively
    'random'
    >>> parse_spec('my bot')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.specs.SpecError: player spec 'my bot': 'my bot' is not a bot name (letters, ...
    """
    if not isinstance(text, str):
        raise SpecError(f"a player spec is a string, got {type(text).__name__}")
    shown = _shown(text)
    if not text or len(text) > MAX_SPEC_LENGTH:
        raise SpecError(
            f"player spec {shown}: a spec has 1 to {MAX_SPEC_LENGTH} characters, got {len(text)}"
        )
    if not text.isprintable():
        raise SpecError(f"player spec {shown}: control characters are not allowed")
    if text.startswith(COMMAND_PREFIX):
        return PlayerSpec(text, command=_command(text, shown))
    if text.startswith(FILE_PREFIX):
        return _file_spec(text, shown)
    name, _, rest = text.partition(":")
    if not _NAME.fullmatch(name):
        raise SpecError(
            f"player spec {shown}: {_shown(name)} is not a bot name "
            "(letters, digits, '_', '.', '-')"
        )
    options = _options(rest, shown) if rest else ()
    return PlayerSpec(text, name=name.lower(), options=options)


def check_spec(spec: str | PlayerSpec, registry: BotLookup | None = None) -> PlayerSpec:
    """Parse ``spec`` (unless it is parsed already) and check that its bot exists and accepts its options.

    Runs none of a registered bot's code (the constructor's signature is
    read, not called); a ``file:`` spec's file is loaded (its module runs,
    as a plugin's does), once per process and version of the file.
    Commands are checked by the referee when it starts them.

    >>> check_spec('greedy:enough=5').name
    'greedy'
    >>> check_spec('greedy:depth=3')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.specs.SpecError: player spec 'greedy:depth=3': bot 'greedy' has no option ...
    >>> check_spec('nobody')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.bots.registry.UnknownBotError: player spec 'nobody': no bot is called 'nobody'; ...
    """  # noqa: E501
    parsed = spec if isinstance(spec, PlayerSpec) else parse_spec(spec)
    if parsed.is_command:
        return parsed
    bot_class = bot_class_of(parsed, registry)
    if not parsed.options:  # nothing to check (and no signature to read: once per seat)
        return parsed
    shown = _shown(parsed.text)
    what = f"bot {parsed.name!r}" if parsed.name is not None else f"class {bot_class.__name__}"
    accepted = _accepted_options(bot_class)
    if accepted is not None:
        for key, _ in parsed.options:
            if key not in accepted:
                known = ", ".join(sorted(accepted)) or "(none)"
                raise SpecError(
                    f"player spec {shown}: {what} has no option {key!r}; its options: {known}"
                )
    wanted = option_types(bot_class)
    python_only = getattr(bot_class, "python_only_options", ())
    python_only = python_only if isinstance(python_only, frozenset | set | tuple) else ()
    for key, value in parsed.options:
        if key in python_only and isinstance(value, OptionValue):  # as a spec writes values
            raise SpecError(f"player spec {shown}: option {key!r} of {what} is given from "
                            "Python only, not in a spec")  # fmt: skip
        problem = _type_problem(value, wanted.get(key))
        if problem:
            raise SpecError(f"player spec {shown}: option {key!r} {problem}")
    deprecated = getattr(bot_class, "deprecated_spec_options", None)
    if isinstance(deprecated, Mapping):
        warn_deprecated_options(parsed, deprecated, stacklevel=3)
    return parsed


def warn_deprecated_options(
    spec: PlayerSpec, deprecated: Mapping[str, str], stacklevel: int = 2
) -> None:
    """Warn (``DeprecationWarning``) once for each of ``spec``'s options that ``deprecated``
    names (option name -> why, the removal release included).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_deprecated_options(parse_spec('mybot:old=1'), {'old': 'gone in 9.0'})
    >>> print(caught[0].message)
    player spec 'mybot:old=1': option 'old' is deprecated: gone in 9.0
    """
    for key, _ in spec.options:
        why = deprecated.get(key)
        if isinstance(why, str):
            warnings.warn(
                f"player spec {_shown(spec.text)}: option {key!r} is deprecated: {why}",
                DeprecationWarning,
                stacklevel=stacklevel + 1,
            )


def bot_class_of(spec: PlayerSpec, registry: BotLookup | None = None) -> type[Bot]:
    """The bot class a (registered or ``file:``) spec names; the registry's lookup errors else.

    >>> bot_class_of(parse_spec('greedy:enough=5')).__name__
    'GreedyBot'
    """
    from tajmahal.bots.registry import UnknownBotError, default_registry

    if spec.is_command:
        raise SpecError(f"player spec {_shown(spec.text)} names a program, not a Python bot")
    if spec.is_file:
        from tajmahal.bots.file_bots import file_bot_class

        return file_bot_class(spec)
    assert spec.name is not None
    registry = registry if registry is not None else default_registry()
    try:
        return registry.bot_class(spec.name)
    except UnknownBotError as exc:
        raise UnknownBotError(f"player spec {_shown(spec.text)}: {exc}") from None


def option_types(bot_class: type[Any]) -> dict[str, tuple[type, ...]]:
    """The types each option of ``bot_class`` takes, as far as the bot declares them.

    The ``option_types`` class attribute if there is one, else the annotations of the
    constructor's parameters.  Options missing here take any value.

    >>> from tajmahal.bots.greedy import GreedyBot
    >>> option_types(GreedyBot)['enough']
    (<class 'float'>,)
    >>> class Mine:
    ...     option_types = {'depth': int, 'style': (str, None)}
    >>> option_types(Mine)
    {'depth': (<class 'int'>,), 'style': (<class 'str'>, <class 'NoneType'>)}
    """
    declared = getattr(bot_class, "option_types", None)
    if isinstance(declared, Mapping):
        return {
            str(key): tuple(type(None) if t is None else t for t in _as_tuple(kinds))
            for key, kinds in declared.items()
        }
    try:
        parameters = inspect.signature(bot_class).parameters
    except (TypeError, ValueError):
        return {}
    try:
        hints = typing.get_type_hints(bot_class.__init__)
    except Exception:  # names only imported for type checking: read the text
        hints = {}
    found = {}
    for name, parameter in parameters.items():
        hint = hints.get(name, parameter.annotation)
        kinds = _scalar_types(hint)
        if kinds and name != "seed":
            found[name] = kinds
    return found


def _as_tuple(kinds: Any) -> tuple[Any, ...]:
    return tuple(kinds) if isinstance(kinds, tuple | list) else (kinds,)


def _scalar_types(hint: Any) -> tuple[type, ...]:
    """The scalar types (int, float, str, bool, None) a hint names; () if it names others."""
    if isinstance(hint, str):  # an annotation not evaluated: 'float', 'int | None'
        names = [part.strip() for part in hint.split("|")]
        members: tuple[Any, ...] = tuple(_SCALARS.get(name, name) for name in names)
    elif isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        members = typing.get_args(hint)
    else:
        members = (type(None) if hint is None else hint,)
    if not all(member in _SCALARS.values() for member in members):
        return ()  # a type the spec syntax cannot write: the constructor judges
    return tuple(members)


def _type_problem(value: Any, kinds: tuple[type, ...] | None) -> str | None:
    """Why ``value`` is not of one of ``kinds`` (None: it is, or nothing is declared)."""
    if not kinds or not isinstance(value, str | int | float | bool | None):
        return None  # nothing declared, or an object given in Python: the constructor judges
    if isinstance(value, float) and not math.isfinite(value):
        return f"must be a finite number, got {value!r}"
    if isinstance(value, bool):
        fits = bool in kinds
    elif isinstance(value, int):
        fits = int in kinds or float in kinds
    else:
        fits = type(value) in kinds
    if fits:
        return None
    wanted = " or ".join("None" if k is type(None) else k.__name__ for k in kinds)
    given = f"the string {_shown(value)}" if isinstance(value, str) else repr(value)
    return f"takes {wanted}, got {given}"


def _file_spec(text: str, shown: str) -> PlayerSpec:
    """A ``file:PATH[:CLASS][:OPTIONS]`` spec, its path made absolute and checked to exist."""
    found = _FILE.fullmatch(text[len(FILE_PREFIX) :])
    if found is None:
        raise SpecError(
            f"player spec {shown}: 'file:' names a Python file ending in .py, "
            "as in 'file:bots/mine.py' or 'file:bots/mine.py:MyBot'"
        )
    written, tail = found.group(1), found.group(2)
    class_name: str | None = None
    options: tuple[tuple[str, OptionValue], ...] = ()
    if tail is not None:
        first, colon, rest = tail.partition(":")
        if "=" in first:  # no class: options only
            options = _options(tail, shown)
        else:
            if not first.isidentifier():
                raise SpecError(f"player spec {shown}: {_shown(first)} is not a class name")
            class_name = first
            if colon:
                if not rest:
                    raise SpecError(f"player spec {shown}: options are missing after ':'")
                options = _options(rest, shown)
    path = os.path.abspath(written)  # the file itself is read when the spec is checked
    resolved = FILE_PREFIX + path + text[len(FILE_PREFIX) + len(written) :]
    return PlayerSpec(text, options=options, path=path, class_name=class_name, resolved=resolved)


def _command(text: str, shown: str) -> tuple[str, ...]:
    try:
        words = tuple(shlex.split(text[len(COMMAND_PREFIX) :]))
    except ValueError as exc:
        raise SpecError(f"player spec {shown}: cannot split the command: {exc}") from None
    if not words:
        raise SpecError(f"player spec {shown}: 'cmd:' needs a program, as in 'cmd:./mybot'")
    return words


def _options(text: str, shown: str) -> tuple[tuple[str, OptionValue], ...]:
    options: dict[str, OptionValue] = {}
    for item in text.split(","):
        key, equals, raw = item.partition("=")
        key = key.strip()
        if not equals:
            raise SpecError(
                f"player spec {shown}: option {_shown(key)} has no value; write name=value"
            )
        if not _OPTION.fullmatch(key):
            raise SpecError(f"player spec {shown}: {_shown(key)} is not an option name")
        if key == "seed":
            raise SpecError(f"player spec {shown}: the referee sets a bot's seed, not the spec")
        if key in options:
            raise SpecError(f"player spec {shown}: option {key!r} is given twice")
        options[key] = _value(raw.strip(), shown, key)
    return tuple(options.items())


def _value(raw: str, shown: str, key: str) -> OptionValue:
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    if isinstance(value, float) and not math.isfinite(value):
        raise SpecError(f"player spec {shown}: option {key!r} must be a finite number")
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return raw


def _accepted_options(bot_class: type[Any]) -> frozenset[str] | None:
    """The keyword options ``bot_class(...)`` accepts besides ``seed``; None if any (``**kw``)."""
    try:
        parameters = inspect.signature(bot_class).parameters.values()
    except (TypeError, ValueError):
        return None  # no readable signature: let the constructor judge
    names = set()
    for parameter in parameters:
        if parameter.kind is parameter.VAR_KEYWORD:
            return None
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            names.add(parameter.name)
    names.discard("seed")
    return frozenset(names)


def _shown(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")
