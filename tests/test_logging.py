"""Diagnostics go to the ``tajmahal.*`` loggers, and nowhere when logging is not configured."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

import tajmahal as tm
from tajmahal.bots.registry import Registry


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
    assert [r.getMessage() for r in logged] == [str(fault) for fault in result.faults]
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
    with caplog.at_level(logging.ERROR, logger="tajmahal.tournament"), pytest.raises(
        tm.TournamentError
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
