"""The ``ismcts`` bot: legal, deterministic, within its budgets; options checked up front.

Strength is measured by ``benchmarks/strength.py``, not here: these tests use
small iteration counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import tajmahal as tm
from tajmahal.bots._search import EVERY_SEAT, PlaySearch
from tajmahal.bots.evaluation import (
    WEIGHTS,
    estimated_scores,
    evaluate,
    heuristic_pick,
    reward_scale,
)
from tajmahal.bots.evaluation_v1 import FIXED_SCALE, evaluate_v1
from tajmahal.bots.ismcts import (
    FLAT_SHARE,
    LEVEL4_ITERATIONS,
    LEVEL5_ITERATIONS,
    LEVEL_INNER,
    LEVELS,
    LEVELS_V2,
    PLAY_SHARE,
    IsmctsBot,
    IsmctsV1Bot,
    IsmctsV2Bot,
)
from tajmahal.rules.playout import PLAY, WITHDRAW, Playout
from tajmahal.rules.state import GameState


def flat_budget(iterations: int, state: GameState) -> int:
    """The simulations of a flat search (a play-or-withdraw decision) with ``iterations``."""
    return max(round(iterations * FLAT_SHARE), len(state.legal_moves()))


def at_visit(num_players: int, seed: int, visit: int) -> GameState:
    """A state at the first decision of ``visit``, reached with greedy moves."""
    state = tm.new_game(num_players, seed=seed)
    greedy = tm.bots.create("greedy")
    while state.visit < visit:
        seat = state.current_player
        assert seat is not None
        state = state.apply(greedy.choose(state.view(seat), state.legal_moves()))
    return state


def test_registered_through_the_plugin_hook() -> None:
    assert tm.bots.available()["ismcts"] is IsmctsBot
    assert isinstance(tm.bots.create("ismcts:iterations=5,c=1.2,rollout=random"), IsmctsBot)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_plays_whole_matches_without_faults(num_players: int) -> None:
    players = ["ismcts:iterations=8", *["random"] * (num_players - 1)]
    result = tm.play_match(players, seed=num_players)
    assert result.faults == () and tm.replay(result.record).is_over


def test_same_seed_and_iterations_give_the_same_choices() -> None:
    players = ["ismcts:iterations=10,rollout=random", "ismcts:iterations=10", "greedy"]
    first = tm.play_match(players, seed=5)
    assert tm.play_match(players, seed=5).record == first.record
    state = at_visit(3, seed=2, visit=4)
    view, legal = state.view(state.current_player), state.legal_moves()  # type: ignore[arg-type]
    choices = {IsmctsBot(seed=s, iterations=12).choose(view, legal) for s in range(6)}
    assert choices <= set(legal)


def test_iteration_budget_is_exact_and_forced_moves_are_free() -> None:
    state = at_visit(4, seed=3, visit=6)
    bot = IsmctsBot(seed=1, iterations=37, focus=1)
    move = bot.choose(state.view(state.current_player), state.legal_moves())  # type: ignore[arg-type]
    assert move in state.legal_moves() and bot.last_iterations == flat_budget(37, state)
    assert sum(row.visits for row in bot.last_statistics) == bot.last_iterations
    tree = IsmctsBot(seed=1, iterations=37, focus=1, flat="off")
    tree.choose(state.view(state.current_player), state.legal_moves())  # type: ignore[arg-type]
    assert tree.last_iterations == 37
    after = state.apply(tm.Withdraw())
    while len(after.legal_moves()) != 1:
        after = after.apply(after.legal_moves()[0])
    bot.choose(after.view(after.current_player), after.legal_moves())  # type: ignore[arg-type]
    assert bot.last_iterations == 0


def test_time_limit_ends_the_search() -> None:
    state = at_visit(3, seed=4, visit=6)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    budget = 10_000_000  # far more than 0.05 s allows on any machine: the clock ends the search
    bot = IsmctsBot(seed=1, time_limit=0.05, iterations=budget)
    assert bot.choose(view, state.legal_moves()) in state.legal_moves()
    assert 1 <= bot.last_iterations < budget
    both = IsmctsBot(seed=1, time_limit=30, iterations=5, focus=1)  # whichever ends first
    both.choose(view, state.legal_moves())
    assert both.last_iterations == flat_budget(5, state)
    tree = IsmctsBot(seed=1, time_limit=0.05, iterations=budget, flat="off")
    assert tree.choose(view, state.legal_moves()) in state.legal_moves()
    assert 1 <= tree.last_iterations < budget


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=0",
        "ismcts:iterations=1.5",
        "ismcts:iterations=true",
        "ismcts:time_limit=0",
        "ismcts:time_limit=-1",
        "ismcts:c=-0.1",
        "ismcts:c=lots",
        "ismcts:rollout=greedy",
        "ismcts:width=3",
        "ismcts:depth=0",
        "ismcts:depth=13",
        "ismcts:depth=1.5",
        "ismcts:depth=true",
        "ismcts:inner=-1",
        "ismcts:inner=17",
        "ismcts:inner=2.5",
        "ismcts:inner=true",
        "ismcts:inner_seats=some",
        "ismcts:inner_seats=1",
        "ismcts:level=0",
        "ismcts:level=6",
        "ismcts:level=2.5",
        "ismcts:level=true",
        "ismcts:level=hard",
        "ismcts:level=3,iterations=50",
        "ismcts:level=3,time_limit=1",
        "ismcts:level=3,game_time=60",
        "ismcts:jobs=0",
        "ismcts:jobs=33",
        "ismcts:jobs=1.5",
        "ismcts:jobs=true",
        "ismcts:extend=0.5",
        "ismcts:extend=11",
        "ismcts:extend=many",
        "ismcts:margin=1",
        "ismcts:margin=-0.1",
        "ismcts:game_time=0",
        "ismcts:game_time=-5",
        "ismcts:game_time=100000",
        "ismcts:trees=0",
        "ismcts:trees=65",
        "ismcts:trees=2.5",
    ],
)
def test_bad_options_are_spec_errors_before_the_game(spec: str) -> None:
    with pytest.raises(tm.bots.SpecError, match="ismcts"):
        tm.play_match([spec, "random", "random"], seed=1)


def test_search_prefers_a_move_that_wins_now() -> None:
    """Alone at the table with the only cards played, withdrawing takes every prize at once."""
    state = at_visit(3, seed=8, visit=3)
    while state.current_player != state.starting_player or state.table[state.current_player]:
        state = state.apply(state.legal_moves()[0])
    seat = state.current_player
    assert seat is not None
    plays = [m for m in state.legal_moves() if isinstance(m, tm.PlayCards) and m.extra is None]
    state = state.apply(plays[0])
    while state.current_player != seat:  # the others withdraw without playing
        state = state.apply(tm.Withdraw())
        while state.phase is tm.Phase.TAKE:
            state = state.apply(state.legal_moves()[0])
    bot = IsmctsBot(seed=2, iterations=300)
    assert bot.choose(state.view(seat), state.legal_moves()) == tm.Withdraw()


def test_evaluation_is_the_final_score_at_the_end_and_rewards_the_leader() -> None:
    game = Playout(tm.new_game(3, seed=1))
    game.run(random.Random(4), heuristic_pick)
    assert game.is_over and estimated_scores(game) == [float(s) for s in game.scores]
    rewards = evaluate(game)
    assert all(0.0 <= r <= 1.0 for r in rewards)
    best = max(range(3), key=lambda s: game.scores[s])
    assert rewards[best] == max(rewards) and rewards[best] >= 0.5


def test_heuristic_rollout_picks_legal_codes() -> None:
    game = Playout(tm.new_game(5, seed=2))
    rng = random.Random(3)
    while not game.is_over:
        codes = game.moves()
        code = heuristic_pick(game, codes, rng)
        assert code in codes
        game.play(code)


def test_answers_from_the_moves_it_is_offered() -> None:
    """Offered only some of the legal moves (a user interface may do so), it picks one of them."""
    state = at_visit(3, seed=6, visit=2)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    offered = state.legal_moves()[-2:]
    assert IsmctsBot(seed=1, iterations=20).choose(view, offered) in offered


def test_levels_map_to_growing_iteration_budgets() -> None:
    """Levels 1-3 are growing iteration budgets; levels 4 and 5 spend more on each iteration,
    and level 5 has more of them."""
    budgets = [tm.bots.create(f"ismcts:level={level}").iterations for level in range(1, 6)]  # type: ignore[attr-defined]
    assert budgets == [LEVELS[level] for level in range(1, 6)]
    assert budgets[:3] == sorted(set(budgets[:3]))
    assert budgets[3:] == [LEVEL4_ITERATIONS, LEVEL5_ITERATIONS] and budgets[3] < budgets[4]
    inner = [IsmctsBot(level=level).inner for level in range(1, 6)]
    assert inner == [0, 0, 0, LEVEL_INNER, LEVEL_INNER]
    assert LEVELS[3] == IsmctsBot().iterations  # level 3 is the default budget
    state = at_visit(3, seed=4, visit=2)
    bot = IsmctsBot(seed=1, level=1)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    assert bot.choose(view, state.legal_moves()) in state.legal_moves()
    assert bot.last_iterations == flat_budget(round(LEVELS[1] * bot.budget_share(view)), state)


def test_focus_gives_play_or_withdraw_decisions_more_of_the_same_mean_budget() -> None:
    play = at_visit(3, seed=4, visit=2)
    take = play.apply(tm.Withdraw())
    assert take.phase is tm.Phase.TAKE and len(take.legal_moves()) > 1
    for focus, on_play, on_take in ((1.0, 100, 100), (1.5, 150, 61), (2.0, 200, 21)):
        bot = IsmctsBot(seed=1, iterations=100, focus=focus)
        for state, searched in ((play, flat_budget(on_play, play)), (take, on_take)):
            bot.choose(state.view(state.current_player), state.legal_moves())  # type: ignore[arg-type]
            assert bot.last_iterations == searched
        mean = PLAY_SHARE * on_play + (1 - PLAY_SHARE) * on_take
        assert abs(mean - 100) < 1.5  # the mean over a game's decisions stays the budget
    assert IsmctsV2Bot().focus == IsmctsV1Bot().focus == 1.0  # the frozen bots: an even budget
    assert IsmctsV2Bot().iterations == IsmctsV1Bot().iterations == LEVELS_V2[3] == 400
    assert IsmctsV2Bot(level=5).iterations == 6400 and IsmctsBot(level=5).iterations == LEVELS[5]
    with pytest.raises(ValueError, match="focus must be a number from 1 to 2"):
        IsmctsBot(focus=2.5)


def test_trees_split_the_budget_and_sum_at_the_root() -> None:
    """``trees=N`` grows N trees from their own deals: the budget is the same, every root
    move's visits are the trees' together, and a seed still repeats the choices."""
    state = at_visit(3, seed=4, visit=2)
    view = state.view(state.current_player)  # type: ignore[arg-type]
    legal = state.legal_moves()
    one = IsmctsBot(seed=1, iterations=120, flat="off")  # a play decision: trees, not flat
    four = IsmctsBot(seed=1, iterations=120, trees=4, flat="off")
    assert one.trees == 1 and four.trees == 4
    moves = [bot.choose(view, legal) for bot in (one, four)]
    assert all(move in legal for move in moves)
    for bot in (one, four):
        assert bot.last_iterations == 120
        assert sum(row.visits for row in bot.last_statistics) == 120
    # each tree (30 iterations) tries every root move once before it repeats one
    assert min(row.visits for row in four.last_statistics) >= 4
    again = IsmctsBot(seed=1, iterations=120, trees=4, flat="off")
    assert again.choose(view, legal) == moves[1]
    assert again.last_statistics == four.last_statistics
    with IsmctsBot(seed=1, iterations=120, trees=4, jobs=2, flat="off") as split:  # per share
        assert split.choose(view, legal) in legal and split.last_iterations == 120


class _Depths(IsmctsBot):
    """An ismcts that notes where each simulation was evaluated: (visit, over)."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.ends: set[tuple[int, bool]] = set()

    def reward(self, game: Playout) -> list[float]:
        self.ends.add((game.visit, game.is_over))
        return super().reward(game)


def test_depth_runs_each_simulation_through_that_many_visits() -> None:
    """``depth=N``: every simulation, flat or in a tree, is evaluated when the N-th visit from
    the decision's has ended (at the game's end at the latest); the default is this visit's
    end."""
    play = at_visit(3, seed=4, visit=2)
    take = play.apply(tm.Withdraw())
    assert IsmctsBot().depth == 1
    for depth, ends in ((1, {(3, False)}), (2, {(4, False)}), (12, {(12, True)})):
        for state in (play, take):  # a flat race, then a tree
            bot = _Depths(seed=1, iterations=20, depth=depth)
            bot.choose(state.view(state.current_player), state.legal_moves())  # type: ignore[arg-type]
            assert bot.ends == ends, (depth, state.phase)
    again = [_Depths(seed=3, iterations=40, depth=2) for _ in range(2)]
    view = play.view(play.current_player)  # type: ignore[arg-type]
    assert again[0].choose(view, play.legal_moves()) == again[1].choose(view, play.legal_moves())
    assert again[0].last_statistics == again[1].last_statistics
    assert tm.bots.create("ismcts:depth=3").depth == 3  # type: ignore[attr-defined]


def _hand_size(seat: int, sign: float) -> Callable[[Playout], list[float]]:
    """A reward: ``sign`` times the cards in ``seat``'s hand (the others: 0)."""

    def reward(game: Playout) -> list[float]:
        return [sign * sum(game.hands[seat]) if s == seat else 0.0 for s in range(3)]

    return reward


def test_an_inner_search_plays_the_seats_own_later_plays_by_their_rollouts() -> None:
    """``PlaySearch`` tries each plain play and withdrawing on ``k`` rollouts and plays the
    best: keeping cards pays, it withdraws; spending them pays, it plays a card.  Another
    seat's decision is the rollout policy's."""
    state = at_visit(3, seed=4, visit=2)
    seat = state.current_player
    assert seat is not None and state.phase is tm.Phase.PLAY
    game = Playout(state)
    codes = [WITHDRAW, *(code for code in game.moves() if code != WITHDRAW)]  # withdraw first
    assert len(codes) == len(game.moves()) > 2
    keep = PlaySearch(seat, 2, heuristic_pick, _hand_size(seat, 1.0))
    spend = PlaySearch(seat, 2, heuristic_pick, _hand_size(seat, -1.0))  # rewards below -1
    assert keep(game, codes, random.Random(1)) == WITHDRAW
    played = spend(game, codes, random.Random(1))
    assert played != WITHDRAW and played in codes and played % game.stride == 0  # a plain play
    assert game.moves() == Playout(state).moves() and Playout(state).hands == game.hands
    other = PlaySearch((seat + 1) % 3, 2, heuristic_pick, _hand_size(seat, 1.0))
    assert other(game, codes, random.Random(5)) == heuristic_pick(game, codes, random.Random(5))


def test_an_inner_search_of_every_seat_plays_each_seat_for_its_own_reward() -> None:
    """With ``EVERY_SEAT`` the seat to play is searched whoever it is, for its own reward:
    another seat's reward changes nothing, the seat's own decides; supply decisions stay the
    rollout policy's."""
    state = at_visit(3, seed=4, visit=2)
    seat = state.current_player
    assert seat is not None
    game = Playout(state)
    codes = [WITHDRAW, *(code for code in game.moves() if code != WITHDRAW)]

    def rewards(keeper: int) -> Callable[[Playout], list[float]]:
        """``keeper`` gains by keeping cards, every other seat by spending them."""
        return lambda g: [(1.0 if s == keeper else -1.0) * sum(g.hands[s]) for s in range(3)]

    assert PlaySearch(EVERY_SEAT, 2, heuristic_pick, rewards(seat))(
        game, codes, random.Random(1)) == WITHDRAW  # fmt: skip
    played = PlaySearch(EVERY_SEAT, 2, heuristic_pick, rewards((seat + 1) % 3))(
        game, codes, random.Random(1))  # fmt: skip
    assert played != WITHDRAW and played % game.stride == 0
    taking = Playout(state.apply(tm.Withdraw()))  # a card from the supply: not a play
    assert taking.phase != PLAY
    moves = taking.moves()
    search = PlaySearch(EVERY_SEAT, 2, heuristic_pick, rewards(seat))
    expected = heuristic_pick(taking, moves, random.Random(5))
    assert search(taking, moves, random.Random(5)) == expected


def test_inner_searches_the_seats_own_plays_and_keeps_a_seed_reproducible() -> None:
    assert IsmctsBot().inner == IsmctsBot(level=3).inner == 0  # off unless asked for
    assert tm.bots.create("ismcts:inner=2").inner == 2  # type: ignore[attr-defined]
    play = at_visit(3, seed=4, visit=2)
    take = play.apply(tm.Withdraw())
    for state in (play, take):  # a flat race and a tree
        view, legal = state.view(state.current_player), state.legal_moves()  # type: ignore[arg-type]
        bots = [IsmctsBot(seed=3, iterations=30, inner=2) for _ in range(2)]
        assert bots[0].choose(view, legal) == bots[1].choose(view, legal)
        assert bots[0].last_statistics == bots[1].last_statistics
        plain = IsmctsBot(seed=3, iterations=30)
        plain.choose(view, legal)
        assert bots[0].last_iterations == plain.last_iterations  # the same simulations ...
        if state is play:  # ... played on differently while the seat still plays this visit
            assert bots[0].last_statistics != plain.last_statistics
        else:  # withdrawn, taking a card: no play of its own left in the visit to search
            assert bots[0].last_statistics == plain.last_statistics
    with IsmctsBot(seed=3, iterations=30, inner=2, jobs=2) as split:  # a worker builds its own
        assert split.choose(view, legal) in legal and split.last_shares == 2


def test_levels_4_and_5_search_every_seats_plays_and_explicit_options_win() -> None:
    """Levels 4 and 5 are an inner search of every seat's play decisions at their own budgets;
    an option given with the level replaces the level's; the frozen bots' levels stay budgets
    only."""
    for level in (4, 5):
        top = IsmctsBot(level=level)
        assert (top.iterations, top.inner, top.inner_seats) == (LEVELS[level], LEVEL_INNER, "all")
    assert (IsmctsBot().inner, IsmctsBot().inner_seats) == (0, "own")
    own = tm.bots.create("ismcts:level=5,inner_seats=own")
    assert (own.inner, own.inner_seats) == (LEVEL_INNER, "own")  # type: ignore[attr-defined]
    assert IsmctsBot(level=5, inner=0).inner == 0
    assert (IsmctsV2Bot(level=5).inner, IsmctsV2Bot(level=5).inner_seats) == (0, "own")
    every_seat = tm.bots.create("ismcts:inner=1,inner_seats=all")
    assert every_seat.inner_seats == "all"  # type: ignore[attr-defined]
    play = at_visit(3, seed=4, visit=2)
    view, legal = play.view(play.current_player), play.legal_moves()  # type: ignore[arg-type]
    every = IsmctsBot(seed=3, iterations=30, inner=2, inner_seats="all")
    mine = IsmctsBot(seed=3, iterations=30, inner=2)
    assert every.choose(view, legal) in legal and mine.choose(view, legal) in legal
    assert every.last_iterations == mine.last_iterations  # the same simulations, played on
    assert every.last_statistics != mine.last_statistics  # as the other seats would search them
    again = IsmctsBot(seed=3, iterations=30, inner=2, inner_seats="all")
    again.choose(view, legal)
    assert again.last_statistics == every.last_statistics


def test_ismcts_v2_is_the_second_release_frozen() -> None:
    """ismcts-v2 reads the frozen weights (twelve features) whatever the shipped ones are."""
    from tajmahal.bots.evaluation import FEATURES_V2, WEIGHTS_V2, evaluate, load_weights

    assert tm.bots.available()["ismcts-v2"] is IsmctsV2Bot
    assert all(len(row) == len(FEATURES_V2) for row in WEIGHTS_V2.weights)
    assert load_weights(name="evaluation_weights_v2.json") == WEIGHTS_V2
    game = Playout(tm.new_game(4, seed=2))
    assert IsmctsV2Bot().reward(game) == evaluate(game, weights=WEIGHTS_V2)
    assert IsmctsV2Bot().reward(game) != IsmctsBot().reward(game)  # the new evaluation differs
    result = tm.play_match(["ismcts-v2:iterations=10", "ismcts:iterations=10", "greedy"], seed=3)
    assert not result.faults


def test_reward_scale_follows_the_fitted_scales_and_is_wider_than_the_first_releases() -> None:
    game = Playout(tm.new_game(3, seed=1))
    rng = random.Random(5)
    scales = []
    while not game.is_over:
        game.run(rng, heuristic_pick, visit_end=True)
        scales.append(reward_scale(game))
    assert scales == [*WEIGHTS.scales[11:0:-1], WEIGHTS.scales[0]]
    mid = Playout(tm.new_game(3, seed=1))
    mid.visit = 6  # seven visits to play
    mid.scores[0] += 6  # six points ahead
    assert evaluate(mid)[0] < evaluate(mid, scale=FIXED_SCALE)[0]


def test_first_release_bot_is_registered_frozen_and_plays() -> None:
    assert tm.bots.available()["ismcts-v1"] is IsmctsV1Bot
    game = Playout(tm.new_game(3, seed=1))
    game.scores[0] += 3
    assert IsmctsV1Bot().reward(game) == evaluate_v1(game)
    assert IsmctsBot().reward(game) == evaluate(game)
    players = ["ismcts-v1:iterations=8", "ismcts:iterations=8", "random"]
    first = tm.play_match(players, seed=3)
    assert first.faults == () and tm.play_match(players, seed=3).record == first.record


def test_five_seats_play_as_ismcts_v2_with_its_budget() -> None:
    """At 5 seats the contest weights measured weaker: the v2 weights, and v2's budget for a
    level (the same CPU per decision); an explicit budget stays as given."""
    five, three = at_visit(5, seed=2, visit=3), at_visit(3, seed=2, visit=3)
    for state, level, searched in ((five, 1, 25), (three, 1, 21)):
        bot = IsmctsBot(seed=1, level=level)
        bot.choose(state.view(state.current_player), state.legal_moves())  # type: ignore[arg-type]
        assert bot.last_iterations == flat_budget(searched, state)
    bot = IsmctsBot(seed=1, iterations=30)
    bot.choose(five.view(five.current_player), five.legal_moves())  # type: ignore[arg-type]
    assert bot.last_iterations == flat_budget(30, five)
    v2 = IsmctsV2Bot(seed=1, level=1)
    v2.choose(five.view(five.current_player), five.legal_moves())  # type: ignore[arg-type]
    assert v2.last_iterations == 25
    game = Playout(five)
    assert IsmctsBot().reward(game) == IsmctsV2Bot().reward(game)


def test_play_decisions_are_a_flat_race_that_the_best_mean_of_the_last_round_wins() -> None:
    """Sequential halving: every move simulated, the survivors of each round simulated more,
    and the move played has the most simulations and, among the moves with as many, the best
    mean."""
    state = at_visit(3, seed=4, visit=3)
    view, legal = state.view(state.current_player), state.legal_moves()  # type: ignore[arg-type]
    assert view.phase is tm.Phase.PLAY and len(legal) >= 4
    bot = IsmctsBot(seed=5, iterations=200)
    move = bot.choose(view, legal)
    rows = bot.last_statistics
    assert {row.move for row in rows} == set(legal)  # each move at least once
    assert sum(row.visits for row in rows) == bot.last_iterations == flat_budget(200, state)
    most = max(row.visits for row in rows)
    assert rows[0].move == move and rows[0].visits == most
    assert rows[0].value == max(row.value for row in rows if row.visits == most)
    assert sorted(row.visits for row in rows)[-2] < most or len(legal) == 1
    assert min(row.visits for row in rows) < most / 4  # the worst dropped out early


def test_flat_chooses_which_decisions_are_flat_and_the_frozen_bots_keep_the_tree() -> None:
    play = at_visit(3, seed=4, visit=2)
    take = play.apply(tm.Withdraw())
    assert take.phase is tm.Phase.TAKE and len(take.legal_moves()) > 1
    for flat, on_play, on_take in (
        ("play", flat_budget(60, play), 60),
        ("all", flat_budget(60, play), flat_budget(60, take)),
        ("off", 60, 60),
    ):
        bot = IsmctsBot(seed=1, iterations=60, flat=flat)
        for state, searched in ((play, on_play), (take, on_take)):
            bot.choose(state.view(state.current_player), state.legal_moves())  # type: ignore[arg-type]
            assert bot.last_iterations == searched
    assert IsmctsBot().flat == "play" and IsmctsV2Bot().flat == IsmctsV1Bot().flat == "off"
    assert tm.bots.create("ismcts:flat=off").flat == "off"  # type: ignore[attr-defined]
    with pytest.raises(tm.bots.SpecError, match="flat must be one of play, all, off"):
        tm.play_match(["ismcts:flat=tree", "random", "random"], seed=1)


def test_a_flat_search_under_a_time_limit_simulates_every_move() -> None:
    state = at_visit(3, seed=4, visit=3)
    view, legal = state.view(state.current_player), state.legal_moves()  # type: ignore[arg-type]
    bot = IsmctsBot(seed=1, time_limit=0.05, iterations=10_000_000)
    assert bot.choose(view, legal) in legal
    assert {row.move for row in bot.last_statistics} == set(legal)
    assert len(legal) <= bot.last_iterations < 10_000_000
    capped = IsmctsBot(seed=1, time_limit=30.0, iterations=100)  # the budget ends it first
    capped.choose(view, legal)
    assert capped.last_iterations == flat_budget(100, state)
