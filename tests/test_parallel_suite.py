"""The suite's own machinery under pytest-xdist (`make unit` runs the tests on two workers).

Each worker checks the documents of its own tests against the JSON Schemas
(tests/schema_check.py); the controlling process adds up the workers' counts for the
session's summary line, and fails the run when a process ran tests without the check.
Here a small suite with the real conftest runs serially and on two workers.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

pytest.importorskip("xdist", reason="make test installs pytest-xdist (the dev extra)")

# four files, so that both workers get some; no document text is written twice, so the
# counts are the same however the files are shared out
WRITER = """
import tajmahal as tm

def test_documents():
    for seed in range({first}, {first} + 3):
        state = tm.new_game(num_players=3, seed=seed)
        tm.loads(tm.dumps(state.view(0)))
"""

UNDOER = """
import tajmahal
import tajmahal.serialize

def test_puts_the_original_back():
    tajmahal.serialize.dumps = tajmahal.serialize.dumps.__wrapped__
    tajmahal.dumps = tajmahal.serialize.dumps
"""

SERIAL = ["-p", "no:xdist"]
PARALLEL = ["-n", "2"]


def small_suite(tmp_path: Path, undo: bool = False) -> Path:
    for helper in ("conftest.py", "schema_check.py", "postgres_cluster.py"):
        shutil.copy(TESTS / helper, tmp_path / helper)
    for number in range(4):
        text = UNDOER if undo and number == 3 else WRITER.format(first=10 * number)
        (tmp_path / f"test_part{number}.py").write_text(text, encoding="utf-8")
    return tmp_path


def run(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *options],
        cwd=folder, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def summary(out: str) -> tuple[int, str]:
    """The total and the counts by schema of the 'JSON Schema checks' line."""
    line = r"^JSON Schema checks: (\d+) \((.*?)\)(, in \d+ workers \([^()]*\))?$"
    found = re.search(line, out, re.MULTILINE)
    assert found is not None, out
    return int(found.group(1)), found.group(2)


def test_the_summary_adds_up_what_each_worker_checked(tmp_path: Path) -> None:
    folder = small_suite(tmp_path)
    serial = run(folder, *SERIAL)
    assert serial.returncode == 0, serial.stdout + serial.stderr
    parallel = run(folder, *PARALLEL)
    assert parallel.returncode == 0, parallel.stdout + parallel.stderr
    # 4 files x 3 views written and read back: 12 checked, 12 met before
    assert summary(serial.stdout) == (24, "(documents met before) 12, view 12")
    assert summary(parallel.stdout) == summary(serial.stdout)
    workers = re.search(r"in 2 workers \(gw0 (\d+), gw1 (\d+)\)", parallel.stdout)
    assert workers is not None, parallel.stdout
    assert int(workers.group(1)) + int(workers.group(2)) == 24
    assert "in 2 workers" not in serial.stdout


@pytest.mark.parametrize("options", [SERIAL, PARALLEL], ids=["serial", "parallel"])
def test_a_process_that_lost_the_check_fails_the_run(tmp_path: Path, options: list[str]) -> None:
    done = run(small_suite(tmp_path, undo=True), *options)
    assert "4 passed" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    assert "JSON Schema checks were not in place at the session's end in " in done.stdout
