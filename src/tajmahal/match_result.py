"""What a match gives: :class:`MatchResult`, as :func:`tajmahal.play_match` returns it.

A contract below the referee, so that what reads a match's outcome (the
observer hook :func:`tajmahal.hookspecs.tajmahal_match_finished`, tournaments,
the web server) needs no referee to name it.  :mod:`tajmahal.referee` and
``tm.MatchResult`` re-export it.
"""

from __future__ import annotations

import attrs

from tajmahal.faults import Fault
from tajmahal.game import GameRecord

__all__ = ["MatchResult"]


@attrs.frozen(repr=False)
class MatchResult:
    """The outcome of :func:`~tajmahal.play_match`.

    ``scores`` are the game's final scores.  ``ranking`` lists the seats best
    first: seats without faults before seats with faults, each group by score
    (highest first), then by seat.  ``winners`` are the seats ranked first
    with an equal score (a faulty seat wins only if every seat is faulty).
    ``record`` is the game's :class:`~tajmahal.GameRecord`, whose own
    ``winners`` follow the rules alone (G3).

    >>> import tajmahal as tm
    >>> result = tm.play_match(['random', 'random', 'random'], seed=1)
    >>> result.scores, result.ranking, result.winners
    ((29, 49, 43), (1, 2, 0), (1,))
    >>> tm.replay(result.record).scores == result.scores
    True
    """

    players: tuple[str, ...]  #: each seat's player spec as given, or the bot instance's name
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    record: GameRecord
    faults: tuple[Fault, ...]

    def __repr__(self) -> str:
        """A one-line summary (the record's own repr is one line too; it keeps every move).

        >>> import tajmahal as tm
        >>> tm.play_match(['random', 'random', 'random'], seed=1)
        <MatchResult random, random, random: scores (29, 49, 43), ranking (1, 2, 0), winners (1,), 191 moves>
        """  # noqa: E501
        faults = f", {len(self.faults)} faults" if self.faults else ""
        return (
            f"<MatchResult {', '.join(self.players)}: scores {self.scores}, "
            f"ranking {self.ranking}, winners {self.winners}, "
            f"{len(self.record.moves)} moves{faults}>"
        )

    @property
    def faulty_seats(self) -> frozenset[int]:
        """The seats with at least one fault.

        >>> import tajmahal as tm
        >>> class Stubborn:
        ...     name = 'stubborn'
        ...     def choose(self, view, legal_moves):
        ...         return tm.Withdraw()  # even when it must take a card or place a palace
        >>> result = tm.play_match(['random', Stubborn(), 'random'], seed=1)
        >>> result.faulty_seats, result.faults[0].kind, result.ranking[-1]
        (frozenset({1}), <FaultKind.ILLEGAL_MOVE: 'illegal_move'>, 1)
        """
        return frozenset(fault.seat for fault in self.faults)
