"""The server's pages: the lobby, how to play, a seat's and a spectator's game page, and a
finished game's record, replay and analysis (``/record``, ``/replay``, ``/analysis``).

Each is a Starlette endpoint reading the server from the application's state
(:func:`~tajmahal.web.responses.game_server`).
"""

from __future__ import annotations

import gzip
import logging

import attrs
from starlette.requests import Request
from starlette.responses import Response

from tajmahal.game import GameRecord
from tajmahal.serialize import loads
from tajmahal.web.responses import HEADERS, compressed, error, game_server, page, static_text
from tajmahal.web.stores.contract import StoreError
from tajmahal.web.table import Table

__all__ = [
    "analysis", "analysis_marks", "how_to_play", "icon", "lobby", "record", "replay",
    "seat_page", "watch_page",
]  # fmt: skip

log = logging.getLogger("tajmahal.web")
_ICON = static_text("favicon.svg").encode()
_ICON_HEADERS = {"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"}


async def lobby(request: Request) -> Response:
    """``/``: the lobby (a new game, the games being played)."""
    return page("lobby.html")


async def how_to_play(request: Request) -> Response:
    """``/how-to-play``: the rules for people."""
    return page("how-to-play.html")


async def icon(request: Request) -> Response:
    """``/static/favicon.svg`` and ``/favicon.ico``: the server's icon (cached a day)."""
    return Response(_ICON, media_type="image/svg+xml", headers=_ICON_HEADERS)


async def seat_page(request: Request) -> Response:
    """``/play/TOKEN``: a seat's game page (404 for a link that opens no seat)."""
    opened = await game_server(request).open(request.path_params["token"])
    if opened is None or opened[1] is None:
        return page("unknown.html", 404)
    return page("game.html")


async def watch_page(request: Request) -> Response:
    """``/watch/TOKEN``: the spectator's game page (404 for a link that opens no game)."""
    opened = await game_server(request).open(request.path_params["token"])
    if opened is None or opened[1] is not None:
        return page("unknown.html", 404)
    return page("game.html")


async def record(request: Request) -> Response:
    """``/record/TOKEN``: a finished game's record, as a JSON download."""
    table, refused = await _finished(request)
    if table is None or table.finished_record is None:
        return refused or error(404, "no record")
    return Response(table.finished_record, media_type="application/json", headers={
        **HEADERS, "Content-Disposition": f'attachment; filename="tajmahal-{table.id}.json"'
    })  # fmt: skip


async def replay(request: Request) -> Response:
    """``/replay/TOKEN``: a finished game's replay page (drawn once, in a thread, compressed)."""
    table, refused = await _finished(request)
    if table is None or table.finished_record is None:
        return refused or error(404, "no record")
    body = await game_server(request).shared_results.get(
        ("replay", table.id), table.workers.drawn, _replay_page, table.finished_record,
        table.config.humans,
    )  # fmt: skip
    return compressed(request, body, "text/html; charset=utf-8")


async def analysis(request: Request) -> Response:
    """``/analysis/TOKEN``: a finished game's analysis page at once (drawn, compressed,
    cached); its strip fetched from :func:`analysis_marks`."""
    table, refused = await _finished(request)
    if table is None or table.finished_record is None:
        return refused or error(404, "no record")
    body = await game_server(request).shared_results.get(
        ("analysis-page", table.id), table.workers.drawn, _analysis_page,
        table.finished_record, table.config.humans,
    )  # fmt: skip
    return compressed(request, body, "text/html; charset=utf-8")


async def analysis_marks(request: Request) -> Response:
    """``/analysis/TOKEN/marks``: the analysis page's strip as JSON: the search, once per
    game (in a bot worker, cached)."""
    table, refused = await _finished(request)
    if table is None or table.finished_record is None:
        return refused or error(404, "no record")
    try:
        marks = await game_server(request).shared_results.get(
            ("analysis", table.id), table.workers.bot, _analysis_marks,
            table.finished_record, table.config.humans,
        )  # fmt: skip
    except StoreError:
        raise
    except Exception:  # a worker lost, a bug: said in words, logged
        log.exception("game %s: the analysis failed", table.id)
        return error(500, "the analysis failed (logged on the server)")
    return compressed(request, marks, "application/json")


async def _finished(request: Request) -> tuple[Table | None, Response | None]:
    opened = await game_server(request).open(request.path_params["token"])
    if opened is None:
        return None, error(404, "no game has this link")
    table = opened[0]
    await table.record_stored()  # a game that has just ended: its record is being stored
    if table.finished_record is None:
        return None, error(409, "the record is given out once the game is over")
    return table, None


def _replay_page(text: str, humans: tuple[int, ...] = ()) -> bytes:
    """Runs in a worker thread: the replay page of a finished game's record (seats counted
    from 1, as on the game page; bots by their lobby names), gzip-compressed."""
    from tajmahal.web._table_analysis import replay_page
    from tajmahal.web.seat_messages import people_names

    game_record = loads(text)
    assert isinstance(game_record, GameRecord)
    named = attrs.evolve(game_record, players=people_names(game_record.players, humans))
    return gzip.compress(replay_page(named).encode(), 6)


def _analysis_page(text: str, humans: tuple[int, ...]) -> bytes:
    """Runs in a worker thread: the analysis page without its search (seats counted from 1,
    bots by their lobby names), gzip-compressed."""
    from tajmahal.web._table_analysis import analysis_page
    from tajmahal.web.seat_messages import people_names

    game_record = loads(text)
    assert isinstance(game_record, GameRecord)
    named = attrs.evolve(game_record, players=people_names(game_record.players, humans))
    return gzip.compress(analysis_page(named).encode(), 6)


def _analysis_marks(text: str, humans: tuple[int, ...]) -> bytes:
    """Runs in a bot worker: the analysis of the people's decisions (every seat's in a game
    of bots only) as JSON, gzip-compressed."""
    from tajmahal.web._table_analysis import analysis_marks

    game_record = loads(text)
    assert isinstance(game_record, GameRecord)
    marks = analysis_marks(game_record, humans or range(len(game_record.players)))
    return gzip.compress(marks.encode(), 6)
