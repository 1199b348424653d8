"""benchmarks/fit_evaluation.py: a small fit runs, is reproducible and writes a loadable document.

The shipped weights come from a much larger run (its command is in the
document's provenance); the fit's quality is the benchmark's business.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tajmahal.bots.evaluation import FEATURES, load_weights

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "fit_evaluation.py"


def fit(out: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--games", "10", "--seed", "7", "--out", str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_a_small_fit_writes_the_same_loadable_document_twice(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    run = fit(first)
    assert run.returncode == 0, run.stderr
    assert "10 games, 468 samples" in run.stderr and "visits left 12" in run.stderr
    assert fit(second).returncode == 0
    one, two = json.loads(first.read_text()), json.loads(second.read_text())
    assert one["provenance"].pop("command").endswith("a.json")
    assert two["provenance"].pop("command").endswith("b.json")
    assert one == two  # the same games and the same fit: only the output path differs
    weights = load_weights(first.read_text())
    assert len(weights.weights) == 13 and all(len(row) == len(FEATURES) for row in weights.weights)
    provenance = json.loads(first.read_text())["provenance"]
    assert (provenance["games"], provenance["seed"], provenance["player"]) == (10, 7, "greedy")


def test_bad_arguments_are_refused() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--games", "2"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 2 and "--games must be at least 10" in run.stderr
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--player", "nobody"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "nobody" in run.stderr
