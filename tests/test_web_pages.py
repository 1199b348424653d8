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
