"""No database password in any message: ``tajmahal serve --db ADDRESS`` run for real, with
addresses that cannot be read (a stray ``%``, a broken IPv6 host, a ``/`` or ``@`` left
unencoded, an unclosed quote), with ``key=value`` addresses, with a typo in the scheme, and
against the suite's real PostgreSQL while its connections are cut: the password appears in
no line the server prints (stdout, stderr, every log level), and no file is made from the
address.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from postgres_cluster import Cluster
from tajmahal.web.stores import StoreError, open_store
from web_server import Server

SECRET = "Pw-7q2Zx"  # in every address below; nothing printed may hold it, raw or encoded
TIMEOUT = 120.0  # a loaded machine: generous, never a timing assertion

RESERVED = "a user or password holding '@', '/'"
UNREADABLE = [
    (f"postgresql://ann:{SECRET}%zz@db.example/games", "a '%' that is not followed by two hex"),
    (f"postgresql://ann:{SECRET}@[::1/games", "an IPv6 host without its closing ']'"),
    (f"postgresql://ann:{SECRET}@[fe80::1%eth0]:5432/games", "a '%' that is not followed"),
    (f"postgresql://ann:{SECRET[:3]}/{SECRET[3:]}@db.example/games", RESERVED),
    (f"postgresql://ann:{SECRET[:3]}@{SECRET[3:]}@db.example/games", RESERVED),
    (f"postgresql://ann:{SECRET}@/games?host=/nowhere&bogus=1", "a parameter after '?'"),
    (f"host=/nowhere user=ann password='{SECRET}", "a quoted value without its closing quote"),
    (f"host=/nowhere user=ann password={SECRET[:3]} {SECRET[3:]}", "a word without '='"),
]


def serve(address: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tajmahal serve --db address`` at the most verbose log level, to its end."""
    command = [sys.executable, "-m", "tajmahal", "serve", "--port", "0", "--db", address,
               "--log-level", "trace"]  # fmt: skip
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                          env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip


def assert_no_secret(text: str) -> None:
    for form in (SECRET, SECRET[:3] + "%", SECRET[3:]):
        assert form not in text, text


@pytest.mark.parametrize(("address", "reason"), UNREADABLE)
def test_an_address_that_cannot_be_read_is_refused_without_its_password(
    address: str, reason: str, tmp_path: Path
) -> None:
    done = serve(address, tmp_path)
    assert done.returncode != 0
    assert "the game database's address cannot be read: " + reason in done.stderr
    assert_no_secret(done.stdout + done.stderr)
    assert list(tmp_path.iterdir()) == []  # not taken for a SQLite file's name


@pytest.mark.parametrize(
    "address",
    [
        f"host=/nowhere dbname=games user=ann password={SECRET} connect_timeout=5",
        f"postgresql://ann:{SECRET}@/games?host=/nowhere&connect_timeout=5",
        f"postgresql://ann:{SECRET[:3]}%25{SECRET[3:]}@/games?host=/nowhere&connect_timeout=5",
    ],
)
def test_a_database_that_cannot_be_reached_is_named_without_the_password(
    address: str, tmp_path: Path
) -> None:
    done = serve(address, tmp_path)
    assert done.returncode != 0
    assert "cannot open the game database PostgreSQL database 'games' on /nowhere" in done.stderr
    assert_no_secret(done.stdout + done.stderr)
    assert list(tmp_path.iterdir()) == []  # key=value pairs are PostgreSQL's, not a file name


def test_a_url_of_another_scheme_is_refused_unechoed(tmp_path: Path) -> None:
    done = serve(f"postgressql://ann:{SECRET}@db.example/games", tmp_path)
    assert done.returncode != 0
    assert "not a 'postgressql' address" in done.stderr
    assert_no_secret(done.stdout + done.stderr)
    assert list(tmp_path.iterdir()) == []  # no folder 'postgressql:' made for a SQLite file
    with pytest.raises(StoreError, match="not a 'mysql' address"):
        open_store(f"mysql://ann:{SECRET}@db.example/games")
    done = serve(f"ann:{SECRET}@db.example/games", tmp_path)  # the scheme forgotten
    assert done.returncode != 0 and "without postgresql://" in done.stderr
    assert_no_secret(done.stdout + done.stderr)
    assert list(tmp_path.iterdir()) == []


def test_a_running_cluster_prints_no_password_even_when_its_connections_are_cut(
    postgres_cluster: Cluster,
) -> None:
    import psycopg

    schema = postgres_cluster.new_schema()
    url = postgres_cluster.url(schema).replace("tajmahal@", f"tajmahal:{SECRET}@")
    server = Server(url, "--log-level", "trace")  # type: ignore[arg-type]  # (a URL, not a Path)
    try:
        created = server.create([{"human": True, "name": "Ann"}, "random", "random"])
        assert created["id"]
        with psycopg.connect(postgres_cluster.dsn(schema), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name LIKE 'tajmahal%'")  # fmt: skip
        deadline = time.monotonic() + TIMEOUT
        while not _listening_again(server.lines):
            assert time.monotonic() < deadline, "\n".join(server.lines[-20:])
            time.sleep(0.2)
        for _ in range(3):  # reads on the cut connection: whatever they answer (the cluster's
            server.request("/api/games")  # recovery is tested elsewhere), no password printed
    finally:
        server.stop()
    printed = "\n".join(server.lines)
    assert "games in PostgreSQL database 'tests' on " in printed
    assert_no_secret(printed)


def _listening_again(lines: list[str]) -> bool:
    """Whether the log says the process lost its notices and then caught up again."""
    lost = next((n for n, line in enumerate(lines) if "cluster: not listening" in line), None)
    return lost is not None and any("cluster: caught up" in line for line in lines[lost:])
