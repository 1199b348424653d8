"""The bot programs of one match: started by seat, told the result, all ended at the end."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence

from tajmahal.bots.specs import PlayerSpec, SpecError
from tajmahal.protocol.messages import shorten
from tajmahal.protocol.player import ProcessLimits, ProcessPlayer

__all__ = ["ProgramSeats", "check_command", "runner_command"]


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
        elif not os.access(program, os.X_OK):
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


def runner_command(spec: str) -> list[str]:
    """The command that runs the registered bot ``spec`` as a bot program (for isolation).

    >>> runner_command('greedy:enough=5')[1:]
    ['-m', 'tajmahal.protocol.runner', 'greedy:enough=5']
    """
    import sys

    return [sys.executable, "-m", "tajmahal.protocol.runner", spec]


class ProgramSeats:
    """Starts the bot programs of one match and ends every one of them (a context manager).

    ``match_seed`` names the stderr log files (``seed<S>-seat<N>.log`` in
    ``limits.log_dir``).  Leaving the ``with`` block ends every program it
    started, also when the match stops with an exception (Ctrl-C).

    >>> from tajmahal.bots import parse_spec
    >>> with ProgramSeats(3, time_limit=5.0, limits=None, match_seed=1) as seats:
    ...     player = seats.start(parse_spec('random'), seat=0, seed=7)
    ...     player.handshake().name
    'random'
    >>> player.child.returncode is not None
    True
    """

    def __init__(
        self,
        num_players: int,
        time_limit: float | None,
        limits: ProcessLimits | None,
        match_seed: int,
    ) -> None:
        self.num_players, self.time_limit, self.match_seed = num_players, time_limit, match_seed
        self.limits = limits if limits is not None else ProcessLimits()
        self.players: list[ProcessPlayer] = []

    def start(self, spec: PlayerSpec, *, seat: int, seed: int) -> ProcessPlayer:
        """Start the program of ``spec``: its command, or the runner for a registered bot.

        >>> from tajmahal.bots import parse_spec
        >>> with ProgramSeats(3, None, None, match_seed=1) as seats:
        ...     seats.start(parse_spec('cmd:nonexistent-program'), seat=2, seed=1).stopped
        'crash before decision 1'
        """
        command = spec.command if spec.is_command else tuple(runner_command(spec.text))
        log_dir = self.limits.log_dir
        log = None if log_dir is None else log_dir / f"seed{self.match_seed}-seat{seat}.log"
        player = ProcessPlayer(
            command,
            seat=seat,
            num_players=self.num_players,
            seed=seed,
            time_limit=self.time_limit,
            limits=self.limits,
            name=spec.text,
            stderr_log=log,
        )
        self.players.append(player)
        return player

    def finish(self, scores: Sequence[int], winners: Sequence[int], ranking: Sequence[int]) -> None:
        """Send every program the ``result`` message.

        >>> ProgramSeats(3, None, None, match_seed=1).finish([1, 2, 3], [2], [2, 1, 0])
        """
        for player in self.players:
            player.finish(scores, winners, ranking)

    def close(self) -> None:
        """End every program (those told the result get their exit time first).

        >>> ProgramSeats(3, None, None, match_seed=1).close()
        """
        for player in self.players:
            player.close()

    def __enter__(self) -> ProgramSeats:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
