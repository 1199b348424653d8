"""The arena on the PostgreSQL cluster (issue #48): two ``tajmahal serve --arena`` processes
on one real PostgreSQL database. A remote bot connected to one process plays seats of games
held by the other (its answers handed over), one process schedules at a time, and when the
scheduler's process is killed with ``kill -9`` the other takes the schedule over: the games
go on, each is rated once. No timing assertions: the waits are generous.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cluster_faults import until
from postgres_cluster import Cluster
from web_server import Server

TTL = "2"
OPTIONS = ("--arena", "--arena-games", "2", "--lease-ttl", TTL, "--time-limit", "5",
           "--bot-workers", "1", "--log-level", "info")  # fmt: skip
SCHEDULES = "this process schedules the arena's games"
HANDED = "handed to the process that plays it"


@pytest.fixture
def servers() -> Iterator[Callable[[str], Server]]:
    started: list[Server] = []

    def start(database: str) -> Server:
        started.append(Server(database, *OPTIONS))  # type: ignore[arg-type]  # (a URL)
        return started[-1]

    yield start
    for server in started:
        pid = server.process.pid if server.process is not None else None
        server.stop()
        print(f"--- server {pid}, its last lines:", *server.lines[-40:], sep="\n")


def tajmahal(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tajmahal", *words], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip


def lines(server: Server) -> str:
    return "\n".join(server.lines)


def started_by(server: Server) -> set[str]:
    return {line.split("arena: game ")[1].split()[0] for line in server.lines
            if "arena: game " in line and " started: " in line}  # fmt: skip


def test_a_bot_on_one_process_plays_games_held_by_another_and_the_schedule_survives_kill_9(
    postgres_cluster: Cluster, servers: Callable[[str], Server], tmp_path: Path
) -> None:
    from tajmahal.web.stores.postgres_arena import PostgresArenaStore

    schema = postgres_cluster.new_schema()
    database = postgres_cluster.url(schema)
    token_file = tmp_path / "remote.token"
    for words in (("remote", "--token-file", str(token_file)), ("house-greedy", "--house",
                  "greedy"), ("house-random", "--house", "random")):  # fmt: skip
        done = tajmahal("arena", "add-bot", *words, "--db", database)
        assert done.returncode == 0, done.stderr
    listed = tajmahal("arena", "list", "--db", database)
    assert listed.returncode == 0 and "house-greedy" in listed.stdout
    token = token_file.read_text().strip()
    store = PostgresArenaStore(postgres_cluster.dsn(schema))
    with ThreadPoolExecutor(2) as starting:  # both at once; one of them takes the schedule
        both = list(starting.map(lambda _: servers(database), range(2)))
    until(lambda: any(SCHEDULES in lines(server) for server in both), "a process to schedule")
    first = next(server for server in both if SCHEDULES in lines(server))  # the scheduler
    second = next(server for server in both if server is not first)
    log = tmp_path / "bot.log"
    bot = subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "bot", "connect", second.url, "greedy",
         "--token-file", str(token_file), "--games", "1000", "--concurrency", "4"],
        stdout=log.open("w"), stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        # games the first process holds, the bot's answers handed over from the second
        until(lambda: HANDED in lines(second) and any(
            "remote" in g.bots for g in store.games(rated=True)), "a game played across")
        assert SCHEDULES not in lines(second)  # one scheduler at a time
        # the first process knows the bot is online on the second (4 games at once, at most 2
        # of them the arena's): a person may challenge it
        status, _, body = first.request("/api/arena/challenge", {"bot": "remote", "name": "Ann"})
        assert status == 201, body
        assert first.process is not None
        first.stop(signal.SIGKILL)
        interrupted = {game for game, _, rated in store.playing() if rated}
        until(lambda: SCHEDULES in lines(second), "the second process to take the schedule",
              seconds=120)  # fmt: skip
        until(lambda: started_by(second), "the schedule to go on", seconds=240)
        # the killed process's games, taken over, end and are rated by the new scheduler
        until(lambda: not interrupted & {g for g, _, _ in store.playing()},
              "the killed process's games to end", seconds=240)  # fmt: skip
        bot.send_signal(signal.SIGINT)
        bot.wait(60)
    finally:
        if bot.poll() is None:
            bot.kill()
    games = store.games()
    rated = [g for g in games if g.rated]
    assert {g.game_id for g in games if g.game_id in interrupted} <= {g.game_id for g in rated}
    for game in rated:  # each game rated once: one history point per seat, games counted once
        points = [p for name in game.bots for p in store.history(name) if p.game_id == game.game_id]
        assert len(points) == len(game.bots)
    for bot_row in store.bots():
        assert bot_row.games == sum(bot_row.name in g.bots for g in rated)
    status = json.loads(second.request("/api/arena/leaderboard")[2])
    assert {b["name"] for b in status["bots"]} == {"remote", "house-greedy", "house-random"}
    store.close()
    for server in (first, second):
        assert token not in lines(server) and "tmb_" not in lines(server)
        assert "fault: seat" not in lines(server) or ": protocol:" not in lines(server)


def test_the_cluster_store_rates_a_game_once_and_loses_no_update_and_has_one_scheduler(
    postgres_cluster: Cluster,
) -> None:
    from tajmahal.arena import rate_game
    from tajmahal.web.stores.postgres import PostgresStore
    from tajmahal.web.stores.postgres_arena import PostgresArenaStore

    dsn = postgres_cluster.dsn(postgres_cluster.new_schema())
    stores = [PostgresArenaStore(dsn) for _ in range(2)]  # two processes' connections
    first, second = stores
    for name in ("a", "b", "c"):
        first.add_bot(name, house="random")
    first.add_game("g1", ["a", "b", "c"], "w1")
    with ThreadPoolExecutor(2) as pool:  # the same game, rated by both at once
        results = list(pool.map(lambda store: store.rate_once("g1", [1, 2, 3]), stores))
    assert sum(result is not None for result in results) == 1
    (once,) = [result for result in results if result is not None]
    first.add_game("g2", ["a", "b", "c"], "w2")
    second.add_game("g3", ["c", "a", "b"], "w3")
    with ThreadPoolExecutor(2) as pool:  # two games of the same bots at once: no lost update
        both = list(pool.map(lambda job: job[0].rate_once(job[1], [1, 2, 3]),
                             [(first, "g2"), (second, "g3")]))  # fmt: skip
    assert all(result is not None for result in both)
    after_g2 = rate_game(once, [1, 2, 3])  # a, b, c
    then_g3 = rate_game([after_g2[2], after_g2[0], after_g2[1]], [1, 2, 3])  # c, a, b
    after_g3 = rate_game([once[2], once[0], once[1]], [1, 2, 3])
    then_g2 = rate_game([after_g3[1], after_g3[2], after_g3[0]], [1, 2, 3])
    final = {bot.name: (bot.mu, bot.sigma) for bot in first.bots()}
    one_way = {"a": then_g3[1], "b": then_g3[2], "c": then_g3[0]}
    other_way = {"a": then_g2[0], "b": then_g2[1], "c": then_g2[2]}
    assert any(all(final[n] == pytest.approx(order[n]) for n in final)
               for order in (one_way, other_way))  # fmt: skip
    assert {bot.name: bot.games for bot in first.bots()} == {"a": 3, "b": 3, "c": 3}
    assert [len(first.history(n)) for n in ("a", "b", "c")] == [3, 3, 3]
    assert first.schedule_lease("p1", 30) and not second.schedule_lease("p2", 30)
    assert first.schedule_lease("p1", 30)  # renewed by its holder
    first.release_schedule("p1")
    assert second.schedule_lease("p2", 30)
    game_store = PostgresStore(dsn)
    game_store.beat("p1", 30)
    first.announce("p1", {"a": 2})
    second.announce("dead", {"a": 5})  # a process without a heartbeat: not counted
    assert first.online(30) == {"a": 2}
    game_store.close()
    for store in stores:
        store.close()
