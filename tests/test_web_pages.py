"""The how-to-play page's rules: package data that says what docs/rules.md says."""

from __future__ import annotations

import json
import re

from web_rules import RULES_JSON, RULES_MD, rules_from_markdown, written


def test_the_packaged_rules_are_docs_rules_md() -> None:
    assert RULES_JSON.read_text(encoding="utf-8") == written(), (
        "docs/rules.md changed: run 'python tests/web_rules.py' to write rules.json again"
    )


def test_every_numbered_rule_is_on_the_page_in_plain_words() -> None:
    data = rules_from_markdown(RULES_MD.read_text(encoding="utf-8"))
    rules = data["rules"]
    assert isinstance(rules, dict)
    ids = set(re.findall(r"^- \*\*([A-Z]\d+)", RULES_MD.read_text(encoding="utf-8"), re.M))
    assert set(rules) == ids and len(ids) > 70
    assert rules["W4"] == "A tie wins nothing."
    for text in rules.values():
        assert text and "{" not in text and "→" not in text and "tajmahal." not in text, text
    assert json.loads(RULES_JSON.read_text(encoding="utf-8"))["rules"] == rules


def test_a_hint_far_behind_speaks_of_points_not_zero_percent() -> None:
    import tajmahal as tm
    from tajmahal.bots.greedy import GreedyBot
    from tajmahal.web._table_analysis import hint_for

    state, greedy = tm.new_game(3, seed=5), GreedyBot(seed=1)
    while state.visit < 9 or state.current_player != 0:  # seat 0 always withdraws at once
        seat = state.current_player
        legal = state.legal_moves()
        state = state.apply(legal[-1] if seat == 0 else greedy.choose(state.view(seat), legal))
    hint = hint_for(state.view(0), state.legal_moves(), 3)
    assert hint["move"] in [str(m) for m in state.legal_moves()]
    behind = max(state.scores) - state.scores[0]
    assert behind > 20 and f"You are {behind} points behind" in hint["reasons"][-1]
    assert "0%" not in " ".join(hint["reasons"]) and "seat 0" not in " ".join(hint["reasons"])
    assert "_" not in hint["label"] and ":" not in hint["label"]


def test_make_demo_ends_naming_tajmahal_play_and_serve() -> None:
    """The demo's recipe (read from the Makefile, not run by make: make can rebuild the venv)
    ends with two lines that point to ``tajmahal play`` and ``tajmahal serve``."""
    import subprocess
    from pathlib import Path

    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert recipe[0].lstrip().startswith("$(BIN)/tajmahal match")
    last = recipe[-1].strip().lstrip("@").replace("$(BIN)", ".venv/bin")
    said = subprocess.run(["sh", "-c", last], capture_output=True, text=True, check=True)
    lines = said.stdout.strip().splitlines()
    assert len(lines) == 2 and "tajmahal play" in lines[0] and "tajmahal serve" in lines[1], lines
