"""Regenerate the golden files. Run from the repository root:

    PYTHONPATH=src:tests python tests/data/make_golden.py

endings.txt — random 6- and 7-card endings, every declarer and strain, solved
by the memoised reference minimax of tests/reference.py (independent of the
engine).

tables.txt — random full deals with talon: for each declarer and strain the
best over all 66 discards, each discard solved by the engine without any
discard pruning. Slow to make, fast to check; it guards the pruned
best-discard search and every later speed change.
"""

import itertools
import random
import sys

from prefsolve import Deal
from prefsolve._core import Solver
from prefsolve.solver import STRAINS, trump_of

import reference as ref

TRUMPS = {"S": "S", "C": "C", "D": "D", "H": "H", "NT": None, "misere": None}


def card_lists(deal):
    return [[str(c) for c in h] for h in deal.hands]


def endings(out):
    rng = random.Random(2026)
    out.write("# deal | leader | tricks for declarers 0,1,2 in S C D H NT misere (reference minimax)\n")
    for cards, count in ((6, 24), (7, 6)):
        for _ in range(count):
            deal = Deal.random(rng.randrange(10**9), cards=cards)
            leader = rng.randrange(3)
            hands = card_lists(deal)
            rows = []
            for declarer in range(3):
                rows.append(" ".join(
                    str(ref.solve_memo(hands, declarer, TRUMPS[s], s == "misere", leader))
                    for s in STRAINS))
            out.write(f"{deal} | {leader} | {' / '.join(rows)}\n")
            out.flush()


def tables(out):
    solver = Solver(64)
    out.write("# deal | leader | best-of-66 tricks for declarers 0,1,2 in S C D H NT misere\n")
    for seed in range(1, 7):
        deal = Deal.random(seed * 1000)
        rows = []
        for declarer in range(3):
            full = deal.hands[declarer].mask | deal.talon.mask
            cards = [i for i in range(32) if full >> i & 1]
            vals = []
            for strain in STRAINS:
                values = []
                for a, b in itertools.combinations(cards, 2):
                    hands = [h.mask for h in deal.hands]
                    hands[declarer] = full & ~(1 << a) & ~(1 << b)
                    values.append(solver.value(hands, declarer, trump_of(strain),
                                               strain == "misere", 0))
                vals.append(min(values) if strain == "misere" else max(values))
            rows.append(" ".join(map(str, vals)))
        out.write(f"{deal} | 0 | {' / '.join(rows)}\n")
        out.flush()


if __name__ == "__main__":
    which = sys.argv[1:] or ["endings", "tables"]
    if "endings" in which:
        with open("tests/data/endings.txt", "w") as f:
            endings(f)
    if "tables" in which:
        with open("tests/data/tables.txt", "w") as f:
            tables(f)
