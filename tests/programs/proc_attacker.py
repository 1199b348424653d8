"""A bot program that attacks through /proc: ``python proc_attacker.py [PORT]``.

Standard library only.  At its first request it looks for the referee (its
parent, if that runs ``tajmahal``) and for the other seats' programs (the
referee's other children), then tries, on each: to read
``/proc/<pid>/environ``, to list ``/proc/<pid>/fd`` and open what is there
(reading and writing), to read ``/proc/<pid>/mem``, and at last to kill the
other seats.  With PORT, it also tries to connect to 127.0.0.1:PORT (the
network).  It writes what worked on stderr as one line, ``ATTACK {json}``,
and plays the first legal move throughout.

:func:`attack` is the same attack for a bot inside the referee's process.
"""

import json
import os
import signal
import socket
import sys

SECRET_NAME = "TAJMAHAL_REFEREE_SECRET"


def _command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _readable(path, size=4096):
    try:
        with open(path, "rb") as file:
            return file.read(size)
    except OSError:
        return None


def _memory(pid):
    """Whether some bytes of the process's memory could be read."""
    maps = _readable(f"/proc/{pid}/maps", 1 << 20)
    if maps is None:
        return False
    try:
        with open(f"/proc/{pid}/mem", "rb") as mem:
            for line in maps.decode().splitlines():
                fields = line.split()
                if "r" in fields[1] and (len(fields) < 6 or fields[5] == "[heap]"):
                    start = int(fields[0].split("-")[0], 16)
                    mem.seek(start)
                    if mem.read(64):
                        return True
    except (OSError, ValueError, OverflowError):
        return False
    return False


def _descriptors(pid):
    """(how many fds are listed, how many could be opened for reading, for writing)."""
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return -1, 0, 0
    opened = written = 0
    for name in names:
        path = f"/proc/{pid}/fd/{name}"
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            opened += 1
            os.close(fd)
        except OSError:
            pass
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            written += 1
            os.close(fd)
        except OSError:
            pass
    return len(names), opened, written


def _probe(pid, secret):
    environ = _readable(f"/proc/{pid}/environ", 1 << 20)
    listed, opened, written = _descriptors(pid)
    return {
        "environ": environ is not None,
        "secret": bool(secret) and environ is not None and secret.encode() in environ,
        "fds_listed": listed,
        "fds_opened": opened,
        "fds_written": written,
        "mem": _memory(pid),
    }


def _parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as file:
            return int(file.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def attack(port=None, secret=None, kill=True):
    """The attack from this process; returns what worked (a dict).

    The referee is the parent if its command line names tajmahal (this
    process itself, in-process); the other seats are the parent's other
    children (nothing else on the machine is touched).
    """
    me, parent = os.getpid(), os.getppid()
    if secret is not None:  # a bot inside the referee: the referee is this process
        referee, parent = [me], me
    else:
        referee = [parent] if "tajmahal" in _command_line(parent) else []
    seats = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != me and _parent_of(name) == parent:
            seats.append(int(name))
    report = {"referee_seen": bool(referee), "seats_seen": len(seats)}
    if secret is None:
        secret = os.environ.get(SECRET_NAME, "")
    report["own_environ_secret"] = bool(secret) and secret in os.environ.get(SECRET_NAME, "")
    found = [_probe(pid, secret) for pid in referee]
    for key in ("environ", "secret", "mem"):
        report[f"referee_{key}"] = any(probe[key] for probe in found)
    for key in ("fds_opened", "fds_written"):
        report[f"referee_{key}"] = sum(probe[key] for probe in found)
    report["referee_fds_listed"] = max([probe["fds_listed"] for probe in found], default=-1)
    found = [_probe(pid, secret) for pid in seats]
    for key in ("environ", "mem"):
        report[f"seats_{key}"] = sum(probe[key] for probe in found)
    for key in ("fds_opened", "fds_written"):
        report[f"seats_{key}"] = sum(probe[key] for probe in found)
    killed = 0
    if kill:
        for pid in seats:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
    report["seats_killed"] = killed
    report["network"] = None
    if port is not None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            report["network"] = True
        except OSError:
            report["network"] = False
    return report


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else None
    json.loads(sys.stdin.readline())  # hello
    print(json.dumps({"type": "ready", "version": 1, "name": "attacker"}), flush=True)
    attacked = False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "result":
            continue
        if not attacked:
            attacked = True
            report = attack(port)
            print("ATTACK " + json.dumps(report, sort_keys=True), file=sys.stderr, flush=True)
        move = message["legal_moves"][0]
        print(json.dumps({"type": "move", "decision": message["decision"], "move": move}),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
