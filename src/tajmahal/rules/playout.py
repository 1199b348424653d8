"""A fast playout path for search bots: a mutable game that plays moves as small ints.

:class:`Playout` is a private, mutable copy of a :class:`~tajmahal.GameState`.
It follows the same rules as ``legal_moves``/``apply`` (docs/rules.md), move
for move, but skips what a search does not need: no views, no move objects,
no validation, no new immutable state per move.  A move is an int *code*:

- play phase: :data:`WITHDRAW` (-1), or ``colored * stride + extra + 1`` for a
  play (``extra`` a white or special card kind, or -1 for none);
- palace and crown phases: the index of the city;
- take phase: the kind index of the supply card.

``moves()`` lists the codes in the engine's order (``moves()[i]`` is
``state.legal_moves()[i]``), :meth:`Playout.move` and :meth:`Playout.code`
translate between codes and moves, and :meth:`Playout.to_state` gives the
equal :class:`~tajmahal.GameState` back.  Playing a code that is not legal is
undefined behaviour: the caller takes codes from ``moves()``.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable

from tajmahal.rules.components import Components
from tajmahal.rules.legal import distinct_kinds
from tajmahal.rules.moves import Move, PlaceCrownPalace, PlacePalace, PlayCards, TakeCard, Withdraw
from tajmahal.rules.playout_steps import (
    CROWN,
    OVER,
    PALACE,
    PHASES,
    PLAY,
    TAKE,
    WITHDRAW,
    PlayoutSteps,
)
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import NO_EXTRA, Tables, tables
from tajmahal.rules.views import PlayerView

__all__ = [
    "CROWN",
    "OVER",
    "PALACE",
    "PLAY",
    "TAKE",
    "WITHDRAW",
    "Picker",
    "Playout",
    "code_of",
    "play_out",
    "sampled",
]

_WITHDRAW_MOVE = Withdraw()
_NONE: list[int] = []  # no white or special card in hand (never changed)

#: a move picker: given the playout, the legal codes (never empty) and the random
#: generator of the playout, one of the codes
Picker = Callable[["Playout", list[int], random.Random], int]


class Playout(PlayoutSteps):
    """A mutable game for search: build it from a state, play codes, read the scores.

    >>> import random, tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> game = Playout(state)
    >>> [state.legal_moves()[i] == game.move(code) for i, code in enumerate(game.moves())]
    [True, True, True, True, True, True]
    >>> game.play(game.moves()[0])
    >>> game.to_state() == state.apply(state.legal_moves()[0])
    True
    >>> game.run(random.Random(3))
    >>> game.is_over, len(game.scores)
    (True, 3)
    """

    __slots__ = ()

    # ------------------------------------------------------------------ reading
    @property
    def is_over(self) -> bool:
        """True once the game has ended.

        >>> import tajmahal as tm
        >>> Playout(tm.new_game(num_players=3, seed=1)).is_over
        False
        """
        return self.phase == OVER

    def copy(self) -> Playout:
        """An independent copy (a search plays many continuations of one position).

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> other = game.copy()
        >>> other.play(other.moves()[-1])
        >>> game.withdrawn, other.withdrawn
        ([False, False, False], [True, False, False])
        """
        new = Playout(None)  # an empty playout (the compiled build refuses __new__)
        new._t = self._t
        new.components = self.components
        new.seed = self.seed
        new.num_players = self.num_players
        new.first_player = self.first_player
        new.visit = self.visit
        new.phase = self.phase
        new.current = self.current
        new.reshuffles = self.reshuffles
        new.province_order = self.province_order
        new.court_crown = self.court_crown
        new.court_tile = self.court_tile
        new.pending_palaces = self.pending_palaces
        new.pending_crown = self.pending_crown
        new.pending_province = self.pending_province
        new.pending_takes = self.pending_takes
        new.stride = self.stride
        new.decisions = self.decisions
        new._first_extra = self._first_extra
        new._symbol_pairs = self._symbol_pairs
        new.withdrawn = self.withdrawn[:]
        new.colors = self.colors[:]
        new.supply = self.supply[:]
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.scores = self.scores[:]
        new.normal = self.normal[:]
        new.crown = self.crown[:]
        new.bonus = self.bonus[:]
        new.court_influence = self.court_influence[:]
        new.holder = self.holder[:]
        new.hands = [x[:] for x in self.hands]
        new.table = [x[:] for x in self.table]
        new.province_tiles = [x[:] for x in self.province_tiles]
        new.commodity_tiles = [x[:] for x in self.commodity_tiles]
        new.influence = [x[:] for x in self.influence]
        new.known = [x[:] for x in self.known]
        new.counts = [x[:] for x in self.counts]
        return new

    def moves(self) -> list[int]:
        """The legal move codes of the seat to move, in the order of ``legal_moves()``.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> game = Playout(state)
        >>> len(game.moves()) == len(state.legal_moves()), game.moves()[-1] == WITHDRAW
        (True, True)
        """
        phase = self.phase
        t = self._t
        if phase == PLAY:
            seat = self.current
            first_extra = self._first_extra  # colored kinds sort first
            colored: list[int] = []
            extras: list[int] = []
            last = -1
            for k in self.hands[seat]:  # the distinct kinds of the sorted hand
                if k != last:
                    last = k
                    if k < first_extra:
                        colored.append(k)
                    else:
                        extras.append(k + 1)
            color = self.colors[seat]
            stride = self.stride
            if color is not None:
                kind_color = t.color
                change = t.color_change + 1
                if change not in extras:
                    colored = [k for k in colored if kind_color[k] is color]
                else:  # P4: other colors only with the color change card
                    out = []
                    for k in colored:
                        base = k * stride
                        if kind_color[k] is color:
                            out.append(base)
                            out += [base + e for e in extras]
                        else:
                            out.append(base + change)
                    out.append(WITHDRAW)
                    return out
            if not extras:
                out = [k * stride for k in colored]
            else:
                out = []
                for k in colored:
                    base = k * stride
                    out.append(base)
                    out += [base + e for e in extras]
            out.append(WITHDRAW)  # V3, P8
            return out
        if phase == TAKE:
            return distinct_kinds(self.supply)
        cities = t.province_cities[self.province_order[self.visit - 1]]
        if phase == PALACE:
            normal = self.normal
            return [c for c in cities if normal[c] < 0]
        if phase == CROWN:
            crown = self.crown
            return [c for c in cities if crown[c] < 0]
        return []

    def move(self, code: int) -> Move:
        """The engine's move object for ``code`` in the current phase.

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> str(game.move(game.moves()[0])), str(game.move(WITHDRAW))
        ('play red:elephant+monk', 'withdraw')
        """
        t, phase = self._t, self.phase
        if phase == PLAY:
            if code == WITHDRAW:
                return _WITHDRAW_MOVE
            colored, extra = divmod(code, self.stride)
            return t.play_with[colored][extra - 1]
        if phase == PALACE:
            return t.place[code]
        if phase == CROWN:
            return t.crown[code]
        return t.take[code]

    def code(self, move: Move) -> int:
        """The code of ``move`` (the inverse of :meth:`move`).

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=3, seed=1)
        >>> game = Playout(state)
        >>> [game.code(m) for m in state.legal_moves()] == game.moves()
        True
        """
        return code_of(self.components, move)

    @property
    def tables(self) -> Tables:
        """The engine's lookup tables for these components (card kinds, cities, roads).

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> len(game.tables.kinds), len(game.tables.city_ids)
        (50, 49)
        """
        return self._t

    def to_state(self) -> GameState:
        """The equal immutable :class:`~tajmahal.GameState`.

        >>> import tajmahal as tm
        >>> state = tm.new_game(num_players=4, seed=2)
        >>> Playout(state).to_state() == state
        True
        """
        return GameState(
            components=self.components,
            seed=self.seed,
            num_players=self.num_players,
            first_player=self.first_player,
            visit=self.visit,
            phase=PHASES[self.phase],
            current_player=None if self.current < 0 else self.current,
            hands=tuple(map(tuple, self.hands)),
            table=tuple(map(tuple, self.table)),
            withdrawn=tuple(self.withdrawn),
            visit_colors=tuple(self.colors),
            supply=tuple(self.supply),
            deck=tuple(self.deck),
            discard=tuple(self.discard),
            reshuffles=self.reshuffles,
            scores=tuple(self.scores),
            province_order=self.province_order,
            normal_palaces=tuple(self.normal),
            crown_palaces=tuple(self.crown),
            bonus=tuple(self.bonus),
            court_influence=tuple(self.court_influence),
            court_crown=self.court_crown,
            court_province_tile=self.court_tile,
            province_tiles=tuple(map(tuple, self.province_tiles)),
            commodity_tiles=tuple(map(tuple, self.commodity_tiles)),
            influence=tuple(map(tuple, self.influence)),
            special_holder=tuple(self.holder),
            known=tuple(map(tuple, self.known)),
            pending_palaces=self.pending_palaces,
            pending_crown=self.pending_crown,
            pending_province=self.pending_province,
            pending_takes=self.pending_takes,
        )

    # ------------------------------------------------------------------ playing
    def run(
        self, rng: random.Random, pick: Picker | None = None, *, visit_end: bool = False
    ) -> None:
        """Play on to the end of the game (or of the current visit, with ``visit_end``).

        Each move is ``pick(self, codes, rng)``, or uniformly random from ``rng``
        (``codes[int(rng.random() * len(codes))]``) without a picker.

        >>> import random, tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> game.run(random.Random(1), visit_end=True)
        >>> game.visit, game.is_over
        (2, False)
        """
        stop = self.visit + 1 if visit_end else 0  # the visit at which to stop (0: none)
        if pick is not None:  # methods called directly (compiled: no bound method objects)
            while self.phase != OVER and self.visit != stop:
                self.play(pick(self, self.moves(), rng))
            return
        stride = self.stride
        decisions = 0
        while True:  # play() inlined: the random playout is the hottest loop of a search
            phase = self.phase
            if phase == OVER or self.visit == stop:
                break
            code = self._random_code(rng.random())
            decisions += 1
            if phase == PLAY:
                if code == WITHDRAW:
                    self._withdraw()
                else:
                    self._play(*divmod(code, stride))
            elif phase == TAKE:
                self._take(code)
            elif phase == PALACE:
                self._place_palace(code)
            else:
                self._place_crown(code)
        self.decisions += decisions

    def _random_code(self, u: float) -> int:
        """``moves()[int(u * len(moves()))]``, mostly without building the list."""
        phase = self.phase
        if phase != PLAY:
            if phase == TAKE:
                codes = distinct_kinds(self.supply)
            else:
                taken = self.normal if phase == PALACE else self.crown
                cities = self._t.province_cities[self.province_order[self.visit - 1]]
                codes = [c for c in cities if taken[c] < 0]
            return codes[int(u * len(codes))]
        seat = self.current
        hand = self.hands[seat]
        split = bisect_left(hand, self._first_extra)
        if split < len(hand):
            extras = [k + 1 for k in dict.fromkeys(hand[split:])]
            per = 1 + len(extras)
        else:
            extras, per = _NONE, 1
        color = self.colors[seat]
        if color is None:
            colored = list(dict.fromkeys(hand[:split]))
        elif per > 1 and self._t.color_change + 1 in extras:  # P4: rare, listed in full
            codes = self.moves()
            return codes[int(u * len(codes))]
        else:
            kind_color = self._t.color
            colored = [k for k in dict.fromkeys(hand[:split]) if kind_color[k] is color]
        plays = len(colored) * per
        i = int(u * (plays + 1))
        if i == plays:
            return WITHDRAW
        if per == 1:
            return colored[i] * self.stride
        k, j = divmod(i, per)
        return colored[k] * self.stride + (extras[j - 1] if j else 0)

    def play(self, code: int) -> None:
        """Play the legal move ``code`` for the seat to move (as ``GameState.apply`` would).

        >>> import tajmahal as tm
        >>> game = Playout(tm.new_game(num_players=3, seed=1))
        >>> game.play(WITHDRAW)
        >>> game.phase == TAKE, game.current
        (True, 0)
        """
        self.decisions += 1
        phase = self.phase
        if phase == PLAY:
            if code == WITHDRAW:
                self._withdraw()
            else:
                self._play(*divmod(code, self.stride))
        elif phase == TAKE:
            self._take(code)
        elif phase == PALACE:
            self._place_palace(code)
        else:
            self._place_crown(code)


def code_of(components: Components, move: Move) -> int:
    """The playout code of a move (in the phase the move belongs to).

    >>> import tajmahal as tm
    >>> state = tm.new_game(num_players=3, seed=1)
    >>> [code_of(state.components, m) for m in state.legal_moves()] == Playout(state).moves()
    True
    """
    t = tables(components)
    if isinstance(move, PlayCards):
        extra = NO_EXTRA if move.extra is None else t.kind_of[move.extra]
        return t.kind_of[move.colored] * (len(t.kinds) + 1) + extra + 1
    if isinstance(move, PlacePalace | PlaceCrownPalace):
        return t.city_of[move.city]
    if isinstance(move, TakeCard):
        return t.kind_of[move.card]
    return WITHDRAW


def sampled(view: PlayerView, rng: random.Random) -> Playout:
    """``Playout(view.sample(rng))``, without building the state in between once the view
    has been sampled before (the same deal, the same draws from ``rng``).

    >>> import random, tajmahal as tm
    >>> view = tm.new_game(num_players=3, seed=5).view(0)
    >>> first, again = sampled(view, random.Random(1)), sampled(view, random.Random(1))
    >>> first.to_state() == again.to_state() == view.sample(random.Random(1))
    True
    """
    sampler = view._sampler
    if sampler is None:  # the first sample checks the view
        return Playout(view.sample(rng))
    game = Playout(None)
    game.load(sampler.fields(rng))
    return game


def play_out(state: GameState, rng: random.Random, pick: Picker | None = None) -> tuple[int, ...]:
    """The final scores of ``state`` played to the end (random moves, or ``pick``'s).

    >>> import random, tajmahal as tm
    >>> scores = play_out(tm.new_game(num_players=3, seed=1), random.Random(7))
    >>> len(scores), all(s >= 0 for s in scores)
    (3, True)
    """
    game = Playout(state)
    game.run(rng, pick)
    return tuple(game.scores)
