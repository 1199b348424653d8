"""Observers of matches: the hooks, containment of a broken observer, plugins, the dataset."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.referee.observers import DecisionDataset, ObserverWarning

PLAYERS = ["greedy", "random", "random"]


class Recorder:
    """Keeps everything the referee tells it."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.decisions: list[tm.events.DecisionMade] = []
        self.result: tm.MatchResult | None = None

    def tajmahal_match_started(self, match: tm.events.MatchStarted) -> None:
        self.calls.append("started")
        self.match = match

    def tajmahal_decision_made(self, decision: tm.events.DecisionMade) -> None:
        self.calls.append("decision")
        self.decisions.append(decision)

    def tajmahal_match_finished(self, result: tm.MatchResult) -> None:
        self.calls.append("finished")
        self.result = result


def test_observers_hear_the_start_every_decision_and_the_end() -> None:
    recorder = Recorder()
    result = tm.play_match(PLAYERS, seed=6, observers=[recorder])
    moves = result.record.moves
    assert recorder.calls == ["started"] + ["decision"] * len(moves) + ["finished"]
    assert recorder.match.players == tuple(PLAYERS) and recorder.match.seed == 6
    assert recorder.result == result
    assert tuple(d.move for d in recorder.decisions) == moves
    assert [d.number for d in recorder.decisions] == list(range(1, len(moves) + 1))
    state = tm.new_game(3, 6)
    for decision in recorder.decisions:  # what the seat saw and could choose, what it caused
        assert decision.seat == state.current_player
        assert decision.view == state.view(decision.seat)
        assert decision.legal_moves == state.legal_moves() and decision.seconds >= 0
        after = state.apply(decision.move)
        assert decision.events == tm.events.explain(state, decision.move, after)
        state = after
    # watching changes nothing
    assert tm.play_match(PLAYERS, seed=6).record == result.record


class Broken(Recorder):
    def tajmahal_decision_made(self, decision: tm.events.DecisionMade) -> None:
        super().tajmahal_decision_made(decision)
        if decision.number == 3:
            raise RuntimeError("disk full")


class Exiting(Recorder):
    def tajmahal_match_started(self, match: tm.events.MatchStarted) -> None:
        raise SystemExit(3)


def test_a_broken_observer_is_reported_and_left_out_while_the_match_goes_on() -> None:
    broken, exiting, healthy = Broken(), Exiting(), Recorder()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tm.play_match(PLAYERS, seed=6, observers=[broken, exiting, healthy])
    messages = sorted(str(w.message) for w in caught if w.category is ObserverWarning)
    assert messages == [
        "observer Broken raised in tajmahal_decision_made (decision 3): RuntimeError: disk full;"
        " it is not called again in this match",
        "observer Exiting raised in tajmahal_match_started: SystemExit: 3;"
        " it is not called again in this match",
    ]
    assert len(broken.decisions) == 3 and broken.result is None
    assert exiting.calls == [] and healthy.result == result
    assert result.record == tm.play_match(PLAYERS, seed=6).record


def test_an_object_without_observer_hooks_is_refused_before_the_match() -> None:
    class Typo:
        def tajmahal_decision(self, decision: object) -> None: ...

    with pytest.raises(tm.TajMahalError, match="observer 0 \\(a Typo\\) has none of the"):
        tm.play_match(PLAYERS, seed=1, observers=[Typo()])


def test_installed_observer_plugins_watch_every_match(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    class Plugin:
        @tm.hookimpl
        def tajmahal_decision_made(self, decision: tm.events.DecisionMade) -> None:
            seen.append(decision.number)

    registry = tm.bots.Registry(entry_points=False)
    registry.register(Plugin(), name="watcher")
    monkeypatch.setattr(tm.bots.registry, "default_registry", lambda: registry)
    result = tm.play_match(PLAYERS, seed=2)
    assert seen == list(range(1, len(result.record.moves) + 1))


def test_the_dataset_has_a_line_per_decision_with_view_moves_and_result(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    dataset = DecisionDataset(path)
    results = [tm.play_match(PLAYERS, seed=seed, observers=[dataset]) for seed in (1, 2)]
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == sum(len(r.record.moves) for r in results)
    first = rows[: len(results[0].record.moves)]
    state = tm.new_game(3, 1)
    for row, move in zip(first, results[0].record.moves, strict=True):
        assert row["seed"] == 1 and row["seat"] == state.current_player
        assert tm.loads(json.dumps(row["view"])) == state.view(row["seat"])
        assert row["legal_moves"] == [str(m) for m in state.legal_moves()]
        assert row["move"] == str(move)
        assert row["result"]["scores"] == list(results[0].scores)
        assert row["result"]["rank"] == results[0].ranking.index(row["seat"])
        state = state.apply(move)
    assert {row["seed"] for row in rows} == {1, 2}


def test_a_plugin_that_cannot_load_does_not_stop_a_match_of_bot_instances(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken() -> tm.bots.Registry:
        raise tm.bots.PluginError("cannot load plugin 'bad' (bad:module): ImportError: nope")

    monkeypatch.setattr(tm.bots.registry, "default_registry", broken)
    bots = [tm.bots.RandomBot(seed=s) for s in range(3)]
    with pytest.warns(ObserverWarning, match="no observer plugins: cannot load plugin 'bad'"):
        result = tm.play_match(bots, seed=1)
    assert result.record.moves
