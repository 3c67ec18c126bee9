"""How the board listens: uvicorn's settings, the address it prints, the warning it gives.

:func:`board_server` makes the uvicorn server that ``prefsolve serve`` and
:class:`~.local.LocalServer` run. Its HTTP protocol (:class:`BoardProtocol`,
uvicorn's own HTTP/1.1 one) closes a connection whose request head (the
request line and the headers) has not arrived within :data:`HEAD_TIMEOUT`
seconds, and an idle kept-alive connection after :data:`KEEP_ALIVE` seconds;
the body's deadline is the guard's (:data:`~.guard.BODY_TIMEOUT`).

Once it listens, :func:`board_url` is the address to open, from the address
really bound (an address bound to every interface is reached at this
machine's network address), and :func:`exposure` the one-line warning of a
board that other machines can reach.

>>> board_url("127.0.0.2", 8000), board_url("::1", 8000)
('http://127.0.0.2:8000/', 'http://[::1]:8000/')
>>> exposure(["127.0.0.1"]) is None
True
>>> print(exposure(["0.0.0.0"]))     # doctest: +ELLIPSIS
Warning: the board listens on every address of this machine, so other machines on the network can use it; ...
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from starlette.applications import Starlette
from uvicorn import Config, Server
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..i18n import _
from .guard import is_loopback, is_unspecified

#: Seconds a connection may take to send a request's line and headers.
HEAD_TIMEOUT = 10.0
#: Seconds an idle connection is kept open after an answer, waiting for another request.
KEEP_ALIVE = 5


class BoardProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on each request's head: a
    connection that has not sent a whole request head within
    :data:`HEAD_TIMEOUT` seconds of its opening (or of the first byte of its
    next request) is closed."""

    def connection_made(self, transport: asyncio.Transport) -> None:    # type: ignore[override]
        self._head_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        if before is None or before.response_complete:
            self._arm()     # the bytes of a new request's head
        super().data_received(data)
        if self.cycle is not before:    # a whole head has arrived
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_too_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def board_server(app: Starlette, host: str, port: int) -> Server:
    """The uvicorn server of the board: its protocol, its timeouts, a short shutdown."""
    return Server(Config(app, host=host, port=port, http=BoardProtocol, log_level="warning",
                         timeout_keep_alive=KEEP_ALIVE, timeout_graceful_shutdown=2))


def bound(server: Server) -> list[tuple[str, int]]:
    """The addresses and ports a started server listens on."""
    found = []
    for listener in getattr(server, "servers", []):
        for sock in listener.sockets:
            address: Any = sock.getsockname()
            found.append((str(address[0]), int(address[1])))
    return found


def network_address() -> str:
    """This machine's address on its network (the one its default route uses), else the loopback's."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))    # a documentation address: no packet is sent
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def board_url(address: str, port: int) -> str:
    """The address to open for a server bound to ``address``."""
    shown = network_address() if is_unspecified(address) else address
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def exposure(addresses: list[str]) -> str | None:
    """The warning of a board bound to an address other machines reach, or None."""
    outside = [a for a in addresses if not is_loopback(a)]
    if not outside:
        return None
    where = ", ".join(_("every address of this machine") if is_unspecified(a) else a for a in dict.fromkeys(outside))
    return _("Warning: the board listens on {where}, so other machines on the network can use it; --host 127.0.0.1 "
             "keeps it on this computer", where=where)
