"""A child process with lines in, lines out, deadlines on both, and a cleanup that leaves nothing.

The child runs in its own session (so its whole process group can be killed,
and a terminal's Ctrl-C reaches only the referee), confined as
:mod:`tajmahal.protocol.confine` says: a minimal environment, a working
folder of its own, its address space (``RLIMIT_AS``, which counts shared
mappings too), CPU time (``RLIMIT_CPU``) and processes (``RLIMIT_NPROC``)
capped, no core dumps, ``SIGKILL`` as its parent-death signal, a user id of
its own when the referee is root, and optionally a bubblewrap sandbox.  It
talks over socket pairs, which no other process can open through
``/proc/<pid>/fd`` (a pipe can be).  They are non-blocking and read through
``poll``: a write or a read never waits past its deadline, stdout lines are
bounded in length, and stderr is drained whenever the referee waits, into a
bounded tail (and optionally a log file of bounded size).

>>> import sys
>>> child = ChildProcess([sys.executable, '-c', 'print(input().upper())'])
>>> child.send(b'ping\\n', deadline=time.monotonic() + 30)
>>> child.read_line(deadline=time.monotonic() + 30)
b'PING\\n'
>>> child.close(grace=5)
True
>>> child.exit_description()
'exited with status 0'
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import BinaryIO

from tajmahal._escape import StderrEscaper
from tajmahal.protocol.confine import (
    absolute_command,
    bot_environment,
    count_user_processes,
    kill_user,
    python_paths,
    resolve_program,
    sandbox_command,
    sandbox_problem,
    seccomp_file,
    separate_user_id,
    switch_user_command,
)
from tajmahal.protocol.messages import MAX_LINE_BYTES
from tajmahal.worker_process import PRCTL, make_undumpable

try:
    import resource
except ImportError:  # pragma: no cover - not a POSIX system: bot programs cannot start
    resource = None  # type: ignore[assignment]

__all__ = [
    "ChildProcess",
    "LineTooLong",
    "ProcessEnded",
    "ProcessTimedOut",
]

CHUNK = 64 * 1024
STDERR_TAIL_BYTES = 4096
_PR_SET_PDEATHSIG = 1
_LIVE: weakref.WeakSet[ChildProcess] = weakref.WeakSet()


class ProcessEnded(Exception):
    """The child closed its stdout or stdin (it exited, or is about to)."""


class ProcessTimedOut(Exception):
    """The deadline passed before the write or the read was complete."""


class LineTooLong(Exception):
    """The child wrote more than the line limit without a newline."""


_ONCE = threading.Lock()
_UNDUMPABLE: list[bool] = []


def _referee_undumpable() -> None:
    """Make the referee non-dumpable before its first bot program starts (once); remove
    the folders of programs whose referee was killed before it could."""
    with _ONCE:
        if not _UNDUMPABLE:
            _UNDUMPABLE.append(make_undumpable())
            _remove_stale_folders()


_FOLDER_PREFIX = "tajmahal-bot-"


def _remove_stale_folders() -> None:
    """Remove ``tajmahal-bot-<PID>-*`` folders whose referee (process PID) is gone."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(tempfile.gettempdir()):
            name = entry.name
            if not name.startswith(_FOLDER_PREFIX):
                continue
            pid = name[len(_FOLDER_PREFIX):].split("-", 1)[0]
            if not pid.isdigit():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                shutil.rmtree(entry.path, ignore_errors=True)
            except OSError:
                pass  # alive (another user's)


def _limit(kind: int, wanted: int) -> tuple[int, int]:
    """The (soft, hard) limit of ``kind`` for ``wanted``, within the hard limit we have."""
    assert resource is not None
    _, hard = resource.getrlimit(kind)
    value = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    return value, value


def _child_setup(
    limits: list[tuple[int, tuple[int, int]]], parent: int, death_signal: bool
) -> Callable[[], None]:
    """What runs in the child between fork and exec: limits and the parent-death signal.

    Only calls prepared in the parent (no imports, no allocation to speak of),
    so that it is safe even when the parent has other threads.
    """
    assert resource is not None
    setrlimit = resource.setrlimit
    prctl, getppid, exit_now = PRCTL, os.getppid, os._exit

    def setup() -> None:
        for kind, values in limits:
            setrlimit(kind, values)
        if death_signal and prctl is not None:
            prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if getppid() != parent:  # the parent died before the signal was set
                exit_now(1)

    return setup


class ChildProcess:
    """One child process spoken to in lines (see the module docstring).

    ``memory_limit`` caps its address space in bytes, ``cpu_seconds`` its CPU
    time (``SIGXCPU``, then ``SIGKILL`` a second later), ``max_processes``
    the processes and threads it may run (``None``: no cap, for each);
    ``sandbox`` runs it under bubblewrap (:func:`~tajmahal.protocol.confine.check_sandbox`
    first: here a sandbox that cannot start is an ``OSError``);
    ``separate_user`` (when the referee is root) gives it a user id of its
    own.  ``env`` is its whole environment (default: a minimal one, with the
    referee's variables named in ``keep_env``).  ``stderr_log`` is a file that
    receives the child's stderr up to ``log_bytes`` bytes (appended, after a
    line naming the program, its pid and the time).  With ``sandbox``, the
    files and folders in ``hidden`` are out of the child's reach, and those in
    ``reads`` (such as a ``file:`` bot's folder) within it, even under ``/tmp``.  Starting raises
    ``OSError`` if the program cannot be run.
    """

    _poll: tuple[tuple[int | None, ...], select.poll] | None = None  # see _poller

    def __init__(
        self,
        command: Sequence[str],
        *,
        memory_limit: int | None = None,
        cpu_seconds: int | None = None,
        max_processes: int | None = None,
        sandbox: bool = False,
        separate_user: bool = True,
        stderr_log: Path | None = None,
        log_bytes: int = 1 << 20,
        env: dict[str, str] | None = None,
        keep_env: Sequence[str] = (),
        hidden: Sequence[Path] = (),
        reads: Sequence[str] = (),
    ) -> None:
        if resource is None or not hasattr(select, "poll"):
            raise OSError("bot programs need a POSIX system (Linux, macOS)")
        if sandbox and (problem := sandbox_problem()) is not None:
            raise OSError(problem)
        _referee_undumpable()
        # the parent-death signal belongs to the thread that forks: only ask for it
        # from the main thread, which lives as long as the process
        main = threading.current_thread() is threading.main_thread()
        self.uid = separate_user_id() if separate_user else None
        self.sandboxed = sandbox
        self.folder: Path | None = Path(tempfile.mkdtemp(prefix=f"{_FOLDER_PREFIX}{os.getpid()}-"))
        self.log: BinaryIO | None = None
        self.log_room = log_bytes
        self._stderr_escaper = StderrEscaper()
        sockets: list[socket.socket] = []
        seccomp: int | None = None  # bubblewrap reads the sandbox's filter from it
        try:
            if self.uid is not None:
                os.chown(self.folder, self.uid, self.uid)
            if stderr_log is not None:  # before the sandbox, which hides the folder if asked
                stderr_log.parent.mkdir(parents=True, exist_ok=True)
                self.log = stderr_log.open("ab")  # the same seed and seat may come again
            if env is None:
                env = bot_environment(self.folder, keep_env)
            launch = absolute_command(command)
            program = launch[0]
            if self.uid is not None or sandbox:
                program = resolve_program(launch[0], env.get("PATH", os.defpath))
            if self.uid is not None:
                launch = switch_user_command(self.uid) + launch
            if sandbox:
                pythonpath = env.get("PYTHONPATH", "").split(os.pathsep)
                needs = [program, *launch, *pythonpath, *python_paths(), *reads]
                seccomp = seccomp_file()
                prefix = sandbox_command(
                    self.folder, memory_limit, self.uid is not None, needs,
                    [str(p) for p in hidden], seccomp,
                )  # fmt: skip
                launch = prefix + launch
            limits = self._limits(memory_limit, cpu_seconds, max_processes)
            for _ in range(3):
                sockets += socket.socketpair()
            ours_in, theirs_in, ours_out, theirs_out, ours_err, theirs_err = sockets
            self.popen = subprocess.Popen(
                launch,
                stdin=theirs_in.fileno(),
                stdout=theirs_out.fileno(),
                stderr=theirs_err.fileno(),
                start_new_session=True,
                close_fds=True,
                cwd=self.folder,
                env=env,
                preexec_fn=_child_setup(limits, os.getpid(), main),
                pass_fds=() if seccomp is None else (seccomp,),
            )
        except BaseException:
            for each in sockets:
                each.close()
            if seccomp is not None:
                os.close(seccomp)
            if self.log is not None:
                self.log.close()
            self._remove_folder()
            raise
        for theirs in (theirs_in, theirs_out, theirs_err):
            theirs.close()
        if seccomp is not None:
            os.close(seccomp)
        # one way each: what the child writes to its stdin, or reads from its stdout, fails
        with contextlib.suppress(OSError):
            ours_in.shutdown(socket.SHUT_RD)
            ours_out.shutdown(socket.SHUT_WR)
            ours_err.shutdown(socket.SHUT_WR)
        _LIVE.add(self)
        self.pid = self.popen.pid
        if self.log is not None:
            started = time.strftime("%Y-%m-%d %H:%M:%S")
            self.log.write(f"--- {started}: {command[0]} (pid {self.pid})\n".encode())
        self.fd_in = ours_in.detach()
        self.fd_out = ours_out.detach()
        self.fd_err: int | None = ours_err.detach()
        for fd in (self.fd_in, self.fd_out, self.fd_err):
            os.set_blocking(fd, False)
        self.buffer = bytearray()
        self.out_closed = False
        self.tail = bytearray()
        self.stderr_bytes = 0
        self.killed = False  # by us
        self.leader_gone = False  # the child (not its descendants) has exited
        self.pidfd: int | None = None  # readable once the child has exited (Linux)
        with contextlib.suppress(AttributeError, OSError):
            self.pidfd = os.pidfd_open(self.pid)
        self.returncode: int | None = None

    def _limits(
        self, memory_limit: int | None, cpu_seconds: int | None, max_processes: int | None
    ) -> list[tuple[int, tuple[int, int]]]:
        """The resource limits to set in the child, as (kind, (soft, hard)) pairs."""
        assert resource is not None
        limits = [(resource.RLIMIT_CORE, (0, 0))]
        if memory_limit is not None:
            limits.append((resource.RLIMIT_DATA, _limit(resource.RLIMIT_DATA, memory_limit)))
            limits.append((resource.RLIMIT_AS, _limit(resource.RLIMIT_AS, memory_limit)))
        if cpu_seconds is not None:
            soft, hard = _limit(resource.RLIMIT_CPU, cpu_seconds + 1)
            limits.append((resource.RLIMIT_CPU, (max(1, soft - 1), hard)))
        nproc = getattr(resource, "RLIMIT_NPROC", None)
        if max_processes is not None and nproc is not None:
            # the cap counts every process of the user: exact for a user of its own,
            # on top of what the user runs already otherwise
            more = 0 if self.uid is not None else count_user_processes()
            limits.append((nproc, _limit(nproc, max_processes + more)))
        return limits

    def _remove_folder(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    # ------------------------------------------------------------------ waiting

    def _wait(
        self, deadline: float, write: bool = False, once: bool = False
    ) -> tuple[bool, bool, bool]:
        """Wait until stdout is readable, stdin writable (if ``write``) or the child exits.

        Drains stderr meanwhile.  Returns (readable, writable, exited); raises
        ProcessTimedOut at the deadline, ProcessEnded when nothing is left to wait for.
        With ``once``, looks without waiting and returns what it saw.
        """
        while True:
            if self.out_closed and self.fd_err is None and not write:
                raise ProcessEnded
            left = 0.0 if once else deadline - time.monotonic()
            if left <= 0 and not once:
                raise ProcessTimedOut
            events = self._poller(write).poll(0 if once else max(1, int(left * 1000) + 1))
            readable = writable = exited = False
            for fd, _ in events:
                if fd == self.fd_err:
                    self._drain_stderr()
                elif fd == self.fd_out:
                    readable = True
                elif fd == self.fd_in:
                    writable = True
                elif fd == self.pidfd:
                    exited = self.leader_gone = True
            if readable or writable or exited or once:
                return readable, writable, exited

    def _poller(self, write: bool) -> select.poll:
        """A poll object for the descriptors waited on now (kept while they stay the same)."""
        out = -1 if self.out_closed else self.fd_out
        pidfd = -1 if self.pidfd is None or self.leader_gone else self.pidfd
        key = (out, self.fd_err, self.fd_in if write else -1, pidfd)
        if self._poll is not None and self._poll[0] == key:
            return self._poll[1]
        poller = select.poll()
        for fd, events in zip(key, (select.POLLIN, select.POLLIN, select.POLLOUT, select.POLLIN),
                              strict=True):  # fmt: skip
            if fd is not None and fd >= 0:
                poller.register(fd, events)
        self._poll = key, poller
        return poller

    def _close_pidfd(self) -> None:
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None

    def _drain_stderr(self) -> None:
        assert self.fd_err is not None
        data = _read(self.fd_err)
        if data is None:
            return
        if not data:
            with contextlib.suppress(OSError):
                os.close(self.fd_err)
            self.fd_err = None
            return
        self.stderr_bytes += len(data)
        self.tail += data
        del self.tail[:-STDERR_TAIL_BYTES]
        if self.log is not None and self.log_room > 0:
            escaped = self._stderr_escaper.feed(data)  # no escape sequence reaches the file
            self.log.write(escaped[: self.log_room])
            self.log_room -= len(escaped)
            if self.log_room <= 0:
                self.log.write(b"\n[stderr log cut here: the size limit was reached]\n")

    def _read_stdout(self) -> None:
        data = _read(self.fd_out)
        if data is None:
            return
        if data:
            self.buffer += data
        else:
            self.out_closed = True

    # ------------------------------------------------------------------ lines

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` to the child's stdin; ProcessEnded if it is closed, or at the deadline."""
        if self.fd_in < 0:
            raise ProcessEnded
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd_in, view)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise ProcessEnded from None
            view = view[written:]
            if view:
                readable, _, _ = self._wait(deadline, write=True)
                if readable:  # keep the child's stdout flowing while it is fed
                    self._read_stdout()
                    if len(self.buffer) > MAX_LINE_BYTES:
                        raise LineTooLong

    def read_line(self, deadline: float, max_bytes: int = MAX_LINE_BYTES) -> bytes:
        """The next line of the child's stdout, newline included.

        Raises ProcessEnded at the end of its output, ProcessTimedOut at the
        deadline and LineTooLong after ``max_bytes`` without a newline.
        """
        while True:
            end = self.buffer.find(b"\n", 0, max_bytes)
            if end >= 0:
                line = bytes(self.buffer[: end + 1])
                del self.buffer[: end + 1]
                return line
            if len(self.buffer) >= max_bytes:
                raise LineTooLong
            if self.out_closed:
                raise ProcessEnded
            if self.leader_gone:  # what it wrote before it exited is in the pipe by now
                before = len(self.buffer)
                self._read_stdout()
                if len(self.buffer) == before:
                    raise ProcessEnded  # even if a process it started holds stdout open
                continue
            readable, _, _ = self._wait(deadline)
            if readable:
                self._read_stdout()

    def unread_output(self) -> bytes:
        """What the child wrote to stdout and nobody has read yet (read without waiting)."""
        if not self.buffer and not self.out_closed:
            self._read_stdout()  # one read, no waiting: nothing there is the usual case
            if not self.buffer:
                return b""
        with contextlib.suppress(ProcessTimedOut, ProcessEnded):
            while not self.out_closed and len(self.buffer) < MAX_LINE_BYTES:
                readable, _, _ = self._wait(0, once=True)
                if not readable:
                    break
                before = len(self.buffer)
                self._read_stdout()
                if len(self.buffer) == before:
                    break
        return bytes(self.buffer)

    def stderr_tail(self, max_lines: int = 8, max_chars: int = 600, separator: str = " | ") -> str:
        """The last lines the child wrote to stderr (at most ``max_chars``), non-blank ones."""
        if self.fd_err is not None:
            with contextlib.suppress(ProcessEnded):
                self._wait(0, once=True)
        text = self.tail.decode("utf-8", errors="replace")
        lines = [line.rstrip() for line in text.splitlines() if line.strip()][-max_lines:]
        joined = separator.join(lines)
        if len(joined) > max_chars:
            joined = "..." + joined[3 - max_chars :]
        return "".join(c if c.isprintable() or c == "\n" else "?" for c in joined)

    # ------------------------------------------------------------------ ending

    def _exited(self) -> bool:
        """Whether the child has exited; it stays a zombie (its pid, hence its group, reserved)."""
        if self.returncode is not None:
            return True
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None and info.si_pid != 0

    def wait_exit(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the child to exit by itself, draining its output."""
        deadline = time.monotonic() + timeout
        while not self._exited():
            if time.monotonic() >= deadline:
                return False
            with contextlib.suppress(ProcessTimedOut, ProcessEnded):
                readable, _, _ = self._wait(min(deadline, time.monotonic() + 0.01))
                if readable:
                    self._read_stdout()
                    del self.buffer[:-MAX_LINE_BYTES]
            if self.out_closed and self.fd_err is None:
                time.sleep(0.002)
        return True

    def kill(self) -> None:
        """Kill the child's whole process group and reap the child; idempotent."""
        if self.returncode is None:
            if not self._exited():
                self.killed = True
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)  # the group, while its leader's pid is held
            self.returncode = self.popen.wait()
            if self.uid is not None:  # and whatever left the group
                kill_user(self.uid)
        self._close_pipes()
        self._remove_folder()

    def close(self, grace: float) -> bool:
        """End the child: close its stdin, give it ``grace`` seconds to exit, then kill the group.

        Returns whether it exited by itself, with status 0, within the grace time.
        """
        if self.returncode is None:
            with contextlib.suppress(OSError):
                os.close(self.fd_in)
            self.fd_in = -1
            self.wait_exit(grace)
        self.kill()
        return not self.killed and self.returncode == 0

    def _close_pipes(self) -> None:
        if self.fd_err is not None:
            with contextlib.suppress(ProcessEnded):
                self._wait(0, once=True)  # what is left of stderr, for the tail
        for fd in (self.fd_in, self.fd_out, self.fd_err):
            if fd is not None and fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.fd_out = -1
        if self.log is not None:
            self.log.close()
            self.log = None
        self._close_pidfd()
        self.fd_in = -1
        self.fd_err = None
        self.out_closed = True
        _LIVE.discard(self)

    def __del__(self) -> None:
        # forgotten without close(): no child process outlives its object
        if getattr(self, "returncode", 0) is None:
            with contextlib.suppress(Exception):
                self.kill()

    def exit_description(self) -> str:
        """How the child ended: ``exited with status N`` or ``was killed by SIGNAME``."""
        code = self.returncode
        if code is None:
            return "is still running"
        if self.sandboxed and code > 128:  # bubblewrap passes on its program's signal so
            code = 128 - code
        if code >= 0:
            return f"exited with status {code}"
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"


def _read(fd: int) -> bytes | None:
    """What a non-blocking pipe holds: None if nothing yet, ``b""`` at its end."""
    try:
        return os.read(fd, CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _kill_all() -> None:
    """At interpreter exit: no child process outlives the referee."""
    for child in list(_LIVE):
        with contextlib.suppress(Exception):
            child.kill()


atexit.register(_kill_all)
