"""A real ``tajmahal serve`` in a subprocess on a free port, and a small WebSocket client.

The web tests share one server per test session (``conftest.py``-free: the
fixtures live in the test modules); the restart tests start their own.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from websockets.sync.client import ClientConnection, connect

T = TypeVar("T")


def run_async(scenario: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(scenario)`` in a thread of its own: the session's Playwright browser
    (once a test has started it) keeps an event loop running in the main thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, scenario).result()

STARTUP_SECONDS = 60.0  # a loaded 2-core machine can be slow to import the library


class Server:
    """``tajmahal serve --port 0 --db FILE`` running in a child process."""

    def __init__(self, db: Path, *options: str) -> None:
        self.db = db
        self.options = options
        self.lines: list[str] = []
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        command = [sys.executable, "-m", "tajmahal", "serve", "--port", "0", "--db", str(self.db),
                   *self.options]  # fmt: skip
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        found = threading.Event()
        self.port = 0

        def read() -> None:
            assert self.process is not None and self.process.stdout is not None
            for line in self.process.stdout:
                self.lines.append(line.rstrip("\n"))
                match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
                if match:
                    self.port = int(match.group(1))
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(STARTUP_SECONDS) or not self.port:
            self.stop()
            raise RuntimeError("the server did not start:\n" + "\n".join(self.lines[-30:]))

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self, sig: int = signal.SIGTERM) -> int | None:
        """Stop the server with ``sig`` and wait for it; its exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            status = self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self.process = None
        return status

    def request(self, path: str, body: object = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """One HTTP request; a body goes as ``application/json`` unless ``headers`` say else."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data is not None else {}
        request = urllib.request.Request(self.url + path, data=data,
                                         headers={**sent, **(headers or {})},
                                         method="POST" if data is not None else "GET")  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                headers = {k.lower(): v for k, v in response.headers.items()}
                return response.status, headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    def create(self, seats: list[Any], **options: Any) -> dict[str, Any]:
        status, _, body = self.request("/api/games", {"seats": seats, **options})
        assert status == 201, body
        created: dict[str, Any] = json.loads(body)
        return created

    def client(self, token: str) -> Client:
        return Client(self, token)


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[-1]


class Client:
    """One WebSocket connection to a seat (or the spectator), as a simulated person."""

    def __init__(self, server: Server, token: str) -> None:
        self.token = token
        self._opened = connect(
            f"ws://127.0.0.1:{server.port}/ws/{token}", max_size=2**23, open_timeout=60
        )
        self.socket: ClientConnection = self._opened.__enter__()
        self.received: list[str] = []
        self.state: dict[str, Any] | None = None

    def next(self, timeout: float = 60) -> dict[str, Any]:
        text = self.socket.recv(timeout)
        assert isinstance(text, str)
        self.received.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, test: Any, timeout: float = 120) -> dict[str, Any]:
        """Read messages until one passes ``test``."""
        end = time.monotonic() + timeout
        while True:
            message = self.next(max(0.1, end - time.monotonic()))
            if test(message):
                return message

    def my_turn(self) -> dict[str, Any]:
        """Wait until this seat is to move (or the game is over); that state."""
        if self.state is not None and (self.state["legal"] or self.state["over"]):
            return self.state
        return self.until(lambda m: m["type"] == "state" and (m["legal"] or m["over"]))

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps({"token": self.token, **message}))

    def move(self, choose: int = 0) -> dict[str, Any]:
        """Play one of the legal moves now shown and wait for the state after it.

        A client faster than the server's message rate is told so: it waits and sends again.
        """
        state = self.my_turn()
        decision = state["decision"]
        message = {"type": "move", "decision": decision + 1, "move": state["legal"][choose]}
        while True:
            self.send(message)
            reply = self.until(lambda m: m["type"] == "error" or (
                m["type"] == "state" and m["decision"] > decision))  # fmt: skip
            if reply["type"] == "state":
                return reply
            assert "too many messages" in reply["message"], reply
            time.sleep(1.0)

    def close(self) -> None:
        self._opened.__exit__(None, None, None)
