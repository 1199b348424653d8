"""Every fault a tournament writes, its results reader accepts: a round trip for each fault
kind, at decision 0 (building or starting the bot) and later, and a real tournament whose bot
program cannot start (a fault at decision 0)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.faults import MAX_DETAIL, Fault, FaultKind
from tajmahal.tournament import GameResult, Header, read_results, run_tournament, summarize_file
from tajmahal.tournament.results import write_line
from tajmahal.tournament.seating import schedule

THREE = ("random", "random", "random")


@pytest.mark.parametrize("kind", list(FaultKind))
@pytest.mark.parametrize("decision", [0, 1, 191])
def test_a_fault_of_every_kind_round_trips_through_a_results_file(
    tmp_path: Path, kind: FaultKind, decision: int
) -> None:
    header = Header(THREE, num_players=3, games=6, seed=11)
    faults = (Fault(seat=2, decision=decision, kind=kind, detail="d" * MAX_DETAIL),)
    games = [
        GameResult(job.game, job.block, job.seed, job.players, (30, 40, 20), (1,), (1, 0, 2),
                   faults if job.game == 1 else (), seconds=0.25)
        for job in schedule(header.entrants, header.num_players, header.games, header.seed,
                            header.seating)
    ]
    path = tmp_path / "r.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        write_line(stream, header.to_json())
        for game in games:
            write_line(stream, game.to_json())
    found = read_results(path)
    assert found.header == header and list(found.games) == games
    assert summarize_file(path).table  # --summary reads it


def test_a_bot_that_fails_to_start_is_a_decision_0_fault_its_reader_accepts(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    broken = f'cmd:{sys.executable} -c "raise SystemExit(3)"'
    played = run_tournament([broken, "random", "random"], games=6, backend="serial", out=out,
                            seed=2)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()[1:]]
    assert all({"decision": 0, "kind": "handshake"}.items() <= line["faults"][0].items()
               for line in lines)
    assert list(read_results(out).games) == list(played.games)
    assert summarize_file(out).table == played.table
    resumed = run_tournament([broken, "random", "random"], games=6, backend="serial", out=out,
                             resume=True)
    assert resumed.games == played.games and resumed.header.seed == 2
    record = tm.play_match([broken, "random", "random"], seed=3).record
    assert record.faults[0].decision == 0 and tm.loads(tm.dumps(record)) == record
