"""What passing costs: the player's all-pass tricks over sampled layouts.

The layouts are those :func:`~prefsolve.analysis.bid.analyze` draws for the
same sampling, so the two compare sample for sample. Each is solved exactly
for the player's guarantee (:func:`prefsolve.allpass.solve_allpass`).

>>> a = analyze_allpass("A.AKQ.AKQ.AKQ", 0, sampling=Sampling(samples=3, seed=1), jobs=1)
>>> a.tricks_histogram[0], a.samples, a.recommendation.call
(0, 3, 'pass')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import cast

from ..batch import map_deals
from ..cards import Hand
from ..checks import check_count, check_seat
from ..i18n import N_, _
from ..rules import Rules
from ._common import Progress, as_hand, as_rules
from .recommendation import Recommendation
from .sampling import DEFAULT_SAMPLING, ConstraintError, Sampling, sampling_json, start
from .stats import binomial_se, mean_se, tricks_histogram

#: How the all-pass score of one sample is modelled (stated in every result).
ALLPASS_MODEL = N_("the player takes his guaranteed tricks (the fewest he can be sure of against "
                   "two opponents playing to load him); the other two share the rest as evenly as "
                   "possible; one all-pass deal scored alone")


@dataclass(frozen=True)
class AllpassAnalysis:
    """The player's all-pass tricks over sampled layouts and what they score."""

    hand: Hand
    seat: int
    sampling: Sampling
    rules: str
    talon_mode: str
    allpass_count: int
    tricks_histogram: tuple[int, ...]
    tricks_mean: float
    tricks_mean_se: float
    p_zero: float
    p_zero_se: float
    expected: float
    expected_se: float
    recommendation: Recommendation
    acceptance: float | None = None
    """The fraction of layouts tried that met ``sampling.conditions`` (``None`` without conditions)."""

    @property
    def samples(self) -> int:
        return sum(self.tricks_histogram)

    def to_dict(self) -> dict:
        return {"hand": str(self.hand), "seat": self.seat, "rules": self.rules,
                "talon_mode": self.talon_mode, "allpass_count": self.allpass_count,
                "tricks_histogram": list(self.tricks_histogram), "tricks_mean": round(self.tricks_mean, 3),
                "tricks_mean_se": round(self.tricks_mean_se, 3), "p_zero": round(self.p_zero, 4),
                "p_zero_se": round(self.p_zero_se, 4), "expected": round(self.expected, 3),
                "expected_se": round(self.expected_se, 3),
                "recommendation": self.recommendation.to_dict(), "model": ALLPASS_MODEL,
                **sampling_json(self.sampling, samples=self.samples, acceptance=self.acceptance)}

    def format(self) -> str:
        """The guaranteed tricks, the chance of none and the expected whists, in the active language."""
        hist = " ".join(f"{t}:{c}" for t, c in enumerate(self.tricks_histogram) if c)
        given = self.sampling.given_text()
        labels = [_("guaranteed tricks"), _("no trick at all"), _("expected whists")]
        width = max(18, *(len(label) + 1 for label in labels))
        return "\n".join([
            _("All-pass for seat {seat} ({samples} samples, talon {talon_mode}, rules {rules}):", seat=self.seat,
              samples=self.samples, talon_mode=self.talon_mode, rules=self.rules),
            f"  {labels[0]:<{width}} {self.tricks_mean:.2f} ± {self.tricks_mean_se:.2f}   "
            + _("(tricks:count {histogram})", histogram=hist),
            f"  {labels[1]:<{width}} {self.p_zero:.3f} ± {self.p_zero_se:.3f}",
            f"  {labels[2]:<{width}} {self.expected:+.2f} ± {self.expected_se:.2f}",
            "  " + _("model: {model}", model=_(ALLPASS_MODEL)),
        ] + ([f"  {given}"] if given else []))


def allpass_talon_mode(rules: Rules | str) -> str:
    """The talon's part in all-pass under a profile (RULES.md §4.3): ``lead`` or ``ignore``."""
    rules = Rules.of(rules)
    return "ignore" if rules.raspasy_talon == "ignored" else "lead"


def analyze_allpass(hand: Hand | str, seat: int = 0, *, sampling: Sampling = DEFAULT_SAMPLING,
                    rules: Rules | str = "sochi", allpass_count: int = 0, jobs: int | None = None,
                    progress: Progress | None = None) -> AllpassAnalysis:
    """The distribution of a player's all-pass tricks over sampled layouts.

    The talon leads tricks 1 and 2 or is ignored as the profile says, turned
    in a random (seeded) order. ``allpass_count`` is how many all-passes were
    played in a row before this deal. The expected score uses :data:`ALLPASS_MODEL`.

    >>> analyze_allpass("987.87.87.987", allpass_count=-1)
    Traceback (most recent call last):
    ...
    prefsolve.errors.PrefsolveError: allpass_count must be a whole number 0 or more, got -1
    """
    import numpy as np  # on use: see the note in sampling.py

    from ..allpass import solve_allpass
    from ..scoring import allpass_balance

    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    allpass_count = check_count(allpass_count, "allpass_count", 0)
    r = as_rules(rules)
    if isinstance(sampling, Sampling) and sampling.adaptive is not None:
        raise ConstraintError(_("the all-pass analysis draws a fixed number of samples, not adaptive ones "
                                "(adaptive={adaptive})", adaptive=repr(sampling.adaptive)))
    mode = allpass_talon_mode(r)
    sampling, sampler = start(sampling, hand, seat)
    samples = sampling.samples
    deals = sampler.draw(samples)
    # The talon cards lie in a random order; a separate stream keeps the layouts
    # identical to analyze()'s for the same seed.
    assert sampling.seed is not None    # start() seeds the sampling
    order = random.Random(sampling.seed ^ 0x5A11)
    # The Sampler deals a talon (talon=True).
    turns = [tuple(order.sample(list(cast(Hand, d.talon)), 2)) for d in deals]

    def work(item, solver):
        deal, turn = item
        return solve_allpass(deal, seat, talon_mode=mode, turn=turn if mode == "lead" else None,
                             solver=solver).tricks

    tricks = np.asarray(map_deals(list(zip(deals, turns)), work, jobs=jobs, progress=progress), dtype=np.int64)
    scores = []
    for t in tricks:
        rest = 10 - int(t)
        share = [0, 0, 0]
        share[seat] = int(t)
        share[(seat + 1) % 3] = (rest + 1) // 2
        share[(seat + 2) % 3] = rest // 2
        scores.append(float(allpass_balance(share, r, allpass_count)[seat]))
    mean, mse = mean_se(tricks.astype(float))
    p0 = float((tricks == 0).mean())
    exp, exp_se = mean_se(np.asarray(scores))
    rec = Recommendation("pass", expected=exp, expected_se=exp_se)
    return AllpassAnalysis(hand, seat, sampling, r.label, mode, allpass_count, tricks_histogram(tricks),
                           mean, mse, p0, binomial_se(p0, samples), exp, exp_se, rec, sampler.acceptance)
