"""tajmahal: rules engine, bot plugin API and referee for Reiner Knizia's *Taj Mahal*.

>>> import tajmahal as tm
>>> len(tm.standard_components().deck)
96
"""

from tajmahal.game import Game, GameRecord, replay
from tajmahal.rules.components import (
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
    load_components,
    standard_components,
)
from tajmahal.rules.engine import new_game
from tajmahal.rules.errors import ComponentsError, FormatError, IllegalMoveError, TajMahalError
from tajmahal.rules.moves import (
    Move,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
    Withdraw,
)
from tajmahal.rules.setup import TilePlacement, place_tiles
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.views import PlayerView

__version__ = "0.1.0.dev0"

__all__ = [
    "Board",
    "BonusKind",
    "BonusTile",
    "Card",
    "City",
    "Color",
    "Commodity",
    "Components",
    "ComponentsError",
    "FormatError",
    "Game",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "Move",
    "Phase",
    "PlaceCrownPalace",
    "PlacePalace",
    "PlayCards",
    "PlayerView",
    "Province",
    "ProvinceTile",
    "Special",
    "Symbol",
    "TajMahalError",
    "TakeCard",
    "TilePlacement",
    "Withdraw",
    "load_components",
    "new_game",
    "place_tiles",
    "replay",
    "standard_components",
]
