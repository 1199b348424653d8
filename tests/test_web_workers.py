"""The server's bots in worker processes (tajmahal.web.workers): records, time limits, crashes.

The server is embedded (a :class:`GameServer` over an SQLite file, no HTTP):
what is tested is the pool, the referee's faults and the records.
"""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("starlette")

import tajmahal as tm
from tajmahal.web import GameConfig, GameServer, ServerSettings, SQLiteStore
from tajmahal.web.workers import BotPool
from web_server import run_async

WAIT = 300.0  # seconds a whole game of quick bots may take on a loaded machine


async def finished(server: GameServer, game_id: str) -> tm.GameRecord:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        table = server.tables[game_id]
        if table.finished_record is not None:
            record = tm.loads(table.finished_record)
            assert isinstance(record, tm.GameRecord)
            return record
        assert loop.time() < deadline, f"game {game_id} did not end: {table.decision} moves"
        await asyncio.sleep(0.05)


def serve(tmp_path: Path, games: list[dict[str, object]], workers: int = 2) -> list[tm.GameRecord]:
    """Play ``games`` (lobby settings) to their ends on one server; their records."""

    async def scenario() -> list[tm.GameRecord]:
        settings = ServerSettings(allow_commands=True, bot_workers=workers)
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), settings)
        await server.start()
        try:
            created = [await server.create(GameConfig.parse(g, settings)) for g in games]
            return [await finished(server, game.id) for game in created]
        finally:
            await server.stop()

    return run_async(scenario())


def test_a_server_game_of_bots_has_the_record_play_match_gives_for_its_seed(
    tmp_path: Path,
) -> None:
    """Each game's bots live on one worker, built once from spec and seed as the referee does."""
    players = ["greedy", "random", "ismcts:iterations=30"]
    record = serve(tmp_path, [{"seats": players}])[0]
    assert record.faults == ()
    expected = tm.play_match(players, seed=record.seed).record
    assert record.moves == expected.moves
    assert record.scores == expected.scores


BOTS = '''
import os, time
from pathlib import Path

class Slow:
    name = "slow"
    def __init__(self, seed=0):
        self.calls = 0
    def choose(self, view, legal_moves):
        self.calls += 1
        if self.calls == 2:  # past its 0.5 s limit, back before the worker is replaced
            time.sleep(1.4)
        return legal_moves[-1]

class Exiting:
    name = "exiting"
    def __init__(self, seed=0):
        pass
    def choose(self, view, legal_moves):
        marker = Path(MARKER)
        if not marker.exists():  # once: the worker process dies in the middle of a decision
            marker.write_text("x")
            os._exit(3)
        return legal_moves[0]
'''


def test_a_late_decision_is_a_timeout_and_a_dead_worker_is_replaced(tmp_path: Path) -> None:
    bots = tmp_path / "bots.py"
    bots.write_text(f"MARKER = {str(tmp_path / 'exited')!r}\n" + textwrap.dedent(BOTS))
    slow, exiting = serve(tmp_path, [
        {"seats": [f"file:{bots}:Slow", "random", "random"], "time_limit": 0.5},
        {"seats": [f"file:{bots}:Exiting", "greedy", "random"], "time_limit": 30},
    ], workers=2)  # fmt: skip
    # the late call's seat is not asked again until that call returns: timeouts meanwhile
    assert {(f.seat, f.kind.value) for f in slow.faults} == {(0, "timeout")}
    assert "played" in slow.faults[0].detail  # the fallback move: legal_moves[0]
    assert [(f.seat, f.kind.value) for f in exiting.faults] == [(0, "crash")]
    assert "worker process" in exiting.faults[0].detail
    for record in (slow, exiting):  # each fault a fallback move; the game went on to its end
        assert tm.replay(record).is_over


def test_a_worker_still_running_past_its_grace_is_replaced(tmp_path: Path) -> None:
    """A decision that does not end: a timeout answer at once, then a new worker process, where
    the bot is built again from its spec and seed for its next decision."""
    bots = tmp_path / "bots.py"
    bots.write_text(f"MARKER = {str(tmp_path / 'hung')!r}\n" + textwrap.dedent(HANGING))
    spec = f"file:{bots}:Hanging"

    async def scenario() -> tuple[list[str | None], int, list[int]]:
        pool = BotPool(1)
        state = tm.new_game(3, seed=2)
        view, legal = state.view(0), state.legal_moves()
        try:
            assert (await pool.build("g", 0, spec, 1, 5.0))[1] is None
            kinds = [(await pool.decide("g", 0, spec, 1, view, legal, 0.2, 1)).kind]
            for _ in range(600):  # the grace: at least 5 s past the limit
                if pool.replaced:
                    break
                await asyncio.sleep(0.1)
            kinds.append((await pool.decide("g", 0, spec, 1, view, legal, 5.0, 2)).kind)
            calls = await pool.call(sorted, [3, 1, 2])  # any picklable work
        finally:
            await pool.close()
        return [k.value if k else None for k in kinds], pool.replaced, calls

    kinds, replaced, calls = run_async(scenario())
    assert kinds == ["timeout", None] and replaced == 1 and calls == [1, 2, 3]


HANGING = '''
import time
from pathlib import Path

class Hanging:
    name = "hanging"
    def __init__(self, seed=0):
        pass
    def choose(self, view, legal_moves):
        marker = Path(MARKER)
        if not marker.exists():
            marker.write_text("x")
            time.sleep(1000)
        return legal_moves[0]
'''


def test_moves_arriving_together_share_one_commit(tmp_path: Path) -> None:
    """Group commit: one transaction (one fsync) for the moves that arrive while none is being
    written; a repeated move number fails alone."""
    from tajmahal.web.stores import DuplicateMoveError, StoredGame, StoredMove
    from tajmahal.web.workers import Workers

    store = SQLiteStore(tmp_path / "games.sqlite3")
    for n in range(20):
        store.create_game(StoredGame(f"g{n}", {"seats": []}, n, 0.0), [])

    async def scenario() -> tuple[list[object], int]:
        workers = Workers(store, ServerSettings())
        try:
            results = await asyncio.gather(
                *(workers.add_move(f"g{n}", StoredMove(1, 0, "withdraw")) for n in range(20)),
                workers.add_move("g0", StoredMove(1, 1, "withdraw")),  # taken just before
                return_exceptions=True,
            )
            return list(results), workers.commits
        finally:
            await workers.close()

    results, commits = run_async(scenario())
    store.close()
    assert results[:20] == [None] * 20 and isinstance(results[20], DuplicateMoveError)
    assert commits == 1
    store = SQLiteStore(tmp_path / "games.sqlite3")
    assert all(len(store.load(f"g{n}").moves) == 1 for n in range(20))  # type: ignore[union-attr]
    store.close()
