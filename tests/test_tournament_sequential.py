"""Tournaments that stop when the answer is known: the sequential test and ``--until-decided``.

The error rates are checked on the statistic simulated cheaply (block shares
drawn from a seeded generator); real games only for a few short tournaments.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tajmahal.cli import main
from tajmahal.tournament import SequentialTest, read_results, run_tournament, summarize_file
from tajmahal.tournament.sequential import ALPHA, decide


def test_random_against_greedy_is_decided_within_a_few_blocks(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = run_tournament(["random", "greedy", "random"], games=120, seed=1, backend="serial",
                            until_decided=True, out=out)
    decision = result.decision
    assert decision is not None and decision.verdict == "greedy"
    assert decision.blocks <= 10 and decision.share is not None and decision.share < 0.2
    assert decision.evidence >= 1 / ALPHA
    assert len(result.games) == 6 * decision.blocks < 120  # stopped at the deciding block
    assert read_results(out).header.until_decided
    assert summarize_file(out).decision == decision
    resumed = run_tournament(["random", "greedy", "random"], games=120, seed=1,
                             backend="serial", until_decided=True, out=out, resume=True)
    assert resumed.games == result.games  # decided already: nothing more is played


def test_two_copies_of_one_bot_keep_going() -> None:
    result = run_tournament(["greedy", "greedy", "random"], games=36, seed=2, backend="serial",
                            until_decided=True)
    assert result.decision is not None and result.decision.verdict is None
    assert result.decision.blocks == 6 and result.decision.share == 0.5  # mirror-image games
    assert len(result.games) == 36


def _block_share(rng: random.Random, p: float, games: int = 6) -> float:
    """One block's share: each of its games won by the first with probability p, ties a half."""
    total = 0.0
    for _ in range(games):
        draw = rng.random()
        total += 1.0 if draw < p * 0.9 else 0.5 if draw < p * 0.9 + 0.1 else 0.0
    return total / games


@pytest.mark.parametrize("games_per_block", [6, 24])
def test_equal_entrants_are_wrongly_decided_at_most_alpha_of_the_time(
    games_per_block: int,
) -> None:
    rng = random.Random(20)
    runs, blocks = 1000, 150
    wrong = 0
    for _ in range(runs):
        test = SequentialTest()
        correlated = rng.random() < 0.5  # some runs: all games of a block go the same way
        for _ in range(blocks):
            share = _block_share(rng, 0.5, 1 if correlated else games_per_block)
            if test.add(share):
                wrong += 1
                break
    assert wrong / runs <= ALPHA  # Ville's inequality: at most alpha, however long it runs


def test_a_stronger_entrant_is_found_and_the_wrong_side_rarely() -> None:
    rng = random.Random(21)
    runs, found, wrong = 400, 0, 0
    for _ in range(runs):
        shares = [(t, _block_share(rng, 0.62)) for t in range(100)]
        decision = decide(["a", "b"], shares)
        found += decision.verdict == "a"
        wrong += decision.verdict == "b"
    assert found / runs > 0.9 and wrong / runs <= ALPHA


def test_cli_until_decided_prints_the_decision(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "r.jsonl"
    code = main(["tournament", "random", "greedy", "random", "--games", "120", "--backend",
                 "serial", "--until-decided", "--out", str(out), "--seed", "1"])
    text = capsys.readouterr().out
    assert code == 0 and "Decided after" in text and "greedy is stronger than random" in text
    main(["tournament", "--summary", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["decision"]["verdict"] == "greedy" and data["tournament"]["until_decided"]
