#!/usr/bin/env python3
"""A bot program in plain Python (standard library only) that speaks the tajmahal bot protocol.

Shows how little a bot program needs: read JSON lines on stdin, answer JSON
lines on stdout.  Its strategy is simple on purpose: when it places a
palace, it prefers a city with a bonus tile (it reads the view document for
that); otherwise it plays a seeded random legal move, but withdraws only
when nothing else is legal or a coin says so.

It comes with the library (``tajmahal.examples``) but does not import it. Run it in a match,
with the Python where tajmahal is installed (an activated virtual environment)::

    tajmahal match "cmd:python3 -m tajmahal.examples.palace_lover" greedy random

or copy this file and run it as ``cmd:python3 palace_lover.py``.  The protocol: docs/protocol.md.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

PROTOCOL_VERSION = 1


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(rng: random.Random, view: dict[str, Any], legal_moves: list[str]) -> str:
    palaces = [m for m in legal_moves if m.startswith(("palace ", "crown "))]
    if palaces:
        with_bonus = [m for m in palaces if m.split()[1] in view["bonus_tiles"]]
        return rng.choice(with_bonus or palaces)
    plays = [m for m in legal_moves if m != "withdraw"]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    return "withdraw" if "withdraw" in legal_moves else rng.choice(legal_moves)


def main() -> int:
    rng = random.Random()  # seeded by hello
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message["version"] != PROTOCOL_VERSION:
                print(f"I speak version {PROTOCOL_VERSION} only", file=sys.stderr)
                return 1
            rng = random.Random(message["seed"])
            send({"type": "ready", "version": PROTOCOL_VERSION, "name": "palace_lover",
                  "deterministic": True})
        elif kind == "request":
            move = choose(rng, message["view"], message["legal_moves"])
            send({"type": "move", "decision": message["decision"], "move": move})
        elif kind == "result":
            seat = message["ranking"]  # the ranking lists the seats, best first
            print(f"game over: scores {message['scores']}, ranking {seat}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
