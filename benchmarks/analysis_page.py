"""The web's analysis page of a finished 5-seat game: its weight and its first view (issue 49).

Starts a real ``tajmahal serve`` (a subprocess on a free port, SQLite in a temporary
folder), creates a game of ``--seats`` bots (``--bot``, default ``random``: a bots-only
game's analysis rates every seat's decisions, the heaviest page), waits until it is over
and opens ``/analysis/{spectator link}`` in Debian's Chromium through Playwright, first
cold (the server has not built the page yet), then warm (built, cached).  Reported for
each view:

- **bytes**: every response body the page loaded (the document and what it fetched), as
  the browser received them (``Content-Length`` where given, else the body's length), and
  the HTML document alone;
- **board**: milliseconds from the navigation to the board drawn (``#board svg``): the first
  meaningful render;
- **strip**: ... to the analysis strip drawn (``#strip .mark``): the whole first view;
- **load**: ... to the ``load`` event.

Usage::

    python benchmarks/analysis_page.py                 # 5 seats, random bots, seed 1
    python benchmarks/analysis_page.py --seats 3 --seed 7 --runs 3

``PYTHONPATH`` chooses the code the server runs (e.g. ``PYTHONPATH=/path/to/main/src``
for the code before a change).  Needs the ``web`` extra, Playwright and
``/usr/bin/chromium`` (``make test`` installs them).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update"]  # fmt: skip


def start_server(folder: Path) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "tajmahal", "serve", "--port", "0",
               "--db", str(folder / "games.sqlite3")]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    found: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
            if match:
                found.append(match.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(60) or not found:
        process.kill()
        raise SystemExit("the server did not start")
    return process, found[0]


def call(url: str, body: object = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def finished_game(url: str, seats: int, bot: str) -> str:
    """A finished game of bots: its spectator's token."""
    created = call(url + "/api/games", {"seats": [bot] * seats})
    token = str(created["spectator"]).rsplit("/", 1)[-1]
    end = time.monotonic() + 300
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"{url}/record/{token}", timeout=60):
                return token
        except urllib.error.HTTPError as error:
            if error.code != 409:
                raise
        time.sleep(0.5)
    raise SystemExit("the game did not end in 300 s")


def view(browser: Any, address: str) -> dict[str, float]:
    """One first view of ``address`` in a fresh browser context."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    sizes: dict[str, int] = {}

    def finished(request: Any) -> None:
        response = request.response()
        if response is None:
            return
        length = response.headers.get("content-length")
        sizes[request.url] = int(length) if length else len(response.body())

    page.on("requestfinished", finished)
    started = time.perf_counter()
    page.goto(address, wait_until="commit", timeout=300_000)
    page.wait_for_selector("#board svg", timeout=300_000)
    board = time.perf_counter() - started
    page.wait_for_selector("#strip .mark", timeout=300_000)
    strip = time.perf_counter() - started
    page.wait_for_load_state("load")
    load = time.perf_counter() - started
    page.wait_for_load_state("networkidle")
    document = sizes.get(address, 0)
    page.context.close()
    return {"bytes": sum(sizes.values()), "document": document, "board": board * 1000,
            "strip": strip * 1000, "load": load * 1000}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=5)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--runs", type=int, default=3, help="games (each viewed cold, then warm)")
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    rows: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                for _ in range(options.runs):
                    address = f"{url}/analysis/{finished_game(url, options.seats, options.bot)}"
                    rows["cold"].append(view(browser, address))
                    rows["warm"].append(view(browser, address))
                browser.close()
        finally:
            process.terminate()
            process.wait(60)
    print(f"analysis page, {options.seats} seats of {options.bot}, {options.runs} games, "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"{'view':6} {'bytes':>10} {'document':>10} {'board ms':>9} {'strip ms':>9} "
          f"{'load ms':>8}   (medians)")  # fmt: skip
    for kind, results in rows.items():
        med = {key: statistics.median(r[key] for r in results) for key in results[0]}
        print(f"{kind:6} {med['bytes']:>10,.0f} {med['document']:>10,.0f} {med['board']:>9,.0f} "
              f"{med['strip']:>9,.0f} {med['load']:>8,.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
