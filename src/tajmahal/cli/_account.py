"""The match account: what each move of a record changed, visit by visit, in words."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence

from tajmahal.events import Decision, EventKind, explain, opening, seat_name
from tajmahal.game import GameRecord, replay_states

__all__ = [
    "account",
    "decision_lines",
    "ranking_line",
    "scores_line",
    "scores_text",
    "who",
    "winners_line",
]


def account(record: GameRecord) -> Iterator[str]:
    """The visit-by-visit account of a record, line by line, ending with the result.

    Every prize, tie, palace, tile and point with its reason (the record's
    public events, :mod:`tajmahal.events`); the cards played and taken are
    left out.  A record of an unfinished game ends with the scores so far.
    Raises :class:`~tajmahal.IllegalMoveError` at the first move that is not legal.

    >>> import tajmahal as tm
    >>> game = tm.Game.new(num_players=3, seed=1, players=['greedy', 'random', 'random'])
    >>> _ = game.push(tm.Withdraw())
    >>> for line in account(game.record()):  # doctest: +ELLIPSIS
    ...     print(line)
    Visit 1: Thatta (province tile 1: rice), seat 0 starts (E3-E5)
      seat 0 (greedy) withdraws without having played
      seat 0 (greedy) draws a card from the deck (W11, F3)
    The record stops during visit 1, after 1 move; scores so far: seat 0 (greedy) 0, ...
    """
    players = record.players
    states = replay_states(record)
    state = next(states)
    yield opening(state)[0].text
    for move, after in zip(record.moves, states, strict=True):
        yield from decision_lines(explain(state, move, after), players)
        state = after
    if not state.is_over:
        moves = len(record.moves)
        yield (
            f"The record stops during visit {state.visit}, after {moves} "
            f"move{'s' if moves != 1 else ''}; scores so far: {scores_text(state.scores, players)}"
        )
        return
    yield scores_line(state.scores, players)
    yield winners_line(state.winners, players, state.scores)


def decision_lines(
    decision: Decision, players: Sequence[str] = (), *, quiet: bool = True
) -> Iterator[str]:
    """The account's lines for one decision: its events, by default (``quiet``) without the
    cards played and taken and the new supply.

    Scoring events end with the seat's new total; a new visit's heading is not indented.
    """
    totals = list(decision.scores)
    for event in decision.events:
        if event.seat is not None:
            totals[event.seat] -= event.points
    for event in decision.events:
        if quiet and event.kind in _QUIET:
            continue
        if event.kind is EventKind.VISIT_START:
            yield event.text
            continue
        line = f"  {event.sentence(players)}"
        if event.seat is not None and event.points:
            totals[event.seat] += event.points
            line += f"; total {totals[event.seat]}"
        yield line


_QUIET = frozenset(
    {EventKind.PLAY, EventKind.TAKE, EventKind.SUPPLY, EventKind.VISIT_END, EventKind.GAME_END}
)  # what the account leaves out; the terminal game shows everything


def who(seat: int, players: Sequence[str]) -> str:
    return seat_name(seat, players)


def scores_text(scores: Sequence[int], players: Sequence[str]) -> str:
    return ", ".join(f"{who(s, players)} {v}" for s, v in enumerate(scores))


def scores_line(scores: Sequence[int], players: Sequence[str]) -> str:
    return "Final scores: " + scores_text(scores, players)


def winners_line(winners: Sequence[int], players: Sequence[str], scores: Sequence[int] = ()) -> str:
    """``Winner: seat 1 (greedy)``, or ``Winners (tied at 58): ...`` when the best seats tie."""
    names = ", ".join(who(s, players) for s in winners)
    if len(winners) == 1:
        return f"Winner: {names}"
    tied = f" (tied at {scores[winners[0]]})" if scores else " (tied)"
    return f"Winners{tied}: {names}"


def ranking_line(
    ranking: Sequence[int],
    scores: Sequence[int],
    players: Sequence[str],
    faulted: Collection[int] = (),
) -> str:
    """Places best first; seats that share a place (equal score, both with or without
    faults) are marked ``=``: ``Ranking: 1= seat 0 (a) 50, 1= seat 2 (c) 50, 3 seat 1 (b) 41``.
    """

    def key(seat: int) -> tuple[int, bool]:
        return scores[seat], seat in faulted

    keys = [key(seat) for seat in ranking]
    places = [
        f"{keys.index(k) + 1}{'=' if keys.count(k) > 1 else ''} {who(seat, players)} {scores[seat]}"
        for seat, k in zip(ranking, keys, strict=True)
    ]
    return "Ranking: " + ", ".join(places)
