"""Is my bot better than greedy?  A tournament with ``tm.run_tournament`` and how to read it.

Shows: ``tm.run_tournament`` with player specs (a spec entered twice is two
entrants), balanced seatings and the duplicate format done for you, the table
(wins with ties shared, win rate with its 95% Wilson interval, mean score,
mean rank, openskill rating), the head-to-head shares, and the results file
that ``tajmahal tournament --summary`` reads.

Run it with ``python examples/tournament.py`` (greedy against two random
bots), or name the entrants: ``python examples/tournament.py cautious greedy random``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import tajmahal as tm
from tajmahal.tournament import summarize_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entrants", nargs="*", default=["greedy", "random", "random"])
    parser.add_argument("--games", type=int, default=30,
                        help="a multiple of the block (6 games for 3 seats)")
    args = parser.parse_args()

    out = Path(tempfile.mkdtemp()) / "results.jsonl"
    result = tm.run_tournament(args.entrants, games=args.games, seed=1, out=out, jobs=2)
    print(f"{len(result.games)} games between {', '.join(result.header.names)}\n")
    print(f"{'entrant':<10} {'games':>5} {'wins':>5} {'win rate (95% CI)':>18} "
          f"{'score':>6} {'rank':>5} {'rating':>11}")
    for row in result.table:
        low, high = row.win_ci
        rate = f"{row.win_rate:.0%} ({low:.0%}-{high:.0%})"
        print(f"{row.name:<10} {row.games:>5} {row.wins:>5g} {rate:>18} {row.mean_score:>6.1f} "
              f"{row.mean_rank:>5.2f} {row.rating.mu:>5.1f} ± {row.rating.sigma:.1f}")

    best, second = result.table[0], result.table[1]
    share = result.head_to_head.share(best.name, second.name)
    print(f"\n{best.name} finished ahead of {second.name} in {share:.0%} of their games.")
    if best.win_ci[0] > second.win_ci[1]:
        print(f"Their win-rate intervals do not overlap: {best.name} is better.")
    else:
        print("Their win-rate intervals overlap: play more games before you decide.")
    print(f"\nThe same table from the file alone: {summarize_file(out).table == result.table}")


if __name__ == "__main__":
    main()
