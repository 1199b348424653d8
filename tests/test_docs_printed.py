"""The docs read as printed: no hidden doctest setup, and the tutorials lead from one to the next.

tests/test_docs.py runs every ```{doctest} block with Sphinx's doctest builder, which gives
each page a fresh namespace; with no global or hidden setup, that is exactly pasting the
page's examples in order into a fresh interpreter. These tests keep it that way.
"""

from __future__ import annotations

import itertools
import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def test_conf_sets_up_nothing_for_the_examples() -> None:
    conf = runpy.run_path(str(DOCS / "conf.py"))
    for name in ("doctest_global_setup", "doctest_global_cleanup"):
        assert not conf.get(name), f"docs/conf.py sets {name}: the pages must import what they use"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_no_page_hides_setup(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    hidden = re.findall(r"```\{(testsetup|testcleanup)\}|^:(hide|group):", text, re.M)
    assert not hidden, f"{page.name} hides code from its readers: {hidden}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_each_page_imports_what_its_examples_use(page: Path) -> None:
    code = "\n".join(re.findall(r"```\{doctest\}\n(.*?)```", page.read_text("utf-8"), re.S))
    use = re.search(r"\btm\.", code)
    if use:
        imported = code.find("import tajmahal as tm")
        assert 0 <= imported < use.start(), f"{page.name} uses tm. before importing it"


def tutorials() -> list[str]:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    return re.findall(r"^tutorials/(\w+)$", index, re.M)


def test_each_tutorial_leads_to_the_next_and_only_the_last_ends() -> None:
    names = tutorials()
    assert len(names) >= 3, names
    for name, following in itertools.pairwise(names):
        text = (DOCS / "tutorials" / f"{name}.md").read_text(encoding="utf-8")
        assert f"Next: {{doc}}`{following}`" in text, f"{name}.md does not lead to {following}"
        assert "end of the tutorials" not in text, f"{name}.md ends the tutorials early"
    last = (DOCS / "tutorials" / f"{names[-1]}.md").read_text(encoding="utf-8")
    assert "That is the end of the tutorials" in last and "Next:" not in last
