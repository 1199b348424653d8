"""The fast playout path plays exactly as ``legal_moves``/``apply``, step by step.

Whole seeded games (3, 4 and 5 players, from setup and from sampled
mid-game states) are played on both at once: at every step the playout's
codes must be the engine's legal moves in the same order, and after every
move the playout must equal the engine's state field by field.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from tajmahal.rules.playout import WITHDRAW, Playout, code_of, play_out
from tajmahal.rules.state import GameState

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def differences(a: GameState, b: GameState) -> list[str]:
    """The fields in which two states differ (for a readable failure)."""
    return [f.name for f in attrs.fields(GameState) if getattr(a, f.name) != getattr(b, f.name)]


def play_both(state: GameState, move_seed: int, seen: Counter[str] | None = None) -> GameState:
    """Play ``state`` to the end on the engine and on a playout in lockstep; the final state."""
    game = Playout(state)
    rng = random.Random(move_seed)
    while not state.is_over:
        legal = state.legal_moves()
        codes = game.moves()
        assert [game.move(code) for code in codes] == list(legal)
        assert [code_of(state.components, move) for move in legal] == codes
        u = rng.random()
        assert game._random_code(u) == codes[int(u * len(codes))]  # the random picker's shortcut
        i = int(u * len(codes))
        if seen is not None:
            seen[type(legal[i]).__name__] += 1
            seen["reshuffle"] += state.reshuffles != state.apply(legal[i]).reshuffles
            seen["extra"] += isinstance(legal[i], tm.PlayCards) and legal[i].extra is not None
            seen["w11"] += codes[i] == WITHDRAW and not state.table[state.current_player]
        state = state.apply(legal[i])
        game.play(codes[i])
        after = game.to_state()
        assert after == state, differences(after, state)
        assert game.is_over == state.is_over
    assert game.moves() == []
    return state


def test_playout_equals_apply_over_seeded_games() -> None:
    seen: Counter[str] = Counter()
    for seed in range(24):
        n = 3 + seed % 3
        play_both(tm.new_game(n, seed=seed, first_player=seed % n), seed, seen)
    # the games went through every kind of move and the rare paths
    for key in ("PlayCards", "Withdraw", "PlacePalace", "PlaceCrownPalace", "TakeCard"):
        assert seen[key] > 0, key
    assert seen["reshuffle"] > 0 and seen["extra"] > 0 and seen["w11"] > 0


@settings(max_examples=30, deadline=None)
@given(
    num_players=st.sampled_from((3, 4, 5)),
    seed=SEEDS,
    move_seed=SEEDS,
    prefix=st.integers(min_value=0, max_value=250),
)
def test_playout_equals_apply_from_sampled_states(
    num_players: int, seed: int, move_seed: int, prefix: int
) -> None:
    """Search starts from ``view.sample``: new seeds, known cards, any phase."""
    rng = random.Random(move_seed)
    state = tm.new_game(num_players, seed=seed)
    for _ in range(prefix):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    if not state.is_over:
        state = state.view(state.current_player).sample(rng)
    assert Playout(state).to_state() == state
    play_both(state, move_seed)


def test_random_run_is_the_seeded_random_picker() -> None:
    """``run(rng)`` plays ``codes[int(rng.random() * len(codes))]`` at every step."""
    state = tm.new_game(4, seed=3)
    game = Playout(state)
    game.run(random.Random(9))
    rng = random.Random(9)
    steps = 0
    while not state.is_over:
        legal = state.legal_moves()
        state = state.apply(legal[int(rng.random() * len(legal))])
        steps += 1
    assert game.to_state() == state and game.decisions == steps
    assert play_out(tm.new_game(4, seed=3), random.Random(9)) == state.scores


def test_run_with_a_picker_and_to_the_end_of_the_visit() -> None:
    state = tm.new_game(3, seed=4)
    game = Playout(state)
    calls = []

    def last(playout: Playout, codes: list[int], rng: random.Random) -> int:
        calls.append(len(codes))
        return codes[-1]

    game.run(random.Random(1), last, visit_end=True)
    assert game.visit == 2 and not game.is_over and calls
    while state.visit == 1:
        state = state.apply(state.legal_moves()[-1])
    assert game.to_state() == state


def test_copy_is_independent() -> None:
    game = Playout(tm.new_game(3, seed=6))
    before = game.to_state()
    other = game.copy()
    other.run(random.Random(2))
    assert other.is_over and game.to_state() == before
