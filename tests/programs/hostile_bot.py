"""Bot programs that misbehave, one per mode: ``python hostile_bot.py MODE [PID_FILE]``.

``python hostile_bot.py peek PATH...`` says on stderr what it can read of each PATH;
``unix-sockets PATH`` what came of connecting to the Unix socket PATH and of making
Unix sockets; ``i386-call`` makes a 32-bit system call (x86-64 only);
``fill-memory NAME MIB`` how many bytes it wrote into a file NAME in
each of ``/dev/shm``, ``/dev``, ``/tmp`` and its folder, trying MIB MiB in each.

Standard library only.  Until it misbehaves, each mode plays the first legal
move.  With PID_FILE, the program appends its pid (and the pids of processes
it starts) to that file, so that tests can check that none is left.
"""

import json
import os
import subprocess
import sys
import time

MODE = sys.argv[1]
TAKES_ARGUMENTS = ("peek", "unix-sockets", "fill-memory")
PIDS = sys.argv[2] if len(sys.argv) > 2 and MODE not in TAKES_ARGUMENTS else None
PEEK = sys.argv[2:] if MODE in TAKES_ARGUMENTS else []


def note_pid(pid):
    if PIDS:
        with open(PIDS, "a") as file:
            file.write(f"{pid}\n")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def sleep_forever():
    while True:
        time.sleep(1000)


def attempt(action):
    """What came of ``action()``: "done", or the error's name (such as "EPERM")."""
    import errno

    try:
        action()
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return "done"


def unix_sockets(path):
    import socket

    def connect():
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(5)
            client.connect(path)
            client.sendall(b"hello from the sandbox\n")

    def make(kind):
        return lambda: socket.socket(socket.AF_UNIX, kind).close()

    def pair():
        for each in socket.socketpair():
            each.close()

    return {"connect": attempt(connect), "stream": attempt(make(socket.SOCK_STREAM)),
            "datagram": attempt(make(socket.SOCK_DGRAM)), "pair": attempt(pair),
            "memfd": attempt(lambda: os.close(os.memfd_create("hoard")))}


def i386_getpid():
    """getpid() through the 32-bit system call gate (``int 0x80``) of an x86-64 kernel."""
    import ctypes
    import mmap

    code = bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3])  # mov eax, 20; int 0x80; ret
    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    return ctypes.CFUNCTYPE(ctypes.c_int)(address)()


def fill_memory(name, mib):
    """Write up to ``mib`` MiB into a file ``name`` in each place (kept: a sandbox's files
    go with it); the bytes written and how it ended, per place."""
    chunk = b"x" * (1 << 20)
    filled = {}
    for folder in ("/dev/shm", "/dev", "/tmp", os.getcwd()):
        path, written, ended = os.path.join(folder, name), 0, "done"
        try:
            with open(path, "wb", buffering=0) as file:
                while written < mib << 20:
                    written += file.write(chunk)
        except OSError as exc:
            import errno

            ended = errno.errorcode.get(exc.errno, str(exc.errno))
        filled[folder] = {"bytes": written, "ended": ended}
    return filled


def main():
    note_pid(os.getpid())
    if MODE == "crash-at-once":
        print("cannot start: the model file is missing", file=sys.stderr)
        sys.exit(3)
    json.loads(sys.stdin.readline())  # hello
    if MODE == "silent-start":
        sleep_forever()
    if MODE == "bad-handshake":
        send({"type": "ready", "version": 99})
        sleep_forever()
    send({"type": "ready", "version": 1, "name": MODE, "deterministic": True})
    asked = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "result":
            if MODE == "no-exit":
                sleep_forever()
            continue
        asked += 1
        legal = message["legal_moves"]
        move = legal[0]
        if MODE == "crash-mid" and asked == 5:
            raise RuntimeError("boom: the bot crashed in the middle of the game")
        if MODE == "hang" and asked == 3:
            sleep_forever()
        if MODE == "late" and asked == 3:
            time.sleep(message["time_limit"] * 2)
        if MODE == "early-exit" and asked == 3:
            sys.exit(0)
        if MODE == "garbage" and asked == 2:
            junk = os.urandom(3 * 1024 * 1024)
            sys.stdout.buffer.write(junk.replace(b"\n", b"x") + b"\n")
            sys.stdout.flush()
            continue
        if MODE == "wrong-json":
            wrong = [{"type": "move", "move": 42}, {"type": "moves", "move": move},
                     {"type": "move", "move": "palace nowhere"}, [1, 2, 3]]
            send(wrong[asked % 3])
            continue
        if MODE == "child-keeps-stdout" and asked == 2:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"])
            note_pid(child.pid)
            os._exit(0)  # the child keeps stdout (and stderr) open
        if MODE == "peek" and asked == 1:
            for path in PEEK:
                try:
                    if os.path.isdir(path):
                        print(f"peek {path}: {len(os.listdir(path))} entries", file=sys.stderr)
                    else:
                        with open(path, "rb") as file:
                            print(f"peek {path}: {len(file.read())} bytes", file=sys.stderr)
                except OSError as exc:
                    print(f"peek {path}: {exc.strerror}", file=sys.stderr)
            sys.stderr.flush()
        if MODE == "unix-sockets" and asked == 2:
            print("unix-sockets " + json.dumps(unix_sockets(PEEK[0])), file=sys.stderr, flush=True)
        if MODE == "fill-memory" and asked == 2:
            filled = fill_memory(PEEK[0], int(PEEK[1]))
            print("fill-memory " + json.dumps(filled), file=sys.stderr, flush=True)
        if MODE == "i386-call" and asked == 2:
            print(f"i386 getpid gave {i386_getpid()}", file=sys.stderr, flush=True)
        if MODE == "memory" and asked == 2:
            hoard = []
            while True:
                hoard.append(bytearray(16 * 1024 * 1024))
        if MODE == "shared-memory" and asked == 2:
            # anonymous shared mappings (not in the data segment), touched page by page
            import mmap
            mapped = []
            try:
                while len(mapped) < 48:  # 768 MiB at most
                    chunk = mmap.mmap(-1, 16 << 20, flags=mmap.MAP_SHARED)
                    for offset in range(0, 16 << 20, 4096):
                        chunk[offset] = 1
                    mapped.append(chunk)
            except (OSError, MemoryError, ValueError):
                pass
            print(f"mapped {len(mapped) * 16} MiB", file=sys.stderr, flush=True)
        if MODE == "spin" and asked == 2:
            while True:  # never answers: only the CPU cap (or the time limit) stops it
                pass
        if MODE == "fork-bomb" and asked == 2:
            started = 0
            try:
                while started < 4096:
                    pid = os.fork()
                    if pid == 0:  # the children wait, holding their process slot
                        time.sleep(1000)
                        os._exit(0)
                    started += 1
                    note_pid(pid)
            except OSError:
                pass
            print(f"started {started} processes", file=sys.stderr, flush=True)
        if MODE == "chatty" and asked == 2:
            send({"type": "move", "decision": message["decision"], "move": move})
            print("debug: I chose", move)
            sys.stdout.flush()
            continue
        if MODE == "stderr-flood" and asked == 2:
            for _ in range(64):
                sys.stderr.write("x" * 65535 + "\n")  # 4 MiB of logging, then play on
        if MODE == "closes-stdout" and asked == 2:
            sys.stdout.close()
            os.close(1)
            sleep_forever()
        if MODE == "nondeterministic":
            move = legal[int.from_bytes(os.urandom(2), "big") % len(legal)]
        send({"type": "move", "decision": message["decision"], "move": move})
    return 0


if __name__ == "__main__":
    sys.exit(main())
