"""The quick solving requests of the web board: a bounded queue on a few threads.

A table, a solve or a play takes a moment: it runs on one of a few threads
(each keeps its own search table) while the event loop goes on serving. A
request waits its turn in a queue that holds at most ``limit`` requests,
the solving ones included; one more is refused at once (:class:`~.jobs.Busy`,
HTTP 503) rather than queued behind work nobody may read. A request whose
client goes away while it waits is taken out of the queue, so abandoned
requests never pile up; one already solving runs to its end (a search is not
stopped half-way) and its answer is dropped.

>>> import asyncio
>>> async def one():
...     queue = SolvingQueue(threads=1, limit=2)
...     never = asyncio.Event()         # a client that stays
...     answer = await queue.run(lambda: 6 * 7, never.wait)
...     queue.close()
...     return answer, queue.counts["started"]
>>> asyncio.run(one())
(42, 1)
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from ..i18n import _
from .guard import Abandoned
from .jobs import Busy

T = TypeVar("T")


class SolvingQueue:
    """Quick work on ``threads`` threads, at most ``limit`` requests waiting or running.

    ``counts`` says how many requests were ``started`` (their work began),
    ``dropped`` (taken out of the queue, their client gone) and ``refused``
    (the queue was full).
    """

    def __init__(self, threads: int, limit: int) -> None:
        self.limit = limit
        self.counts: Counter[str] = Counter()
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="prefsolve-web-solve")
        self._lock = threading.Lock()
        self._queued: set[Future] = set()

    @property
    def queued(self) -> int:
        """The requests waiting or solving now."""
        with self._lock:
            return len(self._queued)

    async def run(self, work: Callable[[], T], gone: Callable[[], Awaitable[object]]) -> T:
        """``work()``'s result, computed on a thread in turn. ``gone()`` returns
        when the client goes away: the work is then dropped if it has not begun,
        and :class:`~.guard.Abandoned` raised."""
        with self._lock:
            if len(self._queued) >= self.limit:
                self.counts["refused"] += 1
                raise Busy(_("the server is busy: {limit} requests are waiting to be solved; try again in a moment",
                             limit=self.limit), 503)
            future = self._pool.submit(self._started, work)
            self._queued.add(future)
        future.add_done_callback(self._finished)
        answer = asyncio.wrap_future(future)
        watch: asyncio.Future[Any] = asyncio.ensure_future(gone())
        try:
            await asyncio.wait({answer, watch}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watch.cancel()
            if not answer.done():
                answer.cancel()     # cancels the work unless it has begun
        if answer.cancelled():
            raise Abandoned
        return answer.result()

    def close(self) -> None:
        """Stop: the waiting work is dropped, the solving work ends on its own."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _started(self, work: Callable[[], T]) -> T:
        with self._lock:
            self.counts["started"] += 1
        return work()

    def _finished(self, future: Future) -> None:
        with self._lock:
            self._queued.discard(future)
            if future.cancelled():
                self.counts["dropped"] += 1

