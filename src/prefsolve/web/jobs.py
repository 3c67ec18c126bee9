"""Long jobs of the web board: one thread each, at most one per client.

An analysis takes seconds to minutes, so it runs on a thread of its own
while the event loop keeps serving. The job's ``progress`` callback, which
the analyzer calls after every sampled layout, is where a cancelled job
stops: it raises :class:`Cancelled` inside the analyzer, whose batch then
shuts its worker threads down. A job is cancelled when its client goes away
(the response sees the disconnect) or the server stops.

:class:`JobBoard` keeps the rule "at most one running job per client" (a
client is the board's cookie, or the address for a caller without it) and a
cap on the jobs of all clients together, so that one page cannot queue work
that nobody will read.

>>> import asyncio
>>> def work(progress):      # three items, then the job's JSON object
...     for _ in range(3):
...         progress(1)
...     return {"items": 3}
>>> async def run_one():
...     job = await JobBoard(limit=1).start("a client", work, total=3)
...     await job.ended(10)
...     return job.snapshot()
>>> asyncio.run(run_one())
Snapshot(done=3, total=3, finished=True, result={'items': 3}, error=None, cancelled=False)
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import PrefsolveError
from ..i18n import _, message_of

log = logging.getLogger("prefsolve.web")

#: The least time between two progress notices sent to the page, in seconds.
NOTICE_INTERVAL = 0.1
#: How long a new job of a client waits for its cancelled predecessor to stop, in seconds.
CANCEL_GRACE = 5.0


class Cancelled(Exception):
    """Raised inside a job's work by its progress callback once the job is cancelled."""


class Busy(Exception):
    """A job cannot start now; the message says why (HTTP 409 or 503)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Snapshot:
    """What a job has done so far: ``done`` of ``total`` items; when it has
    ended, exactly one of ``result`` (the JSON object), ``error`` (bad input:
    the one-line message) or ``cancelled`` is set."""

    done: int
    total: int
    finished: bool
    result: dict | None = None
    error: str | None = None
    cancelled: bool = False


class Job:
    """One unit of long work on its own thread.

    ``work(progress)`` returns the job's JSON object and calls
    ``progress(n)`` after every ``n`` items done; a
    :class:`~prefsolve.errors.PrefsolveError` it raises is the job's
    ``error``. Created on the event loop, which :meth:`changed` wakes.
    """

    def __init__(self, client: str, work: Callable[[Callable[[int], None]], dict], total: int) -> None:
        self.client, self.total = client, total
        self._work = work
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._stop = threading.Event()
        self._ended = threading.Event()
        self._done = 0
        self._last_notice = 0.0
        self._result: dict | None = None
        self._error: str | None = None
        self._thread = threading.Thread(target=self._run, name="prefsolve-web-job", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        """Ask the work to stop at its next progress call (no effect once it ended)."""
        self._stop.set()

    @property
    def cancelled(self) -> bool:
        return self._stop.is_set()

    @property
    def running(self) -> bool:
        return not self._ended.is_set()

    def snapshot(self) -> Snapshot:
        if not self._ended.is_set():
            return Snapshot(self._done, self.total, False)
        if self._result is not None:
            return Snapshot(self._done, self.total, True, result=self._result)
        if self._error is not None:
            return Snapshot(self._done, self.total, True, error=self._error)
        return Snapshot(self._done, self.total, True, cancelled=True)

    async def changed(self, timeout: float | None = None) -> Snapshot:
        """The next snapshot after some progress or the end (or ``timeout`` seconds)."""
        if self._ended.is_set():
            return self.snapshot()
        try:
            await asyncio.wait_for(self._wake.wait(), timeout)
        except TimeoutError:
            pass
        self._wake.clear()
        return self.snapshot()

    async def ended(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the thread to end; whether it has."""
        deadline = time.monotonic() + timeout
        while not self._ended.is_set() and time.monotonic() < deadline:
            await self.changed(min(0.05, max(deadline - time.monotonic(), 0)))
        return self._ended.is_set()

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds until the thread ended (for shutdown and tests)."""
        return self._ended.wait(timeout)

    # -- on the job's thread ---------------------------------------------------

    def _progress(self, n: int) -> None:
        if self._stop.is_set():
            raise Cancelled
        self._done += n
        now = time.monotonic()
        if now - self._last_notice >= NOTICE_INTERVAL:
            self._last_notice = now
            self._notify()

    def _notify(self) -> None:
        try:
            self._loop.call_soon_threadsafe(self._wake.set)
        except RuntimeError:    # the loop has closed: nobody is waiting any more
            pass

    def _run(self) -> None:
        try:
            result = self._work(self._progress)
            if not self._stop.is_set():
                self._result = result
        except Cancelled:
            pass
        except PrefsolveError as exc:
            self._error = message_of(exc)     # said again in the language of the request that reads it
        except Exception as exc:    # a bug: logged, reported as one line, the server goes on
            log.exception("job of client %s failed", self.client)
            self._error = _("internal error: {kind}: {reason}", kind=type(exc).__name__, reason=exc)
        finally:
            self._ended.set()
            self._notify()


class JobBoard:
    """The running jobs by client: at most one per client, ``limit`` in all;
    ``started`` counts the jobs ever started."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.started = 0
        self._jobs: dict[str, Job] = {}

    def running(self) -> list[Job]:
        return [j for j in self._jobs.values() if j.running]

    async def start(self, client: str, work: Callable[[Callable[[int], None]], dict], total: int) -> Job:
        """Start ``work`` for ``client``, or raise :class:`Busy`. A client's
        cancelled job that is still winding down is waited for a moment."""
        old = self._jobs.get(client)
        if old is not None and old.running:
            if old.cancelled:
                await old.ended(CANCEL_GRACE)
            if old.running:
                raise Busy(_("an analysis of this client is already running; cancel it first (one long job per "
                             "client at a time)"), 409)
        if len(self.running()) >= self.limit:
            raise Busy(_("the server is busy: {limit} analyses are running; try again when one ends",
                         limit=self.limit), 503)
        job = Job(client, work, total)
        self._jobs = {c: j for c, j in self._jobs.items() if j.running}    # ended jobs are forgotten
        self._jobs[client] = job
        self.started += 1
        job.start()
        return job

    def cancel_all(self) -> None:
        for job in self._jobs.values():
            job.cancel()
