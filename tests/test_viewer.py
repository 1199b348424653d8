"""The replay viewer (``tajmahal replay FILE --html OUT``), driven in a real headless Chromium.

Debian's Chromium (``/usr/bin/chromium``, which the Makefile installs) through
Playwright: the session's one browser (tests/conftest.py).
Set ``TAJMAHAL_DOCS_SCREENSHOTS=1`` to refresh the screenshots the docs show
(``docs/images/viewer.png``, ``replay-analysis-390.png``, ``replay-analysis-1440.png``).
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
from tajmahal.analysis import analyse_game, card_name, move_name
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
    assert move_name(record.moves[5]) in page.inner_text("#where")
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
    assert re.search(r"draws (red|yellow|green|violet|white) [\w+ ]+ from the deck", everything)
    assert page.locator("#hands li").count() == 3
    page.select_option("#mode", "1")
    assert "draws a card from the deck" in page.inner_text("#events")
    (hand,) = page.locator("#hands li").all_inner_texts()
    assert hand.startswith("seat 1 (random): ")
    assert hand.endswith(", ".join(card_name(c) for c in states[drawn].hand(1)))
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
    assert evil not in page and page.count("</script>") == 3  # the scheme's, the data's, the code's
    assert "<title>Taj Mahal, seed 2: seat 0 (&lt;/script&gt;&lt;script&gt;" in page


# ---------------------------------------------------------------------------- issue 21


IMAGES = DOCS_SCREENSHOT.parent


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[tm.GameRecord, Path, int]:
    """A game of greedy against ismcts, seat 0 analysed (a cheap search), as a page."""
    record = tm.play_match(["greedy", "ismcts:iterations=30", "random"], seed=7).record
    folder = tmp_path_factory.mktemp("analysed")
    (folder / "game.json").write_text(dumps(record), encoding="utf-8")
    out = folder / "game.html"
    argv = ["analyse", str(folder / "game.json"), "--seat", "0", "--iterations", "8",
            "--quiet", "--out", str(folder / "game.analysis.json"), "--html", str(out)]
    assert main(argv) == 0  # fmt: skip
    decisions = sum(1 for s in tm.Game.from_record(record).states[:-1] if s.current_player == 0)
    return record, out, decisions


@pytest.mark.parametrize("width", [390, 1024, 1440])
def test_the_page_reads_at_every_width_with_the_table_and_the_analysis_strip(
    browser: Browser, analysed: tuple[tm.GameRecord, Path, int], width: int
) -> None:
    record, out, decisions = analysed
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.route(re.compile(r"^(?!file:).*"), lambda route: route.abort())
    page = context.new_page()
    page.goto(out.as_uri())
    assert page.locator("#strip .mark").count() == decisions  # one per decision of seat 0
    states = tm.Game.from_record(record).states
    step = next(k for k, s in enumerate(states) if sum(len(t) for t in s.table) >= 4)
    page.eval_on_selector(
        "#step", f"(s) => {{ s.value = '{step}'; s.dispatchEvent(new Event('input')); }}"
    )
    board = page.eval_on_selector("#board svg", "e => e.getBoundingClientRect().width")
    assert board >= 300
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    rows = page.locator("#tablepanel li").all_inner_texts()
    assert len(rows) == record.num_players
    for seat, row in enumerate(rows):
        for card in states[step].view(0).table[seat]:
            assert card_name(card) in row
    if width == 390:  # the panels go below the board
        top = page.eval_on_selector("aside", "e => e.getBoundingClientRect().top")
        bottom = page.eval_on_selector("#board", "e => e.getBoundingClientRect().bottom")
        assert top >= bottom - 1
    worst = max(
        (d for d in analyse_game(record, seats=[0], iterations=8).decisions),
        key=lambda d: d.loss,
    )
    page.click(f'#strip .mark[data-step="{worst.index + 1}"]')
    assert page.inner_text("#where").startswith(f"Step {worst.index + 1} of ")
    review = page.inner_text("#review")
    assert f"best: {worst.best_text}" in review
    page.keyboard.press("End")
    final = page.locator("#breakdown tr").all_inner_texts()
    assert len(final) == record.num_players + 1
    if os.environ.get("TAJMAHAL_DOCS_SCREENSHOTS") and width in (390, 1440):
        page.click(f'#strip .mark[data-step="{worst.index + 1}"]')
        bottom = page.eval_on_selector("#prizes", "e => e.getBoundingClientRect().bottom")
        height = max(900, int(bottom) + 12)  # down to the table panel
        clip = {"x": 0, "y": 0, "width": width, "height": height}
        page.screenshot(path=str(IMAGES / f"replay-analysis-{width}.png"), full_page=True,
                        clip=clip)  # fmt: skip
    context.close()


def test_the_analysis_screenshots_are_committed() -> None:
    for width in (390, 1440):
        image = IMAGES / f"replay-analysis-{width}.png"
        assert image.exists() and image.stat().st_size > 10_000


def test_an_analysis_of_another_game_is_refused(analysed: tuple[tm.GameRecord, Path, int]) -> None:
    record, _, _ = analysed
    other = tm.play_match(["random"] * 3, seed=3).record
    with pytest.raises(tm.TajMahalError, match="another game"):
        replay_html(other, analysis=analyse_game(record, seats=[0], iterations=4))


def test_replay_draws_a_saved_analysis_and_refuses_a_foreign_one(
    analysed: tuple[tm.GameRecord, Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = analysed
    folder = out.parent
    page = tmp_path / "again.html"
    argv = ["replay", str(folder / "game.json"), "--quiet", "--html", str(page),
            "--analysis", str(folder / "game.analysis.json")]  # fmt: skip
    assert main(argv) == 0
    assert '"marks":[{' in page.read_text(encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text(dumps(tm.play_match(["random"] * 3, seed=3).record), encoding="utf-8")
    argv[1] = str(other)
    assert main(argv) == 1
    assert "analysis" in capsys.readouterr().err
