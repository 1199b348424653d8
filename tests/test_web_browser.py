"""The game page in Debian's Chromium: three people and a bot play a whole game by clicking.

One real server (subprocess, free port) and one browser for the module.  Every
WebSocket frame and HTTP response each person's page receives is collected
and checked against that seat's view afterwards: each state message must be
exactly what the seat's view gives (and what the view of a state with the
other hands and the deck re-dealt gives), and nothing may hold the seed.
Set ``TAJMAHAL_DOCS_SCREENSHOTS=1`` to refresh the docs' screenshots.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

import tajmahal as tm
from tajmahal.web._advice import table_lines
from tajmahal.web.frames import board_svg, decision_lines, opening_lines, seat_document
from test_views import with_hidden_changes
from web_server import Server, token_of

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SCREENSHOTS = bool(os.environ.get("TAJMAHAL_DOCS_SCREENSHOTS"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-browser") / "games.sqlite3")
    yield running
    running.stop()


class Person:
    """One browser context at one seat, recording everything it receives."""

    def __init__(self, browser: Browser, server: Server, link: str, width: int = 1440) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 1000})
        origin = re.escape(server.url)
        self.frames: list[str] = []
        self.bodies: list[tuple[str, bytes]] = []  # every HTTP response from the server

        def keep(route: Route) -> None:
            if route.request.resource_type == "document":  # kept by open() (a page fulfilled
                route.continue_()  # here would count as remote: no WebSocket to loopback)
                return
            response = route.fetch()
            self.bodies.append((route.request.url, response.body()))
            route.fulfill(response=response)

        self.context.route(re.compile(rf"^(?!{origin}/).*"), lambda route: route.abort())
        self.context.route(re.compile(rf"^{origin}/.*"), keep)
        self.token = token_of(link)
        self.page = self.open(server.url + link)

    def open(self, url: str) -> Page:
        page = self.context.new_page()
        page.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: self.frames.append(payload)))
        response = page.goto(url)
        assert response is not None
        self.bodies.append((url, response.body()))
        page.wait_for_selector("body:not([data-decision='-1'])")
        return page

    def status(self) -> tuple[bool, int, bool]:
        data = self.page.evaluate("[document.body.dataset.turn, document.body.dataset.decision,"
                                  " document.body.dataset.over]")  # fmt: skip
        return data[0] == "yes", int(data[1]), data[2] == "yes"

    def click_a_move(self, rng: random.Random) -> None:
        """Click one legal move: on the board or the hand when it can, else its button."""
        decision = self.status()[1]
        page = self.page
        cities = page.locator("#board g.city.playable")
        if cities.count() and rng.random() < 0.5:
            cities.nth(rng.randrange(cities.count())).click(force=True)  # palaces lie on top
            choices = page.locator("#moves button.lit:enabled")  # none once a move was sent
            if choices.count():  # a palace and a crown both fit this city: pick one
                choices.first.click()
        else:
            buttons = page.locator("#moves button")
            choice = rng.randrange(buttons.count())
            if rng.random() < 0.3 and buttons.nth(choice).inner_text() != "withdraw":
                buttons.nth(choice).click()
            else:  # withdrawing ends the visit sooner: games stay short
                withdraw = page.locator("#moves button[data-move=withdraw]")
                (withdraw if withdraw.count() else buttons.nth(choice)).click()
        page.wait_for_selector(f"body:not([data-decision='{decision}'])")

    def close(self) -> None:
        self.context.close()


def create_in_lobby(browser: Browser, server: Server, width: int, name: str) -> dict[str, Any]:
    """Fill in the lobby's form by clicking: three people and a greedy bot."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat-row:nth-child(3)")
    page.click("#add-seat")
    rows = page.locator("#seats .seat-row")
    for number, person in enumerate(["Ann", "Bo", "Cy"]):
        rows.nth(number).locator("select").select_option("person")
        rows.nth(number).locator("input").fill(person)
    rows.nth(3).locator("select").select_option("greedy")
    page.check("#hints")
    with page.expect_response(lambda r: r.url.endswith("/api/games") and
                              r.request.method == "POST") as created:  # fmt: skip
        page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    reply: dict[str, Any] = created.value.json()
    if SCREENSHOTS:
        page.wait_for_selector("#games tbody tr")
        page.screenshot(path=str(IMAGES / name), full_page=True)
    links = page.locator("#links a.seat-link").all_inner_texts()
    assert [link.replace(server.url, "") for link in links] == [
        seat["link"] for seat in reply["seats"] if seat["human"]
    ]
    context.close()
    return reply


def expected_frame(frame: dict[str, Any], states: list[tm.GameState], record: tm.GameRecord,
                   seat: int) -> dict[str, Any]:  # fmt: skip
    """What the server may send ``seat`` at the frame's decision: built from its views only."""
    state = states[frame["decision"]]
    view = state.view(seat)
    players = record.players
    events = []
    for event in frame["events"]:
        number = event["decision"]
        if number == 0:
            lines = opening_lines(states[0].view(seat), players)
        else:
            lines = decision_lines(states[number - 1].view(seat), record.moves[number - 1],
                                   states[number].view(seat), players, private=True)  # fmt: skip
        events.append({**event, "lines": lines})
    legal = [str(m) for m in state.legal_moves()] if state.current_player == seat else []
    board = board_svg(view, players, states[0].view(seat))
    return {**frame, "view": seat_document(view), "board": board, "legal": legal,
            "events": events, "table": table_lines(view, players)}  # fmt: skip


def check_everything_received(
    person: Person, seat: int, record: tm.GameRecord, server_url: str
) -> int:
    """Every frame and response ``person`` got is what seat ``seat``'s view allows; how many."""
    states = list(tm.Game.from_record(record).states)
    seed = str(record.seed)
    rng = random.Random(seat)
    checked = 0
    for text in person.frames:
        assert seed not in text
        message = json.loads(text)
        if message["type"] != "state":
            assert message["type"] in ("ack", "error", "hint")
            continue
        assert message["seat"] == seat
        assert message == expected_frame(message, states, record, seat)
        state = states[message["decision"]]
        other = with_hidden_changes(state, seat, rng)  # the other hands and the deck re-dealt
        if other is not None:
            assert seat_document(other.view(seat)) == message["view"]
            start = with_hidden_changes(states[0], seat, rng) or states[0]
            board = board_svg(other.view(seat), record.players, start.view(seat))
            assert board == message["board"]
            if state.current_player == seat:
                assert [str(m) for m in other.legal_moves()] == message["legal"]
        checked += 1
    assert len(person.bodies) >= 3  # the page, its script and its style at least
    for url, body in person.bodies:
        if not url.startswith((server_url + "/record/", server_url + "/replay/")):  # game over
            assert seed.encode() not in body, url
    return checked


def test_three_people_and_a_bot_play_a_whole_game_by_clicking(
    browser: Browser, server: Server
) -> None:
    created = create_in_lobby(browser, server, 1440, "web-lobby-1440.png")
    people = [Person(browser, server, created["seats"][n]["link"]) for n in range(3)]
    rng = random.Random(1)
    start = time.monotonic()
    clicks = 0
    reconnected = False
    while True:
        statuses = [person.status() for person in people]
        if all(over for _, _, over in statuses):
            break
        for number, (turn, _, over) in enumerate(statuses):
            if turn and not over:
                people[number].click_a_move(rng)
                clicks += 1
        if clicks == 25 and not reconnected:  # a tab closed mid-game and opened again
            reconnected = True
            person = people[1]
            hand = person.page.locator("#hand .card").all_inner_texts()
            decision = person.status()[1]
            person.page.close()
            person.page = person.open(server.url + created["seats"][1]["link"])
            if person.status()[1] == decision:
                assert person.page.locator("#hand .card").all_inner_texts() == hand
            assert "Bo" in person.page.inner_text("#scores tr[data-seat='1']")
        if SCREENSHOTS and clicks == 60:
            people[0].page.screenshot(path=str(IMAGES / "web-game-1440.png"))
            phone = Person(browser, server, created["seats"][0]["link"], width=390)
            phone.page.screenshot(path=str(IMAGES / "web-game-390.png"), full_page=True)
            phone.close()
    print(f"{clicks} moves clicked in {time.monotonic() - start:.0f} s")
    record = tm.loads(server.request("/record/" + people[0].token)[2].decode())
    final = tm.replay(record).scores
    for person in people:
        shown = person.page.locator("#final-scores li")
        scores = {
            int(li.get_attribute("data-seat") or -1): int(li.get_attribute("data-score") or -1)
            for li in shown.all()
        }
        assert [scores[seat] for seat in range(4)] == list(final)
    assert clicks == sum(1 for k, move in enumerate(record.moves)
                         if tm.Game.from_record(record).states[k].current_player != 3)  # fmt: skip
    assert record.players == ("Ann", "Bo", "Cy", "greedy")
    for seat, person in enumerate(people):
        assert check_everything_received(person, seat, record, server.url) > 10
    page = people[0].page
    with page.expect_download() as download:
        page.click("#link-download")
    assert tm.loads(Path(download.value.path()).read_text(encoding="utf-8")) == record
    page.click("#link-replay")
    page.wait_for_selector("#step")
    assert page.inner_text("#scores").split() != []
    for person in people:
        person.close()


def test_a_phone_sized_page_plays_too(browser: Browser, server: Server) -> None:
    if SCREENSHOTS:
        create_in_lobby(browser, server, 390, "web-lobby-390.png")
    created = server.create([{"human": True, "name": "Ann"}, "random", "random"], hints=True)
    person = Person(browser, server, created["seats"][0]["link"], width=390)
    page = person.page
    page.wait_for_selector("body[data-turn=yes]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out sideways
    person.click_a_move(random.Random(2))
    assert page.locator("#events li").count() > 1
    person.close()
