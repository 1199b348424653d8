"""Reading components files: TOML in, validated :mod:`~tajmahal.rules.component_types` out.

A components file (docs: "Rules notes"; the standard one is
``tajmahal/rules/data/standard.toml``) is read with bounds on its size and
shape, and every problem is a :class:`ComponentsError` naming the entry at
fault.  :func:`standard_components` loads the standard set once.
"""

from __future__ import annotations

import copyreg
import enum
import errno
import functools
import math
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import attrs

from tajmahal.rules.component_types import (
    _SPECIAL_SYMBOLS,
    COLORED,
    INFLUENCE,
    Board,
    BonusKind,
    BonusTile,
    Card,
    City,
    Color,
    Commodity,
    Components,
    Province,
    ProvinceTile,
    Special,
    Symbol,
)
from tajmahal.rules.errors import ComponentsError
from tajmahal.rules.roads import reachable

__all__ = [
    "MAX_FILE_BYTES",
    "STANDARD_PATH",
    "components_from_data",
    "load_components",
    "parse_components",
    "read_regular",
    "standard_components",
]

STANDARD_PATH = Path(__file__).parent / "data" / "standard.toml"
FORMAT = "tajmahal/components"
VERSION = 1
MAX_COUNT = 10_000  #: the most copies one entry may ask for (guards against huge files)
#: the most of each thing a set of components may hold, in total (loading stays linear and small)
MAX_CARDS = 2_000
MAX_TILES = 1_000
MAX_PROVINCES = 200
MAX_TILE_COMMODITIES = 2  #: the most commodities a province tile shows (C9, K5)
MAX_CITIES = 2_000
MAX_ROADS = 20_000
MAX_KEY_PARTS = 32  #: the most parts of a dotted TOML key (``a.b.c`` has 3)
MAX_NAME = 100  #: the longest name or id (of the components, a province, a city)
MAX_FILE_BYTES = 4_000_000  #: the largest components file :func:`load_components` reads
_MAX_PROBLEM = 300  #: the most characters of one problem in a ComponentsError



@functools.cache
def standard_components() -> Components:
    """The standard components (docs/rules.md C1–C11), loaded once and shared.

    >>> standard_components() is standard_components()
    True
    """
    return load_components(STANDARD_PATH, name="standard")


def _reduce_components(comps: Components) -> tuple[Any, ...]:
    """Pickle the standard components by name (a loader call), others as data.

    Keeps pickled states, views and records small (parallel tournaments
    send them between processes) and gives back the shared standard object.
    (A :mod:`copyreg` rule, so that the data model needs no loader.)

    >>> import pickle
    >>> comps = standard_components()
    >>> pickle.loads(pickle.dumps(comps)) is comps, len(pickle.dumps(comps)) < 100
    (True, True)
    >>> mine = load_components(STANDARD_PATH, name='mine')
    >>> pickle.loads(pickle.dumps(mine)) == mine
    True
    """
    standard = standard_components()
    if comps is standard or (comps.name == standard.name and comps == standard):
        return (standard_components, ())
    return (Components, tuple(getattr(comps, f.name) for f in attrs.fields(Components)))


copyreg.pickle(Components, _reduce_components)


def load_components(path: str | Path, *, name: str | None = None) -> Components:
    """Read and validate a components TOML file; raises :class:`ComponentsError`.

    The file's format is documented in the docs ("Rules notes") and shown by
    the standard file, ``tajmahal/rules/data/standard.toml``.

    >>> load_components(STANDARD_PATH, name='mine').board == standard_components().board
    True
    >>> load_components('nowhere.toml')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.ComponentsError: cannot read components file 'nowhere.toml': ...
    """
    path = Path(path)
    try:
        text = read_regular(path, MAX_FILE_BYTES).decode("utf-8")
    except OSError as exc:
        raise ComponentsError(
            f"cannot read components file {str(path)!r}: {exc.strerror or exc}"
        ) from None
    except UnicodeDecodeError as exc:
        raise ComponentsError(
            f"cannot read components file {str(path)!r}: not UTF-8 text (byte {exc.start})"
        ) from None
    return parse_components(text, source=str(path), name=name)


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``OSError`` for anything else.

    Directories, devices (``/dev/zero``) and pipes are refused without
    reading them (a FIFO is opened without waiting for a writer).

    >>> read_regular('/dev/zero', 10)
    Traceback (most recent call last):
    ...
    OSError: [Errno 22] not a regular file (a directory, device or pipe)
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a directory, device or pipe)")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit} bytes")
    return data


# TOML's strings and comments (whose dots are text), its structural characters (which end
# a key), its dots, and everything else; possessive quantifiers: one linear pass
_TOML_TOKENS = re.compile(
    r'''"""(?:[^"\\]++|\\.|"(?!""))*+"""'''
    r"""|'''(?:[^']++|'(?!''))*+'''"""
    r'''|"(?:[^"\\\n]++|\\.)*+"|'[^'\n]*+'|#[^\n]*+'''
    r"|(\n)|([=\[\]{},])|(\.)|[^\"'#=\[\]{},\n.]++|[\"']",
    re.S,
)


def _check_key_parts(text: str, source: str) -> None:
    """ComponentsError for a dotted key of more than :data:`MAX_KEY_PARTS` parts.

    tomllib's time is quadratic in a dotted key's parts (a 200 KB key took minutes):
    such keys are refused before parsing, in time linear in the text.

    >>> _check_key_parts('a.b = 1\\nc = "x.y.z"\\n', 'ok.toml')
    >>> _check_key_parts('[' + '.'.join('k' * 40) + ']', 'long.toml')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.ComponentsError: long.toml line 1: a dotted key of more than 32 parts
    """
    line, dots = 1, 0
    for match in _TOML_TOKENS.finditer(text):
        newline, ends, dot = match.groups()
        if dot:
            dots += 1
            if dots >= MAX_KEY_PARTS:
                raise ComponentsError(
                    f"{source[:200]} line {line}: a dotted key of more than {MAX_KEY_PARTS} parts"
                )
        elif newline or ends:
            dots = 0
            line += 1 if newline else 0
        else:
            line += match.group().count("\n")  # a multi-line string


def parse_components(text: str, *, source: str = "<string>", name: str | None = None) -> Components:
    """Validate components given as TOML text; raises :class:`ComponentsError`.

    >>> parse_components('a = ' + '[' * 5000 + ']' * 5000, source='deep.toml')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.ComponentsError: deep.toml: nested too deeply
    """
    import tomllib  # here, not at the top: most programs never read a components file

    _check_key_parts(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentsError(f"{source}: TOML syntax error: {str(exc)[:_MAX_PROBLEM]}") from None
    except RecursionError:
        raise ComponentsError(f"{source}: nested too deeply") from None
    try:
        return _Parser(source).components(data, name)
    except ComponentsError:
        raise
    except (
        TypeError,
        ValueError,
        KeyError,
        AttributeError,
    ) as exc:  # pragma: no cover - safety net
        raise ComponentsError(f"{source}: malformed components file: {exc!r}") from None


def components_from_data(
    data: Mapping[str, Any], *, source: str = "<data>", name: str | None = None
) -> Components:
    """Validate components given as already-parsed tables (a components file's shape, e.g. JSON).

    Runs exactly the checks of :func:`parse_components`; raises :class:`ComponentsError`.

    >>> components_from_data({'cards': []}, source='doc')
    Traceback (most recent call last):
    ...
    tajmahal.rules.errors.ComponentsError: doc: top level: missing key(s) board, bonus_tiles, province_tiles, special_cards
    """  # noqa: E501
    try:
        return _Parser(source).components(data, name)  # type: ignore[arg-type]
    except ComponentsError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:  # pragma: no cover
        raise ComponentsError(f"{source}: malformed components: {exc!r}") from None


E = TypeVar("E", bound=enum.Enum)


class _Parser:
    """Turns the TOML tables into components, naming the entry at fault in every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> ComponentsError:
        if len(problem) > _MAX_PROBLEM:
            problem = problem[: _MAX_PROBLEM - 20] + f"... ({len(problem)} chars)"
        return ComponentsError(f"{self.source[:200]}: {where}: {problem}")

    # -- generic field readers
    def table(
        self, value: Any, where: str, required: set[str], optional: set[str]
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a table, got {type(value).__name__}")
        missing = sorted(required - value.keys())
        if missing:
            raise self.fail(where, f"missing key(s) {', '.join(missing)}")
        unknown = sorted(value.keys() - required - optional)
        if unknown:
            raise self.fail(where, f"unknown key(s) {', '.join(unknown)}")
        return value

    def tables(self, value: Any, where: str, limit: int) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected an array of tables, got {type(value).__name__}")
        if len(value) > limit:
            raise self.fail(where, f"at most {limit} entries, got {len(value)}")
        return value

    def typed(self, value: Any, kind: type | tuple[type, ...], where: str) -> Any:
        if isinstance(value, bool) and kind is not bool and bool not in _as_tuple(kind):
            raise self.fail(where, f"expected {_kind_name(kind)}, got a boolean")
        if not isinstance(value, kind):
            raise self.fail(where, f"expected {_kind_name(kind)}, got {type(value).__name__}")
        return value

    def enum(self, cls: type[E], value: Any, where: str) -> E:
        allowed = ", ".join(m.value for m in cls)
        if not isinstance(value, str):
            raise self.fail(where, f"expected one of {allowed}, got {value!r}")
        try:
            return cls(value)
        except ValueError:
            raise self.fail(
                where, f"unknown {cls.__name__.lower()} {value!r} (allowed: {allowed})"
            ) from None

    def count(self, entry: Mapping[str, Any], where: str) -> int:
        n = self.typed(entry.get("count", 1), int, f"{where}.count")
        if not 1 <= n <= MAX_COUNT:
            raise self.fail(f"{where}.count", f"must be from 1 to {MAX_COUNT}, got {n}")
        return int(n)

    # -- sections
    def components(self, data: dict[str, Any], name: str | None) -> Components:
        top = self.table(
            data,
            "top level",
            {"cards", "special_cards", "province_tiles", "bonus_tiles", "board"},
            {"format", "version", "name", "influence_tiles_per_symbol"},
        )
        if top.get("format", FORMAT) != FORMAT:
            raise self.fail("format", f"expected {FORMAT!r}, got {top['format']!r}")
        version = top.get("version", VERSION)
        if version != VERSION:
            raise self.fail("version", f"only version {VERSION} is known, got {version!r}")
        file_name = self.name(top.get("name", "custom"), "name")
        per_symbol = self.typed(
            top.get("influence_tiles_per_symbol", 6), int, "influence_tiles_per_symbol"
        )
        if per_symbol < 2:
            raise self.fail("influence_tiles_per_symbol", f"must be at least 2, got {per_symbol}")
        deck = self.deck(top["cards"])
        specials, earned_by = self.special_cards(top["special_cards"])
        board = self.board(top["board"])
        province_tiles = self.province_tiles(top["province_tiles"], len(board.provinces))
        bonus_tiles = self.bonus_tiles(top["bonus_tiles"], board)
        return Components(
            name=name or file_name,
            deck=deck,
            special_cards=specials,
            special_earned_by=earned_by,
            influence_tiles_per_symbol=per_symbol,
            province_tiles=province_tiles,
            bonus_tiles=bonus_tiles,
            board=board,
        )

    def deck(self, value: Any) -> tuple[Card, ...]:
        cards: list[Card] = []
        for i, raw in enumerate(self.tables(value, "cards", MAX_CARDS)):
            where = f"cards[{i}]"
            entry = self.table(raw, where, {"color", "symbols"}, {"count"})
            color = self.enum(Color, entry["color"], f"{where}.color")
            if color is Color.SPECIAL:
                raise self.fail(f"{where}.color", "special cards belong in [[special_cards]]")
            symbols = self.symbols(entry["symbols"], f"{where}.symbols")
            if not 1 <= len(symbols) <= 2:
                raise self.fail(
                    f"{where}.symbols", f"a card shows 1 or 2 symbols, got {len(symbols)}"
                )
            count = self.count(entry, where)
            if len(cards) + count > MAX_CARDS:
                raise self.fail(f"{where}.count", f"the deck would exceed {MAX_CARDS} cards")
            cards += [Card(color, symbols)] * count
        if not any(c.color in COLORED for c in cards):
            raise self.fail("cards", "the deck has no colored card")
        return tuple(cards)

    def symbols(self, value: Any, where: str) -> tuple[Symbol, ...]:
        self.typed(value, list, where)
        if len(value) > 2:
            raise self.fail(where, f"a card shows 1 or 2 symbols, got {len(value)}")
        return tuple(self.enum(Symbol, s, f"{where}[{j}]") for j, s in enumerate(value))

    def special_cards(
        self, value: Any
    ) -> tuple[tuple[Card, ...], tuple[tuple[Symbol, Special], ...]]:
        cards: list[Card] = []
        earned: list[tuple[Symbol, Special]] = []
        for i, raw in enumerate(self.tables(value, "special_cards", MAX_CARDS)):
            where = f"special_cards[{i}]"
            entry = self.table(raw, where, {"special", "earned_by"}, set())
            special = self.enum(Special, entry["special"], f"{where}.special")
            symbol = self.enum(Symbol, entry["earned_by"], f"{where}.earned_by")
            if symbol not in INFLUENCE:
                raise self.fail(
                    f"{where}.earned_by", f"{symbol.value!r} is not an influence symbol"
                )
            if any(s is special for _, s in earned):
                raise self.fail(f"{where}.special", f"duplicate special card {special.value!r}")
            if any(s is symbol for s, _ in earned):
                raise self.fail(
                    f"{where}.earned_by", f"{symbol.value!r} already earns another card"
                )
            cards.append(Card(Color.SPECIAL, _SPECIAL_SYMBOLS[special], special))
            earned.append((symbol, special))
        missing = [s.value for s in Special if all(s is not e for _, e in earned)]
        if missing:
            raise self.fail("special_cards", f"missing special card(s) {', '.join(missing)}")
        return tuple(cards), tuple(earned)

    def province_tiles(self, value: Any, num_provinces: int) -> tuple[ProvinceTile, ...]:
        tiles: list[ProvinceTile] = []
        for i, raw in enumerate(self.tables(value, "province_tiles", MAX_PROVINCES)):
            where = f"province_tiles[{i}]"
            entry = self.table(raw, where, {"number", "commodities"}, set())
            number = self.typed(entry["number"], int, f"{where}.number")
            self.typed(entry["commodities"], list, f"{where}.commodities")
            commodities = tuple(
                self.enum(Commodity, c, f"{where}.commodities[{j}]")
                for j, c in enumerate(entry["commodities"])
            )
            if not commodities:
                raise self.fail(
                    f"{where}.commodities", "a province tile shows at least one commodity"
                )
            if len(commodities) > MAX_TILE_COMMODITIES:  # C9, K5
                raise self.fail(
                    f"{where}.commodities",
                    f"province tile {number} shows {len(commodities)} commodities; a province "
                    f"tile shows one or two (C9, K5)",
                )
            twice = next((c for c in commodities if commodities.count(c) > 1), None)
            if twice is not None:  # K5 [DECISION]
                raise self.fail(
                    f"{where}.commodities",
                    f"province tile {number} shows {twice.value!r} twice; a province tile "
                    "shows each commodity at most once (K5)",
                )
            tiles.append(ProvinceTile(number, commodities))
        if len(tiles) != num_provinces:
            raise self.fail(
                "province_tiles", f"{len(tiles)} province tiles for {num_provinces} provinces"
            )
        numbers = sorted(t.number for t in tiles)
        if numbers != list(range(1, num_provinces + 1)):
            raise self.fail(
                "province_tiles", f"tiles must be numbered 1..{num_provinces}, got {numbers}"
            )
        return tuple(sorted(tiles, key=lambda t: t.number))

    def bonus_tiles(self, value: Any, board: Board) -> tuple[BonusTile, ...]:
        tiles: list[BonusTile] = []
        for i, raw in enumerate(self.tables(value, "bonus_tiles", MAX_TILES)):
            where = f"bonus_tiles[{i}]"
            entry = self.table(raw, where, {"kind"}, {"commodity", "points", "count"})
            kind = self.enum(BonusKind, entry["kind"], f"{where}.kind")
            commodity = None
            if kind is BonusKind.COMMODITY:
                if "commodity" not in entry:
                    raise self.fail(where, "a commodity tile needs 'commodity'")
                commodity = self.enum(Commodity, entry["commodity"], f"{where}.commodity")
            elif "commodity" in entry:
                raise self.fail(
                    f"{where}.commodity", f"only commodity tiles have one, not {kind.value}"
                )
            points = 0
            if kind in (BonusKind.TAJ_MAHAL, BonusKind.POINTS):
                if "points" not in entry:
                    raise self.fail(where, f"a {kind.value} tile needs 'points'")
                points = self.typed(entry["points"], int, f"{where}.points")
                if points < 0:
                    raise self.fail(f"{where}.points", f"must not be negative, got {points}")
            elif "points" in entry:
                raise self.fail(f"{where}.points", f"{kind.value} tiles have no points")
            count = self.count(entry, where)
            if len(tiles) + count > MAX_TILES:
                raise self.fail(f"{where}.count", f"bonus tiles would exceed {MAX_TILES}")
            tiles += [BonusTile(kind, commodity, points)] * count
        taj = [t for t in tiles if t.kind is BonusKind.TAJ_MAHAL]
        if len(taj) != 1:
            raise self.fail("bonus_tiles", f"expected exactly 1 taj_mahal tile, got {len(taj)}")
        fortresses = len(board.fortresses)
        if len(tiles) != fortresses:
            raise self.fail(
                "bonus_tiles", f"{len(tiles)} bonus tiles do not match the {fortresses} fortresses"
            )
        return tuple(taj + [t for t in tiles if t.kind is not BonusKind.TAJ_MAHAL])

    def board(self, value: Any) -> Board:
        top = self.table(
            value,
            "board",
            {"provinces", "cities", "roads", "final_province", "taj_mahal_city"},
            set(),
        )
        provinces: dict[str, tuple[str, str]] = {}
        for i, raw in enumerate(self.tables(top["provinces"], "board.provinces", MAX_PROVINCES)):
            where = f"board.provinces[{i}]"
            entry = self.table(raw, where, {"id", "name"}, set())
            pid = self.ident(entry["id"], f"{where}.id")
            if pid in provinces:
                raise self.fail(f"{where}.id", f"duplicate province id {pid!r}")
            provinces[pid] = (pid, self.name(entry["name"], f"{where}.name"))
        cities: dict[str, City] = {}
        for i, raw in enumerate(self.tables(top["cities"], "board.cities", MAX_CITIES)):
            where = f"board.cities[{i}]"
            entry = self.table(raw, where, {"id", "name", "province", "x", "y"}, {"fortress"})
            cid = self.ident(entry["id"], f"{where}.id")
            if cid in cities:
                raise self.fail(f"{where}.id", f"duplicate city id {cid!r}")
            province = self.typed(entry["province"], str, f"{where}.province")
            if province not in provinces:
                raise self.fail(f"{where}.province", f"city {cid!r}: unknown province {province!r}")
            cities[cid] = City(
                id=cid,
                name=self.name(entry["name"], f"{where}.name"),
                province=province,
                fortress=self.typed(entry.get("fortress", False), bool, f"{where}.fortress"),
                x=self.coordinate(entry["x"], f"{where}.x"),
                y=self.coordinate(entry["y"], f"{where}.y"),
            )
        roads = self.roads(top["roads"], cities)
        members: dict[str, list[City]] = {pid: [] for pid in provinces}
        for city in cities.values():  # one pass: linear in the number of cities
            members[city.province].append(city)
        by_province = {
            pid: Province(pid, pname, tuple(members[pid])) for pid, pname in provinces.values()
        }
        for p in by_province.values():
            if len(p.cities) < 4:
                raise self.fail(
                    f"province {p.id!r}",
                    f"has {len(p.cities)} cities; every province needs at least 4",
                )
        _check_connected(by_province.values(), cities, roads, self.fail)
        final = self.typed(top["final_province"], str, "board.final_province")
        if final not in by_province:
            raise self.fail("board.final_province", f"unknown province {final!r}")
        taj = self.typed(top["taj_mahal_city"], str, "board.taj_mahal_city")
        if taj not in cities or not cities[taj].fortress or cities[taj].province != final:
            raise self.fail(
                "board.taj_mahal_city",
                f"no fortress for the Taj Mahal tile: {taj!r} must be a fortress "
                f"of province {final!r}",
            )
        return Board(tuple(by_province.values()), tuple(cities.values()), roads, final, taj)

    def coordinate(self, value: Any, where: str) -> float:
        number = float(self.typed(value, (int, float), where))
        if not math.isfinite(number):
            raise self.fail(where, f"a drawing coordinate must be a finite number, got {value!r}")
        return number

    def name(self, value: Any, where: str) -> str:
        text = self.typed(value, str, where)
        if len(text) > MAX_NAME:
            raise self.fail(where, f"at most {MAX_NAME} characters, got {len(text)}")
        return str(text)

    def ident(self, value: Any, where: str) -> str:
        text = self.name(value, where)
        plain = text.replace("_", "").replace("-", "")
        if not plain.isascii() or not plain.isalnum() or text != text.lower():
            raise self.fail(where, f"ids are lowercase letters, digits, '_' and '-', got {text!r}")
        return str(text)

    def roads(self, value: Any, cities: Mapping[str, City]) -> tuple[tuple[str, str], ...]:
        self.typed(value, list, "board.roads")
        if len(value) > MAX_ROADS:
            raise self.fail("board.roads", f"at most {MAX_ROADS} roads, got {len(value)}")
        seen: set[frozenset[str]] = set()
        roads: list[tuple[str, str]] = []
        for i, raw in enumerate(value):
            where = f"board.roads[{i}]"
            if (
                not isinstance(raw, list)
                or len(raw) != 2
                or not all(isinstance(c, str) for c in raw)
            ):
                raise self.fail(where, f"a road is a pair of city ids, got {raw!r}")
            a, b = raw
            for end in (a, b):
                if end not in cities:
                    raise self.fail(where, f"road {a!r}-{b!r} leads to unknown city {end!r}")
            if a == b:
                raise self.fail(where, f"road from {a!r} to itself")
            key = frozenset((a, b))
            if key in seen:
                raise self.fail(where, f"road {a!r}-{b!r} is listed twice")
            seen.add(key)
            roads.append((a, b))
        return tuple(roads)


def _check_connected(
    provinces: Iterable[Province],
    cities: Mapping[str, City],
    roads: Iterable[tuple[str, str]],
    fail: Callable[[str, str], ComponentsError],
) -> None:
    """Each province's cities joined by its own roads, and the whole board by all roads.

    Linear in the number of cities and roads: one adjacency list, one walk per province.
    """
    inside: dict[str, set[str]] = {c: set() for c in cities}  # roads within a province
    around: dict[str, set[str]] = {c: set() for c in cities}  # all roads
    for a, b in roads:
        around[a].add(b)
        around[b].add(a)
        if cities[a].province == cities[b].province:
            inside[a].add(b)
            inside[b].add(a)
    for province in provinces:
        members = {c.id for c in province.cities}
        reached = reachable([province.cities[0].id], inside.__getitem__)
        if reached != members:
            cut = _few(sorted(members - reached))
            raise fail(f"province {province.id!r}", f"is not connected inside: cannot reach {cut}")
    if cities:
        first = next(iter(cities))
        reached = reachable([first], around.__getitem__)
        if len(reached) != len(cities):
            cut = _few([c for c in cities if c not in reached])
            problem = f"the board is not connected: from {first!r} no road leads to {cut}"
            raise fail("board.roads", problem)


def _few(items: list[str], shown: int = 5) -> str:
    """The first ``shown`` items, and how many more."""
    text = ", ".join(items[:shown])
    return text + (f" and {len(items) - shown} more" if len(items) > shown else "")


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {
        "str": "a string",
        "int": "an integer",
        "float": "a number",
        "bool": "a boolean",
        "list": "an array",
        "dict": "a table",
    }
    return " or ".join(names.get(k.__name__, k.__name__) for k in _as_tuple(kind))
