"""tajmahal: rules engine, bot plugin API and referee for Reiner Knizia's *Taj Mahal*.

>>> import tajmahal as tm
>>> len(tm.standard_components().deck)
96
"""

import logging

from tajmahal import analysis, bots, events, protocol, render
from tajmahal.bots import Bot, hookimpl
from tajmahal.game import Game, GameRecord, replay
from tajmahal.referee import Fault, MatchResult, play_match
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
    parse_move,
)
from tajmahal.rules.setup import TilePlacement, place_tiles
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.views import PlayerView
from tajmahal.serialize import dumps, loads
from tajmahal.tournament import TournamentError, TournamentResult, run_tournament

__version__ = "0.1.0.dev0"

# Diagnostics go to the loggers "tajmahal.referee" (faults, time-outs), "tajmahal.bots"
# (plugins skipped), "tajmahal.tournament" (progress, worker errors) and "tajmahal.web";
# an application that configures logging sees them, and one that does not sees nothing.
logging.getLogger("tajmahal").addHandler(logging.NullHandler())

__all__ = [
    "Board",
    "BonusKind",
    "BonusTile",
    "Bot",
    "Card",
    "City",
    "Color",
    "Commodity",
    "Components",
    "ComponentsError",
    "Fault",
    "FormatError",
    "Game",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "MatchResult",
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
    "TournamentError",
    "TournamentResult",
    "Withdraw",
    "analysis",
    "bots",
    "dumps",
    "events",
    "hookimpl",
    "load_components",
    "loads",
    "new_game",
    "parse_move",
    "place_tiles",
    "play_match",
    "protocol",
    "render",
    "replay",
    "run_tournament",
    "standard_components",
]
