"""The GameStore contract, on SQLite and on a real PostgreSQL: every test runs on both.

What the server relies on: a move returns only once committed (another connection sees
it, a process killed right after keeps it), one move per number, undo, records kept,
tokens stored as digests only, clear errors. PostgreSQL runs in the session's own
cluster (``postgres_cluster`` in conftest.py); without it those tests skip with the reason.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs
import pytest

from tajmahal.web.stores import (
    DuplicateMoveError,
    GameStore,
    SQLiteStore,
    StoredGame,
    StoredMove,
    StoreError,
    TokenEntry,
    is_postgres_url,
    open_store,
    token_digest,
)

CONFIG = {"seats": [{"human": True, "name": "Ann"}, "greedy"], "time_limit": 5.0}
ACK_SECONDS = 120.0  # a loaded machine: generous waits, never a timing assertion


@attrs.define
class Backend:
    """A database of one kind: its ``--db`` address, how to open it, and all it stores as text."""

    kind: str
    address: str
    dump: Callable[[], str]

    def open(self) -> GameStore:
        return open_store(self.address)


def sqlite_dump(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return "\n".join(db.iterdump())


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        path = tmp_path / "games.sqlite3"
        return Backend("sqlite", str(path), lambda: sqlite_dump(path))
    cluster = request.getfixturevalue("postgres_cluster")
    name = cluster.new_schema()
    return Backend("postgresql", cluster.url(name), lambda: cluster.dump(name))


@pytest.fixture
def store(backend: Backend) -> Iterator[GameStore]:
    opened = backend.open()
    yield opened
    opened.close()


def new_game(store: GameStore, game_id: str = "g1", created: float = 1.5) -> StoredGame:
    game = StoredGame(game_id, CONFIG, 2**62 + 3, created)
    store.create_game(game, [(f"seat-{game_id}", 0), (f"watch-{game_id}", None)])
    return game


def test_open_store_chooses_the_database_by_its_address(backend: Backend) -> None:
    store = backend.open()
    try:
        assert is_postgres_url(backend.address) == (backend.kind == "postgresql")
        expected = "PostgresStore" if backend.kind == "postgresql" else "SQLiteStore"
        assert type(store).__name__ == expected
    finally:
        store.close()


def test_a_game_is_kept_with_its_settings_seed_and_moves(store: GameStore) -> None:
    game = new_game(store)
    fault = {"kind": "timeout", "message": "no answer in 5 s", "seat": 1}
    moves = [StoredMove(1, 0, "withdraw"), StoredMove(2, 1, "play 3 red", 0.125, fault)]
    for move in moves:
        store.add_move("g1", move)
    loaded = store.load("g1")
    assert loaded == attrs.evolve(game, moves=tuple(moves))
    assert loaded.seed == 2**62 + 3 and loaded.created == 1.5 and loaded.record is None


def test_a_committed_move_is_seen_by_another_connection_at_once(
    backend: Backend, store: GameStore
) -> None:
    new_game(store)
    other = backend.open()
    try:
        store.add_move("g1", StoredMove(1, 0, "withdraw"))
        assert [m.move for m in other.load("g1").moves] == ["withdraw"]
        other.add_move("g1", StoredMove(2, 1, "pass"))
        assert [m.number for m in store.load("g1").moves] == [1, 2]
    finally:
        other.close()


def test_a_move_number_is_stored_once(store: GameStore) -> None:
    new_game(store)
    store.add_move("g1", StoredMove(1, 0, "withdraw"))
    with pytest.raises(DuplicateMoveError, match="game g1 already has move 1"):
        store.add_move("g1", StoredMove(1, 1, "something else"))
    assert store.load("g1").moves == (StoredMove(1, 0, "withdraw"),)
    store.add_move("g1", StoredMove(2, 1, "pass"))  # the store goes on after the refusal
    assert len(store.load("g1").moves) == 2


def test_undo_removes_the_moves_from_the_first_given(store: GameStore) -> None:
    new_game(store)
    for number in range(1, 6):
        store.add_move("g1", StoredMove(number, number % 2, f"move {number}"))
    store.remove_moves("g1", 3)
    assert [m.number for m in store.load("g1").moves] == [1, 2]
    store.add_move("g1", StoredMove(3, 0, "another move 3"))
    assert store.load("g1").moves[-1].move == "another move 3"


def test_a_finished_game_keeps_its_record_and_leaves_the_unfinished(store: GameStore) -> None:
    new_game(store, "g1", created=1.0)
    new_game(store, "g2", created=2.0)
    new_game(store, "g3", created=3.0)
    assert store.unfinished() == ["g1", "g2", "g3"]
    record = '{"format": "tajmahal-record", "result": [1, 2]}' + "x" * 100_000
    store.finish("g2", record)
    assert store.load("g2").record == record
    assert store.unfinished() == ["g1", "g3"]
    recent = store.recent(10)
    assert [g.id for g in recent] == ["g3", "g2", "g1"]
    assert [g.record for g in recent] == [None, "", None]  # '' marks a finished game
    assert all(g.moves == () for g in recent) and recent[0].config == CONFIG
    assert [g.id for g in store.recent(2)] == ["g3", "g2"]


def test_tokens_are_stored_as_digests_only(backend: Backend, store: GameStore) -> None:
    new_game(store)
    assert store.find_token("seat-g1") == TokenEntry("g1", 0)
    assert store.find_token("watch-g1") == TokenEntry("g1", None)
    stored = backend.dump()
    assert "seat-g1" not in stored and "watch-g1" not in stored
    assert token_digest("seat-g1") in stored


def test_a_token_added_later_opens_its_seat_once_as_a_digest(
    backend: Backend, store: GameStore
) -> None:
    new_game(store)
    store.add_token("g1", "rematch-seat", 2)  # a rematch's link, stored when asked for
    store.add_token("g1", "rematch-seat", 2)  # asked again: the same, no error
    store.add_token("g1", "seat-g1", 1)  # a token stored already stays as it was
    assert store.find_token("rematch-seat") == TokenEntry("g1", 2)
    assert store.find_token("seat-g1") == TokenEntry("g1", 0)
    assert "rematch-seat" not in backend.dump()
    with pytest.raises(StoreError):
        store.add_token("nope", "other", 0)  # no such game


def test_unknown_games_and_tokens_open_nothing(store: GameStore) -> None:
    new_game(store)
    assert store.load("nope") is None
    assert store.find_token("guess") is None and store.find_token("") is None
    assert store.find_token(token_digest("seat-g1")) is None  # the digest is no token
    for hostile in ["\x00", "\ud800", "' OR 1=1 --", "x" * 100_000]:  # a URL's path
        assert store.find_token(hostile) is None


def test_a_store_reopened_finds_everything(backend: Backend, store: GameStore) -> None:
    new_game(store)
    store.add_move("g1", StoredMove(1, 0, "withdraw"))
    store.close()
    again = backend.open()
    try:
        assert [m.move for m in again.load("g1").moves] == ["withdraw"]
        assert again.find_token("seat-g1") == TokenEntry("g1", 0)
    finally:
        again.close()


WRITER = textwrap.dedent("""
    import sys
    from tajmahal.web.stores import StoredMove
    from tajmahal.web.stores import open_store
    store = open_store(sys.argv[1])
    for number in range(1, 100_000):
        store.add_move("g1", StoredMove(number, number % 2, f"move {number}"))
        print(number, flush=True)  # acknowledged: committed
""")


def test_an_acknowledged_move_survives_its_process_killed(
    backend: Backend, store: GameStore
) -> None:
    new_game(store)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, backend.address], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None
        acknowledged = 0
        while acknowledged < 20:
            line = writer.stdout.readline()
            assert line, "the writer stopped early"
            acknowledged = int(line)
        writer.send_signal(signal.SIGKILL)
        writer.wait(ACK_SECONDS)
        acknowledged = max([acknowledged, *(int(line) for line in writer.stdout)])
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    numbers = [m.number for m in store.load("g1").moves]
    assert numbers == list(range(1, len(numbers) + 1))  # no gap
    assert len(numbers) >= acknowledged


def test_a_database_that_cannot_be_opened_is_a_clear_error(
    backend: Backend, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    if backend.kind == "sqlite":
        address, words = str(blocker / "games.sqlite3"), "cannot open the game database"
    else:
        address = f"postgresql://nobody@/games?host={tmp_path / 'no-server'}&connect_timeout=5"
        words = "cannot open the game database PostgreSQL database 'games'"
    with pytest.raises(StoreError, match=words):
        open_store(address)


def test_a_postgres_address_without_psycopg_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "tajmahal.web.stores.postgres", None)  # as if not installed
    with pytest.raises(StoreError, match=r"pip install 'tajmahal\[postgres\]'"):
        open_store("postgresql://tajmahal@/games")
    assert isinstance(open_store(":memory:"), SQLiteStore)


def test_a_game_id_is_stored_once(store: GameStore) -> None:
    new_game(store)
    with pytest.raises(StoreError, match="game g1 or one of its tokens is already in") as taken:
        store.create_game(StoredGame("g1", {"seats": []}, 1, 9.0), [])
    assert type(taken.value) is StoreError
    assert store.load("g1").config == CONFIG  # the first one, untouched
    new_game(store, "g2")  # the store goes on after the refusal
    assert store.unfinished() == ["g1", "g2"]


def test_a_move_for_an_unknown_game_says_so(store: GameStore) -> None:
    new_game(store)
    with pytest.raises(StoreError, match="no such game nope in the database") as unknown:
        store.add_move("nope", StoredMove(1, 0, "withdraw"))
    assert type(unknown.value) is StoreError  # not a DuplicateMoveError
    problems = store.add_moves([("nope", StoredMove(1, 0, "withdraw")),
                                ("g1", StoredMove(1, 0, "withdraw"))])
    assert [str(problem) if problem else None for problem in problems] == [
        "no such game nope in the database", None]  # fmt: skip
    assert store.load("g1").moves == (StoredMove(1, 0, "withdraw"),)
    assert store.load("nope") is None
