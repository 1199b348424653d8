"""Player specs: parsing, checking against the registry, and their use by play_match and the CLI."""

from __future__ import annotations

import pytest

import tajmahal as tm
from tajmahal.bots import PlayerSpec, SpecError, check_spec, parse_spec
from tajmahal.cli import main


def test_a_bare_name_is_a_bot_without_options() -> None:
    assert parse_spec("random") == PlayerSpec("random", name="random")


def test_option_values_are_json_scalars_else_strings() -> None:
    spec = parse_spec('b:i=400,c=0.7,on=true,off=false,none=null,word=fast,q="a b",neg=-3,e=')
    assert dict(spec.options) == {
        "i": 400, "c": 0.7, "on": True, "off": False, "none": None,
        "word": "fast", "q": "a b", "neg": -3, "e": "",
    }
    assert [type(v) for _, v in spec.options][:2] == [int, float]


def test_options_keep_their_order_and_spaces_around_them_are_ignored() -> None:
    assert parse_spec("b:z=1, a = 2").options == (("z", 1), ("a", 2))


def test_a_command_is_shlex_split() -> None:
    spec = parse_spec("cmd:node 'bots/my bot.js' --level 3")
    assert spec.is_command and spec.name is None
    assert spec.command == ("node", "bots/my bot.js", "--level", "3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "1 to 4096 characters"),
        ("x" * 5000, "1 to 4096 characters"),
        ("Gr\u212aedy", "is not a bot name"),  # the Kelvin sign is no K
        ("gr eedy", "is not a bot name"),
        (":a=1", "is not a bot name"),
        ("greedy:enough", "has no value"),
        ("greedy:a=1,a=2", "given twice"),
        ("greedy:1a=3", "is not an option name"),
        ("greedy:seed=3", "sets a bot's seed"),
        ("greedy:enough=NaN", "finite number"),
        ("greedy:enough=Infinity", "finite number"),
        ("cmd:", "needs a program"),
        ("cmd:   ", "needs a program"),
        ("cmd:node 'unclosed", "cannot split the command"),
        ("random\x00", "control characters"),
        ("random\n", "control characters"),
    ],
)
def test_bad_syntax_is_a_spec_error_naming_the_spec(text: str, message: str) -> None:
    with pytest.raises(SpecError, match=message) as info:
        parse_spec(text)
    assert str(info.value).startswith("player spec") or "characters" in str(info.value)
    assert len(str(info.value)) < 300  # a huge spec is shortened in the message


def test_a_spec_that_is_not_a_string_is_a_spec_error() -> None:
    with pytest.raises(SpecError, match="is a string, got int"):
        parse_spec(3)  # type: ignore[arg-type]


def test_spec_errors_are_tajmahal_errors_and_value_errors() -> None:
    assert issubclass(SpecError, tm.TajMahalError) and issubclass(SpecError, ValueError)


def test_check_spec_rejects_unknown_bots_and_unknown_options() -> None:
    with pytest.raises(tm.bots.UnknownBotError, match=r"player spec .nobody.: no bot is called"):
        check_spec("nobody")
    with pytest.raises(SpecError, match="has no option 'depth'; its options: card_cost, enough"):
        check_spec("greedy:depth=3")
    assert check_spec("greedy:enough=2").options == (("enough", 2),)
    assert check_spec("cmd:./anything").is_command  # programs are checked when started


def test_check_spec_accepts_any_option_of_a_bot_that_takes_keyword_arguments() -> None:
    class Flexible:
        """Takes anything."""

        name = "flexible"

        def __init__(self, seed: int = 0, **options: object) -> None:
            self.options = options

        def choose(self, view: object, legal_moves: tuple[object, ...]) -> object:
            return legal_moves[0]

    class Plugin:
        @tm.hookimpl
        def tajmahal_bots(self) -> list[type]:
            return [Flexible]

    registry = tm.bots.Registry(entry_points=False)
    registry.register(Plugin(), name="flex")
    assert check_spec("flexible:whatever=1", registry).name == "flexible"
    bot = registry.create("flexible:whatever=1", seed=2, more="x")
    assert bot.options == {"whatever": 1, "more": "x"}  # type: ignore[attr-defined]


def test_create_builds_from_a_spec_and_turns_bad_values_into_spec_errors() -> None:
    bot = tm.bots.create("greedy:enough=2.5,card_cost=1", seed=4)
    assert (bot.enough, bot.card_cost) == (2.5, 1)  # type: ignore[attr-defined]
    with pytest.raises(SpecError, match="given twice"):
        tm.bots.create("greedy:enough=2", enough=3)
    with pytest.raises(SpecError, match="external program"):
        tm.bots.create("cmd:./bot")
    with pytest.raises(tm.bots.UnknownBotError):
        tm.bots.create("nobody:x=1")


def test_play_match_takes_specs_and_names_players_by_their_spec() -> None:
    result = tm.play_match(["greedy:enough=3", "random", "random"], seed=5)
    assert result.players == ("greedy:enough=3", "random", "random")
    plain = tm.play_match(["greedy:enough=3", "random", "random"], seed=5)
    assert plain.record == result.record


def test_play_match_checks_every_spec_before_building_any_bot() -> None:
    built: list[int] = []

    class Counting:
        """Counts its constructions."""

        name = "counting"

        def __init__(self, seed: int = 0) -> None:
            built.append(seed)

        def choose(self, view: object, legal_moves: tuple[object, ...]) -> object:
            return legal_moves[0]

    class Plugin:
        @tm.hookimpl
        def tajmahal_bots(self) -> list[type]:
            return [Counting]

    tm.bots.default_registry().register(Plugin(), name="counting-plugin")
    try:
        with pytest.raises(SpecError, match="player spec 'random:speed=9'"):
            tm.play_match(["counting", "counting", "random:speed=9"], seed=1)
        assert built == []
        tm.play_match(["counting", "counting", "random"], seed=1)
        assert len(built) == 2
    finally:
        tm.bots.reload()


def test_the_cli_reports_a_bad_spec_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "greedy:depth=2", "random", "random", "--quiet"]) == 2  # a bad spec
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no option 'depth'" in err


def test_the_cli_plays_a_match_between_specs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "greedy:enough=3", "random", "random", "--seed", "2", "--quiet"]) == 0
    assert "seat 0 (greedy:enough=3)" in capsys.readouterr().out


def test_bot_names_are_matched_in_any_case() -> None:
    spec = parse_spec("GREEDY:enough=2")
    assert spec.name == "greedy" and str(spec) == "GREEDY:enough=2"  # shown as written
    assert check_spec("Random").name == "random"
    assert tm.bots.default_registry().bot_class("IsMcTs") is tm.bots.default_registry().bot_class(
        "ismcts"
    )
    result = tm.play_match(["Greedy", "random", "RANDOM"], seed=3)
    assert result.scores == tm.play_match(["greedy", "random", "random"], seed=3).scores


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [("gredy", "'greedy'"), ("randon", "'random'"), ("ismct", "'ismcts'")],
)
def test_a_misspelled_bot_name_gets_a_suggestion(name: str, suggestion: str) -> None:
    with pytest.raises(tm.bots.UnknownBotError) as info:
        check_spec(name)
    assert f"no bot is called '{name}' (did you mean {suggestion}" in str(info.value)
    assert "available bots: " in str(info.value)


def test_a_name_like_no_bot_gets_no_suggestion() -> None:
    with pytest.raises(tm.bots.UnknownBotError) as info:
        check_spec("zzzzzz")
    assert "did you mean" not in str(info.value)


# ------------------------------------------------- a spec is parsed once where it enters


class ParseCounter:
    """A spy around the real ``parse_spec``: it counts the texts parsed and parses them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import importlib
        import sys

        import tajmahal.bots.specs as specs

        for entry in ("tajmahal.referee.match", "tajmahal.tournament", "tajmahal.cli",
                      "tajmahal.protocol", "tajmahal.web.config"):  # fmt: skip
            importlib.import_module(entry)  # loaded before the spy goes in (they load lazily)
        self.texts: list[str] = []
        self.original = specs.parse_spec
        # every module that holds the parser (by `from ... import parse_spec`) gets the spy
        for module in list(sys.modules.values()):
            name = getattr(module, "__name__", "")
            if name.startswith("tajmahal") and getattr(module, "parse_spec", 0) is self.original:
                monkeypatch.setattr(module, "parse_spec", self)

    def __call__(self, text: str) -> PlayerSpec:
        self.texts.append(text)
        return self.original(text)


def test_play_match_parses_each_spec_once(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = ParseCounter(monkeypatch)
    players = ["greedy:enough=5", "random", "Random"]
    result = tm.play_match(players, seed=3, time_limit=10)
    assert sorted(counter.texts) == sorted(players)
    assert result.players == tuple(players) and result.record.tags["package.2"].startswith("taj")


def test_an_isolated_match_parses_each_spec_once_in_the_referee(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counter = ParseCounter(monkeypatch)
    tm.play_match(["greedy", "random", "random"], seed=3, isolate=True, time_limit=20)
    assert sorted(counter.texts) == ["greedy", "random", "random"]


def test_a_tournament_parses_each_entrant_once_not_once_per_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counter = ParseCounter(monkeypatch)
    entrants = ["greedy:enough=5", "random", "random"]
    result = tm.run_tournament(entrants, games=12, seed=1, backend="serial")
    assert sum(row.games for row in result.table) == 36
    assert sorted(counter.texts) == sorted(entrants)


def test_a_parsed_spec_is_accepted_wherever_a_text_is(monkeypatch: pytest.MonkeyPatch) -> None:
    specs = [parse_spec("greedy"), parse_spec("random"), parse_spec("random")]
    counter = ParseCounter(monkeypatch)
    result = tm.play_match(specs, seed=3)
    assert result.players == ("greedy", "random", "random") and counter.texts == []
    table = tm.run_tournament(specs, games=6, seed=1, backend="serial").table
    assert [row.name for row in table][:1] and counter.texts == []


def test_the_command_line_parses_each_spec_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    counter = ParseCounter(monkeypatch)
    assert main(["match", "greedy", "random", "random", "--seed", "3"]) == 0
    assert sorted(counter.texts) == ["greedy", "random", "random"]
    counter.texts.clear()
    assert main(["tournament", "greedy", "random", "random", "--games", "6", "--backend",
                 "serial", "--seed", "1", "--quiet"]) == 0  # fmt: skip
    assert sorted(counter.texts) == ["greedy", "random", "random"]
    capsys.readouterr()
