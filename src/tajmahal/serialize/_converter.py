"""The one cattrs converter of the documents, and the problems its hooks report.

Reading is strict: a hook takes only the JSON type it expects (``true`` is not
an integer, ``1`` is not a string) and reports a problem by raising
:class:`Invalid`; arrays and objects check every entry and raise all their
entries' problems together (:class:`Nested`).  :func:`problems_in` turns what
structuring raised into (JSON path, message) pairs.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NewType, TypeVar, get_args, get_origin

import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError

from tajmahal.faults import FaultKind
from tajmahal.rules.components import Card, Color, Commodity, Special, Symbol
from tajmahal.rules.state import Phase
from tajmahal.rules.validate import Path

T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)

# ---------------------------------------------------------------------------- problems


class Invalid(ValueError):
    """One problem with one JSON value (raised by the converter's hooks)."""


#: problems collected in one array or object before reading it stops (a hostile document
#: with 40,000 bad entries would otherwise keep 40,000 exceptions)
MAX_PROBLEMS_PER_ARRAY = 50


class Nested(Exception):
    """Problems inside an array or object: (index or key, exception) pairs."""

    def __init__(self, children: list[tuple[str | int, BaseException]]) -> None:
        super().__init__(f"{len(children)} problem(s)")
        self.children = children


class Failed(Exception):
    """Problems found while reading one document; becomes a FormatError at the boundary."""

    def __init__(self, problems: Sequence[tuple[Path, str]]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = list(problems)


_JSON_TYPES: dict[type, str] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    type(None): "null",
}


def json_type(value: Any) -> str:
    """What kind of JSON value ``value`` is (``"an array"``, ``"null"``, ...).

    >>> json_type([1]), json_type(True), json_type(None)
    ('an array', 'a boolean', 'null')
    """
    return _JSON_TYPES.get(type(value), type(value).__name__)


def show(value: Any) -> str:
    """A short text for a JSON value (containers by their type only: they may be huge).

    >>> show("agra"), show({"a": 1}), show("x" * 50)
    ("'agra'", 'an object', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    """
    if isinstance(value, dict | list):
        return json_type(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def problems_in(exc: BaseException, path: Path = ()) -> list[tuple[Path, str]]:
    """The (path, message) problems inside an exception raised while structuring."""
    if isinstance(exc, Nested):
        return [p for key, child in exc.children for p in problems_in(child, (*path, key))]
    if isinstance(exc, ClassValidationError):
        found: list[tuple[Path, str]] = []
        with_notes, without = exc.group_exceptions()
        for child, note in with_notes:
            found += problems_in(child, (*path, note.name))
        for child in without:
            found += problems_in(child, path)
        return found
    if isinstance(exc, ForbiddenExtraKeysError):
        return [(path, f"unknown key(s) {', '.join(sorted(exc.extra_fields))}")]
    if isinstance(exc, KeyError):
        return [(path, "required key missing")]
    if isinstance(exc, Invalid):
        return [(path, str(exc))]
    raise exc  # a bug in a hook: let the boundary report it


# ---------------------------------------------------------------------------- the converter

#: the one converter: strict JSON types in, documents out
converter = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)


def _strict(kind: type, name: str) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            shown = "" if isinstance(value, dict | list | None) else f" {show(value)}"
            raise Invalid(f"expected {name}, got {json_type(value)}{shown}")
        return value

    return structure


converter.register_structure_hook(int, _strict(int, "an integer"))
converter.register_structure_hook(bool, _strict(bool, "a boolean"))
converter.register_structure_hook(str, _strict(str, "a string"))


def _number(value: Any, _: Any) -> float:
    if type(value) not in (int, float):
        raise Invalid(f"expected a number, got {json_type(value)}")
    try:
        return float(value)
    except OverflowError:
        raise Invalid(f"number {show(value)} is out of range") from None


converter.register_structure_hook(float, _number)


def _enum_hook(cls: type[E]) -> Callable[[Any, Any], E]:
    allowed = ", ".join(m.value for m in cls)
    what = cls.__name__.lower()

    def structure(value: Any, _: Any) -> E:
        if type(value) is str:
            with contextlib.suppress(ValueError):
                return cls(value)
        raise Invalid(f"unknown {what} {show(value)}; allowed: {allowed}")

    return structure


for _enum in (Phase, Color, Symbol, Commodity, Special, FaultKind):
    converter.register_structure_hook(_enum, _enum_hook(_enum))
    converter.register_unstructure_hook(_enum, lambda member: member.value)


#: a card written as its text (``"red:elephant+vizier"``); read as text, checked by Card.parse
CardText = NewType("CardText", str)
_CARD_TEXTS: set[str] = set()  # texts known to parse, so each is parsed once


def _structure_card(value: Any, _: Any) -> CardText:
    if type(value) is not str:
        raise Invalid(f"expected a card such as 'red:elephant+vizier', got {json_type(value)}")
    if value not in _CARD_TEXTS:
        try:
            Card.parse(value)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
        if len(_CARD_TEXTS) < 1000:  # real cards are few
            _CARD_TEXTS.add(value)
    return CardText(value)


converter.register_structure_hook(CardText, _structure_card)
# card piles are lists of plain strings already: copy them instead of visiting every card
converter.register_unstructure_hook_func(lambda t: t == list[CardText], list)
converter.register_unstructure_hook_func(
    lambda t: t == list[list[CardText]], lambda piles: [list(p) for p in piles]
)


def _each(
    keys: Iterable[str | int], items: Iterable[Any], structure: Callable[[Any, Any], T], t: Any
) -> list[T]:
    """``structure(item, t)`` of every item; the failures raised together, with their keys.

    >>> _each(["a", "b"], ["1", 2], _strict(str, "a string"), str)
    Traceback (most recent call last):
    ...
    tajmahal.serialize._converter.Nested: 1 problem(s)
    """
    out: list[T] = []
    failed: list[tuple[str | int, BaseException]] = []
    for key, item in zip(keys, items, strict=True):
        try:
            out.append(structure(item, t))
        except Exception as exc:  # collected with its key
            failed.append((key, exc.with_traceback(None)))
            if len(failed) == MAX_PROBLEMS_PER_ARRAY:  # memory stays bounded: the rest unread
                break
    if failed:
        raise Nested(failed)
    return out


def _list_hook(t: Any) -> Callable[[Any, Any], list[Any]]:
    (elem,) = get_args(t)
    handler = converter.get_structure_hook(elem)

    def structure(value: Any, _: Any) -> list[Any]:
        if type(value) is not list:
            raise Invalid(f"expected an array, got {json_type(value)}")
        try:
            return [handler(item, elem) for item in value]
        except Exception:  # find every problem, with its index
            return _each(range(len(value)), value, handler, elem)

    return structure


def _dict_hook(t: Any) -> Callable[[Any, Any], dict[Any, Any]]:
    key_type, value_type = get_args(t)
    key_handler = converter.get_structure_hook(key_type)
    value_handler = converter.get_structure_hook(value_type)

    def entry(pair: tuple[Any, Any], _: Any) -> tuple[Any, Any]:
        key, item = pair
        structured = value_handler(item, value_type)  # a bad value is reported before a bad key
        return key_handler(key, key_type), structured

    def structure(value: Any, _: Any) -> dict[Any, Any]:
        if type(value) is not dict:
            raise Invalid(f"expected an object, got {json_type(value)}")
        try:
            return {
                key_handler(k, key_type): value_handler(v, value_type)
                for k, v in value.items()
            }
        except Exception:  # find every problem, with its key
            return dict(_each(value, value.items(), entry, None))

    return structure


def _is_list(t: Any) -> bool:
    return get_origin(t) is list


def _is_dict(t: Any) -> bool:
    return get_origin(t) is dict


converter.register_structure_hook_factory(_is_list, _list_hook)
converter.register_structure_hook_factory(_is_dict, _dict_hook)
