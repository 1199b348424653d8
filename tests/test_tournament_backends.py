"""Tournament backends give the same games as ``serial``: a real process pool, a real Ray instance.

Also the command line as a user runs it: killed with SIGKILL and resumed, and its
progress bar on a terminal (a pseudo-terminal).  Ray starts once per session
(2 CPUs, no dashboard).
"""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tajmahal as tm
from tajmahal.tournament import TournamentError, read_results, run_tournament, summarize_file

ENTRANTS = ["greedy", "random", "random", "random"]  # 4 entrants at 3 seats: balanced tables
GAMES = 12


@pytest.fixture(scope="module")
def reference() -> Any:
    return run_tournament(ENTRANTS, games=GAMES, num_players=3, seed=11, backend="serial")


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[str]:
    """A real local Ray instance with 2 CPUs for the whole session; yields its address."""
    ray = pytest.importorskip("ray", reason="make test installs the 'ray' extra")
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                       _node_ip_address="127.0.0.1")  # loopback only
    yield str(context.address_info["address"])
    ray.shutdown()


def test_process_backend_plays_the_same_games(reference: Any, tmp_path: Path) -> None:
    out = tmp_path / "process.jsonl"
    result = run_tournament(ENTRANTS, games=GAMES, num_players=3, seed=11, backend="process",
                            jobs=2, out=out)
    assert result.games == reference.games and result.table == reference.table
    assert summarize_file(out).table == reference.table


def test_observers_watch_the_games_in_worker_processes(tmp_path: Path) -> None:
    from tajmahal.referee.observers import DecisionDataset

    dataset = tmp_path / "decisions.jsonl"
    result = run_tournament(["random"] * 3, games=6, seed=3, backend="process", jobs=2,
                            observers=[DecisionDataset(dataset)])
    rows = [json.loads(line) for line in dataset.read_text(encoding="utf-8").splitlines()]
    firsts = [row for row in rows if row["decision"] == 1]
    assert len(firsts) == 6 and {row["seed"] for row in rows} == {g.seed for g in result.games}
    assert sorted(tuple(row["result"]["scores"]) for row in firsts) == sorted(
        game.scores for game in result.games
    )


def test_ray_backend_plays_the_same_games(reference: Any, ray_cluster: str) -> None:
    result = run_tournament(ENTRANTS, games=GAMES, num_players=3, seed=11, backend="ray")
    assert result.games == reference.games and result.table == reference.table


def test_cli_joins_a_ray_cluster_by_address(
    reference: Any, ray_cluster: str, tmp_path: Path
) -> None:
    out = tmp_path / "ray.jsonl"
    done = _cli(*ENTRANTS, "--players", "3", "--games", "12", "--seed", "11", "--backend", "ray",
                "--ray-address", ray_cluster, "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert read_results(out).games == reference.games


#: a file bot that plays at random but waits (sleeps) while the file ``hold`` beside
#: it names a results file that already holds five lines
_HOLDING_BOT = '''
import random
import time
from pathlib import Path

HOLD = Path(__file__).with_name("hold")


def _lines(path):
    return path.read_bytes().count(bytes([10])) if path.exists() else 0


class Holder:
    """Plays at random; waits while HOLD names a results file of five lines or more."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, view, legal_moves):
        while HOLD.exists() and _lines(Path(HOLD.read_text(encoding="utf-8"))) >= 5:
            time.sleep(0.05)
        return self.rng.choice(legal_moves)
'''


def test_a_killed_run_resumes_to_the_same_table(tmp_path: Path) -> None:
    bot = tmp_path / "holder.py"
    bot.write_text(_HOLDING_BOT, encoding="utf-8")
    args = (f"file:{bot}", "random", "random", "--games", "18", "--seed", "2", "--jobs", "2",
            "--json", "--quiet")
    whole = tmp_path / "whole.jsonl"
    uninterrupted = _cli(*args, "--out", str(whole))
    assert uninterrupted.returncode == 0, uninterrupted.stderr

    # The killed run stops playing once it has written 4 games (its file bot waits),
    # however fast or slow the machine: the kill lands half-way, never after the end.
    killed = tmp_path / "killed.jsonl"
    hold = tmp_path / "hold"
    hold.write_text(str(killed), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "tajmahal", "tournament", *args,
                                "--out", str(killed)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while _lines(killed) < 5 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the CLI and its worker processes
    process.wait()
    played = _lines(killed) - 1
    assert 4 <= played < 18, "the run must be killed half-way"
    hold.unlink()
    with killed.open("a", encoding="utf-8") as stream:
        stream.write('{"game": 17, "block": 5, "se')  # and as if killed while writing a line
    resumed = _cli(*args, "--out", str(killed), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == json.loads(uninterrupted.stdout)
    games = [json.loads(line)["game"] for line in killed.read_text().splitlines()[1:]]
    assert sorted(games) == list(range(18))  # none lost, none played twice


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "tournament", "random", "random", "random",
         "--games", "6", "--backend", "serial"],
        stdout=subprocess.PIPE, stderr=follower, text=True,
        env={**os.environ, "COLUMNS": "120", "TERM": "xterm"},
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    out, _ = process.communicate(timeout=60)
    os.close(leader)
    assert process.returncode == 0
    assert b"games" in shown and b"games/s" in shown and b"/6" in shown
    assert "Tournament: 6 of 6 games" in out
    quiet = _cli("random", "random", "random", "--games", "6", "--backend", "serial", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_a_bot_the_workers_cannot_get_is_a_clear_error_before_any_game() -> None:
    class Hand:
        """A bot of a plugin defined in a function: it cannot be sent to a worker."""

        name = "by-hand"

        def __init__(self, seed: int = 0) -> None:
            pass

        def choose(self, view: object, legal_moves: Any) -> Any:
            return legal_moves[0]

    class HandPlugin:
        @tm.hookimpl
        def tajmahal_bots(self) -> list[type[Any]]:
            return [Hand]

    tm.bots.default_registry().register(HandPlugin(), name="by-hand-test")
    try:
        assert run_tournament(["by-hand", "random", "random"], games=6, backend="serial").games
        wanted = (r"bot 'by-hand' comes from a plugin that cannot be sent to the workers "
                  r"\(.*\): move the class into a module .* or use backend='serial'")
        with pytest.raises(TournamentError, match=wanted):
            run_tournament(["by-hand", "random", "random"], games=6, backend="process", jobs=1)
    finally:
        tm.bots.reload()


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tajmahal", "tournament", *args],
                          capture_output=True, text=True, timeout=timeout, check=False)
