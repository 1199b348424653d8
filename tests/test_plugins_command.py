"""``tajmahal plugins``: every installed plugin, what it provides, and what went wrong.

Plugins are installed as pip would (a ``.dist-info`` with ``entry_points.txt`` on a
``sys.path`` folder) and listed by a real ``tajmahal plugins`` in a child process: the
example plugin of the shared venv, a plugin that only observes matches (it runs in every
match all the same), one that cannot be imported, one with a misspelled hook, and the
same plugins disabled.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tajmahal as tm
from tajmahal.bots import PluginInfo, Registry, plugin_infos

OBSERVER = '''
import os
import tajmahal as tm

@tm.hookimpl
def tajmahal_match_finished(result):
    with open(os.environ["WATCHER_LOG"], "a") as log:
        log.write(f"winners {list(result.winners)}\\n")
'''
PLUGINS = {  # module name -> (distribution, entry point, code)
    "watcher": ("tm-watcher", "watcher", OBSERVER),
    "brokenmod": ("tm-broken", "broken", "raise ImportError('no luck today')\n"),
    "typo": ("tm-typo", "typo", "import tajmahal as tm\n@tm.hookimpl\n"
             "def tajmahal_match_finish(result):\n    pass\n"),
}  # fmt: skip


def installed(site: Path) -> Path:
    """A sys.path folder holding the plugins of PLUGINS, each its own distribution 1.0."""
    site.mkdir()
    for module, (dist, entry, code) in PLUGINS.items():
        (site / f"{module}.py").write_text(code, encoding="utf-8")
        info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[tajmahal]\n{entry} = {module}\n")
    return site


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    site = installed(tmp_path / "site")
    paths = [str(site), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p),
            "WATCHER_LOG": str(tmp_path / "watcher.log")}  # fmt: skip


def tajmahal(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "tajmahal", *args], capture_output=True,
                          text=True, env=env, timeout=120, check=False)  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    return done


def by_name(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {plugin["name"]: plugin for plugin in document["plugins"]}


def test_every_installed_plugin_is_listed_with_what_it_provides(env: dict[str, str]) -> None:
    done = tajmahal(env, "plugins", "--json")
    assert done.returncode == 0
    plugins = by_name(json.loads(done.stdout))
    assert "tajmahal" not in plugins  # the built-in bots: with --all
    example = plugins["example"]
    assert (example["package"], example["version"], example["module"]) == (
        "tajmahal-example-plugin", "0.1.0", "tajmahal_example"
    )  # fmt: skip
    assert example["bots"] == ["cautious"] and example["hooks"] == ["tajmahal_bots"]
    assert example["status"] == "loaded" and example["observes"] is False
    watcher = plugins["watcher"]  # observes only: no bot, yet it runs in every match
    assert watcher["status"] == "loaded" and watcher["bots"] == []
    assert watcher["hooks"] == ["tajmahal_match_finished"] and watcher["observes"] is True
    assert (watcher["package"], watcher["version"]) == ("tm-watcher", "1.0")
    broken = plugins["broken"]
    assert broken["status"] == "not loaded" and broken["hooks"] == []
    assert broken["problems"] == ["cannot import brokenmod: ImportError: no luck today"]
    typo = plugins["typo"]
    assert typo["status"] == "loaded with problems"
    assert "implements unknown hook(s) tajmahal_match_finish" in typo["problems"][0]


def test_the_table_shows_the_same(env: dict[str, str]) -> None:
    done = tajmahal(env, "plugins")
    assert done.returncode == 0
    rows = {line.split()[0]: line.split(maxsplit=4) for line in done.stdout.splitlines()[1:]
            if line[:1].isalpha() and "  " in line}  # fmt: skip
    assert rows["example"][1:] == ["tajmahal-example-plugin", "0.1.0", "tajmahal_example",
                                   "bots: cautious"]  # fmt: skip
    assert rows["watcher"][1:] == ["tm-watcher", "1.0", "watcher", "observes: match_finished"]
    assert rows["broken"][4] == "(not loaded)"
    problems = done.stdout.split("\nProblems:\n", 1)[1]
    assert "  broken (tm-broken, not loaded): cannot import brokenmod: ImportError: no luck " \
           "today" in problems  # fmt: skip
    assert "  typo (tm-typo, loaded with problems): implements unknown hook(s)" in problems
    assert "Installing a plugin trusts it" in done.stdout


def test_the_observer_that_plugins_lists_watches_every_match(
    env: dict[str, str], tmp_path: Path
) -> None:
    assert tajmahal(env, "match", "greedy", "random", "random", "--quiet").returncode == 0
    assert (tmp_path / "watcher.log").read_text().startswith("winners [")


def test_disabled_plugins_are_listed_as_disabled_and_all_adds_the_builtins(
    env: dict[str, str],
) -> None:
    env = {**env, "TAJMAHAL_DISABLED_PLUGINS": "watcher,tm-broken"}
    plugins = by_name(json.loads(tajmahal(env, "plugins", "--all", "--json").stdout))
    assert next(iter(plugins)) == "tajmahal"
    assert plugins["tajmahal"]["bots"] == ["greedy", "ismcts", "ismcts-v1", "ismcts-v2",
                                           "ismcts-v3", "random"]  # fmt: skip
    for name in ("watcher", "broken"):  # by entry point or by package: not imported at all
        assert plugins[name]["status"] == "disabled" and plugins[name]["problems"] == []


def test_a_registry_without_the_installed_plugins_lists_none() -> None:
    assert plugin_infos(Registry(entry_points=False)) == []
    assert [i.name for i in plugin_infos(Registry(entry_points=False), builtin=True)] == [
        "tajmahal"
    ]


def test_a_plugin_registered_by_a_program_is_listed_too() -> None:
    class Watch:
        @tm.hookimpl
        def tajmahal_decision_made(self, decision: object) -> None:
            pass

    registry = Registry(entry_points=False)
    registry.register(Watch(), name="watch", origin="my-app")
    assert plugin_infos(registry) == [
        PluginInfo("watch", "my-app", "", "", "loaded", hooks=("tajmahal_decision_made",))
    ]
