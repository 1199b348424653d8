"""``import tajmahal`` loads the game alone; the rest of the library loads when first used.

Checked in fresh interpreters (``sys.modules`` after the import), never by
timing: the CPU time is measured by benchmarks/import_time.py.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tajmahal as tm

#: what ``import tajmahal`` must not load (each loads when first used)
HEAVY = (
    "tajmahal.tournament",
    "tajmahal.protocol",
    "tajmahal.referee.match",
    "tajmahal.analysis",
    "tajmahal.render",
    "tajmahal.bots",
    "tajmahal.serialize",
    "openskill",
    "rich",
    "numpy",
    "asyncio",
    "multiprocessing",
    "subprocess",
    "pluggy",
    "cattrs",
)


def loaded_after(code: str) -> set[str]:
    """The modules in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_import_tajmahal_loads_none_of_the_heavy_parts() -> None:
    loaded = loaded_after("import tajmahal")
    assert "tajmahal.rules.engine" in loaded  # the game itself is there at once
    assert not {name for name in HEAVY if name in loaded}


def test_a_game_can_be_played_without_loading_the_heavy_parts() -> None:
    loaded = loaded_after(
        "import tajmahal as tm\n"
        "state = tm.new_game(3, seed=1)\n"
        "while not state.is_over:\n"
        "    state = state.apply(state.legal_moves()[0])"
    )
    assert not {name for name in HEAVY if name in loaded}


@pytest.mark.parametrize(
    ("use", "module"),
    [
        ("tm.play_match", "tajmahal.referee.match"),
        ("tm.run_tournament", "tajmahal.tournament"),
        ("tm.dumps", "tajmahal.serialize"),
        ("tm.bots.available", "tajmahal.bots"),
        ("tm.render", "tajmahal.render"),
        ("tm.protocol.serve", "tajmahal.protocol"),
        ("tm.analysis", "tajmahal.analysis"),
    ],
)
def test_a_heavy_part_loads_when_first_used(use: str, module: str) -> None:
    assert module in loaded_after(f"import tajmahal as tm\n{use}")


def test_every_public_name_is_there_and_listed_by_dir() -> None:
    for name in tm.__all__:
        assert getattr(tm, name) is not None, name
    assert set(tm.__all__) <= set(dir(tm))
    assert tm.play_match is tm.referee.match.play_match
    assert tm.Fault is tm.referee.faults.Fault
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        tm.no_such_name  # noqa: B018


def test_the_names_loaded_on_first_use_are_imported_for_type_checkers() -> None:
    # mypy and IDEs see the `if TYPE_CHECKING:` imports: each lazy name must be among them
    source = Path(tm.__file__).read_text(encoding="utf-8")
    checked: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    checked.update(alias.asname or alias.name for alias in statement.names)
    public_lazy = {name for name in tm._ON_FIRST_USE if name in tm.__all__}
    assert public_lazy <= checked, public_lazy - checked
