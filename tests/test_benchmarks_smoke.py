"""Smoke test of benchmarks/run.py: its --quick run works and reports sane numbers.

Timing goals are not tested here (they are the benchmark's business, not CI's).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tajmahal as tm

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "run.py"


def run_script(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, str(SCRIPT), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_run", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def quick() -> dict[str, Any]:
    done = run_script("--quick", "--json", "-")
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_quick_run_measures_every_player_count(quick: dict[str, Any]) -> None:
    assert set(quick["players"]) == {"3", "4", "5"}
    for row in quick["players"].values():
        assert row["decisions_per_s"] > 0 and row["games_per_s"] > 0
        # a game has 12 visits, each with at least one play or withdrawal per seat
        assert row["decisions_per_game"] >= 12 * 3
        assert row["decisions_per_s"] > row["games_per_s"]
        assert 0 < row["legal_moves_us"] < 1e6 and 0 < row["apply_us"] < 1e6
        assert 0 < row["apply_mean_us"] < 1e6 and 0 < row["view_us"] < 1e6
        assert 0 < row["view_mean_us"] < 1e6 and row["view_per_apply"] > 0
        assert row["matches_per_s"] > 0
        assert 100 < row["memory_bytes_per_state"] < 1e6
        assert row["playout_decisions_per_s"] > 0 and row["ismcts_iterations_per_s"] > 0
        ratio = row["playout_decisions_per_s"] / row["dealt_decisions_per_s"]
        assert row["playout_ratio"] > 0 and 0.2 < row["playout_ratio"] / ratio < 5
    assert quick["settings"]["quick"] is True
    assert quick["openspiel"] is None  # not asked for


def test_serialisation_rows_are_filled_exactly_when_the_library_has_them(
    quick: dict[str, Any],
) -> None:
    has_codec = hasattr(tm, "dumps") and hasattr(tm, "loads")
    has_sample = hasattr(tm.PlayerView, "sample")
    for row in quick["players"].values():
        assert (row["dumps_us"] is not None) == has_codec
        assert (row["loads_us"] is not None) == has_codec
        assert (row["sample_us"] is not None) == has_sample
        assert (row["sample_again_us"] is not None) == has_sample


def test_table_shows_one_column_per_player_count(quick: dict[str, Any]) -> None:
    text = load_script().table(quick)
    header = next(line for line in text.splitlines() if line.startswith("| measure"))
    assert header == "| measure | 3 players | 4 players | 5 players |"
    decisions = next(line for line in text.splitlines() if "decisions/s" in line)
    assert len(decisions.strip("|").split("|")) == 4
    assert "OpenSpiel" not in text  # no OpenSpiel rows without --compare-openspiel
    if quick["players"]["3"]["dumps_us"] is None:
        assert "| `tm.dumps` µs per state | n/a | n/a | n/a |" in text


def test_playouts_are_reproducible_from_the_seed() -> None:
    bench = load_script()
    comps, _ = bench.bench_components()
    settings = bench.Settings(games=1, seed=5)
    first = bench.random_playouts(comps, settings, 4, rep=0)[2]
    again = bench.random_playouts(comps, settings, 4, rep=0)[2]
    other = bench.random_playouts(comps, settings, 4, rep=1)[2]
    assert first == again  # the same number of decisions: the same games
    assert first > 0 and other > 0


def test_compare_openspiel_without_openspiel_says_how_to_install_it() -> None:
    code = (
        "import runpy, sys; sys.modules['pyspiel'] = None; "  # makes `import pyspiel` fail
        f"sys.argv = [{str(SCRIPT)!r}] + sys.argv[1:]; "
        f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')"
    )
    done = run_script("--quick", "--compare-openspiel", code=code)
    assert done.returncode == 2
    assert "tajmahal[bench]" in done.stderr and "open-spiel" in done.stderr


def test_compare_openspiel_reports_a_ratio_per_game_and_player_count() -> None:
    pytest.importorskip("pyspiel")
    done = run_script("--quick", "--compare-openspiel", "--json", "-")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    games = result["openspiel"]["games"]
    assert set(games) == {"python_block_dominoes", "python_liars_poker", "python_kuhn_poker"}
    for game in games.values():
        assert game["decisions_per_s"] > 0 and game["decisions_per_game"] > 0
        assert set(game["ratio"]) == {"3", "4", "5"}
        assert all(ratio > 0 for ratio in game["ratio"].values())


def test_protocol_benchmark_runs() -> None:
    """benchmarks/protocol.py --quick: every timing row is there, with a number."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "protocol.py"), "--quick", "--no-hostile"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr
    for row in ["in-process: bot.choose", "program: player.choose", "program: round trip",
                "first_legal_bot.py", "the runner:", "first-legal programs"]:
        assert re.search(rf"{re.escape(row)}.* \d+\.\d (µs|ms)", done.stdout), row


INSTRUCTIONS = ROOT / "benchmarks" / "instructions.py"


@pytest.mark.parametrize(
    ("workload", "size"), [("loop", "1"), ("ismcts", "2"), ("dumps", "1"), ("pettingzoo", "1")]
)
def test_instruction_count_workloads_run(workload: str, size: str) -> None:
    """benchmarks/instructions.py's workloads (what valgrind runs) work on this build."""
    done = subprocess.run(
        [sys.executable, str(INSTRUCTIONS), "--run", workload, size],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_instruction_counts_without_valgrind_say_how_to_install_it(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path), "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(
        [sys.executable, str(INSTRUCTIONS), "--build", "pure=src"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "valgrind is not installed" in done.stderr


def test_instruction_counts_refuse_a_folder_without_the_package() -> None:
    done = subprocess.run(
        [sys.executable, str(INSTRUCTIONS), "--build", "pure=benchmarks"],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "expected NAME=DIR with DIR/tajmahal" in done.stderr
