"""Load benchmark of ``tajmahal serve`` on loopback: many games at once, one person each.

Starts a real server (a subprocess on a free port, SQLite in a temporary
folder, limits raised so that one load client may open every game), creates
``--games`` games of one scripted person and bots, and lets every person play
at once over its own WebSocket, choosing a random legal move as soon as it is
their turn, but never faster than the server's own rate limit allows a page:
at most one message per 1/20 s per connection (``PACE``; the server keeps its
default limit of 20 messages a second, so a message over it would come back as
an error, and be counted).  The load stays closed-loop: a person waits for
nothing but their turn and this pace, so the server is driven as hard as it
can answer.  Bounded in time (``--seconds``): what is unfinished then is
counted, not waited for.  At the end the server is killed with ``kill -9``
and every acknowledged move is looked up in its database (nothing lost).

Reported, each figure beside the machine's load average (``os.getloadavg``)
when it was taken:

- the **ack** (a person's move to its ``ack`` message: stored, durable) and
  the **turn** (the move to the next state where the person is to play again,
  the bots' moves between): median, p99, max;
- **decisions a second**: every move stored during the run (people and bots),
  counted in the database, divided by the wall time;
- **CPU**: seconds of the server process and of its worker processes (all
  its descendants), per decision and as a share of the wall time;
- the server's memory (VmRSS, VmHWM) and its workers' (VmRSS, summed);
- the mean size of a message the server sent (acks and errors left out);
- errors (error messages and failed connections) and lost moves;
- the load client's own CPU (one process: if it nears a whole core, its own
  queue adds to every latency it measures).

Modes::

    python benchmarks/web_load.py --games 50 --seconds 30          # active games
    python benchmarks/web_load.py --idle 1000                       # connected idle games: memory
    python benchmarks/web_load.py --pair --seconds 30               # the interference pair
    python benchmarks/web_load.py --games 10 --profile prof.out     # where the server's time goes
    python benchmarks/web_load.py --games 20 --postgres 1,2         # one vs two processes

``--postgres 1,2`` runs the games on PostgreSQL instead of SQLite: a cluster of its own
in a temporary folder (Debian's postgresql, as the tests start it, but with ``fsync=on``),
or the empty database ``--db URL`` names; first against one ``tajmahal serve`` process,
then against two sharing the database, each run on a fresh schema. Games are created on
the processes in turn and each person connects to a process drawn at random (as behind a
load balancer): with two, about half the people's moves are handed to the other process.

``--pair`` runs one person's game (``random`` bots) alone, then beside
``--beside-games`` games of ``--beside`` bots only (default two games of
``ismcts:iterations=3000``), each on a fresh server, and reports the ratio
of the ack medians.  ``PYTHONPATH`` chooses the code the server runs (e.g.
``PYTHONPATH=/path/to/main/src`` for the code before a change).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import pstats
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import websockets

#: what the server allows this client: every figure is about load, not the lobby's limits
LIMITS = {"games_per_minute": 100_000, "max_open_games": 100_000,
          "max_connections_per_client": 100_000, "default_time_limit": 5.0,
          "open_games_per_client": 100_000, "max_sockets": 100_000,
          "max_sockets_per_client": 100_000}  # fmt: skip

BOOT = """
import attrs, cProfile, json, pstats, signal, sys, threading, time
import concurrent.futures.thread as pool_threads
from tajmahal.web import ServerSettings, serve
known = {f.name for f in attrs.fields(ServerSettings)}
wanted = json.loads(sys.argv[1])
settings = ServerSettings(**{k: v for k, v in wanted.items() if k in known})
profile = sys.argv[3]
if profile:  # CPU time (time.thread_time) of the event loop and of every pool thread
    # uvicorn raises the SIGTERM it caught again once it has stopped: ignore it, then write
    signal.signal(signal.SIGTERM, lambda *args: None)
    profiles, here = [], threading.local()
    run = pool_threads._WorkItem.run
    def profiled(self):
        profiler = getattr(here, "profiler", None)
        if profiler is None:
            profiler = here.profiler = cProfile.Profile(time.thread_time)
            profiles.append(profiler)
        profiler.enable()
        try:
            run(self)
        finally:
            profiler.disable()
    pool_threads._WorkItem.run = profiled
    main = cProfile.Profile(time.thread_time)
    main.enable()
serve("127.0.0.1", 0, sys.argv[2], settings)
if profile:
    main.disable()
    stats = pstats.Stats(main)
    for profiler in profiles:
        stats.add(profiler)
    stats.dump_stats(profile)
"""


WARM_UP = 5.0  #: seconds between the server's start and the first game
#: the least time between two messages of one connection: below the server's default rate
#: limit (``ServerSettings.messages_per_second``, 20 a second), as the issue's client paces
PACE = 1 / 20


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def start_server(
    folder: Path, workers: int | None, profile: str, db: str | None = None
) -> tuple[subprocess.Popen[str], int]:
    wanted = dict(LIMITS)
    if workers is not None:
        wanted["bot_workers"] = workers
    command = [sys.executable, "-c", BOOT, json.dumps(wanted),
               db or str(folder / "games.sqlite3"), profile]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    assert process.stdout is not None
    for line in process.stdout:
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            # keep reading the log, so that the server never blocks on a full pipe
            asyncio.get_running_loop().run_in_executor(None, _drain, process)
            return process, int(match.group(1))
    raise SystemExit("the server did not start")


def _drain(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    for _ in process.stdout:
        pass


def address(n: int) -> str:
    """A loopback address per 50 games (the server counts connections per address too)."""
    return f"127.0.{1 + n // 12500}.{1 + (n // 50) % 250}"


def create(port: int, seats: list[Any], n: int) -> tuple[str, str | None]:
    """A new game: (its id, the person's token or None)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120,
                                            source_address=(address(n), 0))  # fmt: skip
    connection.request("POST", "/api/games", json.dumps({"seats": seats}),
                       {"Content-Type": "application/json",
                        "Origin": f"http://127.0.0.1:{port}"})  # fmt: skip
    response = connection.getresponse()
    reply = json.loads(response.read())
    connection.close()
    if response.status != 201:
        raise SystemExit(f"cannot create a game: {reply}")
    links = [seat["link"] for seat in reply["seats"] if seat["human"]]
    return reply["id"], links[0].rsplit("/", 1)[-1] if links else None


class Tally:
    """What the people saw."""

    def __init__(self) -> None:
        self.acks: list[float] = []
        self.turns: list[float] = []
        self.sizes: list[int] = []
        self.later_sizes: list[int] = []  # after each connection's first (full) state message
        self.errors: list[str] = []
        self.acked: list[tuple[str, int, str]] = []  # (game, decision, move)


async def person(port: int, game: str, token: str, n: int, deadline: float,
                 tally: Tally, idle: asyncio.Event | None = None) -> bool:  # fmt: skip
    """Play until the game ends or time is up (or, idle, until told); whether it ended."""
    rng = random.Random(n)
    uri = f"ws://127.0.0.1:{port}/ws/{token}"
    async with websockets.connect(uri, max_size=2**23, local_addr=(address(n), 0),
                                  open_timeout=600, origin=f"http://127.0.0.1:{port}",
                                  ) as ws:  # fmt: skip
        if idle is not None:
            await ws.recv()
            idle.set()
            await asyncio.sleep(deadline - time.monotonic())
            return False
        sent: dict[int, tuple[float, str]] = {}
        last_sent = -PACE
        waiting: float | None = None
        waiting_for = -1
        while time.monotonic() < deadline:
            try:
                text = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            now = time.monotonic()
            message = json.loads(text)
            kind = message.get("type")
            if kind == "error":
                tally.errors.append(str(message.get("message")))
                continue
            if kind == "ack":
                decision = message.get("decision")
                if decision in sent:
                    at, move = sent.pop(decision)
                    tally.acks.append(now - at)
                    tally.acked.append((game, decision, move))
                continue
            tally.sizes.append(len(text))
            if not message.get("full"):
                tally.later_sizes.append(len(text))
            if "decision" not in message:
                continue
            if waiting is not None and message["decision"] >= waiting_for and message.get("legal"):
                tally.turns.append(now - waiting)
                waiting = None
            if message.get("over"):
                return True
            if message.get("legal") and waiting is None and message["decision"] + 1 > waiting_for:
                move = rng.choice(message["legal"])
                waiting_for = message["decision"] + 1
                pause = last_sent + PACE - time.monotonic()
                if pause > 0:  # within the rate limit: the clocks start when the move is sent
                    await asyncio.sleep(pause)
                waiting = last_sent = time.monotonic()
                sent[waiting_for] = (waiting, move)
                await ws.send(json.dumps({"type": "move", "token": token,
                                          "decision": waiting_for, "move": move}))  # fmt: skip
    return False


def status(pid: int) -> dict[str, str]:
    text = Path(f"/proc/{pid}/status").read_text()
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.append(child)
                todo.append(child)
    return found


def cpu(pid: int) -> float:
    """Seconds of CPU of the process (user + system)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def usage(pid: int) -> dict[str, float]:
    kids = descendants(pid)
    rss = 0
    for kid in kids:
        with contextlib.suppress(OSError, KeyError):
            rss += int(status(kid)["VmRSS"].split()[0])
    mine = status(pid)
    return {"server_cpu": cpu(pid), "workers_cpu": sum(cpu(k) for k in kids),
            "server_rss": int(mine["VmRSS"].split()[0]) / 1024,
            "server_hwm": int(mine["VmHWM"].split()[0]) / 1024,
            "workers_rss": rss / 1024, "workers": len(kids)}  # fmt: skip


def stored_moves(db: Path | str) -> int:
    if isinstance(db, str):
        import psycopg

        with psycopg.connect(db) as connection:
            row = connection.execute("SELECT COUNT(*) FROM moves").fetchone()
            return int(row[0]) if row else 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


def lost(db: Path | str, acked: list[tuple[str, int, str]]) -> int:
    if isinstance(db, str):
        import psycopg

        with psycopg.connect(db) as connection:
            rows = connection.execute("SELECT game_id, number, move FROM moves").fetchall()
    else:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            rows = connection.execute("SELECT game_id, number, move FROM moves").fetchall()
    kept = {(g, n, m) for g, n, m in rows}
    return sum(1 for entry in acked if entry not in kept)


def spread(values: list[float]) -> dict[str, float | None]:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0, "p50": None, "p99": None, "max": None}
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"n": len(ordered), "p50": round(1000 * statistics.median(ordered), 1),
            "p99": round(1000 * p99, 1), "max": round(1000 * ordered[-1], 1)}  # fmt: skip


def total(usages: list[dict[str, float]]) -> dict[str, float]:
    """Several server processes' usage: CPU and memory summed, the largest peak."""
    summed = {key: sum(u[key] for u in usages) for key in usages[0]}
    summed["server_hwm"] = max(u["server_hwm"] for u in usages)
    return summed


async def run(games: int, bots: list[str], seconds: float, *, idle: int = 0,
              beside: list[str] | None = None, beside_games: int = 0,
              workers: int | None = None, profile: str = "", postgres: str | None = None,
              processes: int = 1) -> dict[str, Any]:  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="tajmahal-web-load-") as folder:
        db: Path | str = postgres or Path(folder) / "games.sqlite3"
        servers = [start_server(Path(folder), workers, profile, postgres)
                   for _ in range(processes)]  # fmt: skip
        process, port = servers[0]
        ports = [p for _, p in servers]

        def usage_all() -> dict[str, float]:
            return total([usage(p.pid) for p, _ in servers])

        try:
            loop = asyncio.get_running_loop()
            await asyncio.sleep(WARM_UP)  # the server's bot workers import the library
            started = usage_all()
            for k in range(beside_games):
                await loop.run_in_executor(None, create, port, beside or [], games + idle + k)
            people: list[tuple[str, str]] = []
            count = idle or games
            seats_for = [{"human": True, "name": "person"}, *bots]
            t0 = time.monotonic()
            for n in range(count):
                game, token = await loop.run_in_executor(
                    None, create, ports[n % len(ports)], seats_for, n
                )
                assert token is not None
                people.append((game, token))
            creating = time.monotonic() - t0
            created = usage_all()
            tally = Tally()
            if idle:
                events = [asyncio.Event() for _ in people]
                deadline = time.monotonic() + 3600
                tasks = [loop.create_task(person(port, g, t, n, deadline, tally, events[n]))
                         for n, (g, t) in enumerate(people)]  # fmt: skip
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 600)
                await asyncio.sleep(2)
                measured = usage_all()
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                return {"idle_games": idle, "load": load(),
                        "create_ms_per_game": round(1000 * creating / idle, 1),
                        "server_cpu_per_created_game_ms": round(
                            1000 * (created["server_cpu"] - started["server_cpu"]) / idle, 1),
                        "server_rss_mib": round(measured["server_rss"], 1),
                        "server_hwm_mib": round(measured["server_hwm"], 1),
                        "workers_rss_mib": round(measured["workers_rss"], 1),
                        "workers": measured["workers"],
                        "mean_message_bytes": round(statistics.mean(tally.sizes)) if tally.sizes
                        else None}  # fmt: skip
            load_before = load()
            client_before = time.process_time()
            before = usage_all()
            moves_before = stored_moves(db)
            start = time.monotonic()
            deadline = start + seconds
            results = await asyncio.gather(*(
                person(random.Random(-n).choice(ports), g, t, n, deadline, tally)
                for n, (g, t) in enumerate(people)
            ), return_exceptions=True)  # fmt: skip
            elapsed = time.monotonic() - start
            client_cpu = time.process_time() - client_before
            after = usage_all()
            load_after = load()
            moves_after = stored_moves(db)
        finally:
            for process, _ in servers:
                if profile:
                    process.send_signal(signal.SIGTERM)
                else:
                    process.kill()  # kill -9: what was acknowledged must be in the database
                process.wait(60)
        missing = lost(db, tally.acked)
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    decisions = moves_after - moves_before
    server_cpu = after["server_cpu"] - before["server_cpu"]
    workers_cpu = after["workers_cpu"] - before["workers_cpu"]
    return {
        "games": games, "bots": bots, "processes": processes,
        "database": "PostgreSQL" if postgres else "SQLite",
        "beside": f"{beside_games} x {','.join(beside or [])}" if beside_games else None,
        "load_before": load_before, "load_after": load_after,
        "seconds": round(elapsed, 1),
        "finished_games": sum(1 for r in results if r is True),
        "decisions": decisions,
        "decisions_per_s": round(decisions / elapsed, 1),
        "person_moves_acked": len(tally.acked),
        "ack_ms": spread(tally.acks),
        "turn_ms": spread(tally.turns),
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "server_cpu_ms_per_decision": round(1000 * server_cpu / max(1, decisions), 2),
        "workers_cpu_s": round(workers_cpu, 2),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "server_cpu_per_created_game_ms": round(
            1000 * (created["server_cpu"] - started["server_cpu"]) / max(1, count), 1),
        "server_rss_mib": round(after["server_rss"], 1),
        "server_hwm_mib": round(after["server_hwm"], 1),
        "workers_rss_mib": round(after["workers_rss"], 1),
        "workers": after["workers"],
        "mean_message_bytes": round(statistics.mean(tally.sizes)) if tally.sizes else None,
        "mean_later_message_bytes": round(statistics.mean(tally.later_sizes))
        if tally.later_sizes else None,
        "state_messages_per_decision": round(len(tally.sizes) / max(1, decisions), 2),
        "state_bytes_per_decision": round(sum(tally.sizes) / max(1, decisions)),
        "errors": len(tally.errors) + len(failures),
        "error_examples": (tally.errors + failures)[:3],
        "lost_moves": missing,
    }  # fmt: skip


def show(result: dict[str, Any]) -> None:
    if "idle_games" in result:
        print(f"{result['idle_games']} connected idle games ({result['load']}): server "
              f"{result['server_rss_mib']} MiB (peak {result['server_hwm_mib']}), "
              f"{result['workers']} workers {result['workers_rss_mib']} MiB; "
              f"creating a game {result['create_ms_per_game']} ms wall, "
              f"{result['server_cpu_per_created_game_ms']} ms server CPU; "
              f"mean message {result['mean_message_bytes']} B")
        return
    ack, turn = result["ack_ms"], result["turn_ms"]
    beside = f", beside {result['beside']}" if result["beside"] else ""
    where = f"{result['processes']} process(es) on {result['database']}: "
    print(f"{where}{result['games']} games ({', '.join(result['bots'])} beside one person"
          f"{beside}), {result['seconds']} s; {result['load_before']} -> {result['load_after']}")
    print(f"  ack      p50 {ack['p50']} ms, p99 {ack['p99']} ms, max {ack['max']} ms "
          f"({ack['n']} acks)")
    print(f"  turn     p50 {turn['p50']} ms, p99 {turn['p99']} ms, max {turn['max']} ms")
    print(f"  decisions {result['decisions']} ({result['decisions_per_s']}/s), finished games "
          f"{result['finished_games']}")
    print(f"  CPU      server {result['server_cpu_s']} s ({result['server_cpu_share']} of wall, "
          f"{result['server_cpu_ms_per_decision']} ms a decision), workers "
          f"{result['workers_cpu_s']} s, load client {result['client_cpu_share']} of wall; "
          f"creating a game {result['server_cpu_per_created_game_ms']} ms server CPU")
    print(f"  memory   server {result['server_rss_mib']} MiB (peak {result['server_hwm_mib']}), "
          f"{result['workers']} workers {result['workers_rss_mib']} MiB")
    print(f"  messages mean {result['mean_message_bytes']} B ({result['mean_later_message_bytes']}"
          f" B but the first, full one); a decision: {result['state_messages_per_decision']} "
          f"state messages, {result['state_bytes_per_decision']} B (one page a game)")
    print(f"  errors {result['errors']} {result['error_examples'] or ''}, lost moves "
          f"{result['lost_moves']}")


def postgres_runs(counts: list[int], url: str, games: int, bots: list[str], seconds: float,
                  workers: int | None) -> list[dict[str, Any]]:  # fmt: skip
    """One run per count of server processes, each on a fresh schema of one database."""
    import psycopg

    cluster = None
    if not url:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from postgres_cluster import Cluster, find_bindir

        bindir = find_bindir()
        if bindir is None:
            raise SystemExit("--postgres needs PostgreSQL (Debian's postgresql) or --db URL")
        cluster = Cluster(bindir, fsync="on", full_page_writes="on")
    results = []
    try:
        for n, count in enumerate(counts):
            if cluster is not None:
                address = cluster.url(cluster.new_schema())
            else:
                schema = f"load_{os.getpid()}_{n}"
                with psycopg.connect(url, autocommit=True) as admin:
                    admin.execute(f"CREATE SCHEMA {schema}")
                joiner = "&" if "?" in url else "?"
                address = f"{url}{joiner}options=-csearch_path%3D{schema}"
            results.append(asyncio.run(run(games, bots, seconds, workers=workers,
                                           postgres=address, processes=count)))  # fmt: skip
    finally:
        if cluster is not None:
            cluster.stop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games at once (default 50)")
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="stop after this long (default 30)")  # fmt: skip
    parser.add_argument("--bots", default="greedy,random",
                        help="the bot seats beside the person (default greedy,random)")
    parser.add_argument("--idle", type=int, default=0, metavar="N",
                        help="instead: N connected games where nobody moves (memory)")
    parser.add_argument("--pair", action="store_true",
                        help="instead: one person's game alone, then beside --beside games")
    parser.add_argument("--beside", default="ismcts:iterations=3000",
                        help="the bots of the games beside (--pair)")
    parser.add_argument("--beside-games", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None,
                        help="the server's bot worker processes (default: its own default)")
    parser.add_argument("--profile", metavar="FILE", default="",
                        help="run the server under cProfile; print where its time went")
    parser.add_argument("--postgres", metavar="N,M", default="",
                        help="instead: PostgreSQL, with N server processes, then M (e.g. 1,2)")
    parser.add_argument("--db", metavar="URL", default="",
                        help="with --postgres: an empty PostgreSQL database to use (default: "
                        "a cluster of its own in a temporary folder)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON ('-': stdout)")
    args = parser.parse_args()
    bots = args.bots.split(",")
    results: list[dict[str, Any]] = []
    profile = str(Path(args.profile).resolve()) if args.profile else ""
    if args.idle:
        results.append(asyncio.run(run(0, bots, 0, idle=args.idle, workers=args.workers)))
    elif args.postgres:
        counts = [int(part) for part in args.postgres.split(",")]
        results += postgres_runs(counts, args.db, args.games, bots, args.seconds, args.workers)
    elif args.pair:
        pair_bots = ["random", "random"]
        results.append(asyncio.run(run(1, pair_bots, args.seconds, workers=args.workers)))
        results.append(asyncio.run(run(1, pair_bots, args.seconds, workers=args.workers,
                                       beside=[args.beside] * 3,
                                       beside_games=args.beside_games)))  # fmt: skip
    else:
        results.append(asyncio.run(run(args.games, bots, args.seconds, workers=args.workers,
                                       profile=profile)))  # fmt: skip
    if args.json == "-":
        print(json.dumps(results, indent=2))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    for result in results:
        show(result)
    if args.pair:
        alone, beside = (r["ack_ms"]["p50"] for r in results)
        if alone and beside:
            print(f"ack p50 beside / alone: {beside / alone:.2f}")
    if profile:
        print(f"\nwhere the server's time went (cProfile, {profile}):")
        stats = pstats.Stats(profile)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
