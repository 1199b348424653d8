"""A graceful stop of ``tajmahal serve`` when its whole service is told to stop (issue 46).

systemd's default ``KillMode=control-group`` sends SIGTERM to every process of
the unit: the server and its bot workers at once.  The workers leave stopping
to the server, which stops taking connections, finishes and stores the moves
in hand, and stops its workers without replacing them; no decision becomes a
``crash`` fault, and the games go on where they stood after a restart.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("websockets")

import tajmahal as tm
from web_server import STARTUP_SECONDS, Server, token_of

BOTS = ["greedy", "random", "random", "greedy"]


class GroupServer(Server):
    """``tajmahal serve`` as the leader of a process group of its own (as a service is)."""

    def start(self) -> None:
        command = [sys.executable, "-m", "tajmahal", "serve", "--port", "0", "--db",
                   str(self.db), *self.options]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
            start_new_session=True,
        )
        self.port = 0
        found = threading.Event()

        def read() -> None:
            assert self.process is not None and self.process.stdout is not None
            for line in self.process.stdout:
                self.lines.append(line.rstrip("\n"))
                if "listening on http://127.0.0.1:" in line:
                    self.port = int(line.split("127.0.0.1:")[1].split("/")[0].split()[0])
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(STARTUP_SECONDS) or not self.port:
            self.stop(signal.SIGKILL)
            raise RuntimeError("the server did not start:\n" + "\n".join(self.lines[-30:]))


def group_members(group: int) -> list[int]:
    """The processes of process group ``group`` (read from /proc)."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group and fields[0] != "Z":
                members.append(int(entry.name))
    return members


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process groups in /proc")
def test_sigterm_to_the_whole_service_stops_it_gracefully(tmp_path: Path) -> None:
    server = GroupServer(tmp_path / "games.sqlite3", "--bot-workers", "2", "--time-limit", "5")
    try:
        assert server.process is not None
        group = server.process.pid
        created = server.create(BOTS)
        watcher = server.client(token_of(created["spectator"]))
        watcher.until(lambda m: m["type"] == "state" and m["decision"] >= 10)
        watcher.close()
        workers = [pid for pid in group_members(group) if pid != group]
        assert len(workers) >= 2, server.lines[-20:]  # the server and its bot workers
        print(f"service: server {group}, workers {workers}; SIGTERM to group {group}")
        os.killpg(group, signal.SIGTERM)
        status = server.process.wait(120)
        server.process = None
        print("\n".join(server.lines[-15:]))
        # uvicorn stops gracefully, then ends by the signal it was sent (as systemd expects)
        assert status in (0, -signal.SIGTERM), status
        assert any("Application shutdown complete" in line for line in server.lines)
        assert not any("replaced" in line for line in server.lines), server.lines[-20:]
        assert not any("crash" in line for line in server.lines), server.lines[-20:]
        deadline = time.monotonic() + 30  # the workers end with the server (their pipes close)
        while group_members(group) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert group_members(group) == []

        server.start()  # the game goes on where it stood, with no fault from the stop
        watcher = server.client(token_of(created["spectator"]))
        watcher.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
        watcher.close()
        status_code, _, body = server.request("/record/" + token_of(created["spectator"]))
        assert status_code == 200
        record = tm.loads(body.decode())
        assert isinstance(record, tm.GameRecord)
        print(f"after the restart: {record!r}")
        assert record.faults == ()
    finally:
        if server.process is not None:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait()
