"""The ``ismcts`` bots' options as one value (``SearchOptions``): checked, written as specs
and read back, the same bot as the keyword arguments; the spec options that measured no
stronger warn (issue 47)."""

from __future__ import annotations

import pickle
import random
import warnings
from pathlib import Path

import attrs
import pytest

import tajmahal as tm
from tajmahal.bots.ismcts import IsmctsBot, IsmctsV1Bot, IsmctsV3Bot
from tajmahal.bots.search_options import DEPRECATED_SPEC_OPTIONS, SearchOptions
from tajmahal.bots.specs import SpecError, check_spec
from tajmahal.rules.playout import Playout


def decisions(bot: IsmctsBot, seed: int = 3, count: int = 4) -> list[tm.Move]:
    """The bot's moves for the first ``count`` decisions with a choice of a 3-seat game."""
    state = tm.new_game(num_players=3, seed=seed)
    moves = []
    while len(moves) < count:
        legal = state.legal_moves()
        if len(legal) > 1:
            moves.append(bot.choose(state.view(state.current_player), legal))
        state = state.apply(legal[0])
    return moves


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"level": 0}, "level must be an int from 1 to 5, got 0"),
        ({"level": True}, "level must be an int from 1 to 5, got True"),
        ({"level": 2, "iterations": 50}, "level sets the budget"),
        ({"level": 2, "game_time": 60.0}, "level sets the budget"),
        ({"iterations": 0}, "iterations must be an int from 1 to 10000000, got 0"),
        ({"iterations": 2.5}, "iterations must be an int"),
        ({"time_limit": 0}, "time_limit must be a number of seconds above 0"),
        ({"game_time": 3601}, "game_time must be a number of seconds above 0 and at most 3600"),
        ({"c": -0.1}, "c must be a number from 0 to 100, got -0.1"),
        ({"c": "lots"}, "c must be a number from 0 to 100, got 'lots'"),
        ({"jobs": 33}, "jobs must be an int from 1 to 32, got 33"),
        ({"trees": 0}, "trees must be an int from 1 to 64, got 0"),
        ({"depth": 13}, "depth must be an int from 1 to 12, got 13"),
        ({"inner": -1}, "inner must be an int from 0 to 16, got -1"),
        ({"inner_seats": "some"}, "inner_seats must be one of own, all, got 'some'"),
        ({"flat": 1}, "flat must be one of play, all, off, got 1"),
        ({"focus": 2.5}, "focus must be a number from 1 to 2.0, got 2.5"),
        ({"extend": 0.5}, "extend must be a number from 1 to 10.0, got 0.5"),
        ({"margin": 1}, "margin must be a number from 0 up to (not including) 1, got 1"),
        ({"rollout": "greedy"}, "rollout must be one of heuristic, random"),
    ],
)
def test_a_bad_value_is_a_value_error_naming_the_option(
    given: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        SearchOptions(**given)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        IsmctsBot(**given)  # type: ignore[arg-type]  # the keywords: the same check


def test_an_unknown_option_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match="ismcts has no option 'width'; its options: c, depth"):
        SearchOptions.from_mapping({"iterations": 5, "width": 3})
    with pytest.raises(TypeError, match="width"):
        SearchOptions(width=3)  # type: ignore[call-arg]


def test_options_are_frozen_and_compare_by_value() -> None:
    options = SearchOptions(iterations=50, c=1.0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        options.c = 2.0  # type: ignore[misc]
    assert options == SearchOptions(c=1, iterations=50)
    assert attrs.evolve(options, c=0.5) == SearchOptions(iterations=50, c=0.5)
    with pytest.raises(ValueError, match="c must be"):
        attrs.evolve(options, c=-1)
    assert pickle.loads(pickle.dumps(options)) == options


@pytest.mark.parametrize(
    "given",
    [
        {},
        {"iterations": 40, "c": 1.2, "rollout": "random"},
        {"level": 4},
        {"level": 5, "inner": 0},
        {"iterations": 40, "flat": "off", "inner": 1, "inner_seats": "all"},
        {"time_limit": 0.5, "game_time": 30},
    ],
)
def test_the_options_value_builds_the_bot_the_keywords_build(given: dict[str, object]) -> None:
    options = SearchOptions.from_mapping(given)
    by_value, by_keywords = IsmctsBot(seed=5, options=options), IsmctsBot(seed=5, **given)  # type: ignore[arg-type]
    assert by_value.options == by_keywords.options == options
    settings = ("level", "iterations", "time_limit", "game_time", "c", "jobs", "trees", "depth",
                "inner", "inner_seats", "flat", "focus", "extend", "margin", "rollout")  # fmt: skip
    assert {name: getattr(by_value, name) for name in settings} == {
        name: getattr(by_keywords, name) for name in settings
    }


def test_the_options_value_searches_as_the_keywords_do() -> None:
    options = SearchOptions(iterations=40, c=1.0)
    assert decisions(IsmctsBot(seed=7, options=options)) == decisions(
        IsmctsBot(seed=7, iterations=40, c=1.0)
    )


def test_a_level_resolves_by_the_bots_class() -> None:
    """The value holds what was given; each class reads a level with its own table."""
    options = SearchOptions(level=5)
    assert (IsmctsBot(options=options).iterations, IsmctsBot(options=options).inner) == (330, 2)
    frozen = IsmctsV1Bot(options=options)
    assert (frozen.iterations, frozen.inner, frozen.flat) == (6400, 0, "off")
    assert IsmctsV3Bot(options=options).inner_seats == "all"
    assert options.iterations is None and options.inner is None  # nothing resolved in place


def test_options_and_keywords_together_are_refused() -> None:
    with pytest.raises(TypeError, match=r"not both \(keywords given: iterations, c\)"):
        IsmctsBot(options=SearchOptions(level=2), iterations=50, c=1.0)
    with pytest.raises(TypeError, match="options must be a SearchOptions, got dict"):
        IsmctsBot(options={"iterations": 50})  # type: ignore[arg-type]
    assert IsmctsBot(seed=4, options=SearchOptions(level=2)).seed == 4  # the seed is no option


@pytest.mark.parametrize(
    "options",
    [
        SearchOptions(),
        SearchOptions(iterations=400, c=0.7),
        SearchOptions(level=3, jobs=2),
        SearchOptions(time_limit=0.25, game_time=90.0, flat="all", rollout="random"),
        SearchOptions(iterations=12, inner=2, inner_seats="all", c=0.35),
        SearchOptions(iterations=12, focus=1.5, trees=2, depth=2, extend=2.0, margin=0.2),
    ],
    ids=repr,
)
def test_a_spec_round_trip(options: SearchOptions) -> None:
    text = options.spec()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the last one names old knobs
        assert SearchOptions.from_spec(text) == options
        assert SearchOptions.from_spec(text.partition(":")[2] or "ismcts") == options
        bot = tm.bots.create(text)
    assert isinstance(bot, IsmctsBot) and bot.options == options
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert tm.bots.create(options.spec("ismcts-v3")).options == options  # type: ignore[attr-defined]


def test_a_spec_writes_only_what_was_given_and_refuses_a_picker() -> None:
    assert SearchOptions(c=0.7, iterations=None).spec() == "ismcts"
    assert SearchOptions(iterations=50, flat="off").spec() == "ismcts:iterations=50,flat=off"

    def first(game: Playout, codes: list[int], rng: random.Random) -> int:
        return codes[0]

    with pytest.raises(ValueError, match="rollout: a move picker cannot be written"):
        SearchOptions(rollout=first).spec()


@pytest.mark.parametrize("option", sorted(DEPRECATED_SPEC_OPTIONS))
def test_a_deprecated_option_still_works_in_a_spec_and_warns(option: str) -> None:
    value = {"focus": 1.5, "depth": 2, "trees": 2, "extend": 2.0, "margin": 0.2}[option]
    spec = f"ismcts:iterations=6,{option}={value}"
    with pytest.warns(DeprecationWarning, match=rf"option '{option}' is deprecated: .*0\.4\.0"):
        check_spec(spec)
    with pytest.warns(DeprecationWarning, match=f"'{option}'"):
        bot = tm.bots.create(spec)
    assert getattr(bot, option) == value  # it still works
    with pytest.warns(DeprecationWarning, match=f"'{option}'"):
        assert getattr(SearchOptions.from_spec(spec), option) == value
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # from Python the option is not deprecated
        assert getattr(IsmctsBot(iterations=6, **{option: value}), option) == value
        assert getattr(SearchOptions(**{option: value}), option) == value  # type: ignore[arg-type]


def test_a_match_with_a_deprecated_option_warns_and_plays() -> None:
    with pytest.warns(DeprecationWarning, match="option 'extend' is deprecated"):
        result = tm.play_match(["ismcts:iterations=4,extend=2", "random", "random"], seed=1)
    assert len(result.scores) == 3 and not result.faults


def test_the_options_that_measured_stronger_do_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_spec("ismcts:level=4,jobs=1,c=0.7,flat=play,rollout=heuristic,inner_seats=all")
        check_spec("ismcts:iterations=30,inner=2,time_limit=5,game_time=60")
        check_spec("ismcts-v3:level=5")


def test_deprecated_options_name_their_evidence_and_the_removal_release() -> None:
    assert set(DEPRECATED_SPEC_OPTIONS) == {"focus", "depth", "trees", "extend", "margin"}
    for why in DEPRECATED_SPEC_OPTIONS.values():
        assert "0.4.0" in why and "measured" in why
    entries = unreleased_entries()
    deprecations = [entry for entry in entries if "(#47)" in entry and "0.4.0" in entry]
    assert deprecations, "no CHANGELOG line names the deprecated spec options' removal"
    for option in DEPRECATED_SPEC_OPTIONS:
        assert any(f"`{option}`" in entry for entry in deprecations), option


def unreleased_entries() -> list[str]:
    """The CHANGELOG's entries (``- ...``, wrapped lines joined) under ``## [Unreleased]``."""
    text = (Path(__file__).resolve().parent.parent / "CHANGELOG.md").read_text(encoding="utf-8")
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    return [" ".join(entry.split()) for entry in unreleased.split("\n- ")[1:]]


def test_the_options_keyword_is_python_only() -> None:
    with pytest.raises(SpecError, match="option 'options' of bot 'ismcts' is given from Python"):
        check_spec("ismcts:options=3")
    bot = tm.bots.create("ismcts", seed=2, options=SearchOptions(iterations=9))
    assert isinstance(bot, IsmctsBot) and (bot.iterations, bot.seed) == (9, 2)
