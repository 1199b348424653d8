"""The arena's remote bot API on a real server: hostile and faulty bots, the Node.js example,
people challenging a bot, the pages (issue #48)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tajmahal.arena import ArenaStore
from web_server import Server

ROOT = Path(__file__).resolve().parent.parent
NODE_BOT = ROOT / "src" / "tajmahal" / "examples" / "arena_bot.js"
TIME_LIMIT = 3.0


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("arena")
    db = folder / "games.sqlite3"
    store = ArenaStore(db)
    tokens = {name: store.add_bot(name) or "" for name in ("raw", "other", "nodebot")}
    store.add_bot("house-a", house="random")
    store.add_bot("house-b", house="random")
    store.close()
    server = Server(db, "--arena", "--arena-games", "1", "--time-limit", str(TIME_LIMIT),
                    "--bot-workers", "1")  # fmt: skip
    yield server, tokens
    server.stop()
    lines = "\n".join(server.lines)
    assert "tmb_" not in lines  # no token, in any test's lines


def bot_socket(server: Server, token: str | None) -> ClientConnection:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    opened = connect(f"ws://127.0.0.1:{server.port}/api/arena/bot",
                     additional_headers=headers, open_timeout=60, max_size=2**22)
    return opened.__enter__()  # (closed by the server, or by the test's end)


def ready(socket: ClientConnection, games: int = 1) -> dict[str, Any]:
    socket.send(json.dumps({"type": "ready", "version": 1, "concurrency": 1, "games": games}))
    return receive(socket)


def receive(socket: ClientConnection, kind: str | None = None) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(socket.recv(60))
        if kind is None or message["type"] == kind:
            return message


def move(request: dict[str, Any], text: str, **more: Any) -> str:
    return json.dumps({"type": "move", "game": request["game"], "seat": request["seat"],
                       "decision": request["decision"], "move": text, **more})  # fmt: skip


def closed_code(socket: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            socket.recv(60)
    return closed.value.rcvd.code if closed.value.rcvd else None


def test_an_unknown_or_missing_token_is_refused(arena: tuple[Server, dict[str, str]]) -> None:
    server, tokens = arena
    for token in (None, "tmb_" + "A" * 43, tokens["raw"] + "x"):
        with bot_socket(server, token) as socket:
            message = receive(socket)
            assert message["type"] == "error" and "Authorization" in message["message"]
            assert closed_code(socket) == 4401
    evil = {"Origin": "http://evil.example", "Authorization": f"Bearer {tokens['raw']}"}
    with (  # a browser page of another site
        pytest.raises((InvalidStatus, ConnectionClosed)),
        connect(f"ws://127.0.0.1:{server.port}/api/arena/bot", open_timeout=60,
                additional_headers=evil) as socket,
    ):  # fmt: skip
        socket.recv(10)


def test_faulty_answers_are_recorded_faults_and_the_game_goes_on(
    arena: tuple[Server, dict[str, str]],
) -> None:
    server, tokens = arena
    socket = bot_socket(server, tokens["raw"])
    assert ready(socket)["type"] == "welcome"
    hello = receive(socket, "hello")
    request = receive(socket, "request")
    assert request["game"] == hello["game"] and request["seat"] == hello["seat"]
    assert request["view"]["seat"] == hello["seat"]  # only its own seat's view
    game = request["game"]
    with bot_socket(server, tokens["other"]) as other:  # another account: not its seat
        assert ready(other, 0)["type"] == "welcome"
        other.send(move(request, request["legal_moves"][0]))
        assert "not yours" in receive(other, "error")["message"]
    socket.send(move(request, "palace nowhere"))  # illegal: a fault, the game goes on
    request = receive(socket, "request")
    socket.send(move(request, request["legal_moves"][0], decision=request["decision"] + 7))
    request = receive(socket, "request")  # a wrong decision number: a protocol fault
    socket.send(json.dumps({"type": "error", "game": game, "message": "cannot choose"}))
    request = receive(socket, "request")  # the bot's own error: an exception fault
    socket.send("this is not JSON")  # the conversation is lost: closed, a protocol fault
    assert closed_code(socket) == 1008
    socket = bot_socket(server, tokens["raw"])
    assert ready(socket)["type"] == "welcome"
    request = receive(socket, "request")  # the game went on; it is asked again
    time.sleep(TIME_LIMIT + 1)  # too late: a timeout fault, and the stalled bot is closed
    assert closed_code(socket) == 1008
    socket = bot_socket(server, tokens["raw"])
    assert ready(socket)["type"] == "welcome"
    result = None
    while result is None:  # the rest of the game, played properly
        message = receive(socket)
        if message["type"] == "request":
            socket.send(move(message, message["legal_moves"][-1]))
        elif message["type"] == "result":
            result = message
    assert result["game"] == game and result["rated"] and result["rank"] == 3  # faulty: last
    for _ in range(300):  # a flood: dropped, then the connection is closed
        try:
            socket.send(json.dumps({"type": "noise"}))
        except ConnectionClosed:
            break
    assert closed_code(socket) == 1008
    watch = next(g.watch for g in ArenaStore(server.db).games() if g.game_id == game)
    status, _, body = server.request(f"/record/{watch}")
    assert status == 200
    seat = result["seat"]
    kinds = [f["kind"] for f in json.loads(body)["faults"] if f["seat"] == seat]
    assert kinds[:5] == ["illegal_move", "protocol", "exception", "protocol", "timeout"]
    lines = "\n".join(server.lines)
    assert "raw stalled" in lines and "flooded" in lines


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_node_example_plays_a_rated_game(arena: tuple[Server, dict[str, str]],
                                             tmp_path: Path) -> None:  # fmt: skip
    server, tokens = arena
    token_file = tmp_path / "node.token"
    token_file.write_text(tokens["nodebot"] + "\n")
    done = subprocess.run(["node", str(NODE_BOT), server.url, str(token_file), "2"],
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(2/2)" in done.stdout
    _, _, body = server.request("/api/arena/leaderboard")
    node = next(bot for bot in json.loads(body)["bots"] if bot["name"] == "nodebot")
    assert node["games"] == 2 and set(node) >= {"name", "mu", "sigma", "games"}


def test_a_person_challenges_a_bot_and_the_lobby_cannot_seat_one(
    arena: tuple[Server, dict[str, str]],
) -> None:
    server, _ = arena
    status, _, body = server.request("/api/arena/challenge", {"bot": "house-a", "name": "Ann"})
    assert status == 201, body
    created = json.loads(body)
    assert created["seats"][0]["human"] and created["seats"][0]["link"].startswith("/play/")
    assert server.request(created["seats"][0]["link"])[0] == 200
    status, _, body = server.request("/api/arena/challenge", {"bot": "raw"})  # not connected
    assert status == 429 and "not connected" in json.loads(body)["error"]
    status, _, body = server.request("/api/arena/challenge", {"bot": "nobody"})
    assert status == 400
    seats = [{"human": True, "name": "Ann"}, {"human": False, "remote": True, "name": "raw"},
             "random"]  # fmt: skip
    status, _, body = server.request("/api/games", {"seats": seats})
    assert status == 400 and "arena" in json.loads(body)["error"]
    status, _, _ = server.request("/api/arena/challenge", {"bot": "house-a"},
                                  headers={"Origin": "http://evil.example"})  # fmt: skip
    assert status == 403


def test_the_pages_show_the_table_and_a_bots_games(arena: tuple[Server, dict[str, str]]) -> None:
    server, _ = arena
    status, headers, body = server.request("/arena")
    page = body.decode()
    assert status == 200 and "Content-Security-Policy" in {k.title(): v for k, v in
                                                           headers.items()}  # fmt: skip
    for name in ("raw", "house-a", "nodebot"):
        assert f'href="/arena/bot/{name}"' in page
    status, _, body = server.request("/arena/bot/house-a")
    page = body.decode()
    assert status == 200 and "<svg" in page and "/replay/" in page and "/analysis/" in page
    assert server.request("/arena/bot/nobody")[0] == 404
    assert "tmb_" not in page


def test_a_person_goes_from_the_lobby_to_a_game_against_a_bot_in_a_browser(
    arena: tuple[Server, dict[str, str]], browser: Any,
) -> None:
    server, _ = arena
    page = browser.new_page()
    try:
        errors: list[str] = []  # responses that failed (a browser asks for /favicon.ico)
        page.on("response", lambda r: errors.append(r.url) if r.status >= 400
                and "favicon" not in r.url else None)  # fmt: skip
        page.goto(server.url + "/")
        page.get_by_role("link", name="The arena: challenge a bot").click()
        page.wait_for_url("**/arena")
        page.fill("#person", "Ann")
        page.locator('button[data-challenge="house-b"]').click()
        page.wait_for_url("**/play/**", timeout=60_000)
        assert "/play/" in page.url and not errors, errors
    finally:
        page.close()


def test_bot_connect_plays_a_program_in_any_language(
    arena: tuple[Server, dict[str, str]], tmp_path: Path
) -> None:
    server, tokens = arena
    token_file = tmp_path / "other.token"
    token_file.write_text(tokens["other"] + "\n")
    token_file.chmod(0o600)
    program = f"cmd:{sys.executable} -m tajmahal.examples.palace_lover"
    done = subprocess.run([sys.executable, "-m", "tajmahal", "bot", "connect", server.url,
                           program, "--token-file", str(token_file), "--games", "1"],
                          capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "played 1 games" in done.stdout and "rank" in done.stdout
    assert tokens["other"] not in done.stdout + done.stderr


def test_an_oversized_message_or_a_bad_ready_closes_the_connection(
    arena: tuple[Server, dict[str, str]],
) -> None:
    server, tokens = arena
    socket = bot_socket(server, tokens["other"])
    assert ready(socket, 0)["type"] == "welcome"
    socket.send(json.dumps({"type": "move", "padding": "x" * 70_000}))  # over 64 KiB
    assert closed_code(socket) == 1008
    socket = bot_socket(server, tokens["other"])
    socket.send(json.dumps({"type": "ready", "version": 2}))  # a version it does not speak
    message = receive(socket)
    assert message["type"] == "error" and "version 2" in message["message"]
    assert closed_code(socket) == 4400
    socket = bot_socket(server, tokens["other"])
    socket.send(json.dumps({"type": "ready", "version": 1, "concurrency": 1000}))
    assert "concurrency" in receive(socket)["message"]
    assert closed_code(socket) == 4400


def test_a_result_lost_with_a_connection_is_sent_again(
    arena: tuple[Server, dict[str, str]],
) -> None:
    server, tokens = arena
    (game,) = [g for g in ArenaStore(server.db).games_of("raw") if g.rated]
    socket = bot_socket(server, tokens["raw"])
    socket.send(json.dumps({"type": "ready", "version": 1, "games": 0,
                            "playing": [game.game_id, "not-a-game"]}))  # fmt: skip
    assert receive(socket)["type"] == "welcome"
    result = receive(socket, "result")
    assert result["game"] == game.game_id and result["rated"] and result["rank"] == 3
    assert result["seat"] == game.bots.index("raw")
    socket.close()
