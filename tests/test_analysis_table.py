"""tm.analysis: the table summary, what withdrawing wins, each move's effect, against the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tajmahal as tm
from helpers import mid_game_states
from tajmahal.analysis import (
    city_options,
    display_name,
    effect,
    effects,
    summarize,
    view_legal_moves,
    withdrawal,
)
from tajmahal.rules.components import INFLUENCE
from tajmahal.rules.scoring import final_bonus
from tajmahal.rules.snapshot import Phase
from tajmahal.rules.tables import tables


def _gained(before: tm.GameState, after: tm.GameState, seat: int) -> int:
    """Points ``seat`` scored between two states, without G1's final bonus if the game ended."""
    points = after.scores[seat] - before.scores[seat]
    if after.is_over and not before.is_over:
        kinds = tables(after.components).kind_of
        points -= final_bonus(after.components, [kinds[c] for c in after.hand(seat)])
    return points


def _play_until_table(seed: int, players: int = 4) -> tm.GameState:
    """A state in the play phase with cards on the current seat's table."""
    state = tm.new_game(players, seed)
    rng = random.Random(seed)
    while True:
        seat = state.current_player
        table = state.view(seat).table[seat] if seat is not None else ()
        if state.phase is Phase.PLAY and table and rng.random() < 0.3:
            return state
        plays = [m for m in state.legal_moves() if not isinstance(m, tm.Withdraw)]
        state = state.apply(rng.choice(plays or list(state.legal_moves())))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=mid_game_states())
def test_w1_w11_what_withdrawing_wins_is_what_apply_withdraw_gives(state: tm.GameState) -> None:
    if not state.is_over and state.phase is Phase.PLAY:
        _check_withdrawal(state)


@pytest.mark.parametrize("seed", range(60))
def test_w1_w11_withdrawing_with_cards_on_the_table(seed: int) -> None:
    """Seeded positions where the seat to move has cards on the table (prizes are at stake)."""
    _check_withdrawal(_play_until_table(seed, players=3 + seed % 3))


def _check_withdrawal(state: tm.GameState) -> None:
    """Prizes, palaces owed, the crown, the province tile and the points, then every palace
    choice's points, against the engine."""
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    gain = withdrawal(view)
    assert summarize(view).withdrawals[seat] == gain
    after = state.apply(tm.Withdraw())
    mine = after.view(seat)
    assert gain.draws == (not view.table[seat])
    won_influence = {s for s in gain.prizes if s in INFLUENCE}
    assert set(view.court_influence) - set(mine.court_influence) == won_influence
    assert gain.palaces == len(won_influence)
    assert gain.crown == (view.court_crown and not mine.court_crown)
    for symbol in gain.ties:  # W4: a tie wins this seat nothing; the prize stays in court
        assert symbol not in gain.prizes
        assert symbol not in INFLUENCE or symbol in mine.court_influence
    if gain.ties:
        them = "it" if len(gain.ties) == 1 else "them"
        assert f"does not win {them}" in gain.text and "nobody" not in gain.text
    took_tile = view.court_province_tile is not None and mine.court_province_tile is None
    assert (gain.province_tile is not None) == (took_tile and not gain.draws)
    if gain.exact:
        assert _gained(state, after, seat) == gain.points
        return
    assert mine.pending_palaces == gain.palaces and mine.pending_crown == gain.crown
    assert mine.pending_province == (gain.province_tile is not None)
    rng = random.Random(state.seed)
    while after.current_player == seat and after.phase in (Phase.PALACE, Phase.CROWN):
        options = {o.city: o for o in city_options(after.view(seat))}
        move = rng.choice(after.legal_moves())
        assert isinstance(move, tm.PlacePalace | tm.PlaceCrownPalace)
        assert set(options) == {m.city for m in after.legal_moves()}  # type: ignore[union-attr]
        assert effect(after.view(seat), move).points == options[move.city].points
        before, after = after, after.apply(move)
        assert _gained(before, after, seat) == options[move.city].points


def test_w5_a_palace_choice_lists_bonus_tile_connections_and_points() -> None:
    for seed in range(40):
        state = _play_until_table(seed)
        seat = state.current_player
        assert seat is not None
        gain = withdrawal(state.view(seat))
        if gain.palaces:
            break
    else:
        raise AssertionError("no seed gave a withdrawal that wins a palace")
    after = state.apply(tm.Withdraw())
    options = city_options(after.view(seat))
    assert options and all(o.name == display_name(o.city, state.components) for o in options)
    assert all(o.text.startswith(o.name + ":") and f"+{o.points} in all" in o.text for o in options)
    assert city_options(state.view(seat)) == ()  # not a palace choice


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=mid_game_states(), data=st.data())
def test_i3_a_seats_summary_is_the_same_in_every_world_it_cannot_tell_apart(
    state: tm.GameState, data: st.DataObject
) -> None:
    """Re-deal the hidden cards (view.sample): the summary, the effects and the city options
    stay the same, and the moves listed are the seat's legal moves."""
    seat = data.draw(st.integers(0, state.num_players - 1))
    view = state.view(seat)
    other = view.sample(random.Random(data.draw(st.integers(0, 2**32))))
    theirs = other.view(seat)
    assert summarize(view) == summarize(theirs)
    assert summarize(view).as_dict() == summarize(theirs).as_dict()
    assert effects(view) == effects(theirs)
    assert city_options(view) == city_options(theirs)
    if state.current_player == seat:
        assert view_legal_moves(view) == state.legal_moves()


def test_p1_p7_the_summary_counts_each_seats_cards_and_leaders() -> None:
    state = _play_until_table(3, players=5)
    view = state.view(0)
    table = summarize(view)
    for row in table.seats:
        assert row.cards == view.table[row.seat]
        assert sum(row.totals) == sum(len(c.symbols) for c in row.cards)
    for i, prize in enumerate(table.prizes):
        best = max(row.totals[i] for row in table.seats)
        assert prize.best == best
        assert prize.leaders == tuple(r.seat for r in table.seats if best and r.totals[i] == best)
    lines = table.lines(["you", "greedy", "random", "ismcts", "greedy"])
    assert lines[0].startswith(f"Visit {view.visit}, ")
    withdrawing = sum(1 for w, r in zip(table.withdrawals, table.seats, strict=True)
                      if w is not None and r.cards)  # fmt: skip
    owning = sum(1 for h in table.holdings if h.parts())
    assert len(lines) == 1 + 5 + 6 + withdrawing + owning
    assert lines[1].startswith("seat 0 (you): ")
    assert any(line.startswith("seat 0 (you) withdrawing now wins") for line in lines)
    assert "_" not in " ".join(lines)  # plain names, no ids


def test_holdings_are_what_each_seat_owns_in_its_view() -> None:
    for seed in range(3):
        state = tm.new_game(4, seed)
        rng = random.Random(seed)
        while not state.is_over and state.visit < 5:
            state = state.apply(rng.choice(list(state.legal_moves())))
        view = state.view(1)
        for owned in summarize(view).holdings:
            seat = owned.seat
            assert owned.palaces == sum(1 for o in view.palaces.values() if o[0] == seat)
            assert owned.influence_tiles == view.influence_tiles[seat]
            assert owned.province_tiles == view.province_tiles[seat]
            assert owned.specials == tuple(
                s for s, holder in view.special_holder.items() if holder == seat)
            assert summarize(state.view(0)).holdings[seat] == owned  # public: any seat's view
            data = owned.as_dict()
            assert data["palaces"] == owned.palaces and isinstance(data["text"], list)


def test_p6_playing_the_points_card_says_plus_two() -> None:
    for seed in range(200):
        state = tm.new_game(3, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            for move in state.legal_moves():
                extra = getattr(move, "extra", None)
                if extra is not None and extra.special is tm.Special.POINTS:
                    told = effect(state.view(state.current_player), move)  # type: ignore[arg-type]
                    assert told.points == 2 and "+2 points" in told.text
                    assert state.apply(move).scores[state.current_player] == (  # type: ignore[index]
                        state.scores[state.current_player] + 2  # type: ignore[index]
                    )
                    return
            state = state.apply(rng.choice(state.legal_moves()))
    raise AssertionError("no game offered the points card")


def test_plain_names_for_ids() -> None:
    comps = tm.standard_components()
    assert display_name("dera_ismail_khan", comps) == "Dera Ismail Khan"
    assert display_name(tm.Special.COLOR_CHANGE) == "Color Change"
    assert display_name("grand_mogul") == "Grand Mogul"
    for city in comps.board.cities:
        assert display_name(city.id, comps) == city.name
