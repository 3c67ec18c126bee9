"""The benchmark harness: JSON structure, fixed seeds, CLI wiring (tiny sizes)."""

import json

from click.testing import CliRunner

from prefsolve import bench
from prefsolve.cli import main


def test_quick_workloads_report_percentiles_and_nodes(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "contract", (12, 12))
    monkeypatch.setitem(bench.SIZES, "misere", (4, 4))
    res = bench.run(quick=True, only=["contract", "misere", "reference"], tt_mb=8)
    assert res["machine"]["cores"] >= 1 and res["version"]
    for name in ("contract", "misere"):
        w = res["workloads"][name]
        assert w["n"] == bench.SIZES[name][0]
        assert 0 < w["median_us"] <= w["p90_us"] <= w["p99_us"] <= w["max_us"]
        assert w["nodes_median"] > 0 and w["solves_per_s"] > 0
    ref = res["workloads"]["reference"]
    assert ref["identical"] is True and ref["ratio"] > 1


def test_same_seed_same_nodes(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "contract", (8, 8))
    a = bench.run(quick=True, only=["contract"], tt_mb=8)["workloads"]["contract"]
    b = bench.run(quick=True, only=["contract"], tt_mb=8)["workloads"]["contract"]
    assert a["nodes_mean"] == b["nodes_mean"]


def test_parallel_reports_the_median_of_alternated_rounds(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "parallel", (2, 2))
    w = bench.run(quick=True, only=["parallel"])["workloads"]["parallel"]
    jobs = w["jobs"]
    assert len(w["speedups"]) == bench.PARALLEL_ROUNDS
    assert w["speedup"] == sorted(w["speedups"])[bench.PARALLEL_ROUNDS // 2]
    assert w["deals_per_s_1"] > 0 and w[f"deals_per_s_{jobs}"] > 0
    # The machine probe ran in every round, and of_machine compares round by round.
    assert len(w["machine_speedups"]) == bench.PARALLEL_ROUNDS
    assert w["machine_speedup"] == sorted(w["machine_speedups"])[bench.PARALLEL_ROUNDS // 2]
    assert min(w["machine_speedups"]) > 0
    ratios = sorted(e / m for e, m in zip(w["speedups"], w["machine_speedups"]))
    assert abs(w["of_machine"] - ratios[bench.PARALLEL_ROUNDS // 2]) < 0.02


def test_machine_probe_runs_the_loop_it_is_asked_for():
    from prefsolve._core import machine_probe

    # The checksum depends on the number of rounds, so the loop cannot be skipped.
    assert machine_probe(1000) != machine_probe(1001)
    assert bench.machine_rate(1, rounds=100_000) > 0
    assert bench.machine_rate(2, rounds=100_000) > 0


def test_passes_report_the_median_pass_and_list_every_pass(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "contract", (6, 6))
    monkeypatch.setitem(bench.SIZES, "table", (1, 1))
    monkeypatch.setitem(bench.SIZES, "parallel", (2, 2))
    monkeypatch.setattr(bench, "PASSES", (3, 3))
    res = bench.run(quick=True, only=["contract", "table", "parallel"], tt_mb=8)["workloads"]
    for name in ("contract", "table"):
        w = res[name]
        assert w["passes"] == 3 and len(w["pass_medians_us"]) == 3
        assert w["median_us"] == round(sorted(w["pass_medians_us"])[1], 1)
    assert res["table"]["over_1s"] == 0
    # The rounds of the parallel workload are shared out over the passes.
    assert len(res["parallel"]["speedups"]) == bench.PARALLEL_ROUNDS


def test_every_pass_searches_the_same_nodes():
    solver = bench.Solver(8)
    first = bench.time_contracts(6, True, 5, solver)[1]
    # The table now holds these very positions; the next pass clears it first.
    solver.clear()
    assert bench.time_contracts(6, True, 5, solver)[1] == first
    assert bench.time_contracts(6, True, 5, solver)[1] != first


def test_cli_bench_rejects_unknown_workload():
    r = CliRunner().invoke(main, ["bench", "--only", "nope"])
    assert r.exit_code == 2 and "nope" in r.output


def test_cli_bench_prints_json(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "contract", (5, 5))
    r = CliRunner().invoke(main, ["bench", "--quick", "--only", "contract"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output[r.output.index("{"):])
    assert doc["workloads"]["contract"]["n"] == 5
