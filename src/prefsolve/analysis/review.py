"""A game reviewed: every decision of a record priced against the advice.

A record (docs/GAME_FORMAT.md) holds every move of a deal. Each move with a
choice — a call, the discard and declaration, a whist call, the open or closed
defence, a card — is replayed to the point it was made, the seat's view of it
is taken (:func:`~prefsolve.players.base.seat_view`: its own cards, the calls,
what lies face up, the cards played) and the advisor's analysis of that view
(:meth:`~prefsolve.players.advisor.Advisor.analysis`) values every option in
the seat's expected whists. The **cost** of the move made is the expected whists
of the best option less those of the move (never negative: the best option is
the one of highest expectation), with the standard error of that difference:

* a call: the bid analysis's contracts, a bid or hold of X worth the best contract
  its winner may declare after X (as :func:`~prefsolve.analysis.bid.recommend`
  counts it), a pass 0; paired layout by layout;
* the declaration: the talon analysis's (discard, contract) pairs, the made pair
  played on the same layouts when the analysis did not keep it, a concession
  «без трёх» at its exact price;
* a whist call: the whist analysis's calls, paired layout by layout;
* a card: the play advice's layouts, each card's tricks priced in whists for the
  seat that chose it; and, exactly, the tricks it lost double-dummy as
  :meth:`prefsolve.Position.mistakes` gives them.

The open or closed defence, and the contracts the analyses do not sample (games
without talon), are decided by the advisor's rule and not priced (``cost`` None).
A cost is marked by :data:`THRESHOLDS` (``inaccuracy``, ``mistake``,
``blunder``); the review sums the costs per player and phase (docs/REVIEW.md).

>>> [(m, THRESHOLDS[m]) for m in MARKS]
[('inaccuracy', 1.0), ('mistake', 3.0), ('blunder', 8.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from ..auction import BID, HOLD
from ..cards import Card, Cards, Hand
from ..checks import check_count, check_seed
from ..contract import Contract
from ..errors import GameError, PrefsolveError, ScoringError
from ..game import (
    CALL,
    CARD,
    DECLARATION,
    KINDS,
    PHASES,
    WHIST_CALL,
    DealState,
    Declaration,
    GameRecord,
    Move,
    Session,
    decision_json,
    json_documents,
    kind_word,
)
from ..i18n import N_, _, english, get_language, message_of, ngettext
from ..play import Position
from ..rules import Rules
from ..strains import ALLPASS

# numpy is imported where it is used (see sampling.py).
if TYPE_CHECKING:
    import numpy as np

#: The layouts each decision samples unless told otherwise (the advisor's default).
DEFAULT_SAMPLES = 50
#: The marks of a decision, mildest first.
MARKS = ("inaccuracy", "mistake", "blunder")
#: The least cost in whists of each mark (docs/REVIEW.md says why these).
THRESHOLDS: Mapping[str, float] = {"inaccuracy": 1.0, "mistake": 3.0, "blunder": 8.0}
#: The model of the review in words, in English (the JSON's ``model``).
MODEL = N_("each decision is valued from what the deciding seat saw, by the advisor's analysis of its view (the "
           "unseen cards sampled as the auction shows them, every layout played double-dummy); cost: the expected "
           "whists of the best option less those of the decision made, one deal settled alone; a card's "
           "double-dummy cost: the tricks it lost with every card seen")
# The whist calls and defences as the text says them (the JSON keeps the English words).
_WORDS = {"whist": N_("whist"), "pass": N_("pass"), "half": N_("half"), "open": N_("open"), "closed": N_("closed")}
_MARK_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}


def mark_of(cost: float | None) -> str | None:
    """The mark of a cost in whists: the most severe threshold it reaches, else None.

    >>> mark_of(0.4), mark_of(1.0), mark_of(5.2), mark_of(12), mark_of(None)
    (None, 'inaccuracy', 'mistake', 'blunder', None)
    """
    if cost is None:
        return None
    found = None
    for mark in MARKS:
        if cost >= THRESHOLDS[mark]:
            found = mark
    return found


# -- results -------------------------------------------------------------------------
@dataclass(frozen=True)
class OptionValue:
    """One option of a decision: its expected whists for the deciding seat, ± se."""

    decision: object
    """The option as a move's JSON has it: text (``6S``, ``pass``, ``SA``) or a declaration's object."""
    expected: float
    expected_se: float

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "expected": round(self.expected, 3),
                "expected_se": round(self.expected_se, 3)}


@dataclass(frozen=True)
class DecisionReview:
    """One decision of a deal priced: what was done, what the advice prefers, what it cost."""

    deal: int
    """The deal's number in the reviewed file (from 1)."""
    move: int
    """The move's number in the deal (from 1), as the record's moves count it."""
    kind: str
    seat: int
    """The deal's seat the move is for (0 = first hand)."""
    by: int
    """The seat that decided it (the lone whister plays his partner's cards in an open defence)."""
    player: str
    """The name of the player who decided it."""
    decision: object
    """The move made, as the record's JSON has it."""
    best: object
    """The option the advice prefers (the highest expected whists; the rule where none is priced)."""
    cost: float | None
    """Expected whists lost from what the seat could see (None: not priced)."""
    cost_se: float | None
    tricks_cost: float | None = None
    """A card: expected tricks its side lost against ``best``, from what the seat could see."""
    tricks_cost_se: float | None = None
    dd_cost: int | None = None
    """A card: the tricks it lost double-dummy (:meth:`prefsolve.Position.mistakes`)."""
    dd_best: tuple[str, ...] | None = None
    """A card: the best cards double-dummy."""
    options: tuple[OptionValue, ...] = ()
    """The options priced, best first."""
    samples: int | None = None
    """The layouts the options were valued on."""
    dd_value: int | None = None
    """A card: the counted seat's total tricks with perfect play after it (the declarer's; in
    all-pass the player's own): the evaluation of the deal, double-dummy, as the play goes."""
    note: str | None = None
    """Why the decision is not priced, where its analysis could not be made (the layouts it
    draws cannot fit what the seat saw); in the active language, in English in the JSON."""

    @property
    def phase(self) -> str:
        from ..game import PHASE_OF

        return PHASE_OF[self.kind]

    @property
    def mark(self) -> str | None:
        return mark_of(self.cost)

    @property
    def priced(self) -> bool:
        return self.cost is not None

    @property
    def is_best(self) -> bool:
        """Whether the move made is the best option (cost 0)."""
        return self.cost == 0

    def to_dict(self) -> dict[str, Any]:
        return {"deal": self.deal, "move": self.move, "phase": self.phase, "kind": self.kind, "seat": self.seat,
                "by": self.by, "player": self.player, "decision": self.decision, "best": self.best,
                "cost": _r(self.cost), "cost_se": _r(self.cost_se), "mark": self.mark,
                "tricks_cost": _r(self.tricks_cost), "tricks_cost_se": _r(self.tricks_cost_se),
                "dd_cost": self.dd_cost, "dd_best": None if self.dd_best is None else list(self.dd_best),
                "samples": self.samples, "options": [o.to_dict() for o in self.options], "note": english(self.note),
                "dd_value": self.dd_value}


@dataclass(frozen=True)
class DealReview:
    """One deal reviewed: its decisions in order, with the deal's facts."""

    number: int
    """The deal's number in the reviewed file (from 1)."""
    deal: str
    players: tuple[str, ...]
    """The players of seats 0, 1, 2 of the deal (first hand first)."""
    kind: str | None
    """``game``, ``misere``, ``allpass`` (None: forfeited in the auction)."""
    contract: str | None
    declarer: int | None
    balances: tuple[float, ...] | None
    """Each seat's result in whists, the deal settled alone (None: forfeited)."""
    decisions: tuple[DecisionReview, ...]
    solver_calls: int = 0
    """Searches of the native core the review of this deal started."""
    tags: tuple[tuple[str, Any], ...] = ()
    """The session's tags (a match's lineup, …)."""

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "deal": self.deal, "players": list(self.players), "kind": self.kind,
                "contract": self.contract, "declarer": self.declarer,
                "balances": None if self.balances is None else [_r(b) for b in self.balances],
                "tags": dict(self.tags), "solver_calls": self.solver_calls,
                "decisions": [d.to_dict() for d in self.decisions]}


@dataclass(frozen=True)
class PlayerSummary:
    """One player over the reviewed deals: the whists lost by phase, the share of decisions that were best."""

    player: str
    decisions: int
    """Decisions priced."""
    best: int
    """Of them, those that were the best option."""
    cost: float
    """Expected whists lost in all."""
    cost_se: float
    """Its standard error (the decisions' errors taken as independent)."""
    phases: tuple[tuple[str, float], ...]
    """Whists lost in each phase (``bidding``, ``talon``, ``whisting``, ``play``); they add up to ``cost``."""
    marks: tuple[tuple[str, int], ...]
    """How many decisions got each mark."""
    cards: int = 0
    """Cards reviewed double-dummy."""
    dd_tricks: int = 0
    """Tricks lost double-dummy by its cards."""
    unpriced: int = 0
    """Decisions a rule decides, not priced."""

    @property
    def best_share(self) -> float | None:
        return self.best / self.decisions if self.decisions else None

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "decisions": self.decisions, "best": self.best,
                "best_share": _r(self.best_share, 4), "cost": _r(self.cost), "cost_se": _r(self.cost_se),
                "phases": {p: _r(c) for p, c in self.phases}, "marks": dict(self.marks),
                "cards": self.cards, "dd_tricks": self.dd_tricks, "unpriced": self.unpriced}


@dataclass(frozen=True)
class ReviewSettings:
    """How a review prices the decisions."""

    samples: int = DEFAULT_SAMPLES
    """Layouts each decision's analysis samples."""
    seed: int = 0
    """Mixed into every decision's seed: the same seed gives the same review."""
    tolerance: float | None = None
    """The auction model's tolerance in tricks (None: its default)."""
    auction: bool = True
    """The unseen hands conditioned on the calls (the advisor's ``auction``)."""

    def __post_init__(self) -> None:
        check_count(self.samples, "samples", 1)
        check_seed(self.seed)

    def to_dict(self) -> dict[str, Any]:
        return {"samples": self.samples, "seed": self.seed, "tolerance": self.tolerance, "auction": self.auction}


@dataclass(frozen=True)
class Review:
    """The review of a file of games: each deal's decisions and each player's summary."""

    settings: ReviewSettings
    deals: tuple[DealReview, ...]
    player: str | None = None
    """The one player whose decisions were reviewed (None: everyone's)."""

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        return tuple(d for deal in self.deals for d in deal.decisions)

    @property
    def solver_calls(self) -> int:
        return sum(d.solver_calls for d in self.deals)

    def summary(self) -> tuple[PlayerSummary, ...]:
        """Each player's summary, in the order they first decide."""
        return summarize(self.decisions)

    def to_dict(self) -> dict[str, Any]:
        return {"settings": self.settings.to_dict(), "player": self.player,
                "thresholds": dict(THRESHOLDS), "model": MODEL, "solver_calls": self.solver_calls,
                "deals": [d.to_dict() for d in self.deals],
                "summary": [s.to_dict() for s in self.summary()]}

    def format(self) -> str:
        """The review as text, in the active language."""
        return format_review(self)


def _r(x: float | None, digits: int = 3) -> float | None:
    return None if x is None else round(float(x), digits)


def summarize(decisions: Iterable[DecisionReview]) -> tuple[PlayerSummary, ...]:
    """Each player's summary of ``decisions``, in the order the players first decide."""
    by_player: dict[str, list[DecisionReview]] = {}
    for d in decisions:
        by_player.setdefault(d.player, []).append(d)
    out = []
    for player, ds in by_player.items():
        priced = [d for d in ds if d.cost is not None]
        phases = {p: 0.0 for p in PHASES}
        for d in priced:
            phases[d.phase] += d.cost or 0.0
        marks = {m: sum(1 for d in priced if d.mark == m) for m in MARKS}
        dd = [d.dd_cost for d in ds if d.dd_cost is not None]
        out.append(PlayerSummary(player, len(priced), sum(1 for d in priced if d.is_best),
                                 sum(d.cost or 0.0 for d in priced),
                                 sum((d.cost_se or 0.0) ** 2 for d in priced) ** 0.5,
                                 tuple(phases.items()), tuple(marks.items()), len(dd), sum(dd),
                                 len(ds) - len(priced)))
    return tuple(out)


# -- reading the games ---------------------------------------------------------------
def read_games(text: str) -> tuple[Session, ...]:
    """The sessions of a game file's text: one JSON object (a session, docs/GAME_FORMAT.md),
    or JSON lines, each a session of its own (as ``prefsolve match --records`` writes them,
    one game a line). Each deal must give its cards and moves. Raises
    :class:`~prefsolve.errors.GameError` naming the line, the deal and the move of bad input."""
    documents = json_documents(text, lambda exc: GameError(_("not a game record: {reason}", reason=exc)))
    if documents[0][0] is None:
        return (_session(documents[0][1]),)
    out = []
    for number, data in documents:
        try:
            out.append(_session(data))
        except PrefsolveError as e:
            raise GameError(_("line {number}: {message}", number=number, message=e)) from None
    return tuple(out)


def _session(data: object) -> Session:
    if not isinstance(data, Mapping) or "deals" not in data:
        raise GameError(_("not a game record: a session object with \"players\" and \"deals\" "
                          "(docs/GAME_FORMAT.md) is expected"))
    try:
        session = Session.from_dict(data)
    except ScoringError as exc:
        raise GameError(str(exc)) from None
    for i, record in enumerate(session.records, 1):
        if record.deal is None:
            raise GameError(_("deal {number} holds only its result, not its cards and moves: nothing to review",
                              number=i))
        if len(session.players) != 3:
            raise GameError(_("a deal with its cards and moves is recorded for three players"))
    if not session.records:
        raise GameError(_("the game file holds no deal to review"))
    return session


@dataclass(frozen=True)
class _Item:
    """One deal to review: its number in the file, the players of its seats, the record, the tags."""

    number: int
    players: tuple[str, ...]
    record: GameRecord
    tags: tuple[tuple[str, Any], ...]


def _items(sessions: Sequence[Session], player: str | None) -> list[_Item]:
    items: list[_Item] = []
    names: set[str] = set()
    for session in sessions:
        names.update(session.players)
        for record in session.records:
            seats = tuple(session.players[record.seat_of(s)] for s in range(3))
            items.append(_Item(len(items) + 1, seats, record, tuple(session.tags.items())))
    if player is not None and player not in names:
        raise GameError(_("unknown player {name} (players: {players})", name=repr(player),
                          players=", ".join(sorted(names))))
    return items


# -- pricing one deal ----------------------------------------------------------------
def review_record(record: GameRecord, *, players: Sequence[str] = ("0", "1", "2"), number: int = 1,
                  settings: ReviewSettings = ReviewSettings(), player: str | None = None,
                  solver: Any = None) -> DealReview:
    """The review of one deal played: every decision of ``record`` (a player's only,
    with ``player``, one of ``players``: the names of seats 0, 1, 2) priced from what
    its seat saw. ``number`` numbers the deal in its file and enters every seed."""
    if record.deal is None:
        raise GameError(_("this record holds only the result of the deal, not its cards and moves"))
    names = tuple(str(p) for p in players)
    if len(names) != 3:
        raise GameError(_("a deal with its cards and moves is recorded for three players"))
    if player is not None and player not in names:
        raise GameError(_("unknown player {name} (players: {players})", name=repr(player), players=", ".join(names)))
    return _review(record, names, number, settings, player, solver)


def _review(record: GameRecord, names: tuple[str, ...], number: int, settings: ReviewSettings, player: str | None,
            solver: Any) -> DealReview:
    """:func:`review_record` with its arguments checked (``player`` may sit elsewhere: then no decision is his)."""
    from ..engine import solver_calls
    from ..players.advisor import Advisor

    assert record.deal is not None
    before = solver_calls()
    advisor = Advisor(samples=settings.samples, tolerance=settings.tolerance, auction=settings.auction, agreed=0)
    dd = _double_dummy(record, solver)
    out = []
    card_index = 0
    for state, move in record.replay():
        if move.kind == CARD:
            card_index += 1
        if move.forced or (player is not None and names[move.by] != player):
            continue
        seed = _seed(settings.seed, number, move.number)
        out.append(_priced(advisor, state, move, names, number, seed,
                           dd.get(card_index) if move.kind == CARD else None))
    final = record.state()
    balances = None
    if record.outcome is not None:
        balances = tuple(float(b) for b in final.balances())
    contract = final.contract
    return DealReview(number, str(record.deal), names, record.deal_kind(),
                      None if contract is None else str(contract), final.declarer, balances,
                      tuple(out), solver_calls() - before)


def _seed(seed: int, number: int, move: int) -> int:
    from ..players.runner import derive_seed

    return derive_seed(seed, "review", number, "move", move)


def _double_dummy(record: GameRecord, solver: Any) -> dict[int, tuple[int, tuple[str, ...], int]]:
    """Each card of the play (numbered from 1) → the tricks it lost double-dummy and the best cards,
    by :meth:`prefsolve.Position.mistakes`, and the counted seat's total tricks with perfect play
    after it; in all-pass each seat's own tricks are counted."""
    state = record.state()
    pos = state.position
    if pos is None:
        return {}
    positions = [pos]
    if pos.strain == ALLPASS:
        positions = [Position(pos.deal, strain=ALLPASS, seat=s, talon_mode=pos.talon_mode,
                              turn=pos.turn if pos.turn else None, played=pos.played, solver=solver)
                     for s in range(3)]
    lost: dict[int, tuple[int, tuple[str, ...]]] = {}
    for p in positions:
        for m in p.mistakes():
            lost[m.move] = (m.cost, tuple(m.best_cards.to_list()))
    walks = [Position(p.deal, p.declarer, strain=p.strain, seat=p.seat, leader=p.leader, talon_mode=p.talon_mode,
                      discard=p.discard, turn=p.turn if p.turn else None, solver=solver) for p in positions]
    out = {}
    for k, card in enumerate(pos.played, 1):
        seat = walks[0].to_move
        assert seat is not None
        for w in walks:
            w.push(card)
        # Mistakes name only the costly cards; a card that lost nothing is among the best ones.
        cost, best = lost.get(k, (0, (str(card),)))
        out[k] = (cost, best, walks[seat if len(walks) == 3 else 0].value())
    return out


def _priced(advisor: Any, state: DealState, move: Move, names: tuple[str, ...], number: int, seed: int,
            dd: tuple[int, tuple[str, ...], int] | None) -> DecisionReview:
    from ..players.base import seat_view

    view = seat_view(state, move.by, seed=seed)
    made = decision_json(move.kind, move.decision)
    head: dict[str, Any] = dict(deal=number, move=move.number, kind=move.kind, seat=move.seat, by=move.by,
                                player=names[move.by], decision=made)
    try:
        analysis = advisor.analysis(view)
    except PrefsolveError as exc:    # no layout fits what the seat saw: the decision is left unpriced, and why
        return DecisionReview(**head, best=None, cost=None, cost_se=None, note=message_of(exc),
                              dd_cost=None if dd is None else dd[0], dd_best=None if dd is None else dd[1],
                              dd_value=None if dd is None else dd[2])
    if analysis is None:        # a rule decides: the defence, a game without talon
        best = decision_json(move.kind, advisor.decide(view))
        return DecisionReview(**head, best=best, cost=None, cost_se=None)
    try:
        if move.kind == CALL:
            options, samples = _call_values(view, analysis), analysis.samples
        elif move.kind == DECLARATION:
            options, samples = _declaration_values(view, analysis, move.decision), analysis.samples
            # The analysis keeps one discard of each class of equivalent ones: the move made stands for its class.
            key = _declaration_key(view, move.decision)
            options = [(made if d == key else d, v) for d, v in options]
        elif move.kind == WHIST_CALL:
            options, samples = _whist_values(view, analysis), analysis.samples
        else:
            return _card_review(head, view, analysis, move, dd)
        review = _from_options(head, options, made, samples)
        return _paired_declaration(review, view, analysis) if move.kind == DECLARATION else review
    except PrefsolveError as exc:    # a move the analysis has no value for (a bid it does not sample)
        return DecisionReview(**head, best=None, cost=None, cost_se=None, note=message_of(exc))


def _from_options(head: dict, options: list[tuple[object, Any]], made: object, samples: int) -> DecisionReview:
    """The decision priced from its options' per-layout whists (paired) or (mean, se) pairs."""
    import numpy as np

    from .stats import mean_se

    values = []
    for decision, v in options:
        mean, se = (v if isinstance(v, tuple) else mean_se(np.asarray(v, dtype=float)))
        values.append((decision, float(mean), float(se), v))
    # The best option, the move made first among equals: a move as good as the best costs nothing.
    values.sort(key=lambda x: (-x[1], x[0] != made))
    best = values[0]
    mine = next((x for x in values if x[0] == made), None)
    if mine is None:
        raise GameError(_("the move {decision} is not among the options priced", decision=made))
    cost, cost_se = _difference(best, mine)
    ordered = tuple(OptionValue(d, m, s) for d, m, s, _v in values)
    return DecisionReview(**head, best=best[0], cost=cost, cost_se=cost_se, options=ordered, samples=samples)


def _difference(best: tuple, mine: tuple) -> tuple[float, float]:
    """The best option's expectation less the move's, with the difference's standard error:
    paired layout by layout where both give their per-layout values, else √(se₁² + se₂²)."""
    import numpy as np

    from .stats import mean_se

    if best[0] == mine[0]:
        return 0.0, 0.0
    a, b = best[3], mine[3]
    if not isinstance(a, tuple) and not isinstance(b, tuple):
        mean, se = mean_se(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))
        return max(float(mean), 0.0), float(se)
    return max(best[1] - mine[1], 0.0), (best[2] ** 2 + mine[2] ** 2) ** 0.5


def _call_values(view: Any, analysis: Any) -> list[tuple[object, Any]]:
    """Each legal call → the seat's per-layout whists: a pass 0 (as the bid analysis counts it),
    a bid or hold of X the contract of highest expectation its winner may declare after X."""
    import numpy as np

    from ..strains import STRAINS
    from ._common import allowed_contracts
    from .defence import declarer_scores

    tricks = np.asarray(analysis.tricks, dtype=np.int64)
    rules = view.rules
    scores = {}
    for s in analysis.contracts:
        scores[s.contract] = declarer_scores(s.contract, tricks[:, STRAINS.index(s.contract.strain)],
                                             analysis.defence, rules)
    out: list[tuple[object, Any]] = []
    for option in view.options:
        if option.kind in (BID, HOLD) and option.contract is not None:
            allowed = [c for c in allowed_contracts(option.contract, rules) if c in scores]
            if not allowed:
                continue
            best = max(allowed, key=lambda c: float(scores[c].mean()))
            out.append((decision_json(CALL, option), scores[best]))
        else:
            out.append((decision_json(CALL, option), np.zeros(len(tricks))))
    return out


def _declaration_values(view: Any, analysis: Any, made: Any) -> list[tuple[object, Any]]:
    """Each (discard, contract) the talon analysis kept → (expected, se); the move made too
    (its discard played on the analysis's layouts when not kept), and the concession."""
    from ..players.advisor import _concession_value
    from .talon import canonical_discard

    hand12 = view.hand
    out: list[tuple[object, Any]] = []
    for o in analysis.options:
        d = Declaration(o.stats.contract, Cards(o.discard))
        out.append((_canonical(d, hand12), (o.stats.expected, o.stats.expected_se)))
    if view.can_concede:
        out.append((decision_json(DECLARATION, Declaration(view.options[0], None, True)),
                    (_concession_value(view), 0.0)))
    key = _declaration_key(view, made)
    if all(k != key for k, _v in out):
        assert made.discard is not None
        out.append((key, _discard_value(view, analysis, canonical_discard(made.discard, hand12), made.contract)))
    return out


def _declaration_key(view: Any, made: Any) -> object:
    """The option of the talon analysis that stands for the declaration made."""
    assert isinstance(made, Declaration)
    if made.conceded:
        return decision_json(DECLARATION, Declaration(view.options[0], None, True))
    return _canonical(made, view.hand)


def _canonical(d: Declaration, hand12: Hand) -> object:
    from .talon import canonical_discard

    disc = None if d.discard is None else canonical_discard(d.discard, hand12)
    return decision_json(DECLARATION, Declaration(d.contract, disc, d.conceded))


def _discard_value(view: Any, analysis: Any, discard: Cards, contract: Contract) -> tuple[float, float]:
    """The expected whists ± se of ``discard`` and ``contract`` on the talon analysis's layouts."""
    from .stats import mean_se

    mean, se = mean_se(_discard_scores(view, analysis, discard, contract))
    return float(mean), float(se)


def _discard_scores(view: Any, analysis: Any, discard: Cards, contract: Contract) -> np.ndarray:
    """The declarer's whists in each layout of the talon analysis (the same layouts, drawn again
    from its seeded sampling) with ``discard`` put away and ``contract`` declared."""
    import numpy as np

    from ..deal import Deal
    from ..solver import solve
    from .defence import declarer_scores
    from .sampling import start

    hand12 = view.hand
    seat = view.seat
    _sampling, sampler = start(analysis.sampling, hand12, seat, (0, 1, 2), talon=False, sizes={seat: 12})
    kept = Hand(hand12.mask & ~discard.mask)
    tricks = []
    for row in sampler.draw_masks(analysis.samples):
        hands = [Hand(m) for m in row]
        hands[seat] = kept
        tricks.append(solve(Deal(hands), seat, strain=contract.strain, leader=analysis.leader,
                            talon_mode="ignore").tricks)
    return declarer_scores(contract, np.asarray(tricks), analysis.defence, view.rules)


def _paired_declaration(review: DecisionReview, view: Any, analysis: Any) -> DecisionReview:
    """The declaration's cost with the standard error of the difference layout by layout: the
    best (discard, contract) and the one made played again on the analysis's layouts (the talon
    analysis keeps only its means). A concession's price is exact: nothing to pair."""
    from dataclasses import replace

    from .stats import mean_se

    best, made = review.best, review.decision
    if not review.cost or not isinstance(best, Mapping) or not isinstance(made, Mapping):
        return review
    if best["conceded"] or made["conceded"]:
        return review
    a, b = Declaration.from_dict(best), Declaration.from_dict(made)
    assert a.discard is not None and b.discard is not None
    diff = _discard_scores(view, analysis, a.discard, a.contract) - _discard_scores(view, analysis, b.discard,
                                                                                    b.contract)
    cost, cost_se = mean_se(diff)
    return replace(review, cost=max(float(cost), 0.0), cost_se=float(cost_se))


def _whist_values(view: Any, analysis: Any) -> list[tuple[object, Any]]:
    """Each whist call → the defender's per-layout whists, from the analysis's tricks (paired)."""
    import numpy as np

    from .defence import balance_row
    from .whist import CALL_NAMES, whist_options

    c = analysis.contract
    first = analysis.first_defender
    rules = view.rules
    tricks = np.repeat(np.arange(len(analysis.tricks_histogram)), analysis.tricks_histogram)
    words = {name: word for word, name in CALL_NAMES.items()}
    out: list[tuple[object, Any]] = []
    for call, calls in whist_options(c, first, analysis.partner, rules).items():
        word = words.get(CALL_NAMES[call], call)
        if word not in view.options:
            continue
        row = np.asarray(balance_row(c, calls, rules, calls.count("whist") == 1, 1 if first else 2))
        out.append((word, row[tricks]))
    return out


def _seat_whists(view: Any, state_whist: Sequence[str], who: int) -> tuple[float, ...]:
    """The deciding seat's whists for each total 0..10 of the counted seat's tricks."""
    from .defence import balance_row

    rules = view.rules
    if view.all_pass:
        return _allpass_row(rules, view.allpass_count)
    c = view.contract
    calls = () if c.is_misere else tuple(state_whist)
    return balance_row(c, calls, rules, view.defence != "closed", who)


def _allpass_row(rules: Rules, allpass_count: int) -> tuple[float, ...]:
    """A seat's whists in all-pass for 0..10 own tricks, the others sharing the rest evenly."""
    from ..scoring import AllPassDeal, score_deal, settle

    row = []
    for t in range(11):
        rest = 10 - t
        s = score_deal(AllPassDeal((t, (rest + 1) // 2, rest // 2)), rules, 3, allpass_count)
        row.append(float(Fraction(settle(s.pool, s.mountain, s.whists, rules)[0])))
    return tuple(row)


def _card_review(head: dict, view: Any, advice: Any, move: Move, dd: tuple[int, tuple[str, ...], int] | None
                 ) -> DecisionReview:
    """A card priced from the advice's layouts: tricks and whists, paired, for the seat that chose it."""
    import numpy as np

    from .stats import mean_se

    if view.all_pass:
        who, sign = 0, -1           # fewer own tricks are better
    else:
        declarer = view.declarer
        who = 0 if move.by == declarer else 1 if move.by == (declarer + 1) % 3 else 2
        side_declarer = move.seat == declarer
        sign = 1 if side_declarer != view.contract.is_misere else -1
    row = np.asarray(_seat_whists(view, view.whist_calls, who))
    rows = {str(card): np.asarray(v, dtype=np.int64) for card, v in advice.values}
    options: list[tuple[object, Any]] = [(card, row[t]) for card, t in rows.items()]
    made = str(move.decision)
    review = _from_options(head, options, made, advice.samples)
    best = str(review.best)
    diff = sign * (rows[best] - rows[made])
    t_mean, t_se = mean_se(diff.astype(float))
    if best == made:
        t_mean, t_se = 0.0, 0.0
    return DecisionReview(**{**head, "best": review.best, "cost": review.cost, "cost_se": review.cost_se,
                             "options": review.options, "samples": review.samples},
                          tricks_cost=float(t_mean), tricks_cost_se=float(t_se),
                          dd_cost=None if dd is None else dd[0], dd_best=None if dd is None else dd[1],
                          dd_value=None if dd is None else dd[2])


# -- a whole file --------------------------------------------------------------------
def _work(settings: ReviewSettings, player: str | None, item: _Item, solver: Any) -> DealReview:
    from dataclasses import replace

    review = _review(item.record, item.players, item.number, settings, player, solver)
    return replace(review, tags=item.tags)


def review_games(sessions: Session | Sequence[Session], *, settings: ReviewSettings = ReviewSettings(),
                 player: str | None = None, jobs: int | None = None, scheduler: object = None,
                 progress: Callable[[int], None] | None = None,
                 on_deal: Callable[[DealReview], None] | None = None) -> Review:
    """Every deal of ``sessions`` reviewed (see the module's text), on ``jobs`` threads of this
    process or a Dask ``scheduler``, as a match plays its deals (:func:`prefsolve.batch.imap_deals`).
    ``player``: review only that player's decisions; ``progress`` is called with 1 for each
    deal, ``on_deal`` with each deal's review in order. The same ``settings`` give the same
    review whatever the jobs."""
    from ..batch import imap_deals

    if isinstance(sessions, Session):
        sessions = (sessions,)
    items = _items(sessions, player)
    deals = []
    for review in imap_deals(items, partial(_work, settings, player), jobs=jobs, progress=progress,
                             scheduler=scheduler):
        deals.append(review)
        if on_deal is not None:
            on_deal(review)
    return Review(settings, tuple(deals), player)


# -- text -----------------------------------------------------------------------------
def mark_word(mark: str | None) -> str:
    """A mark in the active language ("" for none)."""
    return "" if mark is None else _(_MARK_WORDS[mark])


def _decision_text(kind: str, decision: object) -> str:
    lang = get_language()
    if kind == CARD:
        return Card.parse(str(decision)).format(lang)
    if kind == DECLARATION and isinstance(decision, Mapping):
        d = Declaration.from_dict(decision)
        if d.conceded:
            return _("{contract} conceded", contract=d.contract.format(lang))
        text = d.contract.format(lang)
        if d.discard is not None:
            text = _("{contract}, discard {discard}", contract=text, discard=d.discard.format(lang))
        return text
    if kind == CALL:
        from ..auction import Call

        call = Call.parse(str(decision))
        return _("pass") if call.contract is None else call.contract.format(lang)
    return _(_WORDS.get(str(decision), str(decision)))


def format_decision(d: DecisionReview) -> str:
    """One line of a decision: the move, the cost, the mark, the best option."""
    width = max(len(kind_word(k)) for k in KINDS)
    what = f"{d.move:>3} {kind_word(d.kind):<{width}} {d.player:<8} {_decision_text(d.kind, d.decision)}: "
    if d.note is not None:
        return what + _("not priced: {reason}", reason=d.note)
    if d.cost is None:
        return what + _("by rule (not priced); advice: {best}", best=_decision_text(d.kind, d.best))
    if d.cost == 0:
        line = what + _("best")
    else:
        line = what + _("cost {cost:.2f} ± {se:.2f} whists; best {best}", cost=d.cost, se=d.cost_se or 0.0,
                        best=_decision_text(d.kind, d.best))
    if d.tricks_cost is not None and d.cost:
        line += " " + _("(tricks lost {tricks:.2f} ± {se:.2f})", tricks=d.tricks_cost, se=d.tricks_cost_se or 0.0)
    if d.dd_cost:
        line += " " + ngettext("[double-dummy: lost {n} trick; best {best}]",
                               "[double-dummy: lost {n} tricks; best {best}]", d.dd_cost, n=d.dd_cost,
                               best=" ".join(Card.parse(c).format(get_language()) for c in d.dd_best or ()))
    mark = mark_word(d.mark)
    return f"{line} — {mark}" if mark else line


def format_review(review: Review) -> str:
    """The review as text: each deal's decisions, then each player's summary."""
    from ._common import contract_text

    rows = []
    for deal in review.deals:
        what = (contract_text(Contract.parse(deal.contract)) if deal.contract is not None
                else _("all-pass") if deal.kind == "allpass" else "—")
        rows.append(_("Deal {number}: {deal} ({players}), {contract}", number=deal.number, deal=deal.deal,
                      players=", ".join(deal.players), contract=what))
        rows.extend(format_decision(d) for d in deal.decisions)
        rows.append("")
    rows.append(_("Summary (whists lost from what each seat could see; thresholds: inaccuracy {i:g}, mistake "
                  "{m:g}, blunder {b:g} whists)", i=THRESHOLDS["inaccuracy"], m=THRESHOLDS["mistake"],
                  b=THRESHOLDS["blunder"]))
    phases = [_("bidding"), _("talon"), _("whisting"), _("play")]
    player, lost, best, marks, dd = _("player"), _("lost"), _("best"), _("marks"), _("tricks DD")
    w = max(10, *(len(p) + 2 for p in phases))
    head = f"{player:<10}{lost:>16}" + "".join(f"{p:>{w}}" for p in phases) + f"{best:>12}{marks:>12}{dd:>14}"
    rows.append(head)
    for s in review.summary():
        share = "—" if s.best_share is None else f"{s.best}/{s.decisions}"
        counts = "/".join(str(n) for _m, n in s.marks)
        rows.append(f"{s.player:<10}{s.cost:>9.2f} ± {s.cost_se:<4.2f}" + "".join(f"{c:>{w}.2f}" for _p, c in s.phases)
                    + f"{share:>12}{counts:>12}{s.dd_tricks:>14}")
    rows.append(_("(marks: inaccuracies/mistakes/blunders; tricks DD: tricks the cards lost double-dummy; "
                  "{calls} solver calls)", calls=review.solver_calls))
    return "\n".join(rows)


# -- the chart ------------------------------------------------------------------------
#: What is missing without the plot extra.
PLOT_HINT = N_('--plot needs matplotlib: pip install "prefsolve[plot]"')


class MissingPlotError(ModuleNotFoundError):
    """The chart needs matplotlib, the ``plot`` extra."""


def check_plot(path: str) -> None:
    """Fail before the work: without matplotlib a :class:`MissingPlotError`; a file of a kind
    matplotlib cannot draw, or in no folder, a :class:`~prefsolve.errors.PrefsolveError`."""
    from pathlib import Path

    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise MissingPlotError(_(PLOT_HINT), name="matplotlib") from None
    target = Path(path)
    kinds = FigureCanvasBase.get_supported_filetypes()
    kind = target.suffix.lower().lstrip(".")
    if kind and kind not in kinds:     # no suffix: a PNG, under the very name given
        raise PrefsolveError(_("cannot draw a .{kind} file; use one of: {kinds}", kind=kind,
                               kinds=", ".join(sorted(kinds))))
    if not target.parent.is_dir():
        raise PrefsolveError(_("no folder {folder!r} to write {file!r} in", folder=str(target.parent),
                               file=target.name))


def plot_review(review: Review, path: str) -> None:
    """Draw each player's whists lost so far over the decisions of the file, deal by deal, with the
    marked decisions, as chess sites draw a game's evaluation, and below it, through the play of
    each game, the declarer's tricks with perfect play after each card; written to ``path`` (PNG,
    SVG, PDF by its suffix). Needs matplotlib (``pip install "prefsolve[plot]"``)."""
    check_plot(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    decisions = review.decisions
    kinds = {deal.number: deal.kind for deal in review.deals}
    played = [i for i, d in enumerate(decisions, 1) if d.dd_value is not None and kinds[d.deal] != "allpass"]
    if played:
        fig, (ax, below) = plt.subplots(2, 1, sharex=True, figsize=(10, 6.5), height_ratios=(3, 2))
    else:
        fig, ax = plt.subplots(figsize=(10, 4.5))
    _plot_losses(ax, decisions, [s.player for s in review.summary()])
    last = None
    for i, d in enumerate(decisions, 1):
        if last is not None and d.deal != last:
            for axis in fig.axes:
                axis.axvline(i - 0.5, color="0.85", linewidth=0.8, zorder=0)
        last = d.deal
    ax.set_title(_("Review: {deals} deal(s); marks: ○ inaccuracy, □ mistake, ✕ blunder", deals=len(review.deals)))
    if played:
        for number in dict.fromkeys(decisions[i - 1].deal for i in played):
            xs = [i for i in played if decisions[i - 1].deal == number]
            below.step(xs, [decisions[i - 1].dd_value for i in xs], where="post", color="0.3")
        below.set_ylim(-0.5, 10.5)
        below.set_ylabel(_("declarer's tricks\n(double-dummy)"))
        below.set_xlabel(_("decision"))
    else:
        ax.set_xlabel(_("decision"))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _plot_losses(ax: Any, decisions: Sequence[DecisionReview], players: Sequence[str]) -> None:
    """Each player's whists lost so far, a step at each decision he made, a marker at each marked one."""
    for name in players:
        xs, ys, total = [0], [0.0], 0.0
        marked = []
        for i, d in enumerate(decisions, 1):
            if d.player != name or d.cost is None:
                continue
            total -= d.cost
            xs.append(i)
            ys.append(total)
            if d.mark is not None:
                marked.append((i, total, d.mark))
        line, = ax.step(xs, ys, where="post", label=name)
        for mark, size in zip(MARKS, (20, 40, 70)):
            pts = [(x, y) for x, y, m in marked if m == mark]
            if pts:
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=size, color=line.get_color(),
                           marker={"inaccuracy": "o", "mistake": "s", "blunder": "X"}[mark], zorder=3)
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_ylabel(_("whists lost so far"))
    ax.legend(loc=3)     # lower left


__all__ = ["DEFAULT_SAMPLES", "MARKS", "THRESHOLDS", "MODEL", "OptionValue", "DecisionReview", "DealReview",
           "PlayerSummary", "ReviewSettings", "Review", "mark_of", "read_games", "review_record", "review_games",
           "summarize", "format_review", "format_decision", "plot_review", "check_plot", "mark_word",
           "MissingPlotError", "PLOT_HINT"]
