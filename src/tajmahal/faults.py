"""Faults: what a bot did wrong in one decision, as the referee records it.

A contract below the referee: game records (:mod:`tajmahal.game`), their JSON
(:mod:`tajmahal.serialize`) and the seats' answers (:mod:`tajmahal.seat_contract`)
carry faults without loading the referee.  Every text here is bounded in size
and made by the library (foreign objects are described by their type name
only), so a fault is safe to print, store and compare.
"""

from __future__ import annotations

import enum

import attrs

__all__ = ["MAX_DETAIL", "MAX_SECONDS", "MAX_TRACEBACK", "Fault", "FaultKind"]

MAX_DETAIL = 500  #: the most characters of a fault's ``detail``
MAX_TRACEBACK = 4000  #: the most characters of a fault's ``traceback``
MAX_SECONDS = 86_400.0  #: the longest time limit or game clock, and the longest decision (a day)


class FaultKind(enum.Enum):
    """What a bot did wrong in one decision.

    >>> [kind.value for kind in FaultKind]
    ['exception', 'illegal_move', 'timeout', 'unavailable', 'handshake', 'protocol', 'crash']
    """

    EXCEPTION = "exception"  #: ``choose`` (or building the bot) raised
    ILLEGAL_MOVE = "illegal_move"  #: ``choose`` returned something not in ``legal_moves``
    TIMEOUT = "timeout"  #: the time limit or the seat's game clock ran out
    UNAVAILABLE = "unavailable"  #: the seat had no bot to ask (it could not be built or started)
    # bot programs only (cmd: specs, isolate=True): see tajmahal.protocol.ProcessFault
    HANDSHAKE = "handshake"  #: no valid ``ready`` answer to ``hello`` in time
    PROTOCOL = "protocol"  #: output that is not the expected message
    CRASH = "crash"  #: the program ended (or could not be started)


@attrs.frozen
class Fault:
    """One faulty decision: the seat, the decision's number in the record (1-based), what happened.

    The move the record holds for decision ``decision`` is the fallback move.
    Decision 0 is building the bot, before the game's first move.
    ``traceback`` holds the last frames of a bot's exception (bounded), or is empty.

    >>> str(Fault(seat=2, decision=14, kind=FaultKind.TIMEOUT, detail='took 1.20 s'))
    'seat 2, decision 14: timeout: took 1.20 s'
    """

    seat: int
    decision: int
    kind: FaultKind
    detail: str
    traceback: str = attrs.field(default="", repr=False)

    def __str__(self) -> str:
        return f"seat {self.seat}, decision {self.decision}: {self.kind.value}: {self.detail}"
