"""Which build runs: the pure-Python package, or the compiled one of ``make test-fast``.

``make test`` runs the whole suite twice: against the editable pure-Python package,
and with ``PYTHONPATH=build/compiled`` against the mypyc build of ``tajmahal.rules``
(``TAJMAHAL_EXPECT_COMPILED=1``), so that every other test checks both builds.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import os
from pathlib import Path

import pytest

import tajmahal as tm
import tajmahal.rules

RULES = Path(next(iter(tajmahal.rules.__path__)))
EXPECT_COMPILED = os.environ.get("TAJMAHAL_EXPECT_COMPILED") == "1"
HATCH_BUILD = Path(__file__).resolve().parent.parent / "hatch_build.py"


def compiled_modules() -> tuple[str, ...]:
    """hatch_build.py's COMPILED, read from its source (the build hook needs hatchling)."""
    for node in ast.parse(HATCH_BUILD.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
            "COMPILED"
        ]:
            value: tuple[str, ...] = ast.literal_eval(node.value)
            return value
    raise AssertionError("hatch_build.py defines no COMPILED")


COMPILED = compiled_modules()
#: the three most visited root moves of a seeded ismcts search: (move, visits, mean reward)
GOLDEN_TREE_SEARCH = [  # the evaluation fitted on the flat search's self-play (issue 36), the tree
    ("play violet:general+princess white:princess", 38, 0.535396),
    ("play red:vizier+general", 34, 0.521345),
    ("play red:vizier+general white:princess", 24, 0.452019),
]
GOLDEN_SEARCH = [  # the same decision searched flat (the default for play or withdraw)
    ("play violet:general+princess white:princess", 53, 0.533211),
    ("play red:vizier+general white:princess", 53, 0.519724),
    ("play red:vizier+general", 28, 0.548348),
]


def test_the_compiled_modules_exist() -> None:
    assert COMPILED and all((RULES.parent / module).is_file() for module in COMPILED), COMPILED


@pytest.mark.parametrize("path", COMPILED)
def test_each_compiled_module_is_compiled_in_the_compiled_build(path: str) -> None:
    module = importlib.import_module("tajmahal." + path.removesuffix(".py").replace("/", "."))
    suffix = Path(str(module.__file__)).suffix
    assert suffix == (".so" if EXPECT_COMPILED else ".py"), module.__file__


@pytest.mark.parametrize(
    "path",
    sorted(
        str(path.relative_to(RULES.parent))
        for package in ("rules", "bots")
        for path in (RULES.parent / package).glob("*.py")
    ),
)
def test_every_rules_and_bots_module_comes_from_the_build_under_test(path: str) -> None:
    # only the listed ones are compiled: the public bots modules and the public classes'
    # modules keep their docstrings (mypyc drops those of compiled functions)
    module = importlib.import_module("tajmahal." + path.removesuffix(".py").replace("/", "."))
    loaded = Path(str(module.__file__))
    compiled = EXPECT_COMPILED and path in COMPILED
    assert loaded.suffix == (".so" if compiled else ".py"), loaded


def test_the_ismcts_bot_searches_alike_in_either_build() -> None:
    # a golden search: the root statistics of a seeded ismcts decision (its compiled search
    # loop, evaluation and rollout policy must make the same choices as the pure ones)
    state = tm.new_game(4, seed=20260601)
    for spec, golden in (("ismcts", GOLDEN_SEARCH), ("ismcts:flat=off", GOLDEN_TREE_SEARCH)):
        bot = tm.bots.create(spec, seed=1, iterations=200)
        bot.choose(state.view(state.current_player), state.legal_moves())
        top = [(str(s.move), s.visits, round(s.value, 6)) for s in bot.last_statistics[:3]]
        assert top == golden, (spec, top)


def test_the_same_seed_gives_the_same_record_in_either_build() -> None:
    # A golden record (scores and a digest of the moves of a seeded match of the built-in
    # bots): a build that plays another game for the same seed fails, in either run.
    result = tm.play_match(["greedy", "random", "random", "greedy"], seed=20260601)
    moves = "\n".join(map(str, result.record.moves)).encode()
    assert result.scores == (60, 32, 14, 63)
    assert hashlib.sha256(moves).hexdigest()[:32] == "b5853e83290011d992f83d53eb1d786b"


def test_the_engines_signatures_still_read_in_either_build() -> None:
    from tajmahal.rules.playout import Playout, play_out

    assert list(inspect.signature(tm.new_game).parameters)[:2] == ["num_players", "seed"]
    assert list(inspect.signature(play_out).parameters) == ["state", "rng", "pick"]
    assert list(inspect.signature(Playout).parameters) == ["state"]
