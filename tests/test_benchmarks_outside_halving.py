"""benchmarks/outside_halving.py: the stronger outside baseline (issue 51).

The bot decides from its seat's view only and shares no code with ``ismcts``; these
tests check what a strength benchmark needs of it: legal moves at a tiny budget, the
same game again for the same seed, the budget spent as documented, bad options refused.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

import tajmahal as tm
from builders import start
from tajmahal.bots.file_bots import file_bot_class
from tajmahal.bots.specs import parse_spec
from tajmahal.rules.state import Phase

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
HALVING = f"file:{BENCHMARKS / 'outside_halving.py'}:HalvingMcBot"
TINY = f"{HALVING}:samples=3,first=1"


def _bot_class() -> type:
    return file_bot_class(parse_spec(HALVING))


def _play_decision(num_players: int, seed: int, candidates: int) -> tuple[tm.PlayerView, list]:
    """A play-or-withdraw decision with at least ``candidates`` legal moves."""
    state = start(num_players=num_players, seed=seed)
    while state.phase is not Phase.PLAY or len(state.legal_moves()) < candidates:
        state = state.apply(state.legal_moves()[0])
    return state.view(state.current_player), list(state.legal_moves())  # type: ignore[arg-type]


@pytest.mark.parametrize(("num_players", "seed"), [(3, 1), (5, 2)])
def test_plays_whole_games_by_the_rules_at_a_tiny_budget(num_players: int, seed: int) -> None:
    players = [TINY, *["greedy"] * (num_players - 1)]
    result = tm.play_match(players, seed=seed)
    assert not result.faults and len(result.scores) == num_players
    assert tm.replay(result.record).is_over


def test_repeats_its_game_with_its_seed() -> None:
    first = tm.play_match([TINY, "greedy", TINY], seed=4)
    again = tm.play_match([TINY, "greedy", TINY], seed=4)
    assert first.scores == again.scores and first.record.moves == again.record.moves
    view, legal = _play_decision(3, 9, 5)
    cls = _bot_class()
    picks = {cls(seed=7, samples=4).choose(view, legal) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(legal)


def test_halving_spends_the_budget_in_rounds_on_common_deals() -> None:
    view, legal = _play_decision(3, 9, 5)
    cls = _bot_class()
    plain = cls(seed=1, samples=6, halving=False)
    assert plain.choose(view, legal) in legal
    assert plain.last_iterations == 6 * len(legal)  # every candidate on every deal
    halving = cls(seed=1, samples=6, first=2)
    assert halving.choose(view, legal) in legal
    assert cls(seed=1, samples=6, marginal=True).choose(view, legal) in legal

    rounds = (len(legal) - 1).bit_length()
    # each candidate gets the first round's deals; the budget is the same, give or take
    # the rounding of each round's share up to one deal a candidate
    assert 2 * len(legal) <= halving.last_iterations <= 6 * len(legal) + rounds * len(legal)


def test_other_decisions_follow_the_strategy() -> None:
    state = start(num_players=3, seed=5)
    cls = _bot_class()
    bot = cls(seed=3, samples=2)
    moves = 0
    while not state.is_over and moves < 400:
        legal = state.legal_moves()
        view = state.view(state.current_player)  # type: ignore[arg-type]
        move = bot.choose(view, legal)
        assert move in legal
        if state.phase is not Phase.PLAY:
            assert bot.last_iterations == 0  # no simulation outside the prize contests
        state = state.apply(move)
        moves += 1
    assert state.is_over


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("samples", 0, "samples must be"),
        ("samples", True, "samples must be"),
        ("first", 0, "first must be"),
        ("first", 2.5, "first must be"),
        ("noise", -1, "noise must be"),
        ("supply", 11, "supply must be"),
    ],
)
def test_bad_options_are_refused(option: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _bot_class()(**{option: value})


def test_shares_no_code_with_ismcts() -> None:
    """Only the public API and the other outside bots: no ismcts, no internal modules."""
    for name in ("outside_halving.py", "outside_bots.py"):
        tree = ast.parse((BENCHMARKS / name).read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
        assert not {m for m in imported if m.startswith("tajmahal.")}, (name, imported)
        used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        used |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        assert not used & {"sample", "Playout", "ismcts", "IsmctsBot", "evaluate"}, name


def test_paired_logs_compares_two_runs_deal_by_deal(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """``benchmarks/paired_logs.py``: (A − field) per deal in one log minus the same in another."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("paired_logs", BENCHMARKS / "paired_logs.py")
    assert spec is not None and spec.loader is not None
    paired = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(paired)

    def log(name: str, candidate: str, scores: list[tuple[int, int]]) -> str:
        path = tmp_path / name
        lines = []
        for mine, theirs in scores:  # 2 games a deal: totals per spec
            tallies = [{"games": 2, "score": score} for score in (mine, theirs, 0)]
            lines.append(json.dumps({"specs": [candidate, "flat", "greedy"], "tallies": tallies}))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return str(path)

    a = log("a.jsonl", "new", [(120, 100), (100, 100), (90, 100)])  # +10, 0, -5 a game
    b = log("b.jsonl", "old", [(100, 100), (96, 100)])  # 0, -2: two deals finished
    # paired: +10 and +2, mean +6, sd 5.66, half-width 1.96 * 5.66 / sqrt(2) = 7.84
    assert paired.main([a, b, "--against", "flat"]) == 0
    out = capsys.readouterr().out
    assert "over 2 deals: +6.0 (-1.8 to +13.8)" in out
    with pytest.raises(SystemExit, match="not an opponent"):
        paired.main([a, b, "--against", "nobody"])


def test_the_default_budget_follows_the_number_of_seats() -> None:
    """About four times the default's CPU at every table size: fewer samples at 5 seats."""
    cls = _bot_class()
    module = sys.modules[cls.__module__]
    for seats in (3, 5):
        view, legal = _play_decision(seats, 9, 3)
        plain = cls(seed=1, halving=False)
        assert plain.choose(view, legal) in legal
        assert plain.last_iterations == module.SAMPLES[seats] * len(legal)
    assert module.SAMPLES[3] > module.SAMPLES[4] > module.SAMPLES[5]
