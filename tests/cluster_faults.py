"""A fault-injection harness for the PostgreSQL cluster, in the spirit of Jepsen (issue 46).

Several ``tajmahal serve`` processes on one real PostgreSQL; scripted people (who also undo)
play games of one person against two bots, each move sent through a process picked at
random, while the harness kills processes (``kill -9``), freezes them past their leases
(SIGSTOP, then SIGCONT), cuts connections (``pg_terminate_backend``: the listeners only, or
every connection of the servers) and restarts PostgreSQL. A trigger writes every insert and
delete of a move into a history table. Then it checks:

- every acknowledged move is stored, as sent, unless an acknowledged undo took it back;
- the history is in order: each move stored is the next one of its game (no decision ever
  has two stored moves), each removal takes a game's last moves (an undo);
- every process shows the same state of every game, the store's;
- every page received only its own seat's states.

Used by ``tests/test_cluster_faults.py`` (a short run) and ``benchmarks/cluster_soak.py``.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import random
import signal
import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import attrs

from postgres_cluster import Cluster
from web_server import Client, Server, token_of

WAIT = 120.0
TTL = 2.0
FAULTS = ("kill", "pause", "cut_listeners", "cut_all", "restart_postgres")

HISTORY = """
CREATE TABLE IF NOT EXISTS move_history (
    at BIGSERIAL PRIMARY KEY, game_id TEXT, number INTEGER, seat INTEGER, move TEXT, op TEXT
);
CREATE OR REPLACE FUNCTION keep_move_history() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO move_history (game_id, number, seat, move, op)
        VALUES (NEW.game_id, NEW.number, NEW.seat, NEW.move, 'insert');
        RETURN NEW;
    END IF;
    INSERT INTO move_history (game_id, number, seat, move, op)
    VALUES (OLD.game_id, OLD.number, OLD.seat, OLD.move, 'delete');
    RETURN OLD;
END $$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS move_history ON moves;
CREATE TRIGGER move_history AFTER INSERT OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION keep_move_history();
"""


def until(condition: Callable[[], Any], what: str, seconds: float = WAIT,
          reader: Callable[[], object] | None = None) -> Any:  # fmt: skip
    """``condition()`` once it is true (``reader()`` between tries, else a short sleep)."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(Exception):
            found = condition()
            if found:
                return found
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        if reader is None:
            time.sleep(0.1)
        else:
            with contextlib.suppress(Exception):
                reader()


def health(server: Server) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/api/health", timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _db(database: str) -> Any:
    import psycopg

    return psycopg.connect(database, autocommit=True, connect_timeout=10)


def stored_moves(database: str, game_id: str) -> dict[int, tuple[int, str]]:
    with _db(database) as db:
        rows = db.execute("SELECT number, seat, move FROM moves WHERE game_id = %s",
                          (game_id,)).fetchall()  # fmt: skip
    return {number: (seat, move) for number, seat, move in rows}


def hold_counts(database: str) -> dict[str, int]:
    """How many games each process holds now (live leases)."""
    with _db(database) as db:
        rows = db.execute("SELECT holder, count(*) FROM leases WHERE holder IS NOT NULL "
                          "AND expires > clock_timestamp() GROUP BY holder").fetchall()  # fmt: skip
    return {holder: count for holder, count in rows}


@attrs.define
class Model:
    """What a person knows of their game, across the pages they open: the moves acknowledged
    (minus those an acknowledged undo took back), when, and the undos whose outcome they
    never learned (the page was lost first): a move acknowledged before one of those may be
    gone from the store without a fault of the server's."""

    kept: dict[int, str] = attrs.field(factory=dict)
    when: dict[int, int] = attrs.field(factory=dict)
    unknown: list[int] = attrs.field(factory=list)
    step: int = 0

    def tick(self) -> int:
        self.step += 1
        return self.step


class Person:
    """A person playing seat 0 through one process's page: what was acknowledged, refused,
    and every state message received (to check it was this seat's)."""

    def __init__(self, server: Server, token: str, timeout: float = WAIT,
                 model: Model | None = None) -> None:  # fmt: skip
        self.client = Client(server, token)
        self.timeout = timeout
        self.model = model or Model()
        self.undos = 0  #: undos acknowledged
        self.undoing = False  #: an undo sent, not answered yet
        self.log: list[str] = [f"page on {server.url}"]  #: what this page did, in order
        self.errors: list[str] = []
        self.states: list[dict[str, Any]] = []
        self.state = self._until(lambda m: m["type"] == "state")

    @property
    def acknowledged(self) -> dict[int, str]:
        """Decision -> move acknowledged, minus those an acknowledged undo took back."""
        return self.model.kept

    def _until(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        end = time.monotonic() + self.timeout
        while True:
            message = self.client.next(max(0.1, end - time.monotonic()))
            if message["type"] == "state":
                self.states.append(message)
                self.state = message
            if test(message):
                return message

    def my_turn(self) -> dict[str, Any]:
        if not (self.state["legal"] or self.state["over"]):
            self._until(lambda m: m["type"] == "state" and (m["legal"] or m["over"]))
        return self.state

    def play(self, choose: int) -> bool:
        """Play legal move ``choose`` (an index, negative from the end); whether acknowledged."""
        state = self.my_turn()
        if state["over"]:
            return False
        number, move = state["decision"] + 1, state["legal"][choose % len(state["legal"])]
        self.client.send({"type": "move", "decision": number, "move": move})
        reply = self._until(lambda m: m["type"] == "error" or (
            m["type"] == "ack" and m.get("decision") == number))  # fmt: skip
        if reply["type"] == "error":
            self.errors.append(reply["message"])
            self.log.append(f"move {number}: refused {reply['message']}")
            return False
        self.model.kept[number] = move
        self.model.when[number] = self.model.tick()
        self.log.append(f"move {number}: acked {move}")
        self._until(lambda m: m["type"] == "state" and m["decision"] >= number)
        return True

    def undo(self) -> int:
        """Undo (on this seat's turn); the decision the game is at after it (-1: refused)."""
        state = self.my_turn()
        self.client.send({"type": "undo", "decision": state["decision"] + 1})
        self.log.append(f"undo at {state['decision'] + 1}: sent")
        self.undoing = True  # until its state came: if the page is lost meanwhile, not known
        reply = self._until(lambda m: m["type"] == "error" or (
            m["type"] == "ack" and m.get("undo") is True))  # fmt: skip
        if reply["type"] == "error":
            self.undoing = False
            self.errors.append(reply["message"])
            if "whether" in reply["message"]:  # (not known: done or not)
                self.model.unknown.append(self.model.tick())
            self.log.append(f"undo at {state['decision'] + 1}: refused {reply['message']}")
            return -1
        self.undos += 1
        after = self._until(lambda m: m["type"] == "state")  # the rewound state, after the ack
        self.undoing = False
        for number in [n for n in self.model.kept if n > after["decision"]]:
            del self.model.kept[number]
        self.log.append(f"undo at {state['decision'] + 1}: acked, now at {after['decision']}")
        return int(after["decision"])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()


@attrs.define
class Result:
    """What a fault-injection run did and found."""

    seconds: float = 0.0
    faults: collections.Counter[str] = attrs.field(factory=collections.Counter)
    acknowledged: int = 0  #: moves acknowledged to the people (kept: not undone)
    undos: int = 0
    refused: int = 0  #: moves or undos refused with a reason (stale after a fault, ...)
    reconnects: int = 0  #: pages opened again elsewhere (their process was away)
    unsure: int = 0  #: undos whose outcome the person never learned
    excused: int = 0  #: acknowledged moves not stored, an undo of unknown outcome after them
    reasons: collections.Counter[str] = attrs.field(factory=collections.Counter)
    stored: int = 0  #: moves stored at the end, every game
    finished: int = 0  #: games over
    problems: list[str] = attrs.field(factory=list)

    def report(self) -> str:
        faults = ", ".join(f"{name} {self.faults[name]}" for name in FAULTS)
        verdict = "OK: 0 lost, 0 forked, 0 stuck" if not self.problems else (
            f"{len(self.problems)} PROBLEMS:\n  " + "\n  ".join(self.problems[:30]))  # fmt: skip
        reasons = "; ".join(f"{count}x {why}" for why, count in self.reasons.most_common(6))
        return (f"{self.seconds:.0f} s; faults: {faults}\n"
                f"acknowledged moves {self.acknowledged}, undos {self.undos} (and {self.unsure} "
                f"not known, excusing {self.excused} moves), refused {self.refused}, pages "
                f"reopened {self.reconnects}; stored moves {self.stored}, games over "
                f"{self.finished}\nrefusals: {reasons or '-'}\n{verdict}")  # fmt: skip


class _Fleet:
    """The server processes: started, killed, paused and started again."""

    def __init__(self, database: str, count: int) -> None:
        self.database = database
        self.servers = [self._start() for _ in range(count)]
        self.paused: set[int] = set()
        self.lock = threading.Lock()

    def _start(self) -> Server:
        return Server(self.database, "--lease-ttl", str(TTL), "--bot-workers", "1",
                      "--time-limit", "5", "--log-level", "info")  # fmt: skip

    def usable(self) -> list[Server]:
        with self.lock:
            return [s for s in self.servers if s.process is not None
                    and s.process.pid not in self.paused]  # fmt: skip

    def kill(self, rng: random.Random) -> None:
        with self.lock:
            victim = rng.choice(self.servers)
        victim.stop(signal.SIGKILL)
        time.sleep(rng.uniform(0.5, 2.0))
        fresh = self._start()
        with self.lock:
            self.servers[self.servers.index(victim)] = fresh

    def pause(self, rng: random.Random) -> None:
        with self.lock:
            victim = rng.choice([s for s in self.servers if s.process is not None])
            assert victim.process is not None
            pid = victim.process.pid
            self.paused.add(pid)
        os.kill(pid, signal.SIGSTOP)
        time.sleep(rng.uniform(1.5, 2.5) * TTL)  # past its leases
        os.kill(pid, signal.SIGCONT)
        with self.lock:
            self.paused.discard(pid)

    def stop(self) -> None:
        for server in self.servers:
            if server.process is not None:
                with contextlib.suppress(OSError):
                    os.kill(server.process.pid, signal.SIGCONT)
            server.stop()


def _person_loop(fleet: _Fleet, token: str, rng: random.Random, stop: threading.Event,
                 result: Result, people: list[Person], model: Model) -> None:  # fmt: skip
    """One scripted person: moves (and now and then an undo) through a random process,
    opening the page elsewhere when its process is away."""
    person: Person | None = None
    while not stop.is_set():
        try:
            if person is None:
                usable = fleet.usable()
                if not usable:
                    time.sleep(0.5)
                    continue
                person = Person(rng.choice(usable), token, timeout=4 * TTL + 6, model=model)
                people.append(person)
            state = person.my_turn()
            if state["over"]:
                return
            if state["undo"] and rng.random() < 0.2:
                result.undos += person.undo() >= 0
            else:
                person.play(rng.randrange(len(state["legal"])))
            if rng.random() < 0.3:  # the next move through another process
                person.close()
                person = None
        except Exception:  # its process is away (killed, frozen, cut): a page elsewhere
            if person is not None:
                if person.undoing:  # an undo sent, its answer lost with the page
                    model.unknown.append(model.tick())
                person.close()
                result.reconnects += 1
            person = None
            stop.wait(0.3)
    if person is not None:
        person.close()


def _inject(fleet: _Fleet, cluster: Cluster, fault: str, rng: random.Random) -> None:
    if fault == "kill":
        fleet.kill(rng)
    elif fault == "pause":
        fleet.pause(rng)
    elif fault == "cut_listeners":
        cluster.terminate("application_name = 'tajmahal-listener'")
    elif fault == "cut_all":
        cluster.terminate("application_name LIKE 'tajmahal%%'")
    elif fault == "restart_postgres":
        cluster.restart(down=rng.uniform(0.2, 1.5))


def run_faults(cluster: Cluster, seconds: float, games: int = 3, processes: int = 3,
               seed: int = 0, every: tuple[float, float] = (2.0, 4.0), least: int = 0,
               log: Callable[[str], None] | None = None) -> Result:  # fmt: skip
    """Run ``games`` games on ``processes`` servers for ``seconds`` (and ``least`` faults), a
    fault every ``every`` seconds (at random between the two), each kind once in every five,
    new games as games end; then check everything."""
    rng = random.Random(seed)
    database = cluster.url(cluster.new_schema())
    result = Result()
    fleet = _Fleet(database, processes)
    stop = threading.Event()
    threads: list[threading.Thread] = []
    people: list[Person] = []
    models: dict[str, Model] = {}
    tokens: dict[str, str] = {}
    spectators: dict[str, str] = {}
    started = time.monotonic()
    try:
        with _db(database) as db:
            db.execute(HISTORY)

        def new_game() -> None:
            created = rng.choice(fleet.usable()).create(
                [{"human": True, "name": "Ann"}, "greedy", "random"])  # fmt: skip
            game_id = created["id"]
            tokens[game_id] = token_of(created["seats"][0]["link"])
            spectators[game_id] = token_of(created["spectator"])
            models[game_id] = Model()
            thread = threading.Thread(target=_person_loop, daemon=True, args=(
                fleet, tokens[game_id], random.Random(rng.random()), stop, result, people,
                models[game_id]))  # fmt: skip
            thread.start()
            threads.append(thread)

        for _ in range(games):
            new_game()
        deck: list[str] = []
        while time.monotonic() - started < seconds or sum(result.faults.values()) < least:
            time.sleep(rng.uniform(*every))
            if not deck:  # every kind of fault once in each round of five, in random order
                deck = rng.sample(FAULTS, len(FAULTS))
            fault = deck.pop()
            try:
                _inject(fleet, cluster, fault, rng)
            except Exception as exc:  # (a fault that could not be made: said, not counted)
                if log:
                    log(f"fault {fault} not made: {exc}")
                continue
            result.faults[fault] += 1
            if log:
                log(f"{time.monotonic() - started:6.1f} s  {fault}")
            for _ in range(sum(not t.is_alive() for t in threads) - (len(threads) - games)):
                with contextlib.suppress(Exception):
                    new_game()
        stop.set()
        for thread in threads:
            thread.join(WAIT)
        result.seconds = time.monotonic() - started
        _check(fleet, database, models, spectators, people, result)
    finally:
        stop.set()
        for person in people:
            person.close()
        fleet.stop()
    return result


def _check(fleet: _Fleet, database: str, models: dict[str, Model],
           spectators: dict[str, str], people: list[Person], result: Result) -> None:  # fmt: skip
    problems = result.problems
    servers = fleet.usable()
    _settle(database)
    with contextlib.suppress(AssertionError):  # (not settling is a problem of its own below)
        until(lambda: all(health(s)["cluster"]["behind"] is None for s in servers),
              "every process to catch up")  # fmt: skip
    behind = [s.url for s in servers if health(s)["cluster"]["behind"] is not None]
    if behind:
        problems.append(f"processes still behind the database: {behind}")
    with _db(database) as db:
        history = db.execute("SELECT game_id, number, seat, move, op FROM move_history "
                             "ORDER BY at").fetchall()  # fmt: skip
    lengths: dict[str, int] = collections.Counter()
    deleted: dict[str, list[int]] = collections.defaultdict(list)
    for game_id, number, _, _, op in history:  # in order: each move the next one
        if op == "insert":
            if deleted.get(game_id):
                _check_removal(game_id, deleted.pop(game_id), lengths, problems)
            if number != lengths[game_id] + 1:
                problems.append(f"game {game_id}: move {number} stored at length "
                                f"{lengths[game_id]}")  # fmt: skip
            lengths[game_id] = max(lengths[game_id], number)
        else:
            deleted[game_id].append(number)
    for game_id, numbers in deleted.items():
        if numbers:
                _check_removal(game_id, numbers, lengths, problems)
    for game_id, model in models.items():
        kept = model.kept
        stored = stored_moves(database, game_id)
        result.unsure += len(model.unknown)
        result.stored += len(stored)
        result.acknowledged += len(kept)
        if sorted(stored) != list(range(1, len(stored) + 1)):
            problems.append(f"game {game_id}: stored moves not contiguous: {sorted(stored)}")
        for number, move in kept.items():
            if stored.get(number) != (0, move):
                if any(step > model.when[number] for step in model.unknown):
                    result.excused += 1  # an undo after it, its outcome not known
                    continue
                events = [f"{op} {n} {m}" for g, n, _, m, op in history
                          if g == game_id and n >= number - 3]  # fmt: skip
                pages = [line for p in people if p.model is model for line in p.log]
                problems.append(f"game {game_id}: acknowledged move {number} {move!r} is "
                                f"stored as {stored.get(number)}; history from {number - 3}: "
                                f"{events[:40]}; the person: {pages[-40:]}")  # fmt: skip
        shown = {}
        for server in servers:
            try:
                page = Client(server, spectators[game_id])
                try:
                    state = page.until(lambda m: m["type"] == "state", 60)
                finally:
                    page.close()
                shown[server.url] = json.dumps({k: v for k, v in state.items()
                                                if k != "delayed"}, sort_keys=True)  # fmt: skip
                if state["decision"] != len(stored):
                    problems.append(f"game {game_id}: {server.url} shows decision "
                                    f"{state['decision']}, the store has {len(stored)}")
            except Exception as exc:
                problems.append(f"game {game_id}: {server.url} could not show it: {exc}")
        if len(set(shown.values())) > 1:
            problems.append(f"game {game_id}: the processes show different states")
        last = json.loads(next(iter(shown.values()), "{}"))
        if last and not last["over"] and last["turn"] != 0:
            problems.append(f"game {game_id}: stuck at decision {last['decision']}, "
                            f"seat {last['turn']} (a bot) to move")  # fmt: skip
    with _db(database) as db:
        result.finished = int(db.execute(
            "SELECT count(*) FROM games WHERE record IS NOT NULL").fetchone()[0])  # fmt: skip
    for person in people:
        result.refused += len(person.errors)
        result.reasons.update(error[:70] for error in person.errors)
        for state in person.states:
            if state["seat"] != 0 or (state["legal"] and state["turn"] != 0):
                problems.append(f"a page of seat 0 received another seat's state: "
                                f"seat {state['seat']}, turn {state['turn']}")  # fmt: skip
                break


def _settle(database: str, quiet: float = 3.0, seconds: float = 60.0) -> None:
    """Wait until no move has been stored for ``quiet`` seconds (the bots have answered)."""
    deadline = time.monotonic() + seconds
    before = -1
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception), _db(database) as db:
            now = int(db.execute("SELECT count(*) FROM move_history").fetchone()[0])
            if now == before:
                return
            before = now
        time.sleep(quiet)


def _check_removal(game_id: str, numbers: list[int], lengths: dict[str, int],
                   problems: list[str]) -> None:  # fmt: skip
    """Moves removed together must be the game's last ones (an undo), each once."""
    if sorted(numbers) != list(range(min(numbers), lengths[game_id] + 1)):
        problems.append(f"game {game_id}: removed {sorted(numbers)} at length {lengths[game_id]}")
    lengths[game_id] = min(numbers) - 1
