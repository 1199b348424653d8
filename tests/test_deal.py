"""docs/rules.md S10 and docs/reference/records.md: the library's own generator and shuffle.

The golden files ``tests/data/deals.jsonl`` (the first state of several seeds
for 3, 4 and 5 players) and ``tests/data/reshuffles.json`` (reshuffle orders)
pin what every seed deals: a change to the generator, its seeding, the shuffle
or the way new_game lays tiles and deals cards fails here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.rules import deal
from tajmahal.rules.deal import MersenneTwister, shuffle, stream_key, stream_text

DATA = Path(__file__).parent / "data"
DEAL_LINES = (DATA / "deals.jsonl").read_text(encoding="utf-8").splitlines()
RESHUFFLES = json.loads((DATA / "reshuffles.json").read_text(encoding="utf-8"))


@pytest.fixture(params=["accelerated", "reference"])
def generator(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test runs with CPython's C generator as the speed-up and with the reference alone."""
    old = deal.reference_only(request.param == "reference")
    try:
        yield request.param
    finally:
        deal.reference_only(old)


def test_mt19937_gives_the_reference_outputs_of_mt19937ar() -> None:
    # mt19937ar.c's own check: init_by_array({0x123, 0x234, 0x345, 0x456}), first outputs
    state = deal._init_by_array([0x123, 0x234, 0x345, 0x456])
    deal._twist(state)
    assert deal._outputs(state)[:5] == (1067595299, 955945823, 477289528, 4107218783, 4228976476)


def test_a_stream_key_is_the_name_and_its_sha512_as_little_endian_words() -> None:
    key = stream_key(42, "deck")
    number = sum(word << (32 * i) for i, word in enumerate(key))
    text = b"tajmahal/deck/42"
    assert stream_text(42, "deck") == text.decode()
    assert number.to_bytes(len(text) + 64, "big")[: len(text)] == text
    assert len(key) == (len(text) + 64) // 4


@pytest.mark.parametrize("seed", [0, 1, -1, 2**63 - 1, 10**40])
def test_the_reference_and_the_accelerated_generator_agree(seed: int) -> None:
    for stream in ("deck", "tiles", "reshuffle/0", "reshuffle/12"):
        reference = MersenneTwister(seed, stream, pure=True)
        other = MersenneTwister(seed, stream)
        expected = [reference.next_u32() for _ in range(1500)]
        assert [other.next_u32() for _ in range(1500)] == expected
        for size in (1, 2, 3, 50, 200):
            ours, theirs = list(range(size)), list(range(size))
            shuffle(ours, seed, stream, pure=True)
            shuffle(theirs, seed, stream)
            assert ours == theirs


def test_deals_made_with_pythons_random_before_are_unchanged() -> None:
    # records written before the library had its own shuffle used random.Random(text).shuffle;
    # where this Python's random still runs MT19937 as specified, they deal alike
    if not deal.cpython_matches():
        pytest.skip("this Python's random no longer matches MT19937 (the reference still deals)")
    for seed in range(50):
        ours, theirs = list(range(60)), list(range(60))
        shuffle(ours, seed, "deck", pure=True)
        random.Random(f"tajmahal/deck/{seed}").shuffle(theirs)
        assert ours == theirs


def test_bounded_integers_are_unbiased_by_rejection() -> None:
    twister = MersenneTwister(3, "check", pure=True)
    draws = [twister.below(3) for _ in range(3000)]
    assert set(draws) == {0, 1, 2}
    assert all(abs(draws.count(v) - 1000) < 150 for v in range(3))
    assert MersenneTwister(3, "check").below(1) == 0


@pytest.mark.parametrize("line", DEAL_LINES, ids=lambda line: line[60:110])
def test_every_golden_seed_deals_the_same_first_state(line: str, generator: str) -> None:
    golden = tm.loads(line)
    assert isinstance(golden, tm.GameState)
    state = tm.new_game(num_players=golden.num_players, seed=golden.seed)
    assert state == golden
    assert tm.dumps(state) == line


def test_the_golden_deals_cover_every_player_count_and_odd_seeds() -> None:
    loaded = [tm.loads(line) for line in DEAL_LINES]
    states = [s for s in loaded if isinstance(s, tm.GameState)]
    assert len(states) == len(loaded)
    assert {s.num_players for s in states} == {3, 4, 5}
    assert {s.seed for s in states} >= {0, -7, 2**63 - 1}


@pytest.mark.parametrize("row", RESHUFFLES, ids=lambda row: f"{row['seed']}-{row['stream']}")
def test_every_golden_reshuffle_orders_the_same(row: dict[str, object], generator: str) -> None:
    size = row["size"]
    assert isinstance(size, int)
    items = list(range(size))
    seed, stream = row["seed"], row["stream"]
    assert isinstance(seed, int) and isinstance(stream, str)
    tm.rules.setup.seeded_rng(seed, stream).shuffle(items)
    assert items == row["order"]
