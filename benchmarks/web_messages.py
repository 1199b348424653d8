"""Sizes of the state messages ``tajmahal serve`` sends one person over whole games.

Starts a real server (subprocess, free port, SQLite in a temporary folder),
creates games of one person against bots, and plays the person's seat through
a WebSocket (the first legal move, or withdrawing once two cards are on the
table): every state message the seat receives is counted, the first (the
whole state with the board) among them.  Loopback only.

    .venv/bin/python benchmarks/web_messages.py                # 3, 4 and 5 seats
    .venv/bin/python benchmarks/web_messages.py --games 1 --players 4
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect


def start_server(folder: Path) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-m", "tajmahal", "serve", "--port", "0",
               "--db", str(folder / "games.sqlite3")]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            return process, int(match.group(1))
    raise SystemExit("the server did not start")


def create(port: int, seats: list[Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/games", data=json.dumps({"seats": seats}).encode(),
        method="POST", headers={"Content-Type": "application/json",
                                "Origin": f"http://127.0.0.1:{port}"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as reply:
        created: dict[str, Any] = json.loads(reply.read())
    return created


def play(port: int, token: str) -> list[int]:
    """Play the seat to the end; the byte size of every state message received."""
    sizes = []
    sent = ""
    origin = f"http://127.0.0.1:{port}"
    with connect(f"ws://127.0.0.1:{port}/ws/{token}", max_size=2**23, origin=origin) as socket:
        while True:
            text = socket.recv(120)
            assert isinstance(text, str)
            message = json.loads(text)
            if message["type"] == "error":  # faster than the rate limit: again, a second later
                assert "too many" in message["message"], message
                time.sleep(1.0)
                socket.send(sent)
                continue
            if message["type"] != "state":
                continue
            sizes.append(len(text.encode()))
            if message["over"]:
                return sizes
            legal = message["legal"]
            if legal:
                mine = message["view"]["table"][message["seat"]]
                move = "withdraw" if "withdraw" in legal and len(mine) >= 2 else legal[0]
                sent = json.dumps({"token": token, "type": "move",
                                   "decision": message["decision"] + 1, "move": move})
                socket.send(sent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1, help="games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, port = start_server(Path(folder))
        try:
            print("seats  games  messages  mean bytes  median  first (board)  largest")
            for players in args.players:
                sizes: list[int] = []
                firsts = []
                for _ in range(args.games):
                    bots = ["greedy", "random"] * 3
                    created = create(port, [{"human": True, "name": "Ann"}, *bots[: players - 1]])
                    got = play(port, created["seats"][0]["link"].rsplit("/", 1)[-1])
                    firsts.append(got[0])
                    sizes += got
                print(f"{players:>5}  {args.games:>5}  {len(sizes):>8}  "
                      f"{statistics.mean(sizes):>10.0f}  {statistics.median(sizes):>6.0f}  "
                      f"{statistics.mean(firsts):>13.0f}  {max(sizes):>7}")  # fmt: skip
        finally:
            process.terminate()
            process.wait(30)


if __name__ == "__main__":
    main()
