"""Deals: parsing all forms, canonical text, validation of bad input."""

import pytest
from hypothesis import given, strategies as st

from prefsolve import Cards, Deal
from prefsolve.errors import DealError, PrefsolveError, SeatError

from strategies import deals, ending_deals

EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def test_example_parses_and_prints_canonically():
    d = Deal.parse(EXAMPLE)
    assert str(d) == EXAMPLE
    assert d.tricks == 10 and str(d.talon) == "8.Q.-.-"
    assert eval(repr(d), {"Deal": Deal}) == d


def test_pipe_form_with_card_lists():
    d = Deal.parse(EXAMPLE)
    piped = "|".join(" ".join(str(c) for c in part) for part in (*d.hands, d.talon))
    assert Deal.parse(piped) == d


def test_ending_without_talon():
    d = Deal.parse("AK.-.-.- QJ.-.-.- T9.-.-.-")
    assert d.talon is None and d.tricks == 2


@pytest.mark.parametrize("text, message", [
    ("A.KT9.KT97.K7 AT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-", "duplicate card SA"),
    ("AK.-.-.- Q.-.-.- T9.-.-.-", "unequal size"),
    ("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.-.-.-", "talon must be 2 cards"),
    ("AK.-.-.- QJ.-.-.- T9.-.-.- 8.7.-.-", "talon goes with 10-card hands"),
    ("AK.-.-.- QJ.-.-.-", "3 hands"),
    ("-.-.-.- -.-.-.- -.-.-.-", "1 to 10 cards"),
    ("AKQJT9876.-.-.- -.AKQJT9876.-.- -.-.AKQJT9876.-", "unknown rank '6'"),
    ("SA SK SQ", "dotted suits"),
    ("SA|SK|SZ", "cannot read card 'SZ'"),
])
def test_bad_deals(text, message):
    with pytest.raises(DealError, match=message):
        Deal.parse(text)


def test_random_is_seeded_and_valid():
    assert Deal.random(3) == Deal.random(3)
    assert Deal.random(3) != Deal.random(4)
    ending = Deal.random(5, cards=4)
    assert ending.tricks == 4 and ending.talon is None


@given(st.one_of(ending_deals(), deals()))
def test_parse_of_str_is_identity(d):
    assert Deal.parse(str(d)) == d


@pytest.mark.parametrize("call, error, text", [
    (lambda: Deal("A.-.-.- K.-.-.- Q.-.-.-"), DealError, "Deal.parse()"),
    (lambda: Deal.random(7, cards="5"), DealError, "got '5'"),
    (lambda: Deal.random(-1), PrefsolveError, "seed must be a whole number 0 or more, got -1"),
    (lambda: Deal.random(1.5), PrefsolveError, "got 1.5"),
    (lambda: Deal.random(1).with_hand(5, "A.-.-.-"), SeatError, "got 5"),
    (lambda: Deal.random(1).with_hand(-1, "A.-.-.-"), SeatError, "got -1"),
])
def test_deal_arguments_are_checked(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert text in str(info.value)


def test_hands_as_text_in_the_constructor():
    assert Deal(["A.-.-.-", "K.-.-.-", "Q.-.-.-"]) == Deal.parse("A.-.-.- K.-.-.- Q.-.-.-")
    d = Deal.random(3)
    swapped = d.with_hand(0, str(d.hands[0]))
    assert swapped == d


def test_numpy_whole_numbers_for_sizes_and_seeds():
    import numpy as np

    assert Deal.random(np.int64(7), cards=np.int8(5)) == Deal.random(7, cards=5)


def test_hands_and_deals_pickle_back_to_equal_objects():
    import pickle

    for deal in (Deal.random(3), Deal.random(4, cards=5)):
        again = pickle.loads(pickle.dumps(deal))
        assert again == deal and again.talon == deal.talon and hash(again) == hash(deal)
        assert [pickle.loads(pickle.dumps(h)) for h in deal.hands] == list(deal.hands)


@given(deals())
def test_a_deal_printed_in_russian_reads_back(deal):
    assert Deal.parse(deal.format("ru")) == deal
    assert deal.format("en") == str(deal)
    # card lists in Russian letters, hands separated by "|"
    parts = [Cards(h).format("ru") for h in deal.hands + ((deal.talon,) if deal.talon is not None else ())]
    assert Deal.parse(" | ".join(parts)) == deal
