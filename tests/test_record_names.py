"""Records keep every player name and spec the library accepts: written, then read back equal.

A record's players are the seats' specs (up to ``MAX_SPEC_LENGTH`` characters)
or any name a caller gives ``Game``; every front end that writes a record
(``play_match`` and ``tajmahal match``, ``Game.record``, the web server's
store, a tournament's results file) must write what ``tm.loads`` and the
other readers take back, whatever the length, up to the one limit
``MAX_PLAYER_NAME``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tajmahal as tm
from tajmahal.bots.specs import MAX_SPEC_LENGTH, parse_spec
from tajmahal.game import MAX_PLAYER_NAME
from tajmahal.rules.errors import FormatError, TajMahalError
from tajmahal.serialize import schema
from tajmahal.tournament.results import (
    GameResult,
    Header,
    open_for_append,
    read_results,
    write_line,
)
from tajmahal.tournament.seating import MAX_ENTRANTS, schedule
from tajmahal.web.config import GameConfig, ServerSettings
from tajmahal.web.stores import SQLiteStore, StoredGame

ROOT = Path(__file__).resolve().parent.parent
PALACE = ROOT / "src" / "tajmahal" / "examples" / "palace_lover.py"
DATA = Path(__file__).resolve().parent / "data"
FEW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])



def _long(alphabet: st.SearchStrategy[str], limit: int) -> st.SearchStrategy[str]:
    """Texts of ``alphabet`` of up to ``limit`` characters, long ones often (a short text
    drawn, then repeated: hypothesis draws few bytes for each)."""
    short = st.text(alphabet, max_size=100)
    return short | st.builds(
        lambda head, fill, size: (head + fill * limit)[:size],
        short, st.text(alphabet, min_size=1, max_size=3),
        st.integers(limit - 8, limit) | st.integers(0, limit),
    )  # fmt: skip


#: any text a caller may give as a name: all of Unicode but lone surrogates (refused, below)
names = _long(st.characters(exclude_categories=("Cs",)), MAX_PLAYER_NAME)
#: printable characters a shell word may hold without quoting trouble
_WORD = st.characters(categories=("L", "M", "N", "P", "S"), exclude_characters="'\"\\")
#: specs that parse: registered bots, and commands up to the longest spec
specs = st.sampled_from(["random", "greedy", "greedy:enough=5", "Random"]) | st.builds(
    lambda rest: f"cmd:{sys.executable} {rest}"[:MAX_SPEC_LENGTH].rstrip(),
    _long(_WORD | st.just(" "), MAX_SPEC_LENGTH),
)


def record_with(players: tuple[str, ...]) -> tm.GameRecord:
    game = tm.Game.new(num_players=len(players), seed=11, players=players)
    for _ in range(5):
        game.push(game.state.legal_moves()[0])
    return game.record()


def round_trips(record: tm.GameRecord) -> None:
    text = tm.dumps(record)
    assert tm.loads(text) == record
    loaded = tm.loads(text.encode("utf-8"))  # as every file holds it
    assert isinstance(loaded, tm.GameRecord) and loaded.players == record.players


def test_one_limit_for_names_and_specs() -> None:
    items = schema("record")["properties"]["players"]["anyOf"][1]["items"]
    assert items["maxLength"] == MAX_PLAYER_NAME
    # the longest spec, entered more than once in a tournament, is still a name
    assert MAX_SPEC_LENGTH + len(f"#{MAX_ENTRANTS}") <= MAX_PLAYER_NAME
    assert MAX_SPEC_LENGTH == 4096


@FEW
@given(st.lists(names, min_size=3, max_size=5))
def test_any_name_a_game_accepts_round_trips(players: list[str]) -> None:
    round_trips(record_with(tuple(players)))


@FEW
@given(st.lists(specs, min_size=3, max_size=5))
def test_any_spec_as_a_player_name_round_trips(players: list[str]) -> None:
    for spec in players:
        parse_spec(spec)  # the library accepts it
    round_trips(record_with(tuple(players)))


def test_names_past_the_limit_are_refused_where_they_enter() -> None:
    at_limit = "n" * MAX_PLAYER_NAME
    round_trips(record_with((at_limit, "", "\n\t\x00")))
    with pytest.raises(TajMahalError, match="at most 4160 characters, got 4161"):
        tm.Game.new(num_players=3, seed=1, players=(at_limit + "n", "b", "c"))
    with pytest.raises(TajMahalError, match="lone surrogate"):
        tm.Game.new(num_players=3, seed=1, players=("\ud800", "b", "c"))
    good = record_with(("a", "b", "c"))
    with pytest.raises(TajMahalError, match="player 1: a name is at most"):
        tm.GameRecord(num_players=3, seed=1, players=("a", at_limit + "n", "c"))
    data = json.loads(tm.dumps(good))
    data["players"][2] = at_limit + "n"
    with pytest.raises(FormatError, match=r"\$\.players\[2\]: a name is at most 4160"):
        tm.loads(json.dumps(data))
    data["players"][2] = "\ud800"  # escaped in JSON: still not text
    with pytest.raises(FormatError, match=r"\$\.players\[2\]: .*lone surrogate"):
        tm.loads(json.dumps(data))


GOLDEN_RECORDS = sorted(DATA.glob("record-*.json"))


@pytest.mark.parametrize("path", GOLDEN_RECORDS, ids=lambda p: p.name)
def test_golden_records_still_load(path: Path) -> None:
    loaded = tm.loads(path.read_bytes())
    if isinstance(loaded, tm.GameRecord):  # the .final.json files are states
        round_trips(loaded)
    assert len(GOLDEN_RECORDS) >= 6


def longest_command_spec() -> str:
    spec = f"cmd:{sys.executable} {PALACE} "
    return spec + "x" * (MAX_SPEC_LENGTH - len(spec))


def test_a_match_of_the_longest_spec_writes_a_record_that_replays(tmp_path: Path) -> None:
    spec = longest_command_spec()
    assert len(spec) == MAX_SPEC_LENGTH
    record_path = tmp_path / "record.json"
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "match", spec, "random", "random", "--seed", "3",
         "--quiet", "--record", str(record_path)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    record = tm.loads(record_path.read_bytes())
    assert isinstance(record, tm.GameRecord) and record.players[0] == spec
    assert record.faults == ()
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "replay", "--quiet", str(record_path)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # play_match gives the same record, which round-trips
    result = tm.play_match([spec, "random", "random"], seed=3)
    assert result.record == record
    round_trips(result.record)


@FEW
@given(st.lists(specs, min_size=2, max_size=4), names.filter(str.isprintable))
def test_the_web_store_keeps_any_spec_and_name(
    tmp_path_factory: pytest.TempPathFactory, bots: list[str], human: str
) -> None:
    human = human.strip()[:40] or "Ann"  # the lobby's own limit on a human's name
    seats = [{"human": True, "name": human}, *bots]
    config = GameConfig.parse({"seats": seats}, ServerSettings(allow_commands=True))
    record = record_with(config.players)
    store = SQLiteStore(tmp_path_factory.mktemp("store") / "games.db")
    try:
        store.create_game(StoredGame("g1", config.as_json(), 11, 0.0), [("t" * 32, 0)])
        store.finish("g1", tm.dumps(record))
        stored = store.load("g1")
    finally:
        store.close()
    assert stored is not None and stored.record is not None
    assert GameConfig.parse(stored.config, stored=True).players == config.players
    assert tm.loads(stored.record) == record


@FEW
@given(st.lists(specs, min_size=3, max_size=4))
def test_a_tournament_file_keeps_any_spec(
    tmp_path_factory: pytest.TempPathFactory, entrants: list[str]
) -> None:
    # a spec entered twice is numbered: "spec#2", past MAX_SPEC_LENGTH
    seats = len(entrants)
    header = Header(tuple(entrants), num_players=seats, games=seats, seed=5, seating="rotation")
    path = tmp_path_factory.mktemp("tournament") / "results.jsonl"
    stream, _ = open_for_append(path, header, resume=False)
    jobs = list(schedule(entrants, seats, header.games, header.seed, "rotation"))
    everyone = tuple(range(seats))
    with stream:
        for job in jobs:
            line = GameResult(job.game, job.block, job.seed, job.players, (5,) * seats,
                              everyone, everyone, ())  # fmt: skip
            write_line(stream, line.to_json())
    found = read_results(path)
    assert found.header.entrants == tuple(entrants)
    assert [game.players for game in found.games] == [job.players for job in jobs]
    for game in found.games:  # and the names are record names
        round_trips(record_with(game.players))
