"""A seeded three-player game played by hand through the API.

Shows: starting a game from a seed, reading a seat's view (hand, supply,
court), listing the legal moves, making moves given in the move notation
(``Game.push_text``), winning prizes and placing palaces, undoing with
``tm.Game``, saving a state and the game record as JSON and loading them
back (``tm.dumps``/``tm.loads``), and finishing the game with a simple rule
of thumb, then the final scores and a replay of the record.

Run it with ``python examples/play_by_hand.py``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import tajmahal as tm

# The first visit of seed 42, move by move (the same game as tutorial 1).
FIRST_VISIT = [
    "play yellow:general+princess",  # seat 0 opens: its color is yellow this visit
    "play red:elephant+elephant white:elephant",  # seat 1: three elephants
    "withdraw",  # seat 2 withdraws without playing: it draws a card ...
    "take green:vizier+general",  # ... and takes two supply cards
    "take green:monk+princess",
    "withdraw",  # seat 0 wins general and princess: two palaces to place
    "palace thatta",  # the fortress, with a "+1 card" bonus tile
    "palace sehwan",
    "take red:elephant+monk",
    "take yellow:elephant+monk",
    "withdraw",  # seat 1, last in, wins the province tile with its elephants
    "take violet:elephant+elephant",
]


def show(state: tm.GameState, seat: int) -> None:
    """Print what ``seat`` sees: its hand, the supply and the prizes in the court."""
    view = state.view(seat)
    print(f"  seat {seat}'s hand: {', '.join(str(c) for c in view.hand)}")
    print(f"  supply: {', '.join(str(c) for c in view.supply)}")
    court = sorted(s.value for s in view.court_influence)
    print(f"  court: {', '.join(court)}, crown: {view.court_crown}")


def rule_of_thumb(state: tm.GameState) -> tm.Move:
    """Play the first card while holding more than three cards, otherwise withdraw."""
    moves = state.legal_moves()
    seat = state.current_player
    assert seat is not None
    if state.phase is tm.Phase.PLAY and len(state.view(seat).hand) <= 3:
        return tm.Withdraw()
    return moves[0]


def main() -> None:
    game = tm.Game.new(num_players=3, seed=42)
    state = game.state
    print(f"New game: {state!r}")
    print(f"Visit {state.visit} goes to {state.province}.")
    show(state, 0)
    print("  legal moves:", ", ".join(str(m) for m in state.legal_moves()))

    print("\nThe first visit, by hand:")
    for text in FIRST_VISIT:
        seat = game.state.current_player
        before = game.state.scores
        game.push_text(text)  # IllegalMoveError, listing the legal moves, if it is not legal
        gained = [a - b for a, b in zip(game.state.scores, before, strict=True)]
        points = f"  (+{max(gained)} for seat {gained.index(max(gained))})" if any(gained) else ""
        print(f"  seat {seat}: {text}{points}")
    state = game.state
    print(f"After the visit: {state!r}")
    built = state.view(0).palaces.items()
    palaces = {city: owners for city, owners in built if owners != (None, None)}
    print(f"  palaces (city: normal owner, crown owner): {palaces}")

    print("\nUndo: take back the last two moves, then make them again.")
    undone = [game.pop(), game.pop()]
    print(f"  undone: {', '.join(str(m) for m in undone)}; now {game.state!r}")
    for move in reversed(undone):
        game.push(move)
    assert game.state == state

    print("\nSave and load: the state as JSON, read back.")
    text = tm.dumps(game.state)
    print(f"  {len(text)} characters: {text[:60]}...")
    assert tm.loads(text) == game.state

    print("\nThe rest of the game, by a rule of thumb:")
    while not game.state.is_over:
        visit = game.state.visit
        game.push(rule_of_thumb(game.state))
        if game.state.visit != visit or game.state.is_over:
            print(f"  after visit {visit:2}: scores {list(game.state.scores)}")
    final = game.state
    print(f"\nFinal scores: {list(final.scores)}; winners: {list(final.winners)}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_text(tm.dumps(game.record()), encoding="utf-8")
        record = tm.loads(path.read_text(encoding="utf-8"))
        assert isinstance(record, tm.GameRecord)
    same = tm.replay(record) == final
    print(f"{len(record.moves)} moves saved in the record;", end=" ")
    print(f"replaying it gives the same final state: {same}")


if __name__ == "__main__":
    main()
