"""A bot worker process's own side: the bots it builds and the decisions it answers.

The server's pool (:class:`~tajmahal.web.workers.BotPool`) starts each worker with
:func:`serve_bots` as its main function, on the pipes of
:class:`~tajmahal.worker_process.WorkerProcess`; see :mod:`tajmahal.web.workers` for what
runs where, the time limits and the faults.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import threading
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from tajmahal.bots.base import decision_deadline
from tajmahal.bots.specs import PlayerSpec
from tajmahal.faults import FaultKind
from tajmahal.rules.errors import TajMahalError
from tajmahal.rules.moves import Move
from tajmahal.rules.views import PlayerView
from tajmahal.seat_contract import Answer
from tajmahal.web.config import search_seconds
from tajmahal.worker_process import worker_pipes

__all__ = ["NICE", "THREADS", "serve_bots"]

THREADS = 32  #: decisions one worker runs at once (in threads: a quick bot never waits long)
#: how much lower the workers' CPU priority is than the server's (``nice``): when bots
#: and the server want the same core, the server's acknowledgements and pages go first
NICE = 10


def serve_bots() -> None:
    """A bot worker process: build bots and answer decisions on the pipes of
    :class:`~tajmahal.worker_process.WorkerProcess`.

    Ctrl-C and SIGTERM are the server's to handle: a service stopped as a whole (systemd
    sends SIGTERM to every process of the service) stops its workers itself, after its
    games, by closing their pipes; a worker also ends with the server's death.
    """
    os.environ["TAJMAHAL_SEARCH_JOBS"] = "1"  # a pool of games: no pool of searches per bot
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no nice() (Windows)
        os.nice(NICE)
    from tajmahal.tournament.backends import set_up_worker

    jobs, results = worker_pipes(terminate=False)
    try:
        problem, _ = set_up_worker(jobs.recv_bytes())
    except EOFError:
        return
    results.send(problem)
    if problem is not None:
        return
    bots = _Bots(results)
    threads = ThreadPoolExecutor(THREADS, thread_name_prefix="tajmahal-bot")
    while True:
        try:
            message = jobs.recv()
        except EOFError:
            bots.close_all()
            os._exit(0)  # calls still running (past their limits) end with the process
        if message[0] == "forget":
            bots.forget(message[2])
        else:
            threads.submit(bots.run, message)


class _Bots:
    """The bots living in a worker: one in-process seat per (game, seat); each call in a thread.

    A seat is asked one decision at a time (its game waits for it); a seat whose earlier
    call is still running (past its limit) is not asked again until it returns.
    """

    def __init__(self, results: Connection) -> None:
        from tajmahal.referee.seats import InProcessSeat

        self.results = results
        self.sending = threading.Lock()
        self.seats: dict[tuple[str, int], InProcessSeat] = {}
        self.busy: set[tuple[str, int]] = set()
        #: each move received, by value -> the first copy received: the seats' copies of the
        #: moves they hand their bots are made once per move (they are keyed by identity)
        self.moves: dict[Move, Move] = {}

    def run(self, message: tuple[Any, ...]) -> None:
        kind, number = message[0], message[1]
        try:
            if kind == "build":
                answer: Any = self.build(*message[2:])
            elif kind == "decide":
                answer = self.decide(*message[2:])
            else:
                answer = ("ok", message[2](*message[3]))
        except TajMahalError as exc:  # the library's own refusal: raised again in the server
            answer = ("raise", exc) if kind == "call" else Answer(
                kind=FaultKind.EXCEPTION, detail=f"internal: {type(exc).__name__}: {exc}"[:300])
        except Exception as exc:  # a last guard: the seats catch what bots raise
            text = f"{type(exc).__name__}: {exc}"[:300]
            answer = ("error", text) if kind == "call" else Answer(
                kind=FaultKind.EXCEPTION, detail=f"internal: {text}")  # fmt: skip
        with self.sending:
            try:
                self.results.send((number, answer))
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                self.results.send((number, ("error", f"the answer cannot be sent back: {exc}")))
            except OSError:  # the server is gone
                os._exit(0)

    def build(
        self, game: str, seat: int, spec: PlayerSpec | str, seed: int, limit: float | None = None
    ) -> tuple[str, Answer | None]:
        """The seat's bot, built within ``limit`` seconds from its spec (parsed and checked
        where it entered the server: a :class:`~tajmahal.bots.PlayerSpec` is not parsed again)."""
        from tajmahal.bots.specs import SpecError
        from tajmahal.referee.seats import InProcessSeat

        old = self.seats.pop((game, seat), None)
        if old is not None:
            old.close()
        try:
            built = InProcessSeat.build(spec, seed, limit)
        except SpecError as exc:
            built = InProcessSeat(None, str(spec))
            built.setup_fault = Answer(kind=FaultKind.UNAVAILABLE, detail=str(exc)[:400])
        self.seats[(game, seat)] = built
        return built.name, built.setup_fault

    def decide(
        self, game: str, seat: int, spec: PlayerSpec | str, seed: int, view: PlayerView,
        legal: tuple[Move, ...], limit: float | None, decision: int,
    ) -> Answer:  # fmt: skip
        key = (game, seat)
        if key in self.busy:
            return Answer(kind=FaultKind.TIMEOUT, detail="the bot is still running an earlier "
                          "call that exceeded its time limit")  # fmt: skip
        self.busy.add(key)
        try:
            player = self.seats.get(key)
            if player is None:  # a worker replaced meanwhile: built again from spec and seed
                self.build(game, seat, spec, seed)
                player = self.seats[key]
            if len(self.moves) > 100_000:
                self.moves = {}
            moves = self.moves
            legal = tuple([moves.setdefault(move, move) for move in legal])
            with decision_deadline(search_seconds(limit)):  # a search ends by itself in time
                answer = player.choose(view, legal, None, decision)
        finally:
            self.busy.discard(key)
        if limit is not None and answer.elapsed > limit:
            detail = f"took {answer.elapsed:.3f} s, more than the {limit:.3g} s time limit"
            return Answer(kind=FaultKind.TIMEOUT, detail=detail, elapsed=answer.elapsed)
        return answer

    def forget(self, game: str) -> None:
        for key in [key for key in self.seats if key[0] == game]:
            if key not in self.busy:
                self.seats.pop(key).close()
            else:
                self.seats.pop(key)

    def close_all(self) -> None:
        for key, seat in list(self.seats.items()):
            if key not in self.busy:
                with contextlib.suppress(Exception):
                    seat.close()
        self.seats.clear()
