"""The rules the web server's how-to-play page shows, taken from docs/rules.md.

The package cannot read docs/ once installed, so the numbered rules are kept
as package data, ``tajmahal/web/static/rules.json``; ``test_web_pages.py``
checks that it says what docs/rules.md says.  After editing the rules, run
``python tests/web_rules.py`` to write it again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "docs" / "rules.md"
RULES_JSON = ROOT / "src" / "tajmahal" / "web" / "static" / "rules.json"
_ITEM = re.compile(r"^- \*\*([A-Z]\d+)(?: — ([^*]*?))?\*\*(.*)$")
_ROLE = re.compile(r"\{[a-z]+\}`(?:([^`<]*?) <[^`]*>|([^`]*))`")


def _plain(text: str) -> str:
    text = text.split(" → ")[0].split("→")[0]
    text = _ROLE.sub(lambda m: (m.group(1) or m.group(2) or "").strip(), text)
    text = re.sub(r"~?tajmahal\.(?:\w+\.)*(\w+)", r"\1", text)
    text = re.sub(r"\*\*|\*|`", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.split()).strip()


def rules_from_markdown(text: str) -> dict[str, object]:
    """{"sections": [[title, [[id, name, text], ...]], ...], "rules": {id: text}}."""
    sections: list[list[object]] = []
    rules: dict[str, str] = {}
    current: list[str] | None = None
    for line in text.splitlines() + [""]:
        heading = re.match(r"^## (?:\d+\. )?(.*)$", line)
        item = _ITEM.match(line)
        if (heading or item or not line.startswith("  ")) and current is not None:
            rule, name, said = current[0], current[1], _plain(" ".join(current[2:]))
            rules[rule] = said
            items = sections[-1][1]
            assert isinstance(items, list)
            items.append([rule, name, said])
            current = None
        if heading:
            sections.append([heading.group(1).strip(), []])
        elif item and sections:
            rule, name, rest = item.groups()
            current = [rule, _plain(name or "").rstrip(".:"), rest.lstrip(" .:")]
            if name and name.rstrip().endswith((".", ":")) is False:
                current[2] = (name.strip() + " " + rest.strip())  # "C3 — The deck has ..."
                current[1] = ""
        elif current is not None and line.startswith("  "):
            current.append(line.strip())
    sections = [s for s in sections if s[1]]
    return {"sections": sections, "rules": rules}


def written() -> str:
    return json.dumps(rules_from_markdown(RULES_MD.read_text(encoding="utf-8")),
                      ensure_ascii=False, indent=0) + "\n"  # fmt: skip


if __name__ == "__main__":
    RULES_JSON.write_text(written(), encoding="utf-8")
    print(f"wrote {RULES_JSON}")
