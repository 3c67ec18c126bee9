"""Cards and hands: every accepted notation, canonical printing, errors."""

import random

import pytest
from hypothesis import given, strategies as st

from prefsolve.cards import ALL_CARDS, Card, Hand, cards_of_mask
from prefsolve.deal import Deal
from prefsolve.errors import CardError, HandError, PrefsolveError


@pytest.mark.parametrize("text", ["SA", "AS", "sa", "♠A", "A♠", "♤A"])
def test_ace_of_spades_spellings(text):
    assert Card.parse(text) == Card(0, 7)


@pytest.mark.parametrize("text", ["HT", "H10", "10H", "th", "♥10", "10♥"])
def test_ten_spellings(text):
    assert str(Card.parse(text)) == "HT"


def test_suit_and_rank_order():
    assert [str(c) for c in ALL_CARDS[:9]] == ["S7", "S8", "S9", "ST", "SJ", "SQ", "SK", "SA", "C7"]
    assert str(ALL_CARDS[31]) == "HA"


@pytest.mark.parametrize("text", ["", "S", "A", "S1", "X7", "S6", "SAK", "11S"])
def test_bad_cards(text):
    with pytest.raises(CardError, match="cannot read card"):
        Card.parse(text)


def test_card_is_immutable():
    with pytest.raises(AttributeError):
        Card.parse("SA").rank = 3


def test_hand_dotted_and_list_forms_agree():
    dotted = Hand.parse("A.KT9.KT97.K7")
    listed = Hand.parse("SA CK CT C9 DK DT D9 D7 HK H7")
    assert dotted == listed
    assert str(listed) == "A.KT9.KT97.K7"
    assert listed.symbols() == "♠A ♣KT9 ♦KT97 ♥K7"


def test_hand_voids_and_tens():
    assert str(Hand.parse("-.10.-.A")) == "-.T.-.A"
    assert len(Hand.parse("-.-.-.-")) == 0


@pytest.mark.parametrize("text, message", [
    ("A.KK.-.-", "duplicate card CK"),
    ("SA SA", "duplicate card SA"),
    ("A.Z.-.-", "unknown rank 'Z'"),
    ("SA ZZ", "cannot read"),
])
def test_bad_hands(text, message):
    with pytest.raises(HandError, match=message):
        Hand.parse(text)


def test_errors_are_value_errors():
    assert issubclass(HandError, PrefsolveError) and issubclass(PrefsolveError, ValueError)


@given(st.integers(0, 2**32 - 1))
def test_hand_round_trip(mask):
    hand = Hand(mask)
    assert Hand.parse(str(hand)) == hand
    assert Hand.parse(" ".join(str(c) for c in hand)) == hand
    assert [c.index for c in cards_of_mask(mask)] == [c.index for c in hand]
    assert eval(repr(hand), {"Hand": Hand}) == hand


@given(st.sampled_from(ALL_CARDS))
def test_card_round_trip(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbol) == card
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("call, error, text", [
    (lambda: Card(0, 6.5), CardError, "no card with suit 0 and rank 6.5"),
    (lambda: Card("0", "7"), CardError, "no card with suit '0'"),
    (lambda: Card.from_index(-1), CardError, "no card with index -1"),
    (lambda: Card.from_index(32), CardError, "no card with index 32"),
    (lambda: Card.parse(None), CardError, "cannot read card None"),
    (lambda: Hand.parse(["SA"]), HandError, "cannot read hand ['SA']"),
    (lambda: Hand.parse("A.KT9.KT97"), HandError, "a dotted hand has 4 suit groups"),
    (lambda: Hand("SA"), HandError, "Hand.parse()"),
    (lambda: Hand([1, 2]), HandError, "a hand holds cards, got 1"),
])
def test_card_and_hand_arguments_are_checked(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert text in str(info.value)


def test_cards_as_text_where_cards_are_expected():
    import numpy as np

    h = Hand.parse("A.KT9.KT97.K7")
    assert "SA" in h and "♣K" in h and "SK" not in h
    assert Hand(["SA", Card.parse("HK")]) == Hand.parse("A.-.-.K")
    assert Card(np.int64(0), np.int8(7)) == Card.parse("SA") and Card.from_index(np.int32(31)) == Card.parse("HA")
    with pytest.raises(TypeError):
        Card.parse("SA") < "SK"    # noqa: B015 - ordering is between cards only


def test_hands_read_back_as_symbols_prints_them():
    # The suit groups of Hand.symbols (and play's "Cards left" lines) are a hand notation.
    rng = random.Random(5)
    for _ in range(200):
        h = Hand(rng.sample(list(ALL_CARDS), rng.randrange(1, 13)))
        assert Hand.parse(h.symbols()) == h
    assert Hand.parse("S109 HAK") == Hand.parse("ST S9 HA HK")
    assert str(Deal.parse("♠K98 ♣AKQ ♦J ♥KQJ|♠J ♣T97 ♦QT9 ♥A87|♠AQT7 ♣J8 ♦AK8 ♥T")) == \
        "K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T"
    with pytest.raises(HandError, match="duplicate card SK"):
        Hand.parse("♠KK")
    with pytest.raises(HandError, match="cannot read card '♠KZ'"):
        Hand.parse("♠KZ")


def test_cyrillic_look_alike_letters_are_read_and_other_letters_named():
    # С, А, К, Т, Н typed on a Russian layout are the Latin letters they look like.
    assert Card.parse("СА") == Card.parse("CA") and Card.parse("нк") == Card.parse("HK")
    assert Hand.parse("АКТ.-.-.-") == Hand.parse("AKT.-.-.-")
    assert Deal.parse("АК.-.-.- QJ.-.-.- 7.7.-.-") == Deal.parse("AK.-.-.- QJ.-.-.- 7.7.-.-")
    with pytest.raises(CardError, match="'Д' is cyrillic capital letter de; type the Latin letters"):
        Card.parse("ДA")
    with pytest.raises(HandError, match="unknown rank 'Д' in hand 'АД.-.-.-' \\('Д' is cyrillic"):
        Hand.parse("АД.-.-.-")
