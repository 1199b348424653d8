"""The learned model of the seats' play-or-withdraw decisions (``tajmahal.bots.seat_model``)
and ``ismcts:rollout=model``, which plays its simulations with it."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.bots._evaluation_core import heuristic_pick
from tajmahal.bots.ismcts import IsmctsBot
from tajmahal.bots.seat_model import (
    FEATURES,
    MODEL,
    SeatModel,
    SeatModelError,
    candidate_features,
    load_seat_model,
    model_pick,
)
from tajmahal.rules.playout import OVER, PLAY, WITHDRAW, Playout

SHIPPED = Path(tm.__file__).parent / "bots" / "seat_model_weights.json"


def _document(**changes: object) -> str:
    data = json.loads(SHIPPED.read_text("utf-8"))
    data.update(changes)
    return json.dumps(data)


def _play_positions(games: int = 12) -> list[tuple[Playout, list[int]]]:
    """Play-or-withdraw positions with a choice, from heuristic games at 3, 4 and 5 seats."""
    rng = random.Random(7)
    positions = []
    for seed in range(games):
        game = Playout(tm.new_game(num_players=3 + seed % 3, seed=seed))
        while game.phase != OVER:
            codes = game.moves()
            if game.phase == PLAY and len(codes) > 1:
                positions.append((game.copy(), codes))
            game.play(heuristic_pick(game, codes, rng))
    return positions


def test_the_shipped_model_loads_with_its_recipe() -> None:
    model = load_seat_model()
    assert model.weights == MODEL.weights
    assert len(model.weights) == len(FEATURES)
    assert any(w != 0 for w in model.weights)  # fitted, not a placeholder
    assert "fit_seat_model.py" in model.provenance["command"]
    assert model.provenance["decisions"] > 1000


def test_a_missing_weights_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "weights.json"
    with pytest.raises(SeatModelError, match=r"cannot read seat model weights .*weights\.json"):
        load_seat_model(missing)
    with pytest.raises(SeatModelError, match="cannot read"):
        load_seat_model(tmp_path)  # a directory


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", r"not a seat model weights document \(format 'list'\)"),
        (_document(format="tajmahal-evaluation-weights"), "not a seat model weights document"),
        (_document(version=2), "unknown seat model weights version 2"),
        (_document(features=list(FEATURES)[:-1]), "the features must be"),
        (_document(weights=[0.0] * (len(FEATURES) - 1)), f"a list of {len(FEATURES)} numbers"),
        (_document(weights=[0.0] * (len(FEATURES) - 1) + ["1"]), "finite number"),
        (_document(weights=[0.0] * (len(FEATURES) - 1) + [True]), "finite number"),
        (_document(weights=[0.0] * (len(FEATURES) - 1) + [math.inf]), "finite number"),
        (_document(provenance=[]), "provenance must be an object"),
        ("[" * 100_000 + "]" * 100_000, "not JSON"),
        (" " * 1_000_001, "over 1000000 characters"),
    ],
)
def test_a_bad_weights_document_is_a_clear_error(document: str, message: str) -> None:
    with pytest.raises(SeatModelError, match=message):
        load_seat_model(document=document)


def test_a_bad_weights_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "weights.json"
    path.write_bytes(b"\xff\xfe not text")
    with pytest.raises(SeatModelError, match="cannot read seat model weights"):
        load_seat_model(path)
    path.write_text(_document(format="x"), "utf-8")
    with pytest.raises(SeatModelError, match="format 'x'"):
        load_seat_model(path)
    path.write_text(_document(), "utf-8")
    assert load_seat_model(path).weights == MODEL.weights
    with pytest.raises(SeatModelError, match="22 finite weights"):
        SeatModel((1.0, 2.0))


def test_the_fast_pick_is_the_best_scoring_candidate() -> None:
    """``best`` computes the dot product inline (another order of additions): it must play what
    the documented features and weights say, for the shipped weights and random ones."""
    rng = random.Random(3)
    models = [MODEL] + [SeatModel(tuple(rng.uniform(-1, 1) for _ in FEATURES)) for _ in range(4)]
    positions = _play_positions()
    assert len(positions) > 500
    withdrawals = 0
    for model in models:
        for game, codes in positions:
            scores = model.scores(game, codes)
            assert set(scores) == {c for c in codes if c == WITHDRAW or c % game.stride == 0}
            top = max(scores.values())
            chosen = model.best(game, codes)
            assert math.isclose(scores[chosen], top, abs_tol=1e-9)  # equal up to rounding
            withdrawals += chosen == WITHDRAW
    assert 0 < withdrawals < len(positions) * len(models)  # both kinds of choice happen


def test_the_features_read_the_prize_contests() -> None:
    game = Playout(tm.new_game(num_players=3, seed=1))  # nobody has played: nothing is led
    rows = dict(candidate_features(game, game.moves()))
    names = {name: i for i, name in enumerate(FEATURES)}
    withdraw = rows[WITHDRAW]
    assert withdraw[names["w_bias"]] == 1 and withdraw[names["w_empty"]] == 1
    assert withdraw[names["w_leading"]] == 0 and withdraw[names["w_rivals"]] == 2
    plays = [values for code, values in rows.items() if code != WITHDRAW]
    assert plays and all(v[names["w_bias"]] == 0 for v in plays)
    assert all(v[names["p_new_leads"]] >= 1 for v in plays)  # any symbol leads an empty table


def test_the_model_plays_only_the_play_decisions() -> None:
    """Elsewhere it is the heuristic policy, on the same random stream."""
    seen = 0
    for game, codes in _play_positions(3):
        assert model_pick(game, codes, random.Random(1)) in codes
    game = Playout(tm.new_game(num_players=4, seed=2))
    rng = random.Random(4)
    while game.phase != OVER:
        codes = game.moves()
        if game.phase != PLAY:
            seed = rng.random()
            assert MODEL(game, codes, random.Random(seed)) == heuristic_pick(
                game, codes, random.Random(seed)
            )
            seen += 1
        game.play(MODEL(game, codes, rng))
    assert seen > 10
    assert game.scores and max(game.scores) > 0


def test_rollout_model_is_an_option_and_is_deterministic() -> None:
    state = tm.new_game(num_players=3, seed=5)
    view, legal = state.view(0), state.legal_moves()
    bot = tm.bots.create("ismcts:rollout=model,iterations=60", seed=3)
    assert isinstance(bot, IsmctsBot) and bot.rollout == "model"
    first = bot.choose(view, legal)
    again = tm.bots.create("ismcts:rollout=model,iterations=60", seed=3).choose(view, legal)
    assert first == again and first in legal
    assert bot.last_statistics and bot.last_iterations == 57  # flat: 95% of 60
    with pytest.raises(ValueError, match="heuristic, random, model"):
        IsmctsBot(rollout="learned")


def test_rollout_model_is_the_same_with_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model travels to a search worker (pickled by reference): the same seed gives the same
    root statistics as the same shares searched in this process."""
    state = tm.new_game(num_players=3, seed=8).apply(tm.Withdraw())  # a supply card: the tree
    view, legal = state.view(state.current_player), state.legal_moves()
    with IsmctsBot(seed=2, iterations=40, rollout="model", jobs=2) as bot:
        chosen = bot.choose(view, legal)
        assert len(bot.worker_pids()) == 1
        rows = bot.last_statistics
    monkeypatch.setenv("TAJMAHAL_SEARCH_JOBS", "1")  # no worker: both shares run here
    with IsmctsBot(seed=2, iterations=40, rollout="model", jobs=2) as here:
        assert here.choose(view, legal) == chosen and here.worker_pids() == []
        assert here.last_statistics == rows


def test_a_match_with_the_model_is_reproducible() -> None:
    players = ["ismcts:rollout=model,iterations=30", "greedy", "ismcts-v3:iterations=30"]
    first = tm.play_match(players, seed=11)
    again = tm.play_match(players, seed=11)
    assert first.record.moves == again.record.moves
    assert not first.faults
