"""A new game's settings as the lobby sends them, checked; and the server's own settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from tajmahal.bots.specs import PlayerSpec, SpecError, check_spec, parse_spec
from tajmahal.protocol import check_command
from tajmahal.referee.seats import check_seconds
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.errors import TajMahalError

__all__ = ["MAX_NAME", "ConfigError", "GameConfig", "SeatConfig", "ServerSettings"]

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
    #: worker processes running the in-process bots (0: one per core); see tajmahal.web.workers
    bot_workers: int = 0


@attrs.frozen
class SeatConfig:
    """One seat: a human (``name`` is how the table calls them) or a bot (``name`` is its spec)."""

    human: bool
    name: str
    #: a bot's spec, parsed and checked (when the config was made: not stored)
    spec: PlayerSpec | None = attrs.field(default=None, eq=False, repr=False)


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

    @property
    def players(self) -> tuple[str, ...]:
        """Each seat's name, as the record keeps it.

        >>> seats = [{'human': True, 'name': 'Ann'}, 'greedy', 'random']
        >>> GameConfig.parse({'seats': seats}).players
        ('Ann', 'greedy', 'random')
        """
        return tuple(seat.name for seat in self.seats)

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
            "seats": [{"human": s.human, "name": s.name} for s in self.seats],
            "hints": self.hints,
            "time_limit": self.time_limit,
            "game_time": self.game_time,
            "spectator_delay": self.spectator_delay,
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
        unknown = set(data) - {"seats", "hints", "time_limit", "game_time", "spectator_delay"}
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
        return cls(seats, flags["hints"], limits["time_limit"], limits["game_time"],
                   flags["spectator_delay"])  # fmt: skip


def _seat(number: int, data: object, settings: ServerSettings, stored: bool) -> SeatConfig:
    if isinstance(data, str):
        data = {"human": False, "name": data}
    if not isinstance(data, Mapping) or type(data.get("human")) is not bool:
        raise ConfigError(f"seat {number}: a player spec, or {{'human': true/false, 'name': ...}}")
    name = data.get("name")
    if data["human"]:
        name = f"player {number + 1}" if name in (None, "") else name
        if type(name) is not str or not name.isprintable() or len(name.strip()) == 0:
            raise ConfigError(f"seat {number}: a human's name is printable text")
        name = name.strip()
        if len(name) > MAX_NAME:
            raise ConfigError(f"seat {number}: a name has at most {MAX_NAME} characters")
        return SeatConfig(True, name)
    if type(name) is not str:
        raise ConfigError(f"seat {number}: a bot is named by a player spec (text)")
    try:
        spec = parse_spec(name)  # parsed once, here: the seat keeps the PlayerSpec
        if (spec.is_command or spec.is_file) and not stored and not settings.allow_commands:
            raise ConfigError(  # before a file is loaded: that runs its code
                f"seat {number}: this server does not run programs ('cmd:' bots) or local "
                "Python files ('file:' bots); start it with --allow-commands to allow them"
            )
        spec = check_spec(spec)
        if spec.is_command and not stored:
            check_command(spec)
    except SpecError as exc:
        raise ConfigError(f"seat {number}: {exc}") from None
    return SeatConfig(False, spec.text, spec)
