"""The replay viewer (``tajmahal replay FILE --html OUT``), driven in a real headless Chromium.

Debian's Chromium (``/usr/bin/chromium``, which the Makefile installs) through
Playwright: one browser for the whole session.  Set ``TAJMAHAL_DOCS_SCREENSHOTS=1``
to refresh the screenshot the docs show (``docs/images/viewer.png``).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from playwright.sync_api import Browser, Page

import tajmahal as tm
from tajmahal.cli import main
from tajmahal.render.viewer import replay_html
from tajmahal.serialize import dumps

CHROMIUM = "/usr/bin/chromium"
DOCS_SCREENSHOT = Path(__file__).resolve().parent.parent / "docs" / "images" / "viewer.png"
PLAYERS = ["greedy", "random", "random"]


@pytest.fixture(scope="module")
def record() -> tm.GameRecord:
    return tm.play_match(PLAYERS, seed=5).record


@pytest.fixture(scope="module")
def page_file(record: tm.GameRecord, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("viewer")
    (folder / "game.json").write_text(dumps(record), encoding="utf-8")
    out = folder / "game.html"
    assert main(["replay", str(folder / "game.json"), "--quiet", "--html", str(out)]) == 0
    return out


@pytest.fixture
def page(browser: Browser, page_file: Path) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1500, "height": 950})
    context.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())  # no network
    opened = context.new_page()
    opened.goto(page_file.as_uri())
    yield opened
    context.close()


def scores(page: Page) -> list[int]:
    return [int(cell) for cell in page.locator("#scores tr td:nth-child(2)").all_inner_texts()]


def palaces(page: Page) -> int:
    return page.locator("#board .palace, #board .crown-palace").count()


def test_stepping_through_the_game_shows_each_recorded_state(
    page: Page, record: tm.GameRecord
) -> None:
    states = tm.Game.from_record(record).states
    assert page.inner_text("#where").startswith(f"Step 0 of {len(record.moves)}")
    assert scores(page) == [0, 0, 0] and palaces(page) == 0
    board = page.inner_html("#board")
    for _ in range(6):
        page.click("#next")
    assert page.inner_text("#where").startswith(f"Step 6 of {len(record.moves)}")
    assert f"move 6 of {len(record.moves)}: " in page.inner_text("#where")
    assert str(record.moves[5]) in page.inner_text("#where")
    page.keyboard.press("ArrowRight")  # the arrow keys step too
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#where").startswith("Step 7 of ")
    # jump along the slider to where palaces stand and points were scored
    target = next(k for k, s in enumerate(states) if sum(s.scores) >= 5)
    page.eval_on_selector(
        "#step", f"(s) => {{ s.value = '{target}'; s.dispatchEvent(new Event('input')); }}"
    )
    assert scores(page) == list(states[target].scores)
    placed = sum(o >= 0 for o in states[target].normal_palaces + states[target].crown_palaces)
    assert palaces(page) == placed > 0 and page.inner_html("#board") != board
    keys = page.locator("#board .key-score").all_text_contents()
    assert [int(k) for k in keys] == list(states[target].scores)
    page.keyboard.press("End")
    assert scores(page) == list(record.scores or ())
    assert "the game ends" in page.inner_text("#events")
    assert page.is_disabled("#next") and not page.is_disabled("#prev")
    if os.environ.get("TAJMAHAL_DOCS_SCREENSHOTS"):
        page.eval_on_selector(
            "#step", f"(s) => {{ s.value = '{target}'; s.dispatchEvent(new Event('input')); }}"
        )
        page.screenshot(path=str(DOCS_SCREENSHOT))


def test_one_seats_view_hides_the_other_hands_and_draws(page: Page, record: tm.GameRecord) -> None:
    states = tm.Game.from_record(record).states
    drawn = next(  # a decision in which a seat other than 1 drew a card from the deck
        k for k, (before, move) in enumerate(zip(states, record.moves, strict=False), start=1)
        if str(move) == "withdraw" and not before.table[before.current_player or 0]
        and before.current_player != 1
    )  # fmt: skip
    page.eval_on_selector(
        "#step", f"(s) => {{ s.value = '{drawn}'; s.dispatchEvent(new Event('input')); }}"
    )
    everything = page.inner_text("#events")
    assert re.search(r"draws \w+:[\w+]+ from the deck", everything)  # the card, named
    assert page.locator("#hands li").count() == 3
    page.select_option("#mode", "1")
    assert "draws a card from the deck" in page.inner_text("#events")
    (hand,) = page.locator("#hands li").all_inner_texts()
    assert hand.startswith("seat 1 (random): ")
    assert hand.endswith(", ".join(str(c) for c in states[drawn].hand(1)))
    page.keyboard.press("ArrowRight")  # the choice stays while stepping
    assert page.locator("#hands li").count() == 1


def test_the_page_is_self_contained(page_file: Path) -> None:
    text = page_file.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    assert "http://www.w3.org/2000/svg" in text and "https://" not in text


def test_docs_screenshot_is_committed() -> None:
    assert DOCS_SCREENSHOT.exists() and DOCS_SCREENSHOT.stat().st_size > 10_000
    assert shutil.which("chromium") or Path(CHROMIUM).exists()


def test_hostile_player_names_stay_text(tmp_path: Path) -> None:
    evil = "</script><script>alert(1)</script><b>"
    record = tm.play_match(["random"] * 3, seed=2).record
    page = replay_html(attrs.evolve(record, players=(evil, "random", "random")))
    assert evil not in page and page.count("</script>") == 2  # the data's and the code's
    assert "<title>Taj Mahal, seed 2: seat 0 (&lt;/script&gt;&lt;script&gt;" in page
