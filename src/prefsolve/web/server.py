"""The web board's server: the page's files and a JSON API with the command line's shapes.

Every ``/api/...`` answer is the object that the matching command prints
with ``--json`` (docs/JSON.md), so a script can use either; docs/WEB.md
lists the endpoints, their requests and their limits. The rules that keep a
local server safe:

* every request first passes :class:`~.guard.Guard`: its ``Host`` must
  name the server's address, a request that is not a read must come from
  the board's own page with a JSON body, a body is at most
  :data:`~.guard.MAX_BODY` bytes and arrives in time;
* it serves the files of :data:`~prefsolve.web.STATIC` by name from a fixed
  list made at start-up, and nothing else;
* a request's JSON nests at most :data:`MAX_DEPTH` arrays and objects, its
  numbers have at most :data:`MAX_NUMBER` characters; a table request has at
  most :data:`MAX_DEALS` deals, an analysis at most :data:`MAX_SAMPLES` samples;
* bad input is HTTP 400 with ``{"error": message}``, the one line the
  command line prints, in the language the request's ``Accept-Language``
  asks for (:func:`~.guard.asked_language`; English without one, whatever
  the server's process speaks); an unexpected failure is HTTP 500 with one
  line, and the server goes on;
* solving waits its turn in a bounded queue (:mod:`.pool`) on
  :data:`SOLVE_THREADS` threads and is dropped when its client goes away; an
  analysis runs on a job of its own (:mod:`.jobs`): one per client,
  cancelled when the client goes away.

:func:`run_analysis` is the one place that calls the analyzer.

>>> position_json(Position("K7.-.-.- AQ.-.-.- J.A.-.-", 1, strain="NT", played="SK"))["values"]
{'SA': 2, 'SQ': 1}
>>> json_depth('{"deals": ["x", "y"], "leader": [[0]]}')
3
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Callable
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from .._version import __version__
from ..allpass import allpass_table
from ..analysis import Sampling, analyze
from ..deal import Deal
from ..errors import PrefsolveError
from ..i18n import BOARD_DOMAIN, DEFAULT_LANGUAGE, LANGUAGES, _, catalogue, say_in
from ..play import Position
from ..rules import PROFILES, Rules
from ..solver import solve, table
from ..strains import STRAINS
from . import STATIC
from .guard import BODY_TIMEOUT, MAX_BODY, Guard, HostRule, asked_language
from .jobs import Busy, Job, JobBoard
from .listen import HEAD_TIMEOUT
from .pool import SolvingQueue
from .tables import BoardGame, GameBusy, GameTables

log = logging.getLogger("prefsolve.web")

#: The deepest nesting of arrays and objects in a request's JSON (the API's own is 2).
MAX_DEPTH = 8
#: The most characters of a number in a request's JSON (a seed has at most 20 digits).
MAX_NUMBER = 20
#: The most deals one table request solves.
MAX_DEALS = 20
#: The most samples of one analysis, and the number when the request gives none.
MAX_SAMPLES = 5000
DEFAULT_SAMPLES = 200
#: The most analyses running at once, all clients together.
MAX_RUNNING_JOBS = 4
#: Threads that solve the quick requests (tables, plays); each keeps its own search table.
SOLVE_THREADS = 2
#: The most quick requests waiting or solving at once, all clients together.
MAX_QUEUED = 16
#: Worker threads of one analysis (None: every usable core).
ANALYZE_JOBS: int | None = None

#: The cookie that names a page's client (one long job per client).
COOKIE = "prefsolve_client"
_COOKIE_VALUE = re.compile(r"[0-9a-f]{32}")
#: The page's files: what a browser may be sent, by suffix.
MEDIA_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
               ".ico": "image/x-icon"}


class BadRequest(PrefsolveError):
    """A request the API cannot read: not JSON, an unknown field, a value of the wrong kind."""


# -- the analyzer: the one call -------------------------------------------------------

def run_analysis(hand: str, seat: int, *, samples: int, seed: int | None, rules: Rules, defence: str,
                 progress: Callable[[int], None]) -> dict:
    """``analyze --json``'s object for one hand. The one place that calls the
    analyzer, so that its signature is changed here alone."""
    return analyze(hand, seat, sampling=Sampling(samples=samples, seed=seed), rules=rules, defence=defence,
                   jobs=ANALYZE_JOBS, progress=progress).to_dict()


def position_json(pos: Position) -> dict:
    """``play --json``'s object for a position (:meth:`Position.to_dict`)."""
    return pos.to_dict()


# -- reading requests ------------------------------------------------------------------

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[][{}]")


def json_depth(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings do not count)."""
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING.sub('""', text)):
        depth += 1 if bracket.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _number(text: str) -> int | float:
    if len(text) > MAX_NUMBER:
        raise BadRequest(_("a number in the request has {count} characters; at most {most}", count=len(text),
                           most=MAX_NUMBER))
    return float(text) if any(c in text for c in ".eE") else int(text)


def _constant(name: str) -> float:
    raise BadRequest(_("the request body is not JSON: {name} is not a JSON number", name=name))


def parse_json(raw: bytes) -> Any:
    """The JSON value of a request body, within :data:`MAX_DEPTH` and :data:`MAX_NUMBER`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(_("the request body is not JSON: {reason}", reason=exc)) from None
    if json_depth(text) > MAX_DEPTH:
        raise BadRequest(_("the request body nests arrays and objects more than {most} deep", most=MAX_DEPTH))
    try:
        return json.loads(text or "{}", parse_int=_number, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise BadRequest(_("the request body is not JSON: {reason}", reason=exc)) from None


async def read_json(request: Request, fields: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, whose keys must be among ``fields``."""
    body = parse_json(await request.body())
    if not isinstance(body, dict):
        raise BadRequest(_("the request body must be a JSON object, got {kind}", kind=type(body).__name__))
    unknown = [k for k in body if k not in fields]
    if unknown:
        raise BadRequest(_("unknown field {field} (expected: {fields})", field=repr(unknown[0]),
                           fields=", ".join(fields)))
    return body


def _text(body: dict, key: str) -> str | None:
    """An optional text field."""
    value = body.get(key)
    if value is not None and not isinstance(value, str):
        raise BadRequest(_("{key} must be text, got {value}", key=key, value=json.dumps(value)[:80]))
    return value


def _required(body: dict, key: str) -> str:
    """A text field the request must give."""
    value = _text(body, key)
    if value is None:
        raise BadRequest(_("the field {key} is required", key=repr(key)))
    return value


def _value(body: dict, key: str, default: Any = None) -> Any:
    """A field passed on as it is: the API checks it and names it in its error."""
    return body.get(key, default)


def _whole(body: dict, key: str, default: int | None, low: int, high: int | None = None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        if high is not None:
            raise BadRequest(_("{key} must be a whole number from {low} to {high}, got {value}", key=key, low=low,
                               high=high, value=json.dumps(value)[:80]))
        raise BadRequest(_("{key} must be a whole number at least {low}, got {value}", key=key, low=low,
                           value=json.dumps(value)[:80]))
    return value


def _flag(body: dict, key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise BadRequest(_("{key} must be true or false, got {value}", key=key, value=json.dumps(value)[:80]))
    return value


def _cards(body: dict, key: str) -> str | list | None:
    """Cards as the API takes them: text (``"SA S7"``) or a list of card texts."""
    value = body.get(key)
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return value
    raise BadRequest(_("{key} must be cards as text or a list of card texts, got {value}", key=key,
                       value=json.dumps(value)[:80]))


def client_of(request: Request) -> str:
    """The client a long job belongs to: the page's cookie, else the caller's address."""
    cookie = request.cookies.get(COOKIE, "")
    if _COOKIE_VALUE.fullmatch(cookie):
        return "cookie:" + cookie
    return "address:" + (request.client.host if request.client else "unknown")


async def _solving(request: Request, work: Callable[[], Any]) -> Any:
    """Quick solving work, in its turn on the server's solving threads; dropped
    if the client goes away before it begins."""
    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass

    queue: SolvingQueue = request.app.state.solving
    return await queue.run(work, gone)


# -- endpoints -------------------------------------------------------------------------

async def info(request: Request) -> Response:
    """GET /api/info: the version, the rules profiles, the strains and the limits."""
    return JSONResponse({"version": __version__, "profiles": list(PROFILES), "strains": list(STRAINS),
                         "limits": {"body_bytes": MAX_BODY, "json_depth": MAX_DEPTH, "number_chars": MAX_NUMBER,
                                    "deals": MAX_DEALS, "samples": MAX_SAMPLES,
                                    "running_analyses": MAX_RUNNING_JOBS, "queued_requests": MAX_QUEUED,
                                    "head_seconds": HEAD_TIMEOUT, "body_seconds": BODY_TIMEOUT}})


async def deal(request: Request) -> Response:
    """GET /api/deal?seed=N&cards=10: the deal ``prefsolve deal --seed N`` prints."""
    q = request.query_params
    unknown = [k for k in q if k not in ("seed", "cards")]
    if unknown:
        raise BadRequest(_("unknown parameter {name} (expected: {names})", name=repr(unknown[0]), names="seed, cards"))
    values: dict[str, Any] = {}
    for key, default in (("seed", None), ("cards", "10")):
        text = q.get(key, default)
        if text is not None and not re.fullmatch(r"\d{1,18}", text):
            raise BadRequest(_("{key} must be a whole number, got {value}", key=key, value=repr(text)))
        values[key] = None if text is None else int(text)
    if values["seed"] is None:
        values["seed"] = secrets.randbelow(10**9)
    d = Deal.random(values["seed"], cards=values["cards"])
    return JSONResponse({"deal": str(d), "seed": values["seed"]})


async def messages(request: Request) -> Response:
    """GET /api/messages?lang=ru: the page's messages in that language, English
    text → translation, from the compiled board catalogue (docs/TRANSLATING.md);
    in English, none (the page's text is the English)."""
    q = request.query_params
    unknown = [k for k in q if k != "lang"]
    if unknown:
        raise BadRequest(_("unknown parameter {name} (expected: {names})", name=repr(unknown[0]), names="lang"))
    lang = q.get("lang", DEFAULT_LANGUAGE)
    if lang not in LANGUAGES:
        raise BadRequest(_("lang must be one of {languages}, got {value}", languages=", ".join(LANGUAGES),
                           value=repr(lang)))
    return JSONResponse({"lang": lang, "messages": catalogue(lang, BOARD_DOMAIN)})


TABLE_FIELDS = ("deal", "deals", "leader", "talon_mode")


async def table_(request: Request) -> Response:
    """POST /api/table: ``table --json`` for a ``deal``, or ``{"tables": [...]}``
    (without ``nodes``, as ``table --file --json``) for a list of ``deals``."""
    body = await read_json(request, TABLE_FIELDS)
    leader, talon_mode = _value(body, "leader", 0), _text(body, "talon_mode")
    if "deals" in body:
        if "deal" in body:
            raise BadRequest(_("give either deal or deals, not both"))
        deals = body["deals"]
        if not isinstance(deals, list) or not all(isinstance(d, str) for d in deals):
            raise BadRequest(_("deals must be a list of deal texts"))
        if len(deals) > MAX_DEALS:
            raise BadRequest(_("at most {most} deals a request, got {count}", most=MAX_DEALS, count=len(deals)))
        parsed = []
        for i, text in enumerate(deals, 1):
            try:
                parsed.append(Deal.parse(text))
            except PrefsolveError as exc:
                raise type(exc)(_("deal {number}: {message}", number=i, message=exc)) from None

        def work() -> dict:
            tables = [table(d, leader=leader, talon_mode=talon_mode).to_dict() for d in parsed]
            return {"tables": [{k: v for k, v in t.items() if k != "nodes"} for t in tables]}
    else:
        text = _required(body, "deal")

        def work() -> dict:
            return table(text, leader=leader, talon_mode=talon_mode).to_dict()
    return JSONResponse(await _solving(request, work))


SOLVE_FIELDS = ("deal", "declarer", "strain", "leader", "talon_mode", "line")


async def solve_(request: Request) -> Response:
    """POST /api/solve: ``solve --json`` (``"line": true`` adds the line and the position)."""
    body = await read_json(request, SOLVE_FIELDS)
    text = _required(body, "deal")
    strain = _required(body, "strain")
    with_line = _flag(body, "line")

    def work() -> dict:
        d = Deal.parse(text)
        sol = solve(d, _value(body, "declarer"), strain=strain, leader=_value(body, "leader", 0),
                    talon_mode=_text(body, "talon_mode"))
        out = {"deal": str(d), **sol.to_dict()}
        if with_line:
            pos = Position(d, sol.declarer, strain=sol.strain, leader=sol.leader, talon_mode=sol.talon_mode,
                           discard=sol.discard)
            out["line"] = pos.best_line().to_dict()
            out["position"] = str(pos)
        return out
    return JSONResponse(await _solving(request, work))


PLAY_FIELDS = ("position", "deal", "declarer", "seat", "strain", "leader", "talon_mode", "discard", "turn",
               "played", "line")


async def play(request: Request) -> Response:
    """POST /api/play: ``play --json``, for a ``position`` text or a deal and its fields."""
    body = await read_json(request, PLAY_FIELDS)
    with_line = _flag(body, "line")
    text = _text(body, "position")
    if text is not None:
        given = [k for k in PLAY_FIELDS if k in body and k not in ("position", "line")]
        if given:
            raise BadRequest(_("{options}: a position text carries the seats, strain, leader, played cards and talon "
                               "itself; change them there", options=", ".join(given)))

        def start() -> Position:
            return Position.parse(text)
    else:
        deal_text = _required(body, "deal")
        strain = _required(body, "strain")
        cards = {k: _cards(body, k) for k in ("discard", "turn", "played")}

        def start() -> Position:
            return Position(deal_text, _value(body, "declarer"), strain=strain, seat=_value(body, "seat"),
                            leader=_value(body, "leader", 0), talon_mode=_text(body, "talon_mode"),
                            discard=cards["discard"], turn=cards["turn"], played=cards["played"] or ())

    def work() -> dict:
        pos = start()
        out = position_json(pos)
        if with_line:
            out["line"] = None if pos.is_over() else pos.best_line().to_dict()
        return out
    return JSONResponse(await _solving(request, work))


ALLPASS_FIELDS = ("deal", "talon_mode", "turn")


async def allpass(request: Request) -> Response:
    """POST /api/allpass: ``allpass --json``."""
    body = await read_json(request, ALLPASS_FIELDS)
    text = _required(body, "deal")
    talon_mode, turn = _text(body, "talon_mode"), _cards(body, "turn")
    return JSONResponse(await _solving(request, lambda: allpass_table(text, talon_mode=talon_mode,
                                                                      turn=turn).to_dict()))


ANALYZE_FIELDS = ("hand", "seat", "samples", "seed", "rules", "settings", "defence", "stream")


async def analyze_(request: Request) -> Response:
    """POST /api/analyze: ``analyze --json``; with ``"stream": true``, lines of
    JSON: progress, then the result (docs/WEB.md)."""
    body = await read_json(request, ANALYZE_FIELDS)
    hand = _required(body, "hand")
    samples = _whole(body, "samples", DEFAULT_SAMPLES, 1, MAX_SAMPLES)
    seed = _whole(body, "seed", None, 0)
    settings = body.get("settings", [])
    if not isinstance(settings, list) or not all(isinstance(s, str) for s in settings):
        raise BadRequest(_('settings must be a list of "SWITCH=VALUE" texts'))
    rules = Rules.profile(_text(body, "rules") or "sochi").with_settings(tuple(settings))
    defence = _text(body, "defence") or "best"
    stream = _flag(body, "stream")
    assert samples is not None      # it has a default
    work = partial(run_analysis, hand, _value(body, "seat", 0), samples=samples, seed=seed, rules=rules,
                   defence=defence)
    jobs: JobBoard = request.app.state.jobs
    job = await jobs.start(client_of(request), lambda progress: work(progress=progress), samples)
    # Bad input shows before the first sample is solved: answer it as any other (400).
    snap = job.snapshot()
    while not snap.finished and snap.done == 0:
        snap = await job.changed(0.25)
    lang = asked_language(request.headers.get("accept-language"))
    if snap.error is not None and (snap.done == 0 or not stream):
        return JSONResponse({"error": say_in(snap.error, lang)}, status_code=400)
    return JobResponse(job, stream, lang)


GAME_FIELDS = ("players", "seat", "pool", "seed", "rules", "settings")


def _rules(body: dict) -> Rules:
    """The rules of a request: a profile and ``"SWITCH=VALUE"`` settings."""
    settings = body.get("settings", [])
    if not isinstance(settings, list) or not all(isinstance(s, str) for s in settings):
        raise BadRequest(_('settings must be a list of "SWITCH=VALUE" texts'))
    return Rules.profile(_text(body, "rules") or "sochi").with_settings(tuple(settings))


async def game_new(request: Request) -> Response:
    """POST /api/game: a game against two bots (``players``), you in ``seat``; a
    single deal, or with ``"pool": true`` a пуля. The bots move until it is yours."""
    body = await read_json(request, GAME_FIELDS)
    bots = body.get("players")
    seat = _whole(body, "seat", 0, 0, 2)
    pool = _flag(body, "pool")
    seed = _whole(body, "seed", None, 0)
    rules = _rules(body)

    def work() -> dict:
        game = BoardGame.new(bots, seat=seat or 0, pool=pool, seed=seed, rules=rules)
        with game.turn():
            game.advance()
            request.app.state.games.add(client_of(request), game)
            return game.view()
    return JSONResponse(_forfeit_said(await _solving(request, work), request))


def _forfeit_said(view: dict, request: Request) -> dict:
    """The game's view with its forfeit's ``reason`` also said in the request's language, as
    ``reason_said`` (the board shows that one, as it shows the errors said in its language)."""
    forfeit = view.get("forfeit")
    if forfeit is not None:
        forfeit["reason_said"] = say_in(forfeit["reason"], asked_language(request.headers.get("accept-language")))
    return view


async def _game_request(request: Request, fields: tuple[str, ...], act: Callable[[BoardGame, dict], None]
                        ) -> Response:
    body = await read_json(request, fields)
    game = request.app.state.games.get(client_of(request), _required(body, "game"))

    def work() -> dict:
        with game.turn():
            act(game, body)
            return game.view()
    return JSONResponse(_forfeit_said(await _solving(request, work), request))


async def game_move(request: Request) -> Response:
    """POST /api/game/move: your ``move`` in ``game`` (checked by the rules), then the bots'."""
    def act(game: BoardGame, body: dict) -> None:
        if "move" not in body:
            raise BadRequest(_("the field {key} is required", key=repr("move")))
        game.move(body["move"])
    return await _game_request(request, ("game", "move"), act)


async def game_next(request: Request) -> Response:
    """POST /api/game/next: the next deal of the пуля of ``game``."""
    def act(game: BoardGame, body: dict) -> None:
        game.deal_next()
        game.advance()
    return await _game_request(request, ("game",), act)


async def game_view(request: Request) -> Response:
    """POST /api/game/view: ``game`` as you see it now."""
    return await _game_request(request, ("game",), lambda game, body: None)


REVIEW_FIELDS = ("game", "samples", "seed", "player", "tolerance", "stream")
#: The most deals of one review on the board, and the most layouts of each decision.
MAX_REVIEW_DEALS = 40
MAX_REVIEW_SAMPLES = 500
#: The review's defaults when the request gives none: those of ``prefsolve review``.
REVIEW_SAMPLES, REVIEW_TOLERANCE = 50, 1.0


def _game_text(body: dict) -> str:
    """A game record as a request gives it: the file's text, or its JSON object."""
    game = body.get("game")
    if isinstance(game, dict):
        return json.dumps(game)
    if not isinstance(game, str):
        raise BadRequest(_("game must be a game record: its text or its JSON object (docs/GAME_FORMAT.md)"))
    return game


def _sessions(body: dict) -> tuple:
    """The sessions of the request's ``game``, read as ``prefsolve review`` reads a file."""
    from ..analysis.review import read_games

    sessions = read_games(_game_text(body))
    count = sum(len(s.records) for s in sessions)
    if count > MAX_REVIEW_DEALS:
        raise BadRequest(_("at most {most} deals a request, got {count}", most=MAX_REVIEW_DEALS, count=count))
    return sessions


def run_review(sessions: tuple, *, samples: int, seed: int, player: str | None, tolerance: float | None,
               progress: Callable[[int], None], lang: str = DEFAULT_LANGUAGE) -> dict:
    """``review --json``'s object for the sessions: the one place that calls the review. A decision
    with a ``note`` (English, as in every JSON) also has it said in ``lang``, the request's language,
    as ``note_said``: the board shows that one, as it shows the errors said in its language."""
    from ..analysis.review import ReviewSettings, review_games

    settings = ReviewSettings(samples=samples, seed=seed, tolerance=tolerance)
    review = review_games(sessions, settings=settings, player=player, jobs=ANALYZE_JOBS, progress=progress)
    out = review.to_dict()
    for deal, deal_json in zip(review.deals, out["deals"]):
        for decision, decision_json in zip(deal.decisions, deal_json["decisions"]):
            if decision.note is not None:
                decision_json["note_said"] = say_in(decision.note, lang)
    return out


async def review_(request: Request) -> Response:
    """POST /api/review: ``review --json`` of a game record (its text or object); with
    ``"stream": true``, lines of JSON: progress by deal, then the result."""
    body = await read_json(request, REVIEW_FIELDS)
    sessions = _sessions(body)
    samples = _whole(body, "samples", REVIEW_SAMPLES, 1, MAX_REVIEW_SAMPLES)
    seed = _whole(body, "seed", 0, 0)
    tolerance = body.get("tolerance", REVIEW_TOLERANCE)
    if tolerance is not None and (isinstance(tolerance, bool) or not isinstance(tolerance, (int, float))
                                  or tolerance < 0):
        raise BadRequest(_("{key} must be a number at least {low}, got {value}", key="tolerance", low=0,
                           value=json.dumps(tolerance)[:80]))
    player = _text(body, "player")
    if player is not None:
        names = {p for s in sessions for p in s.players}
        if player not in names:
            raise BadRequest(_("unknown player {name} (players: {players})", name=repr(player),
                               players=", ".join(sorted(names))))
    stream = _flag(body, "stream")
    assert samples is not None and seed is not None     # they have defaults
    lang = asked_language(request.headers.get("accept-language"))
    work = partial(run_review, sessions, samples=samples, seed=seed, player=player, tolerance=tolerance, lang=lang)
    jobs: JobBoard = request.app.state.jobs
    total = sum(len(s.records) for s in sessions)
    job = await jobs.start(client_of(request), lambda progress: work(progress=progress), total)
    return JobResponse(job, stream, lang)


async def replay(request: Request) -> Response:
    """POST /api/replay: a game record stepped through move by move (what the review viewer shows)."""
    from .steps import replay_json

    body = await read_json(request, ("game",))
    sessions = _sessions(body)
    return JSONResponse(replay_json(sessions))


class JobResponse(Response):
    """The answer of a long job: its JSON object when it ends or, streamed,
    one JSON line per progress notice and one for the end, its error said in
    ``lang``. While it is sent the client's disconnect is watched; it cancels
    the job."""

    def __init__(self, job: Job, stream: bool, lang: str = DEFAULT_LANGUAGE) -> None:
        self.job, self.stream, self.lang = job, stream, lang
        self.background = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with anyio.create_task_group() as tg:
            async def watch() -> None:
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        self.job.cancel()
                        tg.cancel_scope.cancel()
                        return

            tg.start_soon(watch)
            try:
                await (self._lines(send) if self.stream else self._whole(send))
            except OSError:     # the connection broke while writing
                self.job.cancel()
            finally:
                tg.cancel_scope.cancel()
        self.job.cancel()   # no effect on a job that ended; stops one whose answer was not sent

    async def _whole(self, send: Send) -> None:
        snap = self.job.snapshot()
        while not snap.finished:
            snap = await self.job.changed(1.0)
        if snap.result is not None:
            response = JSONResponse(snap.result)
        elif snap.error is not None:
            response = JSONResponse({"error": say_in(snap.error, self.lang)}, status_code=400)
        else:
            response = JSONResponse({"error": say_in(_("the analysis was cancelled"), self.lang)}, status_code=409)
        await response({"type": "http"}, _no_receive, send)

    async def _lines(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/x-ndjson; charset=utf-8")]})
        snap = self.job.snapshot()
        while True:
            if snap.finished:
                if snap.result is not None:
                    last: dict = {"result": snap.result}
                elif snap.error is not None:
                    last = {"error": say_in(snap.error, self.lang)}
                else:
                    last = {"cancelled": True}
                await send({"type": "http.response.body", "body": _line(last), "more_body": False})
                return
            await send({"type": "http.response.body", "more_body": True,
                        "body": _line({"done": snap.done, "samples": snap.total})})
            snap = await self.job.changed(1.0)


def _line(obj: dict) -> bytes:
    return (json.dumps(obj) + "\n").encode()


async def _no_receive() -> Message:     # a finished response reads nothing
    return {"type": "http.disconnect"}


# -- the page's files --------------------------------------------------------------------

def static_files() -> dict[str, tuple[str, str]]:
    """The page's files by name, with their media type: the only files served."""
    files = {}
    for path in sorted(STATIC.iterdir()):
        kind = MEDIA_TYPES.get(path.suffix)
        if kind is not None and path.is_file() and re.fullmatch(r"[a-z0-9_-]+\.[a-z]+", path.name):
            files[path.name] = (str(path), kind)
    return files


async def page(request: Request) -> Response:
    """GET /: the board. Gives the page a client cookie when it has none."""
    path, kind = request.app.state.files["index.html"]
    response = FileResponse(path, media_type=kind)
    if not _COOKIE_VALUE.fullmatch(request.cookies.get(COOKIE, "")):
        response.set_cookie(COOKIE, secrets.token_hex(16), httponly=True, samesite="strict")
    return response


async def asset(request: Request) -> Response:
    """GET /static/NAME: one of the page's files, by its exact name."""
    found = request.app.state.files.get(request.path_params["name"])
    if found is None:
        return JSONResponse({"error": _said(request, _("not found"))}, status_code=404)
    return FileResponse(found[0], media_type=found[1])


# -- errors -----------------------------------------------------------------------------

def _said(request: Request, message: object) -> str:
    """A message (an error's) in the language the request asks for."""
    return say_in(message, asked_language(request.headers.get("accept-language")))


async def bad_input(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": _said(request, exc)}, status_code=400)


async def game_busy(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": _said(request, exc)}, status_code=409)


async def busy(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": _said(request, exc)}, status_code=getattr(exc, "status", 503))


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    return JSONResponse({"error": _said(request, _("not found")) if status == 404
                         else str(getattr(exc, "detail", exc))}, status_code=status)


# -- the application --------------------------------------------------------------------

def create_app(*, host: str = "127.0.0.1") -> Starlette:
    """The board's application, for a server bound to ``host``: it answers
    only requests whose ``Host`` names that address (:class:`~.guard.HostRule`)."""

    @asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        app.state.jobs.cancel_all()
        app.state.solving.close()

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/static/{name}", asset, methods=["GET"]),
        Route("/api/info", info, methods=["GET"]),
        Route("/api/deal", deal, methods=["GET"]),
        Route("/api/messages", messages, methods=["GET"]),
        Route("/api/table", table_, methods=["POST"]),
        Route("/api/solve", solve_, methods=["POST"]),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/allpass", allpass, methods=["POST"]),
        Route("/api/analyze", analyze_, methods=["POST"]),
        Route("/api/review", review_, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/game", game_new, methods=["POST"]),
        Route("/api/game/move", game_move, methods=["POST"]),
        Route("/api/game/next", game_next, methods=["POST"]),
        Route("/api/game/view", game_view, methods=["POST"]),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, rule=HostRule(host))], lifespan=lifespan,
                    exception_handlers={GameBusy: game_busy, PrefsolveError: bad_input, Busy: busy, 404: not_found,
                                        405: not_found})
    app.state.files = static_files()
    app.state.jobs = JobBoard(MAX_RUNNING_JOBS)
    app.state.solving = SolvingQueue(SOLVE_THREADS, MAX_QUEUED)
    app.state.games = GameTables()
    return app
