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


def test_what_the_russian_output_prints_every_parser_reads_back():
    # The Russian text output writes cards, hands, deals, contracts, strains and
    # calls as prefsolve.i18n's catalogue and the format(lang) methods do; each
    # of them is read back by its parser, so a Russian user can paste any of it.
    from prefsolve import Card, Cards, Contract, Deal, Hand
    from prefsolve.auction import Call, parse_whist_call, parse_whist_play
    from prefsolve.cards import ALL_CARDS
    from prefsolve.contract import LADDER
    from prefsolve.i18n import _, use_language
    from prefsolve.strains import PLAY_STRAINS, parse_strain, strain_label

    assert all(Card.parse(c.format("ru")) == c for c in ALL_CARDS)
    for seed in range(20):
        deal = Deal.random(seed)
        assert Deal.parse(deal.format("ru")) == deal
        for hand in deal.hands:
            assert Hand.parse(hand.format("ru")) == hand and Hand.parse(hand.symbols("ru")) == hand
            assert Cards.parse(Cards(list(hand)).format("ru")) == Cards(list(hand))
    contracts = [*LADDER, Contract.parse("9S-hand"), Contract.parse("misere-hand")]
    assert all(Contract.parse(c.format("ru")) == c for c in contracts)
    assert all(parse_strain(strain_label(s, "ru"), allpass=True) == s for s in PLAY_STRAINS)
    with use_language("ru"):
        # The words the text output uses for the calls are the ones the parsers read.
        assert [parse_whist_call(_(w)) for w in ("whist", "pass", "half-whist")] == ["whist", "pass", "half"]
        assert Call.parse(_("pass")).kind == "pass"
        assert [parse_whist_play(_(w)) for w in ("open", "closed")] == ["open", "closed"]
