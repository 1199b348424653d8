"""Smoke test of benchmarks/tournament.py: a --quick run works and its figures hang together.

Throughput goals are not tested here (they are the benchmark's business, not CI's).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "tournament.py"


def test_quick_run_reports_every_backend_and_the_speedup() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--json", "-"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result["rows"]) == {"serial x1", "process x1", "process x2"}
    for row in result["rows"].values():
        assert row["games_per_s"] > 0 and row["game_ms"] > 0
        assert 0 <= row["startup_s"] < row["wall_s"]
    assert result["speedup_2_jobs"] > 0 and len(result["speedups"]) == 1
    assert 0 < result["pickling"]["job_bytes"] < 1000
    assert 0 < result["pickling"]["result_bytes"] < 1000
    assert len(result["load_before"]) == 3
