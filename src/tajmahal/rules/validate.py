"""Is a :class:`GameState` possible?  Every invariant the engine keeps, checked from outside.

States the engine builds always pass; states built by hand (``attrs.evolve``)
or read from a document (:func:`tajmahal.loads`) may not.  :func:`check_state`
raises :class:`InvalidStateError` listing every :class:`Problem` found, each
with the path of the offending part as a state document names it
(``$.hands[2][0]``, ``$.normal_palaces.agra``): the keys are the
:class:`GameState` field names; per-city fields are keyed by city id and
``special_holder`` by special card.

A state that passes can be played on: ``legal_moves()`` and ``apply`` work.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from tajmahal.rules.components import COLORED, INFLUENCE, BonusKind, Components
from tajmahal.rules.engine import MAX_PLAYERS, MIN_PLAYERS
from tajmahal.rules.problems import InvalidStateError, Path, Problem, format_path
from tajmahal.rules.state import GameState, Phase
from tajmahal.rules.tables import SPECIALS, Tables, tables

__all__ = ["InvalidStateError", "Path", "Problem", "check_state", "find_problems", "format_path"]

def check_state(state: GameState) -> None:
    """Raise :class:`InvalidStateError` unless ``state`` is one the engine could have built.

    >>> import attrs, tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> check_state(state)
    >>> check_state(attrs.evolve(state, scores=(0, -1, 0)))
    Traceback (most recent call last):
    ...
    tajmahal.rules.problems.InvalidStateError: impossible state: $.scores[1]: a score ...
    """
    problems = find_problems(state)
    if problems:
        raise InvalidStateError(problems)


def find_problems(state: GameState) -> list[Problem]:
    """Every problem :func:`check_state` would report (empty for a possible state).

    >>> import tajmahal as tm
    >>> find_problems(tm.new_game(num_players=4, seed=2))
    []
    """
    if not isinstance(state, GameState):
        return [Problem((), f"expected a GameState, got {type(state).__name__}")]
    shape = _Shape(state)
    shape.run()
    if shape.problems:
        return shape.problems
    checker = _Checker(state)
    checker.run()
    return checker.problems


# ---------------------------------------------------------------------------- shape


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Shape:
    """Types, lengths and ranges: what must hold before anything else can be looked at."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.problems: list[Problem] = []

    def fail(self, path: Path, message: str) -> None:
        self.problems.append(Problem(path, message))

    def int_in(self, value: Any, path: Path, lo: int, hi: int | None = None) -> bool:
        if not _is_int(value):
            self.fail(path, f"expected an integer, got {type(value).__name__}")
            return False
        if value < lo or (hi is not None and value > hi):
            allowed = f"at least {lo}" if hi is None else f"{lo}..{hi}"
            self.fail(path, f"must be {allowed}, got {value}")
            return False
        return True

    def seq(self, value: Any, path: Path, length: int | None = None) -> bool:
        if not isinstance(value, tuple):
            self.fail(path, f"expected a tuple, got {type(value).__name__}")
            return False
        if length is not None and len(value) != length:
            self.fail(path, f"expected {length} entries, got {len(value)}")
            return False
        return True

    def ints(self, values: Any, path: Path, lo: int, hi: int | None = None) -> None:
        if not self.seq(values, path):
            return
        if all(type(v) is int for v in values) and (  # the fast path: nothing to report
            not values or (min(values) >= lo and (hi is None or max(values) <= hi))
        ):
            return
        for i, v in enumerate(values):
            self.int_in(v, (*path, i), lo, hi)

    def bools(self, values: Any, path: Path, length: int) -> None:
        if self.seq(values, path, length):
            for i, v in enumerate(values):
                if not isinstance(v, bool):
                    self.fail((*path, i), f"expected a boolean, got {type(v).__name__}")

    def run(self) -> None:
        s = self.state
        if not isinstance(s.components, Components):
            self.fail(("components",), "expected a tajmahal.Components")
            return
        if not self.int_in(s.num_players, ("num_players",), MIN_PLAYERS, MAX_PLAYERS):
            return
        t = tables(s.components)
        n, cities, last_kind = s.num_players, len(t.city_ids), len(t.kinds) - 1
        if not _is_int(s.seed):
            self.fail(("seed",), f"expected an integer, got {type(s.seed).__name__}")
        self.int_in(s.first_player, ("first_player",), 0, n - 1)
        self.int_in(s.visit, ("visit",), 1, len(t.province_ids))
        if not isinstance(s.phase, Phase):
            self.fail(("phase",), f"expected a Phase, got {s.phase!r}")
        if s.current_player is not None:
            self.int_in(s.current_player, ("current_player",), 0, n - 1)
        for name in ("hands", "table", "known"):
            if self.seq(getattr(s, name), (name,), n):
                for seat, kinds in enumerate(getattr(s, name)):
                    self.ints(kinds, (name, seat), 0, last_kind)
        for name in ("supply", "deck", "discard"):
            self.ints(getattr(s, name), (name,), 0, last_kind)
        self.bools(s.withdrawn, ("withdrawn",), n)
        if self.seq(s.visit_colors, ("visit_colors",), n):
            for seat, color in enumerate(s.visit_colors):
                if color is not None and color not in COLORED:
                    self.fail(("visit_colors", seat), f"must be a colored suit, got {color!r}")
        if self.seq(s.scores, ("scores",), n):
            for seat, score in enumerate(s.scores):
                if _is_int(score) and score < 0:
                    self.fail(("scores", seat), f"a score cannot be negative, got {score}")
                else:
                    self.int_in(score, ("scores", seat), 0)
        self.int_in(s.reshuffles, ("reshuffles",), 0)
        order = s.province_order
        if self.seq(order, ("province_order",), len(t.province_ids)):
            if sorted(order) != list(range(len(t.province_ids))):
                self.fail(("province_order",), "must list every province exactly once")
            elif t.province_ids[order[-1]] != s.components.board.final_province:
                final = s.components.board.final_province
                self.fail(("province_order",), f"the final province {final!r} comes last (S2)")
        for name in ("normal_palaces", "crown_palaces", "bonus"):
            values = getattr(s, name)
            if self.seq(values, (name,), cities):
                hi = n - 1 if name != "bonus" else len(s.components.bonus_tiles) - 1
                if all(type(v) is int and -1 <= v <= hi for v in values):
                    continue
                for c, v in enumerate(values):
                    self.int_in(v, (name, t.city_ids[c]), -1, hi)
        self.bools(s.court_influence, ("court_influence",), len(INFLUENCE))
        for name in ("court_crown", "court_province_tile", "pending_crown", "pending_province"):
            if not isinstance(getattr(s, name), bool):
                self.fail((name,), f"expected a boolean, got {getattr(s, name)!r}")
        if self.seq(s.province_tiles, ("province_tiles",), n):
            for seat, tiles in enumerate(s.province_tiles):
                self.ints(tiles, ("province_tiles", seat), 1, len(s.components.province_tiles))
        if self.seq(s.commodity_tiles, ("commodity_tiles",), n):
            for seat, tiles in enumerate(s.commodity_tiles):
                self.ints(tiles, ("commodity_tiles", seat), 0, len(s.components.bonus_tiles) - 1)
        if self.seq(s.influence, ("influence",), n):
            for seat, held in enumerate(s.influence):
                if self.seq(held, ("influence", seat), len(INFLUENCE)):
                    self.ints(held, ("influence", seat), 0, 2)
        if self.seq(s.special_holder, ("special_holder",), len(SPECIALS)):
            for i, holder in enumerate(s.special_holder):
                self.int_in(holder, ("special_holder", SPECIALS[i].value), -1, n - 1)
        self.int_in(s.pending_palaces, ("pending_palaces",), 0, len(INFLUENCE))
        self.int_in(s.pending_takes, ("pending_takes",), 0, 2)


# ---------------------------------------------------------------------------- rules


class _Checker:
    """The invariants of a well-shaped state; every failure is recorded, none stops the rest."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.t: Tables = tables(state.components)
        self.problems: list[Problem] = []
        order = state.province_order
        self.position = {p: i for i, p in enumerate(order)}  # province -> visit - 1
        self.current = order[state.visit - 1]
        self.over = state.phase is Phase.OVER

    def fail(self, path: Path, message: str) -> None:
        self.problems.append(Problem(path, message))

    def card(self, kind: int) -> str:
        return str(self.t.kinds[kind])

    def run(self) -> None:
        self.census()
        self.specials()
        self.sorted_piles()
        self.known()
        self.tables_and_colors()
        self.palaces()
        self.bonus_tiles()
        self.province_tiles()
        self.court()
        self.phase()

    # -- cards
    def places(self) -> Iterable[tuple[Path, int]]:
        s = self.state
        for name in ("hands", "table"):
            for seat, kinds in enumerate(getattr(s, name)):
                for i, k in enumerate(kinds):
                    yield (name, seat, i), k
        for name in ("supply", "deck", "discard"):
            for i, k in enumerate(getattr(s, name)):
                yield (name, i), k

    def census(self) -> None:
        """The deck's cards, each exactly once (C3); special cards are checked apart."""
        s, t = self.state, self.t
        everything = [
            k for kinds in (*s.hands, *s.table, s.supply, s.deck, s.discard) for k in kinds
        ]
        special = t.special
        if sorted(k for k in everything if not special[k]) == list(t.deck):
            return  # the fast path: the census is right
        expected = Counter(t.deck)
        seen: Counter[int] = Counter()
        for path, k in self.places():
            if t.special[k]:
                continue
            seen[k] += 1
            if seen[k] == expected[k] + 1:
                self.fail(
                    path,
                    f"one {self.card(k)} too many: the components have {expected[k]} "
                    f"(every card of the deck is in exactly one place)",
                )
        missing = expected - seen
        if missing:
            listed = ", ".join(f"{n} x {self.card(k)}" for k, n in sorted(missing.items()))
            total = sum(missing.values())
            self.fail((), f"{total} card(s) of the deck are nowhere: {listed}")

    def specials(self) -> None:
        """A special card is in its holder's hand or on its table, once, and nowhere else (S5)."""
        s, t = self.state, self.t
        where: dict[int, list[tuple[Path, int | str]]] = {t.special_kind[sp]: [] for sp in SPECIALS}
        for path, k in self.places():
            if t.special[k]:
                where[k].append((path, path[1] if path[0] in ("hands", "table") else -1))
        for i, special in enumerate(SPECIALS):
            kind = t.special_kind[special]
            holder = s.special_holder[i]
            places = where[kind]
            if holder < 0:
                for path, _ in places:
                    self.fail(path, f"{self.card(kind)} lies beside the board (special_holder)")
            elif [seat for _, seat in places] != [holder]:
                self.fail(
                    ("special_holder", special.value),
                    f"seat {holder} holds {self.card(kind)}, so it must be once in that seat's "
                    f"hand or on its table, found in {len(places)} place(s)"
                    + "".join(f" {format_path(p)}" for p, _ in places),
                )

    def sorted_piles(self) -> None:
        s = self.state
        for name in ("hands", "known"):
            for seat, kinds in enumerate(getattr(s, name)):
                if list(kinds) != sorted(kinds):
                    self.fail((name, seat), "must be sorted in card order")
        for name in ("supply", "discard"):
            if list(getattr(s, name)) != sorted(getattr(s, name)):
                self.fail((name,), "must be sorted in card order")

    def known(self) -> None:
        """Publicly known cards are cards in the hand (special cards are public apart)."""
        s, t = self.state, self.t
        for seat, known in enumerate(s.known):
            extra = Counter(known) - Counter(s.hands[seat])
            for k in sorted(extra):
                self.fail(("known", seat), f"{self.card(k)} is known but not in the hand")
            for k in known:
                if t.special[k]:
                    self.fail(("known", seat), f"{self.card(k)}: special cards are not listed")

    def tables_and_colors(self) -> None:
        """Plays are a colored card and at most one extra (P1); one visit color (P2, P4)."""
        s, t = self.state, self.t
        for seat, played in enumerate(s.table):
            path: Path = ("table", seat)
            if (
                played
                and s.withdrawn[seat]
                and not (seat == s.current_player and s.phase in (Phase.PALACE, Phase.CROWN))
            ):
                self.fail(path, "a seat that has withdrawn has discarded its cards (F1)")
                continue
            color = None
            i = 0
            while i < len(played):
                colored = played[i]
                if not t.colored[colored]:
                    self.fail((*path, i), "each play starts with one colored card (P1)")
                    break
                extra = (
                    played[i + 1] if i + 1 < len(played) and not t.colored[played[i + 1]] else -1
                )
                if extra != t.color_change:
                    if color is None:
                        color = t.color[colored]
                    elif t.color[colored] is not color:
                        self.fail((*path, i), f"{self.card(colored)} is not of the visit color")
                i += 1 if extra < 0 else 2
            fixed = s.visit_colors[seat]
            if (played or not s.withdrawn[seat]) and fixed is not color:
                shown = "none" if color is None else color.value
                self.fail(("visit_colors", seat), f"the cards played fix it as {shown} (P2)")

    # -- board
    def palaces(self) -> None:
        s, t = self.state, self.t
        per_province: Counter[tuple[str, int]] = Counter()
        for name in ("normal_palaces", "crown_palaces"):
            for c, owner in enumerate(getattr(s, name)):
                if owner < 0:
                    continue
                province = t.city_province[c]
                per_province[name, province] += 1
                if self.position[province] > s.visit - 1:
                    self.fail(
                        (name, t.city_ids[c]),
                        f"province {t.province_ids[province]!r} has not been visited yet",
                    )
        for (name, province), count in per_province.items():
            limit = len(INFLUENCE) if name == "normal_palaces" else 1
            if count > limit:
                self.fail(
                    (name,),
                    f"{count} in province {t.province_ids[province]!r}; "
                    f"a visit places at most {limit} (W5, W7)",
                )

    def bonus_tiles(self) -> None:
        """Bonus tiles stay on their fortresses until taken (W6) or the visit ends (E1)."""
        s, t = self.state, self.t
        tiles = s.components.bonus_tiles
        board = s.components.board
        taj_city = t.city_of[board.taj_mahal_city]
        in_game: Counter[Any] = Counter()
        for c, index in enumerate(s.bonus):
            path: Path = ("bonus", t.city_ids[c])
            position = self.position[t.city_province[c]]
            here = position == s.visit - 1 and not self.over
            if index < 0:
                if t.fortress[c] and (position > s.visit - 1 or (here and s.normal_palaces[c] < 0)):
                    self.fail(path, "a fortress keeps its bonus tile until a palace takes it (S3)")
                continue
            tile = tiles[index]
            in_game[tile] += 1
            if not t.fortress[c]:
                self.fail(path, "bonus tiles lie on fortresses only (S3)")
            elif (tile.kind is BonusKind.TAJ_MAHAL) != (c == taj_city):
                self.fail(path, "the Taj Mahal tile lies on the Taj Mahal city, and only there")
            if position < s.visit - 1 or (position == s.visit - 1 and self.over):
                self.fail(path, "the tiles of a visited province leave the game (E1)")
            elif s.normal_palaces[c] >= 0:
                self.fail(path, "a palace on a fortress takes its bonus tile (W6)")
        for seat, owned in enumerate(s.commodity_tiles):
            for i, index in enumerate(owned):
                tile = tiles[index]
                in_game[tile] += 1
                if tile.kind is not BonusKind.COMMODITY:
                    self.fail(("commodity_tiles", seat, i), "only commodity tiles are kept (K4)")
        supply = Counter(tiles)
        for tile, count in in_game.items():
            if count > supply[tile]:
                self.fail(
                    ("bonus",), f"{count} {tile} tiles in play; the components have {supply[tile]}"
                )

    def province_tiles(self) -> None:
        s = self.state
        owner: dict[int, int] = {}
        for seat, numbers in enumerate(s.province_tiles):
            for i, number in enumerate(numbers):
                path: Path = ("province_tiles", seat, i)
                if number in owner:
                    self.fail(path, f"province tile {number} is owned twice")
                owner[number] = seat
                if number > s.visit:
                    self.fail(path, f"province tile {number} is not visited yet (visit {s.visit})")
        if self.over:
            return
        won = s.visit in owner
        if s.court_province_tile and (won or s.pending_province):
            self.fail(("court_province_tile",), "the tile was won, so it is not in the court")
        if not s.court_province_tile and won == s.pending_province:
            self.fail(
                ("court_province_tile",),
                "a tile out of the court was won: it is owned or pending (W9), exactly one",
            )

    def court(self) -> None:
        """Prizes left the court only as palaces placed or owed (W5, W7) and tiles held (C7)."""
        s, t = self.state, self.t
        cities = t.province_cities[self.current]
        normal = sum(1 for c in cities if s.normal_palaces[c] >= 0)
        crown = sum(1 for c in cities if s.crown_palaces[c] >= 0)
        taken = len(INFLUENCE) - sum(s.court_influence)
        if normal + s.pending_palaces > taken:
            self.fail(
                ("pending_palaces",),
                f"{normal} palace(s) placed and {s.pending_palaces} owed in the current "
                f"province, but only {taken} influence prize(s) left the court",
            )
        if crown + s.pending_crown != (not s.court_crown):
            self.fail(
                ("court_crown",),
                "the crown leaves the court exactly when its palace is placed or owed (W7)",
            )
        per_symbol = s.components.influence_tiles_per_symbol
        for i, symbol in enumerate(INFLUENCE):
            held = sum(h[i] for h in s.influence)
            if held + s.court_influence[i] > per_symbol:
                self.fail(
                    ("influence",),
                    f"{held} {symbol.value} tiles held and one in the court; "
                    f"there are {per_symbol}",
                )
            for seat, h in enumerate(s.influence):
                if h[i] > 1 and (s.court_influence[i] or self.over):
                    self.fail(
                        ("influence", seat),
                        f"two {symbol.value} tiles are returned at the end of the visit (E2)",
                    )

    def phase(self) -> None:
        """The seat in :attr:`GameState.current_player` owes exactly the move the phase says."""
        s = self.state
        seat, phase = s.current_player, s.phase
        pending = {
            "pending_palaces": s.pending_palaces,
            "pending_crown": s.pending_crown,
            "pending_province": s.pending_province,
            "pending_takes": s.pending_takes,
        }
        allowed: Sequence[str] = {
            Phase.PLAY: (),
            Phase.PALACE: ("pending_palaces", "pending_crown", "pending_province"),
            Phase.CROWN: ("pending_crown", "pending_province"),
            Phase.TAKE: ("pending_takes",),
            Phase.OVER: (),
        }[phase]
        for name, value in pending.items():
            if value and name not in allowed:
                self.fail((name,), f"nothing of this is owed in the {phase.value} phase")
        if phase is Phase.OVER:
            self.check_over()
            return
        if len(s.supply) > 2 * s.num_players - 1:
            self.fail(("supply",), f"at most {2 * s.num_players - 1} cards (S7, E6)")
        if seat is None:
            self.fail(
                ("current_player",), f"the game is not over: a seat owes a {phase.value} move"
            )
            return
        if phase is Phase.PLAY:
            if s.withdrawn[seat]:
                self.fail(("current_player",), f"seat {seat} has withdrawn this visit (V4)")
            return
        if not s.withdrawn[seat]:
            self.fail(
                ("withdrawn", seat), f"seat {seat} owes a {phase.value} move after withdrawing"
            )
        if phase is Phase.PALACE and s.pending_palaces < 1:
            self.fail(("pending_palaces",), "the palace phase owes at least one palace")
        if phase is Phase.CROWN and not s.pending_crown:
            self.fail(("pending_crown",), "the crown phase owes the crown palace")
        if phase in (Phase.PALACE, Phase.CROWN) and not s.table[seat]:
            self.fail(("table", seat), "a prize is won with cards on the table (W1)")
        if phase is Phase.TAKE:
            if not 1 <= s.pending_takes <= min(2, len(s.supply)):
                self.fail(
                    ("pending_takes",),
                    f"must be 1..{min(2, len(s.supply))} (two, or fewer if the supply has "
                    f"fewer, F2), got {s.pending_takes}",
                )
            if s.table[seat]:
                self.fail(("table", seat), "the withdrawing seat has discarded its cards (F1)")

    def check_over(self) -> None:
        s = self.state
        if s.current_player is not None:
            self.fail(("current_player",), "nobody owes a move once the game is over")
        if s.visit != len(s.province_order):
            self.fail(("visit",), "the game ends after the last visit (E7)")
        for name in ("table", "withdrawn", "visit_colors"):
            if any(getattr(s, name)):
                self.fail((name,), "the last visit has ended: nothing is left of it")
        if s.supply:
            self.fail(("supply",), "no supply is dealt after the last visit (E6)")
        if s.court_province_tile:
            self.fail(("court_province_tile",), "the last province tile left the court (E1)")
