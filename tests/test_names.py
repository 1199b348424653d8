"""tajmahal.names: one way to name a move, a card and a score part for people (issue 47).

Each front end is read through its real output (the terminal's move list, the
replay page's data, the web's state message and hint, the analysis's effects and
ratings), and each must say what :mod:`tajmahal.names` says for the same move,
card or score part.
"""

from __future__ import annotations

import json
import re

import pytest

import tajmahal as tm
from tajmahal import analysis, names
from tajmahal.analysis import effects, score_breakdown
from tajmahal.cli._panel import moves_lines
from tajmahal.names import (
    SCORE_PARTS,
    card_name,
    move_name,
    move_parts,
    score_part_name,
    score_parts_text,
    symbol_name,
)
from tajmahal.render.viewer import breakdown_data, replay_html

#: seed 0 with three greedy seats plays every kind of move: plays with a white card and with a
#: special card, withdrawals, palaces, a crown palace and cards taken from the supply
RECORD = tm.play_match(["greedy", "greedy", "greedy"], seed=0).record
STATES = tm.Game.from_record(RECORD).states
COMPS = RECORD.components
card = tm.Card.parse


def test_the_record_has_every_kind_of_move() -> None:
    kinds = {type(move) for move in RECORD.moves}
    assert kinds == {tm.PlayCards, tm.Withdraw, tm.PlacePalace, tm.PlaceCrownPalace, tm.TakeCard}
    extras = {m.extra.special is None for m in RECORD.moves
              if isinstance(m, tm.PlayCards) and m.extra is not None}  # fmt: skip
    assert extras == {True, False}


@pytest.mark.parametrize(
    ("move", "long", "short"),
    [
        (tm.PlayCards(card("red:vizier+monk"), card("special:grand_mogul")),
         "play red vizier+monk with grand mogul card", "red viz+mon with grand mogul"),
        (tm.PlayCards(card("violet:elephant"), card("white:princess")),
         "play violet elephant with white princess", "violet ele with white pri"),
        (tm.PlayCards(card("green:general")), "play green general", "green gen"),
        (tm.TakeCard(card("special:color_change")), "take color change card", "take color change"),
        (tm.Withdraw(), "withdraw", "withdraw"),
        (tm.PlacePalace("dera_ismail_khan"), "palace in Dera Ismail Khan",
         "palace in Dera Ismail Khan"),
        (tm.PlaceCrownPalace("agra"), "crown palace in Agra", "crown palace in Agra"),
    ],
)  # fmt: skip
def test_each_kind_of_move_has_a_long_and_a_short_name(
    move: tm.Move, long: str, short: str
) -> None:
    assert move_name(move, COMPS) == long
    assert move_name(move, COMPS, short=True) == short
    assert "".join(text for text, _ in move_parts(move, COMPS)) == long
    named = [c for _, c in move_parts(move) if c is not None]
    assert named == [c for c in (getattr(move, "colored", None), getattr(move, "extra", None),
                                 getattr(move, "card", None)) if c is not None]  # fmt: skip
    assert str(move) != long or isinstance(move, tm.Withdraw)


def test_the_notation_is_not_the_name() -> None:
    move = tm.PlayCards(card("red:vizier+monk"), card("special:grand_mogul"))
    assert str(move) == "play red:vizier+monk special:grand_mogul"
    state = STATES[0]
    for legal in state.legal_moves():
        assert tm.parse_move(str(legal), state) == legal
        assert ":" not in move_name(legal, COMPS) and "_" not in move_name(legal, COMPS)


def test_cards_symbols_and_score_parts() -> None:
    assert card_name(card("white:monk")) == "white monk"
    assert card_name(card("special:points")) == "points card"
    assert card_name(card("red:elephant+grand_mogul"), short=True) == "red ele+mog"
    assert [symbol_name(s, short=True) for s in tm.Symbol] == ["viz", "gen", "mon", "pri", "mog",
                                                               "ele"]  # fmt: skip
    assert [score_part_name(key) for key, _ in SCORE_PARTS] == [
        "palaces", "province tiles", "commodities", "bonus tiles", "Taj Mahal", "points card",
        "final hand",
    ]  # fmt: skip
    assert score_parts_text([("connections", 0)]) == "0"


def test_wrong_values_are_clear_errors() -> None:
    with pytest.raises(tm.TajMahalError, match=r"no score part 'palace'.*connections"):
        score_part_name("palace")
    with pytest.raises(TypeError, match="takes a move, not str"):
        move_name("withdraw")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Card, not str"):
        card_name("red:monk")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Symbol, not str"):
        symbol_name("monk")  # type: ignore[arg-type]


def test_the_analysis_names_are_the_librarys() -> None:
    for name in ("move_name", "card_name", "symbol_name", "display_name", "plain_text",
                 "prize_name", "province_tile_name", "bonus_name"):  # fmt: skip
        assert getattr(analysis, name) is getattr(names, name), name
    assert [(key, label) for key, label, _ in analysis.SOURCES] == list(SCORE_PARTS)
    for state in STATES[:-1:7]:
        view = state.view(state.current_player)
        for told in effects(view):
            assert told.name == move_name(told.move, COMPS)


def test_the_terminal_lists_each_move_by_its_short_name() -> None:
    for state in STATES[:-1:5]:
        legal = state.legal_moves()
        shown = "\n".join(line.plain for line in moves_lines(legal, components=COMPS))
        for k, move in enumerate(legal, start=1):
            assert f"{k:>2} {move_name(move, COMPS, short=True)}" in shown, (move, shown)


def _replay_data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


def test_the_replay_page_names_each_move_and_score_part_as_the_library_does() -> None:
    data = _replay_data(replay_html(RECORD))
    steps = data["steps"]
    assert isinstance(steps, list)
    for number, move in enumerate(RECORD.moves, start=1):
        assert steps[number]["label"].endswith(": " + move_name(move, COMPS)), steps[number]
    hands = [STATES[n].view(s).hand for n in (0, 40) for s in range(3)]
    cards, lists = data["cards"], data["lists"]  # each hand a list, each card named once
    assert isinstance(cards, list) and isinstance(lists, list)
    shown = [lists[steps[n]["hands"][s]] for n in (0, 40) for s in range(3)]
    assert [[cards[c][0] for c in hand] for hand in shown] == [
        [card_name(c) for c in hand] for hand in hands
    ]
    rows = score_breakdown(RECORD)
    breakdown = data["breakdown"]
    assert isinstance(breakdown, dict)
    assert breakdown["columns"] == [score_part_name(key) for key, _ in SCORE_PARTS]
    assert breakdown["parts"] == [score_parts_text(row.points) for row in rows]
    assert breakdown == json.loads(json.dumps(breakdown_data(rows)))  # the web result box's too


def test_the_terminal_result_and_the_web_result_box_say_the_same_parts() -> None:
    rows = score_breakdown(RECORD)
    web = breakdown_data(rows)["parts"]  # web/static/game.js writes "NAME: SCORE = " + this
    for row, parts in zip(rows, web, strict=True):
        assert row.text().startswith(f"{row.total} = {parts}")  # the terminal's result line
        assert parts != "0" and "_" not in parts


def test_the_web_labels_its_moves_and_cards_with_the_librarys_names() -> None:
    pytest.importorskip("starlette")
    from tajmahal.web.seat_messages import live_board, move_labels, state_frame

    board = live_board(STATES[0].view(0))  # sent once per connection: the page's names
    seen: set[type] = set()
    for state in STATES[:-1]:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        legal = state.legal_moves()
        labels = move_labels(view, legal)
        frame = state_frame(view, game_id="g", decision=0, players=["a", "b", "c"], humans=[seat],
                            seat=seat, legal=[str(m) for m in legal], labels=labels, events=[],
                            hints=False, undo=False)  # fmt: skip
        for move, label in zip(legal, frame["labels"], strict=True):
            assert label[0] == move_name(move, COMPS)
            if isinstance(move, tm.PlayCards) and move.extra is not None:
                assert label[2] == card_name(move.extra)
            seen.add(type(move))
        for text in frame["view"]["hand"]:  # game.js names the hand's cards from the board's
            assert board["card_names"][text] == card_name(card(text))
    assert len(seen) == 5
    assert board["symbol_names"] == {s.value: symbol_name(s) for s in tm.Symbol}
    assert len(board["card_names"]) == len(set(COMPS.deck) | set(COMPS.special_cards))


def test_the_web_hint_names_its_move_as_the_library_does() -> None:
    pytest.importorskip("starlette")
    from tajmahal.web._table_analysis import hint_for

    state = STATES[10]
    seat = state.current_player
    assert seat is not None
    message = hint_for(state.view(seat), state.legal_moves(), seed=1)
    assert message["label"] == move_name(tm.parse_move(message["move"], state), COMPS)
