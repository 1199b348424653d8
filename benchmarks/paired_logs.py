"""Two strength runs on the same deals, compared deal by deal (issue 51's screens).

Each ``--log`` of :mod:`strength` holds one JSON line per deal, in the order of the
deals' seeds.  Two runs made with the same ``--seed`` and a different candidate against
the same field are paired by that order: per deal, (candidate − ``against``) in the
first log minus the same in the second, with a 95% normal interval over the deals::

    python benchmarks/paired_logs.py halving.jsonl flat56.jsonl \\
        --against file:benchmarks/outside_bots.py:FlatMcBot:samples=14

``--against`` names the common opponent (a spec present in both runs); the deals both
logs finished are compared.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence


def margins(path: str, against: str) -> list[float]:
    """Per deal of the log: the candidate's mean score minus ``against``'s."""
    out = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            data = json.loads(line)
            specs, tallies = data["specs"], data["tallies"]
            if against not in specs[1:]:
                raise SystemExit(f"{path}:{number}: {against!r} is not an opponent there")
            mine = tallies[0]["score"] / tallies[0]["games"]
            pairs = zip(specs, tallies, strict=True)
            theirs = [t["score"] / t["games"] for s, t in pairs if s == against]
            out.append(mine - sum(theirs) / len(theirs))
    return out


def interval(diffs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% normal interval.

    >>> [round(x, 2) for x in interval([1.0, 2.0, 3.0])]
    [2.0, 0.87, 3.13]
    """
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="a strength.py --log file")
    parser.add_argument("second", help="another, made with the same --seed")
    parser.add_argument("--against", required=True, help="the opponent both runs share")
    args = parser.parse_args(argv)
    first, second = margins(args.first, args.against), margins(args.second, args.against)
    deals = min(len(first), len(second))
    if deals == 0:
        print("no deal in both logs", file=sys.stderr)
        return 1
    for name, values in ((args.first, first[:deals]), (args.second, second[:deals])):
        mean, low, high = interval(values)
        print(f"{name}: candidate − against {mean:+.1f} ({low:+.1f} to {high:+.1f})")
    paired = [a - b for a, b in zip(first[:deals], second[:deals], strict=True)]
    mean, low, high = interval(paired)
    print(
        f"first − second, paired by deal over {deals} deals: "
        f"{mean:+.1f} ({low:+.1f} to {high:+.1f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
