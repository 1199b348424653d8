"""The command line: ``tajmahal bots | match | replay | render``, their output and exit codes."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

import tajmahal as tm
from builders import at_visit, finish_takes, play, situation, start
from helpers import NON_BOARD_TOML, line_board, line_components
from tajmahal.cli import account, main
from tajmahal.cli._account import decision_lines, ranking_line, winners_line

SEATS = ["greedy", "random", "random", "greedy"]


@pytest.fixture(scope="module")
def line_board_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A components file with the synthetic line board (``--components``)."""
    path = tmp_path_factory.mktemp("boards") / "line.toml"
    path.write_text(NON_BOARD_TOML + "\n" + line_board(), encoding="utf-8")
    return path


@pytest.fixture
def serialize() -> ModuleType:
    return pytest.importorskip("tajmahal.serialize")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *words: str) -> None:
    assert code != 0
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    for word in words:
        assert word in err


# ---------------------------------------------------------------------------- help


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("bots", []),
        ("match", ["--seed", "--record", "--time-limit", "--quiet"]),
        ("replay", ["FILE"]),
        ("render", ["--out", "--seed", "--record", "--visit"]),
    ],
)
def test_every_command_has_help(
    capsys: pytest.CaptureFixture[str], command: str, options: list[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert out.startswith(f"usage: tajmahal {command}")
    for option in options:
        assert option in out


def test_main_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    for command in ("bots", "match", "replay", "render"):
        assert command in out


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tajmahal", "match", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: tajmahal match")


# ---------------------------------------------------------------------------- bots


def test_bots_lists_name_origin_and_description(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bots")
    assert code == 0
    rows = {line.split()[0]: line.split(maxsplit=3) for line in out.splitlines()[1:] if line}
    assert rows["random"][1] == "tajmahal" and rows["random"][3].startswith("Plays a uniformly")
    assert rows["greedy"][1] == "tajmahal" and rows["greedy"][3].startswith("Plays greedily")
    assert rows["greedy"][2] == tm.bots.bot_infos()["greedy"].version != ""


# ---------------------------------------------------------------------------- match


def test_match_prints_the_account_then_the_result(
    capsys: pytest.CaptureFixture[str], line_board_file: Path
) -> None:
    args = ["match", *SEATS, "--seed", "5", "--components", str(line_board_file)]
    code, out, err = run(capsys, *args)
    assert code == 0 and err == ""
    result = tm.play_match(SEATS, seed=5, components=line_components())
    headings = re.findall(r"^Visit (\d+):", out, flags=re.MULTILINE)
    assert headings == [str(k) for k in range(1, 13)]
    scores = ", ".join(f"seat {s} ({SEATS[s]}) {v}" for s, v in enumerate(result.scores))
    assert f"Final scores: {scores}" in out
    winners = ", ".join(f"seat {s} ({SEATS[s]})" for s in result.winners)
    assert re.search(rf"^Winners?: {re.escape(winners)}$", out, flags=re.MULTILINE)
    assert out.index("Visit 12:") < out.index("Final scores:")


def test_the_account_adds_up_to_the_final_scores() -> None:
    record = tm.play_match(SEATS, seed=11, components=line_components()).record
    lines = list(account(record))
    points = [0] * 4
    for line in lines:
        found = re.match(
            r"  seat (\d) \(\w+\) (?:scores |.*?: )(\d+) points?\b.*; total (\d+)$", line
        )
        if found:
            seat, gained, total = (int(g) for g in found.groups())
            points[seat] += gained
            assert points[seat] == total, line
    assert tuple(points) == record.scores
    assert lines[-1].startswith("Winner") and lines[-2].startswith("Final scores: ")


def test_the_account_marks_tied_winners_and_places() -> None:
    result = tm.play_match(["greedy", "greedy", "random", "random"], seed=7)
    assert result.winners == (0, 1)
    players = result.players
    assert winners_line(result.winners, players, result.scores) == (
        "Winners (tied at 58): seat 0 (greedy), seat 1 (greedy)"
    )
    assert ranking_line(result.ranking, result.scores, players) == (
        "Ranking: 1= seat 0 (greedy) 58, 1= seat 1 (greedy) 58, "
        "3 seat 3 (random) 30, 4 seat 2 (random) 25"
    )
    # equal scores, but a seat with faults ranks after one without: not a tie
    assert ranking_line((1, 0, 2), (40, 40, 10), ("a", "b", "c"), faulted={0}) == (
        "Ranking: 1 seat 1 (b) 40, 2 seat 0 (a) 40, 3 seat 2 (c) 10"
    )


def test_replaying_an_unfinished_game_gives_the_scores_so_far(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, serialize: ModuleType
) -> None:
    game = tm.Game.new(num_players=3, seed=2, players=("greedy", "random", "random"))
    while game.state.visit < 3:
        game.push(game.state.legal_moves()[0])
    path = tmp_path / "unfinished.json"
    path.write_text(serialize.dumps(game.record()), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "Final scores" not in out and "Winner" not in out
    scores = ", ".join(f"seat {s} ({game.players[s]}) {v}" for s, v in enumerate(game.state.scores))
    assert out.splitlines()[-1] == (
        f"The record stops during visit 3, after {len(game)} moves; scores so far: {scores}"
    )
    code, out, _ = run(capsys, "replay", str(path), "--quiet")
    assert out.splitlines() == [
        f"The record stops during visit 3, after {len(game)} moves; scores so far: {scores}"
    ]


# ---------------------------------------------------------------------------- records


def test_match_record_and_replay_print_the_same_account(
    capsys: pytest.CaptureFixture[str],
    line_board_file: Path,
    tmp_path: Path,
    serialize: ModuleType,
) -> None:
    record_file = tmp_path / "game.json"
    args = ["match", *SEATS, "--seed", "3", "--components", str(line_board_file)]
    code, matched, _ = run(capsys, *args, "--record", str(record_file))
    assert code == 0
    record = serialize.loads(record_file.read_text(encoding="utf-8"))
    assert record == tm.play_match(SEATS, seed=3, components=line_components()).record
    code, replayed, _ = run(capsys, "replay", str(record_file))
    assert code == 0
    account_lines = [line for line in replayed.splitlines() if not line.startswith("Winner")]
    assert "\n".join(account_lines) in matched


def test_replay_of_a_missing_file_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "nothing.json"
    code, _, err = run(capsys, "replay", str(missing))
    assert_one_line_error(code, err, str(missing))


def test_replay_of_a_binary_file_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(capsys, "replay", str(junk))
    assert_one_line_error(code, err, "UTF-8")


@pytest.mark.parametrize(
    "text", ["{not json", '{"format": "tajmahal/nothing", "version": 1}', "[]"]
)
def test_replay_of_an_unreadable_record_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, serialize: ModuleType, text: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert_one_line_error(code, err, str(bad))


def test_replay_of_a_move_record_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, serialize: ModuleType
) -> None:
    other = tmp_path / "move.json"
    other.write_text(serialize.dumps(tm.Withdraw()), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(other))
    assert_one_line_error(code, err, "not a game record")


# ---------------------------------------------------------------------------- render


def test_render_writes_an_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    code, _, err = run(capsys, "render", "--out", str(out), "--seed", "4")
    assert code == 0, err
    assert ET.parse(out).getroot().tag.endswith("svg")


def test_render_a_recorded_game_after_a_visit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, serialize: ModuleType
) -> None:
    result = tm.play_match(["greedy", "random", "random"], seed=2)
    record_file = tmp_path / "game.json"
    record_file.write_text(serialize.dumps(result.record), encoding="utf-8")
    state = tm.new_game(3, 2)
    for move in result.record.moves:
        after = state.apply(move)
        if after.visit == 4:
            state = after
            break
        state = after
    palaces = sum(owner >= 0 for owner in state.normal_palaces)
    svg_file = tmp_path / "visit3.svg"
    code, _, err = run(
        capsys, "render", "--out", str(svg_file), "--record", str(record_file), "--visit", "3"
    )
    assert code == 0, err
    root = ET.parse(svg_file).getroot()
    drawn = [e for e in root.iter() if "palace" in e.get("class", "").split()]
    assert len(drawn) == palaces > 0


def test_render_visit_needs_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "render", "--out", str(tmp_path / "x.svg"), "--visit", "2")
    assert_one_line_error(code, err, "--visit needs --record")


# ---------------------------------------------------------------------------- the account


def test_the_account_names_the_prizes_and_the_points_with_their_rules() -> None:
    state = situation(
        at_visit(start(), 1, province="p5"),
        table={0: ["red:vizier+general", "red:elephant+vizier"], 1: ["green:general+monk"]},
        visit_colors={0: "red", 1: "green"},
        bonus={"p5a": "+2"},
        current_player=0,
    )
    after = play(state, "withdraw")
    players = ["greedy", "random", "random"]
    lines = list(decision_lines(tm.events.explain(state, tm.Withdraw(), after), players))
    # the province tile is scored after the palaces (W10), so no points yet
    assert lines == [
        "  seat 0 (greedy) withdraws",
        "  seat 0 (greedy) wins the vizier majority (2 to 0) and takes the vizier tile (W2, W5)",
        "  seat 0 (greedy) ties with seat 1 for the general (1 each) "
        "and does not win the general tile (W4)",
        "  seat 0 (greedy) wins the elephant majority (1 to 0) and takes province tile 1 (rice) "
        "(W2, W9)",
    ]
    placed = play(after, "palace p5a")
    decision = tm.events.explain(after, tm.PlacePalace("p5a"), placed)
    assert list(decision_lines(decision, players)) == [
        "  seat 0 (greedy) places a palace in P5A (W5)",
        "  seat 0 (greedy) takes the +2 points bonus tile in P5A: 2 points (W6, K2); total 2",
        "  seat 0 (greedy) scores 1 point: province tile 1, rice 1 (K5); total 3",
        "  seat 0 (greedy) scores 1 point: palace in P5, connected to no other province (K6); "
        "total 4",
    ]
    assert finish_takes(placed).current_player == 1


def test_match_without_a_seed_draws_one_prints_it_and_records_it(
    capsys: pytest.CaptureFixture[str], line_board_file: Path, tmp_path: Path
) -> None:
    record_file = tmp_path / "game.json"
    args = ["match", *SEATS, "--quiet", "--components", str(line_board_file)]
    code, out, _ = run(capsys, *args, "--record", str(record_file))
    found = re.search(r"Match, seed (\d+):", out)
    assert code == 0 and found
    record = tm.loads(record_file.read_text(encoding="utf-8"))
    assert isinstance(record, tm.GameRecord) and record.seed == int(found.group(1))
    code, again, _ = run(capsys, *args[:-2], "--components", str(line_board_file))
    assert re.search(r"Match, seed (\d+):", again).group(1) != found.group(1)  # type: ignore[union-attr]


def test_version_prints_the_library_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"tajmahal {tm.__version__}"


def test_bots_json_lists_every_bot_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    bots = {bot["name"]: bot for bot in document["bots"]}
    assert set(bots) == set(tm.bots.available())
    greedy = bots["greedy"]
    assert greedy["package"] == "tajmahal" and greedy["version"] == tm.__version__
    assert greedy["options"] == {"enough": ["float"], "card_cost": ["float"]}
    assert bots["ismcts"]["options"]["iterations"] == ["int", "None"]
    assert isinstance(document["problems"], list)


# ---------------------------------------------------------------------------- conventions


def test_tajmahal_alone_prints_the_help_as_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("usage: tajmahal ")
    assert "check-bot" in captured.err and "exit status:" in captured.err


def test_every_command_ends_its_help_with_examples_that_parse(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import shlex

    from tajmahal.cli import EXAMPLES, build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(EXAMPLES) == set(commands.choices)
    for name, examples in EXAMPLES.items():
        with pytest.raises(SystemExit):
            main([name, "--help"])
        help_text = capsys.readouterr().out
        assert "\nexamples:\n" + "".join(f"  {line}\n" for line in examples) in help_text
        for line in examples:
            words = shlex.split(line)
            assert words[:2] == ["tajmahal", name]
            assert parser.parse_args(words[1:]).command == name, line


def test_the_exit_statuses_are_one_table_in_the_help_and_the_docs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tajmahal.cli import EXIT_STATUSES

    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out.split("exit status:\n", 1)[1]
    assert [(int(line.split()[0]), line.split(maxsplit=1)[1]) for line in shown.splitlines()
            if line.strip()] == list(EXIT_STATUSES)  # fmt: skip
    page = (Path(__file__).resolve().parent.parent / "docs" / "reference" / "cli.md").read_text()
    rows = re.findall(r"^\| (\d+) \| (.+?) \|$", page, re.M)
    assert [(int(code), meaning) for code, meaning in rows] == list(EXIT_STATUSES)


@pytest.mark.parametrize(
    ("argv", "status", "words"),
    [
        (["match", "nobody", "random", "random"], 2, "no bot is called 'nobody'"),
        (["match", "greedy:depth=2", "random", "random"], 2, "has no option 'depth'"),
        (["match", "cmd:./no/such/bot", "random", "random"], 2, "cannot run './no/such/bot'"),
        (["tournament", "nobody", "random", "random", "--games", "6"], 2, "'nobody'"),
        (["tournament", "random", "random", "random", "--games", "4"], 2, "multiple of 6"),
        (["check-bot", "nobody"], 2, "no bot is called 'nobody'"),
        (["match", "random", "random"], 2, "a match needs 3 to 5 bots"),
        (["render", "--out", "x.svg", "--visit", "3"], 2, "--visit needs --record"),
        (["serve", "--port", "70000"], 2, "--port must be 0 to 65535, got 70000"),
        (["match", "random", "random", "random", "--seed", "x"], 2, "invalid int value"),
        (["replay", "no-such-record.json"], 1, "cannot read no-such-record.json"),
    ],
)
def test_exit_status_2_for_a_wrong_command_line_and_1_for_a_failure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    argv: list[str], status: int, words: str,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as exited:  # argparse's own usage errors
        code = int(exited.code or 0)
    err = capsys.readouterr().err
    assert code == status and words in err, err
    assert "Traceback" not in err
