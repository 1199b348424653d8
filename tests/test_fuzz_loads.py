"""Hostile input: real documents, mutated, either fail with FormatError or load into good objects.

Each example takes a real document (a state, a view, a record or a move, on
the standard or an embedded custom board), applies one to three mutations
(truncation, deleted and added keys, changed types, corrupted leaves,
duplicated and moved cards, swapped values) and loads it.  ``tm.loads`` may
reject it only with ``FormatError``; whatever it accepts must work: a state
passes ``check_state`` and plays on to the end, a view samples a state that
plays on, a record replays.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from helpers import line_components, random_playout
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.validate import find_problems

Json = Any
Step = tuple[Any, Any]  # (container, key or index)


def _documents() -> list[str]:
    docs: list[str] = []
    for comps, players, seed in ((tm.standard_components(), 4, 1), (line_components(), 3, 2)):
        states = list(random_playout(tm.new_game(players, seed, comps), random.Random(seed)))
        picks = [states[0], states[len(states) // 2], states[-1]]
        for phase in (Phase.PALACE, Phase.CROWN, Phase.TAKE):
            picks += [s for s in states if s.phase is phase][:1]
        for state in picks:
            docs.append(tm.dumps(state))
            seat = state.current_player if state.current_player is not None else 0
            docs.append(tm.dumps(state.view(seat)))
            docs += [tm.dumps(m) for m in state.legal_moves()[:2]]
        game = tm.Game.new(players, seed, comps, players=[f"p{i}" for i in range(players)])
        for move in [m for m in _moves(states)][:40]:
            game.push(move)
        docs.append(tm.dumps(game.record()))
    finished = tm.Game.new(3, 9)
    rng = random.Random(9)
    while not finished.state.is_over:
        finished.push(rng.choice(finished.state.legal_moves()))
    docs.append(tm.dumps(finished.record()))
    return docs


def _moves(states: list[GameState]) -> list[tm.Move]:
    moves = []
    for before, after in itertools.pairwise(states):
        moves.append(next(m for m in before.legal_moves() if before.apply(m) == after))
    return moves


DOCUMENTS = _documents()


# ---------------------------------------------------------------------------- mutations


def _nodes(data: Json) -> list[Step]:
    """Every (container, key) inside ``data``, containers included."""
    found: list[Step] = []
    stack = [data]
    while stack:
        node = stack.pop()
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, value in items:
            found.append((node, key))
            if isinstance(value, dict | list):
                stack.append(value)
    return found


def _containers(data: Json, kind: type) -> list[Any]:
    return [data] * isinstance(data, kind) + [
        c[k] for c, k in _nodes(data) if isinstance(c[k], kind)
    ]


def _strings(data: Json) -> list[str]:
    return [c[k] for c, k in _nodes(data) if isinstance(c[k], str)]


def _card_lists(data: Json) -> list[list[Any]]:
    return [
        lst
        for lst in _containers(data, list)
        if lst and all(isinstance(x, str) and ":" in x for x in lst)
    ]


OTHER_TYPES: list[Json] = [0, -1, 7, 10**20, 1.5, "", "x", True, False, None, [], {}, [0], {"a": 1}]


def delete(data: Json, rng: random.Random) -> Json:
    nodes = _nodes(data)
    if nodes:
        container, key = rng.choice(nodes)
        del container[key]
    return data


def add(data: Json, rng: random.Random) -> Json:
    target = rng.choice(_containers(data, dict) + _containers(data, list))
    value = copy.deepcopy(rng.choice(OTHER_TYPES + _strings(data)[:50]))
    if isinstance(target, dict):
        target[rng.choice(["extra", "seat", "hand", "deck", "format", *map(str, range(3))])] = value
    else:
        target.insert(rng.randrange(len(target) + 1), value)
    return data


def change_type(data: Json, rng: random.Random) -> Json:
    nodes = _nodes(data)
    if nodes:
        container, key = rng.choice(nodes)
        container[key] = copy.deepcopy(rng.choice(OTHER_TYPES))
    return data


def corrupt_leaf(data: Json, rng: random.Random) -> Json:
    leaves = [(c, k) for c, k in _nodes(data) if not isinstance(c[k], dict | list)]
    if not leaves:
        return data
    container, key = rng.choice(leaves)
    value = container[key]
    if isinstance(value, bool):
        container[key] = not value
    elif isinstance(value, int):
        container[key] = rng.choice([value + 1, value - 1, 0, -value, value * 7, 2**63, 12, 5])
    elif isinstance(value, str):
        strings = _strings(data)
        container[key] = rng.choice([*strings, value.upper(), value[:-1], value + "x"])
    elif value is None:
        container[key] = rng.choice([0, 1, 2, "red", False])
    else:
        container[key] = -value if isinstance(value, float) else None
    return data


def duplicate_card(data: Json, rng: random.Random) -> Json:
    piles = _card_lists(data)
    if piles:
        source, target = rng.choice(piles), rng.choice(piles)
        target.append(rng.choice(source))
    return data


def move_card(data: Json, rng: random.Random) -> Json:
    piles = _card_lists(data)
    if piles:
        source = rng.choice(piles)
        card = source.pop(rng.randrange(len(source)))
        rng.choice(_containers(data, list)).append(card)
    return data


def swap(data: Json, rng: random.Random) -> Json:
    nodes = _nodes(data)
    if len(nodes) >= 2:
        (c1, k1), (c2, k2) = rng.sample(nodes, 2)
        first, second = copy.deepcopy(c1[k1]), copy.deepcopy(c2[k2])  # copies: no cycles
        c1[k1] = second
        with contextlib.suppress(IndexError):  # the second was inside the first, now gone
            c2[k2] = first
    return data


MUTATIONS: dict[str, Callable[[Json, random.Random], Json]] = {
    "delete": delete,
    "add": add,
    "change_type": change_type,
    "corrupt_leaf": corrupt_leaf,
    "duplicate_card": duplicate_card,
    "move_card": move_card,
    "swap": swap,
}


# ---------------------------------------------------------------------------- the checks


def exercise(obj: Any, rng: random.Random) -> None:
    """Whatever loads must work as if the engine had built it."""
    if isinstance(obj, GameState):
        assert find_problems(obj) == []
        play_on(obj, rng)
    elif isinstance(obj, tm.PlayerView):
        sample = obj.sample(rng)
        assert sample.view(obj.seat) == obj
        play_on(sample, rng)
    elif isinstance(obj, tm.GameRecord):
        tm.replay(obj)
    else:
        assert tm.loads(tm.dumps(obj)) == obj


def play_on(state: GameState, rng: random.Random) -> None:
    if not state.is_over:
        assert state.legal_moves()
    for _ in range(600):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
        assert state.current_player is not None or state.is_over
    assert state.is_over


def load(text: str | bytes, rng: random.Random) -> str:
    """Load ``text``: 'rejected' (FormatError) or 'loaded' (and exercised)."""
    try:
        obj = tm.loads(text)
    except tm.FormatError as exc:
        assert "internal error" not in str(exc), str(exc)
        assert str(exc).startswith("cannot read")
        return "rejected"
    exercise(obj, rng)
    return "loaded"


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(DOCUMENTS),
    st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3),
    st.integers(min_value=0, max_value=2**32),
)
def test_mutated_documents_are_rejected_or_work(text: str, names: list[str], seed: int) -> None:
    rng = random.Random(seed)
    data = json.loads(text)
    for name in names:
        data = MUTATIONS[name](data, rng)
    load(json.dumps(data), rng)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(DOCUMENTS), st.integers(min_value=0, max_value=2**32))
def test_truncated_documents_are_rejected(text: str, seed: int) -> None:
    rng = random.Random(seed)
    cut = rng.randrange(len(text))
    assert load(text[:cut], rng) == "rejected"
    assert load(text[:cut].encode("utf-8"), rng) == "rejected"


def test_the_unchanged_documents_load() -> None:
    rng = random.Random(0)
    for text in DOCUMENTS:
        assert load(text, rng) == "loaded"


def test_the_mutations_are_neither_all_fatal_nor_all_harmless() -> None:
    """Every kind of mutation is caught somewhere, and most kinds sometimes leave a good state."""
    rng = random.Random(1)
    outcomes: dict[str, set[str]] = {name: set() for name in MUTATIONS}
    states = [t for t in DOCUMENTS if '"tajmahal/state"' in t]
    for name, mutate in MUTATIONS.items():
        for i in range(300):
            data = mutate(json.loads(states[i % len(states)]), rng)
            outcomes[name].add(load(json.dumps(data), rng))
            if len(outcomes[name]) == 2:
                break
    assert all("rejected" in seen for seen in outcomes.values()), outcomes
    survived = [name for name, seen in outcomes.items() if "loaded" in seen]
    assert len(survived) >= 5, outcomes
