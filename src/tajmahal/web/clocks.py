"""Clocks for the people's decisions: a time control set in the lobby, judged by the server.

Two kinds, as lichess and Board Game Arena offer: ``move`` gives each decision ``seconds``;
``bank`` gives the whole game ``seconds`` plus ``increment`` after each move.  The time a
person takes is stored with their move, so a restarted server counts the same bank (the
time it was down is nobody's).  At zero the server plays the seat's move: ``autopilot`` (the
greedy bot's move) or ``withdraw`` (withdrawing where the seat may, else the greedy move),
recorded as a timeout fault.  Bots keep their own limits (``time_limit``, ``game_time``).
On the PostgreSQL cluster only the process that holds the game judges the time and plays the
move at zero; a replica shows the clocks (counted from the moves as it learns of them) and
the process that takes a game over judges from then on.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tajmahal.rules.moves import Move, Withdraw
from tajmahal.rules.views import PlayerView

__all__ = ["Clock", "SeatClocks", "timeout_move"]

KINDS = ("move", "bank")
AT_ZERO = ("autopilot", "withdraw")
MIN_SECONDS, MAX_SECONDS = 5.0, 7 * 24 * 3600.0  #: a decision's (or a bank's) time
MAX_INCREMENT = 3600.0


@attrs.frozen
class Clock:
    """A game's time control for its people.

    >>> Clock.parse({'kind': 'bank', 'seconds': 600, 'increment': 5}).as_json()
    {'kind': 'bank', 'seconds': 600.0, 'increment': 5.0, 'at_zero': 'autopilot'}
    >>> Clock.parse({'kind': 'move', 'seconds': 1})
    Traceback (most recent call last):
    ...
    ValueError: 'clock' seconds are 5 to 604800, got 1
    """

    kind: str
    seconds: float
    increment: float = 0.0
    at_zero: str = "autopilot"

    @classmethod
    def parse(cls, data: object) -> Clock:
        """A lobby's (or the store's) clock; :class:`ValueError` says what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError("'clock' is an object: kind, seconds, increment, at_zero")
        unknown = set(data) - {"kind", "seconds", "increment", "at_zero"}
        if unknown:
            raise ValueError(f"unknown clock setting {sorted(map(str, unknown))[0][:40]!r}")
        kind, at_zero = data.get("kind"), data.get("at_zero", "autopilot")
        if kind not in KINDS:
            raise ValueError(f"a clock's kind is 'move' or 'bank', got {str(kind)[:20]!r}")
        if at_zero not in AT_ZERO:
            raise ValueError("a clock's at_zero is 'autopilot' or 'withdraw'")
        seconds = _number(data.get("seconds"), "seconds", MIN_SECONDS, MAX_SECONDS)
        increment = _number(data.get("increment", 0), "increment", 0.0, MAX_INCREMENT)
        if kind == "move" and increment:
            raise ValueError("an increment is for a bank clock, not a clock per move")
        return cls(str(kind), seconds, increment, str(at_zero))

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seconds": self.seconds, "increment": self.increment,
                "at_zero": self.at_zero}  # fmt: skip


def _number(value: object, name: str, low: float, high: float) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):  # type: ignore[arg-type]
        raise ValueError(f"'clock' {name} must be a number of seconds")
    number = float(value)  # type: ignore[arg-type]
    if not low <= number <= high:
        raise ValueError(f"'clock' {name} are {low:g} to {high:g}, got {number:g}")
    return number


class SeatClocks:
    """Each person's time left, from the moves stored (their times) and the turn running now.

    >>> clocks = SeatClocks(Clock('bank', 60.0, 2.0), [True, False, True], [])
    >>> clocks.left(0, running=False), clocks.left(1, running=False)
    (60.0, None)
    """

    def __init__(self, clock: Clock, humans: Sequence[bool],
                 moves: Sequence[tuple[int, float]]) -> None:  # fmt: skip
        self.clock = clock
        self.humans = list(humans)
        self.used = [0.0] * len(humans)
        self.moved = [0] * len(humans)
        for seat, elapsed in moves:
            self.used[seat] += max(0.0, elapsed)
            self.moved[seat] += 1
        self.started = time.monotonic()  #: when the decision now waiting began (or loaded)

    def running(self) -> float:
        """Seconds the decision now waiting has taken so far."""
        return max(0.0, time.monotonic() - self.started)

    def left(self, seat: int, running: bool) -> float | None:
        """Seconds ``seat`` has left (None: a bot's seat); ``running``: it is its turn."""
        if not self.humans[seat]:
            return None
        now = self.running() if running else 0.0
        if self.clock.kind == "move":
            return max(0.0, self.clock.seconds - now)
        bank = self.clock.seconds + self.clock.increment * self.moved[seat] - self.used[seat]
        return max(0.0, bank - now)

    def record(self, seat: int, elapsed: float) -> None:
        """A move made: its time counted, the next decision's clock started."""
        self.used[seat] += elapsed
        self.moved[seat] += 1
        self.started = time.monotonic()

    def count_move(self, seat: int, elapsed: float) -> None:
        """Any seat's move made (a replica learns of it from the store): a person's time
        counted, the next decision's clock started."""
        if self.humans[seat]:
            self.record(seat, elapsed)
        else:
            self.started = time.monotonic()

    def shown(self, turn: int | None) -> list[dict[str, Any] | None]:
        """What the page shows: each seat's seconds left and whether its clock runs."""
        return [None if not human else
                {"left": round(self.left(seat, seat == turn) or 0.0, 1), "running": seat == turn}
                for seat, human in enumerate(self.humans)]  # fmt: skip


def timeout_move(view: PlayerView, legal: Sequence[Move], at_zero: str, seed: int) -> Move:
    """The move the server plays for a person whose clock ran out."""
    if at_zero == "withdraw":
        for move in legal:
            if isinstance(move, Withdraw):
                return move
    from tajmahal.bots.greedy import GreedyBot

    return GreedyBot(seed=seed).choose(view, tuple(legal))
