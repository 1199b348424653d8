"""``repr`` of the library's main objects is short and says what the object is."""

from __future__ import annotations

import pytest

import tajmahal as tm
from tajmahal.tournament import run_tournament

NAMES = ["GameState", "PlayerView", "Components", "Board", "Card", "Game", "MatchResult",
         "GameRecord", "TournamentResult"]  # fmt: skip


@pytest.fixture(scope="module")
def objects() -> dict[str, object]:
    state = tm.new_game(num_players=4, seed=7)
    components = tm.standard_components()
    result = tm.play_match(["greedy", "random", "random"], seed=7)
    game = tm.Game.new(num_players=3, seed=7)
    game.push(game.state.legal_moves()[0])
    standings = run_tournament(["greedy", "random", "random"], games=6, num_players=3, seed=1,
                               backend="serial")  # fmt: skip
    values = [state, state.view(2), components, components.board, components.deck[0], game,
              result, result.record, standings]  # fmt: skip
    return dict(zip(NAMES, values, strict=True))


@pytest.mark.parametrize("name", NAMES)
def test_a_repr_is_short_and_names_its_class(name: str, objects: dict[str, object]) -> None:
    text = repr(objects[name])
    assert text.startswith(f"<{name} ") and text.endswith(">"), text
    assert len(text) <= 200, text


def test_moves_show_their_cards_briefly() -> None:
    state = tm.new_game(num_players=4, seed=7)
    assert repr(state.legal_moves()[0]) == (
        "PlayCards(colored=<Card red:elephant+vizier>, extra=None)"
    )
    assert repr(tm.PlacePalace("agra")) == "PlacePalace(city='agra')"
    assert all(len(repr(move)) < 120 for move in state.legal_moves())


def test_a_view_repr_shows_no_hidden_card() -> None:
    state = tm.new_game(num_players=4, seed=7)
    text = repr(state.view(0))
    assert "hand 6 cards" in text and not any(str(card) in text for card in state.hand(1))
