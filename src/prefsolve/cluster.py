"""Batches on a Dask cluster: the deals of a batch solved by the workers of a
``dask.distributed`` scheduler instead of this process's threads.

The batch functions (:func:`~prefsolve.batch.table_many`,
:func:`~prefsolve.batch.solve_many`, :func:`~prefsolve.batch.iter_tables`,
:func:`~prefsolve.batch.map_deals`) take ``scheduler=``: a
``dask.distributed.Client``, or a scheduler's address such as
``"tcp://host:8786"`` (a client is then opened for the call and closed after
it). The results are those of the local run, in the order of the input.

* Deals travel compactly: a task carries its deals as an ``(n, 4)`` uint32
  array of card masks (three hands and the talon, 0 for none), 16 bytes a deal.
* A task is a run of consecutive deals worth about ``TASK_SECONDS`` of
  solving, sized from the deals/s that the finished tasks measured (before
  the first one, from ``RATES``), and never more than a share of what is
  left, so that the last tasks are small and every worker finishes at about
  the same time.
* At most ``WINDOW_PER_THREAD`` tasks per worker thread are submitted ahead
  of the results read, so memory stays flat on millions of deals.
* Each worker process keeps its solvers, with their transposition tables,
  between tasks, and its own :class:`~prefsolve.solver.DiscardHints`.
* A worker lost mid-run costs only time: the scheduler runs its tasks again
  elsewhere, and each task's result is read once.

``dask`` is imported only when a scheduler is given: ``import prefsolve``
never imports it. Without it installed, the error names the extra to install
(``pip install "prefsolve[dask]"``).
"""

from __future__ import annotations

import contextlib
import math
import queue
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from .cards import Hand
from .deal import Deal
from .engine import new_solver, table_size_mb
from .errors import PrefsolveError
from .i18n import _

if TYPE_CHECKING:
    import numpy as np

#: The install command the errors name when dask is missing.
EXTRA = 'pip install "prefsolve[dask]"'

#: Seconds to wait for a scheduler given by its address (read at each
#: connection, so it may be set: ``prefsolve.cluster.CONNECT_TIMEOUT = 30``).
CONNECT_TIMEOUT = 10.0

#: The solving time a task aims at: long enough that the scheduler's few
#: milliseconds a task are lost in it, short enough that a lost worker costs
#: little and the progress moves.
TASK_SECONDS = 2.0

#: The shortest task, except the last ones: 0.02 s of solving, a few times
#: the round trip of a task through the scheduler (a few ms on a LAN).
MIN_TASK_SECONDS = 0.02

#: Deals a second a worker thread solves, assumed until the first task has
#: measured it: a full table with talon takes 7-16 ms, one contract with the
#: talon about 1/18 of that.
RATES = {"table": 60.0, "tricks": 1000.0, "solution": 1000.0, "map": 20.0}

#: Tasks submitted per worker thread ahead of the results read.
WINDOW_PER_THREAD = 2

#: Finished tasks held per worker thread while an earlier one still runs.
HELD_PER_THREAD = 8


class ClusterError(ConnectionError):
    """The scheduler cannot be reached, or the cluster could not finish the
    batch (its workers kept dying, the scheduler went away)."""


class MissingExtraError(ModuleNotFoundError):
    """``dask.distributed`` is not installed: the ``dask`` extra is needed."""


def require_distributed() -> Any:
    """The ``distributed`` module, or :class:`MissingExtraError` naming the extra."""
    try:
        import distributed
    except ImportError:
        raise MissingExtraError(_("running on a Dask cluster needs the dask extra: {command}", command=EXTRA),
                                name="distributed") from None
    return distributed


def is_client(obj: object) -> bool:
    """Whether ``obj`` is a ``dask.distributed.Client`` (without importing dask)."""
    distributed = sys.modules.get("distributed")
    return distributed is not None and isinstance(obj, distributed.Client)


def check_scheduler(scheduler: object) -> None:
    """``scheduler`` is a Client or an address text; anything else is a :class:`PrefsolveError`."""
    if isinstance(scheduler, str):
        if not scheduler.strip():
            raise PrefsolveError(_("scheduler address is empty; give one such as 'tcp://host:8786'"))
        return
    if not is_client(scheduler):
        raise PrefsolveError(_("scheduler must be a dask.distributed Client or a scheduler address such as "
                               "'tcp://host:8786', got {value}", value=repr(scheduler)))


@contextlib.contextmanager
def connect(scheduler: Any, *, timeout: float | None = None) -> Iterator[Any]:
    """The client of ``scheduler`` for the length of a ``with`` block.

    A Client is used as it is and left open; an address opens a client that
    the block closes. The whole connection is bounded by one deadline of
    ``timeout`` seconds (default: ``CONNECT_TIMEOUT``): a scheduler that does
    not answer by then, or a listener that is not a Dask scheduler (a web
    server, the Dask dashboard's port), is a :class:`ClusterError`.
    """
    check_scheduler(scheduler)
    if not isinstance(scheduler, str):
        yield scheduler
        return
    require_distributed()
    from distributed.comm.addressing import get_address_host_port, normalize_address

    try:
        # Read first: a Client given an address it cannot read leaves a
        # half-made client behind, whose clean-up fails at exit.
        get_address_host_port(normalize_address(scheduler))
    except ValueError as exc:
        raise PrefsolveError(_("not a scheduler address: {address} ({reason})", address=repr(scheduler),
                               reason=exc)) from None
    from distributed import Client

    seconds = CONNECT_TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + seconds
    _ask_identity(scheduler, seconds)
    try:
        client = Client(scheduler, timeout=max(deadline - time.monotonic(), 0.1), set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(_("cannot reach the Dask scheduler at {address}: {reason}", address=repr(scheduler),
                             reason=one_line(exc))) from None
    with client:
        yield client


def _ask_identity(address: str, seconds: float) -> None:
    """Ask the listener at ``address`` who it is, all within ``seconds``: a
    :class:`ClusterError` unless a Dask scheduler answers. A client given a
    listener that speaks another protocol would wait for its handshake past
    any timeout; this question is asked under one deadline, in a thread of its
    own (the caller may be running an event loop)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect as open_comm
    from distributed.comm.addressing import get_address_host_port, normalize_address

    host, port = get_address_host_port(normalize_address(address))
    listening = []

    async def ask() -> object:
        try:    # whether anything listens: a Dask comm's own connect also waits for the handshake
            _, writer = await asyncio.open_connection(host, port)
            listening.append(True)
            writer.close()
        except OSError:
            pass    # not yet, maybe: the comm below tries again until the deadline
        comm = await open_comm(address, timeout=seconds)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def within_deadline() -> object:
        return await asyncio.wait_for(ask(), seconds)

    with ThreadPoolExecutor(1) as pool:
        try:
            reply = pool.submit(asyncio.run, within_deadline()).result()
        except TimeoutError:
            if not listening:
                raise ClusterError(_("cannot reach the Dask scheduler at {address}: nothing answered within "
                                     "{seconds:g} s", address=repr(address), seconds=seconds)) from None
            raise ClusterError(_("no Dask scheduler answered at {address} within {seconds:g} s (something listens "
                                 "there but does not speak as a Dask scheduler, such as its dashboard; the "
                                 "scheduler's port is usually 8786)", address=repr(address), seconds=seconds)
                               ) from None
        except OSError as exc:
            raise ClusterError(_("cannot reach the Dask scheduler at {address}: {reason}", address=repr(address),
                                 reason=one_line(exc))) from None
        except Exception:   # an answer in another protocol (a web page), which the comm misreads
            raise ClusterError(_("what listens at {address} is not a Dask scheduler: it answers in another protocol "
                                 "(a web server, such as the scheduler's dashboard? the scheduler's port is usually "
                                 "8786)", address=repr(address))) from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ClusterError(_("what listens at {address} is not a Dask scheduler (it answers as {kind})",
                             address=repr(address),
                             kind=reply.get("type") if isinstance(reply, dict) else type(reply).__name__))


def one_line(exc: BaseException) -> str:
    """An exception's message on one line (Dask's can run over several)."""
    return " ".join(str(exc).split()) or type(exc).__name__


# -- deals as card masks ---------------------------------------------------

def pack_deals(deals: Sequence[Deal | str]) -> np.ndarray:
    """Deals as an ``(n, 4)`` uint32 array: the masks of hands 0, 1, 2 and the
    talon (0 for none: a talon holds 2 cards, so its mask is never 0). Deal
    texts are parsed one at a time, so a file of a million deals never
    holds a million parsed deals (0.4 GB), only their masks (16 MB).

    >>> unpack_deals(pack_deals([Deal.random(3)])) == [Deal.random(3)]
    True
    """
    import numpy as np

    out = np.zeros((len(deals), 4), dtype=np.uint32)
    for i, item in enumerate(deals):
        d = Deal.parse(item) if isinstance(item, str) else item
        out[i, :3] = [h.mask for h in d.hands]
        if d.talon is not None:
            out[i, 3] = d.talon.mask
    return out


def unpack_deals(masks: np.ndarray) -> list[Deal]:
    """The deals of :func:`pack_deals`."""
    return [Deal([Hand(int(h)) for h in row[:3]], Hand(int(row[3])) if row[3] else None)
            for row in masks.tolist()]


# -- what the workers run --------------------------------------------------

_worker_hints: Any = None

# This worker process's idle solvers: a task takes one and gives it back, so
# the solvers and their transposition tables outlive the tasks (one per
# worker thread at most, as each running task holds one).
_worker_solvers: queue.SimpleQueue = queue.SimpleQueue()


def _take_solver() -> Any:
    try:
        return _worker_solvers.get_nowait()
    except queue.Empty:
        return new_solver(table_size_mb())


def _hints() -> Any:
    """This worker process's discard hints, kept between tasks."""
    global _worker_hints
    if _worker_hints is None:
        from .solver import DiscardHints

        _worker_hints = DiscardHints()
    return _worker_hints


def _task(work: Callable, chunk: Any, params: dict) -> tuple[Any, float]:
    """Run ``work(chunk, solver, hints, **params)`` with one of this process's
    solvers; return its result and the seconds it took."""
    t0 = time.perf_counter()
    solver = _take_solver()
    try:
        out = work(chunk, solver, _hints(), **params)
    finally:
        _worker_solvers.put(solver)
    return out, time.perf_counter() - t0


def _table_rows(masks: np.ndarray, solver: Any, hints: Any, *, leader: int, talon_mode: str | None,
                declarers: tuple[int, ...]) -> np.ndarray:
    import numpy as np

    from .solver import solve
    from .strains import STRAINS

    out = np.empty((len(masks), len(declarers), len(STRAINS)), dtype=np.int8)
    for i, d in enumerate(unpack_deals(masks)):
        out[i] = [[solve(d, p, strain=s, leader=leader, talon_mode=talon_mode, solver=solver, hints=hints).tricks
                   for s in STRAINS] for p in declarers]
    return out


def _tricks(masks: np.ndarray, solver: Any, hints: Any, *, declarer: int, strain: str, leader: int,
            talon_mode: str | None) -> np.ndarray:
    import numpy as np

    from .solver import solve

    return np.array([solve(d, declarer, strain=strain, leader=leader, talon_mode=talon_mode, solver=solver,
                           hints=hints).tricks for d in unpack_deals(masks)], dtype=np.int8)


def _tables(masks: np.ndarray, solver: Any, hints: Any, *, leader: int, talon_mode: str | None) -> list:
    from .solver import table

    return [table(d, leader=leader, talon_mode=talon_mode, solver=solver) for d in unpack_deals(masks)]


def _solutions(masks: np.ndarray, solver: Any, hints: Any, *, declarer: int, strain: str, leader: int,
               talon_mode: str | None) -> list:
    from .solver import solve

    return [solve(d, declarer, strain=strain, leader=leader, talon_mode=talon_mode, solver=solver, hints=hints)
            for d in unpack_deals(masks)]


def _mapped(items: list, solver: Any, hints: Any, *, work: Callable) -> list:
    return [work(item, solver) for item in items]


KINDS: dict[str, Callable] = {"table": _table_rows, "tricks": _tricks, "tables": _tables,
                              "solution": _solutions}


# -- the client's side -----------------------------------------------------

def _lost(exc: BaseException) -> bool:
    """Whether ``exc`` is the cluster failing, not the work (a bad deal, a bug)."""
    distributed = sys.modules.get("distributed")
    cluster_errors: tuple = (OSError, TimeoutError)
    if distributed is not None:
        from concurrent.futures import CancelledError

        cluster_errors += (distributed.KilledWorker, CancelledError)
    return isinstance(exc, cluster_errors)


def run_chunks(client: Any, n: int, chunk_of: Callable[[int, int], Any], work: Callable, params: dict, *,
               rate: float, progress: Callable[[int], None] | None = None) -> Iterator[Any]:
    """Yield the result of each task, in the order of the deals.

    ``chunk_of(start, stop)`` gives the data of deals ``start:stop`` (a mask
    array, or a list for ``map_deals``); the workers run ``work(data,
    solver, hints, **params)``. ``rate`` is the deals/s a thread is assumed
    to solve until the first task has measured it. ``progress`` is called
    with the deals of each finished task. Closing the generator early
    cancels the tasks not yet read.
    """
    distributed = require_distributed()
    try:
        threads = max(1, sum(client.nthreads().values()))
    except (OSError, TimeoutError) as exc:
        raise ClusterError(_("the Dask scheduler does not answer: {reason}", reason=one_line(exc))) from None
    window = WINDOW_PER_THREAD * threads
    solved = 0          # deals of the finished tasks
    busy = 0.0          # and the seconds they took to solve
    submitted = 0       # deals submitted: tasks cover 0:submitted
    spans: dict[str, tuple[int, int, Any]] = {}     # a running task's key: its deals and future
    done: dict[int, tuple[int, Any]] = {}           # finished, not yet yielded: start -> (stop, result)
    emitted = 0
    futures = distributed.as_completed(loop=client.loop)

    def size() -> int:
        per_s = solved / busy if busy > 0 else rate
        left = n - submitted
        share = math.ceil(left / (WINDOW_PER_THREAD * threads))  # the tail gets smaller tasks
        return max(1, min(left, max(round(per_s * MIN_TASK_SECONDS), min(round(per_s * TASK_SECONDS), share))))

    def submit() -> None:
        nonlocal submitted
        start = submitted
        stop = start + size()
        future = client.submit(_task, work, chunk_of(start, stop), params, pure=False)
        spans[future.key] = (start, stop, future)
        futures.add(future)
        submitted = stop

    def fill() -> None:
        # Finished tasks wait for the first one still running: a slow one at
        # the head stops new work at HELD_PER_THREAD tasks held a thread, so
        # memory stays bounded; it resumes as soon as the head is read.
        while submitted < n and len(spans) < window and len(done) < HELD_PER_THREAD * threads:
            submit()

    try:
        try:
            fill()
            for future in futures:
                span = spans.pop(future.key, None)
                if span is None:        # already read (a future reported twice)
                    continue
                start, stop, _key = span
                result, seconds = future.result()
                future.release()
                solved += stop - start
                busy += seconds
                done[start] = (stop, result)
                if progress:
                    progress(stop - start)
                fill()
                while emitted in done:
                    stop, result = done.pop(emitted)
                    yield result
                    emitted = stop
                fill()
            if emitted != n:    # every task was read, so every deal was yielded
                raise ClusterError(_("the Dask cluster returned {returned} of {count} deals", returned=emitted,
                                     count=n))
        except Exception as exc:
            if isinstance(exc, ClusterError):
                raise
            if _lost(exc):
                if "connection-lost" in str(exc) or getattr(client, "status", "running") != "running":
                    raise ClusterError(_("the Dask cluster could not finish the batch: the connection to its "
                                         "scheduler was lost")) from None
                raise ClusterError(_("the Dask cluster could not finish the batch: {kind}: {reason}",
                                     kind=type(exc).__name__, reason=one_line(exc))) from None
            raise
    finally:
        running = [f for _, _, f in spans.values()]
        if running:
            try:
                client.cancel(running)
            except Exception:   # the scheduler may be gone: nothing left to cancel
                pass


def run_deals(scheduler: Any, deals: Sequence[Deal | str], kind: str, params: dict, *,
              progress: Callable[[int], None] | None = None) -> Iterator[Any]:
    """Yield, in order, one result per chunk of ``deals`` solved on the cluster:
    an array for the kinds ``table`` (rows of ``table_many``) and ``tricks``
    (of ``solve_many``), a list of results for ``tables`` (whole
    :class:`~prefsolve.solver.Table` objects) and ``solution``."""
    masks = pack_deals(deals)
    with connect(scheduler) as client:
        yield from run_chunks(client, len(deals), lambda a, b: masks[a:b], KINDS[kind], params,
                              rate=RATES["table" if kind == "tables" else kind], progress=progress)


def run_items(scheduler: Any, items: Sequence, work: Callable, *,
              progress: Callable[[int], None] | None = None) -> Iterator[Any]:
    """Yield ``work(item, solver)`` for every item, in order, computed on the
    cluster: ``work`` and the items are pickled (``work`` by value when it is
    a closure), so they must be picklable and ``work`` must not rely on this
    process's state."""
    items = list(items)
    with connect(scheduler) as client:
        for chunk in run_chunks(client, len(items), lambda a, b: items[a:b], _mapped, {"work": work},
                                rate=RATES["map"], progress=progress):
            yield from chunk


def local_cluster(workers: int) -> tuple[Any, Any]:
    """A local cluster of ``workers`` worker processes of one thread each, and
    its client: ``--cluster local:N``. Close the client, then the cluster."""
    import logging

    distributed = require_distributed()
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.ERROR)
    try:
        client = distributed.Client(cluster, set_as_default=False)
    except BaseException:
        cluster.close()
        raise
    return cluster, client


__all__ = ["ClusterError", "MissingExtraError", "CONNECT_TIMEOUT", "EXTRA", "TASK_SECONDS",
           "connect", "check_scheduler", "pack_deals", "unpack_deals", "run_deals", "run_items",
           "local_cluster"]
