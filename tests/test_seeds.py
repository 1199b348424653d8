"""Seeds reveal nothing to a seat (docs/reference/records.md, "Seeds and what they reveal").

The attack: a bot that knows the library tries tournament seeds and blocks,
deals each game and compares the deal with its first view.  It finds every
deal of a tournament played with a small seed it can guess (the documented
cost of passing a known seed) and none of a tournament played with the
default, unguessable seed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.cli import main
from tajmahal.referee import bot_log_name, bot_seed
from tajmahal.tournament import deal_seed, read_results, run_tournament

THREE = ["random", "random", "random"]
GUESSES = range(64)  # the tournament seeds the attacker tries


def attack(view: tm.PlayerView, games: int) -> tm.GameState | None:
    """The deal a seat computes from its first view by trying small tournament seeds, or None."""
    for guess in GUESSES:
        for block in range(games):
            state = tm.new_game(num_players=view.num_players, seed=deal_seed(guess, block))
            if state.view(view.seat) == view:
                return state
    return None


def first_views(path: Path) -> list[tm.PlayerView]:
    """What each seat saw first in each game of a results file (its deal, before any move)."""
    found = read_results(path)
    return [
        tm.new_game(num_players=found.header.num_players, seed=game.seed).view(seat)
        for game in found.games
        for seat in range(found.header.num_players)
    ]


def test_a_known_tournament_seed_lets_a_seat_compute_every_deal(tmp_path: Path) -> None:
    out = tmp_path / "known.jsonl"
    run_tournament(THREE, games=6, backend="serial", seed=5, out=out)
    for view in first_views(out):
        dealt = attack(view, 3)
        assert dealt is not None and dealt.view((view.seat + 1) % 3).hand  # others' hands known


def test_the_default_tournament_seed_is_unguessable_printed_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = ["tournament", *THREE, "--games", "6", "--backend", "serial", "--out", str(first)]
    assert main(argv) == 0
    shown = re.search(r"^Tournament: 6 of 6 games, 3 players per game, seed (\d+)$",
                      capsys.readouterr().out, re.M)
    assert shown, "the table's first line names the seed"
    header = read_results(first).header
    assert header.seed == int(shown[1]) and header.seed not in GUESSES
    run_tournament(THREE, games=6, backend="serial", out=second)
    assert read_results(second).header.seed not in (header.seed, *GUESSES)
    for game in read_results(first).games:
        assert game.seed == deal_seed(header.seed, game.block)  # derived, reproducible from it
    assert all(attack(view, 3) is None for view in first_views(first))


def test_resuming_without_a_seed_keeps_the_files_seed(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    whole = run_tournament(THREE, games=6, backend="serial", out=out)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:4]), encoding="utf-8")
    resumed = run_tournament(THREE, games=6, backend="serial", out=out, resume=True)
    assert resumed.header.seed == whole.header.seed and resumed.games == whole.games


@pytest.mark.parametrize("seed", [0, 7, 2**63 - 1, -12])
def test_bot_log_names_and_bot_seeds_hold_no_seed(seed: int) -> None:
    names = [bot_log_name(seed, seat) for seat in range(5)]
    assert len(set(names)) == 5 and len({name.rsplit("-", 1)[0] for name in names}) == 1
    for name in names:
        assert re.fullmatch(r"game-[0-9a-f]{16}-seat[0-4]\.log", name)
    assert bot_log_name(seed, 0) != bot_log_name(seed + 1, 0)
    assert bot_seed(seed, 0) != seed


def test_a_bot_program_is_told_its_own_seed_only() -> None:
    hello = json.loads(tm.protocol.messages.hello_line(0, 3, bot_seed(12345, 0), 1.0))
    assert hello["seed"] == bot_seed(12345, 0) != 12345
