"""``tajmahal serve`` end to end over real HTTP and WebSocket: the lobby, bad input, restarts.

One real server (a subprocess on a free port, SQLite in a temporary folder)
for the session; the restart tests start and kill their own.
"""

from __future__ import annotations

import json
import shlex
import signal
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tajmahal as tm
from web_server import Client, Server, token_of

HUMAN = {"human": True, "name": "Ann"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "games.sqlite3", "--time-limit", "5")
    yield running
    running.stop()


def state_now(server: Server, token: str) -> dict[str, object]:
    """The seat's state as a fresh connection gets it."""
    client = server.client(token)
    try:
        return client.until(lambda m: m["type"] == "state")
    finally:
        client.close()


# ---------------------------------------------------------------------------- the lobby


def test_the_lobby_creates_a_game_with_one_link_per_person(server: Server) -> None:
    created = server.create([HUMAN, "greedy", {"human": True, "name": "Bo"}, "random"])
    links = [seat["link"] for seat in created["seats"]]
    assert links[1] is None and links[3] is None
    assert links[0].startswith("/play/") and links[2].startswith("/play/")
    assert len({token_of(links[0]), token_of(links[2]), token_of(created["spectator"])}) == 3
    assert len(token_of(links[0])) >= 22  # 128 bits, URL-safe base64
    status, headers, page = server.request(links[0])
    assert status == 200 and b'id="board"' in page
    assert headers["referrer-policy"] == "no-referrer"
    listed = json.loads(server.request("/api/games")[2])["games"]
    mine = next(g for g in listed if g["id"] == created["id"])
    assert mine["players"] == ["Ann", "greedy", "Bo", "random"] and mine["humans"] == [0, 2]
    assert mine["watch"] == created["spectator"]  # public: any lobby offers to watch
    text = json.dumps(listed)
    assert token_of(links[0]) not in text and token_of(links[2]) not in text
    assert "seed" not in text


def test_the_lobby_lists_only_a_well_formed_watch_link() -> None:
    from tajmahal.web.server import _listed
    from tajmahal.web.stores import StoredGame

    seats = {"seats": [{"human": True, "name": "Ann"}] + [{"human": False, "name": "random"}] * 2}
    games = [StoredGame(str(n), {**seats, "watch": watch}, 1, 0.0)
             for n, watch in enumerate(["/watch/" + "a" * 22, "javascript:alert(1)",
                                        "/watch/../api", 5, None])]  # fmt: skip
    listed = _listed(games)
    assert [g["watch"] for g in listed] == ["/watch/" + "a" * 22, None, None, None, None]
    assert _listed([StoredGame("x", seats, 1, 0.0)])[0]["watch"] is None  # an older game


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"seats": ["random"] * 2}, "3 to 5 seats"),
        ({"seats": ["random"] * 6}, "3 to 5 seats"),
        ({"seats": ["random", "random", "nosuchbot"]}, "nosuchbot"),
        ({"seats": ["random", "random", "cmd:python3 bot.py"]}, "does not run programs"),
        ({"seats": ["random"] * 3, "time_limit": -1}, "time_limit"),
        ({"seats": ["random"] * 3, "hints": "yes"}, "'hints' must be true or false"),
        ({"seats": [HUMAN, {"human": True, "name": "x" * 41}, "random"]}, "at most 40"),
        ({"seats": ["random"] * 3, "seed": 5}, "unknown setting 'seed'"),
        ([1, 2, 3], "JSON object"),
    ],
)
def test_bad_game_settings_are_refused_with_a_clear_message(
    server: Server, settings: object, message: str
) -> None:
    status, _, body = server.request("/api/games", settings)
    assert status == 400 and message in json.loads(body)["error"]


def test_a_body_that_is_not_json_or_too_large_is_refused(server: Server) -> None:
    status, _, body = server.request("/api/games", raw=b"{not json")
    assert status == 400 and json.loads(body)["error"] == "the body is not JSON"
    status, _, body = server.request("/api/games", raw=b" " * 100_000)
    assert status == 413 and "at most" in json.loads(body)["error"]


def test_unknown_links_open_nothing(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"])
    spectator = created["spectator"]
    for path in ("/play/not-a-real-token-at-all", "/watch/not-a-real-token-at-all",
                 "/play/" + token_of(spectator),  # the spectator link is no seat
                 "/watch/" + token_of(created["seats"][0]["link"])):  # fmt: skip
        assert server.request(path)[0] == 404
    status, _, body = server.request("/record/not-a-real-token-at-all")
    assert status == 404
    status, _, body = server.request("/record/" + token_of(spectator))
    assert status == 409 and "once the game is over" in json.loads(body)["error"]
    client = Client(server, "not-a-real-token-at-all")
    assert client.next()["message"] == "no game has this link"
    client.close()


# ---------------------------------------------------------------------------- playing


def test_a_person_plays_a_whole_game_against_bots_to_the_recorded_result(server: Server) -> None:
    created = server.create([HUMAN, "greedy", "random"])
    token = token_of(created["seats"][0]["link"])
    client = server.client(token)
    state = client.my_turn()
    while not state["over"]:
        state = client.move(choose=len(state["legal"]) // 2)
        state = client.my_turn()
    client.close()
    status, _, body = server.request("/record/" + token)
    assert status == 200
    record = tm.loads(body.decode())
    assert record.players == ("Ann", "greedy", "random")
    assert tm.replay(record).scores == tuple(state["result"]["scores"])
    assert state["view"]["scores"] == state["result"]["scores"]
    status, _, page = server.request("/replay/" + token)
    assert status == 200 and page.startswith(b"<!DOCTYPE html>")
    seed = str(record.seed).encode()
    assert all(seed not in text.encode() for text in client.received)


def test_the_spectator_sees_public_facts_only(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"])
    watcher = server.client(token_of(created["spectator"]))
    state = watcher.until(lambda m: m["type"] == "state")
    assert "hand" not in state["view"] and state["seat"] is None and state["legal"] == []
    watcher.send({"type": "move", "decision": state["decision"] + 1, "move": "withdraw"})
    assert watcher.until(lambda m: m["type"] == "error")["message"] == "a spectator only watches"
    watcher.close()


def test_a_delayed_spectator_sees_the_table_as_this_visit_began(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"], spectator_delay=True)
    token = token_of(created["seats"][0]["link"])
    client = server.client(token)
    state = client.my_turn()
    while state["view"]["visit"] < 2 or state["events"][-1]["lines"][0].startswith("Visit"):
        state = client.move()
        state = client.my_turn()
    client.close()
    watched = state_now(server, token_of(created["spectator"]))
    assert watched["delayed"] and watched["decision"] < state["decision"]
    assert watched["view"]["visit"] == state["view"]["visit"]
    assert watched["view"]["table"] == [[]] * 3  # nobody has played a card this visit yet
    assert all(event["decision"] <= watched["decision"] for event in watched["events"])


def test_undo_takes_back_the_persons_last_move_and_the_bots_after_it(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"])
    token = token_of(created["seats"][0]["link"])
    client = server.client(token)
    first = client.my_turn()
    assert not first["undo"]  # nothing of theirs to take back
    client.move()
    state = client.my_turn()
    assert state["undo"]
    client.send({"type": "undo", "decision": state["decision"] + 1})
    again = client.until(lambda m: m["type"] == "state" and m["decision"] == first["decision"])
    assert again["view"] == first["view"] and again["legal"] == first["legal"]
    client.close()
    assert state_now(server, token)["decision"] == first["decision"]


def test_undo_is_refused_when_another_person_plays(server: Server) -> None:
    created = server.create([HUMAN, {"human": True, "name": "Bo"}, "random"])
    token = token_of(created["seats"][0]["link"])
    client = server.client(token)
    state = client.move()
    assert not state["undo"]
    client.send({"type": "undo", "decision": state["decision"] + 1})
    assert "every other seat is a bot" in client.until(lambda m: m["type"] == "error")["message"]
    client.close()


# ---------------------------------------------------------------------------- hostile clients


@pytest.fixture
def two_people(server: Server) -> Iterator[tuple[Client, Client, str]]:
    created = server.create([HUMAN, {"human": True, "name": "Bo"}, "random"])
    tokens = [token_of(created["seats"][n]["link"]) for n in (0, 1)]
    first, second = server.client(tokens[0]), server.client(tokens[1])
    first.my_turn()
    second.until(lambda m: m["type"] == "state")
    yield first, second, tokens[0]
    first.close()
    second.close()


def error_for(client: Client, message: dict[str, object] | str) -> str:
    if isinstance(message, str):
        client.socket.send(message)
    else:
        client.send(message)
    reply = client.until(lambda m: m["type"] == "error")
    text: str = reply["message"]
    return text


def test_hostile_messages_get_an_error_and_change_nothing(
    server: Server, two_people: tuple[Client, Client, str]
) -> None:
    first, second, token = two_people
    assert first.state is not None
    before = first.state
    decision, legal = before["decision"] + 1, before["legal"]
    # another seat's token in a message (seat 1 claims to be seat 0)
    forged = {"type": "move", "token": token, "decision": decision, "move": legal[0]}
    assert "not this connection's link" in error_for(second, forged | {"token": first.token})
    second.socket.send(json.dumps(forged))
    assert "not this connection's link" in second.until(lambda m: m["type"] == "error")["message"]
    # out of turn: seat 1 moves on seat 0's turn with its own token
    assert error_for(second, {"type": "move", "decision": decision, "move": "withdraw"}) == (
        "it is not your turn"
    )
    # illegal, malformed, unknown, stale
    assert "is not a legal move" in error_for(first, {"type": "move", "decision": decision,
                                                      "move": "palace agra"})  # fmt: skip
    assert "not a legal move" in error_for(first, {"type": "move", "decision": decision,
                                                   "move": "dance"})  # fmt: skip
    assert "legal moves" in error_for(first, {"type": "move", "decision": decision, "move": 7})
    assert "decision 99" in error_for(first, {"type": "move", "decision": 99, "move": legal[0]})
    assert "a JSON object" in error_for(first, "{{{")
    assert "a JSON object" in error_for(first, "[1, 2]")
    assert "unknown message type" in error_for(first, {"type": "cheat"})
    assert "at most 4096 bytes" in error_for(first, "x" * 1_000_000)  # 1 MB
    assert "token" in error_for(first, {"type": "move", "decision": decision, "token": None})
    assert state_now(server, token)["view"] == before["view"]
    # the move itself still works, once; its replay is refused
    message = {"type": "move", "decision": decision, "move": legal[0]}
    first.send(message)
    first.until(lambda m: m["type"] == "ack")
    assert "repeated or stale" in error_for(first, message)


def test_a_message_over_a_megabyte_closes_only_that_connection(
    server: Server, two_people: tuple[Client, Client, str]
) -> None:
    first, _, token = two_people
    # the server closes it (1009); on a busy machine the close can come while the client is
    # still sending, and the send fails before a close frame could be read
    with pytest.raises(Exception, match=r"1009|too big|message|no close frame"):
        first.socket.send("x" * (2**20 + 10))
        first.until(lambda m: False, timeout=30)
    assert state_now(server, token)["decision"] == 0  # the game and the server go on


def test_a_flood_of_a_thousand_messages_a_second_is_refused(
    server: Server, two_people: tuple[Client, Client, str]
) -> None:
    first, second, token = two_people
    assert first.state is not None
    decision = first.state["decision"] + 1
    flood = json.dumps({"type": "move", "token": first.token, "decision": decision,
                        "move": "palace agra"})  # fmt: skip
    start = time.monotonic()
    for _ in range(1000):
        first.socket.send(flood)
    sent_in = time.monotonic() - start
    errors = []
    while True:
        try:
            message = first.next(timeout=5)
        except TimeoutError:
            break
        if message["type"] == "error":
            errors.append(message["message"])
    assert any("too many messages" in e for e in errors), (errors[:3], sent_in)
    assert len(errors) < 1000  # dropped, not each answered
    state = state_now(server, token)
    assert state["decision"] == decision - 1  # nothing changed
    # the other person's connection was never slowed into failure
    second.send({"type": "state"})
    assert second.until(lambda m: m["type"] == "state")["decision"] == decision - 1
    assert any("too many messages" in line for line in server.lines)


def test_connections_per_link_are_limited(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"])
    token = token_of(created["seats"][0]["link"])
    open_ones = [server.client(token) for _ in range(4)]
    for client in open_ones:
        client.until(lambda m: m["type"] == "state")
    extra = server.client(token)
    assert extra.next()["message"] == "this link is open in too many places"
    for client in [*open_ones, extra]:
        client.close()


# ---------------------------------------------------------------------------- restarts


def play_moves(client: Client, count: int) -> dict[str, object]:
    state = client.my_turn()
    for _ in range(count):
        if state["over"]:
            break
        client.move(choose=len(state["legal"]) - 1)
        state = client.my_turn()
    return state


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_server_resumes_every_game_where_it_stood(tmp_path: Path, how: int) -> None:
    server = Server(tmp_path / "games.sqlite3", "--time-limit", "5")
    try:
        created = server.create([HUMAN, "greedy", "random", "random"])
        token = token_of(created["seats"][0]["link"])
        bots_only = server.create(["greedy", "random", "random"])
        client = server.client(token)
        before = play_moves(client, 12)
        client.close()
        print(f"before the kill: decision {before['decision']}, scores {before['view']['scores']}")
        status = server.stop(how)
        print(f"server stopped by {signal.Signals(how).name}: exit status {status}")
        server.start()
        print(f"server started again on port {server.port}")
        again = server.client(token)
        resumed = again.until(lambda m: m["type"] == "state")
        print(f"after the restart: decision {resumed['decision']}, "
              f"scores {resumed['view']['scores']}")  # fmt: skip
        assert resumed["decision"] == before["decision"] and resumed["view"] == before["view"]
        assert resumed["legal"] == before["legal"]
        state = play_moves(again, 10_000)
        again.close()
        assert state["over"]
        record = tm.loads(server.request("/record/" + token)[2].decode())
        print(f"finished: {record!r}")
        assert tm.replay(record).scores == tuple(state["result"]["scores"])
        watcher = server.client(token_of(bots_only["spectator"]))
        finished = watcher.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
        watcher.close()
        bots_record = tm.loads(server.request("/record/" + token_of(bots_only["spectator"]))[2]
                               .decode())  # fmt: skip
        assert tm.replay(bots_record).scores == tuple(finished["result"]["scores"])
        assert any("resumed at decision" in line for line in server.lines)
    finally:
        server.stop()


def test_kill_9_loses_no_acknowledged_move_of_moves_arriving_together(tmp_path: Path) -> None:
    """Group commit: moves of several games arrive at once and share commits; each is
    acknowledged (before its state) only once durable, so ``kill -9`` right after the last
    acknowledgement loses none of them."""
    db = tmp_path / "games.sqlite3"
    server = Server(db, "--time-limit", "5")
    acked: list[tuple[str, int, str]] = []
    try:
        games = [server.create([HUMAN, "random", "random"]) for _ in range(6)]
        clients = [server.client(token_of(g["seats"][0]["link"])) for g in games]
        for _ in range(4):
            turns = [client.my_turn() for client in clients]
            sent = []
            for client, state in zip(clients, turns, strict=True):
                if state["over"]:
                    continue
                move = {"type": "move", "decision": state["decision"] + 1,
                        "move": state["legal"][-1]}  # fmt: skip
                client.state = None
                client.send(move)  # every game's move before any acknowledgement is read
                sent.append((client, move))
            for client, move in sent:
                number = move["decision"]
                reply = client.until(lambda m, number=number: m["type"] in ("ack", "error") or (
                    m["type"] == "state" and m["decision"] >= number))  # fmt: skip
                assert reply == {"type": "ack", "decision": move["decision"]}  # ack, then state
                game = next(g["id"] for g, c in zip(games, clients, strict=True) if c is client)
                acked.append((game, move["decision"], move["move"]))
        status = server.stop(signal.SIGKILL)  # at once, after the last acknowledgement
        assert status == -signal.SIGKILL
    finally:
        server.stop()
    with sqlite3.connect(db) as connection:
        stored = set(connection.execute("SELECT game_id, number, move FROM moves").fetchall())
    assert len(acked) >= 20
    assert [entry for entry in acked if entry not in stored] == []


# ---------------------------------------------------------------------------- hints, analysis


def test_a_hint_names_a_legal_move_with_its_reasons_when_the_game_allows(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"], hints=True)
    client = server.client(token_of(created["seats"][0]["link"]))
    state = client.my_turn()
    assert state["hints"] and state["table"]  # the table panel, from the seat's view
    client.send({"type": "hint", "decision": state["decision"] + 1})
    hint = client.until(lambda m: m["type"] == "hint")
    assert hint["move"] in state["legal"] and hint["reasons"][0]
    client.close()
    plain = server.create([HUMAN, "random", "random"])
    client = server.client(token_of(plain["seats"][0]["link"]))
    state = client.my_turn()
    assert not state["hints"]
    assert error_for(client, {"type": "hint", "decision": state["decision"] + 1}) == (
        "hints are off in this game"
    )
    client.close()


def test_the_analysis_page_rates_the_persons_decisions_once_the_game_is_over(
    server: Server,
) -> None:
    created = server.create([HUMAN, "greedy", "random"])
    token = token_of(created["seats"][0]["link"])
    assert server.request("/analysis/" + token)[0] == 409
    client = server.client(token)
    state = client.my_turn()
    while not state["over"]:
        client.move(choose=state["legal"].index("withdraw") if "withdraw" in state["legal"] else 0)
        state = client.my_turn()
    client.close()
    status, _, page = server.request("/analysis/" + token)
    assert status == 200 and b"Ann" in page
    assert b'id="strip"' in page and b'"analysis":{"seats"' in page  # the loss strip


# ---------------------------------------------------------------------------- bots


def bot_program(mode: str) -> str:
    program = Path(__file__).resolve().parent / "programs" / "hostile_bot.py"
    return f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(program))} {mode}"


def test_a_stuck_bot_delays_no_other_game_and_faults_are_recorded(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3", "--allow-commands")
    try:
        stuck = server.create([bot_program("hang"), "random", "random"], time_limit=120)
        crashing = server.create([bot_program("crash-mid"), "random", "random"], time_limit=10)
        playing = server.create([HUMAN, "random", "random"])
        watcher = server.client(token_of(stuck["spectator"]))
        movers: dict[int, int | None] = {}  # each decision's mover, as a page gathers them

        def stuck_now(message: dict[str, object]) -> bool:
            if message["type"] != "state":
                return False
            assert isinstance(message["events"], list)
            movers.update((event["decision"], event["seat"]) for event in message["events"])
            return message["turn"] == 0 and list(movers.values()).count(0) == 2

        waiting = watcher.until(stuck_now)  # the program hangs when asked for its third decision
        client = server.client(token_of(playing["seats"][0]["link"]))
        moved = play_moves(client, 10)  # while the stuck bot thinks (up to 120 s)
        client.close()
        assert moved["decision"] >= 10
        watcher.send({"type": "state"})
        now = watcher.until(lambda m: m["type"] == "state")
        assert now["decision"] == waiting["decision"] and now["turn"] == 0  # still thinking
        watcher.close()
        crashed = server.client(token_of(crashing["spectator"]))
        over = crashed.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
        crashed.close()
        assert any("crash" in fault for fault in over["result"]["faults"])
        record = tm.loads(server.request("/record/" + token_of(crashing["spectator"]))[2]
                          .decode())  # fmt: skip
        assert {fault.seat for fault in record.faults} == {0}
        assert record.faults[0].kind is tm.referee.FaultKind.CRASH
        assert tm.replay(record).scores == tuple(over["result"]["scores"])
    finally:
        server.stop()


def test_isolated_bots_play_in_processes_and_new_games_are_rate_limited(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3", "--isolate", "--games-per-minute", "3")
    try:
        created = server.create(["greedy", "random", "random"])
        watcher = server.client(token_of(created["spectator"]))
        over = watcher.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
        watcher.close()
        assert over["result"]["faults"] == []
        record = tm.loads(server.request("/record/" + token_of(created["spectator"]))[2]
                          .decode())  # fmt: skip
        assert tm.replay(record).scores == tuple(over["result"]["scores"])
        server.create([HUMAN, "random", "random"])
        server.create([HUMAN, "random", "random"])
        status, _, body = server.request("/api/games", {"seats": [HUMAN, "random", "random"]})
        assert status == 429 and "at most 3 new games a minute" in json.loads(body)["error"]
    finally:
        server.stop()


def test_a_damaged_game_in_the_database_does_not_stop_the_others(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        damaged = server.create([HUMAN, "random", "random"])
        healthy = server.create([HUMAN, "random", "random"])
        for created in (damaged, healthy):
            client = server.client(token_of(created["seats"][0]["link"]))
            client.move()
            client.close()
        server.stop()
        with sqlite3.connect(db) as connection:
            connection.execute("UPDATE moves SET move = 'palace atlantis' WHERE game_id = ?",
                               (damaged["id"],))  # fmt: skip
        server.start()
        state = state_now(server, token_of(healthy["seats"][0]["link"]))
        assert state["decision"] >= 1
        assert server.request(damaged["seats"][0]["link"])[0] == 404
        assert any(f"game {damaged['id']}: cannot be loaded" in line for line in server.lines)
    finally:
        server.stop()


def test_a_game_that_ended_as_the_server_stopped_gets_its_record_at_the_next_start(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        created = server.create(["greedy", "random", "random"])
        spectator = token_of(created["spectator"])
        watcher = server.client(spectator)
        watcher.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
        watcher.close()
        kept = tm.loads(server.request("/record/" + spectator)[2].decode())
        server.stop()
        with sqlite3.connect(db) as connection:  # the last move stored, the record not yet
            connection.execute("UPDATE games SET record = NULL WHERE id = ?", (created["id"],))
        server.start()
        status, _, body = server.request("/record/" + spectator)
        assert status == 200
        record = tm.loads(body.decode())
        assert isinstance(record, tm.GameRecord) and isinstance(kept, tm.GameRecord)
        assert record.moves == kept.moves and record.scores == kept.scores
        assert record.seed == kept.seed
    finally:
        server.stop()


def test_the_board_goes_once_per_connection_then_what_changed(server: Server) -> None:
    created = server.create([HUMAN, "random", "random"])
    client = server.client(token_of(created["seats"][0]["link"]))
    first = client.until(lambda m: m["type"] == "state")
    assert first["full"] and first["board"]["svg"].startswith("<svg")
    assert set(first["board"]["cities"]) >= {city for city, _, _ in first["shown"]["palaces"]}
    state = client.move()
    assert not state["full"] and "board" not in state and state["events"]
    assert all(e["decision"] > first["decision"] for e in state["events"])  # only the new ones
    assert len(client.received[-1].encode()) < len(client.received[0].encode()) / 4
    client.send({"type": "state"})  # asked for: the whole state again
    again = client.until(lambda m: m["type"] == "state")
    assert again["full"] and again["board"] == first["board"]
    client.close()
