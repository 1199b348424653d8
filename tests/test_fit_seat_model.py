"""benchmarks/fit_seat_model.py: the seat model's recipe runs end to end at a small size, is
reproducible, and writes a document the bot loads.

The shipped weights come from a much larger run (its command is in the document's
provenance); the model's quality and strength are the benchmarks' business.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tajmahal.bots.seat_model import FEATURES, load_seat_model

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "fit_seat_model.py"


def fit(out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--games", "5", "--rollouts", "2", "--steps", "200",
               "--seed", "7", "--out", str(out), *more]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)


def test_a_small_fit_writes_the_same_loadable_document_twice(tmp_path: Path) -> None:
    first, second, data = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "samples.json"
    run = fit(first, "--data", str(data))
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout[: run.stdout.index("\nweights:")])
    held = report["held_out"]
    assert held["decisions"] > 20 and 0 <= held["model_agreement"] <= 1
    assert held["model_regret"] >= 0 and held["random_regret"] >= 0
    again = fit(second, "--data", str(data))  # the saved samples, fitted again
    assert again.returncode == 0 and "reusing" in again.stderr
    one, two = json.loads(first.read_text()), json.loads(second.read_text())
    assert one["provenance"].pop("command").endswith(f"a.json --data {data}")
    assert two["provenance"].pop("command").endswith(f"b.json --data {data}")
    assert one == two
    model = load_seat_model(first)
    assert len(model.weights) == len(FEATURES) and any(model.weights)
    assert (one["provenance"]["games"], one["provenance"]["seed"]) == (5, 7)


def test_the_recipe_refuses_a_size_it_cannot_fit(tmp_path: Path) -> None:
    run = fit(tmp_path / "w.json", "--games", "2")
    assert run.returncode == 2 and "--games must be at least 5" in run.stderr
    assert not (tmp_path / "w.json").exists()
