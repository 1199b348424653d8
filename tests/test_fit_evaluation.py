"""benchmarks/fit_evaluation.py: a small fit runs, is reproducible and writes a loadable document.

The shipped weights come from a much larger run (its command is in the
document's provenance); the fit's quality is the benchmark's business.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import tajmahal as tm
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


def test_saved_games_fit_apart_and_a_prior_pulls_the_weights(tmp_path: Path) -> None:
    """--save/--play-only, then --data with --prior: the same document as playing and fitting
    in one go, and a huge ridge gives the prior's weights back (new features: 0)."""
    saved, one, two, prior = (tmp_path / n for n in ("g.jsonl", "a.json", "b.json", "p.json"))
    base = [sys.executable, str(SCRIPT), "--seed", "7"]
    run = subprocess.run([*base, "--games", "10", "--save", str(saved), "--play-only"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert len(saved.read_text().splitlines()) == 10
    assert fit(one).returncode == 0
    run = subprocess.run([*base, "--games", "0", "--data", str(saved), "--out", str(two)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)  # fmt: skip
    assert run.returncode == 0, run.stderr
    first, second = json.loads(one.read_text()), json.loads(two.read_text())
    assert first["weights"] == second["weights"] and first["scales"] == second["scales"]
    v2 = ROOT / "src" / "tajmahal" / "bots" / "evaluation_weights_v2.json"
    run = subprocess.run([*base, "--games", "0", "--data", str(saved), "--prior", str(v2),
                          "--ridge", "1e12", "--out", str(prior)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)  # fmt: skip
    assert run.returncode == 0, run.stderr
    pulled = load_weights(prior.read_text())
    v2_rows = load_weights(v2.read_text()).weights
    for row, want in zip(pulled.weights[1:], v2_rows[1:], strict=True):
        assert all(abs(a - b) < 1e-3 for a, b in zip(row[1:12], want[1:], strict=True))
        assert all(abs(a) < 1e-3 for a in row[12:])


def test_seats_choose_the_games_played_and_the_document_says_what_it_was_fitted_on(
    tmp_path: Path,
) -> None:
    saved, out = tmp_path / "four.jsonl", tmp_path / "w.json"
    base = [sys.executable, str(SCRIPT), "--seed", "7"]
    play = [*base, "--games", "10", "--seats", "4", "--save", str(saved), "--play-only"]
    run = subprocess.run(play, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    games = [json.loads(line) for line in saved.read_text().splitlines()]
    assert [len(game["final"]) for game in games] == [4] * 10
    run = subprocess.run([*base, "--games", "0", "--data", str(saved), "--out", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)  # fmt: skip
    assert run.returncode == 0, run.stderr
    provenance = json.loads(out.read_text())["provenance"]
    assert provenance["saved_games"] == {"four.jsonl": {"seats": [4], "players": ["greedy"]}}
    assert provenance["player"] is None and provenance["players_per_game"] is None
    for bad in ("2", "3,x", ""):
        run = subprocess.run([*base, "--seats", bad], capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and "--seats must be numbers from 3 to 5" in run.stderr


def test_a_bad_saved_game_or_prior_is_refused_with_the_place_and_no_traceback(
    tmp_path: Path,
) -> None:
    move = tm.new_game(3, seed=1).legal_moves()[0]
    good = json.dumps({"seed": 1, "spec": "greedy", "final": [40, 50, 45],
                       "starts": [json.loads(tm.dumps(tm.new_game(3, seed=1)))]})  # fmt: skip
    cases = {
        "not json": ("{oops", "line 2: not JSON"),
        "a list": ("[1, 2]", "line 2: not a saved game"),
        "no final": (json.dumps({"seed": 1, "starts": []}), "line 2: final must be"),
        "a bool seed": (good.replace('"seed": 1', '"seed": true'), "line 2: seed must be an int"),
        "seats differ": (good.replace("[40, 50, 45]", "[40, 50, 45, 1]"), "line 2: a saved state"),
        "a move, not a state": (
            json.dumps({"seed": 1, "final": [40, 50, 45], "starts": [json.loads(tm.dumps(move))]}),
            "line 2: a saved game holds a",
        ),
    }
    base = [sys.executable, str(SCRIPT), "--games", "0"]
    for name, (line, message) in cases.items():
        data = tmp_path / "data.jsonl"
        data.write_text(good + "\n" + line + "\n", encoding="utf-8")
        run = subprocess.run([*base, "--data", str(data)],
                             capture_output=True, text=True, timeout=120)  # fmt: skip
        assert run.returncode == 2 and message in run.stderr, (name, run.stderr)
        assert "Traceback" not in run.stderr, name
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "prior.json").write_text('{"format": "other"}', encoding="utf-8")
    (tmp_path / "latin.jsonl").write_bytes(b"\xff\xfe\n")
    refusals = [
        (["--data", str(tmp_path / "missing.jsonl")], "cannot read"),
        (["--data", str(tmp_path / "latin.jsonl")], "cannot read"),
        (["--data", str(tmp_path / "empty.jsonl")], "no games to fit"),
        (["--data", str(data), "--prior", str(tmp_path / "prior.json")], "not an evaluation"),
        (["--data", str(data), "--prior", str(tmp_path / "none.json")], "cannot read"),
    ]
    for arguments, message in refusals:
        run = subprocess.run([*base, *arguments], capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and message in run.stderr, (arguments, run.stderr)
        assert "Traceback" not in run.stderr, arguments
