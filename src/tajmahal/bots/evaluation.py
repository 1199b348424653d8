"""What the ``ismcts`` bot knows about Taj Mahal: a position evaluation and a rollout policy.

Both read a :class:`~tajmahal.rules.playout.Playout` directly (lists of card
kinds, palaces by city index) because they run thousands of times per decision.

**Evaluation** (:func:`evaluate`), at the end of a visit: each seat's
*estimated final score* is its score, plus what its hand will score at the
end (G1: special and white cards, the longest suit), plus what its hand and
tiles are still worth in the visits left:

- every card in hand ``CARD_PER_VISIT`` points per visit left, at most
  ``CARD_CAP`` (cards win the majorities of later visits);
- the ``points`` special card 1.5 points per visit left (P6, played with a
  colored card each visit), the other special cards 0.4 per visit left;
- an unpaired influence tile half the special card a pair earns (E2).

After the last visit the estimate is the final score itself.

**Reward**, one per seat: ``1 / (1 + exp(-(own estimate - best rival's
estimate) / scale))``, a smooth probability of winning from the margin over
the strongest rival.  The ``scale`` (:func:`reward_scale`) grows with the
points still to play: ``BASE_SCALE`` plus ``SCALE_PER_VISIT`` per visit left
(16 points at the start, 4 once the game is over), so that a lead of a few
points early in the game is no sure win and the reward never saturates: the
search still tells a better move from a worse one when far ahead or behind.
(The first release used a fixed scale of 3, ``FIXED_SCALE``: 44% of its
card-play decisions saw root rewards above 0.95 or below 0.05.  The
``ismcts-v1`` bot keeps it.)  Why not the final score share: in a game of 3–5, points
taken from a weak rival are worth less than points taken from the leader, and
the share rewards them alike.  Why not the rank itself: a search cut at the
end of the visit sees small margins, and 0/1 for first place hides every
point gained or lost when nobody changes places.  The margin's logistic keeps
the rank's aim (beat the best rival) and the points' gradient.

**Rollout policy** (:func:`heuristic_pick`), for every seat:
withdraw (mostly) once a prize still in the court is held, otherwise play a
colored card (mostly without a white or special card), now and then giving
up; put palaces on fortresses with a bonus tile, then next to one's own
palaces; take white cards first.
"""

from __future__ import annotations

import math
import random

from tajmahal.rules.components import Special
from tajmahal.rules.playout import CROWN, OVER, PALACE, PLAY, TAKE, WITHDRAW, Playout
from tajmahal.rules.tables import ELEPHANT, GRAND_MOGUL, SPECIALS

__all__ = ["estimated_scores", "evaluate", "heuristic_pick", "reward_scale"]

CARD_VALUE = 0.4
HAND_CAP = 10
G1_HORIZON = 4.0
POINTS_CARD_PER_VISIT = 1.5
SPECIAL_PER_VISIT = 0.4
FIXED_SCALE = 3.0  #: the first release's reward scale (``ismcts-v1``)
BASE_SCALE = 4.0  #: the reward scale once the game is over
SCALE_PER_VISIT = 1.0  #: the reward scale's growth per visit still to play
_POINTS = SPECIALS.index(Special.POINTS)


def estimated_scores(game: Playout) -> list[float]:
    """Each seat's estimated final score (the final scores once the game is over).

    >>> import tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> [round(v, 1) for v in estimated_scores(game)]  # no points yet; six cards each
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


def reward_scale(game: Playout) -> float:
    """The margin (in points) that makes a reward of 0.73: more while more points are to play.

    >>> import tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> reward_scale(Playout(tm.new_game(num_players=3, seed=1)))  # twelve visits to play
    16.0
    """
    left = 0 if game.phase == OVER else max(0, len(game.province_order) - game.visit + 1)
    return BASE_SCALE + SCALE_PER_VISIT * left


def evaluate(game: Playout, scale: float | None = None) -> list[float]:
    """One reward in 0..1 per seat: the logistic of its estimated margin over the best rival.

    ``scale`` is :func:`reward_scale` unless given (``FIXED_SCALE`` for ``ismcts-v1``).

    >>> import tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> game.scores[0] += 3  # three points ahead of both rivals
    >>> [round(r, 3) for r in evaluate(game, scale=FIXED_SCALE)]
    [0.731, 0.269, 0.269]
    >>> [round(r, 3) for r in evaluate(game)]  # twelve visits to play: far from decided
    [0.547, 0.453, 0.453]
    """
    est = estimated_scores(game)
    width = reward_scale(game) if scale is None else scale
    out = []
    for seat, mine in enumerate(est):
        rival = max(v for s, v in enumerate(est) if s != seat)
        margin = (mine - rival) / width
        out.append(1.0 / (1.0 + math.exp(-margin)) if margin > -30 else 0.0)
    return out


def heuristic_pick(game: Playout, codes: list[int], rng: random.Random) -> int:
    """A cheap, plausible move for the seat to move (the ``heuristic`` rollout policy).

    >>> import random, tajmahal as tm
    >>> from tajmahal.rules.playout import Playout
    >>> game = Playout(tm.new_game(num_players=3, seed=1))
    >>> game.run(random.Random(2), heuristic_pick)
    >>> game.is_over
    True
    """
    if len(codes) == 1:
        return codes[0]
    phase = game.phase
    if phase == PLAY:
        return _play_or_withdraw(game, codes, rng)
    if phase == TAKE:
        white = game.tables.white
        whites = [k for k in codes if white[k]]
        return whites[0] if whites else codes[int(rng.random() * len(codes))]
    if phase in (PALACE, CROWN):
        return _city(game, codes, rng, normal=phase == PALACE)
    return codes[0]  # pragma: no cover - no other phase has moves


def _play_or_withdraw(game: Playout, codes: list[int], rng: random.Random) -> int:
    seat = game.current
    mine, best = game.counts[seat], game.rival_best(seat)
    prizes = [game.court_influence[i] for i in range(4)] + [False, False]
    prizes[GRAND_MOGUL] = game.court_crown
    prizes[ELEPHANT] = game.court_tile
    holding = sum(1 for i in range(6) if prizes[i] and mine[i] >= 1 and mine[i] > best[i])
    u = rng.random()
    if holding and u < 0.5 + 0.2 * holding:
        return WITHDRAW
    plain = [c for c in codes if c != WITHDRAW and c % game.stride == 0]
    if not plain or (game.table[seat] and u > 0.93):  # now and then: give up
        return WITHDRAW
    return plain[int(rng.random() * len(plain))]


def _city(game: Playout, codes: list[int], rng: random.Random, normal: bool) -> int:
    seat = game.current
    if normal:
        bonus = [c for c in codes if game.bonus[c] >= 0]
        if bonus:
            return bonus[0]
    t = game.tables
    mine = [
        c
        for c in codes
        if any(game.normal[o] == seat or game.crown[o] == seat for o in t.adjacency[c])
    ]
    pool = mine or codes
    return pool[int(rng.random() * len(pool))]
