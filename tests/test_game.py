"""tm.Game (history with undo), GameRecord and tm.replay."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from helpers import line_components

LINE = line_components()


def play_randomly(game: tm.Game, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        if game.state.is_over:
            return
        game.push(rng.choice(game.state.legal_moves()))


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=3, max_value=5),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=1, max_value=300),
)
def test_pop_restores_the_exact_earlier_state(players: int, seed: int, moves: int) -> None:
    game = tm.Game.new(players, seed)
    rng = random.Random(seed)
    seen = [game.state]
    made = []
    for _ in range(moves):
        if game.state.is_over:
            break
        move = rng.choice(game.state.legal_moves())
        made.append(move)
        seen.append(game.push(move))
    while made:
        assert game.pop() == made.pop()
        assert game.state is seen[len(made)]
        assert game.state == seen[len(made)]
        assert game.moves == tuple(made)
    assert len(game) == 0


def test_undo_then_another_move() -> None:
    game = tm.Game.new(4, seed=2)
    start = game.state
    first = game.state.legal_moves()[0]
    game.push(first)
    game.pop()
    other = game.state.legal_moves()[-1]
    game.push(other)
    assert game.moves == (other,)
    assert game.state == start.apply(other)


def test_pop_from_an_empty_game() -> None:
    with pytest.raises(IndexError, match="no moves"):
        tm.Game.new(3, seed=1).pop()


def test_push_an_illegal_move_changes_nothing() -> None:
    game = tm.Game.new(3, seed=1)
    before = game.state
    with pytest.raises(tm.IllegalMoveError):
        game.push(tm.PlacePalace("agra"))
    assert game.state is before and game.moves == ()


def test_push_text() -> None:
    game = tm.Game.new(3, seed=1)
    move = game.state.legal_moves()[0]
    game.push_text(str(move))
    assert game.moves == (move,)
    with pytest.raises(tm.IllegalMoveError, match="legal moves"):
        game.push_text("crown agra")


@settings(max_examples=10, deadline=None)
@given(
    st.integers(min_value=3, max_value=5),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=0, max_value=10_000),
    st.sampled_from((None, LINE)),
)
def test_replay_reproduces_the_final_state(
    players: int, seed: int, moves: int, comps: tm.Components | None
) -> None:
    game = tm.Game.new(players, seed, comps, first_player=seed % players)
    play_randomly(game, moves, random.Random(seed))
    record = game.record()
    assert tm.replay(record) == game.state
    again = tm.Game.from_record(record)
    assert again.states == game.states and again.moves == game.moves


def test_a_finished_record_holds_the_result() -> None:
    game = tm.Game.new(4, seed=6, players=["a", "b", "c", "d"])
    play_randomly(game, 10_000, random.Random(6))
    record = game.record()
    assert game.state.is_over
    assert record.scores == game.state.scores and record.winners == game.state.winners
    assert record.players == ("a", "b", "c", "d")
    assert (record.num_players, record.seed, record.first_player) == (4, 6, 0)
    assert record.components == tm.standard_components()
    assert tm.replay(record) == game.state


def test_a_tampered_record_is_rejected_with_the_move_number() -> None:
    game = tm.Game.new(4, seed=3)
    play_randomly(game, 50, random.Random(3))
    record = game.record()
    moves = list(record.moves)
    number = next(i for i in range(20, 50) if moves[i] != moves[i + 1]) + 1
    moves[number - 1], moves[number] = moves[number], moves[number - 1]
    with pytest.raises(tm.IllegalMoveError, match=rf"move ({number}|{number + 1}) \("):
        tm.replay(attrs.evolve(record, moves=tuple(moves)))
    with pytest.raises(tm.IllegalMoveError, match=r"^move 1 \(palace agra\) is not legal"):
        tm.replay(attrs.evolve(record, moves=(tm.PlacePalace("agra"), *record.moves)))
    with pytest.raises(tm.IllegalMoveError, match="move 51"):
        tm.Game.from_record(attrs.evolve(record, moves=(*record.moves, tm.PlacePalace("x"))))


def test_a_record_with_a_false_result_is_rejected() -> None:
    game = tm.Game.new(3, seed=4)
    play_randomly(game, 10_000, random.Random(4))
    record = game.record()
    assert record.scores is not None
    wrong = (record.scores[0] + 1, *record.scores[1:])
    with pytest.raises(tm.IllegalMoveError, match="does not match"):
        tm.replay(attrs.evolve(record, scores=wrong))
    short = attrs.evolve(record, moves=record.moves[:-1])
    with pytest.raises(tm.IllegalMoveError, match="do not finish the game"):
        tm.replay(short)


def test_replay_needs_a_record() -> None:
    with pytest.raises(tm.TajMahalError, match="expected a GameRecord"):
        tm.replay("moves")  # type: ignore[arg-type]


def test_game_record_keeps_the_fields_the_referee_uses() -> None:
    names = {f.name for f in attrs.fields(tm.GameRecord)}
    assert {"num_players", "seed", "moves", "first_player", "components", "players"} <= names
    assert {"scores", "winners"} <= names
