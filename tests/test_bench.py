"""The benchmark harness: JSON structure, fixed seeds, CLI wiring (tiny sizes)."""

import importlib.util
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from prefsolve import bench
from prefsolve.cli import main
from prefsolve.errors import PrefsolveError


def load_run_py():
    """bench/run.py as a module: the benchmark runner of the source tree."""
    spec = importlib.util.spec_from_file_location("bench_run", Path(__file__).parents[1] / "bench" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quick_workloads_report_percentiles_and_nodes(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "contract", (12, 12))
    monkeypatch.setitem(bench.SIZES, "misere", (4, 4))
    res = load_run_py().run(quick=True, only=["contract", "misere", "reference"], tt_mb=8)
    assert 1 <= res["machine"]["usable_cores"] <= res["machine"]["cores"] and res["version"]
    assert list(res["workloads"]) == ["contract", "misere", "reference"]
    for name in ("contract", "misere"):
        w = res["workloads"][name]
        assert w["n"] == bench.SIZES[name][0]
        assert 0 < w["median_us"] <= w["p90_us"] <= w["p99_us"] <= w["max_us"]
        assert w["nodes_median"] > 0 and w["solves_per_s"] > 0
    ref = res["workloads"]["reference"]
    assert ref["identical"] is True and ref["ratio"] > 1


def test_the_package_runs_only_workloads_it_carries():
    # The reference solver is the test suite's: the installed package neither
    # offers nor loads it; bench/run.py adds it from the source tree.
    assert "reference" not in bench.WORKLOADS
    with pytest.raises(PrefsolveError, match="python bench/run.py"):
        bench.run(quick=True, only=["reference"])
    assert bench.run(quick=True, only=[])["workloads"] == {}
    run_py = load_run_py()
    assert run_py.WORKLOADS == ("contract", "misere", "table", "reference", "parallel", "analyze", "dask",
                                "match")
    with pytest.raises(PrefsolveError, match="unknown workload 'nope'"):
        run_py.run(quick=True, only=["reference", "nope"])
    assert list(run_py.run(quick=True, only=["reference"])["workloads"]) == ["reference"]


def test_same_seed_same_nodes(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "contract", (8, 8))
    a = bench.run(quick=True, only=["contract"], tt_mb=8)["workloads"]["contract"]
    b = bench.run(quick=True, only=["contract"], tt_mb=8)["workloads"]["contract"]
    assert a["nodes_mean"] == b["nodes_mean"]


def test_parallel_reports_the_median_of_alternated_rounds(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "parallel", (2, 2))
    w = bench.run(quick=True, only=["parallel"])["workloads"]["parallel"]
    jobs = w["jobs"]
    assert jobs == bench.usable_cores()
    assert len(w["speedups"]) == bench.PARALLEL_ROUNDS
    assert w["speedup"] == sorted(w["speedups"])[bench.PARALLEL_ROUNDS // 2]
    assert w["deals_per_s_1"] > 0 and w[f"deals_per_s_{jobs}"] > 0
    assert len(w["machine_speedups"]) == bench.PARALLEL_ROUNDS


def test_each_parallel_timing_follows_a_gauge_on_as_many_threads(monkeypatch):
    # A fake clock and fake timings: the order of the calls and the arithmetic
    # of every ratio are checked exactly.
    monkeypatch.setattr(bench.os, "cpu_count", lambda: 2)
    rounds = bench.ParallelRounds(2, 11)
    calls, clock = [], [0.0]
    engine_s = {1: iter([1.0, 1.1, 0.9, 1.0, 1.2]), 2: iter([0.5, 0.8, 0.5, 0.6, 0.5])}
    gauge = {1: iter([10.0, 10.0, 9.0, 10.0, 10.0]), 2: iter([20.0, 12.0, 18.0, 10.0, 19.0])}

    def fake_rate(jobs):
        calls.append(("gauge", jobs))
        return next(gauge[jobs])

    def fake_table_many(deals, jobs):
        calls.append(("engine", jobs))
        clock[0] += next(engine_s[jobs])

    monkeypatch.setattr(bench, "machine_rate", fake_rate)
    monkeypatch.setattr(bench.time, "perf_counter", lambda: clock[0])
    rounds._table_many = fake_table_many
    for _ in range(5):
        rounds.round()
    one, two = [("gauge", 1), ("engine", 1)], [("gauge", 2), ("engine", 2)]
    assert calls == (one + two) + (two + one) + (one + two) + (two + one) + (one + two)
    w = rounds.result()
    engine = [1.0 / 0.5, 1.1 / 0.8, 0.9 / 0.5, 1.0 / 0.6, 1.2 / 0.5]
    machine = [2.0, 1.2, 2.0, 1.0, 1.9]
    assert w["speedups"] == [round(x, 2) for x in engine]
    assert w["machine_speedups"] == [round(x, 2) for x in machine]
    assert w["speedup"] == round(sorted(engine)[2], 2)
    assert w["machine_speedup"] == round(sorted(machine)[2], 2)
    assert w["of_machine"] == round(sorted(e / m for e, m in zip(engine, machine))[2], 2)


def test_the_machine_gauge_runs_its_loop_on_as_many_threads(monkeypatch):
    from prefsolve._probe import machine_probe

    # The loop's result depends on how many rounds it ran.
    assert machine_probe(1000) == machine_probe(1000) != machine_probe(1001)
    # Its work grows with the rounds (a folded loop would take no time): a
    # generous factor, the small run taken at its fastest of three.
    def seconds(n):
        t0 = time.perf_counter()
        machine_probe(n)
        return time.perf_counter() - t0
    small = min(seconds(1_000_000) for _ in range(3))
    assert seconds(40_000_000) > 4 * small
    # Two loops at the same time: each waits for the other at a barrier, which
    # would break (and the error reach the caller) if they ran in turn.
    seen, both = [], threading.Barrier(2, timeout=10)

    def loop(n):
        seen.append(n)
        both.wait()

    monkeypatch.setattr(bench, "_probe_loop", loop)
    assert bench.machine_rate(2, rounds=1234) > 0
    assert seen == [1234, 1234]
    monkeypatch.setattr(bench, "_probe_loop", lambda n: threading.Barrier(2, timeout=0.01).wait())
    with pytest.raises(threading.BrokenBarrierError):
        bench.machine_rate(2, rounds=1)
    with pytest.raises(PrefsolveError, match="jobs >= 1"):
        bench.machine_rate(0)


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
    r = CliRunner().invoke(main, ["bench", "--only", "reference"])
    assert r.exit_code == 2 and "reference" in r.output


def test_cli_bench_prints_json(monkeypatch):
    monkeypatch.setitem(bench.SIZES, "contract", (5, 5))
    r = CliRunner().invoke(main, ["bench", "--quick", "--only", "contract"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output[r.output.index("{"):])
    assert doc["workloads"]["contract"]["n"] == 5


def test_run_py_uses_the_installed_package_when_src_has_no_built_core(tmp_path):
    # A fresh checkout after "pip install .": src/ holds the sources but no compiled core.
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "run.py").write_text((Path(__file__).parents[1] / "bench" / "run.py").read_text())
    (tmp_path / "src" / "prefsolve").mkdir(parents=True)
    (tmp_path / "src" / "prefsolve" / "__init__.py").write_text("raise ImportError('the unbuilt checkout')\n")
    r = subprocess.run([sys.executable, str(tmp_path / "bench" / "run.py"), "--help"], capture_output=True,
                       text=True, cwd=tmp_path)
    assert r.returncode == 0 and "--quick" in r.stdout, r.stderr


def test_the_match_workload_counts_the_advisors_work(monkeypatch):
    run_py = load_run_py()
    monkeypatch.setattr(run_py, "MATCH_DEALS", (1, 1))
    monkeypatch.setattr(run_py, "MATCH_PLAYER", "advisor:samples=4")
    first = run_py.run(quick=True, only=["match"])["workloads"]["match"]
    again = run_py.run(quick=True, only=["match"])["workloads"]["match"]
    assert first["deals"] == 1 and first["samples"] == 4 and sum(first["deal_kinds"].values()) == 1
    assert first["solver_calls"] == sum(first["solver_calls_per_deal"]) > 0
    assert sum(k["decisions"] for k in first["by_kind"].values()) == first["decisions"] > 0
    assert first["deals_per_hour_per_core"] > 0 and first["seconds_per_deal_median"] >= 0
    assert again["solver_calls"] == first["solver_calls"]      # a count, the same on every run
