"""Documents as data: ``tm.to_document`` is ``json.loads(tm.dumps(obj))`` and
``tm.from_document`` reads what ``tm.loads`` reads from that data's text, the same way;
any other data is refused with a ``FormatError`` that names its JSON path.
"""

from __future__ import annotations

import collections
import copy
import enum
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from helpers import line_components, mid_game_states
from tajmahal.serialize._parse import MAX_DEPTH, MAX_VALUES
from test_fuzz_loads import DOCUMENTS, MUTATIONS

DATA = settings(max_examples=25, deadline=None)


def outcome(read: Any, source: Any) -> tuple[str, Any]:
    """What reading ``source`` gives: ("loaded", object) or ("rejected", the message)."""
    try:
        return "loaded", read(source)
    except tm.FormatError as exc:
        assert str(exc).startswith("cannot read"), str(exc)
        assert "internal error" not in str(exc), str(exc)
        return "rejected", str(exc)


def containers(data: Any) -> Iterator[Any]:
    """``data`` and every dict and list inside it."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list):
            yield node
            stack.extend(node.values() if isinstance(node, dict) else node)


def assert_same_document(obj: Any) -> None:
    """to_document(obj) is the dict of tm.dumps(obj), to the types; from_document reads it."""
    document = tm.to_document(obj)
    text = tm.dumps(obj)
    assert document == json.loads(text)
    assert json.dumps(document, ensure_ascii=False) == text  # same types, same key order
    assert all(type(c) in (dict, list) for c in containers(document))  # no tuples
    assert tm.from_document(document) == obj == tm.loads(text)


# ---------------------------------------------------------------------------- the same documents


@st.composite
def played_games(draw: st.DrawFn) -> tm.Game:
    """A game after random legal moves (maybe to its end), standard or line board."""
    comps = draw(st.sampled_from((tm.standard_components(), line_components())))
    players = draw(st.integers(min_value=3, max_value=5))
    game = tm.Game.new(
        players,
        draw(st.integers(min_value=0, max_value=2**32)),
        comps,
        players=[f"p{i}" for i in range(players)],
    )
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    for _ in range(draw(st.integers(min_value=0, max_value=300))):
        if game.state.is_over:
            break
        game.push(rng.choice(game.state.legal_moves()))
    return game


@DATA
@given(mid_game_states())
def test_a_state_and_every_view_give_the_document_of_their_text(state: tm.GameState) -> None:
    assert_same_document(state)
    for seat in range(state.num_players):
        assert_same_document(state.view(seat))


@DATA
@given(played_games())
def test_a_record_and_its_moves_give_the_document_of_their_text(game: tm.Game) -> None:
    assert_same_document(game.record())
    for move in game.state.legal_moves()[:10]:
        assert_same_document(move)


def test_every_kind_of_move_gives_the_document_of_its_text() -> None:
    state = tm.new_game(num_players=3, seed=4)
    card = tm.standard_components().deck[0]
    moves = [*state.legal_moves()[:3], tm.Withdraw(), tm.PlacePalace("agra"),
             tm.PlaceCrownPalace("agra"), tm.TakeCard(card)]  # fmt: skip
    for move in moves:
        assert_same_document(move)


def test_golden_records_read_from_data_as_from_text() -> None:
    """Both record versions (tests/data), as their texts load."""
    goldens = sorted((Path(__file__).parent / "data").glob("record-v*.json"))
    assert len(goldens) >= 12
    for path in goldens:
        text = path.read_text(encoding="utf-8")
        assert tm.from_document(json.loads(text)) == tm.loads(text), path.name


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(DOCUMENTS),
    st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=0, max_size=3),
    st.integers(min_value=0, max_value=2**32),
)
def test_data_is_read_exactly_as_its_text(text: str, names: list[str], seed: int) -> None:
    """The same object, or the same FormatError message, for mutated real documents."""
    rng = random.Random(seed)
    data = json.loads(text)
    for name in names:
        data = MUTATIONS[name](data, rng)
    text = json.dumps(data)
    given_data = copy.deepcopy(data)
    assert outcome(tm.from_document, given_data) == outcome(tm.loads, text)
    assert given_data == data  # reading changed nothing


def test_each_document_is_new_and_changing_it_changes_nothing_else() -> None:
    state = tm.new_game(num_players=3, seed=2, components=line_components())
    first, second = tm.to_document(state), tm.to_document(state)
    assert not {id(c) for c in containers(first)} & {id(c) for c in containers(second)}
    first["components"]["board"]["cities"].clear()
    first["hands"][0].clear()
    assert tm.to_document(state) == second == json.loads(tm.dumps(state))
    view = state.view(1)
    first = tm.to_document(view)
    first["hand"].clear()
    assert tm.to_document(view) == json.loads(tm.dumps(view))


def test_the_names_are_public_and_load_with_serialize() -> None:
    assert {"to_document", "from_document"} <= set(tm.__all__)
    assert tm.to_document is tm.serialize.to_document
    assert tm.from_document is tm.serialize.from_document


def test_an_object_that_is_no_document_is_refused() -> None:
    with pytest.raises(tm.FormatError, match="cannot serialise a dict"):
        tm.to_document({"format": "tajmahal/move"})  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- hostile data


def _view_document() -> dict[str, Any]:
    return tm.to_document(tm.new_game(num_players=4, seed=5).view(1))


class Color(enum.StrEnum):
    RED = "red"


class Seat(enum.IntEnum):
    ONE = 1


def _bomb(levels: int) -> list[Any]:
    """A list that is small in memory and holds 2**levels values when written out."""
    shared: list[Any] = [0]
    for _ in range(levels):
        shared = [shared, shared]
    return shared


def _deep(levels: int) -> list[Any]:
    nested: list[Any] = []
    for _ in range(levels):
        nested = [nested]
    return nested


#: (name, key of the view document, value, expected message part)
HOSTILE_VALUES = [
    ("tuple", "hand", ("red:elephant",), "$.hand: not JSON: tuple is not a JSON type"),
    ("set", "hand", {"red:elephant"}, "$.hand: not JSON: set is not a JSON type"),
    ("frozenset", "seat", frozenset(), "$.seat: not JSON: frozenset is not a JSON type"),
    ("bytes", "province", b"agra", "$.province: not JSON: bytes is not a JSON type"),
    ("object", "seat", object(), "$.seat: not JSON: object is not a JSON type"),
    ("NaN", "seat", float("nan"), "$.seat: not JSON: nan is not a number JSON allows"),
    ("infinity", "visit", float("inf"), "$.visit: not JSON: inf is not a number JSON allows"),
    ("-infinity", "visit", -float("inf"), "$.visit: not JSON: -inf is not a number JSON allows"),
    ("huge int", "seat", 10**5000, "$.seat: not JSON: an integer of more than 4300 digits"),
    ("huge -int", "seat", -(10**4300), "$.seat: not JSON: an integer of more than 4300 digits"),
    ("str enum", "province", Color.RED, "$.province: not JSON: Color is not a JSON type"),
    ("int enum", "seat", Seat.ONE, "$.seat: not JSON: Seat is not a JSON type"),
    ("int key", "special_holder", {1: 0}, "$.special_holder: not JSON: key 1 is not a string"),
    ("None key", "special_holder", {None: 0}, "$.special_holder: not JSON: key None is not a"),
    ("tuple key", "palaces", {("a",): 0}, "$.palaces: not JSON: key ('a',) is not a string"),
    ("ordered dict", "palaces", collections.OrderedDict(), "OrderedDict is not a JSON type"),
    ("deep in a list", "hand", [["x", [1, 2.5, {"k": [None, (1,)]}]]],
     "$.hand[0][1][2].k[1]: not JSON: tuple is not a JSON type"),
    ("deep nesting", "hand", _deep(MAX_DEPTH + 10), "cannot read the document: it is nested too"),
    ("very deep nesting", "hand", _deep(200_000), "cannot read the document: it is nested too"),
    ("shared lists", "hand", _bomb(64), f"it holds more than {MAX_VALUES} values"),
    ("many values", "hand", [0] * (MAX_VALUES + 1), f"it holds more than {MAX_VALUES} values"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("key", "value", "expected"), [case[1:] for case in HOSTILE_VALUES],
    ids=[case[0] for case in HOSTILE_VALUES],
)  # fmt: skip
def test_data_that_json_cannot_give_is_refused(key: str, value: Any, expected: str) -> None:
    document = _view_document()
    document[key] = value
    kind, message = outcome(tm.from_document, document)
    assert kind == "rejected" and expected in message, message
    assert len(message) < 400


def test_a_container_that_holds_itself_is_refused() -> None:
    document = _view_document()
    document["hand"] = document
    with pytest.raises(tm.FormatError, match="nested too deeply"):
        tm.from_document(document)
    looped: list[Any] = []
    looped.append(looped)
    document = _view_document()
    document["hand"] = looped
    with pytest.raises(tm.FormatError, match="nested too deeply"):
        tm.from_document(document)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('{"format": "tajmahal/move"}', "$: expected an object, got a string"),
        (None, "$: expected an object, got null"),
        ([], "$: expected an object, got an array"),
        (7, "$: expected an object, got an integer"),
        (b"{}", "$: not JSON: bytes is not a JSON type"),
        (("format", "version"), "$: not JSON: tuple is not a JSON type"),
        (collections.OrderedDict(format="tajmahal/move"), "$: not JSON: OrderedDict is not a"),
        (float("nan"), "$: not JSON: nan is not a number JSON allows"),
        ({}, "$.format: required key missing"),
        ({1: "tajmahal/move"}, "$: not JSON: key 1 is not a string"),
    ],
)
def test_something_other_than_a_document_is_refused(value: Any, expected: str) -> None:
    kind, message = outcome(tm.from_document, value)
    assert kind == "rejected" and expected in message, message


def test_an_integer_json_text_can_give_is_read_as_from_text() -> None:
    """4300 digits: JSON text gives it (Python's limit), so both refuse it the same way."""
    for value in (10**4299, -(10**4299), 2**63, True):
        document = _view_document()
        document["seat"] = value
        assert outcome(tm.from_document, document) == outcome(tm.loads, json.dumps(document))


#: indices into HOSTILE_VALUES (drawn as indices: some values have no printable repr)
HOSTILE = st.sampled_from([i for i, case in enumerate(HOSTILE_VALUES) if case[0] != "many values"])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(DOCUMENTS), HOSTILE, st.integers(min_value=0, max_value=2**32))
def test_a_hostile_value_anywhere_gives_a_format_error(text: str, index: int, seed: int) -> None:
    value = HOSTILE_VALUES[index][2]
    rng = random.Random(seed)
    data = json.loads(text)
    target = rng.choice(list(containers(data)))
    if isinstance(target, dict):
        target[rng.choice([*target, "extra"])] = value
    else:
        target.insert(rng.randrange(len(target) + 1), value)
    kind, message = outcome(tm.from_document, data)
    assert kind == "rejected", message
