"""What several server processes share through PostgreSQL, on the session's real cluster:
game leases (one holder, renewal, release, takeover after expiry, the epoch fence),
notices through LISTEN/NOTIFY, moves handed to a game's holder; with two and three
connections and processes, and a holder killed with ``kill -9``. The server processes
that play games through these: tests/test_web_cluster.py. No timing assertions: a loaded
machine may be slow, so waits are generous and only the order of events is checked.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator

import psycopg
import pytest

import tajmahal as tm
from postgres_cluster import Cluster
from tajmahal.web.stores import DuplicateMoveError, StoredGame, StoredMove, StoreError
from tajmahal.web.stores.postgres import (
    ANSWERS,
    DECISIONS,
    HANDED,
    GameChanged,
    HandedMove,
    LeaseLostError,
    MoveAnswered,
    MoveHanded,
    Notice,
    NoticeListener,
    PostgresStore,
    moves_digest,
    parse_notice,
)
from web_server import Server, token_of

WAIT = 60.0  # seconds for anything that should come at once on an idle machine


@pytest.fixture
def store(postgres_dsn: str) -> Iterator[PostgresStore]:
    opened = PostgresStore(postgres_dsn)
    yield opened
    opened.close()


@pytest.fixture
def other(postgres_dsn: str, store: PostgresStore) -> Iterator[PostgresStore]:
    """A second connection to the same database (another process's store)."""
    opened = PostgresStore(postgres_dsn)
    yield opened
    opened.close()


def new_game(store: PostgresStore, game_id: str = "g1") -> None:
    store.create_game(StoredGame(game_id, {"seats": []}, 7, time.time()), [(f"t-{game_id}", 0)])


def until(condition: Callable[[], object], what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.05)


def hear(listener: NoticeListener, count: int, seconds: float = WAIT) -> list[Notice]:
    """The next ``count`` notices (fails if they do not come)."""
    got: list[Notice] = []
    deadline = time.monotonic() + seconds
    while len(got) < count:
        left = deadline - time.monotonic()
        assert left > 0, f"heard {got}, waited for {count} notices"
        got += listener.wait(left)
    return got


# ------------------------------------------------------------------------------ leases


def test_a_lease_is_held_by_one_renewed_released_and_taken_again(
    store: PostgresStore, other: PostgresStore
) -> None:
    new_game(store)
    assert store.holder("g1") is None and store.unheld() == ["g1"]
    lease = store.acquire("g1", "web-1", ttl=30)
    assert lease is not None and lease.epoch == 1 and lease.expires > time.time() - 60
    assert other.acquire("g1", "web-2", ttl=30) is None
    assert other.holder("g1") == lease and other.unheld() == []
    renewed = store.renew(lease, ttl=60)
    assert renewed is not None and renewed.epoch == 1 and renewed.expires > lease.expires
    assert store.acquire("g1", "web-1", ttl=30).epoch == 1  # asked again: still the same hold
    assert store.release(renewed) and not store.release(renewed)
    assert other.holder("g1") is None and other.unheld() == ["g1"]
    taken = other.acquire("g1", "web-2", ttl=30)
    assert taken is not None and taken.epoch == 2
    assert store.renew(renewed, ttl=30) is None  # the first holder knows it lost the game


def test_an_expired_lease_is_taken_over_with_a_new_epoch(
    store: PostgresStore, other: PostgresStore
) -> None:
    new_game(store)
    lease = store.acquire("g1", "web-1", ttl=0.5)
    assert lease is not None
    until(lambda: other.unheld() == ["g1"], "the lease to expire")
    assert store.holder("g1") is None
    taken = other.acquire("g1", "web-2", ttl=30)
    assert taken is not None and taken.epoch == 2 and taken.holder == "web-2"
    assert store.renew(lease, ttl=30) is None
    assert store.acquire("g1", "web-1", ttl=30) is None


def test_a_lease_past_its_expiry_that_nobody_took_is_renewed(store: PostgresStore) -> None:
    new_game(store)
    lease = store.acquire("g1", "web-1", ttl=0.2)
    assert lease is not None
    until(lambda: store.holder("g1") is None, "the lease to expire")
    renewed = store.renew(lease, ttl=30)
    assert renewed is not None and renewed.epoch == lease.epoch
    assert store.holder("g1") == renewed


def test_a_game_unknown_or_finished_is_not_leased_or_listed(store: PostgresStore) -> None:
    new_game(store, "g1")
    new_game(store, "g2")
    store.finish("g2", "{}")
    assert store.unheld() == ["g1"]
    with pytest.raises(StoreError, match="no such game"):
        store.acquire("nope", "web-1", ttl=5)


def test_of_connections_racing_for_leases_one_holds_each(postgres_dsn: str) -> None:
    stores = [PostgresStore(postgres_dsn) for _ in range(3)]
    try:
        games = [f"g{n}" for n in range(20)]
        for game in games:
            new_game(stores[0], game)
        won: dict[str, list[str]] = {game: [] for game in games}
        start = threading.Barrier(len(stores))

        def race(index: int) -> None:
            for game in games:
                start.wait(WAIT)
                if stores[index].acquire(game, f"web-{index}", ttl=30) is not None:
                    won[game].append(f"web-{index}")

        threads = [threading.Thread(target=race, args=(i,)) for i in range(len(stores))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT * 2)
        assert all(len(holders) == 1 for holders in won.values()), won
        assert all(stores[1].holder(game).holder == won[game][0] for game in games)
    finally:
        for opened in stores:
            opened.close()


def started_together(code: str, *args: str, count: int = 3) -> list[str]:
    """Run ``count`` Python processes that each print ``ready``, wait for a line on stdin and
    then race; each one's output after ``ready``."""
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.STDOUT}
    processes = [
        subprocess.Popen([sys.executable, "-c", code, *args, str(n)], text=True, **pipes)
        for n in range(count)
    ]
    try:
        for process in processes:  # every one connected and waiting
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line == "ready\n", line + process.stdout.read()
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        return [process.communicate(timeout=WAIT * 2)[0].strip() for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()


RACER = textwrap.dedent("""
    import sys
    from tajmahal.web.stores.postgres import PostgresStore
    store = PostgresStore(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.readline()
    lease = store.acquire("g1", f"web-{sys.argv[2]}", ttl=60)
    print("held" if lease else "refused", flush=True)
""")


def test_of_three_processes_racing_for_a_lease_one_holds_it(
    postgres_dsn: str, store: PostgresStore
) -> None:
    new_game(store)
    answers = started_together(RACER, postgres_dsn)
    assert sorted(answers) == ["held", "refused", "refused"], answers
    holder = store.holder("g1")
    assert holder is not None and answers[int(holder.holder[-1])] == "held"


# --------------------------------------------------------------------------- the fence


def test_a_holder_that_lost_its_game_can_no_longer_change_it(
    store: PostgresStore, other: PostgresStore
) -> None:
    new_game(store)
    old = store.acquire("g1", "web-1", ttl=0.2)
    assert old is not None
    store.add_move("g1", StoredMove(1, 0, "withdraw"), lease=old)
    until(lambda: other.unheld() == ["g1"], "the lease to expire")
    new = other.acquire("g1", "web-2", ttl=30)
    assert new is not None
    assert [m.number for m in other.load("g1").moves] == [1]  # the new holder sees move 1
    other.hand_move("g1", 1, 2, "pass", "web-2")
    stale = [
        lambda: store.add_move("g1", StoredMove(2, 1, "pass"), lease=old),
        lambda: store.remove_moves("g1", 1, lease=old),
        lambda: store.finish("g1", "{}", lease=old),
        lambda: store.take_handed(old),
    ]
    for write in stale:
        with pytest.raises(LeaseLostError, match=r"web-1 no longer holds game g1 \(epoch 1\)"):
            write()
    game = other.load("g1")
    assert [m.number for m in game.moves] == [1] and game.record is None
    assert [h.move for h in other.take_handed(new)] == ["pass"]  # still there for the holder
    other.add_move("g1", StoredMove(2, 1, "pass"), lease=new)
    other.finish("g1", "{}", lease=new)
    assert other.load("g1").record == "{}"


def test_moves_of_several_games_commit_together_each_fenced_by_its_lease(
    postgres_dsn: str, store: PostgresStore, other: PostgresStore
) -> None:
    for game in ("g1", "g2", "g3"):
        new_game(store, game)
    mine = {g: store.acquire(g, "web-1", ttl=30) for g in ("g1", "g2")}
    assert other.acquire("g3", "web-2", ttl=30) is not None
    leases = {g: lease for g, lease in mine.items() if lease is not None}
    with NoticeListener(postgres_dsn) as listener:
        problems = store.add_moves([
            ("g1", StoredMove(1, 0, "withdraw")), ("g2", StoredMove(1, 0, "withdraw")),
            ("g1", StoredMove(1, 1, "pass")),  # a number taken
            ("g3", StoredMove(1, 0, "withdraw")),  # another process's game
            ("g2", StoredMove(2, 1, "pass")),
        ], leases=leases)  # fmt: skip
        told = hear(listener, 3)
    assert [type(p).__name__ for p in problems] == [
        "NoneType", "NoneType", "DuplicateMoveError", "LeaseLostError", "NoneType"]
    assert {(d.game_id, d.number) for d in told if isinstance(d, GameChanged)} == {
        ("g1", 1), ("g2", 1), ("g2", 2)}
    assert [m.move for m in other.load("g1").moves] == ["withdraw"]
    assert [m.number for m in other.load("g2").moves] == [1, 2]
    assert other.load("g3").moves == ()


def test_a_batch_of_moves_and_a_renewal_of_the_same_leases_do_not_deadlock(
    store: PostgresStore, other: PostgresStore
) -> None:
    # one process's group commit (its moves, each fenced by its lease) and its renewal of
    # every lease it holds, on two connections at once: the rows are locked in one order
    games = [f"g{n:02}" for n in range(12)]
    leases = {}
    for game in games:
        new_game(store, game)
        lease = store.acquire(game, "web-1", ttl=60)
        assert lease is not None
        leases[game] = lease
    failures: list[BaseException] = []

    def renewing() -> None:
        try:
            for _ in range(40):
                assert len(other.renew_all("web-1", 60)) == len(games)
        except BaseException as exc:
            failures.append(exc)

    renewer = threading.Thread(target=renewing)
    renewer.start()
    for number in range(1, 41):  # each batch in another order than the table's
        batch = [(g, StoredMove(number, 0, "x")) for g in reversed(games)]
        assert store.add_moves(batch, leases=leases) == [None] * len(games)
    renewer.join()
    assert failures == []


def test_a_takeover_waits_for_the_holders_open_write_and_sees_it(
    postgres_dsn: str, store: PostgresStore, other: PostgresStore
) -> None:
    # the old holder's fenced write keeps the lease row locked until it commits: a takeover
    # that comes meanwhile waits for it, and then loads the game with that move in it
    new_game(store)
    old = store.acquire("g1", "web-1", ttl=0.2)
    assert old is not None
    until(lambda: other.unheld() == ["g1"], "the lease to expire")
    with psycopg.connect(postgres_dsn) as writer:  # a write under the old lease, not committed
        writer.execute(
            "SELECT 1 FROM leases WHERE game_id = 'g1' AND epoch = %s FOR SHARE", (old.epoch,)
        )
        writer.execute("INSERT INTO moves VALUES ('g1', 1, 0, 'withdraw', 0.0, NULL)")
        taken: list[object] = []
        taker = threading.Thread(target=lambda: taken.append(other.acquire("g1", "web-2", 30)))
        taker.start()
        taker.join(1.0)
        assert taker.is_alive() and not taken  # waiting for the old holder's transaction
        writer.commit()
    taker.join(WAIT)
    assert taken and taken[0] is not None
    assert [m.move for m in other.load("g1").moves] == ["withdraw"]


# ------------------------------------------------------------------------------ notices


def test_each_change_of_a_game_reaches_other_connections_once_committed(
    postgres_dsn: str, store: PostgresStore
) -> None:
    new_game(store)
    listeners = [NoticeListener(postgres_dsn, [DECISIONS]) for _ in range(2)]
    try:
        store.add_move("g1", StoredMove(1, 0, "withdraw"))
        store.add_move("g1", StoredMove(2, 1, "pass"))
        with pytest.raises(DuplicateMoveError):  # refused, rolled back: no notice
            store.add_move("g1", StoredMove(2, 1, "again"))
        store.remove_moves("g1", 2)
        store.finish("g1", "{}")
        expected = [
            GameChanged("g1", "move", 1), GameChanged("g1", "move", 2),
            GameChanged("g1", "undo", 2), GameChanged("g1", "finish", None),
        ]  # fmt: skip
        for listener in listeners:
            assert hear(listener, 4) == expected
            assert listener.wait(0.2) == []
    finally:
        for listener in listeners:
            listener.close()


def test_a_listener_learns_the_moves_it_has_not_seen(
    postgres_dsn: str, store: PostgresStore, other: PostgresStore
) -> None:
    new_game(store)
    with NoticeListener(postgres_dsn) as listener:
        for number in (1, 2, 3):
            store.add_move("g1", StoredMove(number, 0, f"move {number}"))
        seen = 1  # this process had drawn move 1 already
        for notice in hear(listener, 3):
            assert isinstance(notice, GameChanged)
            for move in other.moves_after(notice.game_id, seen):
                assert move.number == seen + 1
                seen = move.number
        assert seen == 3


def test_notices_that_are_not_ours_are_ignored(postgres_dsn: str, store: PostgresStore) -> None:
    new_game(store)
    with NoticeListener(postgres_dsn) as listener, psycopg.connect(postgres_dsn) as hostile:
        hostile.autocommit = True
        for channel, payload in [
            (DECISIONS, "not json"), (DECISIONS, '{"game": 1}'), (HANDED, '{"game": "g1"}'),
            (ANSWERS, '{"game": "g1", "id": true}'), (DECISIONS, '["g1"]'),
            (DECISIONS, '{"game": "g1", "change": "explode", "number": 1}'),
            # before: deeply nested JSON raised RecursionError and ended every listener
            (DECISIONS, "[" * 3999 + "]" * 3999), (ANSWERS, '{"a":' * 1300 + "1" + "}" * 1300),
            (DECISIONS, '{"game": "g1", "change": "undo", "number": 0}'),  # emptied a replica
            (DECISIONS, '{"game": "g1", "change": "undo", "number": -5}'),
            (DECISIONS, '{"game": "g1", "change": "move", "number": 1.5}'),
            (DECISIONS, '{"game": "g1", "change": "move", "number": 10000000000}'),
            (HANDED, '{"game": "g1", "id": 0}'), (ANSWERS, '{"game": "g1", "id": "8"}'),
            (DECISIONS, '{"game": "' + "g" * 100 + '", "change": "finish"}'),
            (DECISIONS, '{"game": "g1\\n", "change": "finish"}'),
            (DECISIONS, '{"game": "g1", "change": "move", "number": 2, "pad": "' + "x" * 7000
             + '"}'),
        ]:  # fmt: skip
            hostile.execute("SELECT pg_notify(%s, %s)", (channel, payload))
        store.add_move("g1", StoredMove(1, 0, "withdraw"))
        assert hear(listener, 1) == [GameChanged("g1", "move", 1)]
        assert listener.ignored == 17


@pytest.mark.parametrize("payload", [
    "[" * 100_000 + "]" * 100_000, '{"game": ' * 5000 + '"g"' + "}" * 5000, "\ud800",
    '{"game": "g1", "change": "move", "number": 1e999}', "x" * 10_000_000,
])  # fmt: skip
def test_a_hostile_payload_is_not_a_notice_and_never_an_exception(payload: str) -> None:
    for channel in (DECISIONS, HANDED, ANSWERS, "other"):
        assert parse_notice(channel, payload) is None


def test_a_listener_asks_for_channel_names_only(postgres_dsn: str) -> None:
    with pytest.raises(ValueError, match="not a channel name"):
        NoticeListener(postgres_dsn, ["x; DROP TABLE games"])


# -------------------------------------------------------------------------- handed moves


def test_a_move_handed_by_another_process_reaches_the_holder_and_is_answered(
    postgres_dsn: str, store: PostgresStore, other: PostgresStore
) -> None:
    new_game(store)
    lease = store.acquire("g1", "web-1", ttl=30)
    assert lease is not None
    with (
        NoticeListener(postgres_dsn, [HANDED]) as holder_ears,
        NoticeListener(postgres_dsn) as sender_ears,
    ):
        first = other.hand_move("g1", 0, 1, "withdraw", "web-2")
        second = other.hand_move("g1", 0, 1, "withdraw again", "web-2")
        assert hear(holder_ears, 2) == [MoveHanded("g1", first), MoveHanded("g1", second)]
        taken = store.take_handed(lease)
        assert taken == [
            HandedMove(first, "g1", 0, 1, "withdraw", "web-2"),
            HandedMove(second, "g1", 0, 1, "withdraw again", "web-2"),
        ]
        assert store.take_handed(lease) == []  # taken once
        store.add_move("g1", StoredMove(1, 0, taken[0].move), lease=lease)
        store.answer(taken[0])
        store.answer(taken[1], "stale: decision 1 was already played" + "!" * 5000)
        heard = hear(sender_ears, 5)
        assert heard[:2] == [MoveHanded("g1", first), MoveHanded("g1", second)]
        assert heard[2:] == [
            GameChanged("g1", "move", 1), MoveAnswered("g1", first), MoveAnswered("g1", second)
        ]
        # the answer is in the handed move's row (the notice says only where to look)
        assert other.collect_answer("g1", first) == (True, None)
        answered, error = other.collect_answer("g1", second)
        assert answered and error is not None
        assert error.startswith("stale") and len(error) == 1000
        assert other.collect_answer("g1", second) == (False, None)  # collected once


def test_a_handed_move_not_taken_yet_can_be_withdrawn(
    store: PostgresStore, other: PostgresStore
) -> None:
    new_game(store)
    lease = store.acquire("g1", "web-1", ttl=30)
    assert lease is not None
    early = other.hand_move("g1", 0, 1, "withdraw", "web-2")
    late = other.hand_move("g1", 0, 1, "withdraw again", "web-2")
    assert other.withdraw("g1", early)  # never played
    assert [m.id for m in store.take_handed(lease)] == [late]
    assert not other.withdraw("g1", late)  # taken: it is answered instead
    assert other.collect_answer("g1", late) == (False, None)


def test_a_handed_move_is_refused_when_too_long(store: PostgresStore) -> None:
    new_game(store)
    with pytest.raises(StoreError, match="at most 4096 characters"):
        store.hand_move("g1", 0, 1, "x" * 5000, "web-2")


# ------------------------------------------------------------------ processes and failures

HOLDER = textwrap.dedent("""
    import sys, time
    from tajmahal.web.stores import StoredMove
    from tajmahal.web.stores.postgres import PostgresStore
    store = PostgresStore(sys.argv[1])
    ttl = float(sys.argv[2])
    lease = store.acquire("g1", "web-1", ttl=ttl)
    print("held", flush=True)
    number = 0
    while True:  # a move, then renew: as a holder playing bots would
        number += 1
        store.add_move("g1", StoredMove(number, number % 2, f"move {number}"), lease=lease)
        print(number, flush=True)  # acknowledged: committed
        lease = store.renew(lease, ttl=ttl)
        time.sleep(0.02)
""")


def test_a_killed_holders_game_is_taken_over_and_nothing_acknowledged_is_lost(
    postgres_dsn: str, store: PostgresStore
) -> None:
    new_game(store)
    ttl = 2.0
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, postgres_dsn, str(ttl)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        acknowledged = 0
        while acknowledged < 10:
            acknowledged = int(holder.stdout.readline())
        assert store.acquire("g1", "web-2", ttl=30) is None  # it plays: nobody else may
        holder.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        holder.wait(WAIT)
        acknowledged = max([acknowledged, *(int(line) for line in holder.stdout)])
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    lease = None
    while lease is None:
        assert time.monotonic() - killed < WAIT, "no takeover"
        time.sleep(0.1)
        lease = store.acquire("g1", "web-2", ttl=30)
    print(f"taken over {time.monotonic() - killed:.2f} s after kill -9 (lease {ttl} s)")
    assert lease.epoch == 2
    numbers = [m.number for m in store.load("g1").moves]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= acknowledged
    store.add_move("g1", StoredMove(len(numbers) + 1, 0, "the game goes on"), lease=lease)


PLAYING_HOLDER = textwrap.dedent("""
    import sys
    from tajmahal.web.stores import StoredMove
    from tajmahal.web.stores.postgres import HANDED, NoticeListener, PostgresStore
    store = PostgresStore(sys.argv[1])
    listener = NoticeListener(sys.argv[1], [HANDED])
    lease = store.acquire("g1", "web-1", ttl=2.0)
    print("held", flush=True)
    while True:  # plays the moves handed to it, in order, and answers each
        listener.wait(0.3)
        lease = store.renew(lease, ttl=2.0)
        for handed in store.take_handed(lease):
            played = len(store.load("g1").moves)
            if handed.number != played + 1:
                store.answer(handed, f"stale: decision {handed.number} is not next")
                continue
            store.add_move("g1", StoredMove(handed.number, handed.seat, handed.move), lease=lease)
            store.answer(handed)
""")


def test_moves_handed_to_a_holder_process_are_played_and_outlive_its_kill_9(
    postgres_dsn: str, store: PostgresStore
) -> None:
    new_game(store)
    holder = subprocess.Popen(
        [sys.executable, "-c", PLAYING_HOLDER, postgres_dsn], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with NoticeListener(postgres_dsn, [DECISIONS, ANSWERS]) as ears:
            first = store.hand_move("g1", 0, 1, "withdraw", "web-2")
            assert hear(ears, 2) == [GameChanged("g1", "move", 1), MoveAnswered("g1", first)]
            assert store.collect_answer("g1", first) == (True, None)
            stale = store.hand_move("g1", 1, 1, "pass", "web-2")
            assert hear(ears, 1) == [MoveAnswered("g1", stale)]
            assert store.collect_answer("g1", stale) == (True, "stale: decision 1 is not next")
        holder.send_signal(signal.SIGKILL)
        holder.wait(WAIT)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    waiting = store.hand_move("g1", 1, 2, "pass", "web-2")  # nobody holds the game now
    until(lambda: store.acquire("g1", "web-2", ttl=30) is not None, "the takeover")
    lease = store.holder("g1")
    assert lease is not None and lease.holder == "web-2" and lease.epoch == 2
    assert [h.id for h in store.take_handed(lease)] == [waiting]
    assert [m.move for m in store.load("g1").moves] == ["withdraw"]


OPENER = textwrap.dedent("""
    import sys
    from tajmahal.web.stores.postgres import PostgresStore
    print("ready", flush=True)
    sys.stdin.readline()
    PostgresStore(sys.argv[1]).close()
    print("opened", flush=True)
""")


def test_processes_starting_together_make_the_tables_once(postgres_dsn: str) -> None:
    assert started_together(OPENER, postgres_dsn) == ["opened"] * 3
    opened = PostgresStore(postgres_dsn)
    try:
        assert opened.unfinished() == [] and opened.unheld() == []
    finally:
        opened.close()


def cut(store: PostgresStore, postgres_dsn: str) -> None:
    """Close the store's connection from the server's side (as a restart or a cut does)."""
    pid = store._run(lambda db: db.info.backend_pid, "read")
    with psycopg.connect(postgres_dsn, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_statement_that_meets_a_closed_connection_is_run_again_on_a_fresh_one(
    postgres_dsn: str, store: PostgresStore
) -> None:
    # before: the first statement after a cut failed ("cannot write the game database"),
    # so the first move after a PostgreSQL restart was refused
    new_game(store)
    lease = store.acquire("g1", "web-1", ttl=30)
    assert lease is not None
    cut(store, postgres_dsn)
    assert store.load("g1") is not None  # a read: again on a fresh connection
    cut(store, postgres_dsn)
    store.add_move("g1", StoredMove(1, 0, "withdraw"), lease=lease)  # a write: nothing ran
    cut(store, postgres_dsn)
    store.add_moves([("g1", StoredMove(2, 1, "pass"))], leases={"g1": lease})
    assert [m.move for m in store.load("g1").moves] == ["withdraw", "pass"]
    assert store.reconnects == 3
    cut(store, postgres_dsn)
    with pytest.raises(DuplicateMoveError):  # the fence and the rules hold on the retry
        store.add_move("g1", StoredMove(2, 1, "pass"), lease=lease)


def test_a_database_that_is_away_is_a_clear_error_then_opened_again(
    postgres_dsn: str, store: PostgresStore
) -> None:
    new_game(store)
    with pytest.raises(StoreError, match="cannot open the game database") as caught:
        PostgresStore(postgres_dsn.replace("port=5432", "port=1") + " password=hunter2",
                      connect_timeout=2)
    assert "hunter2" not in str(caught.value)
    assert store.load("g1") is not None
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.load("g1")


# ----------------------------------------------------------- tajmahal serve on PostgreSQL


def test_an_exclusive_store_keeps_the_database_to_itself_until_closed(
    postgres_dsn: str, store: PostgresStore
) -> None:
    first = PostgresStore(postgres_dsn, exclusive=True)
    try:
        with pytest.raises(StoreError, match="another tajmahal server uses the game database"):
            PostgresStore(postgres_dsn, exclusive=True, connect_timeout=10)
        new_game(store)  # stores that are not exclusive (the leases' users) still open
        assert first.unfinished() == ["g1"]
    finally:
        first.close()
    PostgresStore(postgres_dsn, exclusive=True).close()  # free again at once


def test_serve_keeps_its_games_in_postgres_and_resumes_them_after_kill_9(
    postgres_cluster: Cluster,
) -> None:
    # one process here (several: tests/test_web_cluster.py); restarted, it takes its games
    # back once its killed self's leases expire
    name = postgres_cluster.new_schema()
    url = postgres_cluster.url(name)
    server = Server(url, "--time-limit", "5", "--lease-ttl", "2")
    try:
        assert any("games in PostgreSQL database 'tests' on" in line for line in server.lines)
        created = server.create([{"human": True, "name": "Ann"}, "greedy", "random"])
        token = token_of(created["seats"][0]["link"])
        client = server.client(token)
        before = client.my_turn()
        for _ in range(6):
            before = client.move(choose=len(before["legal"]) - 1)
            before = client.my_turn()
            if before["over"]:
                break
        client.close()
        server.stop(signal.SIGKILL)
        server.start()
        again = server.client(token)
        resumed = again.until(lambda m: m["type"] == "state")
        assert resumed["decision"] == before["decision"] and resumed["view"] == before["view"]
        state = resumed
        while not state["over"]:
            state = again.move(choose=len(state["legal"]) // 2)
            state = again.my_turn()
        again.close()
        record = tm.loads(server.request("/record/" + token)[2].decode())
        assert tm.replay(record).scores == tuple(state["result"]["scores"])
    finally:
        server.stop()
    store = PostgresStore(url)
    try:
        assert store.unfinished() == [] and store.find_token(token) is not None
        assert token not in postgres_cluster.dump(name)  # the links are stored as digests only
    finally:
        store.close()


def test_a_copy_is_checked_against_the_store_and_read_whole_when_it_differs(
    store: PostgresStore,
) -> None:
    # before: a replica read only the moves after its own length (moves_after) and never
    # checked the ones it held, so a copy that missed an undo forked for good
    new_game(store)
    moves = [StoredMove(1, 0, "withdraw"), StoredMove(2, 1, "pass"), StoredMove(3, 2, "pass")]
    for move in moves:
        store.add_move("g1", move)

    def digest(held: list[StoredMove]) -> str:
        return moves_digest((m.number, m.seat, m.move) for m in held)

    assert store.generation("g1") == (3, digest(moves))
    assert store.sync("g1", 1, digest(moves[:1])) == (True, tuple(moves[1:]))
    assert store.sync("g1", 3, digest(moves)) == (True, ())
    assert store.sync("g1", 0, "") == (True, tuple(moves))
    store.remove_moves("g1", 2)  # an undo the copy did not hear of, then another move
    store.add_move("g1", StoredMove(2, 1, "take white:elephant"))
    now = store.load("g1").moves
    assert store.sync("g1", 3, digest(moves)) == (False, now)  # longer than the store
    assert store.sync("g1", 2, digest(moves[:2])) == (False, now)  # as long, but forked
    assert store.sync("g1", 1, digest(moves[:1])) == (True, now[1:])
    assert store.generation("g1") == (2, digest(list(now)))
