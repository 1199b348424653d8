"""The analysis page light for 5 seats, and no page of the server with a failed load (issue 49).

The analysis page's first response is the replay without its search (drawn at once,
compressed, each card, hand and table row stored once); its strip comes from ``marks``
beside it.  Every page people open, in Debian's Chromium: nothing it loads answers 404
(the favicon included).  Timing goals are in ``benchmarks/analysis_page.py``.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from web_server import Server, token_of

#: what a step of a game may add to the page besides the board's SVG elements and the
#: sentences (each stored once for the page): its runs, scores, indices (before: ~2.9 KB)
STEP_BYTES = 1_000
#: the compressed page of a 5-seat game (before: 1 MB, not compressed)
COMPRESSED_BYTES = 150_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-analysis") / "games.sqlite3")
    yield running
    running.stop()


def finished(server: Server, seats: list[Any]) -> dict[str, Any]:
    """A game of ``seats`` (bots) played to its end."""
    created = server.create(seats)
    token = token_of(created["spectator"])
    end = time.monotonic() + 300
    while server.request("/record/" + token)[0] == 409:
        assert time.monotonic() < end, "the bots' game did not end"
        time.sleep(0.3)
    return created


def page_data(page: bytes) -> dict[str, Any]:
    text = page.decode()
    start = text.index('<script type="application/json" id="data">')
    start = text.index(">", start) + 1
    data: dict[str, Any] = json.loads(text[start : text.index("</script>", start)])
    return data


def test_the_first_response_of_a_5_seat_analysis_is_the_replay_compact_and_compressed(
    server: Server,
) -> None:
    created = finished(server, ["random"] * 5)
    token = token_of(created["spectator"])
    status, headers, body = server.request("/analysis/" + token,
                                           headers={"Accept-Encoding": "gzip"})  # fmt: skip
    assert status == 200 and headers["content-encoding"] == "gzip", headers
    assert "Accept-Encoding" in headers["vary"]
    assert len(body) < COMPRESSED_BYTES, len(body)
    page = gzip.decompress(body)
    assert server.request("/analysis/" + token)[2] == page  # a client without gzip: expanded
    data = page_data(page)
    steps = data["steps"]
    assert len(data["players"]) == 5 and len(steps) > 100
    # no search in the first response: the strip comes from "marks" beside the page
    assert data["analysis"] is None and data["analysis_from"] == "marks"
    # each card, hand, table row and holding stored once; a step names them by index
    assert len({tuple(card) for card in data["cards"]}) == len(data["cards"])
    for step in steps:
        assert all(isinstance(hand, int) for hand in step["hands"])
        assert all(isinstance(row, int) for row in step["table"]["seats"])
        assert set(step["events"]) <= {"all", "0", "1", "2", "3", "4"}
    repeated = json.dumps([steps, data["rows"], data["lists"]])
    for name, _ in data["cards"]:  # a card is named once, in "cards"; sentences name it too
        assert json.dumps(name) not in repeated, name
    shared = len(page) - sum(map(len, data["elements"])) - sum(map(len, data["texts"]))
    assert shared < STEP_BYTES * len(steps), shared / len(steps)
    assert b"<svg" not in page.split(b'id="data"')[0]  # no board drawn into the HTML itself


@pytest.fixture(scope="module")
def anns_game(server: Server) -> tuple[str, int]:
    """A finished 5-seat game of Ann and bots, Ann's link and her decisions: she withdraws
    (or takes the last palace) each time, a short game with a short analysis."""
    created = server.create([{"human": True, "name": "Ann"}, "random", "random", "random",
                             "random"])  # fmt: skip
    link: str = created["seats"][0]["link"]
    client = server.client(token_of(link))
    decisions = 0
    while not client.my_turn()["over"]:
        client.move(-1)
        decisions += 1
    client.close()
    return link, decisions


def test_the_analysis_page_draws_the_board_first_then_its_strip(
    browser: Browser, server: Server, anns_game: tuple[str, int]
) -> None:
    link, decisions = anns_game
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(server.url + "/analysis/" + token_of(link))
    page.wait_for_selector("#board svg")
    transfer = page.evaluate("(() => { const n = performance.getEntriesByType('navigation')[0];"
                             " return [n.encodedBodySize, n.decodedBodySize]; })()")  # fmt: skip
    assert 0 < transfer[0] < transfer[1] / 3, transfer  # compressed on the wire
    page.wait_for_selector("#strip .mark", timeout=300_000)
    assert page.locator("#strip .strip-row").count() == 1  # Ann's decisions only
    bars = page.locator("#strip .mark")
    assert 0 < bars.count() <= decisions
    bars.last.click()
    assert "Ann" in page.inner_text("#review")
    assert page.get_attribute("#strip", "aria-busy") is None
    page.context.close()


def failures(page: Page, address: str) -> list[str]:
    """What goes wrong while ``page`` loads ``address``, as it happens: a response of 400 or
    more (the document's own left out: the unknown link's page is a 404), a failed request,
    a script's error, an error on the console not about the document."""
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}")
            if r.status >= 400 and r.request.resource_type != "document" else None)
    page.on("requestfailed", lambda r: failed.append(f"failed {r.url}"))
    page.on("pageerror", lambda error: failed.append(str(error)))
    page.on("console", lambda m: failed.append(m.text) if m.type == "error"
            and m.location.get("url") != address else None)  # fmt: skip
    return failed


def test_no_page_has_a_failed_load_and_the_icon_is_served_with_its_type_and_cache(
    browser: Browser, server: Server, anns_game: tuple[str, int]
) -> None:
    status, headers, icon = server.request("/static/favicon.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml"
    assert "max-age=" in headers["cache-control"] and icon.startswith(b"<svg")
    assert server.request("/favicon.ico")[2] == icon  # browsers ask for it on linkless pages
    assert json.loads(server.request("/api/limits")[2])["arena"] is False  # the lobby asks
    live = server.create([{"human": True, "name": "Ann"}, "random", "random"])
    token = token_of(anns_game[0])  # over, analysed by the test before (or now)
    pages = {
        "/": "#seats .seat-row", "/how-to-play": "h1", live["seats"][0]["link"]: "#moves",
        live["spectator"]: "#table-panel .seat-box", "/replay/" + token: "#board svg",
        "/analysis/" + token: "#strip .mark", "/play/no-such-link-at-all-000000": "main",
    }  # fmt: skip
    for path, ready in pages.items():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        failed = failures(page, server.url + path)
        page.goto(server.url + path)
        page.wait_for_selector(ready, timeout=300_000)
        page.wait_for_load_state("networkidle")
        icons = page.evaluate("[...document.querySelectorAll('link[rel=icon]')].map(l => l.href)")
        assert icons, path  # each page names its icon
        assert not failed, (path, failed)
        context.close()
