"""Tests of prefsolve.contract: the ladder, parsing, printing, values."""

import pytest
from hypothesis import given, strategies as st

from prefsolve.auction import ladder
from prefsolve.contract import LADDER, Contract
from prefsolve.errors import ContractError, PrefsolveError
from prefsolve.rules import Rules


def test_ladder_has_26_steps_in_seniority_order():
    assert len(LADDER) == 26
    assert [str(c) for c in LADDER[:6]] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert str(LADDER[14]) == "8NT" and str(LADDER[15]) == "misere" and str(LADDER[16]) == "9S"
    assert str(LADDER[25]) == "10NT"
    assert [c.index for c in LADDER] == list(range(26))
    assert all(a < b for a, b in zip(LADDER, LADDER[1:]))


@pytest.mark.parametrize("text,canon", [
    ("6S", "6S"), ("6s", "6S"), ("7♥", "7H"), ("8NT", "8NT"), ("8 БК", "8NT"), ("8 б/к", "8NT"),
    ("10♦", "10D"), ("9 ♣", "9C"), ("misere", "misere"), ("Misère", "misere"), ("мизер", "misere"),
    ("раз", "6S"), ("два", "6C"), ("три", "6D"), ("четыре", "6H"), ("бескозырка", "6NT"),
    ("БЕЗКОЗЫРКА", "6NT"), ("пять", "6NT"), ("семь первых", "7S"), ("семь вторых", "7C"),
    ("семь третьих", "7D"), ("семь четвертых", "7H"), ("семь четвёртых", "7H"), ("семь пятых", "7NT"),
    ("восемь первых", "8S"), ("девять третьих", "9D"), ("десять четвёртых", "10H"),
    ("десять бескозырок", "10NT"), ("СЕМЬ ПЕРВЫХ", "7S"),
    ("девять первых без прикупа", "9S-hand"), ("9S hand", "9S-hand"), ("мизер без прикупа", "misere-hand"),
    ("мизер б/п", "misere-hand"), ("шестирик без козыря", "6NT"), ("семирик на червях", "7H"),
    ("восьмерик вини", "8S"), ("девятерная пики без прикупа", "9S-hand"), ("десятерная бк", "10NT"),
])
def test_parse_canonical(text, canon):
    assert str(Contract.parse(text)) == canon


@pytest.mark.parametrize("text,canon", [
    ("шесть пик", "6S"), ("7 червей", "7H"), ("8 бубен", "8D"), ("9 треф", "9C"), ("10 бк", "10NT"),
    ("6 п", "6S"), ("6п", "6S"), ("6т", "6C"), ("6тр", "6C"), ("7 ч", "7H"), ("8 б", "8D"), ("6С", "6C"),
    ("семь червей", "7H"), ("восемь бубен", "8D"), ("девять треф", "9C"), ("десять БК", "10NT"),
    ("Шесть Пик", "6S"), ("7 пики", "7S"), ("8 трефы", "8C"), ("7 черви", "7H"), ("десять бескозырка", "10NT"),
    ("семь червей без прикупа", "7H-hand"), ("9 пик б/п", "9S-hand"), ("МИЗЕР Б/П", "misere-hand"),
])
def test_russian_levels_with_russian_strains(text, canon):
    assert str(Contract.parse(text)) == canon


@pytest.mark.parametrize("text", ["", "5S", "11H", "6X", "семь", "пас", "six spades", "мизерный", "бк", "пики",
                                  "6 мизер", "7 распасы", "6Х"])
def test_parse_rejects_with_quoted_input(text):
    with pytest.raises(ContractError) as exc:
        Contract.parse(text)
    assert repr(text) in str(exc.value)
    assert isinstance(exc.value, PrefsolveError) and isinstance(exc.value, ValueError)


def test_all_pass_is_no_contract_and_says_so():
    with pytest.raises(ContractError, match="'распасы' is all-pass, which is not a contract: nobody declares"):
        Contract.parse("распасы")


@given(st.sampled_from(ladder("classic")), st.sampled_from(["en", "ru"]))
def test_format_reads_back_in_both_languages(c, lang):
    assert Contract.parse(c.format(lang)) == c


def test_format():
    assert [Contract.parse(t).format() for t in ("7H", "10NT", "misere", "9S-hand")] == \
        ["7♥", "10NT", "misère", "9♠ without talon"]
    assert [Contract.parse(t).format("ru") for t in ("6S", "7H", "8D", "9C", "10NT", "misere-hand")] == \
        ["6 пик", "7 червей", "8 бубен", "9 треф", "10 бк", "мизер без прикупа"]
    with pytest.raises(PrefsolveError, match="unknown language"):
        Contract.parse("7H").format("english")


def test_constructor_validates():
    with pytest.raises(ContractError):
        Contract(5, "S")
    with pytest.raises(ContractError):
        Contract(7, "X")
    with pytest.raises(ContractError):
        Contract(7, "misere")


@given(st.sampled_from(LADDER))
def test_str_roundtrip(c):
    assert Contract.parse(str(c)) == c
    assert hash(Contract.parse(str(c))) == hash(c)


def test_values_and_obligations():
    assert [Contract(lv, "S").value for lv in (6, 7, 8, 9, 10)] == [2, 4, 6, 8, 10]
    assert Contract.misere().value == 10
    assert [Contract(lv, "H").whist_obligation() for lv in (6, 7, 8, 9, 10)] == [4, 2, 1, 1, 1]
    assert Contract(10, "S").whist_obligation(Rules.profile("leningrad")) == 1
    assert Contract(10, "S").whist_obligation(Rules.profile("sochi")) == 0  # RULES.md §3.4 checked
    assert Contract.misere().whist_obligation() == 0


def test_comparison_and_hand_games():
    assert Contract.parse("8NT") < Contract.misere() < Contract.parse("9S")
    assert Contract.parse("9S") < Contract.parse("9S-hand") < Contract.parse("9C")
    assert max(LADDER) == Contract(10, "NT")
    assert Contract.parse("7H").symbol == "7♥"
    seven, eight = Contract.parse("7S"), Contract.parse("8S")
    assert seven <= seven and seven >= seven and seven <= eight and not eight <= seven
    assert eight >= seven and not seven >= eight and not seven < seven and not seven > seven


def test_ten_checked_obligation_is_zero_in_classic():
    # RULES.md §3.4: the classic profile does not whist on a 10
    assert Contract(10, "NT").whist_obligation(Rules.profile("classic")) == 0
    assert Contract(10, "NT").whist_obligation(Rules.profile("rostov")) == 1
    assert Contract(9, "NT").whist_obligation(Rules.profile("classic")) == 1


# -- faults no test caught (docs/TESTING.md) -------------------------------------------------
@pytest.mark.parametrize("make, message", [
    (lambda: Contract(6, "misere"), "misère has no level, got 6"),
    (lambda: Contract(7, "X"), "unknown strain 'X' (expected S C D H NT or misere)"),
    (lambda: Contract(5, "S"), "level 5 is not a game level (6..10)"),
    (lambda: Contract(None, "NT"), "level None is not a game level (6..10)"),
    (lambda: Contract.parse(7), "a contract must be text, got 7"),
    (lambda: Contract.parse(None), "a contract must be text, got None"),
    (lambda: Contract.parse("6X"), "unknown contract '6X'"),
    (lambda: Contract.parse("без прикупа"), "unknown contract 'без прикупа'"),   # «without talon» alone
    (lambda: Contract.parse("hand"), "unknown contract 'hand'"),
    (lambda: Contract.parse("распасы"),
     "'распасы' is all-pass, which is not a contract: nobody declares (play it with the strain allpass)"),
])
def test_a_contract_that_cannot_be_says_why(make, message):
    with pytest.raises(ContractError) as info:
        make()
    assert str(info.value) == message


def test_misere_is_with_talon_unless_said():
    assert Contract.misere() == Contract(None, "misere") and str(Contract.misere()) == "misere"
    assert not Contract.misere().without_talon and Contract.misere(True).without_talon
    assert Contract.misere().index == 15 and Contract.misere(True).index == 15


@pytest.mark.parametrize("other", [5, "7S", None])
def test_contracts_compare_with_contracts_only(other):
    seven = Contract.parse("7S")
    for compare in (lambda: seven < other, lambda: seven <= other, lambda: seven > other, lambda: seven >= other):
        with pytest.raises(TypeError):
            compare()
    assert seven != other


@pytest.mark.parametrize("text, contract", [
    ("раз без прикупа", Contract(6, "S", True)), ("бескозырка б/п", Contract(6, "NT", True)),
    ("раз", Contract(6, "S")), ("6S hand", Contract(6, "S", True)), ("мизер-hand", Contract.misere(True)),
])
def test_the_first_steps_spoken_without_talon(text, contract):
    # RULES.md §2.1, §2.5: «раз» … «бескозырка» are the 6-level games; «без прикупа» makes any
    # of them a game without talon.
    assert Contract.parse(text) == contract
