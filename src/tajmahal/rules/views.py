"""PlayerView: what one seat may know (RULES.md §11), computed from public facts and its hand."""

from __future__ import annotations

import attrs

from tajmahal.rules.components import (
    INFLUENCE,
    BonusTile,
    Card,
    Color,
    Commodity,
    Components,
    ProvinceTile,
    Special,
    Symbol,
)
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import COMMODITIES, SPECIALS, tables

__all__ = ["PlayerView", "make_view"]

Palaces = FrozenMap[str, tuple[int | None, int | None]]


@attrs.frozen
class PlayerView:
    """Everything public (I1) plus ``seat``'s own hand (I2), and nothing else (I3, I4).

    Two states that differ only in what ``seat`` may not see give equal views.

    >>> import tajmahal as tm
    >>> view = tm.new_game(num_players=4, seed=7).view(1)
    >>> view.seat, len(view.hand), view.hand_sizes, view.deck_size
    (1, 6, (6, 6, 6, 6), 65)
    """

    components: Components = attrs.field(repr=False)
    seat: int
    num_players: int
    first_player: int
    visit: int  #: 1..12
    province: str  #: id of the province visited now
    province_order: tuple[str, ...]  #: province ids in visiting order (tiles lie face up, S2)
    phase: Phase
    current_player: int | None
    hand: tuple[Card, ...]  #: this seat's hand, in card order
    hand_sizes: tuple[int, ...]
    scores: tuple[int, ...]
    table: tuple[tuple[Card, ...], ...]  #: per seat, cards played this visit (empty once withdrawn)
    withdrawn: tuple[bool, ...]
    visit_colors: tuple[Color | None, ...]
    supply: tuple[Card, ...]
    deck_size: int
    discard: tuple[Card, ...]
    court_influence: frozenset[Symbol]
    court_crown: bool
    court_province_tile: ProvinceTile | None
    palaces: Palaces  #: city id -> (normal palace owner, crown palace owner), every city
    bonus_tiles: FrozenMap[str, BonusTile]  #: city id -> bonus tile still on the board
    province_tiles: tuple[tuple[ProvinceTile, ...], ...]
    commodity_tiles: tuple[tuple[Commodity, ...], ...]  #: per seat, commodity bonus tiles
    influence_tiles: tuple[tuple[Symbol, ...], ...]
    special_holder: FrozenMap[Special, int | None]  #: None: beside the board
    known_cards: tuple[tuple[Card, ...], ...]  #: per seat, cards known from public history
    pending_palaces: int
    pending_crown: bool
    pending_takes: int
    pending_province: bool  #: the withdrawing seat won the province tile, scored after its palaces

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase is Phase.OVER


def make_view(state: GameState, seat: int) -> PlayerView:
    """Build ``seat``'s view of ``state`` (use :meth:`GameState.view`)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        from tajmahal.rules.errors import TajMahalError

        raise TajMahalError(f"seat must be 0..{state.num_players - 1}, got {seat!r}")
    comps = state.components
    t = tables(comps)
    kinds = t.kinds

    def cards(ks: tuple[int, ...]) -> tuple[Card, ...]:
        return tuple(kinds[k] for k in ks)

    board = comps.board
    province_tile = comps.province_tiles[state.visit - 1] if state.court_province_tile else None
    return PlayerView(
        components=comps,
        seat=seat,
        num_players=state.num_players,
        first_player=state.first_player,
        visit=state.visit,
        province=state.province,
        province_order=tuple(board.provinces[p].id for p in state.province_order),
        phase=state.phase,
        current_player=state.current_player,
        hand=cards(state.hands[seat]),
        hand_sizes=tuple(len(h) for h in state.hands),
        scores=state.scores,
        table=tuple(cards(ks) for ks in state.table),
        withdrawn=state.withdrawn,
        visit_colors=state.visit_colors,
        supply=cards(state.supply),
        deck_size=len(state.deck),
        discard=cards(state.discard),
        court_influence=frozenset(
            s for s, here in zip(INFLUENCE, state.court_influence, strict=True) if here
        ),
        court_crown=state.court_crown,
        court_province_tile=province_tile,
        palaces=FrozenMap(
            {
                cid: (_owner(state.normal_palaces[i]), _owner(state.crown_palaces[i]))
                for i, cid in enumerate(t.city_ids)
            }
        ),
        bonus_tiles=FrozenMap(
            {t.city_ids[i]: comps.bonus_tiles[b] for i, b in enumerate(state.bonus) if b >= 0}
        ),
        province_tiles=tuple(
            tuple(comps.province_tiles[n - 1] for n in owned) for owned in state.province_tiles
        ),
        commodity_tiles=tuple(
            tuple(COMMODITIES[t.bonus_commodity[i]] for i in owned)
            for owned in state.commodity_tiles
        ),
        influence_tiles=tuple(
            tuple(s for s, n in zip(INFLUENCE, held, strict=True) for _ in range(n))
            for held in state.influence
        ),
        special_holder=FrozenMap(
            {s: _owner(h) for s, h in zip(SPECIALS, state.special_holder, strict=True)}
        ),
        known_cards=tuple(cards(ks) for ks in state.known),
        pending_palaces=state.pending_palaces,
        pending_crown=state.pending_crown,
        pending_takes=state.pending_takes,
        pending_province=state.pending_province,
    )


def _owner(seat: int) -> int | None:
    return None if seat < 0 else seat
