"""Move notation: str(move) and tm.parse_move(text, state) (grammar in tajmahal.rules.moves)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings

import tajmahal as tm
from helpers import line_components, mid_game_states, random_playout
from tajmahal.rules.moves import move_from_text
from tajmahal.rules.state import GameState, Phase

LINE = line_components()


@settings(max_examples=60, deadline=None)
@given(mid_game_states())
def test_parse_move_reads_back_every_legal_move(state: GameState) -> None:
    texts = [str(m) for m in state.legal_moves()]
    assert len(set(texts)) == len(texts)  # the notation tells every legal move apart
    for move in state.legal_moves():
        assert tm.parse_move(str(move), state) == move


def test_every_state_of_whole_games_reads_back() -> None:
    for players, seed in ((3, 1), (5, 2)):
        for state in random_playout(tm.new_game(players, seed), random.Random(seed)):
            for move in state.legal_moves():
                assert tm.parse_move(str(move), state) == move


def test_the_grammar() -> None:
    red = tm.Card.parse("red:elephant+vizier")
    assert str(tm.PlayCards(red)) == "play red:elephant+vizier"
    assert (
        str(tm.PlayCards(red, tm.Card.parse("white:monk"))) == "play red:elephant+vizier white:monk"
    )
    special = tm.Card.parse("special:color_change")
    assert str(tm.PlayCards(red, special)) == "play red:elephant+vizier special:color_change"
    assert str(tm.Withdraw()) == "withdraw"
    assert str(tm.PlacePalace("agra")) == "palace agra"
    assert str(tm.PlaceCrownPalace("delhi")) == "crown delhi"
    assert str(tm.TakeCard(tm.Card.parse("white:elephant"))) == "take white:elephant"
    for text in (
        "play red:elephant+vizier white:monk",
        "withdraw",
        "crown agra",
        "take white:monk",
    ):
        assert str(move_from_text(text)) == text


def first_play(state: GameState) -> tm.PlayCards:
    return next(m for m in state.legal_moves() if isinstance(m, tm.PlayCards))


def test_case_whitespace_and_symbol_order_are_forgiven() -> None:
    state = tm.new_game(4, seed=5)
    move = first_play(state)
    color, symbols = str(move.colored).split(":")
    swapped = f"{color}:{'+'.join(reversed(symbols.split('+')))}"
    assert tm.parse_move(f"  PLAY   {swapped.upper()} ", state) == move
    assert tm.parse_move("Withdraw", state) == tm.Withdraw()


def test_an_illegal_move_lists_the_legal_moves() -> None:
    state = tm.new_game(4, seed=5)
    with pytest.raises(tm.IllegalMoveError) as info:
        tm.parse_move("palace agra", state)
    message = str(info.value)
    assert "'palace agra' is not a legal move" in message
    assert "must play cards or withdraw" in message
    for move in state.legal_moves():
        assert str(move) in message


def test_a_card_not_in_hand_is_explained() -> None:
    state = tm.new_game(4, seed=5)
    card = next(c for c in state.components.deck if c.color in tm.rules.components.COLORED)
    missing = next(
        c for c in state.components.card_kinds if c.color is card.color and c not in state.hand(0)
    )
    with pytest.raises(tm.IllegalMoveError, match="not in seat 0's hand"):
        tm.parse_move(f"play {missing}", state)


@pytest.mark.parametrize("text", ["", "fly", "play", "play red:dragon", "take", "palace a b", "7"])
def test_text_that_is_not_a_move(text: str) -> None:
    state = tm.new_game(3, seed=1)
    with pytest.raises(tm.IllegalMoveError, match="is not a legal move") as info:
        tm.parse_move(text, state)
    assert "legal moves: " in str(info.value)


def test_not_text_at_all() -> None:
    with pytest.raises(tm.IllegalMoveError, match="expected the text of a move"):
        tm.parse_move(tm.Withdraw(), tm.new_game(3, seed=1))  # type: ignore[arg-type]


def test_no_move_is_legal_once_the_game_is_over() -> None:
    *_, last = random_playout(tm.new_game(3, seed=3, components=LINE), random.Random(3))
    assert last.phase is Phase.OVER
    with pytest.raises(tm.IllegalMoveError, match="the game is over"):
        tm.parse_move("withdraw", last)


def test_move_from_text_does_not_check_legality() -> None:
    assert move_from_text("palace nowhere") == tm.PlacePalace("nowhere")
    with pytest.raises(ValueError, match="not a move"):
        move_from_text("withdraw now")


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: tm.PlayCards("red:elephant+vizier"), "PlayCards(colored=...) takes a Card"),
        (
            lambda: tm.PlayCards(tm.Card.parse("red:elephant+vizier"), "white:monk"),
            "PlayCards(extra=...) takes a Card, such as Card.parse('red:elephant+vizier') or None",
        ),
        (lambda: tm.TakeCard(3), "TakeCard(card=...) takes a Card, such as"),
        (lambda: tm.PlacePalace(tm.Card.parse("white:monk")), "PlacePalace(city=...) takes a city"),
        (lambda: tm.PlaceCrownPalace(None), "PlaceCrownPalace(city=...) takes a city id (str)"),
    ],
)
def test_a_move_built_from_the_wrong_types_says_so_at_once(build: Any, message: str) -> None:
    with pytest.raises(TypeError, match=re.escape(message)) as info:
        build()
    assert "parse_move" in str(info.value)


def test_the_type_error_of_a_huge_value_stays_short() -> None:
    with pytest.raises(TypeError) as info:
        tm.PlacePalace(["agra"] * 100_000)  # type: ignore[arg-type]
    assert len(str(info.value)) < 300
