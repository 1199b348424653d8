"""Every public name has a docstring with an example (``>>>``).

Checked: each name of ``tajmahal.__all__``, ``tajmahal.bots.__all__``,
``tajmahal.events.__all__``, ``tajmahal.protocol.__all__``, ``tajmahal.testing.__all__``
and ``tajmahal.names.__all__``; for a class, also its public methods and properties defined
in the package (not those inherited from attrs, enum or object).  The examples themselves are
run by ``tests/test_docs.py`` (``test_docstring_examples_pass``, every module of the package
through :mod:`doctest`).
"""

from __future__ import annotations

import doctest
import functools
import importlib
import inspect
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

import tajmahal as tm
import tajmahal.names
import tajmahal.testing


def defined_here(obj: Any) -> bool:
    """Whether ``obj`` (a function or class) comes from the tajmahal package."""
    return str(getattr(obj, "__module__", "")).split(".")[0] == "tajmahal"


def documented_members(cls: type) -> Iterator[tuple[str, Any]]:
    """(name, object) for the class's public methods and properties defined in the package."""
    seen: set[str] = set()
    for owner in cls.__mro__:
        if not defined_here(owner):
            continue
        for name, member in vars(owner).items():
            if name.startswith("_") or name in seen:
                continue
            if isinstance(member, classmethod | staticmethod):
                member = member.__func__
            if isinstance(member, property):
                if member.fget is None or not defined_here(member.fget):
                    continue
            elif not (inspect.isfunction(member) and defined_here(member)):
                continue  # attrs fields, enum members, constants
            seen.add(name)
            yield f"{cls.__name__}.{name}", member


def public_objects(module: ModuleType) -> Iterator[tuple[str, Any]]:
    """(qualified name, object) for every public function, class, method and property."""
    prefix = module.__name__
    for name in module.__all__:
        obj = getattr(module, name)
        if isinstance(obj, ModuleType):
            continue  # tajmahal.bots, tajmahal.protocol: walked on their own
        if inspect.isclass(obj):
            yield f"{prefix}.{name}", obj
            for member_name, member in documented_members(obj):
                yield f"{prefix}.{member_name}", member
        elif callable(obj) and defined_here(obj):
            yield f"{prefix}.{name}", obj


PUBLIC = dict(
    p for module in (tm, tm.bots, tm.events, tm.protocol, tajmahal.testing, tajmahal.names)
    for p in public_objects(module)
)


def test_the_walk_finds_classes_functions_methods_and_properties() -> None:
    assert {"tajmahal.Game", "tajmahal.Game.push", "tajmahal.GameState.is_over",
            "tajmahal.Card.parse", "tajmahal.new_game", "tajmahal.bots.Registry.create",
            "tajmahal.bots.reload"} <= PUBLIC.keys()
    # enum members, attrs fields and what enum/object provide are not the package's own
    assert not {"tajmahal.Color.RED", "tajmahal.Color.name", "tajmahal.Color.value",
                "tajmahal.Fault.seat", "tajmahal.PlayerView.seat"} & PUBLIC.keys()


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_has_a_docstring_with_an_example(name: str) -> None:
    doc = inspect.cleandoc(PUBLIC[name].__doc__ or "")  # its own, not one inherited
    assert doc.strip(), f"{name} has no docstring"
    assert ">>>" in doc, f"{name}'s docstring has no example (>>>)"


def home_module(obj: Any) -> ModuleType:
    """The module that defines ``obj`` (a property's getter's, for a property)."""
    target = obj.fget if isinstance(obj, property) else obj
    return importlib.import_module(target.__module__)


@functools.cache
def docstrings_with_examples(module: ModuleType) -> frozenset[str | None]:
    """The docstrings whose examples ``doctest.testmod(module)`` runs."""
    return frozenset(t.docstring for t in doctest.DocTestFinder().find(module) if t.examples)


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_the_examples_are_found_by_doctest(name: str) -> None:
    """``doctest.testmod(module)`` (what test_docs.py runs) collects this docstring's examples."""
    obj = PUBLIC[name]
    module = home_module(obj)
    assert obj.__doc__ in docstrings_with_examples(module), (
        f"{name}: doctest.testmod({module.__name__}) skips its examples"
    )
