"""Isolation of bot programs: the /proc attacker in each mode; the caps on memory, CPU, processes.

tests/programs/proc_attacker.py looks for the referee and the other seats
through /proc and tries to read their environment, file descriptors and
memory, to write into their channels and to kill them; docs/trust.md says
what each mode prevents, and these tests check it, in the real thing (a
``tajmahal match`` process, real bubblewrap).
"""

from __future__ import annotations

import errno
import json
import os
import platform
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tajmahal as tm
from tajmahal.protocol import ProcessLimits, SandboxError
from tajmahal.protocol._process import ChildProcess
from tajmahal.protocol._seccomp import seccomp_program
from tajmahal.protocol.confine import FIRST_BOT_UID, sandbox_problem, switch_user_command

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = Path(__file__).resolve().parent / "programs"
ATTACKER = PROGRAMS / "proc_attacker.py"
HOSTILE = PROGRAMS / "hostile_bot.py"
PALACE = ROOT / "examples" / "bots" / "palace_lover.py"
SECRET = "referee-secret-3c9f"
AS_ROOT = os.geteuid() == 0
SANDBOX_PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(SANDBOX_PROBLEM is not None, reason=str(SANDBOX_PROBLEM))


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    """A listening TCP port on 127.0.0.1 (connecting needs no accept)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


def run_attack(
    tmp_path: Path, port: int, mode: str, as_user: int | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play attacker, random (registered), palace_lover (a program) in a ``tajmahal match``.

    Returns the attacker's report and the game record.  With ``as_user`` (the
    tests run as root), the referee runs under that user id instead (keeping
    only ``CAP_DAC_READ_SEARCH``, to reach this Python), as a referee of an
    ordinary user would.
    """
    logs, record = tmp_path / "logs", tmp_path / "record.json"
    env = dict(os.environ, TAJMAHAL_REFEREE_SECRET=SECRET)
    prefix: list[str] = []
    if as_user is not None:
        tmp_path.chmod(0o777)
        prefix = switch_user_command(as_user)
        prefix.remove("--no-new-privs")
        prefix.remove("--pdeathsig=KILL")
    if mode == "in-process":
        script = (
            "import json, os, sys; sys.path.insert(0, sys.argv[1]); import proc_attacker\n"
            "import tajmahal as tm\n"
            "class Attacker:\n"
            "    report = None\n"
            "    def choose(self, view, legal):\n"
            "        if Attacker.report is None:\n"
            "            Attacker.report = proc_attacker.attack(int(sys.argv[2]), "
            "secret=os.environ['TAJMAHAL_REFEREE_SECRET'])\n"
            "        return legal[0]\n"
            "result = tm.play_match([Attacker(), 'random', sys.argv[3]], seed=5)\n"
            "print('ATTACK ' + json.dumps(Attacker.report))\n"
            "print('RECORD ' + json.dumps({'faults': [f.seat for f in result.faults]}))\n"
        )
        palace = f"cmd:{sys.executable} {PALACE}"
        done = subprocess.run(
            [sys.executable, "-c", script, str(PROGRAMS), str(port), palace],
            env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout.split("ATTACK ", 1)[1].splitlines()[0])
        faults = json.loads(done.stdout.split("RECORD ", 1)[1].splitlines()[0])["faults"]
        return report, {"faults": [{"seat": seat} for seat in faults]}
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "tajmahal", "match",
         f"cmd:{sys.executable} {ATTACKER} {port}",
         "random", f"cmd:{sys.executable} {PALACE}", "--seed", "5", "--quiet",
         "--bot-logs", str(logs), "--record", str(record), f"--{mode}"],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = "".join(path.read_text() for path in sorted(logs.iterdir()))
    found = re.search(r"^ATTACK (\{.*\})$", text, re.M)
    assert found, text
    return json.loads(found.group(1)), json.loads(record.read_text())


def test_a_bot_in_the_referee_process_reaches_everything(tmp_path: Path, port: int) -> None:
    report, record = run_attack(tmp_path, port, "in-process")
    # in-process is no isolation at all: the referee's process is the bot's
    assert report["referee_secret"] and report["referee_mem"]
    assert report["seats_seen"] == 1 and report["seats_killed"] == 1  # the program beside it
    assert 2 in [fault["seat"] for fault in record["faults"]]
    assert report["network"] is True


def test_an_isolated_bot_cannot_read_or_write_the_referee_or_the_other_seats(
    tmp_path: Path, port: int
) -> None:
    report, record = run_attack(tmp_path, port, "isolate")
    assert report["seats_seen"] == 2  # the same PID namespace: they are visible
    assert not report["own_environ_secret"]  # a minimal environment
    # the referee is non-dumpable: its environment, memory and channels are out of reach
    assert not report["referee_environ"] and not report["referee_secret"]
    assert not report["referee_mem"]
    assert report["referee_fds_opened"] == report["referee_fds_written"] == 0
    if AS_ROOT:  # each program has a user of its own: the other seats are out of reach too
        assert report["seats_environ"] == report["seats_mem"] == 0
        assert report["seats_fds_opened"] == report["seats_fds_written"] == 0
        assert report["seats_killed"] == 0
        assert [fault["seat"] for fault in record["faults"]] == []
    else:  # the same user: the registered bot's runner is non-dumpable, the program is not
        assert report["seats_killed"] == 2
    assert report["network"] is True  # isolation does not take the network away


@pytest.mark.skipif(not AS_ROOT, reason="plays a referee of another user: needs root")
def test_an_isolated_bot_of_an_ordinary_user_cannot_reach_the_referee(
    tmp_path: Path, port: int
) -> None:
    # without root there is no user per program: the referee and the runner of a
    # registered bot are non-dumpable, but a cmd: program of the same user is not
    report, record = run_attack(tmp_path, port, "isolate", as_user=FIRST_BOT_UID - 1)
    assert report["seats_seen"] == 2 and not report["own_environ_secret"]
    assert not report["referee_environ"] and not report["referee_mem"]
    assert report["referee_fds_opened"] == report["referee_fds_written"] == 0
    assert report["seats_environ"] == report["seats_mem"] == 1  # the program, not the runner
    assert report["seats_killed"] == 2  # the same user may signal both: docs/trust.md
    assert {fault["seat"] for fault in record["faults"]} == {1, 2}


@needs_sandbox
def test_a_sandboxed_bot_sees_no_other_process_and_no_network(tmp_path: Path, port: int) -> None:
    report, record = run_attack(tmp_path, port, "sandbox")
    assert report["seats_seen"] == 0 and report["seats_killed"] == 0
    assert not report["own_environ_secret"]
    assert not report["referee_secret"] and not report["referee_mem"]
    assert report["referee_fds_opened"] == report["referee_fds_written"] == 0
    assert report["network"] is False
    assert [fault["seat"] for fault in record["faults"]] == []


def test_the_sandbox_refuses_clearly_where_bubblewrap_cannot_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    sandbox_problem.cache_clear()
    try:
        monkeypatch.setattr("tajmahal.protocol.confine.DEFAULT_PATH", "/nonexistent")
        with pytest.raises(SandboxError, match=r"bubblewrap \(bwrap\) is not installed"):
            tm.play_match(["random"] * 3, seed=1, sandbox=True)
    finally:
        sandbox_problem.cache_clear()


# ---------------------------------------------------------------- the caps


def hostile(mode: str) -> str:
    return f"cmd:{sys.executable} {HOSTILE} {mode}"


def fault_of(result: tm.MatchResult, seat: int) -> tm.Fault | None:
    return next((fault for fault in result.faults if fault.seat == seat), None)


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_sandbox)])
def test_the_memory_cap_covers_shared_mappings(tmp_path: Path, sandbox: bool) -> None:
    limits = ProcessLimits(memory_mb=64, log_dir=tmp_path, sandbox=sandbox)
    result = tm.play_match([hostile("shared-memory"), "random", "random"], seed=2,
                           process_limits=limits, time_limit=60)
    said = "".join(path.read_text() for path in tmp_path.iterdir())
    mapped = int(re.search(r"mapped (\d+) MiB", said).group(1))  # type: ignore[union-attr]
    assert mapped < 64  # of the 768 MiB it tried to touch
    assert fault_of(result, 0) is None  # it went on playing


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_sandbox)])
def test_the_cpu_cap_stops_a_program_that_spins(sandbox: bool) -> None:
    # the time limit alone would wait 600 s: the CPU cap (1 s of CPU) ends it long before
    limits = ProcessLimits(cpu_seconds=1, sandbox=sandbox)
    result = tm.play_match([hostile("spin"), "random", "random"], seed=2,
                           process_limits=limits, time_limit=600)
    fault = fault_of(result, 0)
    assert fault is not None and fault.kind.value == "crash", result.faults
    assert re.search(r"killed by SIG(XCPU|KILL)", fault.detail), fault.detail


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_sandbox)])
def test_the_process_cap_bounds_a_fork_bomb(tmp_path: Path, sandbox: bool) -> None:
    limits = ProcessLimits(max_processes=16, log_dir=tmp_path, sandbox=sandbox)
    result = tm.play_match([hostile("fork-bomb"), "random", "random"], seed=2,
                           process_limits=limits, time_limit=120)
    said = "".join(path.read_text() for path in tmp_path.iterdir())
    started = int(re.search(r"started (\d+) processes", said).group(1))  # type: ignore[union-attr]
    if AS_ROOT:  # a user of its own: the cap is exact (the program itself is one)
        assert started < 16
    else:  # counted on top of what the user runs already
        assert started < 4096
    assert fault_of(result, 0) is None


# ---------------------------------------------------------------- environment and folder


def test_a_program_gets_a_minimal_environment_and_a_folder_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = ("import json, os, sys; print(json.dumps({'cwd': os.getcwd(), 'env': dict(os.environ),"
            " 'files': os.listdir('.')}), file=sys.stderr); sys.exit(3)")
    monkeypatch.setenv("TAJMAHAL_REFEREE_SECRET", SECRET)
    monkeypatch.chdir(tmp_path)
    player = tm.protocol.ProcessPlayer([sys.executable, "-c", code], seat=0, num_players=3,
                                       seed=1)
    with player:
        assert player.child is not None and player.child.wait_exit(60)
        said = json.loads(player.child.stderr_tail(max_chars=4000))
    assert set(said["env"]) <= {"PATH", "HOME", "TMPDIR", "LANG", "LC_CTYPE"}
    assert said["cwd"] == said["env"]["HOME"] != str(tmp_path) and said["files"] == []
    assert not Path(said["cwd"]).exists()  # removed with the program


def test_relative_paths_in_a_command_still_name_the_referee_s_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    spec = f"cmd:{sys.executable} {PALACE.relative_to(ROOT)}"
    result = tm.play_match([spec, "random", "random"], seed=4)
    assert result.faults == ()


@needs_sandbox
def test_tournament_and_check_bot_take_sandbox(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "tournament", "random", "greedy", "random",
         "--games", "6", "--seed", "1", "--backend", "serial", "--sandbox", "--quiet", "--json"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["table"]
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "check-bot", f"cmd:{sys.executable} {PALACE}",
         "--sandbox"], capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All " in done.stdout


def peek(*paths: Path) -> str:
    return f"cmd:{sys.executable} {HOSTILE} peek " + " ".join(str(path) for path in paths)


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A folder outside /tmp, which the sandbox's private /tmp would hide anyway."""
    folder = Path(tempfile.mkdtemp(prefix="tajmahal-test-", dir="/var/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_sandbox)])
def test_a_sandboxed_program_cannot_read_the_results_file_nor_the_bot_logs(
    outside_tmp: Path, sandbox: bool
) -> None:
    results, logs = outside_tmp / "results.jsonl", outside_tmp / "logs"
    limits = ProcessLimits(log_dir=logs)
    tm.run_tournament(
        [peek(results, logs), "random", "random"], games=3, num_players=3, seed=3, out=results,
        backend="serial", seating="rotation", isolate=True, sandbox=sandbox,
        match_options={"process_limits": limits},
    )  # fmt: skip
    said = "".join(path.read_text() for path in logs.iterdir())
    seen: dict[str, set[str]] = {str(results): set(), str(logs): set()}
    for path, what in re.findall(r"peek (\S+): (.+)", said):
        seen[path] = seen[path] | {what}
    if sandbox:  # the header's tournament seed would give every deal away
        assert seen == {str(results): {"Permission denied"}, str(logs): {"0 entries"}}, said
    else:  # isolated only: a program reads what its user (or root's search right) reads
        assert all(what.split()[1] in ("bytes", "entries") for what in seen[str(results)]), said
        assert seen[str(results)] and seen[str(logs)] and "0 entries" not in seen[str(logs)], said


# ---------------------------------------------------------------- Unix sockets and memory files


def run_bpf(program: bytes, arch: int, number: int, first: int = 0) -> int:
    """What the classic BPF ``program`` answers for a system call (an interpreter of the
    four instructions the filter uses)."""
    data = struct.pack("=iIQ6Q", number, arch, 0, first, 0, 0, 0, 0, 0)
    code = [struct.unpack_from("=HBBI", program, at) for at in range(0, len(program), 8)]
    here, accumulator = 0, 0
    while True:
        op, true, false, k = code[here]
        if op == 0x20:  # ld [k]
            accumulator = struct.unpack_from("=I", data, k)[0]
        elif op in (0x15, 0x35):  # jeq, jge
            taken = accumulator == k if op == 0x15 else accumulator >= k
            here += true if taken else false
        else:
            assert op == 0x06, op
            return int(k)
        here += 1


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_seccomp_filter_refuses_unix_sockets_and_foreign_system_calls(machine: str) -> None:
    program = seccomp_program(machine)
    assert program is not None
    arch, numbers = 0xC000003E if machine == "x86_64" else 0xC00000B7, {
        "x86_64": {"socket": 41, "socketpair": 53, "memfd_create": 319, "read": 0},
        "aarch64": {"socket": 198, "socketpair": 199, "memfd_create": 279, "read": 63},
    }[machine]
    allow, eperm, kill = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x80000000
    assert run_bpf(program, arch, numbers["socket"], socket.AF_UNIX) == eperm
    assert run_bpf(program, arch, numbers["socket"], 40) == eperm  # AF_VSOCK
    assert run_bpf(program, arch, numbers["socket"], (1 << 32) | socket.AF_UNIX) == eperm
    assert run_bpf(program, arch, numbers["socket"], socket.AF_INET) == allow
    assert run_bpf(program, arch, numbers["socket"], socket.AF_INET6) == allow
    assert run_bpf(program, arch, numbers["socketpair"], socket.AF_UNIX) == eperm
    assert run_bpf(program, arch, numbers["memfd_create"]) == eperm
    assert run_bpf(program, arch, 425) == eperm  # io_uring_setup
    assert run_bpf(program, arch, numbers["read"]) == allow
    assert run_bpf(program, 0x40000003, 359, socket.AF_UNIX) == kill  # an i386 call
    if machine == "x86_64":  # x32 calls carry bit 30 in their number
        assert run_bpf(program, arch, 0x40000000 | 41, socket.AF_UNIX) == kill
    assert seccomp_program("sparc") is None


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_sandbox)])
def test_a_sandboxed_program_reaches_no_unix_socket_of_the_host(
    outside_tmp: Path, sandbox: bool
) -> None:
    # a network namespace does not cover sockets in files: the seccomp filter does
    path, logs = outside_tmp / "host.sock", outside_tmp / "logs"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        path.chmod(0o777)  # the program's own user may connect: only the sandbox stops it
        listener.listen(8)
        listener.setblocking(False)
        limits = ProcessLimits(log_dir=logs, sandbox=sandbox)
        spec = f"cmd:{sys.executable} {HOSTILE} unix-sockets {path}"
        result = tm.play_match([spec, "random", "random"], seed=6, process_limits=limits,
                               time_limit=60)
        said = "".join(each.read_text() for each in logs.iterdir())
        found = re.search(r"^unix-sockets (\{.*\})$", said, re.M)
        assert found, said
        tried = json.loads(found.group(1))
        if sandbox:
            assert tried == dict.fromkeys(["connect", "stream", "datagram", "pair", "memfd"],
                                          "EPERM"), said
            with pytest.raises(BlockingIOError):
                listener.accept()  # nobody came
        else:  # isolated only: the host's sockets are the program's to use
            assert tried["connect"] == tried["pair"] == "done", said
            listener.accept()[0].close()
    assert fault_of(result, 0) is None  # refused calls are the program's failure: it plays on
    assert len(result.record.moves) > 10


@pytest.mark.skipif(platform.machine() != "x86_64", reason="a 32-bit call of x86-64")
@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_sandbox)])
def test_a_sandboxed_program_making_a_32_bit_system_call_is_killed(
    tmp_path: Path, sandbox: bool
) -> None:
    # the filter knows x86-64 calls only: another architecture's calls would slip past it
    limits = ProcessLimits(log_dir=tmp_path, sandbox=sandbox)
    result = tm.play_match([hostile("i386-call"), "random", "random"], seed=6,
                           process_limits=limits, time_limit=60)  # fmt: skip
    said = "".join(each.read_text() for each in tmp_path.iterdir())
    fault = fault_of(result, 0)
    if sandbox:
        assert "getpid gave" not in said, said
        assert fault is not None and fault.kind.value == "crash", result.faults
        assert "SIGSYS" in fault.detail, fault.detail
    else:
        assert "i386 getpid gave" in said and fault is None, said
    assert len(result.record.moves) > 10  # the match went on


@needs_sandbox
@pytest.mark.parametrize("tmpdir", ["/tmp", "elsewhere"])
def test_a_sandboxed_program_cannot_write_past_its_memory_cap(
    tmp_path: Path, tmpdir: str, outside_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if tmpdir == "elsewhere":  # the program's folder is made there: a tmpfs of its own
        monkeypatch.setattr(tempfile, "tempdir", str(outside_tmp))
    name = f"hoard-{os.getpid()}-{tmp_path.name}"
    limits = ProcessLimits(memory_mb=32, log_dir=tmp_path / "logs", sandbox=True)
    spec = f"cmd:{sys.executable} {HOSTILE} fill-memory {name} 128"
    result = tm.play_match([spec, "random", "random"], seed=6, process_limits=limits,
                           time_limit=60)
    said = "".join(each.read_text() for each in (tmp_path / "logs").iterdir())
    found = re.search(r"^fill-memory (\{.*\})$", said, re.M)
    assert found, said
    filled = json.loads(found.group(1))
    assert filled["/dev"] == {"bytes": 0, "ended": "EROFS"}, said
    for place, what in filled.items():  # of the 128 MiB it tried in each
        assert what["ended"] in ("ENOSPC", "EROFS"), (place, said)
    assert sum(what["bytes"] for what in filled.values()) <= 32 << 20, said
    assert fault_of(result, 0) is None
    for host in ("/dev/shm", "/dev", "/tmp"):  # it wrote in memory of its own, freed with it
        assert not (Path(host) / name).exists()
    assert list(outside_tmp.iterdir()) == []


@needs_sandbox
def test_the_sandbox_starts_from_any_folder_and_wherever_tmpdir_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir("/usr/bin")  # the probe mounts nothing over the referee's folder
    sandbox_problem.cache_clear()
    try:
        assert sandbox_problem() is None
    finally:
        sandbox_problem.cache_clear()
    # the program's folder inside a folder bound back read-only (a file: bot's, say)
    kept = Path(tempfile.mkdtemp(prefix="tajmahal-test-", dir="/tmp"))
    try:
        (kept / "tmp").mkdir()
        monkeypatch.setattr(tempfile, "tempdir", str(kept / "tmp"))
        code = "import os, sys; open('x', 'w').write('y'); print(os.getcwd(), file=sys.stderr)"
        child = ChildProcess([sys.executable, "-c", code], sandbox=True, reads=[str(kept)],
                             memory_limit=1 << 30)  # fmt: skip
        try:
            assert child.wait_exit(120)
        finally:
            assert child.close(1), child.stderr_tail()  # exited by itself, with status 0
        assert str(kept / "tmp") in child.stderr_tail()
        assert list((kept / "tmp").iterdir()) == []  # nothing written to the host, folder gone
    finally:
        shutil.rmtree(kept, ignore_errors=True)
