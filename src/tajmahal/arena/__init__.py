"""The arena: bot accounts, their ratings and the choice of rated games, without the web.

- :mod:`tajmahal.arena.accounts`: :class:`ArenaStore`, the accounts (a token's digest, never
  the token), the rated games and each bot's rating history, in the server's SQLite file
  (on the PostgreSQL cluster: :mod:`tajmahal.web.stores.postgres_arena`, the same tables).
- :mod:`tajmahal.arena.ratings`: openskill's Plackett-Luce model, one game at a time;
  the conservative rating (``mu - 3 sigma``) orders the table.
- :mod:`tajmahal.arena.scheduling`: which bots play the next game, and in which seats.
- :mod:`tajmahal.arena.client`: ``tajmahal bot connect``, a local bot playing as an account.

``tajmahal serve --arena`` (:mod:`tajmahal.web.arena`) puts them on a server.
"""

from __future__ import annotations

from tajmahal.arena.accounts import ArenaBot, ArenaError, ArenaStore, check_bot_name
from tajmahal.arena.ratings import conservative, game_ranks, rate_game
from tajmahal.arena.scheduling import Candidate, choose_game

__all__ = [
    "ArenaBot",
    "ArenaError",
    "ArenaStore",
    "Candidate",
    "check_bot_name",
    "choose_game",
    "conservative",
    "game_ranks",
    "rate_game",
]
