"""The referee: results, what bots see, determinism, and faults that never stop a match."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tajmahal as tm
from helpers import line_components
from tajmahal.bots import GreedyBot, RandomBot
from tajmahal.referee import FaultKind, bot_seed, seats
from tajmahal.rules.legal import WITHDRAW
from tajmahal.rules.tables import tables

LINE = line_components()


def match(players: Sequence[str | tm.Bot], seed: int | None = 1, **options: Any) -> tm.MatchResult:
    return tm.play_match(players, seed=seed, components=LINE, **options)


def states_of(record: tm.GameRecord) -> list[tm.GameState]:
    """Every state of a record, the initial one first."""
    state = tm.new_game(record.num_players, record.seed, record.components, record.first_player)
    states = [state]
    for move in record.moves:
        state = state.apply(move)
        states.append(state)
    return states


class Faulty:
    """Plays like ``random`` except at its ``at``-th decision, where ``misbehave`` runs."""

    name: ClassVar[str] = "faulty"

    def __init__(
        self, misbehave: Callable[[Sequence[tm.Move]], Any], at: int = 3, inner: Any = None
    ) -> None:
        self.inner: tm.Bot = inner if inner is not None else RandomBot(seed=99)
        self.misbehave, self.at, self.calls = misbehave, at, 0

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        self.calls += 1
        if self.calls == self.at:
            return self.misbehave(legal_moves)  # type: ignore[no-any-return]
        return self.inner.choose(view, legal_moves)


def raise_error(legal: Sequence[tm.Move]) -> tm.Move:
    raise RuntimeError("boom")


def illegal_move(legal: Sequence[tm.Move]) -> tm.Move:
    return tm.PlacePalace("nowhere")


def not_a_move(legal: Sequence[tm.Move]) -> tm.Move:
    return "withdraw"  # type: ignore[return-value]


def exits(legal: Sequence[tm.Move]) -> tm.Move:
    raise SystemExit(3)


def too_slow(legal: Sequence[tm.Move]) -> tm.Move:
    time.sleep(0.3)
    return legal[-1]


# ---------------------------------------------------------------------------- results


def test_result_matches_the_replayed_record() -> None:
    result = match(["greedy", "random", "random", "random"], seed=4)
    final = tm.replay(result.record)
    assert final.is_over
    assert result.scores == final.scores == result.record.scores
    assert result.players == result.record.players == ("greedy", "random", "random", "random")
    assert sorted(result.ranking) == [0, 1, 2, 3]
    ranked_scores = [result.scores[s] for s in result.ranking]
    assert ranked_scores == sorted(ranked_scores, reverse=True)
    assert result.winners == final.winners  # no faults: the rules decide
    assert result.faults == ()


def test_bots_see_only_their_view_and_the_legal_moves() -> None:
    seen: list[tuple[int, object, object]] = []

    class Spy:
        name: ClassVar[str] = "spy"

        def __init__(self, seat: int) -> None:
            self.seat = seat

        def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
            seen.append((self.seat, view, legal_moves))
            return legal_moves[0]

    result = match([Spy(0), Spy(1), Spy(2)], seed=2)
    states = states_of(result.record)
    assert len(seen) == len(result.record.moves)
    for (seat, view, legal), state in zip(seen, states, strict=False):
        assert type(view) is tm.PlayerView and not isinstance(view, tm.GameState)
        assert seat == state.current_player and view == state.view(seat)
        assert legal == state.legal_moves()


class Recorder:
    """Plays the first legal move; keeps what it was handed, and where it ran."""

    name: ClassVar[str] = "recorder"

    def __init__(self, look: bool = False) -> None:
        self.look = look
        self.handed: list[tuple[tm.PlayerView, Sequence[tm.Move]]] = []
        self.threads: set[str] = set()

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        if self.look:
            assert view.seat >= 0
        self.handed.append((view, legal_moves))
        self.threads.add(threading.current_thread().name)
        return legal_moves[0]


def test_without_a_time_limit_no_thread_is_started() -> None:
    before = {thread.ident for thread in threading.enumerate()}
    bots = [Recorder(), Recorder(), Recorder()]
    match(bots)
    assert all(bot.threads == {threading.current_thread().name} for bot in bots)
    started = {t.name for t in threading.enumerate() if t.ident not in before}
    assert not any(name.startswith("tajmahal-seat") for name in started)


@pytest.mark.parametrize("limit", [{"time_limit": 30.0}, {"game_time": 600.0}])
def test_a_time_limit_or_a_game_clock_plays_the_match_in_a_thread_of_its_own(
    limit: dict[str, float],
) -> None:
    bots = [Recorder(), Recorder(), Recorder()]
    match(bots, **limit)
    threads = set.union(*[bot.threads for bot in bots])
    assert len(threads) == 1  # every decision in one match thread: no hand-over per decision
    assert next(iter(threads)).startswith("tajmahal-match")


def test_after_a_timeout_the_match_goes_on_in_a_new_thread_and_the_late_one_leaves_it() -> None:
    release = threading.Event()
    late: list[str] = []

    def stall(legal: Sequence[tm.Move]) -> tm.Move:
        release.wait(600)
        late.append(threading.current_thread().name)
        return legal[-1]

    bots = [Recorder(), Recorder()]
    try:
        result = match([bots[0], Faulty(stall, at=2), bots[1]], seed=5, time_limit=0.5)
    finally:
        release.set()
    deadline = time.monotonic() + 30
    while seats.abandoned_calls() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert late and seats.abandoned_calls() == 0  # the late call returned and was let go
    threads = set.union(*[bot.threads for bot in bots])
    assert len(threads) == 2 and late[0] in threads  # before the stall, and after it
    timeout = result.faults[0]
    assert (timeout.seat, timeout.kind) == (1, FaultKind.TIMEOUT)
    assert "no move after the 0.5 s time limit" in timeout.detail
    assert tm.replay(result.record).scores == result.scores  # the late move was never played
    before = states_of(result.record)[timeout.decision - 1]
    assert result.record.moves[timeout.decision - 1] == before.legal_moves()[0]  # the fallback


def test_with_a_bot_program_in_the_match_each_python_bot_has_a_worker_thread() -> None:
    program = Path(__file__).resolve().parents[1] / "src/tajmahal/examples/palace_lover.py"
    bots = [Recorder(), Recorder()]
    spec = f"cmd:{sys.executable} {program}"
    result = tm.play_match([bots[0], spec, bots[1]], seed=1, time_limit=30.0)
    assert result.faults == ()
    names = [bot.threads for bot in bots]
    assert all(len(n) == 1 and next(iter(n)).startswith("tajmahal-seat") for n in names)
    assert len(set.union(*names)) == 2  # one each


def test_each_seat_gets_copies_of_its_own_made_once_per_move() -> None:
    bots = [Recorder(), Recorder(), Recorder()]
    result = match(bots, seed=4)
    states = states_of(result.record)
    engine = {id(move) for state in states for move in state.legal_moves()}
    copies: list[dict[tm.Move, tm.Move]] = []
    for bot in bots:
        mine: dict[tm.Move, tm.Move] = {}
        for _, legal in bot.handed:
            for move in legal:
                assert id(move) not in engine  # never the engine's own objects
                assert mine.setdefault(move, move) is move  # equal moves: the very same copy
        copies.append(mine)
    shared = set(copies[0]) & set(copies[1])
    assert shared and all(copies[0][m] is not copies[1][m] for m in shared)  # seats apart


def test_the_copies_handed_over_are_equal_values_with_cards_of_their_own() -> None:
    """Every move a seat hands over equals the engine's, hashes and prints alike, and holds
    no object of the engine's that a bot could change in place."""
    t = tables(tm.standard_components())
    moves = (WITHDRAW, *t.play.values(), *t.place, *t.crown, *t.take)  # the engine's own
    seat = seats.InProcessSeat.build("random", seed=0, limit=None)
    try:
        copies = seat._copies_of(moves)
    finally:
        seat.close()
    for move, copy in zip(moves, copies, strict=True):
        assert copy == move and hash(copy) == hash(move) and repr(copy) == repr(move)
        assert type(copy) is type(move) and copy is not move
        for name in ("colored", "extra", "card"):
            card = getattr(move, name, None)
            if card is not None:
                assert getattr(copy, name) == card and getattr(copy, name) is not card
    assert len({id(c) for c in copies}) == len(moves)


def test_views_are_built_when_read_and_equal_the_states_views() -> None:
    blind, looking = Recorder(), Recorder(look=True)
    result = match([blind, looking, Recorder()], seed=5)
    states = [s for s in states_of(result.record) if not s.is_over]
    views = [view for bot in (blind, looking) for view, _ in bot.handed]
    assert len(views) == sum(1 for s in states if s.current_player in (0, 1))
    by_turn = iter(s for s in states if s.current_player == 0)
    for view, _ in blind.handed:  # never read by its bot: still the seat's view when read
        assert type(view) is tm.PlayerView and view == next(by_turn).view(0)


def test_bots_named_get_their_seat_seed() -> None:
    result = match(["random", "random", "random"], seed=5)
    bots = [RandomBot(seed=bot_seed(5, seat)) for seat in range(3)]
    by_instances = match(bots, seed=5)
    assert by_instances.record == result.record


def test_same_seed_same_record_other_seed_other_game() -> None:
    players = ["greedy", "random", "random", "greedy"]
    first, second = match(players, seed=8), match(players, seed=8)
    assert first.record == second.record
    assert first.record.moves != match(players, seed=9).record.moves


def test_a_generous_time_limit_changes_nothing() -> None:
    players = ["greedy", "random", "random"]
    timed = match(players, seed=12, time_limit=10.0)
    assert timed.faults == () and timed.record == match(players, seed=12).record


def the_game(record: tm.GameRecord) -> tm.GameRecord:
    """The record without what differs from run to run (the date, the decision times)."""
    return attrs.evolve(record, tags={}, times=())


def test_same_seed_gives_a_byte_identical_record() -> None:
    serialize = pytest.importorskip("tajmahal.serialize")
    players = ["greedy", "random", "random"]
    texts = {serialize.dumps(the_game(match(players, seed=3).record)) for _ in range(2)}
    assert len(texts) == 1


@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.lists(st.sampled_from(["random", "greedy"]), min_size=3, max_size=5),
)
def test_matches_are_deterministic_and_replay(seed: int, players: list[str]) -> None:
    serialize = pytest.importorskip("tajmahal.serialize")
    first, second = match(players, seed=seed), match(players, seed=seed)
    assert serialize.dumps(the_game(first.record)) == serialize.dumps(the_game(second.record))
    assert tm.replay(serialize.loads(serialize.dumps(first.record))).scores == first.scores


def test_match_needs_three_to_five_bots() -> None:
    with pytest.raises(tm.TajMahalError, match="3 to 5 players"):
        match(["random", "random"])
    with pytest.raises(tm.TajMahalError, match="3 to 5 players"):
        match(["random"] * 6)


def test_match_rejects_what_is_not_a_bot_and_bad_time_limits() -> None:
    with pytest.raises(tm.TajMahalError, match="seat 1"):
        match(["random", object(), "random"])  # type: ignore[list-item]
    with pytest.raises(tm.TajMahalError, match="time_limit"):
        match(["random"] * 3, time_limit=0)


def test_unknown_bot_name_lists_the_available_ones() -> None:
    with pytest.raises(tm.bots.UnknownBotError, match=r"available bots: .*greedy.*random"):
        match(["random", "no-such-bot", "random"])


# ---------------------------------------------------------------------------- faults


def assert_fault_handled(
    result: tm.MatchResult, seat: int, kind: FaultKind, decision_of_seat: int = 3
) -> tm.Fault:
    """One fault of ``kind`` at the seat's n-th decision, the fallback played, ranked last."""
    assert result.record.scores is not None  # the match ran to its end
    (fault,) = result.faults
    assert (fault.seat, fault.kind) == (seat, kind)
    states = states_of(result.record)
    seat_decisions = [n for n, s in enumerate(states[:-1], start=1) if s.current_player == seat]
    assert fault.decision == seat_decisions[decision_of_seat - 1]
    before = states[fault.decision - 1]
    assert result.record.moves[fault.decision - 1] == before.legal_moves()[0]
    assert result.ranking[-1] == seat and seat not in result.winners
    return fault


@pytest.mark.parametrize(
    ("misbehave", "kind", "detail"),
    [
        (raise_error, FaultKind.EXCEPTION, "RuntimeError: boom"),
        (illegal_move, FaultKind.ILLEGAL_MOVE, "palace nowhere"),
        (not_a_move, FaultKind.ILLEGAL_MOVE, "'withdraw'"),
        (exits, FaultKind.EXCEPTION, "SystemExit: 3"),
    ],
)
def test_a_faulty_decision_gets_the_fallback_and_ranks_last(
    misbehave: Callable[[Sequence[tm.Move]], Any], kind: FaultKind, detail: str
) -> None:
    # the faulty seat is the strong one: without the ranking rule it would usually win
    faulty = Faulty(misbehave, inner=GreedyBot())
    result = match(["random", faulty, "random", "random"], seed=6)
    fault = assert_fault_handled(result, 1, kind)
    assert detail in fault.detail and "played" in fault.detail


def test_the_ranking_rule_overrides_a_higher_score() -> None:
    for seed in range(10):
        faulty = Faulty(raise_error, at=1, inner=GreedyBot())
        result = match([faulty, "random", "random", "random"], seed=seed)
        if result.scores[0] > max(result.scores[1:]):
            break
    else:
        pytest.fail("greedy never had the best score in 10 games")
    assert result.ranking[-1] == 0 and 0 not in result.winners
    assert result.record.winners == (0,)  # the record keeps the game's own result (G3)
    best_clean = max(result.scores[1:])
    assert {result.scores[s] for s in result.winners} == {best_clean}


def test_a_slow_decision_is_a_timeout() -> None:
    result = match(["random", "random", Faulty(too_slow)], seed=7, time_limit=0.1)
    assert result.record.scores is not None
    first, *later = result.faults
    states = states_of(result.record)
    decisions = [n for n, s in enumerate(states[:-1], start=1) if s.current_player == 2]
    assert (first.seat, first.kind, first.decision) == (2, FaultKind.TIMEOUT, decisions[2])
    assert "0.1 s time limit" in first.detail
    assert result.record.moves[first.decision - 1] == states[first.decision - 1].legal_moves()[0]
    # while the late call still runs, the seat is not asked again: fallback moves, faults
    assert all(f.kind is FaultKind.TIMEOUT and "still running" in f.detail for f in later)
    assert [f.decision for f in later] == decisions[3 : 3 + len(later)]
    assert len(result.faults) < len(decisions)  # then it plays again
    assert result.ranking[-1] == 2 and 2 not in result.winners


def test_a_bot_that_never_answers_does_not_stop_the_match() -> None:
    release, returned = threading.Event(), threading.Event()

    def hang(legal: Sequence[tm.Move]) -> tm.Move:
        release.wait(600)  # released when the match is over
        returned.set()
        return legal[0]

    try:
        result = match(["random", Faulty(hang, at=1), "random"], seed=3, time_limit=0.05)
        assert not returned.is_set()  # the match ended without waiting for the bot
    finally:
        release.set()
    assert result.record.scores is not None
    assert {f.kind for f in result.faults} == {FaultKind.TIMEOUT}
    assert {f.seat for f in result.faults} == {1}
    # every later decision of the hanging seat is a fault too, until its call returns
    states = states_of(result.record)
    decisions = [n for n, s in enumerate(states[:-1], start=1) if s.current_player == 1]
    assert [f.decision for f in result.faults] == decisions
    assert "still running" in result.faults[1].detail
    assert result.ranking[-1] == 1


def test_when_every_seat_has_faults_the_best_score_wins() -> None:
    players = [Faulty(raise_error, at=1) for _ in range(3)]
    result = match(players, seed=2)
    assert result.faulty_seats == {0, 1, 2}
    assert result.winners == result.record.winners


def test_fault_text_names_seat_decision_and_kind() -> None:
    fault = tm.Fault(seat=1, decision=9, kind=FaultKind.ILLEGAL_MOVE, detail="returned x")
    assert str(fault) == "seat 1, decision 9: illegal_move: returned x"


class _EqualsAnything(tm.Withdraw):
    """A fake move: a Withdraw subclass that claims to equal every move."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = tm.Withdraw.__hash__


def fake_move(legal: Sequence[tm.Move]) -> tm.Move:
    return _EqualsAnything()


def test_a_fake_move_subclass_is_an_illegal_move_fault_and_never_played() -> None:
    bot = Faulty(fake_move, at=2)
    result = match([bot, "random", "random"], seed=6)
    fault = result.faults[0]
    assert (fault.seat, fault.kind) == (0, FaultKind.ILLEGAL_MOVE)
    assert all(type(move) is not _EqualsAnything for move in result.record.moves)
    assert tm.replay(result.record).scores == result.scores


class CopyingBot:
    """Returns an equal copy (not the engine's object) of its last legal move."""

    name: ClassVar[str] = "copying"

    def __init__(self) -> None:
        self.copies: list[tm.Move] = []

    def choose(self, view: tm.PlayerView, legal_moves: Sequence[tm.Move]) -> tm.Move:
        copy = attrs.evolve(legal_moves[-1])
        assert copy == legal_moves[-1] and copy is not legal_moves[-1]
        self.copies.append(copy)
        return copy


def test_an_equal_copy_of_a_legal_move_is_accepted_and_the_engines_object_played() -> None:
    bot = CopyingBot()
    result = match([bot, "random", "random"], seed=6)
    assert result.faults == () and bot.copies
    recorded = result.record.moves
    assert all(copy in recorded for copy in bot.copies)
    assert not any(move is copy for move in recorded for copy in bot.copies)


def test_seed_none_draws_an_unguessable_seed_kept_in_the_record() -> None:
    first = match(["random", "random", "random"], seed=None)
    second = match(["random", "random", "random"], seed=None)
    assert first.record.seed != second.record.seed
    assert first.record.seed.bit_length() > 32
    assert tm.replay(first.record).scores == first.scores
    assert tm.loads(tm.dumps(first.record)) == first.record


def test_result_and_record_reprs_fit_on_a_line_and_the_record_keeps_every_move() -> None:
    result = tm.play_match(["random", "random", "random", "random", "random"], seed=2)
    for text in (repr(result), repr(result.record)):
        assert "\n" not in text and len(text) < 200
    assert repr(result).startswith("<MatchResult random, random, random, random, random: scores")
    assert f"{len(result.record.moves)} moves" in repr(result.record)
    assert tm.loads(tm.dumps(result.record)) == result.record
    unfinished = tm.Game.new(num_players=3, seed=1).record()
    assert repr(unfinished) == "<GameRecord 3 players, seed 1, 0 moves, unfinished>"
