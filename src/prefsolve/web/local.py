"""A board server on this machine for a while: for scripts and tests.

:class:`LocalServer` runs the board with uvicorn on a thread, on a free port
of the loopback, and stops it on exit; :func:`chromium` finds the browser
that the screenshots and the browser tests drive (Debian's ``chromium``,
or the one named by ``PREFSOLVE_CHROMIUM``).

>>> 0 < free_port() < 65536
True
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time

from ..i18n import _

#: Where Debian installs its Chromium; ``apt-get install chromium`` puts it there.
DEBIAN_CHROMIUM = "/usr/bin/chromium"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def chromium() -> str | None:
    """The Chromium executable to drive, or None when there is none."""
    named = os.environ.get("PREFSOLVE_CHROMIUM")
    if named:
        return named if os.access(named, os.X_OK) else None
    if os.access(DEBIAN_CHROMIUM, os.X_OK):
        return DEBIAN_CHROMIUM
    return shutil.which("chromium") or shutil.which("chromium-browser")


class LocalServer:
    """``with LocalServer() as url:`` the board at ``url`` until the block ends.

    ``app`` is the Starlette application (available while running), so that
    a test can look at its jobs.
    """

    def __init__(self, host: str = "127.0.0.1", port: int | None = None) -> None:
        from .listen import board_server
        from .server import create_app

        self.host, self.port = host, port or free_port(host)
        self.app = create_app(host=host)
        self._server = board_server(self.app, host, self.port)
        self._thread = threading.Thread(target=self._server.run, name="prefsolve-web-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> str:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(_("the board server did not start on {url}", url=self.url))
            time.sleep(0.02)
        return self.url

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(10)
