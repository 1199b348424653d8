"""Several ``tajmahal serve`` processes on one PostgreSQL database (issue 39), on the session's
real cluster: real server processes on loopback ports, real WebSocket clients.

A person on one process and a spectator on another see the same moves; a move sent to a
process that does not hold the game is played by the one that does; ``kill -9`` of the
holder while a person plays: another process takes the game over, the bots go on, and
every acknowledged move is in the database. Short leases keep the tests short; the only
timing bounds are generous ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

import tajmahal as tm
from postgres_cluster import Cluster
from tajmahal.web import GameConfig, ServerSettings
from tajmahal.web.cluster import ClusterServer, ClusterTable
from tajmahal.web.stores.postgres import PostgresStore
from tajmahal.web.table import Rejected
from web_server import Client, Server, run_async, token_of

WAIT = 120.0  # seconds for anything that should come within a few seconds on an idle machine
TTL = "2"  # the processes' leases: a dead holder's games move on after about that
SEATS = [{"human": True, "name": "Ann"}, "greedy", "random"]


@pytest.fixture
def database(postgres_cluster: Cluster) -> str:
    return postgres_cluster.url(postgres_cluster.new_schema())


@pytest.fixture
def servers(database: str) -> Iterator[Callable[[int], list[Server]]]:
    started: list[Server] = []

    def start(count: int) -> list[Server]:
        for _ in range(count):
            started.append(Server(database, "--lease-ttl", TTL, "--bot-workers", "1",
                                  "--time-limit", "5", "--log-level", "info"))  # fmt: skip
        return started

    yield start
    for server in started:
        pid = server.process.pid if server.process is not None else None
        server.stop()
        # shown by pytest only when the test fails: what each process logged
        print(f"--- server {pid} ({server.url}), its last lines:", *server.lines[-60:], sep="\n")


def holder_pid(database: str, game_id: str) -> int | None:
    """The process id of the server process that holds the game now (None: nobody)."""
    store = PostgresStore(database)
    try:
        lease = store.holder(game_id)
    finally:
        store.close()
    return None if lease is None else int(lease.holder.split(":")[-2])


def taker(database: str, game_id: str, holder: int) -> int | None:
    """The process id holding the game now if it is not ``holder``."""
    now = holder_pid(database, game_id)
    return None if now == holder else now


def until(condition: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = condition()
        if found:
            return found
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.1)


def acks(client: Client) -> list[int]:
    """The decisions the server acknowledged to this client (its moves stored)."""
    messages = (json.loads(text) for text in client.received)
    return [m["decision"] for m in messages if m["type"] == "ack" and "decision" in m]


def reaches(client: Client, decision: int) -> dict[str, Any]:
    """Read the client's messages until its state is at ``decision`` or later."""
    if client.state is not None and client.state["decision"] >= decision:
        return client.state
    return client.until(lambda m: m["type"] == "state" and m["decision"] >= decision, WAIT)


def stored_moves(database: str, game_id: str) -> dict[int, tuple[int, str]]:
    store = PostgresStore(database)
    try:
        stored = store.load(game_id)
    finally:
        store.close()
    assert stored is not None
    return {m.number: (m.seat, m.move) for m in stored.moves}


async def wait(condition: Callable[[], object], what: str) -> None:
    """In a scenario's event loop: until ``condition()`` holds (at most WAIT seconds)."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"waited {WAIT} s for {what}"
        await asyncio.sleep(0.05)


SETTINGS = ServerSettings(lease_ttl=1.0, bot_workers=1, default_time_limit=5.0)
ANN_AND_TWO_BOTS = GameConfig.parse(
    {"seats": [{"human": True, "name": "Ann"}, "random", "random"]}, SETTINGS
)


@contextlib.asynccontextmanager
async def two_cluster_servers(dsn: str) -> AsyncIterator[tuple[ClusterServer, ClusterServer]]:
    """In one interpreter, two cluster servers on one database (no HTTP), short leases."""
    async with contextlib.AsyncExitStack() as started:  # each stopped if a later one fails
        servers = []
        for _ in range(2):
            server = ClusterServer(dsn, SETTINGS)
            await server.start()
            started.push_async_callback(server.stop)
            servers.append(server)
        yield servers[0], servers[1]


def test_a_person_on_one_process_and_a_spectator_on_another_see_the_same_moves(
    database: str, servers: Callable[[int], list[Server]]
) -> None:
    first, second = servers(2)
    created = first.create(SEATS)
    game_id, token = created["id"], token_of(created["seats"][0]["link"])
    holder = until(lambda: holder_pid(database, game_id), "a process to hold the game")
    assert holder in (first.process.pid, second.process.pid)
    here, there = (first, second) if holder == first.process.pid else (second, first)
    person = here.client(token)
    spectator = there.client(token_of(created["spectator"]))
    try:
        state = person.my_turn()
        for _ in range(3):
            if state["over"]:
                break
            state = person.move(choose=len(state["legal"]) - 1)
            seen = reaches(spectator, state["decision"])
            assert seen["decision"] >= state["decision"]
            state = person.my_turn()
            # the spectator sees every decision the person saw: the bots' moves too
            assert reaches(spectator, state["decision"])["decision"] >= state["decision"]
        # a move sent through the process that does not hold the game is played there
        elsewhere = there.client(token)
        try:
            state = elsewhere.my_turn()
            if not state["over"]:
                before = state["decision"]
                after = elsewhere.move(choose=0)
                assert after["decision"] > before and before + 1 in acks(elsewhere)
                assert reaches(person, before + 1)["decision"] > before  # the holder's person
                assert stored_moves(database, game_id)[before + 1][0] == 0
        finally:
            elsewhere.close()
        assert holder_pid(database, game_id) == holder  # played by one process throughout
    finally:
        person.close()
        spectator.close()


def test_a_killed_holders_game_goes_on_in_another_process_and_nothing_acknowledged_is_lost(
    database: str, servers: Callable[[int], list[Server]]
) -> None:
    started = servers(3)
    created = started[0].create(SEATS)
    game_id, token = created["id"], token_of(created["seats"][0]["link"])
    holder = until(lambda: holder_pid(database, game_id), "a process to hold the game")
    doomed = next(s for s in started if s.process.pid == holder)
    others = [s for s in started if s is not doomed]
    person = others[0].client(token)  # the person plays through a process that survives
    spectator = others[1].client(token_of(created["spectator"]))
    played: dict[int, str] = {}
    try:
        state = person.my_turn()
        for _ in range(2):
            decision = state["decision"] + 1
            played[decision] = state["legal"][0]
            state = person.move(choose=0)
            state = person.my_turn()
        doomed.stop(signal.SIGKILL)  # while it is the person's turn: the bots wait on them
        killed = time.monotonic()
        taken = until(lambda: taker(database, game_id, holder), "another process to take it")
        took = time.monotonic() - killed
        assert taken in [s.process.pid for s in others]
        print(f"taken over {took:.1f} s after kill -9 (leases of {TTL} s)")
        assert took < WAIT
        # the game goes on: the person's moves (handed on or played where they connect)
        # and the bots' after them
        while not state["over"]:
            decision = state["decision"] + 1
            played[decision] = state["legal"][len(state["legal"]) // 2]
            state = person.move(choose=len(state["legal"]) // 2)
            state = person.my_turn()
        reaches(spectator, state["decision"])
    finally:
        person.close()
        spectator.close()
    stored = stored_moves(database, game_id)
    acknowledged = acks(person)
    assert set(played) <= set(acknowledged)
    for number in acknowledged:  # every acknowledged move is stored, as it was sent
        assert stored[number] == (0, played[number])
    assert sorted(stored) == list(range(1, len(stored) + 1))
    status, _, body = others[0].request("/record/" + token)
    assert status == 200
    record = tm.loads(body.decode())
    assert tm.replay(record).scores == tuple(state["result"]["scores"])


def test_two_people_each_on_another_process_play_one_game(
    database: str, servers: Callable[[int], list[Server]]
) -> None:
    first, second = servers(2)
    created = first.create([{"human": True, "name": "Ann"}, {"human": True, "name": "Bob"},
                            "random"])  # fmt: skip
    ann = first.client(token_of(created["seats"][0]["link"]))
    bob = second.client(token_of(created["seats"][1]["link"]))
    people = {0: ann, 1: bob}
    try:
        moved = 0
        while moved < 6:  # whoever's turn it is moves, through their own process
            def settled(m: dict[str, Any]) -> bool:
                return m["type"] == "state" and (m["over"] or m["turn"] in people)

            state = ann.state if ann.state and settled(ann.state) else ann.until(settled)
            if state["over"]:
                break
            mover = people[state["turn"]]
            now = mover.my_turn()
            after = mover.move(choose=len(now["legal"]) - 1)
            moved += 1
            assert now["decision"] + 1 in acks(mover)
            for other in people.values():  # both pages see the move
                assert reaches(other, after["decision"])["decision"] >= now["decision"] + 1
        stored = stored_moves(database, created["id"])
        humans = {seat for seat, _ in stored.values()} & {0, 1}
        assert humans == {0, 1}  # both people's moves, each made through their own process
    finally:
        ann.close()
        bob.close()


def test_a_process_that_loses_a_lease_follows_the_game_and_its_moves_are_handed_on(
    postgres_dsn: str,
) -> None:
    # in one interpreter, two cluster servers on one database (no HTTP): A's lease is taken
    # from under it (as if A had been frozen past its expiry); A learns it at its next
    # renewal, stops its bots and follows the game; a move given to the process that does
    # not hold the game is handed on, played and acknowledged
    import functools

    import psycopg

    def stored() -> list[str]:
        return [move for _, move in stored_moves(postgres_dsn, created.id).values()]

    async def scenario() -> None:
        nonlocal created
        async with two_cluster_servers(postgres_dsn) as (a, b):
            created = await a.create(ANN_AND_TWO_BOTS)

            holding: list[ClusterServer] = []  # B takes the game if A misses a renewal

            def ann_to_play() -> bool:
                tables = [(server, server.tables.get(created.id)) for server in (a, b)]
                holding[:] = [server for server, table in tables if isinstance(table, ClusterTable)
                              and table.held and table.state.current_player == 0]  # fmt: skip
                return bool(holding)

            await wait(ann_to_play, "Ann's turn on the process that holds the game")
            a, b = (a, b) if holding[0] is a else (b, a)  # A: the process that held it then
            mine = a.tables[created.id]
            assert isinstance(mine, ClusterTable)
            legal = [str(m) for m in mine.state.legal_moves()]
            await mine.move(0, mine.decision + 1, legal[0])
            with psycopg.connect(postgres_dsn, autocommit=True) as db:  # the lease is taken
                db.execute("UPDATE leases SET holder = 'thief', epoch = epoch + 1 "
                           "WHERE game_id = %s", (created.id,))  # fmt: skip
            await wait(lambda: not mine.held, "A to learn that it lost the game")
            with psycopg.connect(postgres_dsn, autocommit=True) as db:  # the thief lets go
                db.execute("UPDATE leases SET holder = NULL WHERE game_id = %s", (created.id,))
            await wait(lambda: created.id in a.cluster.leases or created.id in b.cluster.leases,
                       "a process to take the game again")  # fmt: skip
            theirs = await b.table(created.id)
            assert isinstance(theirs, ClusterTable)
            for _ in range(3):  # Ann's moves, given to the process that does not hold the game
                def agreed() -> bool:
                    return mine.state.is_over or (
                        mine.state.current_player == 0 and theirs.decision == mine.decision
                        and stored() == [m.move for m in mine.moves])  # fmt: skip

                await wait(agreed, "Ann's turn, on both processes and in the database")
                if mine.state.is_over:
                    break
                acked: list[int] = []
                number = mine.decision + 1
                legal = [str(m) for m in mine.state.legal_moves()]
                giver = theirs if mine.held else mine  # the process that does not play it
                assert not giver.held
                await giver.move(0, number, legal[-1], functools.partial(acked.append, number))
                assert acked == [number]
                assert stored()[number - 1] == legal[-1]
            await wait(lambda: theirs.decision == mine.decision == len(stored()), "agreement")
            assert [m.move for m in theirs.moves] == [m.move for m in mine.moves] == stored()

    created: Any = None
    run_async(scenario())


def test_a_handed_move_is_known_played_from_the_database_and_a_failed_one_is_answered(
    postgres_dsn: str,
) -> None:
    # the holder stores a handed move and dies before its answer goes out: the process that
    # handed it learns from the stored move that it was played (not "no answer" 30 s later);
    # a handed move the holder fails to play (a bug) is answered, and the game goes on
    import functools

    async def scenario() -> None:
        async with two_cluster_servers(postgres_dsn) as (a, b):
            created = await a.create(ANN_AND_TWO_BOTS)
            mine = a.tables[created.id]
            theirs = await b.table(created.id)
            assert isinstance(mine, ClusterTable) and isinstance(theirs, ClusterTable)

            def anns_turn() -> bool:
                return (mine.held and mine.state.current_player == 0
                        and theirs.decision == mine.decision)  # fmt: skip

            async def anns_turn_on_both() -> list[str]:
                await wait(anns_turn, "Ann's turn on A and B")
                return [str(m) for m in theirs.state.legal_moves()]

            legal = await anns_turn_on_both()
            answers: list[object] = []
            a.cluster.store.answer = lambda *args: answers.append(args)  # type: ignore[method-assign]
            acked: list[int] = []
            number = theirs.decision + 1
            await theirs.move(0, number, legal[0], functools.partial(acked.append, number))
            assert acked == [number]
            assert stored_moves(postgres_dsn, created.id)[number] == (0, legal[0])
            await wait(lambda: answers, "A to play it and answer (into nowhere)")
            del a.cluster.store.answer

            async def broken(handed: object) -> str | None:
                raise RuntimeError("a bug in the holder")

            legal = await anns_turn_on_both()
            mine.play_handed = broken  # type: ignore[method-assign]
            with pytest.raises(Rejected, match="could not play it"):
                await theirs.move(0, theirs.decision + 1, legal[0])
            del mine.play_handed
            number = theirs.decision + 1
            await theirs.move(0, number, legal[0])  # the game goes on: handed and played
            assert stored_moves(postgres_dsn, created.id)[number] == (0, legal[0])

    run_async(scenario())


def test_forged_notices_acknowledge_nothing_empty_no_replica_and_silence_no_process(
    postgres_dsn: str,
) -> None:
    # anyone who may connect may NOTIFY: before, deeply nested JSON ended every listener, a
    # forged answer acknowledged a handed move nobody played, a forged undo emptied a replica
    import functools

    import psycopg

    from tajmahal.web.stores.postgres import ANSWERS, DECISIONS

    async def scenario() -> None:
        async with two_cluster_servers(postgres_dsn) as (a, b):
            created = await a.create(ANN_AND_TWO_BOTS)
            mine = a.tables[created.id]
            theirs = await b.table(created.id)
            assert isinstance(mine, ClusterTable) and isinstance(theirs, ClusterTable)
            await wait(lambda: mine.held and mine.state.current_player == 0
                       and theirs.decision == mine.decision, "Ann's turn on A and B")  # fmt: skip
            played = await asyncio.to_thread(stored_moves, postgres_dsn, created.id)
            with psycopg.connect(postgres_dsn, autocommit=True) as hostile:

                def forge(channel: str, payload: object) -> None:
                    text = payload if isinstance(payload, str) else json.dumps(payload)
                    hostile.execute("SELECT pg_notify(%s, %s)", (channel, text))

                for number in (1, 0, -3):
                    forge(DECISIONS, {"game": created.id, "change": "undo", "number": number})
                # a thief holds the game for an hour: a move handed on waits for it
                hostile.execute("UPDATE leases SET holder = 'thief', epoch = epoch + 1, "
                                "expires = now() + interval '1 hour' WHERE game_id = %s",
                                (created.id,))  # fmt: skip
                await wait(lambda: not mine.held, "A to learn that it lost the game")
                acked: list[int] = []
                number = theirs.decision + 1
                legal = [str(m) for m in theirs.state.legal_moves()]
                handing = asyncio.create_task(
                    theirs.move(0, number, legal[0], functools.partial(acked.append, number))
                )
                await wait(lambda: b.cluster._pending, "the move to be handed on")
                ident = next(iter(b.cluster._pending))
                forge(ANSWERS, {"game": created.id, "id": ident})
                forge(ANSWERS, {"game": created.id, "id": ident, "error": None})
                await asyncio.sleep(1.0)  # (heard apart from what follows)
                for channel in (DECISIONS, ANSWERS):
                    forge(channel, "[" * 3999 + "]" * 3999)
                    forge(channel, '{"game":' * 800 + "1" + "}" * 800)
                await asyncio.sleep(1.0)  # (what must not happen had time to happen)
                assert acked == [] and not handing.done()
                assert theirs.decision == mine.decision == len(played)
                assert [m.move for m in theirs.moves] == [move for _, move in played.values()]
                assert a.cluster.listening and b.cluster.listening
                assert b.cluster.ignored >= 4
                hostile.execute("UPDATE leases SET holder = NULL WHERE game_id = %s",
                                (created.id,))  # fmt: skip
            await handing  # a process takes the game back and plays the move: then the ack
            assert acked == [number]
            stored = await asyncio.to_thread(stored_moves, postgres_dsn, created.id)
            assert stored[number] == (0, legal[0])

    run_async(scenario())
