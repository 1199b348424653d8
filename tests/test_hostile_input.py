"""Hostile input, round 3: the replay page, the terminal, typed input, player specs,
tournament results files, components files, sampled views, plugins and saved games.

Costs are asserted as counts (Python calls through :func:`sys.setprofile`, lines
read, peaks of :mod:`tracemalloc`), never as wall time.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from tajmahal.cli import main
from tajmahal.cli._terminal import printable
from tajmahal.referee import FaultKind
from tajmahal.render.viewer import fill_template, replay_html
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
    longer = calls(lambda: replay_html(attrs.evolve(RECORD, players=("a" * 20_000, "bob", "cy"))))
    assert longer - short <= 2 * 20_000  # was quadratic: 5,000 characters took 212 s


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
    doc["players"][0] = "x" * 101
    with pytest.raises(tm.FormatError, match="at most 100 characters"):
        tm.loads(json.dumps(doc))
    from tajmahal.rules.components import STANDARD_PATH

    text = STANDARD_PATH.read_text(encoding="utf-8").replace(
        'name = "Agra"', f'name = "{"A" * 101}"'
    )
    with pytest.raises(tm.ComponentsError, match="at most 100 characters"):
        tm.rules.components.parse_components(text)


# ---------------------------------------------------------------------------- typed input


def play_session(lines: list[str]) -> Any:
    import argparse

    from tajmahal.cli import play_command

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
    from tajmahal.cli import play_command

    lines: list[str] = []
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
