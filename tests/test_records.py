"""Records, format version 2 (tags, faults, decision times), reading version 1; one replay loop."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import tajmahal as tm
from helpers import line_components
from tajmahal.cli import main
from tajmahal.game import ReplayError, replay_states
from tajmahal.referee import FaultKind

LINE = line_components()


class Clumsy:
    """Plays the first legal move, but raises at its third decision."""

    name: ClassVar[str] = "clumsy"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("oops")
        return legal_moves[-1]


@pytest.fixture(scope="module")
def faulty() -> tm.MatchResult:
    return tm.play_match(
        ["random", Clumsy(), "greedy"], seed=2, components=LINE, time_limit=5.0,
        tags={"event": "club night"},
    )


def test_a_match_record_keeps_tags_faults_and_times(faulty: tm.MatchResult) -> None:
    record = faulty.record
    tags = dict(record.tags)
    assert tags["event"] == "club night" and tags["time_limit"] == "5"
    assert tags["game_time"] == "none" and tags["library"].startswith("tajmahal ")
    assert tags["package.0"] == tags["library"] and tags["package.1"].startswith("unknown")
    assert tags["date"].endswith("Z") and len(tags["date"]) == 20
    assert record.faults == faulty.faults and record.faults[0].kind is FaultKind.EXCEPTION
    assert len(record.times) == len(record.moves) and all(t >= 0 for t in record.times)


def test_version_2_documents_round_trip(faulty: tm.MatchResult) -> None:
    text = tm.dumps(faulty.record)
    data = json.loads(text)
    assert data["version"] == 2 and data["faults"][0]["kind"] == "exception"
    again = tm.loads(text)
    assert isinstance(again, tm.GameRecord) and again == faulty.record
    assert again.tags == faulty.record.tags and again.times == faulty.record.times
    assert again.faults[0].traceback == faulty.faults[0].traceback != ""


def test_version_1_documents_are_still_read(faulty: tm.MatchResult) -> None:
    data = json.loads(tm.dumps(faulty.record))
    for key in ("tags", "faults", "times"):
        del data[key]
    data["version"] = 1
    old = tm.loads(json.dumps(data))
    assert isinstance(old, tm.GameRecord) and old.moves == faulty.record.moves
    assert old.faults == () and dict(old.tags) == {} and old.times == ()
    data["tags"] = {"event": "x"}
    with pytest.raises(tm.FormatError, match=r"\$\.tags: version 1 records have no tags"):
        tm.loads(json.dumps(data))


def rejected(data: dict[str, Any], *words: str) -> None:
    with pytest.raises(tm.FormatError) as info:
        tm.loads(json.dumps(data))
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["faults"][0].update(seat=0), ["$.faults", "does not match the game"]),
        (lambda d: d["faults"][0].update(decision=10**6), ["$.faults[0].decision"]),
        (lambda d: d["faults"][0].update(detail="x" * 5000), ["at most 500 characters"]),
        (lambda d: d["faults"].append(dict(d["faults"][0])), ["a second fault for decision"]),
        (lambda d: d.update(times=[0.1]), ["$.times: one time per move"]),
        (lambda d: d["times"].__setitem__(0, -1), ["$.times[0]: seconds are 0..86400"]),
        (lambda d: d["tags"].update(Event="x"), ["$.tags.Event", "is not lowercase"]),
        (lambda d: d["tags"].update(event="x" * 2000), ["printable text of at most 1000"]),
        (lambda d: d.update(tags={f"t{i}": "x" for i in range(100)}), ["at most 64 tags"]),
    ],
)
def test_tampered_match_data_is_rejected(
    faulty: tm.MatchResult, change: Any, words: list[str]
) -> None:
    data = json.loads(tm.dumps(faulty.record))
    change(data)
    rejected(data, *words)


def test_one_replay_loop_checks_faults_for_every_caller(faulty: tm.MatchResult) -> None:
    fault = faulty.faults[0]
    wrong = attrs.evolve(faulty.record, faults=(attrs.evolve(fault, seat=(fault.seat + 1) % 3),))
    for replaying in (tm.replay, tm.Game.from_record, lambda r: list(replay_states(r))):
        with pytest.raises(ReplayError, match="does not match the game"):
            replaying(wrong)
    states = list(replay_states(faulty.record))
    assert states[-1] == tm.replay(faulty.record) == tm.Game.from_record(faulty.record).state
    assert tm.Game.from_record(faulty.record).states == tuple(states)


def test_replay_prints_the_faults_as_the_match_did(
    faulty: tm.MatchResult, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(tm.dumps(faulty.record), encoding="utf-8")
    assert main(["replay", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Faults (1; seats with faults rank after the others):" in out
    assert str(faulty.faults[0]) in out
    data = json.loads(tm.dumps(faulty.record))
    data["faults"][0]["seat"] = 0
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "does not match the game" in err and "Traceback" not in err


def test_callers_tags_are_checked() -> None:
    for tags, word in (({"date": "today"}, "written by the referee"), ({"A": "b"}, "tag name")):
        with pytest.raises(tm.TajMahalError, match=word):
            tm.play_match(["random"] * 3, seed=1, tags=tags)
