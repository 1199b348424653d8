"""The process backend from every entry point a user has, and its workers' deaths.

Each entry point (a script without the ``__main__`` guard, one with it, a script
on standard input, ``python -c``, the REPL, a notebook run by a real Jupyter
kernel) runs a tournament with ``backend="process", jobs=2`` in a subprocess;
its games must equal the serial backend's.  A bot defined in the main module
is a one-line error that says what to do; a worker killed by a signal is
named as such; and a tournament killed with ``kill -9`` leaves no process
behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import tajmahal as tm
from tajmahal.tournament import TournamentError, run_tournament

ENTRANTS = ["greedy", "random", "random"]
TOURNAMENT = textwrap.dedent(
    """\
    import json
    import tajmahal as tm
    result = tm.run_tournament(["greedy", "random", "random"], games=6, seed=3,
                               backend="process", jobs=2)
    print("GAMES", json.dumps([[g.game, g.players, g.scores] for g in result.games]))
    """
)


@pytest.fixture(scope="module")
def serial_games() -> list[Any]:
    result = run_tournament(ENTRANTS, games=6, seed=3, backend="serial")
    games: list[Any] = json.loads(json.dumps([[g.game, g.players, g.scores]
                                              for g in result.games]))
    return games


def _games(output: str) -> Any:
    line = next(line for line in output.splitlines() if line.startswith("GAMES "))
    return json.loads(line[len("GAMES "):])


def _python(*args: str, stdin: str | None = None, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True,
                          timeout=300, check=False, cwd=cwd)


@pytest.mark.parametrize("entry", ["guardless script", "guarded script", "stdin", "-c", "REPL"])
def test_every_entry_point_gives_the_serial_games(
    entry: str, serial_games: list[Any], tmp_path: Path
) -> None:
    script = tmp_path / "tournament.py"
    if entry == "guardless script":
        script.write_text(TOURNAMENT)
        done = _python(str(script), cwd=tmp_path)
    elif entry == "guarded script":
        body = textwrap.indent(TOURNAMENT, "    ")
        script.write_text(f"def main():\n{body}\n\nif __name__ == '__main__':\n    main()\n")
        done = _python(str(script), cwd=tmp_path)
    elif entry == "stdin":
        done = _python("-", stdin=TOURNAMENT, cwd=tmp_path)
    elif entry == "-c":
        done = _python("-c", TOURNAMENT, cwd=tmp_path)
    else:  # the interactive interpreter, fed line by line
        done = _python("-i", "-q", stdin=TOURNAMENT + "\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert _games(done.stdout) == serial_games


def test_a_notebook_gives_the_serial_games(serial_games: list[Any], tmp_path: Path) -> None:
    for module in ("nbformat", "nbclient", "ipykernel"):
        pytest.importorskip(module, reason="the dev extra installs nbformat, nbclient, ipykernel")
    runner = textwrap.dedent(
        """\
        import sys, nbclient, nbformat
        notebook = nbformat.v4.new_notebook()
        notebook.cells = [nbformat.v4.new_code_cell(sys.stdin.read())]
        nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
        print("".join(out.get("text", "") for out in notebook.cells[0].outputs))
        """
    )  # in its own process: nbclient's event loop stays out of this one
    done = _python("-c", runner, stdin=TOURNAMENT, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _games(done.stdout) == serial_games


def test_a_bot_defined_in_the_main_module_is_a_one_line_error(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """\
        import tajmahal as tm

        class First:
            name = "first"
            def __init__(self, seed=0):
                pass
            def choose(self, view, legal_moves):
                return legal_moves[0]

        class Mine:
            @tm.hookimpl
            def tajmahal_bots(self):
                return [First]

        tm.bots.default_registry().register(Mine(), name="mine")
        print("SERIAL", len(tm.run_tournament(["first", "random", "random"], games=6,
                                              backend="serial").games))
        try:
            tm.run_tournament(["first", "random", "random"], games=6, backend="process")
        except tm.TournamentError as exc:
            print("ERROR", exc)
        """
    )
    done = _python("-c", script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "SERIAL 6" in done.stdout
    error = next(line for line in done.stdout.splitlines() if line.startswith("ERROR"))
    assert "bot 'first' is defined in the main module" in error
    assert "install it as a plugin" in error and "backend='serial'" in error


class _Suicidal:
    """Kills its own process with the signal in its ``signal`` option (in a worker only)."""

    name = "suicidal"

    def __init__(self, seed: int = 0, signal: int = 9) -> None:
        self.signal = signal

    def choose(self, view: object, legal_moves: Any) -> Any:
        os.kill(os.getpid(), self.signal)
        time.sleep(60)
        return legal_moves[0]


class _SuicidalPlugin:
    @tm.hookimpl
    def tajmahal_bots(self) -> list[type[Any]]:
        return [_Suicidal]


@pytest.mark.parametrize(("number", "named"), [
    (signal.SIGKILL, "killed by SIGKILL (kill -9, or the system's out-of-memory killer)"),
    (signal.SIGTERM, "killed by SIGTERM while playing game 0"),
    (signal.SIGSEGV, "killed by SIGSEGV"),
])
def test_a_worker_killed_by_a_signal_is_named(number: int, named: str, tmp_path: Path) -> None:
    tm.bots.default_registry().register(_SuicidalPlugin(), name="suicidal-test")
    out = tmp_path / "r.jsonl"
    try:
        with pytest.raises(TournamentError) as caught:
            run_tournament([f"suicidal:signal={number}", "random", "random"], games=6,
                           backend="process", jobs=1, out=out)
    finally:
        tm.bots.reload()
    message = str(caught.value)
    assert named in message and "resume the tournament" in message
    assert "out of memory)" not in message or number == signal.SIGKILL
    assert "\n" not in message


def test_a_bot_registered_by_hand_from_a_module_plays_in_workers() -> None:
    tm.bots.default_registry().register(_FirstPlugin(), name="first-test")
    try:
        serial = run_tournament(["first-move", "random", "random"], games=6, seed=5,
                                backend="serial")
        process = run_tournament(["first-move", "random", "random"], games=6, seed=5,
                                 backend="process", jobs=2)
    finally:
        tm.bots.reload()
    assert process.games == serial.games


class _First:
    """Plays the first legal move."""

    name = "first-move"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: object, legal_moves: Any) -> Any:
        return legal_moves[0]


class _FirstPlugin:
    @tm.hookimpl
    def tajmahal_bots(self) -> list[type[Any]]:
        return [_First]


def _children(pid: int) -> set[int]:
    """Every process descended from ``pid`` (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's wait is missing


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_kill_9_of_the_tournament_leaves_no_process(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    script = textwrap.dedent(
        f"""\
        import tajmahal as tm
        tm.run_tournament(["ismcts:iterations=300", "random", "random"], games=600, seed=1,
                          backend="process", jobs=2, isolate=True, out={str(out)!r})
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        # A worker between two games may have no isolated bot for a moment, so the tree is
        # read until it shows both workers with their bots at once; every process seen is
        # checked afterwards.
        deadline = time.monotonic() + 120
        descendants: set[int] = set()
        widest = 0
        while time.monotonic() < deadline and widest < 4:
            if out.exists() and len(out.read_text(encoding="utf-8").splitlines()) >= 2:
                seen = _children(parent.pid)
                descendants |= seen
                widest = max(widest, len(seen))
            time.sleep(0.2)
        assert widest >= 4, "two workers, each with its isolated bots"
    finally:
        parent.kill()  # kill -9 of the tournament's process alone
        parent.wait()
    deadline = time.monotonic() + 60  # a generous bound: workers poll every half second
    while time.monotonic() < deadline and any(_alive(pid) for pid in descendants):
        time.sleep(0.2)
    survivors = [pid for pid in descendants if _alive(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert not survivors
