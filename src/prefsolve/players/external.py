"""A player that is another program, speaking the bot protocol (docs/BOT_PROTOCOL.md).

The program is started once and kept for every deal it plays; each message is
one line of JSON on its standard input, each answer one line on its standard
output (its standard error is its own: the last lines are quoted when it
fails). The exchange, protocol version :data:`PROTOCOL`::

    → {"type": "hello", "protocol": 1, "program": "prefsolve", "version": "…"}
    ← {"type": "hello", "protocol": 1, "name": "tinybot", "sees_all": false}
    → {"type": "deal", "seat": 2, "rules": "sochi", "switches": {}}
    → {"type": "decide", "view": {…the seat's view…}}
    ← {"type": "decision", "decision": "6S"}
    → {"type": "quit"}

A program that does not answer within the time limit (:data:`TIME_LIMIT`
seconds a decision unless told otherwise, :data:`START_LIMIT` for the
greeting), stops, or answers what is not a decision of the kind asked for is
stopped, and the decision fails with a :class:`~prefsolve.errors.PlayerError`
naming the move: in a match the game is forfeited. The next deal starts the
program again.
"""

from __future__ import annotations

import collections
import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any

from .._version import __version__
from ..errors import GameError, PlayerError, PrefsolveError
from ..game import Decision, decision_json, kind_word, parse_decision
from ..i18n import _, english
from ..rules import Rules
from .base import Player, SeatView, _switches

#: The version of the bot protocol spoken here.
PROTOCOL = 1
#: Seconds a program has for each decision, unless the match says otherwise.
TIME_LIMIT = 10.0
#: Seconds a program has to start and answer the greeting.
START_LIMIT = 30.0
#: Seconds a program has to leave after "quit" before it is stopped.
QUIT_LIMIT = 2.0


class ExternalPlayer(Player):
    """A seat played by the program ``argv`` over the bot protocol."""

    def __init__(self, argv: Sequence[str], *, time_limit: float | None = None, name: str | None = None) -> None:
        if not argv:
            raise PlayerError(_("an external player needs a program to run"))
        self.argv = list(argv)
        self.time_limit = TIME_LIMIT if time_limit is None else float(time_limit)
        self.name = name or "cmd:" + shlex.join(self.argv)
        self.sees_all = False
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._errors: collections.deque[str] = collections.deque(maxlen=3)
        self._failure: PlayerError | None = None

    # -- the protocol ---------------------------------------------------------------------
    def start(self, seat: int, rules: Rules) -> None:
        """Start the program if it is not running, then tell it a new deal begins.
        A failure here is kept and raised at the first decision (where it forfeits)."""
        try:
            if self._proc is None or self._proc.poll() is not None:
                self._spawn()
                self._hello()
            self._send({"type": "deal", "seat": seat, "rules": rules.name, "switches": _switches(rules)})
            self._failure = None
        except PlayerError as exc:
            self._failure = exc
            self._stop()

    def decide(self, view: SeatView) -> Decision:
        if self._failure is not None:
            raise self._failure
        what = _("move {number} ({kind})", number=view.move, kind=kind_word(view.kind))
        self._send({"type": "decide", "view": view.to_dict()})
        answer = self._receive(self.time_limit, what)
        if answer.get("type") == "error":
            self._stop()
            raise PlayerError(_("gave up at {what}: {message}", what=what,
                                message=str(answer.get("message", ""))[:200]))
        if answer.get("type") != "decision" or "decision" not in answer:
            self._stop()
            raise PlayerError(_("answered {answer} to {what}, not {{\"type\": \"decision\", ...}}",
                                answer=_short(answer), what=what))
        try:
            return parse_decision(view.kind, answer["decision"])
        except GameError as exc:
            self._stop()
            raise PlayerError(_("answered nonsense to {what}: {reason}", what=what, reason=exc)) from None

    def close(self) -> None:
        """Say goodbye and make sure the program has ended."""
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._send({"type": "quit"})
                self._proc.wait(QUIT_LIMIT)
            except (PlayerError, subprocess.TimeoutExpired):
                pass
        self._stop()

    # -- the program ----------------------------------------------------------------------
    def _spawn(self) -> None:
        self._stop()
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        except OSError as exc:
            raise PlayerError(_("cannot start {program}: {reason}", program=repr(shlex.join(self.argv)),
                                reason=exc.strerror or exc)) from None
        self._proc = proc
        self._lines = queue.Queue()
        self._errors.clear()
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_pump, args=(proc.stdout, self._lines.put), daemon=True).start()
        threading.Thread(target=_pump, args=(proc.stderr, self._note), daemon=True).start()

    def _note(self, line: str | None) -> None:
        if line is not None and line.strip():
            self._errors.append(line.strip())

    def _hello(self) -> None:
        self._send({"type": "hello", "protocol": PROTOCOL, "program": "prefsolve", "version": __version__})
        answer = self._receive(max(START_LIMIT, self.time_limit), _("the greeting"))
        if answer.get("type") != "hello":
            raise PlayerError(_("answered {answer} to the greeting, not {{\"type\": \"hello\", ...}}",
                                answer=_short(answer)))
        if answer.get("protocol") != PROTOCOL:
            raise PlayerError(_("speaks protocol {protocol}; prefsolve speaks {ours}",
                                protocol=repr(answer.get("protocol")), ours=PROTOCOL))
        self.sees_all = answer.get("sees_all", False) is True

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise PlayerError(_("the program is not running"))
        try:
            proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise PlayerError(self._ended()) from None

    def _receive(self, limit: float, what: str) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=limit)
        except queue.Empty:
            self._stop()
            raise PlayerError(_("no answer to {what} within {limit:g} s (docs/BOT_PROTOCOL.md: the time limit); the "
                                "program was stopped", what=what, limit=limit)) from None
        if line is None:
            raise PlayerError(self._ended(what))
        try:
            answer = json.loads(line)
        except ValueError:
            self._stop()
            raise PlayerError(_("answered {answer} to {what}, which is not JSON", answer=repr(line.strip()[:80]),
                                what=what)) from None
        if not isinstance(answer, dict):
            self._stop()
            raise PlayerError(_("answered {answer} to {what}, not a JSON object", answer=_short(answer), what=what))
        return answer

    def _ended(self, what: str = "") -> str:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(1)
            except subprocess.TimeoutExpired:
                self._stop()
        if not self._errors:
            return (_("the program stopped before answering {what} (exit status {code})", what=what, code=code) if what
                    else _("the program stopped (exit status {code})", code=code))
        last = self._errors[-1]
        return (_("the program stopped before answering {what} (exit status {code}): {stderr}", what=what, code=code,
                  stderr=last) if what
                else _("the program stopped (exit status {code}): {stderr}", code=code, stderr=last))

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:    # pragma: no cover - a process that survives SIGKILL
            pass
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


def serve(player: Player, messages: Iterable[str], write: Callable[[str], None]) -> None:
    """The bot's end of the protocol: answer each message of ``messages`` (lines of
    JSON) with ``player``'s decisions, each written as one line by ``write``, until
    "quit" or the end of the input. What cannot be read is answered with an
    ``error`` message, and the loop goes on.

    >>> from prefsolve.players import make_player
    >>> out = []
    >>> serve(make_player("random"), ['{"type": "hello", "protocol": 1}', '{"type": "quit"}'], out.append)
    >>> json.loads(out[0])["type"], json.loads(out[0])["protocol"]
    ('hello', 1)
    """
    for line in messages:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            kind = message.get("type") if isinstance(message, dict) else None
        except ValueError:
            message, kind = None, None
        if kind == "quit":
            return
        if kind == "hello":
            answer: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "name": player.name,
                                      "sees_all": player.sees_all}
        elif kind == "deal":
            try:
                rules = Rules.profile(message.get("rules", "sochi")).replace(**message.get("switches", {}))
                player.start(int(message["seat"]), rules.replace(players=3))
                continue
            except (PrefsolveError, KeyError, TypeError, ValueError) as exc:
                answer = {"type": "error", "message": english(_("cannot read the deal message: {reason}", reason=exc))}
        elif kind == "decide":
            try:
                view = SeatView.from_dict(message["view"])
                answer = {"type": "decision", "decision": decision_json(view.kind, player.decide(view))}
            except (PrefsolveError, KeyError, TypeError) as exc:
                answer = {"type": "error", "message": english(exc)}
        else:
            unknown = _("unknown message {text} (expected a JSON object of type hello, deal, decide or quit)",
                        text=repr(line.strip()[:80]))
            answer = {"type": "error", "message": english(unknown)}
        write(json.dumps(answer, ensure_ascii=False))


def _pump(stream: IO[str], put: Any) -> None:
    """Hand each line of ``stream`` to ``put``, then None at its end."""
    try:
        for line in stream:
            put(line)
    except (OSError, ValueError):
        pass
    put(None)


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["ExternalPlayer", "PROTOCOL", "TIME_LIMIT", "START_LIMIT", "serve"]
