"""The game page's table in Debian's Chromium, one behaviour a test (issue 49).

One server and the session's browser for the module; each test opens its own game.  What
each test holds: one gesture, one meaning (a card tap only selects); what happened since
your move, in sight; the log by visit, kept across reloads; the keyboard and screen
readers; words instead of internal names; the phone board; your turn and the dark scheme.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import tajmahal as tm
from tajmahal.web.seat_messages import whole_log
from web_server import Server, token_of

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SCREENSHOTS = bool(os.environ.get("TAJMAHAL_REFRESH_SCREENSHOTS")
                   or os.environ.get("TAJMAHAL_DOCS_SCREENSHOTS"))  # as test_web_browser.py
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SEAT_COLORS = ("rgb(209, 73, 91)", "rgb(46, 134, 171)", "rgb(58, 157, 35)", "rgb(240, 162, 2)",
               "rgb(123, 79, 160)")  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-table") / "games.sqlite3")
    yield running
    running.stop()


def screenshot(page: Page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(IMAGES / name))


def open_seat(browser: Browser, server: Server, link: str, size: dict[str, int],
              **options: Any) -> Page:  # fmt: skip
    page = browser.new_context(viewport=size, **options).new_page()  # type: ignore[arg-type]
    page.goto(server.url + link)
    page.wait_for_selector("body:not([data-decision='-1'])")
    return page


def decision(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.decision"))


def my_turn(page: Page) -> bool:
    """Wait for this seat's turn or the end; True on a turn."""
    page.wait_for_selector("body[data-turn=yes] #moves button:enabled, body[data-over=yes]",
                           timeout=120_000)  # fmt: skip
    return page.evaluate("document.body.dataset.over") != "yes"


def play(page: Page, move: str) -> None:
    """Play ``move`` (its text) by its button: against bots one tap plays it, with people a
    second tap (or the confirm button)."""
    before = decision(page)
    button = page.locator(f'#moves button[data-move="{move}"]')
    button.click()
    if page.locator("#confirm:not([hidden])").count():
        button.click()  # the second tap on the chosen move plays it
    page.wait_for_selector(f"body:not([data-decision='{before}'])")


def moves(page: Page) -> list[str]:
    return [b.get_attribute("data-move") or "" for b in page.locator("#moves button").all()]


def quick_move(page: Page) -> None:
    """Withdraw where one may, else the first move (a palace, a card to take): short games."""
    legal = moves(page)
    play(page, "withdraw" if "withdraw" in legal else legal[0])


def winning_move(page: Page) -> None:
    """Cards first (two plays a visit, to win a majority now and then), then withdraw."""
    legal = moves(page)
    plays = [m for m in legal if m.startswith("play ")]
    played = page.locator("#table-panel .seat-box[data-seat='0'] .chip").count()
    if plays and played < 2:
        play(page, plays[0])
    else:
        quick_move(page)


def uses(card: str, legal: list[str]) -> list[str]:
    return [move for move in legal if card in move.split(" ")[1:]]


def test_a_card_tap_only_selects_says_why_not_and_a_second_tap_plays(
    browser: Browser, server: Server
) -> None:
    created = server.create([{"human": True, "name": "Ann"}, "random", "random"])
    page = open_seat(browser, server, created["seats"][0]["link"], DESKTOP)
    seen = {"unplayable": 0, "lit move": 0, "second tap": 0}
    while my_turn(page) and min(seen.values()) < 1:
        legal = moves(page)
        hand = [c.get_attribute("data-card") or "" for c in page.locator("#hand .card").all()]
        now = decision(page)
        unplayable = [k for k, card in enumerate(hand) if not uses(card, legal)]
        if unplayable and not seen["unplayable"]:
            card = page.locator("#hand .card").nth(unplayable[0])
            card.click()
            note = page.inner_text("#card-note")
            assert "selected" not in (card.get_attribute("class") or "")
            assert card.inner_text() in note and len(note) > len(card.inner_text()) + 10, note
            assert decision(page) == now and page.locator("#moves button:enabled").count()
            seen["unplayable"] += 1
        playable = [k for k, card in enumerate(hand) if uses(card, legal)]
        if not playable:
            quick_move(page)
            continue
        k = playable[decision(page) % len(playable)]
        card = page.locator("#hand .card").nth(k)
        card.click()  # selects: nothing is sent (a move disables every button at once)
        assert "selected" in (card.get_attribute("class") or "")
        assert page.locator("#moves button:enabled").count() == len(legal) and decision(page) == now
        lit = [b.get_attribute("data-move") for b in page.locator("#moves button.lit").all()]
        assert sorted(lit) == sorted(uses(hand[k], legal))  # type: ignore[type-var]
        if len(lit) == 1:
            card.click()  # the second tap on a card of one move plays it
            seen["second tap"] += 1
        else:
            card.click()  # ... on a card of several moves says so and plays nothing
            assert "moves" in page.inner_text("#card-note") and decision(page) == now
            page.locator("#moves button.lit").first.click()
            seen["lit move"] += 1
        page.wait_for_selector(f"body:not([data-decision='{now}'])")
    assert min(seen.values()) >= 1, seen
    page.context.close()


def test_with_people_a_move_tap_selects_and_the_second_tap_plays(
    browser: Browser, server: Server
) -> None:
    created = server.create([{"human": True, "name": "Ann"}, {"human": True, "name": "Bo"},
                             "random"])  # fmt: skip
    page = open_seat(browser, server, created["seats"][0]["link"], PHONE)
    assert my_turn(page)
    now = decision(page)
    withdraw = page.locator("#moves button[data-move=withdraw]")
    withdraw.click()
    assert page.locator("#confirm:not([hidden])").count() == 1 and decision(page) == now
    assert "chosen" in (withdraw.get_attribute("class") or "")
    withdraw.click()
    page.wait_for_selector(f"body:not([data-decision='{now}'])")
    page.context.close()


def test_what_happened_since_your_move_is_in_sight_and_kept_across_reloads(
    browser: Browser, server: Server
) -> None:
    created = server.create([{"human": True, "name": "Ann"}, "greedy", "greedy"])
    link = created["seats"][0]["link"]
    for size in (PHONE, DESKTOP):
        page = open_seat(browser, server, link, size)
        found = False
        while my_turn(page):
            rings = page.locator("#marks .changed-ring-group")
            since = page.inner_text("#since")
            if rings.count() and "palace" in since:
                found = True
                break
            quick_move(page)
        assert found, "no palace of another seat between two of this seat's moves"
        assert since.startswith("Since your move: ") and "greedy" in since, since
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"web-since-{size['width']}.png")
        box = page.locator("#since").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]
        city = rings.first.get_attribute("data-city")
        assert page.locator(f'#palaces g.piece[data-city="{city}"]').count() == 1
        names = page.evaluate("[...document.querySelectorAll('#board svg > *')].map(n => n.id)")
        assert names.index("marks") > names.index("palaces")  # rings above the palaces
        page.reload()  # the rings and the line stay until this seat's next move
        page.wait_for_selector("body[data-turn=yes] #moves button:enabled")
        page.wait_for_function("document.querySelector('#since').innerText.includes('palace')")
        assert page.inner_text("#since") == since
        assert page.locator(f'#marks .changed-ring-group[data-city="{city}"]').count() == 1
        quick_move(page)
        page.context.close()
    page = open_seat(browser, server, link, PHONE)
    while my_turn(page) and decision(page) <= 60:
        quick_move(page)
    page.reload()  # past the 40 decisions a state message repeats: the log asks for the rest
    page.wait_for_selector("#events details.visit[data-visit='1'] li", state="attached")
    visits = page.locator("#events details.visit")
    assert visits.count() >= 2 and not visits.first.evaluate("node => node.open")
    assert visits.last.evaluate("node => node.open")
    assert page.inner_text("#events details.visit[data-visit='1'] summary").startswith("Visit 1")
    visits.first.locator("summary").click()  # collapsible: opened on a tap
    assert visits.first.evaluate("node => node.open")
    page.context.close()


def test_the_log_message_is_every_decision_as_the_seat_knows_it(server: Server) -> None:
    created = server.create([{"human": True, "name": "Ann"}, "random", "ismcts:level=1"])
    client = server.client(token_of(created["seats"][0]["link"]))
    for _ in range(6):
        client.move(-1)
    state = client.my_turn()
    client.send({"type": "log"})
    reply = client.until(lambda m: m["type"] == "log")
    assert [e["decision"] for e in reply["events"]] == list(range(reply["decision"] + 1))
    assert reply["decision"] >= state["decision"]
    assert "ismcts" not in json.dumps(reply) and "level 1" in json.dumps(reply)
    while not client.my_turn()["over"]:  # the record, once over, gives the game's states
        client.move(-1)
    client.close()
    link = "/record/" + token_of(created["seats"][0]["link"])
    record = tm.loads(server.request(link)[2].decode())
    states = tm.Game.from_record(record).states
    number = reply["decision"]
    expected = whole_log([s.view(0) for s in states[: number + 1]], record.moves[:number],
                         ["Ann", "random", "level 1"], private=True)  # fmt: skip
    assert reply["events"] == expected
    watcher = server.client(token_of(created["spectator"]))  # public facts only, all of them
    watcher.send({"type": "log"})
    whole = watcher.until(lambda m: m["type"] == "log")
    watcher.close()
    assert whole["decision"] == len(record.moves)
    assert whole["events"] == whole_log([s.view(0) for s in states], record.moves,
                                        ["Ann", "random", "level 1"], private=False)  # fmt: skip


def test_every_move_from_the_keyboard_and_the_board_in_words(
    browser: Browser, server: Server
) -> None:
    created = server.create([{"human": True, "name": "Ann"}, "random", "ismcts:level=1"])
    page = open_seat(browser, server, created["seats"][0]["link"], DESKTOP)
    assert my_turn(page)
    assert "Your turn" in page.inner_text("#announce")  # the live region says it
    page.keyboard.press("Tab")  # the first stop: straight to the moves
    assert page.evaluate("document.activeElement.id") == "skip-moves"
    page.keyboard.press("1")  # a card: its moves lit, the first of them focused
    focused = page.evaluate("document.activeElement.closest('#moves') !== null")
    assert focused
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    lit = page.evaluate("getComputedStyle(document.querySelector('#moves button.lit'))"
                        ".boxShadow")  # fmt: skip
    assert ring == "rgb(11, 87, 208)" and "rgb(11, 87, 208)" not in lit, (ring, lit)
    now = decision(page)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # against bots a move plays at once (undo takes it back)
    page.wait_for_selector(f"body:not([data-decision='{now}'])")
    turns = 0
    while my_turn(page) and turns < 6:  # the next turns by the keyboard alone
        now = decision(page)
        page.keyboard.press("m")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"body:not([data-decision='{now}'])")
        turns += 1
    assert turns == 6
    words = page.locator("#board-words li")
    assert words.count() == 12 and "(visited now)" in (words.first.text_content() or "")
    palaces = page.locator("#palaces polygon.palace, #palaces polygon.crown-palace").count()
    page.click("#board-text summary")  # the board in words, opened
    assert page.inner_text("#board-words").count("palace of seat") == palaces
    scores = page.inner_text("#scores")
    assert "\u25a0" not in scores and "red" in scores and "blue" in scores
    assert "level 1" in scores and "ismcts" not in page.inner_text("body")
    page.context.close()


def test_the_phone_board_zooms_to_the_choice_with_readable_markers_and_the_table_in_view(
    browser: Browser, server: Server
) -> None:
    created = server.create([{"human": True, "name": "Ann"}, "greedy", "greedy"])
    page = open_seat(browser, server, created["seats"][0]["link"], PHONE)
    whole = None
    checked = False
    while my_turn(page):
        box = page.evaluate("document.querySelector('#board svg').getAttribute('viewBox')")
        view = [float(n) for n in re.split(r"[ ,]+", box)]
        if whole is None and not any(m.startswith(("palace ", "crown ")) for m in moves(page)):
            whole = view
            radius = page.locator("#board g.city circle").first.bounding_box()
            assert radius is not None and radius["width"] >= 12, radius  # readable at the whole
            page.evaluate("document.getElementById('table-panel').scrollIntoView()")
            table = page.locator("#table-panel").bounding_box()
            bar = page.locator("#actions").bounding_box()
            assert table is not None and bar is not None
            assert table["y"] + 40 <= bar["y"], (table, bar)  # the table above the bar
            assert bar["y"] + bar["height"] <= PHONE["height"] + 1
        cities = [m.split(" ")[1] for m in moves(page) if m.startswith(("palace ", "crown "))]
        if cities and whole is not None and not checked:
            assert view[2] < whole[2]  # zoomed in, by itself
            spots = page.evaluate("cities => cities.map(id => [...document.querySelectorAll("
                                  "'#hits .hit')].find(h => h.dataset.city === id))"
                                  ".map(h => [+h.getAttribute('cx'), +h.getAttribute('cy')])",
                                  cities)  # fmt: skip
            for x, y in spots:  # every legal city in sight
                assert view[0] <= x <= view[0] + view[2] and view[1] <= y <= view[1] + view[3]
            stroke = page.locator("#marks .legal-ring").first.evaluate(
                "node => getComputedStyle(node).stroke")
            assert stroke not in SEAT_COLORS
            page.evaluate("window.scrollTo(0, 0)")
            page.locator(f'#hits .hit[data-city="{cities[0]}"]').click(force=True)
            checked = True
            continue
        winning_move(page)
    assert checked and whole is not None
    page.context.close()


def test_your_turn_the_title_the_alerts_and_the_dark_scheme(
    browser: Browser, server: Server
) -> None:
    created = server.create([{"human": True, "name": "Ann"}, "random", "random"])
    page = open_seat(browser, server, created["seats"][0]["link"], PHONE, color_scheme="dark")
    assert page.evaluate("document.documentElement.dataset.scheme") == "dark"  # the system's
    assert my_turn(page) and page.title().startswith("(your turn)")
    page.check("#sound")
    page.check("#notify")
    page.click("#scheme")  # the toggle, remembered by the browser
    assert page.evaluate("document.documentElement.dataset.scheme") == "light"
    page.reload()
    page.wait_for_selector("body:not([data-decision='-1'])")
    assert page.evaluate("document.documentElement.dataset.scheme") == "light"
    assert page.is_checked("#sound") and page.is_checked("#notify")
    page.click("#scheme")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(30, 26, 22)", background
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "web-dark-390.png")
    if SCREENSHOTS:
        wide = open_seat(browser, server, created["seats"][0]["link"], DESKTOP,
                         color_scheme="dark")  # fmt: skip
        wide.wait_for_selector("body[data-turn=yes]")
        screenshot(wide, "web-dark-1280.png")
        wide.context.close()
    page.context.close()


def test_words_everywhere_the_lobby_result_and_analysis_on_a_phone(
    browser: Browser, server: Server
) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat-row:nth-child(3)")
    rows = page.locator("#seats .seat-row")
    rows.nth(0).locator("select").select_option("person")
    rows.nth(0).locator("input").fill("Annabelle-Maximiliane")
    rows.nth(1).locator("select").select_option("ismcts:level=1")
    rows.nth(2).locator("select").select_option("random")
    page.uncheck("#hints")
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as created:  # fmt: skip
        page.click("#create")
    reply = created.value.json()
    page.reload()  # "Your games" and the server's games listed: the lobby still fits
    page.wait_for_selector(f"#your-games li[data-game='{reply['id']}'] a.seat-link")
    page.wait_for_selector(f"#games tr[data-game='{reply['id']}']")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert "level 1" in page.inner_text("#your-games") and "ismcts" not in page.inner_text("main")
    client = server.client(token_of(reply["seats"][0]["link"]))
    while not client.my_turn()["over"]:
        client.move(0)  # every card played first: with none left, withdrawing is forced
    client.close()
    page.goto(server.url + reply["seats"][0]["link"])
    page.wait_for_selector("#result h2")
    result = page.inner_text("#result")
    assert "level 1" in result and "ismcts" not in page.inner_text("body"), result
    page.click("#link-analysis", timeout=300_000)  # the analysis may take a minute
    page.wait_for_selector("#strip .mark", timeout=300_000)
    name = page.inner_text("#strip .strip-name")
    assert re.search(r"lost \d+\.\d\d expected wins$", name), name
    assert "ismcts" not in page.inner_text("body")
    bar = page.locator("#strip .mark").first.bounding_box()
    assert bar is not None and bar["width"] >= 8, bar  # readable on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    record = tm.loads(server.request("/record/" + token_of(reply["seats"][0]["link"]))[2].decode())
    states = tm.Game.from_record(record).states
    only = sum(1 for state in states[:-1]
               if state.current_player == 0 and len(state.legal_moves()) == 1)  # fmt: skip
    forced = page.locator("#strip .mark.forced")
    assert forced.count() == only, only
    title = forced.first.get_attribute("title") or ""  # a forced move says so, never "(0%)"
    assert "forced" in title and "%" not in title, title
    forced.first.click()
    assert "forced" in page.inner_text("#review") and "(0%)" not in page.inner_text("#review")
    page.goto(server.url + "/replay/" + token_of(reply["seats"][0]["link"]))
    page.wait_for_selector("#step")
    assert "level 1" in page.inner_text("body") and "ismcts" not in page.inner_text("body")
    page.context.close()


def play_out(server: Server, links: list[str]) -> None:
    """The people at ``links`` withdraw (or take the last move) until the game is over."""
    clients = [server.client(token_of(link)) for link in links]
    over = False
    while not over:
        for client in clients:
            try:
                message = client.next(0.3)
            except TimeoutError:
                continue
            if message["type"] == "state" and message["over"]:
                over = True
            elif message["type"] == "state" and message["legal"]:
                client.send({"type": "move", "decision": message["decision"] + 1,
                             "move": message["legal"][-1]})  # fmt: skip
    for client in clients:
        client.close()


def test_rematch_one_button_the_seats_rotated_each_person_their_own_link(
    browser: Browser, server: Server
) -> None:
    created = server.create([{"human": True, "name": "Ann"}, {"human": True, "name": "Bo"},
                             "random"])  # fmt: skip
    links = [created["seats"][0]["link"], created["seats"][1]["link"]]
    play_out(server, links)
    ann, bo = (open_seat(browser, server, link, size)
               for link, size in zip(links, (PHONE, DESKTOP), strict=True))  # fmt: skip
    for page in (ann, bo):
        page.wait_for_selector("#rematch-button")
    ann.click("#rematch-button")
    ann.wait_for_selector("#rematch a.rematch-link")
    bo.wait_for_selector("#rematch a.rematch-link")  # told by the server, its own link
    screenshot(ann, "web-rematch-390.png")
    screenshot(bo, "web-rematch-1280.png")
    mine = [page.get_attribute("#rematch a.rematch-link", "href") or "" for page in (ann, bo)]
    assert mine[0] != mine[1] and all(link.startswith("/play/") for link in mine)
    assert token_of(links[0]) not in mine[0] and token_of(links[1]) not in mine[1]
    reply = bo.evaluate("JSON.parse(localStorage.getItem('tajmahal.games'))")[0]
    assert reply["players"] == ["Bo", "random", "Ann"] and reply["seats"][0]["link"] == mine[1]
    lobby = bo.context.new_page()  # the lobby's "Your games" learns it
    lobby.goto(server.url + "/")
    lobby.wait_for_selector(f"#your-games li[data-game='{reply['id']}'] a.seat-link")
    lobby.close()
    for page, link, seat in ((ann, mine[0], 2), (bo, mine[1], 0)):  # the seats rotated
        page.goto(server.url + link)
        page.wait_for_selector("body:not([data-decision='-1'])")
        assert page.inner_text(f"#scores tr[data-seat='{seat}'] td.name").endswith("(you)")
    server.stop()  # a restart keeps it: the same link, never a second game
    server.start()
    bo.goto(server.url + links[1])
    bo.wait_for_selector("#rematch a.rematch-link")
    assert bo.get_attribute("#rematch a.rematch-link", "href") == mine[1]
    again = server.client(token_of(links[0]))
    again.send({"type": "rematch", "create": True})
    answer = again.until(lambda m: m["type"] == "rematch")
    again.close()
    assert answer["link"] == mine[0] and answer["game"] == reply["id"]
    watcher = server.client(token_of(created["spectator"]))
    watcher.send({"type": "rematch", "create": True})
    assert "spectator" in watcher.until(lambda m: m["type"] == "error")["message"]
    watcher.close()
    for page in (ann, bo):
        page.context.close()


def test_a_clock_set_in_the_lobby_runs_out_and_the_server_plays_the_move(
    browser: Browser, server: Server
) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat-row:nth-child(3)")
    rows = page.locator("#seats .seat-row")
    rows.nth(0).locator("select").select_option("person")
    rows.nth(0).locator("input").fill("Ann")
    page.select_option("#clock-kind", "move")
    page.fill("#clock-minutes", "0.1")  # 6 seconds a decision
    page.select_option("#clock-zero", "withdraw")
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as created:  # fmt: skip
        page.click("#create")
    reply = created.value.json()
    page.goto(server.url + reply["seats"][0]["link"])
    page.wait_for_selector("body[data-turn=yes] #scores td.clock.running")
    screenshot(page, "web-clock-390.png")
    if SCREENSHOTS:
        wide = open_seat(browser, server, reply["seats"][0]["link"], DESKTOP)
        wide.wait_for_selector("body[data-turn=yes] #scores td.clock.running")
        screenshot(wide, "web-clock-1280.png")
        wide.context.close()
    left = float(page.get_attribute("#scores td.clock.running", "data-left") or 99)
    assert 0 < left <= 6 and re.fullmatch(r"0:0\d", page.inner_text("#scores td.clock.running"))
    now = decision(page)
    page.wait_for_selector(f"body:not([data-decision='{now}'])", timeout=60_000)  # no tap
    page.wait_for_selector("#events li:has-text('Ann) withdraws')", state="attached")
    page.context.close()


def test_a_bank_clock_counts_the_time_taken_and_a_restart_gives_none_back(
    server: Server,
) -> None:
    clock = {"kind": "bank", "seconds": 600, "increment": 2, "at_zero": "autopilot"}
    created = server.create([{"human": True, "name": "Ann"}, "random", "random"], clock=clock)
    link = created["seats"][0]["link"]
    client = server.client(token_of(link))
    first = client.my_turn()
    assert first["clocks"][0]["running"] and first["clocks"][1] is None
    assert 598 <= first["clocks"][0]["left"] <= 600
    after = client.move(-1)
    state = client.my_turn() if not after["over"] else after
    client.close()
    mine = state["clocks"][0]["left"]
    assert mine <= 602  # the increment once, less the time taken
    server.stop()
    server.start()
    again = server.client(token_of(link))
    told = again.my_turn()
    again.close()
    assert 0 < told["clocks"][0]["left"] <= mine + 0.01  # the time taken stays taken
    refused = server.request("/api/games", {"seats": [{"human": True, "name": "A"}, "random",
                                            "random"], "clock": {"kind": "move", "seconds": 1}})
    assert refused[0] == 400 and b"5 to" in refused[2]
