"""Type stub of the native search core (see _core.pyx).

Cards are bits ``suit * 8 + rank`` of a 32-bit mask (suits S C D H, ranks
7..A); hands are such masks. Trump is a suit index 0..3, or -1.
"""

from collections.abc import Callable, Sequence
from typing import Any, Self

from typing_extensions import Buffer, disjoint_base

@disjoint_base
class Solver:
    """A search context with its own transposition table; one per thread."""

    nodes: int
    tt_bytes: int
    busy: bool  # a search is running; a second thread's call raises RuntimeError

    def __new__(cls, tt_mb: int = 1) -> Self: ...
    def clear(self) -> None: ...
    def value(
        self,
        hands: Sequence[int],
        declarer: int,
        trump: int,
        minimize: bool,
        leader: int = 0,
        trick: Sequence[int] = (),
        talon_card: int = -1,
        pending: Sequence[int] = (),
        guess: int = -1,
    ) -> int: ...
    def geq(
        self,
        hands: Sequence[int],
        declarer: int,
        trump: int,
        minimize: bool,
        target: int,
        leader: int = 0,
        trick: Sequence[int] = (),
        talon_card: int = -1,
        pending: Sequence[int] = (),
    ) -> bool: ...
    def first_guess(
        self, hands: Sequence[int], declarer: int, trump: int, minimize: bool, leader: int = 0
    ) -> int: ...
    def best_discard(
        self,
        hands: Sequence[int],
        talon: int,
        declarer: int,
        trump: int,
        minimize: bool,
        leader: int = 0,
        first: Sequence[int] = (),
        guess: int = -1,
    ) -> tuple[int, int]: ...

ENDINGS4_FORMAT: int

def set_endings4_source(source: Callable[[int, int], tuple[int, Buffer] | None] | None) -> None: ...

def compute_endings4() -> bytes: ...
def endings_fingerprint() -> int: ...
def endings4_matches(table: bytes) -> bool: ...
def ending_table() -> bytes: ...
def ending4_table() -> bytes: ...

# Names Cython adds to the module: the doctest table and its pickling helpers.
__test__: dict[str, str]

def __reduce_cython__(self: Any) -> Any: ...
def __setstate_cython__(self: Any, __pyx_state: Any) -> Any: ...
