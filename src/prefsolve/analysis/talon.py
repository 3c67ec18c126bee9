"""What to discard and declare, holding 12 cards: the declarer's 10 and the talon.

The 20 cards he does not see are dealt to the two other seats. For each
strain the discards most often best double-dummy on a pilot (the first
samples) are kept, equivalent discards counted as one; each is played on
every sample, and every (discard, contract) pair the auction allows after
the winning bid is scored on the same samples.

>>> t = analyze_talon("AKQJ.AKQJ.AK.AK", 0, sampling=Sampling(samples=2, seed=1), bid="7S", jobs=1)
>>> t.recommendation.call, t.options[0].stats.p_make
('10S', 1.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from ..auction import seniority
from ..batch import map_deals, resolve_jobs
from ..cards import ALL_CARDS, Card, Cards, Hand, cards_of_mask, in_hand_order
from ..checks import check_count, check_seat
from ..contract import Contract
from ..deal import Deal
from ..i18n import N_, _, get_language
from ..rules import Rules
from ..solver import solve
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
from .auction_model import TOLERANCE, check_won, condition_on_auction
from .defence import DEFENCE_TEXT, check_defence, declarer_scores
from .recommendation import Recommendation
from .sampling import ConstraintError, Sampling, sampling_json, start
from .stats import ContractStats, margin_text

#: Pilot samples that name the candidate discards (the first ones, at most this many).
PILOT = 40

#: The talon analysis's default sampling: 200 layouts, a fresh seed.
TALON_SAMPLING = Sampling(samples=200)
#: The model in words, in English (the JSON's ``model``).
_MODEL = N_("candidate discards: per strain, the discards most often best double-dummy on the first {pilot} samples; "
            "each candidate played double-dummy on every sample, the discard chosen once for all samples (as the "
            "declarer chooses it, from his 12 cards); seat {leader} leads; defence: {defence}; score: one deal's net "
            "whists under the {rules} rules")


def equivalent_discards(hand12: Hand) -> list[Cards]:
    """One discard per class of equivalent discards of a 12-card hand.

    Cards of one suit with no outside card between them are interchangeable
    once the talon is known (every other card is with the opponents), so
    discarding either is the same; the lowest cards of each run stand for it.

    >>> [str(d) for d in equivalent_discards(Hand.parse("AKQJT987.-.-.AK"))]
    ['♠7 ♠8', '♠7 ♥K', '♥K ♥A']
    """
    runs: list[list[Card]] = []
    for s in range(4):
        run: list[Card] = []
        for r in range(8):
            card = ALL_CARDS[s * 8 + r]
            if card in hand12:
                run.append(card)
            elif run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    out = []
    for i, a in enumerate(runs):
        if len(a) >= 2:
            out.append(Cards((a[0], a[1])))
        for b in runs[i + 1:]:
            out.append(Cards((a[0], b[0])))
    return sorted(out)


def canonical_discard(discard: Iterable[Card], hand12: Hand) -> Cards:
    """The representative in :func:`equivalent_discards` of a discard."""
    chosen: list[Card] = []
    for card in sorted(discard):
        # Walk down the run to its lowest card not yet chosen.
        r = card.rank
        while r > 0 and ALL_CARDS[card.suit * 8 + r - 1] in hand12:
            r -= 1
        while ALL_CARDS[card.suit * 8 + r] in chosen:
            r += 1
        chosen.append(ALL_CARDS[card.suit * 8 + r])
    return Cards(sorted(chosen))


@dataclass(frozen=True)
class DiscardStats:
    """A (discard, contract) candidate on the sample set."""

    discard: Cards
    stats: ContractStats

    def to_dict(self) -> dict:
        return {"discard": [str(c) for c in in_hand_order(self.discard)],     # a list, as in solve() and table()
                "contract": str(self.stats.contract), **self.stats.to_dict()}


@dataclass(frozen=True)
class TalonAnalysis:
    """Discards and contracts for a declarer holding 12 cards (his 10 and the
    talon); ``options`` are sorted by expected whists, the recommended first."""

    hand: Hand
    seat: int
    bid: Contract | None
    sampling: Sampling
    rules: str
    defence: str
    leader: int
    pilot: int
    options: tuple[DiscardStats, ...]
    recommendation: Recommendation
    discard_optimism: float = 0.0
    """How many whists better the recommended contract scores, on the same samples, when the
    discard is chosen in each layout with sight of the defenders' cards (the best of the candidate
    discards of its strain, so at least this much): what a double-dummy discard would promise too much."""
    discard_optimism_tricks: float = 0.0
    """The same in the declarer's mean tricks."""
    acceptance: float | None = None
    """The fraction of layouts tried that met ``sampling.conditions`` (``None`` without conditions)."""

    @property
    def samples(self) -> int:
        return self.sampling.samples

    @property
    def model(self) -> str:
        return _MODEL.format(pilot=self.pilot, leader=self.leader, defence=DEFENCE_TEXT[self.defence],
                             rules=self.rules)

    def to_dict(self) -> dict:
        return {
            "hand": str(self.hand), "seat": self.seat,
            "bid": str(self.bid) if self.bid else None,
            "options": [o.to_dict() for o in self.options],
            "recommendation": self.recommendation.to_dict(), "rules": self.rules,
            "defence": self.defence, "model": self.model,
            **sampling_json(self.sampling, samples=self.samples, acceptance=self.acceptance),
            "discard_optimism": round(self.discard_optimism, 3),
            "discard_optimism_tricks": round(self.discard_optimism_tricks, 3),
        }

    def format(self, top: int = 15) -> str:
        """The best (discard, contract) pairs as an aligned table and the advice, in the active language."""
        lang = get_language()
        given = self.sampling.given_text(self.acceptance)
        fields = {"hand": self.hand.symbols(lang), "seat": self.seat, "samples": self.samples}
        if self.bid:
            head = _("Hand {hand} (12 cards), seat {seat}, {samples} samples, bid {bid}", bid=contract_text(self.bid),
                     **fields)
        else:
            head = _("Hand {hand} (12 cards), seat {seat}, {samples} samples", **fields)

        def discard(o: DiscardStats) -> str:
            return "".join(c.format(lang) for c in in_hand_order(o.discard))

        columns = (_("discard"), _("contract"), _("P(make)"), _("expected whists"))
        rows = [head] + ([given] if given else []) + [
                f"{columns[0]:<9}{columns[1]:<9}{columns[2]:>16}{columns[3]:>20}"]
        for o in self.options[:top]:
            s = o.stats
            rows.append(f"{discard(o):<9}{contract_text(s.contract):<9}"
                        f"{s.p_make:>9.3f} ± {s.p_make_se:.3f}{s.expected:>+12.2f} ± {s.expected_se:.2f}")
        if len(self.options) > top:
            rows.append(_("... {more} more (--json lists all)", more=len(self.options) - top))
        b = self.options[0].stats
        rec = self.recommendation
        assert rec.discard is not None     # the talon analysis always names a discard
        rows.append(_("recommendation: discard {discard}, declare {contract} (expected {expected:+.1f} whists, "
                      "P(make) {p_make:.0%})", discard=rec.discard.format(lang), contract=contract_text(b.contract),
                      expected=b.expected, p_make=b.p_make))
        close = margin_text([(f"{discard(o)} {contract_text(o.stats.contract)}", o.stats.expected, o.stats.expected_se)
                             for o in self.options])
        if close:
            rows.append(close)
        rows.append(_("(the discard is chosen from the 12 cards alone, once for every layout; choosing it in each "
                      "layout with sight of the defenders' cards would have promised {whists:+.2f} whists, "
                      "{tricks:+.2f} tricks more)", whists=self.discard_optimism, tricks=self.discard_optimism_tricks))
        return "\n".join(rows)


def analyze_talon(hand12: Hand | str, seat: int = 0, *, sampling: Sampling = TALON_SAMPLING,
                  rules: Rules | str = "sochi", defence: str = "best", bid: Contract | str | None = None,
                  candidates: int = 4, auction: str | None = None, tolerance: float = TOLERANCE,
                  jobs: int | None = None, progress: Progress | None = None) -> TalonAnalysis:
    """Which two cards to discard and what to declare, holding 12 cards.

    The 20 unseen cards are dealt to the two other seats (``sampling.known``
    may place cards in seats, not in the talon, which is in the hand). For
    each strain the ``candidates`` discards most often best double-dummy on a
    pilot (the first samples, up to :data:`PILOT`) are kept — equivalent
    discards counted as one — and each is played on every sample; every
    (discard, contract) pair allowed after ``bid`` is scored on the same
    samples. Options are sorted by expected whists, best first; ties go to
    the higher P(make), then the junior contract. A discard is judged by its
    expectation over the layouts, as the declarer must choose it without seeing
    the defenders' cards; ``discard_optimism`` states how much a discard chosen
    in each layout double-dummy would have promised on top. ``auction``: the
    calls of the deal, won by ``seat``; the defenders' hands are drawn as the
    auction model (:mod:`~prefsolve.analysis.auction_model`) says they show them.

    >>> analyze_talon("A.KT9.KT97.K7")
    Traceback (most recent call last):
    ...
    prefsolve.errors.HandError: 12-card hand 'A.KT9.KT97.K7' has 10 cards, expected 12
    """
    import numpy as np  # on use: see the note in sampling.py
    hand12 = as_hand(hand12, 12, N_("12-card hand"))
    seat = check_seat(seat, "seat")
    defence = check_defence(defence)
    candidates = check_count(candidates, "candidates", 1)
    r = as_rules(rules)
    b = as_contract(bid) if bid is not None else None
    contracts = allowed_contracts(b, r)
    strains = [s for s in STRAINS if any(c.strain == s for c in contracts)]
    if isinstance(sampling, Sampling) and sampling.adaptive is not None:
        raise ConstraintError(_("the talon analysis draws a fixed number of samples, not adaptive ones "
                                "(adaptive={adaptive})", adaptive=repr(sampling.adaptive)))
    if auction is not None:
        check_won(auction, r, seat)
        sampling = condition_on_auction(sampling, auction, seat=seat, rules=r, tolerance=tolerance)
    sampling, sampler = start(sampling, hand12, seat, (0, 1, 2), talon=False, sizes={seat: 12})
    samples = sampling.samples
    leader = leader_for(r, seat)
    full = sampler.draw_masks(samples)
    first10 = Hand(cards_of_mask(hand12.mask)[:10])
    talon = Hand(hand12.mask & ~first10.mask)

    def with_talon(masks: list[int]) -> Deal:
        # Any 10 of the 12 as the hand and the other 2 as the talon: the
        # solver tries all 66 discards of the 12 anyway.
        hands = [Hand(m) for m in masks]
        hands[seat] = first10
        return Deal(hands, talon)

    def with_discard(masks: list[int], discard: Cards) -> Deal:
        hands = [Hand(m) for m in masks]
        hands[seat] = Hand(hand12.mask & ~(1 << discard[0].index) & ~(1 << discard[1].index))
        return Deal(hands)

    # Pilot: the double-dummy best discard per strain names the candidates.
    pilot = min(samples, PILOT)
    jobs_n = resolve_jobs(jobs)

    # The work travels to a cluster's workers under use_scheduler(): it must not
    # hold the progress callback, which the batch calls here, as items finish.
    def pilot_work(d: list[int], solver) -> list:
        td = with_talon(d)
        # With the talon every solution has a discard.
        return [canonical_discard(cast(Cards, solve(td, seat, strain=s, leader=leader, talon_mode="take",
                                                    solver=solver).discard), hand12)
                for s in strains]

    found = map_deals(full[:pilot], pilot_work, jobs=jobs_n, progress=progress)
    cands: dict[str, list[Cards]] = {}
    for i, s in enumerate(strains):
        counts: dict[Cards, int] = {}
        for row in found:
            counts[row[i]] = counts.get(row[i], 0) + 1
        cands[s] = [d for d, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:candidates]

    work = [(s, d) for s in strains for d in cands[s]]

    def eval_work(d: list[int], solver) -> list[int]:
        return [solve(with_discard(d, disc), seat, strain=s, leader=leader, talon_mode="ignore", solver=solver).tricks
                for s, disc in work]

    table = np.asarray(map_deals(full, eval_work, jobs=jobs_n, progress=progress),
                       dtype=np.int8).reshape(samples, len(work))
    options = []
    for j, (s, disc) in enumerate(work):
        t = table[:, j]
        for c in contracts:
            if c.strain == s:
                options.append(DiscardStats(disc, ContractStats.of(c, t, declarer_scores(c, t, defence, r))))
    options.sort(key=lambda o: (-o.stats.expected, -o.stats.p_make, seniority(o.stats.contract, r), o.discard))
    best = options[0]
    # The double-dummy discard's optimism: the recommended contract with, in each layout, the best
    # candidate discard of its strain, against the one discard chosen for all layouts.
    cols = [j for j, (s, _) in enumerate(work) if s == best.stats.contract.strain]
    chosen = next(j for j in cols if work[j][1] == best.discard)
    c_best = best.stats.contract
    per_layout = np.stack([declarer_scores(c_best, table[:, j], defence, r) for j in cols])
    optimism = float(per_layout.max(axis=0).mean() - per_layout[cols.index(chosen)].mean())
    dd_tricks = table[:, cols]
    optimism_tricks = float((dd_tricks.min(axis=1) if c_best.is_misere else dd_tricks.max(axis=1)).mean()
                            - table[:, chosen].mean())
    if c_best.is_misere:
        optimism_tricks = -optimism_tricks
    rec = Recommendation(str(best.stats.contract), best.stats.contract,
                         discard=Cards(in_hand_order(best.discard)), expected=best.stats.expected,
                         expected_se=best.stats.expected_se)
    return TalonAnalysis(hand12, seat, b, sampling, r.label, defence, leader, pilot, tuple(options), rec,
                         optimism, optimism_tricks, sampler.acceptance)
