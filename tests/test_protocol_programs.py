"""Bot programs through real child processes: the examples, check-bot, and hostile programs.

Every hostile program of ``tests/programs/hostile_bot.py`` plays a whole match against two
``random`` bots: the match ends, in bounded time, with the right faults of that seat only.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tajmahal as tm
from tajmahal.cli import main
from tajmahal.protocol import ProcessLimits
from tajmahal.referee import FaultKind, bot_log_name

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "programs" / "hostile_bot.py"
PYTHON_BOT = f"cmd:{sys.executable} {ROOT / 'src' / 'tajmahal' / 'examples' / 'palace_lover.py'}"
NODE_BOT = f"cmd:node {ROOT / 'src' / 'tajmahal' / 'examples' / 'random_bot.js'}"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None,
    reason="Node.js is not installed (`make test` installs it: apt-get install nodejs); "
    "the JavaScript example bot cannot be run",
)


def hostile(mode: str, pids: Path | None = None) -> str:
    return f"cmd:{sys.executable} {HOSTILE} {mode}" + (f" {pids}" if pids else "")


# ---------------------------------------------------------------- the examples


@needs_node
def test_node_example_bot_plays_against_isolated_and_in_process_bots() -> None:
    players = [NODE_BOT, "greedy", "random", PYTHON_BOT]
    isolated = tm.play_match(players, seed=21, isolate=True)
    inside = tm.play_match(players, seed=21)
    assert isolated.faults == () and isolated.record == inside.record
    assert isolated.players[0] == NODE_BOT


@needs_node
def test_check_bot_passes_the_node_example_as_the_page_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["check-bot", NODE_BOT])
    out = capsys.readouterr().out
    assert code == 0, out
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    shown = re.search(r"```text\n(Checking cmd:node .*?)```", page, re.S)
    assert shown, "docs/protocol.md has no check-bot report"

    def same(text: str) -> str:  # the program's path and the answer times vary
        text = text.replace(str(ROOT / "src" / "tajmahal" / "examples") + "/", "./")
        return re.sub(r"slowest answer \d+ ms", "slowest answer N ms", text).strip()

    assert same(out) == same(shown.group(1))


def test_check_bot_fails_a_bot_that_breaks_its_promises(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["check-bot", hostile("nondeterministic"), "--time-limit", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert re.search(r"^PASS  handshake .*'nondeterministic'", out, re.M)
    assert re.search(r"^FAIL  deterministic +claimed, but seed 1 gave different moves", out, re.M)
    assert "1 of 4 checks failed: deterministic" in out


def test_check_bot_reports_a_bot_that_does_not_exit(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check-bot", hostile("no-exit"), "--time-limit", "2", "--exit-timeout", "0.2"])
    out = capsys.readouterr().out
    assert code == 1
    assert re.search(r"^FAIL  clean exit +not in 4 of 4 games; first: it did not exit in time",
                     out, re.M)
    assert re.search(r"^PASS  answers", out, re.M)


def test_check_bot_counts_the_decisions_of_a_bot_that_never_answers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["check-bot", "cmd:true", "--json"])  # exits before its handshake
    captured = capsys.readouterr()
    assert code == 1
    document = json.loads(captured.out)  # the games' lines went to standard error
    assert document["spec"] == "cmd:true" and document["passed"] is False
    checks = {c["name"]: c for c in document["checks"]}
    assert list(checks) == ["handshake", "answers", "deterministic", "clean exit"]
    answers = re.fullmatch(r"(\d+) of the bot's (\d+) decisions failed \(unavailable\).*",
                           checks["answers"]["detail"])  # fmt: skip
    assert answers and answers.group(1) == answers.group(2), checks["answers"]["detail"]
    games = re.findall(r"^game \d: .*: (\d+) decisions, (\d+) failed, a fault before the first",
                       captured.err, re.M)  # fmt: skip
    assert len(games) == 3 and all(a == b for a, b in games), captured.err
    assert sum(int(a) for a, _ in games) == int(answers.group(2))


def test_check_bot_json_of_a_passing_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-bot", PYTHON_BOT, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["passed"] is True and all(c["passed"] for c in document["checks"])


def test_check_bot_of_a_registered_bot_runs_it_through_the_runner() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "check-bot", hostile("crash-at-once")],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 1
    assert "FAIL  handshake      failed in 3 of 3 games; first: the program ended before " \
           "answering 'hello' (it exited with status 3); stderr: cannot start" in done.stdout
    assert "Traceback" not in done.stderr


def test_match_command_isolates_and_logs(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "match", hostile("crash-mid"), "greedy", "random",
         "--isolate", "--bot-logs", str(logs), "--seed", "3", "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    crash = re.search(r"seat 0, decision (\d+): crash: the program ended before answering \(it "
                      r"exited with status 1\); stderr: .*RuntimeError: boom", done.stdout)
    assert crash, done.stdout
    assert (f"unavailable: the program was stopped earlier (crash at decision {crash[1]})"
            in done.stdout)
    assert "RuntimeError: boom" in (logs / bot_log_name(3, 0)).read_text()
    assert sorted(p.name for p in logs.iterdir()) == [bot_log_name(3, s) for s in range(3)]


# ---------------------------------------------------------------- hostile programs

#: mode -> (play_match options, the first fault's kind, a pattern its detail matches,
#:          whether the program keeps its seat after that fault)
HOSTILE_CASES: dict[str, tuple[dict[str, Any], FaultKind, str, bool]] = {
    "crash-at-once": ({}, FaultKind.HANDSHAKE,
                      r"ended before answering 'hello' \(it exited with status 3\); stderr: "
                      r"cannot start: the model file is missing", False),
    "crash-mid": ({}, FaultKind.CRASH, r"exited with status 1\); stderr: .*RuntimeError: boom",
                  False),
    "hang": ({"time_limit": 0.5}, FaultKind.TIMEOUT,
             r"no answer within the 0\.5 s time limit; the program was killed", False),
    "late": ({"time_limit": 0.5}, FaultKind.TIMEOUT, r"no answer within the 0\.5 s", False),
    "garbage": ({}, FaultKind.PROTOCOL, r"wrote a line longer than 65536 bytes", False),
    "wrong-json": ({}, FaultKind.PROTOCOL, r"expected a 'move' or 'error' message, got type "
                   r"'moves'", True),
    # the extra line is caught before the next request, or read as its answer
    "chatty": ({}, FaultKind.PROTOCOL, r"(wrote without being asked|not JSON): 'debug: I chose",
               False),
    "bad-handshake": ({}, FaultKind.HANDSHAKE, r"speaks protocol version 99; this referee "
                      r"speaks version 1", False),
    "silent-start": ({"process_limits": ProcessLimits(start_timeout=1)}, FaultKind.HANDSHAKE,
                     r"no 'ready' answer within 1 s of the start", False),
    "early-exit": ({}, FaultKind.CRASH, r"ended before answering \(it exited with status 0\)",
                   False),
    "closes-stdout": ({}, FaultKind.CRASH, r"ended before answering \(it closed its standard "
                      r"output and was killed\)", False),
    "child-keeps-stdout": ({}, FaultKind.CRASH, r"exited with status 0", False),
    "memory": ({"process_limits": ProcessLimits(memory_mb=64), "time_limit": 20},
               FaultKind.CRASH, r"MemoryError", False),
}


@pytest.mark.parametrize("mode", sorted(HOSTILE_CASES))
def test_a_hostile_program_gets_faults_and_the_match_ends(mode: str) -> None:
    options, kind, detail, keeps_seat = HOSTILE_CASES[mode]
    options = {"time_limit": 5.0, **options}
    result = tm.play_match([hostile(mode), "random", "random"], seed=2, **options)
    assert result.faulty_seats == {0}
    first = result.faults[0]
    assert first.kind is kind, first
    assert re.search(detail, first.detail), first.detail
    later = {f.kind for f in result.faults[1:]}
    if keeps_seat:  # asked every time, wrong every time
        assert later <= {FaultKind.PROTOCOL, FaultKind.ILLEGAL_MOVE}
        state, asked = tm.new_game(3, seed=2), 0
        for move in result.record.moves:
            asked += state.current_player == 0
            state = state.apply(move)
        assert len(result.faults) == asked
    else:
        assert later == {FaultKind.UNAVAILABLE}
        assert all(f.detail.startswith("the program was stopped earlier") for f in
                   result.faults[1:])
    assert result.ranking[-1] == 0
    assert all(len(f.detail) <= 1300 for f in result.faults)
    assert tm.replay(result.record).scores == result.scores


def test_a_flood_on_stderr_is_drained_and_its_log_bounded(tmp_path: Path) -> None:
    limits = ProcessLimits(log_dir=tmp_path, log_bytes=100_000)
    result = tm.play_match([hostile("stderr-flood"), "random", "random"], seed=2,
                           time_limit=10, process_limits=limits)
    assert result.faults == ()
    log = tmp_path / bot_log_name(2, 0)
    assert 100_000 < log.stat().st_size < 100_400  # the header, the capped log, the note
