"""Batch solving: numpy results equal to one-by-one solving, on one or two threads."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from prefsolve import Deal, STRAINS, solve, solve_many, table, table_many
from prefsolve.batch import tables
from prefsolve.cli import main
from prefsolve.errors import DealError, PrefsolveError

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
    assert got[1, 0, 5] == solve(DEALS[1], 1, "misere").tricks


def test_solve_many_equals_solve():
    endings = [Deal.random(s, cards=6) for s in range(20)]
    got = solve_many(endings, 2, "NT", leader=1, talon=False, jobs=2)
    assert got.tolist() == [solve(d, 2, "NT", 1, talon=False).tricks for d in endings]


def test_hints_shared_across_calls_change_nothing_but_the_work():
    from prefsolve import DiscardHints
    from prefsolve.analyzer import Sampler, _known_hands
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
    assert (solve_many(deals, 0, "D", jobs=2, hints=hints).tolist()
            == [solve(d, 0, "D").tricks for d in deals])


def test_hints_of_the_wrong_type_are_a_clear_error():
    with pytest.raises(PrefsolveError, match="hints must be a DiscardHints or None, got dict"):
        table_many(DEALS[:1], hints={})
    with pytest.raises(PrefsolveError, match="got list"):
        solve_many(DEALS[:1], 0, "S", hints=[])
    with pytest.raises(PrefsolveError, match="got str"):
        solve(DEALS[0], 0, "S", hints="x")


def test_progress_counts_every_deal():
    seen = []
    tables(DEALS, jobs=2, progress=seen.append)
    assert sum(seen) == len(DEALS)


def test_bad_input_names_the_deal():
    with pytest.raises(DealError, match="deal 2: duplicate card"):
        solve_many(["A.-.-.- K.-.-.- Q.-.-.-", "A.-.-.- A.-.-.- Q.-.-.-"], 0, "S", talon=False)
    with pytest.raises(PrefsolveError, match="jobs must be a positive"):
        table_many(DEALS[:1], jobs=0)


def test_cli_file_with_jobs(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text("# two deals\n" + "\n".join(str(d) for d in DEALS[:2]) + "\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path), "--jobs", "2", "--json", "--quiet"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert [t["deal"] for t in doc["tables"]] == [str(d) for d in DEALS[:2]]
    assert doc["tables"][1] == table(DEALS[1]).to_dict()


def test_cli_file_bad_line(tmp_path):
    path = tmp_path / "deals.txt"
    path.write_text(f"{DEALS[0]}\nnot a deal\n")
    r = CliRunner().invoke(main, ["table", "--file", str(path)])
    assert r.exit_code == 2 and "line 2: cannot read deal" in r.output


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
