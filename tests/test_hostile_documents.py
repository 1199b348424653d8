"""Hostile documents and components files: only the documented errors, in bounded time and memory.

Time and memory are asserted as counts, not wall time: the number of Python
function calls (counted with :func:`sys.setprofile`) and the peak of traced
allocations (:mod:`tracemalloc`) must stay within a constant plus a constant
times the size of the input.  Counts do not depend on the machine's speed.
"""

from __future__ import annotations

import copy
import json
import sys
import tomllib
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tajmahal as tm
from tajmahal.rules.components import (
    MAX_CARDS,
    MAX_CITIES,
    MAX_ROADS,
    STANDARD_PATH,
    components_from_data,
    parse_components,
)

STANDARD = tomllib.loads(STANDARD_PATH.read_text(encoding="utf-8"))
MAX_MESSAGE = 2_500  #: characters of any error message
SETTINGS = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def cost(action: Callable[[], Any]) -> tuple[Any, int, int]:
    """(result or the TajMahalError raised, Python calls made, peak bytes allocated)."""
    calls = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    tracemalloc.start()
    sys.setprofile(count)
    try:
        try:
            outcome: Any = action()
        except tm.TajMahalError as exc:
            outcome = exc
    finally:
        sys.setprofile(None)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return outcome, calls, peak


def assert_bounded(size: int, calls: int, peak: int) -> None:
    """Linear in the input's size, with small constants."""
    assert calls <= 60_000 + 5 * size, (calls, size)
    # the constant covers one-time work a document may trigger first in a process (standard
    # components, sampling tables): 16.5 MB was seen in a full run, so 24 MB leaves room
    assert peak <= 24_000_000 + 120 * size, (peak, size)


# ---------------------------------------------------------------------------- components


def grow(data: dict[str, Any], what: str, amount: int) -> None:
    """Add ``amount`` of something to standard components data."""
    board = data["board"]
    if what == "cards":
        data["cards"] += [{"color": "red", "symbols": ["monk"], "count": 10_000}] * amount
    elif what == "cities":
        for i in range(amount):
            board["cities"].append({"id": f"x{i}", "name": "X", "province": "agra", "x": 0, "y": 0})
            board["roads"].append(["agra", f"x{i}"])
    elif what == "roads":
        cities = [c["id"] for c in board["cities"]]
        board["roads"] += [[cities[i % 40], cities[(i * 7 + 1) % 49]] for i in range(amount)]
    elif what == "provinces":
        for i in range(amount):
            board["provinces"].append({"id": f"p{i}", "name": "P"})
    elif what == "cut":  # remove every road that leaves Kashmir: the board falls apart
        inside = {c["id"] for c in board["cities"] if c["province"] == "kashmir"}
        board["roads"] = [r for r in board["roads"] if (r[0] in inside) == (r[1] in inside)]
    elif what == "long-names":
        for city in board["cities"][:amount]:
            city["name"] = "n" * 100_000
    elif what == "bad-values":
        data["cards"] += [{"color": "x" * 50_000, "symbols": ["monk"]}] * amount


@SETTINGS
@given(
    what=st.sampled_from(
        ["cards", "cities", "roads", "provinces", "cut", "long-names", "bad-values"]
    ),
    amount=st.integers(1, 3_000),
)
def test_hostile_components_are_rejected_in_linear_time_and_memory(
    what: str, amount: int
) -> None:
    data = copy.deepcopy(STANDARD)
    grow(data, what, amount)
    size = len(json.dumps(data))
    outcome, calls, peak = cost(lambda: components_from_data(data, source="hostile"))
    assert_bounded(size, calls, peak)
    if isinstance(outcome, tm.TajMahalError):
        assert isinstance(outcome, tm.ComponentsError) and len(str(outcome)) <= MAX_MESSAGE
        if what == "cut":
            assert "not connected" in str(outcome)
    else:
        assert len(outcome.deck) <= MAX_CARDS and len(outcome.board.cities) <= MAX_CITIES
        assert len(outcome.board.roads) <= MAX_ROADS and what != "cut"


@SETTINGS
@given(depth=st.integers(1, 50_000), kind=st.sampled_from(["[", "{a="]))
def test_deeply_nested_toml_is_a_components_error(depth: int, kind: str) -> None:
    close = "]" if kind == "[" else "}"
    text = "a = " + kind * depth + "1" + close * depth
    outcome, calls, peak = cost(lambda: parse_components(text, source="deep.toml"))
    assert isinstance(outcome, tm.ComponentsError), outcome
    assert len(str(outcome)) <= MAX_MESSAGE
    assert_bounded(len(text), calls, peak)


# ---------------------------------------------------------------------------- documents


def base_documents() -> dict[str, dict[str, Any]]:
    state = tm.new_game(4, seed=2)
    for _ in range(30):
        state = state.apply(state.legal_moves()[-1])
    record = tm.play_match(["random"] * 3, seed=2).record
    return {
        "state": json.loads(tm.dumps(state)),
        "view": json.loads(tm.dumps(state.view(1))),
        "record": json.loads(tm.dumps(record)),
    }


BASES = base_documents()
JUNK = st.one_of(
    st.integers(-(10**30), 10**30),
    st.text(max_size=30),
    st.builds(lambda n: "x" * n, st.integers(0, 200_000)),
    st.builds(lambda n: ["bogus"] * n, st.integers(0, 50_000)),
    st.builds(lambda n: [1] * n, st.integers(0, 50_000)),
    st.builds(lambda n: {f"k{i}": i for i in range(n)}, st.integers(0, 20_000)),
    st.builds(lambda n: json.loads("[" * n + "]" * n), st.integers(1, 500)),
    st.none(),
)


@SETTINGS
@given(kind=st.sampled_from(list(BASES)), data=st.data())
def test_hostile_documents_give_bounded_format_errors(kind: str, data: st.DataObject) -> None:
    doc = copy.deepcopy(BASES[kind])
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(sorted(doc)))
        value = doc[key]
        if isinstance(value, list) and value and data.draw(st.booleans()):
            value[data.draw(st.integers(0, len(value) - 1))] = data.draw(JUNK)
        else:
            doc[key] = data.draw(JUNK)
    text = json.dumps(doc)
    outcome, calls, peak = cost(lambda: tm.loads(text))
    assert_bounded(len(text), calls, peak)
    if isinstance(outcome, tm.TajMahalError):
        assert isinstance(outcome, tm.FormatError) and len(str(outcome)) <= MAX_MESSAGE


@pytest.mark.parametrize(
    ("kind", "key"),
    [("state", "supply"), ("state", "deck"), ("view", "supply"), ("record", "moves")],
)
@pytest.mark.parametrize("char", ["x", "\x01"])
def test_long_texts_are_quoted_short_in_a_format_error(kind: str, key: str, char: str) -> None:
    doc = copy.deepcopy(BASES[kind])
    doc[key] = [char * 100_000 + str(i) for i in range(max(len(doc[key]), 9))]
    with pytest.raises(tm.FormatError) as raised:
        tm.loads(json.dumps(doc))
    message = str(raised.value)
    assert message.startswith(f"cannot read the {kind} document: $.{key}[0]: ")
    assert "; and " in message and len(message) <= MAX_MESSAGE


def test_a_long_move_text_is_quoted_short() -> None:
    text = json.dumps({"format": "tajmahal/move", "version": 1, "move": "take " + "y" * 10**6})
    with pytest.raises(tm.FormatError, match=r"'y{40,}\.\.\. is not a card") as raised:
        tm.loads(text)
    assert len(str(raised.value)) < 200


@pytest.mark.parametrize("depth", [10, 1_000, 100_000])
def test_deeply_nested_json_is_a_format_error(depth: int) -> None:
    text = "[" * depth + "]" * depth
    outcome, calls, peak = cost(lambda: tm.loads(text))
    assert isinstance(outcome, tm.FormatError)
    assert_bounded(len(text), calls, peak)


def test_many_different_documents_do_not_grow_the_caches() -> None:
    from tajmahal.serialize import _components

    data = copy.deepcopy(STANDARD)
    record = BASES["record"]
    for i in range(40):  # 40 distinct embedded component sets
        data["name"] = f"custom-{i}"
        doc = dict(record, components=data, moves=[], scores=None, winners=None, faults=[],
                   times=[], tags={})
        loaded = tm.loads(json.dumps(doc))
        assert isinstance(loaded, tm.GameRecord)
    assert len(_components._EMBEDDED) <= 17 and len(_components._INTERNED) <= 65


def test_an_array_of_many_bad_entries_keeps_a_bounded_number_of_problems() -> None:
    doc = copy.deepcopy(BASES["state"])
    doc["known"][0] = ["bogus"] * 40_000
    text = json.dumps(doc)
    outcome, calls, peak = cost(lambda: tm.loads(text))
    assert isinstance(outcome, tm.FormatError) and "'bogus' is not a card" in str(outcome)
    assert calls < 10_000, calls  # reading stops after the first problems, not 40,000 of them
    assert peak < 24_000_000, peak  # 99.9 MB before
