"""What observers of a match receive (the hooks of :mod:`tajmahal.hookspecs`)."""

from __future__ import annotations

import attrs

from tajmahal.events._model import Decision
from tajmahal.rules.components import Components
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["DecisionMade", "MatchStarted"]


@attrs.frozen
class MatchStarted:
    """A match about to start: who plays which seat, its seed and components.

    >>> import tajmahal as tm
    >>> MatchStarted(('greedy', 'random', 'random'), 7, tm.standard_components()).seed
    7
    """

    players: tuple[str, ...]  #: each seat's player spec (or bot name), seat 0 first
    seed: int
    components: Components = attrs.field(repr=False)


@attrs.frozen
class DecisionMade:
    """One decision of a match, as the referee saw it: who decided, on what, how fast.

    ``view`` is what the deciding seat saw, ``legal_moves`` what it could
    choose from, ``move`` what was played (the referee's fallback move after a
    fault), ``seconds`` how long the seat took, and ``events`` what the move
    caused, public facts only (:func:`tajmahal.events.explain`).

    >>> import tajmahal as tm
    >>> state = tm.new_game(3, seed=1)
    >>> made = DecisionMade(1, 0, state.view(0), state.legal_moves(), tm.Withdraw(), 0.01,
    ...                     tm.events.explain(state, tm.Withdraw()))
    >>> made.seat, str(made.move), made.events.lines()[0]
    (0, 'withdraw', 'seat 0 withdraws without having played')
    """

    number: int  #: 1 for the match's first decision
    seat: int
    view: PlayerView = attrs.field(repr=False)
    legal_moves: tuple[Move, ...] = attrs.field(repr=False)
    move: Move
    seconds: float
    events: Decision = attrs.field(repr=False)
