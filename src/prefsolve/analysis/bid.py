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
from ..rules import Rules
from ..solver import DiscardHints
from ..strains import STRAINS
from ._common import (
    Progress,
    allowed_contracts,
    as_contract,
    as_hand,
    as_rules,
    leader_for,
)
from .defence import DEFENCE_TEXT, check_defence, declarer_scores
from .recommendation import Recommendation
from .sampling import DEFAULT_SAMPLING, Sampling, sample_adaptively, start
from .stats import ContractStats

# numpy is imported where it is used (see sampling.py).
if TYPE_CHECKING:
    import numpy as np


def recommend(stats: Sequence[ContractStats], rules: Rules) -> Recommendation:
    """The best contract by expected whists and the highest bid still worth reaching.

    Passing is valued at 0 whists. Winning the auction at a game bid X lets
    the declarer name any contract the auction allows after X
    (:func:`prefsolve.auction.allowed_declarations`: games ≥ X, and misère
    after a bid up to 8♠ with trading misère), so X is worth at least the best
    E among those (at least: he names it after seeing the talon, while each E
    is for one contract fixed in advance), and the limit is the most senior
    game bid worth ≥ 0. Misère is the bid when it is the best choice. Among
    equal expected scores the most junior contract is best (the cheapest to
    reach); one worth exactly 0 is still bid.
    """
    best = max(stats, key=lambda s: (s.expected, -seniority(s.contract, rules)))
    if best.expected < 0:
        max_bid = None
    elif best.contract.is_misere:
        max_bid = best.contract
    else:
        value = {s.contract: s.expected for s in stats}
        worth = [c for c in value if not c.is_misere
                 and max(value[x] for x in allowed_contracts(c, rules) if x in value) >= 0]
        max_bid = max(worth, key=lambda c: seniority(c, rules))
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
        raise ContractError(f"contract {key!r} is not in this analysis")

    @property
    def model(self) -> str:
        return (f"double-dummy play with the talon and the best discard; seat {self.leader} leads; "
                f"defence: {DEFENCE_TEXT[self.defence]}; score: one deal's net whists under the "
                f"{self.rules} rules (pool and mountain settled); passing counts as 0")

    def to_dict(self) -> dict:
        return {
            "samples": self.samples,
            "contracts": {str(s.contract): s.to_dict() for s in self.contracts},
            "recommendation": self.recommendation.to_dict(),
            "hand": str(self.hand), "seat": self.seat, "seed": self.sampling.seed,
            "adaptive": self.sampling.adaptive, "rules": self.rules, "defence": self.defence,
            "model": self.model, "known": self.sampling.to_dict()["known"],
            "voids": self.sampling.to_dict()["voids"],
        }

    def advice(self) -> str:
        """One line: the best contract, the bidding limit, or pass."""
        rec = self.recommendation
        assert rec.contract is not None     # the bid analysis always names its best contract
        b = self[rec.contract]
        # Under "pass" nothing is played: P(make) is what play would have given.
        played = " if played" if self.defence == "pass" else ""
        head = (f"best: {rec.contract.symbol} (expected {b.expected:+.1f} whists, "
                f"P(make{played}) {b.p_make:.0%})")
        if rec.max_bid is None:
            return f"pass: no contract is expected to gain; {head}"
        return f"bid up to {rec.max_bid.symbol}; {head}"

    def format(self) -> str:
        """An aligned table: contract, P(make) ± se, expected whists ± se, mean tricks."""
        given = self.sampling.given_text()
        rows = [f"Hand {self.hand.symbols()}, seat {self.seat}, {self.samples} samples, "
                f"{self.rules} rules"] + ([given] if given else []) + [
                f"{'contract':<9}{'P(make)':>17}{'expected whists':>20}{'tricks':>7}"]
        for s in self.contracts:
            mark = " <" if s.contract == self.recommendation.contract else ""
            rows.append(f"{s.contract.symbol:<9}{s.p_make:>9.3f} ± {s.p_make_se:.3f}"
                        f"{s.expected:>+12.2f} ± {s.expected_se:<5.2f}{s.tricks_mean:>7.2f}{mark}")
        played = ("; a game the defence may pass shows the P(make) and tricks that play would give, "
                  "though this model does not play it" if self.defence == "pass" else "")
        rows.append(f"(defence: {DEFENCE_TEXT[self.defence]}; the tricks column is the mean; misère's "
                    f"P(make) is the chance of taking no trick{played})")
        rows.append(self.advice())
        return "\n".join(rows)


def evaluate(tricks: np.ndarray, rules: Rules, defence: str) -> list[ContractStats]:
    """Every contract of the ladder scored on per-sample tricks (columns S C D H NT misère)."""
    out = []
    for c in LADDER:
        t = tricks[:, STRAINS.index(c.strain)]
        out.append(ContractStats.of(c, t, declarer_scores(c, t, defence, rules)))
    return out


def analyze(hand: Hand | str, seat: int = 0, *, sampling: Sampling = DEFAULT_SAMPLING,
            rules: Rules | str = "sochi", defence: str = "best", jobs: int | None = None,
            progress: Progress | None = None) -> Analysis:
    """Evaluate every contract (6♠ … 10NT, misère) for a player's 10 cards.

    ``sampling.samples`` layouts of the 22 unseen cards (other seats and
    talon) are drawn; in each, the player is solved as declarer in all six
    strains with the talon and best discard (one table per sample), and every
    contract is scored on those same tricks under the ``defence`` model
    (:data:`~prefsolve.analysis.defence.DEFENCES`). With ``sampling.adaptive``
    the layouts come in batches until the standard error of the best
    contract's expected score is at most that many whists.

    "This player passed" is not offered as a constraint: it would need a
    model of how opponents bid, which double-dummy solving cannot supply.

    >>> analyze("-.-.87.T987", 0, sampling=Sampling(samples=3, seed=2))
    Traceback (most recent call last):
    ...
    prefsolve.errors.HandError: hand '-.-.87.T987' has 6 cards, expected 10
    """
    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    defence = check_defence(defence)
    r = as_rules(rules)
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
    return Analysis(hand, seat, sampling, r.label, defence, leader, tuple(stats), recommend(stats, r),
                    tuple(tuple(row) for row in tricks.tolist()))
