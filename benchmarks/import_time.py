"""What ``import tajmahal`` costs: CPU seconds in fresh interpreters, and what it loads.

Each run starts a new interpreter (``sys.executable -c``, bytecode cached as
for any user, in a temporary folder), which measures
``time.process_time()`` around ``import tajmahal`` (CPU time: other programs
on a busy machine disturb it less than wall time) and counts the modules the
import added to ``sys.modules``.  The median over ``--runs`` interpreters is
reported, with the machine's load average beside it.  ``--modules`` lists the
library's heaviest third-party imports as ``python -X importtime`` shows them.

    .venv/bin/python benchmarks/import_time.py               # 21 interpreters
    .venv/bin/python benchmarks/import_time.py --runs 5 --json -
    .venv/bin/python benchmarks/import_time.py --modules     # and the top cumulative imports

Target (issue 25): at most 0.1 s of CPU.  The test suite checks only *what*
loads (tests/test_lazy_imports.py), never the time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

TARGET_SECONDS = 0.1

_PROBE = """
import sys, time
before = set(sys.modules)
start = time.process_time()
import tajmahal
seconds = time.process_time() - start
heavy = sorted(m for m in ("numpy", "openskill", "rich", "asyncio", "multiprocessing",
               "tajmahal.tournament", "tajmahal.protocol", "tajmahal.render",
               "tajmahal.analysis", "tajmahal.referee.match") if m in sys.modules)
print(seconds, len(set(sys.modules) - before), ",".join(heavy))
"""


def _environment(cache: str) -> dict[str, str]:
    """Bytecode cached (as for any user) in ``cache``, not beside the sources."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": cache}


def probe(python: str, cache: str) -> tuple[float, int, str]:
    """One fresh interpreter: (CPU seconds of the import, modules it added, heavy ones loaded)."""
    done = subprocess.run(
        [python, "-c", _PROBE], capture_output=True, text=True, check=True,
        env=_environment(cache),
    )  # fmt: skip
    seconds, count, heavy = (done.stdout.split() + [""])[:3]
    return float(seconds), int(count), heavy


def top_imports(python: str, cache: str, shown: int = 12) -> list[tuple[int, str]]:
    """The imports with the largest cumulative time (µs) under ``-X importtime``."""
    done = subprocess.run(
        [python, "-X", "importtime", "-c", "import tajmahal"],
        capture_output=True, text=True, check=True, env=_environment(cache),
    )  # fmt: skip
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
        rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)[:shown]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="fresh interpreters (default 21)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to measure")
    parser.add_argument("--modules", action="store_true", help="show -X importtime's top rows")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON ('-': stdout)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tajmahal-import-time-") as cache:
        probe(args.python, cache)  # writes the bytecode and warms the file-system cache
        runs = [probe(args.python, cache) for _ in range(max(1, args.runs))]
        top = top_imports(args.python, cache) if args.modules else []
    seconds = [r[0] for r in runs]
    result = {
        "runs": len(runs),
        "median_cpu_seconds": round(statistics.median(seconds), 4),
        "min_cpu_seconds": round(min(seconds), 4),
        "max_cpu_seconds": round(max(seconds), 4),
        "modules_added": runs[-1][1],
        "heavy_modules_loaded": runs[-1][2].split(",") if runs[-1][2] else [],
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "target_cpu_seconds": TARGET_SECONDS,
    }
    if args.modules:
        result["top_cumulative_imports_us"] = [{"module": name, "us": us} for us, name in top]
    if args.json:
        text = json.dumps(result, indent=2)
        if args.json == "-":
            print(text)
            return 0
        with open(args.json, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    print(
        f"import tajmahal: median {result['median_cpu_seconds']:.3f} s CPU over {len(runs)} "
        f"fresh interpreters (min {result['min_cpu_seconds']:.3f}, max "
        f"{result['max_cpu_seconds']:.3f}); {result['modules_added']} modules loaded; "
        f"load average {' '.join(map(str, result['load_average']))}"
    )
    print(f"heavy modules loaded: {', '.join(result['heavy_modules_loaded']) or 'none'}")
    for row in result.get("top_cumulative_imports_us", []):
        print(f"  {row['us'] / 1e6:7.3f} s  {row['module']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
