"""Bots as pluggy plugins: discovery through installed entry points, and the registry's errors.

The example plugin (``examples/plugin``) must be installed in the test
environment; ``make test`` does that (``pip install -e examples/plugin``).
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

import tajmahal as tm
from helpers import NON_BOARD_TOML, line_board
from tajmahal.bots import PluginError, Registry, UnknownBotError
from tajmahal.bots.registry import ENTRY_POINT_GROUP
from tajmahal.cli import main

EXAMPLE_PACKAGE = "tajmahal-example-plugin"


@pytest.fixture(scope="module")
def example_plugin() -> importlib.metadata.EntryPoint:
    """The example plugin's entry point, installed for real in this environment."""
    found = [
        ep
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        if ep.dist is not None and ep.dist.name == EXAMPLE_PACKAGE
    ]
    if not found:
        pytest.fail(
            f"the example plugin {EXAMPLE_PACKAGE!r} is not installed: run `make test`, or "
            "`.venv/bin/python -m pip install -e examples/plugin`"
        )
    return found[0]


@pytest.fixture(scope="module")
def line_board_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A components file with the synthetic line board (``--components`` for the CLI)."""
    path = tmp_path_factory.mktemp("boards") / "line.toml"
    path.write_text(NON_BOARD_TOML + "\n" + line_board(), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def fresh_registry() -> Iterator[None]:
    tm.bots.reload()
    yield
    tm.bots.reload()


def make_bot(bot_name: str) -> type[Any]:
    class Named:
        """A stand-in bot."""

        name: ClassVar[str] = bot_name

        def __init__(self, seed: int = 0) -> None:
            self.seed = seed

        def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
            return legal_moves[0]

    return Named


class Plugin:
    """A plugin object offering the given bot classes."""

    def __init__(self, *bots: Any) -> None:
        self.bots = bots

    @tm.hookimpl
    def tajmahal_bots(self) -> Iterable[Any]:
        return self.bots


# ---------------------------------------------------------------------------- discovery


def test_builtin_bots_come_through_the_hook() -> None:
    registry = Registry(entry_points=False)
    results = registry.plugin_manager.hook.tajmahal_bots()
    assert [bot for result in results for bot in result] == [tm.bots.RandomBot, tm.bots.GreedyBot]
    infos = registry.bot_infos()
    assert list(infos) == ["greedy", "random"]
    assert {(i.plugin, i.origin) for i in infos.values()} == {("tajmahal", "tajmahal")}


def test_installed_plugin_is_discovered_through_its_entry_point(
    example_plugin: importlib.metadata.EntryPoint,
) -> None:
    module = example_plugin.load()
    info = tm.bots.bot_infos()["cautious"]
    assert info.bot_class is module.CautiousBot
    assert (info.plugin, info.origin) == (example_plugin.name, EXAMPLE_PACKAGE)
    assert info.description.startswith("Withdraws as soon as")
    bot = tm.bots.create("cautious", seed=4)
    assert isinstance(bot, module.CautiousBot) and isinstance(bot, tm.Bot)
    assert Registry(entry_points=False).available().keys() == {"greedy", "random"}


def test_a_match_with_the_plugin_bot_through_the_cli(
    example_plugin: importlib.metadata.EntryPoint,
    line_board_file: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["match", "cautious", "greedy", "random", "--seed", "2"]
    assert main([*argv, "--components", str(line_board_file)]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (cautious)" in out and "Final scores:" in out and "Fault" not in out


def test_the_installed_command_lists_the_plugin(
    example_plugin: importlib.metadata.EntryPoint,
) -> None:
    script = Path(sys.executable).parent / "tajmahal"
    done = subprocess.run([str(script), "bots"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line.split()[1] for line in done.stdout.splitlines()[1:]}
    assert lines["cautious"] == EXAMPLE_PACKAGE and lines["greedy"] == "tajmahal"


# ---------------------------------------------------------------------------- errors


def test_unknown_name_lists_the_available_bots() -> None:
    with pytest.raises(UnknownBotError) as caught:
        tm.bots.create("grumpy", seed=1)
    message = str(caught.value)
    assert "'grumpy'" in message
    for name in tm.bots.available():
        assert name in message


def test_two_plugins_with_the_same_bot_name_are_named_in_the_error() -> None:
    registry = Registry(entry_points=False)
    registry.register(Plugin(make_bot("twin")), name="first-plugin", origin="pkg-one")
    registry.register(Plugin(make_bot("twin")), name="second-plugin", origin="pkg-two")
    with pytest.raises(PluginError, match="'twin'") as caught:
        registry.available()
    for word in ("first-plugin", "second-plugin", "pkg-one", "pkg-two"):
        assert word in str(caught.value)


def test_a_plugin_cannot_take_a_builtin_name() -> None:
    registry = Registry(entry_points=False)
    registry.register(Plugin(make_bot("random")), name="impostor")
    with pytest.raises(PluginError, match=r"'random'.*'tajmahal'.*'impostor'"):
        registry.create("random")


def test_a_broken_entry_point_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = importlib.metadata.EntryPoint(
        name="broken", value="tajmahal_no_such_module_xyz", group=ENTRY_POINT_GROUP
    )
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [broken])
    with pytest.raises(PluginError, match=r"cannot load plugin 'broken'.*ModuleNotFoundError"):
        Registry()


@pytest.mark.parametrize(
    ("offered", "problem"),
    [
        (["not a class"], "must return bot classes"),
        ([make_bot("Bad Name")], "has name 'Bad Name'"),
        ([type("NoChoose", (), {"name": "nochoose"})], "no choose"),
    ],
)
def test_malformed_bots_are_rejected(offered: list[Any], problem: str) -> None:
    registry = Registry(entry_points=False)
    registry.register(Plugin(*offered), name="sloppy")
    with pytest.raises(PluginError, match=problem) as caught:
        registry.available()
    assert "'sloppy'" in str(caught.value)


def test_a_failing_hook_is_named() -> None:
    class Failing:
        @tm.hookimpl
        def tajmahal_bots(self) -> Iterable[Any]:
            raise ValueError("no bots today")

    registry = Registry(entry_points=False)
    registry.register(Failing(), name="failing")
    with pytest.raises(PluginError, match=r"'failing'.*no bots today"):
        registry.available()


def test_bot_options_are_passed_and_checked() -> None:
    greedy = tm.bots.create("greedy", seed=3, enough=2.5)
    assert isinstance(greedy, tm.bots.GreedyBot) and greedy.enough == 2.5
    with pytest.raises(tm.TajMahalError, match="bot 'random' has no option 'speed'"):
        tm.bots.create("random", seed=3, speed=9)
