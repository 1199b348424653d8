"""The saved states of the OpenSpiel game ``python_tajmahal``: its JSON documents, checked.

What ``state.serialize()`` writes (format ``tajmahal/openspiel-state``) and its reading
back, every field checked: never a pickle (see :mod:`tajmahal.adapters.openspiel_game`).
"""

from __future__ import annotations

import json
from typing import Any

from tajmahal.adapters._openspiel_nodes import Steps, _DecisionNode, _step_list
from tajmahal.adapters._openspiel_setup import _MAX_DEAL_SEEDS
from tajmahal.adapters.actions import AdapterError, action_space
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.state import GameState
from tajmahal.serialize import from_document, to_document

STATE_FORMAT = "tajmahal/openspiel-state"  #: the ``format`` of a serialised state
_STATE_VERSION = 1
_MAX_DOCUMENT = 4 << 20  #: characters: far above any game's document


def _node_document(record: _DecisionNode) -> dict[str, Any]:
    return {
        "state": to_document(record.state),
        "starts": list(record.starts),
        "steps": [[a, s] for a, s in _step_list(record.steps)],
        "draws": [[[step, cards] for step, cards in seat] for seat in record.draws],
    }


def _node_from_document(text: str) -> _DecisionNode:
    document = json.loads(text)
    return _read_node(document, ("record",))


def _problem(path: tuple[str | int, ...], message: str) -> AdapterError:
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return AdapterError(f"not a python_tajmahal state document: {where}: {message}")


def _strings(value: Any, path: tuple[str | int, ...]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _problem(path, "expected a list of strings")
    return value


def _int(value: Any, path: tuple[str | int, ...], below: int) -> int:
    if type(value) is not int or not 0 <= value < below:
        raise _problem(path, f"expected an integer from 0 to {below - 1}, got {value!r:.40}")
    return value


def _read_node(document: Any, path: tuple[str | int, ...]) -> _DecisionNode:
    if not isinstance(document, dict) or set(document) != {"state", "starts", "steps", "draws"}:
        raise _problem(path, "expected an object with state, starts, steps and draws")
    try:
        state = from_document(document["state"])
    except TajMahalError as exc:
        raise _problem((*path, "state"), str(exc)) from None
    if not isinstance(state, GameState):
        raise _problem((*path, "state"), "expected a tajmahal/state document")
    n, size = state.num_players, action_space().size
    starts = _strings(document["starts"], (*path, "starts"))
    if len(starts) != n:
        raise _problem((*path, "starts"), f"expected {n} strings")
    steps: Steps = None
    raw_steps = document["steps"]
    if not isinstance(raw_steps, list):
        raise _problem((*path, "steps"), "expected a list")
    for i, step in enumerate(raw_steps):
        if not isinstance(step, list) or len(step) != 2 or not isinstance(step[1], str):
            raise _problem((*path, "steps", i), "expected [action, supply text]")
        steps = (steps, _int(step[0], (*path, "steps", i, 0), size), step[1])
    raw_draws = document["draws"]
    if not isinstance(raw_draws, list) or len(raw_draws) != n:
        raise _problem((*path, "draws"), f"expected {n} lists")
    draws = []
    for s, seat in enumerate(raw_draws):
        if not isinstance(seat, list):
            raise _problem((*path, "draws", s), "expected a list")
        entries = []
        for i, entry in enumerate(seat):
            where = (*path, "draws", s, i)
            if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], str):
                raise _problem(where, "expected [step, cards text]")
            entries.append((_int(entry[0], (*where, 0), max(1, len(raw_steps))), entry[1]))
        draws.append(tuple(entries))
    return _DecisionNode(state, tuple(starts), steps, len(raw_steps), tuple(draws))


def _read_document(text: Any) -> dict[str, Any]:
    """The checked JSON object of a serialised state; AdapterError for anything else."""
    if isinstance(text, bytes):
        try:
            text = text.decode()
        except UnicodeDecodeError:
            raise _problem((), "not UTF-8 text") from None
    if not isinstance(text, str):
        raise AdapterError(f"a serialised python_tajmahal state is text, got {type(text).__name__}")
    if len(text) > _MAX_DOCUMENT:
        raise _problem((), f"longer than {_MAX_DOCUMENT} characters")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        raise _problem((), "not JSON (OpenSpiel's pickled form is never read)") from None
    if not isinstance(document, dict):
        raise _problem((), "expected a JSON object")
    if document.get("format") != STATE_FORMAT or document.get("version") != _STATE_VERSION:
        raise _problem(("format",), f"expected format {STATE_FORMAT!r}, version {_STATE_VERSION}")
    if set(document) - {"deal_seeds"} != {"format", "version", "players", "base", "history"}:
        raise _problem((), "expected the keys format, version, players, base and history "
                           "(and deal_seeds)")  # fmt: skip
    players = document["players"]
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise _problem(("players",), "expected 3, 4 or 5")
    seeds = document.setdefault("deal_seeds", 0)
    if type(seeds) is not int or not 0 <= seeds <= _MAX_DEAL_SEEDS:
        raise _problem(("deal_seeds",), f"expected 0 to {_MAX_DEAL_SEEDS}")
    if not isinstance(document["history"], list):
        raise _problem(("history",), "expected a list of actions")
    return document
