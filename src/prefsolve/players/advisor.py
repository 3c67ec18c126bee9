"""The advisor: the analyzer's advice, decision by decision, from what its seat sees.

Each decision is one analysis of :mod:`prefsolve.analysis` on the seat's
cards, with the auction model conditioning the unseen hands on the calls
(docs/ADVICE.md), and the analysis's recommendation is the move:

* a call: :func:`~prefsolve.analysis.analyze` with the calls so far; the
  recommended bid among those still open, or pass;
* the discard and declaration: :func:`~prefsolve.analysis.analyze_talon`
  after the winning bid; the declarer concedes «без трёх» (RULES.md §3.1) when
  that costs less than the recommended contract is expected to;
* a whist call: :func:`~prefsolve.analysis.analyze_whist`, with the talon shown
  and the other defender's call when said (a pass while unsaid);
* the defence: **open**, by rule: the lone whister then plays both defenders'
  cards, seeing both hands, which the play advice uses to the full;
* a card: :func:`~prefsolve.analysis.advise`, with every hand lying face up and
  the talon as shown; the layouts of the seat's last card advice in the deal that
  still fit what is known are valued again before new ones are drawn (``reuse``).

Options (``advisor:samples=50,tolerance=1,auction=off,seed=3,agreed=10``):
``samples`` layouts per decision (default 50), ``tolerance`` of the auction
model in tricks (default 1), ``auction`` on or off (the unseen hands
conditioned on the calls, or drawn freely), ``seed`` mixed into each
decision's seed, ``agreed``: a card is played after this many layouts (default
10; 0 for all of them) once it has been among the best in every one
(:func:`~prefsolve.analysis.advise`'s ``agreed``), ``endings``: from the trick
at whose start each hand holds this many cards or fewer (default 4; 0: never),
the card is chosen by exact single-dummy search over every layout that fits
(:mod:`prefsolve.analysis.endings`) instead of sampling, ``inference``: those
layouts weighed by the cards played (:func:`~prefsolve.analysis.advise`'s
``inference``, default 0.5; 0: alike). When the
calls cannot be met by any hand the sampler finds (a player who bids without
the cards), that decision is taken without the auction model, and so are the
seat's later cards in the deal (the cards played only narrow the layouts). Contracts the
analyzer does not sample (games without talon, RULES.md §2.5) are met by
rules of thumb: declare the winning bid; whist with two sure tricks.

:meth:`Advisor.analysis` returns the analysis behind a decision (every
candidate's expected result), :meth:`Advisor.decide` the move it recommends.

>>> from prefsolve.game import DealState
>>> from prefsolve.players.base import seat_view
>>> view = seat_view(DealState("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"), 0, seed=3)
>>> a = Advisor(samples=4)
>>> str(a.decide(view)) in [str(o) for o in view.options]
True
"""

from __future__ import annotations

from typing import Any

from ..auction import BID, HOLD
from ..cards import Card, Hand
from ..checks import check_count, check_seed
from ..errors import PlayerError
from ..game import CALL, CARD, DECLARATION, DEFENCE, DEFENCES, WHIST_CALL, Decision, Declaration
from ..i18n import _
from ..rules import Rules
from ..scoring import GameDeal, score_deal, settle
from .base import Player, SeatView, call_for
from .runner import derive_seed

#: The layouts each decision samples unless told otherwise.
DEFAULT_SAMPLES = 50
#: The layouts after which a card that was best in every one is played.
DEFAULT_AGREED = 10
#: Endings of this many cards a hand or fewer are played by exact single-dummy search (0: sampled).
DEFAULT_ENDINGS = 4
#: The layouts of those endings are weighed by the cards played with this chance of a card other
#: than a double-dummy best one (advise's default, :data:`prefsolve.analysis.advice.INFERENCE`).
DEFAULT_INFERENCE = 0.5
_WHIST_WORDS = {"whist": "whist", "pass": "pass", "half-whist": "half"}


class Advisor(Player):
    """The analyzer's recommendation at every decision (see the module's text)."""

    name = "advisor"
    OPTIONS = {"samples": int, "tolerance": float, "auction": bool, "seed": int, "agreed": int, "endings": int,
               "inference": float}

    def __init__(self, samples: int = DEFAULT_SAMPLES, tolerance: float | None = None, auction: bool = True,
                 seed: int = 0, agreed: int = DEFAULT_AGREED, endings: int = DEFAULT_ENDINGS,
                 inference: float = DEFAULT_INFERENCE) -> None:
        from ..analysis.auction_model import TOLERANCE, check_tolerance

        self.samples = check_count(samples, "samples", 1)
        self.tolerance = check_tolerance(TOLERANCE if tolerance is None else tolerance)
        if not isinstance(auction, bool):
            raise PlayerError(_("the advisor's auction option is on or off, got {value}", value=repr(auction)))
        self.auction = auction
        self.seed = check_seed(seed) or 0
        self.agreed = check_count(agreed, "agreed", 0)
        self.endings = check_count(endings, "endings", 0)
        if isinstance(inference, bool) or not isinstance(inference, (int, float)) or not 0 <= inference < 1:
            raise PlayerError(_("the advisor's inference option is a chance from 0 up to 1, got {value}",
                                value=repr(inference)))
        self.inference = float(inference)
        self._layouts: dict[int, tuple] = {}     # seat -> the layouts of its last card advice in this deal
        self._unfit: set[int] = set()            # seats whose cards this deal's calls fit no layout for

    def start(self, seat: int, rules: Rules) -> None:
        self._layouts, self._unfit = {}, set()
    # -- the analysis behind each decision ----------------------------------------
    def analysis(self, view: SeatView) -> Any:
        """The analysis the decision rests on: an :class:`~prefsolve.analysis.Analysis`,
        :class:`~prefsolve.analysis.TalonAnalysis`, :class:`~prefsolve.analysis.WhistAnalysis`
        or :class:`~prefsolve.analysis.Advice`; None where a rule decides."""
        from ..analysis.sampling import ConstraintError

        if view.kind == DEFENCE or self._by_rule(view):
            return None
        card_of = view.to_play if view.kind == CARD else None
        model = self.auction and card_of not in self._unfit
        try:
            return self._analysis(view, model)
        except ConstraintError:
            if not model:
                raise
            if card_of is not None:
                # The cards played only narrow the layouts further: the later cards of this seat
                # in the deal are advised without the model at once.
                self._unfit.add(card_of)
            return self._analysis(view, False)     # the calls fit no hand drawn: sample freely

    def decide(self, view: SeatView) -> Decision:
        """The move the analysis recommends (or the rule, where one decides)."""
        if view.kind == DEFENCE:
            return DEFENCES[0]
        if self._by_rule(view):
            return self._rule(view)
        return self.decision(view, self.analysis(view))

    def decision(self, view: SeatView, analysis: Any) -> Decision:
        """The move ``analysis`` (of :meth:`analysis`) recommends for ``view``."""
        if view.kind == CARD:
            assert isinstance(analysis.card, Card)
            return analysis.card
        rec = analysis.recommendation
        if view.kind == CALL:
            return call_for(rec.call if self.auction else self._open_call(view, analysis), view.options)
        if view.kind == DECLARATION:
            if view.can_concede and not rec.contract.is_misere and rec.expected < _concession_value(view):
                return Declaration(view.options[0], rec.discard, True)     # the winning bid, «без трёх»
            return Declaration(rec.contract, rec.discard)
        word = _WHIST_WORDS[rec.call]       # a whist call
        return word if word in view.options else view.options[0]

    def _sampling(self, view: SeatView, known: dict | None = None):
        from ..analysis.sampling import Sampling

        seed = derive_seed(view.seed, "advisor", self.seed) if self.seed else view.seed
        return Sampling(samples=self.samples, seed=seed, known=known or {})

    def _analysis(self, view: SeatView, auction: bool) -> Any:
        from ..analysis import analyze, analyze_talon, analyze_whist

        calls = ",".join(str(c) for c in view.calls) if auction else None
        rules, tolerance = view.rules, self.tolerance
        if view.kind == CALL:
            return analyze(view.dealt, view.seat, sampling=self._sampling(view), auction=calls, rules=rules,
                           tolerance=tolerance, allpass_count=view.allpass_count, jobs=1)
        if view.kind == DECLARATION:
            return analyze_talon(view.hand, view.seat, sampling=self._sampling(view), bid=view.bid, auction=calls,
                                 rules=rules, tolerance=tolerance, jobs=1)
        if view.kind == WHIST_CALL:
            assert view.declarer is not None and view.contract is not None
            partner = view.whist_calls[0] if len(view.whist_calls) == 1 else None
            return analyze_whist(view.dealt, view.seat, declarer=view.declarer, contract=view.contract,
                                 sampling=self._sampling(view), partner=partner, talon=view.talon, auction=calls,
                                 rules=rules, tolerance=tolerance, allpass_count=view.allpass_count, jobs=1)
        return self._card_analysis(view, calls)

    def _card_analysis(self, view: SeatView, calls: str | None) -> Any:
        from ..analysis import advise

        seat = view.to_play
        assert seat is not None
        hand: Hand = view.dealt if seat == view.seat else view.shown[seat]
        known = {s: h for s, h in view.shown.items() if s != seat}
        if seat != view.seat:
            known[view.seat] = view.dealt      # the lone whister plays his partner's cards, seeing his own
        allpass = view.all_pass
        contract = "allpass" if allpass or view.contract is None else view.contract
        advice = advise(hand, seat, contract=contract, declarer=view.declarer,
                        played=view.played, leader=view.leader,
                        talon=None if allpass else view.talon, turn=view.turn if allpass and view.turn else None,
                        discard=view.discard if seat == view.declarer else None, auction=calls,
                        whist=None if calls is None or allpass else ",".join(view.whist_calls) or None,
                        sampling=self._sampling(view, known), rules=view.rules, tolerance=self.tolerance,
                        agreed=self.agreed or None, reuse=self._layouts.get(seat, ()), endings=self.endings,
                        inference=self.inference)
        self._layouts[seat] = advice.sampled
        return advice

    def _open_call(self, view: SeatView, analysis: Any) -> str:
        """Without the auction model the analysis ranks every contract: the advice
        among the bids still open (:func:`~prefsolve.analysis.bid.recommend`)."""
        from ..analysis.bid import recommend

        open_bids = tuple(o.contract for o in view.options if o.kind in (BID, HOLD))
        return recommend(analysis.contracts, view.rules, open_bids).call

    # -- contracts the analyzer does not sample ------------------------------------------
    @staticmethod
    def _by_rule(view: SeatView) -> bool:
        """Games without talon (RULES.md §2.5) are not sampled by the bid, talon and whist analyses."""
        c = view.contract if view.kind == WHIST_CALL else view.bid if view.kind == DECLARATION else None
        return c is not None and c.without_talon

    @staticmethod
    def _rule(view: SeatView) -> Decision:
        from ..analysis.auction_model import sure_tricks

        if view.kind == DECLARATION:
            return Declaration(view.options[0])
        if "whist" in view.options and (sure_tricks(view.dealt) >= 2 or "pass" not in view.options):
            return "whist"
        return "pass" if "pass" in view.options else view.options[0]


def _concession_value(view: SeatView) -> float:
    """The declarer's net whists if he concedes his winning bid «без трёх» (RULES.md §3.1)."""
    assert view.bid is not None
    s = score_deal(GameDeal(0, view.bid, (), None, True, conceded=True), view.rules, 3)
    return float(settle(s.pool, s.mountain, s.whists, view.rules)[0])


__all__ = ["Advisor", "DEFAULT_SAMPLES", "DEFAULT_AGREED", "DEFAULT_ENDINGS", "DEFAULT_INFERENCE"]
