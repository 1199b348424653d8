"""The referee's seat for a bot program, and what it needs to start one."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Sequence

from tajmahal.bots.specs import PlayerSpec, SpecError
from tajmahal.faults import FaultKind
from tajmahal.protocol._player import BotProcessError, ProcessLimits, ProcessPlayer
from tajmahal.protocol.confine import executable
from tajmahal.protocol.messages import shorten
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView
from tajmahal.seat_contract import Answer

__all__ = ["ProcessSeat", "check_command", "runner_command"]


def check_command(spec: PlayerSpec) -> None:
    """Raise :class:`~tajmahal.bots.SpecError` if the program of a ``cmd:`` spec cannot be run.

    A program with a ``/`` in its name must be an executable file; one
    without is looked up on ``PATH``.

    >>> from tajmahal.bots import parse_spec
    >>> check_command(parse_spec('cmd:python3 bot.py'))
    >>> check_command(parse_spec('cmd:./no/such/bot --fast'))
    Traceback (most recent call last):
    ...
    tajmahal.bots.specs.SpecError: player spec 'cmd:./no/such/bot --fast': cannot run './no/such/bot': no such file
    """  # noqa: E501
    program = spec.command[0]
    if os.sep in program or (os.altsep is not None and os.altsep in program):
        if not os.path.isfile(program):
            problem = "no such file"
        elif not executable(program):
            problem = "the file is not executable (chmod +x, or name its interpreter first)"
        else:
            return
    elif shutil.which(program) is None:
        problem = "no such program on PATH"
    else:
        return
    raise SpecError(
        f"player spec {shorten(spec.text, 80)}: cannot run {shorten(program, 80)}: {problem}"
    )


#: what the runner of a registered bot keeps of the referee's environment: where Python
#: finds the library and the plugins, and the cap on a search bot's processes (a
#: tournament's worker sets it: see tajmahal.bots._search_pool)
RUNNER_ENVIRONMENT = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "TAJMAHAL_SEARCH_JOBS")


def runner_command(spec: str) -> list[str]:
    """The command that runs the registered bot ``spec`` as a bot program (for isolation).

    ``-P``: the working directory is not put first on the runner's ``sys.path``, so that a
    folder there named like a plugin's module (the bot's own checkout) cannot hide it; the
    spec goes as ``--spec=SPEC``, which no relative path of the working directory can be
    taken for.

    >>> runner_command('greedy:enough=5')[1:]
    ['-P', '-m', 'tajmahal.protocol.runner', '--spec=greedy:enough=5']
    """
    return [sys.executable, "-P", "-m", "tajmahal.protocol.runner", f"--spec={spec}"]


class ProcessSeat:
    """A bot program in one seat of one match: the referee's seat for ``cmd:`` specs and isolation.

    It is a :class:`~tajmahal.seat_contract.SeatPlayer`: :meth:`choose` answers with
    an :class:`~tajmahal.seat_contract.Answer`, never raises for what the program
    does.  Reading :attr:`setup_fault` waits for the handshake: a program
    that cannot start or fails the handshake has a fault at decision 0 and
    is ``unavailable`` afterwards.

    >>> import tajmahal as tm
    >>> from tajmahal.bots import parse_spec
    >>> seat = ProcessSeat.build(parse_spec('random'), seat=0, num_players=3, seed=5,
    ...                          time_limit=5.0)
    >>> seat.setup_fault is None, seat.name
    (True, 'random')
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> answer = seat.choose(state.view(0), state.legal_moves(), limit=5.0, decision=1)
    >>> answer.index == state.legal_moves().index(
    ...     tm.bots.create('random', seed=5).choose(state.view(0), state.legal_moves()))
    True
    >>> seat.finish([10, 20, 5], [1], [1, 0, 2]); seat.close(); seat.player.clean_exit
    True
    """

    def __init__(self, player: ProcessPlayer) -> None:
        self.player = player
        self._setup: Answer | None = None
        self._setup_read = False

    @classmethod
    def build(
        cls,
        spec: PlayerSpec,
        *,
        seat: int,
        num_players: int,
        seed: int,
        time_limit: float | None,
        limits: ProcessLimits | None = None,
        log_name: str | None = None,
    ) -> ProcessSeat:
        """Start the program of ``spec``: its command, or the runner for a registered bot.

        ``log_name`` is the stderr log's file name in ``limits.log_dir``
        (default ``seat<N>.log``).

        >>> from tajmahal.bots import parse_spec
        >>> seat = ProcessSeat.build(parse_spec('cmd:/no/such/bot'), seat=2, num_players=3,
        ...                          seed=1, time_limit=None)
        >>> seat.setup_fault.kind.value, seat.setup_fault.detail
        ('crash', "cannot start '/no/such/bot': No such file or directory")
        >>> seat.close()
        """
        command = spec.command if spec.is_command else tuple(runner_command(spec.resolved))
        limits = limits if limits is not None else ProcessLimits()
        log = None
        if limits.log_dir is not None:
            log = limits.log_dir / (log_name if log_name is not None else f"seat{seat}.log")
        player = ProcessPlayer(
            command,
            seat=seat,
            num_players=num_players,
            seed=seed,
            time_limit=time_limit,
            limits=limits,
            name=spec.text,
            stderr_log=log,
            keep_env=() if spec.is_command else RUNNER_ENVIRONMENT,
            reads=() if spec.path is None else (os.path.dirname(spec.path),),
        )
        return cls(player)

    @property
    def name(self) -> str:
        """The seat's player name: the spec as written.

        >>> from tajmahal.bots import parse_spec
        >>> seat = ProcessSeat.build(parse_spec('greedy'), seat=0, num_players=3, seed=1,
        ...                          time_limit=None)
        >>> seat.name; seat.close()
        'greedy'
        """
        return self.player.name

    @property
    def setup_fault(self) -> Answer | None:
        """Why the program cannot play (it did not start, or failed the handshake), or None.

        >>> import sys
        >>> from tajmahal.bots import parse_spec
        >>> # it sleeps after "42", so it is always still running when it is stopped
        >>> code = "import time; print(42, flush=True); time.sleep(60)"
        >>> spec = parse_spec(f'cmd:{sys.executable} -c "{code}"')
        >>> seat = ProcessSeat.build(spec, seat=0, num_players=3, seed=1, time_limit=None)
        >>> seat.setup_fault.kind.value
        'handshake'
        >>> print(seat.setup_fault.detail)
        not a JSON object with a "type": '42'
        >>> seat.close()
        """
        if not self._setup_read:
            self._setup_read = True
            try:
                self.player.handshake()
            except BotProcessError as failure:
                self._setup = _answer(failure, 0.0)
        return self._setup

    def choose(
        self, view: PlayerView, legal: tuple[Move, ...], limit: float | None, decision: int = 0
    ) -> Answer:
        """Ask the program for decision ``decision`` within ``limit`` seconds.

        ``limit`` ``None`` means the program's own (``decision_timeout``).

        >>> import tajmahal as tm
        >>> from tajmahal.bots import parse_spec
        >>> seat = ProcessSeat.build(parse_spec('cmd:/no/such/bot'), seat=0, num_players=3,
        ...                          seed=1, time_limit=None)
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> seat.setup_fault.kind.value
        'crash'
        >>> seat.choose(state.view(0), state.legal_moves(), limit=1.0).kind.value
        'unavailable'
        >>> seat.close()
        """
        start = time.perf_counter()
        self.setup_fault  # noqa: B018 - the handshake comes first
        try:
            move = self.player.choose(
                view, legal, decision=decision or None, time_limit=limit
            )
        except BotProcessError as failure:
            return _answer(failure, time.perf_counter() - start)
        index = next(i for i, candidate in enumerate(legal) if candidate is move)
        return Answer(index=index, elapsed=time.perf_counter() - start)

    def finish(self, scores: Sequence[int], winners: Sequence[int], ranking: Sequence[int]) -> None:
        """Tell the program the result (the ``result`` message).

        >>> from tajmahal.bots import parse_spec
        >>> seat = ProcessSeat.build(parse_spec('cmd:/no/such/bot'), seat=0, num_players=3,
        ...                          seed=1, time_limit=None)
        >>> seat.finish([1, 2, 3], [2], [2, 1, 0]); seat.close()
        """
        self.player.finish(scores, winners, ranking)

    def close(self) -> None:
        """End the program and every process it started.

        >>> from tajmahal.bots import parse_spec
        >>> ProcessSeat.build(parse_spec('random'), seat=0, num_players=3, seed=1,
        ...                   time_limit=None).close()
        """
        self.player.close()


def _answer(failure: BotProcessError, elapsed: float) -> Answer:
    return Answer(
        kind=FaultKind(failure.kind.value),
        detail=failure.detail,
        traceback=failure.stderr,
        elapsed=elapsed,
    )
