"""The server's order of work: a person's move is stored and acknowledged ahead of the state
messages and the bots' turns (they wait in the event loop's backlog); a page's state
messages are coalesced, never losing an event; a page that does not read delays nobody."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from web_server import Client, Server, token_of

HUMAN = {"human": True, "name": "Ann"}
BOTS = ["random", "random", "random"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web") / "games.sqlite3", "--time-limit", "5")
    yield running
    running.stop()


def messages(client: Client) -> list[dict[str, Any]]:
    return [json.loads(text) for text in client.received]


def events_told(states: list[dict[str, Any]]) -> list[int]:
    """The decisions whose events the page has, as it applies each state message in turn."""
    told: list[int] = []
    for state in states:
        if state["full"]:
            told = []
        told = [d for d in told if d < min((e["decision"] for e in state["events"]),
                                           default=told[-1] + 1 if told else 0)]  # fmt: skip
        told += [e["decision"] for e in state["events"]]
    return told


def watch_to_the_end(client: Client) -> list[dict[str, Any]]:
    client.until(lambda m: m["type"] == "state" and m["over"], timeout=300)
    return [m for m in messages(client) if m["type"] == "state"]


def test_an_ack_comes_before_the_state_message_that_shows_the_move(server: Server) -> None:
    created = server.create([HUMAN, "random", "greedy"])
    client = server.client(token_of(created["seats"][0]["link"]))
    for _ in range(12):
        client.move()
    sent = messages(client)
    acks = [(n, m["decision"]) for n, m in enumerate(sent) if m["type"] == "ack"]
    assert len(acks) == 12
    for at, decision in acks:
        first_showing = next(n for n, m in enumerate(sent)
                             if m["type"] == "state" and m["decision"] >= decision)  # fmt: skip
        assert at < first_showing, (decision, sent[first_showing]["decision"])
    client.close()


def test_coalesced_state_messages_lose_no_event(server: Server) -> None:
    """A person and games of bots only at once, so that the backlog grows: a page's state
    messages may each cover several decisions (the bots' replies to a move, often); every
    decision's events reach the page once, in order: each message has the events of every
    decision since the one before."""
    games = [server.create(BOTS) for _ in range(16)]
    watchers = [server.client(token_of(game["spectator"])) for game in games]
    created = server.create([HUMAN, "random", "random"])
    person = server.client(token_of(created["seats"][0]["link"]))
    for _ in range(15):
        person.move()
    pages = [(person, [m for m in messages(person) if m["type"] == "state"])]
    pages += [(watcher, watch_to_the_end(watcher)) for watcher in watchers]
    coalesced = 0
    for page, states in pages:
        told = events_told(states)
        assert told == list(range(told[0], states[-1]["decision"] + 1))
        for before, after in itertools.pairwise(states):
            if not after["full"]:
                assert [e["decision"] for e in after["events"]] == list(
                    range(before["decision"] + 1, after["decision"] + 1)
                )
                coalesced += after["decision"] - before["decision"] > 1
        page.close()
    print(f"state messages covering several decisions: {coalesced}")


def test_a_page_that_does_not_read_delays_no_other_game(server: Server) -> None:
    quiet_games = [server.create(BOTS) for _ in range(3)]
    quiet = [server.client(token_of(game["spectator"])) for game in quiet_games]
    created = server.create([HUMAN, "random", "random"])
    client = server.client(token_of(created["seats"][0]["link"]))
    for _ in range(10):  # acknowledged and shown while the quiet pages read nothing
        client.move()
    assert sum(1 for m in messages(client) if m["type"] == "ack") == 10
    client.close()
    for watcher in quiet:  # the quiet pages then read every event, or the whole state
        states = watch_to_the_end(watcher)
        told = events_told(states)
        assert told == list(range(told[0], states[-1]["decision"] + 1))
        watcher.close()
