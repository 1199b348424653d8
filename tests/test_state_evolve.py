"""state.evolve, the engine's fast state copy, gives exactly what attrs.evolve gives."""

from __future__ import annotations

import random

import attrs
import pytest

import tajmahal as tm
from tajmahal.rules.state import GameState, evolve


def some_states() -> list[GameState]:
    rng = random.Random(3)
    state = tm.new_game(num_players=4, seed=11)
    states = [state]
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states[::25]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"scores": (9, 8, 7, 6)},
        {"current_player": 2, "visit": 5, "pending_takes": 1},
        {"hands": ((), (), (), ()), "known": ((), (), (), ())},
    ],
    ids=["nothing", "scores", "several", "hands"],
)
def test_evolve_equals_attrs_evolve(changes: dict[str, object]) -> None:
    for state in some_states():
        fast = evolve(state, changes)
        slow = attrs.evolve(state, **changes)
        assert type(fast) is GameState
        assert fast == slow and hash(fast) == hash(slow)
        for name, value in changes.items():
            assert getattr(fast, name) == value


def test_evolve_leaves_the_original_alone_and_shares_unchanged_parts() -> None:
    state = tm.new_game(num_players=3, seed=2)
    before = attrs.astuple(state, recurse=False)
    new = evolve(state, {"scores": (1, 2, 3)})
    assert attrs.astuple(state, recurse=False) == before
    assert new.hands is state.hands and new.deck is state.deck
    assert new.scores == (1, 2, 3) and state.scores == (0, 0, 0)


def test_evolved_state_is_frozen() -> None:
    new = evolve(tm.new_game(num_players=3, seed=2), {"visit": 2})
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        new.visit = 3  # type: ignore[misc]


def test_evolved_state_computes_its_own_legal_moves() -> None:
    state = tm.new_game(num_players=3, seed=2)
    cached = state.legal_moves()  # fills the original's cache
    emptied = evolve(state, {"hands": ((), state.hands[1], state.hands[2])})
    assert emptied.legal_moves() == (tm.Withdraw(),)  # not the cached moves of `state`
    assert state.legal_moves() == cached and len(cached) > 1


def test_evolve_rejects_unknown_fields() -> None:
    with pytest.raises(AttributeError):
        evolve(tm.new_game(num_players=3, seed=2), {"no_such_field": 1})
