"""The classic book's hand-evaluation table, measured: 46 suit holdings under exact play.

For each holding the book estimates its tricks (RULES.md §8); here random
deals give seat 0 the holding and exact double-dummy play counts the tricks
its cards win, as trump and in no-trump.

>>> t = holdings(sampling=Sampling(samples=2, seed=1), numbers=[8], jobs=1)
>>> t.rows[0].holding, t.rows[0].trump, t.rows[0].nt
('AKQJ xxxx', 8.0, 8.0)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from ..batch import map_deals
from ..cards import ALL_CARDS, SUITS, Hand
from ..deal import Deal
from ..errors import PrefsolveError
from ..i18n import N_, _, pgettext
from ._common import Progress
from .sampling import Sampling
from .stats import mean_se

#: The 46 suit holdings of the classic book and its trick estimates (RULES.md §8): number,
#: holding ("x" = a small card, 7..10), estimate as printed, estimate range.
SEED_HOLDINGS: tuple[tuple[int, str, str], ...] = (
    (1, "A", "1"), (2, "AK", "2"), (3, "AKQ", "3"), (4, "AKQJ", "4"), (5, "AKQJ x", "5"),
    (6, "AKQJ xx", "6"), (7, "AKQJ xxx", "7"), (8, "AKQJ xxxx", "8"), (9, "AK xx", "3"),
    (10, "AK xxx", "4.5"), (11, "AK xxxx", "6"), (12, "AQ", "1"), (13, "AQJ", "1"),
    (14, "AQJ x", "2.5"), (15, "AQJ xx", "3.5"), (16, "AQJ xxx", "6.5"), (17, "AQJ xxxx", "7"),
    (18, "AJ", "1"), (19, "AJ x", "1"), (20, "AJ xx", "2"), (21, "AJ xxx", "4.5"),
    (22, "AJ xxxx", "5.5"), (23, "A xx", "1"), (24, "A xxx", "1.5"), (25, "A xxxx", "2.5"),
    (26, "K", "0"), (27, "KQ", "0.7–1"), (28, "KQJ", "1.5–2"), (29, "KQJ x", "3"),
    (30, "KQ xx", "3"), (31, "KQ xxx", "4"), (32, "KQ xxxx", "5"), (33, "KQJ xxxx", "6"),
    (34, "KJ", "0"), (35, "KJ x", "0"), (36, "KJ xx", "0.5–2"), (37, "KJ xxx", "2.5"),
    (38, "KJ xxxx", "4.5"), (39, "QJ", "0"), (40, "QJ x", "0–0.3"), (41, "QJ xx", "0.5–1.5"),
    (42, "QJ xxx", "3"), (43, "QJ xxxx", "4.5"), (44, "J xx", "0"), (45, "J xxx", "0–1"),
    (46, "J xxxx", "0–2"),
)
_SMALL = (0, 1, 2, 3)  # ranks of 7 8 9 10: the book's "x" (RULES.md §8)

#: The holdings' default sampling: 200 deals per holding, a fresh seed.
HOLDINGS_SAMPLING = Sampling(samples=200)


@dataclass(frozen=True)
class HoldingStats:
    """Measured tricks of one holding: mean ± se and sd, as trump and in no-trump."""

    number: int
    holding: str
    seed_estimate: str
    samples: int
    trump: float
    trump_se: float
    trump_sd: float
    nt: float
    nt_se: float
    nt_sd: float

    def to_dict(self) -> dict:
        return {"number": self.number, "holding": self.holding, "seed_estimate": self.seed_estimate,
                "samples": self.samples,
                "trump": round(self.trump, 3), "trump_se": round(self.trump_se, 3),
                "trump_sd": round(self.trump_sd, 3),
                "nt": round(self.nt, 3), "nt_se": round(self.nt_se, 3), "nt_sd": round(self.nt_sd, 3)}


@dataclass(frozen=True)
class HoldingsTable:
    """The book's 46 holdings (RULES.md §8) next to what exact play makes of them."""

    rows: tuple[HoldingStats, ...]
    sampling: Sampling

    @property
    def samples(self) -> int:
        """Deals per holding."""
        return self.sampling.samples

    @property
    def model(self) -> str:
        return _MODEL

    def to_dict(self) -> dict:
        return {"samples": self.samples, "seed": self.sampling.seed, "model": self.model,
                "holdings": [r.to_dict() for r in self.rows]}

    def format(self) -> str:
        """The table, one row per holding, in the active language."""
        # 58 columns: the table fits a terminal of 60.
        # The book's estimate is the "seed" of the analysis (RULES.md §8), not a random seed.
        holding, book, trump, sd, nt = _("holding"), pgettext("the book", "seed"), _("as trump"), _("sd"), _("no-trump")
        out = [f"{'#':>2}  {holding:<10}{book:>6}{trump:>14}{sd:>6}{nt:>14}{sd:>6}"]
        for r in self.rows:
            out.append(f"{r.number:>2}  {r.holding:<10}{r.seed_estimate:>6}"
                       f"{r.trump:>7.2f} ± {r.trump_se:.2f}{r.trump_sd:>6.2f}"
                       f"{r.nt:>7.2f} ± {r.nt_se:.2f}{r.nt_sd:>6.2f}")
        out.append(_("({samples} samples per holding, seed {seed}; {model})", samples=self.samples,
                     seed=self.sampling.seed, model=_(_MODEL)))
        return "\n".join(out)


_MODEL = N_("the holding in a random suit of seat 0's 10 cards, 'x' = random cards 7..10, the other cards random, "
            "the talon out of play; seat 0 declares (holding's suit as trump, or no-trump) and leads; counted: the "
            "tricks seat 0 wins with the holding's cards along one optimal double-dummy line")


def _holding_deal(rng: random.Random, honours: str, small: int) -> tuple[Deal, int]:
    """A random deal with the holding in a random suit of seat 0; talon cards out of play."""
    suit = rng.randrange(4)
    ranks = ["789TJQKA".index(h) for h in honours] + rng.sample(_SMALL, small)
    mine = [ALL_CARDS[suit * 8 + r] for r in ranks]
    others = [c for c in ALL_CARDS if c.suit != suit]
    rng.shuffle(others)
    mine += others[:10 - len(mine)]
    rest = [c for c in ALL_CARDS if c not in mine]
    rng.shuffle(rest)
    return Deal([Hand(mine), Hand(rest[:10]), Hand(rest[10:20])]), suit


def _holding_tricks(deal: Deal, suit: int, strain: str, solver) -> int:
    """Tricks seat 0 wins with cards of ``suit`` along one optimal line (declarer 0, 0 leads)."""
    from ..play import best_line

    line = best_line(deal, 0, strain=strain, solver=solver)
    return sum(1 for t in line.played_tricks
               if t.winner == 0 and t.cards[t.seats.index(0)].suit == suit)


def holdings(*, sampling: Sampling = HOLDINGS_SAMPLING, numbers: Iterable[int] | None = None,
             jobs: int | None = None, progress: Progress | None = None) -> HoldingsTable:
    """Measure the book's holding table (RULES.md §8) by sampling and exact play.

    For each holding, ``sampling.samples`` deals give seat 0 the holding in a random
    suit (the suit is random so that no suit order of the engine favours
    it), "x" as random small cards 7..10, and 10 cards in all; the rest is
    dealt at random and the talon stays out of play (the book's estimate is
    for the hand as dealt). Seat 0 declares, with the holding's suit as trump
    and in no-trump, and leads; the count is the tricks he wins with the
    holding's cards along one optimal line. ``numbers`` picks rows (1..46).
    The deals are not layouts around a hand, so the sampling takes no known
    cards, voids or adaptive stop.

    >>> holdings(numbers=[47])
    Traceback (most recent call last):
    ...
    prefsolve.errors.PrefsolveError: no holding number 47 in the book's table (1..46)
    """
    import numpy as np  # on use: see the note in sampling.py
    if not isinstance(sampling, Sampling):
        raise PrefsolveError(_("sampling must be a Sampling, e.g. Sampling(samples=200, seed=1), got {value}",
                               value=repr(sampling)))
    sampling.only_samples("holdings")
    sampling = sampling.seeded()
    samples, seed = sampling.samples, sampling.seed
    assert seed is not None     # seeded()
    chosen = list(SEED_HOLDINGS)
    if numbers is not None:
        if isinstance(numbers, (int, str)):
            raise PrefsolveError(_("numbers must be a sequence of holding numbers (1..46), e.g. [8], got {value}",
                                   value=repr(numbers)))
        wanted = list(numbers)
        bad = [n for n in wanted if not any(n == h[0] for h in SEED_HOLDINGS)]
        if bad:
            raise PrefsolveError(_("no holding number {number} in the book's table (1..46)", number=repr(bad[0])))
        chosen = [h for h in SEED_HOLDINGS if h[0] in wanted]
    work = []
    for number, text, _estimate in chosen:
        honours, _space, xs = text.partition(" ")
        rng = random.Random(seed * 1000 + number)  # one stream per row: rows are independent
        for _sample in range(samples):
            deal, suit = _holding_deal(rng, honours, len(xs))
            work.append((number, deal, suit))

    # The work travels to a cluster's workers under use_scheduler(): it must not
    # hold the progress callback, which the batch calls here, as items finish.
    def one(item, solver) -> tuple[int, int]:
        _, deal, suit = item
        return (_holding_tricks(deal, suit, SUITS[suit], solver),
                _holding_tricks(deal, suit, "NT", solver))

    results = map_deals(work, one, jobs=jobs, progress=progress)
    rows = []
    for number, text, est in chosen:
        vals = np.asarray([r for (n, _, _), r in zip(work, results) if n == number], dtype=float)
        t_mean, t_se = mean_se(vals[:, 0])
        n_mean, n_se = mean_se(vals[:, 1])
        rows.append(HoldingStats(number, text, est, samples, t_mean, t_se, float(vals[:, 0].std()),
                                 n_mean, n_se, float(vals[:, 1].std())))
    return HoldingsTable(tuple(rows), sampling)

