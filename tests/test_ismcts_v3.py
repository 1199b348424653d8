"""``ismcts-v3``: the third release's default, frozen for head-to-head benchmarks.

Golden decisions and records: whatever later releases change in the default's search,
evaluation or levels, ``ismcts-v3`` must decide exactly as the third release's ``ismcts`` did
(these values were taken from ``ismcts`` itself when it was frozen).  They hold in the pure and
the compiled build alike (``make test-fast`` runs this file on the compiled build).
"""

from __future__ import annotations

import hashlib
import random

import pytest

import tajmahal as tm
from tajmahal.bots.evaluation import WEIGHTS_V2, WEIGHTS_V3, evaluate, load_weights
from tajmahal.bots.ismcts import LEVELS_V3, IsmctsBot, IsmctsV3Bot
from tajmahal.rules.playout import Playout

#: (seats, game seed, random moves before the decision, spec) -> (move, phase, iterations,
#: the three most searched root moves: move, visits, mean reward rounded to 6 places)
GOLDEN_DECISIONS = [
    ((3, 1, 0, "ismcts-v3"), ("play green:vizier+princess", "PLAY", 314, [
        ("play green:vizier+princess", 106, 0.550167),
        ("play red:elephant+monk", 105, 0.516019),
        ("withdraw", 52, 0.527937)])),
    ((3, 2, 7, "ismcts-v3"), ("palace chanderi", "PALACE", 330, [
        ("palace chanderi", 126, 0.815498),
        ("palace mandsaur", 117, 0.810395),
        ("palace ujjain", 87, 0.785415)])),
    ((4, 3, 20, "ismcts-v3"), ("crown patan", "CROWN", 330, [
        ("crown patan", 90, 0.247592),
        ("crown ahmedabad", 88, 0.246427),
        ("crown champaner", 79, 0.236714)])),
    ((5, 4, 9, "ismcts-v3"), ("play violet:elephant+princess white:general", "PLAY", 380, [
        ("play violet:elephant+princess white:general", 159, 0.535024),
        ("play violet:elephant+princess", 158, 0.511177),
        ("withdraw", 63, 0.33831)])),
    ((3, 5, 12, "ismcts-v3:level=4"), ("take green:elephant+princess", "TAKE", 100, [
        ("take green:elephant+princess", 35, 0.839713),
        ("take violet:elephant+vizier", 34, 0.835478),
        ("take red:elephant+elephant", 31, 0.826045)])),
    ((3, 6, 0, "ismcts-v3:level=4"), ("play violet:general+princess", "PLAY", 95, [
        ("play violet:general+princess", 27, 0.563598),
        ("play violet:elephant+monk white:vizier", 26, 0.511337),
        ("play violet:elephant+monk", 14, 0.493519)])),
    ((4, 7, 0, "ismcts-v3:level=5"), ("play red:elephant+vizier white:princess", "PLAY", 314, [
        ("play red:elephant+vizier white:princess", 78, 0.354406),
        ("play yellow:elephant+vizier white:princess", 77, 0.356056),
        ("withdraw", 36, 0.350205)])),
    ((5, 8, 0, "ismcts-v3:level=4"), ("play green:elephant+monk white:monk", "PLAY", 115, [
        ("play green:elephant+monk white:monk", 30, 0.492589),
        ("play green:elephant+princess white:monk", 29, 0.482236),
        ("play green:elephant+monk white:elephant", 13, 0.39736)])),
]  # fmt: skip

#: (players, seed) -> (scores, the first 32 hex digits of the SHA-256 of the moves, one a line)
GOLDEN_MATCHES = [
    ((("ismcts-v3:level=1", "ismcts-v3:level=2", "greedy"), 11),
     ((48, 81, 45), "3ebaf492046b4c3b4b37178867750c00")),
    ((("ismcts-v3:level=1", "greedy", "ismcts-v3:level=1", "random"), 12),
     ((45, 39, 57, 22), "38021d0f1d5be9d6bcc5f4134bdd8269")),
    ((("ismcts-v3:level=1", "greedy", "greedy", "greedy", "greedy"), 13),
     ((46, 36, 46, 29, 38), "5b465a419eeece4dbab781ba861ba71a")),
]  # fmt: skip


def decision_state(seats: int, seed: int, moves: int) -> tm.GameState:
    """The first decision with a choice after ``moves`` seeded random moves."""
    state = tm.new_game(seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = state.apply(rng.choice(state.legal_moves()))
    while len(state.legal_moves()) < 2:
        state = state.apply(state.legal_moves()[0])
    return state


@pytest.mark.parametrize(("where", "golden"), GOLDEN_DECISIONS, ids=lambda v: str(v)[:40])
def test_ismcts_v3_decides_as_the_third_release_did(
    where: tuple[int, int, int, str], golden: tuple[str, str, int, list[tuple[str, int, float]]]
) -> None:
    seats, seed, moves, spec = where
    state = decision_state(seats, seed, moves)
    bot = tm.bots.create(spec, seed=1)
    move = bot.choose(state.view(state.current_player), state.legal_moves())
    assert isinstance(bot, IsmctsV3Bot)
    top = [(str(s.move), s.visits, round(s.value, 6)) for s in bot.last_statistics[:3]]
    assert (str(move), state.phase.name, bot.last_iterations, top) == golden


@pytest.mark.parametrize(("match", "golden"), GOLDEN_MATCHES, ids=["3p", "4p", "5p"])
def test_ismcts_v3_plays_the_third_releases_games(
    match: tuple[tuple[str, ...], int], golden: tuple[tuple[int, ...], str]
) -> None:
    players, seed = match
    result = tm.play_match(list(players), seed=seed)
    digest = hashlib.sha256("\n".join(map(str, result.record.moves)).encode()).hexdigest()
    assert not result.faults
    assert (result.scores, digest[:32]) == golden


def test_ismcts_v3_is_registered_with_its_frozen_settings() -> None:
    assert tm.bots.available()["ismcts-v3"] is IsmctsV3Bot
    assert LEVELS_V3 == {1: 21, 2: 83, 3: 330, 4: 100, 5: 330}
    bot = IsmctsV3Bot()
    assert (bot.iterations, bot.flat, bot.focus, bot.inner, bot.extend) == (330, "play", 1.0, 0, 1)
    top = IsmctsV3Bot(level=5)
    assert (top.iterations, top.inner, top.inner_seats) == (330, 2, "all")
    assert IsmctsV3Bot(level=5, inner=0).inner == 0  # an explicit option wins, as in ismcts
    assert load_weights(name="evaluation_weights_v3.json") == WEIGHTS_V3
    for seats, weights in ((3, WEIGHTS_V3), (4, WEIGHTS_V3), (5, WEIGHTS_V2)):
        game = Playout(tm.new_game(seats, seed=2))
        assert bot.reward(game) == evaluate(game, weights=weights)
    assert isinstance(bot, IsmctsBot)  # the same search, options and errors
    with pytest.raises(ValueError, match="level must be"):
        IsmctsV3Bot(level=6)


# --------------------------------------------------------------- the faster search (issue 51)


def test_one_seeded_generator_per_deal_simulates_as_a_fresh_one_per_move() -> None:
    """``simulate_each`` seeds one generator again for each move: the values of a fresh
    ``random.Random(seed)`` per move, also for a rollout policy that draws Gaussians."""
    from tajmahal.bots._search import simulate, simulate_each
    from tajmahal.rules.playout import sampled

    def gaussian_pick(game: Playout, codes: list[int], rng: random.Random) -> int:
        return codes[int(abs(rng.gauss(0.0, 1.0)) * 7) % len(codes)]

    state = decision_state(4, 9, 0)
    view = state.view(state.current_player)
    bot = IsmctsBot()
    deal = sampled(view, random.Random(1))
    codes = deal.moves()
    for pick in (None, gaussian_pick, bot._rollout_policy(view.seat)):
        fresh = [simulate(deal.copy(), code, random.Random(77), pick, bot.reward, view.seat)
                 for code in codes]  # fmt: skip
        assert simulate_each(deal, codes, 77, pick, bot.reward, view.seat) == fresh
        assert len(set(fresh)) > 1  # the moves lead to other positions


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_the_searches_evaluate_as_the_bots_reward_does(seats: int) -> None:
    from tajmahal.bots.ismcts import IsmctsV1Bot, IsmctsV2Bot

    game = Playout(decision_state(seats, 4, 25))
    for bot in (IsmctsBot(), IsmctsV1Bot(), IsmctsV2Bot(), IsmctsV3Bot()):
        assert bot._search_reward(seats)(game) == bot.reward(game)


def test_a_subclass_reward_is_what_the_search_calls() -> None:
    calls = []

    class Leader(IsmctsV3Bot):
        def reward(self, game: Playout) -> list[float]:
            calls.append(game.visit)
            return [float(score) for score in game.scores]

    state = decision_state(3, 1, 0)
    bot = Leader(seed=1, iterations=20)
    bot.choose(state.view(state.current_player), state.legal_moves())
    assert len(calls) == bot.last_iterations
    assert bot._search_reward(3) == bot.reward


def test_the_evaluations_dot_product_adds_as_the_built_in_sum_does() -> None:
    """``_dot`` replaces ``sum([...])`` in the estimates: the same float to the last bit (this
    Python's sum: compensated from 3.12), whatever the magnitudes."""
    from tajmahal.bots._evaluation_core import _dot

    rng = random.Random(5)
    for _ in range(3000):
        size = rng.randint(0, 21)
        row = tuple(rng.uniform(-5, 5) * 10 ** rng.randint(-4, 4) for _ in range(size))
        values = [float(rng.randint(-3, 12)) if rng.random() < 0.8 else rng.uniform(-1e3, 1e3)
                  for _ in range(size)]  # fmt: skip
        assert _dot(row, values) == sum([row[i] * values[i] for i in range(size)])
    assert _dot((1e16, 1.0, -1e16), [1.0, 1.0, 1.0]) == sum([1e16, 1.0, -1e16])
