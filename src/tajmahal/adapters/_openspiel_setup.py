"""The setup's chance model of the OpenSpiel game ``python_tajmahal``: its chance nodes.

The tiles laid and cards dealt one chance node each (or one node of ``deal_seeds``
outcomes), as the module docstring of :mod:`tajmahal.adapters.openspiel_game` tells;
and a seat's redeal of what it has not seen, for ``resample_from_infostate``.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs

from tajmahal.rules.components import BonusKind, Components
from tajmahal.rules.engine import HAND_SIZE, new_game
from tajmahal.rules.snapshot import evolve
from tajmahal.rules.state import GameState
from tajmahal.rules.tables import tables

_MAX_DEAL_SEEDS = 1 << 16  #: outcomes of the one setup node of ``deal_seeds``


@attrs.frozen
class _Setup:
    """The chance model of the setup for one components set (see the module docstring)."""

    components: Components
    provinces: tuple[int, ...]  #: provinces the random tiles go to (board order)
    final_province: int
    fortresses: tuple[int, ...]  #: city indices of the fortresses that get a random tile
    taj_city: int
    taj_tile: int  #: index into components.bonus_tiles
    bonus_kinds: tuple[int, ...]  #: per distinct random bonus tile, its first index in bonus_tiles
    bonus_counts: tuple[int, ...]  #: per distinct random bonus tile, how many there are
    deck_counts: tuple[int, ...]  #: per card kind, how many the deck has
    cards: int  #: the deck's size

    @property
    def tiles(self) -> int:
        return len(self.provinces) + len(self.fortresses)

    @property
    def nodes(self) -> int:
        return self.tiles + self.cards


@functools.lru_cache(maxsize=4)
def _setup(components: Components) -> _Setup:
    board, t = components.board, tables(components)
    final = t.province_of[board.final_province]
    taj_index = next(
        i for i, tile in enumerate(components.bonus_tiles) if tile.kind is BonusKind.TAJ_MAHAL
    )
    squares = Counter(
        components.bonus_tiles.index(tile) for tile in components.bonus_tiles if tile.kind
        is not BonusKind.TAJ_MAHAL
    )
    kinds = tuple(sorted(squares))
    return _Setup(
        components=components,
        provinces=tuple(p for p in range(len(board.provinces)) if p != final),
        final_province=final,
        fortresses=tuple(
            t.city_of[c.id] for c in board.fortresses if c.id != board.taj_mahal_city
        ),
        taj_city=t.city_of[board.taj_mahal_city],
        taj_tile=taj_index,
        bonus_kinds=kinds,
        bonus_counts=tuple(squares[k] for k in kinds),
        deck_counts=t.deck_counts,
        cards=len(t.deck),
    )


@functools.lru_cache(maxsize=8)
def _blank_state(players: int) -> GameState:
    """A state whose deal the chance nodes replace (never viewed, so it holds no view memo)."""
    return new_game(players, seed=0)


@attrs.frozen
class _Deal:
    """The setup in progress: the outcomes drawn so far (a chance node)."""

    players: int
    outcomes: tuple[int, ...]
    seeds: int = 0  #: the game's ``deal_seeds``: the setup is one node of that many outcomes

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        return self

    def nodes(self, setup: _Setup) -> int:
        """The setup's chance nodes."""
        return 1 if self.seeds else setup.nodes

    def owner(self, setup: _Setup, node: int) -> int | str:
        """Who gets node ``node``'s outcome: "tile", a seat, "supply" or "deck" ("deal": all)."""
        if self.seeds:
            return "deal"
        card = node - setup.tiles
        if card < 0:
            return "tile"
        if card < HAND_SIZE * self.players:
            return card // HAND_SIZE
        return "supply" if card < (HAND_SIZE + 2) * self.players - 1 else "deck"

    def outcomes_now(self, setup: _Setup) -> list[tuple[int, float]]:
        node, drawn = len(self.outcomes), self.outcomes
        if self.seeds:
            return [(seed, 1.0 / self.seeds) for seed in range(self.seeds)]
        if node < len(setup.provinces):
            left = [p for p in setup.provinces if p not in drawn]
            return [(p, 1.0 / len(left)) for p in left]
        if node < setup.tiles:
            taken = Counter(drawn[len(setup.provinces) :])
            counts = [c - taken[i] for i, c in enumerate(setup.bonus_counts)]
        else:
            taken = Counter(drawn[setup.tiles :])
            counts = [c - taken[k] for k, c in enumerate(setup.deck_counts)]
        total = sum(counts)
        return [(i, c / total) for i, c in enumerate(counts) if c]

    def state(self, setup: _Setup) -> GameState:
        """The engine state the complete setup deals."""
        n, out = self.players, self.outcomes
        if self.seeds:
            return new_game(n, seed=out[0])
        provinces = out[: len(setup.provinces)]
        bonus = [-1] * len(setup.components.board.cities)
        bonus[setup.taj_city] = setup.taj_tile
        for city, b in zip(setup.fortresses, out[len(setup.provinces) : setup.tiles], strict=True):
            bonus[city] = setup.bonus_kinds[b]
        cards = out[setup.tiles :]
        hands = tuple(tuple(sorted(cards[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(n))
        dealt = HAND_SIZE * n + 2 * n - 1
        changes = {
            "province_order": (*provinces, setup.final_province),
            "bonus": tuple(bonus),
            "hands": hands,
            "supply": tuple(sorted(cards[HAND_SIZE * n : dealt])),
            "deck": tuple(reversed(cards[dealt:])),  # the first card dealt is the top
        }
        return evolve(_blank_state(n), changes)

    def info_string(self, setup: _Setup, seat: int, private: bool) -> str:
        comps, t = setup.components, tables(setup.components)
        out = self.outcomes
        laid = out[: len(setup.provinces)]
        lines = [f"seat {seat}", "setup", "provinces " + " ".join(t.province_ids[p] for p in laid)]
        if self.seeds:  # one node: nothing is laid nor dealt before it
            return "\n".join([*lines[:2], f"deal one of {self.seeds} seeds"])
        tiles = comps.bonus_tiles
        placed = zip(setup.fortresses, out[len(setup.provinces) : setup.tiles], strict=False)
        lines.append(
            "bonus " + " ".join(f"{t.city_ids[c]}={tiles[setup.bonus_kinds[b]]}" for c, b in placed)
        )
        mine, supply = [], []
        for node in range(setup.tiles, len(out)):
            owner = self.owner(setup, node)
            if owner == seat:
                mine.append(out[node])
            elif owner == "supply":
                supply.append(out[node])
        if private:
            lines.append(f"hand {_cards(comps, sorted(mine))}")
        lines.append(f"supply {_cards(comps, sorted(supply))}")
        lines.append(f"cards dealt {max(0, len(out) - setup.tiles)}")
        return "\n".join(lines)


def _redeal(setup: _Setup, deal: _Deal, seat: int, rng: random.Random) -> list[int]:
    """The outcomes of ``deal`` with every card ``seat`` has not seen drawn again."""
    out = list(deal.outcomes)
    hidden = [
        node
        for node in range(setup.tiles, len(out))
        if deal.owner(setup, node) not in (seat, "supply")
    ]
    pool = Counter(dict(enumerate(setup.deck_counts)))
    pool.subtract(out[node] for node in range(setup.tiles, len(out)) if node not in hidden)
    cards = list(pool.elements())
    rng.shuffle(cards)
    for node, card in zip(hidden, cards, strict=False):
        out[node] = card
    return out


def _cards(components: Components, kinds: Iterable[int]) -> str:
    texts = _card_texts(components)
    return " ".join([texts[k] for k in kinds]) or "-"


@functools.lru_cache(maxsize=8)
def _card_texts(components: Components) -> tuple[str, ...]:
    return tuple(map(str, components.card_kinds))
