"""Speed where users wait: the ratios of issue 23, for several builds of the library in one run.

Run it through ``benchmarks/run.py --ratios`` (see benchmarks/README.md).  Each build
(a directory holding the ``tajmahal`` package: ``src`` for the pure build,
``build/compiled`` for the mypyc one, a ``git archive`` of an older commit for
"before") gets a worker process of its own (``python ratios.py --worker`` with
that directory first on ``PYTHONPATH``).  The parent asks the workers for one
batch at a time, every metric of every build in turn, round after round, so
that a change in the machine's load falls on every build alike.  A batch is
timed in **CPU time** (``time.process_time``: every thread of the worker; for
the runner, the bot process's CPU time is added from ``/proc``), never as the
wall-clock mean of single calls, which on a shared machine measures preemption.
Each ratio is computed per round from that round's batches; the table gives
the median over the rounds.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SEED = 20260601


# ---------------------------------------------------------------------------- the worker


class Metrics:
    """The per-call costs a worker measures, each as (CPU seconds, units) for one batch."""

    def __init__(self, scale: float) -> None:
        import tajmahal as tm

        self.tm = tm
        self.scale = scale
        self.round = 0
        games = max(1, round(4 * scale))
        self.seeds = [SEED + i for i in range(games)]
        self._views: list[Any] | None = None
        self._documents: list[dict[str, Any]] | None = None
        self._runner: Any = None
        self._decisions: list[tuple[Any, Any]] | None = None
        self._search: tuple[Any, Any] | None = None

    def loop(self) -> tuple[float, int]:
        """The bare public-API loop: whole 4-player games by legal_moves/apply, random moves."""
        tm = self.tm
        start = time.process_time()
        decisions = 0
        for seed in self.seeds:
            rng = random.Random(seed)
            state = tm.new_game(4, seed=seed)
            while not state.is_over:
                state = state.apply(rng.choice(state.legal_moves()))
                decisions += 1
        return time.process_time() - start, decisions

    def _matches(self, time_limit: float | None) -> tuple[float, int]:
        tm = self.tm
        start = time.process_time()
        decisions = 0
        for seed in self.seeds:
            result = tm.play_match(["random"] * 4, seed=seed, time_limit=time_limit)
            decisions += len(result.record.moves)
        return time.process_time() - start, decisions

    def match(self) -> tuple[float, int]:
        """play_match with four random bots, no time limit: per decision."""
        return self._matches(None)

    def match_timed(self) -> tuple[float, int]:
        """The same with time_limit=60 (the match in a thread of its own, the caller timing it)."""
        return self._matches(60.0)

    def _prepare_views(self) -> list[Any]:
        if self._views is None:
            tm = self.tm
            views = []
            for seed in self.seeds[:2] or [SEED]:
                rng = random.Random(seed)
                state = tm.new_game(4, seed=seed)
                while not state.is_over:
                    if len(views) < 60 * (1 + seed - SEED) and rng.random() < 0.3:
                        views.append(state.view(state.current_player))
                    state = state.apply(rng.choice(state.legal_moves()))
            self._views = views
            self._documents = [json.loads(tm.dumps(view)) for view in views]
        return self._views

    def dumps(self) -> tuple[float, int]:
        """tm.dumps(view) on views spread along two games."""
        views = self._prepare_views()
        dumps = self.tm.dumps
        repeat = max(1, round(5 * self.scale))
        start = time.process_time()
        for _ in range(repeat):
            for view in views:
                dumps(view)
        return time.process_time() - start, repeat * len(views)

    def json(self) -> tuple[float, int]:
        """json.dumps of the same documents as dictionaries (tm.dumps's own json options)."""
        self._prepare_views()
        assert self._documents is not None
        documents = self._documents
        dumps = json.dumps
        repeat = max(1, round(5 * self.scale))
        start = time.process_time()
        for _ in range(repeat):
            for document in documents:
                dumps(document, ensure_ascii=False, allow_nan=False)
        return time.process_time() - start, repeat * len(documents)

    def ismcts(self) -> tuple[float, int]:
        """One ismcts decision (a fixed iteration budget) at visit 6 of a greedy game."""
        if self._search is None:
            tm = self.tm
            state = tm.new_game(4, seed=SEED)
            greedy = [tm.bots.create("greedy", seed=seat) for seat in range(4)]
            while state.visit < 6 or len(state.legal_moves()) < 3:
                seat = state.current_player
                state = state.apply(greedy[seat].choose(state.view(seat), state.legal_moves()))
            self._search = state.view(state.current_player), state.legal_moves()
        view, legal = self._search
        iterations = max(20, round(150 * self.scale))
        self.round += 1
        bot = self.tm.bots.create("ismcts", seed=self.round, iterations=iterations)
        start = time.process_time()
        bot.choose(view, legal)
        return time.process_time() - start, iterations

    def runner(self) -> tuple[float, int, float]:
        """Decisions of a 'random' bot run by the isolated runner (python -m
        tajmahal.protocol.runner): the referee's side (view document, request, answer) and the
        runner's CPU time together; and the wall time."""
        if self._runner is None:
            from tajmahal.bots import parse_spec
            from tajmahal.protocol import ProcessSeat

            tm = self.tm
            seat = ProcessSeat.build(
                parse_spec("random"), seat=0, num_players=4, seed=1, time_limit=None
            )
            if seat.setup_fault is not None:
                raise RuntimeError(f"the runner did not start: {seat.setup_fault.detail}")
            decisions = []
            rng = random.Random(SEED)
            state = tm.new_game(4, seed=SEED)
            while not state.is_over:
                if state.current_player == 0 and len(decisions) < 40:
                    decisions.append((state.view(0), state.legal_moves()))
                state = state.apply(rng.choice(state.legal_moves()))
            self._runner, self._decisions = seat, decisions
        assert self._decisions is not None
        seat, decisions = self._runner, self._decisions
        child = _child_pid(seat)
        repeat = max(1, round(5 * self.scale))
        child_before = _cpu_of(child)
        wall = time.perf_counter()
        start = time.process_time()
        number = 0
        for _ in range(repeat):
            for view, legal in decisions:
                number += 1
                answer = seat.choose(view, legal, None, number)
                if answer.index is None:
                    raise RuntimeError(f"the runner failed: {answer.detail}")
        cpu = time.process_time() - start + _cpu_of(child) - child_before
        return cpu, repeat * len(decisions), time.perf_counter() - wall

    def openspiel_own(self) -> tuple[float, int]:
        """``python_tajmahal``'s own Python methods on whole random 4-player games
        (benchmarks/adapters.py's "openspiel, own code"): per step, the setups dealt first."""
        import adapters  # benchmarks/adapters.py, beside this script

        states = adapters.openspiel_setups(4, self.seeds)
        gc.collect()  # the preparation's garbage, not in the time
        start = time.process_time()
        steps = adapters.openspiel_own(4, self.seeds, states)[0]
        return time.process_time() - start, steps

    def openspiel_engine(self) -> tuple[float, int]:
        """The engine alone on the very steps of those games (adapters.py's "openspiel engine,
        same steps"): legal_moves/apply from fresh copies of the dealt states."""
        import adapters

        games = adapters.openspiel_engine_games(4, self.seeds)
        gc.collect()
        start = time.process_time()
        steps = adapters.openspiel_engine(4, self.seeds, games)[0]
        return time.process_time() - start, steps

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()


def _child_pid(seat: Any) -> int | None:
    """The bot program's process id (looked for, not assumed: the launch code may change)."""
    for holder in (seat.player, getattr(seat.player, "child", None)):
        for name in ("pid", "process", "popen"):
            value = getattr(holder, name, None)
            value = getattr(value, "pid", value)
            if isinstance(value, int):
                return value
    return None


def _cpu_of(pid: int | None) -> float:
    """User + system CPU seconds of a process so far (Linux /proc), 0 if unknown.

    Read from each thread's ``schedstat`` (nanoseconds); ``stat`` counts clock ticks
    (10 ms, about 50 µs per decision of a batch), the fallback where schedstat is missing."""
    if pid is None:
        return 0.0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
        return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks) / 1e9
    except (OSError, ValueError, IndexError):
        pass
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker(scale: float) -> None:
    """Answer one batch per line of stdin (a metric's name) with one JSON line."""
    metrics = Metrics(scale)
    try:
        for line in sys.stdin:
            name = line.strip()
            try:
                result = getattr(metrics, name)()
                reply: dict[str, Any] = {"cpu": result[0], "count": result[1]}
                if len(result) > 2:
                    reply["wall"] = result[2]
            except Exception as exc:  # reported, the run goes on
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            print(json.dumps(reply), flush=True)
    finally:
        metrics.close()


# ---------------------------------------------------------------------------- the parent

METRICS = ("loop", "match", "match_timed", "dumps", "json", "ismcts", "runner")
#: measured too with --adapters, interleaved like the others
ADAPTER_METRICS = ("openspiel_own", "openspiel_engine")


class Build:
    """One build's worker process."""

    def __init__(self, name: str, path: Path, scale: float) -> None:
        self.name, self.path = name, path
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(path), *_pythonpath()]))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", "--scale", str(scale)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=HERE.parent,
        )  # fmt: skip

    def batch(self, metric: str) -> dict[str, Any]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(metric + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            return {"error": "the worker ended"}
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def _pythonpath() -> list[str]:
    given = os.environ.get("PYTHONPATH")
    return given.split(os.pathsep) if given else []


def compiled_modules(path: Path) -> int:
    """How many compiled extension modules the build's tajmahal package holds."""
    return sum(1 for _ in (path / "tajmahal").rglob("*.so"))


def measure(
    builds: Sequence[tuple[str, Path]],
    rounds: int,
    scale: float,
    progress: Callable[[str], None],
    metrics: Sequence[str] = METRICS,
) -> dict[str, Any]:
    """Every metric of every build, interleaved round by round; the per-round costs."""
    workers = [Build(name, path, scale) for name, path in builds]
    costs: dict[str, dict[str, list[float]]] = {b.name: {m: [] for m in metrics} for b in workers}
    walls: dict[str, list[float]] = {b.name: [] for b in workers}
    errors: dict[str, str] = {}
    loads = [os.getloadavg()[0]]
    try:
        for number in range(rounds + 1):  # round 0 warms up and is not counted
            for metric in metrics:
                order = workers[number % len(workers):] + workers[: number % len(workers)]
                for build in order:
                    reply = build.batch(metric)
                    if "error" in reply:
                        errors[f"{build.name}/{metric}"] = reply["error"]
                    elif number:
                        costs[build.name][metric].append(reply["cpu"] / reply["count"])
                        if "wall" in reply:
                            walls[build.name].append(reply["wall"] / reply["count"])
            loads.append(os.getloadavg()[0])
            progress(f"round {number}/{rounds}, load {loads[-1]:.2f}")
    finally:
        for build in workers:
            build.close()
    return {"costs": costs, "walls": walls, "errors": errors, "loads": loads}


def _per_round(a: list[float], b: list[float]) -> float | None:
    """The median over rounds of a[i] / b[i]."""
    pairs = [x / y for x, y in zip(a, b, strict=False) if y > 0]
    return statistics.median(pairs) if pairs else None


def _per_round_difference(a: list[float], b: list[float]) -> float | None:
    """The median over rounds of a[i] - b[i], in µs."""
    pairs = [(x - y) * 1e6 for x, y in zip(a, b, strict=False)]
    return statistics.median(pairs) if pairs else None


def ratios(result: dict[str, Any], pure: str | None, compiled: str | None) -> list[dict[str, Any]]:
    """The rows of the table: one per ratio, a column per build."""
    costs = result["costs"]
    rows: list[dict[str, Any]] = []

    def row(name: str, target: str, values: dict[str, float | None], unit: str = "×") -> None:
        rows.append({"ratio": name, "target": target, "unit": unit, "values": values})

    def median_us(build: str, metric: str) -> float | None:
        values = costs[build][metric]
        return statistics.median(values) * 1e6 if values else None

    row("play_match (4 random bots, no time limit) / bare loop", "≤ 2.5",
        {b: _per_round(c["match"], c["loop"]) for b, c in costs.items()})  # fmt: skip
    row("play_match with time_limit / bare loop", "≤ 4",
        {b: _per_round(c["match_timed"], c["loop"]) for b, c in costs.items()})  # fmt: skip
    row("tm.dumps(view) / json.dumps(same dict)", "≤ 1.5",
        {b: _per_round(c["dumps"], c["json"]) for b, c in costs.items()})  # fmt: skip
    row("runner round trip, µs CPU per decision (both processes)", "≤ 300",
        {b: median_us(b, "runner") for b in costs}, "µs")  # fmt: skip
    row("runner round trip, µs wall per decision (load-dependent)", "",
        {b: statistics.median(w) * 1e6 if w else None for b, w in result["walls"].items()},
        "µs")  # fmt: skip
    for metric, label in (("loop", "bare loop"), ("match", "play_match"), ("ismcts", "ismcts")):
        unit = "µs per iteration" if metric == "ismcts" else "µs per decision"
        row(f"{label}, {unit}", "", {b: median_us(b, metric) for b in costs}, "µs")
    if any(c.get("openspiel_own") for c in costs.values()):
        row("adapters: OpenSpiel own code, µs per step (CPU, interleaved)", "",
            {b: median_us(b, "openspiel_own") for b in costs}, "µs")  # fmt: skip
        row("adapters: OpenSpiel adapter's own µs per step beyond the engine", "half of before",
            {b: _per_round_difference(c["openspiel_own"], c["openspiel_engine"])
             for b, c in costs.items()}, "µs")  # fmt: skip
    if pure is not None and compiled is not None and pure in costs and compiled in costs:
        p, c = costs[pure], costs[compiled]
        row(f"compiled speed-up: public-API loop ({pure} / {compiled})", "≥ 2",
            {compiled: _per_round(p["loop"], c["loop"])})  # fmt: skip
        row(f"compiled speed-up: ismcts iterations/s ({pure} / {compiled})", "≥ 2.5",
            {compiled: _per_round(p["ismcts"], c["ismcts"])})  # fmt: skip
        row(f"compiled speed-up: play_match ({pure} / {compiled})", "",
            {compiled: _per_round(p["match"], c["match"])})  # fmt: skip
    return rows


def table(rows: list[dict[str, Any]], builds: Sequence[str], loads: list[float]) -> str:
    """The rows as a Markdown table, the load beside it."""
    head = ["ratio", "target", *builds]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row["ratio"], row["target"]]
        for build in builds:
            value = row["values"].get(build)
            cells.append("" if value is None else f"{value:.0f}" if row["unit"] == "µs"
                         else f"{value:.2f}")  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(
        f"load (1-minute average, {os.cpu_count()} CPUs): {loads[0]:.2f} at the start, "
        f"median {statistics.median(loads):.2f}, max {max(loads):.2f}, {loads[-1]:.2f} at the end"
    )
    return "\n".join(lines)


def export(ref: str, into: Path) -> Path:
    """The ``src`` directory of git commit ``ref`` (for a "before" build)."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "archive", ref, "src", "benchmarks"], cwd=HERE.parent, check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def adapter_rows(builds: Sequence[tuple[str, Path]], quick: bool) -> list[dict[str, Any]]:
    """The rows of benchmarks/adapters.py (the colleague's benchmark), run once per build.

    Each build runs the adapters.py that sits beside its src (a "before" build: its own
    commit's), one build after the other (not interleaved batch by batch)."""
    shares: dict[str, dict[str, float]] = {}
    step_us: dict[str, float | None] = {}
    for name, path in builds:
        script = path.parent / "benchmarks" / "adapters.py"
        if not script.exists():
            script = HERE / "adapters.py"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(path), *_pythonpath()]))
        command = [sys.executable, str(script), "--json", "-", *(["--quick"] if quick else [])]
        done = subprocess.run(command, env=env, cwd=HERE.parent, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"adapters.py on {name} failed: {done.stderr[-300:]}", file=sys.stderr)
            continue
        rows = json.loads(done.stdout)["rows"]
        shares[name] = {row: values["share_of_engine"] for row, values in rows.items()}
        spiel = rows.get("openspiel", {}).get("steps_per_s")
        step_us[name] = 1e6 / spiel if spiel else None
    out = []
    for row, target in (("pettingzoo", "≥ 0.3"), ("gymnasium", "≥ 0.2"), ("openspiel", "")):
        out.append({"ratio": f"adapters: {row} / bare engine (decisions/s)", "target": target,
                    "unit": "×", "values": {b: v.get(row) for b, v in shares.items()}})  # fmt: skip
    out.append({"ratio": "adapters: OpenSpiel µs per step (CPU)", "target": "",
                "unit": "µs", "values": step_us})  # fmt: skip
    return out


def run_ratios(args: argparse.Namespace) -> int:
    """``benchmarks/run.py --ratios``: build the list of builds, measure, print the table."""
    root = HERE.parent
    builds: list[tuple[str, Path]] = []
    if args.before:
        into = Path(tempfile.mkdtemp(prefix="tajmahal-before-"))
        builds.append(("before", export(args.before, into)))
    for given in args.build:
        name, _, directory = given.partition("=")
        if not directory:
            print(f"--build wants NAME=DIR, got {given!r}", file=sys.stderr)
            return 2
        builds.append((name, Path(directory).resolve()))
    if not args.build:
        builds.append(("pure", root / "src"))
        if compiled_modules(root / "build" / "compiled"):
            builds.append(("compiled", root / "build" / "compiled"))
        else:
            print("no compiled build in build/compiled (make fast-tree makes one)", file=sys.stderr)
    names = [name for name, _ in builds]
    for name, path in builds:
        if not (path / "tajmahal" / "__init__.py").exists():
            print(f"build {name}: no tajmahal package in {path}", file=sys.stderr)
            return 2
    rounds = args.rounds if args.rounds else 2 if args.quick else 7
    scale = 0.25 if args.quick else 1.0
    try:
        metrics = METRICS + (ADAPTER_METRICS if args.adapters else ())
        result = measure(builds, rounds, scale, lambda text: print(text, file=sys.stderr), metrics)
        pure = next((n for n in names if n == "pure"), None)
        compiled = next((n for n in names if n == "compiled"), None)
        rows = ratios(result, pure, compiled)
        if args.adapters:
            rows += adapter_rows(builds, args.quick)
    finally:
        if args.before:
            shutil.rmtree(builds[0][1].parent, ignore_errors=True)
    for problem, error in result["errors"].items():
        print(f"{problem}: {error}", file=sys.stderr)
    described = ", ".join(f"{n} = {p} ({compiled_modules(p)} compiled modules)" for n, p in builds)
    text = table(rows, names, result["loads"])
    if args.json:
        report = {"builds": {n: str(p) for n, p in builds}, "rounds": rounds, "rows": rows,
                  "loads": result["loads"], "costs": result["costs"],
                  "errors": result["errors"]}  # fmt: skip
        if args.json == "-":
            print(json.dumps(report, indent=2))
            return 0
        Path(args.json).write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"builds: {described}; {rounds} rounds\n")
    print(text)
    return 1 if result["errors"] else 0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=float, default=1.0, help=argparse.SUPPRESS)
    args, _ = parser.parse_known_args(argv)
    if args.worker:
        worker(args.scale)


if __name__ == "__main__":
    main()
