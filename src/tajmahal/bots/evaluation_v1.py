"""The first release's position evaluation, frozen for ``ismcts-v1`` (do not change it).

A copy of the hand-set estimate the first release's ``ismcts`` used: each
seat's score, plus ``CARD_VALUE`` per card in hand (at most ``HAND_CAP``),
the end-of-game hand (G1) only over the last ``G1_HORIZON`` visits, the
special cards and unpaired influence tiles by visits left; the reward is the
margin over the best rival through a logistic of fixed width ``FIXED_SCALE``
(which saturates when one seat leads).  The current evaluation is
:mod:`tajmahal.bots.evaluation`.
"""

from __future__ import annotations

import math

from tajmahal.rules.components import Special
from tajmahal.rules.playout import OVER, Playout
from tajmahal.rules.tables import SPECIALS

__all__ = ["FIXED_SCALE", "estimated_scores_v1", "evaluate_v1"]

CARD_VALUE = 0.4
HAND_CAP = 10
G1_HORIZON = 4.0
POINTS_CARD_PER_VISIT = 1.5
SPECIAL_PER_VISIT = 0.4
FIXED_SCALE = 3.0  #: the first release's reward scale
_POINTS = SPECIALS.index(Special.POINTS)


def estimated_scores_v1(game: Playout) -> list[float]:
    """Each seat's estimated final score, as the first release estimated it.

    >>> import tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> [round(v, 1) for v in estimated_scores_v1(game)]  # no points yet; six cards each
    [2.4, 2.4, 2.4]
    """
    if game.phase == OVER:
        return [float(s) for s in game.scores]
    t = game.tables
    left = len(game.province_order) - game.visit + 1
    card = CARD_VALUE if left else 0.0
    end = max(0.0, 1.0 - left / G1_HORIZON)  # G1 counts fully only near the end
    special, white, color = t.special, t.white, t.color
    out = []
    for seat, hand in enumerate(game.hands):
        value = float(game.scores[seat]) + card * min(len(hand), HAND_CAP)
        bonus = 0
        suits: dict[object, int] = {}
        for kind in hand:
            if special[kind] or white[kind]:
                bonus += 1
            else:
                suits[color[kind]] = suits.get(color[kind], 0) + 1
        value += end * (bonus + max(suits.values(), default=0))  # G1
        for index, holder in enumerate(game.holder):
            if holder == seat:
                value += (POINTS_CARD_PER_VISIT if index == _POINTS else SPECIAL_PER_VISIT) * left
        unpaired = sum(count % 2 for count in game.influence[seat])
        value += unpaired * 0.5 * (1.0 + SPECIAL_PER_VISIT * left)
        out.append(value)
    return out


def evaluate_v1(game: Playout, scale: float = FIXED_SCALE) -> list[float]:
    """The first release's reward: the logistic of each seat's estimated margin at ``scale``.

    >>> import tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> game.scores[0] += 3  # three points ahead of both rivals
    >>> [round(r, 3) for r in evaluate_v1(game)]
    [0.731, 0.269, 0.269]
    """
    est = estimated_scores_v1(game)
    out = []
    for seat, mine in enumerate(est):
        rival = max(v for s, v in enumerate(est) if s != seat)
        margin = (mine - rival) / scale
        out.append(1.0 / (1.0 + math.exp(-margin)) if margin > -30 else 0.0)
    return out
