"""CPU per play-or-withdraw decision of ``ismcts``: the tree against the flat search (issue 36).

Every third play decision with a choice in six ``greedy`` games (3 seats, seeds 0-5),
searched at the default budget by the tree (``flat=off``) and by the flat search at
``FLAT_SHARE`` and at 1.0 of the budget::

    PYTHONPATH=build/compiled python benchmarks/flat_cost.py
"""

from __future__ import annotations

import time

import tajmahal as tm
from tajmahal.bots import _ismcts_search, ismcts
from tajmahal.rules.state import GameState


def play_decisions() -> list[GameState]:
    greedy = tm.bots.create("greedy")
    found: list[GameState] = []
    for seed in range(6):
        state = tm.new_game(3, seed=seed)
        while not state.is_over:
            if state.phase is tm.Phase.PLAY and len(state.legal_moves()) > 1:
                found.append(state)
            seat = state.current_player
            assert seat is not None
            state = state.apply(greedy.choose(state.view(seat), state.legal_moves()))
    return found[::3]


def main() -> None:
    states = play_decisions()
    shipped = _ismcts_search.FLAT_SHARE
    for flat, share in (("off", shipped), ("play", shipped), ("play", 1.0)):
        _ismcts_search.FLAT_SHARE = share
        bot = ismcts.IsmctsBot(seed=1, flat=flat)
        began, runs = time.process_time(), 0
        for state in states:
            seat = state.current_player
            assert seat is not None
            bot.choose(state.view(seat), state.legal_moves())
            runs += bot.last_iterations
        cpu = (time.process_time() - began) / len(states)
        what = "tree" if flat == "off" else f"flat at {share:g} of the budget"
        print(f"{what:28} {len(states)} decisions: {cpu:.4f} CPU s each, "
              f"{runs / len(states):.0f} iterations or simulations")  # fmt: skip
    _ismcts_search.FLAT_SHARE = shipped


if __name__ == "__main__":
    main()
