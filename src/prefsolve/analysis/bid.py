"""Which contract to bid: every contract of the ladder scored on one sample set.

In each sampled layout the player is solved as declarer in all six strains,
with the talon and his best discard (one table per layout); every contract is
scored on those same tricks (the common-random-numbers design of redeal), so
differences between contracts are sharp.

>>> a = analyze("AKQJ987.A.A.A", 0, sampling=Sampling(samples=4, seed=1), jobs=1)
>>> a["8S"].p_make, sum(a["8S"].tricks_histogram[8:]) == 4
(1.0, True)
>>> a.recommendation.call, str(a.recommendation.max_bid)
('10S', '10NT')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..auction import seniority
from ..batch import table_many
from ..cards import Hand
from ..checks import check_seat
from ..contract import LADDER, Contract
from ..errors import ContractError
from ..i18n import N_, _, get_language
from ..rules import Rules
from ..solver import DiscardHints
from ..strains import STRAINS
from ._common import (
    Progress,
    allowed_contracts,
    as_contract,
    as_hand,
    as_rules,
    contract_text,
    leader_for,
)
from .auction_model import TOLERANCE, condition_on_auction
from .defence import DEFENCE_TEXT, check_defence, declarer_scores, defence_text
from .recommendation import Recommendation
from .sampling import DEFAULT_SAMPLING, Sampling, sample_adaptively, sampling_json, start
from .stats import ContractStats, margin_text

# numpy is imported where it is used (see sampling.py).
if TYPE_CHECKING:
    import numpy as np


def recommend(stats: Sequence[ContractStats], rules: Rules,
              open_contracts: Sequence[Contract] | None = None) -> Recommendation:
    """The best contract by expected whists and the highest bid still worth reaching.

    Passing is valued at 0 whists. Winning the auction at a game bid X lets
    the declarer name any contract the auction allows after X
    (:func:`prefsolve.auction.allowed_declarations`: games ≥ X, and misère
    after a bid up to 8♠ with trading misère), so X is worth at least the best
    E among those (at least: he names it after seeing the talon, while each E
    is for one contract fixed in advance). The limit is the most senior game
    bid worth ≥ 0 by a standard error (E − se ≥ 0: a gain smaller than its
    error does not carry the bidding higher); when the best contract is worth
    ≥ 0 but no bid clears its error, the limit is the best contract itself.
    Misère is the bid when it is the best choice. Among equal expected scores
    the most junior contract is best (the cheapest to reach); one worth
    exactly 0 is still bid. ``open_contracts``: the bids still open after the
    earlier calls of the auction (``None``: every contract); the advice is
    chosen among them.
    """
    pool = [s for s in stats if open_contracts is None or s.contract in open_contracts] or list(stats)
    best = max(pool, key=lambda s: (s.expected, -seniority(s.contract, rules)))
    if best.expected < 0 or (open_contracts is not None and best.contract not in open_contracts):
        max_bid = None
    elif best.contract.is_misere:
        max_bid = best.contract
    else:
        value = {s.contract: s for s in stats}

        def floor(c: Contract) -> float:
            return max(value[x].expected - value[x].expected_se for x in allowed_contracts(c, rules) if x in value)

        worth = [c for c in value if not c.is_misere and floor(c) >= 0
                 and (open_contracts is None or c in open_contracts)]
        max_bid = max(worth, key=lambda c: seniority(c, rules)) if worth else best.contract
    call = "pass" if max_bid is None else str(best.contract)
    return Recommendation(call, best.contract, max_bid=max_bid, expected=best.expected,
                          expected_se=best.expected_se)


@dataclass(frozen=True)
class Analysis:
    """The bid evaluation of one hand: every contract of the ladder on one sample set.

    ``tricks`` is the per-sample table (one row per sample; strains S C D H
    NT misère) of the player's tricks as declarer with the talon and best discard.
    """

    hand: Hand
    seat: int
    sampling: Sampling
    rules: str
    defence: str
    leader: int
    contracts: tuple[ContractStats, ...]
    recommendation: Recommendation
    tricks: tuple[tuple[int, ...], ...] = field(repr=False)
    acceptance: float | None = None
    """The fraction of layouts tried that met ``sampling.conditions`` (``None`` without conditions)."""

    @property
    def samples(self) -> int:
        """The number of layouts drawn (with ``sampling.adaptive``, up to ``sampling.samples``)."""
        return len(self.tricks)

    @property
    def passes(self) -> bool:
        """True when no contract is expected to beat passing (0 whists)."""
        return self.recommendation.max_bid is None

    def __getitem__(self, key: str | Contract) -> ContractStats:
        c = as_contract(key)
        for s in self.contracts:
            if s.contract == c:
                return s
        raise ContractError(_("contract {contract} is not in this analysis", contract=repr(key)))

    @property
    def model(self) -> str:
        return _MODEL.format(leader=self.leader, defence=DEFENCE_TEXT[self.defence], rules=self.rules)

    def to_dict(self) -> dict:
        return {
            "contracts": {str(s.contract): s.to_dict() for s in self.contracts},
            "recommendation": self.recommendation.to_dict(),
            "hand": str(self.hand), "seat": self.seat, "rules": self.rules, "defence": self.defence,
            "model": self.model,
            **sampling_json(self.sampling, samples=self.samples, acceptance=self.acceptance),
        }

    def advice(self) -> str:
        """One line: the best contract, the bidding limit, or pass (in the active language)."""
        rec = self.recommendation
        assert rec.contract is not None     # the bid analysis always names its best contract
        b = self[rec.contract]
        # Under "pass" nothing is played: P(make) is what play would have given.
        if self.defence == "pass":
            head = _("best: {contract} (expected {expected:+.1f} whists, P(make if played) {p_make:.0%})",
                     contract=contract_text(rec.contract), expected=b.expected, p_make=b.p_make)
        else:
            head = _("best: {contract} (expected {expected:+.1f} whists, P(make) {p_make:.0%})",
                     contract=contract_text(rec.contract), expected=b.expected, p_make=b.p_make)
        close = margin_text([(contract_text(s.contract), s.expected, s.expected_se) for s in self.contracts]
                            + [(_("pass"), 0.0, 0.0)])
        if rec.max_bid is None:
            line = _("pass: no contract is expected to gain; {best}", best=head)
        elif rec.max_bid == rec.contract and b.expected - b.expected_se < 0:
            line = _("bid up to {contract} (no higher: the gain is within its standard error); {best}",
                     contract=contract_text(rec.max_bid), best=head)
        else:
            line = _("bid up to {contract}; {best}", contract=contract_text(rec.max_bid), best=head)
        return f"{line} {close}" if close else line

    def format(self) -> str:
        """An aligned table: contract, P(make) ± se, expected whists ± se, mean tricks (in the active language)."""
        given = self.sampling.given_text(self.acceptance)
        columns = (_("contract"), _("P(make)"), _("expected whists"), _("tricks"))
        head = f"{columns[0]:<9}{columns[1]:>17}{columns[2]:>20}{columns[3]:>7}"
        rows = [_("Hand {hand}, seat {seat}, {samples} samples, {rules} rules", hand=self.hand.symbols(get_language()),
                  seat=self.seat, samples=self.samples, rules=self.rules)] + ([given] if given else []) + [head]
        for s in self.contracts:
            mark = " <" if s.contract == self.recommendation.contract else ""
            rows.append(f"{contract_text(s.contract):<9}{s.p_make:>9.3f} ± {s.p_make_se:.3f}"
                        f"{s.expected:>+12.2f} ± {s.expected_se:<5.2f}{s.tricks_mean:>7.2f}{mark}")
        if self.defence == "pass":
            rows.append(_("(defence: {defence}; the tricks column is the mean; misère's P(make) is the chance of "
                          "taking no trick; a game the defence may pass shows the P(make) and tricks that play "
                          "would give, though this model does not play it)", defence=defence_text(self.defence, True)))
        else:
            rows.append(_("(defence: {defence}; the tricks column is the mean; misère's P(make) is the chance of "
                          "taking no trick)", defence=defence_text(self.defence, True)))
        rows.append(self.advice())
        return "\n".join(rows)


_MODEL = N_("double-dummy play with the talon and the best discard; seat {leader} leads; defence: {defence}; "
            "score: one deal's net whists under the {rules} rules (pool and mountain settled); passing counts as 0")


def evaluate(tricks: np.ndarray, rules: Rules, defence: str) -> list[ContractStats]:
    """Every contract of the ladder scored on per-sample tricks (columns S C D H NT misère)."""
    out = []
    for c in LADDER:
        t = tricks[:, STRAINS.index(c.strain)]
        out.append(ContractStats.of(c, t, declarer_scores(c, t, defence, rules)))
    return out


def analyze(hand: Hand | str, seat: int = 0, *, sampling: Sampling = DEFAULT_SAMPLING,
            rules: Rules | str = "sochi", defence: str = "best", auction: str | None = None,
            tolerance: float = TOLERANCE, allpass_count: int = 0, jobs: int | None = None,
            progress: Progress | None = None) -> Analysis:
    """Evaluate every contract (6♠ … 10NT, misère) for a player's 10 cards.

    ``sampling.samples`` layouts of the 22 unseen cards (other seats and
    talon) are drawn; in each, the player is solved as declarer in all six
    strains with the talon and best discard (one table per sample), and every
    contract is scored on those same tricks under the ``defence`` model
    (:data:`~prefsolve.analysis.defence.DEFENCES`). With ``sampling.adaptive``
    the layouts come in batches until the standard error of the best
    contract's expected score is at most that many whists.

    ``auction``: the calls made before this seat's turn (first hand first);
    the other seats' hands are drawn as the auction model
    (:mod:`~prefsolve.analysis.auction_model`, within ``tolerance`` tricks)
    says those calls show them, and the advice is chosen among the bids
    still open (``pass`` when none is worth it).

    >>> analyze("-.-.87.T987", 0, sampling=Sampling(samples=3, seed=2))
    Traceback (most recent call last):
    ...
    prefsolve.errors.HandError: hand '-.-.87.T987' has 6 cards, expected 10
    """
    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    defence = check_defence(defence)
    r = as_rules(rules)
    open_contracts = None
    if auction is not None:
        sampling, open_contracts = _with_auction(sampling, auction, seat, r, tolerance, allpass_count)
    sampling, sampler = start(sampling, hand, seat)
    leader = leader_for(r, seat)
    hints = DiscardHints()    # shared by the batches of an adaptive run

    def draw(k: int) -> np.ndarray:
        deals = sampler.draw(k)
        return table_many(deals, leader=leader, talon_mode="take", jobs=jobs, progress=progress,
                          declarers=(seat,), hints=hints)[:, 0, :]

    def lead_se(t: np.ndarray) -> float:
        stats = evaluate(t, r, defence)
        return max(stats, key=lambda s: s.expected).expected_se

    tricks = sample_adaptively(sampling, draw, lead_se)
    stats = evaluate(tricks, r, defence)
    return Analysis(hand, seat, sampling, r.label, defence, leader, tuple(stats),
                    recommend(stats, r, open_contracts), tuple(tuple(row) for row in tricks.tolist()),
                    sampler.acceptance)


def _with_auction(sampling: Sampling, auction: str, seat: int, rules: Rules, tolerance: float,
                  allpass_count: int) -> tuple[Sampling, tuple[Contract, ...]]:
    """The sampling conditioned on the earlier calls, and the contracts still open to ``seat``."""
    from ..auction import BID, HOLD, check_auction, legal_calls
    from ..errors import AuctionError
    from .sampling import _check_sampling

    sampling = _check_sampling(sampling)
    verdict = check_auction(auction, rules, allpass_count) if auction.strip() else None
    if verdict is not None:
        if not verdict.legal:
            raise AuctionError(_("auction {auction}: {reason}", auction=repr(auction), reason=verdict.reason))
        if verdict.finished:
            raise AuctionError(_("auction {auction} is over: no bid is left to advise on", auction=repr(auction)))
        if verdict.next_seat != seat:
            raise AuctionError(_("after the auction {auction} seat {next_seat} speaks, not seat {seat}",
                                 auction=repr(auction), next_seat=verdict.next_seat, seat=seat))
    elif seat != 0:
        raise AuctionError(_("with no calls made, seat 0 speaks first, not seat {seat}", seat=seat))
    if verdict is None:
        return sampling, LADDER
    open_ = tuple(c.contract for c in legal_calls(auction, rules, allpass_count)
                  if c.kind in (BID, HOLD) and c.contract is not None)
    return condition_on_auction(sampling, auction, seat=seat, rules=rules, tolerance=tolerance,
                                allpass_count=allpass_count), open_
