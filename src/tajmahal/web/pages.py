"""The server's pages: the lobby, how to play, a seat's and a spectator's game page, and a
finished game's record, replay and analysis (``/record``, ``/replay``, ``/analysis``).

Each is a Starlette endpoint reading the server from the application's state
(:func:`~tajmahal.web.responses.game_server`).
"""

from __future__ import annotations

import attrs
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from tajmahal.game import GameRecord
from tajmahal.serialize import loads
from tajmahal.web.responses import HEADERS, error, game_server, page
from tajmahal.web.table import Table

__all__ = ["analysis", "how_to_play", "lobby", "record", "replay", "seat_page", "watch_page"]


async def lobby(request: Request) -> Response:
    """``/``: the lobby (a new game, the games being played)."""
    return page("lobby.html")


async def how_to_play(request: Request) -> Response:
    """``/how-to-play``: the rules for people."""
    return page("how-to-play.html")


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
    """``/replay/TOKEN``: a finished game's replay page (drawn once, in a thread)."""
    table, refused = await _finished(request)
    if table is None or table.finished_record is None:
        return refused or error(404, "no record")
    text = await game_server(request).shared_results.get(
        ("replay", table.id), table.workers.drawn, _replay_page, table.finished_record,
        table.config.humans,
    )  # fmt: skip
    return HTMLResponse(text, headers=HEADERS)


async def analysis(request: Request) -> Response:
    """``/analysis/TOKEN``: a finished game's analysis page (once, in a bot worker)."""
    table, refused = await _finished(request)
    if table is None or table.finished_record is None:
        return refused or error(404, "no record")
    text = await game_server(request).shared_results.get(
        ("analysis", table.id), table.workers.bot, _analysis_page, table.finished_record,
        table.config.humans,
    )  # fmt: skip
    return HTMLResponse(text, headers=HEADERS)


async def _finished(request: Request) -> tuple[Table | None, Response | None]:
    opened = await game_server(request).open(request.path_params["token"])
    if opened is None:
        return None, error(404, "no game has this link")
    table = opened[0]
    await table.record_stored()  # a game that has just ended: its record is being stored
    if table.finished_record is None:
        return None, error(409, "the record is given out once the game is over")
    return table, None


def _replay_page(text: str, humans: tuple[int, ...] = ()) -> str:
    """Runs in a worker thread: the replay page of a finished game's record (seats counted
    from 1, as on the game page; bots by their lobby names)."""
    from tajmahal.web._table_analysis import replay_page
    from tajmahal.web.seat_messages import people_names

    game_record = loads(text)
    assert isinstance(game_record, GameRecord)
    named = attrs.evolve(game_record, players=people_names(game_record.players, humans))
    return replay_page(named)


def _analysis_page(text: str, humans: tuple[int, ...]) -> str:
    """Runs in a worker process: the analysis page of the people's decisions (every seat's in
    a game of bots only)."""
    from tajmahal.web._table_analysis import analysis_html
    from tajmahal.web.seat_messages import people_names

    game_record = loads(text)
    assert isinstance(game_record, GameRecord)
    named = attrs.evolve(game_record, players=people_names(game_record.players, humans))
    return analysis_html(named, humans or range(len(game_record.players)))
