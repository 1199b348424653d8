"""The game's own random streams (S10): MT19937 seeded from a text, and the shuffle over it.

Every random event of a game (the tile layout, the deck, each reshuffle) is a
shuffle drawn from one *stream* of the game's seed.  This module specifies the
generator and the shuffle completely, without Python's ``random`` module
(whose ``shuffle`` may change between Python versions), so a record replays
the same forever and another language can reproduce a deal
(docs/reference/records.md, "How a seed deals").

1. The stream's name is the text ``tajmahal/<stream>/<seed>`` (the seed in
   decimal, ``-`` before a negative one), e.g. ``tajmahal/deck/42``.
2. Its UTF-8 bytes followed by their 64-byte SHA-512 digest, read as one
   big-endian unsigned integer, are split into 32-bit words, least significant
   word first: that array seeds MT19937 with the reference ``init_by_array``.
3. A shuffle of ``n`` items is Fisher–Yates from the end: for ``i`` from
   ``n - 1`` down to 1, ``j`` is an unbiased integer in ``0..i`` and items
   ``i`` and ``j`` swap.  ``j`` is drawn by rejection: with ``k`` the bit
   length of ``i + 1``, take the top ``k`` bits of the next 32-bit output
   until the value is at most ``i``.

These are exactly the steps CPython's ``random.Random(text).shuffle`` has
taken since Python 3.2, so every deal made before this module existed is
unchanged.

>>> cards = list(range(10))
>>> shuffle(cards, 42, "deck")
>>> cards
[0, 2, 8, 4, 5, 7, 6, 9, 1, 3]

The pure-Python generator here is the reference.  Where CPython's own
``random.Random`` gives exactly its outputs (checked once, on first use, over
two streams and several refills), its C implementation of MT19937 supplies the
32-bit words, as a speed-up; the shuffle itself is always the one above.
"""

from __future__ import annotations

import functools
import hashlib
import random
from typing import Any

__all__ = [
    "MersenneTwister",
    "cpython_matches",
    "reference_only",
    "shuffle",
    "stream_key",
    "stream_text",
]

_N, _M = 624, 397
_MASK = 0xFFFFFFFF
_UPPER, _LOWER = 0x80000000, 0x7FFFFFFF
_MATRIX_A = 0x9908B0DF


def stream_text(seed: int, stream: str) -> str:
    """The name of one stream of a seed (step 1 above).

    >>> stream_text(-3, "reshuffle/0")
    'tajmahal/reshuffle/0/-3'
    """
    return f"tajmahal/{stream}/{seed}"


def stream_key(seed: int, stream: str) -> list[int]:
    """The ``init_by_array`` key of one stream of a seed (steps 1 and 2 above).

    >>> len(stream_key(42, "deck")), hex(stream_key(42, "deck")[-1])
    (20, '0x74616a6d')
    """
    text = stream_text(seed, stream).encode()
    number = int.from_bytes(text + hashlib.sha512(text).digest(), "big")
    words = max(1, (number.bit_length() + 31) // 32)
    return [(number >> (32 * w)) & _MASK for w in range(words)]


def _init_by_array(key: list[int]) -> list[int]:
    """The reference MT19937 ``init_genrand(19650218)`` then ``init_by_array(key)``."""
    mt = [0] * _N
    mt[0] = 19650218
    for i in range(1, _N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _MASK
    i, j = 1, 0
    for _ in range(max(_N, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & _MASK
        i, j = i + 1, j + 1
        if i >= _N:
            mt[0], i = mt[_N - 1], 1
        if j >= len(key):
            j = 0
    for _ in range(_N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & _MASK
        i += 1
        if i >= _N:
            mt[0], i = mt[_N - 1], 1
    mt[0] = 0x80000000
    return mt


def _twist(mt: list[int]) -> None:
    """The next 624 words of state, in place (the reference ``genrand_int32`` refill)."""
    for k in range(_N):
        y = (mt[k] & _UPPER) | (mt[(k + 1) % _N] & _LOWER)
        mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)


def _outputs(mt: list[int]) -> tuple[int, ...]:
    """The tempered 32-bit outputs of one block of state."""
    out = []
    for y in mt:
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        out.append(y ^ (y >> 18))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _first_block(seed: int, stream: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The state after the first refill and its 624 outputs (cached: playouts reshuffle often)."""
    mt = _init_by_array(stream_key(seed, stream))
    _twist(mt)
    return tuple(mt), _outputs(mt)


_reference_only = False


def reference_only(flag: bool) -> bool:
    """Make every generator use the pure-Python reference (``True``) or not; the old setting.

    For tests that check the reference itself deals every golden game.

    >>> old = reference_only(True); reference_only(old)
    True
    """
    global _reference_only
    old, _reference_only = _reference_only, flag
    return old


_CHECKED_STREAMS = ((0, "check"), (-(10**30) - 7, "check/long"))
_CHECKED_OUTPUTS = 3 * _N + 5


@functools.lru_cache(maxsize=1)
def cpython_matches() -> bool:
    """Whether ``random.Random(stream_text(...)).getrandbits(32)`` gives this module's outputs.

    >>> isinstance(cpython_matches(), bool)
    True
    """
    for seed, stream in _CHECKED_STREAMS:
        ours = MersenneTwister(seed, stream, pure=True)
        theirs = random.Random(stream_text(seed, stream))
        if any(ours.next_u32() != theirs.getrandbits(32) for _ in range(_CHECKED_OUTPUTS)):
            return False
        reference, fast = list(range(1000)), list(range(1000))
        MersenneTwister(seed, stream, pure=True).shuffle(reference)
        _fast_shuffle(fast, random.Random(stream_text(seed, stream)))
        if reference != fast:
            return False
    return True


def _fast_shuffle(items: list[Any], generator: random.Random) -> None:
    """The shuffle of step 3 with CPython's ``getrandbits(k)`` (the top ``k`` bits of a word)."""
    getrandbits = generator.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


class MersenneTwister:
    """MT19937 on one stream of a seed: 32-bit outputs and unbiased bounded integers.

    ``pure=True`` always uses the pure-Python reference, never CPython's
    generator (see the module's docstring).

    >>> twister = MersenneTwister(42, "deck")
    >>> twister.next_u32(), twister.below(6)
    (817283521, 0)
    >>> MersenneTwister(42, "deck", pure=True).next_u32()
    817283521
    """

    def __init__(self, seed: int, stream: str, *, pure: bool = False) -> None:
        self._fast: random.Random | None = None
        self._state: tuple[int, ...] = ()
        self._outputs: tuple[int, ...] = ()
        self._index = 0
        if not (pure or _reference_only) and cpython_matches():
            self._fast = random.Random(stream_text(seed, stream))
        else:
            self._state, self._outputs = _first_block(seed, stream)

    def next_u32(self) -> int:
        """The next 32-bit output."""
        if self._fast is not None:
            return self._fast.getrandbits(32)
        if self._index >= _N:
            mt = list(self._state)
            _twist(mt)
            self._state, self._outputs, self._index = tuple(mt), _outputs(mt), 0
        value = self._outputs[self._index]
        self._index += 1
        return value

    def below(self, bound: int) -> int:
        """An unbiased integer in ``0..bound-1`` (``bound`` from 1 to 2**32), by rejection."""
        if bound <= 1:
            return 0
        shift = 32 - bound.bit_length()
        value = self.next_u32() >> shift
        while value >= bound:
            value = self.next_u32() >> shift
        return value

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place: Fisher–Yates from the end (step 3 above).

        >>> twister = MersenneTwister(1, "tiles")
        >>> first, second = [1, 2, 3], [4, 5, 6]
        >>> twister.shuffle(first); twister.shuffle(second)
        >>> first, second
        ([1, 2, 3], [4, 6, 5])
        """
        if self._fast is not None:
            _fast_shuffle(items, self._fast)
            return
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def shuffle(items: list[Any], seed: int, stream: str, *, pure: bool = False) -> None:
    """Shuffle ``items`` in place from one stream of a seed (Fisher–Yates, step 3 above).

    >>> tiles = ["a", "b", "c", "d"]
    >>> shuffle(tiles, 1, "tiles")
    >>> tiles
    ['a', 'c', 'b', 'd']
    """
    MersenneTwister(seed, stream, pure=pure).shuffle(items)
