"""Games against the bots on the board: one human seat, two players of prefsolve.players.

A :class:`BoardGame` is a table of three: the human in one table seat, two
built-in players (:func:`~prefsolve.players.make_player`: ``advisor`` at a
chosen number of samples, ``heuristic``, ``random``, ``cheater``; never an
external program, which a web request must not start) in the others. It
plays a single deal or a whole пуля (a session scored on a
:class:`~prefsolve.scoring.ScoreSheet` until the game ends, RULES.md §6.1).
Each deal is a :class:`~prefsolve.game.DealState`, so every move of the human
is checked by the rules (:meth:`~prefsolve.game.DealState.apply` names the
rule a move breaks); the bots decide as in :func:`~prefsolve.players.runner.play_deal`:
each sees its :func:`~prefsolve.players.seat_view` and the seed of its
decision, and a move with one legal option is made without asking anyone.

The human sees what the seat sees (:func:`~prefsolve.players.seat_view`, the
bot protocol's view of docs/BOT_PROTOCOL.md): his own cards, the hands lying
face up, the talon once shown; the bots' hands and the declarer's discard
only when the deal is over. The game's record is a session of
docs/GAME_FORMAT.md, readable by ``prefsolve score`` and ``prefsolve review``.

The bots think on the server's solving threads (:mod:`.pool`), not on the
event loop; one request of a game at a time (:class:`GameBusy`).

>>> game = BoardGame.new(["heuristic", "heuristic"], seat=0, pool=False, seed=3)
>>> game.advance()
>>> view = game.view()
>>> view["you"], view["players"], view["your_move"], view["view"]["kind"]
(0, ['you', 'heuristic', 'heuristic (2)'], True, 'call')
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from .._frozen import FrozenMap
from ..deal import Deal
from ..errors import GameError, PlayerError
from ..game import DealState, Forfeit, GameRecord, Session
from ..i18n import _
from ..players import BUILTIN, Player, make_player, parse_spec, seat_view
from ..players.runner import decision_seed, derive_seed
from ..rules import Rules
from ..scoring import ScoreSheet, _num

#: The players a board may seat: the built-in ones (an external program is never started from a request).
BOARD_PLAYERS = tuple(BUILTIN)
#: The most layouts an advisor bot of the board samples for one decision.
MAX_BOT_SAMPLES = 500
#: The most games the server keeps, all clients together; the longest idle one goes first.
MAX_GAMES = 32
#: The human's name in the record.
HUMAN = "you"
#: The dealer of the first deal: table seat 2, so that table seat 0 is first hand (RULES.md §1.5).
FIRST_DEALER = 2


class GameBusy(Exception):
    """A request of a game arrived while the bots of that game still think (HTTP 409)."""


def check_bot(spec: object) -> str:
    """A bot's player text, if the board may seat it (a built-in player, an
    advisor within :data:`MAX_BOT_SAMPLES`); else :class:`~prefsolve.errors.PlayerError`.

    >>> check_bot("advisor:samples=20")
    'advisor:samples=20'
    >>> check_bot("cmd:python bot.py")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    prefsolve.errors.PlayerError: the board seats the players random, ..., not 'cmd:python bot.py'
    """
    if not isinstance(spec, str):
        raise PlayerError(_("a player is named by text such as 'random' or 'advisor:samples=50', got {value}",
                            value=repr(spec)))
    name, options = parse_spec(spec)
    if name not in BOARD_PLAYERS:
        raise PlayerError(_("the board seats the players {players}, not {player}", players=", ".join(BOARD_PLAYERS),
                            player=repr(spec.strip())))
    samples = options.get("samples")
    if samples is not None and samples > MAX_BOT_SAMPLES:
        raise PlayerError(_("a bot of the board samples at most {most} layouts a decision, got {value}",
                            most=MAX_BOT_SAMPLES, value=samples))
    return spec.strip()


def _names(specs: list[str | None]) -> list[str]:
    """The players' names in the record: the human's, each bot's text (a second of the same numbered)."""
    names: list[str] = []
    for spec in specs:
        base = HUMAN if spec is None else spec
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base} ({n})"
        names.append(name)
    return names


@dataclass
class _Deal:
    """The deal under way: its state, the table seat in deal seat 0, the dealer and the seed of its decisions."""

    state: DealState
    first_hand: int
    dealer: int
    seed: int
    forfeit: Forfeit | None = None
    filed: bool = False


class BoardGame:
    """One table against two bots: a single deal, or a пуля deal after deal.

    ``specs`` are the players of table seats 0, 1, 2 (``None``: the human's seat).
    Not thread-safe by itself: :meth:`turn` keeps one request of a game at a time.
    """

    def __init__(self, specs: list[str | None], *, pool: bool, seed: int, rules: Rules) -> None:
        self.id = secrets.token_hex(8)
        self.specs = specs
        self.human = specs.index(None)
        self.players = _names(specs)
        self.pool, self.seed, self.rules = pool, seed, rules
        self.bots: list[Player | None] = [None if s is None else make_player(s) for s in specs]
        self.records: list[GameRecord] = []
        self.sheet = ScoreSheet.new(self.players, rules)
        self.current: _Deal | None = None
        self._lock = threading.Lock()

    @classmethod
    def new(cls, bots: object, *, seat: int = 0, pool: bool = False, seed: int | None = None,
            rules: Rules | str | None = None) -> BoardGame:
        """A game with the human in table ``seat`` and ``bots`` in the next seats clockwise; its first deal dealt."""
        if not isinstance(bots, list) or len(bots) != 2:
            raise PlayerError(_("the board seats two bots beside you, got {value}", value=repr(bots)[:80]))
        checked = [check_bot(b) for b in bots]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 2:
            raise PlayerError(_("your seat is 0, 1 or 2, got {value}", value=repr(seat)))
        specs: list[str | None] = [None, None, None]
        specs[(seat + 1) % 3], specs[(seat + 2) % 3] = checked
        game = cls(specs, pool=pool, seed=secrets.randbelow(10**9) if seed is None else seed,
                   rules=Rules.of(rules).replace(players=3))
        game.deal_next()
        return game

    # -- one request at a time -------------------------------------------------------
    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the game for one request, or raise :class:`GameBusy` if another holds it."""
        if not self._lock.acquire(blocking=False):
            raise GameBusy(_("the bots of this game are still thinking; wait for their move"))
        try:
            yield
        finally:
            self._lock.release()

    # -- the deals -------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """Whether no deal is left: the single deal played, or the пуля's game over (or stopped by a forfeit)."""
        if self.current is not None and not self._deal_over():
            return False
        if any(r.forfeit is not None for r in self.records):
            return True
        return bool(self.records) and (not self.pool or self.sheet.finished)

    def _deal_over(self) -> bool:
        return self.current is not None and (self.current.forfeit is not None or self.current.state.is_over())

    def deal_next(self) -> None:
        """Deal the next deal of the пуля (the first one of any game)."""
        if self.current is not None and not self._deal_over():
            raise GameError(_("the deal under way is not over"))
        if self.records and self.finished:
            raise GameError(_("the game is over: no deal is left to play"))
        number = len(self.records)
        dealer = self.sheet.next_dealer if self.sheet.next_dealer is not None else FIRST_DEALER
        seed = derive_seed(self.seed, "deal", number)
        state = DealState(Deal.random(seed), self.rules, allpass_count=self.sheet.allpass_streak if self.pool else 0)
        first_hand = (dealer + 1) % 3
        for table_seat, bot in enumerate(self.bots):
            if bot is not None:
                bot.start((table_seat - first_hand) % 3, state.rules)
        self.current = _Deal(state, first_hand, dealer, seed)

    def _table_seat(self, seat: int) -> int:
        assert self.current is not None
        return (self.current.first_hand + seat) % 3

    def _human_deal_seat(self) -> int:
        assert self.current is not None
        return (self.human - self.current.first_hand) % 3

    def human_to_move(self) -> bool:
        """Whether the next move is the human's to decide."""
        if self.current is None or self._deal_over():
            return False
        decider = self.current.state.decider
        return decider is not None and self._table_seat(decider) == self.human

    def advance(self) -> None:
        """Make the bots' moves and the forced ones until the human decides or the deal ends."""
        d = self.current
        assert d is not None
        state = d.state
        while not self._deal_over():
            forced = state.forced()
            if forced is not None:
                state.apply(forced)
                continue
            by = state.decider
            assert by is not None
            bot = self.bots[self._table_seat(by)]
            if bot is None:
                return
            view = seat_view(state, by, seed=decision_seed(d.seed, by, len(state.moves) + 1), sees_all=bot.sees_all)
            try:
                state.apply(bot.decide(view))
            except (PlayerError, GameError) as exc:
                d.forfeit = Forfeit(by, len(state.moves) + 1, _("{player}: {reason}", player=bot.name, reason=exc))
        self._file_record()

    def _file_record(self) -> None:
        """The deal just over goes to the records and, with a result, to the score sheet."""
        d = self.current
        assert d is not None
        if d.filed:
            return
        d.filed = True
        record = GameRecord.of(d.state, first_hand=d.first_hand, forfeit=d.forfeit, dealer=d.dealer)
        self.records.append(record)
        if record.outcome is not None:
            self.sheet = self.sheet.add(record.outcome)

    def move(self, decision: object) -> None:
        """The human's move: checked by the rules, made, and the bots answer it."""
        d = self.current
        if d is None or self._deal_over():
            raise GameError(_("the deal is over: no move is left; deal the next one"))
        if not self.human_to_move():
            raise GameError(_("it is not your move: {player} is to move",
                              player=self.players[self._table_seat(d.state.decider or 0)]))
        d.state.apply(decision)
        self.advance()

    def session(self) -> Session:
        """The deals played so far as a session of docs/GAME_FORMAT.md."""
        tags: dict[str, str | int | bool] = {"board": True, "seed": self.seed}
        for name, spec in zip(self.players, self.specs):
            tags["player " + name] = "human" if spec is None else spec
        return Session(tuple(self.players), self.rules, tuple(self.records), tags=FrozenMap(tags))

    # -- what the human sees ---------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The game as the human sees it now (module docstring)."""
        d = self.current
        assert d is not None
        state = d.state
        over = self._deal_over()
        you = self._human_deal_seat()
        shown = seat_view(state, you)
        seen = (shown if shown.kind else replace(shown, kind="card")).to_dict()
        if over:
            seen["kind"] = seen["phase"] = None
        del seen["seed"]
        names = [self.players[self._table_seat(s)] for s in range(3)]
        out: dict[str, Any] = {
            "game": self.id, "players": list(self.players), "you": self.human, "bots": list(self.specs),
            "pool": self.pool, "number": len(self.records) + (0 if over else 1),
            "first_hand": d.first_hand, "dealer": d.dealer, "names": names,
            "view": seen, "your_move": self.human_to_move(), "decider": None if over else state.decider,
            "over": over, "finished": self.finished,
            "call_seats": [m.seat for m in state.moves if m.kind == "call"],
            "whist_seats": [m.seat for m in state.moves if m.kind == "whist"],
        }
        if not self.human_to_move():
            seen["options"] = []
        if over:
            seen["deal"] = str(state.deal)
            seen["discard"] = (None if state.declaration is None or state.declaration.discard is None
                               else state.declaration.discard.to_list())
            seen["talon"] = str(state.deal.talon)
            record = self.records[-1]
            out["forfeit"] = None if d.forfeit is None else {"seat": d.forfeit.seat, "move": d.forfeit.move,
                                                             "reason": d.forfeit.reason}
            out["balances"] = (None if record.outcome is None
                               else [_num(b) for b in record.balances()])
        out["sheet"] = self._sheet_json()
        out["record"] = self.session().to_dict()
        return out

    def _sheet_json(self) -> dict[str, Any]:
        """The score sheet and, after each deal, the running pool, mountain and whists (what is written on paper)."""
        history = []
        sheet = ScoreSheet.new(self.players, self.rules)
        for record in self.records:
            if record.outcome is None:
                break
            sheet = sheet.add(record.outcome)
            history.append({"pool": [_num(x) for x in sheet.pool], "mountain": [_num(x) for x in sheet.mountain],
                            "whists": [[_num(x) for x in row] for row in sheet.whists]})
        return {**self.sheet.to_dict(), "players": list(self.players), "pool_target": self.rules.pool_target,
                "history": history}


class GameTables:
    """The games the server keeps, by id: at most :data:`MAX_GAMES`, the longest idle dropped first;
    a game answers only the client that started it."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[str, tuple[str, BoardGame]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, client: str, game: BoardGame) -> None:
        with self._lock:
            self._games[game.id] = (client, game)
            while len(self._games) > self.limit:
                self._games.popitem(last=False)

    def get(self, client: str, game_id: object) -> BoardGame:
        with self._lock:
            found = self._games.get(game_id) if isinstance(game_id, str) else None
            if found is None or found[0] != client:
                raise GameError(_("no game {game} on this board (a game lasts while the server runs)",
                                  game=repr(game_id)[:40]))
            self._games.move_to_end(game_id)  # type: ignore[arg-type]
            return found[1]


__all__ = ["BOARD_PLAYERS", "MAX_BOT_SAMPLES", "MAX_GAMES", "BoardGame", "GameBusy", "GameTables", "check_bot"]
