"""What the web board's tests share: example deals, a raw HTTP client, waiting, the browser.

The raw client writes a request as it is given (headers a browser would not
let a page set, a body cut short, bytes one at a time) and reads the answer.
The browser tests run a board server on a free port of the loopback and open
it in Debian's ``chromium`` (``PREFSOLVE_CHROMIUM`` names another executable)
driven by Playwright.
"""

import os
import socket
import time
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest

import prefsolve

#: The folder of the package under test (a checkout's src/, or site-packages), for child processes.
TESTED = str(Path(prefsolve.__file__).resolve().parent.parent)
EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
SMALL = "K7.-.-.- AQ.-.-.- J.A.-.-"
DESKTOP = {"width": 1280, "height": 800}


def child_env():
    """The environment of a child process (the command line run as a user runs it) that imports
    the package under test."""
    return {**os.environ, "PYTHONPATH": TESTED + os.pathsep + os.environ.get("PYTHONPATH", "")}


@contextmanager
def browser_board():
    """A board server and a headless Chromium: ``url``, ``browser`` and ``server``. Without
    Chromium the test fails, saying what to install."""
    from prefsolve.web.local import LocalServer, chromium

    path = chromium()
    if path is None:
        pytest.fail("the browser tests need Chromium: apt-get install chromium (Debian's package; "
                    "PREFSOLVE_CHROMIUM may name another executable)", pytrace=False)
    from playwright.sync_api import sync_playwright
    server = LocalServer()
    with server as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield SimpleNamespace(url=url, browser=browser, server=server)
        finally:
            browser.close()


def open_board(board, viewport=DESKTOP, **context):
    """A new page on the board (in a new browser context, with ``context``'s options: a locale,
    downloads), loaded, with the console's errors collected in ``page.errors``."""
    page = board.browser.new_context(viewport=viewport, **context).new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(board.url)
    page.wait_for_selector("body[data-ready=true]")
    return page


def settle(page):
    """Wait until the page has no request to the server under way (its body's data-busy)."""
    page.wait_for_selector("body[data-ready=true]:not([data-busy])")


def port_of(url):
    return int(url.rsplit(":", 1)[1].strip("/"))


def request_bytes(method, path, headers, body=b"", host="127.0.0.1"):
    """An HTTP/1.1 request with ``headers`` (a dict) and a Content-Length for its body."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def raw(port, data, timeout=30, address="127.0.0.1"):
    """Send ``data`` and read the answer to the end: (status, headers, body)."""
    with socket.create_connection((address, port), timeout=timeout) as s:
        s.sendall(data)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    return int(status_line.split()[1]), headers, body


def wait_for(condition, seconds=15):
    """Whether ``condition()`` came true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def run_analysis(page, hand, samples, seed):
    """Run the board's analyzer on ``hand`` as a player does and wait for its chart."""
    page.fill("#an-samples", str(samples))
    page.fill("#an-seed", str(seed))
    page.fill("#an-hand", hand)
    page.click("#an-run")
    page.wait_for_selector("#an-chart svg", timeout=60_000)
