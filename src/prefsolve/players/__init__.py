"""Players of a seat, by name: the protocol, the built-in players and the deal's runner.

A player is named by text, the same in the API, on the command line and in
records:

* ``random``: any legal decision (:mod:`.random`);
* ``cheater``: sees every card and plays double-dummy, the upper bound of what
  any player can reach (:mod:`.cheater`);
* ``advisor``: the analyzer's advice with the auction model (:mod:`.advisor`);
* ``heuristic``: a book player of Preferans rules of thumb (:mod:`.heuristic`);
* ``cmd:PROGRAM ARGS``: an external program speaking the bot protocol of
  docs/BOT_PROTOCOL.md (:mod:`.external`).

Options follow the name after a colon, ``NAME:KEY=VALUE,KEY=VALUE``, e.g.
``advisor:samples=50,tolerance=1``; each player lists the options it takes
(its ``OPTIONS``). The protocol is in :mod:`.base`, the runner in :mod:`.runner`.

>>> make_player("random").name
'random'
>>> make_player("random:samples=3")
Traceback (most recent call last):
...
prefsolve.errors.PlayerError: player 'random' takes no options, got 'samples'
>>> make_player("nobody")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
prefsolve.errors.PlayerError: unknown player 'nobody' (expected one of: random, cheater, advisor, heuristic, or cmd:...)
"""

from __future__ import annotations

import importlib
import shlex
from typing import Any

from ..errors import PlayerError, PrefsolveError
from ..i18n import _
from .base import Player, SeatView, seat_view

#: The built-in players: name → (module of this package, class).
BUILTIN = {"random": ("random", "RandomPlayer"), "cheater": ("cheater", "Cheater"),
           "advisor": ("advisor", "Advisor"), "heuristic": ("heuristic", "HeuristicPlayer")}
#: The prefix of a player that is an external program (docs/BOT_PROTOCOL.md).
COMMAND = "cmd:"
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def player_class(name: str) -> type[Player]:
    """The class of a built-in player."""
    if name not in BUILTIN:
        raise PlayerError(_("unknown player {name} (expected one of: {players}, or cmd:PROGRAM ARGS)", name=repr(name),
                            players=", ".join(BUILTIN)))
    module, cls = BUILTIN[name]
    try:
        home = importlib.import_module(f".{module}", __name__)
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{module}":
            raise
        raise PlayerError(_("player {name} is not part of this version of prefsolve", name=repr(name))) from None
    return getattr(home, cls)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A built-in player's name and its options, typed as the player declares them;
    for ``cmd:``, ``("cmd", {"argv": [...]})``.

    >>> parse_spec("random")
    ('random', {})
    >>> parse_spec("cmd:python bot.py --fast")
    ('cmd', {'argv': ['python', 'bot.py', '--fast']})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise PlayerError(_("a player is named by text such as 'random' or 'advisor:samples=50', got {value}",
                            value=repr(spec)))
    spec = spec.strip()
    if spec.startswith(COMMAND):
        try:
            argv = shlex.split(spec[len(COMMAND):])
        except ValueError as exc:
            raise PlayerError(_("cannot read the command of player {player}: {reason}", player=repr(spec),
                                reason=exc)) from None
        if not argv:
            raise PlayerError(_("player {player} names no program: write cmd:PROGRAM ARGS", player=repr(spec)))
        return "cmd", {"argv": argv}
    name, _colon, rest = spec.partition(":")
    cls = player_class(name.strip())
    options: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, raw = (x.strip() for x in item.partition("="))
        if key not in cls.OPTIONS:
            known = ", ".join(cls.OPTIONS)
            raise PlayerError(_("player {name} takes the options {options}, not {key}", name=repr(name), options=known,
                                key=repr(key)) if known else
                              _("player {name} takes no options, got {key}", name=repr(name), key=repr(key)))
        if not sep:
            raise PlayerError(_("option {key} of player {name} needs a value: {option}=VALUE", key=repr(key),
                                name=repr(name), option=key))
        options[key] = _typed(name, key, raw, cls.OPTIONS[key])
    return name, options


def _typed(name: str, key: str, raw: str, kind: type) -> Any:
    if kind is bool:
        if raw.lower() not in _TRUE + _FALSE:
            raise PlayerError(_("option {key} of player {name} is on or off, got {value}", key=repr(key),
                                name=repr(name), value=repr(raw)))
        return raw.lower() in _TRUE
    try:
        return kind(raw)
    except ValueError:
        raise PlayerError(_("option {key} of player {name} takes a {kind}, got {value}", key=repr(key), name=repr(name),
                            kind=kind.__name__, value=repr(raw))) from None


def make_player(spec: str, *, time_limit: float | None = None) -> Player:
    """A player from its name and options (see the module's text). ``time_limit``:
    the seconds an external program has for each decision (its default otherwise)."""
    name, options = parse_spec(spec)
    if name == "cmd":
        from .external import ExternalPlayer

        return ExternalPlayer(options["argv"], time_limit=time_limit, name=spec.strip())
    try:
        player = player_class(name)(**options)
    except PlayerError:
        raise
    except PrefsolveError as exc:
        raise PlayerError(_("player {player}: {message}", player=repr(spec), message=exc)) from None
    return player


__all__ = ["BUILTIN", "COMMAND", "Player", "SeatView", "make_player", "parse_spec", "player_class", "seat_view"]
