"""Setup placement of the tiles (docs/rules.md S2–S3) and the seeded random streams (S10)."""

from __future__ import annotations

import attrs

from tajmahal.rules.components import BonusKind, BonusTile, Components
from tajmahal.rules.deal import MersenneTwister

__all__ = ["TilePlacement", "place_tiles", "seeded_rng"]


def seeded_rng(seed: int, stream: str) -> MersenneTwister:
    """The generator of one named stream of a game's seed (S10), with its ``shuffle``.

    Each use of randomness (tiles, deck, each reshuffle) has its own stream,
    so one never shifts another.  The generator and the shuffle are the
    library's own, specified in :mod:`tajmahal.rules.deal`, so a seed deals
    the same on every Python version.

    >>> cards = [1, 2, 3, 4, 5]
    >>> seeded_rng(7, "deck").shuffle(cards)
    >>> cards
    [3, 2, 5, 4, 1]
    """
    return MersenneTwister(seed, stream)


@attrs.frozen
class TilePlacement:
    """Where setup puts the tiles.

    ``province_order[k]`` is the id of the province holding tile ``k + 1``
    (so it is visited ``k + 1``-th); ``bonus`` maps each fortress id to its tile.

    >>> from tajmahal import standard_components
    >>> placement = place_tiles(standard_components(), seed=1)
    >>> placement.province_order[:3], placement.province_order[-1]
    (('thatta', 'kabul', 'kashmir'), 'agra')
    >>> len(placement.bonus), placement.bonus[0][0]
    (16, 'agra')
    """

    province_order: tuple[str, ...]
    bonus: tuple[tuple[str, BonusTile], ...]

    def bonus_tile(self, city_id: str) -> BonusTile | None:
        """The bonus tile setup put on this city, if any.

        >>> from tajmahal import standard_components
        >>> placement = place_tiles(standard_components(), seed=1)
        >>> str(placement.bonus_tile('agra')), str(placement.bonus_tile('kabul'))
        ('+4', 'rice')
        >>> placement.bonus_tile('mathura') is None  # not a fortress
        True
        """
        return dict(self.bonus).get(city_id)


def place_tiles(components: Components, seed: int) -> TilePlacement:
    """Lay the province and bonus tiles for a seed (S2, S3); a pure function.

    >>> from tajmahal import standard_components
    >>> placement = place_tiles(standard_components(), seed=1)
    >>> placement.province_order[-1], placement.bonus_tile('agra').kind.value
    ('agra', 'taj_mahal')
    """
    board = components.board
    rng = seeded_rng(seed, "tiles")
    others = [p.id for p in board.provinces if p.id != board.final_province]
    rng.shuffle(others)
    fortresses = [c.id for c in board.fortresses if c.id != board.taj_mahal_city]
    squares = [t for t in components.bonus_tiles if t.kind is not BonusKind.TAJ_MAHAL]
    taj = next(t for t in components.bonus_tiles if t.kind is BonusKind.TAJ_MAHAL)
    rng.shuffle(squares)
    bonus = ((board.taj_mahal_city, taj), *zip(fortresses, squares, strict=True))
    return TilePlacement((*others, board.final_province), tuple(sorted(bonus)))
