"""The PostgreSQL cluster under faults (issue 46), with real server processes on a real
PostgreSQL: a listener cut while a person undoes (no replica forks), PostgreSQL restarted
under the servers (a clear 503, then the first move after it played), a holder frozen with
SIGSTOP inside its leases, load spread over the processes, and a short fault-injection run
(:mod:`cluster_faults`: the same harness as ``benchmarks/cluster_soak.py``). No timing
assertions: the waits are generous, only what happens and in what order is checked.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cluster_faults import (
    FAULTS,
    Person,
    health,
    hold_counts,
    run_faults,
    stored_moves,
    until,
)
from postgres_cluster import Cluster, find_bindir
from web_server import Client, Server, token_of

TTL = "2"
SEATS = [{"human": True, "name": "Ann"}, "greedy", "random"]


@pytest.fixture
def database(postgres_cluster: Cluster) -> str:
    return postgres_cluster.url(postgres_cluster.new_schema())


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A PostgreSQL of this test's own (it is restarted: the session's one is shared)."""
    pytest.importorskip("psycopg")
    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed")
    cluster = Cluster(bindir)
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def servers() -> Iterator[Callable[..., list[Server]]]:
    started: list[Server] = []

    def start(database: str, count: int) -> list[Server]:
        for _ in range(count):
            started.append(Server(database, "--lease-ttl", TTL, "--bot-workers", "1",
                                  "--time-limit", "5", "--log-level", "info"))  # fmt: skip
        return started[-count:]

    yield start
    for server in started:
        pid = server.process.pid if server.process is not None else None
        if server.process is not None:
            os.kill(server.process.pid, signal.SIGCONT)
        server.stop()
        print(f"--- server {pid} ({server.url}), its last lines:", *server.lines[-60:], sep="\n")


def first_state(server: Server, token: str) -> dict[str, Any]:
    """What a page opening ``token`` on ``server`` is shown first (the whole state)."""
    client = server.client(token)
    try:
        return client.until(lambda m: m["type"] == "state")
    finally:
        client.close()


def test_a_replica_that_missed_an_undo_reads_the_game_again_and_a_takeover_goes_on_from_it(
    database: str, postgres_cluster: Cluster, servers: Callable[..., list[Server]]
) -> None:
    # before: B's listening connection dropped while Ann undid a move and played another;
    # B kept a game that never was ("stored move N does not follow"), and after the holder
    # died B continued from it and refused every move of that game for good
    started = servers(database, 2)
    created = started[0].create(SEATS)
    game_id, token = created["id"], token_of(created["seats"][0]["link"])
    until(lambda: sum(health(s)["cluster"]["held"] for s in started) == 1, "a holder")
    holder = next(s for s in started if health(s)["cluster"]["held"] == 1)
    replica = next(s for s in started if s is not holder)
    spectator_link = token_of(created["spectator"])
    ann = Person(holder, token)
    watcher = replica.client(spectator_link)  # B keeps a copy of the game: someone watches
    try:
        for _ in range(2):
            ann.play(0)
        # at least as far as Ann's page: the bots may have played on since Ann read it, and a
        # page's state messages can cover several decisions at once
        until(lambda: (watcher.state or {}).get("decision", -1) >= ann.state["decision"],
              "B's page to show Ann's moves", reader=lambda: watcher.next(1.0))  # fmt: skip
        listener = health(replica)["cluster"]["listener_pid"]
        assert replica.process is not None
        os.kill(replica.process.pid, signal.SIGSTOP)  # B hears nothing from here
        assert postgres_cluster.terminate("pid = %s", listener) == 1
        undone = ann.undo()
        ann.play(-1)  # another move than the one taken back: the game is another one now
        os.kill(replica.process.pid, signal.SIGCONT)
        until(lambda: health(replica)["cluster"]["relistens"] >= 1
              and health(replica)["cluster"]["behind"] is None, "B to listen again and re-sync")
        stored = stored_moves(database, game_id)
        assert len(stored) >= undone  # (the undo went through, then more moves)
        shown = {first_state(s, spectator_link)["decision"] for s in (holder, replica)}
        assert shown == {len(stored)}
        assert first_state(replica, spectator_link) == first_state(holder, spectator_link)
        # the holder dies: B takes the game over from the store's game and it goes on
        holder.stop(signal.SIGKILL)
        until(lambda: health(replica)["cluster"]["held"] == 1, "B to take the game over")
        ann.close()
        ann = Person(replica, token)
        before = ann.state["decision"]
        for _ in range(2):
            if ann.state["over"]:
                break
            ann.play(0)
        assert ann.state["decision"] > before
        stored = stored_moves(database, game_id)
        assert sorted(stored) == list(range(1, len(stored) + 1))
        for number, move in ann.acknowledged.items():
            assert stored[number] == (0, move)
    finally:
        ann.close()
        watcher.close()


def test_postgresql_restarted_under_the_servers_is_a_clear_503_then_the_game_goes_on(
    own_cluster: Cluster, servers: Callable[..., list[Server]]
) -> None:
    # before: the seat page, the WebSocket handshake and a finished game's record answered
    # 500 with a traceback while the database was away, and the first move after it came
    # back was refused ("cannot write the game database")
    database = own_cluster.url(own_cluster.new_schema())
    (server,) = servers(database, 1)
    created = server.create(SEATS)
    token = token_of(created["seats"][0]["link"])
    ann = Person(server, token)
    try:
        ann.play(0)
        own_cluster._halt()  # PostgreSQL is away
        for path in (f"/play/{token}", f"/record/{token}", "/api/games"):
            status, headers, body = server.request(path)
            assert status == 503, (path, body)
            assert headers.get("retry-after") == "5"
            assert "try again" in json.loads(body)["error"] and b"Traceback" not in body
        refused = Client(server, token_of(created["spectator"]))
        try:
            message = refused.until(lambda m: m["type"] == "error")
            assert "try again" in message["message"]
        finally:
            refused.close()
        assert not any("Traceback" in line for line in server.lines)
        own_cluster._serve()  # back
        until(lambda: health(server)["cluster"]["behind"] is None, "the server to re-sync")
        ann.play(0)  # the first move after the restart is played
        assert ann.errors == []
        stored = stored_moves(database, created["id"])
        for number, move in ann.acknowledged.items():
            assert stored[number] == (0, move)
    finally:
        ann.close()


def test_a_holder_frozen_inside_a_transaction_blocks_no_other_process(
    database: str, servers: Callable[..., list[Server]]
) -> None:
    # before: a holder frozen (SIGSTOP) inside a transaction kept its lease row locked, and
    # the other process's one lease thread waited on it, its own renewals too: the other
    # process's leases expired in a cascade
    import psycopg

    frozen, other = servers(database, 2)
    locked, kept = frozen.create(SEATS)["id"], other.create(SEATS)["id"]
    names = {health(s)["cluster"]["process"]: s for s in (frozen, other)}

    def holders() -> dict[str, tuple[str, int]]:
        with psycopg.connect(database, autocommit=True) as db:
            rows = db.execute("SELECT game_id, holder, epoch FROM leases WHERE holder IS NOT "
                              "NULL AND expires > clock_timestamp()").fetchall()  # fmt: skip
        return {game: (holder, epoch) for game, holder, epoch in rows}

    until(lambda: {g: names[h] for g, (h, _) in holders().items()}
          == {locked: frozen, kept: other}, "each process to hold its own game")  # fmt: skip
    keeper = holders()[kept]
    with psycopg.connect(database) as inside:  # the frozen holder's open transaction
        inside.execute("SELECT 1 FROM leases WHERE game_id = %s FOR SHARE", (locked,))
        assert frozen.process is not None
        os.kill(frozen.process.pid, signal.SIGSTOP)
        try:
            until(lambda: health(other)["cluster"]["failures"] >= 3,
                  "the other process to try the locked game several times")  # fmt: skip
            assert holders().get(kept) == keeper  # renewed all along: never lost
            inside.rollback()  # (the server ends a transaction idle past its timeout)
            until(lambda: holders().get(locked, ("", 0))[0] in names
                  and names[holders()[locked][0]] is other, "the other to take it over")
        finally:
            os.kill(frozen.process.pid, signal.SIGCONT)
    until(lambda: health(frozen)["cluster"]["held"] <= 1, "the frozen one to learn it")
    for game in (locked, kept):
        moves = stored_moves(database, game)
        assert sorted(moves) == list(range(1, len(moves) + 1))


def test_a_process_that_joins_receives_its_share_of_the_games(
    database: str, servers: Callable[..., list[Server]]
) -> None:
    # before: the first process to scan took every unheld game, and one that joined later
    # received none
    (first,) = servers(database, 1)
    for _ in range(6):
        first.create([{"human": True, "name": "Ann"}, "random", "random"])
    until(lambda: sorted(hold_counts(database).values()) == [6], "one process to hold all")
    servers(database, 1)  # a second process joins
    until(lambda: sorted(hold_counts(database).values()) == [3, 3],
          "the games spread over both processes")  # fmt: skip


def test_a_short_fault_injection_run_loses_nothing_and_forks_nothing(
    own_cluster: Cluster,
) -> None:
    result = run_faults(own_cluster, seconds=8, least=len(FAULTS), games=3, processes=3,
                        seed=46, every=(0.5, 1.5))  # every kind of fault once  # fmt: skip
    print(result.report())
    assert result.problems == [], result.report()
    assert result.acknowledged > 0 and set(result.faults) == set(FAULTS)
