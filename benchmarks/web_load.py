"""Load benchmark of ``tajmahal serve`` on loopback: many games at once, one person each.

Starts a real server (subprocess, free port, SQLite in a temporary folder),
creates ``--games`` games of one simulated person and bots, and lets every
person play at once over its own WebSocket, choosing a legal move as soon as
it is their turn.  Bounded in time (``--seconds``): what is unfinished then
is counted, not waited for.  Reports errors, the time from a person's move to
the next state message (median, 95th percentile, max), moves per second and
the server's peak memory (VmHWM of the server process).

    .venv/bin/python benchmarks/web_load.py                 # 50 games, at most 120 s
    .venv/bin/python benchmarks/web_load.py --games 5 --seconds 20 --json -
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def start_server(folder: Path) -> tuple[subprocess.Popen[str], int]:
    command = [sys.executable, "-m", "tajmahal", "serve", "--port", "0",
               "--db", str(folder / "games.sqlite3"), "--time-limit", "5",
               "--games-per-minute", "1000", "--open-games-per-client", "100000"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    assert process.stdout is not None
    for line in process.stdout:
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            return process, int(match.group(1))
    raise SystemExit("the server did not start")


def create(port: int, seats: list[Any]) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", method="POST",
                                     data=json.dumps({"seats": seats}).encode(),
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as response:
        reply = json.load(response)
    link: str = next(seat["link"] for seat in reply["seats"] if seat["human"])
    return link.rsplit("/", 1)[-1]


async def person(port: int, token: str, deadline: float, rng: random.Random,
                 latencies: list[float], errors: list[str]) -> tuple[int, bool]:  # fmt: skip
    """Play until the game ends or time is up; (moves made, game over)."""
    moves = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{token}", max_size=2**23) as ws:
        sent_at: float | None = None
        waiting_for = -1
        while time.monotonic() < deadline:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(text)
            if message["type"] == "error":
                errors.append(message["message"])
                continue
            if message["type"] != "state":
                continue
            if sent_at is not None and message["decision"] >= waiting_for:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if message["over"]:
                return moves, True
            if message["legal"] and sent_at is None:
                move = rng.choice(message["legal"])
                waiting_for = message["decision"] + 1
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "move", "token": token,
                                          "decision": waiting_for, "move": move}))  # fmt: skip
                moves += 1
    return moves, False


def peak_memory(pid: int) -> tuple[int, int]:
    """The process's peak and current resident memory in KiB (VmHWM, VmRSS)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text()
                  .splitlines() if ":" in line)  # fmt: skip
    return int(fields["VmHWM"].split()[0]), int(fields["VmRSS"].split()[0])


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tajmahal-web-load-") as folder:
        process, port = start_server(Path(folder))
        try:
            idle = peak_memory(process.pid)[1]
            bots = args.bots.split(",")
            tokens = [create(port, [{"human": True, "name": f"p{n}"}, *bots])
                      for n in range(args.games)]  # fmt: skip
            latencies: list[float] = []
            errors: list[str] = []
            start = time.monotonic()
            deadline = start + args.seconds
            results = await asyncio.gather(*(
                person(port, token, deadline, random.Random(n), latencies, errors)
                for n, token in enumerate(tokens)
            ), return_exceptions=True)  # fmt: skip
            elapsed = time.monotonic() - start
            peak, now = peak_memory(process.pid)
        finally:
            process.terminate()
            process.wait(30)
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    played = [r for r in results if not isinstance(r, BaseException)]
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else None
    return {
        "games": args.games,
        "bots": bots,
        "seconds": round(elapsed, 1),
        "finished_games": sum(1 for _, over in played if over),
        "human_moves": sum(moves for moves, _ in played),
        "moves_per_s": round(sum(moves for moves, _ in played) / elapsed, 1),
        "errors": len(errors) + len(failures),
        "error_examples": (errors + failures)[:3],
        "latency_ms": {
            "median": round(1000 * statistics.median(ordered), 1) if ordered else None,
            "p95": round(1000 * p95, 1) if p95 is not None else None,
            "max": round(1000 * ordered[-1], 1) if ordered else None,
        },
        "server_memory_mib": {
            "idle": round(idle / 1024, 1),
            "peak": round(peak / 1024, 1),
            "end": round(now / 1024, 1),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games at once (default 50)")
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="stop after this long (default 120)")  # fmt: skip
    parser.add_argument("--bots", default="greedy,random,random",
                        help="the bot seats beside the person (default greedy,random,random)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON ('-': stdout)")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json == "-":
        print(json.dumps(result, indent=2))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    latency = result["latency_ms"]
    memory = result["server_memory_mib"]
    print(f"{result['games']} games at once ({', '.join(result['bots'])} beside one person), "
          f"{result['seconds']} s")
    print(f"  finished games:        {result['finished_games']}")
    print(f"  person moves:          {result['human_moves']} ({result['moves_per_s']}/s)")
    print(f"  errors:                {result['errors']} {result['error_examples'] or ''}")
    print(f"  move -> next state:    median {latency['median']} ms, p95 {latency['p95']} ms, "
          f"max {latency['max']} ms")
    print(f"  server memory:         idle {memory['idle']} MiB, peak {memory['peak']} MiB, "
          f"end {memory['end']} MiB")


if __name__ == "__main__":
    main()
