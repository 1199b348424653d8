"""The replay viewer: one self-contained HTML page that steps through a recorded game.

:func:`replay_html` replays a record and writes, for every step (the start,
then each decision), the board, the scores, the events of that decision and
the hands, once as everybody could know them and once per seat as that seat
could.  The page needs no network: the data, the script and the style are
inline.  Steps share what does not change: each SVG element and each sentence
is stored once, and a step lists its board as runs of consecutive elements, so
the page grows with the record, not with the board times the steps.

The page is the template ``viewer.html`` (package data) filled in one pass by
:func:`fill_template`: every ``{{name}}`` placeholder is replaced by its value
once, and a value is never searched for placeholders (a player named ``{{data}}``
stays text).

Controls: the buttons or the left/right arrow keys step back and forth,
Home/End jump to the ends, the slider picks any step, and the menu chooses
whose knowledge to show.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from importlib.resources import files
from typing import Any

from tajmahal.analysis import GameAnalysis, card_name, move_name, plain_text, score_breakdown
from tajmahal.events import EventKind, explain_views, opening, seat_name
from tajmahal.game import Game, GameRecord
from tajmahal.render import board_elements
from tajmahal.render._panel import state_tiles
from tajmahal.render._viewer_data import analysis_data, breakdown_data, owned_data, table_data
from tajmahal.rules.component_types import Card
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView

__all__ = ["analysis_data", "breakdown_data", "fill_template", "page_template", "replay_html"]

_HIDDEN = frozenset({EventKind.VISIT_END})
_KEYFRAME = 32  #: every so many steps, a board that does not refer to the step before
_PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")
_RELATIVE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def replay_html(
    record: GameRecord,
    *,
    title: str | None = None,
    analysis: GameAnalysis | None = None,
    analysis_from: str | None = None,
) -> str:
    """The viewer page for ``record`` (an HTML document, as a string).

    Each step also shows the table this visit (each seat's cards and symbol
    totals, the leaders, what withdrawing would win), the tiles each seat
    owns and, once the game is over, every seat's points by reason.  With
    ``analysis`` (:func:`tajmahal.analysis.analyse_game` of this record) the
    page draws its strip: one mark per rated decision, the mistakes marked,
    the best move shown.  With ``analysis_from`` instead (a name beside the page's own
    path, as a web server serves both: ``marks`` for a page at ``/analysis/TOKEN``), the
    page is drawn at once and fetches its strip's data (JSON, as ``analysis_data`` gives) from
    there: a server can give the page before its search is done.

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
    texts: dict[str, int] = {}
    owneds: dict[str, int] = {}  # the tiles owned: the same for many steps, stored once
    shared = _Shared(texts)  # cards, hands and the table's rows: each stored once
    steps = []
    seats = range(record.num_players)
    before_views: list[PlayerView] = []
    before_board: list[int] = []
    for number, state in enumerate(states):
        views = [state.view(seat) for seat in seats]
        lines = board_elements(comps, None, views[0], players, layout_tiles)
        board = [elements.setdefault(line, len(elements)) for line in lines]
        runs = _board_runs(board, None if number % _KEYFRAME == 0 else before_board)
        before_board = board
        if number == 0:
            told = [[event.text for event in opening(state)]] * len(seats)
            mover = 0
            label = "the start"
        else:
            move = record.moves[number - 1]
            turn = before_views[0].current_player
            assert turn is not None
            mover = turn
            told = [_lines(before_views[s], move, views[s], players) for s in seats]
            label = (
                f"move {number} of {len(record.moves)}: {seat_name(mover, players)}: "
                + move_name(move, comps)
            )
        indexed = [[texts.setdefault(line, len(texts)) for line in lines] for lines in told]
        before_views = views
        owned = json.dumps([shared.holding(parts) for parts in owned_data(views[0])])
        steps.append(
            {
                "label": label,
                "visit": state.visit,
                "scores": list(state.scores),
                "board": runs,
                # a seat's lines only where they are not everybody's (a draw: "draws a card")
                "events": {"all": indexed[mover],
                           **{str(s): indexed[s] for s in seats if indexed[s] != indexed[mover]}},
                "hands": [shared.cards(view.hand) for view in views],
                "table": shared.table(table_data(views[0]), views[0]),
                "owned": owneds.setdefault(owned, len(owneds)),
            }
        )
    names = [seat_name(s, players) for s in range(record.num_players)]
    data: dict[str, object] = {
        "players": names, "elements": list(elements), "texts": list(texts), "steps": steps,
        **shared.tables(),
        "owned": [json.loads(text) for text in owneds],
        "breakdown": breakdown_data(score_breakdown(record)) if states[-1].is_over else None,
        "analysis": None, "analysis_from": None,
    }  # fmt: skip
    if analysis is not None:
        if analysis.moves != len(record.moves) or analysis.num_players != record.num_players:
            raise TajMahalError("the analysis is of another game: its moves or seats differ")
        data["analysis"] = analysis_data(analysis)
    elif analysis_from is not None:
        if not _RELATIVE.fullmatch(analysis_from):
            raise ValueError(f"analysis_from is a name beside the page's path: {analysis_from!r}")
        data["analysis_from"] = analysis_from
    heading = title or f"Taj Mahal, seed {record.seed}: " + ", ".join(names)
    # no "<" at all inside the script element: nothing in the data can end or bend it
    payload = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return fill_template(page_template(), {"title": escape(heading), "data": payload})


@cache
def page_template(name: str = "viewer.html") -> str:
    """The text of a page template shipped with :mod:`tajmahal.render` (package data)."""
    return files("tajmahal.render").joinpath(name).read_text(encoding="utf-8")


def fill_template(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``{{name}}`` replaced by ``values[name]``, in one pass.

    Values go in as they are (escape them first) and are never searched for
    placeholders; a placeholder without a value is a :class:`KeyError`.

    >>> fill_template('<p>{{a}} {{b}}</p>', {'a': '{{b}}', 'b': 'x'})
    '<p>{{b}} x</p>'
    """
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], template)


class _Shared:
    """What many steps repeat, each stored once and named by its index: card names (with
    their colours), lists of cards (a hand, a seat's cards on the table), the table's rows
    and its prizes; a row's "withdrawing now" sentence goes to the page's ``texts``."""

    def __init__(self, texts: dict[str, int]) -> None:
        self._texts = texts
        self._cards: dict[tuple[str, str], int] = {}
        self._lists: dict[tuple[int, ...], int] = {}
        self._rows: dict[str, int] = {}
        self._prizes: dict[str, int] = {}
        self._holdings: dict[tuple[str, ...], int] = {}

    def cards(self, cards: Sequence[Card]) -> int:
        """The index of the list of ``cards`` (each card its index in ``cards``)."""
        numbers = tuple(
            self._cards.setdefault((card_name(card), card.color.value), len(self._cards))
            for card in cards
        )
        return self._lists.setdefault(numbers, len(self._lists))

    def table(self, table: dict[str, Any], view: PlayerView) -> dict[str, Any]:
        """A step's table panel: the province, its rows' and its prizes' indices."""
        rows = []
        for row, cards in zip(table["seats"], view.table, strict=True):
            withdraw = row["withdraw"]
            compact = {
                "cards": self.cards(cards), "totals": row["totals"], "withdrawn": row["withdrawn"],
                "withdraw": None if withdraw is None else
                self._texts.setdefault(withdraw, len(self._texts)),
            }  # fmt: skip
            text = json.dumps(compact, separators=(",", ":"))
            rows.append(self._rows.setdefault(text, len(self._rows)))
        prizes = [json.dumps(prize, separators=(",", ":")) for prize in table["prizes"]]
        return {"province": table["province"], "seats": rows,
                "prizes": [self._prizes.setdefault(p, len(self._prizes)) for p in prizes]}

    def holding(self, parts: list[str]) -> int:
        """The index of one seat's tiles and special cards owned, in words."""
        return self._holdings.setdefault(tuple(parts), len(self._holdings))

    def tables(self) -> dict[str, Any]:
        """The page data's shared parts: ``cards`` ([name, colour]), ``lists`` (of card
        indices), ``rows`` and ``prizes`` (the table panel's), ``holdings`` (what a seat
        owns, in words)."""
        return {"cards": [list(card) for card in self._cards], "lists": [list(numbers) for
                numbers in self._lists], "rows": [json.loads(text) for text in self._rows],
                "prizes": [json.loads(text) for text in self._prizes],
                "holdings": [list(parts) for parts in self._holdings]}  # fmt: skip


def _board_runs(indices: Sequence[int], before: Sequence[int] | None) -> list[list[int]]:
    """A step's board as runs ``[source, first, count]``: ``count`` element indices from
    ``first`` on (source 0), or ``count`` entries of the step before's board from position
    ``first`` on (source 1; only given ``before``).  Linear in the board.

    >>> _board_runs([0, 1, 2, 7, 8, 3], None)
    [[0, 0, 3], [0, 7, 2], [0, 3, 1]]
    >>> _board_runs([0, 1, 9, 7, 8, 3], [0, 1, 2, 7, 8, 3])
    [[1, 0, 2], [0, 9, 1], [1, 3, 3]]
    """
    previous = before or ()
    position: dict[int, int] = {}
    for at, index in enumerate(previous):
        position.setdefault(index, at)
    runs: list[list[int]] = []
    for index in indices:
        if runs:
            source, first, count = runs[-1]
            following = first + count
            if (source == 0 and index == following) or (
                source == 1 and following < len(previous) and previous[following] == index
            ):
                runs[-1][2] += 1
                continue
        found = position.get(index)
        runs.append([0, index, 1] if found is None else [1, found, 1])
    return runs


def _lines(before: PlayerView, move: Move, after: PlayerView, players: Sequence[str]) -> list[str]:
    decision = explain_views(before, move, after)
    return [plain_text(e.sentence(players)) for e in decision.events if e.kind not in _HIDDEN]
