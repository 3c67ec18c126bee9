"""The queue of quick requests (``prefsolve.web.pool``): bounded, and rid of abandoned requests.

A real board server runs in this process with its ``table`` made to wait for
the test's signal, so that the queue can be filled and watched: requests
beyond the limit are refused at once, and requests whose clients went away
are taken out of the queue without ever being solved.
"""

import socket
import threading

import pytest
from web_helpers import SMALL, port_of, request_bytes, wait_for

# The web extra's tests (.ci/run installs every extra, so they run there).
WEB_EXTRA = 'the web extra is not installed (pip install "prefsolve[web]"; httpx comes with ".[test]")'
for _name in ("starlette", "uvicorn", "httpx"):
    pytest.importorskip(_name, reason=WEB_EXTRA)
import httpx  # noqa: E402

from prefsolve.web import server  # noqa: E402
from prefsolve.web.local import LocalServer  # noqa: E402

TABLE = request_bytes("POST", "/api/table", {"Content-Type": "application/json"},
                      ('{"deal": "' + SMALL + '"}').encode())


@pytest.fixture
def held(monkeypatch):
    """A board whose tables wait for ``held.release`` (an Event) before they are solved."""
    release = threading.Event()
    solve = server.table

    def waiting(*args, **kwargs):
        release.wait(60)
        return solve(*args, **kwargs)

    monkeypatch.setattr(server, "table", waiting)
    board = LocalServer()
    with board:
        board.release = release
        yield board
        release.set()


def test_requests_beyond_the_queue_s_limit_are_refused_at_once(held):
    queue = held.app.state.solving
    answers = []

    def ask():
        answers.append(httpx.post(f"{held.url}/api/table", json={"deal": SMALL}, timeout=60))

    threads = [threading.Thread(target=ask) for _ in range(server.MAX_QUEUED + 5)]
    for t in threads:
        t.start()
    # five are answered at once, while the others wait their turn
    assert wait_for(lambda: len(answers) == 5), len(answers)
    assert queue.queued == server.MAX_QUEUED and queue.counts["refused"] == 5
    assert queue.counts["started"] == server.SOLVE_THREADS
    for r in answers:
        assert r.status_code == 503
        assert r.json() == {"error": f"the server is busy: {server.MAX_QUEUED} requests are waiting to be solved; "
                                     f"try again in a moment"}
    held.release.set()
    for t in threads:
        t.join(60)
    assert sorted(r.status_code for r in answers) == [200] * server.MAX_QUEUED + [503] * 5
    assert queue.queued == 0 and queue.counts["started"] == server.MAX_QUEUED


def test_abandoned_requests_leave_the_queue_without_being_solved(held):
    queue = held.app.state.solving
    port = port_of(held.url)
    clients = []
    for _ in range(server.MAX_QUEUED):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(TABLE)
        clients.append(s)
    assert wait_for(lambda: queue.queued == server.MAX_QUEUED), queue.queued
    for s in clients:       # every client goes away
        s.close()
    # the waiting ones leave the queue at once; the ones solving cannot be stopped half-way
    assert wait_for(lambda: queue.queued == server.SOLVE_THREADS), queue.queued
    assert queue.counts["dropped"] == server.MAX_QUEUED - server.SOLVE_THREADS
    held.release.set()
    assert wait_for(lambda: queue.queued == 0)
    assert queue.counts["started"] == server.SOLVE_THREADS
    # and the board answers the next request
    r = httpx.post(f"{held.url}/api/table", json={"deal": SMALL}, timeout=30)
    assert r.status_code == 200 and r.json()["tricks"][1]["NT"] == 2
    assert queue.counts["started"] == server.SOLVE_THREADS + 1
