"""Smoke test of benchmarks/run.py: its --quick run works and reports sane numbers.

Timing goals are not tested here (they are the benchmark's business, not CI's).
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
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


def test_web_load_benchmark_checks_every_acknowledged_move_against_the_database() -> None:
    """benchmarks/web_load.py: a short run of two games reports its figures, no error, no loss."""
    pytest.importorskip("websockets")
    pytest.importorskip("uvicorn")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--games", "2",
         "--seconds", "4", "--workers", "1", "--json", "-"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    (result,) = json.loads(done.stdout)
    assert result["errors"] == 0 and result["lost_moves"] == 0
    assert result["person_moves_acked"] > 0 and result["decisions"] > 0
    assert result["ack_ms"]["p50"] is not None and "load" in result["load_before"]


INSTRUCTIONS = ROOT / "benchmarks" / "instructions.py"


@pytest.mark.parametrize(
    ("workload", "size"),
    [("loop", "1"), ("ismcts", "2"), ("dumps", "1"), ("pettingzoo", "1"), ("openspiel", "1"),
     ("openspiel_engine", "1"), ("match", "1"), ("time_limit", "1")],
)  # fmt: skip
def test_instruction_count_workloads_run(workload: str, size: str) -> None:
    """benchmarks/instructions.py's workloads (what valgrind runs) work on this build."""
    if workload.startswith("openspiel"):
        pytest.importorskip("pyspiel")
    done = subprocess.run(
        [sys.executable, str(INSTRUCTIONS), "--run", workload, size],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    if workload.startswith("openspiel"):  # the same steps in both: their difference per step
        assert re.fullmatch(r"steps \d+\n", done.stdout)


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


OPENSPIEL_BOT = ROOT / "benchmarks" / "openspiel_ismcts_bot.py"


def test_openspiel_ismcts_bot_plays_a_game_from_the_view_alone() -> None:
    """benchmarks/openspiel_ismcts_bot.py: legal moves; every world it searches fits the view."""
    pytest.importorskip("pyspiel")
    spec = f"file:{OPENSPIEL_BOT}:OpenSpielIsmcts:simulations=2,time_limit=60,keep_worlds=true"
    bot: Any = tm.bots.create(spec, seed=4)
    twin = tm.bots.create(spec, seed=4)
    greedy = [tm.bots.create("greedy", seed=s) for s in (1, 2)]
    state = tm.new_game(num_players=3, seed=11)
    searched = hidden_differs = 0
    while not state.is_over:
        legal = state.legal_moves()
        seat = state.current_player
        assert seat is not None
        if seat == 0:
            view = state.view(0)
            move = bot.choose(view, legal)
            assert twin.choose(view, legal) == move  # the seed decides, with a simulation budget
            if len(legal) > 1:
                searched += 1
                worlds = bot.searched_worlds[-1]
                assert len(worlds) == 2 == bot.simulations[-1]
                for world in worlds:
                    assert world.view(0) == view  # nothing but what seat 0 may know
                    hidden_differs += world.hands[1:] != state.hands[1:]
        else:
            move = greedy[seat - 1].choose(state.view(seat), legal)
        assert move in legal
        state = state.apply(move)
    assert searched > 10 and len(bot.simulations) == searched == len(bot.searched_worlds)
    assert hidden_differs > searched  # the worlds deal the other hands anew, not the real ones


def test_openspiel_ismcts_bot_rejects_bad_options() -> None:
    pytest.importorskip("pyspiel")
    for options in ("time_limit=0", "time_limit=-1", "simulations=1", "time_limit=fast"):
        with pytest.raises((tm.TajMahalError, ValueError)):
            tm.bots.create(f"file:{OPENSPIEL_BOT}:OpenSpielIsmcts:{options}", seed=0)


def test_strength_reports_the_openspiel_bots_simulations(tmp_path: Path) -> None:
    """benchmarks/strength.py with the OpenSpiel bot: whole deal, searches per decision, log."""
    pytest.importorskip("pyspiel")
    spec = f"file:{OPENSPIEL_BOT}:OpenSpielIsmcts:simulations=2,time_limit=60"
    log = tmp_path / "deals.jsonl"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "strength.py"), spec, "greedy", "random",
         "--deals", "1", "--json", str(tmp_path / "out.json"), "--log", str(log)],
        capture_output=True, text=True, timeout=600, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "out.json").read_text())
    rows = {row["player"]: row for row in result["rows"]}
    assert result["games"] == 6 and rows[spec]["games"] == 6
    assert rows[spec]["iterations_per_decision"] == 2.0  # the budget, on every searched decision
    assert rows["greedy"]["iterations_per_decision"] is None  # greedy does not search
    again = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--from-log", "--log", str(log)],
        capture_output=True, text=True, timeout=120, cwd=ROOT, check=False,
    )  # fmt: skip
    assert again.returncode == 0 and f"| `{spec}` | 6 |" in again.stdout
    assert again.stdout.splitlines()[-3].endswith("| 2 |")  # the searches column


def test_ratios_time_the_openspiel_adapter_beside_the_engine_on_the_same_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ratios.py's --adapters metrics: the adapter's own code and the engine on its steps."""
    pytest.importorskip("pyspiel")
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import ratios

    metrics = ratios.Metrics(0.25)  # one game
    own_cpu, own_steps = metrics.openspiel_own()
    engine_cpu, engine_steps = metrics.openspiel_engine()
    assert own_steps == engine_steps > 100 and own_cpu > 0 and engine_cpu > 0
    costs = {"a": {**{metric: [] for metric in ratios.METRICS},
                   "openspiel_own": [3e-6, 5e-6], "openspiel_engine": [1e-6, 2e-6]}}  # fmt: skip
    rows = ratios.ratios({"costs": costs, "walls": {"a": []}}, None, None)
    beyond = next(r for r in rows if "beyond the engine" in r["ratio"])
    assert beyond["values"]["a"] == pytest.approx(2.5)  # µs: the median of 2 and 3


def test_play_profile_counts_how_each_bot_plays() -> None:
    """benchmarks/play_profile.py: a row per spec, each seat in turn, numbers in every column."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "play_profile.py"), "random", "random",
         "greedy", "--deals", "1"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {line.split("|")[1].strip(): line for line in done.stdout.splitlines()
            if line.startswith("| `")}  # fmt: skip
    assert set(rows) == {"`random`", "`greedy`"}
    assert rows["`random`"].split("|")[2].strip() == "6"  # two seats, three rotations
    assert rows["`greedy`"].split("|")[2].strip() == "3"
    for line in rows.values():
        cells = [cell.strip() for cell in line.split("|")[3:-1]]
        assert len(cells) == 6 and all(re.fullmatch(r"\d+\.\d\d", cell) for cell in cells)


def test_contest_rollout_bot_plays_legal_moves_through_a_match() -> None:
    """benchmarks/contest_rollout.py (tried and dropped): its policy's moves are legal at every
    step of a game, and the bot loads as a ``file:`` spec and plays a match without faults."""
    spec = importlib.util.spec_from_file_location(
        "contest_rollout", ROOT / "benchmarks" / "contest_rollout.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from tajmahal.rules.playout import WITHDRAW, Playout

    game, rng, played = Playout(tm.new_game(4, seed=3)), random.Random(2), set()
    while not game.is_over:
        codes = game.moves()
        code = module.contest_pick(game, codes, rng)
        assert code in codes
        played.add(code == WITHDRAW)
        game.play(code)
    assert played == {True, False}  # it withdraws and plays other moves
    bot = f"file:{ROOT / 'benchmarks' / 'contest_rollout.py'}:ContestRolloutIsmcts:iterations=10"
    result = tm.play_match([bot, "greedy", "random"], seed=4)
    assert not result.faults and len(result.scores) == 3 and result.winners


def test_search_speed_compares_two_builds_on_the_search_benchmarks_decision(
    tmp_path: Path,
) -> None:
    """benchmarks/search_speed.py (issue 51): a short CPU-time run of two builds (here both the
    sources) writes a row per build with a rate and a ratio to the first."""
    src = str(ROOT / "src")
    out = tmp_path / "speed.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "search_speed.py"), "--build", f"a={src}",
         "--build", f"b={src}", "--workload", "flat", "--iterations", "20", "--reps", "1",
         "--rounds", "2", "--json", str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())
    assert [row["build"] for row in rows] == ["a", "b"]
    assert all(row["iterations_per_cpu_s"] > 0 and row["spec"] == "ismcts-v3" for row in rows)
    assert rows[0]["ratio"] == 1.0 and "it/CPU-s" in done.stdout
    script = str(ROOT / "benchmarks" / "search_speed.py")
    bad = subprocess.run([sys.executable, script, "--build", f"x={tmp_path}"],
                         capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert bad.returncode == 2 and "no tajmahal package" in bad.stderr


def test_analysis_agreement_tables_two_seeds_marks_and_reads_its_log(tmp_path: Path) -> None:
    """benchmarks/analysis_agreement.py (issue 51): one game, a cheap analysis, a row."""
    script = str(ROOT / "benchmarks" / "analysis_agreement.py")
    log = tmp_path / "agree.jsonl"
    done = subprocess.run(
        [sys.executable, script, "--games", "1", "--iterations", "8", "--build",
         f"here={ROOT / 'src'}", "--log", str(log)],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [json.loads(text) for text in log.read_text().splitlines()]
    assert [(line["game"], line["seed"]) for line in lines] == [(0, 0), (0, 1)]
    assert lines[0]["marks"].keys() == lines[1]["marks"].keys() and lines[0]["marks"]
    row = done.stdout.splitlines()[-1].split()
    assert row[:2] == ["here", "1"] and row[3].endswith("%")
    again = subprocess.run([sys.executable, script, "--from-log", "--log", str(log)],
                           capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert again.stdout.splitlines()[-1] == done.stdout.splitlines()[-1]
    later = tmp_path / "later.jsonl"
    other = subprocess.run(
        [sys.executable, script, "--games", "1", "--first-game", "4", "--iterations", "4",
         "--build", f"here={ROOT / 'src'}", "--log", str(later)],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    assert other.returncode == 0, other.stderr
    lines = [json.loads(text) for text in later.read_text().splitlines()]
    assert [(line["game"], line["seed"]) for line in lines] == [(4, 0), (4, 1)]
