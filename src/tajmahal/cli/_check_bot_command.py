"""``tajmahal check-bot SPEC``: the conformance kit for bot authors.

It plays the bot, as a bot program (a ``cmd:`` spec, or a registered bot
through the runner), in a few games against ``random`` bots, on different
seats and player counts, then reports one line per check:

- **handshake**: it answered ``hello`` with a valid ``ready`` in every game;
- **answers**: it answered every request in time with a legal move;
- **deterministic**: if its ``ready`` says ``"deterministic": true``, the
  first game played again with the same seed gives the same moves;
- **clean exit**: after the ``result`` message it exited by itself, with
  status 0, within the exit time.

The exit status is 0 only when every check passes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence

import attrs

from tajmahal.bots.base import Bot
from tajmahal.bots.specs import check_spec
from tajmahal.cli._common import Commands, add_command, positive_seconds
from tajmahal.faults import Fault
from tajmahal.game import replay_states
from tajmahal.protocol import (
    ProcessLimits,
    ProcessPlayer,
    ProcessSeat,
    check_command,
    check_sandbox,
)
from tajmahal.referee.match import MatchResult, bot_seed, play_match

__all__ = ["GAMES", "CheckResult", "register", "run_checks"]

#: (players, the bot's seat) of each game
GAMES = ((3, 0), (4, 2), (5, 4))


@attrs.frozen
class CheckResult:
    """One check: its name, whether it passed, and what was seen."""

    name: str
    passed: bool
    detail: str

    def __str__(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'}  {self.name:<14} {self.detail}"


@attrs.frozen
class _Game:
    players: int
    seat: int
    seed: int
    result: MatchResult
    player: ProcessPlayer

    @property
    def faults(self) -> list[Fault]:
        return [f for f in self.result.faults if f.seat == self.seat]

    @property
    def decisions(self) -> list[int]:
        """The numbers (from 1) of the decisions that were the bot's seat's in this game."""
        states = list(replay_states(self.result.record))[:-1]  # the last one decides nothing
        return [n for n, state in enumerate(states, 1) if state.current_player == self.seat]


def register(commands: Commands[argparse.ArgumentParser]) -> None:
    command = add_command(
        commands,
        "check-bot",
        _run,
        summary="check that a bot program follows the protocol and the rules",
        description="Play a bot in a few games against random bots (on different seats and "
        "player counts) through the bot protocol, and report whether it completed the "
        "handshake, answered every request in time with a legal move, stayed deterministic "
        "under a fixed seed (if it says it is) and exited cleanly. Exit status 0 only when "
        "every check passes.",
    )
    command.add_argument("spec", metavar="PLAYER",
                         help="the bot: 'cmd:PROGRAM ARGS', 'file:PATH[:CLASS]' or a "
                         "registered bot's spec")
    command.add_argument("--seed", type=int, default=1,
                         help="the first game's seed (default 1); game N uses seed+N-1")
    command.add_argument("--time-limit", type=positive_seconds, default=5.0, metavar="S",
                         help="seconds the bot may take per decision (default 5)")
    command.add_argument("--start-timeout", type=positive_seconds, default=10.0, metavar="S",
                         help="seconds from start to the bot's 'ready' (default 10)")
    command.add_argument("--sandbox", action="store_true",
                         help="run the bot under bubblewrap (its own PID namespace, no network, "
                         "a read-only root; see docs/trust.md)")
    command.add_argument("--exit-timeout", type=positive_seconds, default=2.0, metavar="S",
                         help="seconds the bot has to exit after the result (default 2)")
    command.add_argument("--json", action="store_true",
                         help="print the checks as JSON (the games' lines go to standard error)")


def _run(args: argparse.Namespace) -> int:
    if args.sandbox:
        check_sandbox()
    limits = ProcessLimits(start_timeout=args.start_timeout, exit_timeout=args.exit_timeout,
                           sandbox=args.sandbox)
    if args.json:
        with contextlib.redirect_stdout(sys.stderr):
            results = run_checks(args.spec, seed=args.seed, time_limit=args.time_limit,
                                 limits=limits)  # fmt: skip
        passed = all(r.passed for r in results)
        checks = [{"name": r.name, "passed": r.passed, "detail": r.detail} for r in results]
        print(json.dumps({"spec": args.spec, "passed": passed, "checks": checks}, indent=1))
        return 0 if passed else 1
    print(f"Checking {args.spec}")
    results = run_checks(args.spec, seed=args.seed, time_limit=args.time_limit, limits=limits)
    for result in results:
        print(result)
    failed = [r.name for r in results if not r.passed]
    if failed:
        print(f"{len(failed)} of {len(results)} checks failed: {', '.join(failed)}")
        return 1
    print(f"All {len(results)} checks passed.")
    return 0


def run_checks(
    spec_text: str, *, seed: int = 1, time_limit: float = 5.0, limits: ProcessLimits | None = None
) -> list[CheckResult]:
    """Play the games of ``GAMES`` (and the first again) and judge them; prints a line per game.

    >>> results = run_checks('cmd:true')  # a program that exits at once  # doctest: +ELLIPSIS
    game 1: 3 players, seat 0, seed 1: 69 decisions, 69 failed, a fault before the first, ...
    ...
    >>> print(results[0])  # doctest: +ELLIPSIS
    FAIL  handshake      failed in 3 of 3 games; first: the program ended before answering ...
    >>> print(results[1])  # doctest: +ELLIPSIS
    FAIL  answers        200 of the bot's 200 decisions failed (unavailable); first, ...
    >>> [str(r).split()[:2] for r in results[1:]]
    [['FAIL', 'answers'], ['FAIL', 'deterministic'], ['FAIL', 'clean']]
    """
    spec = check_spec(spec_text)
    if spec.is_command:
        check_command(spec)

    def play(number: int, players: int, seat: int, game_seed: int) -> _Game:
        program = ProcessSeat.build(spec, seat=seat, num_players=players,
                                    seed=bot_seed(game_seed, seat), time_limit=time_limit,
                                    limits=limits)
        seats: list[str | Bot | ProcessSeat] = ["random"] * players
        seats[seat] = program  # the match ends it
        result = play_match(seats, seed=game_seed, time_limit=time_limit)
        player = program.player
        game = _Game(players, seat, game_seed, result, player)
        failed = len({f.decision for f in game.faults if f.decision > 0})
        faults = f"{failed} failed" if failed else "no faults"
        if any(f.decision == 0 for f in game.faults):
            faults += ", a fault before the first"
        print(f"game {number}: {players} players, seat {seat}, seed {game_seed}: "
              f"{len(game.decisions)} decisions, {faults}, slowest answer "
              f"{player.slowest * 1000:.0f} ms")
        return game

    games = [play(n + 1, players, seat, seed + n) for n, (players, seat) in enumerate(GAMES)]
    checks = [_handshake(games), _answers(games)]
    first = games[0]
    ready = first.player.ready_info
    if ready is None:
        checks.append(CheckResult("deterministic", False, "unknown: no handshake"))
    elif not ready.deterministic:
        checks.append(CheckResult("deterministic", True,
                                  "not claimed (its 'ready' does not say it is): not checked"))
    else:
        again = play(len(games) + 1, first.players, first.seat, first.seed)
        games.append(again)
        checks.append(_deterministic(first, again))
    checks.append(_clean_exit(games))
    return checks


def _handshake(games: Sequence[_Game]) -> CheckResult:
    failed = [g for g in games if g.player.ready_info is None]
    if failed:
        fault = next((f for f in failed[0].faults if f.kind.value == "handshake"), None)
        why = fault.detail if fault is not None else failed[0].player.stopped or "no answer"
        return CheckResult("handshake", False, f"failed in {len(failed)} of {len(games)} "
                           f"games; first: {why}")
    names = {g.player.ready_info.name for g in games if g.player.ready_info is not None}
    called = ", ".join(repr(n) for n in sorted(n for n in names if n)) or "no name"
    return CheckResult("handshake", True,
                       f"answered 'hello' with 'ready' in every game (calls itself {called})")


def _answers(games: Sequence[_Game]) -> CheckResult:
    """Whether each of the seat's decisions got a legal move in time: counted by decision
    (a decision the referee decided for a bot that had failed before counts once, as failed;
    faults before the game, at its start or handshake, are the handshake check's)."""
    faults = [f for g in games for f in g.faults if f.decision > 0]
    decisions = sum(len(g.decisions) for g in games)
    if not faults:
        asked = sum(g.player.requests for g in games)
        return CheckResult("answers", True,
                           f"all {asked} requests answered in time with a legal move")
    failed = sum(len({f.decision for f in g.faults if f.decision > 0}) for g in games)
    kinds = sorted({f.kind.value for f in faults})
    first = faults[0]
    return CheckResult(
        "answers", False,
        f"{failed} of the bot's {decisions} decisions failed ({', '.join(kinds)}); first, at "
        f"decision {first.decision}: {first.kind.value}: {first.detail}",
    )


def _deterministic(first: _Game, again: _Game) -> CheckResult:
    before, after = first.result.record.moves, again.result.record.moves
    if before == after:
        return CheckResult("deterministic", True,
                           f"claimed, and seed {first.seed} gave the same {len(before)} moves")
    at = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
              min(len(before), len(after)))
    return CheckResult("deterministic", False,
                       f"claimed, but seed {first.seed} gave different moves from decision "
                       f"{at + 1} on")


def _clean_exit(games: Sequence[_Game]) -> CheckResult:
    unclean = [g for g in games if not g.player.clean_exit]
    if not unclean:
        return CheckResult("clean exit", True,
                           "exited by itself with status 0 after the result, every game")
    player = unclean[0].player
    child = player.child
    how = child.exit_description() if child is not None else "never started"
    if player.stopped is not None:
        how = f"was stopped during the game ({player.stopped})"
    elif child is not None and child.killed:
        how = "did not exit in time and was killed"
    return CheckResult("clean exit", False,
                       f"not in {len(unclean)} of {len(games)} games; first: it {how}")
