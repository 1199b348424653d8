"""``file:PATH[:CLASS][:OPTIONS]`` specs: a local Python file's Bot class, seated without packaging.

The syntax, every way a file can be wrong (each a SpecError naming the spec,
before any game, with no traceback), and the bot playing through every door:
``play_match`` (in process and isolated), tournaments on the process
backend, ``tajmahal match`` and ``tajmahal check-bot``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.bots import SpecError, check_spec, parse_spec
from tajmahal.bots.file_bots import file_bot_class
from tajmahal.cli import main
from tajmahal.protocol.confine import sandbox_problem

#: a bot that plays as the built-in ``random`` does (same seed, same moves)
RANDOM_COPY = """
import random

class Copycat:
    '''Plays as the built-in random bot.'''

    def __init__(self, seed: int = 0, shout: bool = False) -> None:
        self.rng = random.Random(seed)

    def choose(self, view, legal_moves):
        return self.rng.choice(legal_moves)
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def copycat(tmp_path: Path) -> Path:
    return write(tmp_path, "copycat.py", RANDOM_COPY)


# ------------------------------------------------------------------------------- syntax


def test_the_path_is_made_absolute_when_the_spec_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    spec = parse_spec("file:bots/mine.py")
    assert spec.is_file and not spec.is_command and spec.name is None
    assert spec.path == str(tmp_path / "bots" / "mine.py")
    assert spec.text == "file:bots/mine.py"  # results name the player as written
    assert spec.resolved == f"file:{tmp_path}/bots/mine.py"
    assert parse_spec(spec.resolved).path == spec.path  # any process parses it the same


@pytest.mark.parametrize(
    ("text", "class_name", "options"),
    [
        ("file:/b/m.py", None, ()),
        ("file:/b/m.py:Mine", "Mine", ()),
        ("file:/b/m.py:Mine:depth=3,style=bold", "Mine", (("depth", 3), ("style", "bold"))),
        ("file:/b/m.py:depth=3", None, (("depth", 3),)),
        ("file:/b/my.python/m.py:Mine", "Mine", ()),  # the path runs to the first ".py" + ":"
    ],
)
def test_class_and_options_follow_the_path(
    text: str, class_name: str | None, options: tuple[tuple[str, object], ...]
) -> None:
    spec = parse_spec(text)
    assert (spec.class_name, spec.options) == (class_name, options)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("file:", "names a Python file ending in .py"),
        ("file:bots/mine.txt", "names a Python file ending in .py"),
        ("file:/b/m.py:2fast", "'2fast' is not a class name"),
        ("file:/b/m.py:Mine:", "options are missing after ':'"),
        ("file:/b/m.py:Mine:depth", "option 'depth' has no value"),
        ("file:/b/m.py:seed=3", "the referee sets a bot's seed"),
    ],
)
def test_bad_syntax_is_a_spec_error_naming_the_spec(text: str, message: str) -> None:
    with pytest.raises(SpecError, match=message) as caught:
        parse_spec(text)
    assert repr(text) in str(caught.value)


# ------------------------------------------------------------------ files that are wrong


HOSTILE = {
    "syntax error": ("x = (\n", "syntax error in .* at line 1"),
    "raises at import": ("import os\n\nraise RuntimeError('no config')\n",
                         r"loading .* failed: line 3: RuntimeError: no config"),
    "exits at import": ("import sys\nsys.exit(3)\n", r"failed: line 2: SystemExit: 3"),
    "no bot class": ("class Helper:\n    pass\n", "defines no Bot class"),
    "only an imported bot": ("from tajmahal.bots import RandomBot\n", "defines no Bot class"),
    "several bots": (
        "class A:\n    def choose(self, v, m): return m[0]\n"
        "class B:\n    def choose(self, v, m): return m[0]\n",
        r"several Bot classes \(A, B\): name one, as in 'file:PATH:A'",
    ),
    "null bytes": ("x = 1\0\n", "cannot compile|syntax error"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_bad_file_is_a_spec_error_without_a_traceback(tmp_path: Path, case: str) -> None:
    source, message = HOSTILE[case]
    path = write(tmp_path, "bad.py", source)
    with pytest.raises(SpecError, match=message) as caught:
        check_spec(f"file:{path}")
    text = str(caught.value)
    assert text.startswith(f"player spec {shown(f'file:{path}')}: ") and "Traceback" not in text
    assert "\n" not in text


def shown(text: str) -> str:
    """A spec or path as messages show it: quoted, cut to 80 characters (a temporary folder's
    path is longer under pytest-xdist, whose workers each have their own)."""
    return repr(text if len(text) <= 80 else text[:77] + "...")


def test_a_missing_file_or_a_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"cannot read .*: No such file") as caught:
        check_spec(f"file:{tmp_path}/nowhere.py")
    assert f"cannot read {shown(f'{tmp_path}/nowhere.py')}: " in str(caught.value)
    (tmp_path / "folder.py").mkdir()
    with pytest.raises(SpecError, match="is not a regular file"):
        check_spec(f"file:{tmp_path}/folder.py")


def test_a_class_that_is_missing_or_not_a_bot_is_named(copycat: Path) -> None:
    with pytest.raises(SpecError, match="has no 'Other'; its Bot classes: Copycat"):
        check_spec(f"file:{copycat}:Other")
    with pytest.raises(SpecError, match=r"'random' in .* is not a Bot class"):
        check_spec(f"file:{copycat}:random")  # the module it imports


def test_options_are_checked_against_the_class(copycat: Path) -> None:
    assert check_spec(f"file:{copycat}:shout=true").options == (("shout", True),)
    with pytest.raises(SpecError, match="class Copycat has no option 'speed'; its options: shout"):
        check_spec(f"file:{copycat}:speed=3")
    with pytest.raises(SpecError, match="option 'shout' takes bool, got 3"):
        check_spec(f"file:{copycat}:Copycat:shout=3")


def test_a_file_that_loads_too_slowly_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAJMAHAL_PLUGIN_TIMEOUT", "0.5")
    path = write(tmp_path, "slow.py", "import time\ntime.sleep(30)\n")
    with pytest.raises(SpecError, match=r"failed: took more than 0.5 s"):
        check_spec(f"file:{path}")


def test_a_changed_file_is_loaded_again_and_an_unchanged_one_is_not(tmp_path: Path) -> None:
    path = write(tmp_path, "counter.py", RANDOM_COPY + "\nLOADS = []\nLOADS.append(1)\n")
    first = file_bot_class(parse_spec(f"file:{path}"))
    assert file_bot_class(parse_spec(f"file:{path}")) is first
    path.write_text(RANDOM_COPY.replace("Copycat", "Renamed"), encoding="utf-8")
    os.utime(path, ns=(0, 10**9))  # a different modification time, whatever the clock
    assert file_bot_class(parse_spec(f"file:{path}")).__name__ == "Renamed"


# ------------------------------------------------------------------------- it plays


def test_a_file_bot_plays_a_match_as_the_same_code_registered_does(copycat: Path) -> None:
    result = tm.play_match([f"file:{copycat}", "random", "random"], seed=5)
    same = tm.play_match(["random", "random", "random"], seed=5)
    assert result.faults == () and result.scores == same.scores
    assert result.players[0] == f"file:{copycat}"
    assert tm.bots.create(f"file:{copycat}:Copycat", seed=1).choose  # built like any bot


def test_a_relative_path_keeps_naming_the_same_file_after_a_change_of_folder(
    copycat: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(copycat.parent)
    spec = parse_spec("file:copycat.py")
    monkeypatch.chdir("/")
    assert tm.play_match([spec, "random", "random"], seed=5).faults == ()


def test_an_isolated_file_bot_plays_the_same_match(copycat: Path) -> None:
    players = [f"file:{copycat}:Copycat", "random", "random"]
    isolated = tm.play_match(players, seed=5, isolate=True, time_limit=20)
    assert isolated.faults == ()
    assert isolated.scores == tm.play_match(players, seed=5).scores


@pytest.mark.skipif(sandbox_problem() is not None, reason=str(sandbox_problem()))
def test_a_sandboxed_file_bot_under_tmp_plays_the_same_match(copycat: Path) -> None:
    # the sandbox's /tmp is private: the file's folder is bound back, read-only
    players = [f"file:{copycat}:Copycat", "random", "random"]
    sandboxed = tm.play_match(players, seed=5, sandbox=True, time_limit=20)
    assert sandboxed.faults == ()
    assert sandboxed.scores == tm.play_match(players, seed=5).scores


def test_a_tournament_on_the_process_backend_seats_a_file_bot(copycat: Path) -> None:
    entrants = [f"file:{copycat}", "greedy", "random"]
    on_processes = tm.run_tournament(entrants, games=6, seed=3, backend="process", jobs=2)
    serial = tm.run_tournament(entrants, games=6, seed=3, backend="serial")
    assert [row.name for row in on_processes.table] == [row.name for row in serial.table]
    assert [row.wins for row in on_processes.table] == [row.wins for row in serial.table]
    assert sum(row.faults for row in on_processes.table) == 0


def test_the_command_line_plays_and_checks_a_file_bot(
    copycat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", f"file:{copycat}", "random", "random", "--seed", "5"]) == 0
    assert f"file:{copycat}" in capsys.readouterr().out
    code = main(["check-bot", f"file:{copycat}", "--time-limit", "20"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "FAIL" not in out


def test_the_command_line_reports_a_bad_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "broken.py", "raise ValueError('half written')\n")
    assert main(["match", f"file:{path}", "random", "random"]) != 0
    err = capsys.readouterr().err
    assert "line 1: ValueError: half written" in err and "Traceback" not in err


def test_the_web_lobby_refuses_file_bots_unless_allowed(copycat: Path) -> None:
    from tajmahal.web.config import ConfigError, GameConfig, ServerSettings

    seats = {"seats": [f"file:{copycat}", "random", "random"]}
    with pytest.raises(ConfigError, match="'file:' bots"):
        GameConfig.parse(seats)
    config = GameConfig.parse(seats, ServerSettings(allow_commands=True))
    assert config.seats[0].spec is not None and config.seats[0].spec.is_file
    assert json.loads(json.dumps(config.seats[0].name)) == f"file:{copycat}"
