"""What every request to the board passes before an endpoint sees it.

A server on this machine is reachable from every web page the browser
opens, so :class:`Guard` (pure ASGI middleware, outside the application's
routes) keeps these rules:

* **Host.** A request whose ``Host`` is not a name of the address the server
  is bound to is refused (:class:`HostRule`): a web page elsewhere cannot
  reach the board through a name of its own that points here.
* **Same origin.** A request that is not ``GET`` or ``HEAD`` must come from
  the board's own page: an ``Origin`` header, when given, must be the
  board's own address, and a ``Sec-Fetch-Site`` header, when given, must be
  ``same-origin``. Browsers send both with every cross-site request, so a
  page on another site (or another local port) is refused before any work.
  A client that is not a browser sends neither and is served.
* **JSON only.** Such a request (but ``OPTIONS``, which has no body) must say
  ``Content-Type: application/json``: a kind of body that a cross-site form
  or a "simple" fetch cannot send.
* **Bodies.** At most :data:`MAX_BODY` bytes, all of them arrived within
  :data:`BODY_TIMEOUT` seconds of the request's head.
* **Failures.** An unexpected exception is logged once, with its traceback,
  and answered with HTTP 500 in one line; a client that goes away in the
  middle of its request, or before its answer, is one line of the log.
* Every answer carries :data:`SECURITY_HEADERS`.
* **Language.** A message for people (an error) is said in the language the
  request asks for in its ``Accept-Language`` header (:func:`asked_language`:
  the board sends the language it shows), else in English, whatever language
  the server's process speaks.

>>> rule = HostRule("127.0.0.2")
>>> [rule.allows(h) for h in ("127.0.0.2:8000", "localhost:8000", "attacker.example")]
[True, True, False]
>>> cross_site({"origin": "http://127.0.0.1:9000"}, "127.0.0.1:8000")
"a request from another site is refused: Origin 'http://127.0.0.1:9000' is not this board's"
>>> is_loopback("::1"), is_loopback("0.0.0.0"), is_unspecified("::")
(True, False, True)
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
from dataclasses import dataclass, field

import anyio
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import DEFAULT_LANGUAGE, _, language_of, say_in

log = logging.getLogger("prefsolve.web")

#: The largest request body, in bytes: a deal is 40 characters, a position about 200.
MAX_BODY = 64 * 1024
#: Seconds a request's whole body may take to arrive after its head.
BODY_TIMEOUT = 10.0
#: Methods that only read: they need neither the same origin nor a JSON body.
READ_METHODS = ("GET", "HEAD")
#: Names of the loopback that a loopback-bound server answers to.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
#: Sent with every answer: the page loads only its own files, no frame holds it.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                 b"base-uri 'none'; frame-ancestors 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


class RequestTooLarge(Exception):
    """A request body over :data:`MAX_BODY` bytes."""


class BodyTimeout(Exception):
    """A request body that did not arrive within :data:`BODY_TIMEOUT` seconds."""


class Abandoned(Exception):
    """The client went away while its request waited for its answer; nobody reads one."""


# -- addresses ---------------------------------------------------------------------------

def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip("[]").split("%")[0])
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine's loopback."""
    address = _address(host)
    return host.lower() == "localhost" if address is None else address.is_loopback


def is_unspecified(host: str) -> bool:
    """Whether ``host`` means every address of this machine (``0.0.0.0``, ``::``)."""
    address = _address(host)
    return host == "" or (address is not None and address.is_unspecified)


def host_name(header: str) -> str:
    """The name of a ``Host`` header, without its port or an IPv6 address's brackets, lowercase."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    if header.count(":") == 1:
        return header.split(":", 1)[0]
    return header


@dataclass(frozen=True)
class HostRule:
    """The ``Host`` names a server bound to ``bind`` answers to.

    * bound to the loopback: the loopback's names and the address itself
      (``127.0.0.2``);
    * bound to every address (``0.0.0.0``, ``::``): any address written as
      digits, ``localhost`` and this machine's own name, never another name
      (a name is what a foreign page would point here);
    * bound to one address or name: that address or name, and what it
      resolves to.
    """

    bind: str
    names: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        bind = self.bind.strip("[]").lower()
        names = {bind}
        if is_loopback(bind):
            names |= set(LOOPBACK_NAMES)
        elif is_unspecified(bind):
            own = socket.gethostname().lower()
            names |= {"localhost", own, own + ".local"}
        elif _address(bind) is None:
            try:
                names |= {str(info[4][0]).lower() for info in socket.getaddrinfo(bind, None)}
            except OSError:     # a name that does not resolve: the server will not bind it either
                pass
        object.__setattr__(self, "names", frozenset(names))

    def allows(self, header: str) -> bool:
        name = host_name(header)
        if name in self.names:
            return True
        return is_unspecified(self.bind.strip("[]")) and _address(name) is not None


# -- the rules of a request ------------------------------------------------------------------

def asked_language(accept: str | None) -> str:
    """The language of the messages a request asks for: the first language of
    its ``Accept-Language`` header (by weight, then order) that prefsolve
    speaks; English without one.

    >>> asked_language("de-DE,ru;q=0.8,en;q=0.5"), asked_language(None), asked_language("fr, *;q=0.1")
    ('ru', 'en', 'en')
    """
    weighted = []
    for k, item in enumerate((accept or "").split(",")):
        tag, _semi, params = item.strip().partition(";")
        try:
            weight = float(params.strip()[2:]) if params.strip().startswith("q=") else 1.0
        except ValueError:
            weight = 0.0
        weighted.append((-weight, k, tag.strip()))
    for weight, _k, tag in sorted(weighted):
        lang = language_of(tag) if tag and tag != "*" and weight < 0 else None
        if lang is not None:
            return lang
    return DEFAULT_LANGUAGE


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}


def cross_site(headers: dict[str, str], host: str, scheme: str = "http") -> str | None:
    """Why a request that is not a read is refused as coming from another site, or None."""
    origin = headers.get("origin")
    if origin is not None and origin.lower() != f"{scheme}://{host}".lower():
        return _("a request from another site is refused: Origin {origin} is not this board's", origin=repr(origin))
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return _("a request from another site is refused: Sec-Fetch-Site is {site}", site=repr(site))
    return None


def not_json(headers: dict[str, str]) -> str | None:
    """Why a request body is refused for its declared type, or None."""
    kind = headers.get("content-type")
    if kind is not None and kind.split(";", 1)[0].strip().lower() == "application/json":
        return None
    if kind is None:
        return _("the request body must be JSON sent with Content-Type: application/json, got no Content-Type")
    return _("the request body must be JSON sent with Content-Type: application/json, got Content-Type {kind}",
             kind=repr(kind))


class Guard:
    """Pure ASGI middleware: the rules of this module's docstring, for the
    application it wraps, of a server bound to ``rule.bind``."""

    def __init__(self, app: ASGIApp, rule: HostRule) -> None:
        self.app, self.rule = app, rule

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secured = _Secured(send, asked_language(_headers(scope).get("accept-language")))
        refusal = self.refusal(scope)
        if refusal is not None:
            status, message = refusal
            await secured.error(status, message)
            return
        try:
            await self.app(scope, _Body(receive).receive, secured.send)
        except ClientDisconnect:
            log.warning("%s %s: the client went away before its request was read", scope["method"], scope["path"])
        except Abandoned:
            log.info("%s %s: the client went away before its answer", scope["method"], scope["path"])
        except RequestTooLarge:
            await secured.error(413, _("the request body is over {most} bytes", most=MAX_BODY))
        except BodyTimeout:
            await secured.error(408, _("the request body did not arrive within {seconds:g} seconds",
                                       seconds=BODY_TIMEOUT))
        except Exception as exc:    # a bug: logged once, one line for the client, the server goes on
            log.exception("%s %s failed", scope["method"], scope["path"])
            await secured.error(500, _("internal error: {kind}: {reason}", kind=type(exc).__name__, reason=exc))

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and message that refuse a request before it is read, or None."""
        headers = _headers(scope)
        host = headers.get("host", "")
        if not self.rule.allows(host):
            return 400, _("invalid Host header {host}: this board answers only at its own address", host=repr(host))
        if scope["method"] not in READ_METHODS:
            why = cross_site(headers, host, scope.get("scheme", "http"))
            if why is not None:
                return 403, why
            why = None if scope["method"] == "OPTIONS" else not_json(headers)
            if why is not None:
                return 415, why
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:
            return 413, _("the request body is over {most} bytes", most=MAX_BODY)
        return None


class _Body:
    """A request's ``receive``: the body counted against :data:`MAX_BODY` and
    timed against :data:`BODY_TIMEOUT`; once it has all arrived, what comes
    next (a disconnect) is passed on unchanged."""

    def __init__(self, receive: Receive) -> None:
        self._receive = receive
        self._deadline = anyio.current_time() + BODY_TIMEOUT
        self._seen = 0
        self._complete = False

    async def receive(self) -> Message:
        if self._complete:
            return await self._receive()
        try:
            with anyio.fail_after(max(self._deadline - anyio.current_time(), 0)):
                message = await self._receive()
        except TimeoutError:
            raise BodyTimeout from None
        if message["type"] == "http.request":
            self._seen += len(message.get("body", b""))
            if self._seen > MAX_BODY:
                raise RequestTooLarge
            self._complete = not message.get("more_body", False)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect
        return message


class _Secured:
    """A ``send`` that adds :data:`SECURITY_HEADERS` and knows whether the answer has begun;
    its errors are said in ``lang``, the request's language."""

    def __init__(self, send: Send, lang: str = DEFAULT_LANGUAGE) -> None:
        self._send = send
        self.lang = lang
        self.started = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
            message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
        await self._send(message)

    async def error(self, status: int, message: str) -> None:
        """Answer ``{"error": message}`` unless an answer has begun. The
        request's body may be unread, so the connection closes after it."""
        if self.started:
            return
        body = json.dumps({"error": say_in(message, self.lang)}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        await self.send({"type": "http.response.start", "status": status, "headers": headers})
        await self.send({"type": "http.response.body", "body": body})
