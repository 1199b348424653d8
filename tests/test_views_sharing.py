"""Views share unchanged parts along a game, yet equal views built from scratch; bots cannot
reach or change the engine through them; a state's hash is computed once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import MappingProxyType

import attrs
import pytest

import tajmahal as tm
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.state import GameState


def fresh(state: GameState) -> GameState:
    """An equal state without any cache (no view memo, no legal moves, no hash)."""
    return attrs.evolve(state)


def games(count: int, players: int = 4) -> Iterator[tuple[random.Random, GameState]]:
    for g in range(count):
        rng = random.Random(g)
        state = tm.new_game(players, seed=1000 + g)
        yield rng, state
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
            yield rng, state


@pytest.mark.parametrize("players", [3, 5])
def test_views_along_a_game_equal_views_built_from_scratch(players: int) -> None:
    checked = 0
    for rng, state in games(2, players):
        seats = range(players) if rng.random() < 0.2 else [rng.randrange(players)]
        for seat in seats:  # some states viewed by several seats, in any order
            assert state.view(seat) == fresh(state).view(seat)
            checked += 1
    assert checked > 300


def test_a_view_reuses_the_parts_that_did_not_change() -> None:
    state = tm.new_game(4, seed=3)
    before = state.view(0)
    after = state.apply(state.legal_moves()[0])  # a play: no palace, tile or discard changes
    view = after.view(1)
    assert view.palaces is before.palaces and view.bonus_tiles is before.bonus_tiles
    assert view.discard is before.discard and view.special_holder is before.special_holder
    assert view.table[1:] == before.table[1:] and view.table[0] != before.table[0]


def test_a_sampled_state_views_like_its_view_and_shares_nothing_with_the_real_one() -> None:
    for rng, state in games(2):
        if state.is_over or rng.random() > 0.1:
            continue
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        guess = view.sample(rng)
        assert guess.view(seat) == view
        assert guess._view_memo is not state._view_memo


def _parts(value: object) -> Iterator[object]:
    """``value`` and everything inside it: tuples, frozensets, maps, attrs objects."""
    yield value
    if isinstance(value, tuple | frozenset):
        for item in value:
            yield from _parts(item)
    elif isinstance(value, FrozenMap):
        for key, item in value.items():
            yield from _parts(key)
            yield from _parts(item)


def test_a_view_holds_only_immutable_values_and_nothing_of_the_engine() -> None:
    for _, state in games(1):
        if state.current_player is None:
            continue
        view = state.view(state.current_player)
        for field in attrs.fields(tm.PlayerView):
            if field.name in ("components", "_sampler"):
                continue
            for part in _parts(getattr(view, field.name)):
                assert not isinstance(part, GameState | list | dict | set), (field.name, part)
                assert type(part).__name__ not in ("_Memo", "_Public", "Tables"), field.name
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            view.hand = ()  # type: ignore[misc]


def test_a_bot_cannot_change_a_shared_map_of_its_view() -> None:
    state = tm.new_game(4, seed=5)
    view = state.view(0)
    assert isinstance(view.palaces._data, MappingProxyType)
    with pytest.raises(TypeError):
        view.palaces._data["agra"] = (0, None)  # type: ignore[index]
    other = state.apply(state.legal_moves()[0]).view(1)
    assert other.palaces["agra"] == (None, None)


def test_hash_is_cached_and_never_inherited_by_the_next_state() -> None:
    state = tm.new_game(3, seed=1)
    first = hash(state)
    assert hash(state) == first == hash(fresh(state))
    after = state.apply(tm.Withdraw())
    assert hash(after) == hash(fresh(after)) != first
    assert hash(state.view(0)) == hash(fresh(state).view(0))
