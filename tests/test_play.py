"""``tajmahal play``: a person at a real pseudo-terminal (pexpect), typing as a person would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

import tajmahal as tm
from tajmahal.cli import main
from tajmahal.serialize import loads

PROMPT = "\r\n> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r")


def bare(text: str | None) -> str:
    """Terminal output without its colour and style codes."""
    return ANSI.sub("", text or "")


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "NO_COLOR": "1"}  # rich leaves out the colours: plain text to match
    child = pexpect.spawn(
        sys.executable, ["-m", "tajmahal", "play", *args], cwd=str(cwd),
        encoding="utf-8", timeout=30, dimensions=(50, 120), env=env,
    )  # fmt: skip
    child.expect(PROMPT)
    return child


def test_a_person_plays_asks_for_a_hint_undoes_saves_and_stops_at_end_of_input(
    tmp_path: Path,
) -> None:
    child = spawn("greedy", "random", "--seed", "3", cwd=tmp_path)
    shown = bare(child.before)
    assert "you play seat 0; seat 1 greedy, seat 2 random" in shown
    assert "Hand (6):" in shown and " 1 red mon+pri" in shown
    child.sendline("1")  # a number picks a move
    child.expect(PROMPT)
    assert "seat 0 (you) plays red monk+princess" in bare(child.before)
    assert "seat 1 (greedy) plays " in bare(child.before)  # the bots' moves since, as events
    child.sendline("hint greedy")
    child.expect(PROMPT)
    assert "greedy would choose " in bare(child.before)
    child.sendline("hint nobody")
    child.expect(PROMPT)
    assert "No hint: " in bare(child.before) and "no bot is called 'nobody'" in bare(child.before)
    child.sendline("undo")
    child.expect(PROMPT)
    assert "Taken back" in bare(child.before) and "Hand (6):" in bare(child.before)
    child.sendline("withdraw")  # the move in notation
    child.expect(PROMPT)
    assert "seat 0 (you) draws yellow elephant+monk from the deck (W11, F3)" in bare(child.before)
    child.sendline("take nothing")
    child.expect(PROMPT)
    assert "Not a legal move" in bare(child.before)
    child.sendline("save game.json")
    child.expect(PROMPT)
    child.sendline("board board.svg")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in (bare(child.before) or "")
    record = loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert [str(m) for m in record.moves] == ["withdraw"]
    assert record.players == ("you", "greedy", "random")
    assert (tmp_path / "board.svg").read_text(encoding="utf-8").startswith("<svg")
    # play --load continues the saved game where it stopped
    child = spawn("--load", "game.json", cwd=tmp_path)
    assert "take yellow ele+viz" in bare(child.before)
    child.sendintr()  # Ctrl-C
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in (bare(child.before) or "")


def test_a_whole_game_typed_move_by_move_ends_with_the_result(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "play", "random", "random", "random", "--seat", "2",
         "--seed", "4"],
        input="1\n" * 400, capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Taj Mahal: you play seat 2; seat 0 random")
    assert lines[-1] == "Seed 4: --seed 4 deals this game again."
    assert lines[-2].startswith("Winner") and lines[-3].startswith("Ranking: ")
    assert any(line.startswith("Final scores: ") for line in lines)
    assert "seed" not in "\n".join(lines[:-1]).lower()  # not shown before the game is over
    assert "the game ends: " in done.stdout and "Visit 12/12" in done.stdout


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
    assert main(["play", *args]) == 2  # usage errors and bad specs: exit status 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def screen_rows(text: str, width: int = 80) -> list[str]:
    """What the terminal shows for ``text``: colours stripped, long lines wrapped."""
    rows = []
    for line in ANSI.sub("", text).split("\n"):
        rows += [line[i : i + width] for i in range(0, max(len(line), 1), width)]
    return rows


def test_five_players_at_80x24_every_turn_fits_with_line_editing_and_a_saved_end(
    tmp_path: Path,
) -> None:
    """A whole game against four bots in a real 80x24 pseudo-terminal: each turn's output
    (events, table panel, moves) fits one screen; Tab completes a move; the up arrow recalls
    the last line; forced moves play themselves; --record saves the end; every seat's
    points are broken down."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tajmahal", "play", "greedy", "random", "random", "greedy", "--seed", "5",
         "--auto", "--record", "end.json"],
        cwd=str(tmp_path), encoding="utf-8", timeout=60, dimensions=(24, 80), env=env,
    )  # fmt: skip
    child.expect(PROMPT)
    first = ANSI.sub("", child.before)
    for seat, name in enumerate(["you", "greedy", "random", "random", "greedy"]):
        assert re.search(rf"^[> ] {seat} {name} +0 +6 ", first, re.MULTILINE), name
    assert "\x1b[" in child.before  # suits in colour at a terminal
    child.send("wit\t")  # Tab completes the only move starting so: withdraw
    child.sendline("")
    child.expect(PROMPT)
    assert "seat 0 (you) withdraws without having played" in ANSI.sub("", child.before)
    child.sendline("why")
    child.expect(PROMPT)
    told = ANSI.sub("", child.before)
    assert " 1 take " in told or " 1 play " in told
    child.send("\x1b[A")  # the up arrow: the last line again
    child.sendline("")
    child.expect(PROMPT)
    assert ANSI.sub("", child.before).count(" 1 ") >= 1
    turns = 0
    while True:
        child.sendline("1")
        found = child.expect([PROMPT, r"Winner"])
        rows = screen_rows(child.before)[1:]  # after the echo of the line typed
        if found == 1:
            break
        turns += 1
        assert len(rows) <= 23, "\n".join(rows)  # and the prompt: 24
        assert all(len(row) <= 80 for row in rows)
        if turns == 12 and os.environ.get("TAJMAHAL_DOCS_SCREENSHOTS"):
            _terminal_picture(child.before.split("\n", 1)[1] + "\n> ")
    child.expect(pexpect.EOF)
    end = ANSI.sub("", child.before)
    child.close()
    assert child.exitstatus == 0 and turns > 20
    assert "Saved the game" in end
    record = loads((tmp_path / "end.json").read_text(encoding="utf-8"))
    assert record.scores is not None and record.players[0] == "you"
    shown = ANSI.sub("", (child.before or ""))
    assert "Traceback" not in shown


def test_loading_a_finished_game_says_so_and_breaks_down_every_seats_score(
    tmp_path: Path,
) -> None:
    path = tmp_path / "done.json"
    record = tm.play_match(["greedy", "random", "random"], seed=8).record
    path.write_text(tm.dumps(record), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "play", "--load", str(path)],
        capture_output=True, text=True, timeout=60, check=False, input="",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "is already over" in out and "nothing is left to play" in out
    assert "(you)" not in out and "seat 0 (greedy)" in out
    for seat, name in enumerate(record.players):
        assert f"  seat {seat} ({name}): {record.scores[seat]} = " in out  # type: ignore[index]


TERMINAL_PICTURE = Path(__file__).resolve().parent.parent / "docs" / "images" / "terminal-game.svg"


def _terminal_picture(screen: str) -> None:
    """The docs' picture of one turn, from the real output (colours and all), drawn by rich."""
    from rich.console import Console
    from rich.text import Text

    with open(os.devnull, "w") as nowhere:
        console = Console(record=True, width=80, force_terminal=True, color_system="truecolor",
                          file=nowhere)  # fmt: skip
        console.print(Text.from_ansi(screen.replace("\r", "")), crop=False)
    console.save_svg(str(TERMINAL_PICTURE), title="tajmahal play (80x24, five players)")


def test_the_terminal_picture_is_committed() -> None:
    assert TERMINAL_PICTURE.exists() and TERMINAL_PICTURE.stat().st_size > 10_000
