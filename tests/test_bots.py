"""The built-in bots: ``random`` (seeded, uniform) and ``greedy`` (a heuristic that beats it)."""

from __future__ import annotations

import collections
import random
from pathlib import Path

import attrs
import pytest

import tajmahal as tm
from builders import at_visit, situation, start
from tajmahal.bots import GreedyBot, RandomBot
from tajmahal.rules.state import GameState, Phase

RED_HAND = ["red:elephant+elephant", "red:vizier+general", "red:elephant+monk"]


def test_random_bot_is_seeded_and_picks_legal_moves() -> None:
    state = start(num_players=4, seed=3)
    first, second = RandomBot(seed=11), RandomBot(seed=11)
    other = RandomBot(seed=12)
    same = differ = 0
    while not state.is_over and same < 60:
        legal = state.legal_moves()
        view = state.view(state.current_player)  # type: ignore[arg-type]
        move = first.choose(view, legal)
        assert move in legal
        assert second.choose(view, legal) == move
        differ += other.choose(view, legal) != move
        same += 1
        state = state.apply(move)
    assert differ > 0  # another seed makes other choices


def test_random_bot_is_uniform() -> None:
    state = start(num_players=3, seed=1)
    legal = state.legal_moves()
    bot = RandomBot(seed=5)
    counts = collections.Counter(bot.choose(state.view(0), legal) for _ in range(300 * len(legal)))
    assert set(counts) == set(legal)
    assert all(200 <= n <= 400 for n in counts.values()), counts


def _greedy_turn(state: GameState) -> tm.Move:
    seat = state.current_player
    assert seat is not None
    return GreedyBot(seed=0).choose(state.view(seat), state.legal_moves())


def test_greedy_withdraws_holding_majorities_worth_taking() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        hands={0: RED_HAND},
        table={0: ["red:vizier+general", "red:monk+princess", "red:elephant+vizier"]},
        visit_colors={0: "red"},
    )
    assert _greedy_turn(state) == tm.Withdraw()


def test_greedy_plays_on_when_a_prize_is_within_reach() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        hands={0: RED_HAND},
        table={1: ["green:elephant+monk"]},
        current_player=0,
    )
    move = _greedy_turn(state)
    assert isinstance(move, tm.PlayCards)
    assert move.colored.color is tm.Color.RED


def test_greedy_withdraws_when_nothing_is_within_reach() -> None:
    strong = [
        "green:vizier+princess",
        "green:general+monk",
        "green:vizier+general",
        "green:monk+princess",
        "green:elephant+elephant",
        "green:elephant+grand_mogul",
        "white:elephant",
    ]
    state = situation(
        at_visit(start(), 1, province="p5"),
        hands={0: ["red:vizier+general", "red:elephant+monk"]},
        table={1: strong, 2: strong},
        current_player=0,
    )
    assert _greedy_turn(state) == tm.Withdraw()


def test_greedy_plays_the_points_card_for_free_points() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        hands={0: ["red:elephant+monk", "special:points"]},
        table={1: ["green:elephant+elephant", "green:monk+princess"]},
        current_player=0,
    )
    move = _greedy_turn(state)
    assert isinstance(move, tm.PlayCards) and move.extra == tm.Card.parse("special:points")


def _taking(state: GameState, supply: list[str], hand: list[str]) -> GameState:
    state = situation(state, hands={0: hand}, supply=supply, withdrawn={0: True})
    return attrs.evolve(state, phase=Phase.TAKE, pending_takes=2, current_player=0)


def test_greedy_takes_white_cards_first_then_its_own_colour() -> None:
    base = start()
    white = _taking(base, ["green:vizier+general", "white:elephant", "red:monk+princess"], RED_HAND)
    assert _greedy_turn(white) == tm.TakeCard(tm.Card.parse("white:elephant"))
    colour = _taking(base, ["green:vizier+general", "red:monk+princess"], RED_HAND)
    assert _greedy_turn(colour) == tm.TakeCard(tm.Card.parse("red:monk+princess"))


def _placing(**parts: object) -> GameState:
    """Seat 0 owes a palace in province p2 (fortresses p2a and p2c; p2d borders p3a)."""
    state = situation(at_visit(start(), 1, province="p2"), withdrawn={0: True}, **parts)  # type: ignore[arg-type]
    return attrs.evolve(state, phase=Phase.PALACE, pending_palaces=1, current_player=0)


def test_greedy_places_palaces_on_bonus_tiles_and_for_connections() -> None:
    bonus = _placing(normal_palaces={"p3a": 0}, bonus={"p2a": None, "p2c": "+2"})
    assert _greedy_turn(bonus) == tm.PlacePalace("p2c")
    connect = _placing(normal_palaces={"p3a": 0}, bonus={"p2a": None, "p2c": None})
    assert _greedy_turn(connect) == tm.PlacePalace("p2d")
    taj = _placing(bonus={"p2a": "+4", "p2c": "+2"})
    assert _greedy_turn(taj) == tm.PlacePalace("p2a")


def test_greedy_beats_three_random_bots() -> None:
    """A clear majority on a short run of the standard game (200 games: see the CHANGELOG)."""
    games, wins = 32, 0
    for seed in range(games):
        seat = seed % 4  # greedy takes every seat in turn
        players = ["random"] * 4
        players[seat] = "greedy"
        result = tm.play_match(players, seed=seed)
        assert not result.faults
        wins += seat in result.winners
    assert wins >= 0.6 * games, f"greedy won {wins} of {games}"


# ---------------------------------------------------------------- the outside baselines
# benchmarks/outside_bots.py: the strategy and flat Monte Carlo bots that strength runs
# measure ismcts against (issue 36); they decide from the view only and share no code with
# ismcts, so these tests check what they must do: follow the rules, repeat with a seed.
OUTSIDE = Path(__file__).resolve().parent.parent / "benchmarks" / "outside_bots.py"
STRATEGY = f"file:{OUTSIDE}:StrategyBot"
FLAT_MC = f"file:{OUTSIDE}:FlatMcBot:samples=3"


def test_outside_baselines_play_whole_games_by_the_rules() -> None:
    for num_players, seed in ((3, 1), (5, 2)):
        players = [FLAT_MC, STRATEGY, *["greedy"] * (num_players - 2)]
        result = tm.play_match(players, seed=seed)
        assert not result.faults and len(result.scores) == num_players
        assert tm.replay(result.record).is_over


def test_outside_baselines_repeat_with_their_seed() -> None:
    first = tm.play_match([FLAT_MC, STRATEGY, "greedy"], seed=4)
    again = tm.play_match([FLAT_MC, STRATEGY, "greedy"], seed=4)
    assert first.scores == again.scores and first.record.moves == again.record.moves


def test_flat_mc_deals_only_what_the_view_allows() -> None:
    from tajmahal.bots.file_bots import file_bot_class
    from tajmahal.bots.specs import parse_spec

    bot = file_bot_class(parse_spec(FLAT_MC))(seed=1, samples=2)
    state = start(num_players=4, seed=9)
    for _ in range(25):  # into the game: played cards, a supply taken, known cards
        state = state.apply(state.legal_moves()[0])
    view = state.view(state.current_player)  # type: ignore[arg-type]
    hands = bot.deal(view)
    assert hands[view.seat] == list(view.hand)
    assert [len(h) for h in hands] == list(view.hand_sizes)
    for seat, known in enumerate(view.known_cards):
        assert collections.Counter(known) <= collections.Counter(hands[seat])
    # a state that differs only in what the seat cannot see gives the same deals
    other = view.sample(random.Random(3))
    assert other.view(view.seat) == view
    same = type(bot)(seed=1, samples=2).deal(other.view(view.seat))
    assert same == hands


def test_flat_mc_values_supply_cards_and_halving_keeps_the_budget() -> None:
    """``supply`` prices the cards a withdrawal takes (0: the first version); ``halving``
    spends the same simulations in rounds; both answer legal moves, and bad values are
    refused."""
    from tajmahal.bots.file_bots import file_bot_class
    from tajmahal.bots.specs import parse_spec

    cls = file_bot_class(parse_spec(FLAT_MC))
    state = start(num_players=3, seed=9)
    while state.phase is not Phase.PLAY or len(state.legal_moves()) < 5:
        state = state.apply(state.legal_moves()[0])
    view, legal = state.view(state.current_player), state.legal_moves()  # type: ignore[arg-type]
    flat = cls(seed=1, samples=6, supply=0)
    assert flat.choose(view, legal) in legal
    assert flat.last_iterations == 6 * len(legal)  # every candidate on every deal
    halving = cls(seed=1, samples=6, halving=True)
    assert halving.choose(view, legal) in legal
    assert 0 < halving.last_iterations <= 6 * len(legal) + len(legal)
    assert cls().supply > 0 and not cls().halving  # the defaults: cards count, no halving
    for bad in (-1, 11, "much", True):
        with pytest.raises(ValueError, match="supply must be"):
            cls(supply=bad)
