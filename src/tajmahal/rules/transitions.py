"""Apply a move: one transition per kind of move, chaining the automatic steps.

:func:`apply` checks the move against the state's legal moves (computed once
per state), then runs one transition that may chain automatic steps: scoring,
discards, draws, reshuffles, the end of a visit and the end of the game.  Each
function names the rules of docs/rules.md it carries out.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tajmahal.rules import scoring
from tajmahal.rules.components import INFLUENCE, BonusKind, Card
from tajmahal.rules.errors import IllegalMoveError
from tajmahal.rules.legal import why_illegal
from tajmahal.rules.moves import (
    MOVE_TYPES,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
    Withdraw,
)
from tajmahal.rules.reshuffles import ordered_pile
from tajmahal.rules.setup import seeded_rng
from tajmahal.rules.snapshot import Phase, copier
from tajmahal.rules.tables import (
    ELEPHANT,
    GRAND_MOGUL,
    INFLUENCE_IDX,
    NO_EXTRA,
    SPECIALS,
    Tables,
    tables,
)

if TYPE_CHECKING:  # annotations only: the state module imports this one
    from tajmahal.rules.state import GameState

__all__ = ["apply"]


def apply(state: GameState, given: object, seat: int | None = None) -> GameState:
    """The state after move ``given`` (use :meth:`GameState.apply`).

    ``given`` is typed ``object``: anything else is refused here with an
    ``IllegalMoveError``, in the compiled build too (whose argument checks would raise
    ``TypeError`` first).
    """
    legal = state._legal  # the cached legal moves (state.legal_moves() without its frame)
    if legal is None:
        legal = state.legal_moves()
    for move in legal:  # usually one of the engine's own move objects: no __eq__ calls
        if move is given:
            break
    else:  # a move built elsewhere: exactly a move class, then the engine's own equal object
        if type(given) not in MOVE_TYPES or given not in legal:
            raise IllegalMoveError(why_illegal(state, given, seat))
        move = legal[legal.index(given)]
    if seat is not None and seat != state.current_player:
        raise IllegalMoveError(why_illegal(state, move, seat))
    t = tables(state.components)
    kind = type(move)
    if kind is PlayCards:
        assert isinstance(move, PlayCards)
        return _play(state, t, move)
    if kind is Withdraw:
        return _withdraw(state, t)
    if kind is PlacePalace:
        assert isinstance(move, PlacePalace)
        return _place_palace(state, t, t.city_of[move.city])
    if kind is PlaceCrownPalace:
        assert isinstance(move, PlaceCrownPalace)
        return _place_crown(state, t, t.city_of[move.city])
    assert isinstance(move, TakeCard)
    return _take(state, t, _kind(t, move.card))


#: the last state class seen and its copy function (snapshot.copier), called directly
_last_copier: tuple[type, Callable[[Any, dict[str, Any]], Any]] | None = None


def _evolve(state: GameState, changes: dict[str, Any]) -> GameState:
    """``snapshot.evolve(state, changes)``, one interpreted frame less in the compiled build."""
    global _last_copier
    last = _last_copier
    if last is None or last[0] is not state.__class__:
        last = _last_copier = (state.__class__, copier(state.__class__))
    new: GameState = last[1](state, changes)
    return new


def _kind(t: Tables, card: Card) -> int:
    """The kind of ``card``: by identity for the cards of the tables, which the engine's own
    moves hold (a Card's hash is Python code), else by equality."""
    kind = t.kind_of_id.get(id(card))
    return t.kind_of[card] if kind is None else kind


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``values[index]`` replaced by ``value``.

    This and the two below build through a list: two new objects, where slices and
    concatenations made up to five.
    """
    out = list(values)
    out[index] = value
    return tuple(out)


def _remove(kinds: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """``kinds`` without one ``kind``."""
    out = list(kinds)
    out.remove(kind)
    return tuple(out)


def _insert(kinds: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """The sorted ``kinds`` with one more ``kind``, still sorted."""
    out = list(kinds)
    out.insert(bisect_left(kinds, kind), kind)  # kinds are sorted
    return tuple(out)


def _next_active(withdrawn: tuple[bool, ...], seat: int) -> int | None:
    """The next seat clockwise after ``seat`` (possibly itself) that has not withdrawn (V2, V5)."""
    n = len(withdrawn)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if not withdrawn[other]:
            return other
    return None


def _play(state: GameState, t: Tables, move: PlayCards) -> GameState:
    """Play cards (P1–P7): onto the table, the visit's color fixed (P2, P4), +2 points (P6)."""
    seat = state.current_player
    assert seat is not None
    colored = _kind(t, move.colored)
    extra = NO_EXTRA if move.extra is None else _kind(t, move.extra)
    played = (colored,) if extra == NO_EXTRA else (colored, extra)
    hand = state.hands[seat]
    known = state.known[seat]
    for k in played:
        hand = _remove(hand, k)
        if k in known:
            known = _remove(known, k)
    changes: dict[str, Any] = {
        "hands": _set(state.hands, seat, hand),
        "table": _set(state.table, seat, state.table[seat] + played),
        "known": _set(state.known, seat, known),
        "current_player": _next_active(state.withdrawn, seat),
    }
    if state.visit_colors[seat] is None and extra != t.color_change:  # P2, P4
        changes["visit_colors"] = _set(state.visit_colors, seat, t.color[colored])
    if extra == t.points:  # P6
        changes["scores"] = _set(state.scores, seat, state.scores[seat] + 2)
    return _evolve(state, changes)


def _withdraw(state: GameState, t: Tables) -> GameState:
    """Withdraw (W1–W11): win the majorities, then palaces (W5), the crown (W7) or finish."""
    seat = state.current_player
    assert seat is not None
    changes: dict[str, Any] = {"withdrawn": _set(state.withdrawn, seat, True)}
    if not state.table[seat]:  # W11: wins nothing, draws on finishing (F3)
        return _finish_withdrawal(_evolve(state, changes), t, seat, draw=True)
    won = scoring.symbols_won(state, seat)
    court = list(state.court_influence)
    palaces = 0
    for i, symbol in enumerate(INFLUENCE_IDX):  # W5 (W3: only prizes still in the court)
        if symbol in won and court[i]:
            court[i] = False
            palaces += 1
    if palaces:
        held = state.influence[seat]
        gained = tuple(h + (court[i] != state.court_influence[i]) for i, h in enumerate(held))
        changes["court_influence"] = tuple(court)
        changes["influence"] = _set(state.influence, seat, gained)
        changes["pending_palaces"] = palaces
    if GRAND_MOGUL in won and state.court_crown:  # W7
        changes["court_crown"] = False
        changes["pending_crown"] = True
    if ELEPHANT in won and state.court_province_tile:  # W9
        changes["court_province_tile"] = False
        changes["pending_province"] = True
    if palaces:
        changes["phase"] = Phase.PALACE
        return _evolve(state, changes)
    if changes.get("pending_crown"):
        changes["phase"] = Phase.CROWN
        return _evolve(state, changes)
    return _finish_withdrawal(_evolve(state, changes), t, seat)


def _place_palace(state: GameState, t: Tables, city: int) -> GameState:
    """Place a normal palace (W5, W6, W8) and score a fortress's bonus tile at once (K1–K4)."""
    seat = state.current_player
    assert seat is not None
    changes: dict[str, Any] = {
        "normal_palaces": _set(state.normal_palaces, city, seat),
        "pending_palaces": state.pending_palaces - 1,
    }
    tile_index = state.bonus[city]
    if tile_index >= 0:  # W6: the fortress's bonus tile, scored at once
        changes["bonus"] = _set(state.bonus, city, -1)
        tile = state.components.bonus_tiles[tile_index]
        if tile.kind is BonusKind.COMMODITY:  # K4
            owned = scoring.owned_commodities(state, seat)
            points = scoring.commodity_points(owned, (t.bonus_commodity[tile_index],))
            changes["scores"] = _set(state.scores, seat, state.scores[seat] + points)
            mine = state.commodity_tiles[seat] + (tile_index,)
            changes["commodity_tiles"] = _set(state.commodity_tiles, seat, mine)
        elif tile.kind is BonusKind.CARD:  # K3
            changes.update(_draw_into_hand(state, seat))
        else:  # K1, K2
            changes["scores"] = _set(state.scores, seat, state.scores[seat] + tile.points)
    if state.pending_palaces > 1:
        return _evolve(state, changes)
    if state.pending_crown:  # W10: the crown palace after the normal ones
        changes["phase"] = Phase.CROWN
        return _evolve(state, changes)
    return _finish_withdrawal(_evolve(state, changes), t, seat)


def _place_crown(state: GameState, t: Tables, city: int) -> GameState:
    """Place the crown palace (W7, W8, W10), then finish the withdrawal."""
    seat = state.current_player
    assert seat is not None
    changes = {"crown_palaces": _set(state.crown_palaces, city, seat), "pending_crown": False}
    return _finish_withdrawal(_evolve(state, changes), t, seat)


def _finish_withdrawal(state: GameState, t: Tables, seat: int, draw: bool = False) -> GameState:
    """Finish a withdrawal (W10): K5, K6–K8, F1, F3, then supply cards (F2) or the turn's end."""
    changes: dict[str, Any] = {"pending_province": False}
    score = state.scores[seat]
    if state.pending_province:  # K5
        owned = scoring.owned_commodities(state, seat)
        score += scoring.commodity_points(owned, t.tile_commodities[state.visit - 1])
        tiles = state.province_tiles[seat] + (state.visit,)
        changes["province_tiles"] = _set(state.province_tiles, seat, tiles)
    score += scoring.connection_points(state, seat)  # K6-K8
    if score != state.scores[seat]:
        changes["scores"] = _set(state.scores, seat, score)
    hand = state.hands[seat]
    discard = state.discard
    for kind in state.table[seat]:  # F1
        if t.special[kind]:
            hand = _insert(hand, kind)
        else:
            discard = _insert(discard, kind)
    if draw:  # W11, F3: the top deck card before the supply cards
        card, deck, discard, reshuffles = _draw(state, state.deck, discard, state.reshuffles)
        changes.update(deck=deck, reshuffles=reshuffles)
        if card is not None:
            hand = _insert(hand, card)
    changes.update(
        hands=_set(state.hands, seat, hand), discard=discard, table=_set(state.table, seat, ())
    )
    takes = min(2, len(state.supply))  # F2
    if takes:
        changes.update(phase=Phase.TAKE, pending_takes=takes, current_player=seat)
        return _evolve(state, changes)
    return _end_turn(state, t, seat, changes)


def _take(state: GameState, t: Tables, kind: int) -> GameState:
    """Take one supply card (F2); after the last one due, the turn ends."""
    seat = state.current_player
    assert seat is not None
    supply = _remove(state.supply, kind)
    changes: dict[str, Any] = {
        "supply": supply,
        "hands": _set(state.hands, seat, _insert(state.hands[seat], kind)),
        "known": _set(state.known, seat, _insert(state.known[seat], kind)),
        "pending_takes": state.pending_takes - 1,
    }
    if state.pending_takes > 1 and supply:
        return _evolve(state, changes)
    changes["pending_takes"] = 0
    return _end_turn(state, t, seat, changes)


def _end_turn(state: GameState, t: Tables, seat: int, changes: dict[str, Any]) -> GameState:
    """End ``seat``'s turn (V2, V5, V6): ``changes`` (not yet applied) plus the next seat."""
    nxt = _next_active(changes.get("withdrawn", state.withdrawn), seat)
    if nxt is None:  # V6
        return _end_visit(_evolve(state, changes), t)
    changes.update(phase=Phase.PLAY, current_player=nxt)
    return _evolve(state, changes)  # one new state, not two


def _draw(
    state: GameState, deck: tuple[int, ...], discard: tuple[int, ...], reshuffles: int
) -> tuple[int | None, tuple[int, ...], tuple[int, ...], int]:
    """Draw the top card; D1: the discard pile becomes the deck as soon as the deck runs out."""
    if not deck:  # it ran out while the discard pile was empty: reshuffle now, if it has cards
        if not discard:
            return None, deck, discard, reshuffles
        deck, discard, reshuffles = _reshuffle(state, discard, reshuffles)
    card, deck = deck[-1], deck[:-1]
    if not deck and discard:  # D1: exhausted, so the discard pile is shuffled at once
        deck, discard, reshuffles = _reshuffle(state, discard, reshuffles)
    return card, deck, discard, reshuffles


def _reshuffle(
    state: GameState, discard: tuple[int, ...], reshuffles: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """D1, S10: the discard pile shuffled from the game's seed is the new deck."""
    ordered = ordered_pile(discard, reshuffles)  # a caller's chance model, if any
    if ordered is not None:
        return ordered, (), reshuffles + 1
    pile = list(discard)
    seeded_rng(state.seed, f"reshuffle/{reshuffles}").shuffle(pile)
    return tuple(pile), (), reshuffles + 1


def _draw_into_hand(state: GameState, seat: int) -> dict[str, Any]:
    """The changes that draw the top card into ``seat``'s hand (K3), reshuffling first (D1)."""
    card, deck, discard, reshuffles = _draw(state, state.deck, state.discard, state.reshuffles)
    changes: dict[str, Any] = {"deck": deck, "discard": discard, "reshuffles": reshuffles}
    if card is not None:
        changes["hands"] = _set(state.hands, seat, _insert(state.hands[seat], card))
    return changes


def _end_visit(state: GameState, t: Tables) -> GameState:
    """End a visit (E1–E6), or the game after the 12th (E7, G1)."""
    n = state.num_players
    current = state.province_order[state.visit - 1]
    bonus = list(state.bonus)
    for city in t.province_cities[current]:  # E1
        bonus[city] = -1
    discard = state.discard
    for kind in state.supply:  # never happens with 2n-1 cards; kept so no card is lost
        discard = _insert(discard, kind)
    hands = list(state.hands)
    influence = list(state.influence)
    holder = list(state.special_holder)
    for seat in range(n):  # E2
        held = list(influence[seat])
        for i, count in enumerate(held):
            if count < 2:
                continue
            held[i] = count - 2
            special = t.earned[i]
            owner = holder[special]
            if owner != seat:
                kind = t.special_kind[SPECIALS[special]]
                if owner >= 0:
                    hands[owner] = _remove(hands[owner], kind)
                hands[seat] = _insert(hands[seat], kind)
                holder[special] = seat
        influence[seat] = tuple(held)
    changes: dict[str, Any] = {
        "bonus": tuple(bonus),
        "hands": tuple(hands),
        "influence": tuple(influence),
        "special_holder": tuple(holder),
        "supply": (),
        "court_province_tile": False,
        "table": ((),) * n,
        "withdrawn": (False,) * n,
        "visit_colors": (None,) * n,
    }
    if state.visit == len(state.province_order):  # E7, G1
        scores = tuple(
            score + scoring.final_bonus(state.components, hands[seat])
            for seat, score in enumerate(state.scores)
        )
        changes.update(discard=discard, scores=scores, phase=Phase.OVER, current_player=None)
        return _evolve(state, changes)
    per_symbol = state.components.influence_tiles_per_symbol
    court = tuple(  # E5: one of each kind, while the supply has one
        per_symbol - sum(held[i] for held in influence) > 0 for i in range(len(INFLUENCE))
    )
    deck, reshuffles = state.deck, state.reshuffles
    supply: list[int] = []
    for _ in range(2 * n - 1):  # E6
        card, deck, discard, reshuffles = _draw(state, deck, discard, reshuffles)
        if card is None:
            break
        supply.append(card)
    visit = state.visit + 1
    changes.update(
        visit=visit,  # E4
        court_influence=court,
        court_crown=True,
        court_province_tile=True,
        supply=tuple(sorted(supply)),
        deck=deck,
        discard=discard,
        reshuffles=reshuffles,
        phase=Phase.PLAY,
        current_player=(state.first_player + visit - 1) % n,  # E3
    )
    return _evolve(state, changes)
