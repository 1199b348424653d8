"""The ``ismcts`` bot's options: :class:`SearchOptions`, their limits, the levels, their costs.

One frozen, validated value holds every option of :class:`~tajmahal.bots.IsmctsBot`
(``IsmctsBot(options=SearchOptions(...))``); the bot's keyword arguments and a player spec's
options (``ismcts:iterations=400,c=0.7``) are the same options, checked by the same rules.

>>> options = SearchOptions(iterations=400, c=0.5)
>>> options.spec()
'ismcts:iterations=400,c=0.5'
>>> SearchOptions.from_spec('ismcts:iterations=400,c=0.5') == options
True
>>> SearchOptions(depth=0)
Traceback (most recent call last):
...
ValueError: depth must be an int from 1 to 12, got 0

**Levels for people**: ``ismcts:level=1`` to ``level=3`` are iteration
budgets (``LEVELS``), each four times the one below; level 3 is the default
budget (330: the CPU per decision of ``ismcts-v2``'s 400, whose evaluation is
cheaper; ``ismcts-v1`` and ``ismcts-v2`` keep their levels, ``LEVELS_V2``).
Levels 4 and 5 spend more CPU on a better model of the game rather than on
more simulations: each simulation plays every seat's play-or-withdraw
decisions by a small search of their own (``inner=2,inner_seats=all``,
``LEVEL_OPTIONS``), at 100 iterations (level 4: about 3 times level 3's CPU
per decision) and 330 (level 5: about 11 times; at 4 and 5 seats, where more
seats' decisions are searched, about 17 and 23 times).  Sixteen times level
3's simulations measured no stronger than level 3; this model measured 6-7
points a game stronger at both levels (docs/performance.md).  Iteration
budgets keep a game reproducible from its seed.

:func:`decision_work` and :func:`decision_time` say what one decision of a spec's options
may cost, so that a server can bound what a lobby asks for without building the bot.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from tajmahal.rules.playout import Picker

__all__ = [
    "DEPRECATED_SPEC_OPTIONS",
    "LEVELS",
    "LEVELS_V2",
    "LEVELS_V3",
    "LEVEL_OPTIONS",
    "SearchOptions",
    "decision_time",
    "decision_work",
]

ROLLOUTS = ("heuristic", "random")
#: ``flat``: which decisions a flat search makes instead of the tree
FLAT = ("play", "all", "off")
#: ``inner_seats``: whose later play-or-withdraw decisions an inner search searches
INNER_SEATS = ("own", "all")
MAX_ITERATIONS = 10_000_000
MAX_TIME_LIMIT = 3600.0
#: the default budget (``LEVELS[3]``): about the CPU per decision of ``ismcts-v2``'s 400
#: (compiled build), whose evaluation costs less per iteration
DEFAULT_ITERATIONS = 330
#: levels 4 and 5: an inner search of every seat's play decisions (``inner=2,inner_seats=all``)
#: at these many iterations: about 3 and 11 times level 3's CPU per decision at 3 seats (level
#: 5: 17 times at 4 seats, 23 at 5)
LEVEL4_ITERATIONS = 100
LEVEL5_ITERATIONS = 330
LEVEL_INNER = 2  #: the inner rollouts a candidate of levels 4 and 5
MAX_JOBS = 32  #: the most search processes per decision (``jobs``)
MAX_TREES = 64  #: the most trees per search (``trees``)
MAX_DEPTH = 12  #: the most visits a simulation may run through (``depth``)
MAX_INNER = 16  #: the most rollouts per candidate of an inner search (``inner``)
MAX_EXTEND = 10.0  #: the most ``extend`` may multiply a close decision's budget by
MAX_FOCUS = 2.0  #: the most ``focus`` may multiply a play-or-withdraw decision's budget by
#: ``focus`` by default: an even budget (1.5 measured no stronger: 102 games, -1.9 points a game,
#: -6.2 to +2.4, against the same bot at 1; docs/performance.md)
DEFAULT_FOCUS = 1.0
DEFAULT_MARGIN = 0.1  #: close: the runner-up has at least 90% of the top move's visits
DEFAULT_C = 0.7  #: the UCT exploration constant (rewards lie in 0..1)
#: ``level`` -> iterations per decision (level 3 is the default budget)
LEVELS: dict[int, int] = {
    1: 21, 2: 83, 3: DEFAULT_ITERATIONS, 4: LEVEL4_ITERATIONS, 5: LEVEL5_ITERATIONS
}
#: ``level`` -> the options a level sets besides its budget (options given explicitly win):
#: levels 4 and 5 spend their CPU on a better model of the game, not on more simulations
LEVEL_OPTIONS: dict[int, dict[str, Any]] = {
    level: {"inner": LEVEL_INNER, "inner_seats": "all"} for level in (4, 5)
}
#: the levels and default budget of ``ismcts-v1`` and ``ismcts-v2``, frozen
LEVELS_V2: dict[int, int] = {1: 25, 2: 100, 3: 400, 4: 1600, 5: 6400}
#: the levels and default budget of ``ismcts-v3`` (the third release's), frozen
LEVELS_V3: dict[int, int] = {1: 21, 2: 83, 3: 330, 4: 100, 5: 330}

_REMOVAL = "it leaves the spec language in 0.4.0 (IsmctsBot's keyword and SearchOptions keep it)"
#: the options a player spec may still name but that warn (``DeprecationWarning``): tuning
#: knobs that no run measured stronger than their default (docs/performance.md), so that the
#: spec language offers what makes the bot stronger or sets its budget
DEPRECATED_SPEC_OPTIONS: dict[str, str] = {
    "focus": "focus=1.5 measured no stronger than the even budget (102 games, -1.9 points a "
             f"game, -6.2 to +2.4); {_REMOVAL}",
    "depth": "depth=2 measured no stronger than depth 1 at level 4 (120 games, +0.5 points a "
             f"game, -2.6 to +3.5); {_REMOVAL}",
    "trees": "trees=16 measured no stronger than one tree (level 5 as sixteen trees against "
             f"level 3 and greedy: -1.7 points a game, -4.4 to +1.1, 132 games); {_REMOVAL}",
    "extend": "searching close decisions on was never measured stronger (no strength run "
              f"used it); {_REMOVAL}",
    "margin": "it only tunes extend, which was never measured stronger; " + _REMOVAL,
}  # fmt: skip


def _number_in(value: object, low: float, high: float, above: bool = False) -> bool:
    """Whether ``value`` is an int or float (not a bool) from ``low`` (excluded if ``above``)
    to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return (low < value if above else low <= value) and value <= high


def _int_in(value: object, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _check_level(options: SearchOptions, _: attrs.Attribute[Any], level: object) -> None:
    if level is None:
        return
    if not _int_in(level, 1, len(LEVELS)):
        raise ValueError(f"level must be an int from 1 to {len(LEVELS)}, got {level!r}")
    budgets = (options.iterations, options.time_limit, options.game_time)
    if any(budget is not None for budget in budgets):
        raise ValueError("level sets the budget: give level, or iterations/time_limit/game_time")


def _check_iterations(_: object, __: attrs.Attribute[Any], iterations: object) -> None:
    if iterations is not None and not _int_in(iterations, 1, MAX_ITERATIONS):
        raise ValueError(
            f"iterations must be an int from 1 to {MAX_ITERATIONS}, got {iterations!r}"
        )


def _check_seconds(_: object, attribute: attrs.Attribute[Any], seconds: object) -> None:
    if seconds is not None and not _number_in(seconds, 0, MAX_TIME_LIMIT, above=True):
        raise ValueError(
            f"{attribute.name} must be a number of seconds above 0 and at most "
            f"{MAX_TIME_LIMIT:g}, got {seconds!r}"
        )


def _number(low: float, high: float, below_high: bool = False) -> Any:
    """A validator: a number (not a bool) from ``low`` to ``high`` (excluded if ``below_high``)."""

    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None and attribute.default is None:
            return
        if not _number_in(value, low, high) or (below_high and value == high):
            upto = f"up to (not including) {high}" if below_high else f"to {high}"
            raise ValueError(f"{attribute.name} must be a number from {low} {upto}, "
                             f"got {value!r}")  # fmt: skip

    return check


def _integer(low: int, high: int) -> Any:
    """A validator: an int (not a bool) from ``low`` to ``high`` (None where that is the
    default)."""

    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None and attribute.default is None:
            return
        if not _int_in(value, low, high):
            raise ValueError(f"{attribute.name} must be an int from {low} to {high}, got {value!r}")

    return check


def _one_of(choices: tuple[str, ...]) -> Any:
    """A validator: one of ``choices`` (None where that is the default)."""

    def check(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value is None and attribute.default is None:
            return
        if not isinstance(value, str) or value not in choices:
            raise ValueError(
                f"{attribute.name} must be one of {', '.join(choices)}, got {value!r}"
            )

    return check


def _check_rollout(_: object, __: attrs.Attribute[Any], rollout: object) -> None:
    if not callable(rollout) and (not isinstance(rollout, str) or rollout not in ROLLOUTS):
        raise ValueError(
            f"rollout must be one of {', '.join(ROLLOUTS)} (or, from Python, a move "
            f"picker), got {rollout!r}"
        )


@attrs.frozen(kw_only=True)
class SearchOptions:
    """Every option of the ``ismcts`` bots, checked when built (a ``ValueError`` naming the
    option and its range; a ``TypeError`` for an option that does not exist).

    None means "the bot's own default": a level's budget and options (``level``), or the
    default budget (``iterations``), and the bot class's ``focus``, ``flat``, ``inner`` and
    ``inner_seats`` (a level's, else ``ismcts``'s: 1, ``"play"``, 0, ``"own"``; the frozen
    ``ismcts-v1`` and ``-v2`` search with ``flat="off"``).

    - ``level``: 1 (weakest, fastest) to 5, an iteration budget from ``LEVELS``, and for
      levels 4 and 5 the options of ``LEVEL_OPTIONS`` (``inner=2,inner_seats=all``; an option
      given beside the level wins) (not with ``iterations``, ``time_limit`` or ``game_time``);
    - ``iterations``: searches per decision (default 330 when neither ``time_limit``
      nor ``game_time`` is given: ``ismcts-v2``'s CPU per decision at 400);
    - ``time_limit``: seconds per decision instead (or as well: whichever ends first);
    - ``game_time``: seconds for the whole game, spread over the decisions
      still to come; with ``time_limit``, each decision gets the less of the two;
    - ``c``: the UCT exploration constant (default 0.7; rewards lie in 0..1; 0 to 100);
    - ``jobs``: search processes per decision (default 1: this process only);
      ``jobs=N`` runs ``N - 1`` worker processes beside this one, each growing
      its own tree from its own deals, and picks the move from the summed root
      statistics; an iteration budget is split between them (at most 32);
    - ``trees``: independent trees per search process (default 1; at most 64), grown in
      turn from their own deals and summed at the root (each gets its share of the budget);
    - ``depth``: the visits each simulation runs through before it is evaluated (default
      1: to this visit's end; at most 12); 2 costs about 1.6 times as much per simulation;
    - ``inner``: in each simulation, the seat's own later play-or-withdraw decisions are
      searched too: each plain play and withdrawing on ``inner`` rollouts to the visit's
      end, the best played (default 0: the rollout policy plays them; at most 16);
    - ``inner_seats``: whose later play decisions an inner search searches: ``"own"``
      (default) or ``"all"`` (every seat's, each for its own reward: levels 4 and 5);
    - ``flat``: which decisions a flat search makes instead of the tree: ``"play"``
      (default: play-or-withdraw), ``"all"`` or ``"off"``;
    - ``focus``: play-or-withdraw decisions get ``focus`` times the budget, the other
      decisions less, the mean over a game's searched decisions unchanged (default 1; 1 to 2);
    - ``extend``: when the two most searched moves are within ``margin`` of each
      other after the budget, search on for ``extend - 1`` times the budget
      (default 1: never; at most 10);
    - ``margin``: how close counts as close, as a share of the top move's visits
      (default 0.1; from 0 up to, not including, 1);
    - ``rollout``: ``"heuristic"`` (default) or ``"random"``, the policy that plays
      each simulation on to the end of the visit; from Python also any move picker
      ``pick(playout, codes, rng) -> code`` (see :class:`~tajmahal.rules.playout.Playout`).

    ``focus``, ``depth``, ``trees``, ``extend`` and ``margin`` measured no stronger than their
    defaults: a player spec naming them warns (:data:`DEPRECATED_SPEC_OPTIONS`); they stay
    here and as the bot's keyword arguments.

    >>> SearchOptions(level=4)
    SearchOptions(level=4)
    >>> SearchOptions(flat="some")
    Traceback (most recent call last):
    ...
    ValueError: flat must be one of play, all, off, got 'some'
    >>> SearchOptions(level=3, iterations=50)
    Traceback (most recent call last):
    ...
    ValueError: level sets the budget: give level, or iterations/time_limit/game_time
    """

    # checked in this order (the first problem is the one reported)
    level: int | None = attrs.field(default=None, validator=_check_level)
    iterations: int | None = attrs.field(default=None, validator=_check_iterations)
    time_limit: float | None = attrs.field(default=None, validator=_check_seconds)
    game_time: float | None = attrs.field(default=None, validator=_check_seconds)
    c: float = attrs.field(default=DEFAULT_C, validator=_number(0, 100))
    jobs: int = attrs.field(default=1, validator=_integer(1, MAX_JOBS))
    trees: int = attrs.field(default=1, validator=_integer(1, MAX_TREES))
    depth: int = attrs.field(default=1, validator=_integer(1, MAX_DEPTH))
    inner: int | None = attrs.field(default=None, validator=_integer(0, MAX_INNER))
    inner_seats: str | None = attrs.field(default=None, validator=_one_of(INNER_SEATS))
    flat: str | None = attrs.field(default=None, validator=_one_of(FLAT))
    focus: float | None = attrs.field(default=None, validator=_number(1, MAX_FOCUS))
    extend: float = attrs.field(default=1.0, validator=_number(1, MAX_EXTEND))
    margin: float = attrs.field(default=DEFAULT_MARGIN, validator=_number(0, 1, True))
    rollout: str | Picker = attrs.field(default="heuristic", validator=_check_rollout)

    def __repr__(self) -> str:
        given = ", ".join(f"{name}={value!r}" for name, value in self.given().items())
        return f"SearchOptions({given})"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option's name, in the order they are checked (and written in a spec).

        >>> SearchOptions.names()[:4]
        ('level', 'iterations', 'time_limit', 'game_time')
        """
        return tuple(field.name for field in attrs.fields(cls))

    @classmethod
    def from_mapping(cls, options: Mapping[str, object]) -> SearchOptions:
        """The options of a mapping (a spec's, or keyword arguments); a ``TypeError`` naming
        an option that does not exist.

        >>> SearchOptions.from_mapping({"iterations": 50, "rollout": "random"})
        SearchOptions(iterations=50, rollout='random')
        >>> SearchOptions.from_mapping({"width": 3})
        Traceback (most recent call last):
        ...
        TypeError: ismcts has no option 'width'; its options: c, depth, extend, flat, focus, game_time, inner, inner_seats, iterations, jobs, level, margin, rollout, time_limit, trees
        """  # noqa: E501
        known = cls.names()
        for name in options:
            if name not in known:
                raise TypeError(
                    f"ismcts has no option {name!r}; its options: {', '.join(sorted(known))}"
                )
        return cls(**options)  # type: ignore[arg-type]  # each value is checked

    @classmethod
    def from_spec(cls, spec: str) -> SearchOptions:
        """The options of a player spec (``ismcts:iterations=50``, or its options alone:
        ``iterations=50``); a spec naming a deprecated option warns, as a player does.

        >>> SearchOptions.from_spec('ismcts:level=4,jobs=2')
        SearchOptions(level=4, jobs=2)
        >>> SearchOptions.from_spec('iterations=50') == SearchOptions(iterations=50)
        True
        """
        from tajmahal.bots.specs import parse_spec, warn_deprecated_options

        parsed = parse_spec(spec if ":" in spec or "=" not in spec else f"ismcts:{spec}")
        warn_deprecated_options(parsed, DEPRECATED_SPEC_OPTIONS, stacklevel=3)
        return cls.from_mapping(dict(parsed.options))

    def given(self) -> dict[str, object]:
        """The options that differ from their defaults, in order.

        >>> SearchOptions(c=0.5, iterations=80).given()
        {'iterations': 80, 'c': 0.5}
        """
        return {
            field.name: getattr(self, field.name)
            for field in attrs.fields(type(self))
            if getattr(self, field.name) != field.default
        }

    def spec(self, name: str = "ismcts") -> str:
        """The player spec of the bot ``name`` with these options (those given only); a
        ``ValueError`` for a rollout picker, which a spec cannot write.

        >>> SearchOptions().spec(), SearchOptions(flat="off", time_limit=0.5).spec("ismcts-v3")
        ('ismcts', 'ismcts-v3:time_limit=0.5,flat=off')
        """
        written = []
        for option, value in self.given().items():
            if callable(value):
                raise ValueError(f"{option}: a move picker cannot be written in a player spec")
            text = value if isinstance(value, str) else json.dumps(value)
            written.append(f"{option}={text}")
        return f"{name}:{','.join(written)}" if written else name


#: an inner search's cost per rollout a candidate, in plain iterations (``inner_seats``):
#: measured ``inner=3``: 2.8 times an iteration; ``inner=2,inner_seats=all``: 11 times at 3
#: seats, 17 at 4, 23 at 5 (docs/performance.md): the most, 5 seats', counts
INNER_COST = {"own": 1, "all": 11}


def decision_work(options: Mapping[str, object]) -> int | None:
    """About the most plain iterations' work one decision of ``ismcts`` with ``options`` (a
    player spec's) costs: the iteration budget (``iterations``, a ``level``'s, or the
    default: at 5 seats ``ismcts-v2``'s, 400 for level 3's 330) times ``focus`` (a
    play-or-withdraw decision's share), ``extend``, ``depth`` and the inner search's cost;
    None for a budget in seconds only (see :func:`decision_time`).  Options of the wrong type
    count as their defaults, values past an option's most as its most (the bot refuses
    both), so the answer is always a finite number.

    A server bounds what a lobby may ask with it.

    >>> decision_work({}), decision_work({"level": 5}), decision_work({"time_limit": 1.0})
    (400, 9200, None)
    >>> decision_work({"iterations": 1000, "extend": 2.0, "depth": 3, "inner": 16})
    102000
    >>> decision_work({"iterations": 1000, "focus": 2.0})
    2000
    >>> decision_work({"extend": float("inf"), "depth": 10**400, "inner": 10**9})
    816000
    """

    def number(name: str, default: float, most: float) -> float:
        value = options.get(name)
        ok = isinstance(value, int | float) and not isinstance(value, bool) and value > 0
        return min(float(value), most) if ok else default  # type: ignore[arg-type]

    level = options.get("level")
    preset: Mapping[str, object] = {}
    at_five = LEVELS_V2[3] / DEFAULT_ITERATIONS  # a level's budget at 5 seats: v2's
    if type(level) is int and level in LEVELS:
        iterations, preset = LEVELS[level] * at_five, LEVEL_OPTIONS.get(level, {})
    elif type(options.get("iterations")) is int:
        iterations = number("iterations", DEFAULT_ITERATIONS, MAX_ITERATIONS)
    elif options.get("time_limit") is not None or options.get("game_time") is not None:
        return None
    else:
        iterations = DEFAULT_ITERATIONS * at_five
    inner = options.get("inner", preset.get("inner", 0))
    seats = options.get("inner_seats", preset.get("inner_seats", "own"))
    per_rollout = INNER_COST.get(seats, 1) if isinstance(seats, str) else 1
    inner_cost = 1 + min(inner if type(inner) is int and inner > 0 else 0, MAX_INNER) * per_rollout
    depth = options.get("depth")
    depth_cost = min(depth if type(depth) is int and depth > 1 else 1, MAX_DEPTH)
    focus = number("focus", DEFAULT_FOCUS, MAX_FOCUS)
    return round(iterations * max(1.0, focus) * number("extend", 1.0, MAX_EXTEND) * depth_cost
                 * inner_cost)  # fmt: skip


def decision_time(options: Mapping[str, object]) -> float | None:
    """The most seconds one decision of ``ismcts`` with ``options`` may search by its own
    ``time_limit``: times ``focus`` (a play-or-withdraw decision's share) and ``extend`` (a
    close decision searches on); None without ``time_limit`` (an iteration budget, or
    ``game_time`` alone: its share of the game clock; a host bounds both with
    :func:`~tajmahal.bots.base.decision_deadline`).  Counted as :func:`decision_work` counts.

    >>> decision_time({"time_limit": 120, "extend": 10}), decision_time({"iterations": 50})
    (1200.0, None)
    >>> decision_time({"time_limit": 2.5, "focus": 2, "extend": "x"})
    5.0
    """
    value = options.get("time_limit")
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return None
    seconds = min(float(value), MAX_TIME_LIMIT)
    for name, most in (("focus", MAX_FOCUS), ("extend", MAX_EXTEND)):
        factor = options.get(name)
        if isinstance(factor, int | float) and not isinstance(factor, bool) and factor > 1:
            seconds *= min(float(factor), most)
    return seconds
