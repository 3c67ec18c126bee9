"""An immutable, hashable mapping for result objects.

Results are frozen dataclasses; a table of tricks by strain or a card's value
by card must be frozen too, so that a result cannot change after it is made
and can be hashed, compared and used as a key.

>>> m = FrozenMap({"S": 6, "NT": 5})
>>> m["S"], m == {"S": 6, "NT": 5}, hash(m) == hash(FrozenMap({"NT": 5, "S": 6}))
(6, True, True)
>>> m["S"] = 7
Traceback (most recent call last):
...
TypeError: 'FrozenMap' object does not support item assignment
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """A read-only mapping that keeps its keys' order and hashes by its items."""

    __slots__ = ("_items", "_hash")

    def __init__(self, items: Mapping[K, V] | Iterator[tuple[K, V]] | tuple[tuple[K, V], ...] = ()) -> None:
        self._items: dict[K, V] = dict(items)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._items.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items!r})"

    def __reduce__(self):
        return (type(self), (self._items,))


__all__ = ["FrozenMap"]
