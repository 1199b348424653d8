"""FrozenMap: a small read-only, hashable mapping for immutable values."""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from types import MappingProxyType
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["FrozenMap"]


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """An immutable mapping that keeps insertion order and can be hashed.

    The items live in a private dict reached only through a read-only proxy,
    so a map handed to a bot cannot be changed by it (views share maps).

    >>> m = FrozenMap({'agra': (0, None)})
    >>> m['agra'], len(m), m == {'agra': (0, None)}
    ((0, None), 1, True)
    >>> m._data['agra'] = (1, None)
    Traceback (most recent call last):
    ...
    TypeError: 'mappingproxy' object does not support item assignment
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, items: Mapping[K, V] | None = None) -> None:
        self._data: Mapping[K, V] = MappingProxyType(dict(items or {}))
        self._hash: int | None = None

    @classmethod
    def _own(cls, items: dict[K, V]) -> FrozenMap[K, V]:
        """A map over ``items`` itself, not a copy: the caller hands the dict over."""
        new = cls()  # not cls.__new__(cls): the compiled build's classes refuse it
        new._data = MappingProxyType(items)
        return new

    def __reduce__(self) -> tuple[type[FrozenMap[K, V]], tuple[dict[K, V]]]:
        return type(self), (dict(self._data),)  # a mappingproxy cannot be pickled

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    # the dict's own views (Mapping's generic ones call __getitem__ per item)
    def items(self) -> ItemsView[K, V]:
        return self._data.items()

    def keys(self) -> KeysView[K]:
        return self._data.keys()

    def values(self) -> ValuesView[V]:
        return self._data.values()

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))  # equal maps hash equal
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({dict(self._data)!r})"
