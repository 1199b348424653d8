"""The ``ismcts`` evaluation: feature values on constructed positions, the weights document.

Strength is measured by ``benchmarks/strength.py`` and the weights are fitted
by ``benchmarks/fit_evaluation.py``, not here.
"""

from __future__ import annotations

import hashlib
import json
import random
from importlib.resources import files

import pytest

import tajmahal as tm
from tajmahal.bots.evaluation import (
    FEATURES,
    WEIGHTS,
    WeightsError,
    estimated_scores,
    evaluate,
    features,
    heuristic_pick,
    load_weights,
    reward_scale,
)
from tajmahal.bots.evaluation_v1 import FIXED_SCALE, estimated_scores_v1, evaluate_v1
from tajmahal.bots.ismcts import IsmctsBot, IsmctsV1Bot
from tajmahal.rules.components import Color, Commodity, Special, Symbol
from tajmahal.rules.playout import Playout
from tajmahal.rules.tables import COMMODITIES, SPECIALS


def fresh(num_players: int = 3, seed: int = 1) -> Playout:
    """A new game as a playout, every seat's hand emptied (the tests deal their own)."""
    game = Playout(tm.new_game(num_players, seed=seed))
    for hand in game.hands:
        hand.clear()
    return game


def feature(game: Playout, seat: int, name: str) -> float:
    return features(game)[seat][FEATURES.index(name)]


def kind(game: Playout, color: Color, *symbols: Symbol) -> int:
    """The kind index of the card of ``color`` showing ``symbols``."""
    t = game.tables
    return next(
        k
        for k, card in enumerate(t.kinds)
        if card.color is color
        and sorted(card.symbols, key=str) == sorted(symbols, key=str)
        and not t.special[k]
    )


def test_hand_features_count_size_end_of_game_value_and_symbols() -> None:
    game = fresh()
    t = game.tables
    red = [
        kind(game, Color.RED, Symbol.VIZIER, Symbol.GENERAL),
        kind(game, Color.RED, Symbol.ELEPHANT, Symbol.ELEPHANT),
        kind(game, Color.RED, Symbol.ELEPHANT, Symbol.GRAND_MOGUL),
    ]
    green = kind(game, Color.GREEN, Symbol.MONK, Symbol.PRINCESS)
    white = kind(game, Color.WHITE, Symbol.ELEPHANT)
    points = t.special_kinds[SPECIALS.index(Special.POINTS)]
    game.hands[0] = sorted([*red, green, white, points])
    assert feature(game, 0, "hand") == 6
    assert feature(game, 0, "white_and_special_cards") == 2  # G1: the white and the special
    assert feature(game, 0, "longest_suit") == 3  # G1: three red cards
    assert feature(game, 0, "influence_symbols") == 5  # vizier, general, crown, monk, princess
    game.hands[1] = [green] * 14
    assert feature(game, 1, "hand") == 10  # at most HAND_CAP cards count
    assert feature(game, 2, "hand") == feature(game, 2, "longest_suit") == 0


def test_special_cards_and_unpaired_tiles() -> None:
    game = fresh()
    game.holder[SPECIALS.index(Special.POINTS)] = 1
    game.holder[SPECIALS.index(Special.ELEPHANT)] = 1
    game.holder[SPECIALS.index(Special.COLOR_CHANGE)] = 2
    game.influence[0] = [1, 2, 3, 0]  # one vizier and one monk tile short of a pair
    assert [feature(game, s, "points_card") for s in range(3)] == [0, 1, 0]
    assert [feature(game, s, "other_special_cards") for s in range(3)] == [0, 1, 1]
    assert [feature(game, s, "unpaired_influence") for s in range(3)] == [2, 0, 0]


def test_commodity_potential_multiplies_owned_by_what_is_still_to_come() -> None:
    game = fresh()
    game.visit = 5  # provinces 5..12 still to come
    game.bonus = [-1] * len(game.bonus)  # no commodity bonus tiles left on the board
    rice = COMMODITIES.index(Commodity.RICE)
    game.province_tiles[0] = [1]  # tile 1: rice
    to_come = sum(rice in game.tables.tile_commodities[n - 1] for n in range(5, 13))
    assert to_come == 4  # tiles 5, 7, 9 and 10 show rice (docs/rules.md, C9)
    assert feature(game, 0, "commodity_potential") == 4
    assert feature(game, 0, "owned_commodities") == 1
    game.commodity_tiles[0] = [1]  # a rice bonus tile as well: two rice owned
    assert feature(game, 0, "commodity_potential") == 8
    fortress = next(c for c, f in enumerate(game.tables.fortress) if f and c > 0)
    province = game.tables.city_province[fortress]
    game.bonus[fortress] = 1  # a rice bonus tile on a fortress
    still = province in game.province_order[4:]
    assert feature(game, 0, "commodity_potential") == 8 + 2 * still
    assert feature(game, 1, "commodity_potential") == feature(game, 1, "owned_commodities") == 0


def test_connection_potential_counts_the_provinces_a_group_brings_to_each_province_to_come() -> (
    None
):
    game = fresh()
    t = game.tables
    game.visit = 7
    past, future = set(game.province_order[:6]), set(game.province_order[6:])
    a, b = next(
        (a, b)
        for a in range(len(t.adjacency))
        for b in t.adjacency[a]
        if t.city_province[a] in past
        and t.city_province[b] in past
        and t.city_province[a] != t.city_province[b]
        and any(t.city_province[n] in future for n in (*t.adjacency[a], *t.adjacency[b]))
    )
    game.normal[a] = 0
    reach_a = {t.city_province[n] for n in t.adjacency[a]} & future
    assert feature(game, 0, "connection_potential") == len(reach_a)  # a group of one province
    assert feature(game, 0, "palace_provinces") == 1
    game.crown[b] = 0  # a crown palace joins the group: two provinces
    reach = {t.city_province[n] for n in (*t.adjacency[a], *t.adjacency[b])} & future
    assert feature(game, 0, "connection_potential") == 2 * len(reach)
    assert feature(game, 0, "palace_provinces") == 2
    assert feature(game, 1, "connection_potential") == 0
    game.normal[b] = 1  # another seat's palace beside a crown palace: both connect through it
    assert feature(game, 1, "palace_provinces") == 1


def test_estimate_is_the_score_plus_the_weighted_features_and_final_at_the_end() -> None:
    game = Playout(tm.new_game(4, seed=3))
    game.run(random.Random(1), heuristic_pick, visit_end=True)
    game.scores[2] += 5
    row = WEIGHTS.weights[len(game.province_order) - game.visit + 1]
    expected = [
        s + sum(w * f for w, f in zip(row, values, strict=True))
        for s, values in zip(game.scores, features(game), strict=True)
    ]
    assert estimated_scores(game) == pytest.approx(expected)
    rewards = evaluate(game)
    assert max(range(4), key=lambda s: expected[s]) == max(range(4), key=lambda s: rewards[s])
    game.run(random.Random(1), heuristic_pick)
    assert estimated_scores(game) == [float(s) for s in game.scores]
    assert reward_scale(game) == WEIGHTS.scales[0]


def test_shipped_weights_load_and_match_their_schema() -> None:
    text = files("tajmahal.bots").joinpath("evaluation_weights.json").read_text("utf-8")
    data = json.loads(text)
    assert data["features"] == list(FEATURES)
    assert len(data["weights"]) == 12 and len(data["scales"]) == 13
    assert load_weights(text) == load_weights() == WEIGHTS
    assert all(0 < s <= 1000 for s in WEIGHTS.scales)
    assert data["provenance"]["command"].startswith("python benchmarks/fit_evaluation.py")


def _document(**change: object) -> str:
    data = json.loads(files("tajmahal.bots").joinpath("evaluation_weights.json").read_text())
    data.update(change)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not an evaluation weights document"),
        (_document(version=2), "unknown evaluation weights version"),
        (_document(features=["bias"]), "the features must be"),
        (_document(weights=[[0.0] * len(FEATURES)] * 12, scales=[1.0]), "need 13 scales"),
        (_document(weights=[[0.0, "x"]] * 12), "a weight row must be"),
        (_document(weights=[[float("nan")] * len(FEATURES)] * 12), "a weight row must be"),
        (_document(scales=[0.0] * 13), "scales must be numbers above 0"),
        (_document(weights={}), "weights and scales must be lists"),
        (_document(provenance=[]), "provenance must be an object"),
    ],
)
def test_bad_weights_documents_are_clear_errors(document: str, message: str) -> None:
    with pytest.raises(WeightsError, match=message):
        load_weights(document)


def test_the_first_release_bot_keeps_its_own_frozen_evaluation() -> None:
    game = Playout(tm.new_game(3, seed=1))
    game.scores[0] += 3
    assert IsmctsV1Bot().reward(game) == evaluate_v1(game)
    assert [round(r, 3) for r in evaluate_v1(game, scale=FIXED_SCALE)] == [0.731, 0.269, 0.269]
    assert [round(v, 1) for v in estimated_scores_v1(game)] == [5.4, 2.4, 2.4]
    assert IsmctsBot().reward(game) == evaluate(game)


def test_the_first_release_bot_plays_exactly_as_released() -> None:
    """Pinned on a fixed seed: ``ismcts-v1`` must never change (it is the gauntlet's yardstick)."""
    result = tm.play_match(["ismcts-v1:iterations=20"] * 3, seed=11)
    # the moves' text (their notation), which no repr change touches
    digest = hashlib.sha256(" ".join(map(str, result.record.moves)).encode()).hexdigest()[:16]
    assert result.scores == (51, 36, 50)
    assert (len(result.record.moves), digest) == (202, "fb19f1f11eb1d6c6")


def test_the_shipped_weights_see_the_prize_contests_and_v2_keeps_its_own() -> None:
    """The current weights cover every feature (the contests too); ismcts-v2's the first 12."""
    from tajmahal.bots.evaluation import CONTEST_FEATURES, FEATURES_V2, WEIGHTS, WEIGHTS_V2

    assert FEATURES == FEATURES_V2 + CONTEST_FEATURES
    assert all(len(row) == len(FEATURES) for row in WEIGHTS.weights)
    assert all(len(row) == len(FEATURES_V2) for row in WEIGHTS_V2.weights)
    assert len(WEIGHTS.scales) == len(WEIGHTS_V2.scales) == 13
    assert WEIGHTS.provenance["prior"] == "evaluation_weights_v2.json"
    game = Playout(tm.new_game(4, seed=5))
    table = features(game)
    assert all(len(row) == len(FEATURES) for row in table)
    hand = {name: table[0][i] for i, name in enumerate(FEATURES)}
    elephants = sum(card.symbols.count(tm.Symbol.ELEPHANT) for card in game_view_hand(game, 0))
    assert hand["elephant_symbols"] == elephants
    assert hand["province_tile_points"] == 1.0  # tile 1: one commodity, none owned yet (K5)


def game_view_hand(game: Playout, seat: int) -> list[tm.Card]:
    kinds = game.components.card_kinds
    return [kinds[k] for k in game.hands[seat]]
