"""End-of-game rewards for the adapters: by final rank or by score difference.

Both kinds are zero-sum (the seats' rewards add up to 0) and are paid once,
when the game ends; every earlier reward is 0.

- ``"rank"``: (seats with a lower score − seats with a higher score) / (n − 1),
  in [−1, 1]: +1 for the sole winner, −1 for the sole last, 0 for a seat
  in the middle of three, ties share.
- ``"score"``: the seat's final score minus the mean final score of the
  other seats (in points).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

__all__ = ["REWARD_KINDS", "RewardKind", "final_rewards"]

RewardKind = Literal["rank", "score"]
REWARD_KINDS: tuple[str, ...] = ("rank", "score")


def final_rewards(scores: Sequence[int], kind: str = "rank") -> tuple[float, ...]:
    """The reward of each seat for these final ``scores``.

    >>> final_rewards([30, 50, 40])
    (-1.0, 1.0, 0.0)
    >>> final_rewards([30, 50, 40], "score")
    (-15.0, 15.0, 0.0)
    >>> final_rewards([50, 50, 20])
    (0.5, 0.5, -1.0)
    >>> final_rewards([1, 2, 3], "wins")
    Traceback (most recent call last):
    ...
    tajmahal.adapters.actions.AdapterError: reward must be 'rank' or 'score', got 'wins'
    """
    from tajmahal.adapters.actions import AdapterError

    if kind not in REWARD_KINDS:
        raise AdapterError(f"reward must be 'rank' or 'score', got {kind!r}")
    n = len(scores)
    if kind == "score":
        total = sum(scores)
        return tuple(float(s - (total - s) / (n - 1)) for s in scores)
    return tuple(
        (sum(o < s for o in scores) - sum(o > s for o in scores)) / (n - 1) for s in scores
    )
