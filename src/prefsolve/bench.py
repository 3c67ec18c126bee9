"""Speed benchmarks on fixed seeds, printed as one JSON object.

Workloads (single thread, random deals, seat 0 leads):

* ``contract``: one trump or no-trump contract, 10 tricks, no talon;
* ``misere``: one misère, 10 tricks, no talon;
* ``table``: the full table with talon (3 declarers x 6 strains, best of 66
  discards each);
* ``parallel``: deals/s of ``table_many`` with 1 thread and with all cores
  (medians of five alternated rounds), next to the same ratio for a plain
  native compute loop (``machine_speedup``), a gauge of what the host gave
  parallel threads during the run;
* ``analyze``: a bid evaluation (all contracts, talon and best discard in
  every sample) on all cores, in samples/s.

The ``reference`` workload (the pure-Python reference minimax of the test
suite against the engine) needs the source tree: ``python bench/run.py`` adds
it to these.

Times are in microseconds; nodes are search nodes per solve. The same seeds
give the same deals on every machine, so runs can be compared.

A full run times ``contract``, ``misere`` and ``table`` in five passes over
the same deals, one pass of each in turn, with a round of ``parallel`` after
each, so that the passes are spread over the minutes of the run; the table
is cleared before each pass, so every pass searches the same nodes. Each
figure is the median over the passes of that pass's figure, and
``pass_medians_us`` lists every pass's median. On a shared host the speed
of the same code moves by half within minutes; a single pass reports
whichever state it fell in, the median pass the usual one, and the list
shows how far the passes were apart.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable

from . import __version__
from ._probe import machine_probe
from .batch import usable_cores
from .deal import Deal
from .engine import DEFAULT_TT_MB, Solver, new_solver, table_size_mb
from .errors import PrefsolveError
from .i18n import _
from .solver import solve, table

WORKLOADS = ("contract", "misere", "table", "parallel", "analyze")
SIZES = {  # workload: (quick, full)
    "contract": (100, 1000),
    "misere": (60, 1000),
    "table": (8, 1000),
    "parallel": (8, 60),
    "analyze": (40, 1000),
}


PARALLEL_ROUNDS = 5
PASSES = (1, 5)  # timing passes of contract, misere and table: (quick, full)
TIMED = ("contract", "misere", "table", "parallel")  # the workloads run in passes


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def summarize(times_s: list[float], nodes: list[int]) -> dict:
    """The figures of one pass: times in µs, nodes per solve.

    >>> s = summarize([0.001, 0.003, 0.002], [10, 30, 20])
    >>> s["n"], s["median_us"], s["max_us"], s["nodes_median"], s["solves_per_s"]
    (3, 2000.0, 3000.0, 20, 500.0)
    """
    us = [t * 1e6 for t in times_s]
    return {
        "n": len(us),
        "median_us": round(statistics.median(us), 1),
        "p90_us": round(_percentile(us, 90), 1),
        "p99_us": round(_percentile(us, 99), 1),
        "max_us": round(max(us), 1),
        "nodes_median": int(statistics.median(nodes)) if nodes else None,
        "nodes_mean": round(statistics.fmean(nodes), 1) if nodes else None,
        "solves_per_s": round(len(us) / sum(times_s), 1),
    }


def summarize_passes(passes: list[tuple[list[float], list[int]]]) -> dict:
    """One workload's figures from its passes (times and nodes per solve,
    the same deals each pass): each time figure is the median of the
    passes' figures; the nodes are the same in every pass."""
    per = [summarize(times, nodes) for times, nodes in passes]
    out = dict(per[0])
    for key in ("median_us", "p90_us", "p99_us", "max_us", "solves_per_s"):
        out[key] = round(statistics.median(p[key] for p in per), 1)
    out["passes"] = len(per)
    out["pass_medians_us"] = [p["median_us"] for p in per]
    return out


def time_contracts(n: int, misere: bool, seed: int, solver: Solver) -> tuple[list[float], list[int]]:
    """One pass: the times (s) and nodes of n random contracts (or misères)."""
    rng = random.Random(seed)
    times, nodes = [], []
    for _i in range(n):
        deal = Deal.random(rng.randrange(2**32))
        declarer = rng.randrange(3)
        strain = "misere" if misere else rng.choice(["S", "C", "D", "H", "NT"])
        t0 = time.perf_counter()
        sol = solve(deal, declarer, strain=strain, talon_mode="ignore", solver=solver)
        times.append(time.perf_counter() - t0)
        nodes.append(sol.nodes)
    return times, nodes


def time_tables(n: int, seed: int, solver: Solver) -> tuple[list[float], list[int]]:
    """One pass: the times (s) and nodes of n full tables with talon."""
    rng = random.Random(seed)
    times, nodes = [], []
    for _i in range(n):
        deal = Deal.random(rng.randrange(2**32))
        t0 = time.perf_counter()
        t = table(deal, talon_mode="take", solver=solver)
        times.append(time.perf_counter() - t0)
        nodes.append(t.nodes)
    return times, nodes


PROBE_ROUNDS = 100_000_000     # rounds of the machine probe per thread, about 0.1 s


#: The hand of the analyze workload: a hand with real doubts, seat 0.
ANALYZE_HAND = "A.KT9.KT97.K7"


def time_analyze(samples: int = 1000, seed: int = 2026, jobs: int | None = None) -> dict:
    """Time one bid evaluation (all contracts, talon and best discard per sample).

    >>> sorted(time_analyze(samples=2, jobs=1))
    ['jobs', 'samples', 'samples_per_s', 'seconds', 'workload']
    """
    from .analysis import Sampling, analyze
    from .batch import resolve_jobs

    t0 = time.perf_counter()
    analyze(ANALYZE_HAND, 0, sampling=Sampling(samples=samples, seed=seed), jobs=jobs)
    dt = time.perf_counter() - t0
    return {"workload": f"analyze {ANALYZE_HAND} seat 0", "samples": samples, "jobs": resolve_jobs(jobs),
            "seconds": round(dt, 3), "samples_per_s": round(samples / dt, 2)}


def _probe_loop(rounds: int) -> None:
    machine_probe(rounds)


def machine_rate(jobs: int, rounds: int = PROBE_ROUNDS) -> float:
    """Rounds per second of the native compute loop ``machine_probe`` on
    ``jobs`` threads at once.

    Its ratio between all cores and one gauges what the host gives parallel
    threads at that moment. On this project's shared virtual machine a vCPU
    runs at one of two speeds, consistent with another thread sharing its
    physical core now and then; the loop slows with the search, while the
    guest reports no steal time (docs/ENGINE.md, "Threading")."""
    if jobs < 1 or rounds < 1:
        raise PrefsolveError(_("the machine gauge needs jobs >= 1 and rounds >= 1, got {jobs}, {rounds}", jobs=jobs,
                               rounds=rounds))
    t0 = time.perf_counter()
    if jobs == 1:
        _probe_loop(rounds)
    else:
        errors: list[BaseException] = []

        def loop() -> None:
            try:
                _probe_loop(rounds)
            except BaseException as exc:  # handed to the caller below
                errors.append(exc)

        # One thread each, started together (a pool could run two loops in turn).
        threads = [threading.Thread(target=loop) for _ in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
    return jobs * rounds / (time.perf_counter() - t0)


class ParallelRounds:
    """The ``parallel`` workload: rounds that each time ``table_many`` on the
    same deals with one thread and with all cores, in alternating order.

    Five rounds, the order of the two timings swapped each round, and the
    medians kept: on a shared host a burst of load during one timing would
    otherwise set the ratio alone (a single pair once gave 1.33x between
    runs of 1.75-2.12x; with three rounds, one run of nine gave 1.59x when
    the load fell on two of them: 1.35, 1.73, 1.59). A full run spreads the
    rounds over its passes (see the module's docstring).

    Right before each timing, the compute loop of :func:`machine_rate` runs
    on as many threads: ``machine_speedups`` are its ratios, round by round,
    and ``of_machine`` the median of the engine's ratio over the loop's. The
    loop is a gauge, not a ceiling: on a calm host it scales 1.7-2.0x, and it
    runs for 0.1 s before a timing, so it misses some of the host's stretches
    and catches some that end before the timing. Over 35 rounds of one
    series the two ratios correlated at 0.62: a help in telling a busy host
    from a slow engine, not proof either way."""

    def __init__(self, n: int, seed: int):
        from .batch import table_many

        self._table_many = table_many
        rng = random.Random(seed)
        self.deals = [Deal.random(rng.randrange(2**32)) for _ in range(n)]
        warm = [Deal.random(rng.randrange(2**32)) for _ in range(4)]
        self.jobs = usable_cores()
        # Page in the solvers' tables first (other deals, so nothing is cached):
        # the comparison is of solving, not of first-touch page faults.
        table_many(warm, jobs=1)
        table_many(warm * self.jobs, jobs=self.jobs)
        self.rates: dict[int, list[float]] = {1: [], self.jobs: []}
        self.machine: dict[int, list[float]] = {1: [], self.jobs: []}
        self.ratios: list[float] = []
        self.machine_ratios: list[float] = []

    def round(self) -> None:
        n, jobs = len(self.deals), self.jobs
        for j in ((1, jobs) if len(self.ratios) % 2 == 0 else (jobs, 1)):
            self.machine[j].append(machine_rate(j))
            t0 = time.perf_counter()
            self._table_many(self.deals, jobs=j)
            self.rates[j].append(n / (time.perf_counter() - t0))
        self.ratios.append(self.rates[jobs][-1] / self.rates[1][-1])
        self.machine_ratios.append(self.machine[jobs][-1] / self.machine[1][-1])

    def result(self) -> dict:
        jobs = self.jobs
        return {
            "jobs": jobs,
            "deals_per_s_1": round(statistics.median(self.rates[1]), 2),
            f"deals_per_s_{jobs}": round(statistics.median(self.rates[jobs]), 2),
            "speedup": round(statistics.median(self.ratios), 2),
            "speedups": [round(x, 2) for x in self.ratios],
            "machine_speedup": round(statistics.median(self.machine_ratios), 2),
            "machine_speedups": [round(x, 2) for x in self.machine_ratios],
            "of_machine": round(statistics.median(
                [e / m for e, m in zip(self.ratios, self.machine_ratios)]), 2),
        }


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    # `cores` is the machine's; `usable_cores` what this process may use (its
    # affinity and CPU quota), which is what `parallel` and `analyze` run on.
    return {"cpu": cpu, "cores": os.cpu_count(), "usable_cores": usable_cores(),
            "python": platform.python_version(), "platform": platform.platform()}


def run(quick: bool = False, seed: int = 2026, only: list[str] | None = None,
        tt_mb: int = DEFAULT_TT_MB, progress=None) -> dict:
    """Run the workloads ``only`` (default: all of them; an empty list runs
    none) and return the JSON-ready result."""
    solver = new_solver(tt_mb)
    pick = 0 if quick else 1
    wanted = list(WORKLOADS if only is None else only)
    unknown = [w for w in wanted if w not in WORKLOADS]
    if unknown:
        # The reference solver is the test suite's: it runs from the source tree.
        if unknown[0] == "reference":
            raise PrefsolveError(_("unknown workload {workload}: expected one of {workloads} (the reference workload "
                                   "runs from the source tree: python bench/run.py)", workload=repr(unknown[0]),
                                   workloads=", ".join(WORKLOADS)))
        raise PrefsolveError(_("unknown workload {workload}: expected one of {workloads}", workload=repr(unknown[0]),
                               workloads=", ".join(WORKLOADS)))
    # `tt_mb` sizes the single-thread workloads; `parallel` and `analyze` run on
    # the per-thread solvers of the batch API, sized by PREFSOLVE_TT_MB.
    workloads: dict[str, object] = {}
    result = {"version": __version__, "quick": quick, "seed": seed, "tt_mb": tt_mb,
              "threads_tt_mb": table_size_mb(), "machine": machine(), "workloads": workloads}
    results = run_passes([w for w in wanted if w in TIMED], PASSES[pick], pick, seed, solver, progress)
    for name in wanted:
        if name in results:
            res = results[name]
        else:
            if progress:
                progress(name)
            res = time_analyze(samples=SIZES[name][pick], seed=seed + 5)
        workloads[name] = res
    return result


def run_passes(names: list[str], passes: int, pick: int, seed: int, solver: Solver,
               progress=None) -> dict:
    """The timed workloads ``names`` in ``passes`` passes, one pass of each in
    turn, the rounds of ``parallel`` shared out over the passes."""
    runs: dict[str, list] = {name: [] for name in names}
    par = ParallelRounds(SIZES["parallel"][pick], seed + 4) if "parallel" in names else None
    for p in range(passes):
        for name in names:
            if progress:
                progress(name if passes == 1 else _("{name} (pass {number} of {passes})", name=name, number=p + 1,
                                                    passes=passes))
            if name == "parallel":
                assert par is not None   # made above when "parallel" is in names
                for _round in range(p, PARALLEL_ROUNDS, passes):
                    par.round()
                continue
            solver.clear()  # every pass searches the same nodes
            n = SIZES[name][pick]
            if name == "contract":
                runs[name].append(time_contracts(n, False, seed, solver))
            elif name == "misere":
                runs[name].append(time_contracts(n, True, seed + 1, solver))
            else:
                runs[name].append(time_tables(n, seed + 2, solver))
    out = {}
    for name in names:
        if name == "parallel":
            assert par is not None
            out[name] = par.result()
            continue
        out[name] = summarize_passes(runs[name])
        if name == "table":
            out[name]["over_1s"] = max(sum(t > 1.0 for t in times) for times, _ in runs[name])
    return out


def main(argv: list[str] | None = None, *, runner: Callable[..., dict] | None = None,
         workloads: tuple[str, ...] = WORKLOADS, description: str | None = None) -> int:
    """The benchmark's command line: these workloads, run by ``runner``
    (default :func:`run`); bench/run.py passes its own, which adds the
    workloads that need the source tree."""
    import argparse
    import json

    runner = run if runner is None else runner
    p = argparse.ArgumentParser(description=description or __doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help=_("small sizes, under a minute"))
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--only", nargs="*", choices=workloads, help=_("workloads to run"))
    p.add_argument("--tt-mb", type=int, default=DEFAULT_TT_MB)
    args = p.parse_args(argv)
    try:
        res = runner(args.quick, args.seed, args.only or None, args.tt_mb,
                     progress=lambda name: print(_("running {name} ...", name=name), file=sys.stderr))
    except PrefsolveError as exc:
        p.error(str(exc))     # one line, exit 2
    print(json.dumps(res, indent=2))
    return 0
