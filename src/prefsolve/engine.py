"""The one owner of the native search core (:mod:`prefsolve._core`).

Every other module reaches the engine through this one: it creates solvers
(each with its own transposition table), gives each thread a default one,
and hands the core the data it needs from the package (the solved four-card
endings), so that the core itself imports nothing from prefsolve.

A solver's methods take plain integers (hand bitmasks, trump, seats) and
return integers or small tuples; parsing, checking and result objects live
in the modules above (:mod:`prefsolve.solver`, :mod:`prefsolve.play`).

>>> solver = new_solver(1)
>>> solver.value([0b11, 0b1100, 0b110000], 0, -1, False, 0)   # ♠8 ♠7 against ♠T ♠9 and ♠Q ♠J
0
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from . import _core
from ._endings import FILE, encode_endings4, load_endings4
from .errors import PrefsolveError
from .i18n import _

Solver = _core.Solver

#: The transposition table's size in MiB for new solvers, unless
#: ``PREFSOLVE_TT_MB`` says otherwise. Small enough that most probes hit the
#: nearer caches: the table is probed at every trick start, at scattered
#: buckets (docs/ENGINE.md, "Transposition tables").
DEFAULT_TT_MB = 1

#: The largest table a solver takes: 1 TiB, far above any machine's need (the
#: native core counts MiB in a C int).
MAX_TT_MB = 1 << 20

_local = threading.local()


class _Searches(threading.local):
    """This thread's count of searches started in the native core, and of their nodes."""

    count = 0
    nodes = 0


#: Incremented by every call into the native search (:mod:`prefsolve.solver`,
#: :mod:`prefsolve.play`): a deterministic measure of an analysis's work, per thread.
SEARCHES = _Searches()


def solver_calls() -> int:
    """How many searches this thread has started in the native core so far
    (each solve of a contract, each value or bound of a position). The
    difference of two readings is the work done in between, whatever the
    machine's speed; work done on other threads is not counted here.

    >>> before = solver_calls()
    >>> _ = new_solver(1).value([0b11, 0b1100, 0b110000], 0, -1, False, 0)   # the core itself: not counted
    >>> solver_calls() - before
    0
    """
    return SEARCHES.count


def solver_nodes() -> int:
    """The search nodes of the searches :func:`solver_calls` counts: the work in the
    core, which a best discard (up to 66 discards in one search) makes far larger than
    a card's value. Deterministic for the same searches in the same order.

    >>> from prefsolve.solver import solve
    >>> before = solver_nodes()
    >>> solution = solve("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-", 2, strain="NT", solver=new_solver(1))
    >>> solver_nodes() - before == solution.nodes > 0
    True
    """
    return SEARCHES.nodes


def table_size_mb() -> int:
    """Transposition table size for new solvers: ``PREFSOLVE_TT_MB`` MiB (default ``DEFAULT_TT_MB``)."""
    text = os.environ.get("PREFSOLVE_TT_MB", "")
    if not text.strip():    # unset or set empty ("PREFSOLVE_TT_MB= cmd"): the default
        return DEFAULT_TT_MB
    try:
        size = int(text)
    except ValueError:
        size = 0
    if not 1 <= size <= MAX_TT_MB:
        raise PrefsolveError(_("PREFSOLVE_TT_MB must be a whole number of MiB from 1 to {most}, got {value}",
                               most=MAX_TT_MB, value=repr(text)))
    return size


def new_solver(tt_mb: int) -> Solver:
    """A solver with a ``tt_mb`` MiB table; a size out of range or too large for the
    machine's memory is a :class:`PrefsolveError`, not a crash."""
    if isinstance(tt_mb, bool) or not isinstance(tt_mb, int) or not 1 <= tt_mb <= MAX_TT_MB:
        raise PrefsolveError(_("the table size must be a whole number of MiB from 1 to {most}, got {value}",
                               most=MAX_TT_MB, value=repr(tt_mb)))
    try:
        return _core.Solver(tt_mb)
    except MemoryError:
        raise PrefsolveError(_("cannot allocate a {size} MiB transposition table: not enough memory (set "
                               "PREFSOLVE_TT_MB lower)", size=tt_mb)) from None


def default_solver() -> Solver:
    """This thread's solver; its table is reused by every solve in the thread."""
    solver = getattr(_local, "solver", None)
    if solver is None:
        solver = new_solver(table_size_mb())
        _local.solver = solver
    return solver


def check_solver(solver: object) -> Solver:
    """``solver`` itself when it is a Solver, the thread's default for None."""
    if solver is None:
        return default_solver()
    if not isinstance(solver, _core.Solver):
        raise PrefsolveError(_("solver must be a prefsolve Solver or None, got {kind}", kind=type(solver).__name__))
    return solver


# The solved misère endings. The core reads the shipped four-card table
# through the loader registered here, once, at its first misère or
# all-pass search (not now, not when a solver is made); it checks what the
# loader returns and solves the table itself when the file is missing or
# does not match. What the core computes and checks is exported for
# write_endings4 (which writes the shipped file) and the tests.
_core.set_endings4_source(load_endings4)
ENDINGS4_FORMAT = _core.ENDINGS4_FORMAT
compute_endings4 = _core.compute_endings4
endings_fingerprint = _core.endings_fingerprint
endings4_matches = _core.endings4_matches
ending_table = _core.ending_table
ending4_table = _core.ending4_table

def write_endings4(path: Path | None = None) -> int:
    """Solve the four-card misère endings here and write them to ``path``
    (default: the file shipped in the package); returns the file's size.
    ``python -m prefsolve.engine [PATH]`` runs it: after any change to how
    endings are numbered or solved, the tests fail until the file is
    written again."""
    data = encode_endings4(ENDINGS4_FORMAT, endings_fingerprint(), compute_endings4())
    (FILE if path is None else path).write_bytes(data)
    return len(data)


__all__ = ["Solver", "SEARCHES", "solver_calls", "solver_nodes", "DEFAULT_TT_MB", "MAX_TT_MB", "table_size_mb",
           "new_solver", "default_solver", "check_solver", "ENDINGS4_FORMAT", "compute_endings4",
           "endings_fingerprint", "endings4_matches", "ending_table", "ending4_table", "write_endings4"]


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else FILE
    print(f"wrote {target} ({write_endings4(target)} bytes)")
