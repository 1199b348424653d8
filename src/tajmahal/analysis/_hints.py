"""Hints with reasons: a bot's move, its immediate effect, and a search bot's estimates."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from tajmahal.analysis._effects import MoveEffect, effect, view_legal_moves
from tajmahal.bots.base import Bot
from tajmahal.names import move_name
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["Estimate", "Hint", "hint", "search_estimates"]

#: how many of a search bot's moves a hint names
SHOWN = 3


@attrs.frozen
class Estimate:
    """A search bot's rating of one move: its mean reward (0..1) over ``visits`` searches."""

    move: Move
    name: str  #: the move in plain words
    value: float  #: 0..1, the bot's estimated chance of beating the best rival after the move
    visits: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        move, name, value, visits = str(self.move), self.name, self.value, self.visits
        return {"move": move, "name": name, "value": value, "visits": visits}


@attrs.frozen
class Hint:
    """A bot's advice for one decision, with its reasons."""

    bot: str  #: the bot's name
    move: Move
    effect: MoveEffect  #: what the move does at once
    estimates: tuple[Estimate, ...]  #: a search bot's best few moves, best first (else empty)

    @property
    def text(self) -> str:
        """One line: ``'withdraw: wins the vizier, +5 points; ismcts 61% vs 48% for ...'``."""
        line = str(self.effect)
        if self.estimates:
            mine = next((e for e in self.estimates if e.move == self.move), None)
            others = [e for e in self.estimates if e.move != self.move]
            if mine is not None:
                line += f"; {self.bot} {mine.value:.0%}"
                if others:
                    line += " vs " + ", ".join(f"{e.value:.0%} for {e.name}" for e in others)
        return line

    def __str__(self) -> str:
        return self.text

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (for apps)."""
        return {
            "bot": self.bot,
            "move": str(self.move),
            "effect": self.effect.as_dict(),
            "estimates": [e.as_dict() for e in self.estimates],
            "text": self.text,
        }


def search_estimates(bot: Bot, view: PlayerView, shown: int = SHOWN) -> tuple[Estimate, ...]:
    """The best ``shown`` moves of ``bot``'s last search, if it reports them.

    A bot reports its search through ``last_statistics``: a sequence of
    ``(move, visits, value)``, most trusted first, as the ``ismcts`` bot keeps.
    """
    stats = getattr(bot, "last_statistics", ())
    out = []
    for item in list(stats)[:shown]:
        move, visits, value = item
        out.append(Estimate(move, move_name(move, view.components), float(value), int(visits)))
    return tuple(out)


def hint(bot: Bot, view: PlayerView, legal_moves: Sequence[Move] | None = None) -> Hint:
    """Ask ``bot`` for its move in ``view`` and explain it.

    ``legal_moves`` defaults to the seat's legal moves (it must be the seat's
    turn).  With the ``ismcts`` bot the hint also names the bot's estimates
    of its best few moves.  The same bot and seed give the same hint.

    >>> import tajmahal as tm
    >>> from tajmahal.bots.ismcts import IsmctsBot
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> advice = hint(IsmctsBot(seed=1, iterations=60), state.view(0))
    >>> advice.move in state.legal_moves(), len(advice.estimates) > 1
    (True, True)
    """
    moves = tuple(legal_moves) if legal_moves is not None else view_legal_moves(view)
    if not moves:
        raise TajMahalError(f"no hint: it is not seat {view.seat}'s turn")
    move = bot.choose(view, moves)
    if move not in moves:
        raise TajMahalError(f"no hint: {bot.name} chose {move}, which is not a legal move")
    return Hint(bot.name, move, effect(view, move), search_estimates(bot, view))
