"""Whist or pass: a defender's calls against a contract, scored on one sample set.

The 22 cards the defender does not see are sampled; the declarer takes the
talon and discards his best two (double-dummy), and each call the rules allow
the defender is scored in net whists for him on the same samples.

>>> w = analyze_whist("A.KT9.KT97.K7", 1, declarer=0, contract="7H", sampling=Sampling(samples=4, seed=1),
...                   jobs=1)
>>> [o.call for o in w.options], w.recommendation.call in ("whist", "pass")
(['whist', 'pass'], True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..auction import HALF, PASS, WHIST, check_whist_calls, parse_whist_call
from ..batch import solve_many
from ..cards import Hand
from ..checks import check_seat
from ..contract import Contract
from ..errors import ContractError, PrefsolveError
from ..i18n import N_, _, get_language, shown
from ..rules import Rules
from ..solver import DiscardHints
from ._common import Progress, as_contract, as_hand, as_rules, contract_text, leader_for
from .auction_model import TOLERANCE, check_won, condition_on_auction
from .defence import balance_row
from .recommendation import Recommendation
from .sampling import DEFAULT_SAMPLING, Sampling, sample_adaptively, sampling_json, start
from .stats import binomial_se, margin_text, mean_se, tricks_histogram

# numpy is imported where it is used (see sampling.py).
if TYPE_CHECKING:
    import numpy as np

#: The other defender's call, as the whist analysis takes it.
PARTNER_CALLS = (PASS, WHIST)
#: The defender's calls by their names in results: the auction's words, the half-whist spelt out.
CALL_NAMES = {WHIST: "whist", PASS: "pass", HALF: "half-whist"}


@dataclass(frozen=True)
class OptionStats:
    """Expected net whists ± se of one call of the defender."""

    call: str
    expected: float
    expected_se: float

    def to_dict(self) -> dict:
        return {"expected": round(self.expected, 3), "expected_se": round(self.expected_se, 3)}


@dataclass(frozen=True)
class WhistAnalysis:
    """Whist or pass against a contract, for one defender's hand.

    ``tricks_histogram`` counts the declarer's tricks over the samples;
    ``quota`` is the defence's obligation under the rules used (RULES.md §3.3).
    """

    hand: Hand
    seat: int
    declarer: int
    contract: Contract
    partner: str
    sampling: Sampling
    rules: str
    leader: int
    p_quota: float
    p_quota_se: float
    tricks_histogram: tuple[int, ...]
    options: tuple[OptionStats, ...]
    recommendation: Recommendation
    quota: int
    acceptance: float | None = None
    """The fraction of layouts tried that met ``sampling.conditions`` (``None`` without conditions)."""

    @property
    def samples(self) -> int:
        """The number of layouts drawn (with ``sampling.adaptive``, up to ``sampling.samples``)."""
        return sum(self.tricks_histogram)

    @property
    def first_defender(self) -> bool:
        return self.seat == (self.declarer + 1) % 3

    @property
    def model(self) -> str:
        model = _MODEL_CONDITIONED if self.sampling.conditions else _MODEL
        return model.format(leader=self.leader, partner=self.partner, rules=self.rules)

    def _call(self, call: str) -> str:
        """A whist call as the text output says it (the JSON keeps ``whist``, ``pass``, ``half``)."""
        return _(_CALL_WORDS[call]) if call in _CALL_WORDS else call

    def to_dict(self) -> dict:
        return {
            "hand": str(self.hand), "contract": str(self.contract),
            "seat": self.seat, "declarer": self.declarer, "partner": self.partner,
            "quota": self.quota, "p_quota": round(self.p_quota, 4), "p_quota_se": round(self.p_quota_se, 4),
            "tricks_histogram": list(self.tricks_histogram),
            "options": {o.call: o.to_dict() for o in self.options},
            "recommendation": self.recommendation.to_dict(), "rules": self.rules, "model": self.model,
            **sampling_json(self.sampling, samples=self.samples, acceptance=self.acceptance),
        }

    def format(self) -> str:
        """The chance of the defence's quota and each call's expected whists, in the active language."""
        given = self.sampling.given_text(self.acceptance)
        fields = {"hand": self.hand.symbols(get_language()), "seat": self.seat,
                  "contract": contract_text(self.contract), "declarer": self.declarer, "samples": self.samples,
                  "rules": self.rules}
        if self.first_defender:
            head = _("Hand {hand}, seat {seat} (first defender) against {contract} by seat {declarer}, {samples} "
                     "samples, {rules} rules", **fields)
        else:
            head = _("Hand {hand}, seat {seat} (second defender) against {contract} by seat {declarer}, {samples} "
                     "samples, {rules} rules", **fields)
        call, expected = _("call"), _("expected whists")
        rows = [head] + ([given] if given else []) + [
                _("P(defence takes its {quota}) = {p:.3f} ± {se:.3f}", quota=self.quota, p=self.p_quota,
                  se=self.p_quota_se),
                f"{call:<11}{expected:>20}"]
        for o in self.options:
            mark = " <" if o.call == self.recommendation.call else ""
            rows.append(f"{self._call(o.call):<11}{o.expected:>+12.2f} ± {o.expected_se:.2f}{mark}")
        partner = self._call(self.partner)
        # Only Stalingrad leaves a single call (whist_options).
        if len(self.options) == 1:
            partner = _("{call} (Stalingrad, §3.5: both defenders whist on 6♠)", call=partner)
        if self.sampling.conditions:
            rows.append(_("(the other defender: {call}; the hands are drawn as the auction shows them)", call=partner))
        else:
            rows.append(_("(the other defender: {call}; the declarer's hand is drawn at random, not from what his "
                          "bid says, so weigh P against the bid (give --auction))", call=partner))
        close = margin_text([(self._call(o.call), o.expected, o.expected_se) for o in self.options])
        line = _("recommendation: {call}", call=self._call(self.recommendation.call))
        rows.append(f"{line} {close}" if close else line)
        return "\n".join(rows)


_MODEL = N_("double-dummy play, the declarer with the talon and his best discard; seat {leader} leads; the other "
            "defender's call: {partner}; two whisters split the defence tricks evenly (odd one to the first "
            "defender); one deal's net whists under the {rules} rules; the declarer's hand is not conditioned on "
            "his bid")
_MODEL_CONDITIONED = N_("double-dummy play, the declarer with the talon and his best discard; seat {leader} leads; "
                        "the other defender's call: {partner}; two whisters split the defence tricks evenly (odd one "
                        "to the first defender); one deal's net whists under the {rules} rules; the hands are drawn "
                        "as the auction shows them (see conditions)")
# The whist calls as the text output says them (translated where they are shown).
_CALL_WORDS = {"whist": N_("whist"), "pass": N_("pass"), "half": N_("half"), "half-whist": N_("half-whist")}


def whist_options(contract: Contract, first: bool, partner: str, rules: Rules | str) -> dict[str, tuple]:
    """The defender's possible calls → the speaking-order calls of both defenders.

    The calls are those :func:`prefsolve.auction.check_whist_calls` accepts
    as a finished sequence: whist or pass beside the other defender's call,
    and, for the second defender after a pass, the half-whist (RULES.md §3.2: on 6
    and 7, where the rules play it), the first defender then assumed to pass
    again (the half-whist stands: no play, or played out under
    ``half_whist="played"``). Under Stalingrad (RULES.md §3.5) only whist is left on 6♠.

    >>> sorted(whist_options(Contract.parse("6H"), False, "pass", Rules()))
    ['half', 'pass', 'whist']
    """
    rules = Rules.of(rules)
    opts: dict[str, tuple] = {}
    for call in (WHIST, PASS):
        opts[call] = (call, partner) if first else (partner, call)
    if not first:
        opts[HALF] = (partner, HALF, PASS)
    return {call: calls for call, calls in opts.items()
            if (verdict := check_whist_calls(contract, calls, rules)).legal and verdict.finished}


def analyze_whist(hand: Hand | str, seat: int, *, declarer: int, contract: Contract | str,
                  sampling: Sampling = DEFAULT_SAMPLING, rules: Rules | str = "sochi", partner: str | None = None,
                  talon: Hand | str | None = None, auction: str | None = None,
                  tolerance: float = TOLERANCE, allpass_count: int = 0, jobs: int | None = None,
                  progress: Progress | None = None) -> WhistAnalysis:
    """Whist, pass or half-whist for a defender's 10 cards against ``contract`` by ``declarer``.

    The 22 unseen cards are sampled (``talon``: the two talon cards the
    declarer showed, RULES.md §3.1); the declarer takes the talon and discards his
    best two (double-dummy). ``partner`` is the other defender's call
    (``pass`` or ``whist``; by default ``pass``, and ``whist`` against 6♠
    under Stalingrad, where he must). P(quota) is the chance that the defence
    takes its obligation; each call is scored in net whists for this
    defender on the same samples. ``auction``: the calls of the deal (first
    hand first), won by ``declarer``; the other hands are drawn as the auction
    model (:mod:`~prefsolve.analysis.auction_model`, within ``tolerance``
    tricks) says the calls and the declaration of ``contract`` show them.

    >>> analyze_whist("AKQJ.AKQ.A.A8", 1, declarer=0, contract="misere")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    prefsolve.errors.ContractError: no whist to advise on misere under the sochi rules: §3.2: misère has no ...
    """
    import numpy as np  # on use: see the note in sampling.py
    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    declarer = check_seat(declarer, "declarer")
    if seat == declarer:
        raise PrefsolveError(_("the whisting seat {seat} is the declarer's seat", seat=seat))
    c = as_contract(contract)
    if partner is not None:
        word = parse_whist_call(partner)       # вист, пас … too
        if word not in PARTNER_CALLS:
            raise PrefsolveError(_("the other defender's call must be one of {calls}, got {value}",
                                   calls=", ".join(PARTNER_CALLS), value=repr(partner)))
        partner = word
    r = as_rules(rules)
    # The rules say whether anybody may whist (not on misère, RULES.md §3.2, nor
    # on a checked 10, RULES.md §3.4) and whether a defender may pass (not on 6♠
    # under Stalingrad, RULES.md §3.5): a first call of each, as check_whist_calls
    # judges it.
    whist = check_whist_calls(c, (WHIST,), r)
    if not whist.legal:
        raise ContractError(_("no whist to advise on {contract} under the {rules} rules: {reason}", contract=shown(c),
                              rules=r.label, reason=whist.reason))
    passing = check_whist_calls(c, (PASS,), r)
    if not passing.legal:
        if partner == PASS:
            raise ContractError(_("the other defender cannot pass on {contract} under the {rules} rules ({reason})",
                                  contract=shown(c), rules=r.label, reason=passing.reason))
        partner = WHIST
    elif partner is None:
        partner = PASS
    if talon is not None:
        sampling = _with_talon(sampling, talon, hand)
    if auction is not None:
        check_won(auction, r, declarer, allpass_count)
        sampling = condition_on_auction(sampling, auction, seat=seat, rules=r, tolerance=tolerance,
                                        allpass_count=allpass_count, contract=c)
    sampling, sampler = start(sampling, hand, seat)
    leader = leader_for(r, declarer)
    first = seat == (declarer + 1) % 3
    who = 1 if first else 2
    options = whist_options(c, first, partner, r)

    def scores(t: np.ndarray) -> dict[str, np.ndarray]:
        out = {}
        for call, calls in options.items():
            open_play = calls.count(WHIST) == 1
            row = np.asarray(balance_row(c, calls, r, open_play, who))
            out[call] = row[t.astype(np.int64)]
        return out

    hints = DiscardHints()    # shared by the batches of an adaptive run

    def draw(k: int) -> np.ndarray:
        return solve_many(sampler.draw(k), declarer, strain=c.strain, leader=leader, talon_mode="take", jobs=jobs,
                          progress=progress, hints=hints)

    def lead_se(t: np.ndarray) -> float:
        stats = [mean_se(v) for v in scores(t).values()]
        return max(stats)[1]

    tricks = sample_adaptively(sampling, draw, lead_se)
    n = len(tricks)
    need = c.whist_obligation(r)
    p = float(((10 - tricks) >= need).mean())
    opts = tuple(OptionStats(CALL_NAMES[call], *mean_se(v)) for call, v in scores(tricks).items())
    best = max(opts, key=lambda o: o.expected)
    rec = Recommendation(best.call, c, expected=best.expected, expected_se=best.expected_se)
    return WhistAnalysis(hand, seat, declarer, c, partner, sampling, r.label, leader, p, binomial_se(p, n),
                         tricks_histogram(tricks), opts, rec, need, sampler.acceptance)


def _with_talon(sampling: Sampling, talon: Hand | str, hand: Hand) -> Sampling:
    """The sampling with the shown talon (RULES.md §3.1) as known cards of the talon."""
    from dataclasses import replace

    from .sampling import ConstraintError

    if not isinstance(sampling, Sampling):
        return sampling     # start() names the error
    cards = talon if isinstance(talon, Hand) else Hand.parse(talon)
    if len(cards) != 2:
        raise ConstraintError(_("the talon has two cards (the declarer shows both, §3.1), got {count}: {talon}",
                                count=len(cards), talon=repr(talon)))
    own = cards.mask & hand.mask
    if own:
        card = next(x for x in cards if x.index == (own & -own).bit_length() - 1)
        raise ConstraintError(_("talon card {card} is in the player's own hand {hand}", card=shown(card),
                                hand=repr(str(hand))))
    known: dict[object, object] = dict(sampling.known_cards)
    if "talon" in known:
        raise ConstraintError(_("the talon is given twice (talon= and in sampling.known)"))
    known["talon"] = cards
    return replace(sampling, known=known)
