"""Strains: every name a player types, and the labels printed for people."""

import pytest

from prefsolve.errors import StrainError
from prefsolve.strains import PLAY_STRAINS, parse_strain, strain_label, strain_of


@pytest.mark.parametrize("strain, names", [
    ("S", ["S", "s", "♠", "spades", "п", "П", "пики", "пик", "Пики"]),
    ("C", ["C", "♣", "clubs", "т", "тр", "трефы", "треф"]),
    ("D", ["D", "♦", "diamonds", "б", "бубны", "бубен"]),
    ("H", ["H", "♥", "hearts", "ч", "черви", "червы", "червей"]),
    ("NT", ["NT", "nt", "no trump", "бк", "БК", "б/к", "бескозырка", "без козыря"]),
    ("misere", ["misere", "Misère", "мизер", "МИЗЕР"]),
])
def test_every_strain_name(strain, names):
    assert [parse_strain(n) for n in names] == [strain] * len(names)
    assert [parse_strain(n, allpass=True) for n in names] == [strain] * len(names)


@pytest.mark.parametrize("name", ["allpass", "All-pass", "распасы", "Распасы", "распасовка"])
def test_all_pass_names_where_play_takes_all_pass(name):
    assert parse_strain(name, allpass=True) == "allpass"
    with pytest.raises(StrainError, match="is all-pass, which has no declarer"):
        parse_strain(name)


@pytest.mark.parametrize("name", ["", "X", "пас", "вист", "туз", "6S", "трефы пики", None, 3])
def test_what_is_no_strain(name):
    with pytest.raises(StrainError, match="unknown strain"):
        parse_strain(name, allpass=True)
    assert not isinstance(name, str) or strain_of(name) is None


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_labels_read_back(lang):
    assert [parse_strain(strain_label(s, lang), allpass=True) for s in PLAY_STRAINS] == list(PLAY_STRAINS)


def test_labels():
    assert [strain_label(s) for s in PLAY_STRAINS] == ["♠", "♣", "♦", "♥", "NT", "Misère", "All-pass"]
    assert [strain_label(s, "ru") for s in PLAY_STRAINS] == ["♠", "♣", "♦", "♥", "БК", "Мизер", "Распасы"]
