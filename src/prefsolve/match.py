"""Matches between two players, played in duplicate by substitution.

Each deal of a match is played four times on the same cards: by ``B B B``, and
with ``A`` in each seat in turn (``A B B``, ``B A B``, ``B B A``). A's gain on
the deal is the mean over the three seats of A's result in that seat less B's
result in the same seat of the ``B B B`` game, in whists as the rules settle
one deal alone (RULES.md §6.4). Every seed of a game — the deal's, each
decision's — comes from the match's seed, the deal's number, the seat and the
move, so B makes the same moves in ``A B B`` as in ``B B B`` until A's first
different decision, and everything after it follows from it: the **phase** of
that first difference (bidding, talon, whisting, play) is where A gained or
lost. docs/STRENGTH.md states the method.

The gain of a match is the mean over its deals with its standard error and a
95% interval (Student's t); broken down by phase (each seat's difference
counted in the phase of its first different move, so that the phases add up to
the gain) and by the kind of deal the ``B B B`` game was (a game, a misère, an
all-pass: the mean gain on those deals). A game a player forfeits (a bot that
failed, a move the rules refuse) leaves its deal out of the gain; the summary
counts the forfeits.

>>> result = play_match("cheater", "random", deals=2, seed=1)
>>> result.deals, len(result.results), result.gain > 0
(2, 2, True)
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ._frozen import FrozenMap
from .batch import imap_deals
from .checks import check_count, check_seed
from .deal import Deal
from .errors import GameError, PlayerError, PrefsolveError
from .game import DEAL_KINDS, PHASES, GameRecord, Session
from .i18n import N_, _
from .players import make_player, parse_spec
from .players.runner import PlayedDeal, derive_seed, play_deal
from .rules import Rules

#: The four games of a deal: B in every seat, then A in seat 0, 1, 2.
LINEUPS = ("BBB", "ABB", "BAB", "BBA")
#: The phase of a seat whose game never differed from B's.
SAME = "none"
#: Student's t at 97.5% for 1..30 degrees of freedom (the half-width of a 95% interval in standard errors).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def t_975(df: int) -> float:
    """Student's t quantile at 0.975 with ``df`` degrees of freedom (normal with a
    Cornish-Fisher correction beyond 30).

    >>> t_975(1), t_975(30), round(t_975(1000), 3)
    (12.706, 2.042, 1.962)
    """
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df)


@dataclass(frozen=True)
class Stat:
    """A mean over deals with its standard error and 95% interval."""

    n: int
    mean: float
    se: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Stat:
        n = len(values)
        if n == 0:
            return cls(0, 0.0, 0.0)
        mean = statistics.fmean(values)
        se = statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
        return cls(n, mean, se)

    @property
    def interval(self) -> tuple[float, float]:
        half = t_975(self.n - 1) * self.se if self.n > 1 else math.inf
        return self.mean - half, self.mean + half


@dataclass(frozen=True)
class MatchSettings:
    """What a match plays: player ``a`` against player ``b`` (named as
    :func:`prefsolve.players.make_player` reads them), on ``deals`` deals from
    ``seed``, under ``rules``; ``time_limit``: seconds for each decision of a bot."""

    a: str
    b: str
    deals: int
    seed: int = 0
    rules: Rules = field(default_factory=Rules)
    time_limit: float | None = None

    def deal(self, number: int) -> tuple[Deal, tuple, int]:
        """Deal ``number`` (from 1): the cards, the order its talon is turned in all-pass, its seed."""
        seed = derive_seed(self.seed, "deal", number)
        deal = Deal.random(seed)
        assert deal.talon is not None
        turn = tuple(random.Random(derive_seed(seed, "turn")).sample(list(deal.talon), 2))
        return deal, turn, seed

    def tags(self, number: int, lineup: str) -> dict[str, Any]:
        """The tags of one game's record."""
        return {"event": "match", "a": self.a, "b": self.b, "seed": self.seed, "deal": number, "lineup": lineup}


@dataclass(frozen=True)
class DuplicateDeal:
    """One deal of a match: its four games (:data:`LINEUPS`) and what they give."""

    number: int
    records: tuple[GameRecord, ...]
    played: tuple[PlayedDeal, ...] | None = field(default=None, compare=False)
    """The games with their cost (solver calls per move), when played in this run."""

    @property
    def forfeits(self) -> dict[str, int]:
        """Forfeited games by player (``a``, ``b``)."""
        out = {"a": 0, "b": 0}
        for lineup, record in zip(LINEUPS, self.records):
            if record.forfeit is not None:
                out["a" if lineup[record.forfeit.seat] == "A" else "b"] += 1
        return out

    @property
    def counted(self) -> bool:
        """Whether the deal counts in the gain: no game of it was forfeited."""
        return all(r.forfeit is None for r in self.records)

    @property
    def deal_kind(self) -> str | None:
        """The kind of deal the ``B B B`` game was: ``game``, ``misere`` or ``allpass``."""
        return self.records[0].deal_kind()

    def differences(self) -> tuple[float, float, float]:
        """A's result less B's in each seat, in whists."""
        base = self.records[0].balances()
        return tuple(float(self.records[1 + s].balances()[s] - base[s]) for s in range(3))  # type: ignore[return-value]

    @property
    def gain(self) -> float:
        """A's gain on the deal: the mean of :meth:`differences`."""
        return statistics.fmean(self.differences())

    def phases(self) -> tuple[str, str, str]:
        """For each seat, the phase of the first move in which A's game differs from B's."""
        base = self.records[0].moves
        out = []
        for s in range(3):
            moves = self.records[1 + s].moves
            first = next((i for i, (x, y) in enumerate(zip(base, moves)) if x != y), None)
            if first is None:
                first = min(len(base), len(moves)) if len(base) != len(moves) else None
            out.append(SAME if first is None else (moves if first < len(moves) else base)[first].phase)
        return tuple(out)  # type: ignore[return-value]


@dataclass(frozen=True)
class MatchResult:
    """A match's summary: A's gain per deal over B, by phase and kind of deal."""

    settings: MatchSettings
    results: tuple[DuplicateDeal, ...]
    resumed: int = 0
    """Deals read from the records of an earlier run."""

    @property
    def deals(self) -> int:
        return len(self.results)

    @property
    def counted(self) -> tuple[DuplicateDeal, ...]:
        return tuple(r for r in self.results if r.counted)

    def stat(self) -> Stat:
        return Stat.of([r.gain for r in self.counted])

    @property
    def gain(self) -> float:
        return self.stat().mean

    def phase_stats(self) -> dict[str, tuple[int, Stat]]:
        """Each phase: how many seats' games first differed there, and its share of the gain per deal."""
        counted = self.counted
        out = {}
        for phase in (*PHASES, SAME):
            shares, games = [], 0
            for r in counted:
                d, p = r.differences(), r.phases()
                games += p.count(phase)
                shares.append(sum(x for x, q in zip(d, p) if q == phase) / 3)
            out[phase] = (games, Stat.of(shares))
        return out

    def deal_kind_stats(self) -> dict[str, Stat]:
        """Each kind of deal (of the ``B B B`` game): the mean gain on those deals."""
        return {k: Stat.of([r.gain for r in self.counted if r.deal_kind == k]) for k in DEAL_KINDS}

    def cost(self) -> dict[str, dict[str, float]]:
        """Moves decided, solver calls and seconds of each player in the games played in this run."""
        out = {who: {"decisions": 0, "solver_calls": 0, "seconds": 0.0} for who in ("a", "b")}
        for r in self.results:
            for lineup, game in zip(LINEUPS, r.played or ()):
                for move, calls, seconds in zip(game.record.moves, game.solver_calls, game.seconds):
                    if move.forced:
                        continue
                    who = out["a" if lineup[move.by] == "A" else "b"]
                    who["decisions"] += 1
                    who["solver_calls"] += calls
                    who["seconds"] += seconds
        return out

    def forfeits(self) -> dict[str, int]:
        out = {"a": 0, "b": 0}
        for r in self.results:
            for who, n in r.forfeits.items():
                out[who] += n
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``prefsolve match --json`` (docs/JSON.md)."""
        s = self.settings
        stat = self.stat()
        phases = {}
        for phase, (games, st) in self.phase_stats().items():
            phases[phase] = {"games": games, "gain": _round(st.mean), "gain_se": _round(st.se)}
        kinds = {k: {"deals": st.n, "gain": _round(st.mean), "gain_se": _round(st.se)}
                 for k, st in self.deal_kind_stats().items()}
        cost = {}
        for who, c in self.cost().items():
            n = c["decisions"]
            cost[who] = {"decisions": int(n), "solver_calls": int(c["solver_calls"]),
                         "solver_calls_per_decision": _round(c["solver_calls"] / n) if n else None,
                         "seconds_per_decision": _round(c["seconds"] / n, 4) if n else None}
        return {"a": s.a, "b": s.b, "rules": s.rules.label, "seed": s.seed, "deals": self.deals,
                "counted": stat.n, "gain": _round(stat.mean), "gain_se": _round(stat.se),
                "gain_interval": [_round(x) for x in stat.interval] if stat.n > 1 else None,
                "phases": phases, "deal_kinds": kinds, "forfeits": self.forfeits(), "resumed": self.resumed,
                "cost": cost}

    def format(self) -> str:
        """The summary as text, in the active language."""
        s, stat = self.settings, self.stat()
        lo, hi = stat.interval
        gain = _("A's gain: {gain:+.2f} ± {se:.2f} whists a deal", gain=stat.mean, se=stat.se)
        if stat.n > 1:
            gain = _("{gain} (95% interval {low:+.2f} to {high:+.2f})", gain=gain, low=lo, high=hi)
        if stat.n != self.deals:
            gain = _("{gain}, on the {deals} deals without a forfeit", gain=gain, deals=stat.n)
        lines = [_("{a} (A) against {b} (B): {deals} deals in duplicate, seed {seed}, {rules} rules", a=s.a, b=s.b,
                   deals=self.deals, seed=s.seed, rules=s.rules.label), gain]
        phase_head, seats, gain_head = _("phase of the first difference"), _("seats"), _("gain a deal")
        lines.append(f"{phase_head:<31}{seats:>6}{gain_head:>17}")
        for phase, (games, st) in self.phase_stats().items():
            cell = f"{st.mean:+.2f} ± {st.se:.2f}" if phase != SAME else ""
            name = _("(the same game)") if phase == SAME else _(_PHASE_WORDS.get(phase, phase))
            lines.append(f"{name:<31}{games:>6}{cell:>17}")
        kind_head, deals, gain_head = _("deals B B B played as"), _("deals"), _("gain on them")
        lines.append(f"{kind_head:<31}{deals:>6}{gain_head:>17}")
        for kind, st in self.deal_kind_stats().items():
            name = _(_KIND_WORDS[kind])
            lines.append(f"{name:<31}{st.n:>6}{st.mean:>+10.2f} ± {st.se:.2f}")
        f = self.forfeits()
        forfeits = _("forfeits: A {a}, B {b}", a=f["a"], b=f["b"])
        if self.resumed:
            forfeits = _("{forfeits}; resumed from {deals} deals of the records", forfeits=forfeits, deals=self.resumed)
        lines.append(forfeits)
        lines.append(_("(gain: A's result less B's in the same seat of the same deal, the mean of the three seats, "
                       "in whists of one deal settled alone; docs/STRENGTH.md)"))
        return "\n".join(lines)


_KIND_WORDS = {"game": N_("a game"), "misere": N_("misère"), "allpass": N_("all-pass")}
#: The phases of a deal as the summary names them (the JSON keeps the names of docs/VOCABULARY.md).
_PHASE_WORDS = {"bidding": N_("bidding"), "talon": N_("talon"), "whisting": N_("whisting"), "play": N_("play")}


def _round(x: float, digits: int = 3) -> float:
    return round(x, digits)


# -- playing -----------------------------------------------------------------------------
def play_duplicate(settings: MatchSettings, number: int) -> DuplicateDeal:
    """Deal ``number`` of the match, played in its four lineups."""
    deal, turn, seed = settings.deal(number)
    games = []
    players: dict[tuple[str, int], Any] = {}
    try:
        for lineup in LINEUPS:
            seats = []
            for s, who in enumerate(lineup):
                key = (who, s if who == "B" else 0)
                if key not in players:
                    players[key] = make_player(settings.a if who == "A" else settings.b,
                                               time_limit=settings.time_limit)
                seats.append(players[key])
            games.append(play_deal(deal, seats, rules=settings.rules, seed=seed, turn=turn))
    finally:
        for p in players.values():
            p.close()
    return DuplicateDeal(number, tuple(g.record for g in games), tuple(games))


def _work(settings: MatchSettings, number: int, solver: object) -> DuplicateDeal:
    return play_duplicate(settings, number)


def play_match(a: str, b: str, *, deals: int, seed: int = 0, rules: Rules | str | None = None,
               time_limit: float | None = None, jobs: int | None = None, scheduler: object = None,
               done: Sequence[DuplicateDeal] = (), progress: Callable[[int], None] | None = None,
               on_deal: Callable[[DuplicateDeal], None] | None = None) -> MatchResult:
    """Play ``a`` against ``b`` on ``deals`` deals in duplicate (see the module's text).

    ``jobs`` threads of this process, or a Dask ``scheduler`` (as every batch
    runs, :mod:`prefsolve.batch`), play the deals; ``done``: the deals already
    played (:func:`read_records`), which the match goes on from; ``on_deal``
    is called with each deal played, in order (to write its records);
    ``progress`` with 1 for each.
    """
    settings = match_settings(a, b, deals=deals, seed=seed, rules=rules, time_limit=time_limit)
    done = tuple(done)
    if len(done) > deals:
        raise PrefsolveError(_("the records hold {held} deals, more than the {deals} of the match", held=len(done),
                               deals=deals))
    results = list(done)
    todo = range(len(done) + 1, deals + 1)
    for result in imap_deals(todo, partial(_work, settings), jobs=jobs, progress=progress, scheduler=scheduler):
        results.append(result)
        if on_deal is not None:
            on_deal(result)
    return MatchResult(settings, tuple(results), len(done))


def match_settings(a: str, b: str, *, deals: int, seed: int = 0, rules: Rules | str | None = None,
                   time_limit: float | None = None) -> MatchSettings:
    """The settings of a match, each checked (a player's name and options too)."""
    for spec in (a, b):
        parse_spec(spec)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit < math.inf):
        raise PlayerError(_("the time limit is a number of seconds above 0, got {value}", value=repr(time_limit)))
    return MatchSettings(a.strip(), b.strip(), check_count(deals, "deals", 1), check_seed(seed) or 0,
                         Rules.of(rules).replace(players=3), time_limit)


# -- records -------------------------------------------------------------------------------
def record_lines(settings: MatchSettings, result: DuplicateDeal) -> list[str]:
    """The JSON lines of a deal's four games: each a one-deal session (docs/GAME_FORMAT.md)."""
    out = []
    for lineup, record in zip(LINEUPS, result.records):
        names = tuple(f"{who}{s}" for s, who in enumerate(lineup))
        session = Session(names, settings.rules, (record,), FrozenMap(settings.tags(result.number, lineup)))
        out.append(json.dumps(session.to_dict(), ensure_ascii=False))
    return out


def read_records(lines: Iterable[str], settings: MatchSettings) -> Iterator[DuplicateDeal]:
    """The deals a match's records hold, each checked: the same match (players, seed,
    rules), the deals in order, the cards of each deal, every move legal. A last
    deal with fewer than four games is left out (played again on resume)."""
    games: list[GameRecord] = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        number, lineup = len(games) // 4 + 1, LINEUPS[len(games) % 4]
        try:
            session = Session.from_dict(json.loads(line))
        except ValueError as exc:
            if isinstance(exc, PrefsolveError):
                raise GameError(_("record {number}: {message}", number=i, message=exc)) from None
            raise GameError(_("record {number} is not JSON: {reason}", number=i, reason=exc)) from None
        want = settings.tags(number, lineup)
        if dict(session.tags) != want or session.rules != settings.rules:
            raise GameError(_("record {number} is {tags} under {rules} rules, but this match's game {game} of deal "
                              "{deal} is {wanted} under {match_rules}: resume with the first run's players, seed and "
                              "rules, or write to a new file", number=i, tags=dict(session.tags),
                              rules=session.rules.label, game=len(games) % 4 + 1, deal=number, wanted=want,
                              match_rules=settings.rules.label))
        record = session.records[0] if len(session.records) == 1 else None
        deal = settings.deal(number)
        if record is None or record.deal != deal[0]:
            raise GameError(_("record {number} does not hold deal {deal} of this match ({cards})", number=i,
                              deal=number, cards=deal[0]))
        games.append(record)
        if len(games) % 4 == 0:
            yield DuplicateDeal(number, tuple(games[-4:]))


__all__ = ["LINEUPS", "MatchSettings", "DuplicateDeal", "MatchResult", "Stat", "play_match", "play_duplicate",
           "match_settings", "record_lines", "read_records", "t_975"]
