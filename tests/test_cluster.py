"""Batches on a real local Dask cluster of worker processes (prefsolve.cluster).

Every test runs against worker processes started here (``LocalCluster``,
``processes=True``), with the results compared to the same batch solved on
this process's threads: the cluster may change where and when a deal is
solved, never its result or its place in the output. The faults are real: a
worker process killed by its id in the middle of a run, a scheduler address
where nothing listens, a client process killed while writing ``--jsonl``.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

# The dask extra's tests (.ci/run installs every extra, so they run there).
DASK_EXTRA = 'the dask extra is not installed (pip install "prefsolve[dask]")'
distributed = pytest.importorskip("distributed", reason=DASK_EXTRA)
Client, LocalCluster = distributed.Client, distributed.LocalCluster

from prefsolve import Deal
from prefsolve.batch import map_deals, solve_many, table_many, tables, use_scheduler
from prefsolve.cli import main
from prefsolve.cluster import ClusterError, pack_deals, unpack_deals
from prefsolve.errors import DealError, PrefsolveError

DEALS = [Deal.random(1000 + s) for s in range(48)]
ENDINGS = [Deal.random(2000 + s, cards=6) for s in range(40)]


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, for the module's tests."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as c:
        yield c


@pytest.fixture(scope="module")
def client(cluster):
    with Client(cluster, set_as_default=False) as c:
        c.wait_for_workers(2)
        yield c


@pytest.fixture(scope="module")
def local_tables():
    return table_many(DEALS, jobs=2)


def deal_file(tmp_path, deals, name="deals.txt"):
    path = tmp_path / name
    path.write_text("".join(f"{d}\n" for d in deals))
    return path


def closed_port():
    """A loopback port where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prefsolve_process(args, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "prefsolve", *args], stderr=subprocess.PIPE, text=True,
                            **kwargs)


# -- the API ---------------------------------------------------------------

def test_table_many_on_the_cluster_equals_the_local_run_in_order(client, local_tables):
    counts = []
    got = table_many(DEALS, scheduler=client, progress=counts.append)
    assert got.dtype == np.int8 and got.shape == (len(DEALS), 3, 6)
    assert np.array_equal(got, local_tables)
    # One progress call per task: several tasks, each of several deals.
    assert sum(counts) == len(DEALS) and 1 < len(counts) < len(DEALS)


def test_rows_leader_and_talon_mode_travel_to_the_workers(client):
    got = table_many(DEALS[:12], scheduler=client, declarers=(2, 0), leader=1, talon_mode="ignore")
    want = table_many(DEALS[:12], jobs=1, declarers=(2, 0), leader=1, talon_mode="ignore")
    assert got.shape == (12, 2, 6) and np.array_equal(got, want)


def test_solve_many_on_the_cluster_equals_the_local_run(client):
    for strain in ("NT", "misere"):
        got = solve_many(DEALS + ENDINGS, 1, strain=strain, scheduler=client)
        assert np.array_equal(got, solve_many(DEALS + ENDINGS, 1, strain=strain, jobs=2))
    assert solve_many([], 0, strain="S", scheduler=client).shape == (0,)


def test_tables_with_discards_and_map_deals_come_back_whole(client):
    assert tables(DEALS[:10], scheduler=client) == tables(DEALS[:10], jobs=1)

    def work(d, solver):    # a closure: travels by value, as the analyzer's do
        return str(d), solver.nodes >= 0

    assert map_deals(ENDINGS, work, scheduler=client) == [(str(d), True) for d in ENDINGS]


def test_the_analyses_run_on_the_cluster_of_a_use_scheduler_block(client):
    """The analyses call the batch functions; inside use_scheduler() those
    run on the cluster, with the local results."""
    from distributed import get_task_stream

    from prefsolve import holdings
    from prefsolve.analysis import Sampling, analyze, analyze_allpass, analyze_talon

    sampling = Sampling(samples=24, seed=3)
    runs = [lambda: analyze("A.KT9.KT97.K7", 0, sampling=sampling),
            lambda: analyze_talon("AKQ.KT9.KT97.K7", 0, sampling=sampling, jobs=2),
            lambda: analyze_allpass("A.KT9.KT97.K7", 0, sampling=sampling),
            lambda: holdings(sampling=Sampling(samples=6, seed=1), numbers=[1, 2])]
    for run in runs:
        local = run()
        with get_task_stream(client) as tasks, use_scheduler(client):
            assert run() == local
        assert tasks.data      # solved by the workers, not here
    with use_scheduler(client), pytest.raises(PrefsolveError, match="jobs must be a whole number"):
        table_many(DEALS[:1], jobs=0)


def test_a_scheduler_address_works_as_a_client(cluster, local_tables):
    got = table_many(DEALS[:8], scheduler=cluster.scheduler_address)
    assert np.array_equal(got, local_tables[:8])


def test_each_worker_keeps_its_solvers_between_tasks(client):
    table_many(DEALS[:8], scheduler=client)

    def pooled():   # runs on each worker: the solvers it keeps between tasks
        from prefsolve.cluster import _worker_solvers

        kept = []
        while not _worker_solvers.empty():
            kept.append(_worker_solvers.get_nowait())
        for s in kept:
            _worker_solvers.put(s)
        return sorted(id(s) for s in kept)

    before = client.run(pooled)
    assert len(before) == 2 and all(before.values())    # every worker holds a solver
    table_many(DEALS[8:16], scheduler=client)
    after = client.run(pooled)
    assert after == before      # the same solvers (and tables), not new ones


def test_deals_travel_as_card_masks():
    masks = pack_deals(DEALS + ENDINGS)
    assert masks.dtype == np.uint32 and masks.shape == (len(DEALS) + len(ENDINGS), 4)
    assert (masks[len(DEALS):, 3] == 0).all()       # no talon
    assert unpack_deals(masks) == DEALS + ENDINGS


def test_bad_deals_are_refused_before_anything_is_sent():
    # The address answers nothing: the error must come from checking, first.
    address = f"tcp://127.0.0.1:{closed_port()}"
    with pytest.raises(DealError, match="deal 3"):
        table_many([str(DEALS[0]), str(DEALS[1]), "AK.-.-.- QJ.-.-.-"], scheduler=address)
    with pytest.raises(PrefsolveError, match="jobs"):
        table_many(DEALS[:1], scheduler=address, jobs=2)
    with pytest.raises(PrefsolveError, match="scheduler must be"):
        table_many(DEALS[:1], scheduler=8786)


def test_an_unreachable_scheduler_is_a_cluster_error_in_bounded_time(monkeypatch):
    monkeypatch.setattr("prefsolve.cluster.CONNECT_TIMEOUT", 2.0)
    t0 = time.monotonic()
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        table_many(DEALS[:2], scheduler=f"tcp://127.0.0.1:{closed_port()}")
    assert time.monotonic() - t0 < 8


def test_a_worker_killed_mid_run_loses_nothing(client, local_tables):
    """A worker process killed by its id while it solves: the scheduler runs
    its tasks again on the other (and on its restarted successor), and every
    deal comes back once, equal to the local result."""
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def progress(n):
        if not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(n)

    deals = DEALS * 3   # 144 deals, ~1.5 s a worker: the others are still queued or running
    got = table_many(deals, scheduler=client, progress=progress)
    assert killed and killed[0] < len(deals)
    assert np.array_equal(got, np.concatenate([local_tables] * 3))
    assert victim not in client.run(os.getpid).values()
    client.wait_for_workers(2)    # the nanny restarts it for the tests after this one


# -- the command line ------------------------------------------------------

def test_table_file_on_a_scheduler_writes_the_local_lines(tmp_path, cluster):
    path = deal_file(tmp_path, DEALS[:16])
    local = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl", "--quiet"])
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--scheduler", cluster.scheduler_address,
                                  "--jsonl", str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    assert local.exit_code == 0 and out.read_text() == local.output
    r = CliRunner().invoke(main, ["solve", "--file", str(path), "--declarer", "2", "--strain", "misere",
                                  "--scheduler", cluster.scheduler_address, "--json"])
    want = CliRunner().invoke(main, ["solve", "--file", str(path), "--declarer", "2", "--strain", "misere",
                                     "--json"])
    assert r.exit_code == 0 and r.output == want.output


def test_cluster_local_starts_and_stops_its_own_workers(tmp_path):
    path = deal_file(tmp_path, DEALS[:6])
    out = tmp_path / "out.jsonl"
    p = prefsolve_process(["table", "--file", str(path), "--cluster", "local:2", "--jsonl", str(out)])
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 0, err
    local = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl", "-q"])
    assert out.read_text() == local.output
    assert "solving" in err     # the progress bar, fed by the finished tasks


def test_an_unreachable_scheduler_is_one_line_exit_1_and_no_output(tmp_path):
    path = deal_file(tmp_path, DEALS[:4])
    out = tmp_path / "out.jsonl"
    out.write_text('{"deal": "kept"}\n')
    t0 = time.monotonic()
    p = prefsolve_process(["table", "--file", str(path), "--scheduler", f"tcp://127.0.0.1:{closed_port()}",
                           "--connect-timeout", "2", "--jsonl", str(out)])
    err = p.communicate(timeout=60)[1]
    assert p.returncode == 1 and time.monotonic() - t0 < 10
    assert err.count("\n") == 1 and err.startswith("Error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:")
    assert out.read_text() == '{"deal": "kept"}\n'     # not emptied, nothing half-written


def test_bad_lines_are_named_before_the_scheduler_is_asked(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text(f"{DEALS[0]}\n# a comment\n{DEALS[1]}\nAK.-.-.- QJ.-.-.-\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--scheduler", f"tcp://127.0.0.1:{closed_port()}",
                                  "--jsonl", str(tmp_path / "out.jsonl")])
    assert r.exit_code == 2 and r.output.startswith("Error: line 4: ")
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("args, message", [
    (["--scheduler", "tcp://127.0.0.1:1", "--jobs", "2"], "--jobs counts this machine's threads"),
    (["--scheduler", "tcp://127.0.0.1:1", "--cluster", "local:2"], "either --scheduler or --cluster"),
    (["--scheduler", "tcp://nonsense"], "not a scheduler address: 'tcp://nonsense' (missing port number"),
    (["--cluster", "local:0"], "expected local:N"),
    (["--cluster", "ssh:2"], "expected local:N"),
    (["--resume"], "--resume goes with --jsonl FILE"),
    (["--resume", "--jsonl"], "--resume goes with --jsonl FILE"),
])
def test_cluster_and_resume_usage_errors_are_one_line_exit_2(tmp_path, args, message):
    path = deal_file(tmp_path, DEALS[:2])
    p = prefsolve_process(["table", "--file", str(path), *args], stdout=subprocess.PIPE)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and out == "" and err.count("\n") == 1 and message in err


def test_without_the_extra_the_cluster_options_name_it():
    code = ("import sys; sys.modules['distributed'] = None\n"     # as if dask were not installed
            "from prefsolve.cli import main\n"
            "main(['table', '--file', '-', '--cluster', 'local:2'], prog_name='prefsolve')\n")
    p = subprocess.run([sys.executable, "-c", code], input=f"{DEALS[0]}\n", capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and 'pip install "prefsolve[dask]"' in p.stderr


def test_importing_prefsolve_does_not_import_dask():
    code = ("import sys, prefsolve, prefsolve.cli\n"
            "prefsolve.table_many([prefsolve.Deal.random(1)], jobs=1)\n"
            "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout == "[]\n", p.stderr


# -- --jsonl FILE and --resume -----------------------------------------------

def test_jsonl_takes_a_file_and_still_works_alone(tmp_path):
    deal = str(DEALS[0])
    alone = CliRunner().invoke(main, ["table", deal, "--jsonl"])
    before_deal = CliRunner().invoke(main, ["table", "--jsonl", deal])    # the deal, not a file name
    out = tmp_path / "one.jsonl"
    r = CliRunner().invoke(main, ["table", deal, "--jsonl", str(out)])
    assert alone.exit_code == before_deal.exit_code == r.exit_code == 0 and r.output == ""
    assert out.read_text().count("\n") == 1
    results = [json.loads(text) for text in (alone.output, before_deal.output, out.read_text())]
    for x in results:
        del x["nodes"]      # the search's nodes depend on what the thread's table holds
    assert results[0] == results[1] == results[2] and results[0]["deal"] == deal


def run_killed(args, out, lines):
    """Start ``prefsolve args`` and kill it (SIGKILL) once ``out`` holds ``lines`` lines."""
    p = prefsolve_process(args, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= lines:
            break
        time.sleep(0.02)
    assert p.poll() is None, "the run ended before it could be interrupted"
    p.kill()
    p.communicate()


@pytest.mark.parametrize("where", [["--jobs", "2"], ["--scheduler"]])
def test_resume_goes_on_after_a_kill_without_losing_or_repeating(tmp_path, cluster, where):
    if where == ["--scheduler"]:
        where = ["--scheduler", cluster.scheduler_address]
    path = deal_file(tmp_path, DEALS * 2)   # 96 deals, each written as it is solved
    full = CliRunner().invoke(main, ["table", "--file", str(path), "--jsonl", "-q"]).output
    out = tmp_path / "out.jsonl"
    args = ["table", "--file", str(path), "--jsonl", str(out), "-q", *where]
    run_killed(args, out, 5)
    kept = out.read_bytes()
    done = kept.count(b"\n")
    assert 5 <= done < len(DEALS) * 2
    with open(out, "ab") as f:     # a kill in the middle of a write leaves part of a line
        f.write(full.encode().splitlines(keepends=True)[done][:37])
    r = subprocess.run([sys.executable, "-m", "prefsolve", *args, "--resume"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == full      # every deal once, in the file's order
    # Resuming a finished file changes nothing.
    r = subprocess.run([sys.executable, "-m", "prefsolve", *args, "--resume"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "already holds the results of all 96 deals" in r.stderr
    assert out.read_text() == full


def test_resume_refuses_the_output_of_another_input_or_other_options(tmp_path):
    path = deal_file(tmp_path, DEALS[:4])
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["solve", "--file", str(path), "--declarer", "0", "--strain", "S",
                                  "--jsonl", str(out), "-q"])
    assert r.exit_code == 0
    first = out.read_text()
    other = deal_file(tmp_path, DEALS[1:5], "other.txt")
    r = CliRunner().invoke(main, ["solve", "--file", str(other), "--declarer", "0", "--strain", "S",
                                  "--jsonl", str(out), "--resume"])
    assert r.exit_code == 2 and f"{out} line 1 holds deal" in r.output
    r = CliRunner().invoke(main, ["solve", "--file", str(path), "--declarer", "0", "--strain", "NT",
                                  "--jsonl", str(out), "--resume"])
    assert r.exit_code == 2 and "has strain 'S', but this run asks for 'NT'" in r.output
    assert out.read_text() == first     # left as it was
    # A missing file is a fresh start; resuming it with the same options completes it.
    missing = tmp_path / "new.jsonl"
    r = CliRunner().invoke(main, ["solve", "--file", str(path), "--declarer", "0", "--strain", "S",
                                  "--jsonl", str(missing), "--resume", "-q"])
    assert r.exit_code == 0 and missing.read_text() == first


def test_the_dask_bench_workload_reports_counts_and_rates(monkeypatch):
    import importlib.util

    path = os.path.join(os.path.dirname(__file__), os.pardir, "bench", "run.py")
    spec = importlib.util.spec_from_file_location("bench_run", path)
    run_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_py)
    monkeypatch.setattr(run_py, "DASK_DEALS", (12, 12))     # the workload's size, to keep the test short
    w = run_py.run(quick=True, only=["dask"])["workloads"]["dask"]
    assert w["deals"] == 12 and w["rounds"] == 1 and w["identical"] is True
    assert 1 <= w["tasks_1"] <= 12 and 2 <= w["tasks_2"] <= 12
    assert w["deals_per_s_1"] > 0 and w["deals_per_s_2"] > 0 and w["local_deals_per_s_2"] > 0
    assert w["speedups"] == [w["speedup"]] and w["overheads"] == [w["overhead"]]
    assert w["machine_speedup"] > 0 and w["idles"] == [w["idle"]] and 0 <= w["idle"] < 1


# -- the whole connection under one deadline, one line when the scheduler goes -----------------

class Listener:
    """A plain TCP server on a free loopback port that accepts connections and
    answers each with ``reply`` (an HTTP error, or nothing), as a web server or
    the Dask dashboard's port does to a Dask client."""

    def __init__(self, reply: bytes):
        import threading

        self.reply = reply
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.open = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.open.append(conn)
            if self.reply:
                conn.sendall(self.reply)

    def close(self):
        self.sock.close()
        for conn in self.open:
            conn.close()


HTTP_REPLY = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n"


@pytest.mark.parametrize("reply, message", [
    (HTTP_REPLY, "what listens at '{}' is not a Dask scheduler: it answers in another protocol (a web server"),
    (b"", "no Dask scheduler answered at '{}' within 2 s (something listens there but does not speak as a Dask"),
], ids=["http", "silent"])
def test_a_listener_that_is_no_scheduler_fails_within_the_deadline_in_one_line(tmp_path, reply, message):
    listener = Listener(reply)
    try:
        path = deal_file(tmp_path, DEALS[:2])
        t0 = time.monotonic()
        p = prefsolve_process(["table", "--file", str(path), "--scheduler", listener.address,
                               "--connect-timeout", "2"])
        err = p.communicate(timeout=60)[1]
        took = time.monotonic() - t0
    finally:
        listener.close()
    assert p.returncode == 1, err
    assert err.count("\n") == 1, err
    assert err.startswith("Error: " + message.format(listener.address)), err
    assert took < 2 + 6     # the deadline, and the start of Python and dask on a busy host


def test_the_dashboards_port_is_not_taken_for_the_scheduler(cluster):
    dashboard = f"tcp://127.0.0.1:{cluster.scheduler.http_server.port}"
    t0 = time.monotonic()
    with pytest.raises(ClusterError, match="(no Dask scheduler answered at|is not a Dask scheduler).*dashboard"):
        table_many(DEALS[:2], scheduler=dashboard)
    assert time.monotonic() - t0 < 2 * 10.0 + 2     # CONNECT_TIMEOUT: the probe, not a client waiting for ever


CLUSTER_PROCESS = """
import logging, sys, time
from distributed import LocalCluster
cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0",
                       silence_logs=logging.ERROR)
print(cluster.scheduler_address, flush=True)
time.sleep(600)
"""


def test_a_scheduler_lost_mid_run_is_one_line_without_dasks_traceback(tmp_path):
    """The scheduler's process killed by its id while the client waits for
    results: one line on stderr, exit 1; none of the log and traceback Dask
    writes as it tries to reconnect."""
    holder = subprocess.Popen([sys.executable, "-c", CLUSTER_PROCESS], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        address = holder.stdout.readline().strip()
        assert address.startswith("tcp://"), address
        path = deal_file(tmp_path, [Deal.random(5000 + s) for s in range(400)])   # minutes on one worker
        out = tmp_path / "out.jsonl"
        p = prefsolve_process(["table", "--file", str(path), "--scheduler", address, "--jsonl", str(out),
                               "--quiet"])
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_text().count("\n") >= 2) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert out.read_text().count("\n") >= 2     # solving on the cluster
    finally:
        holder.kill()
        holder.wait()
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 1
    assert err.startswith("Error: the Dask cluster could not finish the batch: the connection to its scheduler "
                          "was lost") or err.startswith("Error: the Dask scheduler does not answer"), err
    assert err.count("\n") == 1 and "Traceback" not in err and "distributed" not in err, err


def test_analyses_on_a_cluster_call_progress_here_with_a_callback_that_cannot_travel(client):
    """The talon analysis and the holdings measurement ship their work to the
    workers; the progress callback (one holding a lock, as the command line's
    bar does) stays on the client and counts every item."""
    import threading

    from prefsolve import holdings
    from prefsolve.analysis import Sampling, analyze_talon

    class Counter:
        def __init__(self):
            self.lock = threading.Lock()     # cannot be pickled
            self.count = 0

        def __call__(self, n):
            with self.lock:
                self.count += n

    runs = [(lambda p: analyze_talon("AKQ.KT9.KT97.K7", 0, sampling=Sampling(samples=12, seed=3), jobs=2, progress=p),
             12 + 12),      # the pilot's 12 layouts, then the 12 with every candidate
            (lambda p: holdings(sampling=Sampling(samples=5, seed=1), numbers=[1, 2], progress=p), 2 * 5)]
    for run, items in runs:
        here = Counter()
        local = run(here)
        there = Counter()
        with use_scheduler(client):
            assert run(there) == local
        assert here.count == there.count == items
