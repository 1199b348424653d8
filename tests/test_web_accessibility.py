"""axe-core, the engine behind browsers' accessibility audits, on every page people use.

The lobby, a seat's page on its turn, the spectator's page, how-to-play and the analysis
page, each at a phone's width (390 px) and a desktop's (1280 px), in Debian's Chromium:
no serious or critical violation (colour contrast under 4.5:1 is serious); every page with
the dark scheme too (the system's, in Chromium's emulation).  axe-core comes
from npm (``make axe``, which ``make unit`` runs, installs it into build/axe); Playwright
injects the file into each page, so nothing is fetched while the tests run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web_server import Server, token_of

ROOT = Path(__file__).resolve().parent.parent
AXE = Path(os.environ.get("TAJMAHAL_AXE", ROOT / "build/axe/node_modules/axe-core/axe.min.js"))
WIDTHS = (390, 1280)
PAGES = ("lobby", "seat", "spectator", "how-to-play", "analysis")
DARK = PAGES


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: 'make axe' (run by 'make unit') installs axe-core from npm")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """One server: a game waiting for a person's move, and a finished game to analyse."""
    server = Server(tmp_path_factory.mktemp("web-axe") / "games.sqlite3")
    try:
        live = server.create([{"human": True, "name": "Ann"}, "random", "greedy"], hints=True)
        done = server.create([{"human": True, "name": "Bo"}, "random", "random"])
        client = server.client(token_of(done["seats"][0]["link"]))
        while not client.my_turn()["over"]:
            client.move(-1)  # withdraw (or the last palace): a short game, a short analysis
        client.close()
        yield {
            "url": server.url,
            "lobby": "/",
            "seat": live["seats"][0]["link"],
            "spectator": live["spectator"],
            "how-to-play": "/how-to-play",
            "analysis": "/analysis/" + token_of(done["seats"][0]["link"]),
        }
    finally:
        server.stop()


def open_page(browser: Browser, url: str, name: str, width: int, scheme: str = "light") -> Page:
    # the server's Content-Security-Policy allows no inline script: axe is injected past it
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 900},
                                  bypass_csp=True, color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(url, timeout=300_000)
    if name == "lobby":
        page.wait_for_selector("#seats .seat-row")
        page.wait_for_selector("#games tbody tr")
    elif name == "seat":
        page.wait_for_selector("body[data-turn=yes] #moves button:enabled")
        page.locator("#hand .card").first.click()  # a card selected: its moves lit, others not
    elif name == "spectator":
        page.wait_for_selector("#table-panel .seat-box")
    elif name == "analysis":
        page.wait_for_selector("#strip .mark")
    return page


def violations(page: Page, source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.evaluate(source + "\n;0")
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
        " targets: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + n.failureSummary)}))"
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def test_no_serious_or_critical_violation_on_any_page_at_either_width(
    browser: Browser, links: dict[str, str], axe_source: str
) -> None:
    table: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for scheme, names in (("light", PAGES), ("dark", DARK)):
        for name in names:
            for width in WIDTHS:
                page = open_page(browser, links["url"] + links[name], name, width, scheme)
                assert page.evaluate("document.documentElement.dataset.scheme || 'light'") == scheme
                row = name if scheme == "light" else f"{name} (dark)"
                table.setdefault(row, {})[width] = violations(page, axe_source)
                page.context.close()
    for name, by_width in table.items():  # the table the issue asks for (pytest -s shows it)
        print(name, {w: sum(v["nodes"] for v in found) for w, found in by_width.items()},
              {w: sorted({v["id"] for v in found}) for w, found in by_width.items()})
    bad = {f"{name} at {width}": found for name, by_width in table.items()
           for width, found in by_width.items() if found}  # fmt: skip
    assert not bad, json.dumps(bad, indent=1)
