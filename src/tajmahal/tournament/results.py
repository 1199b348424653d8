"""Tournament results as JSON lines: one header line, then one line per finished game.

::

    {"format": "tajmahal/tournament", "version": 2, "entrants": [...], "num_players": 3,
     "games": 300, "seed": 1, "time_limit": null, "game_time": null, "isolate": false,
     "seating": "balanced", "until_decided": false}
    {"game": 0, "block": 0, "seed": 81..., "players": ["greedy", "random", "random#2"],
     "scores": [61, 30, 35], "winners": [0], "ranking": [0, 2, 1], "faults": [], "seconds": 0.08}

Version 1 files (written before the balanced seating, and today by a
tournament seated by rotation without the sequential test) have neither
``seating`` nor ``until_decided``: they are read as ``"rotation"`` seating
(see :mod:`~tajmahal.tournament.seating`) without a sequential test, and can
still be summarised and resumed.

Games are appended in the order they finish (not necessarily game order) and
flushed at once, so a killed run loses at most the game being written.  A
last line without its newline is a game half written: reading reports it,
and resuming cuts it off and plays that game again.

A results file is untrusted input: :func:`read_results` bounds line length
and game count, checks every field, and raises :class:`TournamentError`
naming the line and the problem.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import attrs

from tajmahal.bots.specs import MAX_SPEC_LENGTH, parse_spec
from tajmahal.faults import MAX_DETAIL, Fault, FaultKind
from tajmahal.referee.seats import check_seconds
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError
from tajmahal.tournament.seating import (
    MAX_ENTRANTS,
    MAX_GAMES,
    SEATINGS,
    TournamentError,
    arrangements,
    block_size,
    check_arguments,
    deal_seed,
    entrant_names,
    schedule,
)

__all__ = ["FORMAT", "GameResult", "Header", "ResultsFile", "read_results"]

FORMAT = "tajmahal/tournament"
VERSION = 2
VERSIONS = (1, 2)  #: the versions this library reads
MAX_LINE = 1 << 20  #: bytes in one line of a results file
EXACT_BLOCKS_PER_GAME = 4  #: blocks of the schedule made per game line read (see _check_schedule)
MAX_SCORE = 10_000
MAX_GAME_SECONDS = 10_000_000.0  #: the longest a game line may say it took (about 4 months)
_GAME_KEYS = frozenset(
    {"game", "block", "seed", "players", "scores", "winners", "ranking", "faults", "seconds"}
)
_HEADER_KEYS_V1 = frozenset(
    {"format", "version", "entrants", "num_players", "games", "seed", "time_limit", "game_time",
     "isolate"}
)
_HEADER_KEYS = _HEADER_KEYS_V1 | {"seating", "until_decided"}


@attrs.frozen
class Header:
    """What a tournament is: its entrants (player specs), seats, games, seed, how bots are run.

    ``time_limit`` (seconds per decision), ``game_time`` (seconds per seat
    for a whole game) and ``isolate`` (every bot in its own process) are
    passed to :func:`~tajmahal.play_match` for every game.  ``seating`` is the
    seating design (``"rotation"`` for files of format version 1);
    ``until_decided`` says the tournament stops once its sequential test has
    decided between the first two entrants (:mod:`~tajmahal.tournament.sequential`).

    >>> header = Header(('greedy', 'random', 'random'), num_players=3, games=3, seed=1)
    >>> header.names
    ('greedy', 'random', 'random#2')
    """

    entrants: tuple[str, ...]
    num_players: int
    games: int
    seed: int
    time_limit: float | None = None
    game_time: float | None = None
    isolate: bool = False
    seating: str = "balanced"
    until_decided: bool = False

    @property
    def block_size(self) -> int:
        """The number of games in each block (see :func:`~tajmahal.tournament.block_size`).

        >>> rotated = Header(('a', 'b', 'c'), 3, 6, 0, seating='rotation')
        >>> Header(('a', 'b', 'c'), 3, 6, 0).block_size, rotated.block_size
        (6, 3)
        """
        return block_size(self.num_players, self.seating)

    @property
    def names(self) -> tuple[str, ...]:
        """The entrants' names (a repeated spec numbered, see ``entrant_names``).

        >>> Header(('a', 'b', 'a'), num_players=3, games=3, seed=0).names
        ('a', 'b', 'a#2')
        """
        return entrant_names(self.entrants)

    def to_json(self) -> dict[str, Any]:
        """The header line's object (format version 1 when seated by rotation alone).

        >>> Header(('a', 'b', 'c'), num_players=3, games=6, seed=0).to_json()['version']
        2
        >>> Header(('a', 'b', 'c'), 3, 3, 0, seating='rotation').to_json()['version']
        1
        """
        return {"format": FORMAT, "version": VERSION, "entrants": list(self.entrants),
                "num_players": self.num_players, "games": self.games, "seed": self.seed,
                "time_limit": self.time_limit, "game_time": self.game_time,
                "isolate": self.isolate, "seating": self.seating,
                "until_decided": self.until_decided} if self._needs_version_2 else {
                "format": FORMAT, "version": 1, "entrants": list(self.entrants),
                "num_players": self.num_players, "games": self.games, "seed": self.seed,
                "time_limit": self.time_limit, "game_time": self.game_time,
                "isolate": self.isolate}

    @property
    def _needs_version_2(self) -> bool:
        """A tournament seated by rotation without the sequential test is a version 1 file."""
        return self.seating != "rotation" or self.until_decided


@attrs.frozen
class GameResult:
    """One finished game: its number, block and deal, the entrant in each seat, the outcome.

    ``winners`` and ``ranking`` are seats, as in :class:`~tajmahal.MatchResult`
    (seats with faults rank last).  ``seconds`` is the time the game took
    (not compared: equal results of two runs differ only there).

    >>> result = GameResult(0, 0, 5, ('a', 'b', 'c'), (40, 52, 40), (1,), (1, 0, 2), ())
    >>> GameResult.from_json(json.loads(json.dumps(result.to_json()))) == result
    True
    >>> result.positions()  # 1-based places, ties share the mean place
    (2.5, 1.0, 2.5)
    """

    game: int
    block: int
    seed: int
    players: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    faults: tuple[Fault, ...]
    seconds: float = attrs.field(default=0.0, eq=False)

    def positions(self) -> tuple[float, ...]:
        """Each seat's place (1 = best): equal score and fault status share the mean place.

        >>> GameResult(0, 0, 5, ('a', 'b', 'c'), (9, 9, 9), (0, 1, 2), (0, 1, 2), ()).positions()
        (2.0, 2.0, 2.0)
        """
        faulty = {fault.seat for fault in self.faults}
        key = [(seat in faulty, -score) for seat, score in enumerate(self.scores)]
        places = []
        for seat in range(len(self.scores)):
            better = sum(1 for other in key if other < key[seat])
            equal = sum(1 for other in key if other == key[seat])
            places.append(better + (equal + 1) / 2)
        return tuple(places)

    def to_json(self) -> dict[str, Any]:
        """The game's line, as an object (faults without their tracebacks).

        >>> result = GameResult(0, 0, 5, ('a', 'b', 'c'), (1, 2, 3), (2,), (2, 1, 0), ())
        >>> result.to_json()['winners']
        [2]
        """
        return {
            "game": self.game, "block": self.block, "seed": self.seed,
            "players": list(self.players), "scores": list(self.scores),
            "winners": list(self.winners), "ranking": list(self.ranking),
            "faults": [
                {"seat": f.seat, "decision": f.decision, "kind": f.kind.value,
                 "detail": f.detail}
                for f in self.faults
            ],
            "seconds": round(self.seconds, 6),
        }

    @classmethod
    def from_json(cls, data: object) -> GameResult:
        """A game line's object, checked; raises :class:`TournamentError` saying what is wrong.

        >>> GameResult.from_json({'game': 0})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tajmahal.tournament.seating.TournamentError: a game line needs the keys ...
        """
        if not isinstance(data, dict) or data.keys() != _GAME_KEYS:
            raise TournamentError(f"a game line needs the keys {', '.join(sorted(_GAME_KEYS))}")
        players = _strings(data["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
        seats = len(players)
        scores = _ints(data["scores"], "scores", seats, -MAX_SCORE, MAX_SCORE)
        ranking = _ints(data["ranking"], "ranking", seats, 0, seats - 1)
        if sorted(ranking) != list(range(seats)):
            raise TournamentError("'ranking' must list every seat once")
        winners = data["winners"]
        if not isinstance(winners, list) or not 1 <= len(winners) <= seats:
            raise TournamentError(f"'winners' must be a list of 1 to {seats} seats")
        winners_t = _ints(winners, "winners", len(winners), 0, seats - 1)
        if sorted(set(winners_t)) != list(winners_t):
            raise TournamentError("'winners' must be seats in increasing order, each once")
        if not isinstance(data["faults"], list) or len(data["faults"]) > MAX_LINE // 64:
            raise TournamentError("'faults' must be a list")
        seconds = data["seconds"]
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 <= seconds <= MAX_GAME_SECONDS
        ):
            raise TournamentError(
                f"'seconds' must be a number of seconds from 0 to {MAX_GAME_SECONDS}"
            )
        faults = tuple(_fault(item, seats) for item in data["faults"])
        _check_outcome(scores, winners_t, ranking, faults)
        return cls(
            game=_int(data["game"], "game", 0, MAX_GAMES - 1),
            block=_int(data["block"], "block", 0, MAX_GAMES - 1),
            seed=_int(data["seed"], "seed", 0, 2**63 - 1),
            players=players,
            scores=scores,
            winners=winners_t,
            ranking=ranking,
            faults=faults,
            seconds=float(seconds),
        )


@attrs.frozen
class ResultsFile:
    """What :func:`read_results` found: the header, the games in game order, a half line.

    ``half_line`` is true when the file ends in a line without its newline
    (a run killed while writing): that game is not in ``games``.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / 'results.jsonl'
    >>> header = Header(('greedy', 'random', 'random'), num_players=3, games=6, seed=1)
    >>> _ = path.write_text(json.dumps(header.to_json()) + '\\n{"game": 0, "blo')
    >>> found = read_results(path)
    >>> found.header == header, found.games, found.half_line
    (True, (), True)
    """

    header: Header
    games: tuple[GameResult, ...]
    half_line: bool
    complete_bytes: int  #: the length of the file up to its last complete line


def read_results(path: str | os.PathLike[str]) -> ResultsFile:
    """Read and check a results file (see the module docstring); :class:`TournamentError` if bad.

    Every game must be the one the header's schedule puts at its number (the
    same entrants in the same seats, the same deal), and appear once.

    >>> read_results('no-such-file.jsonl')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.tournament.seating.TournamentError: cannot read no-such-file.jsonl: ...
    """
    shown = os.fspath(path)
    try:
        with open(_open_regular(path, os.O_RDONLY), "rb") as stream:
            return _read(stream, shown)
    except OSError as exc:
        raise TournamentError(f"cannot read {shown}: {exc.strerror or exc}") from None


def _open_regular(path: str | os.PathLike[str], flags: int) -> int:
    """A descriptor of ``path`` opened with ``flags`` if it is a regular file; OSError if not.

    A FIFO is opened without waiting for a writer, then refused, as are directories
    and devices.
    """
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a directory, device or pipe)")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_line(stream: IO[str], data: Mapping[str, Any]) -> None:
    """Append one JSON line and flush it to the operating system at once."""
    stream.write(json.dumps(data, ensure_ascii=False) + "\n")
    stream.flush()


def _read(stream: IO[bytes], shown: str) -> ResultsFile:
    lines = _lines(stream, shown)
    try:
        number, raw, complete_bytes = next(lines)
    except StopIteration:
        raise TournamentError(f"{shown} is empty: it holds no tournament header") from None
    if raw is None:
        raise TournamentError(f"{shown} line 1: the header line is incomplete")
    header = _at(shown, number, lambda: _header(_json(raw)))
    games: dict[int, tuple[int, GameResult]] = {}
    half_line = False
    for number, raw, end in lines:
        if raw is None:
            half_line = True
            break
        game = _at(shown, number, lambda raw=raw: GameResult.from_json(_json(raw)))
        if game.game >= header.games:
            raise TournamentError(
                f"{shown} line {number}: game {game.game}, but the tournament has "
                f"{header.games} games (0 to {header.games - 1})"
            )
        if game.game in games:
            raise TournamentError(
                f"{shown} line {number}: game {game.game} again (first on line "
                f"{games[game.game][0]})"
            )
        games[game.game] = (number, game)
        complete_bytes = end
    ordered = tuple(games[g][1] for g in sorted(games))
    _check_schedule(header, ordered, {g: n for g, (n, _) in games.items()}, shown)
    return ResultsFile(header, ordered, half_line, complete_bytes)


def _lines(stream: IO[bytes], shown: str) -> Iterator[tuple[int, str | None, int]]:
    """(line number, text or None for a last line without newline, bytes read so far)."""
    offset = 0
    for number in range(1, MAX_GAMES + 2):
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE:
            raise TournamentError(f"{shown} line {number}: longer than {MAX_LINE} bytes")
        offset += len(line)
        if not line.endswith(b"\n"):
            yield number, None, offset
            return
        try:
            yield number, line.decode("utf-8"), offset
        except UnicodeDecodeError:
            raise TournamentError(f"{shown} line {number}: not UTF-8 text") from None
    raise TournamentError(f"{shown}: more than {MAX_GAMES} games")


def _at(shown: str, number: int, parse: Any) -> Any:
    try:
        return parse()
    except TajMahalError as exc:
        raise TournamentError(f"{shown} line {number}: {exc}") from None


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise TournamentError(f"not JSON ({exc})") from None


def _header(data: object) -> Header:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TournamentError(f"not a tournament results file (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if isinstance(version, bool) or version not in VERSIONS:
        raise TournamentError(
            f"unknown version {version!r}; this library reads versions "
            f"{', '.join(map(str, VERSIONS))}"
        )
    keys = _HEADER_KEYS if version == VERSION else _HEADER_KEYS_V1
    if data.keys() != keys:
        raise TournamentError(
            f"the header of version {version} needs the keys {', '.join(sorted(keys))}"
        )
    seating, until_decided = data.get("seating", "rotation"), data.get("until_decided", False)
    if not isinstance(seating, str) or seating not in SEATINGS:
        raise TournamentError(f"'seating' must be one of {', '.join(SEATINGS)}")
    if not isinstance(until_decided, bool):
        raise TournamentError("'until_decided' must be true or false")
    entrants = _strings(data["entrants"], "entrants", MIN_PLAYERS, MAX_ENTRANTS)
    for spec in entrants:
        if len(spec) > MAX_SPEC_LENGTH:
            raise TournamentError(f"an entrant has more than {MAX_SPEC_LENGTH} characters")
        parse_spec(spec)
    games = _int(data["games"], "games", 1, MAX_GAMES)
    num_players = check_arguments(entrants, data["num_players"], games, seating)
    seed = _int(data["seed"], "seed", -(2**63), 2**63 - 1)
    if not isinstance(data["isolate"], bool):
        raise TournamentError("'isolate' must be true or false")
    return Header(entrants, num_players, games, seed, seconds(data["time_limit"], "time_limit"),
                  seconds(data["game_time"], "game_time"), data["isolate"], seating,
                  until_decided)


def seconds(value: object, what: str) -> float | None:
    """``value`` as seconds for a time limit (None stays None); TournamentError if it is not."""
    try:
        checked = check_seconds(value, what)
    except TajMahalError as exc:
        raise TournamentError(str(exc)) from None
    return None if checked is None else float(checked)


def _check_schedule(
    header: Header, games: tuple[GameResult, ...], lines: dict[int, int], shown: str
) -> None:
    """Each game is the one the schedule puts at its number.

    The schedule is made block by block, so checking game ``g`` exactly costs ``g``'s
    block and all before it.  That is done for the first ``EXACT_BLOCKS_PER_GAME`` blocks
    per game line (more than a tournament ever runs ahead of the games it finished);
    the games past them (only in a file written by hand) are checked by what each block
    fixes alone: its deal, and one table whose arrangements the block's games are.  So
    reading costs time in proportion to the file, not to the game numbers it names.
    """
    if not games:
        return
    seats, size = header.num_players, header.block_size
    design = arrangements(seats, header.seating)
    exact = min(games[-1].game // size + 1, EXACT_BLOCKS_PER_GAME * len(games) + 64)

    def wrong(game: GameResult, block: int, seed: int, players: tuple[str, ...]) -> None:
        raise TournamentError(
            f"{shown} line {lines[game.game]}: game {game.game} should be block "
            f"{block}, seed {seed}, players {', '.join(players)}; the file "
            "does not belong to this header's tournament"
        )

    wanted = iter(games)
    game = next(wanted)
    for job in schedule(header.entrants, seats, exact * size, header.seed, header.seating):
        if job.game > game.game:
            break
        if job.game != game.game:
            continue
        if (job.block, job.seed, job.players) != (game.block, game.seed, game.players):
            wrong(game, job.block, job.seed, job.players)
        game = next(wanted, game)
    names = set(header.names)
    tables: dict[int, tuple[str, ...]] = {}
    for game in games:
        block = game.game // size
        if block < exact:
            continue
        positions = design[game.game % size]  # the table position of the entrant in each seat
        found = [""] * seats
        for seat, position in enumerate(positions):
            found[position] = game.players[seat]
        table = tables.setdefault(block, tuple(found))
        players = tuple(table[position] for position in positions)
        seed = deal_seed(header.seed, block)
        valid = names.issuperset(players) and len(set(players)) == seats
        if not valid or (game.block, game.seed, game.players) != (block, seed, players):
            wrong(game, block, seed, players)


def _check_outcome(
    scores: tuple[int, ...],
    winners: tuple[int, ...],
    ranking: tuple[int, ...],
    faults: tuple[Fault, ...],
) -> None:
    """The ranking and the winners the referee gives for these scores and faults (faulty
    seats last; ties by seat number), or TournamentError."""
    faulty = {fault.seat for fault in faults}
    expected = tuple(sorted(range(len(scores)), key=lambda s: (s in faulty, -scores[s], s)))
    if ranking != expected:
        raise TournamentError(
            f"'ranking' {list(ranking)} contradicts the scores {list(scores)}"
            + (f" and the faults of seats {sorted(faulty)}" if faulty else "")
            + f" (expected {list(expected)})"
        )
    top = expected[0]
    best = tuple(sorted(
        s for s in expected if (s in faulty) == (top in faulty) and scores[s] == scores[top]
    ))  # fmt: skip
    if winners != best:
        raise TournamentError(
            f"'winners' {list(winners)} contradicts the scores {list(scores)}"
            + (f" and the faults of seats {sorted(faulty)}" if faulty else "")
            + f" (expected {list(best)})"
        )


def _fault(data: object, seats: int) -> Fault:
    if not isinstance(data, dict) or data.keys() != {"seat", "decision", "kind", "detail"}:
        raise TournamentError("a fault needs the keys decision, detail, kind, seat")
    kinds = {kind.value: kind for kind in FaultKind}
    if data["kind"] not in kinds:
        raise TournamentError(f"a fault's kind is one of {', '.join(kinds)}")
    detail = data["detail"]
    if not isinstance(detail, str) or len(detail) > MAX_DETAIL:
        raise TournamentError(f"a fault's detail is a string of at most {MAX_DETAIL} characters")
    return Fault(
        seat=_int(data["seat"], "seat", 0, seats - 1),
        decision=_int(data["decision"], "decision", 0, 100_000),  # 0: building the bot
        kind=kinds[data["kind"]],
        detail=detail,
    )


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TournamentError(f"{what!r} must be a whole number from {low} to {high}")
    return value


def _ints(value: object, what: str, count: int, low: int, high: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != count:
        raise TournamentError(f"{what!r} must be a list of {count} whole numbers")
    return tuple(_int(item, what, low, high) for item in value)


def _strings(value: object, what: str, low: int, high: int) -> tuple[str, ...]:
    if (
        not isinstance(value, list)
        or not low <= len(value) <= high
        or not all(isinstance(item, str) for item in value)
    ):
        raise TournamentError(f"{what!r} must be a list of {low} to {high} strings")
    return tuple(value)


def open_for_append(path: Path, header: Header, resume: bool) -> tuple[IO[str], ResultsFile | None]:
    """Open ``path`` to append games; with ``resume``, first read what it holds.

    A new file (or an empty one) gets the header.  Resuming checks that the
    file's header is this tournament's and cuts off a half-written last line.
    Without ``resume``, a non-empty file is an error: it is never overwritten.
    The file is locked (``flock``) until the stream is closed: a second
    tournament writing it at the same time gets a :class:`TournamentError`.
    """
    found: ResultsFile | None = None
    exists = path.exists() and path.stat().st_size > 0
    if exists and not resume:
        raise TournamentError(
            f"{path} already holds results: resume it (resume=True, --resume) or choose "
            "another file"
        )
    try:
        fd = _open_regular(path, os.O_RDWR | os.O_CREAT | os.O_APPEND)
    except OSError as exc:
        raise TournamentError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise TournamentError(
                f"{path} is locked: another tournament is writing it; wait for it to end "
                "or choose another file"
            ) from None
        if os.fstat(fd).st_size > 0:  # also one that another run wrote meanwhile
            if not resume:
                raise TournamentError(
                    f"{path} already holds results: resume it (resume=True, --resume) or "
                    "choose another file"
                )
            found = read_results(path)
            if found.header != header:
                raise TournamentError(
                    f"{path} holds another tournament: {_difference(found.header, header)}"
                )
            os.ftruncate(fd, found.complete_bytes)  # a half-written game: again
        stream = open(fd, "a", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        os.close(fd)
        raise TournamentError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        os.close(fd)
        raise
    if found is None:
        write_line(stream, header.to_json())
    return stream, found


def _difference(old: Header, new: Header) -> str:
    names = [field.name for field in attrs.fields(Header)]
    names.sort(key=lambda name: name not in ("seating", "until_decided"))
    for name in names:  # the design first: it explains a different game count
        if getattr(old, name) != getattr(new, name):
            was, now = getattr(old, name), getattr(new, name)
            hint = {
                "seating": f" (continue it with seating={was!r}, --seating {was})",
                "until_decided": " (continue it with the same until_decided, --until-decided)",
            }.get(name, "")
            return f"its {name} is {was!r}, not {now!r}{hint}"
    return "its header differs"
