"""The public API: solve, table, result objects, and bad input."""

import dataclasses

import pytest

import prefsolve
from prefsolve import Deal, solve, table
from prefsolve.errors import DealError, PrefsolveError, RulesError, SeatError, StrainError

EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def test_solve_with_talon_names_a_discard_from_the_twelve_cards():
    d = Deal.parse(EXAMPLE)
    sol = solve(d, 2, strain="NT")
    assert sol.discard is not None and len(sol.discard) == 2
    twelve = set(d.hands[2]) | set(d.talon)
    assert set(sol.discard) <= twelve
    assert sol.to_dict()["discard"] == [str(c) for c in sol.discard]


def test_solve_accepts_text_and_strain_spellings():
    a = solve(EXAMPLE, 0, strain="♥", talon_mode="ignore")
    b = solve(Deal.parse(EXAMPLE), 0, strain="h", talon_mode="ignore")
    assert a.tricks == b.tricks and a.discard is None and a.strain == "H"


def test_talon_helps_the_declarer():
    d = Deal.parse(EXAMPLE)
    for declarer in range(3):
        for strain in ("S", "NT"):
            # With the talon he may discard the two talon cards and keep his hand.
            taken = solve(d, declarer, strain=strain).tricks
            assert taken >= solve(d, declarer, strain=strain, talon_mode="ignore").tricks
        taken = solve(d, declarer, strain="misere").tricks
        assert taken <= solve(d, declarer, strain="misere", talon_mode="ignore").tricks


def test_table_shape_and_dict():
    t = table(Deal.parse(EXAMPLE))
    doc = t.to_dict()
    assert doc["deal"] == EXAMPLE and doc["leader"] == 0 and doc["talon_mode"] == "take"
    assert len(doc["tricks"]) == 3 and doc["nodes"] == t.nodes > 0
    assert list(doc["tricks"][1]) == ["S", "C", "D", "H", "NT", "misere"]
    for d in range(3):
        for s in prefsolve.STRAINS:
            sol = solve(EXAMPLE, d, strain=s)
            assert doc["tricks"][d][s] == t.tricks[d][s] == sol.tricks
            assert doc["discards"][d][s] == sol.discard.to_list() and t.discards[d][s] == sol.discard
    assert "♠" in t.format()


def test_results_are_immutable_and_hashable():
    t = table(EXAMPLE)
    with pytest.raises(TypeError):
        t.tricks[0]["S"] = 99     # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.leader = 1      # type: ignore[misc]
    assert hash(t) == hash(table(EXAMPLE)) and t == table(EXAMPLE) and {t: 1}[table(EXAMPLE)] == 1
    sol = solve(EXAMPLE, 2, strain="NT")
    assert str(sol.discard) == "♠8 ♣8" and repr(sol.discard) == "Cards.parse('S8 C8')"
    assert eval(repr(sol.discard), {"Cards": prefsolve.Cards}) == sol.discard
    assert hash(sol) == hash(solve(EXAMPLE, 2, strain="NT"))


def test_table_of_ending_without_talon():
    t = table("AK.-.-.- QJ.-.-.- T9.-.-.-", talon_mode="ignore")
    assert t.tricks[0]["S"] == 2 and t.tricks[1]["NT"] == 0 and t.tricks[0]["misere"] == 2
    assert t.discards[0]["S"] is None


def test_duty_to_trump_in_a_one_card_ending():
    # Seat 0 holds SA, seat 1 DK, seat 2 H7.
    d = "A.-.-.- -.-.K.- -.-.-.7"
    # Hearts trump, SA led: seat 2 is void in spades and must trump.
    assert solve(d, 2, strain="H", leader=0, talon_mode="ignore").tricks == 1
    assert solve(d, 0, strain="H", leader=0, talon_mode="ignore").tricks == 0
    # Spades trump, DK led: seat 0 is void in diamonds and must trump with SA.
    assert solve(d, 0, strain="S", leader=1, talon_mode="ignore").tricks == 1
    assert solve(d, 1, strain="S", leader=1, talon_mode="ignore").tricks == 0
    # No trump: the card led wins.
    assert solve(d, 1, strain="NT", leader=1, talon_mode="ignore").tricks == 1
    assert solve(d, 1, strain="misere", leader=1, talon_mode="ignore").tricks == 1


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(declarer=3, strain="S"), SeatError, "declarer must be a seat 0, 1 or 2, got 3"),
    (dict(declarer=0, strain="S", leader=-1), SeatError, "leader must be"),
    (dict(declarer="0", strain="S"), SeatError, "got '0'"),
    (dict(declarer=0, strain="X"), StrainError, "unknown strain 'X'"),
    (dict(declarer=0, strain="S", talon_mode="yes"), RulesError, "unknown talon mode 'yes'"),
    (dict(declarer=0, strain="S", talon_mode="lead"), RulesError, "'lead' is for all-pass"),
    (dict(declarer=0, strain="allpass"), StrainError, "all-pass, which has no declarer"),
    # Values that pass a loose check (True == 1, 0 == False, an unhashable strain):
    (dict(declarer=True, strain="S"), SeatError, "got True"),
    (dict(declarer=0, strain="S", leader=False), SeatError, "got False"),
    (dict(declarer=1.0, strain="S"), SeatError, "got 1.0"),
    (dict(declarer=0, strain=["S"]), StrainError, "unknown strain"),
    (dict(declarer=0, strain="S", talon_mode=0), RulesError, "unknown talon mode 0"),
    (dict(declarer=0, strain="S", talon_mode=True), RulesError, "unknown talon mode True"),
])
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        solve(EXAMPLE, **kwargs)


def test_solution_is_the_frozen_dataclass():
    # solve() builds its result without the dataclass __init__ (for speed): it
    # must be the same object as one built the ordinary way.
    sol = solve(EXAMPLE, 2, strain="nt")
    same = prefsolve.Solution("NT", 2, 0, "take", sol.tricks, sol.discard, sol.nodes)
    assert sol == same and hash(sol) == hash(same) and repr(sol) == repr(same)
    assert dataclasses.asdict(sol) == dataclasses.asdict(same)
    assert dataclasses.replace(sol, tricks=0).tricks == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        sol.tricks = 0  # type: ignore[misc]


def test_talon_requested_on_deal_without_one():
    with pytest.raises(DealError, match="has no talon to take"):
        solve("A.-.-.- K.-.-.- Q.-.-.-", 0, strain="S", talon_mode="take")
    with pytest.raises(DealError, match="has no talon to take"):
        table("A.-.-.- K.-.-.- Q.-.-.-", talon_mode="take")
    # Without a talon mode, a deal without a talon is played as given.
    assert solve("A.-.-.- K.-.-.- Q.-.-.-", 0, strain="S").talon_mode == "ignore"
    assert table("A.-.-.- K.-.-.- Q.-.-.-").talon_mode == "ignore"


def test_bad_deal_text_is_a_deal_error():
    with pytest.raises(DealError, match="duplicate card"):
        solve("A.-.-.- A.-.-.- Q.-.-.-", 0, strain="S", talon_mode="ignore")
    with pytest.raises(DealError, match="expected a Deal"):
        solve(42, 0, strain="S")


@pytest.mark.parametrize("text", ["0", "-3", "1.5", "lots", "1048577", "99999999999999999999"])
def test_table_size_from_the_environment_is_checked(monkeypatch, text):
    from prefsolve.engine import table_size_mb

    monkeypatch.setenv("PREFSOLVE_TT_MB", text)
    with pytest.raises(PrefsolveError, match="PREFSOLVE_TT_MB must be a whole number of MiB from 1 to 1048576"):
        table_size_mb()
    monkeypatch.setenv("PREFSOLVE_TT_MB", "2")
    assert table_size_mb() == 2


@pytest.mark.parametrize("text", ["", "  "])
def test_an_empty_table_size_in_the_environment_means_the_default(monkeypatch, text):
    from prefsolve.engine import DEFAULT_TT_MB, table_size_mb

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
