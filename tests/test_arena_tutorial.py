"""The tutorial "Put your bot in the arena" (docs/tutorials/arena.md), run as written: its five
commands, from the bot tutorial's plugin to rated games on a local server (issue #48)."""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

from tajmahal.arena import ArenaStore
from web_server import Server

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "tutorials" / "arena.md"
YOURBOT = ROOT / "docs" / "tutorials" / "yourbot"


def tutorial_commands() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r"<!-- arena-commands[^>]*-->\n```shell\n(.*?)```", text, re.S)
    assert block is not None, "the tutorial's commands are marked <!-- arena-commands -->"
    return [line for line in block.group(1).splitlines() if line.strip()]


def yourbot_site(folder: Path) -> Path:
    """The bot tutorial's package, findable as `pip install -e yourbot` makes it (offline)."""
    project = tomllib.loads((YOURBOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    points = project["entry-points"]["tajmahal"]
    (info / "entry_points.txt").write_text(
        "[tajmahal]\n" + "".join(f"{k} = {v}\n" for k, v in points.items())
    )
    return folder


def test_the_five_commands_put_yourbot_in_a_rated_game(tmp_path: Path) -> None:
    commands = tutorial_commands()
    assert len(commands) == 5 and all(c.startswith("tajmahal ") for c in commands)
    site = yourbot_site(tmp_path / "site")
    path = os.pathsep.join([str(site), str(YOURBOT / "src"), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = None
    try:
        for command in commands:
            words = shlex.split(command)[1:]
            if words[0] == "serve":  # the second terminal: runs until stopped
                at = words.index("--db") + 1
                words[at] = str(tmp_path / words[at])  # the server's folder is not tmp_path
                server = Server(Path(words[at]), *words[1:], "--port", str(port),
                                "--bot-workers", "1")  # fmt: skip
                continue
            argv = [sys.executable, "-m", "tajmahal", *words]
            argv = [word.replace("http://localhost:8000", f"http://127.0.0.1:{port}")
                    for word in argv]  # fmt: skip
            done = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env,
                                  timeout=300, check=False)  # fmt: skip
            assert done.returncode == 0, f"$ {command}\n{done.stdout}\n{done.stderr}"
            if words[0] == "bot":
                assert "played 3 games" in done.stdout and "rating now" in done.stdout
    finally:
        if server is not None:
            server.stop()
    store = ArenaStore(tmp_path / "arena.sqlite3")
    yourbot = store.bot("yourbot")
    assert yourbot is not None and yourbot.games == 3 and yourbot.house is None
    assert all(game.rated for game in store.games())
    listed = subprocess.run([sys.executable, "-m", "tajmahal", "arena", "list", "--db",
                             "arena.sqlite3"], capture_output=True, text=True, cwd=tmp_path,
                            env=env, timeout=120, check=True).stdout  # fmt: skip
    assert re.search(r"yourbot\s+\S+\s+\S+\s+\S+\s+3\s+remote", listed), listed
    token = (tmp_path / "yourbot.token").read_text().strip()
    assert server is not None and token not in "\n".join(server.lines)
