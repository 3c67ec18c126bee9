"""Run prefsolve's speed benchmarks and print one JSON object.

    python bench/run.py            # full run (about two minutes on 2 cores here)
    python bench/run.py --quick    # smoke run, under a minute
    python bench/run.py --only contract misere reference
    python bench/run.py --only dask   # a local Dask cluster of 1 and of 2 worker processes
    python bench/run.py --only match  # whole deals played by three advisors

The workloads are those of ``prefsolve bench`` (:mod:`prefsolve.bench`) and
``reference``: the pure-Python reference minimax of ``tests/reference.py``
against the engine on the same 30 random four-card endings, every strain, to
show the engine's speed-up on this machine and that the answers are
identical. It runs from the source tree because the installed package does
not carry the test suite. ``dask`` (:func:`bench_dask`) needs the dask extra
(``pip install ".[dask]"``) and is part of a full run when it is installed.
``match`` (:func:`bench_match`) plays whole deals with three advisors at their
defaults and counts the work of each decision.
"""

from __future__ import annotations

import importlib.util
import logging
import random
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
# The reference solver of the test suite (appended: it shadows nothing).
sys.path.append(str(ROOT / "tests"))

try:
    from prefsolve import bench
    from prefsolve.cards import Card, mask_of_cards
    from prefsolve.engine import DEFAULT_TT_MB, Solver, new_solver
    from prefsolve.errors import PrefsolveError
except ImportError as exc:
    sys.exit(f"bench/run.py: cannot import prefsolve ({exc}); install it first: pip install .")

# The package's workloads with ``reference`` after the single-thread ones, and ``dask``.
WORKLOADS = bench.WORKLOADS[:3] + ("reference",) + bench.WORKLOADS[3:] + ("dask", "match")
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


#: Deals of the ``dask`` workload and its rounds: (quick, full).
DASK_DEALS = (48, 480)
DASK_ROUNDS = (1, 5)


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
    On a shared host the two timings of ``overhead`` can fall in different
    states of the host; ``idle`` does not depend on that: the share of the
    2 workers' time in the run that no task was computing (the scheduler's
    round trips and the tail of the batch), from the task stream's start
    and stop times.
    """
    from distributed import Client, LocalCluster, get_task_stream

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
                                             dashboard_address=":0", silence_logs=logging.ERROR)
            clients[workers] = Client(clusters[workers], set_as_default=False)
            clients[workers].wait_for_workers(workers)
            startup[workers] = time.perf_counter() - t0
            table_many(warm * workers, scheduler=clients[workers])     # import, page in the tables
        table_many(warm * 2, jobs=2)
        rates: dict[str, list[float]] = {"1": [], "2": [], "local_2": []}
        machine: dict[str, list[float]] = {"1": [], "2": []}
        idle: list[float] = []
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
                    wall = time.perf_counter() - t0
                else:
                    machine[name].append(bench.machine_rate(int(name)))
                    with get_task_stream(clients[int(name)]) as stream:
                        t0 = time.perf_counter()
                        got = table_many(deals, scheduler=clients[int(name)], progress=counts.append)
                        wall = time.perf_counter() - t0
                    tasks[name] = len(counts)
                    if name == "2":
                        computing = sum(s["stop"] - s["start"] for task in stream.data
                                        for s in task["startstops"] if s["action"] == "compute")
                        idle.append(1 - computing / (2 * wall))
                rates[name].append(len(deals) / wall)
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
            "machine_speedups": [round(x, 2) for x in machine_ratios],
            "of_machine": round(statistics.median([e / m for e, m in zip(ratios, machine_ratios)]), 2),
            "overhead": round(statistics.median(overheads), 3),
            "overheads": [round(x, 3) for x in overheads],
            "idle": round(statistics.median(idle), 3),
            "idles": [round(x, 3) for x in idle],
            "startup_s": {k: round(v, 2) for k, v in startup.items()},
        }
    finally:
        for c in clients.values():
            c.close()
        for c in clusters.values():
            c.close()


#: Deals of the ``match`` workload: (quick, full).
MATCH_DEALS = (2, 12)
#: The median seconds of a deal played by three advisors that the advice aims at (one core).
MATCH_TARGET_S = 3.0
#: The player of the ``match`` workload: the advisor at its defaults.
MATCH_PLAYER = "advisor"


def bench_match(quick: bool, seed: int) -> dict:
    """Whole deals played by three advisors at their defaults, one after the other on one
    thread: the deals of a match of that seed (``prefsolve match advisor advisor``), each
    played once. Counts are deterministic: the solver calls (searches of the native core,
    ``prefsolve.engine.solver_calls``) of each decision asked (forced moves are not asked)
    and their search nodes (a best discard is one call of many nodes), per deal and per
    decision, by kind of move; times are context: the median seconds of a
    deal (wall and CPU: on a shared host the process's CPU time is the one a core gave it)
    and the deals an hour one core plays (3600 over the mean CPU seconds of a deal)."""
    from prefsolve.match import match_settings
    from prefsolve.players import make_player
    from prefsolve.players.runner import play_deal

    n = MATCH_DEALS[0 if quick else 1]
    settings = match_settings(MATCH_PLAYER, MATCH_PLAYER, deals=n, seed=seed)
    calls, nodes, seconds, cpu, kinds = [], [], [], [], {}
    by_kind: dict[str, list[tuple[int, int]]] = {}
    for number in range(1, n + 1):
        deal, turn, deal_seed = settings.deal(number)
        t0, c0 = time.perf_counter(), time.process_time()
        game = play_deal(deal, [make_player(MATCH_PLAYER) for _ in range(3)], rules=settings.rules,
                         seed=deal_seed, turn=turn)
        seconds.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        calls.append(sum(game.solver_calls))
        nodes.append(sum(game.solver_nodes))
        kind = game.record.deal_kind()
        kinds[kind] = kinds.get(kind, 0) + 1
        for move, c, k in zip(game.record.moves, game.solver_calls, game.solver_nodes):
            if not move.forced:
                by_kind.setdefault(move.kind, []).append((c, k))
    decisions = sum(len(v) for v in by_kind.values())
    return {
        "deals": n, "player": MATCH_PLAYER, "samples": make_player(MATCH_PLAYER).samples, "seed": seed,
        "deal_kinds": kinds,
        "decisions": decisions, "solver_calls": sum(calls),
        "solver_calls_per_decision": round(sum(calls) / decisions, 1),
        "solver_calls_per_deal": calls, "solver_calls_per_deal_median": statistics.median(calls),
        "nodes_per_deal": nodes, "nodes_per_deal_median": statistics.median(nodes),
        "by_kind": {k: {"decisions": len(v), "solver_calls_per_decision": round(statistics.fmean(c for c, _ in v), 1),
                        "nodes_per_decision": round(statistics.fmean(n for _, n in v))}
                    for k, v in by_kind.items()},
        "seconds_per_deal": [round(x, 2) for x in seconds],
        "seconds_per_deal_median": round(statistics.median(seconds), 2),
        "cpu_seconds_per_deal_median": round(statistics.median(cpu), 2),
        "deals_per_hour_per_core": round(3600 / statistics.fmean(cpu), 1),
        "target_seconds_per_deal": MATCH_TARGET_S,
    }


def dask_installed() -> bool:
    return importlib.util.find_spec("distributed") is not None


def run(quick: bool = False, seed: int = 2026, only: list[str] | None = None, tt_mb: int = DEFAULT_TT_MB,
        progress=None) -> dict:
    """The package's run of the workloads ``only`` (default: all, ``dask``
    where it is installed), with ``reference`` and ``dask`` added where they
    were asked for, in the order asked."""
    default = WORKLOADS if dask_installed() else tuple(w for w in WORKLOADS if w != "dask")
    wanted = list(default if only is None else only)
    unknown = [w for w in wanted if w not in WORKLOADS]
    if unknown:
        raise PrefsolveError(f"unknown workload {unknown[0]!r}: expected one of {', '.join(WORKLOADS)}")
    if "dask" in wanted and not dask_installed():
        raise PrefsolveError('the dask workload needs the dask extra: pip install ".[dask]"')
    result = bench.run(quick, seed, [w for w in wanted if w not in ("reference", "dask", "match")], tt_mb,
                       progress=progress)
    done = result["workloads"]
    if "reference" in wanted:
        if progress:
            progress("reference")
        done["reference"] = bench_reference(seed + 3, new_solver(tt_mb))
    if "dask" in wanted:
        if progress:
            progress("dask")
        done["dask"] = bench_dask(quick, seed + 6)
    if "match" in wanted:
        if progress:
            progress("match")
        done["match"] = bench_match(quick, seed + 7)
    result["workloads"] = {name: done[name] for name in wanted}
    return result


def main(argv: list[str] | None = None) -> int:
    return bench.main(argv, runner=run, workloads=WORKLOADS, description=__doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
