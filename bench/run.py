"""Run prefsolve's speed benchmarks and print one JSON object.

    python bench/run.py            # full run (about two minutes on 2 cores here)
    python bench/run.py --quick    # smoke run, under a minute
    python bench/run.py --only contract misere
    python bench/run.py --only dask     # a local Dask cluster of 1 and of 2 worker processes

The workloads are those of ``prefsolve.bench``, and ``dask`` (this file,
:func:`bench_dask`), which needs the dask extra (``pip install ".[dask]"``)
and is part of a full run when it is installed.
"""

import statistics
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

try:
    from prefsolve import bench  # noqa: E402
    from prefsolve.errors import PrefsolveError  # noqa: E402
except ImportError as exc:
    sys.exit(f"bench/run.py: cannot import prefsolve ({exc}); install it first: pip install .")


# -- the dask workload ---------------------------------------------------------

#: Deals of the ``dask`` workload and its rounds: (quick, full).
DASK_DEALS = (48, 240)
DASK_ROUNDS = (1, 3)


def bench_dask(quick: bool, seed: int) -> dict:
    """Full tables with talon (``table_many``) on a local Dask cluster of 1 and
    of 2 worker processes (one thread each), and on 2 threads of this process.

    Both clusters are started first and warmed on other deals. Each round
    times the three runs on the same deals, in an order that turns round
    by round; right before each cluster timing the compute loop of
    ``prefsolve.bench.machine_rate`` runs on as many threads, so that
    ``machine_speedup`` says what the host gave two cores at the time, as
    in the ``parallel`` workload. ``speedup`` is the 2-worker rate over the
    1-worker rate; ``overhead`` is how much slower 2 workers are than
    ``table_many(jobs=2)``, on the same 2 cores (medians of the rounds).
    """
    import logging
    import random

    from distributed import Client, LocalCluster

    from prefsolve.batch import table_many
    from prefsolve.deal import Deal

    pick = 0 if quick else 1
    rng = random.Random(seed)
    deals = [Deal.random(rng.randrange(2**32)) for _ in range(DASK_DEALS[pick])]
    warm = [Deal.random(rng.randrange(2**32)) for _ in range(8)]
    clusters, clients, startup = {}, {}, {}
    try:
        for workers in (1, 2):
            t0 = time.perf_counter()
            clusters[workers] = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=logging.ERROR)
            clients[workers] = Client(clusters[workers], set_as_default=False)
            clients[workers].wait_for_workers(workers)
            startup[workers] = time.perf_counter() - t0
            table_many(warm * workers, scheduler=clients[workers])     # import, page in the tables
        table_many(warm * 2, jobs=2)
        rates: dict[str, list[float]] = {"1": [], "2": [], "local_2": []}
        machine: dict[str, list[float]] = {"1": [], "2": []}
        tasks: dict[str, int] = {}
        expected = None
        for r in range(DASK_ROUNDS[pick]):
            order = ["1", "2", "local_2"]
            for _ in range(r % 3):
                order.append(order.pop(0))
            for name in order:
                counts: list[int] = []
                if name == "local_2":
                    t0 = time.perf_counter()
                    got = table_many(deals, jobs=2)
                else:
                    machine[name].append(bench.machine_rate(int(name)))
                    t0 = time.perf_counter()
                    got = table_many(deals, scheduler=clients[int(name)], progress=counts.append)
                    tasks[name] = len(counts)
                rates[name].append(len(deals) / (time.perf_counter() - t0))
                if expected is None:
                    expected = got
                elif not (got == expected).all():
                    raise AssertionError(f"the dask workload's {name} run solved other tricks")
        ratios = [b / a for a, b in zip(rates["1"], rates["2"])]
        machine_ratios = [b / a for a, b in zip(machine["1"], machine["2"])]
        overheads = [1 - c / t for c, t in zip(rates["2"], rates["local_2"])]
        return {
            "deals": len(deals),
            "rounds": DASK_ROUNDS[pick],
            "tasks_1": tasks["1"],
            "tasks_2": tasks["2"],
            "identical": True,      # every run's tricks equal the first's (checked above)
            "deals_per_s_1": round(statistics.median(rates["1"]), 2),
            "deals_per_s_2": round(statistics.median(rates["2"]), 2),
            "local_deals_per_s_2": round(statistics.median(rates["local_2"]), 2),
            "speedup": round(statistics.median(ratios), 2),
            "speedups": [round(x, 2) for x in ratios],
            "machine_speedup": round(statistics.median(machine_ratios), 2),
            "of_machine": round(statistics.median([e / m for e, m in zip(ratios, machine_ratios)]), 2),
            "overhead": round(statistics.median(overheads), 3),
            "overheads": [round(x, 3) for x in overheads],
            "startup_s": {k: round(v, 2) for k, v in startup.items()},
        }
    finally:
        for c in clients.values():
            c.close()
        for c in clusters.values():
            c.close()


def dask_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("distributed") is not None


# -- the command -----------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes, under a minute")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--only", nargs="*", choices=bench.WORKLOADS + ("dask",), help="workloads to run")
    p.add_argument("--tt-mb", type=int, default=bench.DEFAULT_TT_MB)
    args = p.parse_args(argv)
    wanted = list(args.only or bench.WORKLOADS + (("dask",) if dask_installed() else ()))
    if "dask" in wanted and not dask_installed():
        p.error('the dask workload needs the dask extra: pip install ".[dask]"')
    others = [w for w in wanted if w != "dask"]

    def progress(name: str) -> None:
        print(f"running {name} ...", file=sys.stderr)

    try:
        if others:
            res = bench.run(args.quick, args.seed, others, args.tt_mb, progress=progress)
        else:   # the header of bench.run, without its workloads
            res = {"version": bench.__version__, "quick": args.quick, "seed": args.seed, "tt_mb": args.tt_mb,
                   "threads_tt_mb": bench.table_size_mb(), "machine": bench.machine(), "workloads": {}}
    except PrefsolveError as exc:
        p.error(str(exc))     # one line, exit 2
    if "dask" in wanted:
        progress("dask")
        res["workloads"]["dask"] = bench_dask(args.quick, args.seed + 6)
    print(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
