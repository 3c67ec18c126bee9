"""Fit the misère first guess and write it as src/prefsolve/_misere_guess.h.

The exact value of a misère comes from null-window probes that start at a
guess and step towards the value (``root_value_from`` in ``_core.pyx``).
Only speed depends on the guess: two probes when it is the value or one
above, one more for each trick it is off. The guess is a sum of fitted
weights, one per suit for that suit's layout (which of the declarer, his
left-hand and his right-hand opponent holds each card still in play, by
rank among them: 9,841 layouts of 0 to 8 cards) and one for who leads.

The weights are a ridge least-squares fit to the exact values of random
misères (no talon, seat 0 leads, every declarer), solved by this engine on
all cores: the labels do not depend on the guess. The seeds are not the
bench's (2026-2031) or the tests'. Run from the repository root after a
build; it takes about eight minutes on two cores::

    python bench/fit_misere_guess.py            # writes the header
    python bench/fit_misere_guess.py --check    # only reports the fit

Then rebuild (``python setup.py build_ext --inplace``).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from prefsolve import Deal, solve_many

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "src" / "prefsolve" / "_misere_guess.h"

MAX_SUIT = 8
# LAYOUTS[k]: the index of the first layout of k cards; layouts of k cards
# are numbered by their base-3 digits (0 declarer, 1 left, 2 right), lowest
# card first, as _core.pyx's suit_layout computes them.
LAYOUTS = [(3**k - 1) // 2 for k in range(MAX_SUIT + 2)]
N_LAYOUTS = LAYOUTS[MAX_SUIT + 1]          # 9841
LEAD = N_LAYOUTS                           # then who leads: declarer, left, right
N_WEIGHTS = LEAD + 3
UNIT = 1000                                # the header's weights: thousandths of a trick


def suit_layout(d: int, left: int, right: int) -> int:
    """The layout index of one suit's 8-bit masks (as _core.pyx computes it)."""
    code, p, k = 0, 1, 0
    for rank in range(8):
        bit = 1 << rank
        if not (d | left | right) & bit:
            continue
        code += p * (1 if left & bit else 2 if right & bit else 0)
        p *= 3
        k += 1
    return LAYOUTS[k] + code


def features(masks: list[tuple[int, int, int]], declarer: int, leader: int = 0) -> list[int]:
    """The five weight indices of one position: four suit layouts and who leads."""
    d, left, right = (masks[(declarer + i) % 3] for i in range(3))
    cols = [suit_layout((d >> 8 * s) & 255, (left >> 8 * s) & 255, (right >> 8 * s) & 255)
            for s in range(4)]
    cols.append(LEAD + (leader - declarer) % 3)
    return cols


def make_data(n: int, seed: int, jobs: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Feature indices (n, 5) and exact misère values (n,) of n random deals."""
    rng = random.Random(seed)
    deals = [Deal.random(rng.randrange(2**32)) for _ in range(n)]
    cols = np.zeros((n, 5), np.int64)
    values = np.zeros(n, np.float64)
    for declarer in range(3):
        idx = list(range(declarer, n, 3))
        t0 = time.perf_counter()
        values[idx] = solve_many([deals[i] for i in idx], declarer, "misere", 0,
                                 talon=False, jobs=jobs)
        print(f"  declarer {declarer}: {len(idx)} misères in {time.perf_counter() - t0:.0f} s",
              file=sys.stderr)
        for i in idx:
            cols[i] = features([h.mask for h in deals[i].hands], declarer)
    return cols, values


def fit(cols: np.ndarray, values: np.ndarray, lam: float, n_weights: int = N_WEIGHTS) -> np.ndarray:
    """Ridge least squares over one-hot columns, by conjugate gradients."""
    flat = cols.ravel()

    def apply(w: np.ndarray) -> np.ndarray:          # (X'X + lam I) w
        r = w[cols].sum(1)
        return np.bincount(flat, np.repeat(r, cols.shape[1]), n_weights) + lam * w

    b = np.bincount(flat, np.repeat(values, cols.shape[1]), n_weights)
    w = np.zeros(n_weights)
    r = b - apply(w)
    p = r.copy()
    rs = r @ r
    for _ in range(10_000):
        ap = apply(p)
        a = rs / (p @ ap)
        w += a * p
        r -= a * ap
        rs_new = r @ r
        if rs_new <= 1e-18 * (b @ b):
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return w


def report(name: str, w: np.ndarray, cols: np.ndarray, values: np.ndarray) -> str:
    pred = w[cols].sum(1)
    guess = np.floor(pred + 1.0)
    hit = np.mean((guess == values) | (guess == values + 1))
    return (f"{name}: rms error {np.sqrt(np.mean((pred - values) ** 2)):.3f} tricks, "
            f"guess the value or one above for {100 * hit:.1f}%")


def header_text(w: np.ndarray, note: list[str]) -> str:
    """The header for weights ``w`` (in tricks): the table and its named
    offsets, through which _core's guess_tricks indexes it."""
    q = np.round(w * UNIT).astype(np.int64)
    assert -32768 < q.min() and q.max() < 32768
    rows = [", ".join(str(x) for x in q[i:i + 16]) for i in range(0, len(q), 16)]
    return ("/* Generated by bench/fit_misere_guess.py: do not edit.\n"
            + "".join(f"   {line}\n" for line in note)
            + "   Weights in thousandths of a trick: PS_MISERE_GUESS[layout] for each\n"
              "   suit, then [PS_MISERE_GUESS_LEAD + (leader - declarer) % 3].\n"
              "   Only speed depends on them. */\n"
              "#include <stdint.h>\n"
              f"#define PS_MISERE_GUESS_UNIT {UNIT}  /* weights per trick */\n"
              f"#define PS_MISERE_GUESS_LEAD {LEAD}  /* then who leads: declarer, left, right */\n"
              f"#define PS_MISERE_GUESS_SIZE {len(q)}\n"
              "static const int16_t PS_MISERE_GUESS[PS_MISERE_GUESS_SIZE] = {\n"
            + ",\n".join(f"    {row}" for row in rows) + "\n};\n")


def write_header(w: np.ndarray, note: list[str]) -> None:
    HEADER.write_text(header_text(w, note))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=600_000, help="training misères")
    ap.add_argument("--held-out", type=int, default=30_000, help="misères to check the fit on")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--ridge", type=float, default=3.0)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--check", action="store_true", help="report only, do not write")
    args = ap.parse_args()
    print(f"solving {args.deals} + {args.held_out} misères", file=sys.stderr)
    cols, values = make_data(args.deals, args.seed, args.jobs)
    hcols, hvalues = make_data(args.held_out, args.seed + 1, args.jobs)
    w = fit(cols, values, args.ridge)
    note = [f"{args.deals} misères (seed {args.seed}), ridge {args.ridge:g}.",
            report("Training set", w, cols, values) + ";",
            report(f"{args.held_out} held out (seed {args.seed + 1})", w, hcols, hvalues) + "."]
    print("\n".join(note))
    if not args.check:
        write_header(w, note)
        print(f"wrote {HEADER.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
