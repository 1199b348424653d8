"""The bot protocol: its overhead per decision, and what hostile bot programs cost a match.

Three parts, each printed as a table:

1. **One decision** on a 4-player mid-game view (seed 3, after 60 random
   moves), repeated: the in-process call of a trivial bot (first legal
   move), the same bot as a program (``benchmarks/first_legal_bot.py``,
   standard library only) through :class:`ProcessPlayer.choose` (view
   document, request line, pipe, the child's JSON parsing and answer, the
   answer's checks), and the child's **round trip** alone (a prepared
   request line written, the answer line read).
2. **Start-up** of a program (from the start to its ``ready``); per
   **isolation mode** (isolated, as the referee's user when it is root, and
   sandboxed under bubblewrap) the start-up, the close and one decision; and
   **whole matches** of four first-legal bots, in-process and as programs:
   time per decision, start-up included.
3. **Hostile programs** (``tests/programs/hostile_bot.py``), each in seat 0
   of a 3-player match against two ``random`` bots: what it did, how long
   the match took, the faults recorded.

    .venv/bin/python benchmarks/protocol.py            # all three (about 30 s)
    .venv/bin/python benchmarks/protocol.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import tajmahal as tm
from tajmahal.protocol import ProcessLimits, ProcessPlayer
from tajmahal.protocol.messages import request_line

HERE = Path(__file__).resolve().parent
FIRST_LEGAL = [sys.executable, str(HERE / "first_legal_bot.py")]
HOSTILE = HERE.parent / "tests" / "programs" / "hostile_bot.py"

HOSTILE_CASES: list[tuple[str, str, dict[str, object]]] = [
    ("crash-at-once", "exits with status 3 before the handshake", {}),
    ("crash-mid", "raises an exception at its 5th decision", {}),
    ("hang", "stops answering at its 3rd decision", {"time_limit": 0.5}),
    ("late", "answers its 3rd decision after twice the time limit", {"time_limit": 0.5}),
    ("garbage", "writes 3 MB of random bytes on one line", {}),
    ("wrong-json", "answers valid JSON with wrong content, every time", {}),
    ("chatty", "writes a debug line to stdout after an answer", {}),
    ("bad-handshake", "answers hello with protocol version 99", {}),
    ("silent-start", "never answers hello (start timeout 1 s)",
     {"process_limits": ProcessLimits(start_timeout=1)}),
    ("early-exit", "exits with status 0 at its 3rd decision", {}),
    ("closes-stdout", "closes its stdout at its 2nd decision and keeps running", {}),
    ("stderr-flood", "writes 4 MiB to stderr at its 2nd decision, then plays on", {}),
    ("child-keeps-stdout", "starts a process that keeps stdout open, then exits", {}),
    ("memory", "allocates without bound (memory cap 64 MiB)",
     {"process_limits": ProcessLimits(memory_mb=64), "time_limit": 20.0}),
    ("shared-memory", "touches up to 768 MiB of shared mappings (memory cap 64 MiB)",
     {"process_limits": ProcessLimits(memory_mb=64), "time_limit": 20.0}),
    ("spin", "spins without answering (CPU cap 1 s, time limit 60 s)",
     {"process_limits": ProcessLimits(cpu_seconds=1), "time_limit": 60.0}),
    ("fork-bomb", "starts processes until it cannot (process cap 16)",
     {"process_limits": ProcessLimits(max_processes=16), "time_limit": 20.0}),
]


class FirstLegal:
    """The trivial bot, in-process: the first legal move."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        return legal_moves[0]


def mid_game() -> tm.GameState:
    state = tm.new_game(num_players=4, seed=3)
    rng = random.Random(1)
    for _ in range(60):
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def per_call(function: object, count: int) -> float:
    """Median microseconds per call over 5 batches of ``count`` calls."""
    batches = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(count):
            function()  # type: ignore[operator]
        batches.append((time.perf_counter() - start) / count * 1e6)
    return statistics.median(batches)


def one_decision(count: int) -> list[tuple[str, float]]:
    state = mid_game()
    seat = state.current_player
    assert seat is not None
    view, legal = state.view(seat), state.legal_moves()
    bot = FirstLegal()
    rows = [("in-process: bot.choose(view, legal_moves)", per_call(
        lambda: bot.choose(view, legal), count))]
    rows.append(("tm.dumps(view) (part of every request)", per_call(lambda: tm.dumps(view), count)))
    with ProcessPlayer(FIRST_LEGAL, seat=seat, num_players=4, seed=1, time_limit=10) as player:
        player.handshake()
        assert player.choose(view, legal) is legal[0]
        rows.append(("program: player.choose(view, legal_moves)", per_call(
            lambda: player.choose(view, legal), count)))
        line = request_line(1, 10.0, [str(m) for m in legal], tm.dumps(view))
        child = player.child
        assert child is not None

        def round_trip() -> None:
            deadline = time.monotonic() + 10
            child.send(line, deadline)
            child.read_line(deadline)

        rows.append((f"program: round trip of the {len(line)}-byte request line",
                     per_call(round_trip, count)))
    return rows


def start_ups(count: int) -> list[tuple[str, float]]:
    """Median milliseconds from starting a program to its ``ready``."""
    import shutil

    programs = [("first_legal_bot.py (Python, standard library)", FIRST_LEGAL),
                ("the runner: python -m tajmahal.protocol.runner random",
                 [sys.executable, "-m", "tajmahal.protocol.runner", "random"])]
    if shutil.which("node"):
        programs.append(("tajmahal/examples/random_bot.js (Node.js)",
                         ["node", str(HERE.parent / "src" / "tajmahal" / "examples" / "random_bot.js")]))
    rows = []
    for label, command in programs:
        times = []
        for _ in range(count):
            start = time.perf_counter()
            with ProcessPlayer(command, seat=0, num_players=4, seed=1) as player:
                player.handshake()
                times.append((time.perf_counter() - start) * 1000)
        rows.append((label, statistics.median(times)))
    return rows


def isolation_modes(count: int, decisions: int) -> list[tuple[str, float, float, float]]:
    """Per mode: median ms to start (to ``ready``) and to close, and µs per decision."""
    from tajmahal.protocol.confine import sandbox_problem

    modes = [("isolated", ProcessLimits())]
    if os.geteuid() == 0:
        modes.append(("isolated, the referee's user (separate_user=False)",
                      ProcessLimits(separate_user=False)))
    if sandbox_problem() is None:
        modes.append(("sandboxed (bubblewrap)", ProcessLimits(sandbox=True)))
    else:
        print(f"  (no sandbox: {sandbox_problem()})")
    state = mid_game()
    seat = state.current_player
    assert seat is not None
    view, legal = state.view(seat), state.legal_moves()
    rows = []
    for label, limits in modes:
        for name, command in [("first_legal_bot.py", FIRST_LEGAL), (
                "runner", [sys.executable, "-m", "tajmahal.protocol.runner", "random"])]:
            starts, closes, per_decision = [], [], []
            for _ in range(count):
                start = time.perf_counter()
                player = ProcessPlayer(command, seat=seat, num_players=4, seed=1, time_limit=10,
                                       limits=limits)
                player.handshake()
                started = time.perf_counter()
                for _ in range(decisions):
                    player.choose(view, legal)
                chosen = time.perf_counter()
                player.close()
                starts.append((started - start) * 1000)
                per_decision.append((chosen - started) / decisions * 1e6)
                closes.append((time.perf_counter() - chosen) * 1000)
                assert not player.failures, player.failures
            rows.append((f"{label}: {name}", statistics.median(starts),
                         statistics.median(closes), statistics.median(per_decision)))
    return rows


def whole_matches(games: int) -> list[tuple[str, float, int]]:
    rows = []
    for label, players in [
        ("in-process first-legal bots", [FirstLegal() for _ in range(4)]),
        ("first-legal programs", ["cmd:" + " ".join(FIRST_LEGAL)] * 4),
    ]:
        decisions, start = 0, time.perf_counter()
        for seed in range(games):
            result = tm.play_match(players, seed=seed)  # type: ignore[arg-type]
            assert result.faults == ()
            decisions += len(result.record.moves)
        rows.append((label, (time.perf_counter() - start) / decisions * 1e6, decisions))
    return rows


def hostile_table() -> list[tuple[str, str, float, str]]:
    rows = []
    for mode, what, options in HOSTILE_CASES:
        spec = f"cmd:{sys.executable} {HOSTILE} {mode}"
        start = time.perf_counter()
        result = tm.play_match([spec, "random", "random"], seed=2,
                               **{"time_limit": 5.0, **options})  # type: ignore[arg-type]
        took = time.perf_counter() - start
        kinds = Counter(f.kind.value for f in result.faults)
        first = result.faults[0] if result.faults else None
        faults = ", ".join(f"{n} {k}" for k, n in kinds.items()) or "no faults"
        if first is not None:
            what_happened, _, stderr = first.detail.partition("; stderr: ")
            what_happened = what_happened.split("; played ")[0]
            last_line = stderr.split("; played ")[0].rsplit(" | ", 1)[-1]
            shown = what_happened + (f" [stderr: ...{last_line[-60:]}]" if stderr else "")
            faults += f" (first, decision {first.decision}: {shown})"
        rows.append((mode, what, took, faults))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (fewer repetitions)")
    parser.add_argument("--no-hostile", action="store_true", help="skip the hostile programs")
    args = parser.parse_args(argv)
    count, games = (20, 1) if args.quick else (1000, 5)

    print("One decision, 4 players, mid-game (median of 5 batches):")
    for label, micros in one_decision(count):
        print(f"  {label:<58} {micros:10.1f} µs")
    print("\nStart-up: from starting the program to its 'ready' (median):")
    for label, millis in start_ups(1 if args.quick else 7):
        print(f"  {label:<58} {millis:10.1f} ms")
    print("\nIsolation modes (median): start to 'ready', close, one decision (choose):")
    for label, start, close, micros in isolation_modes(3 if args.quick else 9,
                                                       20 if args.quick else 200):
        print(f"  {label:<66} {start:7.1f} ms {close:7.1f} ms {micros:9.1f} µs")
    print(f"\nWhole matches of 4 first-legal bots ({games} games, start-up included):")
    for label, micros, decisions in whole_matches(games):
        print(f"  {label:<58} {micros:10.1f} µs per decision ({decisions} decisions)")
    if not args.no_hostile:
        print("\nHostile programs in seat 0 against two random bots (seed 2):")
        print(f"  {'program':<20} {'match':>7}  faults")
        for mode, what, took, faults in hostile_table():
            print(f"  {mode:<20} {took:6.2f}s  {faults}")
            print(f"  {'':<20} {'':>7}  ({what})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
