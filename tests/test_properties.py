"""Properties of whole random games (hypothesis): 3, 4 and 5 players, random legal moves.

A game is drawn as a :class:`GameSpec` (player count, game seed, the seed of the
``random.Random`` that picks the moves, and the starting seat) and played to
the end; every property is checked at every state of the game.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tajmahal as tm
from tajmahal import Phase, Withdraw
from tajmahal.rules.components import INFLUENCE, Components
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import SPECIALS, tables

#: the standard deck and board (Agra is the final province)
COMPONENTS: Components = tm.standard_components()
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=25, deadline=None)


class GameSpec(NamedTuple):
    num_players: int
    seed: int
    move_seed: int
    first_player: int


class Played(NamedTuple):
    """A finished random game: ``states[i + 1] == states[i].apply(moves[i])``."""

    spec: GameSpec
    states: tuple[GameState, ...]
    moves: tuple[tm.Move, ...]


@st.composite
def game_specs(draw: st.DrawFn) -> GameSpec:
    num_players = draw(st.sampled_from((3, 4, 5)))
    first = draw(st.integers(min_value=0, max_value=num_players - 1))
    return GameSpec(num_players, draw(SEEDS), draw(SEEDS), first)


#: one game of each size always runs, whatever hypothesis draws
EXAMPLES = (GameSpec(3, 1, 2, 0), GameSpec(4, 7, 8, 3), GameSpec(5, 11, 12, 2))


def with_examples(test: Callable[..., None]) -> Callable[..., None]:
    """Add the fixed examples of EXAMPLES to a property test."""
    for spec in EXAMPLES:
        test = example(spec=spec)(test)
    return test


@functools.lru_cache(maxsize=16)
def play(spec: GameSpec) -> Played:
    """Play the game ``spec`` with uniformly random legal moves."""
    state = tm.new_game(spec.num_players, spec.seed, COMPONENTS, spec.first_player)
    rng = random.Random(spec.move_seed)
    states: list[GameState] = [state]
    moves: list[tm.Move] = []
    while not state.is_over:
        assert len(moves) < 10_000, "a game that does not end"
        move = rng.choice(state.legal_moves())
        state = state.apply(move)
        moves.append(move)
        states.append(state)
    return Played(spec, tuple(states), tuple(moves))


# ------------------------------------------------------------------ components


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_every_card_is_accounted_for_at_every_state(spec: GameSpec) -> None:
    t = tables(COMPONENTS)
    deck = Counter(t.kind_of[c] for c in COMPONENTS.deck)
    assert sum(deck.values()) == 96
    for state in play(spec).states:
        cards: Counter[int] = Counter()
        for pile in (*state.hands, *state.table):
            cards.update(k for k in pile if not t.special[k])
        for pile in (state.supply, state.deck, state.discard):  # specials never land here
            cards.update(pile)
        assert cards == deck
        for pile in (*state.hands, state.supply, state.discard):
            assert list(pile) == sorted(pile)


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_every_special_card_is_beside_the_board_or_with_exactly_one_seat(spec: GameSpec) -> None:
    t = tables(COMPONENTS)
    for state in play(spec).states:
        for index, special in enumerate(SPECIALS):
            kind = t.special_kind[special]
            seats = [
                seat
                for seat in range(state.num_players)
                for _ in range(state.hands[seat].count(kind) + state.table[seat].count(kind))
            ]
            holder = state.special_holder[index]
            assert seats == ([] if holder == -1 else [holder])


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_influence_tiles_are_never_more_than_exist(spec: GameSpec) -> None:
    per_symbol = COMPONENTS.influence_tiles_per_symbol
    for state in play(spec).states:
        for i in range(len(INFLUENCE)):
            owned = sum(held[i] for held in state.influence)
            assert owned + state.court_influence[i] <= per_symbol
            assert all(held[i] <= 2 for held in state.influence)


# ------------------------------------------------------------------ scores, turns, visits


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_scores_never_decrease(spec: GameSpec) -> None:
    states = play(spec).states
    assert states[0].scores == (0,) * spec.num_players
    for before, after in itertools.pairwise(states):
        assert all(b <= a for b, a in zip(before.scores, after.scores, strict=True))


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_current_player_is_the_seat_that_owes_the_next_move(spec: GameSpec) -> None:
    game = play(spec)
    withdrawing: int | None = None  # the seat finishing its withdrawal
    for state, move in zip(game.states, game.moves, strict=False):
        seat = state.current_player
        assert seat is not None and 0 <= seat < spec.num_players
        assert not state.is_over and state.legal_moves()
        if state.phase is Phase.PLAY:
            assert not state.withdrawn[seat]
        else:  # palaces, crown and supply cards are owed by the seat that withdrew (W10, F2)
            assert state.withdrawn[seat] and seat == withdrawing
        for other in range(spec.num_players):
            if other != seat:
                with pytest.raises(tm.IllegalMoveError):
                    state.apply(move, seat=other)
        assert state.apply(move, seat=seat) == state.apply(move)
        if isinstance(move, Withdraw):
            withdrawing = seat
    end = game.states[-1]
    assert end.is_over and end.current_player is None and end.legal_moves() == ()
    assert all(s.current_player is not None for s in game.states[:-1])


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_game_ends_after_visit_12_with_the_final_province_last(spec: GameSpec) -> None:
    states = play(spec).states
    visited = [states[0].province]
    for before, after in itertools.pairwise(states):
        assert after.province_order == before.province_order
        assert after.visit in (before.visit, before.visit + 1)
        if after.visit != before.visit:
            visited.append(after.province)
    assert len(visited) == 12 == len(set(visited))
    assert {p.id for p in COMPONENTS.board.provinces} == set(visited)
    assert visited[-1] == COMPONENTS.board.final_province
    end = states[-1]
    assert end.is_over and end.visit == 12 and end.winners
    assert all(not s.is_over for s in states[:-1])


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_each_visit_starts_with_the_rotating_starting_player(spec: GameSpec) -> None:
    n = spec.num_players
    states = play(spec).states
    starts = [states[0]] + [a for b, a in itertools.pairwise(states) if a.visit != b.visit]
    assert [s.visit for s in starts] == list(range(1, 13))
    for state in starts:
        assert state.phase is Phase.PLAY
        assert state.current_player == (spec.first_player + state.visit - 1) % n  # S8, E3
        assert not any(state.withdrawn) and not any(state.table)
        assert all(state.court_influence) and state.court_crown and state.court_province_tile
        assert all(count <= 1 for held in state.influence for count in held)  # E2 traded pairs
        # E6: a full supply of 2n-1, unless the deck and the discard pile both ran dry (D1)
        assert len(state.supply) == 2 * n - 1 or (not state.deck and not state.discard)


# ------------------------------------------------------------------ the API's promises


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_apply_never_changes_its_input(spec: GameSpec) -> None:
    game = play(spec)
    for state, move in zip(game.states, game.moves, strict=False):
        copy = attrs.evolve(state)
        moves = state.legal_moves()
        state.apply(move)
        assert state == copy and hash(state) == hash(copy)
        assert state.legal_moves() == moves


@PROPERTY
@with_examples
@given(spec=game_specs())
def test_same_seed_and_moves_give_equal_states(spec: GameSpec) -> None:
    game = play(spec)
    state = tm.new_game(spec.num_players, spec.seed, COMPONENTS, spec.first_player)
    for recorded, move in zip(game.states, game.moves, strict=False):
        assert state == recorded and hash(state) == hash(recorded)
        assert state.legal_moves() == recorded.legal_moves()
        state = state.apply(move)
    assert state == game.states[-1] and state.scores == game.states[-1].scores


@PROPERTY
@given(num_players=st.sampled_from((3, 4, 5)), seeds=st.lists(SEEDS, min_size=2, max_size=2))
def test_different_seeds_give_different_setups(num_players: int, seeds: list[int]) -> None:
    a, b = (tm.new_game(num_players, s, COMPONENTS) for s in seeds)
    if seeds[0] == seeds[1]:
        assert a == b
    else:
        assert (a.hands, a.supply, a.deck) != (b.hands, b.supply, b.deck)
        assert a != b


@settings(max_examples=15, deadline=None)
@with_examples
@given(spec=game_specs())
def test_legal_moves_have_no_duplicates_and_all_apply(spec: GameSpec) -> None:
    for state in play(spec).states:
        moves = state.legal_moves()
        assert len(set(moves)) == len(moves)
        for move in moves:
            assert isinstance(state.apply(move), GameState)
