"""Statistics of a sample set: means with standard errors, proportions, histograms.

Every candidate of an analysis is scored on the same sampled layouts, and
each figure comes with the standard error of its mean (``<stat>_se``).

>>> import numpy as np
>>> tricks = np.array([6, 7, 7, 10])
>>> s = ContractStats.of(Contract.parse("7S"), tricks, np.array([-10.0, 5.0, 5.0, 20.0]))
>>> s.p_make, s.expected, s.tricks_histogram[7]
(0.75, 5.0, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..contract import Contract
from ..i18n import _

# numpy is imported where it is used (see sampling.py).
if TYPE_CHECKING:
    import numpy as np


def mean_se(values: np.ndarray) -> tuple[float, float]:
    """Mean and its standard error (sample std / √n; 0 for one value).

    >>> import numpy as np
    >>> mean_se(np.array([1.0, 3.0]))
    (2.0, 1.0)
    """
    n = len(values)
    mean = float(values.mean())
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    return mean, se


def binomial_se(p: float, n: int) -> float:
    """Standard error of a proportion: √(p(1−p)/n).

    >>> binomial_se(0.5, 100)
    0.05
    """
    return math.sqrt(p * (1 - p) / n)


def tricks_histogram(tricks: np.ndarray) -> tuple[int, ...]:
    """How many samples gave 0, 1, … 10 tricks.

    >>> import numpy as np
    >>> tricks_histogram(np.array([0, 2, 2]))
    (1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0)
    """
    import numpy as np  # on use
    return tuple(int(x) for x in np.bincount(tricks.astype(np.int64), minlength=11)[:11])


def made(contract: Contract, tricks: np.ndarray) -> np.ndarray:
    """Boolean per sample: the contract is made (misère: no trick taken)."""
    return tricks == 0 if contract.is_misere else tricks >= contract.level


@dataclass(frozen=True)
class ContractStats:
    """One contract on one sample set: P(make) and expected whists, each with
    its standard error, and the histogram of the declarer's tricks."""

    contract: Contract
    samples: int
    p_make: float
    p_make_se: float
    expected: float
    expected_se: float
    tricks_histogram: tuple[int, ...]

    @classmethod
    def of(cls, contract: Contract, tricks: np.ndarray, scores: np.ndarray) -> ContractStats:
        """The statistics of ``contract`` from per-sample tricks and scores."""
        n = len(tricks)
        p = float(made(contract, tricks).mean())
        mean, se = mean_se(scores)
        return cls(contract, n, p, binomial_se(p, n), mean, se, tricks_histogram(tricks))

    @property
    def tricks_mean(self) -> float:
        """The declarer's mean tricks."""
        return sum(t * c for t, c in enumerate(self.tricks_histogram)) / self.samples

    def to_dict(self) -> dict:
        return {"p_make": round(self.p_make, 4), "p_make_se": round(self.p_make_se, 4),
                "expected": round(self.expected, 3), "expected_se": round(self.expected_se, 3),
                "tricks_histogram": list(self.tricks_histogram)}


def margin_text(values: Sequence[tuple[str, float, float]], unit: str | None = None) -> str:
    """A note when the best of ``(name, value, value_se)`` (the highest value:
    expected whists, or any figure oriented so that higher is better) leads the
    next by less than the standard error of the difference (√(se₁² + se₂²),
    which ignores the layouts being shared and so overstates the error); ""
    otherwise, in the active language. ``unit`` names the figure's unit (whists unless it says otherwise).

    >>> print(margin_text([("♠A", 0.75, 0.05), ("♠K", 0.70, 0.05)], unit="in P(make)"))
    (close: ♠A leads ♠K by 0.05 in P(make), less than the difference's standard error 0.07)
    """
    if len(values) < 2:
        return ""
    first, second = sorted(values, key=lambda v: -v[1])[:2]
    diff = first[1] - second[1]
    se = (first[2] ** 2 + second[2] ** 2) ** 0.5
    if diff < se:
        return _("(close: {first} leads {second} by {diff:.2f} {unit}, less than the difference's standard "
                 "error {se:.2f})", first=first[0], second=second[0], diff=diff,
                 unit=_("whists") if unit is None else unit, se=se)
    return ""
