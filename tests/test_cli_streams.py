"""The command line's conventions: ``-`` for standard input and output, ``--json``, help texts.

Each command runs as a real process (``python -m tajmahal``), its pipes as a shell gives them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.cli import main


def tajmahal(*args: str, stdin: str | None = None, cwd: Path | None = None
             ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run([sys.executable, "-m", "tajmahal", *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_match_record_to_stdout_and_replay_from_stdin(tmp_path: Path) -> None:
    played = tajmahal("match", "greedy", "random", "random", "--seed", "7", "--record", "-",
                      cwd=tmp_path)  # fmt: skip
    assert played.returncode == 0, played.stderr
    record = tm.loads(played.stdout)  # standard output holds the record alone
    assert isinstance(record, tm.GameRecord) and record.seed == 7
    assert "Final scores:" in played.stderr and "Match, seed 7" in played.stderr
    assert list(tmp_path.iterdir()) == [], "no file named '-'"
    replayed = tajmahal("replay", "-", "--quiet", stdin=played.stdout)
    assert replayed.returncode == 0, replayed.stderr
    assert "Final scores: seat 0 (greedy) 68" in replayed.stdout
    page = tajmahal("replay", "-", "--html", "-", stdin=played.stdout)
    assert page.returncode == 0, page.stderr
    assert page.stdout.lstrip().startswith("<!DOCTYPE html>") and "Final scores" in page.stderr


def test_render_reads_and_writes_standard_streams(tmp_path: Path) -> None:
    bare = tajmahal("render", "--out", "-", "--seed", "3", cwd=tmp_path)
    assert bare.returncode == 0 and bare.stdout.startswith("<svg"), bare.stderr
    assert bare.stderr.strip() == "wrote -"
    record = tm.dumps(tm.play_match(["greedy", "random", "random"], seed=7).record)
    drawn = tajmahal("render", "--record", "-", "--out", "-", stdin=record)
    assert drawn.returncode == 0 and drawn.stdout.startswith("<svg"), drawn.stderr
    assert list(tmp_path.iterdir()) == []


def test_two_outputs_cannot_share_standard_output() -> None:
    both = tajmahal("match", "greedy", "random", "random", "--record", "-", "--json")
    assert both.returncode != 0 and "only one output can go to standard output" in both.stderr
    assert "Traceback" not in both.stderr


def test_standard_input_that_is_no_record_is_a_clear_error() -> None:
    done = tajmahal("replay", "-", stdin="not json")
    assert done.returncode != 0 and "standard input is not a readable game record" in done.stderr
    assert "Traceback" not in done.stderr


def test_match_json_is_the_result_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "greedy", "random", "random", "--seed", "7", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    expected = tm.play_match(["greedy", "random", "random"], seed=7)
    assert document == {
        "seed": 7, "players": ["greedy", "random", "random"], "scores": list(expected.scores),
        "winners": list(expected.winners), "ranking": list(expected.ranking), "faults": [],
    }  # fmt: skip


@pytest.mark.parametrize("command", ["analyse", "tournament", "match", "check-bot", "render",
                                     "replay", "play", "bots", "serve"])  # fmt: skip
def test_help_shows_no_doubled_percent_signs(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert "%%" not in text and "usage:" in text


def test_the_example_bot_programs_come_with_the_package() -> None:
    from tajmahal.examples import EXAMPLES, example_path

    listed = subprocess.run([sys.executable, "-m", "tajmahal.examples"], capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    for name in EXAMPLES:
        assert example_path(name).is_file() and str(example_path(name)) in listed.stdout
    # the running interpreter's absolute path: the specs work without the venv on PATH
    assert f"tajmahal match 'cmd:{sys.executable} -m tajmahal.examples.palace_lover' greedy " \
           "random" in listed.stdout  # fmt: skip
    assert f"tajmahal check-bot 'cmd:{sys.executable} -m tajmahal.examples.palace_lover'" in (
        listed.stdout
    )
    with pytest.raises(KeyError, match=r"no example 'x\.py'"):
        example_path("x.py")
