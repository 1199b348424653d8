"""``tajmahal serve`` attacked as issue 34 attacked it: each test is one attack that must fail.

Real servers (subprocesses on free ports), real Chromium for the attacks that
are web pages, real sockets for the slow clients; loopback only, bounded in
count and time.
"""

from __future__ import annotations

import http.server
import json
import logging
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from web_server import Server, token_of

HUMAN = {"human": True, "name": "Ann"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("web-security")
    running = Server(folder / "games.sqlite3", "--allow-commands", "--log-level", "trace")
    yield running
    running.stop()


def games_named(server: Server, name: str) -> list[dict[str, Any]]:
    listed = json.loads(server.request("/api/games")[2])["games"]
    return [g for g in listed if any(name in player for player in g["players"])]


# ---------------------------------------------------------------------------- origins and hosts


class _AttackSite:
    """Another origin on this machine (another port): serves one page, the attack."""

    def __init__(self, page: str) -> None:
        body = page.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


ATTACK_PAGE = """<!DOCTYPE html><html><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="TARGET/api/games" enctype="text/plain" target="sink">
<input name='{"seats": SEATS, "x": "' value='"}'></form>
<script>
const results = {};
async function run() {
  const body = JSON.stringify({seats: SEATS});
  try {  // a "simple" request: no preflight, the answer unreadable, but the server acts
    const r = await fetch("TARGET/api/games", {method: "POST", mode: "no-cors", body,
                                                headers: {"Content-Type": "text/plain"}});
    results.plain = r.type;
  } catch (e) { results.plain = "failed"; }
  try {  // JSON needs a preflight the server does not answer
    const r = await fetch("TARGET/api/games", {method: "POST", body,
                                                headers: {"Content-Type": "application/json"}});
    results.json = r.status;
  } catch (e) { results.json = "failed"; }
  document.getElementById("form").submit();
  results.socket = await new Promise(done => {
    const ws = new WebSocket("WSTARGET");
    ws.onmessage = m => done("read: " + m.data.slice(0, 40));
    ws.onerror = () => done("refused");
    setTimeout(() => done("timeout"), 20000);
  });
  document.body.dataset.done = JSON.stringify(results);
}
run();
</script></body></html>"""


def test_a_page_of_another_origin_creates_no_game_runs_no_program_and_opens_no_socket(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    marker = tmp_path / "the-program-ran"
    program = f"cmd:{sys.executable} -c \"open('{marker}', 'w')\""
    seats = json.dumps([{"human": True, "name": "ATTACK"}, program, "random"])
    watched = server.create([HUMAN, "random", "random"])
    page_text = (
        ATTACK_PAGE.replace("SEATS", seats)
        .replace("WSTARGET", f"ws://127.0.0.1:{server.port}/ws/{token_of(watched['spectator'])}")
        .replace("TARGET", server.url)
    )
    site = _AttackSite(page_text)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(site.url)
        page.wait_for_selector("body[data-done]", timeout=60_000)
        results = json.loads(page.evaluate("document.body.dataset.done"))
        time.sleep(2)  # a program, had one been started, would have run by now
    finally:
        context.close()
        site.close()
    print("what the attack page saw:", results)
    assert games_named(server, "ATTACK") == []
    assert not marker.exists()
    assert results["json"] == "failed"  # no CORS: the browser never sends it
    assert results["socket"] == "refused"
    refusals = [line for line in server.lines if "guard: refused" in line]
    assert any("POST /api/games" in line and "another site" in line for line in refusals)
    assert any("WebSocket /ws/…" in line for line in refusals)


def test_the_lobby_page_itself_still_creates_games_in_chromium(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#seats .seat-row:nth-child(3)")
        page.locator("#seats .seat-row").nth(0).locator("input").fill("Lobbyist")
        page.click("#create")
        page.wait_for_selector("#created:not([hidden])")
    finally:
        context.close()
    assert len(games_named(server, "Lobbyist")) == 1


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:80", "10.0.0.7"])
def test_a_rebinding_host_name_is_refused(server: Server, host: str) -> None:
    created = server.create([HUMAN, "random", "random"])
    named = {"Host": host}
    for path in ("/", "/api/games", created["seats"][0]["link"], created["spectator"]):
        status, _, body = server.request(path, headers=named)
        assert status == 400 and b"host name" in body, path
    # the rebinding page is "same-origin" in the browser: its Origin matches its Host
    status, _, _ = server.request("/api/games", {"seats": ["random"] * 3},
                                  headers={**named, "Origin": f"http://{host}"})  # fmt: skip
    assert status == 400


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
        ({"Origin": "http://attacker.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Sec-Fetch-Site": "same-site"}, 403),
    ],
)
def test_a_state_changing_request_needs_json_from_the_same_origin(
    server: Server, headers: dict[str, str], status: int
) -> None:
    body = {"seats": [{"human": True, "name": "FORGED"}, "random", "random"]}
    assert server.request("/api/games", body, headers=headers)[0] == status
    assert games_named(server, "FORGED") == []
    same = {"Origin": server.url, "Sec-Fetch-Site": "same-origin"}
    assert server.request("/api/games", {"seats": ["random"] * 3}, headers=same)[0] == 201


# ---------------------------------------------------------------------------- logs


def test_no_seat_token_reaches_the_log_at_any_level(server: Server) -> None:
    from web_server import Client

    created = server.create([HUMAN, {"human": True, "name": "Bo"}, "random"], hints=True)
    tokens = [token_of(created["seats"][n]["link"]) for n in (0, 1)]
    tokens.append(token_of(created["spectator"]))
    for token in tokens:
        for path in ("/play/", "/watch/", "/record/", "/replay/", "/analysis/"):
            server.request(path + token)
        client = Client(server, token)
        client.until(lambda m: m["type"] == "state")
        client.send({"type": "state"})
        client.send({"type": "hint", "decision": 1})
        client.socket.send("{not json")
        client.until(lambda m: m["type"] == "error")
        client.close()
    server.request("/ws/" + tokens[0])  # a plain GET of the WebSocket path
    server.request("/play/" + tokens[0] + "?x=1", headers={"Host": "attacker.example"})
    time.sleep(1)
    text = "\n".join(server.lines)
    assert "WebSocket /ws/…" in text  # uvicorn's own line is there, redacted
    for token in tokens:
        assert token not in text
        assert token[:12] not in text


def test_a_flood_of_one_kind_of_line_is_cut_to_a_few_lines_a_second() -> None:
    from tajmahal.web.guard import LogGuard, redact

    logger = logging.getLogger("tajmahal.test.flood")
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep()
    logger.addHandler(handler)
    logger.addFilter(LogGuard(rate=5, burst=50))
    logger.propagate = False
    try:
        for _ in range(100_000):
            logger.error("socket.accept() out of system resource: %s", "Too many open files")
        logger.info("a request for %s", "/play/SECRETTOKEN123456")
        time.sleep(0.5)
        logger.error("socket.accept() out of system resource: %s", "Too many open files")
    finally:
        logger.removeHandler(handler)
    assert len(seen) < 100
    assert "similar lines dropped" in seen[-1]
    assert "SECRETTOKEN" not in "\n".join(seen)
    assert redact('"GET /record/abc-DEF_123 HTTP/1.1"') == '"GET /record/… HTTP/1.1"'


def test_serve_leaves_the_root_logger_alone(tmp_path: Path) -> None:
    script = f"""
import logging, os, signal, sys, threading, time
import tajmahal.web as web
def stop():
    time.sleep(8)
    root = logging.getLogger()
    print("root handlers:", len(root.handlers), "level:", root.level, flush=True)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=stop, daemon=True).start()
web.serve(port=0, db={str(tmp_path / 'g.sqlite3')!r}, announce=False)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert f"root handlers: 0 level: {logging.WARNING}" in done.stdout, done.stdout + done.stderr
