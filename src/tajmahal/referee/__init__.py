"""The match layer: one match between bots, judged and recorded.

- :mod:`tajmahal.referee.match`: :func:`play_match` and :class:`MatchResult`
  (how decisions are asked for and judged, time, trust, seeds);
- :mod:`tajmahal.referee.decisions`: :class:`Referee`, the decision step (ask,
  judge, record) that :func:`play_match` and the web server share;
- :mod:`tajmahal.referee.seats`: how a seat is asked (in the referee's thread,
  the match's own thread, or a worker thread; bot programs: :mod:`tajmahal.protocol`);
- :mod:`tajmahal.referee.observers`: what watches the matches (observer hooks);
- :mod:`tajmahal.referee.record_tags`: the tags a match's record keeps.

What a record holds (:mod:`tajmahal.faults`) and what a seat answers
(:mod:`tajmahal.seat_contract`) are contracts below the referee; the names
below are this package's public ones (``Fault`` and ``FaultKind`` re-exported
from :mod:`tajmahal.faults`).  Nothing below the referee imports it, so the
package loads at once.

>>> import tajmahal as tm
>>> tm.referee.play_match is tm.play_match, tm.referee.FaultKind.TIMEOUT.value
(True, 'timeout')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tajmahal._lazy import lazy_names
from tajmahal.faults import Fault, FaultKind
from tajmahal.match_result import MatchResult
from tajmahal.referee.decisions import Referee
from tajmahal.referee.match import bot_log_name, bot_seed, play_match

__all__ = [
    "Fault",
    "FaultKind",
    "MatchResult",
    "Referee",
    "bot_log_name",
    "bot_seed",
    "play_match",
]

if not TYPE_CHECKING:  # ``tajmahal.referee.faults``, the former home of tajmahal.faults: it
    # loads (and warns) only when code asks for it
    __getattr__, __dir__ = lazy_names(
        __name__, {"faults": "tajmahal.referee.faults"}, __all__
    )
