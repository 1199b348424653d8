"""What each decision caused, as data: the narration for the CLI, the terminal game and the viewer.

One decision (a move) can set off a chain of things inside
:meth:`GameState.apply`: prizes won on withdrawing, palaces and bonus tiles,
points scored for several reasons, cards drawn, a reshuffle, special cards
changing hands at the end of a visit, final scoring.  :func:`explain` turns
one move and the states around it into a :class:`Decision`: the move and a
tuple of :class:`Event` values, each with its plain-words text, its rule IDs
(see ``docs/rules.md``) and the points it scored.

Events are built from two :class:`PlayerView` values (before and after the
move) and the move, never from the full states: they can only tell what the
audience seat may see.  Events prepared for a seat show the cards that seat
drew; prepared for nobody (``audience=None``, the public account) they show
no hidden card at all.  The points of a decision's events add up to the
change in every seat's score.
"""

from __future__ import annotations

from collections.abc import Iterator

from tajmahal.events._model import Decision, Event, EventKind, seat_name
from tajmahal.events._narrator import Narrator, visit_start
from tajmahal.events._observed import DecisionMade, MatchStarted
from tajmahal.game import Game, GameRecord
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView

__all__ = [
    "Decision",
    "DecisionMade",
    "Event",
    "EventKind",
    "MatchStarted",
    "decisions",
    "explain",
    "explain_views",
    "opening",
    "seat_name",
]


def explain(
    before: GameState,
    move: Move,
    after: GameState | None = None,
    *,
    audience: int | None = None,
) -> Decision:
    """What ``move`` in ``before`` caused, as ``audience`` may know it (None: public facts only).

    ``after`` is ``before.apply(move)``, computed when not given.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> [e.card is not None for e in explain(state, tm.Withdraw(), audience=0).events]
    [False, True]
    """
    seat = before.current_player
    if seat is None:
        raise TajMahalError("the game is over: no move can be explained")
    if after is None:
        after = before.apply(move)
    looker = seat if audience is None else audience
    return explain_views(
        before.view(looker), move, after.view(looker), private=audience is not None
    )


def explain_views(
    before: PlayerView, move: Move, after: PlayerView, *, private: bool = True
) -> Decision:
    """:func:`explain` from one seat's views before and after the move.

    With ``private=False`` the views' hands are never looked at (public facts
    only), whichever seat they belong to.

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> decision = explain_views(state.view(2), tm.Withdraw(), state.apply(tm.Withdraw()).view(2))
    >>> decision.events[1].card is None  # seat 0 drew it, seat 2 cannot see which card
    True
    """
    seat = before.current_player
    if seat is None:
        raise TajMahalError("the game is over: no move can be explained")
    narrator = Narrator(before, after, seat, private)
    narrator.run(move)
    return Decision(seat, move, tuple(narrator.events), after.scores, before.visit)


def decisions(record: GameRecord, *, audience: int | None = None) -> Iterator[Decision]:
    """The decisions of a record, in order, as ``audience`` may know them.

    Raises :class:`~tajmahal.IllegalMoveError` for a record that does not replay.

    >>> import tajmahal as tm
    >>> record = tm.play_match(['random', 'random', 'random'], seed=3).record
    >>> steps = list(decisions(record))
    >>> len(steps) == len(record.moves), steps[-1].events[-1].kind
    (True, <EventKind.GAME_END: 'game_end'>)
    """
    states = Game.from_record(record).states
    for before, move, after in zip(states, record.moves, states[1:], strict=False):
        yield explain(before, move, after, audience=audience)


def opening(view: GameState | PlayerView) -> tuple[Event, ...]:
    """The events that set the scene of the current visit: its province, tile and supply.

    >>> import tajmahal as tm
    >>> print(opening(tm.new_game(num_players=3, seed=1))[0].text)
    Visit 1: Thatta (province tile 1: rice), seat 0 starts (E3-E5)
    """
    if isinstance(view, GameState):
        view = view.view(view.current_player or 0)
    return visit_start(view)
