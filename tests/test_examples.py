"""Every script in examples/ runs, exits 0 and prints what it is meant to show."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.py"))

#: per script, patterns its output must contain (in this order)
EXPECTED: dict[str, list[str]] = {
    "play_by_hand.py": [
        r"New game: <GameState 3 players, seed 42, visit 1",
        r"legal moves: play ",
        r"seat 0: palace thatta",
        r"After the visit: <GameState 3 players, seed 42, visit 2",
        r"undone: take violet:elephant\+elephant, withdraw",
        r"Save and load: the state as JSON",
        r"after visit 12: scores \[",
        r"Final scores: \[\d+, \d+, \d+\]; winners: \[",
        r"moves saved in the record",
        r"replaying it gives the same final state: True",
    ],
    "custom_bot.py": [
        r"seed +seat 0 +seat 1 +seat 2 +winner",
        r"(?m)^ +5 .*(elephant|greedy)$",
        r"elephant: \d wins of 6, average score \d+\.\d",
        r"greedy: +\d wins of 6",
    ],
    "tournament.py": [
        r"30 games between greedy, random, random#2",
        r"entrant +games +wins +win rate \(95% CI\) +score +rank +rating",
        r"(?m)^greedy +30 +[\d.]+ +\d+% \(\d+%-\d+%\) +\d+\.\d +\d\.\d\d +\d+\.\d ± \d\.\d$",
        r"(?m)^random",
        r"greedy finished ahead of random(#2)? in \d+% of their games",
        r"The same table from the file alone: True",
    ],
}


def run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=script.parent.parent,
        check=False,
    )


def test_there_are_at_least_three_examples() -> None:
    assert len(SCRIPTS) >= 3, [s.name for s in SCRIPTS]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
def test_example_says_what_it_shows(script: Path) -> None:
    docstring = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8")))
    assert docstring, f"{script.name} needs a top comment saying what it shows"
    assert "Shows" in docstring or "shows" in docstring


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: s.name)
def test_example_runs(script: Path) -> None:
    done = run(script)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert len(lines) >= 5, done.stdout
    position = 0
    for pattern in EXPECTED.get(script.name, []):
        found = re.compile(pattern).search(done.stdout, position)
        assert found, f"{script.name}: no {pattern!r} after position {position} in:\n{done.stdout}"
        position = found.end()


def test_every_example_has_expectations() -> None:
    assert {s.name for s in SCRIPTS} <= EXPECTED.keys()


def test_tournament_takes_the_entrants_and_the_number_of_games() -> None:
    done = run(EXAMPLES / "tournament.py", "cautious", "greedy", "random", "--games", "6")
    assert done.returncode == 0, done.stderr
    assert "6 games between cautious, greedy, random" in done.stdout
    assert "The same table from the file alone: True" in done.stdout
