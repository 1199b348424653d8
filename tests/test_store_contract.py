"""One store contract for SQLite and PostgreSQL, through the real server (``tajmahal serve``)
on each: a damaged game row is left out of the lobby's list, an idle game expires and stays
deleted, the limits per address are counted in the database (across a cluster's processes,
and across a restart), and a refusal names the limit. PostgreSQL is the suite's real cluster
(``postgres_cluster`` in conftest.py); ``tests/test_web_stores.py`` holds the store's
own contract (moves, undo, tokens, errors).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from postgres_cluster import Cluster
from tajmahal.web.stores import StoredGame, StoredMove, StoreError, open_store
from web_server import Server

HUMAN = {"human": True, "name": "Ann"}
WAIT = 120.0  # a loaded machine: generous waits, never a timing assertion


@attrs.define
class Database:
    """A database of one kind: its ``--db`` address and a way to run SQL on it directly."""

    kind: str
    address: str
    execute: Callable[[str, tuple[Any, ...]], list[tuple[Any, ...]]]

    def serve(self, *options: str) -> Server:
        return Server(self.address, *options)  # type: ignore[arg-type]  # (a URL or a path)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        path = tmp_path / "games.sqlite3"

        def run_sqlite(sql: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]]:
            with sqlite3.connect(path) as db:
                return db.execute(sql.replace("%s", "?"), values).fetchall()

        yield Database("sqlite", str(path), run_sqlite)
        return
    import psycopg

    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    schema = cluster.new_schema()

    def run_postgres(sql: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with psycopg.connect(cluster.dsn(schema), autocommit=True) as db:
            cursor = db.execute(sql.encode(), values)
            return cursor.fetchall() if cursor.description else []

    yield Database("postgresql", cluster.url(schema), run_postgres)


def listed(server: Server) -> list[str]:
    status, _, body = server.request("/api/games")
    assert status == 200, body
    return [game["id"] for game in json.loads(body)["games"]]


def refusal(server: Server, seats: list[Any]) -> tuple[int, str]:
    status, _, body = server.request("/api/games", {"seats": seats})
    return status, json.loads(body).get("error", "")


def test_a_damaged_game_is_left_out_of_the_lobbys_list(database: Database) -> None:
    server = database.serve()
    try:
        games = [server.create([HUMAN, "random", "random"])["id"] for _ in range(3)]
        for game, damage in zip(games, ["{not json", "[" * 100_000 + "]" * 100_000],
                                strict=False):  # fmt: skip
            database.execute("UPDATE games SET config = %s WHERE id = %s", (damage, game))
        newest = server.create([HUMAN, "random", "random"])["id"]  # the list is read anew
        assert listed(server) == [newest, games[2]]  # for every visitor: never a 500
    finally:
        server.stop()


def test_a_damaged_row_is_named_when_loaded(database: Database) -> None:
    store = open_store(database.address)
    try:
        store.create_game(StoredGame("g1", {"seats": []}, 7, 1.0), [])
        store.create_game(StoredGame("g2", {"seats": []}, 7, 2.0), [])
        store.add_move("g2", StoredMove(1, 0, "withdraw", 0.1, {"kind": "timeout"}))
        database.execute("UPDATE games SET config = %s WHERE id = %s", ("[" * 100_000, "g1"))
        database.execute("UPDATE moves SET fault = %s WHERE game_id = %s", ("{oops", "g2"))
        with pytest.raises(StoreError, match="game g1 is damaged in the database: its settings"):
            store.load("g1")
        with pytest.raises(StoreError, match=r"game g2 is damaged .*: its move 1.s fault are not"):
            store.load("g2")
        assert [game.id for game in store.recent(10)] == ["g2"]  # the listing skips g1 only
        assert store.unfinished() == ["g1", "g2"]  # (each is reported when loaded)
    finally:
        store.close()


def test_an_idle_game_expires_and_stays_deleted(database: Database) -> None:
    server = database.serve("--idle-expiry", "2", "--open-games-per-client", "1")
    try:
        game = server.create([HUMAN, "random", "random"])
        rows = "SELECT count(*) FROM games WHERE id = %s"
        deadline = time.monotonic() + WAIT
        while database.execute(rows, (game["id"],)) != [(0,)]:
            assert time.monotonic() < deadline, "the idle game was never deleted"
            time.sleep(0.5)
        assert server.request(game["seats"][0]["link"])[0] == 404
        time.sleep(5)  # sweeps and (PostgreSQL) rounds of taking unheld games over
        assert database.execute(rows, (game["id"],)) == [(0,)]
        expired = [line for line in server.lines if f"game {game['id']}: expired" in line]
        assert len(expired) == 1, expired  # deleted once, never taken back into memory
        for table in ("tokens", "moves", "owners"):
            found = database.execute(f"SELECT count(*) FROM {table} WHERE game_id = %s",
                                     (game["id"],))  # fmt: skip
            assert found == [(0,)], table
        assert server.create([HUMAN, "random", "random"])  # its address's room, given back once
        status, error = refusal(server, [HUMAN, "random", "random"])
        assert status == 429 and "your address has 1 unfinished games" in error
    finally:
        server.stop()


def other_process(database: Database, first: Server, *options: str) -> Server:
    """A second process on the same database: beside the first on PostgreSQL (a cluster),
    the first restarted on SQLite (one process at a time)."""
    if database.kind == "sqlite":
        first.stop()
    return database.serve(*options)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (("--open-games-per-client", "2"), "your address has 2 unfinished games on this server"),
        (("--games-per-minute", "2"), "at most 2 new games a minute"),
    ],
)
def test_the_limits_per_address_are_counted_in_the_database(
    database: Database, options: tuple[str, ...], words: str
) -> None:
    first = database.serve(*options)
    second: Server | None = None
    try:
        first.create([HUMAN, "random", "random"])
        second = other_process(database, first, *options)
        second.create([HUMAN, "random", "random"])  # the second game of the address
        status, error = refusal(second, [HUMAN, "random", "random"])
        assert status == 429 and words in error, error
        if database.kind == "postgresql":  # the first process counts the second's game too
            status, error = refusal(first, [HUMAN, "random", "random"])
            assert status == 429 and words in error, error
        owners = database.execute("SELECT owner FROM owners", ())
        assert len(owners) == 2 and all("127.0.0.1" not in str(row) for row in owners)
    finally:
        first.stop()
        if second is not None:
            second.stop()
