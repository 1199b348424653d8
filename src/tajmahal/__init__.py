"""tajmahal: rules engine, bot plugin API and referee for Reiner Knizia's *Taj Mahal*.

``import tajmahal`` loads the game itself (components, states, moves, views);
the rest — the referee, tournaments, bots and plugins, the bot protocol, JSON,
analysis, pictures — loads the first time one of its names is used
(``tm.play_match``, ``tm.bots``, ``tm.dumps``...), so that a program pays
only for what it uses.  Every name of ``__all__`` is there either way.

>>> import tajmahal as tm
>>> len(tm.standard_components().deck)
96
"""

import logging
from typing import TYPE_CHECKING

from tajmahal._lazy import lazy_names
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
from tajmahal.rules.display import set_svg_drawer
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

if TYPE_CHECKING:  # for type checkers and IDEs; at run time these load on first use (below)
    from tajmahal import analysis, bots, events, protocol, render
    from tajmahal.bots.base import Bot
    from tajmahal.faults import Fault
    from tajmahal.game import Game, GameRecord, replay
    from tajmahal.hookspecs import hookimpl
    from tajmahal.match_result import MatchResult
    from tajmahal.referee.match import play_match
    from tajmahal.serialize import dumps, from_document, loads, to_document
    from tajmahal.tournament import TournamentError, TournamentResult, run_tournament

# The one place the version is written (pyproject.toml reads it; records carry it). Between
# releases it is the next release's development version, X.Y.Z.devN: CHANGELOG.md names the
# releases, and .ci/release sets this line and CITATION.cff for a release and after it.
__version__ = "0.3.0.dev0"

# Diagnostics go to the loggers "tajmahal.referee" (faults, time-outs), "tajmahal.bots"
# (plugins skipped), "tajmahal.tournament" (progress, worker errors) and "tajmahal.web";
# an application that configures logging sees them, and one that does not sees nothing.
logging.getLogger("tajmahal").addHandler(logging.NullHandler())


def _first_picture(state_or_view: GameState | PlayerView) -> str:
    """A state's or view's picture: the drawing code loads on the first one asked for."""
    from tajmahal.render import notebook_picture

    return notebook_picture(state_or_view)


set_svg_drawer(_first_picture)  # GameState._repr_svg_, PlayerView._repr_svg_ (Jupyter)


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
    "from_document",
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
    "to_document",
]

#: what loads on first use, and from where: the match layer, tournaments, the bot protocol,
#: plugins, JSON, analysis and pictures (with their dependencies: pluggy, cattrs, openskill,
#: subprocess and socket handling), so that ``import tajmahal`` loads the game alone
_ON_FIRST_USE = {
    "Bot": "tajmahal.bots.base",
    "Fault": "tajmahal.faults",
    "Game": "tajmahal.game",
    "GameRecord": "tajmahal.game",
    "MatchResult": "tajmahal.match_result",
    "TournamentError": "tajmahal.tournament",
    "TournamentResult": "tajmahal.tournament",
    "dumps": "tajmahal.serialize",
    "from_document": "tajmahal.serialize",
    "hookimpl": "tajmahal.hookspecs",
    "loads": "tajmahal.serialize",
    "play_match": "tajmahal.referee.match",
    "replay": "tajmahal.game",
    "run_tournament": "tajmahal.tournament",
    "to_document": "tajmahal.serialize",
    # subpackages and modules, as attributes of the package (``tm.bots.create(...)``)
    **{
        name: f"tajmahal.{name}"
        for name in (
            "analysis", "bots", "events", "game", "hookspecs", "protocol", "referee", "render",
            "serialize", "tournament",
            # the match layer's former modules (now in tajmahal.referee)
            "faults", "observers", "record_tags", "seats",
        )
    },
}

if not TYPE_CHECKING:  # hidden from type checkers, which see the imports above
    __getattr__, __dir__ = lazy_names(__name__, _ON_FIRST_USE, __all__)

