"""Every cost a lobby may ask is counted, and every search the server runs ends by itself.

- The lobby's cap (``--max-iterations``, :func:`~tajmahal.bots.ismcts.decision_work`)
  counts every option that multiplies a decision's work: checked against what the bot
  really searches (``last_iterations``), option by option, at 3 and 5 seats.
- A time budget (``time_limit``, times ``focus`` and ``extend``) is at most the game's move
  limit; a budget the lobby cannot bound (``game_time``, an iteration budget on a slow
  machine) is cut by the host's deadline (:func:`~tajmahal.bots.base.decision_deadline`):
  the search answers in time and its worker is never replaced.
- Hints, analyses and the lobby's bot check have limits of their own.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import tajmahal as tm
from tajmahal.bots.base import current_deadline, decision_deadline
from tajmahal.bots.ismcts import IsmctsBot, decision_time, decision_work
from tajmahal.web import _table_analysis
from tajmahal.web.config import ConfigError, GameConfig, check_bots
from web_server import Server, token_of

WAIT = 300.0  # a loaded machine: generous bounds on how long a bounded call may take


def searched(options: dict[str, Any], seats: int, decisions: int = 24) -> int:
    """The most iterations ``ismcts`` with ``options`` ran in one decision of a game."""
    state = tm.new_game(num_players=seats, seed=5)
    bots = [IsmctsBot(seed=n, **options) for n in range(seats)]
    most = 0
    for _ in range(decisions):
        if state.is_over:
            break
        seat = state.current_player
        move = bots[seat].choose(state.view(seat), state.legal_moves())
        most = max(most, bots[seat].last_iterations)
        state = state.apply(move)
    return most


@pytest.mark.parametrize(
    ("options", "seats"),
    [
        ({"iterations": 40, "focus": 2.0}, 3),  # a play decision: twice the budget
        ({"iterations": 40, "focus": 1.5, "extend": 3.0, "margin": 0.9}, 3),
        ({"level": 1}, 5),  # a level's budget at 5 seats is ismcts-v2's: 400 for 330
        ({"level": 1, "focus": 2.0}, 5),
        ({}, 5),  # the default budget, too
    ],
)
def test_the_cap_counts_every_option_that_multiplies_the_search(
    options: dict[str, Any], seats: int
) -> None:
    assert searched(options, seats) <= decision_work(options)  # type: ignore[operator]


def config(seat: str, **game: Any) -> GameConfig:
    return GameConfig.parse({"seats": [{"human": True, "name": "Ann"}, seat, "random"], **game})


@pytest.mark.parametrize(
    ("seat", "game", "words"),
    [
        ("ismcts:iterations=6000,focus=2", {}, "got 12000 (counting what"),
        ("ismcts:level=5,focus=2", {}, "at most 10000 iterations per decision, got 18400"),
        ("ismcts:time_limit=120,extend=10", {"time_limit": 120}, "may search 1200 seconds"),
        ("ismcts:time_limit=10,focus=2", {}, "more than the 10 seconds this game gives"),
        ("ismcts:time_limit=30", {"time_limit": 20}, "more than the 20 seconds"),
    ],
)
def test_the_lobby_refuses_a_search_longer_or_larger_than_the_server_allows(
    seat: str, game: dict[str, Any], words: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(words)):
        config(seat, **game)


def test_what_fits_the_limits_is_still_allowed() -> None:
    for seat, game in [
        ("ismcts:level=5", {}),  # 9200 at 5 seats
        ("ismcts:time_limit=5,focus=2", {}),  # 10 s: the default move limit
        ("ismcts:time_limit=10,extend=3", {"time_limit": 30}),
        ("ismcts:game_time=3600", {}),  # bounded at each decision by the server's deadline
    ]:
        config(seat, **game)
    assert decision_time({"time_limit": 120, "extend": 10, "focus": 2}) == 2400.0


def in_thread(work: Any, *args: Any) -> Any:
    """``work(*args)`` in a thread of its own, given ``WAIT`` seconds (an unbounded search
    would take hours): its result."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(work(*args)), daemon=True)
    thread.start()
    thread.join(WAIT)
    assert result, f"{work.__name__} did not end within {WAIT:g} s"
    return result[0]


def test_a_search_stops_by_itself_at_the_hosts_deadline() -> None:
    state = tm.new_game(num_players=3, seed=1)
    for options in ({"iterations": 10_000_000, "flat": "off"}, {"iterations": 10_000_000},
                    {"game_time": 3600.0, "extend": 10.0, "margin": 0.99}):  # fmt: skip
        bot = IsmctsBot(seed=1, **options)

        def decide(bot: IsmctsBot = bot) -> tm.Move:
            with decision_deadline(0.5):
                return bot.choose(state.view(0), state.legal_moves())

        assert in_thread(decide) in state.legal_moves()
        assert 0 < bot.last_iterations < 10_000_000
    assert current_deadline() is None  # the deadline ends with its block


def test_a_deadline_never_changes_what_an_iteration_budget_plays() -> None:
    state = tm.new_game(num_players=3, seed=2)
    plain = IsmctsBot(seed=4, iterations=60)
    bounded = IsmctsBot(seed=4, iterations=60)
    for _ in range(12):
        seat = state.current_player
        move = plain.choose(state.view(seat), state.legal_moves())
        with decision_deadline(600.0):
            assert bounded.choose(state.view(seat), state.legal_moves()) == move
        state = state.apply(move)


def test_a_hint_and_an_analysis_end_within_their_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_table_analysis, "HINT_ITERATIONS", 10_000_000)  # hours, unbounded
    monkeypatch.setattr(_table_analysis, "ANALYSIS_ITERATIONS", 10_000_000)
    monkeypatch.setattr(_table_analysis, "HINT_SECONDS", 0.5)
    monkeypatch.setattr(_table_analysis, "ANALYSIS_SECONDS", 1.0)
    state = tm.new_game(num_players=3, seed=1)
    hint = in_thread(_table_analysis.hint_for, state.view(0), state.legal_moves(), 7)
    assert hint["type"] == "hint" and hint["move"] in {str(m) for m in state.legal_moves()}
    record = tm.play_match(["greedy", "random", "random"], seed=3).record
    page = in_thread(_table_analysis.analysis_html, record, [0])
    assert "<html" in page.lower()


class SlowToBuild:
    """Builds in 2 seconds."""

    name = "slow-to-build"

    def __init__(self, seed: int = 0) -> None:
        time.sleep(2.0)

    def choose(self, view: Any, legal_moves: Any) -> Any:
        return legal_moves[0]


class _Plugin:
    @tm.hookimpl
    def tajmahal_bots(self) -> list[type]:
        return [SlowToBuild]


def test_the_lobbys_bot_check_is_bounded_in_all() -> None:
    tm.bots.default_registry().register(_Plugin(), name="slow-to-build-plugin")
    try:
        game = GameConfig.parse({"seats": ["slow-to-build"] * 4})
        with pytest.raises(ConfigError, match="took more than 3 s"):
            check_bots(game, seconds=3.0)  # each seat alone was given 3 s: 8 s in all
    finally:
        tm.bots.reload()


def test_a_servers_searches_answer_in_time_and_its_workers_are_never_replaced(
    tmp_path: Path,
) -> None:
    """Searches of hours (an iteration budget a slow machine cannot run, a game clock of an
    hour) under a move limit of half a second: each stops by itself at its deadline."""
    server = Server(tmp_path / "games.sqlite3", "--max-iterations", "10000000", "--bot-workers",
                    "1")  # fmt: skip
    try:
        seats = ["ismcts:iterations=10000000", "ismcts:game_time=3600", "random"]
        created = server.create(seats, time_limit=0.5)
        watcher = server.client(token_of(created["spectator"]))
        watcher.until(lambda m: m["type"] == "state" and (m["over"] or m["decision"] >= 30),
                      timeout=WAIT)  # fmt: skip
        watcher.close()
    finally:
        server.stop()
    assert not any("worker process was replaced" in line for line in server.lines)
    # each decision's search ended by itself: none was still running at the seat's next turn
    assert not any("still running an earlier call" in line for line in server.lines)
