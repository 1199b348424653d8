"""The library's layering, asserted from its own imports ("dependencies point one way").

The import graph of ``src/tajmahal`` is read from the code (``ast``): every
``import`` and ``from ... import``, at module level, under ``if TYPE_CHECKING:``
and inside functions alike.  Each module belongs to a *unit* (a subpackage, or a
module at the package root) and each unit to a floor; an import may go to its own
unit or to a unit on a lower floor, never up:

    rules -> contracts -> game -> events, formats -> bots -> protocol, analysis
    -> referee -> pictures, tournaments -> adapters, web, cli -> the package root

Run this file as a script (``python tests/test_architecture.py``) to print the
graph of units: the "import graph" of issue 47.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "tajmahal"

#: ``from tajmahal import __version__``: the one value the package root defines itself (the
#: release tooling and pyproject.toml read it there); importing it loads only the root's
#: game, so it counts as a unit of its own on the contracts' floor
VERSION = "__version__"

#: the floors, lowest first: a unit imports only from its own floor's units or lower ones
FLOORS: tuple[tuple[str, ...], ...] = (
    ("rules",),  # the game itself: imports nothing outside rules/
    # contracts and shared helpers: what a record holds, what a seat answers
    ("faults", "seat_contract", "_escape", "_extras", "_lazy", "_moved", "_parent",
     "worker_process", VERSION,
     "names"),  # names for people (a move, a card, a score part): every front end uses them
    ("game",),
    ("events", "serialize", "match_result"),
    ("bots",),  # with the plugin hooks' declarations (tajmahal.hookspecs, see UNIT_OF)
    ("protocol", "analysis"),
    ("referee",),
    ("render", "tournament", "testing", "arena"),  # testing: the bot authors' checks (check_bot)
    ("adapters", "web", "cli", "examples"),  # examples: bot programs shipped as data
    # the package root (the public API, loading its parts on first use), ``python -m``,
    # and the former homes of moved modules (deprecated re-exports of the referee's modules)
    (PACKAGE, "__main__", "seats", "observers", "record_tags"),
)

#: modules that belong to another unit than their path says, and why
UNIT_OF = {
    # the plugin hooks are the bots' contract, read by the registry (bots.registry) as
    # pytest reads its hookspec.py; they sit at the package root for plugin authors
    f"{PACKAGE}.hookspecs": "bots",
}

#: the one kind of upward import allowed: a notebook display (``_repr_html_``) loads the
#: drawing code on first use, inside the method, as python-chess's ``Board._repr_svg_``
#: imports ``chess.svg`` (states and views, in rules/, import nothing outside rules/: the
#: package root hands rules/display a drawer that imports render on the first picture)
DISPLAY_TARGET = f"{PACKAGE}.render"


#: the private modules still imported across units: (importer, private module) -> why.
#: Each is a named exception, checked to be still in use; the list only shrinks (it is empty:
#: rules.display, rules.frozenmap and serialize.view_trusted, shared by several units, lost
#: their underscore; tajmahal.names is the one home of people's names, issue 47)
PRIVATE_EXCEPTIONS: dict[tuple[str, str], str] = {}

#: the rules core: its modules are one engine and import each other freely (inside rules/)
RULES = f"{PACKAGE}.rules"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((SOURCE / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def unit(module: str) -> str:
    """The unit of a module: its subpackage, or itself at the package root."""
    if module in UNIT_OF:
        return UNIT_OF[module]
    if module == f"{PACKAGE}.{VERSION}":
        return VERSION
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else PACKAGE


def floor(name: str) -> int:
    for level, names in enumerate(FLOORS):
        if name in names:
            return level
    raise AssertionError(f"unit {name!r} has no floor in tests/test_architecture.py")


def _known(name: str) -> str:
    """The module ``name`` is, or the nearest package above it that exists."""
    while name not in MODULES and "." in name:
        name = name.rpartition(".")[0]
    return name


class Import:
    """One import of a module of the package by another."""

    def __init__(self, source: str, target: str, names: tuple[str, ...], line: int,
                 kind: str, function: str | None) -> None:
        self.source, self.target, self.names, self.line = source, target, names, line
        self.kind = kind  # 'module', 'type' (under TYPE_CHECKING) or 'function'
        self.function = function  # the function it is in, for kind 'function'

    @property
    def display(self) -> bool:
        """A notebook display's lazy import of the drawing code (see DISPLAY_TARGET)."""
        return (
            self.kind == "function"
            and self.function is not None
            and self.function.startswith("_repr_")
            and _known(self.target) == DISPLAY_TARGET
        )

    def __repr__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target} ({self.kind})"


def _root_sources() -> dict[str, str]:
    """For each name the package root imports, the module it takes it from."""
    tree = ast.parse(MODULES[PACKAGE].read_text(encoding="utf-8"))
    sources = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sources[alias.asname or alias.name] = node.module
    return sources


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, kind: str, function: str | None) -> Iterator[tuple[ast.AST, str,
                                                                            str | None]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _walk(child, "function", child.name if function is None else function)
        elif isinstance(child, ast.If) and _is_type_checking(child.test) and kind == "module":
            for part in child.body:
                yield part, "type", None
                yield from _walk(part, "type", None)
            for part in child.orelse:
                yield part, kind, function
                yield from _walk(part, kind, function)
        else:
            yield child, kind, function
            yield from _walk(child, kind, function)


def imports_of(module: str, root_sources: dict[str, str]) -> list[Import]:
    """Every import of a module of the package in ``module``'s code."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node, kind, function in _walk(tree, "module", None):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    found.append(Import(module, _known(alias.name), (), node.lineno, kind,
                                        function))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if name != PACKAGE and not name.startswith(PACKAGE + "."):
                continue
            for alias in node.names:
                full = f"{name}.{alias.name}"
                if full in MODULES:  # a submodule: ``from tajmahal import render``
                    target = full
                elif name == PACKAGE and alias.name == VERSION:
                    target = f"{PACKAGE}.{VERSION}"
                elif name == PACKAGE and alias.name in root_sources:
                    # a name the root takes from elsewhere counts as an import of that module
                    target = _known(root_sources[alias.name])
                else:
                    target = _known(name)
                found.append(Import(module, target, (alias.name,), node.lineno, kind, function))
    return [found_import for found_import in found if found_import.target != module]


def all_imports() -> list[Import]:
    root_sources = _root_sources()
    return [found for module in MODULES for found in imports_of(module, root_sources)]


IMPORTS = all_imports()


def unit_graph(imports: list[Import]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for found in imports:
        if not found.display and unit(found.source) != unit(found.target):
            graph.setdefault(unit(found.source), set()).add(unit(found.target))
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one node (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    nodes = sorted(set(graph) | {node for targets in graph.values() for node in targets})
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return found


def _private(found: Import) -> str | None:
    """The private part of a cross-unit import (``_x``), or None.

    The package root's own private modules (``tajmahal._escape``...) are the
    library's shared helpers, on the contracts' floor: private to the
    distribution, not to a unit.
    """
    inner = found.target.split(".")[1:]
    if inner and unit(found.target) == inner[0]:
        inner = inner[1:]  # the unit's own name (``_escape`` for tajmahal._escape) is allowed
    parts = inner + list(found.names)
    private = [part for part in parts if part.startswith("_") and not part.startswith("__")]
    return ".".join(private) or None


# ---------------------------------------------------------------------------- tests


def test_every_unit_has_a_floor() -> None:
    for module in MODULES:
        floor(unit(module))


def test_the_graph_is_read_from_the_code() -> None:
    """The reader sees each kind of import (so the checks below cannot pass on an empty graph)."""
    kinds = {(found.source, found.target, found.kind) for found in IMPORTS}
    assert ("tajmahal.referee.match", "tajmahal.rules.engine", "module") in kinds
    assert ("tajmahal.hookspecs", "tajmahal.events", "type") in kinds
    assert any(found.display for found in IMPORTS)
    assert len(IMPORTS) > 500


def test_rules_import_nothing_outside_rules() -> None:
    outside = [
        found for found in IMPORTS
        if unit(found.source) == "rules" and unit(found.target) != "rules" and not found.display
    ]
    assert outside == []


def test_imports_point_down() -> None:
    upward = [
        f"{found!r}: {unit(found.source)} (floor {floor(unit(found.source))}) imports "
        f"{unit(found.target)} (floor {floor(unit(found.target))})"
        for found in IMPORTS
        if not found.display and floor(unit(found.target)) > floor(unit(found.source))
    ]
    assert upward == []


def test_only_notebook_displays_import_upward_and_only_lazily() -> None:
    displays = sorted(f"{found.source}.{found.function}" for found in IMPORTS if found.display)
    assert displays == ["tajmahal.game._repr_html_"]


def test_no_package_cycle() -> None:
    assert circles(unit_graph(IMPORTS)) == []


def test_no_file_circle_outside_the_rules_core() -> None:
    """Counting module-level and ``TYPE_CHECKING`` imports (a function's import runs later)."""
    graph: dict[str, set[str]] = {}
    for found in IMPORTS:
        if found.kind != "function":
            graph.setdefault(found.source, set()).add(found.target)
    outside = [
        members for members in circles(graph)
        if not all(member.startswith(RULES + ".") or member == RULES for member in members)
    ]
    assert outside == []


def _crossing_private() -> list[Import]:
    return [
        found for found in IMPORTS
        if unit(found.source) != unit(found.target) and _private(found)
    ]


def test_no_private_name_is_imported_across_units() -> None:
    crossing = [
        f"{found!r} imports {_private(found)}"
        for found in _crossing_private()
        if (found.source, found.target) not in PRIVATE_EXCEPTIONS
    ]
    assert crossing == []


def test_every_private_exception_is_still_needed() -> None:
    used = {(found.source, found.target) for found in _crossing_private()}
    assert set(PRIVATE_EXCEPTIONS) <= used, set(PRIVATE_EXCEPTIONS) - used


@pytest.mark.parametrize("name", ["no_such_unit"])
def test_a_unit_without_a_floor_is_an_error(name: str) -> None:
    with pytest.raises(AssertionError, match="has no floor"):
        floor(name)


def test_the_cycle_finder_finds_cycles() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_print_the_graph(capsys: pytest.CaptureFixture[str]) -> None:
    """The graph of units (``pytest -s`` or run this file to see it)."""
    with capsys.disabled():
        print()
        print(graph_text())


def graph_text() -> str:
    graph = unit_graph(IMPORTS)
    lines = ["the import graph of src/tajmahal (unit -> the units it imports):"]
    for level, names in enumerate(FLOORS):
        for name in names:
            if name in graph:
                lines.append(f"  [{level}] {name:<14} -> {', '.join(sorted(graph[name]))}")
    display = sorted({f"{found.source} -> {found.target}" for found in IMPORTS if found.display})
    lines.append("  lazy notebook displays: " + "; ".join(display))
    return "\n".join(lines)


if __name__ == "__main__":
    print(graph_text())
    for members in circles(unit_graph(IMPORTS)):
        print("package cycle:", ", ".join(members), file=sys.stderr)
