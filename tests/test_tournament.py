"""Tournaments: seating, statistics, the results file (resume, untrusted input), faults, CLI.

The backends other than ``serial`` are tested in ``test_tournament_backends.py``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import pickle
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from tajmahal.cli import main
from tajmahal.tournament import (
    GameResult,
    Header,
    TournamentError,
    arrangements,
    block_size,
    read_results,
    run_tournament,
    schedule,
    summarize,
    summarize_file,
    wilson,
)

THREE = ["random", "random", "random"]


def serial(entrants: list[str], games: int, **kwargs: object) -> tm.TournamentResult:
    return run_tournament(entrants, games=games, backend="serial", **kwargs)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ seating


@settings(max_examples=80, deadline=None)
@given(
    st.integers(3, 9).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(3, min(5, n)), st.integers(1, 4),
                            st.integers(0, 2**63 - 1))
    )
)
def test_every_block_balances_seats_and_neighbours(case: tuple[int, int, int, int]) -> None:
    """Within every block: each entrant at the table in each seat equally often, and for
    each ordered pair, the second directly after the first (around the table) equally often."""
    entrants, seats, blocks, seed = case
    names = [f"bot{i}" for i in range(entrants)]
    size = block_size(seats)
    games = size * max(blocks, -(-entrants // seats))
    jobs = list(schedule(names, seats, games, seed=seed))
    assert [job.game for job in jobs] == list(range(games))
    for block in range(games // size):
        mine = [job for job in jobs if job.block == block]
        assert len(mine) == size and len({job.seed for job in mine}) == 1
        table = set(mine[0].players)
        assert len(table) == seats and all(set(job.players) == table for job in mine)
        in_seat = Counter((name, seat) for job in mine for seat, name in enumerate(job.players))
        assert len(in_seat) == seats * seats and set(in_seat.values()) == {size // seats}
        after = Counter(
            (job.players[seat], job.players[(seat + 1) % seats])
            for job in mine for seat in range(seats)
        )
        assert len(after) == seats * (seats - 1) and set(after.values()) == {size // (seats - 1)}
    played = Counter(name for job in jobs for name in job.players)
    assert set(played) == set(names)
    if (games // size) * seats % entrants == 0:  # every entrant can play equally often
        assert len(set(played.values())) == 1


@pytest.mark.parametrize(("seats", "size"), [(3, 6), (4, 24), (5, 20)])
def test_the_balanced_design_sizes(seats: int, size: int) -> None:
    design = arrangements(seats)
    assert len(design) == size == block_size(seats) and len(set(design)) == size
    if seats < 5:  # every order is played
        assert len(design) == math.factorial(seats)
    assert arrangements(seats, "rotation") == tuple(
        tuple((r + s) % seats for s in range(seats)) for r in range(seats)
    )


def test_the_rotation_design_is_the_old_schedule() -> None:
    jobs = list(schedule(["a", "b", "c", "d"], 3, 12, seed=1, seating="rotation"))
    assert [job.game for job in jobs] == list(range(12))
    for block in range(4):
        games = [job for job in jobs if job.block == block]
        assert len(games) == 3 and len({job.seed for job in games}) == 1
        first = games[0].players
        assert [job.players for job in games] == [first[r:] + first[:r] for r in range(3)]
    assert len({job.seed for job in jobs}) == 4


def test_pairs_meet_equally_often_over_all_tables() -> None:
    jobs = list(schedule([str(i) for i in range(5)], 3, 6 * 10, seed=0))
    met = Counter(
        frozenset(pair) for job in jobs[::6] for pair in _pairs(job.players)
    )
    assert set(met.values()) == {3} and len(met) == 10  # C(5,2) pairs, 3 tables each


@pytest.mark.parametrize(
    ("entrants", "seats"),
    [(["greedy", "greedy", "random"], 3),
     (["random", "greedy", "greedy"], 3),
     (["greedy", "random", "greedy", "random"], 4),
     (["random", "random", "greedy", "greedy"], 4)],
)
def test_copies_of_a_deterministic_bot_get_exactly_equal_results(
    entrants: list[str], seats: int
) -> None:
    """Two copies of greedy (deterministic): equal wins, points and ratings in whole blocks,
    whatever order the entrants are listed in (seat rotation alone did not give this)."""
    result = serial(entrants, block_size(seats) * (2 if seats == 3 else 1), seed=4)
    rows = {row.name: row for row in result.table}
    copied = {name for name in entrants if entrants.count(name) == 2}
    for name in copied:
        one, two = rows[name], rows[f"{name}#2"]
        assert (one.wins, one.mean_score, one.mean_rank, one.rating) == (
            two.wins, two.mean_score, two.mean_rank, two.rating
        )
        assert result.head_to_head.ahead(name, f"{name}#2") == result.head_to_head.ahead(
            f"{name}#2", name
        )
    if seats > 3:
        return
    rotated = serial(entrants, 6, seed=4, seating="rotation")  # what this design fixes
    rows = {row.name: row for row in rotated.table}
    assert any(rows[name].wins != rows[f"{name}#2"].wins or rows[name].mean_score !=
               rows[f"{name}#2"].mean_score for name in copied)


def _pairs(players: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            yield a, b


def test_the_schedule_depends_on_the_seed_only_through_the_deals() -> None:
    one = list(schedule(THREE, 3, 6, seed=1))
    again = list(schedule(THREE, 3, 6, seed=1))
    other = list(schedule(THREE, 3, 6, seed=2))
    assert one == again
    assert [j.players for j in one] == [j.players for j in other]
    assert {j.seed for j in one}.isdisjoint({j.seed for j in other})


@pytest.mark.parametrize(
    ("entrants", "kwargs", "message"),
    [
        (["random", "random"], {}, "3 to 64 entrants, got 2; name a bot more than once"),
        (THREE, {"games": 4}, "games must be a positive multiple of 6"),
        (THREE, {"games": 0}, "games must be a positive multiple of 6"),
        (THREE, {"games": 3, "seating": "rotation"}, None),
        (THREE, {"seating": "williams"}, "unknown seating 'williams'; the seatings: balanced"),
        (THREE, {"until_decided": 1}, "until_decided must be True or False"),
        (THREE, {"num_players": 4}, "num_players must be 3 to 3"),
        (["random"] * 7, {"num_players": 3, "games": 6}, "need at least 18 games"),
        (THREE, {"backend": "threads"}, "unknown backend 'threads'; the backends: serial"),
        (THREE, {"jobs": 0}, "jobs must be a whole number from 1"),
        (THREE, {"time_limit": -1}, "time_limit must be a number of seconds above 0"),
        (THREE, {"game_time": float("nan")}, "game_time must be a number of seconds above 0"),
        (THREE, {"isolate": "yes"}, "isolate must be True or False"),
        (THREE, {"resume": True}, "resume needs the results file"),
        (THREE, {"ray_address": "localhost:1"}, "ray_address is for the 'ray' backend only"),
        ("greedy", {}, "entrants must be a list of player specs"),
    ],
)
def test_bad_arguments_are_clear_errors(
    entrants: list[str], kwargs: dict[str, object], message: str | None
) -> None:
    kwargs.setdefault("games", 6)
    if message is None:  # accepted
        assert len(run_tournament(entrants, backend="serial", **kwargs).games) == 3  # type: ignore[arg-type]
        return
    with pytest.raises(TournamentError, match=message.replace("(", r"\(")):
        run_tournament(entrants, **kwargs)  # type: ignore[arg-type]


def test_a_bad_spec_fails_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with pytest.raises(tm.bots.SpecError, match="player spec 'greedy:depth=2'"):
        serial(["random", "greedy:depth=2", "random"], 6, out=out)
    assert not out.exists()


# ------------------------------------------------------------------------------ statistics


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(30, 100)
    assert (round(low, 4), round(high, 4)) == (0.2189, 0.3958)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(5, 10)
    assert math.isclose(low + high, 1.0)


def test_ties_share_wins_and_places() -> None:
    header = Header(("a", "b", "c"), 3, 3, 0, seating="rotation")
    games = [
        GameResult(g, 0, 9, names, scores, winners, ranking, ())
        for g, names, scores, winners, ranking in [
            (0, ("a", "b", "c"), (50, 50, 10), (0, 1), (0, 1, 2)),
            (1, ("b", "c", "a"), (40, 40, 40), (0, 1, 2), (0, 1, 2)),
            (2, ("c", "a", "b"), (10, 30, 20), (1,), (1, 2, 0)),
        ]
    ]
    rows = {row.name: row for row in summarize(header, games).table}
    assert rows["a"].wins == pytest.approx(0.5 + 1 / 3 + 1)
    assert rows["b"].wins == pytest.approx(0.5 + 1 / 3)
    assert rows["c"].wins == pytest.approx(1 / 3)
    assert sum(row.wins for row in rows.values()) == pytest.approx(3)
    assert rows["a"].mean_rank == pytest.approx((1.5 + 2 + 1) / 3)
    h2h = summarize(header, games).head_to_head
    assert h2h.ahead("a", "b") == 0.5 + 0.5 + 1 and h2h.met("a", "b") == 3


def test_statistics_follow_the_games(tmp_path: Path) -> None:
    result = serial(["greedy", "random", "random"], 12, seed=5)
    rows = {row.name: row for row in result.table}
    for row in result.table:
        mine = [(g, g.players.index(row.name)) for g in result.games]
        assert row.games == 12
        assert row.mean_score == pytest.approx(sum(g.scores[s] for g, s in mine) / 12)
        assert row.win_ci[0] <= row.win_rate <= row.win_ci[1]
        assert row.score_ci is not None and row.score_ci[0] <= row.mean_score <= row.score_ci[1]
    assert sum(row.wins for row in result.table) == pytest.approx(12)
    h2h = result.head_to_head
    for a in rows:
        for b in rows:
            if a != b:
                assert h2h.ahead(a, b) + h2h.ahead(b, a) == h2h.met(a, b) == 12
    assert result.table[0].name == "greedy"  # greedy beats random bots by a wide margin
    assert rows["greedy"].rating.mu > rows["random"].rating.mu


def test_ratings_take_the_games_in_game_order() -> None:
    result = serial(THREE, 6, seed=2)
    shuffled = list(result.games)
    random.Random(1).shuffle(shuffled)
    assert summarize(result.header, shuffled).table == result.table


# ------------------------------------------------------------------------------ ratings


def _finished(game: int, block: int, players: tuple[str, ...], finish: list[str]) -> GameResult:
    """A game at ``players``' seats that ended in the order ``finish`` (best first)."""
    scores = tuple(60 - 10 * finish.index(name) for name in players)
    ranking = tuple(sorted(range(len(players)), key=lambda seat: -scores[seat]))
    return GameResult(game, block, 1, players, scores, (ranking[0],), ranking, ())


def test_a_dominant_entrant_is_rated_first_and_its_rating_settles_block_after_block() -> None:
    """The defect the block-by-block update had: ``a`` wins every game of one block and half
    of the next (last in the others), 75% in all; the old update swung its rating between
    about 60 and -2 and rated it last after every second block."""
    names = ("a", "b", "c", "d")
    games: list[GameResult] = []
    for block in range(8):
        for number, players in enumerate(itertools.permutations(names)):
            others = [name for name in players if name != "a"]
            won = block % 2 == 1 or number % 2 == 0
            games.append(_finished(len(games), block, players,
                                   ["a", *others] if won else [*others, "a"]))
    header = Header(names, num_players=4, games=len(games), seed=0)
    path = []
    for blocks in range(1, 9):
        table = summarize(header, games[: 24 * blocks]).table
        if blocks >= 2:
            assert table[0].name == "a"
            assert all(table[0].rating.ordinal > row.rating.ordinal for row in table[1:])
        path.append(next(row.rating.mu for row in table if row.name == "a"))
    moves = [after - before for before, after in itertools.pairwise(path)]
    assert all(abs(move) < 15 for move in moves)
    assert all(abs(moves[i + 2]) < abs(moves[i]) for i in range(len(moves) - 2))  # swings shrink


_OUTCOMES = st.lists(
    st.tuples(st.permutations(range(5)).map(lambda order: order[:3]),
              st.lists(st.integers(0, 3), min_size=3, max_size=3)),
    min_size=1, max_size=30,
)


def _games(outcomes: list[tuple[list[int], list[int]]], names: tuple[str, ...]) -> list[GameResult]:
    games = []
    for number, (seats, scores) in enumerate(outcomes):
        top = max(scores)
        ranking = tuple(sorted(range(3), key=lambda seat: (-scores[seat], seat)))
        games.append(GameResult(number, number // 6, 1, tuple(names[who] for who in seats),
                                tuple(scores), tuple(s for s in range(3) if scores[s] == top),
                                ranking, ()))
    return games


@settings(max_examples=60, deadline=None)
@given(_OUTCOMES, st.randoms(use_true_random=False))
def test_ratings_do_not_depend_on_the_order_of_the_games(
    outcomes: list[tuple[list[int], list[int]]], rng: random.Random
) -> None:
    """Parallel workers finish games in any order: the same games, numbered in another
    order (within and across blocks), give exactly the same table (ties included)."""
    names = ("a", "b", "c", "d", "e")
    games = _games(outcomes, names)
    numbers = list(range(len(games)))
    rng.shuffle(numbers)
    renumbered = [
        attrs.evolve(game, game=number) for game, number in zip(games, numbers, strict=True)
    ]
    header = Header(names, num_players=3, games=len(games), seed=0)
    assert summarize(header, renumbered).table == summarize(header, games).table
    assert all(math.isfinite(row.rating.mu) and row.rating.sigma > 0
               for row in summarize(header, games).table)


@settings(max_examples=60, deadline=None)
@given(_OUTCOMES)
def test_entrants_with_mirror_image_games_get_exactly_equal_ratings(
    outcomes: list[tuple[list[int], list[int]]],
) -> None:
    """Each game and its mirror image (``a`` and ``b`` swapped): equal ratings to the bit."""
    names = ("a", "b", "c", "d", "e")
    swap = {"a": "b", "b": "a"}
    games = _games(outcomes, names)
    mirrored = [
        attrs.evolve(game, game=len(games) + game.game,
                     players=tuple(swap.get(name, name) for name in game.players))
        for game in games
    ]
    header = Header(names, num_players=3, games=2 * len(games), seed=0)
    rows = {row.name: row for row in summarize(header, games + mirrored).table}
    if "a" in rows:
        assert rows["a"].rating == rows["b"].rating


def _committed_tournaments() -> list[Path]:
    results = Path(__file__).parent.parent / "benchmarks" / "results"
    return [path for path in sorted(results.glob("*.jsonl"))
            if '"format": "tajmahal/tournament"' in path.read_text().split("\n", 1)[0]]


@pytest.mark.parametrize("path", _committed_tournaments(), ids=lambda path: path.name)
def test_committed_tournaments_rate_a_better_mean_rank_higher(path: Path) -> None:
    """On every committed tournament log: an entrant with the better mean rank has the
    higher conservative rating (the block-by-block update rated the 4-player file's
    winner of 75% of its games last)."""
    table = summarize_file(path).table
    for better, worse in itertools.combinations(table, 2):
        assert better.mean_rank <= worse.mean_rank


def test_result_and_rows_as_json() -> None:
    data = json.loads(json.dumps(serial(THREE, 6).to_json()))
    assert data["games_played"] == 6 and data["tournament"]["entrants"] == THREE
    assert [row["name"] for row in data["table"]] != []
    assert set(data["table"][0]) >= {"name", "games", "wins", "win_rate", "win_ci", "mean_score",
                                      "score_ci", "mean_rank", "rating", "faults"}
    assert data["head_to_head"]["random"]["random#2"]["games"] == 6


# ------------------------------------------------------------------------------ faults


class _Stubborn:
    """Withdraws every time, also when it may not (illegal moves)."""

    name: ClassVar[str] = "stubborn"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: tm.PlayerView, legal_moves: object) -> tm.Move:
        return tm.Withdraw()


class _StubbornPlugin:
    @tm.hookimpl
    def tajmahal_bots(self) -> list[type[object]]:
        return [_Stubborn]


@pytest.fixture
def stubborn() -> Iterator[str]:
    tm.bots.default_registry().register(_StubbornPlugin(), name="stubborn-test")
    yield "stubborn"
    tm.bots.reload()


def test_faults_are_counted_and_kept_in_the_file(stubborn: str, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = serial([stubborn, "random", "random"], 6, out=out)
    rows = {row.name: row for row in result.table}
    assert rows[stubborn].faults > 0 and rows[stubborn].faulty_games == 6
    assert rows["random"].faults == 0
    assert result.table[-1].name == stubborn  # faulty seats rank last
    assert all(g.winners and g.players[g.ranking[-1]] == stubborn for g in result.games)
    assert summarize_file(out).table == result.table
    line = json.loads(out.read_text().splitlines()[1])
    assert line["faults"][0]["kind"] == "illegal_move"


def test_the_time_limit_reaches_every_seat() -> None:
    result = serial(THREE, 6, time_limit=1e-9)
    assert all(row.faults > 0 for row in result.table)
    assert result.header.time_limit == 1e-9


def test_the_game_clock_reaches_every_seat(tmp_path: Path) -> None:
    result = serial(THREE, 3, game_time=1e-6, out=tmp_path / "r.jsonl", seating="rotation")
    assert all(row.faulty_games == 3 for row in result.table)
    assert read_results(tmp_path / "r.jsonl").header.game_time == 1e-6


class _Finished:
    """An observer that keeps the scores of every match it sees end."""

    def __init__(self) -> None:
        self.scores: list[tuple[int, ...]] = []

    def tajmahal_match_finished(self, result: tm.MatchResult) -> None:
        self.scores.append(result.scores)


def test_observers_watch_every_game() -> None:
    seen = _Finished()
    result = serial(THREE, 6, observers=[seen])
    assert seen.scores == [game.scores for game in result.games]


def test_isolated_bots_play_the_same_games() -> None:
    isolated = serial(["greedy", "random", "random"], 6, seed=6, isolate=True)
    assert isolated.games == serial(["greedy", "random", "random"], 6, seed=6).games
    assert isolated.header.isolate


# ------------------------------------------------------------------------------ results file


def test_every_game_is_a_line_in_the_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = serial(["greedy", "random", "random"], 6, seed=4, out=out)
    lines = out.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header == {"format": "tajmahal/tournament", "version": 2,
                      "entrants": ["greedy", "random", "random"], "num_players": 3, "games": 6,
                      "seed": 4, "time_limit": None, "game_time": None, "isolate": False,
                      "seating": "balanced", "until_decided": False}
    games = [json.loads(line) for line in lines[1:]]
    assert [g["game"] for g in games] == list(range(6))
    assert set(games[0]) == {"game", "block", "seed", "players", "scores", "winners", "ranking",
                             "faults", "seconds"}
    assert tuple(GameResult.from_json(g) for g in games) == result.games
    found = read_results(out)
    assert found.games == result.games and not found.half_line
    assert summarize_file(out).table == result.table


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    serial(THREE, 6, out=out, seed=0)
    before = out.read_bytes()
    with pytest.raises(TournamentError, match="already holds results: resume it"):
        serial(THREE, 6, out=out)
    with pytest.raises(TournamentError, match="holds another tournament: its seed is 0, not 1"):
        serial(THREE, 6, out=out, seed=1, resume=True)
    assert out.read_bytes() == before


def test_resume_plays_only_the_missing_games_and_replays_a_half_line(tmp_path: Path) -> None:
    whole = serial(THREE, 18, seed=8, out=tmp_path / "whole.jsonl")
    lines = (tmp_path / "whole.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    # killed while writing game 5: games 0-4 complete, half of game 5's line
    cut.write_text("".join(lines[:6]) + lines[6][:40], encoding="utf-8")
    assert read_results(cut).half_line and len(read_results(cut).games) == 5
    seen: list[int] = []
    resumed = serial(THREE, 18, seed=8, out=cut, resume=True,
                     on_game=lambda result, done, total: seen.append(result.game))
    assert seen == list(range(5, 18))
    assert resumed.games == whole.games and resumed.table == whole.table
    again = cut.read_text(encoding="utf-8").splitlines()
    assert len(again) == 19 and [json.loads(x)["game"] for x in again[1:]] == list(range(18))
    assert serial(THREE, 18, out=cut, resume=True, seed=None).table == whole.table  # nothing left


def test_resume_of_a_missing_file_starts_it(tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    assert len(serial(THREE, 6, out=out, resume=True).games) == 6
    assert len(read_results(out).games) == 6


def _valid_file(tmp_path: Path) -> tuple[Path, list[str]]:
    out = tmp_path / "valid.jsonl"
    if not out.exists():
        serial(THREE, 6, seed=1, out=out)
    return out, out.read_text(encoding="utf-8").splitlines(keepends=True)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: [], "is empty: it holds no tournament header"),
        (lambda lines: ["{}\n"], "line 1: not a tournament results file"),
        (lambda lines: ['{"format": "tajmahal/tournament", "version": 9}\n'],
         "line 1: unknown version 9"),
        (lambda lines: [lines[0], "not json\n"], "line 2: not JSON"),
        (lambda lines: [lines[0], lines[1], lines[1]], "line 3: game 0 again (first on line 2)"),
        (lambda lines: [lines[0], lines[1].replace('"game": 0', '"game": 7')],
         "line 2: game 7, but the tournament has 6 games"),
        (lambda lines: [lines[0], lines[2].replace('"game": 1', '"game": 0')],
         "line 2: game 0 should be block 0"),
        (lambda lines: [lines[0], lines[1].replace('"scores": [', '"scores": [1e9, ')],
         "line 2: 'scores' must be a list of 3"),
        (lambda lines: [lines[0], lines[1].replace('"ranking": [', '"ranking": [0, ')],
         "line 2: 'ranking' must be a list of 3"),
        (lambda lines: [lines[0], lines[1].replace('"faults": []', '"faults": [1]')],
         "line 2: a fault needs the keys"),
        (lambda lines: [lines[0], "[" * 100_000 + "\n"], "line 2: not JSON"),
        (lambda lines: [lines[0], "x" * (1 << 21) + "\n"], "line 2: longer than 1048576 bytes"),
        (lambda lines: [lines[0].replace('"seed": 1', '"seed": "1"')], "line 1: 'seed' must be"),
        (lambda lines: [lines[0].replace('"games": 6', '"games": 4')],
         "line 1: games must be a positive multiple of 6"),
        (lambda lines: [lines[0].replace('"balanced"', '"williams"')],
         "line 1: 'seating' must be one of balanced, rotation"),
        (lambda lines: [lines[0].replace('"until_decided": false', '"until_decided": 0')],
         "line 1: 'until_decided' must be true or false"),
        (lambda lines: [lines[0].replace('"version": 2', '"version": 1')],
         "line 1: the header of version 1 needs the keys"),
    ],
)
def test_a_bad_results_file_is_a_clear_error(
    tmp_path: Path, change: object, message: str
) -> None:
    _, lines = _valid_file(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(change(lines)), encoding="utf-8")  # type: ignore[operator]
    with pytest.raises(TournamentError, match=_escaped(message)):
        read_results(bad)


def _escaped(text: str) -> str:
    import re

    return re.escape(text)


def test_a_file_that_is_not_utf8_is_a_clear_error(tmp_path: Path) -> None:
    _, lines = _valid_file(tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(lines[0].encode() + b"\xff\xfe\n")
    with pytest.raises(TournamentError, match="line 2: not UTF-8 text"):
        read_results(bad)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_damaged_results_file_never_raises_anything_else(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    folder = tmp_path_factory.getbasetemp() / "fuzz"
    folder.mkdir(exist_ok=True)
    out, _ = _valid_file(folder)
    raw = bytearray(out.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    damaged = folder / "damaged.jsonl"
    damaged.write_bytes(bytes(raw))
    with contextlib.suppress(TournamentError):  # anything else fails the test
        found = read_results(damaged)
        summarize(found.header, found.games)


# ------------------------------------------------------------------------------ pickling


def test_states_views_and_records_pickle_small() -> None:
    state = tm.new_game(4, seed=3)
    record = tm.play_match(THREE, seed=3).record
    # the standard components alone pickle to about 9.7 KB as data
    for obj, most in ((state, 3000), (state.view(1), 4000), (record, 8000)):
        data = pickle.dumps(obj)
        assert len(data) < most, (type(obj).__name__, len(data))
        assert data.count(b"standard_components") == 1  # by name, once
        assert pickle.loads(data) == obj
    assert pickle.loads(pickle.dumps(state)).components is tm.standard_components()


def test_custom_components_pickle_as_data(tmp_path: Path) -> None:
    from tajmahal.rules.components import STANDARD_PATH

    mine = tm.load_components(STANDARD_PATH, name="mine")
    again = pickle.loads(pickle.dumps(tm.new_game(3, seed=1, components=mine)))
    assert again.components == mine and again.components.name == "mine"


# ------------------------------------------------------------------------------ command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prints_the_table_and_the_head_to_head(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.jsonl"
    code, text, err = run(capsys, "tournament", "greedy", "random", "random", "--games", "6",
                          "--backend", "serial", "--seed", "0", "--out", str(out))
    assert code == 0 and err == ""  # no progress bar: not a terminal
    assert "Tournament: 6 of 6 games, 3 players per game, seed 0" in text
    assert "win rate (95% CI)" in text and "rating mu ± sigma" in text
    assert "Head to head" in text and f"Results: {out}" in text
    first = next(line for line in text.splitlines() if line.strip().startswith("1 "))
    assert "greedy" in first
    code, summary, err = run(capsys, "tournament", "--summary", str(out))
    assert code == 0 and summary.splitlines()[:8] == text.splitlines()[:8]


def test_cli_json_is_the_same_result(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    code, text, _ = run(capsys, "tournament", *THREE, "--games", "6", "--backend", "serial",
                        "--json", "--seed", "3", "--out", str(out))
    assert code == 0
    assert json.loads(text) == json.loads(json.dumps(summarize_file(out).to_json()))
    code, again, _ = run(capsys, "tournament", "--summary", str(out), "--json")
    assert json.loads(again) == json.loads(text)


def test_cli_summary_notes_a_half_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out, lines = _valid_file(tmp_path)
    out.write_text("".join(lines[:3]) + lines[3][:20], encoding="utf-8")
    code, text, err = run(capsys, "tournament", "--summary", str(out))
    assert code == 0 and "Tournament: 2 of 6 games" in text
    assert "half-written line" in err


@pytest.mark.parametrize(
    ("argv", "words", "status"),
    [  # 2: the command line is wrong (a bad spec too); 1: a file that cannot be read
        (["tournament"], ["name the entrants"], 2),
        (["tournament", *THREE, "--resume"], ["--resume needs --out FILE"], 2),
        (["tournament", "--summary", "nowhere.jsonl"], ["cannot read nowhere.jsonl"], 1),
        (["tournament", *THREE, "--games", "5"], ["multiple of 6"], 2),
        (["tournament", "random", "nobody", "random"], ["no bot is called 'nobody'"], 2),
        (["tournament", *THREE, "--summary", "x.jsonl"], ["--summary reads a results file"], 2),
    ],
)
def test_cli_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str], status: int
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == status and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for word in words:
        assert word in err


def test_a_version_1_file_is_read_as_seated_by_rotation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "old.jsonl"
    played = serial(THREE, 3, seed=5, seating="rotation", out=out)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])  # seated by rotation alone: the version 1 format, unchanged
    assert header["version"] == 1 and "seating" not in header and "until_decided" not in header
    out.write_text("".join(lines[:3]), encoding="utf-8")
    found = read_results(out)
    assert found.header.seating == "rotation" and not found.header.until_decided
    assert found.games == played.games[:2]
    code, text, _ = run(capsys, "tournament", "--summary", str(out))
    assert code == 0 and "Seated by rotation only" in text
    with pytest.raises(TournamentError, match=r"its seating is 'rotation', not 'balanced' "
                                              r"\(continue it with seating='rotation'"):
        serial(THREE, 6, seed=5, out=out, resume=True, seating="balanced")
    assert serial(THREE, 3, seed=5, out=out, resume=True).games == played.games  # the file's
