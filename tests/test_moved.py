"""Former homes of moved modules still work, warn on import (naming the new home and the
release that removes them), and are not imported by the library itself."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tajmahal._moved import REMOVED_IN

#: former home -> new home
MOVED = {
    "tajmahal.seats": "tajmahal.referee.seats",
    "tajmahal.observers": "tajmahal.referee.observers",
    "tajmahal.record_tags": "tajmahal.referee.record_tags",
    "tajmahal.bots.hookspecs": "tajmahal.hookspecs",
    "tajmahal.referee.faults": "tajmahal.faults",
    "tajmahal.web.store": "tajmahal.web.stores",
    "tajmahal.web.frames": "tajmahal.web.seat_messages",
}

#: (module, former name) -> the new name, in the same module
RENAMED = {
    ("tajmahal.web.stores.notices", "Decision"): "GameChanged",
    ("tajmahal.web.stores.notices", "Handed"): "MoveHanded",
    ("tajmahal.web.stores.notices", "Answer"): "MoveAnswered",
    ("tajmahal.web.stores.postgres", "Listener"): "NoticeListener",
    ("tajmahal.web.stores.postgres", "Decision"): "GameChanged",
    ("tajmahal.web.table", "Listener"): "ConnectionOutbox",
}

PROBE = """
import importlib, json, sys, warnings
old, new = sys.argv[1:3]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    module = importlib.import_module(old)
target = importlib.import_module(new)
same = all(getattr(module, name) is getattr(target, name) for name in module.__all__)
print(json.dumps({
    "warnings": [[w.category.__name__, str(w.message), w.filename] for w in caught],
    "same": same,
    "names": len(module.__all__),
}))
"""


def _import_in_fresh_interpreter(old: str, new: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, old, new], capture_output=True,
                          text=True, timeout=120, check=True)  # fmt: skip
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_a_former_home_warns_once_and_gives_the_same_objects(old: str, new: str) -> None:
    result = _import_in_fresh_interpreter(old, new)
    warnings = result["warnings"]
    assert isinstance(warnings, list)
    deprecations = [w for w in warnings if w[0] == "DeprecationWarning"]
    assert len(deprecations) == 1, warnings
    message = deprecations[0][1]
    assert old in message and f"import from {new}" in message and REMOVED_IN in message
    assert result["same"] is True and result["names"]


@pytest.mark.parametrize(("module", "old"), sorted(RENAMED))
def test_a_former_name_warns_and_gives_the_new_names_object(module: str, old: str) -> None:
    pytest.importorskip("starlette")
    if module.endswith("postgres"):
        pytest.importorskip("psycopg")
    target = importlib.import_module(module)
    with pytest.warns(DeprecationWarning) as caught:
        value = getattr(target, old)
    assert value is getattr(target, RENAMED[module, old])
    message = str(caught[0].message)
    assert f"{module}.{old}" in message and f"use {module}.{RENAMED[module, old]}" in message
    assert REMOVED_IN in message and caught[0].filename == __file__
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        getattr(target, "Nothing")  # noqa: B009


def test_game_server_expensive_is_a_former_name_of_shared_results(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from tajmahal.web import GameServer, SQLiteStore

    server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"))
    with pytest.warns(DeprecationWarning, match="use GameServer.shared_results"):
        assert server.expensive is server.shared_results
    server.store.close()


def test_the_library_and_its_new_homes_load_without_a_deprecation_warning() -> None:
    code = (
        "import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
        "import tajmahal as tm\n"
        "import tajmahal.referee, tajmahal.referee.seats, tajmahal.referee.observers\n"
        "import tajmahal.referee.record_tags, tajmahal.hookspecs, tajmahal.faults\n"
        "import tajmahal.seat_contract, tajmahal.bots, tajmahal.tournament, tajmahal.cli\n"
        "import tajmahal.web, tajmahal.web.stores.sqlite, tajmahal.web.stores.contract\n"
        "result = tm.play_match(['random', 'greedy', 'random'], seed=3)\n"
        "print(result.record._repr_html_()[:7], tm.referee.Fault is tm.Fault)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["<iframe", "True"]


def test_the_removal_release_is_named_in_the_changelog() -> None:
    from pathlib import Path

    changelog = (Path(__file__).parents[1] / "CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = changelog.split("## [Unreleased]")[1].split("\n## ")[0]
    entries = [" ".join(entry.split()) for entry in unreleased.split("\n- ")]
    entry = next(entry for entry in entries if "DeprecationWarning" in entry)
    assert entry.startswith("(#47)") and f"removed in {REMOVED_IN}" in entry
    for old in MOVED:
        assert f"`{old}`" in entry, old
