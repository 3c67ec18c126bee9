"""The public API: solve, table, result objects, and bad input."""

import dataclasses

import pytest

import prefsolve
from prefsolve import Deal, solve, table
from prefsolve.errors import DealError, PrefsolveError, SeatError, StrainError

EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def test_solve_with_talon_names_a_discard_from_the_twelve_cards():
    d = Deal.parse(EXAMPLE)
    sol = solve(d, 2, "NT")
    assert sol.discard is not None and len(sol.discard) == 2
    twelve = set(d.hands[2]) | set(d.talon)
    assert set(sol.discard) <= twelve
    assert sol.to_dict()["discard"] == [str(c) for c in sol.discard]


def test_solve_accepts_text_and_strain_spellings():
    a = solve(EXAMPLE, 0, "♥", talon=False)
    b = solve(Deal.parse(EXAMPLE), 0, "h", talon=False)
    assert a.tricks == b.tricks and a.discard is None and a.strain == "H"


def test_talon_helps_the_declarer():
    d = Deal.parse(EXAMPLE)
    for declarer in range(3):
        for strain in ("S", "NT"):
            # With the talon he may discard the two talon cards and keep his hand.
            assert solve(d, declarer, strain).tricks >= solve(d, declarer, strain, talon=False).tricks
        assert solve(d, declarer, "misere").tricks <= solve(d, declarer, "misere", talon=False).tricks


def test_table_shape_and_dict():
    t = table(Deal.parse(EXAMPLE))
    doc = t.to_dict()
    assert doc["deal"] == EXAMPLE and doc["leader"] == 0 and doc["talon"] is True
    assert set(doc["tricks"]) == {"0", "1", "2"}
    assert list(doc["tricks"]["1"]) == ["S", "C", "D", "H", "NT", "misere"]
    for d in range(3):
        for s in prefsolve.STRAINS:
            assert doc["tricks"][str(d)][s] == t.tricks[d][s] == solve(EXAMPLE, d, s).tricks
            assert len(doc["discards"][str(d)][s]) == 2
    assert "♠" in t.format()


def test_table_of_ending_without_talon():
    t = table("AK.-.-.- QJ.-.-.- T9.-.-.-", talon=False)
    assert t.tricks[0]["S"] == 2 and t.tricks[1]["NT"] == 0 and t.tricks[0]["misere"] == 2
    assert t.discards[0]["S"] is None


def test_duty_to_trump_in_a_one_card_ending():
    # Seat 0 holds SA, seat 1 DK, seat 2 H7.
    d = "A.-.-.- -.-.K.- -.-.-.7"
    # Hearts trump, SA led: seat 2 is void in spades and must trump.
    assert solve(d, 2, "H", leader=0, talon=False).tricks == 1
    assert solve(d, 0, "H", leader=0, talon=False).tricks == 0
    # Spades trump, DK led: seat 0 is void in diamonds and must trump with SA.
    assert solve(d, 0, "S", leader=1, talon=False).tricks == 1
    assert solve(d, 1, "S", leader=1, talon=False).tricks == 0
    # No trump: the card led wins.
    assert solve(d, 1, "NT", leader=1, talon=False).tricks == 1
    assert solve(d, 1, "misere", leader=1, talon=False).tricks == 1


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(declarer=3, strain="S"), SeatError, "declarer must be a seat 0, 1 or 2, got 3"),
    (dict(declarer=0, strain="S", leader=-1), SeatError, "leader must be"),
    (dict(declarer="0", strain="S"), SeatError, "got '0'"),
    (dict(declarer=0, strain="X"), StrainError, "unknown strain 'X'"),
    (dict(declarer=0, strain="S", talon="yes"), DealError, "talon must be True or False"),
    # Values that pass a loose check (True == 1, 0 == False, an unhashable strain):
    (dict(declarer=True, strain="S"), SeatError, "got True"),
    (dict(declarer=0, strain="S", leader=False), SeatError, "got False"),
    (dict(declarer=1.0, strain="S"), SeatError, "got 1.0"),
    (dict(declarer=0, strain=["S"]), StrainError, "unknown strain"),
    (dict(declarer=0, strain="S", talon=0), DealError, "talon must be True or False"),
    (dict(declarer=0, strain="S", talon=None), DealError, "talon must be True or False"),
])
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        solve(EXAMPLE, **kwargs)


def test_solution_is_the_frozen_dataclass():
    # solve() builds its result without the dataclass __init__ (for speed): it
    # must be the same object as one built the ordinary way.
    sol = solve(EXAMPLE, 2, "nt")
    same = prefsolve.Solution(sol.tricks, sol.discard, 2, "NT", 0, sol.nodes)
    assert sol == same and hash(sol) == hash(same) and repr(sol) == repr(same)
    assert dataclasses.asdict(sol) == dataclasses.asdict(same)
    assert dataclasses.replace(sol, tricks=0).tricks == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        sol.tricks = 0  # type: ignore[misc]


def test_talon_requested_on_deal_without_one():
    with pytest.raises(DealError, match="has no talon"):
        solve("A.-.-.- K.-.-.- Q.-.-.-", 0, "S")
    with pytest.raises(DealError, match="has no talon"):
        table("A.-.-.- K.-.-.- Q.-.-.-")


def test_bad_deal_text_is_a_deal_error():
    with pytest.raises(DealError, match="duplicate card"):
        solve("A.-.-.- A.-.-.- Q.-.-.-", 0, "S", talon=False)
    with pytest.raises(DealError, match="expected a Deal"):
        solve(42, 0, "S")


@pytest.mark.parametrize("text", ["0", "-3", "1.5", "lots", "1048577", "99999999999999999999"])
def test_table_size_from_the_environment_is_checked(monkeypatch, text):
    from prefsolve.solver import table_size_mb

    monkeypatch.setenv("PREFSOLVE_TT_MB", text)
    with pytest.raises(PrefsolveError, match="PREFSOLVE_TT_MB must be a whole number of MiB from 1 to 1048576"):
        table_size_mb()
    monkeypatch.setenv("PREFSOLVE_TT_MB", "2")
    assert table_size_mb() == 2


@pytest.mark.parametrize("text", ["", "  "])
def test_an_empty_table_size_in_the_environment_means_the_default(monkeypatch, text):
    from prefsolve.solver import DEFAULT_TT_MB, table_size_mb

    monkeypatch.setenv("PREFSOLVE_TT_MB", text)
    assert table_size_mb() == DEFAULT_TT_MB


def test_a_table_too_large_for_memory_is_a_prefsolve_error(monkeypatch):
    from prefsolve import engine as solver_module

    class NoMemory:
        def Solver(self, tt_mb):
            raise MemoryError

    with pytest.raises(PrefsolveError, match="from 1 to 1048576, got 2097152"):
        solver_module.new_solver(1 << 21)
    assert solver_module.new_solver(1).tt_bytes > 0
    monkeypatch.setattr(solver_module, "_core", NoMemory())
    with pytest.raises(PrefsolveError, match="cannot allocate a 4096 MiB transposition table"):
        solver_module.new_solver(4096)
