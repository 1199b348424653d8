"""The seccomp filter of ``--sandbox``: the system calls that would reach past its namespaces.

A network namespace keeps a program off the network, but not off the host's
Unix sockets: those are files (``/run/*.sock``, ``/var/run/docker.sock``), and
``connect()`` reaches them through a read-only bind as well.  So the sandbox
refuses, with ``EPERM``:

- ``socket()`` of any family but IPv4 and IPv6 (which the network namespace
  confines): ``AF_UNIX`` above all, ``AF_VSOCK`` and the rest too;
- ``socketpair()`` (``AF_UNIX`` only; the referee's own socket pairs to the
  program are made before it starts, and are inherited, not created);
- ``io_uring_setup()``, ``io_uring_enter()``, ``io_uring_register()`` (an
  io_uring creates sockets without the ``socket()`` call);
- ``memfd_create()``, ``shmget()``, ``msgget()``: memory in files, segments
  and queues of the kernel's, outside the address space that the memory cap
  counts.

A system call of another architecture (a 32-bit program, x32 calls) ends the
program.  The filter is a classic BPF program (``struct sock_filter`` array)
that bubblewrap loads (``--seccomp FD``) just before it runs the program.

>>> program = seccomp_program()
>>> program is None or len(program) % 8 == 0
True
"""

from __future__ import annotations

import errno
import platform
import socket
import struct

__all__ = ["seccomp_program", "seccomp_unsupported"]

_AUDIT_64_LE = 0x80000000 | 0x40000000  # __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE
_X32_SYSCALL_BIT = 0x40000000
#: the numbers of the calls filtered, where the kernel's generic table holds (asm-generic/unistd.h)
_GENERIC = {"socket": 198, "socketpair": 199, "shmget": 194, "msgget": 186,
            "memfd_create": 279, "io_uring_setup": 425, "io_uring_enter": 426,
            "io_uring_register": 427}  # fmt: skip
#: per machine: its audit architecture (linux/audit.h) and the numbers of the calls filtered
_ARCHES: dict[str, tuple[int, dict[str, int]]] = {
    "x86_64": (_AUDIT_64_LE | 62, {
        "socket": 41, "socketpair": 53, "shmget": 29, "msgget": 68, "memfd_create": 319,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    }),
    "aarch64": (_AUDIT_64_LE | 183, _GENERIC),
    "riscv64": (_AUDIT_64_LE | 243, _GENERIC),
}  # fmt: skip
_ALLOWED_FAMILIES = (socket.AF_INET, socket.AF_INET6)

# classic BPF (linux/filter.h, linux/seccomp.h)
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_RET_K = 0x06
_RET_ALLOW = 0x7FFF0000
_RET_EPERM = 0x00050000 | errno.EPERM
_RET_KILL_PROCESS = 0x80000000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args[0]'s low half, little-endian)


def seccomp_unsupported(machine: str | None = None) -> str | None:
    """Why no filter is known for ``machine`` (default: this one), or None.

    >>> seccomp_unsupported('x86_64') is None
    True
    >>> seccomp_unsupported('sparc')
    'no seccomp filter is known for this machine (sparc)'
    """
    machine = machine or platform.machine()
    if machine not in _ARCHES or struct.pack("=I", 1) != struct.pack("<I", 1):
        return f"no seccomp filter is known for this machine ({machine})"
    return None


def seccomp_program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (default: this one) as bubblewrap reads it; None if unknown.

    >>> len(seccomp_program('x86_64')) // 8  # instructions (x32 calls checked too)
    19
    """
    machine = machine or platform.machine()
    if seccomp_unsupported(machine) is not None:
        return None
    audit_arch, numbers = _ARCHES[machine]
    refused = [numbers[name] for name in numbers if name != "socket"]
    # (code, jump if true, jump if false, k): jumps name a label or are 0 (the next one)
    code: list[tuple[int, int | str, int | str, int]] = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ_K, 0, "kill", audit_arch),
        (_LD_W_ABS, 0, 0, _NR),
    ]
    if machine == "x86_64":
        code.append((_JGE_K, "kill", 0, _X32_SYSCALL_BIT))
    code.append((_JEQ_K, "socket", 0, numbers["socket"]))
    code += [(_JEQ_K, "deny", 0, number) for number in refused]
    code.append((_RET_K, 0, 0, _RET_ALLOW))
    labels = {"socket": len(code)}
    code.append((_LD_W_ABS, 0, 0, _ARG0))
    code += [(_JEQ_K, "allow", 0, family) for family in _ALLOWED_FAMILIES]
    labels["deny"] = len(code)
    code.append((_RET_K, 0, 0, _RET_EPERM))
    labels["allow"] = len(code)
    code.append((_RET_K, 0, 0, _RET_ALLOW))
    labels["kill"] = len(code)
    code.append((_RET_K, 0, 0, _RET_KILL_PROCESS))

    def jump(here: int, to: int | str) -> int:
        return to if isinstance(to, int) else labels[to] - here - 1

    return b"".join(
        struct.pack("=HBBI", op, jump(here, true), jump(here, false), k)
        for here, (op, true, false, k) in enumerate(code)
    )
