"""The arena on a real server (issue #48's must-show): two remote bots connected from their own
processes and a house bot play rated games across a ``kill -9`` and restart of the server."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tajmahal.arena import ArenaStore
from tajmahal.arena.ratings import NEW_SIGMA
from web_server import Server

GAMES = 12
WAIT = 300.0  # generous: a loaded 2-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def add_bot(db: Path, name: str, *options: str) -> None:
    done = subprocess.run([sys.executable, "-m", "tajmahal", "arena", "add-bot", name,
                           "--db", str(db), *options], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr


def connect(url: str, spec: str, token_file: Path, log: Path, games: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "bot", "connect", url, spec, "--token-file",
         str(token_file), "--games", str(games), "--concurrency", "2"],
        stdout=log.open("w"), stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip


def wait_until(check: object, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError("timed out waiting")


def unfinished_games(db: Path) -> int:
    """The games the server would resume if it started now (read only: the server writes)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as games:
        count: int = games.execute("SELECT count(*) FROM games WHERE record IS NULL").fetchone()[0]
        return count


def test_remote_and_house_bots_play_rated_games_across_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    add_bot(db, "greedy-remote", "--token-file", str(tmp_path / "greedy.token"))
    add_bot(db, "random-remote", "--token-file", str(tmp_path / "random.token"))
    add_bot(db, "house-random", "--house", "random")
    tokens = [(tmp_path / n).read_text().strip() for n in ("greedy.token", "random.token")]
    port = free_port()
    options = ("--arena", "--port", str(port), "--arena-games", "2", "--time-limit", "5",
               "--bot-workers", "1")  # fmt: skip
    server = Server(db, *options)
    store = ArenaStore(db)
    bots = [
        connect(server.url, "greedy", tmp_path / "greedy.token", tmp_path / "greedy.log", GAMES),
        connect(server.url, "random", tmp_path / "random.token", tmp_path / "random.log", GAMES),
    ]
    try:
        # the kill must interrupt a game: on a busy machine the third game may end before
        # the next one starts, and then there is nothing to resume
        wait_until(lambda: len(store.games(rated=True)) >= 3 and unfinished_games(db) > 0)
        playing = store.games(rated=False)
        server.stop(signal.SIGKILL)  # nothing is lost: the games resume, the bots come back
        server.start()
        for bot, log in zip(bots, ("greedy.log", "random.log"), strict=True):
            try:
                status = bot.wait(WAIT)
            except subprocess.TimeoutExpired:
                status = None
            assert status == 0, (tmp_path / log).read_text() + "\n".join(server.lines[-40:])
        wait_until(lambda: not store.games(rated=False), 60)
        status, _, body = server.request("/api/arena/leaderboard")
        assert status == 200
        table = {bot["name"]: bot for bot in json.loads(body)["bots"]}
        watched = server.request("/watch/" + store.games()[0].watch)[0]
        listed = server.request("/api/games")[2].decode()
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
        server.stop()
        store.close()
    for name in ("greedy-remote", "random-remote", "house-random"):
        assert table[name]["games"] >= GAMES
        assert table[name]["sigma"] < NEW_SIGMA  # below a newcomer's uncertainty
    greedy, rand = table["greedy-remote"], table["random-remote"]
    assert greedy["mu"] - 3 * greedy["sigma"] > rand["mu"] - 3 * rand["sigma"]
    names = list(table)
    assert names.index("greedy-remote") < names.index("random-remote")
    for game in playing:  # the games the kill interrupted were finished and rated
        assert any(g.game_id == game.game_id and g.rated for g in ArenaStore(db).games())
    for log in ("greedy.log", "random.log"):
        text = (tmp_path / log).read_text()
        assert "connecting again" in text and f"played {GAMES} games" in text
    assert watched == 200 and "/watch/" in listed  # arena games are open to spectators
    lines = "\n".join(server.lines)
    assert "arena: game" in lines and "resumed" in lines
    for token in tokens:
        assert token not in lines and token[4:] not in lines
    assert "tmb_" not in lines
