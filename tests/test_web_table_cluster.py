"""A person's clock on the PostgreSQL cluster (issue 49): several ``tajmahal serve`` processes
on one database, the person's page on a process that does not hold the game.

At zero the move is played once, by the process that holds the game (a replica's clock only
shows the time); after ``kill -9`` of the holder the process that takes the game over plays
it.  Real server processes on loopback ports, the session's real PostgreSQL.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from postgres_cluster import Cluster
from tajmahal.web.stores.postgres import PostgresStore
from web_server import Client, Server, token_of

WAIT = 120.0  # seconds for what should come within a few on an idle machine
CLOCK = {"kind": "move", "seconds": 5, "at_zero": "autopilot"}  # the shortest clock allowed
SEATS = [{"human": True, "name": "Ann"}, "random", "random"]


@pytest.fixture
def servers(postgres_cluster: Cluster) -> Iterator[tuple[str, Callable[[int], list[Server]]]]:
    database = postgres_cluster.url(postgres_cluster.new_schema())
    started: list[Server] = []

    def start(count: int) -> list[Server]:
        for _ in range(count):
            started.append(Server(database, "--lease-ttl", "2", "--bot-workers", "1",
                                  "--log-level", "info"))  # fmt: skip
        return started[-count:]

    yield database, start
    for server in started:
        server.stop()
        print(f"--- server ({server.url}), its last lines:", *server.lines[-40:], sep="\n")


def stored(database: str, game_id: str) -> tuple[int | None, list[Any]]:
    """The process id holding the game (None: nobody) and its stored moves."""
    store = PostgresStore(database)
    try:
        lease, game = store.holder(game_id), store.load(game_id)
    finally:
        store.close()
    assert game is not None
    return (None if lease is None else int(lease.holder.split(":")[-2])), list(game.moves)


def until(condition: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while not (found := condition()):
        assert time.monotonic() < deadline, f"waited {WAIT} s for {what}"
        time.sleep(0.1)
    return found


def timed_out(client: Client, decision: int) -> dict[str, Any]:
    """Ann's page until the move at zero of ``decision`` is in its state."""
    return client.until(lambda m: m["type"] == "state" and m["decision"] >= decision, WAIT)


def zero_lines(server: Server) -> list[str]:
    return [line for line in server.lines if "the clock ran out" in line
            or "at zero" in line]  # fmt: skip


def a_clocked_game(
    servers: tuple[str, Callable[[int], list[Server]]],
) -> tuple[str, str, Server, Server]:
    """Two processes and a game on Ann's clock: its id, Ann's token, the process that holds
    the game and the other one."""
    database, start = servers
    first, second = start(2)
    created = first.create(SEATS, clock=CLOCK)
    game_id = created["id"]
    holder = until(lambda: stored(database, game_id)[0], "a process to hold the game")
    held_by = first if first.process and first.process.pid == holder else second
    return game_id, token_of(created["seats"][0]["link"]), held_by, (
        second if held_by is first else first)


def test_at_zero_the_holder_plays_the_move_once_for_a_page_on_a_replica(
    servers: tuple[str, Callable[[int], list[Server]]],
) -> None:
    database = servers[0]
    game_id, token, here, there = a_clocked_game(servers)
    ann = there.client(token)  # Ann's page on the process that does not hold the game
    try:
        state = ann.my_turn()
        assert state["clocks"][0]["running"]
        number = state["decision"] + 1
        after = timed_out(ann, number)
        moves = {m.number: m for m in stored(database, game_id)[1]}
        assert moves[number].seat == 0 and moves[number].fault["kind"] == "timeout"
        assert after["decision"] >= number
        time.sleep(2.0)  # the replica's own countdown has passed too: nothing more from it
    finally:
        ann.close()
    assert len(zero_lines(here)) >= 1 and not zero_lines(there), zero_lines(there)
    assert not [line for line in there.lines if "Traceback" in line or "ERROR" in line]


def test_after_kill_9_of_the_holder_the_process_that_takes_the_game_plays_the_move_at_zero(
    servers: tuple[str, Callable[[int], list[Server]]],
) -> None:
    database = servers[0]
    game_id, token, doomed, survivor = a_clocked_game(servers)
    ann = survivor.client(token)
    try:
        state = ann.my_turn()
        number = state["decision"] + 1
        doomed.stop(signal.SIGKILL)  # Ann's clock runs; nobody holds the game for a while
        timed_out(ann, number)
        moves = {m.number: m for m in stored(database, game_id)[1]}
        assert moves[number].seat == 0 and moves[number].fault["kind"] == "timeout"
        assert stored(database, game_id)[0] == survivor.process.pid  # type: ignore[union-attr]
    finally:
        ann.close()
    assert len(zero_lines(survivor)) == 1, zero_lines(survivor)
