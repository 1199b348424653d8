"""Imports run one way: inside ``rules/``, and across the whole package at import time.

Inside ``rules/`` (which imports nothing else of the library), imports under
``if TYPE_CHECKING:`` are for annotations only and never run, so they are not
counted; every other import is, wherever it stands (a function body included).
Across the package, what counts is what runs while a module is imported: its
module-level imports and the packages they load first.
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


# ------------------------------------------------------- the whole package, at import time

PACKAGE = RULES.parent


def _module_sources() -> dict[str, tuple[str, bool]]:
    """Every module of the package by dotted name: (its source, whether it is a package)."""
    sources = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ("tajmahal", *path.relative_to(PACKAGE).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        sources[name] = (path.read_text(encoding="utf-8"), is_package)
    return sources


def _import_time_imports(tree: ast.Module, module: str, is_package: bool) -> set[str]:
    """What a module names in its imports while it is being imported: its module-level ones.

    Function bodies run later (not at import time) and ``if TYPE_CHECKING:``
    blocks never run; class bodies, ``if``/``try`` blocks at module level do.
    ``from m import x`` gives ``m:x`` (``x`` may be a name of ``m`` or its
    submodule ``m.x``); relative imports are resolved against ``module``.
    """
    found: set[str] = set()
    here = module if is_package else module.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                anchor = parts[: len(parts) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.update(f"{base}:{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _package_graph(modules: dict[str, tuple[str, bool]] | None = None) -> dict[str, set[str]]:
    """Module -> the package's modules that importing it runs, or needs finished, first.

    ``import a.b.c`` runs ``a/__init__``, then ``a/b/__init__``, then ``c``:
    each is an edge, except the packages that contain the importing module
    (they are already being imported when it runs).  A module that names a
    package itself (``import tajmahal``, ``from tajmahal import new_game``)
    needs that package's names: an edge even when it contains the module.
    """
    modules = _module_sources() if modules is None else modules
    graph: dict[str, set[str]] = {}
    for name, (source, is_package) in modules.items():
        own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)}
        edges: set[str] = set()
        for target in _import_time_imports(ast.parse(source), name, is_package):
            base, _, member = target.partition(":")
            named = f"{base}.{member}" if f"{base}.{member}" in modules else base
            parts = named.split(".")
            edges.update(
                prefix
                for prefix in (".".join(parts[:i]) for i in range(1, len(parts)))
                if prefix in modules and prefix not in own
            )
            if named in modules and named != name:
                edges.add(named)
        graph[name] = edges
    return graph


def test_no_module_of_the_package_imports_itself_in_a_circle_at_import_time() -> None:
    graph = _package_graph()
    assert "tajmahal.rules.components" in graph["tajmahal.game"]  # the walk sees imports
    assert "tajmahal.rules" in graph["tajmahal.game"]  # and the packages they run first
    cycle = _cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_import_time_walk_skips_functions_and_type_checking_and_resolves_relative() -> None:
    code = (
        "from typing import TYPE_CHECKING\n"
        "import a.b\n"
        "from . import sibling\n"
        "from ..up import thing\n"
        "if TYPE_CHECKING:\n    import x\n"
        "def f():\n    import y\n"
        "class C:\n    import z\n"
    )
    found = _import_time_imports(ast.parse(code), "p.q.m", is_package=False)
    assert found == {"typing:TYPE_CHECKING", "a.b", "p.q:sibling", "p.up:thing", "z"}


def test_importing_a_submodule_runs_its_packages_first_but_not_its_own() -> None:
    graph = _package_graph()
    assert "tajmahal.referee" in graph["tajmahal.testing.bot_checks"]
    assert "tajmahal.referee" not in graph["tajmahal.referee.match"]  # its own package


def test_a_module_that_imports_the_package_containing_it_is_a_cycle() -> None:
    # what bots/greedy.py did (``import tajmahal as tm`` while tajmahal imports bots)
    graph = _package_graph({
        "tajmahal": ("from tajmahal import bots\n", True),
        "tajmahal.bots": ("from tajmahal.bots.greedy import GreedyBot\n", True),
        "tajmahal.bots.greedy": ("import tajmahal as tm\n", False),
    })
    assert _cycle(graph) == ["tajmahal", "tajmahal.bots", "tajmahal.bots.greedy", "tajmahal"]


def test_the_greedy_bot_imports_only_the_public_api() -> None:
    """``bots/greedy.py`` is the example of a bot written on the public API (docs: bot tutorial)."""
    import tajmahal as tm

    path = RULES.parent / "bots" / "greedy.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    library = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom | ast.Import)
               and any(name.startswith("tajmahal") for name in _runtime_imports(
                   ast.Module(body=[node], type_ignores=[])))]  # fmt: skip
    assert library, "greedy imports the library's types"
    for node in library:
        assert isinstance(node, ast.ImportFrom) and node.module == "tajmahal", ast.unparse(node)
        assert all(alias.name in tm.__all__ for alias in node.names), ast.unparse(node)
