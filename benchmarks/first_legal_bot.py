"""The trivial bot program of benchmarks/protocol.py: always the first legal move (stdlib only)."""

import json
import sys


def main() -> int:
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            out.write('{"type": "ready", "version": 1, "name": "first", "deterministic": true}\n')
        elif kind == "request":
            out.write(json.dumps({"type": "move", "move": message["legal_moves"][0]}) + "\n")
        else:
            continue
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
