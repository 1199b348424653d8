"""The arena's pages and JSON: the leaderboard, a bot's page, a person's challenge.

Everything shown comes from the arena's database (names are checked when an
account is made, and escaped anyway); no page holds a token.  A game's links
are its spectator link and, once it is over, its replay and analysis: the
same public links the lobby lists.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from tajmahal._escape import log_text
from tajmahal.arena.accounts import ArenaBot, ArenaGame, RatingPoint
from tajmahal.rules.errors import TajMahalError
from tajmahal.web.table import Rejected

__all__ = ["bot_page", "challenge", "leaderboard", "leaderboard_json", "rating_chart", "script"]

log = logging.getLogger("tajmahal.web")
MAX_BODY = 4096  #: the largest challenge request
_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'",
}
_STYLE = """<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}th,td{padding:.3rem .6rem;text-align:left;
border-bottom:1px solid #ddd}td.n{text-align:right;font-variant-numeric:tabular-nums}
.on{color:#070}.off{color:#888}svg{background:#fafafa;border:1px solid #ddd}
</style>"""


def _arena(request: Request) -> Any:
    return request.app.state.arena


def _html(title: str, body: str, status: int = 200) -> HTMLResponse:
    page = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>'
            f"{html.escape(title)}</title>{_STYLE}</head><body>{body}"
            '<script src="/arena/arena.js"></script></body></html>')  # fmt: skip
    return HTMLResponse(page, status, headers=_HEADERS)


def _when(at: float | None) -> str:
    if at is None:
        return "never"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def _status(arena: Any, bot: ArenaBot) -> str:
    if bot.house is not None:
        return "house"
    return "online" if arena.online(bot.name) else "offline"


async def leaderboard(request: Request) -> Response:
    """``/arena``: every bot, the best conservative rating first."""
    arena = _arena(request)
    bots = await asyncio.to_thread(arena.store.bots)
    rows = []
    for place, bot in enumerate(bots, 1):
        status = _status(arena, bot)
        name = html.escape(bot.name)
        button = (f'<button data-challenge="{name}">Challenge</button>'
                  if arena.free(bot) > 0 else "")  # fmt: skip
        rows.append(
            f'<tr><td class="n">{place}</td><td><a href="/arena/bot/{name}">{name}</a></td>'
            f'<td class="n">{bot.rating:.2f}</td><td class="n">{bot.mu:.2f}</td>'
            f'<td class="n">{bot.sigma:.2f}</td><td class="n">{bot.games}</td>'
            f'<td class="{"off" if status == "offline" else "on"}">{status}</td>'
            f"<td>{'' if bot.house else _when(bot.last_seen)}</td><td>{button}</td></tr>"
        )
    body = (
        "<h1>The arena</h1><p>Bots play rated games here around the clock; the table is "
        "ordered by the conservative rating, mean − 3 × uncertainty. A person may challenge "
        'any house bot or connected bot (an unrated game). <a href="/">The lobby</a></p>'
        '<p><label>Your name <input id="person" maxlength="40" value="player 1"></label></p>'
        "<table><thead><tr><th>#</th><th>Bot</th><th>Rating</th><th>Mean</th>"
        "<th>Uncertainty</th><th>Games</th><th>Online</th><th>Last seen</th><th></th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return _html("The arena", body)


async def leaderboard_json(request: Request) -> Response:
    """``GET /api/arena/leaderboard``: each bot's ``name``, ``mu``, ``sigma``, ``games``..."""
    arena = _arena(request)
    bots = await asyncio.to_thread(arena.store.bots)
    listed = [{
        "name": bot.name, "mu": bot.mu, "sigma": bot.sigma, "games": bot.games,
        "rating": bot.rating, "house": bot.house is not None,
        "online": bot.house is not None or arena.online(bot.name),
        "last_seen": bot.last_seen,
    } for bot in bots]  # fmt: skip
    return JSONResponse({"bots": listed}, headers=_HEADERS)


async def bot_page(request: Request) -> Response:
    """``/arena/bot/NAME``: the bot's rating over time and its recent games."""
    arena = _arena(request)
    name = request.path_params["name"]
    bot = await asyncio.to_thread(arena.store.bot, name) if len(name) <= 40 else None
    if bot is None:
        return _html("No such bot", '<h1>No such bot</h1><p><a href="/arena">The arena</a></p>',
                     404)  # fmt: skip
    games = await asyncio.to_thread(arena.store.games_of, bot.name, 30)
    history = await asyncio.to_thread(arena.store.history, bot.name)
    shown = html.escape(bot.name)
    kind = f"house bot <code>{html.escape(bot.house)}</code>" if bot.house else "remote bot"
    body = (
        f'<p><a href="/arena">The arena</a></p><h1>{shown}</h1>'
        f"<p>A {kind}, {_status(arena, bot)}: rating {bot.rating:.2f} (mean {bot.mu:.2f}, "
        f"uncertainty {bot.sigma:.2f}) after {bot.games} rated games.</p>"
        f"<h2>Rating over time</h2>{rating_chart(history)}"
        f"<h2>Recent games</h2>{_games_table(bot.name, games)}"
    )
    return _html(f"{bot.name} in the arena", body)


def _games_table(name: str, games: list[ArenaGame]) -> str:
    if not games:
        return "<p>No games yet.</p>"
    rows = []
    for game in games:
        seat = game.bots.index(name)
        rank = "—" if game.ranks is None else str(game.ranks[seat])
        players = ", ".join(html.escape(b) for b in game.bots)
        token = html.escape(game.watch)
        links = f'<a href="/watch/{token}">watch</a>'
        if game.ranks is not None:
            links += (f' · <a href="/replay/{token}">replay</a>'
                      f' · <a href="/analysis/{token}">analysis</a>')  # fmt: skip
        rows.append(f"<tr><td>{_when(game.created)}</td><td>{players}</td>"
                    f'<td class="n">{seat + 1}</td><td class="n">{rank}</td><td>{links}</td></tr>')
    return ("<table><thead><tr><th>Started</th><th>Bots, by seat</th><th>Seat</th><th>Rank</th>"
            f"<th></th></tr></thead><tbody>{''.join(rows)}</tbody></table>")  # fmt: skip


def rating_chart(history: list[RatingPoint], width: int = 640, height: int = 240) -> str:
    """An inline SVG of the mean and the conservative rating after each game.

    >>> rating_chart([])
    '<p>No rated games yet.</p>'
    >>> chart = rating_chart([RatingPoint('g1', 0.0, 27.0, 8.0, 1), RatingPoint('g2', 1.0, 28.0, 7.0, 1)])
    >>> chart.startswith('<svg') and chart.count('<polyline') == 2
    True
    """  # noqa: E501
    if not history:
        return "<p>No rated games yet.</p>"
    means = [p.mu for p in history]
    ratings = [p.mu - 3 * p.sigma for p in history]
    low, high = min(ratings + means), max(ratings + means)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    pad = 30

    def point(k: int, value: float) -> str:
        x = pad + (width - 2 * pad) * (k / max(1, len(history) - 1))
        y = height - pad - (height - 2 * pad) * (value - low) / (high - low)
        return f"{x:.1f},{y:.1f}"

    mean_line = " ".join(point(k, v) for k, v in enumerate(means))
    rating_line = " ".join(point(k, v) for k, v in enumerate(ratings))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="rating over time">'
        f'<polyline fill="none" stroke="#999" stroke-width="1.5" points="{mean_line}"/>'
        f'<polyline fill="none" stroke="#1a5" stroke-width="2" points="{rating_line}"/>'
        f'<text x="{pad}" y="16" font-size="12">{high:.1f}</text>'
        f'<text x="{pad}" y="{height - 8}" font-size="12">{low:.1f}</text>'
        f'<text x="{width - pad}" y="{height - 8}" font-size="12" text-anchor="end">'
        f"{len(history)} games</text>"
        f'<text x="{width - pad}" y="16" font-size="12" text-anchor="end" fill="#1a5">'
        "rating (mean − 3σ); grey: mean</text></svg>"
    )


async def challenge(request: Request) -> Response:
    """``POST /api/arena/challenge``: a person's (unrated) game against an arena bot."""
    client = request.client.host if request.client else ""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return JSONResponse({"error": f"a request has at most {MAX_BODY} bytes"}, 413,
                                headers=_HEADERS)  # fmt: skip
    try:
        data = json.loads(body)
        created, config, _ = await _arena(request).challenge(data, client)
    except (TajMahalError, ValueError, RecursionError) as exc:
        message = str(exc) if isinstance(exc, TajMahalError) else "the body is not JSON"
        log.info("arena: %s: refused a challenge: %s", client, log_text(message))
        return JSONResponse({"error": message}, 429 if isinstance(exc, Rejected) else 400,
                            headers=_HEADERS)  # fmt: skip
    seats = [{"seat": n, "name": seat.name, "human": seat.human,
              "link": None if token is None else f"/play/{token}"}
             for n, (seat, token) in enumerate(zip(config.seats, created.seats, strict=True))]
    return JSONResponse({"id": created.id, "seats": seats,
                         "spectator": f"/watch/{created.spectator}"}, 201, headers=_HEADERS)


_SCRIPT = """// the arena page's challenge buttons: a game against the bot, then its seat's page
document.addEventListener('click', async (event) => {
  const bot = event.target.dataset && event.target.dataset.challenge;
  if (!bot) return;
  const person = document.getElementById('person');
  const response = await fetch('/api/arena/challenge', {
    method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({bot: bot, name: person ? person.value : 'player 1'}),
  });
  const answer = await response.json();
  if (!response.ok) { alert(answer.error); return; }
  const mine = answer.seats.find((seat) => seat.human);
  window.location = mine.link;
});
"""


async def script(request: Request) -> Response:
    return Response(_SCRIPT, media_type="text/javascript", headers=_HEADERS)
