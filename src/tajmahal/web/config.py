"""A new game's settings as the lobby sends them, checked; and the server's own settings."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import attrs

from tajmahal.bots.specs import PlayerSpec, SpecError, check_spec, parse_spec
from tajmahal.protocol import check_command
from tajmahal.referee.seats import check_seconds
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError
from tajmahal.web.clocks import Clock

__all__ = [
    "MAX_NAME", "ConfigError", "GameConfig", "SeatConfig", "ServerSettings", "check_bots",
    "search_seconds",
]

MAX_NAME = 40  #: the most characters of a human player's name


class ConfigError(TajMahalError):
    """A game's settings that cannot be used (the lobby shows the message)."""


@attrs.frozen
class ServerSettings:
    """What the server allows and how hard it guards itself (``tajmahal serve`` sets these).

    >>> ServerSettings().allow_commands
    False
    """

    #: whether ``cmd:`` and ``file:`` bots may be seated (they run programs, or files' code)
    allow_commands: bool = False
    isolate: bool = False  #: run every bot in a process of its own (the bot protocol)
    default_time_limit: float = 10.0  #: seconds per bot decision when the lobby names none
    max_message_bytes: int = 4096  #: the longest WebSocket message a client may send
    messages_per_second: float = 20.0  #: each connection's steady message rate...
    message_burst: int = 40  #: ...and how many it may send at once
    max_connections_per_client: int = 64  #: open WebSockets per client address
    max_connections_per_seat: int = 4  #: open WebSockets per seat link
    games_per_minute: int = 30  #: games one client address may create per minute
    max_open_games: int = 1000  #: unfinished games on the server
    #: the host names the server answers to (a ``Host`` header naming another is refused)
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
    sandbox: bool = False  #: run programs and isolated bots under bubblewrap (``--sandbox``)
    # what the lobby may ask for (bot options of these names, and the game's own limits)
    #: a bot's ``iterations`` (or its ``level``'s), times what ``focus``, ``extend``, ``depth``
    #: and ``inner`` cost (:func:`tajmahal.bots.ismcts.decision_work`)
    max_iterations: int = 10_000
    #: seconds per decision: the game's and a bot's ``time_limit`` (a bot's, times ``focus``
    #: and ``extend``, is at most the game's move limit: :func:`tajmahal.bots.ismcts.decision_time`)
    max_time_limit: float = 120.0
    max_game_time: float = 3600.0  #: seconds per bot for a whole game (``game_time``)
    #: whether a bot may start search processes of its own inside the server (``jobs`` > 1)
    allow_search_processes: bool = False
    open_games_per_client: int = 20  #: unfinished games one client address may have
    idle_expiry: float = 7 * 24 * 3600.0  #: seconds an unfinished game may wait for a move
    # connections (uvicorn's h11 protocol, see tajmahal.web.guard)
    max_sockets: int = 800  #: open connections, WebSockets included
    max_sockets_per_client: int = 100  #: open HTTP connections from one address
    header_timeout: float = 10.0  #: seconds for a request's headers to arrive
    expensive_jobs: int = 2  #: analyses and hints computed at once (the rest wait)
    #: seconds a process's hold on a game lasts unrenewed (several processes on PostgreSQL):
    #: a dead process's games are taken over a little after it
    lease_ttl: float = 5.0

    def caps(self) -> dict[str, Any]:
        """What the lobby may ask, as the lobby shows it (``GET /api/limits``).

        >>> ServerSettings().caps()['iterations']
        10000
        """
        return {
            "iterations": self.max_iterations, "time_limit": self.max_time_limit,
            "game_time": self.max_game_time, "search_processes": self.allow_search_processes,
            "commands": self.allow_commands, "open_games_per_client": self.open_games_per_client,
            "games_per_minute": self.games_per_minute, "idle_expiry": self.idle_expiry,
        }  # fmt: skip
    #: worker processes running the in-process bots (0: one per core); see tajmahal.web.workers
    bot_workers: int = 0


@attrs.frozen
class SeatConfig:
    """One seat: a human (``name`` is how the table calls them) or a bot (``name`` is its spec)."""

    human: bool
    name: str
    #: a bot's spec, parsed and checked (when the config was made: not stored)
    spec: PlayerSpec | None = attrs.field(default=None, eq=False, repr=False)
    #: an arena bot that plays from elsewhere over the network (``name`` is its account):
    #: only the arena seats one (see :mod:`tajmahal.web.arena`)
    remote: bool = False
    #: the bot's name in the record and on the pages when it is not its spec (an arena house
    #: bot's account): only the arena sets one
    label: str | None = None


@attrs.frozen
class GameConfig:
    """A game's seats and options, as stored with the game.

    >>> config = GameConfig.parse({'seats': [{'human': True, 'name': 'Ann'}, 'greedy', 'random']})
    >>> [s.name for s in config.seats], config.hints, config.time_limit
    (['Ann', 'greedy', 'random'], False, None)
    >>> GameConfig.parse({'seats': ['random'] * 2})
    Traceback (most recent call last):
    ...
    tajmahal.web.config.ConfigError: a game has 3 to 5 seats, got 2
    """

    seats: tuple[SeatConfig, ...]
    hints: bool = False
    time_limit: float | None = None  #: seconds per bot decision
    game_time: float | None = None  #: seconds per bot for the whole game
    spectator_delay: bool = False  #: the spectator link shows the table one visit behind
    #: the people's time control (:class:`tajmahal.web.clocks.Clock`), or None: no clock
    clock: Clock | None = None

    @property
    def players(self) -> tuple[str, ...]:
        """Each seat's name, as the record keeps it.

        >>> seats = [{'human': True, 'name': 'Ann'}, 'greedy', 'random']
        >>> GameConfig.parse({'seats': seats}).players
        ('Ann', 'greedy', 'random')
        """
        return tuple(seat.label or seat.name for seat in self.seats)

    @property
    def humans(self) -> tuple[int, ...]:
        """The human seats."""
        return tuple(n for n, seat in enumerate(self.seats) if seat.human)

    def as_json(self) -> dict[str, Any]:
        """The settings as stored (:meth:`parse` reads them back).

        >>> config = GameConfig.parse({'seats': ['random'] * 3, 'hints': True})
        >>> GameConfig.parse(config.as_json()) == config
        True
        """
        return {
            "seats": [{"human": s.human, "name": s.name, **({"remote": True} if s.remote else {}),
                       **({"label": s.label} if s.label is not None else {})}
                      for s in self.seats],
            "hints": self.hints,
            "time_limit": self.time_limit,
            "game_time": self.game_time,
            "spectator_delay": self.spectator_delay,
            **({} if self.clock is None else {"clock": self.clock.as_json()}),
        }

    @classmethod
    def parse(
        cls, data: object, settings: ServerSettings | None = None, *, stored: bool = False
    ) -> GameConfig:
        """Check a lobby request (a JSON object); :class:`ConfigError` says what is wrong.

        A seat is a player spec (a string), or ``{"human": true, "name": ...}``,
        or ``{"human": false, "name": SPEC}``.  ``cmd:`` specs need
        ``settings.allow_commands``.  ``stored`` skips the checks that depend on
        this machine (a stored game is resumed as it was created).
        """
        settings = settings or ServerSettings()
        if not isinstance(data, Mapping):
            raise ConfigError("the game's settings must be a JSON object")
        unknown = set(data) - {"seats", "hints", "time_limit", "game_time", "spectator_delay",
                               "clock"}  # fmt: skip
        if unknown:
            raise ConfigError(f"unknown setting {sorted(unknown)[0][:40]!r}")
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise ConfigError("'seats' must be a list of seats")
        if not MIN_PLAYERS <= len(seats_data) <= MAX_PLAYERS:
            raise ConfigError(
                f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(seats_data)}"
            )
        seats = tuple(
            _seat(number, seat, settings, stored) for number, seat in enumerate(seats_data)
        )
        flags = {}
        for flag in ("hints", "spectator_delay"):
            value = data.get(flag, False)
            if type(value) is not bool:
                raise ConfigError(f"'{flag}' must be true or false")
            flags[flag] = value
        try:
            limits = {
                name: check_seconds(data.get(name), name) for name in ("time_limit", "game_time")
            }
        except TajMahalError as exc:
            raise ConfigError(str(exc)) from None
        clock = None
        if data.get("clock") is not None:
            try:
                clock = Clock.parse(data["clock"])
            except ValueError as exc:
                raise ConfigError(str(exc)) from None
        config = cls(seats, flags["hints"], limits["time_limit"], limits["game_time"],
                     flags["spectator_delay"], clock)  # fmt: skip
        if not stored:
            refused = config.refusal(settings)
            if refused is not None:
                raise ConfigError(refused)
        return config

    def refusal(self, settings: ServerSettings) -> str | None:
        """Why a server with ``settings`` may not run this game (checked when a game is
        created and again each time a stored one is loaded), or None.

        >>> config = GameConfig.parse({'seats': ['ismcts:iterations=50000', 'random', 'random']},
        ...                           stored=True)
        >>> print(config.refusal(ServerSettings()))
        seat 1: this server allows at most 10000 iterations per decision, got 50000
        """
        for name, value, most in (("time_limit", self.time_limit, settings.max_time_limit),
                                  ("game_time", self.game_time, settings.max_game_time)):
            if value is not None and value > most:
                return f"'{name}' is at most {most:g} seconds on this server, got {value:g}"
        for number, seat in enumerate(self.seats):
            if seat.human or seat.remote:
                continue
            spec = seat.spec if seat.spec is not None else parse_spec(seat.name)
            if (spec.is_command or spec.is_file) and not settings.allow_commands:
                return (
                    f"seat {number + 1}: this server does not run programs ('cmd:' bots) or local "
                    "Python files ('file:' bots); start it with --allow-commands to allow them"
                )
            move_limit = self.time_limit or settings.default_time_limit
            refused = _option_refusal(dict(spec.options), settings, move_limit)
            if refused is not None:
                return f"seat {number + 1}: {refused}"
        return None


def search_seconds(limit: float | None) -> float | None:
    """The seconds a search bot may think within a decision's ``limit``, so that its answer
    is back in time: 80% of it, at most a second less (None: no limit). A bot's worker
    bounds every decision's search so (:func:`tajmahal.bots.base.decision_deadline`): a
    search stops by itself, its worker is never replaced for it.

    >>> search_seconds(10.0), search_seconds(2.0), search_seconds(None)
    (9.0, 1.6, None)
    """
    return None if limit is None else max(0.0, limit - min(1.0, 0.2 * limit))


def check_bots(config: GameConfig, seconds: float = 10.0) -> None:
    """Build each registered bot of ``config`` once, then close it: :class:`ConfigError` with
    the reason if one cannot be built (its constructor refused an option, or stalled).
    ``seconds`` bounds the whole check: each bot is given what the ones before it left.

    Programs (``cmd:``) and ``file:`` bots are checked when parsed, not started here.

    >>> seats = ['ismcts:iterations=0', 'random', 'random']
    >>> check_bots(GameConfig.parse({'seats': seats}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tajmahal.web.config.ConfigError: seat 1: player spec 'ismcts:iterations=0': bad option ...
    """
    from tajmahal.referee.seats import InProcessSeat

    deadline = time.monotonic() + seconds
    for number, seat in enumerate(config.seats):
        spec = seat.spec
        if seat.human or seat.remote or spec is None or spec.is_command or spec.is_file:
            continue
        left = deadline - time.monotonic()
        if left <= 0:
            raise ConfigError(f"seat {number + 1}: the bots took more than {seconds:g} s to build")
        try:
            built = InProcessSeat.build(spec, seed=1, limit=left)
        except TajMahalError as exc:
            raise ConfigError(f"seat {number + 1}: {exc}") from None
        try:
            fault = built.setup_fault
            if fault is not None:
                detail = fault.detail[:300]
                if time.monotonic() >= deadline:  # its share of the check's time ran out
                    detail = f"the bots took more than {seconds:g} s to build"
                raise ConfigError(
                    f"seat {number + 1}: {spec.text[:80]!r} cannot be built: {detail}"
                )
        finally:
            built.close()


#: the options whose values a bot's work per decision is estimated from
WORK_OPTIONS = frozenset(
    {"iterations", "level", "extend", "depth", "inner", "inner_seats", "focus"}
)


def _option_refusal(
    options: dict[str, object], settings: ServerSettings, move_limit: float
) -> str | None:
    """Why a bot's options ask more than ``settings`` allow (by their names), or None;
    ``move_limit``: the seconds the game gives a bot's decision."""
    from tajmahal.bots.ismcts import decision_time, decision_work

    # the iterations, times what focus, extend, depth and inner cost (of a bot that names any)
    work = decision_work(options) if WORK_OPTIONS & options.keys() else None
    if work is not None and work > settings.max_iterations:
        iterations = options.get("iterations")
        asked = "" if work == iterations else (
            " (counting what extend, depth and inner cost, focus, and a level's budget at 5 seats)"
        )  # fmt: skip
        return (
            f"this server allows at most {settings.max_iterations} iterations per decision, "
            f"got {work}{asked}"
        )
    for name, most in (("time_limit", settings.max_time_limit),
                       ("game_time", settings.max_game_time)):  # fmt: skip
        value = options.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > most:
            return f"'{name}' is at most {most:g} seconds on this server, got {value:g}"
    seconds = decision_time(options)  # a time budget, times what focus and extend add
    if seconds is not None and seconds > move_limit:
        return (
            f"this bot may search {seconds:g} seconds a decision (its time_limit, counting focus "
            f"and extend), more than the {move_limit:g} seconds this game gives a bot's decision"
        )
    jobs = options.get("jobs")
    if type(jobs) is int and jobs > 1 and not settings.allow_search_processes:
        return (
            f"'jobs={jobs}' starts search processes inside the server, which this server does "
            "not allow (jobs=1 searches in the bot's own worker)"
        )
    return None


def _seat(number: int, data: object, settings: ServerSettings, stored: bool) -> SeatConfig:
    if isinstance(data, str):
        data = {"human": False, "name": data}
    if not isinstance(data, Mapping) or type(data.get("human")) is not bool:
        raise ConfigError(
            f"seat {number + 1}: a player spec, or {{'human': true/false, 'name': ...}}"
        )
    name = data.get("name")
    if data.get("remote", False) is not False:
        if data["human"] or data["remote"] is not True or not stored:
            raise ConfigError(f"seat {number + 1}: an arena bot is seated by the arena only")
        if type(name) is not str or not 0 < len(name) <= MAX_NAME:
            raise ConfigError(f"seat {number + 1}: an arena bot is named by its account")
        return SeatConfig(False, name, remote=True)
    if data["human"]:
        name = f"player {number + 1}" if name in (None, "") else name
        if type(name) is not str or not name.isprintable() or len(name.strip()) == 0:
            raise ConfigError(f"seat {number + 1}: a human's name is printable text")
        name = name.strip()
        if len(name) > MAX_NAME:
            raise ConfigError(f"seat {number + 1}: a name has at most {MAX_NAME} characters")
        return SeatConfig(True, name)
    if type(name) is not str:
        raise ConfigError(f"seat {number + 1}: a bot is named by a player spec (text)")
    try:
        spec = parse_spec(name)  # parsed once, here: the seat keeps the PlayerSpec
        if (spec.is_command or spec.is_file) and not settings.allow_commands:
            if stored:  # never loaded (that runs a file's code): the game waits, refusal() says why
                return SeatConfig(False, spec.text, spec)
            raise ConfigError(  # before a file is loaded: that runs its code
                f"seat {number + 1}: this server does not run programs ('cmd:' bots) or local "
                "Python files ('file:' bots); start it with --allow-commands to allow them"
            )
        spec = check_spec(spec)
        if spec.is_command and not stored:
            check_command(spec)
    except SpecError as exc:
        raise ConfigError(f"seat {number + 1}: {exc}") from None
    label = data.get("label")
    if label is not None and (not stored or type(label) is not str
                              or not 0 < len(label) <= MAX_NAME):  # fmt: skip
        raise ConfigError(f"seat {number + 1}: a bot's label is given by the arena only")
    return SeatConfig(False, spec.text, spec, label=label)
