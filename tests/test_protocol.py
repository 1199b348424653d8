"""The bot protocol: messages, the bot's side, bot programs in matches, isolation, cleanup."""

from __future__ import annotations

import gc
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tajmahal as tm
from tajmahal.protocol import (
    BotConnection,
    BotProcessError,
    MessageError,
    ProcessFault,
    ProcessLimits,
    ProcessPlayer,
    Ready,
    check_command,
    serve,
)
from tajmahal.protocol._player import match_move
from tajmahal.protocol.messages import (
    hello_line,
    parse_line,
    read_move,
    read_ready,
    request_line,
    result_line,
)
from tajmahal.referee import FaultKind, bot_log_name

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "programs" / "hostile_bot.py"


def hostile(mode: str, pids: Path | None = None) -> str:
    """The ``cmd:`` spec of a hostile bot program (tests/programs/hostile_bot.py)."""
    return f"cmd:{sys.executable} {HOSTILE} {mode}" + (f" {pids}" if pids else "")


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_gone(pids: list[int], timeout: float = 5.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.02)
    return [p for p in pids if alive(p)]


# ---------------------------------------------------------------- messages


def test_parse_line_accepts_one_json_object_with_a_type() -> None:
    assert parse_line(b'{"type": "move", "move": "withdraw"}\r\n')["move"] == "withdraw"
    for line, problem in [
        (b"\xff\xfe\n", "not UTF-8"),
        (b"move withdraw\n", "not JSON"),
        (b"[" * 100_000 + b"\n", "not JSON|nested too deeply"),
        (b'"withdraw"\n', 'not a JSON object with a "type"'),
        (b'{"type": 3}\n', 'not a JSON object with a "type"'),
        (b"NaN\n", "not a JSON object"),
    ]:
        with pytest.raises(MessageError, match=problem):
            parse_line(line)


def test_ready_checks_version_name_and_deterministic() -> None:
    assert read_ready({"type": "ready", "version": 1}) == Ready(None, False)
    assert read_ready({"type": "ready", "version": 1, "name": "x", "deterministic": True,
                       "future_key": [1]}) == Ready("x", True)
    for message, problem in [
        ({"type": "move", "version": 1}, "expected a 'ready' message"),
        ({"type": "ready"}, "protocol version null"),
        ({"type": "ready", "version": True}, "protocol version true"),
        ({"type": "ready", "version": 1, "name": ""}, '"name" must be'),
        ({"type": "ready", "version": 1, "name": "x" * 65}, '"name" must be'),
        ({"type": "ready", "version": 1, "name": "a\nb"}, '"name" must be'),
        ({"type": "ready", "version": 1, "deterministic": "yes"}, '"deterministic" must be'),
    ]:
        with pytest.raises(MessageError, match=problem):
            read_ready(message)


def test_read_move_checks_type_decision_and_text() -> None:
    assert read_move({"type": "move", "move": "withdraw", "x": 1}, decision=3) == "withdraw"
    assert read_move({"type": "move", "decision": 3, "move": "withdraw"}, decision=3)
    with pytest.raises(MessageError, match="for decision 2, not for decision 3"):
        read_move({"type": "move", "decision": 2, "move": "withdraw"}, decision=3)
    with pytest.raises(MessageError, match='"move" must be a string, got 42'):
        read_move({"type": "move", "move": 42}, decision=3)
    with pytest.raises(MessageError, match="expected a 'move' or 'error' message"):
        read_move({"type": "ready"}, decision=3)


def test_referee_lines_are_single_json_lines() -> None:
    state = tm.new_game(num_players=4, seed=2)
    view_text = tm.dumps(state.view(1))
    legal = [str(m) for m in state.legal_moves()]
    for line in (hello_line(1, 4, 2**64 - 1, 0.25), request_line(9, 0.25, legal, view_text),
                 result_line([1, 2, 3, 4], [3], [3, 2, 1, 0])):
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        json.loads(line)
    request = json.loads(request_line(9, 0.25, legal, view_text))
    assert request["view"] == json.loads(view_text)
    assert request["legal_moves"] == legal
    assert tm.loads(json.dumps(request["view"])) == state.view(1)


def test_match_move_is_exact_or_up_to_case_spaces_and_symbol_order() -> None:
    state = tm.new_game(num_players=3, seed=1)
    legal = state.legal_moves()
    texts = [str(m) for m in legal]
    for move, text in zip(legal, texts, strict=True):
        assert match_move(text, legal, texts) is move
        words = text.upper().split()
        shuffled = [w.split(":")[0] + ":" + "+".join(reversed(w.split(":")[1].split("+")))
                    if ":" in w else w for w in words]
        assert match_move("  " + "   ".join(shuffled) + " ", legal, texts) is move
    for wrong in ["", "palace agra", "play", "x" * 10_000, texts[0] + " extra"]:
        assert match_move(wrong, legal, texts) is None


# ---------------------------------------------------------------- the bot's side


def test_bot_connection_rejects_a_bad_hello_and_answers_without_a_request() -> None:
    connection = BotConnection(input=io.BytesIO(b'{"type": "request"}\n'), output=io.BytesIO())
    with pytest.raises(MessageError, match="expected 'hello'"):
        connection.handshake()
    with pytest.raises(MessageError, match="no request to answer"):
        BotConnection(input=io.BytesIO(), output=io.BytesIO()).answer("withdraw")


def test_serve_turns_a_bot_exception_into_an_error_answer() -> None:
    class Broken:
        name = "broken"

        def choose(self, view: tm.PlayerView, legal: object) -> tm.Move:
            raise KeyboardInterrupt("from the bot")

    state = tm.new_game(num_players=3, seed=1)
    legal = [str(m) for m in state.legal_moves()]
    referee = io.BytesIO(hello_line(0, 3, 1, 1.0) + request_line(1, 1.0, legal,
                                                                 tm.dumps(state.view(0))))
    out = io.BytesIO()
    tm.protocol.serve(lambda seed: Broken(), input=referee, output=out)  # type: ignore[arg-type,return-value]
    answer = json.loads(out.getvalue().splitlines()[-1])
    assert answer == {"type": "error", "decision": 1, "message": "KeyboardInterrupt: from the bot"}


# ---------------------------------------------------------------- programs in matches


def test_a_trusted_request_reads_the_referees_views_as_written() -> None:
    from tajmahal.protocol._bot_side import Request

    for players in (3, 4, 5):
        state = tm.new_game(players, seed=players)
        rng = random.Random(players)
        while not state.is_over:
            view = state.view(state.current_player)
            document = json.loads(tm.dumps(view))
            trusted = Request(1, 1.0, (), document, trusted=True).view
            assert trusted == view and tm.dumps(trusted) == tm.dumps(view)
            state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.unchecked_documents("move texts no game has, to check the JSON escapes")
@pytest.mark.parametrize(
    ("decision", "time_limit"), [(1, 1.0), (10**20, 1e-7), (3, 1 / 3), (2, 86400.0), (4, 5)]
)
def test_a_request_line_is_the_json_of_its_message(decision: int, time_limit: float) -> None:
    moves = ["withdraw", 'odd "text" \\ é\n\u2028', "日本"]
    line = request_line(decision, time_limit, moves, '{"seat": 0}')
    head = {"type": "request", "decision": decision, "time_limit": time_limit, "legal_moves": moves}
    expected = json.dumps(head, ensure_ascii=False)[:-1] + ', "view": {"seat": 0}}\n'
    assert line == expected.encode()
    assert json.loads(line) == head | {"view": {"seat": 0}}


def broken_request(decision: int, legal: list[str]) -> bytes:
    """A request line whose view document is cut short (not JSON)."""
    line = request_line(decision, 1.0, legal, "{}")
    return line.replace(b'"view": {}}', b'"view": {"format": "tajmahal/view", "seat": }')


def test_a_trusted_connection_reads_a_view_document_when_the_bot_reads_it() -> None:
    state = tm.new_game(4, seed=3)
    view = state.view(0)
    legal = [str(move) for move in state.legal_moves()]
    lines = hello_line(0, 4, 9, 1.0) + request_line(1, 1.0, legal, tm.dumps(view))
    lines += broken_request(2, legal)
    connection = BotConnection(input=io.BytesIO(lines), output=io.BytesIO(), trust_views=True)
    first, second = connection.next_request(), connection.next_request()
    assert first is not None and second is not None
    assert first.legal_texts == second.legal_texts == tuple(legal)
    assert first.document == json.loads(tm.dumps(view)) and first.view == view
    assert second.legal_moves == tuple(state.legal_moves())  # readable without the view
    with pytest.raises(MessageError, match="the request's view is not JSON"):
        second.document  # noqa: B018  (read: parsed)
    with pytest.raises(MessageError, match="the request's view is not JSON"):
        second.view.seat  # noqa: B018  (read: filled in)


def test_a_trusted_request_whose_view_is_broken_is_a_fault_only_for_a_bot_that_reads_it() -> None:
    state = tm.new_game(3, seed=1)
    legal = [str(move) for move in state.legal_moves()]
    for spec, expected in (("random", "move"), ("greedy", "error")):
        lines = hello_line(0, 3, 9, 1.0) + broken_request(1, legal)
        out = io.BytesIO()
        serve(lambda seed, spec=spec: tm.bots.create(spec, seed=seed), input=io.BytesIO(lines),
              output=out, trust_views=True)  # fmt: skip
        answer = json.loads(out.getvalue().splitlines()[-1])
        assert answer["type"] == expected, answer
        if expected == "move":
            assert answer["move"] in legal


def test_a_trusted_request_checks_what_it_cannot_read_as_written() -> None:
    from helpers import line_components
    from tajmahal.protocol._bot_side import Request

    view = tm.new_game(3, seed=1, components=line_components()).view(1)
    document = json.loads(tm.dumps(view))  # other components: read with every check
    assert Request(1, 1.0, (), document, trusted=True).view == view
    broken = json.loads(tm.dumps(tm.new_game(3, seed=1).view(0))) | {"seat": "0"}
    with pytest.raises(tm.FormatError, match=r"\$\.seat"):
        Request(1, 1.0, (), broken, trusted=True).view.seat  # noqa: B018  (read: filled in)


def test_isolated_bots_play_exactly_as_in_process() -> None:
    for players, seed in [(["random", "greedy", "greedy:enough=5", "random", "greedy"], 11)]:
        inside = tm.play_match(players, seed=seed)
        isolated = tm.play_match(players, seed=seed, isolate=True)
        assert isolated.record == inside.record
        assert (isolated.scores, isolated.ranking, isolated.faults) == (
            inside.scores, inside.ranking, ())


def test_example_python_bot_plays_and_is_deterministic() -> None:
    spec = f"cmd:{sys.executable} {ROOT / 'src' / 'tajmahal' / 'examples' / 'palace_lover.py'}"
    first = tm.play_match([spec, "greedy", "random", "random"], seed=5)
    assert first.faults == ()
    assert first.players[0] == spec
    assert tm.play_match([spec, "greedy", "random", "random"], seed=5).record == first.record


def test_a_program_that_cannot_be_found_is_a_spec_error_before_the_game() -> None:
    with pytest.raises(tm.bots.SpecError, match="no such program on PATH"):
        tm.play_match(["random", "cmd:no-such-bot-program --fast", "random"], seed=1)
    with pytest.raises(tm.bots.SpecError, match="not executable"):
        check_command(tm.bots.parse_spec(f"cmd:{HOSTILE}"))


def test_process_limits_are_checked() -> None:
    for bad in [{"memory_mb": 0}, {"memory_mb": True}, {"decision_timeout": float("nan")},
                {"exit_timeout": -1}, {"start_timeout": 10**9}, {"log_bytes": -1}]:
        with pytest.raises(tm.TajMahalError, match="must be"):
            ProcessLimits(**bad)  # type: ignore[arg-type]


def test_stderr_goes_to_a_per_seat_log_of_bounded_size(tmp_path: Path) -> None:
    limits = ProcessLimits(log_dir=tmp_path, log_bytes=300)
    result = tm.play_match([hostile("crash-mid"), "random", "random"], seed=4,
                           process_limits=limits)
    header, log = (tmp_path / bot_log_name(4, 0)).read_text().split("\n", 1)
    assert re.fullmatch(r"--- [-\d]+ [:\d]+: \S+python\S* \(pid \d+\)", header), header
    assert log.startswith("Traceback") and log.endswith("the size limit was reached]\n")
    assert len(log) < 400
    assert "RuntimeError: boom" in result.faults[0].detail  # the tail is in the fault


def test_a_player_reports_its_start_failure_at_its_first_decision() -> None:
    state = tm.new_game(num_players=3, seed=1)
    player = ProcessPlayer(["/nonexistent/bot"], seat=0, num_players=3, seed=1)
    with pytest.raises(BotProcessError) as first:
        player.choose(state.view(0), state.legal_moves())
    assert first.value.kind is ProcessFault.CRASH
    assert "cannot start '/nonexistent/bot'" in first.value.detail
    with pytest.raises(BotProcessError) as later:
        player.choose(state.view(0), state.legal_moves())
    assert later.value.kind is ProcessFault.UNAVAILABLE
    player.close()


def test_every_process_fault_kind_is_a_referee_fault_kind() -> None:
    assert {k.value for k in ProcessFault} <= {k.value for k in FaultKind}


# ---------------------------------------------------------------- cleanup


def pid_file(tmp_path: Path) -> Path:
    """A file the bot programs may append to (as root, each runs under a user of its own)."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o1777)
    return folder / "pids"


def read_pids(path: Path, count: int, timeout: float = 10.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            pids = [int(p) for p in path.read_text().split()]
            if len(pids) >= count:
                return pids
        time.sleep(0.02)
    raise AssertionError(f"{path}: fewer than {count} pids")


def test_a_process_the_bot_started_is_killed_with_it(tmp_path: Path) -> None:
    pids = pid_file(tmp_path)
    result = tm.play_match([hostile("child-keeps-stdout", pids), "random", "random"], seed=1,
                           time_limit=5)
    assert result.faults[0].kind is FaultKind.CRASH
    assert "exited with status 0" in result.faults[0].detail
    assert wait_gone(read_pids(pids, 2)) == []


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL],
                         ids=lambda s: s.name)
def test_no_bot_process_outlives_an_interrupted_referee(
    tmp_path: Path, how: signal.Signals
) -> None:
    """The referee is stopped while a bot hangs: the bot's processes are gone soon after."""
    pids = pid_file(tmp_path)
    referee = subprocess.Popen(
        [sys.executable, "-m", "tajmahal", "match", hostile("hang", pids), "random", "random",
         "--time-limit", "60", "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    bot = read_pids(pids, 1)
    time.sleep(0.3)  # the bot now hangs on its third request
    referee.send_signal(how)
    _, err = referee.communicate(timeout=30)
    assert "Traceback" not in err
    assert wait_gone(bot) == []


# ---------------------------------------------------------------- isolation keeps the state away


@pytest.fixture
def peeker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plugin of tests/programs/peeking_plugin.py, installed here and in child processes."""
    info = tmp_path / "site" / "peeking_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: peeking-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tajmahal]\npeeker = peeking_plugin\n")
    paths = [str(tmp_path / "site"), str(HOSTILE.parent)]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")]))
    for path in paths:
        monkeypatch.syspath_prepend(path)
    tm.bots.reload()
    yield
    tm.bots.reload()


@pytest.mark.usefixtures("peeker")
def test_an_isolated_plugin_cannot_find_the_game_state(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    inside = tm.play_match(["peeker", "random", "random"], seed=8)
    assert re.search(r"peeker found [1-9]\d* game states", capfd.readouterr().err)
    logs = tmp_path / "logs"
    isolated = tm.play_match(["peeker", "random", "random"], seed=8, isolate=True,
                             process_limits=ProcessLimits(log_dir=logs))
    assert isolated.record == inside.record
    log = (logs / bot_log_name(8, 0)).read_text()
    assert set(re.findall(r"peeker found (\d+) game states", log)) == {"0"}


def test_a_player_dropped_without_close_leaves_no_process() -> None:
    player = ProcessPlayer([sys.executable, "-c", "import time; time.sleep(60)"], seat=0,
                           num_players=3, seed=1)
    assert player.child is not None
    pid = player.child.pid
    del player
    gc.collect()
    assert wait_gone([pid]) == []
