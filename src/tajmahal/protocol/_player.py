"""The referee's side: a bot that is a separate program, seated like any other bot.

:class:`ProcessPlayer` starts the program once, sends ``hello``, and for
each :meth:`~ProcessPlayer.choose` sends a request and waits for the answer
under a hard deadline.  Whatever goes wrong is a :class:`BotProcessError`
with a :class:`ProcessFault` kind and a bounded detail (with the tail of the
program's stderr); the referee turns it into a fault of the seat and plays
the fallback move.  A failure that leaves the conversation in an unknown
state (a crash, a timeout, output that is not a message) stops the program
for good: every later decision of that seat is an ``unavailable`` fault.
"""

from __future__ import annotations

import contextlib
import enum
import math
import os
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import attrs

from tajmahal.protocol._process import ChildProcess, LineTooLong, ProcessEnded, ProcessTimedOut
from tajmahal.protocol.messages import (
    MAX_LINE_BYTES,
    BotReportedError,
    MessageError,
    Ready,
    hello_line,
    parse_line,
    read_move,
    read_ready,
    request_line,
    result_line,
    shorten,
)
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView
from tajmahal.serialize import dumps

__all__ = [
    "BotProcessError", "ProcessFault", "ProcessLimits", "ProcessPlayer", "move_texts", "read_answer"
]

MAX_DETAIL = 420  #: the longest ``detail`` (a fault's adds the fallback move: 500 in all)
MAX_STDERR = 4000  #: the longest stderr tail kept with a failure
#: how long the referee waits for a crashed program's exit status, for the fault's detail
_EXIT_STATUS_WAIT = 2.0  # returns as soon as it exits; long enough for a loaded machine


class ProcessFault(enum.Enum):
    """What went wrong with a bot program in one decision (the referee's fault kind of that name).

    >>> [kind.value for kind in ProcessFault][:3]
    ['handshake', 'protocol', 'crash']
    """

    HANDSHAKE = "handshake"  #: no valid ``ready`` answer to ``hello`` in time
    PROTOCOL = "protocol"  #: output that is not the expected message (bad JSON, wrong content)
    CRASH = "crash"  #: the program ended (or closed its output) during the game
    TIMEOUT = "timeout"  #: no answer within the time limit; the program was killed
    ILLEGAL_MOVE = "illegal_move"  #: a move that is not one of the legal moves
    EXCEPTION = "exception"  #: the bot answered ``error`` (it could not choose)
    UNAVAILABLE = "unavailable"  #: the program was stopped at an earlier decision


class BotProcessError(TajMahalError):
    """A bot program's failure in one decision: ``kind`` (:class:`ProcessFault`) and ``detail``.

    ``detail`` (at most 420 characters) ends with the last of the program's
    stderr; ``stderr`` holds more of it (at most 4000 characters).

    >>> error = BotProcessError(ProcessFault.TIMEOUT, 'no answer within 1 s')
    >>> error.kind.value, str(error)
    ('timeout', 'timeout: no answer within 1 s')
    """

    def __init__(self, kind: ProcessFault, detail: str, stderr: str = "") -> None:
        if len(detail) > MAX_DETAIL:
            detail = detail[: MAX_DETAIL - 3] + "..."
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail
        self.stderr = stderr[-MAX_STDERR:]


def _positive(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not (ok and math.isfinite(value) and 0 < value <= 86_400):
        raise TajMahalError(
            f"{attribute.name} must be a number of seconds above 0 and at most 86400, "
            f"got {value!r}"
        )


def _memory(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 16 <= value <= 1 << 20:
        raise TajMahalError(
            f"memory_mb must be a whole number of MiB from 16 to {1 << 20}, or None, "
            f"got {value!r}"
        )


def _count(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1 << 20:
        raise TajMahalError(
            f"{attribute.name} must be a whole number from 1 to {1 << 20}, or None, got {value!r}"
        )


def _absolute_paths(value: Any) -> tuple[Path, ...]:
    if isinstance(value, str | os.PathLike) or not isinstance(value, Iterable):
        raise TajMahalError(f"hidden must be a sequence of paths, got {value!r}")
    paths = []
    for each in value:
        if not isinstance(each, str | os.PathLike):
            raise TajMahalError(f"hidden must be a sequence of paths, got {each!r} in it")
        paths.append(Path(os.path.abspath(each)))
    return tuple(paths)


def _flag(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, bool):
        raise TajMahalError(f"{attribute.name} must be True or False, got {value!r}")


def _byte_count(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1 << 40:
        raise TajMahalError(f"{attribute.name} must be a whole number of bytes >= 0, got {value!r}")


@attrs.frozen
class ProcessLimits:
    """The limits on a bot program (the referee's time limit per decision comes on top).

    ``memory_mb`` caps the program's memory in MiB, ``None`` for no cap: its
    address space (``RLIMIT_AS``: heap, stacks, private and shared mappings
    alike; some runtimes reserve much more than they use: Node.js needs about
    1024); ``cpu_seconds`` caps the CPU time of each of its processes for the
    whole game, thinking between turns included (past it the program gets
    ``SIGXCPU``, then ``SIGKILL``); ``max_processes`` caps the processes and
    threads it may run at once (``RLIMIT_NPROC``: exact when the referee runs
    as root, which gives every program a user of its own; otherwise counted on
    top of what the user runs already); ``sandbox`` runs it under bubblewrap
    (see docs/trust.md); ``separate_user`` (with a root referee) runs it under
    a user id of its own; ``start_timeout`` is the
    time from start to the ``ready`` answer; ``decision_timeout`` the time
    limit per decision when the referee has none; ``exit_timeout`` how long
    the program has to exit after the ``result`` message before it is killed.
    ``log_dir``, if set, receives each program's stderr as a file
    (named by :func:`tajmahal.referee.bot_log_name`, which holds no seed; at
    most ``log_bytes`` bytes).  ``hidden`` names files and folders that a
    sandboxed program must not read (a tournament's results file, whose header
    holds the tournament seed): in the sandbox a file cannot be opened and a
    folder shows empty, and so does ``log_dir``, where the other seats' stderr
    goes.

    >>> ProcessLimits().memory_mb, ProcessLimits().cpu_seconds, ProcessLimits().decision_timeout
    (1024, 600, 30.0)
    >>> ProcessLimits(start_timeout=0)
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.TajMahalError: start_timeout must be a number of seconds above 0 and at most 86400, got 0
    """  # noqa: E501

    memory_mb: int | None = attrs.field(default=1024, validator=_memory)
    cpu_seconds: int | None = attrs.field(default=600, validator=_count)
    max_processes: int | None = attrs.field(default=64, validator=_count)
    sandbox: bool = attrs.field(default=False, validator=_flag)
    separate_user: bool = attrs.field(default=True, validator=_flag)
    start_timeout: float = attrs.field(default=10.0, validator=_positive)
    decision_timeout: float = attrs.field(default=30.0, validator=_positive)
    exit_timeout: float = attrs.field(default=2.0, validator=_positive)
    log_dir: Path | None = attrs.field(default=None, converter=attrs.converters.optional(Path))
    log_bytes: int = attrs.field(default=1 << 20, validator=_byte_count)
    hidden: tuple[Path, ...] = attrs.field(default=(), converter=_absolute_paths)


class ProcessPlayer:
    """A bot program in ``seat``: started at once, asked by :meth:`choose`, ended by :meth:`close`.

    ``command`` is the program and its arguments; ``seed`` the bot's seed
    (sent in ``hello``); ``time_limit`` the hard limit per decision in
    seconds (``limits.decision_timeout`` if ``None``).  A program that cannot
    be started is not an error here: its first decision is a ``crash`` fault.
    ``transcript``, if given, receives every line exchanged, as ``('>', line)``
    for the referee's and ``('<', line)`` for the program's.  ``env`` is the
    program's whole environment (default: a minimal one, see
    :mod:`tajmahal.protocol.confine`, with the referee's variables named in
    ``keep_env``).  ``reads`` names paths a sandboxed program must still read
    (a ``file:`` bot's folder), even under the sandbox's private ``/tmp``.

    >>> import sys, tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> command = [sys.executable, '-m', 'tajmahal.protocol.runner', 'random']
    >>> with ProcessPlayer(command, seat=0, num_players=3, seed=5) as player:
    ...     move = player.choose(state.view(0), state.legal_moves(), decision=1)
    ...     player.ready_info
    Ready(name='random', deterministic=True)
    >>> move == tm.bots.create('random', seed=5).choose(state.view(0), state.legal_moves())
    True
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        seat: int,
        num_players: int,
        seed: int,
        time_limit: float | None = None,
        limits: ProcessLimits | None = None,
        name: str | None = None,
        stderr_log: Path | None = None,
        env: Mapping[str, str] | None = None,
        transcript: list[tuple[str, bytes]] | None = None,
        keep_env: Sequence[str] = (),
        reads: Sequence[str] = (),
    ) -> None:
        self.limits = limits if limits is not None else ProcessLimits()
        self.name = name if name is not None else "cmd:" + " ".join(command)
        self.seat = seat
        self.time_limit = time_limit if time_limit is not None else self.limits.decision_timeout
        self.ready_info: Ready | None = None
        self.transcript = transcript
        self.requests = 0
        self.answered = 0  #: requests answered in time (with any message)
        self.failures: list[BotProcessError] = []  #: every failure :meth:`choose` raised
        self.slowest = 0.0  #: the longest time, in seconds, an answer took
        self.stopped: str | None = None  # why the program no longer answers
        self.clean_exit: bool | None = None  # known after close()
        self.result_sent = False
        self._failure: BotProcessError | None = None  # reported at the first decision
        self._start = time.monotonic()
        self._decision = 0  # the number of the decision asked last
        self.child: ChildProcess | None = None
        memory = None if self.limits.memory_mb is None else self.limits.memory_mb << 20
        try:
            self.child = ChildProcess(
                command,
                memory_limit=memory,
                cpu_seconds=self.limits.cpu_seconds,
                max_processes=self.limits.max_processes,
                sandbox=self.limits.sandbox,
                separate_user=self.limits.separate_user,
                stderr_log=stderr_log,
                log_bytes=self.limits.log_bytes,
                hidden=(*self.limits.hidden, *filter(None, [self.limits.log_dir])),
                env=None if env is None else dict(env),
                keep_env=keep_env,
                reads=reads,
            )
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            program = shorten(command[0], 60)
            self._fail_early(ProcessFault.CRASH, f"cannot start {program}: {reason}")
            return
        try:
            hello = hello_line(seat, num_players, seed, self.time_limit)
            self._note(">", hello)
            self.child.send(hello, self._start + self.limits.start_timeout)
        except (ProcessEnded, ProcessTimedOut, LineTooLong):
            pass  # the handshake reports it

    # ------------------------------------------------------------------ the game

    def handshake(self) -> Ready:
        """Wait for the program's ``ready`` answer (once); raises :class:`BotProcessError`.

        >>> import sys
        >>> code = 'import time; print("hi", flush=True); time.sleep(60)'
        >>> player = ProcessPlayer([sys.executable, '-c', code],
        ...                        seat=0, num_players=3, seed=1)
        >>> player.handshake()
        Traceback (most recent call last):
        ...
        tajmahal.protocol._player.BotProcessError: handshake: not JSON: 'hi'
        >>> player.close()
        """
        if self.ready_info is not None:
            return self.ready_info
        self._check_available()
        assert self.child is not None
        deadline = self._start + self.limits.start_timeout
        try:
            line = self.child.read_line(deadline)
            self._note("<", line)
            self.ready_info = read_ready(parse_line(line))
        except ProcessTimedOut:
            self._stop(
                ProcessFault.HANDSHAKE,
                f"no 'ready' answer within {self.limits.start_timeout:g} s of the start",
            )
        except ProcessEnded:
            self._stop(ProcessFault.HANDSHAKE, "the program ended before answering 'hello'",
                       wait=True)
        except LineTooLong:
            self._stop(ProcessFault.HANDSHAKE, f"wrote a line longer than {MAX_LINE_BYTES} bytes")
        except MessageError as exc:
            self._stop(ProcessFault.HANDSHAKE, str(exc))
        return self.ready_info

    def choose(
        self,
        view: PlayerView,
        legal_moves: Sequence[Move],
        *,
        decision: int | None = None,
        time_limit: float | None = None,
    ) -> Move:
        """Ask the program for a move; returns one of ``legal_moves`` or raises :class:`BotProcessError`.

        ``decision`` is the decision's number in the game record (the count
        of requests so far if ``None``); ``time_limit`` this decision's limit
        (the player's own if ``None``).  The limit covers sending the request
        and reading the answer; past it the program is killed.  Every
        failure is also kept in :attr:`failures`.

        >>> import sys, tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> bad = [sys.executable, '-c', 'print(\\'{"type": "ready", "version": 1}\\'); input()']
        >>> with ProcessPlayer(bad, seat=0, num_players=3, seed=1, time_limit=0.5) as player:
        ...     player.choose(state.view(0), state.legal_moves())
        Traceback (most recent call last):
        ...
        tajmahal.protocol._player.BotProcessError: crash: the program ended before answering ...
        """  # noqa: E501
        self.requests += 1
        number = decision if decision is not None else self.requests
        limit = time_limit if time_limit is not None else self.time_limit
        self._decision = number
        try:
            return self._choose(view, legal_moves, number, limit)
        except BotProcessError as failure:
            self.failures.append(failure)
            raise

    def _choose(
        self, view: PlayerView, legal_moves: Sequence[Move], number: int, limit: float
    ) -> Move:
        self._check_available()
        self.handshake()
        child = self.child
        assert child is not None
        unasked = child.unread_output()
        if unasked:
            text = unasked.decode("utf-8", errors="replace")
            self._stop(ProcessFault.PROTOCOL, f"wrote without being asked: {shorten(text, 80)}")
        texts = move_texts(legal_moves)
        line = request_line(number, limit, texts, dumps(view))
        self._note(">", line)
        started = time.monotonic()
        try:
            child.send(line, started + limit)
            answer = child.read_line(started + limit)
            self._note("<", answer)
        except ProcessTimedOut:
            self._stop(
                ProcessFault.TIMEOUT,
                f"no answer within the {limit:.3g} s time limit; the program was killed",
            )
        except ProcessEnded:
            self._stop(ProcessFault.CRASH, "the program ended before answering", wait=True)
        except LineTooLong:
            self._stop(ProcessFault.PROTOCOL, f"wrote a line longer than {MAX_LINE_BYTES} bytes")
        self.answered += 1
        self.slowest = max(self.slowest, time.monotonic() - started)
        try:
            message = parse_line(answer)
        except MessageError as exc:  # the conversation is lost: stop the program
            self._stop(ProcessFault.PROTOCOL, str(exc))
        return read_answer(message, number, legal_moves, texts)

    def finish(self, scores: Sequence[int], winners: Sequence[int], ranking: Sequence[int]) -> None:
        """Send the ``result`` message (if the program still plays); errors are ignored.

        >>> import sys
        >>> command = [sys.executable, '-m', 'tajmahal.protocol.runner', 'random']
        >>> player = ProcessPlayer(command, seat=0, num_players=3, seed=5)
        >>> player.handshake().name
        'random'
        >>> player.finish([10, 20, 5], [1], [1, 0, 2]); player.close()
        >>> player.clean_exit
        True
        """
        if self.stopped is not None or self.child is None or self.ready_info is None:
            return
        line = result_line(scores, winners, ranking)
        self._note(">", line)
        # a program that is gone or stuck by now simply misses the result: close() reaps it
        with contextlib.suppress(ProcessEnded, ProcessTimedOut, LineTooLong):
            self.child.send(line, time.monotonic() + self.limits.exit_timeout)
            self.result_sent = True

    def close(self) -> None:
        """End the program and everything it started; idempotent.

        After :meth:`finish` the program has ``limits.exit_timeout`` seconds to
        exit by itself (``clean_exit`` says whether it did, with status 0);
        otherwise it is killed at once.

        >>> import sys
        >>> player = ProcessPlayer([sys.executable, '-c', 'input()'], seat=0, num_players=3,
        ...                        seed=1)
        >>> player.close(); player.close(); player.clean_exit
        False
        """
        if self.child is None:
            if self.clean_exit is None:
                self.clean_exit = False
            return
        if self.clean_exit is None:
            grace = self.limits.exit_timeout if self.result_sent else 0.0
            self.clean_exit = self.child.close(grace) and self.result_sent
        else:
            self.child.kill()

    def __enter__(self) -> ProcessPlayer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def stderr_tail(self) -> str:
        """The last lines the program wrote to stderr (bounded).

        >>> import sys
        >>> code = 'import sys; sys.stderr.write("thinking...\\\\n")'
        >>> with ProcessPlayer([sys.executable, '-c', code], seat=0, num_players=3,
        ...                    seed=1) as player:
        ...     player.child.wait_exit(30)
        ...     player.stderr_tail()
        True
        'thinking...'
        """
        return "" if self.child is None else self.child.stderr_tail()

    # ------------------------------------------------------------------ failures

    def _note(self, direction: str, line: bytes) -> None:
        if self.transcript is not None:
            self.transcript.append((direction, line))

    def _fail_early(self, kind: ProcessFault, detail: str) -> None:
        self._failure = BotProcessError(kind, detail)
        self.stopped = f"{kind.value} before decision 1"

    def _check_available(self) -> None:
        if self._failure is not None:
            failure, self._failure = self._failure, None
            raise failure
        if self.stopped is not None:
            raise BotProcessError(
                ProcessFault.UNAVAILABLE, f"the program was stopped earlier ({self.stopped})"
            )

    def _stop(self, kind: ProcessFault, detail: str, *, wait: bool = False) -> NoReturn:
        """Kill the program, remember why, and raise the fault."""
        child = self.child
        assert child is not None
        if wait:  # it is ending by itself: give it a moment, for its exit status
            child.wait_exit(_EXIT_STATUS_WAIT)
        child.kill()
        if kind in (ProcessFault.CRASH, ProcessFault.HANDSHAKE) and not child.killed:
            detail += f" (it {child.exit_description()})"
        elif wait:
            detail += " (it closed its standard output and was killed)"
        room = MAX_DETAIL - len(detail) - len("; stderr: ")
        tail = child.stderr_tail(max_chars=max(room, 60))
        if tail:
            detail += f"; stderr: {tail}"
        stderr = child.stderr_tail(max_lines=40, max_chars=MAX_STDERR, separator="\n")
        when = f"decision {self._decision}" if self.requests else "the start"
        self.stopped = f"{kind.value} at {when}"
        self.clean_exit = False
        raise BotProcessError(kind, detail, stderr) from None


#: id(move) -> (the move, its text): the engine's moves (and a seat's copies of them) are
#: values that live as long as their match, so a move's text is made once, not per request
_TEXTS: dict[int, tuple[Move, str]] = {}
_MAX_TEXTS = 4096  #: bounded: the cache starts again when it holds this many moves


def read_answer(
    message: dict[str, Any], decision: int, legal_moves: Sequence[Move],
    texts: Sequence[str] | None = None,
) -> Move:  # fmt: skip
    """The legal move that a bot's answer to request ``decision`` names, judged as the referee
    judges every bot program's answer; :class:`BotProcessError` (``exception``, ``protocol`` or
    ``illegal_move``, the bot keeps its seat) if it names none.  ``texts``: the legal moves'
    texts as the request listed them (made here if not given).

    >>> import tajmahal as tm
    >>> legal = tm.new_game(3, seed=1).legal_moves()
    >>> read_answer({'type': 'move', 'move': 'WITHDRAW'}, 1, legal)
    Withdraw()
    >>> read_answer({'type': 'move', 'move': 'palace agra'}, 1, legal)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.protocol._player.BotProcessError: illegal_move: answered 'palace agra', which is ...
    """
    texts = move_texts(legal_moves) if texts is None else texts
    try:
        text = read_move(message, decision)
    except BotReportedError as exc:
        raise BotProcessError(
            ProcessFault.EXCEPTION, f"the bot reported: {shorten(str(exc), 300)}"
        ) from None
    except MessageError as exc:
        raise BotProcessError(ProcessFault.PROTOCOL, str(exc)) from None
    move = match_move(text, legal_moves, texts)
    if move is None:
        raise BotProcessError(
            ProcessFault.ILLEGAL_MOVE,
            f"answered {shorten(text, 80)}, which is not one of the {len(texts)} legal "
            f"moves ({shorten(', '.join(texts), 200)})",
        )
    return move


def move_texts(moves: Sequence[Move]) -> list[str]:
    """``[str(move) for move in moves]``, each move's text made once per move object.

    >>> import tajmahal as tm
    >>> legal = tm.new_game(3, seed=1).legal_moves()
    >>> move_texts(legal) == [str(m) for m in legal], move_texts(legal)[-1]
    (True, 'withdraw')
    """
    texts = []
    for move in moves:
        known = _TEXTS.get(id(move))
        if known is None or known[0] is not move:  # new, or another object at a reused id
            if len(_TEXTS) >= _MAX_TEXTS:
                _TEXTS.clear()
            known = _TEXTS[id(move)] = (move, str(move))
        texts.append(known[1])
    return texts


def match_move(text: str, legal_moves: Sequence[Move], texts: Sequence[str]) -> Move | None:
    """The legal move written ``text``: exactly one of ``texts``, or the same up to letter
    case, whitespace and the order of the symbols on a card.

    >>> import tajmahal as tm
    >>> legal = tm.new_game(3, seed=1).legal_moves()
    >>> texts = [str(m) for m in legal]
    >>> texts[:2]
    ['play red:elephant+monk', 'play red:elephant+princess']
    >>> match_move('PLAY  red:monk+elephant', legal, texts) is legal[0]
    True
    >>> match_move('palace agra', legal, texts) is None
    True
    """
    for candidate, move in zip(texts, legal_moves, strict=True):
        if candidate == text:
            return move
    if len(text) > 200:
        return None
    key = _text_key(text)
    for candidate, move in zip(texts, legal_moves, strict=True):
        if _text_key(candidate) == key:
            return move
    return None


def _text_key(text: str) -> tuple[str, ...]:
    words = []
    for word in text.lower().split():
        color, colon, symbols = word.partition(":")
        words.append(f"{color}:{'+'.join(sorted(symbols.split('+')))}" if colon else word)
    return tuple(words)
