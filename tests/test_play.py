"""``tajmahal play``: a person at a real pseudo-terminal (pexpect), typing as a person would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tajmahal.cli import main
from tajmahal.serialize import loads

PROMPT = "\r\n> "


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable, ["-m", "tajmahal", "play", *args], cwd=str(cwd),
        encoding="utf-8", timeout=30, dimensions=(50, 120),
    )  # fmt: skip
    child.expect(PROMPT)
    return child


def test_a_person_plays_asks_for_a_hint_undoes_saves_and_stops_at_end_of_input(
    tmp_path: Path,
) -> None:
    child = spawn("greedy", "random", "--seed", "3", cwd=tmp_path)
    shown = child.before
    assert "you play seat 0; seat 1 greedy, seat 2 random" in shown
    assert "Your hand (6):" in shown and "   1. play red:monk+princess" in shown
    child.sendline("1")  # a number picks a move
    child.expect(PROMPT)
    assert "seat 0 (you) plays red:monk+princess" in child.before
    assert "seat 1 (greedy) plays " in child.before  # the bots' moves since, as events
    child.sendline("hint")
    child.expect(PROMPT)
    assert "greedy would choose: " in child.before
    child.sendline("hint nobody")
    child.expect(PROMPT)
    assert "No hint: " in child.before and "no bot is called 'nobody'" in child.before
    child.sendline("undo")
    child.expect(PROMPT)
    assert "Taken back" in child.before and "Your hand (6):" in child.before
    child.sendline("withdraw")  # the move in notation
    child.expect(PROMPT)
    assert "seat 0 (you) draws yellow:elephant+monk from the deck (W11, F3)" in child.before
    child.sendline("take nothing")
    child.expect(PROMPT)
    assert "Not a legal move" in child.before
    child.sendline("save game.json")
    child.expect(PROMPT)
    child.sendline("board board.svg")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in (child.before or "")
    record = loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert [str(m) for m in record.moves] == ["withdraw"]
    assert record.players == ("you", "greedy", "random")
    assert (tmp_path / "board.svg").read_text(encoding="utf-8").startswith("<svg")
    # play --load continues the saved game where it stopped
    child = spawn("--load", "game.json", cwd=tmp_path)
    assert "take yellow:elephant+vizier" in child.before
    child.sendintr()  # Ctrl-C
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in (child.before or "")


def test_a_whole_game_typed_move_by_move_ends_with_the_result(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "play", "random", "random", "random", "--seat", "2",
         "--seed", "4"],
        input="1\n" * 400, capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Taj Mahal: you play seat 2; seat 0 random")
    assert lines[-4].startswith("Final scores: ") and lines[-2].startswith("Winner")
    assert lines[-1] == "Seed 4: --seed 4 deals this game again."
    assert "seed" not in "\n".join(lines[:-1]).lower()  # not shown before the game is over
    assert "the game ends: " in done.stdout and "Visit 12 of 12" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy"], "a game needs 2 to 4 opponents, got 1"),
        (["greedy", "random", "--seat", "3"], "--seat must be a seat from 0 to 2, got 3"),
        (["greedy", "grumpy"], "no bot is called 'grumpy'"),
    ],
)
def test_bad_arguments_fail_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["play", *args]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
