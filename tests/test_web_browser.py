"""The game page in Debian's Chromium: three people and a bot play a whole game by clicking.

One real server (subprocess, free port) and one browser for the module.  Every
WebSocket frame and HTTP response each person's page receives is collected
and checked against that seat's view afterwards: each state message must be
exactly what the seat's view gives (and what the view of a state with the
other hands and the deck re-dealt gives), and nothing may hold the seed.
Set ``TAJMAHAL_REFRESH_SCREENSHOTS=1`` to refresh the docs' screenshots (docs/images):
without it the suite writes nothing into the tree.
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
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import tajmahal as tm
from tajmahal.analysis import score_breakdown
from tajmahal.names import card_name
from tajmahal.render.viewer import breakdown_data
from tajmahal.web._table_analysis import table_data
from tajmahal.web.seat_messages import (
    board_state,
    decision_lines,
    live_board,
    move_labels,
    opening_lines,
    public_document,
    seat_document,
    whole_log,
)
from test_views import with_hidden_changes
from web_server import Server, token_of

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SCREENSHOTS = bool(os.environ.get("TAJMAHAL_REFRESH_SCREENSHOTS")
                   or os.environ.get("TAJMAHAL_DOCS_SCREENSHOTS"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-browser") / "games.sqlite3")
    yield running
    running.stop()


class Person:
    """One browser context at one seat, recording everything it receives."""

    def __init__(self, browser: Browser, server: Server, link: str, width: int = 1440,
                 height: int = 1000) -> None:  # fmt: skip
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.width, self.height = width, height
        origin = re.escape(server.url)
        self.frames: list[str] = []
        self.bodies: list[tuple[str, bytes]] = []  # every HTTP response from the server

        def keep(route: Route) -> None:
            if route.request.resource_type == "document":  # kept by open() (a page fulfilled
                route.continue_()  # here would count as remote: no WebSocket to loopback)
                return
            try:
                response = route.fetch()
                body = response.body()
                route.fulfill(response=response)
            except PlaywrightError as error:
                if "disposed" not in str(error) and "closed" not in str(error):
                    raise
                self.fetch_again(route)  # Playwright let go of the answer under a closing page
                return
            self.bodies.append((route.request.url, body))

        self.context.route(re.compile(rf"^(?!{origin}/).*"), lambda route: route.abort())
        self.context.route(re.compile(rf"^{origin}/.*"), keep)
        self.token = token_of(link)
        self.taps_again = 0  # decisions tapped a second time (click_a_move)
        self.page = self.open(server.url + link)

    def fetch_again(self, route: Route) -> None:
        """Ask the server again for a request whose fetched answer Playwright disposed (it does
        when the page that sent it closes or moves on): its body is still checked, and a page
        still waiting gets it; a page or context already gone is nothing to answer."""
        try:
            again = self.context.request.fetch(route.request)
            self.bodies.append((route.request.url, again.body()))
            route.fulfill(response=again)
        except PlaywrightError:
            pass

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

    def hand_at_decision(self) -> tuple[list[str], int]:
        """The hand's cards as shown and the decision they belong to, read in one step (the
        page renders a frame's hand and decision in one task)."""
        hand, decision = self.page.evaluate(
            "[[...document.querySelectorAll('#hand .card')].map(card => card.innerText),"
            " document.body.dataset.decision]"
        )
        return list(hand), int(decision)

    def click_a_move(self, rng: random.Random) -> None:
        """Click one legal move: a city on the board, a card of the hand or a move's button,
        then the confirm button where the page asks for it (no undo: other people play).

        As a person would, tap again once when the page still offers the same decision half a
        minute later (on a loaded machine a socket may have reconnected under the tap)."""
        decision = self.status()[1]
        try:
            self._tap_a_move(rng, decision)
        except PlaywrightTimeoutError:
            said = self.page.evaluate("[document.getElementById('error').textContent,"
                                      " document.body.dataset.turn]")  # fmt: skip
            if self.status()[:2] != (True, decision):
                raise
            print(f"decision {decision} still open after a tap (the page says {said}): again")
            self.taps_again += 1
            self._tap_a_move(rng, decision)

    def _tap_a_move(self, rng: random.Random, decision: int) -> None:
        page = self.page
        cities = page.locator("#board g.city.playable")
        cards = page.locator("#hand button.card:visible")  # hidden in a palace choice on a phone
        if cities.count() and rng.random() < 0.6 and (in_sight := self.cities_in_sight()):
            # palaces lie on top of a city (force), and the tap goes where a finger would
            cities.nth(in_sight[rng.randrange(len(in_sight))]).click(force=True)
        elif cards.count() and rng.random() < 0.3:
            cards.nth(rng.randrange(cards.count())).click()
            enabled = page.locator("#moves button:enabled")  # none once a move was sent
            if page.locator("#confirm:not([hidden])").count() == 0 and enabled.count():
                lit = page.locator("#moves button.lit:enabled")
                (lit.first if lit.count() else enabled.first).click()
        else:
            buttons = page.locator("#moves button")
            choice = rng.randrange(buttons.count())
            if rng.random() < 0.3 and buttons.nth(choice).get_attribute("data-move") != "withdraw":
                buttons.nth(choice).click()
            else:  # withdrawing ends the visit sooner: games stay short
                withdraw = page.locator("#moves button[data-move=withdraw]")
                (withdraw if withdraw.count() else buttons.nth(choice)).click()
        confirm = page.locator("#confirm:not([hidden]) #confirm-yes")
        if confirm.count():
            assert self.status()[1] == decision  # nothing sent before the confirm tap
            confirm.click()
        page.wait_for_selector(f"body:not([data-decision='{decision}'])")

    def cities_in_sight(self) -> list[int]:
        """The playable cities (their index) that a tap at their centre reaches on the board,
        with the page at its top: on a phone the fixed action bar may cover the board's foot
        (and grows when a hint arrives), and a tap there is the bar's."""
        self.page.evaluate("window.scrollTo(0, 0)")
        return list(self.page.evaluate("""[...document.querySelectorAll('#board g.city.playable')]
            .map((city, k) => {
              const box = city.getBoundingClientRect();
              const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
              const under = document.elementFromPoint(x, y);
              return under && document.getElementById('board').contains(under) ? k : -1;
            }).filter(k => k >= 0)"""))

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
    page.reload()  # the links stay: "Your games", kept by this browser
    page.wait_for_selector(f"#your-games li[data-game='{reply['id']}'] a.seat-link")
    kept = page.locator(f"#your-games li[data-game='{reply['id']}']")
    assert [a.get_attribute("href") for a in kept.locator("a.seat-link").all()] == [
        seat["link"] for seat in reply["seats"] if seat["human"]
    ]
    assert kept.locator("button.copy").count() == 4  # three seats and the spectators' link
    row = page.locator(f"#games tr[data-game='{reply['id']}']")
    assert row.locator("a.watch-link").get_attribute("href") == reply["spectator"]
    options = page.locator("#seats .seat-row select").first.locator("option").all_inner_texts()
    assert not [o for o in options if "v1" in o] and any(o.startswith("level 5") for o in options)
    context.close()
    return reply


def expected_frame(frame: dict[str, Any], states: list[tm.GameState], record: tm.GameRecord,
                   seat: int | None) -> dict[str, Any]:  # fmt: skip
    """What the server may send ``seat`` at the frame's decision: built from its views only."""
    state = states[frame["decision"]]
    looker = 0 if seat is None else seat
    view = state.view(looker)
    players = record.players
    events = []
    for event in frame["events"]:
        number = event["decision"]
        if number == 0:
            lines = opening_lines(states[0].view(looker), players)
        else:
            lines = decision_lines(states[number - 1].view(looker), record.moves[number - 1],
                                   states[number].view(looker), players,
                                   private=seat is not None)  # fmt: skip
        events.append({**event, "lines": lines})
    legal = list(state.legal_moves()) if seat is not None and state.current_player == seat else []
    expected = {**frame, "view": seat_document(view) if seat is not None else public_document(view),
                "legal": [str(m) for m in legal], "labels": move_labels(view, legal),
                "shown": board_state(view), "events": events,
                "table": table_data(view, seat)}  # fmt: skip
    if frame["full"]:
        expected["board"] = live_board(states[0].view(0))
    return expected


def message_sizes(person: Person) -> list[int]:
    return [len(text.encode()) for text in person.frames if '"type":"state"' in text]


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
        if message["type"] == "log":  # the whole log a page asks for: the seat's views only
            number = message["decision"]
            views = [state.view(seat) for state in states[: number + 1]]
            assert message["events"] == whole_log(views, record.moves[:number], record.players,
                                                  private=True)  # fmt: skip
            continue
        if message["type"] == "rematch":  # the end page asks whether there is one: none yet
            assert message == {"type": "rematch", "link": None}
            continue
        if message["type"] != "state":
            assert message["type"] in ("ack", "error", "hint")
            continue
        assert message["seat"] == seat
        assert message == expected_frame(message, states, record, seat)
        state = states[message["decision"]]
        other = with_hidden_changes(state, seat, rng)  # the other hands and the deck re-dealt
        if other is not None:
            view = other.view(seat)
            assert seat_document(view) == message["view"]
            assert board_state(view) == message["shown"]
            assert table_data(view, seat) == message["table"]
            if message["full"]:
                start = with_hidden_changes(states[0], seat, rng) or states[0]
                assert live_board(start.view(seat)) == message["board"]
            if state.current_player == seat:
                legal = other.legal_moves()
                assert [str(m) for m in legal] == message["legal"]
                assert move_labels(view, legal) == message["labels"]
        checked += 1
    assert len(person.bodies) >= 3  # the page, its script and its style at least
    for url, body in person.bodies:
        if not url.startswith((server_url + "/record/", server_url + "/replay/",
                               server_url + "/analysis/")):  # game over
            assert seed.encode() not in body, url
    return checked


_ID_STYLE = re.compile(r"[a-z]_[a-z]|\b(red|yellow|green|violet|white|special):")


def check_the_turn(page: Page, width: int) -> None:
    """What a person sees on their turn: the withdraw line, human labels, lit cities that
    are big enough to tap."""
    labels = page.locator("#moves button .label").all_inner_texts()
    assert labels and not [text for text in labels if _ID_STYLE.search(text)], labels
    for text in page.locator("#hand .card, #events li, #table-panel").all_inner_texts():
        assert not _ID_STYLE.search(text), text
    hand = page.evaluate("[...document.querySelectorAll('#hand .card')]"
                         ".map(card => [card.dataset.card, card.textContent])")  # fmt: skip
    assert [name for _, name in hand] == [card_name(tm.Card.parse(text)) for text, _ in hand]
    if page.locator("#moves button[data-move=withdraw]").count():
        assert page.inner_text("#withdraw-line").startswith("Withdrawing now ")
        mine = page.locator("#table-panel .withdraw.mine")
        assert mine.count() == 1 and "If you withdraw now" in mine.inner_text()
    cities = page.locator("#board g.city.playable")
    if cities.count():
        marker = cities.first.locator("circle, polygon").first
        stroke = marker.evaluate("node => getComputedStyle(node).stroke")
        assert stroke == "rgb(0, 200, 224)", stroke  # the highlight: a colour no seat uses
        rings = page.locator("#marks .legal-ring")
        assert rings.count() == cities.count()  # drawn above the palaces, one per legal city
        hit = page.locator("#hits .hit.playable").first.bounding_box()
        assert hit is not None and hit["width"] >= 40 and hit["height"] >= 40, (width, hit)
    scores = page.locator("#scores tr").all_inner_texts()
    assert scores[0].startswith("■\tseat 1 ") or "seat 1 " in scores[0], scores


def screenshot(page: Page, name: str, full: bool = False) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(IMAGES / name), full_page=full)


def test_three_people_and_a_bot_play_a_whole_game_by_clicking(
    browser: Browser, server: Server
) -> None:
    created = create_in_lobby(browser, server, 1440, "web-lobby-1440.png")
    people = [Person(browser, server, created["seats"][n]["link"], height=900) for n in range(3)]
    rng = random.Random(1)
    start = time.monotonic()
    clicks = 0
    reconnected = watched = palace_shot = game_shot = False
    while True:
        statuses = [person.status() for person in people]
        if all(over for _, _, over in statuses):
            break
        for number, (turn, _, over) in enumerate(statuses):
            if turn and not over:
                page = people[number].page
                palace = page.locator("#moves .group[data-group=palace]").count() > 0
                if clicks % 4 == 0 or palace:
                    check_the_turn(page, 1440)
                if palace and not palace_shot:
                    palace_shot = True
                    screenshot(page, "web-palace-1440.png")
                if not game_shot and clicks >= 8 and page.locator(".seat-box .chip").count() > 3:
                    line = page.locator("#withdraw-line").inner_text()
                    game_shot = bool(line) and "wins nothing" not in line
                    if game_shot:  # a turn with the table and what withdrawing now wins
                        screenshot(page, "web-game-1440.png", full=True)
                people[number].click_a_move(rng)
                clicks += 1
        if clicks == 25 and not reconnected:  # a tab closed mid-game and opened again
            reconnected = True
            person = people[1]
            before = person.hand_at_decision()  # read together: a frame may come between
            person.page.close()
            person.page = person.open(server.url + created["seats"][1]["link"])
            after = person.hand_at_decision()
            if after[1] == before[1]:
                assert after == before
            assert "Bo" in person.page.inner_text("#scores tr[data-seat='1']")
        if clicks >= 30 and not watched:  # the spectator's table: public facts only
            watched = True
            watcher = Person(browser, server, created["spectator"])
            panel = watcher.page.locator("#table-panel .seat-box")
            assert panel.count() == 4 and watcher.page.locator(".withdraw.mine").count() == 0
            assert watcher.page.locator("#actions").is_hidden()
            watcher_frames = list(watcher.frames)
            watcher.close()
    print(f"{clicks} moves clicked in {time.monotonic() - start:.0f} s")
    assert sum(person.taps_again for person in people) <= 2  # a rare reconnect, not a habit
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
        sizes = message_sizes(person)
        assert sum(sizes) / len(sizes) <= 8000, (seat, sum(sizes) / len(sizes))
    states = list(tm.Game.from_record(record).states)
    for text in watcher_frames:
        message = json.loads(text)
        if message["type"] == "state":
            assert message == expected_frame(message, states, record, None)
    page = people[0].page
    box = page.locator("#result").bounding_box()
    assert box is not None and box["y"] < 900  # the result above the fold
    assert page.locator("#final-scores li").first.inner_text().count("=") == 1  # the breakdown
    for row, parts in zip(score_breakdown(record), breakdown_data(score_breakdown(record))["parts"],
                          strict=True):  # fmt: skip
        item = page.locator(f"#final-scores li[data-seat='{row.seat}']").inner_text()
        said = f": {row.total}" + (f" = {parts}" if parts != "0" else "")
        assert item.endswith(said), item  # the terminal's words
    screenshot(page, "web-end-1440.png")
    rule = page.locator("#events a.rule").first  # rule codes link to the how-to-play page
    assert (rule.get_attribute("href") or "").startswith("/how-to-play#")
    code = rule.inner_text().split("-")[0]
    assert (rule.get_attribute("title") or "").startswith(code + ": ")
    with page.expect_download() as download:
        page.click("#link-download")
    assert tm.loads(Path(download.value.path()).read_text(encoding="utf-8")) == record
    page.click("#link-replay")
    page.wait_for_selector("#step")
    assert page.inner_text("#scores").split() != []
    for person in people:
        person.close()


def test_a_phone_sized_page_plays_a_whole_game_with_hints(browser: Browser, server: Server) -> None:
    if SCREENSHOTS:
        create_in_lobby(browser, server, 390, "web-lobby-390.png")
    created = server.create([{"human": True, "name": "Ann"}, "random", "greedy"], hints=True)
    person = Person(browser, server, created["seats"][0]["link"], width=390, height=844)
    page = person.page
    rng = random.Random(2)
    turns = palaces = hinted = 0
    while True:
        page.wait_for_selector("body[data-turn=yes], body[data-over=yes]")
        if person.status()[2]:
            break
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sideways
        palace = page.locator("#moves .group[data-group=palace]").count() > 0
        if turns % 3 == 0 or palace:
            check_the_turn(page, 390)
        if palace:
            palaces += 1
            if palaces == 1:
                page.evaluate("window.scrollTo(0, 0)")
                screenshot(page, "web-palace-390.png")
        if turns >= 2 and not hinted and not palace:  # the moves in reach, the board in sight
            assert page.evaluate("getComputedStyle(document.getElementById('actions')).position"
                                 ) == "fixed"  # fmt: skip
            page.evaluate("window.scrollTo(0, 0)")
            board = page.locator("#board").bounding_box()
            moves = page.locator("#moves button").first.bounding_box()
            assert board is not None and moves is not None
            assert board["y"] + board["height"] / 2 < 844 and moves["y"] < 844
            page.wait_for_selector("#hint-text:has-text('Hint:')")  # hints come by themselves
            assert page.locator("#moves button.hinted").count() == 1
            hinted += 1
            screenshot(page, "web-game-390.png")
            page.keyboard.press("?")
            assert page.locator("dialog#keys").is_visible()
            page.keyboard.press("Escape")
            page.evaluate("window.scrollTo(0, 0)")
            page.locator("#board g.bonus:visible").first.click(force=True)  # a tile explained
            note = page.inner_text("#board-note")
            assert re.search(r"\(K\d", note), note
            page.click("#zoom-in")  # pan and zoom: the board zooms in, and back
            zoomed = page.evaluate("document.querySelector('#board svg').getAttribute('viewBox')")
            page.click("#zoom-fit")
            assert zoomed != page.evaluate(
                "document.querySelector('#board svg').getAttribute('viewBox')")
        person.click_a_move(rng)
        turns += 1
    assert hinted and palaces, (hinted, palaces)
    assert person.taps_again <= 2, f"{person.taps_again} taps did nothing"  # a rare reconnect
    box = page.locator("#result").bounding_box()
    assert box is not None and box["y"] < 844  # the result above the fold
    screenshot(page, "web-end-390.png")
    sizes = message_sizes(person)
    assert sum(sizes) / len(sizes) <= 8000, sum(sizes) / len(sizes)
    # the analyse --html page: the board and the loss strip (the analysis takes up to 60 s
    # of the server's time, longer on a busy machine: the click waits for the page)
    page.click("#link-analysis", timeout=300_000)
    page.wait_for_selector("#strip .mark", timeout=300_000)
    row = page.locator("#strip .strip-row").first
    assert row.locator(".strip-name").inner_text().startswith("seat 1 (Ann): ")  # from 1
    said = int(row.locator(".strip-name").inner_text().split(": ")[1].split(" ")[0])
    assert said == row.locator(".mark.mistake").count()  # the counts agree
    screenshot(page, "web-analysis-390.png")
    if SCREENSHOTS:
        wide = browser.new_page(viewport={"width": 1440, "height": 900})
        wide.goto(page.url)
        wide.wait_for_selector("#strip .mark")
        screenshot(wide, "web-analysis-1440.png")
        wide.close()
    person.close()


def test_a_lost_connection_turns_the_moves_off_and_says_so(
    browser: Browser, tmp_path: Path
) -> None:
    own = Server(tmp_path / "games.sqlite3")
    try:
        long = "Annabelle-Maximiliane von Hohenzollerns"  # 40 characters, the most
        created = own.create([{"human": True, "name": long}, "random", "random"])
        person = Person(browser, own, created["seats"][0]["link"], width=390, height=844)
        page = person.page
        page.wait_for_selector("body[data-turn=yes] #moves button:enabled")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no overprint
        rules = person.context.new_page()
        rules.goto(own.url + "/how-to-play#W4")
        rules.wait_for_selector("#W4")
        assert rules.inner_text("#W4") == "W4 A tie wins nothing."
        rules.close()
        own.stop()
        page.wait_for_selector("body[data-connected=no]")
        assert "connection lost" in page.inner_text("#connection")
        assert page.locator("#moves button:enabled, #hand button:enabled").count() == 0
        person.close()
    finally:
        own.stop()
