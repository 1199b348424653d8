"""A small tournament: several seeded matches between installed bots, and a summary table.

Shows: ``tm.bots.available()`` (every installed bot, plugins included),
``tm.play_match`` with bot names and seeds, seat rotation so that every bot
plays from every seat, and how to read a ``MatchResult`` (scores, winners,
ranking, faults) to build a league table.

Run it with ``python examples/tournament.py`` (every installed bot), or name
the entrants: ``python examples/tournament.py greedy random --matches 12``.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import tajmahal as tm

SEATS = 4


def lineup(entrants: list[str], match: int) -> list[str]:
    """Fill the seats by cycling through the entrants, starting one further each match."""
    return [entrants[(match + seat) % len(entrants)] for seat in range(SEATS)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", help="bot names (default: every installed bot)")
    parser.add_argument("--matches", type=int, default=8, help="how many matches (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match")
    args = parser.parse_args()
    entrants = args.bots or sorted(tm.bots.available())

    games: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    points: dict[str, int] = defaultdict(int)
    places: dict[str, int] = defaultdict(int)
    faults: dict[str, int] = defaultdict(int)
    print(f"{args.matches} matches of {SEATS} players between: {', '.join(entrants)}\n")
    for match in range(args.matches):
        seed = args.seed + match
        result = tm.play_match(lineup(entrants, match), seed=seed)
        seats = zip(result.players, result.scores, strict=True)
        shown = " | ".join(f"{name} {score}" for name, score in seats)
        print(f"match {match + 1:2} (seed {seed:3}): {shown}")
        for place, seat in enumerate(result.ranking, start=1):
            name = result.players[seat]
            games[name] += 1
            points[name] += result.scores[seat]
            places[name] += place
        for seat in result.winners:  # a shared win counts as a share
            wins[result.players[seat]] += 1 / len(result.winners)
        for fault in result.faults:
            faults[result.players[fault.seat]] += 1

    print(f"\n{'bot':<12} {'games':>5} {'wins':>6} {'win %':>6} {'avg score':>9} "
          f"{'avg place':>9} {'faults':>6}")
    table = sorted(games, key=lambda n: (-wins[n] / games[n], -points[n] / games[n], n))
    for name in table:
        n = games[name]
        print(f"{name:<12} {n:>5} {wins[name]:>6.1f} {100 * wins[name] / n:>6.1f} "
              f"{points[name] / n:>9.1f} {places[name] / n:>9.2f} {faults[name]:>6}")


if __name__ == "__main__":
    main()
