"""Notebook pictures: a record shows as its replay page, a tournament result as its table,
and the quick-start notebook of the docs runs in a real Jupyter kernel."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from playwright.sync_api import Browser, Page

import tajmahal as tm
from tajmahal.tournament import run_tournament

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "notebooks" / "quickstart.ipynb"
EVIL = '</script><script>alert(1)</script>"><img src=x onerror=alert(2)>&amp;'


@pytest.fixture(scope="module")
def record() -> tm.GameRecord:
    return tm.play_match(["greedy", "random", "random"], seed=4).record


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.route(re.compile(r"^(?!(about|data):).*"), lambda route: route.abort())  # offline
    opened = context.new_page()
    yield opened
    context.close()


def srcdoc(markup: str) -> str:
    match = re.fullmatch(r'<iframe title="[^"]*" srcdoc="([^"]*)" sandbox="allow-scripts" '
                         r'style="[^"]*"></iframe>', markup)  # fmt: skip
    assert match, markup[:300]
    return html.unescape(match.group(1))


def test_a_record_shows_as_its_replay_page(record: tm.GameRecord) -> None:
    from tajmahal.render.viewer import replay_html

    markup = record._repr_html_()
    assert markup is not None
    assert srcdoc(markup) == replay_html(record)  # the whole page, self-contained, escaped


def test_the_replay_runs_inside_the_notebooks_frame(page: Page, record: tm.GameRecord) -> None:
    page.set_content(f"<!DOCTYPE html><html><body>{record._repr_html_()}</body></html>")
    frame = page.frame_locator("iframe")
    keys = frame.locator("#board .key-score")
    keys.first.wait_for()
    assert keys.count() == record.num_players  # the script ran in the sandboxed frame and drew
    frame.locator("#step").evaluate(  # the last step: the final scores
        "(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); }"
    )
    final = [int(cell) for cell in frame.locator("#scores tr td:nth-child(2)").all_inner_texts()]
    assert final == list(record.scores or ())


def test_hostile_names_stay_text_in_the_frame(page: Page, record: tm.GameRecord) -> None:
    hostile = attrs.evolve(record, players=(EVIL, "random", "random"))
    markup = hostile._repr_html_()
    assert markup is not None
    assert "<script" not in markup.replace("&lt;script", "") and EVIL not in markup
    assert markup.count("<") == 2 and markup.count('"') == 8  # the iframe's own tags/attributes
    page.on("dialog", lambda dialog: pytest.fail(f"a script ran: {dialog.message}"))
    page.set_content(f"<!DOCTYPE html><html><body>{markup}</body></html>")
    frame = page.frame_locator("iframe")
    frame.locator("#board .key-score").first.wait_for()
    assert frame.locator("img").count() == 0
    assert EVIL[:20] in frame.locator("body").inner_text()  # shown as text


def test_a_record_that_does_not_replay_says_why() -> None:
    record = tm.play_match(["random"] * 3, seed=1).record
    broken = attrs.evolve(record, moves=record.moves[:3] + record.moves[:1], scores=None,
                          winners=None, players=(EVIL, "a", "b"))  # fmt: skip
    markup = broken._repr_html_()
    assert markup is not None and markup.startswith("<p>This record does not replay: move 4")
    assert "<" not in markup[3:-4]


@pytest.fixture(scope="module")
def standings() -> tm.tournament.TournamentResult:
    entrants = ["greedy", "random", "ismcts:iterations=5"]
    return run_tournament(entrants, games=6, num_players=3, seed=3, backend="serial")


def test_a_tournament_result_shows_as_its_table(
    standings: tm.tournament.TournamentResult,
) -> None:
    from tajmahal.tournament.stats import TABLE_COLUMNS, table_cells

    markup = standings._repr_html_()
    rows = re.findall(r"<tr>(.*?)</tr>", markup)
    assert len(rows) == 1 + len(standings.table)
    assert re.findall(r"<th>(.*?)</th>", rows[0]) == [html.escape(c) for c in TABLE_COLUMNS]
    for place, (row, entrant) in enumerate(zip(rows[1:], standings.table, strict=True), 1):
        cells = [html.unescape(cell) for cell in re.findall(r"<td>(.*?)</td>", row)]
        assert cells == list(table_cells(entrant, place))
    assert "<caption>6 games, 3 players a game</caption>" in markup


def test_hostile_entrant_names_stay_text_in_the_table(
    standings: tm.tournament.TournamentResult, page: Page
) -> None:
    row = attrs.evolve(standings.table[0], name=EVIL)
    hostile = attrs.evolve(standings, table=(row, *standings.table[1:]))
    markup = hostile._repr_html_()
    assert EVIL not in markup and html.escape(EVIL) in markup
    page.on("dialog", lambda dialog: pytest.fail(f"a script ran: {dialog.message}"))
    page.set_content(f"<!DOCTYPE html><html><body>{markup}</body></html>")
    assert page.locator("img").count() == 0
    assert page.locator("td").nth(1).inner_text() == EVIL


def test_the_quickstart_notebook_runs_in_a_real_kernel(tmp_path: Path) -> None:
    for module in ("nbformat", "nbclient", "ipykernel"):
        pytest.importorskip(module, reason="the dev extra installs nbformat, nbclient, ipykernel")
    script = (
        "import sys, nbclient, nbformat\n"
        "notebook = nbformat.read(sys.argv[1], as_version=4)\n"
        "nbclient.NotebookClient(notebook, timeout=600, kernel_name='python3',\n"
        "                        resources={'metadata': {'path': sys.argv[2]}}).execute()\n"
        "nbformat.write(notebook, sys.argv[3])\n"
    )
    out = tmp_path / "executed.ipynb"
    done = subprocess.run(
        [sys.executable, "-c", script, str(NOTEBOOK), str(tmp_path), str(out)],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    cells = json.loads(out.read_text())["cells"]
    outputs = [o for cell in cells if cell["cell_type"] == "code" for o in cell["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"]
    shown = [  # a notebook file keeps long texts as lists of lines
        {kind: "".join(text) for kind, text in o.get("data", {}).items()} for o in outputs
    ]
    assert any("image/svg+xml" in d and "key-hand" in d["image/svg+xml"] for d in shown)
    assert any("text/html" in d and "<iframe" in d["text/html"] for d in shown)
    assert any("text/html" in d and "tajmahal-standings" in d["text/html"] for d in shown)
