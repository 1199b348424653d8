"""Bots as pluggy plugins: discovery through installed entry points, and the registry's errors.

The example plugin (``examples/plugin``) must be installed in the test
environment; ``make test`` does that (``pip install -e examples/plugin``).
"""

from __future__ import annotations

import importlib.metadata
import os
import re
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
    builtins = [
        tm.bots.RandomBot, tm.bots.GreedyBot, tm.bots.IsmctsBot, tm.bots.IsmctsV1Bot,
        tm.bots.IsmctsV2Bot, tm.bots.IsmctsV3Bot,
    ]
    assert [bot for result in results for bot in result] == builtins
    infos = registry.bot_infos()
    assert list(infos) == ["greedy", "ismcts", "ismcts-v1", "ismcts-v2", "ismcts-v3", "random"]
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
    builtins = {"greedy", "ismcts", "ismcts-v1", "ismcts-v2", "ismcts-v3", "random"}
    assert Registry(entry_points=False).available().keys() == builtins


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
    table = done.stdout.split("\n\n")[0]  # then the plugins with problems, the trust note
    lines = {line.split()[0]: line.split()[1] for line in table.splitlines()[1:]}
    assert lines["cautious"] == EXAMPLE_PACKAGE and lines["greedy"] == "tajmahal"


# ---------------------------------------------------------------------------- errors


def test_unknown_name_lists_the_available_bots() -> None:
    with pytest.raises(UnknownBotError) as caught:
        tm.bots.create("grumpy", seed=1)
    message = str(caught.value)
    assert "'grumpy'" in message
    for name in tm.bots.available():
        assert name in message


def problems_of(registry: Registry, plugin: str) -> str:
    return " | ".join(str(p) for p in registry.problems if p.plugin == plugin)


def test_two_plugins_with_the_same_bot_name_make_only_that_name_an_error() -> None:
    registry = Registry(entry_points=False)
    twins = Plugin(make_bot("twin"), make_bot("solo"))
    registry.register(twins, name="first-plugin", origin="pkg-one")
    registry.register(Plugin(make_bot("twin")), name="second-plugin", origin="pkg-two")
    with pytest.raises(PluginError, match="'twin'") as caught:
        registry.create("twin")
    for word in ("first-plugin", "second-plugin", "pkg-one", "pkg-two"):
        assert word in str(caught.value)
    assert sorted(registry.available()) == [
        "greedy", "ismcts", "ismcts-v1", "ismcts-v2", "ismcts-v3", "random", "solo"
    ]
    assert "registered twice" in problems_of(registry, "second-plugin")


def test_a_plugin_cannot_take_a_builtin_name() -> None:
    registry = Registry(entry_points=False)
    registry.register(Plugin(make_bot("random")), name="impostor")
    assert type(registry.create("random")) is tm.bots.RandomBot  # the built-in keeps it
    assert re.search(r"'random'.*'tajmahal'.*'impostor'", problems_of(registry, "impostor"))


def test_a_broken_entry_point_is_reported_and_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = importlib.metadata.EntryPoint(
        name="broken", value="tajmahal_no_such_module_xyz", group=ENTRY_POINT_GROUP
    )
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [broken])
    registry = Registry()
    assert "cannot import tajmahal_no_such_module_xyz: ModuleNotFoundError" in problems_of(
        registry, "broken"
    )
    assert sorted(registry.available()) == [
        "greedy", "ismcts", "ismcts-v1", "ismcts-v2", "ismcts-v3", "random"
    ]


@pytest.mark.parametrize(
    ("offered", "problem"),
    [
        (["not a class"], "returned a str from tajmahal_bots()"),
        ([make_bot("Bad Name")], "has name 'Bad Name'"),
        ([type("NoChoose", (), {"name": "nochoose"})], "no choose"),
    ],
)
def test_malformed_bots_are_reported_and_skipped(offered: list[Any], problem: str) -> None:
    registry = Registry(entry_points=False)
    registry.register(Plugin(*offered, make_bot("fine")), name="sloppy")
    assert problem in problems_of(registry, "sloppy")
    assert sorted(registry.available()) == [
        "fine", "greedy", "ismcts", "ismcts-v1", "ismcts-v2", "ismcts-v3", "random"
    ]


def test_a_failing_hook_is_reported_and_skipped() -> None:
    class Failing:
        @tm.hookimpl
        def tajmahal_bots(self) -> Iterable[Any]:
            raise SystemExit("no bots today")

    registry = Registry(entry_points=False)
    registry.register(Failing(), name="failing")
    assert "SystemExit: no bots today" in problems_of(registry, "failing")
    assert sorted(registry.available()) == [
        "greedy", "ismcts", "ismcts-v1", "ismcts-v2", "ismcts-v3", "random"
    ]


def test_bot_options_are_passed_and_checked() -> None:
    greedy = tm.bots.create("greedy", seed=3, enough=2.5)
    assert isinstance(greedy, tm.bots.GreedyBot) and greedy.enough == 2.5
    with pytest.raises(tm.TajMahalError, match="bot 'random' has no option 'speed'"):
        tm.bots.create("random", seed=3, speed=9)


HOSTILE_PLUGINS = {
    "import-error": ("raise ImportError('missing')\n", "ImportError: missing"),
    "sys-exit": ("import sys\nsys.exit(4)\n", "SystemExit: 4"),
    "slow": ("import time\ntime.sleep(30)\n", "took more than 0.5 s"),
    "junk": (
        "import tajmahal as tm\n@tm.hookimpl\ndef tajmahal_bots():\n    return 42\n",
        "returned a int, not a list",
    ),
    "misspelled": (
        "import tajmahal as tm\n@tm.hookimpl\ndef tajmahal_bot():\n    return []\n",
        "unknown hook(s) tajmahal_bot",
    ),
    "unmarked": ("def tajmahal_bots():\n    return []\n", "without @tajmahal.hookimpl"),
}


def installed_plugin(site: Path, code: str) -> Path:
    """A sys.path directory holding one installed (dist-info) plugin package, evil-plugin 1.0."""
    site.mkdir()
    (site / "evilplugin.py").write_text(code, encoding="utf-8")
    info = site / "evil_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tajmahal]\nevil = evilplugin\n")
    return site


@pytest.mark.parametrize("kind", list(HOSTILE_PLUGINS))
def test_a_broken_installed_plugin_is_reported_and_the_others_work(
    kind: str, tmp_path: Path
) -> None:
    code, error = HOSTILE_PLUGINS[kind]
    site = installed_plugin(tmp_path / "site", code)
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    env["TAJMAHAL_PLUGIN_TIMEOUT"] = "0.5"
    script = (
        "import sys\nfrom tajmahal.cli import main\n"
        "code = main(['bots'])\n"
        "code += main(['match', 'greedy', 'random', 'cautious', '--seed', '1', '--quiet'])\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "plugin 'evil' (package evil-plugin)" in done.stdout and error in done.stdout
    assert "tajmahal-example-plugin" in done.stdout and "Winner" in done.stdout
    if kind != "import-error":
        return
    env["TAJMAHAL_DISABLED_PLUGINS"] = "evil-plugin"  # skipped before loading: not reported
    quiet = subprocess.run(
        [sys.executable, "-m", "tajmahal", "bots"], capture_output=True, text=True, env=env,
        timeout=60,
    )
    assert quiet.returncode == 0 and "evil" not in quiet.stdout
