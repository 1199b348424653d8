"""docs/tutorials/public-server.md's setup, as .ci/check-public-server reads and runs it.

The order of the page's commands is checked on every run (cheap: the script only reads
the page). Following the page for real (as root on Debian: PostgreSQL's cluster, a system
user, a venv in /opt installed from this checkout, ``tajmahal serve`` as that user) changes
the machine and installs from the package index, so it runs as the fresh-venv tests do:
in CI (``CI`` set) or with ``TAJMAHAL_FRESH_VENVS=1``, as root on Debian only.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "check-public-server"
PAGE = ROOT / "docs" / "tutorials" / "public-server.md"


def check(*args: str, page: Path | None = None) -> subprocess.CompletedProcess[str]:
    extra = ["--tutorial", str(page)] if page else []
    return subprocess.run([sys.executable, str(SCRIPT), *args, *extra], capture_output=True,
                          text=True, timeout=1800)  # fmt: skip


def test_the_pages_setup_commands_come_in_an_order_that_works() -> None:
    done = check()
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line.split(". ", 1)[1] for line in done.stdout.splitlines() if ". " in line[:4]]
    text = "\n".join(lines)
    assert "sudo" not in text
    steps = ["apt-get update", "apt-get install -y postgresql python3-venv",
             "[without systemd] pg_ctlcluster", "createuser tajmahal", "createdb",
             "useradd --system", "/usr/bin/python3 -m venv /opt/tajmahal",
             f"pip install '{ROOT}[web,postgres]'", "runuser -u tajmahal -- /opt/tajmahal/bin/"
             "tajmahal --version", "tajmahal serve --port 8001"]  # fmt: skip
    places = [next(i for i, line in enumerate(lines) if step in line) for step in steps]
    assert places == sorted(places), lines


@pytest.mark.parametrize(
    ("old", "new", "wrong"),
    [
        ("runuser -u postgres -- createuser", "sudo -u postgres createuser", "uses sudo"),
        ("/usr/bin/python3 -m venv", "python3 -m venv", "the system's Python"),
        ("# without systemd only: start the cluster the package made\n", "", "without systemd"),
    ],
)
def test_a_page_that_breaks_the_order_is_refused(
    tmp_path: Path, old: str, new: str, wrong: str
) -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert old in text
    broken = tmp_path / "page.md"
    broken.write_text(text.replace(old, new), encoding="utf-8")
    done = check(page=broken)
    assert done.returncode == 1 and wrong in done.stderr, done.stderr


def test_serve_before_the_user_it_runs_as_is_refused(tmp_path: Path) -> None:
    useradd = "useradd --system --home-dir /var/lib/tajmahal --create-home tajmahal\n"
    text = PAGE.read_text(encoding="utf-8")
    assert useradd in text
    broken = tmp_path / "page.md"  # the user made last, after serve
    moved = text.replace(useradd, "") + f"\n## Installing the server\n\n```sh\n{useradd}```\n"
    broken.write_text(moved, encoding="utf-8")
    done = check(page=broken)
    assert done.returncode == 1 and "useradd tajmahal comes before" in done.stderr


@pytest.mark.fresh_venv
@pytest.mark.skipif(
    not (os.environ.get("CI") or os.environ.get("TAJMAHAL_FRESH_VENVS")),
    reason="follows the page on this machine, installing from the package index: CI, or "
    "TAJMAHAL_FRESH_VENVS=1",
)
@pytest.mark.skipif(
    os.geteuid() != 0 or not Path("/etc/debian_version").exists(), reason="root on Debian"
)
def test_the_page_runs_as_written_on_this_machine() -> None:
    done = check("--run")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-6000:]
    assert "the lobby answered 200" in done.stdout
    assert "every command of docs/tutorials/public-server.md's setup ran, in order" in done.stdout
