"""How bots play, not only how well: hand sizes, cards played, withdrawals (issue 36).

Plays each deal once per cyclic rotation of the seats and prints, per player
spec, the means per game: cards in hand at the start of each visit (summed
over the visits, and per visit), cards played, extra (white or special)
cards, withdrawals without having played (W11), and the score::

    python benchmarks/play_profile.py ismcts ismcts-v2 file:benchmarks/outside_bots.py:FlatMcBot
    python benchmarks/play_profile.py ismcts:level=5 ismcts greedy --deals 3
"""

from __future__ import annotations

import argparse
import collections

import tajmahal as tm


def profile(specs: list[str], deals: int, seed: int) -> dict[str, collections.Counter[str]]:
    stats: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    n = len(specs)
    for deal in range(deals):
        for turn in range(n):
            order = specs[turn:] + specs[:turn]
            bots = [tm.bots.create(spec, seed=deal * 10 + i) for i, spec in enumerate(order)]
            state = tm.new_game(num_players=n, seed=seed + deal)
            visit = -1
            while not state.is_over:
                if state.visit != visit:
                    visit = state.visit
                    for i, spec in enumerate(order):
                        stats[spec]["hand_at_visit_start"] += len(state.view(i).hand)
                        stats[spec]["visits"] += 1
                seat = state.current_player
                assert seat is not None
                view, legal = state.view(seat), state.legal_moves()
                move = bots[seat].choose(view, legal)
                tally = stats[order[seat]]
                if isinstance(move, tm.PlayCards):
                    tally["cards_played"] += 1 + (move.extra is not None)
                    tally["extra_cards"] += move.extra is not None
                elif isinstance(move, tm.Withdraw) and not view.table[seat]:
                    tally["withdrew_without_playing"] += 1
                state = state.apply(move)
            for i, spec in enumerate(order):
                stats[spec]["score"] += state.scores[i]
                stats[spec]["games"] += 1
            for bot in bots:
                close = getattr(bot, "close", None)
                if callable(close):
                    close()
    return stats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", nargs="+", help="3-5 player specs")
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    stats = profile(args.players, args.deals, args.seed)
    keys = ("hand_at_visit_start", "cards_played", "extra_cards", "withdrew_without_playing",
            "score")  # fmt: skip
    print("| player | games | " + " | ".join(keys) + " | hand per visit |")
    print("|---|---:|" + "---:|" * (len(keys) + 1))
    for spec, tally in stats.items():
        games = tally["games"]
        cells = " | ".join(f"{tally[k] / games:.2f}" for k in keys)
        per_visit = tally["hand_at_visit_start"] / tally["visits"]
        print(f"| `{spec}` | {games} | {cells} | {per_visit:.2f} |")


if __name__ == "__main__":
    main()
