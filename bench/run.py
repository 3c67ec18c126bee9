"""Run prefsolve's speed benchmarks and print one JSON object.

    python bench/run.py            # full run (about two minutes on 2 cores here)
    python bench/run.py --quick    # smoke run, under a minute
    python bench/run.py --only contract misere reference

The workloads are those of ``prefsolve bench`` (:mod:`prefsolve.bench`) and
``reference``: the pure-Python reference minimax of ``tests/reference.py``
against the engine on the same 30 random four-card endings, every strain, to
show the engine's speed-up on this machine and that the answers are
identical. It runs from the source tree because the installed package does
not carry the test suite.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
# The source tree, when its core is built there (pip install -e . or build_ext
# --inplace); otherwise the installed package (pip install .), whose core is
# in site-packages: a checkout's src/ without a built core cannot import.
if any((SRC / "prefsolve" / f"_core{suffix}").exists() for suffix in EXTENSION_SUFFIXES):
    sys.path.insert(0, str(SRC))
# The reference solver of the test suite (appended: it shadows nothing).
sys.path.append(str(ROOT / "tests"))

try:
    from prefsolve import bench
    from prefsolve.cards import Card, mask_of_cards
    from prefsolve.engine import DEFAULT_TT_MB, Solver, new_solver
    from prefsolve.errors import PrefsolveError
except ImportError as exc:
    sys.exit(f"bench/run.py: cannot import prefsolve ({exc}); install it first: pip install .")

# The package's workloads with ``reference`` after the single-thread ones.
WORKLOADS = bench.WORKLOADS[:3] + ("reference",) + bench.WORKLOADS[3:]
REFERENCE_CARDS = 4   # cards per hand of the reference workload's endings
STRAINS = ("S", "C", "D", "H", "NT", "misere")


def bench_reference(seed: int, solver: Solver, n: int = 30) -> dict:
    """Reference minimax vs engine on the same n random 4-card endings, all strains."""
    import reference as ref

    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        hands = ref.random_ending(rng, REFERENCE_CARDS)
        cases.append((hands, rng.randrange(3), rng.choice(STRAINS)))
    t0 = time.perf_counter()
    expected = [ref.solve(h, d, s if s in "SCDH" else None, s == "misere", 0) for h, d, s in cases]
    t_ref = time.perf_counter() - t0
    masks = [[mask_of_cards(Card.parse(c) for c in h) for h in hands] for hands, _, _ in cases]
    trumps = ["SCDH".index(s) if s in ("S", "C", "D", "H") else -1 for _, _, s in cases]
    # The engine's first misère search in a process loads its endings tables
    # (about 20 ms): done here, on another solver, so that the timing is of
    # searching whatever ran before.
    new_solver(1).value(masks[0], 0, -1, True, 0)
    t0 = time.perf_counter()
    got = [solver.value(m, d, t, s == "misere", 0) for m, t, (_, d, s) in zip(masks, trumps, cases)]
    t_eng = time.perf_counter() - t0
    return {
        "n": n,
        "cards": REFERENCE_CARDS,
        "reference_us": round(t_ref / n * 1e6, 1),
        "engine_us": round(t_eng / n * 1e6, 1),
        "ratio": round(t_ref / t_eng, 1),
        "identical": got == expected,
    }


def run(quick: bool = False, seed: int = 2026, only: list[str] | None = None, tt_mb: int = DEFAULT_TT_MB,
        progress=None) -> dict:
    """The package's run of the workloads ``only`` (default: all), with
    ``reference`` added where it was asked for, in the order asked."""
    wanted = list(WORKLOADS if only is None else only)
    unknown = [w for w in wanted if w not in WORKLOADS]
    if unknown:
        raise PrefsolveError(f"unknown workload {unknown[0]!r}: expected one of {', '.join(WORKLOADS)}")
    result = bench.run(quick, seed, [w for w in wanted if w != "reference"], tt_mb, progress=progress)
    done = result["workloads"]
    if "reference" in wanted:
        if progress:
            progress("reference")
        done["reference"] = bench_reference(seed + 3, new_solver(tt_mb))
    result["workloads"] = {name: done[name] for name in wanted}
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes, under a minute")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--only", nargs="*", choices=WORKLOADS, help="workloads to run")
    p.add_argument("--tt-mb", type=int, default=DEFAULT_TT_MB)
    args = p.parse_args(argv)
    try:
        res = run(args.quick, args.seed, args.only or None, args.tt_mb,
                  progress=lambda name: print(f"running {name} ...", file=sys.stderr))
    except PrefsolveError as exc:
        p.error(str(exc))     # one line, exit 2
    print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
