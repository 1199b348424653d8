"""docs/protocol.md stays true: its transcript is what a real exchange prints, line for line.

``TAJMAHAL_UPDATE_TRANSCRIPT=1 pytest tests/test_protocol_docs.py`` rewrites the page's
transcript blocks from a fresh run (then read the diff before committing it).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import tajmahal as tm
from tajmahal.protocol import ProcessPlayer, ProcessSeat
from tajmahal.referee import bot_seed

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "protocol.md"
BOT = ROOT / "src" / "tajmahal" / "examples" / "palace_lover.py"
SEED, SEAT = 7, 1
SHOWN_FIRST, SHOWN_LAST = 3, 1  # requests shown in full at the start and at the end


def exchange() -> list[tuple[str, bytes]]:
    """Every line of the example bot's game in seat 1, seed 7, against greedy and random."""
    lines: list[tuple[str, bytes]] = []
    player = ProcessPlayer([sys.executable, str(BOT)], seat=SEAT, num_players=3,
                           seed=bot_seed(SEED, SEAT), time_limit=5.0, transcript=lines)
    result = tm.play_match(["greedy", ProcessSeat(player), "random"], seed=SEED, time_limit=5.0)
    assert result.faults == () and player.clean_exit
    return lines


def transcript(lines: list[tuple[str, bytes]]) -> str:
    """The page's transcript: the handshake, the first and last requests, the result."""
    shown = [f"{direction} {line.decode().rstrip()}" for direction, line in lines]
    head = 2 + 2 * SHOWN_FIRST  # hello, ready, then request/answer pairs
    tail = 2 * SHOWN_LAST + 1  # the last pairs and the result
    skipped = (len(shown) - head - tail) // 2
    return "\n".join(
        [*shown[:head], f"... ({skipped} more requests and answers) ...", *shown[-tail:]]
    )


def first_request(lines: list[tuple[str, bytes]]) -> str:
    """The first request with a line per key, and per key of its view."""
    request = json.loads(lines[2][1])
    view = request.pop("view")
    rows = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in request.items()]
    rows += ['  "view": {', *(f"    {json.dumps(k)}: {json.dumps(v)}," for k, v in view.items())]
    rows[-1] = rows[-1].rstrip(",")
    return "\n".join(["{", *rows, "  }", "}"])


def blocks() -> dict[str, str]:
    """The page's code blocks marked with a comment line ``<!-- NAME -->`` before them."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.findall(r"^<!-- (\w+) -->\n```\w*\n(.*?)^```", text, re.M | re.S)
    return {name: body.rstrip("\n") for name, body in found}


def replace_block(name: str, body: str) -> None:
    text = PAGE.read_text(encoding="utf-8")
    pattern = re.compile(rf"(^<!-- {name} -->\n```\w*\n)(.*?)(^```)", re.M | re.S)
    PAGE.write_text(pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(3), text),
                    encoding="utf-8")


def test_the_transcript_on_the_page_is_a_real_exchange() -> None:
    lines = exchange()
    want = {"transcript": transcript(lines), "first_request": first_request(lines)}
    if os.environ.get("TAJMAHAL_UPDATE_TRANSCRIPT"):
        for name, body in want.items():
            replace_block(name, body)
    shown = blocks()
    for name, body in want.items():
        assert shown.get(name) == body, f"docs/protocol.md: the {name} block is out of date"
