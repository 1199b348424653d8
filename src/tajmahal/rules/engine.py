"""Setting up a game (S1–S10); the engine's entry points.

:func:`new_game` deals the first state; :func:`legal_moves` and :func:`apply`
(from :mod:`tajmahal.rules.legal` and :mod:`tajmahal.rules.transitions`) carry
out every other rule of docs/rules.md.  ``GameState.legal_moves`` and
``GameState.apply`` call them.
"""

from __future__ import annotations

from tajmahal.rules.components import INFLUENCE, Components, standard_components
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.legal import legal_moves
from tajmahal.rules.setup import place_tiles, seeded_rng
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import SPECIALS, tables
from tajmahal.rules.transitions import apply

__all__ = ["HAND_SIZE", "MAX_PLAYERS", "MIN_PLAYERS", "apply", "legal_moves", "new_game"]

MIN_PLAYERS, MAX_PLAYERS = 3, 5
HAND_SIZE = 6  # S6


def new_game(
    num_players: int,
    seed: int,
    components: Components | None = None,
    first_player: int = 0,
) -> GameState:
    """Set up a game (S1–S10) for 3–5 players from a seed.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=42)
    >>> [len(state.hand(seat)) for seat in range(3)], len(state.supply)
    ([6, 6, 6], 5)
    """
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise TajMahalError(f"num_players must be an int from 3 to 5, got {num_players!r}")
    if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise TajMahalError(f"Taj Mahal is for 3, 4 or 5 players, not {num_players}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TajMahalError(f"seed must be an int, got {seed!r}")
    if (
        isinstance(first_player, bool)
        or not isinstance(first_player, int)
        or not (0 <= first_player < num_players)
    ):
        raise TajMahalError(
            f"first_player must be a seat from 0 to {num_players - 1}, got {first_player!r}"
        )
    comps = components if components is not None else standard_components()
    if not isinstance(comps, Components):
        raise TajMahalError(f"components must be a tajmahal.Components, got {type(comps).__name__}")
    t = tables(comps)
    placement = place_tiles(comps, seed)
    bonus = [-1] * len(t.city_ids)
    for city, tile in placement.bonus:
        bonus[t.city_of[city]] = comps.bonus_tiles.index(tile)
    deck = list(t.deck)
    seeded_rng(seed, "deck").shuffle(deck)
    needed = num_players * HAND_SIZE + 2 * num_players - 1
    if len(deck) < needed:
        raise TajMahalError(f"the deck has {len(deck)} cards; {num_players} players need {needed}")
    hands = []
    for _ in range(num_players):
        hands.append(tuple(sorted(deck[-HAND_SIZE:])))
        del deck[-HAND_SIZE:]
    supply = tuple(sorted(deck[-(2 * num_players - 1) :]))
    del deck[-(2 * num_players - 1) :]
    n = num_players
    return GameState(
        components=comps,
        seed=seed,
        num_players=n,
        first_player=first_player,
        visit=1,
        phase=Phase.PLAY,
        current_player=first_player,
        hands=tuple(hands),
        table=((),) * n,
        withdrawn=(False,) * n,
        visit_colors=(None,) * n,
        supply=supply,
        deck=tuple(deck),
        discard=(),
        reshuffles=0,
        scores=(0,) * n,
        province_order=tuple(t.province_of[p] for p in placement.province_order),
        normal_palaces=(-1,) * len(t.city_ids),
        crown_palaces=(-1,) * len(t.city_ids),
        bonus=tuple(bonus),
        court_influence=(True,) * len(INFLUENCE),
        court_crown=True,
        court_province_tile=True,
        province_tiles=((),) * n,
        commodity_tiles=((),) * n,
        influence=((0,) * len(INFLUENCE),) * n,
        special_holder=(-1,) * len(SPECIALS),
        known=((),) * n,
    )
