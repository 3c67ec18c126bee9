"""Cards and hands: every accepted notation, canonical printing, errors."""

import pytest
from hypothesis import given, strategies as st

from prefsolve.cards import ALL_CARDS, Card, Hand, cards_of_mask
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
    ("A.X.-.-", "unknown rank 'X'"),
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
