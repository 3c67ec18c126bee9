"""Solving many deals on all cores.

Threads run the native search without the GIL, each with its own solver and
transposition table (see :func:`prefsolve.solver.default_solver`). Results
come back as numpy arrays in the order of the input. With ``scheduler=`` (a
``dask.distributed.Client`` or a scheduler's address) the deals are solved by
the workers of a Dask cluster instead (:mod:`prefsolve.cluster`), with the
same results in the same order.

>>> import prefsolve
>>> deals = [prefsolve.Deal.random(s) for s in range(3)]
>>> table_many(deals, jobs=2).shape
(3, 3, 6)
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import math
import operator
import os
import queue
import threading
import weakref
from collections import abc, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from .checks import check_seat
from .deal import Deal
from .engine import Solver, default_solver, new_solver, table_size_mb
from .errors import DealError, PrefsolveError, SeatError
from .i18n import _
from .solver import DiscardHints, Table, as_deal, check_hints, solve, table
from .strains import STRAINS, TAKE, check_talon_mode, parse_strain

if TYPE_CHECKING:
    import numpy as np  # for annotations; the functions import it on use

Progress = Callable[[int], None]
#: Where a batch runs besides this process: a ``dask.distributed.Client`` or a scheduler's address.
Scheduler = object


CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")


def _quota_cores(quota: str, period: str) -> int | None:
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None     # "max": no quota
    if q <= 0 or p <= 0:
        return None     # -1: no quota
    return max(1, math.ceil(q / p))


def _read(path: Path) -> str | None:
    """A cgroup file's text, or None when it cannot be read; odd bytes never raise
    (this runs when the package is imported)."""
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return None


def _groups(proc_cgroup: Path) -> tuple[str, str]:
    """This process's cgroup v2 path and v1 ``cpu`` controller path ("/" when unknown)."""
    v2 = v1 = "/"
    text = _read(proc_cgroup)
    if text is None:
        return v2, v1
    lines = text.splitlines()
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and not controllers:
            v2 = path or "/"
        elif "cpu" in controllers.split(","):
            v1 = path or "/"
    return v2, v1


def _with_parents(base: Path, group: str) -> list[Path]:
    parts = [p for p in group.split("/") if p]
    return [base.joinpath(*parts[:i]) for i in range(len(parts), -1, -1)]


def _v1_cpu_mount(root: Path) -> Path:
    """The cgroup v1 ``cpu`` controller's mount: ``cpu`` is usually a link to
    ``cpu,cpuacct``, but some systems mount only the joint name."""
    for name in ("cpu", "cpu,cpuacct", "cpuacct,cpu"):
        if (root / name).is_dir():
            return root / name
    return root / "cpu"


def cgroup_cpu_limit(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> int | None:
    """Whole cores allowed by the CPU quota of this process's cgroup, rounded up,
    or None without a quota.

    Reads cgroup v2 ``cpu.max`` ("max 100000" or "150000 100000") or cgroup
    v1 ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us`` (-1 for none) in the
    process's own group (``/proc/self/cgroup``) and every group above it, and
    keeps the smallest: a quota on a parent (a systemd slice) binds its
    children. In a container the own group is the mount's root. A quota of
    1.5 cores gives 2 threads: the second still gets half a core.
    """
    v2, v1 = _groups(proc_cgroup)
    found = []
    for d in _with_parents(root, v2):
        fields = (_read(d / "cpu.max") or "").split()
        if len(fields) >= 2:
            found.append(_quota_cores(fields[0], fields[1]))
    for d in _with_parents(_v1_cpu_mount(root), v1):
        quota, period = _read(d / "cpu.cfs_quota_us"), _read(d / "cpu.cfs_period_us")
        if quota is not None and period is not None:
            found.append(_quota_cores(quota.strip(), period.strip()))
    limits = [n for n in found if n is not None]
    return min(limits) if limits else None


def usable_cores() -> int:
    """Cores this process may run on: the machine's, narrowed by the CPU
    affinity mask (``taskset``, a cpuset) and by a container's CPU quota.

    ``os.cpu_count()`` counts every core of the machine, so on a 64-core host
    a container given 2 would start 64 threads that share 2 cores.
    """
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):    # no affinity call (macOS, Windows)
        n = os.cpu_count() or 1
    limit = cgroup_cpu_limit()
    if limit is not None:
        n = min(n, limit)
    return max(n, 1)


#: The most threads a batch starts: far more than any machine's cores, and few
#: enough that their stacks and tables cannot exhaust a process by themselves.
MAX_JOBS = 1024


def resolve_jobs(jobs: int | None) -> int:
    """Threads to use: ``None`` means every usable core (:func:`usable_cores`);
    otherwise a whole number from 1 to ``MAX_JOBS`` (numpy integers too)."""
    if jobs is None:
        return usable_cores()
    try:
        n = operator.index(jobs) if not isinstance(jobs, bool) else None
    except TypeError:
        n = None
    if n is None or not 1 <= n <= MAX_JOBS:
        raise PrefsolveError(_("jobs must be a whole number from 1 to {most}, got {value}", most=MAX_JOBS,
                               value=repr(jobs)))
    return n


class SolverPool:
    """Solvers kept between batch calls, so that worker threads do not each
    allocate (and page in) a new transposition table on every call.

    At most ``keep`` idle solvers are kept (one per usable core by default); a run with
    more threads than that frees the extra tables when it ends.
    """

    def __init__(self, keep: int | None = None) -> None:
        self._free: queue.Queue = queue.Queue(maxsize=keep or usable_cores())

    def take(self) -> Solver:
        try:
            return self._free.get_nowait()
        except queue.Empty:
            return new_solver(table_size_mb())

    def give(self, solver: Solver) -> None:
        try:
            self._free.put_nowait(solver)
        except queue.Full:
            pass  # dropped: its table is freed


_POOL = SolverPool()


# Tasks queued or holding a result, per thread: enough that a slow deal at the
# head of the queue (a full table takes 0.05 to over 1 s) does not leave the
# other threads idle, few enough that memory stays flat on millions of deals.
WINDOW_PER_JOB = 256


def imap_deals(items: Sequence, work: Callable, *, jobs: int | None = None,
               progress: Progress | None = None, scheduler: Scheduler | None = None) -> Iterator:
    """Yield ``work(item, solver)`` for every item, in order, solving on ``jobs`` threads
    or, with ``scheduler``, on a Dask cluster (see :func:`check_where`: ``work``
    and the items then travel pickled, so they must be picklable).

    Each call of ``work`` gets the :class:`~prefsolve._core.Solver` of the
    thread it runs in; ``work`` should hand it to the solve functions
    (``solver=``) so that tables are reused and never shared between
    threads. At most ``WINDOW_PER_JOB * jobs`` items are submitted ahead of
    the one yielded: one future per item of a million-deal batch took 1.6 GB
    before a single result was read. Closing the generator early cancels
    what has not started (a thread may still take one item while the queue
    is emptied) and waits for what has. ``jobs`` is checked here, before the
    first item.
    """
    scheduler = check_where(jobs, scheduler)
    if scheduler is not None:
        check_progress(progress)
        from .cluster import run_items

        return run_items(scheduler, items, work, progress=progress)
    jobs = resolve_jobs(jobs)
    if isinstance(items, abc.Sized):    # a generator streams: no length to fit the threads to
        jobs = min(jobs, max(len(items), 1))
    check_progress(progress)
    table_size_mb()     # a bad PREFSOLVE_TT_MB is named now, whichever threads need a solver
    if jobs == 1:
        return _in_this_thread(items, work, progress)
    return _on_threads(items, work, jobs, progress)


# The scheduler of the enclosing use_scheduler() block, if any.
_SCHEDULER: contextvars.ContextVar[Scheduler | None] = contextvars.ContextVar("prefsolve_scheduler", default=None)


@contextlib.contextmanager
def use_scheduler(scheduler: Scheduler) -> Iterator[None]:
    """Run every batch of the block on a Dask cluster: the batch functions
    called without ``scheduler=`` inside it use ``scheduler`` (a
    ``dask.distributed.Client``, or an address, connected to at each call),
    with their ``jobs`` not used (the workers' threads solve), as
    ``dask.config.set(scheduler=...)`` does for Dask's collections. This is
    how code that calls the batch functions, such as the analyses of
    :mod:`prefsolve.analysis`, runs on a cluster unchanged:

    >>> from prefsolve.analysis import Sampling, analyze
    >>> with use_scheduler(client):                        # doctest: +SKIP
    ...     a = analyze("A.KT9.KT97.K7", 0, sampling=Sampling(samples=100_000))

    The block's setting is this thread's (and its asyncio task's), as a
    context variable.
    """
    from .cluster import check_scheduler

    check_scheduler(scheduler)
    token = _SCHEDULER.set(scheduler)
    try:
        yield
    finally:
        _SCHEDULER.reset(token)


def check_where(jobs: int | None, scheduler: object) -> Scheduler | None:
    """Where a batch runs: the Dask cluster of ``scheduler`` (a
    ``dask.distributed.Client`` or a scheduler's address; the workers' own
    threads solve, so ``jobs`` must then be None), else that of the
    enclosing :func:`use_scheduler` block (``jobs`` not used), else None:
    ``jobs`` threads of this process."""
    if scheduler is None:
        if jobs is not None:
            resolve_jobs(jobs)  # a bad value is named, even where it is not used
        return _SCHEDULER.get()
    from .cluster import check_scheduler

    check_scheduler(scheduler)
    if jobs is not None:
        raise PrefsolveError(_("jobs={jobs} counts this process's threads; on a Dask cluster each worker's threads "
                               "solve (dask worker --nthreads), so leave jobs=None", jobs=repr(jobs)))
    return scheduler


def check_progress(progress: object) -> None:
    """``progress`` is None or a callable taking the number of deals just done."""
    if progress is not None and not callable(progress):
        raise PrefsolveError(_("progress must be a callable taking a count (or None), got {value}",
                               value=repr(progress)))


# Stop flags of the thread pools still running (see _on_threads); set when the
# interpreter exits, before it joins the pools' threads.
_RUNNING: weakref.WeakSet[threading.Event] = weakref.WeakSet()


def _stop_running() -> None:
    for stop in list(_RUNNING):
        stop.set()


# Private, but what concurrent.futures itself uses: it runs before the threads are
# joined (atexit would run after), and later registrations run first.
getattr(threading, "_register_atexit", atexit.register)(_stop_running)


def _in_this_thread(items: Sequence, work: Callable, progress: Progress | None) -> Iterator:
    for item in items:
        # Looked up per item: the generator may be advanced from several threads.
        value = work(item, default_solver())
        if progress:
            progress(1)
        yield value


def _on_threads(items: Sequence, work: Callable, jobs: int, progress: Progress | None) -> Iterator:
    # One item per task: solve times are heavy-tailed, so bigger chunks leave
    # a core idle at the end, and a task costs microseconds against
    # milliseconds of solving.
    # Set when the generator is closed, or at exit while it is still open: an
    # iterator kept but no longer read would otherwise have its threads solve
    # the whole window of queued items first (measured: 10 s for 512 tables).
    stop = threading.Event()
    _RUNNING.add(stop)

    def task(item):
        if stop.is_set():
            # Nobody reads it, unless a thread still consumes the batch while the
            # program exits: it gets an error then, never a missing result
            # (concurrent.futures itself refuses new work at that point).
            raise PrefsolveError(_("the batch was stopped: the program is exiting"))
        solver = _POOL.take()
        try:
            return work(item, solver)
        finally:
            _POOL.give(solver)

    pending = iter(items)
    pool = ThreadPoolExecutor(max_workers=jobs)

    def submit(item):
        try:
            return pool.submit(task, item)
        except RuntimeError as exc:     # submit starts the threads
            raise PrefsolveError(_("cannot start {jobs} threads ({reason}); use fewer jobs", jobs=jobs,
                                   reason=exc)) from None

    try:
        window = deque(submit(item) for item in islice(pending, WINDOW_PER_JOB * jobs))
        while window:
            value = window.popleft().result()
            for item in islice(pending, 1):
                window.append(submit(item))
            if progress:
                progress(1)
            yield value
    finally:
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)


def map_deals(items: Sequence, work: Callable, *, jobs: int | None = None,
              progress: Progress | None = None, scheduler: Scheduler | None = None) -> list:
    """:func:`imap_deals` as a list."""
    return list(imap_deals(items, work, jobs=jobs, progress=progress, scheduler=scheduler))


def _checked(i: int, item: Deal | str, talon_mode: str | None) -> Deal:
    """Deal number ``i`` (from 0) parsed, and holding a talon if ``talon_mode``
    is ``take``: a batch names a bad deal by its number before any is solved."""
    try:
        d = as_deal(item)
    except PrefsolveError as exc:
        raise type(exc)(_("deal {number}: {message}", number=i + 1, message=exc)) from None
    if talon_mode == TAKE and d.talon is None:
        raise DealError(_("deal {number}: {deal} has no talon to take; talon_mode='ignore' (--talon-mode ignore) "
                          "plays the hands as given", number=i + 1, deal=repr(str(d))))
    return d


def _deals(deals: Iterable[Deal | str], talon_mode: str | None = None) -> list[Deal]:
    talon_mode = _batch_talon_mode(talon_mode)
    return [_checked(i, d, talon_mode) for i, d in enumerate(_items(deals))]


def _batch_talon_mode(talon_mode: object) -> str | None:
    """A batch's talon mode: None (each deal's own default), ``take`` or ``ignore``."""
    return None if talon_mode is None else check_talon_mode(talon_mode, "S", True)


def _items(deals: Iterable[Deal | str]) -> list:
    """The batch as a list; one deal (text or Deal) or a non-iterable is an error,
    not a batch of its characters."""
    if isinstance(deals, (str, Deal)):
        raise DealError(_("a batch takes a sequence of deals; for one deal, use solve() or table(), or pass [deal]"))
    try:
        return list(deals)
    except TypeError:
        raise DealError(_("a batch takes a sequence of deals, got {value}", value=repr(deals))) from None


def _declarers(declarers: Sequence[int]) -> tuple[int, ...]:
    if isinstance(declarers, (str, bytes)) or not isinstance(declarers, abc.Iterable):
        raise SeatError(_("declarers must be a sequence of seats, e.g. (0, 1, 2), got {value}",
                          value=repr(declarers)))
    seats = tuple(check_seat(d, "declarer") for d in declarers)
    if not seats:
        raise SeatError(_("declarers must name at least one seat"))
    if len(set(seats)) != len(seats):
        raise SeatError(_("declarers must name each seat once, got {value}", value=repr(seats)))
    return seats


def solve_many(deals: Iterable[Deal | str], declarer: int, *, strain: str, leader: int = 0,
               talon_mode: str | None = None, jobs: int | None = None,
               progress: Progress | None = None, hints: DiscardHints | None = None,
               scheduler: Scheduler | None = None) -> np.ndarray:
    """Tricks of one contract for many deals: an int8 array of shape ``(n,)``.

    ``talon_mode``: as :func:`~prefsolve.solver.solve`, for every deal (None:
    each deal's default). ``hints`` and ``scheduler``: see :func:`table_many`.

    >>> solve_many(["AK.-.-.- QJ.-.-.- 7.7.-.-", "7.7.-.- AK.-.-.- QJ.-.-.-"], 0, strain="NT").tolist()
    [2, 1]
    """
    deals = _deals(deals, talon_mode)
    declarer = check_seat(declarer, "declarer")
    leader = check_seat(leader, "leader")
    strain = parse_strain(strain)
    hints = check_hints(hints) or DiscardHints()    # see table_many
    import numpy as np  # imported on use: keeps the CLI's start-up fast

    scheduler = check_where(jobs, scheduler)
    if scheduler is not None:
        check_progress(progress)
        from .cluster import run_deals

        parts = list(run_deals(scheduler, deals, "tricks", {"declarer": declarer, "strain": strain,
                                                            "leader": leader, "talon_mode": talon_mode},
                               progress=progress))
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.int8)

    def work(d: Deal, sv: Solver) -> int:
        return solve(d, declarer, strain=strain, leader=leader, talon_mode=talon_mode, solver=sv,
                     hints=hints).tricks

    out = np.empty(len(deals), dtype=np.int8)
    for i, tricks in enumerate(imap_deals(deals, work, jobs=jobs, progress=progress)):
        out[i] = tricks
    return out


def table_many(deals: Iterable[Deal | str], *, leader: int = 0, talon_mode: str | None = None,
               declarers: Sequence[int] = (0, 1, 2), jobs: int | None = None,
               progress: Progress | None = None, hints: DiscardHints | None = None,
               scheduler: Scheduler | None = None) -> np.ndarray:
    """Full tables for many deals: int8 array ``(n, 3, 6)``, strains in order S C D H NT misere.

    ``declarers`` picks the rows to solve (e.g. ``(0,)`` for one player's
    contracts only); the shape is then ``(n, len(declarers), 6)``.
    ``hints``: a :class:`~prefsolve.solver.DiscardHints` to share with later
    calls (batches of one Monte Carlo run); each call makes its own otherwise.
    It saves work when deals share the declarer's cards, and never changes
    the tricks; on a cluster each worker process keeps hints of its own.

    ``scheduler``: a ``dask.distributed.Client`` or a scheduler's address
    (``"tcp://host:8786"``) to solve on the workers of a Dask cluster
    (:mod:`prefsolve.cluster`; ``pip install "prefsolve[dask]"``), with
    ``jobs`` left None. Every deal is checked first, here.
    """
    deals = _deals(deals, talon_mode)
    leader = check_seat(leader, "leader")
    declarers = _declarers(declarers)

    # Shared by the worker threads: deals with the declarer's cards in common,
    # as the analyzer's samples, try the last best discards first. The tricks
    # do not depend on it.
    hints = check_hints(hints) or DiscardHints()

    def work(d: Deal, sv: Solver):
        return [[solve(d, p, strain=s, leader=leader, talon_mode=talon_mode, solver=sv, hints=hints).tricks
                 for s in STRAINS]
                for p in declarers]

    import numpy as np  # imported on use: keeps the CLI's start-up fast

    out = np.empty((len(deals), len(declarers), len(STRAINS)), dtype=np.int8)
    scheduler = check_where(jobs, scheduler)
    if scheduler is not None:
        check_progress(progress)
        from .cluster import run_deals

        i = 0
        for rows in run_deals(scheduler, deals, "table", {"leader": leader, "talon_mode": talon_mode,
                                                         "declarers": declarers}, progress=progress):
            out[i:i + len(rows)] = rows
            i += len(rows)
        return out
    for i, rows in enumerate(imap_deals(deals, work, jobs=jobs, progress=progress)):
        out[i] = rows
    return out


def check_deals(deals: Iterable[Deal | str], *, talon_mode: str | None = None) -> list[Deal | str]:
    """The deals as a list, each checked (a bad one raises, naming its number;
    with ``talon_mode="take"`` a deal without a talon is bad) but kept as
    given: texts stay text."""
    talon_mode = _batch_talon_mode(talon_mode)
    items = _items(deals)
    for i, d in enumerate(items):
        _checked(i, d, talon_mode)
    return items


def iter_tables(deals: Iterable[Deal | str], *, leader: int = 0, talon_mode: str | None = None,
                jobs: int | None = None, progress: Progress | None = None,
                scheduler: Scheduler | None = None) -> Iterator[Table]:
    """Full :class:`~prefsolve.solver.Table` objects (with discards) for many deals,
    yielded in order as they are solved.

    ``talon_mode=None`` takes the talon for the deals that have one. Every
    deal is checked before the first is solved (:func:`check_deals`); see
    :func:`stream_tables` for the rest.
    """
    return stream_tables(check_deals(deals, talon_mode=talon_mode), leader=leader, talon_mode=talon_mode,
                         jobs=jobs, progress=progress, scheduler=scheduler)


def stream_tables(items: Sequence[Deal | str], *, leader: int = 0, talon_mode: str | None = None,
                  jobs: int | None = None, progress: Progress | None = None,
                  scheduler: Scheduler | None = None) -> Iterator[Table]:
    """:func:`iter_tables` for deals already checked by :func:`check_deals`.

    Deal texts are kept as text and parsed again by the thread that solves
    them (31 us against 10 ms of solving): a million deals hold about 0.1 GB
    of text, not 0.4 GB of parsed deals. On a cluster (``scheduler``) they
    travel as card masks, 16 bytes a deal.
    """
    leader = check_seat(leader, "leader")
    talon_mode = _batch_talon_mode(talon_mode)
    scheduler = check_where(jobs, scheduler)
    if scheduler is not None:
        check_progress(progress)
        from .cluster import run_deals

        return (t for chunk in run_deals(scheduler, items, "tables", {"leader": leader, "talon_mode": talon_mode},
                                         progress=progress) for t in chunk)

    def work(item: Deal | str, sv: Solver) -> Table:
        return table(as_deal(item), leader=leader, talon_mode=talon_mode, solver=sv)

    return imap_deals(items, work, jobs=jobs, progress=progress)


def tables(deals: Iterable[Deal | str], *, leader: int = 0, talon_mode: str | None = None,
           jobs: int | None = None, progress: Progress | None = None,
           scheduler: Scheduler | None = None) -> list[Table]:
    """:func:`iter_tables` as a list."""
    return list(iter_tables(deals, leader=leader, talon_mode=talon_mode, jobs=jobs, progress=progress,
                            scheduler=scheduler))
