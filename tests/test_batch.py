"""Batch solving and the CLI's --file: results equal to one-by-one solving on one or two
threads, streamed in order with bounded memory, and the cores used by default."""

import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

from prefsolve import STRAINS, Card, Deal, Table, solve, solve_many, table, table_many
from prefsolve.batch import check_deals, iter_tables, tables
from prefsolve.cli import main
from prefsolve.errors import DealError, PrefsolveError, SeatError

DEALS = [Deal.random(s) for s in range(6)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_table_many_equals_table(jobs):
    got = table_many(DEALS[:3], jobs=jobs)
    assert got.shape == (3, 3, 6) and got.dtype == np.int8
    for i, d in enumerate(DEALS[:3]):
        t = table(d)
        assert got[i].tolist() == [[t.tricks[p][s] for s in STRAINS] for p in range(3)]


def test_table_many_one_declarer_row():
    got = table_many(DEALS[:2], declarers=(1,), jobs=2)
    assert got.shape == (2, 1, 6)
    assert got[1, 0, 5] == solve(DEALS[1], 1, strain="misere").tricks


def test_solve_many_equals_solve():
    endings = [Deal.random(s, cards=6) for s in range(20)]
    got = solve_many(endings, 2, strain="NT", leader=1, talon_mode="ignore", jobs=2)
    assert got.tolist() == [solve(d, 2, strain="NT", leader=1, talon_mode="ignore").tricks for d in endings]


def test_hints_shared_across_calls_change_nothing_but_the_work():
    from prefsolve import DiscardHints
    from prefsolve.analysis.sampling import Sampler, _known_hands
    from prefsolve.cards import Hand

    own = Hand.parse("AK.KT9.KT9.87")
    deals = Sampler(_known_hands(None, 0, own, (0, 1, 2, "talon")), 3, None).draw(8)
    hints = DiscardHints()
    first = table_many(deals[:4], declarers=(0,), jobs=2, hints=hints)
    # The second call starts from the first call's discards.
    assert hints.lookup(own.mask, deals[4].talon.mask, (0, 0, "misere"))[0]
    second = table_many(deals[4:], declarers=(0,), jobs=2, hints=hints)
    plain = table_many(deals, declarers=(0,), jobs=1)
    assert np.concatenate([first, second]).tolist() == plain.tolist()
    assert (solve_many(deals, 0, strain="D", jobs=2, hints=hints).tolist()
            == [solve(d, 0, strain="D").tricks for d in deals])


def test_hints_of_the_wrong_type_are_a_clear_error():
    with pytest.raises(PrefsolveError, match="hints must be a DiscardHints or None, got dict"):
        table_many(DEALS[:1], hints={})
    with pytest.raises(PrefsolveError, match="got list"):
        solve_many(DEALS[:1], 0, strain="S", hints=[])
    with pytest.raises(PrefsolveError, match="got str"):
        solve(DEALS[0], 0, strain="S", hints="x")


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_counts_every_deal(jobs):
    seen = []
    tables(DEALS, jobs=jobs, progress=seen.append)
    assert sum(seen) == len(DEALS)


@pytest.mark.parametrize("call", [
    lambda deals, seen: table_many(deals, talon_mode="take", progress=seen.append),
    lambda deals, seen: solve_many(deals, 0, strain="S", talon_mode="take", progress=seen.append),
    lambda deals, seen: list(iter_tables(deals, talon_mode="take", progress=seen.append)),
])
def test_a_deal_without_the_talon_asked_for_is_named_before_any_is_solved(call):
    seen = []
    with pytest.raises(DealError, match="deal 3: .* has no talon"):
        call([DEALS[0], DEALS[1], Deal.random(3, cards=4)], seen)
    assert seen == []


def test_without_a_talon_mode_each_deal_takes_its_own_talon():
    deals = [DEALS[0], Deal.random(3, cards=4)]
    assert table_many(deals, declarers=(0,)).tolist() == [
        [[table(d).tricks[0][s] for s in STRAINS]] for d in deals]
    assert [t.talon_mode for t in iter_tables(deals)] == ["take", "ignore"]


def test_bad_input_names_the_deal():
    with pytest.raises(DealError, match="deal 2: duplicate card"):
        solve_many(["A.-.-.- K.-.-.- Q.-.-.-", "A.-.-.- A.-.-.- Q.-.-.-"], 0, strain="S", talon_mode="ignore")
    with pytest.raises(PrefsolveError, match="jobs must be a whole number"):
        table_many(DEALS[:1], jobs=0)


def test_cli_file_with_jobs(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text("# two deals\n" + "\n".join(str(d) for d in DEALS[:2]) + "\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jobs", "2", "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert [t["deal"] for t in doc["tables"]] == [str(d) for d in DEALS[:2]]
    assert doc["tables"][1] == file_table(DEALS[1])


def test_cli_file_bad_line(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text(f"{DEALS[0]}\nnot a deal\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path)])
    assert r.exit_code == 2 and "line 2: cannot read deal" in r.output


def test_cli_file_bad_line_is_named_by_its_line_in_the_file(tmp_path):
    """Comments and blank lines count: the error names the line an editor shows."""
    path = tmp_path / "deals.txt"
    path.write_text(f"# deals\n\n{DEALS[0]}\n  # more\nnot a deal\n{DEALS[1]}\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--json"])
    assert r.exit_code == 2 and "line 5: cannot read deal 'not a deal'" in r.output
    assert '"tables"' not in r.output     # checked before anything is solved or printed


@pytest.mark.parametrize("command", [["table"], ["solve", "--declarer", "0", "--strain", "S"]])
def test_cli_file_of_other_bytes_than_utf8_is_named_by_its_line(tmp_path, command):
    path = tmp_path / "deals.txt"
    path.write_bytes(f"{DEALS[0]}\n".encode() + b"x\xff\n")
    r = CliRunner().invoke(main, command + ["--file", str(path)])
    assert r.exit_code == 2 and r.stderr == "Error: line 2: not UTF-8 text (byte 0xff); save the file as UTF-8\n"


def test_cli_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_bytes(b"\xef\xbb\xbf" + f"{DEALS[0]}\n{DEALS[1]}\n".encode())
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl", "--quiet"])
    assert r.exit_code == 0, r.output
    assert [json.loads(x) for x in r.stdout.splitlines()] == [file_table(DEALS[0]), file_table(DEALS[1])]


def _deal_file(tmp_path, deals):
    path = tmp_path / "deals.txt"
    path.write_text("# header\n\n" + "\n".join(str(d) for d in deals) + "\n")
    return str(path)


def test_cli_file_streams_the_same_bytes_as_one_json_object(tmp_path):
    r = CliRunner().invoke(main, ["table", "--file", _deal_file(tmp_path, DEALS[:4]), "--jobs", "2",
                                  "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    whole = {"tables": [file_table(d) for d in DEALS[:4]]}
    assert r.output == json.dumps(whole, ensure_ascii=False) + "\n"


def test_cli_file_jsonl_prints_one_table_per_line(tmp_path):
    r = CliRunner().invoke(main, ["table", "--file", _deal_file(tmp_path, DEALS[:3]), "--jsonl",
                                  "--quiet"])
    assert r.exit_code == 0, r.output
    assert [json.loads(line) for line in r.output.splitlines()] == [file_table(d) for d in DEALS[:3]]


def test_cli_file_text_blocks_are_separated_by_blank_lines(tmp_path):
    r = CliRunner().invoke(main, ["table", "--file", _deal_file(tmp_path, DEALS[:3]), "--quiet"])
    assert r.exit_code == 0, r.output
    assert r.output == "\n\n".join(f"{d}\n{table(d).format()}" for d in DEALS[:3]) + "\n"


def test_cli_json_and_jsonl_together_is_a_usage_error(tmp_path):
    r = CliRunner().invoke(main, ["table", "--file", _deal_file(tmp_path, DEALS[:1]), "--json", "--jsonl"])
    assert r.exit_code == 2 and "either --json or --jsonl" in r.output


def test_cli_jsonl_of_one_deal_is_its_table():
    r = CliRunner().invoke(main, ["table", str(DEALS[2]), "--jsonl"])
    one = json.loads(r.output)
    assert one["nodes"] > 0 and {**one, "nodes": 0} == {**table(DEALS[2]).to_dict(), "nodes": 0}


def test_iter_tables_checks_every_deal_before_solving():
    from prefsolve.batch import iter_tables

    with pytest.raises(DealError, match="deal 3: "):
        iter_tables([DEALS[0], str(DEALS[1]), "A.-.-.- A.-.-.- Q.-.-.-"])
    got = iter_tables([DEALS[0], str(DEALS[1])], jobs=2)
    assert list(got) == [table(d) for d in DEALS[:2]]


@pytest.mark.parametrize("jobs", [1, 2])
def test_imap_deals_keeps_the_order_of_uneven_work(jobs):
    import random
    import time

    from prefsolve.batch import imap_deals

    rng = random.Random(5)
    delays = [rng.choice([0, 0, 0, 0.004]) for _ in range(60)]

    def work(i, solver):
        time.sleep(delays[i])
        return i * i

    assert list(imap_deals(range(60), work, jobs=jobs)) == [i * i for i in range(60)]


def test_imap_deals_submits_a_bounded_window_ahead(monkeypatch):
    import threading

    import prefsolve.batch as batch

    monkeypatch.setattr(batch, "WINDOW_PER_JOB", 4)
    started, lock = [], threading.Lock()

    def work(i, solver):
        with lock:
            started.append(i)
        return i

    for i in batch.imap_deals(range(200), work, jobs=2):
        with lock:
            assert max(started) <= i + 8        # 4 per thread, 2 threads
    assert sorted(started) == list(range(200))


def test_imap_deals_memory_stays_flat_on_many_items():
    """20 000 items: one future per item up front peaked at 31 MiB, the window at 0.85."""
    import tracemalloc

    from prefsolve.batch import imap_deals

    tracemalloc.start()
    try:
        count = sum(1 for _ in imap_deals(range(20_000), lambda i, solver: i, jobs=2))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 20_000 and peak < 4 * 2**20


def test_imap_deals_closed_early_cancels_the_queue_and_waits(monkeypatch):
    """Closing cancels the queued tasks, then waits for those that run."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    import prefsolve.batch as batch

    started, finished, lock = [], [], threading.Lock()
    cancelled = threading.Event()

    class Pool(ThreadPoolExecutor):
        def shutdown(self, wait=True, *, cancel_futures=False):
            super().shutdown(wait=False, cancel_futures=cancel_futures)
            cancelled.set()             # only now may the running tasks end
            super().shutdown(wait=wait)

    monkeypatch.setattr(batch, "ThreadPoolExecutor", Pool)

    def work(i, solver):
        with lock:
            started.append(i)
        if i >= 3:
            cancelled.wait(5)           # the threads hold items 3 and 4, if they took them
            time.sleep(0.1)             # and end well after the queue is cancelled
        with lock:
            finished.append(i)
        return i

    gen = batch.imap_deals(range(10_000), work, jobs=2)
    assert [next(gen) for _ in range(3)] == [0, 1, 2]
    gen.close()
    assert cancelled.is_set()                       # the pool was shut down
    with lock:
        assert sorted(finished) == sorted(started)  # and close() waited for the running tasks
        # Items 0-2, plus at most one a thread: a thread may take an item while
        # the queue is being emptied (ThreadPoolExecutor drains it item by item).
        assert sorted(started)[:3] == [0, 1, 2] and len(started) <= 3 + 2


def test_imap_deals_in_one_thread_uses_the_solver_of_the_thread_that_advances_it():
    import threading

    from prefsolve.batch import imap_deals
    from prefsolve.engine import default_solver

    seen = []
    gen = imap_deals(range(4), lambda i, solver: seen.append((threading.get_ident(), solver)), jobs=1)
    next(gen)
    other = threading.Thread(target=lambda: list(gen))
    other.start()
    other.join()
    assert seen[0] == (threading.get_ident(), default_solver())
    assert {ident for ident, _ in seen[1:]} == {other.ident}
    assert all(solver is not default_solver() for _, solver in seen[1:])


def test_jobs_are_checked_before_the_first_item():
    from prefsolve.batch import imap_deals, iter_tables

    with pytest.raises(PrefsolveError, match="jobs must be a whole number"):
        imap_deals(range(3), lambda i, solver: i, jobs=0)
    with pytest.raises(PrefsolveError, match="jobs must be a whole number"):
        iter_tables(DEALS[:2], jobs=0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_iter_tables_yields_the_first_table_long_before_the_last_deal_is_solved(monkeypatch, jobs):
    import prefsolve.batch as batch

    monkeypatch.setattr(batch, "WINDOW_PER_JOB", 8)
    solved = []
    monkeypatch.setattr(batch, "table", lambda d, *a, **k: solved.append(d) or str(d))
    gen = batch.iter_tables([str(DEALS[0])] * 200, jobs=jobs)
    assert next(gen) == str(DEALS[0])
    assert len(solved) <= 1 + 8 * jobs
    assert sum(1 for _ in gen) == 199 and len(solved) == 200


def test_emit_stream_prints_each_result_before_the_next_is_solved(capsys):
    from prefsolve.cli import emit_stream
    from prefsolve.solver import Table

    tabs = [table(d) for d in DEALS[:3]]
    for as_json, as_jsonl in [(False, True), (True, False), (False, False)]:
        printed = []

        def results(printed=printed):
            for t in tabs:
                printed.append(capsys.readouterr().out)
                yield t

        emit_stream(results(), "tables", Table.to_dict, lambda t: f"{t.deal}\n{t.format()}",
                    as_json, as_jsonl, blank_between=True)
        printed.append(capsys.readouterr().out)
        assert printed[0] == ("" if not as_json else '{"tables": [')
        for i in range(1, 3):           # before the (i+1)-th table is asked for, the i-th is out
            assert str(tabs[i - 1].deal) in printed[i] and str(tabs[i].deal) not in printed[i]


def test_cli_file_writes_each_table_before_solving_the_next(tmp_path, monkeypatch):
    import sys

    import prefsolve.batch as batch

    real = {str(d): table(d) for d in DEALS[:4]}
    lines_out = []

    def fake_table(d, *args, **kwargs):
        sys.stdout.flush()
        lines_out.append(sys.stdout.buffer.getvalue().count(b"\n"))
        return real[str(d)]

    monkeypatch.setattr(batch, "table", fake_table)
    r = CliRunner().invoke(main, ["table", "--file", _deal_file(tmp_path, DEALS[:4]), "--jsonl",
                                  "--jobs", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert lines_out == [0, 1, 2, 3]
    assert [json.loads(line) for line in r.output.splitlines()] == [file_table(real[str(d)]) for d in DEALS[:4]]


def test_cli_file_mixes_deals_with_a_talon_and_endings(tmp_path):
    ending = Deal.random(3, cards=4)
    path = tmp_path / "deals.txt"
    path.write_text(f"{DEALS[0]}\n{ending}\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl", "--quiet"])
    assert r.exit_code == 0, r.output
    got = [json.loads(line) for line in r.output.splitlines()]
    assert got == [file_table(DEALS[0]), file_table(ending, talon_mode="ignore")]
    assert got[0]["talon_mode"] == "take" and got[1]["talon_mode"] == "ignore"


def test_imap_deals_raises_the_first_failure_in_order():
    from prefsolve.batch import imap_deals

    def work(i, solver):
        if i in (5, 7):
            raise ValueError(f"item {i}")
        return i

    got = []
    with pytest.raises(ValueError, match="item 5"):
        for v in imap_deals(range(50), work, jobs=2):
            got.append(v)
    assert got == [0, 1, 2, 3, 4]


def test_solver_pool_keeps_at_most_its_limit():
    from prefsolve.batch import SolverPool

    pool = SolverPool(keep=2)
    solvers = [pool.take() for _ in range(3)]
    assert len({id(s) for s in solvers}) == 3
    for s in solvers:
        pool.give(s)
    again = [pool.take() for _ in range(3)]
    kept = {id(s) for s in solvers}
    assert sum(id(s) in kept for s in again) == 2  # the third one is new


def _cgroup(tmp_path, v2=None, v1=None, own="0::/\n"):
    """A fake cgroup mount under tmp_path/fs: v2 writes cpu.max, v1 writes (quota,
    period); ``own`` is the process's /proc/self/cgroup."""
    root = tmp_path / "fs"
    root.mkdir()
    if v2 is not None:
        (root / "cpu.max").write_text(v2 + "\n")
    if v1 is not None:
        (root / "cpu").mkdir()
        (root / "cpu" / "cpu.cfs_quota_us").write_text(f"{v1[0]}\n")
        (root / "cpu" / "cpu.cfs_period_us").write_text(f"{v1[1]}\n")
    (tmp_path / "cgroup").write_text(own)
    return root, tmp_path / "cgroup"


@pytest.mark.parametrize("v2, v1, cores", [
    ("max 100000", None, None),          # v2 without a quota
    ("200000 100000", None, 2),
    ("150000 100000", None, 2),          # 1.5 cores: the second thread gets half a core
    ("50000 100000", None, 1),
    (None, (-1, 100000), None),          # v1 without a quota
    (None, (300000, 100000), 3),
    (None, (25000, 50000), 1),
    (None, None, None),                  # no cgroup files at all
    ("garbage", None, None),
])
def test_cgroup_cpu_limit_reads_the_quota(tmp_path, v2, v1, cores):
    from prefsolve.batch import cgroup_cpu_limit

    assert cgroup_cpu_limit(*_cgroup(tmp_path, v2, v1)) == cores


def test_cgroup_cpu_limit_takes_the_smallest_quota_of_the_group_and_its_parents(tmp_path):
    from prefsolve.batch import cgroup_cpu_limit

    root, own = _cgroup(tmp_path, own="0::/user.slice/app.scope\n")
    (root / "user.slice" / "app.scope").mkdir(parents=True)
    (root / "user.slice" / "app.scope" / "cpu.max").write_text("max 100000\n")
    (root / "user.slice" / "cpu.max").write_text("300000 100000\n")
    assert cgroup_cpu_limit(root, own) == 3              # the slice binds its child
    (root / "user.slice" / "app.scope" / "cpu.max").write_text("100000 100000\n")
    assert cgroup_cpu_limit(root, own) == 1
    (root / "other").mkdir()
    (root / "other" / "cpu.max").write_text("100000 100000\n")
    (own).write_text("0::/other\n")
    assert cgroup_cpu_limit(root, own) == 1
    (own).write_text("0::/elsewhere\n")                 # another group's quota is not ours
    assert cgroup_cpu_limit(root, own) is None


def test_cgroup_v1_reads_the_cpu_controllers_group(tmp_path):
    from prefsolve.batch import cgroup_cpu_limit

    root, own = _cgroup(tmp_path, v1=(-1, 100000),
                        own="5:memory:/docker/x\n4:cpu,cpuacct:/docker/abc\n0::/\n")
    group = root / "cpu" / "docker" / "abc"
    group.mkdir(parents=True)
    (group / "cpu.cfs_quota_us").write_text("200000\n")
    (group / "cpu.cfs_period_us").write_text("100000\n")
    assert cgroup_cpu_limit(root, own) == 2
    own.write_text("4:cpu,cpuacct:/docker/other\n")
    assert cgroup_cpu_limit(root, own) is None
    own.write_text("4:cpu,cpuacct:/docker/abc\n3:cpuset:/docker/other\n")
    assert cgroup_cpu_limit(root, own) == 2             # cpuset is another controller


@pytest.mark.parametrize("mount", ["cpu,cpuacct", "cpuacct,cpu"])
def test_cgroup_v1_found_under_the_joint_mount_name(tmp_path, mount):
    from prefsolve.batch import cgroup_cpu_limit

    root, own = _cgroup(tmp_path, own="4:cpu,cpuacct:/\n")
    (root / mount).mkdir()
    (root / mount / "cpu.cfs_quota_us").write_text("200000\n")
    (root / mount / "cpu.cfs_period_us").write_text("100000\n")
    assert cgroup_cpu_limit(root, own) == 2


def test_cgroup_files_with_odd_bytes_are_no_quota(tmp_path):
    """This runs when prefsolve is imported: nothing in /sys may make it raise."""
    from prefsolve.batch import cgroup_cpu_limit

    root, own = _cgroup(tmp_path)
    (root / "cpu.max").write_bytes(b"\xff\xfe 100000\n")
    assert cgroup_cpu_limit(root, own) is None
    own.write_bytes(b"0::/\xff\n")
    assert cgroup_cpu_limit(root, own) is None


def test_usable_cores_takes_the_affinity_and_the_quota(monkeypatch):
    import prefsolve.batch as batch

    monkeypatch.setattr(batch.os, "cpu_count", lambda: 64)
    monkeypatch.setattr(batch.os, "sched_getaffinity", lambda pid: {0, 5, 9}, raising=False)
    monkeypatch.setattr(batch, "cgroup_cpu_limit", lambda: None)
    assert batch.usable_cores() == 3 and batch.resolve_jobs(None) == 3
    monkeypatch.setattr(batch, "cgroup_cpu_limit", lambda: 2)
    assert batch.usable_cores() == 2 and batch.resolve_jobs(None) == 2
    monkeypatch.setattr(batch, "cgroup_cpu_limit", lambda: 16)
    assert batch.usable_cores() == 3
    monkeypatch.delattr(batch.os, "sched_getaffinity", raising=False)   # macOS, Windows
    assert batch.usable_cores() == 16
    monkeypatch.setattr(batch, "cgroup_cpu_limit", lambda: None)
    assert batch.usable_cores() == 64
    monkeypatch.setattr(batch.os, "cpu_count", lambda: None)
    assert batch.usable_cores() == 1


def test_default_jobs_follow_the_affinity_mask(monkeypatch):
    """One usable core: the default batch solves in the caller's thread."""
    import threading

    import prefsolve.batch as batch

    monkeypatch.setattr(batch.os, "sched_getaffinity", lambda pid: {1}, raising=False)
    monkeypatch.setattr(batch, "cgroup_cpu_limit", lambda: None)
    seen = batch.map_deals(list(range(4)), lambda item, solver: threading.get_ident())
    assert seen == [threading.get_ident()] * 4
    monkeypatch.setattr(batch.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    seen = batch.map_deals(list(range(4)), lambda item, solver: threading.get_ident())
    assert threading.get_ident() not in seen


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs sched_setaffinity (Linux)")
def test_taskset_narrows_the_default_jobs():
    """End to end: a process pinned to one core defaults to one thread."""
    import subprocess
    import sys

    code = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
            "from prefsolve.batch import resolve_jobs; print(resolve_jobs(None))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"


def file_table(deal, **kwargs):
    """What table --file prints for a deal, from the API (without the nodes)."""
    found = (deal if isinstance(deal, Table) else table(deal, **kwargs)).to_dict()
    del found["nodes"]
    return found


def _solutions(deals, declarer, strain, leader=0, talon=None):
    """What solve --file prints for each deal, from the API (without the nodes)."""
    out = []
    for d in deals:
        found = solve(d, declarer, strain=strain, leader=leader, talon_mode=talon).to_dict()
        del found["nodes"]
        out.append({"deal": str(d), **found})
    return out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_solve_file_matches_the_api_per_deal(tmp_path, jobs):
    ending = Deal.random(4, cards=5)
    deals = [DEALS[0], ending, DEALS[1]]
    path = _deal_file(tmp_path, deals)
    want = _solutions(deals, 2, "misere")
    args = ["solve", "--file", path, "--declarer", "2", "--strain", "misere", "--jobs", jobs]
    r = CliRunner().invoke(main, args + ["--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"solutions": want}
    r = CliRunner().invoke(main, args + ["--jsonl"])
    assert [json.loads(x) for x in r.stdout.splitlines()] == want
    r = CliRunner().invoke(main, args)
    lines = r.stdout.splitlines()
    assert len(lines) == 3 and all(line.startswith(f"{d}: ") for line, d in zip(lines, deals))
    for line, w in zip(lines, want):
        assert f": {w['tricks']} trick" in line and "forced on the declarer" in line
        assert ("discard" in line) == (w["discard"] is not None)


def test_cli_solve_file_takes_the_leader_the_talon_choice_and_the_strain(tmp_path):
    deals = [DEALS[2], DEALS[3], DEALS[4]]
    path = _deal_file(tmp_path, deals)
    for extra, leader, talon in [(["--leader", "2"], 2, None), (["--talon-mode", "ignore"], 0, "ignore"),
                                 (["--leader", "1", "--talon-mode", "take"], 1, "take")]:
        r = CliRunner().invoke(main, ["solve", "--file", path, "--declarer", "1", "--strain", "NT",
                                      "--jsonl", *extra])
        assert r.exit_code == 0, r.output
        assert [json.loads(x) for x in r.stdout.splitlines()] == _solutions(deals, 1, "NT", leader, talon)
    r = CliRunner().invoke(main, ["solve", "--file", path, "--declarer", "1", "--strain", "NT", "--quiet"])
    want = _solutions(deals, 1, "NT")
    assert [line.split(": ")[1] for line in r.stdout.splitlines()] == [
        f"{w['tricks']} trick{'' if w['tricks'] == 1 else 's'}, discard "
        + " ".join(Card.parse(c).symbol for c in w["discard"]) for w in want]


def test_cli_file_with_talon_names_a_deal_without_one_before_any_output(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text(f"{DEALS[0]}\n# an ending\n{Deal.random(3, cards=4)}\n")
    for command in (["table"], ["solve", "--declarer", "0", "--strain", "S"]):
        r = CliRunner().invoke(main, [*command, "--file", str(path), "--talon-mode", "take", "--jsonl"])
        assert r.exit_code == 2 and "line 3: " in r.output and "has no talon" in r.output
        assert r.stdout == ""


def test_cli_solve_file_and_a_deal_together_is_a_usage_error(tmp_path):
    r = CliRunner().invoke(main, ["solve", str(DEALS[0]), "--file", _deal_file(tmp_path, DEALS[:1]),
                                  "--declarer", "0", "--strain", "S"])
    assert r.exit_code == 2 and "either DEAL or --file" in r.output


def test_cli_solve_file_names_the_bad_line_and_the_bad_strain(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text(f"{DEALS[0]}\n\n{DEALS[0]}\n")
    r = CliRunner().invoke(main, ["solve", "--file", str(path), "--declarer", "0", "--strain", "X"])
    assert r.exit_code == 2 and "strain" in r.output
    path.write_text(f"{DEALS[0]}\n\nA.-.-.- A.-.-.- Q.-.-.-\n")
    r = CliRunner().invoke(main, ["solve", "--file", str(path), "--declarer", "0", "--strain", "S"])
    assert r.exit_code == 2 and "line 3: " in r.output and "duplicate" in r.output


def test_cli_shows_the_check_of_a_long_file(tmp_path, monkeypatch):
    import prefsolve.cli._common as cli

    monkeypatch.setattr(cli, "CHECK_BAR_LINES", 3)
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(str(d) for d in DEALS[:4]) + "\nnot a deal\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl"])
    assert r.exit_code == 2 and "line 5: " in r.output
    assert "checking" in r.stderr and r.stdout == ""
    path.write_text(f"{DEALS[0]}\nnot a deal\n")                  # short: no bar
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl"])
    assert r.exit_code == 2 and "checking" not in r.stderr
    path.write_text("\n".join(str(d) for d in DEALS[:4]) + "\nnot a deal\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl", "--quiet"])
    assert r.exit_code == 2 and "checking" not in r.stderr


@pytest.mark.parametrize("call, error, text", [
    (lambda: table_many(DEALS[:1], declarers=()), SeatError, "at least one seat"),
    (lambda: table_many(DEALS[:1], declarers=1), SeatError, "sequence of seats"),
    (lambda: table_many(DEALS[:1], declarers=(0, 3)), SeatError, "got 3"),
    (lambda: table_many(None), DealError, "a batch takes a sequence of deals, got None"),
    (lambda: table_many(str(DEALS[0])), DealError, "for one deal, use solve() or table()"),
    (lambda: solve_many(DEALS[0], 0, strain="S"), DealError, "for one deal"),
    (lambda: check_deals(7), DealError, "got 7"),
])
def test_batch_arguments_are_checked(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert text in str(info.value)


def test_numpy_seats_from_a_batch_are_seats():
    rows = table_many(DEALS[:1], declarers=np.array([2, 0]))
    assert rows.shape == (1, 2, 6)
    assert rows[0, 0, 4] == solve(DEALS[0], np.int64(2), strain="NT").tricks
    many = solve_many(DEALS[:1], np.int8(1), strain="H", leader=np.int32(2))
    assert many[0] == solve(DEALS[0], 1, strain="H", leader=2).tricks


def test_jobs_take_numpy_integers_and_have_a_ceiling():
    from prefsolve.batch import MAX_JOBS

    deals = DEALS[:3]
    assert np.array_equal(table_many(deals, jobs=np.int64(2)), table_many(deals, jobs=1))
    with pytest.raises(PrefsolveError, match=f"jobs must be a whole number from 1 to {MAX_JOBS}"):
        table_many(deals, jobs=MAX_JOBS + 1)
    r = CliRunner().invoke(main, ["table", "--file", "-", "--jobs", str(MAX_JOBS + 1)], input="")
    assert r.exit_code == 2 and "--jobs" in r.stderr


def test_a_seat_named_twice_in_declarers_is_refused():
    with pytest.raises(SeatError, match="each seat once"):
        table_many(DEALS[:1], declarers=(0, 0))


def test_a_form_feed_in_a_comment_does_not_split_the_line(tmp_path):
    path = tmp_path / "d.txt"
    path.write_bytes(b"# notes \x0c tail \xe2\x80\xa8 more\r\n" + str(DEALS[0]).encode() + b"\r\nnot a deal\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl"])
    assert r.exit_code == 2 and r.stderr.startswith("Error: line 3: ")


# -- audit 38 ------------------------------------------------------------------------------
def test_an_iterator_left_open_at_exit_does_not_solve_its_queue():
    # A script that stops reading a batch iterator and exits: the threads must
    # not work through the window of queued deals (512 with jobs=2) first.
    import subprocess
    import sys

    script = (
        "import atexit, itertools\n"
        "from prefsolve import batch\n"
        "calls = itertools.count()\n"
        "import time\n"
        "def work(item, solver):\n"
        "    next(calls)\n"
        "    time.sleep(0.002)   # the window of 512 takes about 0.5 s on 2 threads\n"
        "    return item\n"
        "atexit.register(lambda: print(next(calls)))   # runs after the threads were joined\n"
        "it = batch.imap_deals(list(range(2000)), work, jobs=2)\n"
        "for i, x in enumerate(it):\n"
        "    if i == 3:\n"
        "        break\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # Without the stop flag every queued item runs: 4 read + the 512 of the window.
    assert int(out.stdout) < 200


@pytest.mark.parametrize("progress", [True, 5, "bar"])
def test_progress_that_is_not_callable_is_refused_before_solving(progress):
    with pytest.raises(PrefsolveError, match="progress must be a callable"):
        table_many([Deal.random(1)], jobs=2, progress=progress)


def test_map_deals_takes_a_generator():
    from prefsolve.batch import map_deals

    deals = [Deal.random(s) for s in range(4)]
    assert map_deals((d for d in deals), lambda d, sv: str(d), jobs=2) == [str(d) for d in deals]


def test_a_bad_table_size_is_named_by_every_batch(monkeypatch):
    table_many([Deal.random(1)], jobs=2)        # solvers made and pooled
    monkeypatch.setenv("PREFSOLVE_TT_MB", "abc")
    for jobs in (1, 2, 4):
        with pytest.raises(PrefsolveError, match="PREFSOLVE_TT_MB must be"):
            table_many([Deal.random(2)], jobs=jobs)


def test_clear_is_refused_while_another_thread_searches():
    import threading

    from prefsolve.engine import Solver
    from prefsolve.solver import solve as solve_with

    sv = Solver(1)
    for seed in range(20):
        done = threading.Event()
        deal = Deal.random(seed)

        def search(deal=deal, done=done):
            for strain in ("misere", "NT", "S"):
                solve_with(deal, 0, strain=strain, solver=sv)
            done.set()

        t = threading.Thread(target=search)
        t.start()
        while not sv.busy and not done.is_set():
            pass
        if sv.busy:
            with pytest.raises(RuntimeError, match="already searching in another thread"):
                sv.clear()
            t.join()
            break
        t.join()
    else:
        pytest.fail("never caught the solver busy")
    sv.clear()      # free again
