"""The replay viewer: one self-contained HTML page that steps through a recorded game.

:func:`replay_html` replays a record and writes, for every step (the start,
then each decision), the board, the scores, the events of that decision and
the hands, once as everybody could know them and once per seat as that seat
could.  The page needs no network: the data, the script and the style are
inline.  Boards share most of their SVG elements, so each element is stored
once and each step lists the elements it draws.

Controls: the buttons or the left/right arrow keys step back and forth,
Home/End jump to the ends, the slider picks any step, and the menu chooses
whose knowledge to show.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from tajmahal.events import EventKind, explain_views, opening, seat_name
from tajmahal.game import Game, GameRecord
from tajmahal.render import board_elements
from tajmahal.render._panel import state_tiles
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["replay_html"]

_HIDDEN = frozenset({EventKind.VISIT_END})


def replay_html(record: GameRecord, *, title: str | None = None) -> str:
    """The viewer page for ``record`` (an HTML document, as a string).

    Raises :class:`~tajmahal.IllegalMoveError` for a record that does not replay.

    >>> import tajmahal as tm
    >>> record = tm.play_match(['random', 'random', 'random'], seed=1).record
    >>> page = replay_html(record)
    >>> page.startswith('<!DOCTYPE html>') and 'http' not in page.replace('http://www.w3.org', '')
    True
    """
    game = Game.from_record(record)
    states = game.states
    players = tuple(record.players) or tuple(f"seat {s}" for s in range(record.num_players))
    comps = record.components
    layout_tiles = state_tiles(comps, states[0].view(0))  # every tile: labels stay in place
    elements: dict[str, int] = {}
    steps = []
    seats = range(record.num_players)
    before_views: list[PlayerView] = []
    for number, state in enumerate(states):
        views = [state.view(seat) for seat in seats]
        lines = board_elements(comps, None, views[0], players, layout_tiles)
        board = [elements.setdefault(line, len(elements)) for line in lines]
        if number == 0:
            start = [event.text for event in opening(state)]
            events = {"all": start, **{str(s): start for s in seats}}
            label = "the start"
        else:
            move = record.moves[number - 1]
            mover = before_views[0].current_player
            assert mover is not None
            told = [_lines(before_views[s], move, views[s], players) for s in seats]
            events = {"all": told[mover], **{str(s): told[s] for s in seats}}
            label = f"move {number} of {len(record.moves)}: {seat_name(mover, players)}: {move}"
        before_views = views
        steps.append(
            {
                "label": label,
                "visit": state.visit,
                "scores": list(state.scores),
                "board": board,
                "events": events,
                "hands": [[str(card) for card in view.hand] for view in views],
            }
        )
    names = [seat_name(s, players) for s in range(record.num_players)]
    data = {
        "players": names,
        "elements": list(elements),
        "steps": steps,
    }
    heading = title or f"Taj Mahal, seed {record.seed}: " + ", ".join(names)
    # no "<" at all inside the script element: nothing in the data can end or bend it
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return _PAGE.replace("{title}", escape(heading)).replace("{data}", payload)


def _lines(before: PlayerView, move: Move, after: PlayerView, players: Sequence[str]) -> list[str]:
    decision = explain_views(before, move, after)
    return [e.sentence(players) for e in decision.events if e.kind not in _HIDDEN]


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 0; background: #f3ead3;
       color: #2f2419; }
header { padding: 8px 16px; background: #fbf6e9; border-bottom: 1px solid #b59c74;
         display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
header h1 { font: bold 18px "DejaVu Serif", Georgia, serif; margin: 0 12px 0 0; }
button { font-size: 15px; padding: 3px 12px; }
#step { width: 320px; }
main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
#board { flex: 1 1 auto; min-width: 0; }
#board svg { width: 100%; height: auto; }
aside { flex: 0 0 360px; font-size: 13px; }
aside h2 { font-size: 14px; margin: 12px 0 4px; }
#where { font-weight: bold; }
#scores td { padding: 1px 8px 1px 0; }
#events li, #hands li { margin: 2px 0; }
#events { padding-left: 18px; }
#hands { padding-left: 0; list-style: none; }
</style>
</head>
<body>
<header>
<h1>{title}</h1>
<button id="prev" title="previous decision (left arrow)">&#9664; prev</button>
<button id="next" title="next decision (right arrow)">next &#9654;</button>
<input id="step" type="range" min="0" value="0" aria-label="step">
<label>show <select id="mode"><option value="all">everything</option></select></label>
</header>
<main>
<div id="board"></div>
<aside>
<div id="where"></div>
<h2>Scores</h2>
<table id="scores"></table>
<h2>What happened</h2>
<ul id="events"></ul>
<h2>Hands</h2>
<ul id="hands"></ul>
</aside>
</main>
<script type="application/json" id="data">{data}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const last = data.steps.length - 1;
const slider = document.getElementById("step");
const mode = document.getElementById("mode");
let current = 0;
slider.max = String(last);
data.players.forEach((name, seat) => {
  const option = document.createElement("option");
  option.value = String(seat);
  option.textContent = "only what " + name + " could see";
  mode.appendChild(option);
});
function fill(list, lines) {
  list.replaceChildren(...lines.map(text => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}
function show(number) {
  current = Math.max(0, Math.min(last, number));
  const step = data.steps[current];
  slider.value = String(current);
  document.getElementById("board").innerHTML =
    step.board.map(index => data.elements[index]).join("\\n");
  document.getElementById("where").textContent =
    "Step " + current + " of " + last + " (visit " + step.visit + "): " + step.label;
  const scores = document.getElementById("scores");
  scores.replaceChildren(...step.scores.map((score, seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(seat);
    for (const text of [data.players[seat], String(score)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    return row;
  }));
  const who = mode.value;
  fill(document.getElementById("events"), step.events[who]);
  const seats = who === "all" ? step.hands.map((_, seat) => seat) : [Number(who)];
  fill(document.getElementById("hands"), seats.map(seat =>
    data.players[seat] + ": " + (step.hands[seat].join(", ") || "no cards")));
  document.getElementById("prev").disabled = current === 0;
  document.getElementById("next").disabled = current === last;
}
document.getElementById("prev").addEventListener("click", () => show(current - 1));
document.getElementById("next").addEventListener("click", () => show(current + 1));
slider.addEventListener("input", () => show(Number(slider.value)));
mode.addEventListener("change", () => show(current));
document.addEventListener("keydown", event => {
  if (event.target === mode) return;
  const moves = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last};
  if (event.key in moves) {
    event.preventDefault();
    show(moves[event.key]);
  }
});
show(0);
</script>
</body>
</html>
"""
