"""What the web board's tests share: example deals, a raw HTTP client, waiting.

The raw client writes a request as it is given (headers a browser would not
let a page set, a body cut short, bytes one at a time) and reads the answer.
"""

import socket
import time
from pathlib import Path

import prefsolve

#: The folder of the package under test (a checkout's src/, or site-packages), for child processes.
TESTED = str(Path(prefsolve.__file__).resolve().parent.parent)
EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
SMALL = "K7.-.-.- AQ.-.-.- J.A.-.-"


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
