"""Diagnostics go to the ``tajmahal.*`` loggers, and nowhere when logging is not configured."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

import tajmahal as tm
from tajmahal._escape import log_text
from tajmahal.bots.registry import Registry
from tajmahal.protocol import ProcessLimits
from tajmahal.referee import bot_log_name

FORGED = (
    "boom\n2026-11-26 10:00:00 CRITICAL tajmahal: the referee was replaced\x1b[2J\x1b]0;owned\x07\r"
)


class Crashes:
    """Raises at every decision (a fault each time; the referee plays the first move)."""

    name: ClassVar[str] = "crashes"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal_moves: Any) -> Any:
        raise RuntimeError("boom")


def test_every_fault_is_a_warning_of_tajmahal_referee(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="tajmahal.referee"):
        result = tm.play_match([Crashes(), "random", "random"], seed=2)
    logged = [r for r in caplog.records if r.name == "tajmahal.referee"]
    assert result.faults and len(logged) == len(result.faults)
    assert all(r.levelno == logging.WARNING for r in logged)
    assert [r.getMessage() for r in logged] == [log_text(fault) for fault in result.faults]
    assert "boom" in logged[0].getMessage()


def test_a_plugin_with_a_problem_is_a_warning_of_tajmahal_bots(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Misspelled:
        @tm.hookimpl
        def tajmahal_bot(self) -> list[Any]:  # one letter short
            return []

    registry = Registry(entry_points=False)
    with caplog.at_level(logging.WARNING, logger="tajmahal.bots"):
        registry.register(Misspelled(), name="typo")
        problems = registry.problems
    logged = [r.getMessage() for r in caplog.records if r.name == "tajmahal.bots"]
    assert problems and any(str(problems[0]) in message for message in logged), logged


def test_each_tournament_game_is_an_info_of_tajmahal_tournament(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.INFO, logger="tajmahal.tournament"):
        tm.run_tournament(["greedy", "random", "random"], games=6, seed=5, backend="serial")
    logged = [r.getMessage() for r in caplog.records if r.name == "tajmahal.tournament"]
    assert len(logged) == 6 and all(" finished: scores (" in m for m in logged), logged
    assert sorted(int(m.split()[1]) for m in logged) == list(range(6))


def test_a_game_that_cannot_be_played_is_an_error_of_tajmahal_tournament(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.ERROR, logger="tajmahal.tournament"),
        pytest.raises(tm.TournamentError),
    ):
        tm.run_tournament(["greedy", "random", "cmd:/nonexistent/bot"], games=6, seed=5,
                          backend="serial")  # fmt: skip
    errors = [r for r in caplog.records if r.name == "tajmahal.tournament"]
    assert errors and errors[0].levelno == logging.ERROR and "cannot play" in errors[0].message


def test_nothing_is_printed_when_logging_is_not_configured(tmp_path: Path) -> None:
    script = (
        "import tajmahal as tm\n"
        "class Crashes:\n"
        "    def choose(self, view, legal_moves):\n"
        "        raise RuntimeError('boom')\n"
        "result = tm.play_match([Crashes(), 'random', 'random'], seed=2)\n"
        "assert result.faults\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr


class Forger:
    """Raises with a message that would start a log line of its own and clear the terminal."""

    name: ClassVar[str] = "forger"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: Any, legal_moves: Any) -> Any:
        raise RuntimeError(FORGED)


def test_a_hostile_fault_is_logged_as_one_escaped_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="tajmahal.referee"):
        result = tm.play_match([Forger(), "random", "random"], seed=3)
    assert FORGED in result.faults[0].detail  # the record keeps what the bot said...
    message = next(r.getMessage() for r in caplog.records if r.name == "tajmahal.referee")
    assert "\n" not in message and "\r" not in message and "\x1b" not in message
    assert "\x07" not in message  # ...the log shows it escaped, on one line:
    assert "boom\\n2026-11-26 10:00:00 CRITICAL" in message and "\\x1b[2J\\x1b]0;owned" in message
    for line in caplog.text.splitlines():  # every line a record of its own
        assert line.split()[0] in {"WARNING", "INFO", "ERROR", "DEBUG", "CRITICAL"}, line


def test_log_text_escapes_every_control_character_and_keeps_the_rest() -> None:
    assert log_text("plain text: é, 漢字, tab\there") == "plain text: é, 漢字, tab\there"
    assert log_text("a\nb\r\x00\x7f\x9b\u202e\u2028") == "a\\nb\\x0d\\x00\\x7f\\x9b\\u202e\\u2028"
    assert log_text(RuntimeError("x\ny")) == "x\\ny"


HOSTILE_STDERR = """\
import sys
sys.stderr.write("\\x1b[2J\\x1b]0;owned\\x07wiped\\r--- 2026-01-01 00:00:00: /bin/evil (pid 1)\\n")
sys.stderr.buffer.write(b"not utf-8: \\xff\\xfe\\n")
sys.stderr.flush()
import tajmahal as tm
from tajmahal.protocol._bot_side import serve
serve(lambda seed: tm.bots.create("random", seed=seed))
"""


def test_a_bots_stderr_reaches_its_log_file_escaped(tmp_path: Path) -> None:
    program = tmp_path / "noisy.py"
    program.write_text(HOSTILE_STDERR)
    logs = tmp_path / "logs"
    result = tm.play_match([f"cmd:{sys.executable} {program}", "random", "random"], seed=6,
                           process_limits=ProcessLimits(log_dir=logs))  # fmt: skip
    assert not result.faults
    data = (logs / bot_log_name(6, 0)).read_bytes()
    assert b"\x1b" not in data and b"\x07" not in data and b"\r" not in data
    header, *lines = data.decode("utf-8").splitlines()
    assert header.startswith("--- ") and len(lines) == 2
    assert (
        lines[0] == "\\x1b[2J\\x1b]0;owned\\x07wiped\\x0d--- 2026-01-01 00:00:00: /bin/evil (pid 1)"
    )
    assert lines[1] == "not utf-8: \\xff\\xfe"
