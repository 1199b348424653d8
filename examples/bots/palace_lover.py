#!/usr/bin/env python3
"""A bot program in plain Python (standard library only) that speaks the tajmahal bot protocol.

Shows how little a bot program needs: read JSON lines on stdin, answer JSON
lines on stdout.  Its strategy is simple on purpose: when it places a
palace, it prefers a city with a bonus tile (it reads the view document for
that); otherwise it plays a seeded random legal move, but withdraws only
when nothing else is legal or a coin says so.

Run it in a match:  tajmahal match "cmd:python3 examples/bots/palace_lover.py" greedy random
The protocol: docs/protocol.md.
"""

import json
import random
import sys

PROTOCOL_VERSION = 1


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(rng, view, legal_moves):
    palaces = [m for m in legal_moves if m.startswith(("palace ", "crown "))]
    if palaces:
        with_bonus = [m for m in palaces if m.split()[1] in view["bonus_tiles"]]
        return rng.choice(with_bonus or palaces)
    plays = [m for m in legal_moves if m != "withdraw"]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    return "withdraw" if "withdraw" in legal_moves else rng.choice(legal_moves)


def main():
    rng = None
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
