"""``tajmahal.testing``: check-bot's checks as a function, shared with the command.

The CLI prints what :func:`tajmahal.testing.check_bot` returns; the fixture ``bot_checks``
(the pytest plugin) plays each spec's games once per session.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tajmahal.bots import SpecError
from tajmahal.cli import main
from tajmahal.examples import suggested_spec
from tajmahal.testing import CHECKS, GAMES, BotChecks, BotReport, GameSummary, check_bot

HOSTILE = Path(__file__).resolve().parent / "programs" / "hostile_bot.py"
PALACE = suggested_spec("palace_lover.py")


def hostile(mode: str) -> str:
    return f"cmd:{sys.executable} {HOSTILE} {mode}"


def test_a_good_bot_program_passes_every_check_and_each_game_is_reported() -> None:
    seen: list[GameSummary] = []
    report = check_bot(PALACE, progress=seen.append)
    assert isinstance(report, BotReport) and report.passed, report
    assert [check.name for check in report.checks] == list(CHECKS) and report.failed == ()
    assert list(report.games) == seen  # as each game ended
    assert [(g.players, g.seat) for g in report.games[: len(GAMES)]] == list(GAMES)
    assert all(g.decisions > 0 and g.failed == 0 for g in report.games)
    text = str(report)
    assert text.startswith(f"Checking {PALACE}\ngame 1: 3 players, seat 0, seed 1: ")
    assert text.endswith("All 4 checks passed.")


def test_a_broken_promise_fails_its_check_and_names_it() -> None:
    report = check_bot(hostile("nondeterministic"), time_limit=2)
    assert not report.passed and report.failed == ("deterministic",)
    assert report.check("deterministic").detail.startswith("claimed, but seed 1 gave different")
    assert report.check("handshake").passed and report.check("answers").passed
    with pytest.raises(KeyError, match="no check 'speed'"):
        report.check("speed")


def test_a_bad_spec_is_a_spec_error_before_any_game() -> None:
    played: list[GameSummary] = []
    with pytest.raises(SpecError, match="no bot is called 'nobody'"):
        check_bot("nobody", progress=played.append)
    with pytest.raises(SpecError, match="cannot run"):
        check_bot("cmd:./no/such/program", progress=played.append)
    assert played == []


def test_the_command_prints_what_the_function_returns(capsys: pytest.CaptureFixture[str]) -> None:
    spec = hostile("no-exit")
    options = ["--time-limit", "2", "--exit-timeout", "0.2", "--seed", "3"]
    assert main(["check-bot", spec, *options, "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    report = check_bot(spec, time_limit=2, exit_timeout=0.2, seed=3)
    expected = report.as_dict()
    assert document["checks"] == expected["checks"] and document["passed"] is False
    same = ("number", "players", "seat", "seed", "decisions", "failed")  # not the answer times
    assert [{k: g[k] for k in same} for g in document["games"]] == [
        {k: g[k] for k in same} for g in expected["games"]
    ]
    assert main(["check-bot", spec, *options]) == 1
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line[:4] in ("PASS", "FAIL")] == [
        str(check) for check in report.checks
    ]
    assert out.rstrip().endswith(report.summary())


def test_bot_checks_plays_each_spec_once_per_session() -> None:
    checks = BotChecks()
    first = checks("greedy")
    assert first.passed, first
    assert checks("greedy") is first  # the same report: no games played again
    assert checks("greedy", seed=2) is not first


def test_the_pytest_plugin_gives_the_fixture_to_a_test_suite(tmp_path: Path) -> None:
    """What a bot's suite sees once tajmahal is installed (-p loads the plugin by name, as
    the pytest11 entry point does; tests/test_bot_scaffold.py checks the entry point)."""
    (tmp_path / "test_bot.py").write_text(
        "def test_random_answers(bot_checks):\n"
        "    assert bot_checks('random').check('answers').passed\n"
        "def test_again(bot_checks):\n"
        "    assert bot_checks('random') is bot_checks('random')\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:tajmahal",
         "-p", "tajmahal.testing.pytest_plugin", "test_bot.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout


def test_loading_the_pytest_plugin_imports_none_of_the_machinery() -> None:
    code = (
        "import sys, tajmahal.testing.pytest_plugin\n"
        "print(sorted(m for m in ('tajmahal.referee.match', 'tajmahal.protocol', "
        "'tajmahal.testing.bot_checks') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    assert done.stdout.strip() == "[]"


def test_a_folder_named_like_the_bot_in_the_working_directory_does_not_hide_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README of `new-bot` runs `tajmahal check-bot mybot` beside the folder `mybot`:
    the runner's spec is not taken for that folder, nor the folder for the plugin's module."""
    (tmp_path / "greedy" / "src").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    report = check_bot("greedy")
    assert report.passed, report
