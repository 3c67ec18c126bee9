"""The notation's letters and words: one reading per letter, Latin and Russian."""

import pytest

from prefsolve.errors import PrefsolveError
from prefsolve.notation import (
    CARD_SUITS,
    LANGUAGES,
    ambiguity,
    check_language,
    foreign_hint,
    normal,
    rank_of,
    rank_text,
    suit_of,
    suit_spellings,
)


@pytest.mark.parametrize("rank, spellings", [
    (7, ["A", "a", "Т", "т", "А"]), (6, ["K", "К", "к"]), (5, ["Q", "Д", "д"]), (4, ["J", "В", "в"]),
    (3, ["T", "t", "10", "X", "x"]), (2, ["9"]), (1, ["8"]), (0, ["7"]),
])
def test_every_rank_spelling(rank, spellings):
    assert [rank_of(s) for s in spellings] == [rank] * len(spellings)


@pytest.mark.parametrize("suit, spellings", [
    (0, ["S", "s", "♠", "♤", "п", "П", "пики", "Пик", "пика", "вини", "spades", "на пиках"]),
    (1, ["C", "♣", "♧", "т", "Т", "тр", "ТР", "трефы", "треф", "clubs", "С"]),
    (2, ["D", "♦", "♢", "б", "Б", "бубны", "бубен", "diamonds"]),
    (3, ["H", "♥", "♡", "♥\ufe0f", "ч", "Ч", "черви", "червы", "червей", "Hearts", "Н", "на червях"]),
])
def test_every_suit_spelling(suit, spellings):
    assert [suit_of(s) for s in spellings] == [suit] * len(spellings)


@pytest.mark.parametrize("text", ["B", "Е", "Р", "х", "Х", "1", "0", "", "ТК", "spade"])
def test_what_is_no_rank_and_no_suit(text):
    # Х is not guessed (see ambiguity); the Latin B and Cyrillic Е Р have no meaning in a card.
    assert rank_of(text) is None and suit_of(text) is None


def test_cyrillic_t_is_the_ace_as_a_rank_and_clubs_as_a_suit_and_never_the_ten():
    assert rank_of("Т") == 7 and suit_of("Т") == 1 and rank_of("T") == 3


def test_card_suits_are_tried_longest_first():
    spellings = [s for s, _ in CARD_SUITS]
    assert spellings.index("тр") < spellings.index("т")
    assert all(len(s) <= 2 for s in spellings)


def test_words_compare_without_case_yo_or_extra_spaces():
    assert normal("  Десять   ЧЕТВЁРТЫХ ") == "десять четвертых"
    assert normal("ЛЁЖА") == "лежа"


def test_suit_texts_are_words_or_runs_of_letters():
    assert suit_spellings("SH") == ["S", "H"]
    assert suit_spellings("пч") == ["п", "ч"]
    assert suit_spellings("пики, черви") == ["пики", "черви"]
    assert suit_spellings("тр ч") == ["тр", "ч"]
    assert suit_spellings("♠️♥️") == ["♠", "♥"]


def test_ambiguous_letters_are_named_with_both_readings():
    assert ambiguity("ТКД") is None and ambiguity("AKX") is None
    why = ambiguity("КДХ")
    assert why.startswith("'Х' can be read two ways: the ten") and "small card" in why


def test_letters_outside_the_notation_are_named():
    assert foreign_hint("ТКДВ10пчбт♠СНА") == ""
    assert foreign_hint("Ж").startswith(" ('Ж' is cyrillic capital letter zhe; type the suits")
    assert foreign_hint("Z") == ""      # a Latin letter speaks for itself


def test_ranks_as_each_language_prints_them():
    assert LANGUAGES == ("en", "ru")
    assert "".join(rank_text(r) for r in range(8)) == "789TJQKA"
    assert [rank_text(r, "ru") for r in range(8)] == ["7", "8", "9", "10", "В", "Д", "К", "Т"]
    assert all(rank_of(rank_text(r, lang)) == r for r in range(8) for lang in LANGUAGES)
    assert check_language("ru") == "ru"
    with pytest.raises(PrefsolveError, match="unknown language 'de'"):
        rank_text(0, "de")
