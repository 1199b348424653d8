"""Hostile input, round 3: the replay page, the terminal, typed input, player specs,
tournament results files, components files, sampled views, plugins and saved games.

Costs are asserted as counts (Python calls through :func:`sys.setprofile`, lines
read, peaks of :mod:`tracemalloc`), never as wall time.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from tajmahal.cli import main
from tajmahal.cli._terminal import printable
from tajmahal.referee import FaultKind
from tajmahal.render.viewer import fill_template, replay_html
from tajmahal.rules.problems import InvalidStateError
from tajmahal.serialize import dumps

RECORD = tm.play_match(["greedy", "random", "random"], seed=2).record


def calls(action: Callable[[], Any]) -> int:
    """How many Python function calls ``action`` makes."""
    made = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal made
        if event == "call":
            made += 1

    sys.setprofile(count)
    try:
        action()
    finally:
        sys.setprofile(None)
    return made


def page_data(page: str) -> dict[str, Any]:
    start = page.index('<script type="application/json" id="data">') + 42
    text = page[start : page.index("</script>", start)]
    data: dict[str, Any] = json.loads(text)
    return data


# ------------------------------------------------------------------------- the replay page


def test_the_replay_page_costs_one_call_per_character_of_a_long_name() -> None:
    replay_html(RECORD)  # one-time tables and layouts
    short = calls(lambda: replay_html(attrs.evolve(RECORD, players=("ann", "bob", "cy"))))
    longest = "a" * tm.game.MAX_PLAYER_NAME  # the longest name a record holds
    longer = calls(lambda: replay_html(attrs.evolve(RECORD, players=(longest, "bob", "cy"))))
    assert longer - short <= 2 * len(longest)  # was quadratic: 5,000 characters took 212 s


@pytest.mark.parametrize("name", ["{data}", "{{data}}", "{{title}}", "{title}"])
def test_a_name_like_a_placeholder_is_inserted_once_as_text(name: str) -> None:
    page = replay_html(attrs.evolve(RECORD, players=(name, "bob", "cy")))
    assert page.count('"elements":') == 1 and page.count("<title>") == 1
    title = page[page.index("<title>") : page.index("</title>")]
    assert f"seat 0 ({name})" in title and len(title) < 200
    assert page_data(page)["players"][0] == f"seat 0 ({name})"


def test_fill_template_never_fills_a_value() -> None:
    assert fill_template("{{a}}|{{b}}", {"a": "{{b}}", "b": "<{{a}}>"}) == "{{b}}|<{{a}}>"
    with pytest.raises(KeyError):
        fill_template("{{missing}}", {})


def test_steps_share_the_board_they_do_not_change() -> None:
    page = replay_html(RECORD)
    data = page_data(page)
    steps = data["steps"]
    runs = [run for step in steps for run in step["board"]]
    drawn = sum(count for _, _, count in runs)
    assert drawn > 100 * len(steps)  # each step draws the whole board...
    assert len(runs) <= 20 * len(steps)  # ...but lists a few runs of what changed
    shared = len(page) - sum(map(len, data["elements"])) - sum(map(len, data["texts"]))
    assert shared <= 2_000 * len(steps)  # the rest of a step is its scores, hands, events


# ----------------------------------------------------------------------------- the terminal

UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def test_printable_escapes_exactly_the_control_and_format_characters() -> None:
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        category = unicodedata.category(char)
        unsafe = category in UNSAFE_CATEGORIES and char not in "\n\t"
        escaped = printable(char) != char
        # a newer Unicode than this Python's may make unassigned (Cn) characters format ones
        assert escaped is unsafe or (escaped and category == "Cn"), hex(code)
        if escaped:
            assert printable(char).isascii() and printable(char).isprintable()


@settings(max_examples=50, deadline=None)
@given(st.text())
def test_printable_text_has_no_control_or_format_characters(text: str) -> None:
    shown = printable(text)
    assert all(
        unicodedata.category(char) not in UNSAFE_CATEGORIES or char in "\n\t" for char in shown
    )


EVIL = "\x1b]0;owned\x07\x1b[2J\u202eevil\u2066\x9b"


def assert_clean(text: str) -> None:
    assert not any(char in text for char in "\x1b\x07\u202e\u2066\x9b"), text[:300]


def test_replay_escapes_player_names_and_fault_details(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    faults = (tm.Fault(seat=1, kind=FaultKind.EXCEPTION, detail=EVIL, decision=0),)
    record = attrs.evolve(RECORD, players=(EVIL, "bob", "cy"), faults=faults)
    path = tmp_path / "game.json"
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "\\x1b]0;owned" in out and "\\u202eevil" in out
    assert_clean(out + err)


def test_match_with_components_escapes_province_and_city_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tajmahal.rules.components import STANDARD_PATH

    text = STANDARD_PATH.read_text(encoding="utf-8").replace(
        'name = "Agra"', 'name = "Agra' + "".join(f"\\u{ord(c):04x}" for c in EVIL) + '"'
    )
    path = tmp_path / "evil.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["match", "random", "random", "random", "--seed", "3", "--components",
                 str(path)]) == 0  # fmt: skip
    out, err = capsys.readouterr()
    assert "Agra\\x1b" in out + err
    assert_clean(out + err)


def test_long_names_are_rejected_at_load(tmp_path: Path) -> None:
    doc = json.loads(dumps(RECORD))
    doc["players"][0] = "x" * (tm.game.MAX_PLAYER_NAME + 1)
    with pytest.raises(tm.FormatError, match=r"players\[0\]: a name is at most 4160 characters"):
        tm.loads(json.dumps(doc))
    from tajmahal.rules.components import STANDARD_PATH

    text = STANDARD_PATH.read_text(encoding="utf-8").replace(
        'name = "Agra"', f'name = "{"A" * 101}"'
    )
    with pytest.raises(tm.ComponentsError, match="at most 100 characters"):
        tm.rules.components.parse_components(text)


# ---------------------------------------------------------------------------- typed input


def play_session(lines: list[Any]) -> Any:
    import argparse

    from tajmahal.cli import _play_command as play_command

    args = argparse.Namespace(opponents=["random", "random"], load=None, seat=0, seed=4,
                              components=None)  # fmt: skip
    session = play_command._session(args, lines.append)
    session.run_bots()
    return session


TYPED = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["²", "٣", "0", "00", "-1", "1e3", "9" * 5_000, "x" * 100_000, "\x1b[2J"]),
    st.integers(0, 10**30).map(str),
)


@settings(max_examples=60, deadline=None)
@given(TYPED)
def test_any_typed_line_gets_a_short_answer_and_the_game_goes_on(text: str) -> None:
    from tajmahal.cli import _play_command as play_command

    lines: list[Any] = []
    session = play_session(lines)
    before = len(session.game)
    word = text.strip().partition(" ")[0].lower()
    if word in ("quit", "exit", "help", "show", "board", "save", "hint", "undo"):
        return  # the commands: tested in test_play.py
    lines.clear()
    done = play_command._answer(session, text.strip())
    if done is None:
        assert len(session.game) == before and not session.game.state.is_over
        assert len(lines) <= 2 and all(len(line) <= 2_000 for line in lines), lines
    else:
        assert done == "moved" and len(session.game) > before


# ------------------------------------------------------------------------ player specs


class Annotated:
    """A plugin bot whose options are typed by its constructor's annotations."""

    name = "annotated"

    def __init__(self, seed: int = 0, depth: int = 2, style: str | None = None) -> None:
        self.depth, self.style = depth, style

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        return legal_moves[min(self.depth, len(legal_moves) - 1)]


class Declared:
    """A plugin bot that declares its options' types (as a compiled class would)."""

    name = "declared"
    option_types: ClassVar[dict[str, Any]] = {"weight": float, "mode": (str, None)}

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.weight = float(options.get("weight", 1.0))

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        return legal_moves[0]


class TypedPlugin:
    @tm.hookimpl
    def tajmahal_bots(self) -> list[type]:
        return [Annotated, Declared]


@pytest.fixture(scope="module")
def typed_registry() -> Any:
    from tajmahal.bots.registry import Registry

    registry = Registry(entry_points=False)
    registry.register(TypedPlugin(), name="typed-plugin")
    return registry


@pytest.mark.parametrize(
    ("spec", "option", "wanted"),
    [
        ("greedy:enough=nan", "enough", "float"),
        ("greedy:card_cost={}", "card_cost", "float"),
        ("greedy:enough=abc", "enough", "float"),
        ("greedy:enough=true", "enough", "float"),
        ("ismcts:iterations=2.5", "iterations", "int or None"),
        ("annotated:depth=deep", "depth", "int"),
        ("annotated:style=3", "style", "str or None"),
        ("declared:weight=inf", "weight", "float"),
        ("declared:mode=3", "mode", "str or None"),
    ],
)
def test_option_values_of_the_wrong_type_are_spec_errors(
    typed_registry: Any, spec: str, option: str, wanted: str
) -> None:
    from tajmahal.bots.specs import check_spec

    with pytest.raises(tm.bots.SpecError, match=f"option '{option}' (takes {wanted}|must be)"):
        check_spec(spec, typed_registry)
    with pytest.raises(tm.bots.SpecError):
        typed_registry.create(spec)


def test_python_options_are_checked_too(typed_registry: Any) -> None:
    with pytest.raises(tm.bots.SpecError, match="finite"):
        typed_registry.create("greedy", enough=float("nan"))
    assert typed_registry.create("annotated:depth=0,style=null").depth == 0
    assert typed_registry.create("declared:weight=2").weight == 2.0


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(blacklist_characters=",="), min_size=1, max_size=20))
def test_an_accepted_greedy_spec_plays_without_faults(raw: str) -> None:
    from tajmahal.bots.specs import check_spec

    spec = f"greedy:enough={raw}"
    try:
        check_spec(spec)
    except tm.bots.SpecError:
        return
    result = tm.play_match([spec, "random", "random"], seed=1, time_limit=None)
    assert result.faults == ()


# -------------------------------------------------------------- tournament results files


def results_file(tmp_path: Path, games: list[dict[str, Any]], entrants: int = 3) -> Path:
    from tajmahal.tournament.results import Header

    names = ["greedy", "random", "random", "random", "random"][:entrants]
    header = Header(tuple(names), num_players=3, games=999_996, seed=1)  # blocks of 6 games
    path = tmp_path / "results.jsonl"
    lines = [header.to_json(), *games]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def game_line(game: int = 0, **changes: Any) -> dict[str, Any]:
    from tajmahal.tournament.seating import schedule

    job = next(j for j in schedule(["greedy", "random", "random"], 3, (game // 6 + 1) * 6, 1)
               if j.game == game)  # fmt: skip
    line = {"game": game, "block": job.block, "seed": job.seed, "players": list(job.players),
            "scores": [50, 40, 30], "winners": [0], "ranking": [0, 1, 2], "faults": [],
            "seconds": 0.5}  # fmt: skip
    line.update(changes)
    return line


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"winners": [2]}, "'winners' \\[2\\] contradicts the scores"),
        ({"winners": [0, 1, 2]}, "'winners' \\[0, 1, 2\\] contradicts"),
        ({"ranking": [2, 1, 0]}, "'ranking' \\[2, 1, 0\\] contradicts"),
        ({"scores": [40, 40, 30], "winners": [0]}, "expected \\[0, 1\\]"),
        ({"seconds": float("nan")}, "'seconds' must be"),
        ({"seconds": float("inf")}, "'seconds' must be"),
        ({"faults": [{"seat": 0, "decision": 3, "kind": "timeout", "detail": "slow"}]},
         "and the faults of seats \\[0\\]"),
    ],
)
def test_contradictory_game_lines_are_errors_naming_the_line(
    tmp_path: Path, changes: dict[str, Any], problem: str
) -> None:
    from tajmahal.tournament.results import read_results

    path = results_file(tmp_path, [game_line(0), game_line(1, **changes)])
    with pytest.raises(tm.tournament.TournamentError, match=f"line 3: .*{problem}"):
        read_results(path)


def test_a_consistent_line_with_faults_and_ties_is_read(tmp_path: Path) -> None:
    from tajmahal.tournament.results import read_results

    fault = {"seat": 0, "decision": 3, "kind": "timeout", "detail": "slow"}
    tied = game_line(0, scores=[50, 40, 40], winners=[1, 2], ranking=[1, 2, 0], faults=[fault])
    assert read_results(results_file(tmp_path, [tied])).games[0].winners == (1, 2)


def test_reading_costs_the_file_not_the_game_numbers_it_names(tmp_path: Path) -> None:
    """A 1 KB file naming game 999,990 of 64 entrants took 70 s (the schedule up to it)."""
    from tajmahal.tournament import results

    def cost(last: int) -> int:
        line = game_line(0)
        block = last // 6  # the first game of its block: the table as listed
        far = dict(line, game=last, block=block, seed=tm.tournament.seating.deal_seed(1, block))
        path = results_file(tmp_path, [line, far])
        try:
            return calls(lambda: results.read_results(path))
        except tm.tournament.TournamentError:
            return -1

    near, far = cost(30), cost(999_990)
    # a constant: the blocks checked exactly per line read (6 games each at 3 seats)
    assert 0 < far <= near + 10_000, (near, far)


def test_summary_of_a_fifo_is_refused_without_waiting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    fifo = tmp_path / "results.fifo"
    os.mkfifo(fifo)
    assert main(["tournament", "--summary", str(fifo)]) == 1
    assert "not a regular file" in capsys.readouterr().err


ENTRANTS = ["greedy", "random", "random"]


def test_a_second_writer_of_a_results_file_gets_a_clear_error(tmp_path: Path) -> None:
    from tajmahal.tournament.results import Header, open_for_append

    header = Header(("greedy", "random", "random"), num_players=3, games=6, seed=1)
    path = tmp_path / "results.jsonl"
    stream, _ = open_for_append(path, header, resume=True)
    try:
        with pytest.raises(tm.tournament.TournamentError, match="is locked"):
            open_for_append(path, header, resume=True)
        with pytest.raises(tm.tournament.TournamentError, match="is locked"):
            tm.tournament.run_tournament(ENTRANTS, games=6, seed=1, backend="serial", out=path,
                                         resume=True)  # fmt: skip
    finally:
        stream.close()
    result = tm.tournament.run_tournament(ENTRANTS, games=6, seed=1, backend="serial", out=path,
                                          resume=True)  # fmt: skip
    assert len(result.games) == 6


# -------------------------------------------------------------------------- components


def dotted_key(shape: str, parts: int) -> str:
    part = {"bare": "k", "quoted": '"k"', "literal": "'k'", "spaced": " k "}
    key = ".".join([part.get(shape, "k")] * parts)
    return {
        "header": f"[{key}]\nx = 1\n",
        "array": f"[[{key}]]\nx = 1\n",
        "inline": f"t = {{ {key} = 1 }}\n",
    }.get(shape, f"{key} = 1\n")


@settings(max_examples=30, deadline=None)
@given(
    shape=st.sampled_from(["bare", "quoted", "literal", "spaced", "header", "array", "inline"]),
    parts=st.integers(33, 20_000),
)
def test_long_dotted_keys_are_refused_in_linear_time(shape: str, parts: int) -> None:
    from tajmahal.rules.components import parse_components

    text = dotted_key(shape, parts)

    def parse() -> None:
        with pytest.raises(tm.ComponentsError, match="line 1: a dotted key of more than 32"):
            parse_components(text, source="keys.toml")

    assert calls(parse) < 2_000  # tomllib alone: quadratic in the parts


@pytest.mark.parametrize("text", ['a.b.c = "x.y"', 'x = 1.5\ny = [1.5, 2.5]\n[a.b]\nc = "."'])
def test_short_dotted_keys_and_dots_in_values_are_still_toml(text: str) -> None:
    from tajmahal.rules.loading import _check_key_parts

    _check_key_parts(text + "\nv = '" + "." * 10_000 + "'\n# " + "." * 100, "ok.toml")


def test_caches_stay_bounded_over_many_distinct_components() -> None:
    import copy
    import gc
    import tomllib

    from tajmahal.rules.components import STANDARD_PATH

    standard = tomllib.loads(STANDARD_PATH.read_text(encoding="utf-8"))
    state = json.loads(dumps(tm.new_game(3, seed=1)))

    def load(number: int) -> int:
        """Memory blocks in use after loading a document with new components."""
        data = copy.deepcopy(standard)
        data["name"] = f"custom-{number}"
        data["board"]["cities"][0]["name"] = f"Kabul {number}"  # a distinct board too
        loaded = tm.loads(json.dumps(dict(state, components=data)))
        assert isinstance(loaded, tm.GameState)
        loaded.legal_moves()
        del loaded
        gc.collect()
        return sys.getallocatedblocks()

    first = max(load(number) for number in range(70))  # every cache full, once
    later = max(load(number) for number in range(70, 160))
    assert later < first + 20_000, (first, later)  # grew by about 1,000 blocks a document


# ------------------------------------------------------------------------ sampled views


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_sample_of_a_view_with_a_wrong_province_order_is_invalid(data: st.DataObject) -> None:
    import random

    view = tm.new_game(3, seed=1).view(0)
    order = list(view.province_order)
    how = data.draw(st.sampled_from(["drop", "twice", "swap-final", "unknown", "extra"]))
    k = data.draw(st.integers(0, len(order) - 2))
    if how == "drop":
        del order[k]  # 11 provinces
    elif how == "twice":
        order[k] = order[k + 1]
    elif how == "swap-final":
        order[k], order[-1] = order[-1], order[k]
    elif how == "unknown":
        order[k] = "atlantis"
    else:
        order.insert(k, order[k])
    bad = attrs.evolve(view, province_order=tuple(order))
    with pytest.raises(InvalidStateError, match="province_order"):
        bad.sample(random.Random(1))


# ------------------------------------------------------------------- play --load


def ignore(text: object) -> None:
    """A writer that shows nothing."""


@pytest.mark.parametrize("answer", ["", "n", "no", "EOF", "y"])
def test_play_load_asks_before_opponents_with_options_from_the_file(
    tmp_path: Path, answer: str
) -> None:
    import argparse

    from tajmahal.cli import _play_command as play_command

    path = tmp_path / "saved.json"
    players = ("you", "ismcts:time_limit=36000", "random")
    path.write_text(dumps(attrs.evolve(RECORD, players=players)), encoding="utf-8")
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if answer == "EOF":
            raise EOFError
        return answer

    args = argparse.Namespace(opponents=[], load=str(path), seat=None, seed=None,
                              components=None)  # fmt: skip
    if answer == "y":
        session = play_command._session(args, ignore, ask)
        assert session.players[1] == "ismcts:time_limit=36000"
    else:
        with pytest.raises(tm.TajMahalError, match="not started"):
            play_command._session(args, ignore, ask)
    assert len(asked) == 1 and "seat 1 ismcts:time_limit=36000" in asked[0]
    plain = tmp_path / "plain.json"  # default options: nothing to ask
    plain.write_text(dumps(attrs.evolve(RECORD, players=("you", "greedy", "random"))))
    play_command._session(argparse.Namespace(**{**vars(args), "load": str(plain)}), ignore, ask)
    assert len(asked) == 1


# ----------------------------------------------------------------------------- plugins

PATCHING_PLUGIN = """
import tajmahal as tm
import tajmahal.referee
tajmahal.referee.PATCHED_BY_PLUGIN = True  # what any code run at import could do
@tm.hookimpl
def tajmahal_bots():
    return 42
"""


def test_a_plugin_whose_code_ran_is_never_listed_as_skipped(tmp_path: Path) -> None:
    import os
    import subprocess

    site = tmp_path / "site"
    site.mkdir()
    (site / "patching.py").write_text(PATCHING_PLUGIN, encoding="utf-8")
    info = site / "patching_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: patching-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tajmahal]\npatching = patching\n")
    env = dict(os.environ, PYTHONPATH=f"{site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    script = (
        "import tajmahal.referee as r\nfrom tajmahal.cli import main\nmain(['bots'])\n"
        "print('patched:', getattr(r, 'PATCHED_BY_PLUGIN', False))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120, check=True)  # fmt: skip
    out = done.stdout
    assert "patched: True" in out  # its code ran...
    ran = out[out.index("Loaded with problems") : out.index("Installing a plugin trusts it")]
    assert "plugin 'patching'" in ran and "Skipped" not in out  # ...and the listing says so
    assert "TAJMAHAL_DISABLED_PLUGINS" in out
    env["TAJMAHAL_DISABLED_PLUGINS"] = "patching-plugin"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120, check=True)  # fmt: skip
    assert "patched: False" in done.stdout and "patching" not in done.stdout
