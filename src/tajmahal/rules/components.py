"""The game's physical components (docs/rules.md §1): the data model and its loader, in one place.

The data model (cards, tiles, the board: frozen values) is in
:mod:`tajmahal.rules.component_types`; reading and validating components
files (TOML) is in :mod:`tajmahal.rules.loading`.  This module offers both,
as it always has: ``from tajmahal.rules.components import Card,
standard_components`` keeps working.

>>> from tajmahal.rules.components import Card, standard_components
>>> Card.parse('red:vizier+general') in standard_components().deck
True
"""

from __future__ import annotations

from tajmahal.rules.component_types import (
    COLORED,
    INFLUENCE,
    Board,
    BonusKind,
    BonusTile,
    Card,
    City,
    Color,
    Commodity,
    Components,
    Province,
    ProvinceTile,
    Special,
    Symbol,
)
from tajmahal.rules.loading import (
    MAX_CARDS,
    MAX_CITIES,
    MAX_COUNT,
    MAX_FILE_BYTES,
    MAX_KEY_PARTS,
    MAX_NAME,
    MAX_PROVINCES,
    MAX_ROADS,
    MAX_TILE_COMMODITIES,
    MAX_TILES,
    STANDARD_PATH,
    components_from_data,
    load_components,
    parse_components,
    read_regular,
    standard_components,
)

__all__ = [
    "COLORED",
    "INFLUENCE",
    "MAX_CARDS",
    "MAX_CITIES",
    "MAX_COUNT",
    "MAX_FILE_BYTES",
    "MAX_KEY_PARTS",
    "MAX_NAME",
    "MAX_PROVINCES",
    "MAX_ROADS",
    "MAX_TILES",
    "MAX_TILE_COMMODITIES",
    "STANDARD_PATH",
    "Board",
    "BonusKind",
    "BonusTile",
    "Card",
    "City",
    "Color",
    "Commodity",
    "Components",
    "Province",
    "ProvinceTile",
    "Special",
    "Symbol",
    "components_from_data",
    "load_components",
    "parse_components",
    "read_regular",
    "standard_components",
]
