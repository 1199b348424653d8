"""One game being played on the server: its history, its bot seats, its open connections.

A :class:`Table` changes only through :meth:`Table.move` (a human's move),
:meth:`Table.undo` and its bot driver; each change is committed to the store
before it is applied, acknowledged and announced.  Bots are asked through the
referee (time limits, faults, fallback moves): Python bots in the server's
worker processes (:mod:`tajmahal.web.workers`), bot programs through the bot
protocol; never on the event loop, and no thread per game.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import time
import zlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tajmahal._escape import log_text
from tajmahal._moved import renamed_names
from tajmahal.faults import Fault, FaultKind
from tajmahal.game import Game, GameRecord
from tajmahal.protocol import ProcessLimits, ProcessSeat
from tajmahal.referee.decisions import Referee as _Referee
from tajmahal.referee.match import bot_seed
from tajmahal.referee.record_tags import match_tags
from tajmahal.rules.errors import IllegalMoveError, TajMahalError
from tajmahal.rules.moves import Move, parse_move
from tajmahal.rules.state import GameState
from tajmahal.rules.views import PlayerView
from tajmahal.seat_contract import Answer, SeatPlayer
from tajmahal.serialize import dumps
from tajmahal.web._table_analysis import hint_for, table_data
from tajmahal.web.clocks import SeatClocks, timeout_move
from tajmahal.web.config import GameConfig, ServerSettings
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
from tajmahal.web.stores.contract import StoredGame, StoredMove
from tajmahal.web.stores.sqlite import SQLiteStore
from tajmahal.web.workers import PooledSeat, Workers

__all__ = ["ConnectionOutbox", "Rejected", "Table", "Workers"]

log = logging.getLogger("tajmahal.web")

if not TYPE_CHECKING:  # the former name, deprecated (type checkers see only the new one)
    __getattr__ = renamed_names(__name__, {"Listener": "ConnectionOutbox"})


class Rejected(TajMahalError):
    """A client's request that changes nothing: the message says why (sent to that client)."""


class ConnectionOutbox:
    """One open connection's mailbox: replies and state messages, in the order they are sent.

    A state message is built when the table's backlog gets to it (see
    :meth:`Table.tell`), from the state as it is then: the changes made
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


class _HumanSeat:
    """A human's seat in the referee's list: never asked (humans move through the server)."""

    setup_fault = None

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: Any, legal: Any, limit: Any, decision: int = 0) -> Answer:
        return Answer(kind=FaultKind.UNAVAILABLE, detail="a human seat")  # pragma: no cover

    def close(self) -> None:
        return None


class Table:
    """A game on the server (see the module docs)."""

    def __init__(
        self,
        stored: StoredGame,
        config: GameConfig,
        settings: ServerSettings,
        workers: Workers,
    ) -> None:
        self.id, self.config, self.settings, self.workers = stored.id, config, settings, workers
        self._seed = stored.seed
        game = Game.new(len(config.seats), stored.seed, players=config.players)
        for stored_move in stored.moves:
            game.push(parse_move(stored_move.move, game.state))
        self.game = game
        self.moves: list[StoredMove] = list(stored.moves)
        self.version = 0
        self.listeners: set[ConnectionOutbox] = set()
        self._lock = asyncio.Lock()
        self._referee: _Referee | None = None
        self._seats: list[SeatPlayer] = []
        self._driver: asyncio.Task[None] | None = None
        #: each message built once per version, seat and what the page already has
        self._frames: dict[tuple[int, int | None, int | None], tuple[int, str]] = {}
        #: the live board, the same for every seat, as compressed JSON (84 KB of it in ~13 KB
        #: so: an idle game holds little; a page's first message unpacks it)
        self._board: bytes | None = None
        self._drawing: asyncio.Task[None] | None = None  #: the board being drawn
        self._waiting_board: set[ConnectionOutbox] = set()  #: the pages waiting for it
        #: the table panel of a decision (public facts: the same for every seat)
        self._tables: dict[int, dict[str, Any] | None] = {}
        self.rewound = 0  #: the version of the last undo: pages get the whole state again
        self._breakdown: dict[str, Any] | None = None  #: where the points came from, at the end
        self._events: dict[int | None, list[tuple[int, int | None, list[str]]]] = {}
        self.closed = False
        self.finished_record: str | None = stored.record
        self._recorded = asyncio.Event()  # set once a game that ends here has its record stored
        #: why the bots may not play (the server's settings no longer allow this game), or None
        self.halted: str | None = None
        self.last_active = time.monotonic()  #: when a move was last made (or the game loaded)
        self.clocks = self._clocks()  #: the people's clocks (None: no time control)
        self._timer: asyncio.Task[None] | None = None  #: plays a person's move at zero
        self._rebuild_events()

    # ------------------------------------------------------------------------ reading

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

    def _clocks(self) -> SeatClocks | None:
        clock, seats = self.config.clock, self.config.seats
        if clock is None:
            return None
        spent = [(m.seat, m.elapsed) for m in self.moves if seats[m.seat].human]
        return SeatClocks(clock, [seat.human for seat in seats], spent)

    def _arm_clock(self) -> None:
        """Start the countdown of the person to move (a bot's or the game's end: none)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        state = self.state
        if self.clocks is None or self.closed or state.is_over or state.current_player is None:
            return
        seat = state.current_player
        left = self.clocks.left(seat, running=True)
        if left is not None:
            self._timer = asyncio.get_running_loop().create_task(
                self._run_out(len(self.game) + 1, seat, left))

    async def _run_out(self, number: int, seat: int, left: float) -> None:
        """At zero: the server plays the seat's move (autopilot, or withdrawing)."""
        await asyncio.sleep(left)
        try:
            await self._timed_out(number, seat)
        except Exception:  # a store that refused (another process holds the game): logged
            log.exception("game %s: cannot play seat %d's move at zero", self.id, seat)

    async def _timed_out(self, number: int, seat: int) -> None:
        async with self._lock:
            state = self.state
            if self.clocks is None or len(self.game) + 1 != number or state.is_over:
                return
            clock = self.clocks.clock
            move = timeout_move(state.view(seat), state.legal_moves(), clock.at_zero,
                                bot_seed(int(self.id[:8], 16), number))  # fmt: skip
            detail = f"the clock ran out: the server played {move} ({clock.at_zero})"
            fault = {"seat": seat, "decision": number, "kind": "timeout", "detail": detail,
                     "traceback": ""}  # fmt: skip
            log.info("game %s: seat %d: %s", self.id, seat, detail)
            elapsed = round(self.clocks.running(), 3)
            self._timer = None  # (this task: not cancelled by the commit's arming)
            await self._commit(StoredMove(number, seat, str(move), elapsed, fault), move)
        self.drive()

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
                self._breakdown = _breakdown(self.game.record())
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

    def _changed(self) -> None:
        self._arm_clock()
        self.version += 1
        self.last_active = time.monotonic()
        for listener in self.listeners:
            self.tell(listener)

    # ------------------------------------------------------------------------ changing

    async def move(
        self, seat: int, decision: object, text: object,
        acknowledge: Callable[[], None] | None = None,
    ) -> None:  # fmt: skip
        """A human's move for decision number ``decision`` (1-based); :class:`Rejected` if not.

        ``acknowledge`` is called once the move is stored, before anybody is told of it.
        """
        async with self._lock:
            number, move = self._checked_move(seat, decision, text)
            elapsed = 0.0 if self.clocks is None else round(self.clocks.running(), 3)
            await self._commit(StoredMove(number, seat, str(move), elapsed), move, acknowledge)
        self.drive()

    def _checked_move(self, seat: int, decision: object, text: object) -> tuple[int, Move]:
        """The decision number and move a person's message asks for, now (the caller holds the
        table's lock); :class:`Rejected` says what is wrong with it."""
        state = self.state
        if state.is_over:
            raise Rejected("the game is over")
        if type(decision) is not int or decision != len(self.game) + 1:
            raise Rejected(
                f"this message is for decision {_shown(decision)}, but the game is at "
                f"decision {len(self.game) + 1} (a repeated or stale message)"
            )
        if state.current_player != seat:
            raise Rejected("it is not your turn")
        if type(text) is not str or len(text) > 200:
            raise Rejected("a move is the text of one of your legal moves")
        try:
            move = parse_move(text, state)
        except IllegalMoveError as exc:
            raise Rejected(str(exc).split(": legal moves")[0][:300]) from None
        return decision, move

    async def undo(self, seat: int, decision: object) -> None:
        """Take back this human's last move and the bots' moves after it."""
        async with self._lock:
            if type(decision) is not int or decision != len(self.game) + 1:
                raise Rejected(f"this undo is for decision {_shown(decision)}, not the current one")
            if not self.undo_allowed(seat):
                raise Rejected("undo is possible on your turn, after a move of yours, while every "
                               "other seat is a bot")  # fmt: skip
            last = max(k for k, m in enumerate(self.moves) if m.seat == seat)
            await self.workers.stored(self.workers.store.remove_moves, self.id, last + 1)
            while len(self.game) > last:
                self.game.pop()
            del self.moves[last:]
            self.clocks = self._clocks()
            self._rebuild_events()
            log.info("game %s: seat %d took back moves %d and later", self.id, seat, last + 1)
            self.rewound = self.version + 1
            self._changed()

    async def hint(self, seat: int, decision: object) -> dict[str, Any]:
        """A hint for this seat's decision (a search from its view only), if the game allows."""
        if not self.config.hints:
            raise Rejected("hints are off in this game")
        state = self.state
        if type(decision) is not int or decision != len(self.game) + 1:
            raise Rejected(f"this hint is for decision {_shown(decision)}, not the current one")
        if state.is_over or state.current_player != seat:
            raise Rejected("a hint is for your turn")
        view, legal = state.view(seat), state.legal_moves()
        seed = bot_seed(int(self.id[:8], 16), decision)
        return await self.workers.bot(hint_for, view, legal, seed)

    async def _commit(
        self, stored: StoredMove, move: Move, acknowledge: Callable[[], None] | None = None
    ) -> None:
        """Store, then apply, acknowledge and announce one move (the caller holds the lock)."""
        await self.workers.add_move(self.id, stored)
        if acknowledge is not None:
            acknowledge()  # the ack first, then the frames
        after = self.game.push(move)
        self.moves.append(stored)
        if self.clocks is not None:  # the time taken counted; the next decision's clock runs
            if self.seat_is_human(stored.seat):
                self.clocks.record(stored.seat, stored.elapsed)
            else:
                self.clocks.started = time.monotonic()
        if after.is_over:
            await self._finish()
        self._changed()

    async def _finish(self) -> None:
        # where the points came from (tens of ms): in a thread, not in the loop's turn
        self._breakdown = await self.workers.drawn(_breakdown, self.game.record())
        await self.keep_record()
        log.info("game %s: over, scores %s", self.id, list(self.state.scores))
        seats, self._seats = self._seats, []
        self.workers.pool.forget(self.id)
        programs = [seat for seat in seats if isinstance(seat, ProcessSeat)]
        if programs:
            await self.workers.program(_finish_seats, programs, self.state)

    async def keep_record(self) -> None:
        """Store the record of a game that is over (also one whose server stopped as it ended)."""
        text = dumps(self.record())
        await self.workers.stored(self.workers.store.finish, self.id, text)
        self.finished_record = text
        self._recorded.set()

    async def record_stored(self, timeout: float = 30.0) -> None:
        """Wait while a game that is over still has its record being stored."""
        if self.finished_record is None and self.state.is_over:
            try:
                await asyncio.wait_for(self._recorded.wait(), timeout)
            except TimeoutError:
                log.warning("game %s: the record was not stored within %s s", self.id, timeout)

    def record(self) -> GameRecord:
        """The game's record (the seed included: only given out once the game is over)."""
        faults = [] if self._referee is None else [
            f for f in self._referee.faults if f.decision == 0
        ]  # fmt: skip
        for stored in self.moves:
            if stored.fault is not None:
                faults.append(_fault(stored.fault))
        specs = [s.name if not s.human else "human" for s in self.config.seats]
        tags = match_tags(specs, self.config.time_limit, self.config.game_time)
        for number in self.config.humans:
            tags[f"package.{number}"] = "human"
        tags["event"] = "tajmahal serve"
        record = self.game.record()
        return GameRecord(
            num_players=record.num_players, seed=record.seed, moves=record.moves,
            first_player=record.first_player, components=record.components,
            players=self.config.players, scores=record.scores, winners=record.winners,
            tags=tags, faults=tuple(faults), times=tuple(m.elapsed for m in self.moves),
        )  # fmt: skip

    # ------------------------------------------------------------------------ bots

    def drive(self) -> None:
        """Let the bots play while it is a bot's turn (one task per table)."""
        if self._timer is None:
            self._arm_clock()  # a game loaded (a restart): the person's clock runs again
        if self.closed or self.halted or (self._driver is not None and not self._driver.done()):
            return
        state = self.state
        if state.is_over or self.seat_is_human(state.current_player or 0):
            return
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        try:
            if self._referee is None:
                self._seats = await self._build_seats()
                limit = self.config.time_limit
                if limit is None and self.config.game_time is None:
                    limit = self.settings.default_time_limit
                self._referee = _Referee(self._seats, limit, self.config.game_time)
            referee = self._referee
            backlog = self.workers.backlog
            while not self.closed:
                await backlog.turn(first=True)  # behind the people's moves, before the pages
                state = self.state
                seat = state.current_player
                if self.closed or state.is_over or seat is None or self.seat_is_human(seat):
                    return
                number = len(self.game) + 1
                view, legal = state.view(seat), state.legal_moves()
                faults = len(referee.faults)
                answer = referee.clock_out(seat)  # a timeout at once if its game clock ran out
                if answer is None:
                    player = self._seats[seat]
                    decide = getattr(player, "decide", None)  # pooled and arena seats: awaited
                    if decide is not None:
                        answer = await decide(view, legal, referee.limit, number)
                    else:
                        answer = await self.workers.program(
                            player.choose, view, legal, referee.limit, number
                        )
                move = referee.judge(seat, number, legal, answer)
                fault = None
                if len(self._referee.faults) > faults:
                    made = self._referee.faults[-1]
                    fault = {"seat": made.seat, "decision": made.decision,
                             "kind": made.kind.value, "detail": made.detail,
                             "traceback": made.traceback}  # fmt: skip
                    log.info("game %s: fault: %s", self.id, log_text(made))
                if self.closed:
                    return
                async with self._lock:
                    if len(self.game) + 1 != number:  # pragma: no cover - humans cannot move now
                        continue
                    await self._commit(
                        StoredMove(number, seat, str(move), self._referee.times[-1], fault), move
                    )
        except Exception:  # a bug: logged, the game stays where it stood
            log.exception("game %s: the bot driver stopped", self.id)

    async def _build_seats(self) -> list[SeatPlayer]:
        """One seat per bot (humans get a placeholder): Python bots in the worker processes,
        programs (``cmd:``, ``--isolate``) through the bot protocol."""
        from tajmahal.bots.specs import check_spec

        limit = self.config.time_limit or self.config.game_time or self.settings.default_time_limit
        seats: list[SeatPlayer] = []
        for number, seat in enumerate(self.config.seats):
            if seat.human:
                seats.append(_HumanSeat(seat.name))
                continue
            if seat.remote:  # an arena bot playing from elsewhere
                seats.append(self.remote_seat(number, seat.name))
                continue
            spec = seat.spec if seat.spec is not None else check_spec(seat.name)
            seed = bot_seed(self._seed, number)
            if spec.is_command or self.settings.isolate or self.settings.sandbox:
                seats.append(await self.workers.program(functools.partial(
                    ProcessSeat.build, spec, seat=number, num_players=len(self.config.seats),
                    seed=seed, time_limit=limit, limits=self._process_limits(),
                )))  # fmt: skip
            else:
                pooled = PooledSeat(self.workers.pool, self.id, number, seat.name, seed)
                await pooled.build(limit)
                seats.append(pooled)
        return seats

    def remote_seat(self, number: int, name: str) -> SeatPlayer:
        """The seat of the arena bot ``name`` (an arena's tables say how it plays; a server
        without the arena has none: its seat is unavailable, the game goes on)."""
        return _HumanSeat(name)

    def _process_limits(self) -> ProcessLimits:
        """A bot program's limits: sandboxed if the server says so, the database out of reach."""
        store = self.workers.store
        db = store.path if isinstance(store, SQLiteStore) else ":memory:"  # a server database
        hidden = [] if db == ":memory:" else [  # is out of reach by its password anyway
            os.path.abspath(db) + tail for tail in ("", "-wal", "-shm", "-journal")
        ]  # fmt: skip
        return ProcessLimits(sandbox=self.settings.sandbox, hidden=tuple(hidden))

    async def close(self) -> None:
        """Stop the bots (the game stays stored as it stands)."""
        self.closed = True
        if self._driver is not None:
            self._driver.cancel()
        if self._timer is not None:
            self._timer.cancel()
        seats, self._seats = self._seats, []
        self.workers.pool.forget(self.id)
        for seat in seats:
            if isinstance(seat, ProcessSeat):
                await self.workers.program(seat.close)


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


def _breakdown(record: GameRecord) -> dict[str, Any]:
    """The result's account of where each seat's points came from."""
    from tajmahal.analysis import score_breakdown
    from tajmahal.render.viewer import breakdown_data

    data: dict[str, Any] = breakdown_data(score_breakdown(record))
    return data


def _finish_seats(seats: Sequence[SeatPlayer], state: GameState) -> None:
    scores = state.scores
    winners = _winners(state)
    ranking = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    for seat in seats:
        if isinstance(seat, ProcessSeat):
            seat.finish(scores, winners, ranking)
        seat.close()


def _winners(state: GameState) -> list[int]:
    return list(state.winners)


def _fault(data: dict[str, Any]) -> Fault:
    return Fault(data["seat"], data["decision"], FaultKind(data["kind"]), data["detail"],
                 data.get("traceback", ""))  # fmt: skip


def _fault_text(stored: StoredMove) -> str:
    assert stored.fault is not None
    return str(_fault(stored.fault))


def _shown(value: object) -> str:
    return str(value)[:20] if type(value) is int else f"a {type(value).__name__}"
