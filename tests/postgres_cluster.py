"""A real PostgreSQL server for the tests: Debian's ``postgresql``, a cluster in a temporary folder.

One cluster per test session (``conftest.py``: the ``postgres_cluster`` fixture); each test
that needs a database gets an empty schema of its own in the database ``tests``, and
addresses that put it first on the ``search_path`` (``postgres_dsn``): a schema costs
milliseconds, a database megabytes of copying. The server listens on a
Unix socket in the cluster's folder only (no TCP port: nothing to collide with another
suite running beside this one). PostgreSQL refuses to run as root: when the suite runs as
root (as CI does), the folder is given to the unprivileged user ``nobody`` and the server
runs as that user (``setpriv``, else ``runuser``); no system user is created. The test
cluster runs with ``fsync=off`` (the tests kill clients, never the machine).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

STARTUP_SECONDS = 120.0  # initdb and the first connection on a loaded 2-core machine
USER = "tajmahal"  # the cluster's superuser (trust authentication on the socket only)
DATABASE = "tests"  # the tests' database: a schema in it per test


def find_bindir() -> Path | None:
    """The folder of ``initdb`` and ``postgres``: $TAJMAHAL_PG_BINDIR, Debian's newest
    /usr/lib/postgresql/N/bin, else the PATH's; None if PostgreSQL is not installed."""
    wanted = os.environ.get("TAJMAHAL_PG_BINDIR")
    candidates = [Path(wanted)] if wanted else []
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.replace(".", "").isdigit()]
        versions.sort(key=lambda p: [int(part) for part in p.name.split(".")], reverse=True)
        candidates += [p / "bin" for p in versions]
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    return None


def as_unprivileged() -> tuple[list[str], int, int] | None:
    """(command prefix, uid, gid) that runs a program as ``nobody`` when we are root, else None."""
    if os.geteuid() != 0:
        return None
    nobody = pwd.getpwnam("nobody")
    if shutil.which("setpriv"):
        prefix = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}",
                  "--clear-groups"]  # fmt: skip
    else:
        prefix = ["runuser", "-u", "nobody", "--"]
    return prefix, nobody.pw_uid, nobody.pw_gid


def socket_parent() -> str:
    """Where to make the cluster's folder: the temporary folder if ``nobody`` can reach it and
    a socket path fits in it (Unix sockets allow about 100 bytes), else /tmp."""
    folder = Path(tempfile.gettempdir()).resolve()
    reachable = all(p.stat().st_mode & 0o001 for p in [folder, *folder.parents])
    return str(folder) if reachable and len(str(folder)) <= 60 else "/tmp"


class Cluster:
    """A PostgreSQL cluster in a temporary folder, its server running until :meth:`stop`."""

    def __init__(self, bindir: Path, **settings: str) -> None:
        self.bindir = bindir
        self.settings = settings  # postgres -c NAME=VALUE beyond the tests' own (fsync=on...)
        self.folder = Path(tempfile.mkdtemp(prefix="tajmahal-pg-", dir=socket_parent()))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._schemas = 0
        unprivileged = as_unprivileged()
        self.prefix: list[str] = []
        if unprivileged:
            self.prefix, uid, gid = unprivileged
            os.chown(self.folder, uid, gid)
        atexit.register(self.stop)  # also when the session ends without its fixture teardown
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _run(self, *command: str | Path) -> list[str]:
        return [*self.prefix, *(str(part) for part in command)]

    def _start(self) -> None:
        command = self._run(self.bindir / "initdb", "-D", self.data, "-U", USER, "--auth=trust",
                            "--encoding=UTF8", "--locale=C", "--no-sync")  # fmt: skip
        initdb = subprocess.run(
            command, cwd=self.folder, capture_output=True, text=True, timeout=STARTUP_SECONDS
        )
        if initdb.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{initdb.stdout}\n{initdb.stderr}")
        self._serve()

    def _serve(self) -> None:
        """Start the server on the cluster's data and wait until it accepts connections."""
        settings = {
            "listen_addresses": "",  # the Unix socket only
            "unix_socket_directories": str(self.folder),
            "fsync": "off", "full_page_writes": "off",
            "max_connections": "60", "shared_buffers": "16MB",
            **self.settings,
        }  # fmt: skip
        options = [part for name, value in settings.items() for part in ("-c", f"{name}={value}")]
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                self._run(self.bindir / "postgres", "-D", self.data, *options),
                cwd=self.folder, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + STARTUP_SECONDS
        while not self._accepts_connections():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start:\n{self.log_tail()}")
            time.sleep(0.1)

    def _accepts_connections(self) -> bool:
        """Whether the server is up (then the tests' database is made)."""
        import psycopg

        address = self._address("postgres")
        try:
            with psycopg.connect(address, connect_timeout=5, autocommit=True) as db:
                if db.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              (DATABASE,)).fetchone() is None:  # fmt: skip
                    db.execute(f"CREATE DATABASE {DATABASE}")
        except psycopg.OperationalError:
            return False
        return True

    def restart(self, down: float = 0.0) -> None:
        """Stop the server (fast shutdown: every connection is closed), wait ``down`` seconds,
        start it again on the same data (a fault for the tests: a PostgreSQL restart)."""
        self._halt()
        time.sleep(down)
        self._serve()

    def terminate(self, condition: str = "true", *args: object) -> int:
        """Close the sessions of the tests' database that match ``condition`` (SQL on
        pg_stat_activity) from the server's side, as a network cut does; how many."""
        import psycopg

        with psycopg.connect(self._address(DATABASE), autocommit=True) as admin:
            rows = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
                f"AND ({condition})",
                (DATABASE, *args),
            ).fetchall()
        return sum(1 for row in rows if row[0])

    def log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])
        return ""

    def _address(self, database: str) -> str:
        return f"host={self.folder} port=5432 user={USER} dbname={database}"

    def dsn(self, schema: str) -> str:
        """A libpq connection string to ``schema`` (first on the search path) over the socket."""
        return f"{self._address(DATABASE)} options=-csearch_path={schema}"

    def url(self, schema: str) -> str:
        """The same as a ``postgresql://`` URL (what ``tajmahal serve --db`` takes)."""
        from urllib.parse import quote

        folder = quote(str(self.folder), safe="")
        return f"postgresql://{USER}@/{DATABASE}?host={folder}&options=-csearch_path%3D{schema}"

    def new_schema(self) -> str:
        """Create an empty schema in the tests' database; its name."""
        import psycopg

        self._schemas += 1
        name = f"test_{self._schemas}"
        with psycopg.connect(self._address(DATABASE), autocommit=True) as admin:
            admin.execute(f"CREATE SCHEMA {name}")
        return name

    def dump(self, schema: str) -> str:
        """Everything the game tables of ``schema`` hold, as text (to look for secrets)."""
        import psycopg

        with psycopg.connect(self.dsn(schema)) as db:
            return "\n".join(
                str(row)
                for table in ("games", "tokens", "moves")
                for row in db.execute(f"SELECT * FROM {table}").fetchall()
            )

    def stop(self) -> None:
        """Stop the server (fast shutdown, then SIGKILL) and remove the folder."""
        self._halt()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _halt(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
