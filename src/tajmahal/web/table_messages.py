"""What a table tells its connections: each page's state messages, the game's log, and the
facts they are built from (see :class:`~tajmahal.web.table.Table`).

Each open connection has a :class:`ConnectionOutbox`; a state message is built in the
server's backlog when it gets to it (coalesced: the changes made meanwhile come in one),
once per version, seat and what the page already has, from the seat's views only.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import zlib
from typing import TYPE_CHECKING, Any

from tajmahal.faults import Fault, FaultKind
from tajmahal.game import Game, GameRecord
from tajmahal.rules.moves import Move
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView
from tajmahal.web._table_analysis import table_data
from tajmahal.web.clocks import SeatClocks
from tajmahal.web.config import GameConfig
from tajmahal.web.seat_messages import (
    MAX_EVENTS,
    decision_lines,
    live_board,
    move_labels,
    opening_lines,
    people_names,
    state_text,
    whole_log,
)
from tajmahal.web.stores.contract import StoredMove

if TYPE_CHECKING:
    from tajmahal.web.workers import Workers

__all__ = ["ConnectionOutbox", "TableMessages", "score_parts", "stored_fault"]

log = logging.getLogger("tajmahal.web")


class ConnectionOutbox:
    """One open connection's mailbox: replies and state messages, in the order they are sent.

    A state message is built when the table's backlog gets to it (see
    :meth:`TableMessages.tell`), from the state as it is then: the changes made
    meanwhile come in one message (the events of every decision since the last
    one this page has), and a reply put here before it (an ``ack``) is sent
    before it.
    """

    def __init__(self, seat: int | None, limit: int = 64) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | str] = asyncio.Queue(limit)
        #: the table's version and the decision of the last state queued (None: send it all)
        self.sent: tuple[int, int] | None = None
        self.owed = False  #: a state message is on its way (in the backlog)
        self.whole = False  #: the next state message is a full one (the page asked)
        self.dropped = False  #: a state message did not fit the queue: another when it empties
        self.closed = False

    def reply(self, message: dict[str, Any]) -> None:
        self.put(message)

    def put(self, item: dict[str, Any] | str) -> bool:
        """Queue a message (False: the queue is full, the page does not read)."""
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:  # a client that does not read: it gets the state later
            return False
        return True

    async def next(self) -> dict[str, Any] | str:
        """The next message to send: a reply (JSON data) or a state message (its text)."""
        return await self.queue.get()


class TableMessages:
    """The part of a :class:`~tajmahal.web.table.Table` that reads it for its pages: what each
    seat sees, its state messages (built in the backlog, cached per version), the log."""

    # set by the table (see Table.__init__)
    id: str
    config: GameConfig
    workers: Workers
    game: Game
    moves: list[StoredMove]
    version: int
    rewound: int
    listeners: set[ConnectionOutbox]
    clocks: SeatClocks | None
    _frames: dict[tuple[int, int | None, int | None], tuple[int, str]]
    _board: bytes | None
    _drawing: asyncio.Task[None] | None
    _waiting_board: set[ConnectionOutbox]
    _tables: dict[int, dict[str, Any] | None]
    _breakdown: dict[str, Any] | None
    _events: dict[int | None, list[tuple[int, int | None, list[str]]]]

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def decision(self) -> int:
        """How many moves have been made."""
        return len(self.game)

    @property
    def players(self) -> tuple[str, ...]:
        """The seats' names on the pages: bots as the lobby names them ("level 3")."""
        return people_names(self.config.players, self.config.humans)

    async def log(self, seat: int | None) -> dict[str, Any]:
        """The ``log`` message: every decision's events as ``seat`` knows them, up to the state
        it sees (a page asks once per load; state messages carry the latest decisions only)."""
        index = self._shown_index(seat)
        states, moves = self.game.states[: index + 1], self.game.moves[:index]
        looker, players = 0 if seat is None else seat, self.players
        events = await self.workers.drawn(lambda: whole_log(
            [state.view(looker) for state in states], moves, players, private=seat is not None))
        return {"type": "log", "decision": index, "events": events}

    def seat_is_human(self, seat: int) -> bool:
        return self.config.seats[seat].human

    def undo_allowed(self, seat: int) -> bool:
        """Undo is for a human playing alone against bots, on their turn, after a move of theirs."""
        others_bots = all(
            not s.human for n, s in enumerate(self.config.seats) if n != seat
        )
        state = self.state
        return (
            others_bots
            and not state.is_over
            and state.current_player == seat
            and any(m.seat == seat for m in self.moves)
        )

    def _shown_index(self, seat: int | None) -> int:
        """The state a seat sees: the latest; for a delayed spectator, where this visit began."""
        if seat is not None or not self.config.spectator_delay or self.state.is_over:
            return len(self.game)
        states = self.game.states
        visit = states[-1].visit
        return next(k for k, s in enumerate(states) if s.visit == visit)

    def tell(self, listener: ConnectionOutbox, whole: bool = False) -> None:
        """Send ``listener`` the state when the backlog gets to it (``whole``: a full one).

        One message is on its way per listener at a time; the changes made
        before it is built are in it (coalesced).
        """
        if whole:
            listener.whole = True
        if not listener.owed and not listener.closed:
            listener.owed = True
            self.workers.backlog.add(functools.partial(self._tell, listener))

    def _tell(self, listener: ConnectionOutbox) -> bool:
        """A backlog job: build ``listener``'s state message now and queue it (False: none due)."""
        listener.owed = False
        if listener.closed:
            return False
        sent = listener.sent
        whole = listener.whole or sent is None or sent[0] < self.rewound
        if not whole and sent is not None and sent[0] == self.version:
            return False  # nothing new since the last one
        if self._board is None:  # the board first (drawn once per game, in a thread)
            listener.owed = True
            self._waiting_board.add(listener)
            if self._drawing is None:
                self._drawing = asyncio.get_running_loop().create_task(self._draw_board())
            return False
        try:
            decision, text = self.frame_now(listener.seat, None if whole or sent is None
                                            else sent[1])  # fmt: skip
        except Exception:  # a bug: logged; the connection and the game go on
            log.exception("game %s: cannot build the state message", self.id)
            listener.reply({"type": "error", "message": "internal error (logged)",
                            "request": None})  # fmt: skip
            return True
        if listener.put(text):
            listener.sent = (self.version, decision)
            listener.whole = False
        else:
            listener.dropped = True  # the sender asks again once the page reads
        return True

    async def _draw_board(self) -> None:
        try:
            self._board = await self.workers.drawn(_packed_board, self.game.initial_state.view(0))
        except Exception:  # a bug: logged; the pages waiting for it are told
            log.exception("game %s: cannot draw the board", self.id)
            for listener in self._waiting_board:
                listener.reply({"type": "error", "message": "internal error (logged)",
                                "request": None})  # fmt: skip
        finally:
            self._drawing = None
            waiting, self._waiting_board = self._waiting_board, set()
            for listener in waiting:
                listener.owed = False
                if self._board is not None:
                    self.tell(listener)

    def frame_now(self, seat: int | None, since: int | None = None) -> tuple[int, str]:
        """The ``state`` message for ``seat`` now, as (its decision, JSON text).

        ``since``: the decision of the last state this page has (the message
        then carries only the events after it, and no board); None: the whole
        state, the board included (drawn already).  Built on the event loop,
        once per version, seat and ``since``, whatever the number of pages (a
        whole state, rare and large, each time it is asked for).
        """
        index = self._shown_index(seat)
        if since is not None and not index - MAX_EVENTS <= since <= index:
            # the page is ahead (an undo, a delayed spectator), or so far behind (it did not
            # read) that the events it lacks are no longer kept: all again
            since = None
        key = (self.version, seat, since)
        cached = self._frames.get(key)
        if cached is None:
            shown = self._shown(seat, since)
            cached = (shown["decision"], _frame_text(shown, self._table_panel(index)))
            if since is None:
                return cached  # a whole state (the board in it) is rare, and large to keep
            if len(self._frames) > 16 or any(k[0] != key[0] for k in self._frames):
                self._frames.clear()  # only the latest version's frames are kept (memory)
            self._frames[key] = cached
        return cached

    def _table_panel(self, index: int) -> dict[str, Any] | None:
        """The table panel at decision ``index``: public facts, the same for every seat."""
        panel = self._tables.get(index)
        if panel is None and index not in self._tables:
            try:
                panel = table_data(self.game.states[index].view(0))
            except Exception:  # the panel is a help: a bug in it must not stop the game
                log.exception("game %s: the table panel failed", self.id)
            if len(self._tables) >= 4:
                self._tables.clear()
            self._tables[index] = panel
        return panel

    def _shown(self, seat: int | None, since: int | None) -> dict[str, Any]:
        """What :func:`state_frame` needs for ``seat``, taken from the table as it is now."""
        index = self._shown_index(seat)
        state = self.game.states[index]
        legal: tuple[Move, ...] = ()
        if seat is not None and state.current_player == seat and self.seat_is_human(seat):
            legal = tuple(state.legal_moves())
        first = -1 if since is None else since
        result = None
        if state.is_over:
            if self._breakdown is None:  # (a game that ends here has it already)
                self._breakdown = score_parts(self.game.record())
            result = {"scores": list(state.scores), "winners": _winners(state),
                      "faults": [_fault_text(m) for m in self.moves if m.fault is not None],
                      "breakdown": self._breakdown}  # fmt: skip
        return {
            "state": state, "moves": legal, "seat": seat,
            "board": _unpacked(self._board) if since is None and self._board else None,
            "game_id": self.id, "decision": index,
            "players": self.players, "humans": self.config.humans,
            "events": [e for e in self._events_of(seat) if first < e[0] <= index],
            "hints": self.config.hints and seat is not None,
            "undo": seat is not None and self.undo_allowed(seat), "result": result,
            "delayed": index != len(self.game),
            "clocks": None if self.clocks is None else self.clocks.shown(state.current_player),
        }  # fmt: skip

    def _rebuild_events(self) -> None:
        """Forget the events told so far (an undo): each audience's are told again when next
        asked, and the table panels built again."""
        self._events = {}
        self._tables = {}

    def _events_of(self, audience: int | None) -> list[tuple[int, int | None, list[str]]]:
        """The latest decisions' events as ``audience`` knows them, told when first asked
        (opening a game costs no events; a decision costs only those of its audiences, in
        the backlog's turn: when a state message is built)."""
        players = self.players
        states = self.game.states
        told = self._events.get(audience)
        if told is None:
            told = self._events[audience] = []
            start = max(0, len(states) - 1 - MAX_EVENTS)
            if start == 0:
                told.append((0, None, opening_lines(states[0].view(audience or 0), players)))
        else:
            start = max(told[-1][0] if told else 0, len(states) - 2 - MAX_EVENTS)
        for k in range(start + 1, len(states)):
            told.append(self._told(audience, states[k - 1], self.game.moves[k - 1], states[k], k))
        del told[: -MAX_EVENTS - 1]
        return told

    def _told(
        self, audience: int | None, before: GameState, move: Move, after: GameState, number: int
    ) -> tuple[int, int | None, list[str]]:
        looker = audience if audience is not None else 0
        lines = decision_lines(before.view(looker), move, after.view(looker), self.players,
                               private=audience is not None)  # fmt: skip
        return number, before.current_player, lines


def _packed_board(start: PlayerView) -> bytes:
    return zlib.compress(json.dumps(live_board(start)).encode())


def _unpacked(board: bytes) -> dict[str, Any]:
    unpacked: dict[str, Any] = json.loads(zlib.decompress(board))
    return unpacked


def _frame_text(shown: dict[str, Any], table: dict[str, Any] | None) -> str:
    """The seat's view, its moves and table (``table``: the panel of any seat), as the
    message's text."""
    state: GameState = shown.pop("state")
    legal: tuple[Move, ...] = shown.pop("moves")
    seat = shown["seat"]
    view = state.view(0 if seat is None else seat)
    if table is not None:
        table = {**table, "seat": seat}
    labels = move_labels(view, legal) if legal else []
    return state_text(view, table=table, legal=[str(m) for m in legal], labels=labels, **shown)


def score_parts(record: GameRecord) -> dict[str, Any]:
    """The result's account of where each seat's points came from."""
    from tajmahal.analysis import score_breakdown
    from tajmahal.render.viewer import breakdown_data

    data: dict[str, Any] = breakdown_data(score_breakdown(record))
    return data


def _winners(state: GameState) -> list[int]:
    return list(state.winners)


def stored_fault(data: dict[str, Any]) -> Fault:
    """A stored move's fault (its JSON-ready dict) as a :class:`~tajmahal.Fault`."""
    return Fault(data["seat"], data["decision"], FaultKind(data["kind"]), data["detail"],
                 data.get("traceback", ""))  # fmt: skip


def _fault_text(stored: StoredMove) -> str:
    assert stored.fault is not None
    return str(stored_fault(stored.fault))
