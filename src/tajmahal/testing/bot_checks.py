"""The checks of ``tajmahal check-bot``, as a function: :func:`check_bot`.

It plays the bot, as a bot program (a ``cmd:`` spec, or a registered or ``file:`` bot
through the runner), in a few games against ``random`` bots, on different seats and
player counts (:data:`~tajmahal.testing.GAMES`), then judges four things:

- **handshake**: it answered ``hello`` with a valid ``ready`` in every game;
- **answers**: it answered every request in time with a legal move;
- **deterministic**: if its ``ready`` says ``"deterministic": true``, the first game
  played again with the same seed gives the same moves;
- **clean exit**: after the ``result`` message it exited by itself, with status 0,
  within the exit time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from tajmahal.bots.base import Bot
from tajmahal.bots.specs import PlayerSpec, check_spec
from tajmahal.game import replay_states
from tajmahal.protocol import (
    ProcessLimits,
    ProcessPlayer,
    ProcessSeat,
    check_command,
    check_sandbox,
)
from tajmahal.faults import Fault
from tajmahal.referee.match import MatchResult, bot_seed, play_match

__all__ = ["CHECKS", "GAMES", "BotChecks", "BotReport", "Check", "GameSummary", "check_bot"]

#: (players, the bot's seat) of each game
GAMES = ((3, 0), (4, 2), (5, 4))
#: the names of the checks, in the order a report lists them
CHECKS = ("handshake", "answers", "deterministic", "clean exit")


@attrs.frozen
class Check:
    """One check: its name (one of :data:`~tajmahal.testing.CHECKS`), whether it passed, and
    what was seen.

    >>> print(Check('handshake', True, "answered 'hello' with 'ready' in every game"))
    PASS  handshake      answered 'hello' with 'ready' in every game
    """

    name: str
    passed: bool
    detail: str

    def __str__(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'}  {self.name:<14} {self.detail}"


@attrs.frozen
class GameSummary:
    """One game the checks played: where the bot sat, and how its decisions went.

    >>> print(GameSummary(1, 3, 0, 1, decisions=69, failed=0, fault_before_first=False,
    ...                   slowest=0.004))
    game 1: 3 players, seat 0, seed 1: 69 decisions, no faults, slowest answer 4 ms
    """

    number: int  #: from 1
    players: int
    seat: int  #: the bot's seat
    seed: int
    decisions: int  #: the bot's seat's decisions in the game
    failed: int  #: how many of those the referee had to decide for it (a fault)
    fault_before_first: bool  #: a fault before its first decision (start, handshake)
    slowest: float  #: seconds, the slowest answer

    def __str__(self) -> str:
        faults = f"{self.failed} failed" if self.failed else "no faults"
        if self.fault_before_first:
            faults += ", a fault before the first"
        return (f"game {self.number}: {self.players} players, seat {self.seat}, seed "
                f"{self.seed}: {self.decisions} decisions, {faults}, slowest answer "
                f"{self.slowest * 1000:.0f} ms")  # fmt: skip


@attrs.frozen
class BotReport:
    """What :func:`check_bot` found: :attr:`passed`, each :class:`Check`, each game.

    ``str(report)`` is the report ``tajmahal check-bot`` prints, so that
    ``assert report.passed, report`` shows every check when one fails.

    >>> report = BotReport('mybot', (Check('handshake', True, 'fine'),
    ...                              Check('answers', False, '2 of 70 decisions failed')), ())
    >>> print(report)
    Checking mybot
    PASS  handshake      fine
    FAIL  answers        2 of 70 decisions failed
    1 of 2 checks failed: answers
    """

    spec: str  #: the player spec that was checked
    checks: tuple[Check, ...]
    games: tuple[GameSummary, ...]

    @property
    def passed(self) -> bool:
        """Whether every check passed.

        >>> BotReport('mybot', (Check('answers', True, 'all 70 answered'),), ()).passed
        True
        """
        return all(check.passed for check in self.checks)

    @property
    def failed(self) -> tuple[str, ...]:
        """The names of the checks that failed (empty when all passed).

        >>> BotReport('mybot', (Check('answers', False, 'none answered'),), ()).failed
        ('answers',)
        """
        return tuple(check.name for check in self.checks if not check.passed)

    def check(self, name: str) -> Check:
        """The check called ``name`` (one of :data:`~tajmahal.testing.CHECKS`); ``KeyError``
        for another.

        >>> report = BotReport('mybot', (Check('answers', True, 'all 70 answered'),), ())
        >>> report.check('answers').detail
        'all 70 answered'
        """
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(f"no check {name!r}; the checks are: {', '.join(CHECKS)}")

    def summary(self) -> str:
        """The last line of the report: how many checks passed or failed.

        >>> BotReport('mybot', (Check('answers', True, 'all 70 answered'),), ()).summary()
        'All 1 checks passed.'
        """
        if self.failed:
            return (f"{len(self.failed)} of {len(self.checks)} checks failed: "
                    f"{', '.join(self.failed)}")  # fmt: skip
        return f"All {len(self.checks)} checks passed."

    def as_dict(self) -> dict[str, Any]:
        """The report as ``tajmahal check-bot --json`` prints it (the games as well).

        >>> BotReport('mybot', (Check('answers', True, 'all 70 answered'),), ()).as_dict()
        ... # doctest: +NORMALIZE_WHITESPACE
        {'spec': 'mybot', 'passed': True,
         'checks': [{'name': 'answers', 'passed': True, 'detail': 'all 70 answered'}],
         'games': []}
        """
        return {
            "spec": self.spec,
            "passed": self.passed,
            "checks": [attrs.asdict(check) for check in self.checks],
            "games": [attrs.asdict(game) for game in self.games],
        }

    def __str__(self) -> str:
        lines = [f"Checking {self.spec}", *map(str, self.games), *map(str, self.checks)]
        return "\n".join([*lines, self.summary()])


class BotChecks:
    """:func:`~tajmahal.testing.check_bot`, remembering each report for the session.

    >>> checks = BotChecks()
    >>> checks('random') is checks('random')
    True
    """

    def __init__(self) -> None:
        self._reports: dict[tuple[str, tuple[tuple[str, Any], ...]], BotReport] = {}

    def __call__(self, spec: str, **options: Any) -> BotReport:
        """The report of ``check_bot(spec, **options)``, the games played once per session."""
        key = (spec, tuple(sorted(options.items())))
        if key not in self._reports:
            self._reports[key] = check_bot(spec, **options)
        return self._reports[key]


@attrs.frozen
class _Game:
    summary: GameSummary
    result: MatchResult
    player: ProcessPlayer

    @property
    def seat(self) -> int:
        return self.summary.seat

    @property
    def faults(self) -> list[Fault]:
        return [f for f in self.result.faults if f.seat == self.seat]


def check_bot(
    spec: str | PlayerSpec,
    *,
    seed: int = 1,
    time_limit: float = 5.0,
    start_timeout: float = 10.0,
    exit_timeout: float = 2.0,
    sandbox: bool = False,
    progress: Callable[[GameSummary], object] | None = None,
) -> BotReport:
    """Play the bot ``spec`` in the games of :data:`~tajmahal.testing.GAMES` (and the first
    again) and judge them.

    The same checks as ``tajmahal check-bot SPEC``, for a bot's own test suite (as
    PettingZoo's ``api_test``)::

        from tajmahal.testing import check_bot

        def test_mybot_passes_the_checks() -> None:
            report = check_bot("mybot")
            assert report.passed, report

    :param spec: a player spec: a registered bot (``"mybot"``, with options
        ``"mybot:depth=2"``), ``"file:PATH[:CLASS]"`` or ``"cmd:PROGRAM ARGS"``. A bot
        written in Python runs in a child process through the runner, as ``--isolate``
        seats it, so that the protocol is what is checked.
    :param seed: the first game's seed; game N uses ``seed + N - 1``.
    :param time_limit: seconds the bot may take per decision.
    :param start_timeout: seconds from its start to its ``ready``.
    :param exit_timeout: seconds it has to exit after the ``result`` message.
    :param sandbox: run it under bubblewrap (see docs/trust.md); a
        :class:`~tajmahal.TajMahalError` where bubblewrap cannot run.
    :param progress: called with each game's :class:`GameSummary` as it ends.
    :returns: a :class:`BotReport`; a bad spec (an unknown bot, a program that is not
        there) is a :class:`~tajmahal.bots.SpecError` instead, before any game.

    >>> report = check_bot('cmd:true')  # a program that exits at once
    >>> report.passed, report.failed
    (False, ('handshake', 'answers', 'deterministic', 'clean exit'))
    >>> print(report.check('handshake'))  # doctest: +ELLIPSIS
    FAIL  handshake      failed in 3 of 3 games; first: the program ended before answering ...
    >>> print(report.games[0])  # doctest: +ELLIPSIS
    game 1: 3 players, seat 0, seed 1: 69 decisions, 69 failed, a fault before the first, ...
    >>> check_bot('random').passed
    True
    """
    parsed = check_spec(spec)
    if parsed.is_command:
        check_command(parsed)
    if sandbox:
        check_sandbox()
    limits = ProcessLimits(start_timeout=start_timeout, exit_timeout=exit_timeout,
                           sandbox=sandbox)  # fmt: skip

    def play(number: int, players: int, seat: int, game_seed: int) -> _Game:
        program = ProcessSeat.build(parsed, seat=seat, num_players=players,
                                    seed=bot_seed(game_seed, seat), time_limit=time_limit,
                                    limits=limits)  # fmt: skip
        seats: list[str | Bot | ProcessSeat] = ["random"] * players
        seats[seat] = program  # the match ends it
        result = play_match(seats, seed=game_seed, time_limit=time_limit)
        states = list(replay_states(result.record))[:-1]  # the last one decides nothing
        mine = [f for f in result.faults if f.seat == seat]
        summary = GameSummary(
            number, players, seat, game_seed,
            decisions=sum(state.current_player == seat for state in states),
            failed=len({f.decision for f in mine if f.decision > 0}),
            fault_before_first=any(f.decision == 0 for f in mine),
            slowest=program.player.slowest,
        )  # fmt: skip
        if progress is not None:
            progress(summary)
        return _Game(summary, result, program.player)

    games = [play(n + 1, players, seat, seed + n) for n, (players, seat) in enumerate(GAMES)]
    checks = [_handshake(games), _answers(games)]
    first = games[0]
    ready = first.player.ready_info
    if ready is None:
        checks.append(Check("deterministic", False, "unknown: no handshake"))
    elif not ready.deterministic:
        checks.append(Check("deterministic", True,
                            "not claimed (its 'ready' does not say it is): not checked"))
    else:
        again = play(len(games) + 1, first.summary.players, first.seat, first.summary.seed)
        games.append(again)
        checks.append(_deterministic(first, again))
    checks.append(_clean_exit(games))
    return BotReport(parsed.text, tuple(checks), tuple(g.summary for g in games))


def _handshake(games: Sequence[_Game]) -> Check:
    failed = [g for g in games if g.player.ready_info is None]
    if failed:
        fault = next((f for f in failed[0].faults if f.kind.value == "handshake"), None)
        why = fault.detail if fault is not None else failed[0].player.stopped or "no answer"
        return Check("handshake", False, f"failed in {len(failed)} of {len(games)} "
                     f"games; first: {why}")  # fmt: skip
    names = {g.player.ready_info.name for g in games if g.player.ready_info is not None}
    called = ", ".join(repr(n) for n in sorted(n for n in names if n)) or "no name"
    return Check("handshake", True,
                 f"answered 'hello' with 'ready' in every game (calls itself {called})")


def _answers(games: Sequence[_Game]) -> Check:
    """Whether each of the seat's decisions got a legal move in time: counted by decision
    (a decision the referee decided for a bot that had failed before counts once, as failed;
    faults before the game, at its start or handshake, are the handshake check's)."""
    faults = [f for g in games for f in g.faults if f.decision > 0]
    decisions = sum(g.summary.decisions for g in games)
    if not faults:
        asked = sum(g.player.requests for g in games)
        return Check("answers", True, f"all {asked} requests answered in time with a legal move")
    failed = sum(g.summary.failed for g in games)
    kinds = sorted({f.kind.value for f in faults})
    first = faults[0]
    return Check(
        "answers", False,
        f"{failed} of the bot's {decisions} decisions failed ({', '.join(kinds)}); first, at "
        f"decision {first.decision}: {first.kind.value}: {first.detail}",
    )  # fmt: skip


def _deterministic(first: _Game, again: _Game) -> Check:
    before, after = first.result.record.moves, again.result.record.moves
    seed = first.summary.seed
    if before == after:
        return Check("deterministic", True,
                     f"claimed, and seed {seed} gave the same {len(before)} moves")
    at = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
              min(len(before), len(after)))  # fmt: skip
    return Check("deterministic", False,
                 f"claimed, but seed {seed} gave different moves from decision {at + 1} on")


def _clean_exit(games: Sequence[_Game]) -> Check:
    unclean = [g for g in games if not g.player.clean_exit]
    if not unclean:
        return Check("clean exit", True,
                     "exited by itself with status 0 after the result, every game")
    player = unclean[0].player
    child = player.child
    how = child.exit_description() if child is not None else "never started"
    if player.stopped is not None:
        how = f"was stopped during the game ({player.stopped})"
    elif child is not None and child.killed:
        how = "did not exit in time and was killed"
    return Check("clean exit", False,
                 f"not in {len(unclean)} of {len(games)} games; first: it {how}")
