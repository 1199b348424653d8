"""From a structured document to an engine object, checked as strictly as the engine's own.

A :class:`Reader` turns document values into engine values and collects every
problem it finds, with its JSON path, to raise them together
(:class:`~tajmahal.serialize._converter.Failed`).  A state read is checked with
:func:`~tajmahal.rules.validate.find_problems`, a record by replaying its moves
(views: :mod:`tajmahal.serialize._view_reader`).
"""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from tajmahal.faults import MAX_DETAIL, MAX_SECONDS, MAX_TRACEBACK, Fault
from tajmahal.game import (
    MAX_TAGS,
    GameRecord,
    ReplayError,
    player_name_problem,
    replay_states,
    tag_problem,
)
from tajmahal.rules.components import (
    COLORED,
    INFLUENCE,
    BonusKind,
    Commodity,
    Components,
    Special,
    Symbol,
)
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.frozenmap import FrozenMap
from tajmahal.rules.moves import (
    Move,
    PlaceCrownPalace,
    PlacePalace,
    PlayCards,
    TakeCard,
    move_from_text,
)
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import SPECIALS, Tables, tables
from tajmahal.rules.validate import Path, find_problems
from tajmahal.serialize._components import text_kinds, tile_indices, tile_text
from tajmahal.serialize._converter import CardText, Failed, show
from tajmahal.serialize._documents import MoveDoc, RecordDoc, StateDoc, build

MAX_SCORE = 10_000  #: the highest score a state or view document may show


class Reader:
    """Turns document values into engine values, collecting problems with their paths."""

    def __init__(self, comps: Components) -> None:
        self.comps = comps
        self.t: Tables = tables(comps)
        self.text_kinds = text_kinds(comps)
        self.problems: list[tuple[Path, str]] = []

    def fail(self, path: Path, message: str) -> None:
        self.problems.append((path, message))

    def done(self) -> None:
        """Raise the problems found so far, if any."""
        if self.problems:
            raise Failed(self.problems)

    def players(self, n: int) -> None:
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            allowed = f"{MIN_PLAYERS} to {MAX_PLAYERS}"
            self.fail(("num_players",), f"Taj Mahal is for {allowed} players, not {n}")
            self.done()

    def scores(self, scores: Sequence[int]) -> None:
        """Scores within 0..MAX_SCORE (not checked against the rest of the document)."""
        for seat, score in enumerate(scores):
            if score < 0:
                self.fail(("scores", seat), f"a score cannot be negative, got {show(score)}")
            elif score > MAX_SCORE:
                self.fail(("scores", seat), f"a score is at most {MAX_SCORE}, got {show(score)}")

    def per_seat(self, doc: Any, n: int, names: Sequence[str]) -> None:
        for name in names:
            if len(getattr(doc, name)) != n:
                self.fail(
                    (name,), f"expected one entry per seat ({n}), got {len(getattr(doc, name))}"
                )

    def kinds(self, cards: list[CardText], path: Path) -> tuple[int, ...]:
        """The card kinds of a pile, as written (-1 for a card these components lack)."""
        text_kinds = self.text_kinds
        with contextlib.suppress(KeyError):  # the common case: every card is known
            return tuple([text_kinds[c] for c in cards])
        for i, c in enumerate(cards):
            if c not in text_kinds:
                self.fail((*path, i), f"{c} is not a card of these components")
        return tuple(text_kinds.get(c, -1) for c in cards)

    def city(self, city_id: str, path: Path) -> int:
        city = self.t.city_of.get(city_id)
        if city is None:
            self.fail(path, f"unknown city id {show(city_id)}")
            return -1
        return city

    def provinces(self, ids: list[str], path: Path) -> tuple[int, ...]:
        out = []
        for i, pid in enumerate(ids):
            index = self.t.province_of.get(pid)
            if index is None:
                self.fail((*path, i), f"unknown province id {show(pid)}")
            out.append(-1 if index is None else index)
        return tuple(out)

    def seat(self, value: int | None, n: int, path: Path) -> int:
        if value is None:
            return -1
        if not 0 <= value < n:
            self.fail(path, f"a seat is 0..{n - 1} (or null for nobody), got {value}")
        return value

    def bonus_tile(self, text: str, path: Path) -> int:
        index = tile_indices(self.comps).get(text)
        if index is not None:
            return index
        allowed = ", ".join(dict.fromkeys(tile_text(t) for t in self.comps.bonus_tiles))
        self.fail(path, f"no bonus tile {show(text)} in these components; allowed: {allowed}")
        return -1

    def commodity_tile(self, commodity: Commodity, path: Path) -> int:
        for i, tile in enumerate(self.comps.bonus_tiles):
            if tile.kind is BonusKind.COMMODITY and tile.commodity is commodity:
                return i
        self.fail(path, f"these components have no {commodity.value} bonus tile")
        return -1

    def influence(self, symbols: list[Symbol], path: Path) -> tuple[int, ...]:
        for i, s in enumerate(symbols):
            if s not in INFLUENCE:
                self.fail((*path, i), f"{s.value!r} is not an influence symbol")
        return tuple(symbols.count(s) for s in INFLUENCE)

    def court(self, symbols: list[Symbol]) -> tuple[bool, ...]:
        counts = self.influence(symbols, ("court_influence",))
        if any(c > 1 for c in counts):
            self.fail(("court_influence",), "the court holds at most one tile of each symbol")
        return tuple(c > 0 for c in counts)

    def holders(self, holders: dict[Special, int | None], n: int) -> tuple[int, ...]:
        for sp in SPECIALS:
            if sp not in holders:
                self.fail(("special_holder",), f"missing {sp.value!r} (a seat, or null)")
        return tuple(self.seat(holders.get(sp), n, ("special_holder", sp.value)) for sp in SPECIALS)


# ---------------------------------------------------------------------------- states


def read_state(doc: StateDoc) -> GameState:
    """The state a document holds, if it is one the engine could reach."""
    r = Reader(doc.components)
    n = doc.num_players
    r.players(n)
    r.per_seat(doc, n, ("hands", "table", "withdrawn", "visit_colors", "scores"))
    r.per_seat(doc, n, ("province_tiles", "commodity_tiles", "influence", "known"))
    r.scores(doc.scores)
    r.done()
    cities = len(r.t.city_ids)
    normal, crown, bonus = [-1] * cities, [-1] * cities, [-1] * cities
    for name, target in (("normal_palaces", normal), ("crown_palaces", crown)):
        for city_id, seat in getattr(doc, name).items():
            city = r.city(city_id, (name, city_id))
            if city >= 0:
                target[city] = r.seat(seat, n, (name, city_id))
    for city_id, text in doc.bonus.items():
        city = r.city(city_id, ("bonus", city_id))
        if city >= 0:
            bonus[city] = r.bonus_tile(text, ("bonus", city_id))
    written: dict[Path, tuple[int, ...]] = {  # piles as written, to name the right index
        ("hands", s): r.kinds(h, ("hands", s)) for s, h in enumerate(doc.hands)
    }
    written |= {("known", s): r.kinds(h, ("known", s)) for s, h in enumerate(doc.known)}
    written[("supply",)] = r.kinds(doc.supply, ("supply",))
    written[("discard",)] = r.kinds(doc.discard, ("discard",))
    state = build(
        GameState,
        doc,
        tuple,
        hands=tuple(tuple(sorted(written["hands", s])) for s in range(n)),
        table=tuple(r.kinds(cs, ("table", s)) for s, cs in enumerate(doc.table)),
        supply=tuple(sorted(written["supply",])),
        deck=r.kinds(doc.deck, ("deck",)),
        discard=tuple(sorted(written["discard",])),
        province_order=r.provinces(doc.province_order, ("province_order",)),
        normal_palaces=tuple(normal),
        crown_palaces=tuple(crown),
        bonus=tuple(bonus),
        court_influence=r.court(doc.court_influence),
        commodity_tiles=tuple(
            tuple(r.commodity_tile(c, ("commodity_tiles", s, i)) for i, c in enumerate(cs))
            for s, cs in enumerate(doc.commodity_tiles)
        ),
        influence=tuple(r.influence(h, ("influence", s)) for s, h in enumerate(doc.influence)),
        special_holder=r.holders(doc.special_holder, n),
        known=tuple(tuple(sorted(written["known", s])) for s in range(n)),
    )
    r.done()
    problems = find_problems(state)
    if problems:
        raise Failed([(_as_written(p.path, written), p.message) for p in problems])
    return state


def _as_written(path: Path, written: Mapping[Path, tuple[int, ...]]) -> Path:
    """The path of a problem in a sorted pile, as an index into the pile as written."""
    if len(path) < 2 or not isinstance(path[-1], int) or path[:-1] not in written:
        return path
    pile = written[path[:-1]]
    ordered = sorted(pile)
    index = path[-1]
    if index >= len(ordered):
        return path
    kind = ordered[index]
    rank = ordered[:index].count(kind)
    positions = [i for i, k in enumerate(pile) if k == kind]
    return (*path[:-1], positions[rank])


# ---------------------------------------------------------------------------- moves and records


def _canonical_move(text: str) -> Move:
    """The move a document's text names, written exactly as the library writes it (the JSON
    Schemas' notation: lower case, one space); people's spellings are for :func:`parse_move`."""
    move = move_from_text(text)
    if str(move) != text:
        raise ValueError(f"{show(text)} is not written in the move notation: {show(str(move))}")
    return move


def read_move(doc: MoveDoc) -> Move:
    """The move a document holds, if it is possible in some game."""
    try:
        move = _canonical_move(doc.move)
    except ValueError as exc:
        raise Failed([(("move",), str(exc))]) from None
    problem = _move_problem(move)
    if problem:
        raise Failed([(("move",), problem)])
    return move


def _move_problem(move: Move) -> str | None:
    """What makes ``move`` impossible in any game (P1; ids; symbols), or None."""
    if isinstance(move, PlayCards):
        if move.colored.color not in COLORED:
            return f"a play starts with one colored card (P1), not {move.colored}"
        if move.extra is not None and move.extra.color in COLORED:
            return f"the second card is a white or special card (P1), not {move.extra}"
    if isinstance(move, PlacePalace | PlaceCrownPalace):
        ident = move.city.replace("_", "").replace("-", "")
        if not ident.isascii() or not ident.isalnum() or move.city != move.city.lower():
            return f"{move.city!r} is not a city id (lowercase letters, digits, '_', '-')"
    cards = [move.colored, move.extra] if isinstance(move, PlayCards) else []
    cards += [move.card] if isinstance(move, TakeCard) else []
    for card in cards:
        if card is not None and card.special is None and not 1 <= len(card.symbols) <= 2:
            return f"{card}: a card shows one or two symbols"
    return None


def read_record(doc: RecordDoc) -> GameRecord:
    """The record a document holds, if it replays (with its faults, to its result)."""
    r = Reader(doc.components)
    n = doc.num_players
    r.players(n)
    if not 0 <= doc.first_player < n:
        r.fail(("first_player",), f"a seat is 0..{n - 1}, got {doc.first_player}")
    if doc.players and len(doc.players) != n:
        r.fail(("players",), f"one name per seat ({n}), or none, got {len(doc.players)}")
    for seat, player in enumerate(doc.players):
        if (problem := player_name_problem(player)) is not None:
            r.fail(("players", seat), problem)
    moves: list[Move] = []
    for i, text in enumerate(doc.moves):
        try:
            moves.append(_canonical_move(text))
        except ValueError as exc:
            r.fail(("moves", i), str(exc))
    _check_match_data(r, doc)
    r.done()
    faults = tuple(Fault(f.seat, f.decision, f.kind, f.detail, f.traceback) for f in doc.faults)
    record = build(
        GameRecord,
        doc,
        tuple,
        moves=tuple(moves),
        tags=FrozenMap(doc.tags),
        faults=faults,
        times=tuple(doc.times),
    )
    try:
        collections.deque(replay_states(record), maxlen=0)
    except ReplayError as exc:
        where: Path = ("scores",) if exc.move_index is None else ("moves", exc.move_index)
        if exc.move_index is None and str(exc).startswith("fault"):
            where = ("faults",)
        raise Failed([(where, str(exc))]) from None
    return record


def _check_match_data(r: Reader, doc: RecordDoc) -> None:
    """Version 2's tags, faults and times: bounded, and consistent with the moves."""
    if doc.version < 2:
        for name in ("tags", "faults", "times"):
            if getattr(doc, name):
                r.fail((name,), "version 1 records have no tags, faults or times")
        return
    if len(doc.tags) > MAX_TAGS:
        r.fail(("tags",), f"at most {MAX_TAGS} tags, got {len(doc.tags)}")
    else:
        for name, value in doc.tags.items():
            problem = tag_problem(name, value)
            if problem:
                r.fail(("tags", name), problem)
    decisions = len(doc.moves)
    if len(doc.faults) > decisions + doc.num_players:
        r.fail(("faults",), f"at most one fault per decision, got {len(doc.faults)}")
        return
    seen: set[tuple[int, int]] = set()
    for i, fault in enumerate(doc.faults):
        if not 0 <= fault.seat < doc.num_players:
            r.fail(("faults", i, "seat"), f"a seat is 0..{doc.num_players - 1}, got {fault.seat}")
        if not 0 <= fault.decision <= decisions:
            r.fail(("faults", i, "decision"), f"a decision is 0..{decisions}, got {fault.decision}")
        if len(fault.detail) > MAX_DETAIL or len(fault.traceback) > MAX_TRACEBACK:
            r.fail(
                ("faults", i),
                f"a detail has at most {MAX_DETAIL} characters, a traceback {MAX_TRACEBACK}",
            )
        key = (fault.decision, fault.seat if fault.decision == 0 else -1)
        if key in seen:
            r.fail(("faults", i), f"a second fault for decision {fault.decision}")
        seen.add(key)
    if doc.times and len(doc.times) != decisions:
        r.fail(("times",), f"one time per move ({decisions}), or none, got {len(doc.times)}")
    for i, seconds in enumerate(doc.times):
        if not 0 <= seconds <= MAX_SECONDS:
            r.fail(("times", i), f"seconds are 0..{MAX_SECONDS:g}, got {seconds}")
