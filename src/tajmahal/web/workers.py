"""Where a server's work runs: bots in worker processes, storage and drawing in threads, and
the event loop's own low-priority work (state messages, bots' turns) in its :class:`Backlog`.

**Bots in worker processes.**  The server's in-process bots (every seat but
``cmd:`` programs and ``--isolate``/``--sandbox`` seats, which run through
the bot protocol as before) play in a pool of worker processes, one per core
by default (:attr:`~tajmahal.web.config.ServerSettings.bot_workers`).  Each
decision is sent with the seat's view and its legal moves (pickled); the
worker answers with the chosen move's index, or a fault.  The server's own
interpreter only routes, stores and draws, so a thinking bot slows no other
game's acknowledgements or pictures.

**A game's bots stay on one worker.**  A bot keeps state between its
decisions (its random generator, a search's statistics), and the referee
builds it once per game from its spec and seed, as :func:`~tajmahal.play_match`
does: so each game is pinned to one worker (the one with the fewest games
when its bots are first built), where its bot objects live until the game
ends.  The same seed and deterministic bots give the same record as
``play_match``.  Rebuilding a bot for each decision would let any worker take
any decision, but would change what stateful bots play.

**Threads inside a worker.**  A worker runs each call in a thread of its
own pool (:data:`~tajmahal.web.bot_worker.THREADS`), so a quick bot's decision never waits for a
search that another game runs on the same worker (they share its
interpreter, not a queue).  A seat is asked one decision at a time.

**Priority.**  The workers run at a lower CPU priority (:data:`~tajmahal.web.bot_worker.NICE`): when
bots and the server want the same core, the server answers first.

**Time limits, faults.**  A decision's clock starts when the server hands
it over.  A decision that takes longer than its limit (measured in the
worker) is a timeout; one that has not answered :data:`SLACK` seconds after
its limit is a timeout at once, the fallback move is played, and its late
answer is dropped; the seat is not asked again until that call returns (its
decisions meanwhile are timeouts, as in a match).  A worker still running a
call :data:`GRACE` seconds (at least the limit) after its limit is replaced
by a new process, and its other calls are asked again of the new one; a
worker that died is replaced too, and each call it was running is a
``crash`` fault.  The bots pinned to a replaced worker are built again from
their specs and seeds at their next decision (a log line says so).

**Two sides.**  This module is the server's side (the pool, its seats, the threads and
the backlog); what runs inside each worker process is :mod:`tajmahal.web.bot_worker`.

**Trust.**  These are in-process bots (trusted code, as in
:func:`~tajmahal.play_match`): the server reads their workers' answers as
pickles.  Untrusted bots are programs: ``--isolate``, ``--sandbox``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import itertools
import logging
import os
import pickle
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from tajmahal.faults import FaultKind
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView
from tajmahal.seat_contract import Answer, timeout_answer
from tajmahal.web.bot_worker import NICE, THREADS, serve_bots  # noqa: F401  (its old home)
from tajmahal.web.config import ServerSettings
from tajmahal.web.stores.contract import GameStore, StoredMove
from tajmahal.worker_process import WorkerProcess

__all__ = ["GRACE", "NICE", "SLACK", "THREADS", "Backlog", "BotPool", "PooledSeat", "Workers"]

log = logging.getLogger("tajmahal.web")
T = TypeVar("T")

SLACK = 0.5  #: seconds past a decision's limit before the server stops waiting for it
GRACE = 5.0  #: seconds past its limit (at least) before the worker still running it is replaced
BOT_WORKER = "tajmahal.web.bot_worker:serve_bots"  #: the workers' main function


class _Request:
    """One call handed to a worker: its message, and the future its answer resolves."""

    __slots__ = ("future", "late", "limit", "message", "number", "sent", "timer")

    def __init__(self, message: tuple[Any, ...], future: asyncio.Future[Any],
                 limit: float | None) -> None:  # fmt: skip
        self.message, self.future, self.limit = message, future, limit
        self.number: int = message[1]
        self.sent = 0.0
        self.late = False  #: answered already (a timeout): the worker's answer is dropped
        self.timer: asyncio.TimerHandle | None = None


class _BotProcess(WorkerProcess):
    """One bot worker process, the calls it runs and those waiting for its start."""

    def __init__(self, setup: bytes) -> None:
        super().__init__(BOT_WORKER, setup)
        self.running: dict[int, _Request] = {}
        self.waiting: collections.deque[_Request] = collections.deque()
        self.games: set[str] = set()

    def stop(self, kill: bool) -> None:
        self.close(kill, wait=None if kill else 5)


class BotPool:
    """The worker processes that run a server's in-process bots (see the module docs).

    Workers start on first use, or all at once with :meth:`start`.

    >>> import asyncio, tajmahal as tm
    >>> async def one_decision():
    ...     pool = BotPool(1)
    ...     state = tm.new_game(3, seed=1)
    ...     name, fault = await pool.build('g1', 0, 'greedy', seed=1, limit=10.0)
    ...     answer = await pool.decide('g1', 0, 'greedy', 1, state.view(0),
    ...                                state.legal_moves(), 10.0, 1)
    ...     await pool.close()
    ...     return name, fault, str(state.legal_moves()[answer.index])
    >>> asyncio.run(one_decision())
    ('greedy', None, 'play red:elephant+monk')
    """

    def __init__(self, size: int = 0) -> None:
        self.size = size if size > 0 else os.cpu_count() or 1
        self._slots: list[_BotProcess | None] = [None] * self.size
        self._pins: dict[str, int] = {}
        self._ids = itertools.count(1)
        self._setup: bytes | None = None
        self.replaced = 0  #: workers replaced (died, or stuck past a limit)
        self.broken: str | None = None  #: why no worker can start (then every call is a fault)
        self.closing = False  #: set by :meth:`close`: no worker starts or is replaced any more

    def start(self) -> None:
        """Start every worker now (they import the library while the server starts)."""
        for slot in range(self.size):
            if self.broken is None:
                self._worker(slot)

    # ------------------------------------------------------------------ asking

    async def build(
        self, game: str, seat: int, spec: str, seed: int, limit: float | None
    ) -> tuple[str, Answer | None]:
        """Build a seat's bot on its game's worker: (the seat's name, its setup fault or None)."""
        answer = await self._ask(game, ("build", game, seat, spec, seed), limit)
        if isinstance(answer, Answer):
            if answer.kind is FaultKind.TIMEOUT and limit is not None:
                answer = Answer(kind=FaultKind.TIMEOUT, elapsed=answer.elapsed,
                                detail=f"building the bot took more than {limit:g} s")  # fmt: skip
            return spec, answer
        name, fault = answer
        return name, fault

    async def decide(
        self, game: str, seat: int, spec: str, seed: int, view: PlayerView,
        legal: Sequence[Move], limit: float | None, decision: int,
    ) -> Answer:  # fmt: skip
        """One decision of a seat's bot, within ``limit`` seconds: its
        :class:`~tajmahal.seat_contract.Answer`."""
        message = ("decide", game, seat, spec, seed, view, tuple(legal), limit, decision)
        answer = await self._ask(game, message, limit)
        assert isinstance(answer, Answer)
        return answer

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the least busy worker (both picklable: a module's function);
        a :class:`~tajmahal.TajMahalError` it raises is raised here again."""
        slot = min(range(self.size), key=self._queued)
        future = self._submit(slot, ("call", function, args), None)
        kind, value = await future
        if kind == "raise" and isinstance(value, TajMahalError):  # a refusal, such as a bad spec
            raise value
        if kind == "error":
            raise RuntimeError(f"a worker process could not do it: {value}")
        result: T = value
        return result

    def forget(self, game: str) -> None:
        """Close and drop a game's bots (it ended, or the server stops it)."""
        slot = self._pins.pop(game, None)
        worker = self._slots[slot] if slot is not None else None
        if worker is not None:
            worker.games.discard(game)
            with contextlib.suppress(OSError):
                worker.send(("forget", 0, game))

    async def close(self) -> None:
        """Stop every worker (their calls end unanswered); none starts or is replaced after."""
        self.closing = True
        workers = [w for w in self._slots if w is not None]
        self._slots = [None] * self.size
        loop = asyncio.get_running_loop()
        for worker in workers:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_reader(worker.answers.fileno())
            for request in [*worker.running.values(), *worker.waiting]:
                if request.timer is not None:
                    request.timer.cancel()
                if not request.future.done():
                    request.future.cancel()
        if workers:
            await loop.run_in_executor(None, _stop_all, workers)

    # ------------------------------------------------------------------ the calls

    def _queued(self, slot: int) -> int:
        worker = self._slots[slot]
        return 0 if worker is None else len(worker.waiting) + len(worker.running)

    def _slot_of(self, game: str) -> int:
        slot = self._pins.get(game)
        if slot is None:
            counts = [0 if w is None else len(w.games) for w in self._slots]
            slot = min(range(self.size), key=lambda s: (counts[s], self._queued(s)))
            self._pins[game] = slot
        return slot

    async def _ask(self, game: str, message: tuple[Any, ...], limit: float | None) -> Any:
        slot = self._slot_of(game)
        future = self._submit(slot, message, limit)
        worker = self._slots[slot]
        if worker is not None:
            worker.games.add(game)
        return await future

    def _submit(
        self, slot: int, message: tuple[Any, ...], limit: float | None
    ) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        request = _Request((message[0], next(self._ids), *message[1:]), loop.create_future(), limit)
        if self.broken is not None or self.closing:
            why = self.broken if self.broken is not None else "the server is stopping"
            request.future.set_result(_unavailable(message[0], why))
            return request.future
        worker = self._worker(slot)
        if worker.ready:
            self._send(worker, request)
        else:
            worker.waiting.append(request)
        return request.future

    def _worker(self, slot: int) -> _BotProcess:
        worker = self._slots[slot]
        if worker is None:
            if self._setup is None:
                self._setup = _setup_message()
            worker = self._slots[slot] = _BotProcess(self._setup)
            asyncio.get_running_loop().add_reader(worker.answers.fileno(), self._readable,
                                                  worker)  # fmt: skip
        return worker

    def _send(self, worker: _BotProcess, request: _Request) -> None:
        """Hand a call to the worker; its clock starts now."""
        worker.running[request.number] = request
        request.sent = time.monotonic()
        try:
            worker.send(request.message)
        except (OSError, ValueError):
            return  # the worker died: its reader sees the end and replaces it
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # nothing was written
            del worker.running[request.number]
            if not request.future.done():
                request.future.set_exception(RuntimeError(f"cannot send a call to a bot worker "
                                                          f"process: {exc}"))  # fmt: skip
            return
        if request.limit is not None:
            loop = asyncio.get_running_loop()
            request.timer = loop.call_later(request.limit + SLACK, self._late, worker, request)

    def _late(self, worker: _BotProcess, request: _Request) -> None:
        """A call past its limit and slack: a timeout now; past the grace, a new worker."""
        if worker.running.get(request.number) is not request:
            return
        assert request.limit is not None
        elapsed = time.monotonic() - request.sent
        if not request.late:
            request.late = True
            if not request.future.done():
                request.future.set_result(timeout_answer(request.limit, elapsed))
            wait = max(0.0, request.limit + max(GRACE, request.limit) - elapsed)
            request.timer = asyncio.get_running_loop().call_later(wait, self._late, worker,
                                                                  request)  # fmt: skip
            return
        self._replace(worker, f"still running a call {elapsed:.1f} s after its "
                              f"{request.limit:g} s limit", culprit=request)  # fmt: skip

    def _readable(self, worker: _BotProcess) -> None:
        try:
            while worker.answers.poll():
                self._answered(worker, worker.answers.recv())
        except (EOFError, OSError, pickle.UnpicklingError):
            self._replace(worker, _ended(worker))

    def _answered(self, worker: _BotProcess, answer: Any) -> None:
        if not worker.ready:
            worker.ready = True
            if answer is not None:  # the setup failed: every call is a fault from now on
                log.error("a bot worker process cannot start: %s", answer)
                self.broken = f"a bot worker process cannot start: {answer}"
                self._replace(worker, self.broken, restart=False)
                return
            while worker.waiting:
                self._send(worker, worker.waiting.popleft())
            return
        request = worker.running.pop(answer[0], None)
        if request is not None:
            if request.timer is not None:
                request.timer.cancel()
            if not request.late and not request.future.done():
                request.future.set_result(answer[1])

    def _replace(
        self, worker: _BotProcess, why: str, restart: bool = True, culprit: _Request | None = None
    ) -> None:
        """Stop ``worker`` and put a new one in its place.

        With a ``culprit`` (a call still running past its grace), the worker's other calls
        are asked again of the new worker; else (the worker died) each call it was running
        is a ``crash`` fault.
        """
        slot = next((s for s, w in enumerate(self._slots) if w is worker), None)
        if slot is None:
            return
        if self.closing:  # the server stops: no new worker (close() stops this one)
            return
        self.replaced += 1
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_reader(worker.answers.fileno())
        worker.stop(kill=True)
        self._slots[slot] = None
        log.warning("a bot worker process was replaced: %s; the bots of %d game(s) are built "
                    "again at their next decision", why, len(worker.games))  # fmt: skip
        again: list[_Request] = []
        for request in worker.running.values():
            if request.timer is not None:
                request.timer.cancel()
            if request.late or request.future.done():
                continue
            if culprit is not None and restart:
                again.append(request)
                continue
            kind = request.message[0]
            fault = Answer(kind=FaultKind.CRASH, detail=f"the bot's worker process: {why}",
                           elapsed=time.monotonic() - request.sent)  # fmt: skip
            request.future.set_result(fault if kind != "call" else ("error", why))
        again += worker.waiting
        if not restart:
            for request in again:
                if not request.future.done():
                    request.future.set_result(_unavailable(request.message[0], why))
            return
        if again or worker.games:
            new = self._worker(slot)
            new.games |= worker.games
            new.waiting.extend(again)


def _unavailable(kind: str, why: str) -> Any:
    if kind == "call":
        return ("error", why)
    return Answer(kind=FaultKind.UNAVAILABLE, detail=f"no bot worker: {why}")


def _ended(worker: _BotProcess) -> str:
    return worker.exit_text()


def _stop_all(workers: Sequence[_BotProcess]) -> None:
    for worker in workers:
        worker.stop(kill=False)


def _setup_message() -> bytes:
    from tajmahal.tournament.backends import worker_setup

    return worker_setup(None)


class PooledSeat:
    """A bot seat of a server game whose bot lives in a worker process (see :class:`BotPool`)."""

    def __init__(self, pool: BotPool, game: str, seat: int, spec: str, seed: int) -> None:
        self.pool, self.game, self.seat, self.spec, self.seed = pool, game, seat, spec, seed
        self.name = spec
        self.setup_fault: Answer | None = None

    async def build(self, limit: float | None) -> None:
        self.name, self.setup_fault = await self.pool.build(
            self.game, self.seat, self.spec, self.seed, limit
        )

    async def decide(
        self, view: PlayerView, legal: Sequence[Move], limit: float | None, decision: int
    ) -> Answer:
        """One decision of the seat's bot, asked of its game's worker within ``limit`` s."""
        return await self.pool.decide(self.game, self.seat, self.spec, self.seed, view, legal,
                                      limit, decision)  # fmt: skip

    def choose(self, view: Any, legal: Any, limit: Any, decision: int = 0) -> Answer:
        """Never called: a pooled seat is asked through :meth:`decide`."""
        return Answer(kind=FaultKind.UNAVAILABLE, detail="asked out of turn")  # pragma: no cover

    def close(self) -> None:
        return None


class Backlog:
    """The event loop's low-priority work: one job per turn of the loop, in two queues.

    What arrives on the sockets (a person's move: read, checked, stored and
    acknowledged) is handled between any two jobs, never behind hundreds.
    The bots' turns (:meth:`turn`, ``first=True``: the seat's view handed to its
    worker, a fraction of a millisecond) go before the state messages
    (:meth:`add`: a millisecond each), at most :data:`FIRST_RUN` in a row while
    messages wait: so a game's quick bots have usually moved by the time its
    page's message is built, and one message tells them all (coalesced), while
    no page waits for ever.  A job is a function; it returns False when it had
    nothing to do (the next job runs in the same turn).

    >>> async def jobs():
    ...     backlog, done = Backlog(), []
    ...     for n in range(3):
    ...         backlog.add(lambda n=n: done.append(n))
    ...     backlog.add(lambda: done.append('first'), first=True)
    ...     await backlog.turn()
    ...     return done
    >>> asyncio.run(jobs())
    ['first', 0, 1, 2]
    """

    FIRST_RUN = 4  #: jobs of the first queue in a row, at most, while the second waits

    def __init__(self) -> None:
        self._first: collections.deque[Callable[[], object]] = collections.deque()
        self._second: collections.deque[Callable[[], object]] = collections.deque()
        self._run = 0  # jobs of the first queue run in a row
        self._scheduled = False
        self.done = 0  #: jobs run

    def __len__(self) -> int:
        return len(self._first) + len(self._second)

    def add(self, job: Callable[[], object], first: bool = False) -> None:
        """Run ``job()`` once the jobs before it in its queue have run, one a turn of the loop."""
        (self._first if first else self._second).append(job)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._step)

    async def turn(self, first: bool = False) -> None:
        """Wait for this coroutine's place in a queue (it goes on in the loop's next turn)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.add(functools.partial(_wake, future), first)
        await future

    def _step(self) -> None:
        self._scheduled = False
        while self._first or self._second:
            if self._first and (self._run < self.FIRST_RUN or not self._second):
                job = self._first.popleft()
                self._run += 1
            else:
                job = self._second.popleft()
                self._run = 0
            try:
                worked = job()
            except Exception:  # a bug: logged, the other jobs go on
                log.exception("a job of the server's backlog failed")
                worked = True
            if worked is not False:
                self.done += 1
                break
        if self._first or self._second:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._step)


def _wake(future: asyncio.Future[None]) -> bool:
    if future.done():  # its coroutine was cancelled: the next job runs now
        return False
    future.set_result(None)
    return True


class Workers:
    """Where a server's blocking work runs: the bot pool, program seats, drawing, storage.

    Storage runs in one thread; moves arriving together are written in one
    transaction, one ``fsync`` (:meth:`add_move`: group commit).
    """

    def __init__(self, store: GameStore, settings: ServerSettings) -> None:
        self.store = store
        self.pool = BotPool(settings.bot_workers)
        #: bot programs (``cmd:``, ``--isolate``, ``--sandbox``): a thread waits on each call
        self.programs = ThreadPoolExecutor(64, thread_name_prefix="tajmahal-web-program")
        self.drawing = ThreadPoolExecutor(2, thread_name_prefix="tajmahal-web-draw")
        self.storage = ThreadPoolExecutor(1, thread_name_prefix="tajmahal-web-store")
        #: the event loop's own low-priority work (state messages, the bots' turns)
        self.backlog = Backlog()
        self._moves: list[tuple[str, StoredMove, asyncio.Future[None]]] = []
        self._writing = False
        self.commits = 0  #: transactions that stored moves (each one fsync)

    async def stored(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.storage, work, *args)

    async def drawn(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.drawing, work, *args)

    async def program(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.programs, work, *args)

    async def bot(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a bot worker process (a search: hints, analysis pages)."""
        return await self.pool.call(work, *args)

    async def add_move(self, game_id: str, move: StoredMove) -> None:
        """Store one move, durably, sharing the transaction with the moves arriving meanwhile."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._moves.append((game_id, move, future))
        if not self._writing:
            self._writing = True
            asyncio.get_running_loop().create_task(self._write_moves())
        await future

    async def _write_moves(self) -> None:
        try:
            while self._moves:
                batch, self._moves = self._moves, []
                entries = [(game_id, move) for game_id, move, _ in batch]
                try:
                    problems = await self.stored(_add_moves, self.store, entries)
                except Exception as exc:  # the whole transaction failed
                    problems = [exc] * len(batch)
                self.commits += 1
                for (_, _, future), problem in zip(batch, problems, strict=True):
                    if future.done():
                        continue
                    if problem is None:
                        future.set_result(None)
                    else:
                        future.set_exception(problem)
        finally:
            self._writing = False

    async def close(self) -> None:
        await self.pool.close()
        for pool in (self.programs, self.drawing):
            pool.shutdown(wait=False, cancel_futures=True)
        self.storage.shutdown(wait=True)


def _add_moves(store: GameStore, entries: list[tuple[str, StoredMove]]) -> list[Exception | None]:
    adding = getattr(store, "add_moves", None)
    if adding is not None:
        problems: list[Exception | None] = adding(entries)
        return problems
    found: list[Exception | None] = []
    for game_id, move in entries:  # a store without group commit: one transaction each
        try:
            store.add_move(game_id, move)
            found.append(None)
        except Exception as exc:
            found.append(exc)
    return found
