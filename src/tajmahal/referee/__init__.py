"""The match layer: one match between bots, judged and recorded.

- :mod:`tajmahal.referee.match`: :func:`play_match` and :class:`MatchResult`
  (how decisions are asked for and judged, time, trust, seeds);
- :mod:`tajmahal.referee.seats`: how a seat is asked (in the referee's thread,
  the match's own thread, or a worker thread; bot programs: :mod:`tajmahal.protocol`);
- :mod:`tajmahal.referee.faults`: what a bot did wrong, as records keep it;
- :mod:`tajmahal.referee.observers`: what watches the matches (observer hooks);
- :mod:`tajmahal.referee.record_tags`: the tags a match's record keeps.

The names below are this package's public ones.  :mod:`~tajmahal.referee.faults`
loads with the package; the rest loads on first use, so that game records
(:mod:`tajmahal.game`), which carry faults, need not load the referee.

>>> import tajmahal as tm
>>> tm.referee.play_match is tm.play_match, tm.referee.FaultKind.TIMEOUT.value
(True, 'timeout')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tajmahal._lazy import lazy_names
from tajmahal.referee.faults import Fault, FaultKind

if TYPE_CHECKING:  # for type checkers and IDEs: these load on first use (below)
    from tajmahal.referee.match import MatchResult, bot_log_name, bot_seed, play_match

__all__ = ["Fault", "FaultKind", "MatchResult", "bot_log_name", "bot_seed", "play_match"]

_MATCH = "tajmahal.referee.match"
if not TYPE_CHECKING:  # hidden from type checkers, which see the imports above
    __getattr__, __dir__ = lazy_names(
        __name__,
        dict.fromkeys(["MatchResult", "bot_log_name", "bot_seed", "play_match"], _MATCH),
        __all__,
    )
