"""The imports inside ``rules/`` run one way, and ``rules/`` imports nothing else of the library.

Imports under ``if TYPE_CHECKING:`` are for annotations only and never run, so
they are not counted; every other import is, wherever it stands (a function
body included).
"""

from __future__ import annotations

import ast
from pathlib import Path

import tajmahal.rules

RULES = Path(tajmahal.rules.__file__).parent


def _runtime_imports(tree: ast.Module) -> set[str]:
    """The modules a file imports when it runs (skipping ``if TYPE_CHECKING:`` blocks)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {f"tajmahal.rules.{p.stem}": p for p in RULES.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imported = _runtime_imports(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = {m for m in imported if m in modules and m != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (a list of modules, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for start in sorted(graph):
        if start not in state:
            found = walk(start)
            if found:
                return found
    return None


def test_no_import_cycle_inside_rules() -> None:
    graph = _graph()
    assert graph["tajmahal.rules.state"] >= {"tajmahal.rules.legal", "tajmahal.rules.views"}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_a_type_checking_import_does_not_count_but_a_function_level_one_does() -> None:
    code = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import x\n"
        "def f():\n    import y\n"
    )
    assert _runtime_imports(ast.parse(code)) == {"typing", "typing.TYPE_CHECKING", "y"}


def test_rules_import_nothing_else_of_the_library() -> None:
    for path in RULES.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        outside = {
            m
            for m in _runtime_imports(tree)
            if m.startswith("tajmahal") and not m.startswith("tajmahal.rules")
        }
        assert not outside, f"{path.name} imports {outside}"
