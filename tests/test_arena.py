"""The arena without a server: accounts and tokens, ratings, scheduling, the CLI's accounts,
the rating chart (issue #48)."""

from __future__ import annotations

import json
import random
import sqlite3
import stat
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tajmahal.arena import ArenaError, ArenaStore, Candidate, choose_game, game_ranks, rate_game
from tajmahal.arena.accounts import token_digest
from tajmahal.arena.client import arena_url, read_token_file
from tajmahal.arena.ratings import NEW_MU, NEW_SIGMA, conservative
from tajmahal.arena.scheduling import seat_order
from tajmahal.cli import main


@pytest.fixture
def store(tmp_path: Path) -> ArenaStore:
    return ArenaStore(tmp_path / "games.sqlite3")


# ------------------------------------------------------------------ accounts


def test_only_the_tokens_digest_is_stored_and_it_authenticates_its_bot(
    store: ArenaStore, tmp_path: Path
) -> None:
    token = store.add_bot("mine")
    assert token is not None and token.startswith("tmb_") and len(token) > 40
    assert store.authenticate(token) == "mine"
    assert store.authenticate(token + "x") is None
    assert store.authenticate(token[:-1]) is None
    assert store.authenticate(None) is None and store.authenticate("") is None
    store.close()
    raw = (tmp_path / "games.sqlite3").read_bytes()
    assert token.encode() not in raw
    rows = sqlite3.connect(tmp_path / "games.sqlite3").execute(
        "SELECT digest FROM arena_bots").fetchall()  # fmt: skip
    assert rows == [(token_digest(token),)]
    assert not (tmp_path / "games.sqlite3").stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO)


def test_rotating_a_token_retires_the_old_one(store: ArenaStore) -> None:
    old = store.add_bot("mine")
    new = store.rotate_token("mine")
    assert new != old
    assert store.authenticate(old) is None and store.authenticate(new) == "mine"


def test_house_bots_are_installed_bots_only_and_have_no_token(store: ArenaStore) -> None:
    assert store.add_bot("house", house="greedy") is None
    assert store.bot("house").house == "greedy"  # type: ignore[union-attr]
    for spec in ("cmd:./mybot", "file:mine.py", "no_such_bot"):
        with pytest.raises(ArenaError):
            store.add_bot("other", house=spec)
    with pytest.raises(ArenaError, match="house bot"):
        store.rotate_token("house")


def test_names_are_checked_and_unique(store: ArenaStore) -> None:
    store.add_bot("mine")
    with pytest.raises(ArenaError, match="already"):
        store.add_bot("mine")
    for bad in ("", "has space", "-dash", "x" * 41, "<script>"):
        with pytest.raises(ArenaError, match="name"):
            store.add_bot(bad)
    with pytest.raises(ArenaError, match="no bot"):
        store.remove_bot("nobody")


def test_rating_a_game_is_stored_once_with_its_history(store: ArenaStore) -> None:
    for name in ("a", "b", "c"):
        store.add_bot(name, house="random")
    store.add_game("g1", ["a", "b", "c"], "watchtoken")
    after = rate_game([(25.0, NEW_SIGMA)] * 3, [1, 2, 3])
    assert store.rate("g1", [1, 2, 3], after, ["a", "b", "c"])
    assert not store.rate("g1", [1, 2, 3], after, ["a", "b", "c"])  # once
    bots = {bot.name: bot for bot in store.bots()}
    assert bots["a"].games == 1 and bots["a"].mu == pytest.approx(after[0][0])
    assert [bot.name for bot in store.bots()] == ["a", "b", "c"]  # by the conservative rating
    (point,) = store.history("a")
    assert point.game_id == "g1" and point.rank == 1
    (game,) = store.games_of("b")
    assert game.rated and game.ranks == (1, 2, 3) and game.watch == "watchtoken"
    store.remove_bot("a")
    assert store.history("a") == [] and store.bot("a") is None


# ------------------------------------------------------------------ ratings


def test_ranks_share_ties_and_put_faulty_seats_last() -> None:
    assert game_ranks([50, 50, 30], [False, False, False]) == [1, 1, 3]
    assert game_ranks([90, 50, 30], [True, False, False]) == [3, 1, 2]


def test_a_steady_winner_rises_and_every_uncertainty_falls() -> None:
    ratings = [(25.0, NEW_SIGMA)] * 3
    for _ in range(12):
        ratings = rate_game(ratings, [1, 2, 3])
    (w_mu, w_sigma), _, (l_mu, l_sigma) = ratings
    assert w_mu > 25 > l_mu and w_sigma < NEW_SIGMA and l_sigma < NEW_SIGMA
    assert conservative(w_mu, w_sigma) > conservative(l_mu, l_sigma)


# ------------------------------------------------------------------ scheduling


def test_a_newcomer_is_always_seated_and_nobody_without_room() -> None:
    rng = random.Random(3)
    bots = [Candidate(f"old{n}", 25.0 + n, 3.0, 100, 2) for n in range(6)]
    bots += [Candidate("new", 25.0, NEW_SIGMA, 0, 1), Candidate("full", 25.0, NEW_SIGMA, 0, 0)]
    for _ in range(50):
        game = choose_game(bots, rng)
        assert game is not None and "new" in game and "full" not in game
        assert 3 <= len(game) <= 5 and len(set(game)) == len(game)
    assert choose_game([bots[0], bots[1], bots[7]], rng) is None


def test_pairing_prefers_bots_of_similar_rating() -> None:
    rng = random.Random(5)
    bots = [Candidate("anchor", 25.0, 2.0, 0, 1)] + [
        Candidate(f"near{n}", 25.5, 2.0, 50, 1) for n in range(3)
    ] + [Candidate(f"far{n}", 45.0, 2.0, 50, 1) for n in range(3)]  # fmt: skip
    met: Counter[str] = Counter()
    for _ in range(300):
        game = choose_game(bots, rng, most=3)
        assert game is not None
        met.update(name[:3] for name in game if name != "anchor")
    assert met["nea"] > 5 * met["far"] > 0  # near ones mostly; far ones now and then


def test_seats_even_out_over_many_games() -> None:
    rng = random.Random(7)
    counts: dict[str, dict[tuple[int, int], int]] = {}
    for _ in range(300):
        order = seat_order(["a", "b", "c"], rng, counts)
        for seat, name in enumerate(order):
            mine = counts.setdefault(name, {})
            mine[(3, seat)] = mine.get((3, seat), 0) + 1
    for name in "abc":
        assert sorted(counts[name].values()) == [100, 100, 100]


# ------------------------------------------------------------------ the command line


def test_the_arena_commands_manage_accounts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "games.sqlite3")
    assert main(["arena", "add-bot", "remote1", "--db", db]) == 0
    printed = capsys.readouterr().out
    token = printed.split()[-1]
    assert token.startswith("tmb_") and "only this once" in printed
    token_file = tmp_path / "r2.token"
    assert main(["arena", "add-bot", "remote2", "--db", db, "--token-file", str(token_file)]) == 0
    assert read_token_file(token_file) not in capsys.readouterr().out
    assert not token_file.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO)
    assert main(["arena", "add-bot", "house1", "--house", "greedy", "--db", db]) == 0
    assert main(["arena", "add-bot", "evil", "--house", "cmd:./x", "--db", db]) == 1
    assert "never 'cmd:'" in capsys.readouterr().err
    assert main(["arena", "rotate-token", "remote1", "--db", db]) == 0
    new_token = capsys.readouterr().out.split()[-1]
    check = ArenaStore(db)
    assert check.authenticate(token) is None and check.authenticate(new_token) == "remote1"
    check.close()
    assert main(["arena", "remove", "remote2", "--db", db]) == 0
    assert "removed the bot remote2" in capsys.readouterr().out
    assert main(["arena", "list", "--db", db]) == 0
    listed = capsys.readouterr().out
    assert "remote1" in listed and "house greedy" in listed and "remote2" not in listed
    assert "tmb_" not in listed


def test_bot_connect_refuses_bad_arguments_before_connecting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token_file = tmp_path / "bot.token"
    token_file.write_text("not a token\n")
    assert main(["bot", "connect", "http://127.0.0.1:9", "random", "--token-file",
                 str(token_file)]) == 1  # fmt: skip
    assert "does not hold a bot token" in capsys.readouterr().err
    token_file.write_text("tmb_" + "x" * 43)
    assert main(["bot", "connect", "http://127.0.0.1:9", "no_such_bot", "--token-file",
                 str(token_file)]) == 2  # a bad spec is a usage error  # fmt: skip
    assert "no_such_bot" in capsys.readouterr().err
    with pytest.raises(ArenaError):
        arena_url("ftp://example.com")
    assert arena_url("http://h:1/base/") == "ws://h:1/base/api/arena/bot"


def test_the_rating_chart_is_an_inline_svg() -> None:
    from tajmahal.arena.accounts import RatingPoint
    from tajmahal.web.arena_pages import rating_chart

    points = [RatingPoint(f"g{n}", float(n), 25.0 + n, 8.0 - n / 5, 1) for n in range(10)]
    chart = rating_chart(points)
    assert chart.startswith("<svg") and chart.count("<polyline") == 2 and "10 games" in chart


# ------------------------------------------------------------------ the arena, in-process


def test_the_arena_plays_and_rates_house_games_and_rests_after_a_refused_one(
    tmp_path: Path,
) -> None:
    import asyncio

    from tajmahal.web import GameServer, ServerSettings, SQLiteStore
    from tajmahal.web.arena import Arena, ArenaSettings

    db = tmp_path / "games.sqlite3"
    accounts = ArenaStore(db)
    for name in ("a", "b", "c"):
        accounts.add_bot(name, house="random")
    accounts.add_bot("big", house="ismcts:iterations=50000")  # past the server's cap

    async def scenario() -> tuple[int, bool, list[str]]:
        server = GameServer(SQLiteStore(db), ServerSettings(bot_workers=1))
        arena = Arena(server, accounts, ArenaSettings(games=1, most_seats=3, schedule=False),
                      seed=1)  # fmt: skip
        await server.start()
        await arena.start()
        try:
            accounts.remove_bot("big")
            await arena.schedule()  # a, b, c: one game (at most one at once)
            started = list(arena.playing)
            for _ in range(600):
                await arena.settle()
                if not arena.playing:
                    break
                await asyncio.sleep(0.1)
            accounts.add_bot("big", house="ismcts:iterations=50000")
            accounts.remove_bot("a")
            await arena.schedule()  # b, c and big: refused by the server; it rests
            return len(arena.playing), arena._resting_until > 0, started
        finally:
            await arena.stop()
            await server.stop()

    with ThreadPoolExecutor(1) as thread:  # (a session's browser keeps a loop in this thread)
        playing, resting, started = thread.submit(asyncio.run, scenario()).result()
    assert len(started) == 1 and playing == 0 and resting
    (game,) = accounts.games(rated=True)
    assert game.game_id == started[0] and sorted(game.bots) == ["a", "b", "c"]
    assert {bot.name: bot.games for bot in accounts.bots()} == {"b": 1, "c": 1, "big": 0}


def test_challenges_are_noted_rated_only_if_the_server_says_and_house_bots_go_by_their_account(
    tmp_path: Path,
) -> None:
    import asyncio

    from tajmahal.web import ConfigError, GameConfig, GameServer, ServerSettings, SQLiteStore
    from tajmahal.web.arena import Arena, ArenaSettings

    db = tmp_path / "games.sqlite3"
    accounts = ArenaStore(db)
    accounts.add_bot("house-a", house="greedy")

    async def scenario() -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
        server = GameServer(SQLiteStore(db), ServerSettings(bot_workers=1))
        await server.start()
        made = []
        try:
            for rated in (False, True):
                arena = Arena(server, accounts, ArenaSettings(schedule=False,
                                                              rated_challenges=rated))  # fmt: skip
                created, config, seat = await arena.challenge({"bot": "house-a", "name": "Ann"},
                                                              "127.0.0.1")  # fmt: skip
                assert seat == 1
                table = server.tables.pop(created.id)  # read again from the database
                await table.close()
                again = await server.table(created.id)
                assert again is not None
                made.append((created.id, config.players, again.game.record().players))
        finally:
            await server.stop()
        return made

    with ThreadPoolExecutor(1) as thread:
        (unrated, _, _), (rated, players, stored_players) = thread.submit(
            asyncio.run, scenario()).result()  # fmt: skip
    assert players == stored_players == ("Ann", "house-a", "random")  # the account, not "greedy"
    playing = {game: (names, rate) for game, names, rate in accounts.playing()}
    assert playing == {unrated: (("(Ann)", "house-a", "(random)"), False),
                       rated: (("(Ann)", "house-a", "(random)"), True)}  # fmt: skip
    assert accounts.rate_once(unrated, [2, 1, 3]) is None  # over, not rated
    after = accounts.rate_once(rated, [2, 1, 3])
    assert after is not None and accounts.rate_once(rated, [2, 1, 3]) is None  # once
    assert [b.name for b in accounts.bots()] == ["house-a"]  # people get no account
    house = accounts.bot("house-a")
    assert house is not None and house.games == 1 and house.mu == pytest.approx(after[1][0])
    assert house.mu > NEW_MU and [p.game_id for p in accounts.history("house-a")] == [rated]
    assert accounts.playing() == [] and [g.game_id for g in accounts.games(rated=True)] == [rated]
    with pytest.raises(ConfigError, match="label"):
        GameConfig.parse({"seats": ["random", "random", {"human": False, "name": "greedy",
                                                           "label": "fake"}]})  # fmt: skip


def test_an_arena_file_of_the_previous_version_gets_the_challenges_column(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as old:  # the tables as 0.2's arena made them
        old.executescript(
            "CREATE TABLE arena_games (game_id TEXT PRIMARY KEY, created REAL NOT NULL, "
            "bots TEXT NOT NULL, watch TEXT NOT NULL, rated INTEGER NOT NULL DEFAULT 0, "
            "ranks TEXT);"
            "INSERT INTO arena_games VALUES ('g1', 1.0, '[\"a\", \"b\", \"c\"]', 'w', 0, NULL);"
        )
    store = ArenaStore(db)
    assert store.playing() == [("g1", ("a", "b", "c"), True)]  # a scheduled game: rated
    store.close()


def test_an_answer_handed_from_another_process_settles_only_its_own_request(
    tmp_path: Path,
) -> None:
    import asyncio

    import tajmahal as tm
    from tajmahal.faults import FaultKind
    from tajmahal.web.arena_remote import FAULT, BotHub, RemoteSeat

    state = tm.new_game(num_players=3, seed=5)
    seat = state.current_player
    assert seat is not None
    legal = state.legal_moves()
    store = ArenaStore(tmp_path / "games.sqlite3")

    async def scenario() -> tuple[list[str | None], Any, Any]:
        hub = BotHub(store, default_limit=30.0)
        remote = RemoteSeat(hub, "far", "g1", seat, 3, 1)
        asking = asyncio.get_running_loop().create_task(
            hub.ask(remote, state.view(seat), legal, 30.0, 1))  # fmt: skip
        await asyncio.sleep(0.05)
        said = [
            hub.answered_elsewhere("g1", seat, 2, str(legal[0])),  # another decision
            hub.answered_elsewhere("g2", seat, 1, str(legal[0])),  # another game
            hub.answered_elsewhere("g1", seat, 1, "palace nowhere"),  # not legal
            hub.answered_elsewhere("g1", seat, 1, FAULT + "[[[" * 50),  # not JSON
            hub.answered_elsewhere("g1", seat, 1, FAULT + '{"kind": "meltdown"}'),
            hub.answered_elsewhere("g1", seat, 1, str(legal[-1])),  # the answer
            hub.answered_elsewhere("g1", seat, 1, str(legal[0])),  # too late
        ]
        first = await asyncio.wait_for(asking, 10)
        asking = asyncio.get_running_loop().create_task(
            hub.ask(remote, state.view(seat), legal, 30.0, 1))  # fmt: skip
        await asyncio.sleep(0.05)
        said.append(hub.answered_elsewhere("g1", seat, 1, FAULT + json.dumps(
            {"kind": "illegal_move", "detail": "played palace nowhere"})))  # fmt: skip
        return said, first, await asyncio.wait_for(asking, 10)

    with ThreadPoolExecutor(1) as thread:
        said, first, faulted = thread.submit(asyncio.run, scenario()).result()
    store.close()
    assert [s is None for s in said] == [False] * 5 + [True, False, True]
    assert "too late" in (said[0] or "") and "legal" in (said[2] or "")
    assert first.index == len(legal) - 1 and first.kind is None
    assert faulted.kind is FaultKind.ILLEGAL_MOVE and "palace nowhere" in faulted.detail
