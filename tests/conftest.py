"""Test-session setup shared by every test module."""

from __future__ import annotations

import collections
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

import schema_check
from postgres_cluster import Cluster, find_bindir

# A test run started in the background by a non-interactive shell (``cmd &``, some CI
# runners) inherits SIGINT ignored, and children started from it would inherit that too.
# The Ctrl-C tests need what a terminal gives: KeyboardInterrupt on SIGINT, here and in
# the programs the tests start.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


# Debian's Chromium (the Makefile installs it), driven by Playwright: one browser for the whole
# session, shared by the browser tests (Playwright's sync API allows one instance at a time).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: 'make test' installs Debian's chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


# A real PostgreSQL (Debian's postgresql, which `make test` installs): one cluster in a
# temporary folder, started by the first test that needs it and stopped when the session
# ends (not a session fixture: pytest may tear one down early when a parametrized fixture
# asks for it), run as `nobody` when the suite runs as root (tests/postgres_cluster.py).
# Each test gets an empty schema of its own.
_cluster: list[Cluster] = []


@pytest.fixture
def postgres_cluster() -> Cluster:
    pytest.importorskip("psycopg", reason="psycopg is missing: pip install 'tajmahal[postgres]'")
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(
            "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): "
            "'make test' installs Debian's postgresql"
        )
    if not _cluster:
        _cluster.append(Cluster(bindir))
    return _cluster[0]


@pytest.fixture
def postgres_dsn(postgres_cluster: Cluster) -> str:
    """A connection string to a new, empty schema in the cluster's test database."""
    return postgres_cluster.dsn(postgres_cluster.new_schema())


# Every document and protocol message a test makes the library write or accept is checked
# against the published JSON Schemas (tests/schema_check.py); a violation fails its test.
schema_check.install()


@pytest.fixture(autouse=True)
def _documents_follow_their_schemas(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    found = schema_check.take_violations()
    if found and request.node.get_closest_marker("unchecked_documents") is None:
        more = f" (and {len(found) - 5} more)" if len(found) > 5 else ""
        pytest.fail(
            "documents or messages that break their JSON Schema:\n" + "\n".join(found[:5]) + more
        )


# With pytest-xdist (`make unit` runs the suite on two workers) each worker process checks the
# documents of its own tests, then sends its counts, and whether the check was still in place
# at its end, to the controlling process: that prints the session's summary, and fails the
# run if a process ran tests without the check.
_workers: dict[str, tuple[dict[str, int], bool]] = {}  # worker -> (counts, check in place)
_unchecked: list[str] = []  # the processes that ran tests without the check


def pytest_sessionfinish(session: pytest.Session) -> None:
    while _cluster:
        _cluster.pop().stop()
    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # an xdist worker: its part of the summary
        output["schema_checks"] = dict(schema_check.checked)
        output["schema_checks_installed"] = schema_check.installed()
        return
    if not _workers and session.testscollected and not schema_check.installed():
        _unchecked.append("this process")  # a serial run (-p no:xdist or -n 0)
    _unchecked.extend(name for name, (_, installed) in _workers.items() if not installed)
    if _unchecked:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """An xdist worker is done (one that crashed sends nothing: xdist reports that itself)."""
    output = getattr(node, "workeroutput", {})
    if "schema_checks" in output:
        name = str(node.workerinput["workerid"])  # gw0, gw1, ...
        _workers[name] = (output["schema_checks"], bool(output["schema_checks_installed"]))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    counts: collections.Counter[str] = collections.Counter(schema_check.checked)
    for worker_counts, _ in _workers.values():
        counts.update(worker_counts)
    if counts:
        shown = ", ".join(f"{name} {count}" for name, count in sorted(counts.items()))
        each = ", ".join(f"{name} {sum(c.values())}" for name, (c, _) in sorted(_workers.items()))
        workers = f", in {len(_workers)} workers ({each})" if _workers else ""
        terminalreporter.write_line(
            f"JSON Schema checks: {sum(counts.values())} ({shown}){workers}"
        )
    if _unchecked:
        terminalreporter.write_line(
            f"JSON Schema checks were not in place at the session's end in {', '.join(_unchecked)}",
            red=True,
        )
