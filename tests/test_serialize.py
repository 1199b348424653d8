"""JSON documents (tm.dumps / tm.loads): round trips, the document format, and strict reading.

Round trips are checked on random mid-game states of 3-5 players, on the
standard components (referenced by name) and on the synthetic line board of
``helpers.line_components`` (embedded in full).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from helpers import line_components, mid_game_states
from tajmahal.rules.components import Components
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import tables
from tajmahal.rules.validate import InvalidStateError, check_state, find_problems

STANDARD = tm.standard_components()
LINE = line_components()
ROUND_TRIP = settings(max_examples=30, deadline=None)


def played(
    players: int = 4, seed: int = 3, moves: int = 60, comps: Components = STANDARD
) -> tm.Game:
    game = tm.Game.new(players, seed, comps, players=[f"bot{i}" for i in range(players)])
    rng = random.Random(seed)
    for _ in range(moves):
        if game.state.is_over:
            break
        game.push(rng.choice(game.state.legal_moves()))
    return game


def finished(players: int = 3, seed: int = 5, comps: Components = STANDARD) -> tm.Game:
    return played(players, seed, 10_000, comps)


def doc(obj: Any) -> dict[str, Any]:
    data = json.loads(tm.dumps(obj))
    assert isinstance(data, dict)
    return data


def rejected(data: Any, *fragments: str) -> str:
    """loads(data) raises FormatError whose message holds every fragment; the message."""
    text = data if isinstance(data, str | bytes) else json.dumps(data)
    with pytest.raises(tm.FormatError) as info:
        tm.loads(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    assert "internal error" not in message
    return message


# ---------------------------------------------------------------------------- round trips


def assert_round_trip(obj: Any) -> None:
    """loads(dumps(obj)) is an equal object of the same type, and dumps it to the same text."""
    text = tm.dumps(obj)
    back = tm.loads(text)
    assert back == obj
    assert type(back) is type(obj)
    assert tm.dumps(back) == text


@ROUND_TRIP
@given(mid_game_states())
def test_state_round_trip(state: GameState) -> None:
    assert_round_trip(state)


@ROUND_TRIP
@given(mid_game_states())
def test_view_round_trip_for_every_seat(state: GameState) -> None:
    for seat in range(state.num_players):
        assert_round_trip(state.view(seat))


@ROUND_TRIP
@given(mid_game_states())
def test_legal_moves_round_trip(state: GameState) -> None:
    for move in state.legal_moves():
        assert_round_trip(move)


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=3, max_value=5),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=0, max_value=400),
    st.sampled_from((STANDARD, LINE)),
)
def test_record_round_trip(players: int, seed: int, moves: int, comps: Components) -> None:
    assert_round_trip(played(players, seed, moves, comps).record())


def test_finished_record_round_trip_keeps_the_result() -> None:
    record = finished().record()
    assert record.scores is not None and record.winners
    back = tm.loads(tm.dumps(record))
    assert back == record
    assert isinstance(back, tm.GameRecord)
    assert (back.scores, back.winners) == (record.scores, record.winners)


def general_view_text(view: tm.PlayerView) -> str:
    """What tm.dumps wrote before its fast path for views: the document through cattrs."""
    from tajmahal.serialize import converter
    from tajmahal.serialize._documents import document

    return json.dumps(converter.unstructure(document(view)), ensure_ascii=False, allow_nan=False)


@pytest.mark.parametrize("comps", [STANDARD, LINE], ids=["standard", "line"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_fast_view_writer_writes_what_the_general_one_does(
    players: int, comps: Components
) -> None:
    rng = random.Random(players)
    state = tm.new_game(players, seed=players, components=comps)
    checked = 0
    while True:  # every seat's view of every state, in game order (parts shared and not)
        for seat in range(players):
            view = state.view(seat)
            assert tm.dumps(view) == general_view_text(view)
            checked += 1
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    assert checked > 100 * players


@ROUND_TRIP
@given(mid_game_states(), st.integers(min_value=0, max_value=4))
def test_the_fast_view_writer_agrees_on_views_in_any_order(state: GameState, seat: int) -> None:
    view = state.view(seat % state.num_players)
    assert tm.dumps(view) == general_view_text(view)


@pytest.mark.unchecked_documents("a view with a bool for a score, written as it is")
def test_a_view_of_foreign_parts_is_written_by_the_general_writer() -> None:
    view = played().state.view(0)
    equal_card = tm.Card.parse("red:elephant+vizier")  # equal to a card of the set, not it
    assert doc(attrs.evolve(view, hand=(*view.hand, equal_card)))["hand"][-1] == str(equal_card)
    odd = attrs.evolve(view, scores=(True, 2, 3, 4), hand=(*view.hand, equal_card))
    assert doc(odd)["scores"] == [True, 2, 3, 4]  # a bool stays a bool (the general writer)
    assert doc(odd)["hand"][-1] == "red:elephant+vizier"
    assert tm.dumps(odd) == general_view_text(odd)


@pytest.mark.unchecked_documents("views with parts of foreign types, written as they are")
def test_foreign_tiles_and_owners_are_written_by_the_general_writer() -> None:
    from tajmahal.rules.frozenmap import FrozenMap

    view = played().state.view(0)
    city, tile = next(iter(view.bonus_tiles.items()))
    equal_tile = attrs.evolve(tile)  # equal to the set's tile, not it
    palaces = dict(view.palaces)
    palaces[city] = (True, None)  # a bool for an owner stays a bool
    holders = FrozenMap({special: True for special in view.special_holder})
    odd_tile = attrs.evolve(STANDARD.province_tiles[0], number=True)  # a bool for a number
    for odd in (
        attrs.evolve(view, bonus_tiles=FrozenMap({**view.bonus_tiles, city: equal_tile})),
        attrs.evolve(view, palaces=FrozenMap(palaces)),
        attrs.evolve(view, special_holder=holders),
        attrs.evolve(view, province_tiles=((odd_tile,),) * view.num_players),
    ):
        assert tm.dumps(odd) == general_view_text(odd)
    written = json.loads(tm.dumps(attrs.evolve(view, palaces=FrozenMap(palaces))))
    assert written["palaces"][city] == [True, None]


def test_dumps_is_deterministic_for_equal_objects() -> None:
    one, two = tm.new_game(4, seed=9), tm.new_game(4, seed=9)
    assert one is not two
    assert tm.dumps(one) == tm.dumps(two)
    assert tm.dumps(one.view(2)) == tm.dumps(two.view(2))
    assert tm.dumps(tm.new_game(4, seed=9, components=line_components())) == tm.dumps(
        tm.new_game(4, seed=9, components=LINE)
    )


def test_dumps_with_indent_reads_back() -> None:
    state = played().state
    text = tm.dumps(state, indent=2)
    assert "\n" in text
    assert tm.loads(text) == state


# ---------------------------------------------------------------------------- the format


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda: played().state, "state"),
        (lambda: played().state.view(1), "view"),
        (lambda: played().state.legal_moves()[0], "move"),
        (lambda: played().record(), "record"),
    ],
)
def test_every_document_starts_with_format_and_version(make: Callable[[], Any], kind: str) -> None:
    data = doc(make())
    assert list(data)[:2] == ["format", "version"]
    assert data["format"] == f"tajmahal/{kind}"
    assert data["version"] == (2 if kind == "record" else 1)


def test_standard_components_are_referenced_by_name() -> None:
    data = doc(played().state)
    assert data["components"] == "standard"


def test_custom_components_are_embedded_and_validated_on_load() -> None:
    state = played(comps=LINE).state
    data = doc(state)
    embedded = data["components"]
    assert isinstance(embedded, dict)
    assert {c["id"] for c in embedded["board"]["cities"]} == {c.id for c in LINE.board.cities}
    loaded = tm.loads(json.dumps(data))
    assert isinstance(loaded, GameState) and loaded.components == LINE
    # the same checks as a components file: a road to nowhere is named
    embedded["board"]["roads"].append(["p1a", "atlantis"])
    rejected(data, "$.components", "atlantis")


def test_embedded_components_with_a_huge_count_are_rejected_cheaply() -> None:
    data = doc(played(comps=LINE).state)
    data["components"]["cards"][0]["count"] = 10**12
    rejected(data, "$.components", "too many")


def test_values_are_readable_text() -> None:
    state = played().state
    data = doc(state)
    t = tables(state.components)
    assert data["hands"][0] == [str(c) for c in state.hand(0)]
    assert data["phase"] == state.phase.value
    assert data["province_order"] == [t.province_ids[p] for p in state.province_order]
    assert set(data["special_holder"]) == {"elephant", "grand_mogul", "points", "color_change"}
    for city_id, owner in data["normal_palaces"].items():
        assert state.normal_palaces[t.city_of[city_id]] == owner
    for text in data["bonus"].values():
        assert text.split(":")[0] in {"taj_mahal", "points", "card", "commodity"}


def test_a_view_document_holds_only_what_the_seat_may_see() -> None:
    state = played().state
    data = doc(state.view(2))
    assert "seed" not in data and "deck" not in data and "hands" not in data
    assert data["hand"] == [str(c) for c in state.hand(2)]
    assert data["hand_sizes"] == [len(h) for h in state.hands]
    assert data["deck_size"] == len(state.deck)


def test_dumps_rejects_other_objects() -> None:
    with pytest.raises(tm.FormatError, match="cannot serialise a dict"):
        tm.dumps({"format": "tajmahal/state"})  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- bad documents


def test_not_json() -> None:
    rejected("{'format': 'tajmahal/state'}", "not JSON")
    rejected('{"format": "tajmahal/move", "version": 1, "move": "withdraw"', "not JSON")


@pytest.mark.parametrize("text", ["", "   \n", b""])
def test_empty(text: str | bytes) -> None:
    rejected(text, "empty")


@pytest.mark.parametrize("value", [None, 42, ["x"], object()])
def test_not_text(value: Any) -> None:
    with pytest.raises(tm.FormatError, match="expected JSON text"):
        tm.loads(value)


@pytest.mark.parametrize("text", ["[]", "3", '"state"', "null", "true"])
def test_wrong_top_level_type(text: str) -> None:
    rejected(text, "$: expected an object")


def test_unknown_format_and_versions() -> None:
    data = doc(tm.Withdraw())
    rejected({**data, "format": "tajmahal/chess"}, "$.format", "unknown format", "tajmahal/state")
    rejected({**data, "format": 3}, "$.format")
    rejected({k: v for k, v in data.items() if k != "format"}, "$.format", "missing")
    rejected({**data, "version": 2}, "$.version", "newer")
    rejected({**data, "version": 0}, "$.version", "unknown version")
    rejected({**data, "version": "1"}, "$.version", "expected an integer")
    rejected({k: v for k, v in data.items() if k != "version"}, "$.version", "missing")


def test_missing_and_unknown_keys() -> None:
    data = doc(played().state)
    del data["seed"]
    rejected(data, "$.seed", "required key missing")
    data = doc(played().state)
    data["colour"] = "red"
    rejected(data, "$", "unknown key(s) colour")


def test_wrong_types_name_the_path() -> None:
    data = doc(played().state)
    data["hands"][2][0] = 5
    rejected(data, "$.hands[2][0]", "expected a card")
    data = doc(played().state)
    data["scores"][1] = "7"
    rejected(data, "$.scores[1]", "expected an integer")
    data = doc(played().state)
    data["withdrawn"] = {"0": False}
    rejected(data, "$.withdrawn", "expected an array")
    data = doc(played().state)
    data["seed"] = True
    rejected(data, "$.seed", "expected an integer, got a boolean")
    data = doc(played().state)
    data["visit"] = 3.0
    rejected(data, "$.visit", "expected an integer")


def test_unknown_enum_values_cards_and_ids() -> None:
    data = doc(played().state)
    data["phase"] = "dance"
    rejected(data, "$.phase", "unknown phase 'dance'", "play")
    data = doc(played().state)
    data["hands"][0][0] = "red:elephant+dragon"
    rejected(data, "$.hands[0][0]", "not a card")
    data = doc(played().state)
    data["hands"][0][0] = "red:elephant+vizier+monk"
    rejected(data, "$.hands[0][0]", "not a card of these components")
    data = doc(played().state)
    data["normal_palaces"]["atlantis"] = 0
    rejected(data, "$.normal_palaces.atlantis", "unknown city id")
    data = doc(played().state)
    data["province_order"][0] = "narnia"
    rejected(data, "$.province_order[0]", "unknown province id")
    data = doc(played().state)
    data["special_holder"]["joker"] = None
    rejected(data, "$.special_holder.joker", "unknown special")
    data = doc(played().state)
    data["bonus"]["agra"] = "points:99"
    rejected(data, "$.bonus.agra", "no bonus tile")
    data = doc(played().state)
    data["components"] = "deluxe"
    rejected(data, "$.components", "'standard'")


def test_hostile_json_values() -> None:
    move = '{"format": "tajmahal/move", "version": 1, "move": %s}'
    rejected(move % "NaN", "not a number JSON allows")
    rejected(move % "-Infinity", "not a number JSON allows")
    rejected(move % "1e400", "out of range")
    rejected(move % ("9" * 5000), "not JSON")
    rejected('{"format": "tajmahal/move", "format": "tajmahal/move"}', "appears twice")
    rejected("[" * 100_000 + "]" * 100_000)
    rejected(b'{"format": "\xff"}', "not JSON")
    data = doc(played().state)
    data["seed"] = 10**300  # a big seed is still a seed
    assert isinstance(tm.loads(json.dumps(data)), GameState)
    data["scores"][0] = -(10**300)
    rejected(data, "$.scores[0]", "negative")


def test_a_deeply_nested_value_in_a_document() -> None:
    data = doc(played().state)
    nested: Any = "red:elephant+vizier"
    for _ in range(500):
        nested = [nested]
    data["supply"] = nested
    rejected(data, "$.supply[0]")


def test_a_bad_move_document() -> None:
    data = doc(tm.Withdraw())
    rejected({**data, "move": "fly away"}, "$.move", "is not a move")
    rejected({**data, "move": "play white:monk"}, "$.move", "colored card")
    rejected({**data, "move": "play red:elephant+vizier red:vizier+monk"}, "$.move", "P1")
    rejected({**data, "move": "palace Agra!"}, "$.move", "city id")
    rejected({**data, "move": 3}, "$.move", "expected a string")


# ---------------------------------------------------------------------------- impossible states


def state_doc_with(change: Callable[[dict[str, Any]], None], state: GameState | None = None) -> Any:
    data = doc(state if state is not None else played().state)
    change(data)
    return data


def test_a_card_census_other_than_the_deck_is_rejected() -> None:
    state = played().state
    extra = state_doc_with(lambda d: d["deck"].append("white:elephant"), state)
    message = rejected(extra, "one white:elephant too many", "the components have 7")
    assert "$.deck[" in message or "$.discard[" in message
    missing = state_doc_with(lambda d: d["deck"].pop(), state)
    rejected(missing, "$: 1 card(s) of the deck are nowhere")


def test_a_card_moved_from_one_pile_to_another_is_a_possible_state() -> None:
    state = played().state

    def move_card(d: dict[str, Any]) -> None:
        d["discard"].append(d["deck"].pop())

    loaded = tm.loads(json.dumps(state_doc_with(move_card, state)))
    assert isinstance(loaded, GameState)
    assert len(loaded.discard) == len(state.discard) + 1


def test_a_special_card_in_two_places_is_rejected() -> None:
    state = finished().state
    holders = doc(state)["special_holder"]
    special, seat = next((s, h) for s, h in holders.items() if h is not None)
    other = (seat + 1) % state.num_players
    twice = state_doc_with(lambda d: d["hands"][other].append(f"special:{special}"), state)
    rejected(twice, f"$.special_holder.{special}", "2 place(s)")
    nobody = state_doc_with(lambda d: d["special_holder"].update({special: None}), state)
    rejected(nobody, "beside the board")


def test_two_normal_palaces_in_one_city_cannot_be_written() -> None:
    text = tm.dumps(played().state).replace(
        '"normal_palaces": {', '"normal_palaces": {"agra": 0, ', 1
    )
    text = text.replace(
        '"normal_palaces": {"agra": 0, ', '"normal_palaces": {"agra": 0, "agra": 1, ', 1
    )
    rejected(text, "appears twice")


def test_a_palace_outside_the_visited_provinces_is_rejected() -> None:
    state = played(moves=5).state
    final = state.components.board.final_province
    city = state.components.board.province(final).cities[1].id
    data = state_doc_with(lambda d: d["normal_palaces"].update({city: 1}), state)
    rejected(data, f"$.normal_palaces.{city}", "not been visited")
    data = state_doc_with(lambda d: d["normal_palaces"].update({city: 7}), state)
    rejected(data, f"$.normal_palaces.{city}", "a seat is 0..3")


def test_negative_scores_are_rejected() -> None:
    rejected(state_doc_with(lambda d: d["scores"].__setitem__(1, -2)), "$.scores[1]", "negative")


def test_a_current_player_that_does_not_owe_a_move_is_rejected() -> None:
    state = played(moves=0).state
    data = state_doc_with(lambda d: d["withdrawn"].__setitem__(0, True), state)
    rejected(data, "$.current_player", "has withdrawn")
    data = state_doc_with(lambda d: d.update(current_player=None), state)
    rejected(data, "$.current_player", "not over")
    data = state_doc_with(lambda d: d.update(phase="take"), state)
    rejected(data, "owes a take move after withdrawing")
    data = state_doc_with(lambda d: d.update(phase="over"), state)
    rejected(data, "$.current_player", "nobody owes a move")
    data = state_doc_with(lambda d: d.update(pending_takes=2), state)
    rejected(data, "$.pending_takes", "nothing of this is owed in the play phase")


def test_visit_out_of_range_and_known_cards_not_in_hand_are_rejected() -> None:
    state = played().state
    rejected(state_doc_with(lambda d: d.update(visit=13), state), "$.visit", "1..12")
    rejected(state_doc_with(lambda d: d.update(visit=0), state), "$.visit", "1..12")
    card = next(c for c in state.components.card_kinds if c not in state.hand(1))
    data = state_doc_with(lambda d: d["known"][1].append(str(card)), state)
    rejected(data, "$.known[1]", "not in the hand")


def test_unsorted_piles_are_read_as_multisets_and_problems_name_the_written_index() -> None:
    state = played().state
    data = doc(state)
    data["hands"][0].reverse()
    assert tm.loads(json.dumps(data)) == state
    data["hands"][0].append("red:elephant+dragon")
    rejected(data, f"$.hands[0][{len(data['hands'][0]) - 1}]")


def test_check_state_accepts_what_the_engine_builds() -> None:
    game = finished(4, 8)
    for state in game.states:
        assert find_problems(state) == []


def test_check_state_lists_every_problem() -> None:
    state = played().state
    bad = attrs.evolve(state, scores=(-1, 0, -5, 0), reshuffles=-1)
    with pytest.raises(InvalidStateError) as info:
        check_state(bad)
    paths = {p.path for p in info.value.problems}
    assert {("scores", 0), ("scores", 2), ("reshuffles",)} <= paths
    assert isinstance(info.value, ValueError) and isinstance(info.value, tm.TajMahalError)


# ---------------------------------------------------------------------------- records


def test_a_tampered_record_document_names_the_move() -> None:
    record = played(moves=40).record()
    data = doc(record)
    data["moves"][10], data["moves"][11] = data["moves"][11], data["moves"][10]
    if data["moves"] == doc(record)["moves"]:  # pragma: no cover - two equal moves in a row
        data["moves"][10] = "palace nowhere"
    rejected(data, "$.moves[", "is not legal")
    data = doc(record)
    data["moves"][3] = "palace agra"
    rejected(data, "$.moves[3]", "move 4 (palace agra) is not legal")
    data = doc(record)
    data["moves"][0] = "jump"
    rejected(data, "$.moves[0]", "is not a move")


def test_a_record_whose_result_was_changed_is_rejected() -> None:
    data = doc(finished().record())
    data["scores"][0] += 1
    rejected(data, "$.scores", "does not match")
    data = doc(played(moves=10).record())
    data["scores"], data["winners"] = [1, 2, 3, 4], [3]
    rejected(data, "$.scores", "do not finish the game")


def test_a_record_with_the_wrong_number_of_players_or_names() -> None:
    data = doc(played().record())
    rejected({**data, "num_players": 6}, "$.num_players", "3 to 5")
    rejected({**data, "players": ["a", "b"]}, "$.players", "one name per seat")
    rejected({**data, "first_player": 4}, "$.first_player")


@pytest.mark.parametrize("text", ["WITHDRAW", "Withdraw", " withdraw", "palace  agra",
                                  "PLAY red:elephant"])  # fmt: skip
def test_a_document_names_moves_in_the_notation_only(text: str) -> None:
    # people may type 'WITHDRAW' (parse_move); a document holds the notation its JSON Schema
    # allows, so what loads accepts always passes the schema
    move = {"format": "tajmahal/move", "version": 1, "move": text}
    with pytest.raises(tm.FormatError, match=r"\$\.move: .* not written in the move notation"):
        tm.loads(json.dumps(move))
    record = json.loads(tm.dumps(tm.Game.new(num_players=3, seed=1).record()))
    record["moves"] = [text]
    with pytest.raises(tm.FormatError, match=r"\$\.moves\[0\]"):
        tm.loads(json.dumps(record))
