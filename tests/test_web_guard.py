"""What every request to the board passes first: its host, its origin, the kind,
size and time of its body (``prefsolve.web.guard``), the deadline of a request's
head (``prefsolve.web.listen``), and how a failure or a client that goes away is
logged.

Raw requests (a socket and bytes) send what a browser would not let a page
send: forged ``Origin`` and ``Sec-Fetch-Site`` headers, a body cut short, a
request head a byte at a time. Every refused request is checked to have made
the server do no work.
"""

import json
import logging
import socket
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest
from web_helpers import EXAMPLE, SMALL, child_env, port_of, raw, request_bytes, wait_for

# The web extra's tests (.ci/run installs every extra, so they run there).
WEB_EXTRA = 'the web extra is not installed (pip install "prefsolve[web]"; httpx comes with ".[test]")'
for _name in ("starlette", "uvicorn", "httpx"):
    pytest.importorskip(_name, reason=WEB_EXTRA)

with warnings.catch_warnings():     # newer Starlette would rather have httpx2; httpx serves the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from prefsolve.web import guard, listen, server  # noqa: E402
from prefsolve.web.local import LocalServer  # noqa: E402

ANALYSIS = b'{"hand": "A.KT9.KT97.K7", "samples": 5000, "seed": 1}'
#: A game record to review (the review's example).
EXAMPLE_RECORD = Path(__file__).resolve().parent.parent / "examples" / "review-session.json"
REVIEWED = json.dumps(EXAMPLE_RECORD.read_text()).encode()
#: One request of each endpoint that takes a body, as its page sends it.
POSTS = {
    "/api/table": b'{"deal": "' + SMALL.encode() + b'"}',
    "/api/solve": b'{"deal": "' + SMALL.encode() + b'", "declarer": 1, "strain": "NT"}',
    "/api/play": b'{"deal": "' + SMALL.encode() + b'", "declarer": 1, "strain": "NT"}',
    "/api/allpass": b'{"deal": "' + EXAMPLE.encode() + b'"}',
    "/api/analyze": ANALYSIS,
    "/api/game": b'{"players": ["heuristic", "heuristic"], "seed": 1}',
    "/api/game/move": b'{"game": "0123456789abcdef", "move": "pass"}',
    "/api/game/next": b'{"game": "0123456789abcdef"}',
    "/api/game/view": b'{"game": "0123456789abcdef"}',
    "/api/review": b'{"game": ' + REVIEWED + b', "samples": 2}',
    "/api/replay": b'{"game": ' + REVIEWED + b'}',
}


@pytest.fixture(scope="module")
def board():
    board = LocalServer()
    with board:
        yield board


def work_done(board):
    """What the server has begun: (analyses, quick requests)."""
    return board.app.state.jobs.started, board.app.state.solving.counts["started"]


# -- the host ---------------------------------------------------------------------------------

@pytest.mark.parametrize("bind, answered, refused", [
    ("127.0.0.1", ["127.0.0.1", "127.0.0.1:8000", "localhost:8000", "[::1]:8000"],
     ["attacker.example", "attacker.example:8000", "127.0.0.2", "10.0.0.1", ""]),
    ("127.0.0.2", ["127.0.0.2:8000", "localhost"], ["attacker.example:8000", "127.0.0.3:8000"]),
    ("::1", ["[::1]:8000", "localhost:8000", "127.0.0.1:8000"], ["attacker.example", "[::2]:8000"]),
    ("192.168.1.5", ["192.168.1.5:8000", "192.168.1.5"], ["localhost", "127.0.0.1", "attacker.example", "192.168.1.6"]),
    ("0.0.0.0", ["192.168.1.5:8000", "10.1.2.3", "[fd00::2]:8000", "localhost", f"{socket.gethostname()}:8000"],
     ["board.example", "attacker.example:8000"]),
])
def test_a_server_answers_only_at_the_address_it_is_bound_to(bind, answered, refused):
    with TestClient(server.create_app(host=bind), base_url="http://127.0.0.1") as c:
        for host in answered:
            assert c.get("/api/info", headers={"host": host}).status_code == 200, host
        for host in refused:
            r = c.get("/api/info", headers={"host": host})
            assert r.status_code == 400, host
            assert r.json() == {"error": f"invalid Host header {host!r}: this board answers only at its own address"}


# -- the same origin and a JSON body, for every request that is not a read --------------------

@pytest.mark.parametrize("headers, why", [
    ({"Origin": "http://127.0.0.1:9000"}, "Origin 'http://127.0.0.1:9000' is not this board's"),
    ({"Origin": "http://attacker.example"}, "Origin 'http://attacker.example' is not this board's"),
    ({"Origin": "null"}, "Origin 'null' is not this board's"),
    ({"Origin": "https://127.0.0.1:PORT"}, "Origin 'https://127.0.0.1:PORT' is not this board's"),
    ({"Sec-Fetch-Site": "cross-site"}, "Sec-Fetch-Site is 'cross-site'"),
    # another port of the same machine is the same site, but not the same origin
    ({"Sec-Fetch-Site": "same-site"}, "Sec-Fetch-Site is 'same-site'"),
    ({"Origin": "http://127.0.0.1:PORT", "Sec-Fetch-Site": "same-site"}, "Sec-Fetch-Site is 'same-site'"),
])
@pytest.mark.parametrize("path", list(POSTS))
def test_a_request_from_another_site_is_refused_before_any_work(board, path, headers, why):
    port = port_of(board.url)
    headers = {k: v.replace("PORT", str(port)) for k, v in headers.items()}
    before = work_done(board)
    for kind in ("application/json", "text/plain"):
        status, answer, body = raw(port, request_bytes("POST", path, {**headers, "Content-Type": kind},
                                                      POSTS[path], host=f"127.0.0.1:{port}"))
        assert status == 403, (path, kind, body)
        assert answer["content-type"] == "application/json"
        assert body == ('{"error": "a request from another site is refused: ' +
                        why.replace("PORT", str(port)) + '"}').encode()
    assert work_done(board) == before


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                  "application/jsonx", "text/json"])
def test_a_body_that_is_not_declared_json_is_refused_before_any_work(board, kind):
    port = port_of(board.url)
    before = work_done(board)
    same = {"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
    for path, body in POSTS.items():
        headers = same if kind is None else {**same, "Content-Type": kind}
        status, _, answer = raw(port, request_bytes("POST", path, headers, body, host=f"127.0.0.1:{port}"))
        got = "no Content-Type" if kind is None else f"Content-Type {kind!r}"
        assert status == 415 and answer == (
            '{"error": "the request body must be JSON sent with Content-Type: application/json, '
            f'got {got}"}}').encode(), (path, answer)
    assert work_done(board) == before


def test_the_board_s_own_page_and_a_script_without_an_origin_are_served(board):
    port = port_of(board.url)
    own = {"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin",
           "Content-Type": "application/json; charset=utf-8"}
    for headers in (own, {"Content-Type": "application/json"}):    # a page; curl or a script
        status, _, body = raw(port, request_bytes("POST", "/api/table", headers, POSTS["/api/table"],
                                                  host=f"127.0.0.1:{port}"))
        assert status == 200 and b'"tricks"' in body
    # reads need neither: the page's files and GET /api/info from anywhere on this machine's loopback
    status, _, _ = raw(port, request_bytes("GET", "/api/info", {"Sec-Fetch-Site": "cross-site"}))
    assert status == 200
    # another page's preflight (OPTIONS) is refused, so its JSON request is never sent; OPTIONS has no body
    preflight = {"Origin": "http://127.0.0.1:9000", "Access-Control-Request-Method": "POST"}
    assert raw(port, request_bytes("OPTIONS", "/api/table", preflight, host=f"127.0.0.1:{port}"))[0] == 403
    status, headers, _ = raw(port, request_bytes("OPTIONS", "/api/table", {}, host=f"127.0.0.1:{port}"))
    assert status == 405 and "access-control-allow-origin" not in headers


# -- bodies: their size and their time ------------------------------------------------------

def test_a_body_over_the_limit_is_refused_unread(board):
    port = port_of(board.url)
    head = request_bytes("POST", "/api/table", {"Content-Type": "application/json"}, b"")
    head = head.replace(b"Content-Length: 0", f"Content-Length: {guard.MAX_BODY + 1}".encode())
    status, _, body = raw(port, head)      # the body is never sent: the answer does not wait for it
    assert status == 413 and body == f'{{"error": "the request body is over {guard.MAX_BODY} bytes"}}'.encode()


def closed_after(port, first, then=b"", pace=0.5, limit=30):
    """Send ``first``, then ``then`` a byte every ``pace`` seconds, until the server
    closes the connection: (seconds it took, what the server answered)."""
    start = time.monotonic()
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=limit) as s:
        s.sendall(first)
        s.settimeout(pace)
        rest = iter(then)
        while time.monotonic() - start < limit:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                byte = next(rest, None)
                try:
                    if byte is not None:
                        s.sendall(bytes([byte]))
                except OSError:
                    break
                continue
            except OSError:
                break
            if not chunk:
                break
            answer += chunk
    return time.monotonic() - start, answer


def test_slow_clients_are_closed_in_the_documented_time(board):
    """Four clients at once: one that sends nothing, one that sends its request's head a
    byte at a time, one that does so with its body, one that stays after an answer."""
    port = port_of(board.url)
    head = request_bytes("POST", "/api/table", {"Content-Type": "application/json"}, POSTS["/api/table"])
    cut = head.index(b"\r\n\r\n") + 4
    kept = request_bytes("GET", "/api/info", {}).replace(b"Connection: close", b"Connection: keep-alive")
    clients = {
        "silent": (b"", b""),
        "slow head": (b"POST /api/table HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n" * 100),
        "slow body": (head[:cut], head[cut:] + b" " * 1000),
        "idle after an answer": (kept, b""),
    }
    results = {}

    def run(name):
        results[name] = closed_after(port, *clients[name])

    threads = [threading.Thread(target=run, args=(name,)) for name in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for name in ("silent", "slow head"):
        seconds, answer = results[name]
        assert listen.HEAD_TIMEOUT - 0.5 <= seconds <= listen.HEAD_TIMEOUT + 3, (name, seconds)
        assert answer == b"", name
    seconds, answer = results["slow body"]
    assert guard.BODY_TIMEOUT - 0.5 <= seconds <= guard.BODY_TIMEOUT + 3, seconds
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert answer.endswith(f'{{"error": "the request body did not arrive within {guard.BODY_TIMEOUT:g} seconds"}}'
                           .encode())
    seconds, answer = results["idle after an answer"]
    assert answer.startswith(b"HTTP/1.1 200 ") and b'"limits"' in answer
    assert listen.KEEP_ALIVE - 0.5 <= seconds <= listen.KEEP_ALIVE + 3, seconds
    # and the board went on answering meanwhile
    assert raw(port, request_bytes("GET", "/api/info", {}))[0] == 200


# -- the log: one line for a client that goes away, one traceback for a failure ------------------

def test_a_client_that_drops_mid_body_is_one_line_of_the_log():
    env = child_env()
    proc = subprocess.Popen([sys.executable, "-m", "prefsolve", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        port = port_of(proc.stdout.readline().split()[3])
        data = request_bytes("POST", "/api/table", {"Content-Type": "application/json"}, POSTS["/api/table"])
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(data[:-10])       # the body's end never comes
            time.sleep(0.5)
        time.sleep(0.5)
        assert raw(port, request_bytes("GET", "/api/info", {}))[0] == 200
    finally:
        proc.terminate()
        err = proc.communicate(timeout=10)[1]
    assert err == "POST /api/table: the client went away before its request was read\n"


def test_a_failure_is_logged_once_with_its_traceback(monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("the engine broke")

    seen = []

    class Collect(logging.Handler):
        def emit(self, record):
            seen.append(record)

    collect = Collect()
    logging.getLogger("uvicorn.error").addHandler(collect)
    try:
        board = LocalServer()
        with board as url, caplog.at_level(logging.INFO, logger="prefsolve.web"):
            monkeypatch.setattr(server, "table", broken)
            data = request_bytes("POST", "/api/table", {"Content-Type": "application/json"}, POSTS["/api/table"])
            status, _, body = raw(port_of(url), data)
            assert status == 500 and body == b'{"error": "internal error: RuntimeError: the engine broke"}'
            assert wait_for(lambda: board.app.state.solving.queued == 0)
    finally:
        logging.getLogger("uvicorn.error").removeHandler(collect)
    records = [r for r in caplog.records if r.name == "prefsolve.web"]
    assert [(r.levelname, r.getMessage()) for r in records] == [("ERROR", "POST /api/table failed")]
    assert records[0].exc_info[0] is RuntimeError
    assert [r for r in seen if r.levelno >= logging.WARNING] == []     # no second traceback from uvicorn
