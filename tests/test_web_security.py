"""``tajmahal serve`` attacked as issue 34 attacked it: each test is one attack that must fail.

Real servers (subprocesses on free ports), real Chromium for the attacks that
are web pages, real sockets for the slow clients; loopback only, bounded in
count and time.
"""

from __future__ import annotations

import http.server
import json
import logging
import os
import shlex
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

import tajmahal as tm
from web_server import Client, Server, token_of

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


def test_a_name_given_with_allowed_host_is_answered(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3", "--allowed-host", "Table.LAN",
                    "--allowed-host", "192.168.1.20")  # fmt: skip
    try:
        told = "answering to the host names localhost, 127.0.0.1, [::1], table.lan, 192.168.1.20"
        deadline = time.monotonic() + 30  # printed just after the address
        while not any(told in line for line in server.lines):
            assert time.monotonic() < deadline, server.lines
            time.sleep(0.1)
        for host in ("table.lan", f"192.168.1.20:{server.port}"):
            assert server.request("/", headers={"Host": host})[0] == 200
            status, _, _ = server.request(
                "/api/games", {"seats": ["random"] * 3},
                headers={"Host": host, "Origin": f"http://{host}"},
            )  # fmt: skip
            assert status == 201
        assert server.request("/", headers={"Host": "other.lan"})[0] == 400
    finally:
        server.stop()


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


# ---------------------------------------------------------------------------- stored games


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder outside /tmp (a sandbox's /tmp is its own) that any user may write: a bot
    program runs under a user id of its own when the server runs as root."""
    folder = Path(tempfile.mkdtemp(dir="/var/tmp" if os.path.isdir("/var/tmp") else None))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def hostile_program(mode: str, pids: Path) -> str:
    program = Path(__file__).resolve().parent / "programs" / "hostile_bot.py"
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(program))} {mode} {pids}"


def test_a_stored_program_is_not_started_by_a_server_without_allow_commands(
    tmp_path: Path, open_folder: Path
) -> None:
    started = open_folder / "started"  # the program writes its pid here when it starts
    db = tmp_path / "games.sqlite3"
    server = Server(db, "--allow-commands")
    try:
        created = server.create([hostile_program("hang", started), "random", "random"])
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert started.exists()
        server.stop()
        started.unlink()
        server.options = ()
        server.start()
        client = Client(server, token_of(created["spectator"]))
        told = client.until(lambda m: m["type"] == "error")["message"]
        client.close()
        assert "cannot go on on this server" in told and "--allow-commands" in told
        time.sleep(3)  # a program, had one been started, would have written its pid
        assert not started.exists()
        listed = json.loads(server.request("/api/games")[2])["games"]
        assert "allow-commands" in next(g for g in listed if g["id"] == created["id"])["waiting"]
        assert any(f"game {created['id']}: waits" in line for line in server.lines)
    finally:
        server.stop()


def test_damaged_rows_are_reported_and_skipped_and_the_server_starts(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        games = [server.create([HUMAN, "random", "random"]) for _ in range(3)]
        server.stop()
        with sqlite3.connect(db) as connection:
            for game, config in zip(games, ["{not json", "[" * 100_000 + "]" * 100_000],
                                    strict=False):  # fmt: skip
                connection.execute("UPDATE games SET config = ? WHERE id = ?",
                                   (config, game["id"]))  # fmt: skip
        server.start()
        assert server.request(games[2]["seats"][0]["link"])[0] == 200
        for game in games[:2]:
            assert server.request(game["seats"][0]["link"])[0] == 404
            assert any(f"game {game['id']}: cannot be loaded" in line for line in server.lines)
        status, _, body = server.request("/api/games")
        assert status == 200
        assert [g["id"] for g in json.loads(body)["games"]] == [games[2]["id"]]
    finally:
        server.stop()


# ---------------------------------------------------------------------------- lobby limits


@pytest.mark.parametrize(
    ("seat", "options", "reason"),
    [
        ("ismcts:iterations=0", {}, "iterations must be"),
        ("ismcts:level=9", {}, "level must be"),
        ("ismcts:jobs=0", {}, "jobs must be"),
        ("ismcts:time_limit=0", {}, "time_limit must be"),
        ("ismcts:c=-1", {}, "c must be"),
        ("ismcts:iterations=10000000", {}, "at most 10000 iterations"),
        ("ismcts:inner=16,inner_seats=all", {}, "got 70800 (counting what extend, depth and"),
        ("ismcts:iterations=2000,depth=6", {}, "at most 10000 iterations per decision, got 12000"),
        ("ismcts:level=4,extend=10", {}, "got 27879"),
        ("ismcts:extend=1e308,depth=99999,inner=99999", {}, "counting what extend, depth and"),
        ("ismcts:extend=inf", {}, "option 'extend' takes float"),
        ("ismcts:time_limit=3000", {}, "'time_limit' is at most 120"),
        ("ismcts:jobs=4", {}, "starts search processes"),
        ("random", {"time_limit": 3000}, "'time_limit' is at most 120"),
        ("random", {"game_time": 86400}, "'game_time' is at most 3600"),
    ],
)
def test_a_bot_the_server_would_not_run_is_refused_before_its_game_exists(
    server: Server, seat: str, options: dict[str, object], reason: str
) -> None:
    name = f"WEDGE-{abs(hash((seat, str(options)))) % 10**8}"
    status, _, body = server.request(
        "/api/games", {"seats": [{"human": True, "name": name}, seat, "random"], **options}
    )
    assert status == 400 and reason in json.loads(body)["error"], body
    assert games_named(server, name) == []


def test_the_strongest_level_and_the_default_search_are_within_the_servers_limits(
    server: Server,
) -> None:
    """Level 5 counts 9200 iterations (its inner search, at 5 seats): a lobby may seat it."""
    name = "LEVELS-ALLOWED"
    seats = [{"human": True, "name": name}, "ismcts:level=5", "ismcts:inner=2"]
    status, _, body = server.request("/api/games", {"seats": seats})
    assert status == 201, body
    assert len(games_named(server, name)) == 1


def test_the_lobby_shows_the_servers_limits(browser: Browser, server: Server) -> None:
    caps = json.loads(server.request("/api/limits")[2])
    assert caps["iterations"] == 10_000 and caps["search_processes"] is False
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector("#limits:has-text('10000')")
        assert "no search processes" in page.inner_text("#limits")
    finally:
        context.close()


SLEEPY = """import time


class SleepyBot:
    name = "sleepy"

    def __init__(self, seed=0):
        self.seed = seed

    def choose(self, view, legal_moves):
        time.sleep(60)  # far past its time: the call is abandoned, and runs on
        return legal_moves[0]
"""


def test_games_of_stuck_bots_leave_other_games_their_bots(tmp_path: Path) -> None:
    sleepy = tmp_path / "sleepy.py"
    sleepy.write_text(SLEEPY)
    server = Server(tmp_path / "games.sqlite3", "--allow-commands")
    try:
        # six games of three stuck bots: 18 abandoned calls, more than the 16 a process allows
        for _ in range(6):
            server.create([f"file:{sleepy}"] * 3, time_limit=0.2)
        time.sleep(5)  # each game's bots are asked and abandoned (at most two per game)
        created = server.create(["random", "random", "random"], time_limit=5)
        watcher = server.client(token_of(created["spectator"]))
        over = watcher.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
        watcher.close()
        assert over["result"]["faults"] == []  # not "not started: 16 abandoned bot calls"
    finally:
        server.stop()


# ---------------------------------------------------------------------------- memory, expiry


def test_idle_games_expire_finished_games_leave_memory_and_addresses_have_a_quota(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "games.sqlite3", "--idle-expiry", "3", "--log-level", "debug",
                    "--open-games-per-client", "2")  # fmt: skip
    try:
        idle = server.create([HUMAN, "random", "random"])
        second = server.create([HUMAN, "random", "random"])
        status, _, body = server.request("/api/games", {"seats": [HUMAN, "random", "random"]})
        assert status == 429 and "unfinished games" in json.loads(body)["error"]
        deadline = time.monotonic() + 120
        for game in (idle, second):  # (on a busy machine, perhaps in two sweeps)
            while server.request(game["seats"][0]["link"])[0] != 404:
                assert time.monotonic() < deadline, "the idle game never expired"
                time.sleep(0.5)
            assert any(f"game {game['id']}: expired" in line for line in server.lines)
        assert server.create([HUMAN, "random", "random"])  # room again
        finished = server.create(["random", "random", "random"])
        deadline = time.monotonic() + 300  # a whole game of bots, on a busy machine
        while not any(f"game {finished['id']}: over, left memory" in line
                      for line in server.lines):  # fmt: skip
            assert time.monotonic() < deadline, "the finished game stayed in memory"
            time.sleep(0.5)
        status, _, record = server.request("/record/" + token_of(finished["spectator"]))
        assert status == 200 and b"tajmahal/record" in record  # read again from the database
    finally:
        server.stop()


# ---------------------------------------------------------------------------- expensive pages


def test_six_requests_for_one_analysis_run_one_analysis(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"])
    token = token_of(created["seats"][0]["link"])
    client = server.client(token)
    state = client.my_turn()
    while not state["over"]:  # withdrawing first: a short game
        client.move(choose=state["legal"].index("withdraw") if "withdraw" in state["legal"] else 0)
        state = client.my_turn()
    client.close()
    answers: list[int] = []

    def ask(path: str) -> None:
        answers.append(server.request(path)[0])

    paths = ["/analysis/" + token, f"/analysis/{token}/marks"]  # the page, its strip's search
    askers = [threading.Thread(target=ask, args=(paths[k % 2],)) for k in range(12)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join(300)
    assert answers == [200] * 12
    for kind in ("analysis", "analysis-page"):
        ran = [line for line in server.lines
               if f"computing {kind} of game {created['id']}" in line]  # fmt: skip
        assert len(ran) == 1, ran


# ---------------------------------------------------------------------------- connections


def still_open(connection: socket.socket) -> bool:
    connection.settimeout(0)
    try:
        return connection.recv(1) != b""
    except BlockingIOError:  # nothing to read yet: open
        return True
    except OSError:  # reset
        return False


def test_a_thousand_half_sent_requests_lock_nobody_out(tmp_path: Path) -> None:
    import resource

    server = Server(tmp_path / "games.sqlite3")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1100 + 200
    if soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))
    count = min(1100, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 200)
    held: list[socket.socket] = []
    lines_before = len(server.lines)
    try:
        start = time.monotonic()
        for _ in range(count):  # from another loopback address: the attacker
            attacker = socket.socket()
            attacker.settimeout(5)
            try:
                attacker.bind(("127.0.0.2", 0))
                attacker.connect(("127.0.0.1", server.port))
                attacker.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            except OSError:
                attacker.close()
                continue
            held.append(attacker)
        print(f"{count} half-sent requests in {time.monotonic() - start:.1f} s")
        status, _, body = server.request("/")  # someone else, meanwhile
        assert status == 200 and b"lobby" in body
        open_ones = sum(1 for attacker in held if still_open(attacker))
        print(f"{open_ones} of them held by the server")
        assert open_ones <= 100  # the server keeps at most its cap per address...
        deadline = time.monotonic() + 60  # ...and closes those after its header timeout
        for attacker in held:
            attacker.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                attacker.recv(1)
            except TimeoutError:
                pytest.fail("a half-sent request was held past the header timeout")
            except OSError:  # reset: closed
                pass
        assert time.monotonic() < deadline
        assert len(server.lines) - lines_before < 100  # no storm of error lines
    finally:
        for attacker in held:
            attacker.close()
        server.stop()


def test_a_request_body_sent_slowly_is_answered_408(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as slow:
        slow.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"seats\"")
        answer = slow.recv(200)  # within the server's 10 s (the socket waits up to 60)
    assert answer.startswith(b"HTTP/1.1 408"), answer


# ---------------------------------------------------------------------------- the database


def test_the_database_is_private_to_its_owner(tmp_path: Path) -> None:
    db = tmp_path / "new-folder" / "games.sqlite3"
    server = Server(db)
    try:
        server.create([HUMAN, "random", "random"])
        assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
        for path in (db, db.with_name(db.name + "-wal")):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    finally:
        server.stop()
    db.chmod(0o644)  # a file from an older version: made private at the next start
    server.start()
    server.stop()
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


PEEK = """import os, sys
fd = os.open({db!r}, os.O_RDONLY)
sys.exit("DB-READ " + str(len(os.read(fd, 100))))
"""


def test_a_sandboxed_bot_program_cannot_read_the_database(open_folder: Path) -> None:
    from tajmahal.protocol import SandboxError, check_sandbox

    try:
        check_sandbox()
    except SandboxError as exc:
        pytest.fail(f"bubblewrap cannot run here ('make test' installs it): {exc}")
    db = open_folder / "db" / "games.sqlite3"
    (open_folder / "peek.py").write_text(PEEK.format(db=str(db)))
    (open_folder / "peek.py").chmod(0o644)
    server = Server(db, "--allow-commands", "--sandbox")
    try:
        created = server.create([f"cmd:python3 {open_folder / 'peek.py'}", "random", "random"])
        watcher = server.client(token_of(created["spectator"]))
        over = watcher.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
        watcher.close()
        assert over["result"]["faults"]
        record = tm.loads(server.request("/record/" + token_of(created["spectator"]))[2].decode())
        assert isinstance(record, tm.GameRecord)
        faults = "\n".join(fault.detail for fault in record.faults)
        print(faults[:500])
        assert "DB-READ" not in faults
        assert "Error" in faults  # the program ran, and failed to open the file
    finally:
        server.stop()
