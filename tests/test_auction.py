"""Tests of prefsolve.auction: calls, auctions, declarations, whist calls."""

import pytest
from hypothesis import assume, given, settings, strategies as st

from prefsolve.auction import (
    BID,
    AuctionResult,
    Call,
    Verdict,
    WhistResult,
    allowed_declarations,
    check_auction,
    check_declaration,
    check_whist_calls,
    ladder,
    legal_calls,
    parse_calls,
    parse_whist_call,
    parse_whist_calls,
    parse_whist_play,
    seniority,
    split_whist_text,
)
from prefsolve.contract import Contract
from prefsolve.errors import AuctionError, ContractError, RulesError
from prefsolve.rules import PROFILES, Rules

SOCHI = Rules.profile("sochi")
CLASSIC = Rules.profile("classic")


def test_issue_example():
    r = check_auction("раз два пас три пас", SOCHI)
    assert r.legal and r.finished and r.winner == 0 and str(r.contract) == "6D" and not r.all_pass
    assert r.to_dict() == {"legal": True, "finished": True, "winner": 0, "contract": "6D", "all_pass": False,
                           "next_seat": None}
    assert check_auction("6S 6C pass 6D pass", SOCHI).to_dict() == r.to_dict()


def test_all_pass_and_third_hand_may_still_bid():
    r = check_auction("pass pass pass")
    assert r.finished and r.all_pass and r.winner is None
    r = check_auction("пас пас")
    assert r.legal and not r.finished and r.next_seat == 2
    r = check_auction("pass pass 6S")
    assert r.finished and r.winner == 2 and str(r.contract) == "6S"


def test_unfinished_and_turns():
    r = check_auction("6S pass")
    assert r.legal and not r.finished and r.next_seat == 2
    r = check_auction("6S pass 6C")  # seat 1 passed, seat 0 speaks next
    assert r.next_seat == 0


def test_bid_must_be_higher():
    r = check_auction("6C 6S")
    assert not r.legal and r.call == 1 and r.seat == 1 and "§2.2" in r.reason and "6C" in r.reason


def test_pass_is_final_and_turn_skips_passed():
    # seat 1 passed; after seat 2 the turn is seat 0, so "6D" at index 3 is seat 0's
    r = check_auction("6S pass 6C 6D 6H pass")
    assert r.legal and r.finished and r.winner == 2
    r = check_auction("6S pass pass 6C")
    assert not r.legal and r.call == 3 and "already over" in r.reason


def test_binding_misere():
    r = check_auction("6S misere", SOCHI)
    assert r.legal and not r.finished
    r = check_auction("6S 6C pass misere", SOCHI)  # seat 0 already bid 6S
    assert not r.legal and r.call == 3 and r.seat == 0 and "binding misère" in r.reason
    r = check_auction("misere 9S pass 9C", SOCHI)  # misère bidder may only pass
    assert not r.legal and r.call == 3 and "binding" in r.reason
    r = check_auction("misere 8NT", SOCHI)
    assert not r.legal and "does not overcall misère" in r.reason
    r = check_auction("misere 9S pass pass", SOCHI)
    assert r.finished and r.winner == 1 and str(r.contract) == "9S"
    # trading misère (RULES.md §2.3): misère after one's own game bid, and games after misère
    trading = SOCHI.replace(misere_binding=False)
    assert check_auction("6S 6C pass misere pass", trading).winner == 0
    assert check_auction("misere 9S pass 9C pass", trading).winner == 0


def test_hold_here():
    r = check_auction("6C 6D pass 6D pass", SOCHI)  # seat 0 senior holds «здесь»
    assert r.legal and r.finished and r.winner == 0 and str(r.contract) == "6D"
    assert check_auction("6C 6D pass здесь pass", SOCHI).winner == 0
    assert check_auction("два три пас три здесь пас", SOCHI).winner == 0
    r = check_auction("6C 6D 6D", SOCHI)  # three still in, junior
    assert not r.legal and r.call == 2 and "§2.4" in r.reason
    r = check_auction("6C 6D 6H 6H", SOCHI)  # three still in: not even the senior may hold
    assert not r.legal and r.call == 3 and r.reason == (
        "§2.4: «здесь» is allowed only when exactly two players are left in the auction")
    r = check_auction("pass 6C 6D 6C", SOCHI)
    assert not r.legal and "must be higher" in r.reason
    r = check_auction("pass 6D 6H 6H", SOCHI)
    assert r.legal and not r.finished
    r = check_auction("pass 6D 6H 6H 6H", SOCHI)  # junior cannot hold back
    assert not r.legal and r.call == 4 and "senior" in r.reason
    r = check_auction("6S 6S", SOCHI)
    assert not r.legal
    r = check_auction("6C pass 6C", SOCHI)  # junior
    assert not r.legal and "senior" in r.reason
    r = check_auction("pass 6S 6S", SOCHI)  # 6♠ cannot be held (RULES.md §2.4)
    assert not r.legal and "6♠" in r.reason
    assert check_auction("pass misere 9S misere").legal is False
    r = check_auction("6C 6D pass 6D", CLASSIC)  # classic: no hold
    assert not r.legal and "off" in r.reason
    first = SOCHI.replace(hold="first_hand_only")
    assert check_auction("6C 6D 6D", first).legal is False
    assert check_auction("6C 6D 7S 7S", first).legal is True


def test_exit_from_all_pass():
    strict = SOCHI  # strict 6/7/8
    r = check_auction("6S", strict, allpass_count=1)
    assert not r.legal and "§2.6" in r.reason
    assert check_auction("7S pass pass", strict, allpass_count=1).winner == 0
    assert not check_auction("7NT", strict, allpass_count=2).legal
    assert check_auction("misere pass pass", strict, allpass_count=3).legal
    assert check_auction("6S pass pass", Rules.profile("rostov"), allpass_count=3).legal
    constrained = SOCHI.replace(raspasy_exit="constrained")
    assert check_auction("7S", constrained, allpass_count=5).legal


def test_classic_ladder_extensions():
    lad = ladder(CLASSIC)
    m, mh = Contract.misere(), Contract.misere(True)
    assert seniority(Contract(9, "NT"), CLASSIC) < seniority(m, CLASSIC) < seniority(Contract(9, "S", True), CLASSIC)
    assert seniority(Contract(10, "NT"), CLASSIC) < seniority(mh, CLASSIC) < seniority(Contract(10, "S", True), CLASSIC)
    assert len(lad) == 52
    # seed: misère is overcalled only by a 9 without talon or any 10
    assert not check_auction("misere 9NT", CLASSIC).legal
    assert check_auction("misere 9S-hand", CLASSIC).legal
    assert check_auction("misere 10S", CLASSIC).legal
    # misère without talon is overcalled only by a 10 without talon
    r = check_auction("pass мизер без прикупа 10NT", CLASSIC)
    assert not r.legal and r.call == 2
    assert check_auction("pass мизер без прикупа 10S-hand pass", CLASSIC).winner == 2
    r = check_auction("9S-hand", SOCHI)
    assert not r.legal and "§2.5" in r.reason


def test_parse_calls_and_errors():
    assert [str(c) for c in parse_calls("6S, семь первых, pass")] == ["6S", "7S", "pass"]
    assert [str(c) for c in parse_calls("пас семирик на червях без прикупа пас")] == ["pass", "7H-hand", "pass"]
    assert parse_calls(["6S", "pass"]) == (Call(BID, Contract(6, "S")), Call("pass"))
    with pytest.raises(AuctionError) as exc:
        check_auction("раз foo")
    assert "'foo'" in str(exc.value)
    with pytest.raises(AuctionError):
        check_auction("6S", allpass_count=-1)


def test_declaration():
    assert check_declaration("6D", "6D").legal
    assert check_declaration("6D", "7S").legal
    assert check_declaration("6D", "6H").legal
    v = check_declaration("6D", "6C")
    assert not v.legal and "§3.1" in v.reason
    assert not check_declaration("misere", "10NT").legal
    assert check_declaration("misere", "misere").legal
    assert not check_declaration("6S", "misere").legal
    trading = SOCHI.replace(misere_binding=False)
    assert check_declaration("8S", "misere", trading).legal
    assert not check_declaration("9S", "misere", trading).legal
    assert not check_declaration("9S-hand", "9NT", CLASSIC).legal
    assert check_declaration("9S-hand", "10S-hand", CLASSIC).legal


@pytest.mark.parametrize("profile", ["sochi", "classic"])
@pytest.mark.parametrize("bid, legal", [("6S", True), ("7NT", True), ("8S", True), ("8C", False),
                                        ("8NT", False), ("9H", False), ("9NT", False)])
def test_trading_misere_is_declared_after_games_up_to_8_spades(profile, bid, legal):
    # RULES.md §2.3: games are traded «раз, два, … восемь первых», then misère is declared.
    v = check_declaration(bid, "misere", Rules.profile(profile).replace(misere_binding=False))
    assert v.legal == legal and (legal or "up to 8S" in v.reason)


def test_declarations_off_the_ladder_get_a_verdict():
    v = check_declaration("6S-hand", "7S-hand", SOCHI)
    assert not v.legal and "6S-hand" in v.reason and "§2.5" in v.reason
    v = check_declaration("6S", "misere-hand", SOCHI)
    assert not v.legal and "misere-hand" in v.reason
    v = check_declaration("8S-hand", "misere", CLASSIC.replace(misere_binding=False))
    assert not v.legal and "talon" in v.reason


def test_whist_calls():
    r = check_whist_calls("6S", ["whist", "pass"])
    assert r.legal and r.finished and r.outcome == "one_whister" and r.whisters == (0,) and r.play == "open"
    assert check_whist_calls("6S", ["pass", "whist"], open=False).play == "closed"
    assert check_whist_calls("6S", ["whist", "whist"]).outcome == "two_whisters"
    assert check_whist_calls("6S", ["pass", "pass"]).outcome == "pass_out"
    assert check_whist_calls("6S", ["pass", "half"]).finished is False
    r = check_whist_calls("7D", ["пас", "полвиста", "пас"])
    assert r.outcome == "half_whist" and r.half_whister == 1
    r = check_whist_calls("7D", ["pass", "half", "whist"])  # second chance taken
    assert r.outcome == "one_whister" and r.whisters == (0,)
    r = check_whist_calls("6S", ["half"])
    assert not r.legal and r.call == 0 and "second defender" in r.reason
    r = check_whist_calls("6S", ["whist", "half"])
    assert not r.legal and r.call == 1 and "after the first defender passed" in r.reason
    r = check_whist_calls("8S", ["pass", "half"])
    assert not r.legal and "6- and 7-level" in r.reason
    r = check_whist_calls("6S", ["pass", "half"], SOCHI.replace(half_whist="off"))
    assert not r.legal
    r = check_whist_calls("6S", ["whist", "pass", "whist"])
    assert not r.legal and r.call == 2
    r = check_whist_calls("misere", ["whist"])
    assert not r.legal and "misère" in r.reason
    assert check_whist_calls("misere", []).outcome == "misere"
    stal = SOCHI.replace(stalingrad=True)
    r = check_whist_calls("6S", ["whist", "pass"], stal)
    assert not r.legal and "Stalingrad" in r.reason and r.call == 1
    assert check_whist_calls("6C", ["pass", "pass"], stal).legal
    with pytest.raises(AuctionError):
        check_whist_calls("6S", ["maybe"])


# -- hypothesis invariants ------------------------------------------------------
def _random_auction(data, rules, allpass_count):
    calls = []
    for _ in range(60):
        options = legal_calls(calls, rules, allpass_count)
        if not options:
            break
        # bias towards passing so auctions finish
        calls.append(data.draw(st.sampled_from(list(options[:1]) * 3 + list(options))))
    return calls


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(PROFILES), st.integers(0, 3))
def test_random_legal_auction_validates(data, profile, allpass_count):
    rules = Rules.profile(profile)
    calls = _random_auction(data, rules, allpass_count)
    r = check_auction(calls, rules, allpass_count)
    assert r.legal and r.finished
    assert r.all_pass == (r.contract is None)
    if not r.all_pass:
        assert 0 <= r.winner <= 2
        assert check_declaration(r.contract, r.contract, rules).legal
        # 7.1: strictly increasing ladder except a legal hold
        bids = [seniority(c.contract, rules) for c in calls if c.contract is not None]
        assert all(a <= b for a, b in zip(bids, bids[1:]))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(PROFILES))
def test_mutation_breaking_the_ladder_is_rejected(data, profile):
    rules = Rules.profile(profile)
    calls = _random_auction(data, rules, 0)
    highest, spots = None, []
    for i, c in enumerate(calls):
        if c.kind == BID and highest is not None and seniority(highest, rules) > 0:
            spots.append((i, highest))
        if c.contract is not None:
            highest = c.contract
    assume(spots)       # an auction with no bid to lower says nothing: drawn again
    i, top = data.draw(st.sampled_from(spots))
    lower = data.draw(st.sampled_from(ladder(rules)[: seniority(top, rules)]))
    mutated = calls[:i] + [Call(BID, lower)] + calls[i + 1:]
    r = check_auction(mutated, rules)
    assert not r.legal and r.call == i and r.reason.startswith("§")


# -- reviewed defects ----------------------------------------------------------------
def test_bare_here_after_a_bid_is_a_separate_hold():
    # «здесь» after a bid that is not the current highest is its own bare hold call
    r = check_auction("pass 6C 6D здесь", SOCHI)
    assert r.legal and not r.finished and r.next_seat == 2
    assert [str(c) for c in r.calls] == ["pass", "6C", "6D", "here"]
    r = check_auction("6S 6C pass здесь 6D здесь pass", SOCHI)
    assert r.legal and r.finished and r.winner == 0 and str(r.contract) == "6D"
    assert r.to_dict() == check_auction("6S,6C,pass,здесь,6D,здесь,pass", SOCHI).to_dict()
    assert check_auction("6C 6D pass here pass", SOCHI).winner == 0
    # the explicit hold that repeats the current highest bid stays one call
    assert [str(c) for c in parse_calls("два три пас три здесь пас")] == ["6C", "6D", "pass", "6D here", "pass"]
    assert [str(c) for c in parse_calls("семь первых семь вторых пас семь вторых здесь")][-1] == "7C here"
    # a comma-separated item is taken as written
    r = check_auction("6C, 6D, pass, 7S здесь", SOCHI)
    assert not r.legal and r.call == 3 and "must repeat the current bid" in r.reason


def test_call_after_the_end_of_the_auction():
    r = check_auction("6S pass pass 6C")
    assert not r.legal and r.call == 3 and r.seat is None
    assert "already over" in r.reason and "seat 0 won it with 6S" in r.reason
    assert r.to_dict()["seat"] is None
    r = check_auction("pass pass pass 6S")
    assert not r.legal and r.call == 3 and r.seat is None and "all three passed" in r.reason


@pytest.mark.parametrize("text", ["", " ", ",", "6S,,pass", "6S, pass,", " , 6S"])
def test_empty_input_or_empty_items_are_errors(text):
    with pytest.raises(AuctionError):
        check_auction(text)


def test_empty_auction_lists_opening_calls():
    assert legal_calls([])[0] == Call("pass") and len(legal_calls("")) > 1
    with pytest.raises(AuctionError):
        check_auction([])


def test_ten_checked_is_always_played():
    # RULES.md §3.4 checked: nobody whists on a 10, both catch; never passed out
    for profile in ("classic", "sochi"):
        rules = Rules.profile(profile)
        r = check_whist_calls("10S", ["pass", "pass"], rules)
        assert r.legal and r.finished and r.outcome == "catch" and r.outcome != "pass_out"
        assert r.whisters == () and r.play == "open"
        assert check_whist_calls("10NT", [], rules).outcome == "catch"
        r = check_whist_calls("10H", ["whist", "pass"], rules)
        assert not r.legal and r.call == 0 and "§3.4" in r.reason
        assert not check_whist_calls("10H", ["pass", "half"], rules).legal
    # obligation1 (Leningrad, Rostov) keeps the ordinary whist decision
    for profile in ("leningrad", "rostov"):
        rules = Rules.profile(profile)
        assert check_whist_calls("10S", ["pass", "pass"], rules).outcome == "pass_out"
        assert check_whist_calls("10S", ["whist", "pass"], rules).outcome == "one_whister"


def test_rules_may_be_named_by_profile():
    assert check_auction("misere 9NT", "classic").legal is False     # the classic ladder
    assert check_auction("misere 9NT", "sochi").legal is True
    assert check_whist_calls("10S", ["whist", "pass"], "leningrad").outcome == "one_whister"
    assert check_declaration("6S", "misere", "classic").legal is False
    with pytest.raises(RulesError, match="rules must be a Rules object or a profile name, got 5"):
        check_auction("6S", 5)
    with pytest.raises(RulesError, match="unknown rules profile 'moscow'"):
        check_auction("6S", "moscow")
    with pytest.raises(AuctionError, match="calls must be text or a sequence of calls, got None"):
        check_auction(None)


def test_whist_calls_as_text_are_split_into_words():
    assert parse_whist_calls("пас, пол виста, вист") == ("pass", "half", "whist")
    assert parse_whist_calls("пас пол виста  вист") == ("pass", "half", "whist")
    assert check_whist_calls("6S", "whist pass") == check_whist_calls("6S", ["whist", "pass"])
    assert check_whist_calls("6S", "whist pass").outcome == "one_whister"
    with pytest.raises(AuctionError, match="unknown whist call 'wp'"):
        check_whist_calls("6S", "wp")       # not read letter by letter as whist, pass


@pytest.mark.parametrize("contract", ["6S", "misere", "10S"])
def test_whist_call_after_the_end_has_no_seat(contract):
    calls = ["pass", "pass", "pass"] if contract != "6S" else ["whist", "whist", "whist"]
    r = check_whist_calls(contract, calls, CLASSIC if contract == "10S" else SOCHI)
    if contract == "misere":
        assert not r.legal and r.call == 0      # nobody whists on misère: the first call is already wrong
    else:
        assert not r.legal and r.call == 2 and r.seat is None and "already over" in r.reason


@pytest.mark.parametrize("calls", [None, 5, ["whist", None], [["pass"]]])
def test_whist_calls_of_the_wrong_type_are_errors(calls):
    with pytest.raises(AuctionError, match="whist call"):
        check_whist_calls("6S", calls)


@pytest.mark.parametrize("count", [None, "1", 1.5, -1, True])
def test_allpass_count_must_be_a_whole_number(count):
    with pytest.raises(AuctionError, match="allpass_count must be a whole number >= 0"):
        check_auction("6S pass pass", SOCHI, count)
    with pytest.raises(AuctionError, match="allpass_count must be a whole number >= 0"):
        legal_calls("6S pass", SOCHI, count)


@pytest.mark.parametrize("make, text", [
    (lambda: Call("bid"), "a bid needs its contract"),
    (lambda: Call("bogus", Contract(6, "S")), "unknown kind of call 'bogus'"),
    (lambda: Call("pass", Contract(6, "S")), "a pass has no contract"),
    (lambda: Call("bid", "6S"), "must be a Contract"),
])
def test_calls_built_by_hand_are_checked(make, text):
    with pytest.raises(AuctionError, match=text):
        make()


def test_trading_misere_winner_never_declares_misere_without_talon():
    trading = CLASSIC.replace(misere_binding=False)
    v = check_declaration("6S", "misere-hand", trading)
    assert not v.legal and v.reason == "§2.3 trading misère: the talon was taken, misère without talon is impossible"
    assert check_declaration("6S", "misere", trading).legal


def test_passes_on_misere_are_refused_as_calls_misere_does_not_have():
    r = check_whist_calls("misere", ["pass", "pass"])
    assert not r.legal and r.call == 0 and "misère has no whist calls, not even passes" in r.reason


@pytest.mark.parametrize("text, calls", [
    ("pass, half whist", ("pass", "half")),
    ("pass, half, whist", ("pass", "half", "whist")),
    ("Пас Пол виста", ("pass", "half")),
    ("пас пол-виста вист", ("pass", "half", "whist")),
    ("w p", ("whist", "pass")),
])
def test_whist_text_splits_as_written(text, calls):
    assert parse_whist_calls(text) == calls


@pytest.mark.parametrize("text, message", [
    ("pass half whist", "'half whist' in 'pass half whist' is ambiguous without commas"),
    ("pass,,half", "empty whist call"),
])
def test_whist_text_that_cannot_be_read_safely_is_an_error(text, message):
    with pytest.raises(AuctionError, match=message):
        split_whist_text(text)


def test_a_bid_under_misere_without_talon_names_it():
    r = check_auction("раз мизер без прикупа десять первых", CLASSIC)
    assert not r.legal and r.reason == "§2.3: 10S does not overcall misère without talon on the classic ladder"
    assert check_auction("раз мизер без прикупа десять первых без прикупа", CLASSIC).legal


@pytest.mark.parametrize("text, calls", [
    ("шесть пик пас семь червей пас пас", ["6S", "pass", "7H", "pass", "pass"]),
    ("6 п 6 т пас 7 ч 8 бк", ["6S", "6C", "pass", "7H", "8NT"]),
    ("6п, 6тр, ПАС, 10 бк", ["6S", "6C", "pass", "10NT"]),
    ("пас девять треф мизер", ["pass", "9C", "misere"]),
    ("шесть бубен шесть бубен здесь", ["6D", "6D here"]),
])
def test_russian_contracts_in_the_auction(text, calls):
    assert [str(c) for c in parse_calls(text)] == calls


def test_the_russian_auction_is_judged_as_the_latin_one():
    assert check_auction("шесть пик семь червей пас пас", SOCHI) == check_auction("6S 7H pass pass", SOCHI)
    assert str(check_auction("шесть пик семь червей пас пас", SOCHI).contract) == "7H"


@pytest.mark.parametrize("word, call", [
    ("вист", "whist"), ("Вист", "whist"), ("ПАС", "pass"), ("полвиста", "half"), ("пол-виста", "half"),
    ("пол виста", "half"), ("half-whist", "half"),
])
def test_russian_whist_calls(word, call):
    assert parse_whist_call(word) == call


@pytest.mark.parametrize("play, word", [
    (True, "open"), (False, "closed"), ("open", "open"), ("Closed", "closed"),
    ("открыто", "open"), ("в открытую", "open"), ("лёжа", "open"), ("лежа", "open"), ("в светлую", "open"),
    ("закрыто", "closed"), ("в закрытую", "closed"), ("стоя", "closed"), ("втёмную", "closed"),
    ("в тёмную", "closed"), ("ЗАКРЫТО", "closed"),
])
def test_the_lone_whister_s_play_in_words(play, word):
    assert parse_whist_play(play) == word
    assert check_whist_calls("6S", ["whist", "pass"], open=play).play == word


@pytest.mark.parametrize("play", ["false", "true", "no", 0, 1, None, "открыт"])
def test_what_is_no_whist_play(play):
    with pytest.raises(AuctionError, match="unknown whist play"):
        parse_whist_play(play)
    with pytest.raises(AuctionError, match="unknown whist play"):
        check_whist_calls("6S", ["whist", "pass"], open=play)


# -- who chooses an open or closed defence (RULES.md §3.2) ----------------------------
@pytest.mark.parametrize("calls, rules, chooser", [
    (["whist", "pass"], "sochi", 0),            # the lone whister chooses
    (["pass", "whist"], "sochi", 1),
    (["whist", "whist"], "sochi", None),        # two whisters play closed
    (["pass", "pass"], "sochi", None),          # passed out: not played
    (["pass", "half", "whist"], "sochi", 0),    # the first defender's second chance: he whists alone
    (["pass", "half", "pass"], "sochi", None),  # a half-whist that stands is not played (no_play)
])
def test_the_lone_whister_chooses_the_defence(calls, rules, chooser):
    from prefsolve.auction import play_chooser

    assert play_chooser(check_whist_calls("7S", calls, rules)) == chooser


def test_a_played_half_whist_is_the_half_whisters_choice_and_a_misere_nobodys():
    from prefsolve.auction import play_chooser

    played = Rules.profile("sochi").replace(half_whist="played")
    assert play_chooser(check_whist_calls("6H", ["pass", "half", "pass"], played)) == 1
    assert play_chooser(check_whist_calls("misere", [])) is None
    assert play_chooser(check_whist_calls("10S", [], "sochi")) is None      # a checked 10 (RULES.md §3.4)


@pytest.mark.parametrize("first_lead, declarer, leader", [
    ("first_hand", 2, 0), ("first_hand", None, 0),
    ("left_of_declarer", 0, 1), ("left_of_declarer", 2, 0), ("left_of_declarer", None, 0),
])
def test_the_opening_leader_is_first_hand_or_the_declarers_left(first_lead, declarer, leader):
    # RULES.md §1.6: first hand leads in every kind of deal; the switch gives the lead to the
    # declarer's left in a game. All-pass has no declarer: first hand leads.
    assert Rules.profile("sochi").replace(first_lead=first_lead).opening_leader(declarer) == leader


# -- exact verdicts (docs/TESTING.md: faults no test caught) ---------------------------------
_SIX_TO_EIGHT = ["6S", "6C", "6D", "6H", "6NT", "7S", "7C", "7D", "7H", "7NT", "8S", "8C", "8D", "8H", "8NT"]
_NINE_TEN = ["9S", "9C", "9D", "9H", "9NT", "10S", "10C", "10D", "10H", "10NT"]


@pytest.mark.parametrize("calls, rules, allpass_count, expected", [
    # The opening: pass or any of the 26 steps (RULES.md §2.1).
    ("", SOCHI, 0, ["pass"] + _SIX_TO_EIGHT + ["misere"] + _NINE_TEN),
    # After one all-pass the lowest game is a 7 (strict exit, §2.6); misère stays open.
    ("", SOCHI, 1, ["pass"] + _SIX_TO_EIGHT[5:] + ["misere"] + _NINE_TEN),
    # First hand, who bid 6♠, may raise 6♣ (misère no more: binding, §2.3) or hold it: two are left.
    ("6S 6C pass", SOCHI, 0, ["pass"] + _SIX_TO_EIGHT[2:] + _NINE_TEN + ["6C here"]),
    # Third hand is junior to the 6♦ bidder: he raises (misère included), never holds (§2.4).
    ("pass 6D", SOCHI, 0, ["pass"] + _SIX_TO_EIGHT[3:] + ["misere"] + _NINE_TEN),
    # Misère is overcalled by 9♠ or higher and cannot be held (§2.3, §2.4).
    ("pass misere", SOCHI, 0, ["pass"] + _NINE_TEN),
    # Three still in: no hold under senior_when_two_left; first hand may hold under first_hand_only.
    ("6C 6D 6H", SOCHI, 0, ["pass"] + _SIX_TO_EIGHT[4:] + _NINE_TEN),
    ("6C 6D 6H", SOCHI.replace(hold="first_hand_only"), 0, ["pass"] + _SIX_TO_EIGHT[4:] + _NINE_TEN + ["6H here"]),
    # After the auction, or after an illegal call, there is no legal call.
    ("6S pass pass", SOCHI, 0, []),
    ("6S 6S", SOCHI, 0, []),
])
def test_legal_calls_are_exactly_the_rules_calls(calls, rules, allpass_count, expected):
    assert [str(c) for c in legal_calls(calls, rules, allpass_count)] == expected


@pytest.mark.parametrize("calls, legal, reason", [
    ("6C 6D 6H 6H", True, None),            # first hand holds with three still in
    ("6C 6D 6D", False, "§2.4: only first hand may hold («здесь») a bid"),
    ("pass 6C 6D 6D", False, "§2.4: only first hand may hold («здесь») a bid"),   # seat 1, though senior
    ("6C 6D pass 6D", True, None),
])
def test_hold_by_first_hand_only(calls, legal, reason):
    r = check_auction(calls, SOCHI.replace(hold="first_hand_only"))
    assert r.legal is legal and r.reason == reason


@pytest.mark.parametrize("contract, calls, kw, expected", [
    ("6S", ["whist", "pass"], {}, WhistResult(True, True, "one_whister", (0,), play="open")),
    ("6S", ["pass", "whist"], {"open": False}, WhistResult(True, True, "one_whister", (1,), play="closed")),
    ("6S", ["whist", "whist"], {}, WhistResult(True, True, "two_whisters", (0, 1), play="closed")),
    ("6S", ["pass", "pass"], {}, WhistResult(True, True, "pass_out")),
    ("7D", ["pass", "half", "pass"], {}, WhistResult(True, True, "half_whist", half_whister=1)),
    ("7D", ["pass", "half", "pass"], {"rules": SOCHI.replace(half_whist="played"), "open": "стоя"},
     WhistResult(True, True, "half_whist", half_whister=1, play="closed")),
    ("7D", ["pass", "half", "whist"], {}, WhistResult(True, True, "one_whister", (0,), play="open")),
    ("6S", ["pass", "half"], {}, WhistResult(True, False)),
    ("6S", ["whist"], {}, WhistResult(True, False)),
    ("6S", [], {}, WhistResult(True, False)),
    ("10S", [], {"rules": CLASSIC}, WhistResult(True, True, "catch", play="open")),
    ("10S", ["pass", "pass"], {"rules": CLASSIC}, WhistResult(True, True, "catch", play="open")),
])
def test_legal_whist_calls_get_a_legal_verdict(contract, calls, kw, expected):
    # RULES.md §3.2, §3.4: the outcome, the whisters, the half-whister and the play of every legal case.
    assert check_whist_calls(contract, calls, **kw) == expected


def test_whist_verdicts_in_json():
    assert check_whist_calls("6S", ["pass", "whist"]).to_dict() == {
        "legal": True, "finished": True, "outcome": "one_whister", "whisters": [1], "half_whister": None,
        "play": "open"}
    r = check_whist_calls("misere", [])
    assert (r.legal, r.finished, r.outcome, r.whisters) == (True, True, "misere", (0, 1))
    assert check_whist_calls("6S", ["half"]).to_dict() == {
        "legal": False, "call": 0, "seat": 0, "reason": "§3.2: only the second defender may half-whist"}


@pytest.mark.parametrize("bid, rules, expected", [
    # RULES.md §3.1: never lower than the winning bid, the talon as in the auction.
    ("10H", SOCHI, ["10H", "10NT"]),
    ("8NT", SOCHI, ["8NT"] + _NINE_TEN),
    ("misere", SOCHI, ["misere"]),                     # the misère winner plays misère (§2.3)
    # Trading misère (§2.3): after at most 8♠ with the talon, misère too.
    ("8S", SOCHI.replace(misere_binding=False), _SIX_TO_EIGHT[10:] + ["misere"] + _NINE_TEN),
    ("8C", SOCHI.replace(misere_binding=False), _SIX_TO_EIGHT[11:] + _NINE_TEN),
    # Classic (§2.5): a game won without talon is declared without talon.
    ("9NT-hand", CLASSIC, ["9NT-hand", "10S-hand", "10C-hand", "10D-hand", "10H-hand", "10NT-hand"]),
])
def test_allowed_declarations_are_the_declarations_the_rules_allow(bid, rules, expected):
    assert [str(c) for c in allowed_declarations(bid, rules)] == expected
    assert all(check_declaration(bid, c, rules).legal for c in allowed_declarations(bid, rules))


def test_allowed_declarations_of_a_bid_off_the_ladder_is_an_error():
    with pytest.raises(ContractError, match="contract '9S-hand' is not on the sochi ladder"):
        allowed_declarations("9S-hand", SOCHI)


def _illegal(call, seat, reason):
    return WhistResult(False, call=call, seat=seat, reason=reason)


_OVER = "§3.2: the whist calls are already over"
_TEN = "§3.4: nobody whists on 10S (ten_whist='checked'): both defenders catch the declarer and the hand is played"


@pytest.mark.parametrize("contract, calls, rules, expected", [
    ("misere", ["pass"], SOCHI, _illegal(0, 0, "§3.2: misère has no whist calls, not even passes: both opponents "
                                                "catch the declarer; give no calls")),
    ("10S", ["pass", "pass", "pass"], CLASSIC, _illegal(2, None, _OVER)),
    ("10S", ["whist"], CLASSIC, _illegal(0, 0, _TEN)),
    ("10S", ["pass", "whist"], CLASSIC, _illegal(1, 1, _TEN)),
    # The third call is the first defender's second chance (RULES.md §3.2): he may not half-whist.
    ("6S", ["pass", "half", "half"], SOCHI, _illegal(2, 0, "§3.2: only the second defender may half-whist")),
    ("6S", ["pass", "half", "pass", "pass"], SOCHI, _illegal(3, None, _OVER)),
    ("6S", ["whist", "pass", "whist"], SOCHI, _illegal(2, None, _OVER)),
    ("6S", ["pass", "half"], SOCHI.replace(half_whist="off"),
     _illegal(1, 1, "§3.2: half-whist is not played in the sochi rules")),
    ("6S", ["whist", "half"], SOCHI,
     _illegal(1, 1, "§3.2: half-whist is allowed only after the first defender passed")),
    ("8S", ["pass", "half"], SOCHI,
     _illegal(1, 1, "§3.2: half-whist is allowed only on 6- and 7-level contracts, not on 8S")),
])
def test_illegal_whist_calls_get_the_call_the_seat_and_the_rule(contract, calls, rules, expected):
    assert check_whist_calls(contract, calls, rules) == expected
    assert check_whist_calls(Contract.parse(contract), calls, rules) == expected


def test_a_misere_is_caught_closed_until_the_catchers_show_their_cards():
    # RULES.md §4.2: the catchers lay their cards face up only after the first trick.
    assert check_whist_calls(Contract.misere(), []) == WhistResult(True, True, "misere", (0, 1), play="closed")


def test_auction_verdicts_in_json():
    assert check_auction("pass pass pass 6S").to_dict() == {
        "legal": False, "call": 3, "seat": None,
        "reason": "§2.2: the auction is already over (all three passed), no further call is allowed"}
    assert check_auction("6S pass pass 6C").to_dict() == {
        "legal": False, "call": 3, "seat": None,
        "reason": "§2.2: the auction is already over (seat 0 won it with 6S), no further call is allowed"}
    assert check_auction("pass pass pass").to_dict() == {
        "legal": True, "finished": True, "winner": None, "contract": None, "all_pass": True, "next_seat": None}
    assert [repr(c) for c in parse_calls("pass семь первых два здесь")] == \
        ["Call(pass)", "Call(bid 7S)", "Call(bid 6C)", "Call(hold)"]
    assert repr(Call.parse("два здесь")) == "Call(hold 6C)"


@pytest.mark.parametrize("call, message", [
    (lambda: parse_whist_call(5), "a whist call is a word (whist, pass or half), got 5"),
    (lambda: parse_whist_call("maybe"),
     "unknown whist call 'maybe' (expected whist, pass or half: вист, пас, полвиста)"),
    (lambda: parse_whist_play("maybe"),
     "unknown whist play 'maybe': expected true or false, or open or closed (открыто/закрыто, лёжа/стоя)"),
    (lambda: split_whist_text("pass,,whist"),
     "empty whist call in 'pass,,whist' (a separator with nothing on one side)"),
    (lambda: split_whist_text("pass half whist"),
     "'half whist' in 'pass half whist' is ambiguous without commas: write 'half' (or 'half-whist') for the "
     "half-whist, or separate calls with commas"),
])
def test_whist_words_that_cannot_be_read_say_why(call, message):
    with pytest.raises(AuctionError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("text, words", [
    ("pass; whist", ["pass", "whist"]), ("пас виста", ["пас", "виста"]),
    ("пас вист пол виста", ["пас", "вист", "пол виста"]), (" , ; ", [])])
def test_whist_text_splits_on_commas_semicolons_and_spaces(text, words):
    assert split_whist_text(text) == words


def test_allowed_declarations_take_a_contract():
    assert allowed_declarations(Contract.parse("10H"), SOCHI) == (Contract.parse("10H"), Contract.parse("10NT"))


@pytest.mark.parametrize("call, message", [
    (lambda: Call.parse("foo"), "unknown call 'foo'"),
    (lambda: Call.parse("7X здесь"), "unknown call '7X здесь'"),
    (lambda: Call("x"), "unknown kind of call 'x' (expected 'pass', 'bid' or 'hold')"),
    (lambda: Call("bid"), "a bid needs its contract, e.g. Call('bid', Contract.parse('6S'))"),
    (lambda: Call("pass", Contract.parse("6S")), "a pass has no contract, got 6S"),
    (lambda: Call("bid", "6S"), "a call's contract must be a Contract, got '6S'"),
    (lambda: parse_calls(5), "calls must be text or a sequence of calls, got 5"),
    (lambda: parse_calls(",6S"), "empty call #1 in ',6S' (a separator at the start or the end)"),
    (lambda: parse_calls("6S,,pass"), "empty call #2 in '6S,,pass' (two separators with nothing between them)"),
    (lambda: check_auction(""), "no calls given: an auction has at least one call (pass or a bid)"),
    (lambda: check_auction("раз foo"), "unknown call 'foo' in 'раз foo'"),
])
def test_calls_that_cannot_be_read_say_why(call, message):
    with pytest.raises(AuctionError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("calls, rules, reason", [
    ("здесь", SOCHI, "§2.4: «здесь» holds the current bid, but nobody has bid yet"),
    ("6C, 6D, 6C здесь", SOCHI, "§2.4: «здесь» must repeat the current bid 6D, not 6C"),
    ("pass misere здесь", SOCHI, "§2.4: misère cannot be held («здесь»)"),
    ("pass 6S здесь", SOCHI, "§2.4: 6♠ («раз») cannot be held («здесь»)"),
    ("6C pass 6C", SOCHI, "§2.4: only the senior hand may hold («здесь»); seat 2 is junior to seat 0"),
    ("6C 6D pass 6D", CLASSIC,
     "§2.2: a bid must be higher than the current bid 6D (holding «здесь» is off in the classic rules)"),
])
def test_a_hold_that_is_not_allowed_names_its_rule(calls, rules, reason):
    r = check_auction(calls, rules)
    assert r.legal is False and r.reason == reason


_NOT_PLAYED = "(without talon) is not played under the sochi rules (ladder_extensions='none')"


@pytest.mark.parametrize("bid, declared, rules, expected", [
    ("6S-hand", "7S-hand", SOCHI, Verdict(False, f"§2.5: the winning bid 6S-hand {_NOT_PLAYED}")),
    ("6S", "misere-hand", SOCHI, Verdict(False, f"§2.5: the declared contract misere-hand {_NOT_PLAYED}")),
    ("misere", "10NT", SOCHI, Verdict(False, "§2.3: the winner of a misere auction must play misere, not 10NT")),
    ("6S", "misere", SOCHI, Verdict(False, "§2.3 binding misère: a player who won on 6S cannot declare misère")),
    ("8S-hand", "misere", CLASSIC.replace(misere_binding=False),
     Verdict(False, "§2.3 trading misère: misère is declared after taking the talon, which a player who won on "
                    "8S-hand does not take")),
    ("9S", "misere", SOCHI.replace(misere_binding=False),
     Verdict(False, "§2.3 trading misère: games are traded up to 8S only, so a player who won on 9S cannot declare "
                    "misère")),
    ("8S-hand", "misere-hand", CLASSIC.replace(misere_binding=False),
     Verdict(False, "§2.3 trading misère: misère is declared after taking the talon, which a player who won on "
                    "8S-hand does not take")),
    ("9S-hand", "9NT", CLASSIC,
     Verdict(False, "§2.5: the auction was won without talon, so the game must be declared without talon")),
    ("9S", "9NT-hand", CLASSIC,
     Verdict(False, "§2.5: the auction was won with talon, so the game must be declared with talon")),
    ("6D", "6C", SOCHI, Verdict(False, "§3.1: the declared contract 6C is lower than the winning bid 6D")),
    ("6D", "6D", SOCHI, Verdict(True)), ("misere", "misere", SOCHI, Verdict(True)),
    ("8S", "misere", SOCHI.replace(misere_binding=False), Verdict(True)),
])
def test_every_declaration_verdict_names_its_rule(bid, declared, rules, expected):
    assert check_declaration(bid, declared, rules) == expected
    assert check_declaration(Contract.parse(bid), Contract.parse(declared), rules) == expected


def test_more_exact_verdicts():
    r = check_whist_calls("6S", ["whist", "pass"], SOCHI.replace(stalingrad=True))
    assert r == WhistResult(False, call=1, seat=1, reason="§3.5 Stalingrad: both defenders must whist against 6♠")
    with pytest.raises(AuctionError) as info:
        parse_whist_calls(5)
    assert str(info.value) == "whist calls must be text or a sequence of calls, got 5"
    # The classic ladder's opening calls (RULES.md §2.5): pass and its 52 contracts; no misère hold.
    assert legal_calls("", CLASSIC) == (Call("pass"),) + tuple(Call(BID, c) for c in ladder(CLASSIC))
    assert legal_calls("") == legal_calls("", SOCHI, 0)
    assert [str(c) for c in legal_calls("pass misere", SOCHI)] == ["pass"] + _NINE_TEN


@pytest.mark.parametrize("calls, rules, allpass_count, call, seat, reason", [
    ("9S-hand", SOCHI, 0, 0, 0, "§2.5: 9S-hand (a contract without talon) is not biddable under the sochi rules"),
    ("6S pass 6C misere", SOCHI, 0, 3, 0,
     "§2.3 binding misère: misère may only be a player's first bid, but seat 0 already bid 6S"),
    ("pass misere 9S 9C", SOCHI, 0, 3, 1, "§2.3 binding misère: seat 1 bid misère and may only pass afterwards"),
    ("6S", SOCHI, 1, 0, 0, "§2.6 exit from all-pass (strict): the lowest game after the all-pass deals is 7, not 6S"),
    ("misere 8NT", SOCHI, 0, 1, 1, "§2.3: 8NT does not overcall misère on the sochi ladder"),
    ("pass мизер без прикупа 10NT", CLASSIC, 0, 2, 2,
     "§2.3: 10NT does not overcall misère without talon on the classic ladder"),
    ("6D 6C", SOCHI, 0, 1, 1, "§2.2: a bid must be higher than the current bid 6D, 6C is not"),
    ("6S pass pass pass", SOCHI, 0, 3, None,
     "§2.2: the auction is already over (seat 0 won it with 6S), no further call is allowed"),
])
def test_every_illegal_call_names_its_rule(calls, rules, allpass_count, call, seat, reason):
    r = check_auction(calls, rules, allpass_count)
    assert r == AuctionResult(False, parse_calls(calls), call=call, seat=seat, reason=reason)


def test_auction_arguments_and_results_exactly():
    with pytest.raises(AuctionError) as info:
        check_auction("6S", allpass_count=-1)
    assert str(info.value) == "allpass_count must be a whole number >= 0, got -1"
    with pytest.raises(ContractError) as info:
        seniority(Contract.parse("9S-hand"), SOCHI)
    assert str(info.value) == ("contract '9S-hand' is not on the sochi ladder (§2.5: games without talon need "
                               "ladder_extensions='hand_games')")
    r = check_auction("6S pass pass")
    assert r == AuctionResult(True, parse_calls("6S pass pass"), finished=True, winner=0, contract=Contract(6, "S"))
    assert parse_calls([Call("pass"), "6S"]) == (Call("pass"), Call(BID, Contract(6, "S")))
    assert [str(c) for c in parse_calls("6S; pass")] == ["6S", "pass"]
    with pytest.raises(AuctionError) as info:
        parse_calls("6S,pass,")
    assert str(info.value) == "empty call #3 in '6S,pass,' (a separator at the start or the end)"
