"""Checks of plain arguments shared by the whole package: whole numbers, seats, seeds.

Each check returns the value in canonical form or raises the
:mod:`prefsolve.errors` class that names the argument and quotes the input.

>>> check_seat(2, "declarer"), whole(3), whole(True), check_seed(None)
(2, 3, None, None)
>>> check_seat(3, "leader")
Traceback (most recent call last):
...
prefsolve.errors.SeatError: leader must be a seat 0, 1 or 2, got 3
"""

from __future__ import annotations

import operator
from typing import SupportsIndex, cast

from .errors import PrefsolveError, SeatError
from .i18n import _

SEATS = (0, 1, 2)


def whole(x: object) -> int | None:
    """``x`` as an int when it is a whole number (numpy's too), else None; never a bool."""
    if isinstance(x, bool):
        return None
    try:
        return operator.index(cast(SupportsIndex, x))   # no __index__: the TypeError below
    except TypeError:
        return None


def check_seat(value: object, what: str) -> int:
    """A seat number 0..2 (numpy's integers too: seats come back from arrays),
    naming the parameter in the error."""
    seat = whole(value)
    if seat not in SEATS:
        raise SeatError(_("{what} must be a seat 0, 1 or 2, got {value}", what=what, value=repr(value)))
    return seat


def check_optional_seat(value: object, what: str) -> int | None:
    """None, or a seat checked by :func:`check_seat`."""
    return None if value is None else check_seat(value, what)


def check_seed(seed: object) -> int | None:
    """A seed for repeatable draws: None, or a whole number 0 or more (Python's
    generator takes -1 and 1 for the same seed, so negative ones are refused)."""
    if seed is None:
        return None
    value = whole(seed)
    if value is None or value < 0:
        raise PrefsolveError(_("seed must be a whole number 0 or more, got {value}", value=repr(seed)))
    return value


def check_count(value: object, what: str, minimum: int = 1) -> int:
    """A whole number ``minimum`` or more."""
    n = whole(value)
    if n is None or n < minimum:
        raise PrefsolveError(_("{what} must be a whole number {minimum} or more, got {value}", what=what,
                                 minimum=minimum, value=repr(value)))
    return n


__all__ = ["SEATS", "whole", "check_seat", "check_optional_seat", "check_seed", "check_count"]
