"""Rematch: the next game with the same seats, their order rotated, a new seed.

Links are never stored in the clear (only their digests), so a person's link to the new
game is derived from their link to the finished one (:func:`rematch_token`) and stored when
their page asks for it: each person learns their own new seat only, and a restarted server
still finds it.  The new game is found from the finished one by a marker token, longer
than any link (no page can open it).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from typing import Any

import attrs

from tajmahal.web.config import GameConfig
from tajmahal.web.seat_messages import people_names
from tajmahal.web.server import WATCH_KEY, GameServer
from tajmahal.web.table import Rejected, Table

__all__ = ["marker", "rematch", "rematch_token", "rotated"]

_locks: dict[str, asyncio.Lock] = {}  # one rematch created per finished game


def rematch_token(token: str) -> str:
    """The link token of the rematch seat of the person whose link token is ``token``.

    >>> len(rematch_token('x' * 22)), rematch_token('a' * 22) == rematch_token('a' * 22)
    (22, True)
    """
    digest = hashlib.sha256(b"tajmahal rematch\0" + token.encode("utf-8", "replace")).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def marker(game_id: str) -> str:
    """The token that leads from a finished game to its rematch (longer than a link may be)."""
    return f"rematch of game {game_id}: ".ljust(80, ".")


def rotated(config: GameConfig) -> GameConfig:
    """The rematch's settings: the same, each seat one place earlier (the first seat last).

    >>> seats = [{'human': True, 'name': 'Ann'}, 'greedy', 'random']
    >>> rotated(GameConfig.parse({'seats': seats})).players
    ('greedy', 'random', 'Ann')
    """
    return attrs.evolve(config, seats=(*config.seats[1:], config.seats[0]))


def new_seat(seat: int, seats: int) -> int:
    """Where seat ``seat`` of the finished game sits in the rematch."""
    return (seat - 1) % seats


async def rematch(
    server: GameServer, table: Table, seat: int | None, token: str, client: str, create: bool
) -> dict[str, Any]:
    """The ``rematch`` message for the person at ``seat``: their new seat's link (``link``
    None while nobody asked for one and ``create`` is False)."""
    if seat is None:
        raise Rejected("a spectator only watches")
    if not table.state.is_over:
        raise Rejected("a rematch is for a finished game")
    lock = _locks.setdefault(table.id, asyncio.Lock())
    async with lock:
        entry = await server.workers.stored(server.store.find_token, marker(table.id))
        if entry is None:
            if not create:
                return {"type": "rematch", "link": None}
            made = await server.create(rotated(table.config), client)
            game_id, watch = made.id, f"/watch/{made.spectator}"
            await server.workers.stored(server.store.add_token, game_id, marker(table.id), None)
            told = True
        else:
            game_id, told = entry.game_id, False
            stored = await server.workers.stored(server.store.load, game_id)
            watch = str(stored.config.get(WATCH_KEY, "")) if stored is not None else ""
    _locks.pop(table.id, None)
    mine = new_seat(seat, len(table.config.seats))
    link = rematch_token(token)
    await server.workers.stored(server.store.add_token, game_id, link, mine)
    if told:  # the others' pages learn that there is one (each then asks for its own link)
        for listener in list(table.listeners):
            listener.reply({"type": "rematch", "link": None, "ready": True})
    config = rotated(table.config)
    players = list(people_names(config.players, config.humans))
    return {"type": "rematch", "link": f"/play/{link}", "game": game_id, "seat": mine,
            "players": players, "spectator": watch}  # fmt: skip
