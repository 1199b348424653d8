"""``ismcts`` with more effort: processes (``jobs``), close decisions (``extend``), a game clock.

Real processes throughout, and iteration budgets: the same seed gives the
same moves whichever processes ran the shares, so the tests compare moves
and root statistics, never times.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.bots import _ismcts_search
from tajmahal.bots._search_pool import JOBS_VARIABLE
from tajmahal.bots.ismcts import (
    CLOCK_SHARE,
    DECISIONS_PER_VISIT,
    FLAT_SHARE,
    IsmctsBot,
    MoveStatistics,
)
from tajmahal.referee.seats import InProcessSeat
from tajmahal.rules.state import GameState

Outcome = tuple[tm.Move, tuple[MoveStatistics, ...], int]


@pytest.fixture(autouse=True)
def _no_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no cap on search processes (a test may set one)."""
    monkeypatch.delenv(JOBS_VARIABLE, raising=False)


def decision_states(count: int = 4, seed: int = 5) -> list[GameState]:
    """States with a real choice (more than one legal move), from one greedy game."""
    state = tm.new_game(3, seed=seed)
    greedy = tm.bots.create("greedy")
    found: list[GameState] = []
    while not state.is_over and len(found) < count:
        if len(state.legal_moves()) > 2:
            found.append(state)
        seat = state.current_player
        assert seat is not None
        state = state.apply(greedy.choose(state.view(seat), state.legal_moves()))
    return found


def play(bot: IsmctsBot, states: list[GameState]) -> list[Outcome]:
    """The bot's choice, root statistics and iterations at each state."""
    outcomes = []
    for state in states:
        seat = state.current_player
        assert seat is not None
        move = bot.choose(state.view(seat), state.legal_moves())
        outcomes.append((move, bot.last_statistics, bot.last_iterations))
    return outcomes


def gone(pid: int) -> bool:
    """Whether process ``pid`` is gone and reaped (a zombie still has its /proc entry)."""
    return not os.path.exists(f"/proc/{pid}")


def descendant_search_workers() -> set[int]:
    """The search worker processes below this one (children, grandchildren, ...)."""
    parents: dict[int, int] = {}
    workers: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                parents[int(entry)] = int(stat.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if b"tajmahal.bots._search_worker" in cmdline.read():
                    workers.add(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    me = os.getpid()

    def ancestors(pid: int) -> Iterator[int]:
        for _ in range(64):
            pid = parents.get(pid, 0)
            if pid <= 1:
                return
            yield pid

    return {pid for pid in workers if me in ancestors(pid)}


def test_jobs_give_the_same_moves_whichever_processes_run_the_shares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    states = decision_states()
    with IsmctsBot(seed=7, iterations=60, jobs=3, flat="off") as parallel:
        in_workers = play(parallel, states)
        pids = parallel.worker_pids()
        assert len(pids) == 2 and parallel.jobs_note == ""
        assert all(not gone(pid) for pid in pids)  # started once, reused every decision
        assert play(parallel, states[:1])[0] != in_workers[0]  # a new decision: new deals
    assert parallel.worker_pids() == [] and all(gone(pid) for pid in pids)
    again = play(IsmctsBot(seed=7, iterations=60, jobs=3, flat="off"), states)
    monkeypatch.setenv(JOBS_VARIABLE, "1")  # as in a tournament's worker: no processes
    capped = IsmctsBot(seed=7, iterations=60, jobs=3, flat="off")
    assert play(capped, states) == in_workers == again
    assert capped.worker_pids() == [] and capped.jobs_note == f"{JOBS_VARIABLE}=1 in this process"
    assert all(iterations == 60 for _, _, iterations in in_workers)
    for _, statistics, _ in in_workers:  # the merged root: every iteration visits one root move
        assert sum(row.visits for row in statistics) == 60


def test_flat_searches_give_the_same_moves_whichever_processes_run_the_shares(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Play-or-withdraw decisions are flat searches (the default): each share runs its own
    race on its own deals, and the merged root is the same wherever the shares ran."""
    states = [state for state in decision_states() if state.phase is tm.Phase.PLAY]
    assert states
    with IsmctsBot(seed=7, iterations=60, jobs=3) as parallel:
        in_workers = play(parallel, states)
    monkeypatch.setenv(JOBS_VARIABLE, "1")
    assert play(IsmctsBot(seed=7, iterations=60, jobs=3), states) == in_workers
    for _, statistics, simulations in in_workers:
        assert sum(row.visits for row in statistics) == simulations >= 3 * 13  # 20 x 0.65 each


def test_jobs_one_is_the_single_process_search() -> None:
    states = decision_states(3)
    single = IsmctsBot(seed=3, iterations=40, jobs=1)
    assert play(single, states) == play(IsmctsBot(seed=3, iterations=40), states)
    assert single.worker_pids() == []


def test_a_killed_worker_is_replaced_and_the_moves_stay_the_same() -> None:
    states = decision_states(3)
    twin = play(IsmctsBot(seed=11, iterations=40, jobs=2), states)
    with IsmctsBot(seed=11, iterations=40, jobs=2) as bot:
        outcomes = play(bot, states[:1])
        (victim,) = bot.worker_pids()
        os.kill(victim, signal.SIGKILL)
        outcomes += play(bot, states[1:])
        assert outcomes == twin
        assert gone(victim)  # reaped, not left a zombie
        assert bot.worker_pids() and bot.worker_pids() != [victim]  # a new worker took over
    assert descendant_search_workers() == set()


def test_a_bot_that_cannot_be_sent_to_workers_searches_in_process() -> None:
    def first(game: object, codes: list[int], rng: object) -> int:
        return codes[0]

    states = decision_states(2)
    with IsmctsBot(seed=2, iterations=20, jobs=2, rollout=first, flat="off") as bot:
        outcomes = play(bot, states)
        assert bot.worker_pids() == []
        assert "cannot be sent to a worker process" in bot.jobs_note
    assert all(iterations == 20 for _, _, iterations in outcomes)


def test_a_match_closes_its_bots_workers_and_isolation_plays_the_same_game() -> None:
    players = ["ismcts:jobs=2,iterations=20", "random", "random"]
    here = tm.play_match(players, seed=3)
    assert not here.faults
    assert descendant_search_workers() == set()
    isolated = tm.play_match(players, seed=3, isolate=True)
    assert not isolated.faults and isolated.record.moves == here.record.moves
    assert descendant_search_workers() == set()


def test_the_seat_closes_a_bot_it_built_but_not_one_it_was_handed() -> None:
    state = decision_states(1)[0]
    seat_number = state.current_player
    assert seat_number is not None
    view, legal = state.view(seat_number), state.legal_moves()
    seat = InProcessSeat.build("ismcts:jobs=2,iterations=10", seed=1, limit=None)
    built = seat.bot
    assert isinstance(built, IsmctsBot)
    assert seat.choose(view, legal, limit=None).index is not None
    pids = built.worker_pids()
    assert pids
    seat.close()  # the bot is still referenced here: only its close() can have stopped them
    assert all(gone(pid) for pid in pids)
    handed = IsmctsBot(seed=1, iterations=10, jobs=2)
    seat = InProcessSeat.build(handed, seed=1, limit=None)
    assert seat.choose(view, legal, limit=None).index is not None
    seat.close()
    assert handed.worker_pids() and not any(gone(pid) for pid in handed.worker_pids())
    handed.close()
    assert descendant_search_workers() == set()


def test_a_process_pool_tournament_searches_in_its_workers_and_plays_the_same_games() -> None:
    players = ["ismcts:jobs=2,iterations=10", "random", "random"]
    serial = tm.run_tournament(players, 3, seed=4, backend="serial", seating="rotation")
    pooled = tm.run_tournament(players, 3, seed=4, backend="process", jobs=1, seating="rotation")
    assert [game.scores for game in serial.games] == [game.scores for game in pooled.games]


def test_close_decisions_are_searched_longer() -> None:
    states = decision_states(3)
    plain = IsmctsBot(seed=4, iterations=30, flat="off")
    eager = IsmctsBot(seed=4, iterations=30, extend=2.5, margin=0.99, flat="off")
    for outcome in play(plain, states):
        assert outcome[2] == 30 and not plain.last_extended
    for outcome in play(eager, states):  # any two searched moves are "close" at 0.99
        assert outcome[2] == 75
    assert eager.last_extended
    never = IsmctsBot(seed=4, iterations=30, extend=2.5, margin=0.0, flat="off")
    for outcome in play(never, states):  # only an exact tie is close: searched on
        visits = sorted((row.visits for row in outcome[1]), reverse=True)
        assert outcome[2] == 75 or (outcome[2] == 30 and visits[0] != visits[1])


def test_close_decisions_extend_every_share_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    states = decision_states(3)
    with IsmctsBot(seed=6, iterations=30, jobs=2, extend=2.0, margin=0.99, flat="off") as bot:
        in_workers = play(bot, states)
    monkeypatch.setenv(JOBS_VARIABLE, "1")
    again = IsmctsBot(seed=6, iterations=30, jobs=2, extend=2.0, margin=0.99, flat="off")
    assert play(again, states) == in_workers
    assert all(iterations == 60 for _, _, iterations in in_workers)


def test_game_time_is_spread_over_the_decisions_left() -> None:
    early = tm.new_game(3, seed=1)
    late = decision_states(40, seed=1)[-1]
    assert late.visit > early.visit
    bot = IsmctsBot(seed=1, game_time=60.0)
    first = bot.decision_seconds(early.view(0))
    assert first == pytest.approx(60.0 * CLOCK_SHARE / (12 * DECISIONS_PER_VISIT))
    seat = late.current_player
    assert seat is not None and first is not None
    assert (bot.decision_seconds(late.view(seat)) or 0) > first  # fewer decisions left
    bot.clock_used = 30.0  # of the 54 s it plans to use
    assert bot.decision_seconds(early.view(0)) == pytest.approx(first * 24 / 54)
    capped = IsmctsBot(seed=1, game_time=60.0, time_limit=0.01)
    assert capped.decision_seconds(early.view(0)) == 0.01
    bot.clock_used = 61.0  # the clock is spent: still one iteration, a legal move
    assert bot.decision_seconds(early.view(0)) == 0.0
    move = bot.choose(early.view(0), early.legal_moves())
    assert move in early.legal_moves() and bot.last_iterations >= 1
    assert bot.clock_used > 61.0  # its own time is counted


def test_a_bot_used_for_a_second_game_starts_a_fresh_clock() -> None:
    late = decision_states(40, seed=1)[-1]
    early = tm.new_game(3, seed=2)
    bot = IsmctsBot(seed=1, game_time=1.0, iterations=3)
    seat = late.current_player
    assert seat is not None
    bot.choose(late.view(seat), late.legal_moves())
    bot.clock_used = 5.0
    before = time.monotonic()
    bot.choose(early.view(0), early.legal_moves())
    assert bot.clock_used <= time.monotonic() - before


def test_effort_options_show_in_the_bot_listing() -> None:
    from tajmahal.bots.specs import option_types

    kinds = option_types(IsmctsBot)
    assert kinds["jobs"] == (int,) and kinds["extend"] == (float,)
    assert kinds["margin"] == (float,) and set(kinds["game_time"]) == {float, type(None)}


def test_a_stalled_worker_is_replaced_and_the_moves_stay_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An iteration budget waits for a stopped worker only so long, then searches its share here."""
    states = decision_states(3)
    twin = play(IsmctsBot(seed=12, iterations=30, jobs=2), states)
    with IsmctsBot(seed=12, iterations=30, jobs=2) as bot:
        outcomes = play(bot, states[:1])
        (stalled,) = bot.worker_pids()
        os.kill(stalled, signal.SIGSTOP)
        monkeypatch.setattr(_ismcts_search, "STALL_SECONDS", 0.5)  # not 30 s: a short test
        monkeypatch.setattr(_ismcts_search, "STALL_FACTOR", 1.0)
        outcomes += play(bot, states[1:])
        assert outcomes == twin
        assert gone(stalled)  # killed and reaped
    assert descendant_search_workers() == set()


def test_a_stalled_worker_under_a_time_budget_costs_only_its_share() -> None:
    states = decision_states(3)
    with IsmctsBot(seed=12, time_limit=0.05, jobs=2) as bot:
        play(bot, states[:1])
        (stalled,) = bot.worker_pids()
        os.kill(stalled, signal.SIGSTOP)
        for _, _, iterations in play(bot, states[1:]):  # each decision still ends
            assert iterations >= 1
        assert bot.worker_pids() == [stalled]  # late, not dead: kept
    assert gone(stalled)  # close() kills even a stopped worker, and reaps it


def test_the_parallel_search_benchmark_runs_and_reports_each_jobs_value() -> None:
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "parallel_search.py"
    done = subprocess.run(
        [sys.executable, str(script), "--time-limit", "0.02", "--jobs", "1", "2",
         "--decisions", "2"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["jobs=1", "jobs=2"]
    assert "1.00x jobs=1" in lines[0] and "of 2" in lines[1]
    bad = subprocess.run([sys.executable, str(script), "--jobs", "0"], capture_output=True,
                         text=True, timeout=300)  # fmt: skip
    assert bad.returncode == 2 and "must be positive" in bad.stderr


def test_a_bot_program_closes_its_bot_when_the_game_ends() -> None:
    import io

    from tajmahal.protocol import serve
    from tajmahal.protocol.messages import hello_line, request_line

    state = decision_states(1)[0]
    seat = state.current_player
    assert seat is not None
    legal = [str(move) for move in state.legal_moves()]
    request = request_line(1, 5.0, legal, tm.dumps(state.view(seat)))
    referee_says = io.BytesIO(hello_line(seat, 3, 9, 5.0) + request)
    made: list[IsmctsBot] = []

    def make(seed: int) -> IsmctsBot:
        made.append(IsmctsBot(seed=seed, iterations=10, jobs=2))
        return made[0]

    serve(make, name="ismcts", input=referee_says, output=io.BytesIO())
    (bot,) = made
    # two shares of 5 iterations; a play decision is a flat search in each share
    flat = max(round(5 * FLAT_SHARE), len(legal))
    expected = 2 * flat if state.phase is tm.Phase.PLAY else 10
    assert bot.last_iterations == expected and bot.worker_pids() == []  # closed at the end
    assert descendant_search_workers() == set()
