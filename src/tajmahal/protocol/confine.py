"""How a bot program is confined: its environment, folder, limits, user and optional sandbox.

Every bot program (``cmd:`` specs, ``isolate=True``) starts with a minimal
environment and a working folder of its own (removed afterwards); its
address space, CPU time and number of processes are capped with resource
limits.  The referee makes itself non-dumpable before it starts one, so that
a program of the same user cannot read its ``/proc/<pid>/`` (environment,
memory, file descriptors).  When the referee runs as root, each program runs
under a user id of its own (see :func:`separate_user_id`), so that it can
neither signal nor trace the referee or the other seats.  With ``sandbox``,
the program runs under bubblewrap: its own PID namespace (the referee's
``/proc`` is not there), no network, no Unix socket (a seccomp filter), a
read-only root and private, size-limited ``/tmp`` and ``/dev/shm``.
docs/trust.md says what each mode keeps a bot from doing.

>>> env = bot_environment(Path('/tmp/bot'), keep=())
>>> sorted(env)
['HOME', 'LANG', 'PATH', 'TMPDIR']
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tajmahal.protocol._seccomp import seccomp_program, seccomp_unsupported
from tajmahal.rules.errors import TajMahalError
from tajmahal.worker_process import make_undumpable

__all__ = [
    "SandboxError",
    "bot_environment",
    "check_sandbox",
    "executable",
    "kill_user",
    "make_undumpable",
    "python_paths",
    "resolve_program",
    "sandbox_command",
    "sandbox_problem",
    "seccomp_file",
    "separate_user_id",
    "switch_user_command",
]

#: the user ids a root referee gives its bot programs: one each, drawn at random from here
FIRST_BOT_UID = 2_000_000_000
BOT_UIDS = 100_000_000
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
#: the namespaces ``--sandbox`` asks bubblewrap for, and what each one keeps away
_NAMESPACES = {
    "--unshare-pid": "a PID namespace (the referee's /proc)",
    "--unshare-net": "a network namespace (no network)",
    "--unshare-ipc": "an IPC namespace",
    "--unshare-uts": "a UTS namespace",
}
_PROBE_TIMEOUT = 30.0
#: the most bytes of the sandbox's memory cap its ``/dev/shm`` may hold (it holds a quarter below)
SHM_BYTES = 64 << 20
#: host folders where Unix sockets live, hidden in the sandbox (the seccomp filter refuses
#: ``AF_UNIX`` sockets anyway: a socket may live in any folder)
_SOCKET_FOLDERS = ("/run", "/var/run")


class SandboxError(TajMahalError):
    """``sandbox=True`` (``--sandbox``) where bubblewrap cannot confine a program.

    >>> issubclass(SandboxError, TajMahalError)
    True
    """


def bot_environment(folder: Path, keep: Sequence[str]) -> dict[str, str]:
    """The environment of a bot program working in ``folder``: nothing of the referee's but
    ``PATH`` and the variables named in ``keep`` (such as ``PYTHONPATH`` for the runner).

    >>> bot_environment(Path('/tmp/b'), keep=())['HOME']
    '/tmp/b'
    """
    env = {
        "PATH": os.environ.get("PATH", DEFAULT_PATH),
        "HOME": str(folder),
        "TMPDIR": str(folder),
        "LANG": "C.UTF-8",
    }
    for name in keep:
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def absolute_command(command: Sequence[str]) -> list[str]:
    """``command`` with relative paths to existing files made absolute (the program starts
    in a folder of its own, not in the referee's).

    >>> absolute_command(['python3', 'no/such/file.py', '--fast'])
    ['python3', 'no/such/file.py', '--fast']
    >>> absolute_command(['./src'])[0] == os.path.abspath('src')
    True
    """
    result = []
    for number, word in enumerate(command):
        names_a_path = number == 0 and os.sep in word
        if not os.path.isabs(word) and word and (names_a_path or os.path.exists(word)):
            word = os.path.abspath(word)
        result.append(word)
    return result


def executable(path: str) -> bool:
    """Whether this process may run the file ``path`` (checked with the effective ids and
    capabilities, as running it is).

    >>> executable('/no/such/file')
    False
    """
    effective = os.access in os.supports_effective_ids
    return os.access(path, os.X_OK, effective_ids=effective)


def resolve_program(program: str, path: str) -> str:
    """The file that runs ``program`` (looked up on ``path`` if it has no ``/``).

    Raises ``OSError`` (no such file, or not executable) as starting it would,
    before any wrapper (``setpriv``, ``bwrap``) hides why.

    >>> resolve_program('/no/such/bot', DEFAULT_PATH)
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] No such file or directory: '/no/such/bot'
    """
    found = program if os.sep in program else shutil.which(program, path=path)
    if found is None or not os.path.exists(found):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
    if os.path.isdir(found) or not executable(found):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), program)
    return found


def separate_user_id() -> int | None:
    """A fresh user id for a bot program when the referee runs as root (on Linux, with
    ``setpriv``); else None.

    Root's programs would otherwise be root too: able to read every process's
    ``/proc`` files and to signal every process.  Each program gets an id of
    its own (no other process has it), so it can signal and trace only itself.

    >>> uid = separate_user_id()
    >>> uid is None or FIRST_BOT_UID <= uid < FIRST_BOT_UID + BOT_UIDS
    True
    """
    if os.geteuid() != 0 or not sys.platform.startswith("linux") or _setpriv() is None:
        return None  # setpriv is part of util-linux, on every Debian and Ubuntu system
    return FIRST_BOT_UID + secrets.randbelow(BOT_UIDS)


def _setpriv() -> str | None:
    return shutil.which("setpriv", path=DEFAULT_PATH + ":/usr/sbin:/sbin")


def switch_user_command(uid: int) -> list[str]:
    """The ``setpriv`` prefix that runs a program as ``uid`` (group ``uid``, no other groups).

    The program keeps one capability, ``CAP_DAC_READ_SEARCH`` (reading files),
    so that it can reach an interpreter or a program wherever root keeps them
    (such as under ``/root``); it cannot write root's files, signal or trace
    other processes, and ``no_new_privs`` keeps setuid programs from raising
    it again.

    >>> switch_user_command(2_000_000_001)[1:3]
    ['--reuid=2000000001', '--regid=2000000001']
    """
    setpriv = _setpriv() or "setpriv"
    caps = "-all,+dac_read_search"
    return [
        setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
        f"--inh-caps={caps}", f"--ambient-caps={caps}", f"--bounding-set={caps}",
        "--no-new-privs", "--pdeathsig=KILL", "--",
    ]  # fmt: skip


def _bwrap() -> str | None:
    return shutil.which("bwrap", path=os.environ.get("PATH", DEFAULT_PATH) + ":" + DEFAULT_PATH)


def sandbox_command(
    folder: Path,
    tmp_bytes: int | None,
    as_root: bool,
    needs: Sequence[str] = (),
    hidden: Sequence[str] = (),
    seccomp_fd: int | None = None,
) -> list[str]:
    """The bubblewrap prefix that runs a program in a sandbox working in ``folder``.

    Its own PID, network, IPC and UTS namespaces, the root file system read-only,
    ``/proc`` of its own PID namespace, a minimal ``/dev`` mounted read-only,
    and three places to write, all in memory and together no larger than
    ``tmp_bytes`` (None: no size): a private ``/dev/shm`` (a quarter, at most
    ``SHM_BYTES``), a private ``/tmp`` (the rest) and ``folder`` (inside
    that ``/tmp``; where it cannot be made there, a ``tmpfs`` mounted on
    ``folder``, which exists then, with half the rest); nothing is written to
    the host's disk.  ``as_root`` keeps the capabilities that
    :func:`switch_user_command` needs inside.  The paths in ``needs`` that lie
    under ``/tmp`` (a checkout, a virtual environment or a bot program kept
    there) are bound back read-only over the private ``/tmp``.  The files and
    folders in ``hidden``, and ``/run`` (where the host's Unix sockets live),
    are out of reach inside (see ``_hiding`` below).  ``seccomp_fd`` is a
    file descriptor to read the filter of :func:`seccomp_file` from (bubblewrap
    must inherit it).

    >>> sandbox_command(Path('/tmp/b'), None, as_root=False)[1:4]
    ['--die-with-parent', '--new-session', '--unshare-pid']
    """
    bwrap = _bwrap() or "bwrap"
    command = [bwrap, "--die-with-parent", "--new-session", *_NAMESPACES, "--unshare-cgroup-try"]
    if seccomp_fd is not None:
        command += ["--seccomp", str(seccomp_fd)]
    kept = _under_tmp(needs)
    # the folder is made in the private /tmp, unless it lies in a path bound back read-only
    in_tmp = _inside(str(folder), "/tmp") and not any(_inside(str(folder), p) for p in kept)
    sizes: dict[str, list[str]] = {"shm": [], "tmp": [], "folder": []}
    if tmp_bytes is not None:  # the sizes add up to tmp_bytes
        shm = min(SHM_BYTES, tmp_bytes // 4)
        own = 0 if in_tmp else (tmp_bytes - shm) // 2
        for name, size in (("shm", shm), ("tmp", tmp_bytes - shm - own), ("folder", own)):
            sizes[name] = ["--size", str(max(size, 4096))]
    command += ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]
    command += [*sizes["shm"], "--perms", "01777", "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    command += [*sizes["tmp"], "--perms", "01777", "--tmpfs", "/tmp"]
    for path in kept:
        command += ["--ro-bind", path, path]
    command += _hiding([*hidden, *_SOCKET_FOLDERS], needs, kept)
    if in_tmp:
        command += ["--perms", "0777", "--dir", str(folder)]
    else:
        command += [*sizes["folder"], "--perms", "0777", "--tmpfs", str(folder)]
    command += ["--chdir", str(folder)]
    if as_root:
        for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP", "CAP_DAC_READ_SEARCH"):
            command += ["--cap-add", cap]
    return [*command, "--"]


def seccomp_file() -> int:
    """A file descriptor (a pipe's end, not inherited unless passed) holding the sandbox's
    seccomp filter (see ``tajmahal.protocol._seccomp``); the caller closes it.

    Raises :class:`SandboxError` on a machine for which no filter is known.

    >>> fd = seccomp_file()
    >>> len(os.read(fd, 4096)) % 8, os.close(fd)
    (0, None)
    """
    program = seccomp_program()
    if program is None:
        raise SandboxError(str(seccomp_unsupported()))
    read, write = os.pipe()
    try:
        os.write(write, program)  # far below a pipe's buffer: never blocks
    finally:
        os.close(write)
    return read


def _under_tmp(paths: Sequence[str]) -> list[str]:
    """The existing paths among ``paths`` that lie under ``/tmp``, real, each once, outermost only.

    >>> _under_tmp(['/usr/bin', '/no/such/path'])
    []
    """
    found: list[str] = []
    for path in sorted({os.path.realpath(p) for p in paths if p and os.path.isabs(p)}):
        inside = path.startswith("/tmp/") and os.path.exists(path)
        if inside and not any(path.startswith(kept + os.sep) for kept in found):
            found.append(path)
    return found


def _hiding(hidden: Sequence[str], needs: Sequence[str], kept: Sequence[str]) -> list[str]:
    """bubblewrap arguments that put each existing path of ``hidden`` out of reach.

    A file is covered by ``/dev/null`` (which the sandbox cannot open: binds are
    ``nodev``), a folder by an empty, read-only ``tmpfs``; a folder holding something the
    program needs stays (it could not run), and a path under the private
    ``/tmp`` is already out of sight unless bound back.

    >>> _hiding(['/etc/passwd', '/no/such/file'], [], [])
    ['--ro-bind', '/dev/null', '/etc/passwd']
    >>> _hiding(['/usr'], ['/usr/bin/python3'], [])
    []
    """
    needed = {os.path.realpath(p) for p in needs if p and os.path.isabs(p)}
    arguments: list[str] = []
    for path in sorted({os.path.realpath(p) for p in hidden}):
        if not os.path.exists(path) or path == "/" or (_inside(path, "/tmp") and not any(
            _inside(path, each) for each in kept
        )):
            continue
        if not os.path.isdir(path):
            arguments += ["--ro-bind", "/dev/null", path]
        elif not any(_inside(each, path) and each != path for each in needed):
            arguments += ["--size", "4096", "--tmpfs", path, "--remount-ro", path]
    return arguments


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def python_paths() -> list[str]:
    """What this interpreter needs to run a module: its prefixes and its import path."""
    return [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.executable, *sys.path]


@functools.cache
def sandbox_problem() -> str | None:
    """Why bubblewrap cannot sandbox a program here (naming what is missing), or None.

    Runs ``bwrap ... true`` once per process, with every namespace and the
    seccomp filter ``--sandbox`` uses; if that fails, each namespace alone, to
    name the ones refused.
    """
    bwrap = _bwrap()
    if bwrap is None:
        return ("bubblewrap (bwrap) is not installed; on Debian or Ubuntu: "
                "apt-get install bubblewrap")
    unsupported = seccomp_unsupported()
    if unsupported is not None:
        return f"bubblewrap cannot sandbox bot programs here: {unsupported}"
    true = shutil.which("true", path=DEFAULT_PATH) or "/bin/true"
    folder = Path("/tmp/tajmahal-probe")  # made inside the sandbox's own /tmp
    seccomp = seccomp_file()
    try:
        base = sandbox_command(folder, 1 << 20, os.geteuid() == 0, seccomp_fd=seccomp)
        failed = _probe([*base, true], pass_fds=(seccomp,))
    finally:
        os.close(seccomp)
    if failed is None:
        return None
    refused = [
        what for flag, what in _NAMESPACES.items()
        if _probe([bwrap, flag, "--ro-bind", "/", "/", "--", true]) is not None
    ]  # fmt: skip
    missing = f"it cannot create {', '.join(refused)}" if refused else "it fails"
    return f"bubblewrap cannot sandbox bot programs here: {missing} ({failed})"


def _probe(command: list[str], pass_fds: Sequence[int] = ()) -> str | None:
    try:
        done = subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, timeout=_PROBE_TIMEOUT,
            pass_fds=pass_fds,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    said = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
    return said[-1][:200] if said else f"exit status {done.returncode}"


def check_sandbox() -> None:
    """Raise :class:`SandboxError` (naming what is missing) if bubblewrap cannot run here.

    >>> try:
    ...     check_sandbox()
    ... except SandboxError as error:
    ...     print(error)  # doctest: +SKIP
    """
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxError(problem)


def kill_user(uid: int) -> None:
    """Kill every process of ``uid`` (a bot program's own user id), from a process of that user.

    This reaches what a program started in a session or group of its own
    (nothing is started when no process of ``uid`` is left).
    """
    if not _runs_as(uid):
        return
    kill = shutil.which("kill", path=DEFAULT_PATH)
    command = [kill, "-s", "KILL", "--", "-1"] if kill else [
        sys.executable, "-S", "-c", "import os; os.kill(-1, 9)"
    ]  # fmt: skip
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            command, user=uid, group=uid, extra_groups=[], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=_PROBE_TIMEOUT,
        )  # fmt: skip


def _processes_of(uid: int) -> list[str]:
    """The pids (as in ``/proc``) of the processes of ``uid``; [] where there is no /proc."""
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if entry.stat().st_uid == uid:
                        found.append(entry.name)
    return found


def _runs_as(uid: int) -> bool:
    """Whether a process has the real user id ``uid`` (read from its status: the owner of
    a non-dumpable process's ``/proc/<pid>`` is root)."""
    wanted = f"Uid:\t{uid}\t".encode()
    try:
        entries = [entry.name for entry in os.scandir("/proc") if entry.name.isdigit()]
    except OSError:
        return True  # no /proc: kill to be sure
    for pid in entries:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status", "rb") as status:
            for line in status:
                if line.startswith(b"Uid:"):
                    if line.startswith(wanted):
                        return True
                    break
    return False


def count_user_processes() -> int:
    """How many processes (threads included) this user runs now (for ``RLIMIT_NPROC``)."""
    count = 0
    for pid in _processes_of(os.getuid()):
        with contextlib.suppress(OSError):
            count += len(os.listdir(f"/proc/{pid}/task"))
    return count

