"""Hostile bots, in process: every match finishes, in bounded time, with the right faults.

Each test plays a match against a bot that attacks the referee one way, and
checks that the match ends (within :data:`BOUND` seconds, or the test fails
instead of hanging), which faults were recorded, and that a fresh Python
process accepts the record (loads and replays it).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest

import tajmahal as tm
from helpers import line_components
from tajmahal.faults import MAX_DETAIL, MAX_TRACEBACK
from tajmahal.referee import FaultKind, bot_seed, seats

LINE = line_components()
BOUND = 30.0  #: seconds a hostile match may take before the test fails
RELEASE = threading.Event()  #: set at the end of each test: stalled bots wake up and return


@pytest.fixture(autouse=True)
def release_stalled_bots() -> Iterator[None]:
    RELEASE.clear()
    yield
    RELEASE.set()
    deadline = time.monotonic() + 5
    while seats.abandoned_calls() and time.monotonic() < deadline:
        time.sleep(0.01)


def stall() -> None:
    """What a bot that never returns does (until the test ends)."""
    RELEASE.wait()


def play(players: Sequence[Any], **options: Any) -> tm.MatchResult:
    """Play on the small line board in a thread; fail if the match does not end in time."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["result"] = tm.play_match(players, seed=3, components=LINE, **options)
        except BaseException as exc:  # reported below, in the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(BOUND)
    assert not thread.is_alive(), f"the match did not end within {BOUND} s"
    if "error" in box:
        raise box["error"]
    result: tm.MatchResult = box["result"]
    assert result.record.scores is not None
    return result


CLEAN_CHECK = """
import json, sys, tajmahal as tm
for text in json.load(sys.stdin):
    record = tm.loads(text)
    print(tm.replay(record).scores)
"""
TO_CHECK: list[tm.GameRecord] = []


@pytest.fixture(scope="module", autouse=True)
def clean_process_check() -> Iterator[None]:
    """After the module's tests: one fresh process loads and replays every record kept."""
    yield
    if not TO_CHECK:
        return
    texts = json.dumps([tm.dumps(record) for record in TO_CHECK])
    done = subprocess.run(
        [sys.executable, "-c", CLEAN_CHECK], input=texts, capture_output=True, text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:-1] == [str(record.scores) for record in TO_CHECK]


def accepted_by_a_clean_process(record: tm.GameRecord) -> None:
    """Keep ``record`` for the module's clean-process check (one process for all)."""
    TO_CHECK.append(record)


def kinds(result: tm.MatchResult, seat: int = 0) -> set[FaultKind]:
    return {fault.kind for fault in result.faults if fault.seat == seat}


class Hostile:
    """Plays the first legal move except when ``attack`` returns something else."""

    name: ClassVar[str] = "hostile"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> Any:
        return self.attack(legal_moves)

    def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
        return legal_moves[0]


class OddBase(BaseException):
    pass


@pytest.mark.parametrize("raised", [KeyboardInterrupt, SystemExit, OddBase, GeneratorExit])
@pytest.mark.parametrize("time_limit", [None, 5.0])
def test_any_exception_a_bot_raises_is_its_fault(
    raised: type[BaseException], time_limit: float | None
) -> None:
    class Raiser(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            raise raised()

    result = play([Raiser(), "random", "random"], time_limit=time_limit)
    assert kinds(result) == {FaultKind.EXCEPTION} and result.ranking[-1] == 0
    assert raised.__name__ in result.faults[0].detail
    assert "attack" in result.faults[0].traceback  # the bot's frame, bounded
    if time_limit is None and raised is KeyboardInterrupt:
        accepted_by_a_clean_process(result.record)


def test_the_users_ctrl_c_still_stops_the_match() -> None:
    class Presses(Hostile):  # as if the user pressed Ctrl-C while the bot thinks
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            signal.raise_signal(signal.SIGINT)
            time.sleep(1)
            return legal_moves[0]

    for time_limit in (None, 5.0):
        with pytest.raises(KeyboardInterrupt):
            tm.play_match([Presses(), "random", "random"], seed=1, time_limit=time_limit)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_the_users_ctrl_c_stops_a_timed_match_while_a_bot_never_answers() -> None:
    release = threading.Event()

    class PressesAndHangs(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            signal.raise_signal(signal.SIGINT)  # the user gives up on the stalled bot
            release.wait(600)
            return legal_moves[0]

    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            tm.play_match([PressesAndHangs(), "random", "random"], seed=1, time_limit=300.0)
        assert time.monotonic() - started < 60  # not the 300 s limit, nor the 600 s stall
    finally:
        release.set()


class Unprintable(Exception):
    def __str__(self) -> str:
        raise SystemExit("not even this")


class Stalling(Exception):
    def __str__(self) -> str:
        stall()
        return "late"


def test_an_exception_whose_str_raises_is_described_by_its_type() -> None:
    class Raiser(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            raise Unprintable()

    result = play([Raiser(), "random", "random"])
    assert kinds(result) == {FaultKind.EXCEPTION}
    assert "Unprintable: <str() raised SystemExit>" in result.faults[0].detail
    accepted_by_a_clean_process(result.record)


def test_an_exception_whose_str_stalls_is_a_timeout() -> None:
    class Raiser(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            raise Stalling()

    result = play([Raiser(), "random", "random"], time_limit=0.2)
    assert kinds(result) == {FaultKind.TIMEOUT}
    assert "still running" in result.faults[1].detail  # never asked twice at once
    accepted_by_a_clean_process(result.record)


def test_a_huge_message_is_cut_and_the_traceback_is_bounded() -> None:
    class Deep(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            return self.recurse(200)

        def recurse(self, n: int) -> Any:
            if n:
                return self.recurse(n - 1)
            raise ValueError("x" * 20_000_000)

    result = play([Deep(), "random", "random"])
    fault = result.faults[0]
    assert len(fault.detail) <= MAX_DETAIL and "(20000000 chars)" in fault.detail
    assert 0 < len(fault.traceback) <= MAX_TRACEBACK and "recurse" in fault.traceback


class Nasty:
    """Every special method raises or stalls."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __repr__(self) -> str:
        stall()
        return "nasty"

    __str__ = __repr__


class City(str):
    """A city id whose comparison stalls."""

    def __eq__(self, other: object) -> bool:
        stall()
        return False

    __hash__ = str.__hash__


class Sneaky(tm.Withdraw):
    """A move subclass that claims to be equal to everything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = tm.Withdraw.__hash__


def forged(cls: type, **fields: Any) -> Any:
    """A move object built around its constructor (which rejects wrong types at once)."""
    move = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(move, name, value)
    return move


@pytest.mark.parametrize(
    ("returned", "described"),
    [
        (lambda legal: Nasty(), "an object of type Nasty"),
        (lambda legal: forged(tm.PlacePalace, city=City("p1a")), "whose city is a City"),
        (lambda legal: forged(tm.TakeCard, card=Nasty()), "holding a Nasty, not a Card"),
        (lambda legal: Sneaky(), "an object of type Sneaky"),
        (lambda legal: "withdraw", "the string 'withdraw'"),
    ],
)
def test_foreign_objects_are_never_touched_even_without_a_time_limit(
    returned: Any, described: str
) -> None:
    class Returner(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            return returned(legal_moves)

    result = play([Returner(), "random", "random"])  # no time limit: nothing may stall
    assert kinds(result) == {FaultKind.ILLEGAL_MOVE}
    assert described in result.faults[0].detail
    accepted_by_a_clean_process(result.record)


def test_a_name_that_raises_or_is_junk_names_the_seat_by_type() -> None:
    class NoName(Hostile):
        @property
        def name(self) -> str:  # type: ignore[override]
            raise RuntimeError("no name")

    class LongName(Hostile):
        name = "x" * 10_000  # type: ignore[assignment]

    result = play([NoName(), LongName(), "random"])
    assert result.players == ("NoName", "LongName", "random") and result.faults == ()


class Plugin:
    def __init__(self, *bots: Any) -> None:
        self.bots = bots

    @tm.hookimpl
    def tajmahal_bots(self) -> Any:
        return list(self.bots)


@pytest.fixture
def install() -> Iterator[Any]:
    """Register bot classes in the default registry for one test."""
    tm.bots.reload()

    def register(*bots: Any) -> None:
        tm.bots.default_registry().register(Plugin(*bots), name="hostile-plugin")

    yield register
    tm.bots.reload()


def test_a_constructor_that_raises_leaves_the_seat_to_fallback_moves(install: Any) -> None:
    class Broken(Hostile):
        name: ClassVar[str] = "broken"

        def __init__(self, seed: int = 0, level: int = 1) -> None:
            if level > 1:
                raise ValueError(f"level must be 1, got {level}")
            raise RuntimeError("cannot start")

    install(Broken)
    result = play(["broken", "random", "random"])
    first, *rest = result.faults
    assert (first.decision, first.kind) == (0, FaultKind.EXCEPTION)
    assert "cannot start" in first.detail
    assert rest and {fault.kind for fault in rest} == {FaultKind.UNAVAILABLE}
    assert result.ranking[-1] == 0
    accepted_by_a_clean_process(result.record)
    with pytest.raises(tm.bots.SpecError, match="bad option value: ValueError: level must be 1"):
        play(["broken:level=2", "random", "random"])


def test_a_constructor_that_stalls_is_a_timeout(install: Any) -> None:
    class Sleepy(Hostile):
        name: ClassVar[str] = "sleepy"

        def __init__(self, seed: int = 0) -> None:
            stall()

    install(Sleepy)
    result = play(["random", "sleepy", "random"], time_limit=0.2)
    first = result.faults[0]
    assert (first.seat, first.decision, first.kind) == (1, 0, FaultKind.TIMEOUT)
    assert kinds(result, seat=1) == {FaultKind.TIMEOUT, FaultKind.UNAVAILABLE}


def test_mutating_the_moves_handed_over_changes_nothing_in_the_engine() -> None:
    class Mutator(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            for move in legal_moves:
                if isinstance(move, tm.PlacePalace):
                    object.__setattr__(move, "city", "p1a")  # a city of another province
                    return move
                if isinstance(move, tm.PlayCards):
                    object.__setattr__(move.colored, "symbols", ())
            return legal_moves[0]

    reference = play(["random", "random", "random"])
    result = play([Mutator(), "random", "random"])
    assert kinds(result) <= {FaultKind.ILLEGAL_MOVE}
    assert tm.replay(result.record).scores == result.scores
    assert play(["random", "random", "random"]).record == reference.record  # nothing corrupted


class Other(tm.PlayCards):
    """A move class of the bot's own, the same slots as PlayCards."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    __hash__ = tm.PlayCards.__hash__


@pytest.mark.parametrize("limit", [None, 5.0])
@pytest.mark.parametrize(
    ("change", "judged"),
    [
        (lambda move: None, "the same move"),  # unchanged: by identity of its fields
        # an equal card of its own: judged by value
        (lambda move: object.__setattr__(move, "colored", tm.Card.parse(str(move.colored))),
         "the same move"),
        (lambda move: object.__setattr__(move.colored, "symbols", ()), "not one of"),
        (lambda move: object.__setattr__(move, "colored", Nasty()), "holding a Nasty"),
        (lambda move: object.__setattr__(move.colored, "color", Nasty()), "fields of foreign"),
        (lambda move: object.__setattr__(move, "__class__", Other), "of type Other"),
        (lambda move: object.__delattr__(move, "extra"), "with missing fields"),
    ],
)
def test_a_copy_changed_after_it_was_handed_over_is_judged_by_what_it_holds(
    limit: float | None, change: Any, judged: str
) -> None:
    """The referee accepts a returned copy at once only while it holds the very objects
    it was handed with; anything else is judged field by field, no bot code run."""

    class Changer:
        name = "changer"

        def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> Any:
            move = legal_moves[0]
            change(move)
            return move

    state = tm.new_game(3, seed=1)
    legal = state.legal_moves()
    assert isinstance(legal[0], tm.PlayCards)
    seat = seats.InProcessSeat.build(Changer(), seed=0, limit=limit)
    try:
        answer = seat.choose(state.view(0), legal, limit)
    finally:
        seat.close()
    if judged == "the same move":
        assert (answer.index, answer.kind) == (0, None)
    else:
        assert answer.index is None and answer.kind is FaultKind.ILLEGAL_MOVE
        assert judged in answer.detail
    assert tm.new_game(3, seed=1).legal_moves() == legal  # the engine's moves untouched


def test_the_game_clock_bounds_a_seat_over_the_whole_game() -> None:
    class Ponderous(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            time.sleep(0.05)
            return legal_moves[0]

    result = play([Ponderous(), "random", "random"], game_time=0.3)
    timeouts = [fault for fault in result.faults if fault.kind is FaultKind.TIMEOUT]
    assert kinds(result) == {FaultKind.TIMEOUT} and len(timeouts) > 3
    assert "game clock" in timeouts[-1].detail
    assert not kinds(result, seat=1) and not kinds(result, seat=2)


@pytest.mark.parametrize(
    "limit", [0, -1, float("nan"), float("inf"), 1e300, True, "1", 86_401]
)
def test_invalid_limits_are_clear_errors(limit: Any) -> None:
    for option in ("time_limit", "game_time"):
        with pytest.raises(tm.TajMahalError, match=f"{option} must be a number of seconds"):
            tm.play_match(["random"] * 3, seed=1, **{option: limit})


def test_a_bot_is_never_asked_twice_at_once_even_across_matches() -> None:
    class Stuck(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            stall()
            return legal_moves[0]

    stuck = Stuck()
    play([stuck, "random", "random"], time_limit=0.05)
    result = play([stuck, "random", "random"], time_limit=0.05)
    assert kinds(result) == {FaultKind.TIMEOUT}
    assert all("still running" in fault.detail for fault in result.faults)


def test_abandoned_calls_are_capped_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stuck(Hostile):
        def attack(self, legal_moves: Sequence[tm.Move]) -> Any:
            stall()
            return legal_moves[0]

    monkeypatch.setattr(seats, "MAX_ABANDONED", seats.abandoned_calls() + 1)
    play([Stuck(), "random", "random"], time_limit=0.05)
    result = play(["random", "random", "random"], time_limit=0.05)
    assert {fault.kind for fault in result.faults} == {FaultKind.UNAVAILABLE}
    assert "abandoned bot calls are still running" in result.faults[0].detail


def test_the_default_seed_is_unguessable_and_kept_in_the_record() -> None:
    first = tm.play_match(["random", "random", "random"], components=LINE)
    second = tm.play_match(["random", "random", "random"], components=LINE)
    assert first.record.seed != second.record.seed and first.record.seed >= 2**20
    assert tm.replay(first.record).scores == first.scores
    seeds = {bot_seed(first.record.seed, seat) for seat in range(3)}
    assert first.record.seed not in seeds and len(seeds) == 3
