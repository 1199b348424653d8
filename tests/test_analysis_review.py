"""tm.analysis: hints with reasons and game analysis (cheap searches: strength is benchmarks/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.analysis import (
    AnalysisFormatError,
    analyse_game,
    hint,
    load_analysis,
    score_breakdown,
)
from tajmahal.bots.greedy import GreedyBot
from tajmahal.bots.ismcts import FLAT_SHARE, IsmctsBot
from tajmahal.cli import main


@pytest.fixture(scope="module")
def record() -> tm.GameRecord:
    return tm.play_match(["greedy", "ismcts:iterations=20", "random"], seed=11).record


def test_ismcts_reports_its_root_statistics_best_first() -> None:
    state = tm.new_game(3, 2)
    bot = IsmctsBot(seed=4, iterations=80)
    move = bot.choose(state.view(0), state.legal_moves())
    stats = bot.last_statistics
    assert stats[0].move == move
    assert {s.move for s in stats} == set(state.legal_moves())  # every root move was tried
    assert sum(s.visits for s in stats) == round(80 * FLAT_SHARE)  # a flat search's simulations
    assert all(0.0 <= s.value <= 1.0 for s in stats)
    assert [s.visits for s in stats[1:]] == sorted((s.visits for s in stats[1:]), reverse=True)
    again = IsmctsBot(seed=4, iterations=80)
    again.choose(state.view(0), state.legal_moves())
    assert again.last_statistics == stats


def test_ismcts_can_spend_its_whole_budget_on_the_moves_offered() -> None:
    state = tm.new_game(3, 2)
    two = state.legal_moves()[:2]
    bot = IsmctsBot(seed=4, iterations=60)
    bot.search_offered_only = True
    assert bot.choose(state.view(0), two) in two
    assert {s.move for s in bot.last_statistics} == set(two)
    assert sum(s.visits for s in bot.last_statistics) == round(60 * FLAT_SHARE)
    plain = IsmctsBot(seed=4, iterations=60)
    plain.choose(state.view(0), two)
    on_two = sum(s.visits for s in plain.last_statistics)
    assert on_two < round(60 * FLAT_SHARE)  # the others were searched too


def test_a_hint_names_the_move_its_effect_and_a_search_bots_estimates() -> None:
    state = tm.new_game(4, 5)
    view = state.view(0)
    advice = hint(IsmctsBot(seed=1, iterations=60), view)
    assert advice.move in state.legal_moves()
    assert advice.estimates[0].move == advice.move and len(advice.estimates) == 3
    assert advice.text.startswith(advice.effect.name + ": ")
    assert "ismcts " in advice.text and "% vs " in advice.text
    assert json.loads(json.dumps(advice.as_dict()))["move"] == str(advice.move)
    plain = hint(GreedyBot(seed=1), view)
    assert plain.estimates == () and "%" not in plain.text
    with pytest.raises(tm.TajMahalError, match="not seat 1's turn"):
        hint(GreedyBot(seed=1), state.view(1))


def test_analysis_rates_every_decision_of_the_seat_and_totals_its_losses(
    record: tm.GameRecord,
) -> None:
    review = analyse_game(record, seats=[0], iterations=12, seed=3)
    states = tm.Game.from_record(record).states
    mine = [i for i, s in enumerate(states[:-1]) if s.current_player == 0]
    assert [d.index for d in review.decisions] == mine
    for d in review.decisions:
        legal = states[d.index].legal_moves()
        assert {r.move for r in d.ratings} == set(legal)
        if d.played != d.best:  # rated again against each other: at least 20 more searches
            played = next(r for r in d.ratings if r.move == d.played)
            flat = states[d.index].phase is tm.Phase.PLAY  # then 20 x FLAT_SHARE simulations
            again = round(20 * FLAT_SHARE) if flat else 20
            assert d.ratings[0].visits + played.visits >= again + 2
        assert d.played == record.moves[d.index] and d.best == d.ratings[0].move
        assert d.loss == pytest.approx(max(0.0, d.ratings[0].value - d.played_value))
        assert d.mistake == (d.loss > 0 and d.loss >= review.threshold)
    assert review.lost(0) == pytest.approx(sum(d.loss for d in review.decisions))
    assert review.worst(0) == tuple(
        sorted((d for d in review.decisions if d.loss > 0), key=lambda d: (-d.loss, d.index))[:3]
    )
    document = json.loads(json.dumps(review.as_dict()))
    assert document["format"] == "tajmahal/analysis" and len(document["decisions"]) == len(mine)


def test_analysis_is_deterministic_for_a_seed_with_any_number_of_jobs(
    record: tm.GameRecord,
) -> None:
    short = tm.GameRecord(
        record.num_players, record.seed, record.moves[:40], record.first_player,
        players=record.players,
    )  # fmt: skip
    done: list[tuple[int, int]] = []
    one = analyse_game(
        short, seats=[1], iterations=10, seed=9, progress=lambda d, t: done.append((d, t))
    )
    two = analyse_game(short, seats=[1], iterations=10, seed=9, jobs=2)
    assert one == two and one.decisions
    assert done[-1] == (len(one.decisions), len(one.decisions))
    other = analyse_game(short, seats=[1], iterations=10, seed=10)
    assert [d.index for d in other.decisions] == [d.index for d in one.decisions]


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"seats": [3]}, "seat must be 0..2, got 3"),
        ({"seats": ["0"]}, "seat must be 0..2"),
        ({"iterations": 0}, "iterations must be a positive int"),
        ({"jobs": 0}, "jobs must be an int from 1"),
    ],
)
def test_analysis_rejects_bad_arguments_clearly(
    record: tm.GameRecord, keywords: dict[str, object], message: str
) -> None:
    with pytest.raises(tm.TajMahalError, match=message):
        analyse_game(record, **keywords)  # type: ignore[arg-type]


def test_a_saved_analysis_loads_back_and_bad_documents_are_refused(
    record: tm.GameRecord,
) -> None:
    review = analyse_game(record, seats=[2], iterations=10, seed=1)
    document = review.as_dict()
    assert load_analysis(json.dumps(document), record) == review
    other = tm.play_match(["random", "random", "random"], seed=2).record
    with pytest.raises(AnalysisFormatError):  # its moves, or its decisions, are not this one's
        load_analysis(document, other)
    bad = json.loads(json.dumps(document))
    first = bad["decisions"][0]
    first["played"] = "withdraw" if first["played"] != "withdraw" else "take red:monk"
    with pytest.raises(AnalysisFormatError, match=r"decisions\[0\]\.played"):
        load_analysis(bad, record)
    bad = json.loads(json.dumps(document))
    bad["decisions"][0]["ratings"][0]["value"] = float("nan")
    with pytest.raises(AnalysisFormatError, match=r"ratings\[0\]\.value"):
        load_analysis(bad, record)
    for text in ("[", "[]", '{"format": "tajmahal/analysis", "version": 9}', "1e999999"):
        with pytest.raises(AnalysisFormatError):
            load_analysis(text, record)


def test_the_analyse_command_prints_the_worst_decisions_and_saves_json(
    record: tm.GameRecord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(tm.dumps(record))
    out = tmp_path / "game.analysis.json"
    assert main(["analyse", str(path), "--seat", "0", "--iterations", "10", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "seat 0 (greedy):" in printed and "  move " in printed and "    best   " in printed
    saved = load_analysis(out.read_text(), record)
    assert saved == analyse_game(record, seats=[0], iterations=10)
    assert main(["analyse", str(path), "--seat", "0", "--iterations", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == saved.as_dict()
    assert main(["analyse", str(path), "--seat", "7"]) == 1
    assert "seat must be 0..2, got 7" in capsys.readouterr().err


def test_g1_k_every_seats_points_by_reason_add_up_to_its_score(record: tm.GameRecord) -> None:
    rows = score_breakdown(record)
    assert [row.total for row in rows] == list(record.scores or ())
    state = tm.replay(record)
    for row in rows:
        assert sum(n for _, n in row.points) == row.total
        hand = state.hand(row.seat)
        special, white, suit = row.final_hand or (0, 0, 0)
        assert special + white + suit == row.get("final_hand")
        assert special == sum(1 for c in hand if c.special is not None)
    half = tm.GameRecord(record.num_players, record.seed, record.moves[:30])
    assert all(row.final_hand is None for row in score_breakdown(half))


# ------------------------------------------------- the adaptive duel (issue 51): behaviour only


def _play_decision() -> tuple[tm.PlayerView, list[tm.Move]]:
    state = tm.new_game(3, seed=5)
    return state.view(state.current_player), list(state.legal_moves())  # type: ignore[arg-type]


def test_a_duel_of_a_move_with_itself_is_about_equal_after_one_round() -> None:
    from tajmahal.analysis._review import DUEL_DEALS, duel_moves

    view, legal = _play_decision()
    bot = IsmctsBot()
    duel = duel_moves(view, legal[1], legal[1], 3, 0.08, bot.reward)
    assert duel.first == duel.second and duel.error == 0.0
    assert duel.deals == DUEL_DEALS and duel.about_equal


def test_the_duel_budget_grows_while_the_mark_is_unclear() -> None:
    """The same duel (same seed, same moves) stops after a round when the threshold lies far
    from the difference, and runs more rounds when the threshold lies on it."""
    from tajmahal.analysis._review import DUEL_DEALS, DUEL_ROUNDS, duel_moves

    view, legal = _play_decision()
    withdraw, play = tm.Withdraw(), next(m for m in legal if m != tm.Withdraw())
    reward = IsmctsBot().reward
    far = duel_moves(view, play, withdraw, 7, 0.9, reward)  # nowhere near a 90% loss
    assert far.deals == DUEL_DEALS and far.error > 0
    close = duel_moves(view, play, withdraw, 7, far.first - far.second, reward)
    assert DUEL_DEALS < close.deals <= DUEL_DEALS * DUEL_ROUNDS
    assert close.deals % DUEL_DEALS == 0
    again = duel_moves(view, play, withdraw, 7, far.first - far.second, reward)
    assert again == close  # seeded: the same deals, the same rounds


def test_noise_alone_is_about_equal_and_never_a_mistake() -> None:
    """A reward that is noise, whatever the move: the duel runs every round it may, and calls
    the two about equal; the analysis never marks such a decision a mistake."""
    import random

    from tajmahal.analysis._review import DUEL_DEALS, DUEL_ROUNDS, duel_moves

    view, legal = _play_decision()
    noise = random.Random(1)

    def reward(game: object) -> list[float]:
        return [noise.random() for _ in range(3)]

    duel = duel_moves(view, legal[0], legal[1], 2, 0.0, reward)
    assert duel.about_equal and abs(duel.first - duel.second) <= 2 * duel.error
    assert duel.deals > DUEL_DEALS and duel.deals <= DUEL_DEALS * DUEL_ROUNDS


def test_about_equal_decisions_are_kept_in_the_saved_analysis(record: tm.GameRecord) -> None:
    review = analyse_game(record, seats=[2], iterations=10, seed=4)
    dueled = [d for d in review.decisions if d.played != d.best]
    assert dueled  # a random seat: the search prefers other moves
    assert not any(d.mistake and d.about_equal for d in review.decisions)
    assert all(not d.about_equal for d in review.decisions if d.played == d.best)
    document = review.as_dict()
    assert all("about_equal" in d for d in document["decisions"])
    assert load_analysis(document, record) == review
    for item in document["decisions"]:
        del item["about_equal"]  # an analysis saved before the duel: every decision settled
    assert not any(d.about_equal for d in load_analysis(document, record).decisions)


# ------------------------------------ the race of the played move against its rivals (issue 51)


def test_a_race_with_one_rival_is_the_duel_with_more_rounds() -> None:
    """One rival: the same deals and values as ``duel_moves`` (which stops within its rounds
    here, as the race does)."""
    from tajmahal.analysis._review import duel_moves, race_moves

    view, legal = _play_decision()
    withdraw, play = tm.Withdraw(), next(m for m in legal if m != tm.Withdraw())
    reward = IsmctsBot().reward
    duel = duel_moves(view, play, withdraw, 7, 0.08, reward)
    race = race_moves(view, withdraw, [play], 7, 0.08, reward)
    assert race.deals == (duel.deals,) and race.leader == 0
    assert race.values[0] == pytest.approx(duel.first)
    assert race.played == pytest.approx(duel.second)
    assert race.gains[0] == pytest.approx(duel.first - duel.second)
    assert race.errors[0] == pytest.approx(duel.error) and race.about_equal == duel.about_equal


def test_a_rival_leaves_the_race_once_it_is_clearly_no_mistake() -> None:
    """The played move raced against itself (no gain, no error) leaves after one round; a
    real rival whose gain lies on the threshold runs on over the same deals."""
    from tajmahal.analysis._review import DUEL_DEALS, RACE_ROUNDS, race_moves

    view, legal = _play_decision()
    worse, better = tm.Withdraw(), next(m for m in legal if m != tm.Withdraw())
    reward = IsmctsBot().reward
    far = race_moves(view, worse, [better], 7, 0.9, reward)  # nowhere near a 90% loss
    assert far.deals == (DUEL_DEALS,)
    if far.gains[0] < 0:  # the other way round
        worse, better = better, worse
        far = race_moves(view, worse, [better], 7, 0.9, reward)
    on_it = far.gains[0]
    assert on_it > 0
    race = race_moves(view, worse, [worse, better], 7, on_it, reward)
    assert race.deals[0] == DUEL_DEALS and race.gains[0] == 0.0 and race.errors[0] == 0.0
    assert DUEL_DEALS < race.deals[1] <= DUEL_DEALS * RACE_ROUNDS and race.leader == 1
    alone = race_moves(view, worse, [better], 7, on_it, reward)
    assert alone.deals[0] == race.deals[1] and alone.gains[0] == pytest.approx(race.gains[1])
    assert race_moves(view, worse, [worse, better], 7, on_it, reward) == race  # seeded


def test_a_clear_mistake_ends_the_race_and_leads_it() -> None:
    """With a threshold every gain clears, the race ends after one round and its leader is
    the rival that gained the most."""
    from tajmahal.analysis._review import DUEL_DEALS, race_moves

    view, legal = _play_decision()
    rivals = [m for m in legal if m != legal[0]][:3]
    race = race_moves(view, legal[0], rivals, 5, -1.0, IsmctsBot().reward)
    assert race.deals == (DUEL_DEALS,) * 3
    assert race.gains[race.leader] == max(race.gains)
    assert race.values[race.leader] - race.played == pytest.approx(race.gains[race.leader])
    with pytest.raises(tm.TajMahalError, match="at least one rival"):
        race_moves(view, legal[0], [], 5, 0.08, IsmctsBot().reward)


def test_the_raced_best_move_comes_first_and_the_loss_is_its_gain(record: tm.GameRecord) -> None:
    review = analyse_game(record, seats=[2], iterations=30, seed=6)
    raced = [d for d in review.decisions if d.played != d.best]
    assert raced  # a random seat
    for d in raced:
        assert d.ratings[0].move == d.best and d.best != d.played
        assert d.loss == pytest.approx(max(0.0, d.ratings[0].value - d.played_value), abs=2e-4)
        assert d.mistake == (d.loss >= review.threshold and not d.about_equal)
