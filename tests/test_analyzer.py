"""The analyzer: sampled layouts solved exactly, scored on one sample set.

Sample counts are kept small (a full sample with talon costs tens of
milliseconds); the hands are chosen so that small samples give sharp answers.
"""

import doctest
import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import prefsolve
from prefsolve import analysis
from prefsolve.analysis import (
    ConstraintError,
    ContractStats,
    Recommendation,
    Sampler,
    Sampling,
    allowed_contracts,
    analyze,
    analyze_allpass,
    analyze_talon,
    analyze_whist,
    bid,
    defence,
    equivalent_discards,
    holdings,
    sample_deals,
    sampling,
    talon,
    whist,
)
from prefsolve.auction import allowed_declarations, check_declaration, ladder
from prefsolve.cards import Card, Hand
from prefsolve.contract import LADDER, Contract
from prefsolve.errors import ContractError, HandError, PrefsolveError
from prefsolve.rules import Rules
from prefsolve.scoring import contract_balance
from prefsolve.solver import solve
from prefsolve.strains import STRAINS

EIGHT_TRUMPS = "AKQJT987.A.A.-"      # 8 top spades and two side aces: 10 sure tricks
MISERE_HAND = "987.87.87.987"        # the lowest cards of every suit
MIXED = "A.KT9.KT97.K7"              # the example: a hand with real doubts
KEYS = [str(c) for c in LADDER]


@pytest.fixture(scope="module")
def mixed60():
    return analyze(MIXED, 0, sampling=Sampling(samples=60, seed=11))


@pytest.mark.parametrize("module", [analysis, analysis._common, sampling, analysis.stats, analysis.recommendation,
                                    defence, bid, whist, talon, analysis.allpass, holdings])
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0


def test_certain_game():
    a = analyze(EIGHT_TRUMPS, 0, sampling=Sampling(samples=20, seed=1))
    for key in ("6S", "7S", "8S", "9S", "10S", "10NT"):
        assert a[key].p_make == 1.0 and a[key].p_make_se == 0.0
    assert a["8S"].tricks_histogram == (0,) * 10 + (20,)
    # Every sample: 8♠ made with 10 tricks. The defence (model "best") passes rather than
    # whist and take nothing: 6 pool points = 6·10·2/3 = 40 whists.
    assert a["8S"].expected == pytest.approx(40.0) and a["8S"].expected_se == 0.0
    assert a["8S"].expected == pytest.approx(float(contract_balance("8S", 10, ("pass", "pass"))[0]))
    assert not a.passes and a.recommendation.max_bid == Contract(10, "NT")
    # So a sure 10 is worth most: the declarer is told to declare it.
    rec = a.recommendation
    assert rec.contract.level == 10 and a[rec.contract].p_make == 1.0 and rec.call == str(rec.contract)
    assert rec.expected == a[rec.contract].expected and rec.discard is None
    # A lone whister forced to whist instead (model "one") would pay his shortfall of 1
    # trick, 6 mountain points = +20 for the declarer; then the 9 looks better than the 10.
    one = analyze(EIGHT_TRUMPS, 0, sampling=Sampling(samples=20, seed=1), defence="one")
    assert one["8S"].expected == pytest.approx(60.0)
    assert one["8S"].expected == pytest.approx(float(contract_balance("8S", 10, ("whist", "pass"))[0]))
    assert one.recommendation.contract.level == 9


def test_certain_misere():
    a = analyze(MISERE_HAND, 0, sampling=Sampling(samples=20, seed=2))
    assert a["misere"].p_make >= 0.9
    assert a.recommendation.contract == Contract.misere() and a.recommendation.max_bid == Contract.misere()
    assert a.recommendation.call == "misere"
    # The same hand cannot make a game.
    assert all(a[k].p_make <= 0.1 for k in KEYS if k != "misere")


def test_probabilities_and_histograms_are_consistent(mixed60):
    a = mixed60
    assert [str(s.contract) for s in a.contracts] == KEYS
    for s in a.contracts:
        assert 0.0 <= s.p_make <= 1.0 and s.p_make_se >= 0.0 and s.expected_se >= 0.0
        assert sum(s.tricks_histogram) == a.samples == 60
        made = s.tricks_histogram[0] if s.contract.is_misere else sum(s.tricks_histogram[s.contract.level:])
        assert s.p_make == pytest.approx(made / 60)
        assert s.p_make_se == pytest.approx(np.sqrt(s.p_make * (1 - s.p_make) / 60))
    # Common random numbers: contracts of one strain share the histogram, and a
    # higher level can never be made more often.
    assert a["6D"].tricks_histogram == a["10D"].tricks_histogram
    assert a["6D"].p_make >= a["7D"].p_make >= a["8D"].p_make


def test_expected_score_is_the_mean_contract_balance(mixed60):
    a = mixed60
    rules = Rules.profile("sochi")
    t = np.asarray(a.tricks)[:, STRAINS.index("D")]
    # The default defence ("best") calls, in each sample, what leaves the declarer least:
    # every call sequence Sochi allows on a 7 (§3.2), with open or closed play.
    choices = [(calls, op) for calls in [("pass", "pass"), ("whist", "pass"), ("pass", "whist"),
                                         ("whist", "whist"), ("pass", "half", "pass"),
                                         ("pass", "half", "whist")] for op in (False, True)]
    want = sum(min(contract_balance("7D", int(x), calls, rules, op)[0] for calls, op in choices)
               for x in t) / Fraction(len(t))
    assert a["7D"].expected == pytest.approx(float(want))
    d = a.to_dict()
    assert d["samples"] == 60 and list(d["contracts"]) == KEYS
    assert set(d["contracts"]["7D"]) == {"p_make", "p_make_se", "expected", "expected_se", "tricks_histogram"}
    assert d["recommendation"] == a.recommendation.to_dict()
    assert set(d["recommendation"]) == {"call", "contract", "discard", "max_bid", "expected", "expected_se", "card"}
    assert d["recommendation"]["contract"] == str(a.recommendation.contract)
    assert "what is best for them" in d["model"]
    # A fixed model scores every sample with its calls.
    one = analyze(MIXED, 0, sampling=Sampling(samples=60, seed=11), defence="one")
    want = sum(contract_balance("7D", int(x), ("whist", "pass"), rules)[0] for x in t) / Fraction(len(t))
    assert np.array_equal(one.tricks, a.tricks) and one["7D"].expected == pytest.approx(float(want))
    assert "one defender whists" in one.to_dict()["model"]


def test_recommendation_is_best_expected_and_highest_worthwhile(mixed60):
    a = mixed60
    rec = a.recommendation
    assert a[rec.contract].expected == max(s.expected for s in a.contracts)
    if rec.max_bid is None:
        assert a.passes and a[rec.contract].expected < 0 and rec.call == "pass"
    elif not rec.max_bid.is_misere:
        # The limit: the most senior bid after which some declaration is worth
        # at least 0 by a standard error (E - se >= 0), else the best contract.
        from prefsolve.auction import allowed_declarations, seniority

        analysed = {s.contract for s in a.contracts}

        def floor(bid):
            return max(a[x].expected - a[x].expected_se for x in allowed_declarations(bid, "sochi") if x in analysed)

        worth = [s.contract for s in a.contracts if not s.contract.is_misere and floor(s.contract) >= 0]
        assert rec.max_bid == (max(worth, key=lambda c: seniority(c, "sochi")) if worth else rec.contract)


def test_same_seed_same_answer_and_prefix_stream(mixed60):
    a = analyze(MIXED, 0, sampling=Sampling(samples=15, seed=11), jobs=2)
    b = analyze(MIXED, 0, sampling=Sampling(samples=15, seed=11), jobs=1)
    assert a.to_dict() == b.to_dict()
    # The sample stream does not depend on the sample count: 15 samples are the
    # first 15 of the 60.
    assert np.array_equal(a.tricks, mixed60.tricks[:15])
    c = analyze(MIXED, 0, sampling=Sampling(samples=15, seed=12))
    assert not np.array_equal(a.tricks, c.tricks)


def test_standard_errors_shrink_with_samples(mixed60):
    small = analyze(MIXED, 0, sampling=Sampling(samples=15, seed=11))
    big = mixed60
    # Contracts with a real doubt in both runs: 4x the samples, about half the se.
    doubtful = [k for k in KEYS if 0 < small[k].p_make < 1 and 0 < big[k].p_make < 1]
    assert doubtful
    for k in doubtful:
        assert big[k].p_make_se < small[k].p_make_se
    assert np.mean([big[k].expected_se for k in KEYS]) < np.mean([small[k].expected_se for k in KEYS])


def test_per_sample_tricks_equal_table():
    deals = sample_deals(MIXED, 1, sampling=Sampling(samples=4, seed=7))
    a = analyze(MIXED, 1, sampling=Sampling(samples=4, seed=7))
    for i, deal in enumerate(deals):
        assert deal.hands[1] == Hand.parse(MIXED) and deal.talon is not None
        t = prefsolve.table(deal)
        assert list(a.tricks[i]) == [t.tricks[1][s] for s in STRAINS]


def test_first_lead_left_of_declarer_is_who_leads_in_the_samples():
    # §1.6 switch first_lead: the declarer's left leads trick 1 instead of first hand.
    rules = Rules.profile("sochi").replace(first_lead="left_of_declarer")
    assert [analysis.leader_for(rules, d) for d in range(3)] == [1, 2, 0]
    assert [analysis.leader_for("sochi", d) for d in range(3)] == [0, 0, 0]
    a = analyze(MIXED, 1, sampling=Sampling(samples=4, seed=7), rules=rules, jobs=1)
    assert a.leader == 2
    for i, deal in enumerate(sample_deals(MIXED, 1, sampling=Sampling(samples=4, seed=7))):
        t = prefsolve.table(deal, leader=2)
        assert list(a.tricks[i]) == [t.tricks[1][s] for s in STRAINS]


def test_recommendation_ties_and_a_best_worth_exactly_zero():
    # Equal expected scores: the most junior contract (the cheapest to reach); a best
    # contract worth exactly 0 whists is still bid (passing is worth 0 too, §_recommend).
    rules = Rules.profile("sochi")
    stats = [ContractStats(c, 10, 0.0, 0.0, -5.0, 0.0, (10,) + (0,) * 10) for c in LADDER]
    tied = [ContractStats(s.contract, 10, 1.0, 0.0, 0.0, 0.0, s.tricks_histogram)
            if s.contract in (Contract(7, "H"), Contract(6, "D")) else s for s in stats]
    rec = bid.recommend(tied, rules)
    assert rec.contract == Contract(6, "D") and rec.max_bid == Contract(7, "H") and rec.call == "6D"
    assert rec == Recommendation("6D", Contract(6, "D"), max_bid=Contract(7, "H"), expected=0.0, expected_se=0.0)


def test_adaptive_stops_early_and_is_a_prefix(monkeypatch):
    monkeypatch.setattr(sampling, "BATCH", 8)
    loose = analyze(MIXED, sampling=Sampling(samples=40, seed=3, adaptive=1e6))
    assert loose.samples == 8
    tight = analyze(MIXED, sampling=Sampling(samples=20, seed=3, adaptive=1e-9))
    assert tight.samples == 20
    assert np.array_equal(tight.tricks[:8], loose.tricks)
    with pytest.raises(PrefsolveError, match="adaptive"):
        analyze(MIXED, sampling=Sampling(samples=4, seed=3, adaptive=-1.0))


def test_sampler_is_uniform_and_honours_constraints():
    own = Hand.parse(MIXED)
    s = Sampler({0: own, 1: Hand.parse("SK SQ"), "talon": Hand.parse("HA")}, seed=5, voids={2: "C"})
    deals = s.draw(300)
    for d in deals:
        assert d.hands[0] == own
        assert Card.parse("SK") in d.hands[1] and Card.parse("SQ") in d.hands[1]
        assert Card.parse("HA") in d.talon
        assert not d.hands[2].suit_ranks(1)
        assert sum(len(h) for h in d.hands) + len(d.talon) == 32
    # Unconstrained: an unseen card lands in seat 1 with probability 10/22.
    s = Sampler({0: own}, seed=6)
    hits = sum(Card.parse("SK") in d.hands[1] for d in s.draw(2000))
    assert abs(hits / 2000 - 10 / 22) < 0.04


def _small_sampler(seed):
    # 6 unseen cards (♠A ♠K ♣A ♣K ♥8 ♥7) for 2 places in each of seats 1, 2 and the
    # talon, seat 1 void in spades: few enough layouts to count them all.
    own = Hand.parse("QJT.QJT.AKQJ.-")
    known = {1: Hand.parse("♣9 ♣8 ♦T ♦9 ♦8 ♦7 ♥A ♥K"), 2: Hand.parse("♠9 ♠8 ♠7 ♣7 ♥Q ♥J ♥T ♥9")}
    return Sampler({0: own, **known}, seed=seed, voids={1: "S"})


def test_constructed_layouts_are_exactly_uniform():
    s = _small_sampler(3)
    unseen = [c.index for c in s._unseen]
    spades = {Card.parse("SA").index, Card.parse("SK").index}
    allowed = set()
    for places in itertools.product(range(3), repeat=len(unseen)):       # 1, 2, talon
        if all(places.count(k) == 2 for k in range(3)) and not any(
                p == 0 and c in spades for p, c in zip(places, unseen)):
            allowed.add(tuple(sum(1 << c for p, c in zip(places, unseen) if p == k) for k in range(3)))
    # Of the 90 ways, seat 1 takes 2 of the 4 non-spades (6 ways), then seat 2 and the talon share the rest (6).
    assert len(allowed) == 36
    n = 7_200
    counts = {}
    for _ in range(n):
        m = s._constructed()
        key = (m[1] & ~s._fixed[1], m[2] & ~s._fixed[2], m[3] & ~s._fixed["talon"])
        assert key in allowed
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == allowed
    expect = n / len(allowed)
    chi2 = sum((c - expect) ** 2 / expect for c in counts.values())
    assert chi2 < 80           # df 35: the 99.99% point is about 75 (a fixed seed: deterministic)


def test_the_stream_is_uniform_when_rejection_hands_over_to_construction(monkeypatch):
    # One rejection try per layout: some layouts come from the shuffle, the rest
    # (and, after the first hand-over, all) from the construction.
    monkeypatch.setattr(sampling, "REJECTION_TRIES", 1)
    s = _small_sampler(8)
    n, counts = 3_600, {}
    for _ in range(n):
        key = tuple(s._one())
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 36 and s._groups is not None
    expect = n / 36
    assert sum((c - expect) ** 2 / expect for c in counts.values()) < 80
    with pytest.raises(ConstraintError, match="no layout fits"):
        Sampler({0: Hand.parse(MIXED)}, seed=1, voids={1: "SCD"}).draw(1)
    hopeless = Sampler({0: Hand.parse(MIXED)}, seed=1, voids={1: "SCD"})
    for _ in range(2):      # the same error on every try, not only the first
        with pytest.raises(ConstraintError, match="no layout fits"):
            hopeless.draw(1)


def test_voids_that_rejection_rarely_meets_are_sampled_all_the_same():
    # Seat 1 void in spades and diamonds: about 1 layout in 60 000 passes, so the
    # exact construction does the work (it used to give up after 100 000 draws).
    deals = sample_deals(MIXED, 0, sampling=Sampling(samples=20, seed=1, voids={1: "SD"}))
    assert all(not d.hands[1].suit_ranks(0) and not d.hands[1].suit_ranks(2) for d in deals)
    assert len({str(d) for d in deals}) > 1
    # Void in two suits: a single placement of the cards.
    a = analyze(MIXED, sampling=Sampling(samples=3, seed=1, voids={1: "SC"}), jobs=1)
    assert a.samples == 3
    with pytest.raises(ConstraintError, match="no layout fits the voids and known cards"):
        sample_deals(MIXED, 0, sampling=Sampling(samples=1, seed=1, voids={1: "SCD"}))


def test_known_cards_and_voids_reach_the_analysis():
    # Seat 1 is known to hold every other spade: the player's ♠A stands alone and
    # the deals put them there.
    deals = sample_deals(MIXED, 0, sampling=Sampling(samples=5, seed=1, known={1: "SK SQ SJ ST S9 S8 S7"},
                                                     voids={2: "S"}))
    assert all(d.hands[1].suit_ranks(0) == "KQJT987" for d in deals)


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(hand="A.KT9.KT97.K"), HandError, "9 cards"),
    (dict(hand="AA.KT9.KT97.K"), HandError, "duplicate"),
    (dict(hand=MIXED, known={1: "SA"}), ConstraintError, "own hand"),
    (dict(hand=MIXED, known={0: "SK"}), ConstraintError, "own seat"),
    (dict(hand=MIXED, known={1: "SK", 2: "SK"}), ConstraintError, "two places"),
    (dict(hand=MIXED, known={1: "SK"}, voids={1: "S"}), ConstraintError, "void"),
    (dict(hand=MIXED, voids={1: "X"}), ConstraintError, "unknown suit"),
    (dict(hand=MIXED, seat=3), PrefsolveError, "seat"),
    (dict(hand=MIXED, defence="greedy"), PrefsolveError, "defence"),
    (dict(hand=MIXED, rules="moscow"), PrefsolveError, "moscow"),
    (dict(hand=MIXED, samples=0), PrefsolveError, "samples"),
])
def test_bad_input_is_a_prefsolve_error(kwargs, error, text):
    kwargs = {"samples": 2, "seed": 1, **kwargs}
    hand = kwargs.pop("hand")
    options = {k: kwargs.pop(k) for k in ("samples", "seed", "known", "voids") if k in kwargs}
    with pytest.raises(error, match=text):
        analyze(hand, sampling=Sampling(**options), **kwargs)


def test_defence_models():
    a = analyze(MIXED, sampling=Sampling(samples=10, seed=4), defence="pass")
    # Nobody whists: every contract counts as made, a constant.
    assert a["7D"].expected == pytest.approx(80 / 3) and a["7D"].expected_se == 0.0
    both = analyze(MIXED, sampling=Sampling(samples=10, seed=4), defence="both")
    assert np.array_equal(both.tricks, a.tricks)
    assert both["6D"].expected != a["6D"].expected


def test_whist_advisor():
    w = analyze_whist(MIXED, 2, declarer=0, contract="6H", sampling=Sampling(samples=20, seed=3))
    assert 0.0 <= w.p_quota <= 1.0 and sum(w.tricks_histogram) == 20
    calls = {o.call: o for o in w.options}
    assert set(calls) == {"whist", "pass", "half-whist"}  # second defender after a pass, level 6
    # Both pass: the 6 counts as made, 2 pool points for the declarer = -20/3 each.
    assert calls["pass"].expected == pytest.approx(-20 / 3) and calls["pass"].expected_se == 0.0
    # Half-whist on 6: half the obligation (2 tricks) at 2 whists, minus the pool share.
    assert calls["half-whist"].expected == pytest.approx(4 - 20 / 3)
    best = max(w.options, key=lambda o: o.expected)
    assert w.recommendation == Recommendation(best.call, Contract.parse("6H"), expected=best.expected,
                                              expected_se=best.expected_se)
    need = Contract.parse("6H").whist_obligation()
    assert w.p_quota == pytest.approx(sum(w.tricks_histogram[: 10 - need + 1]) / 20)
    first = analyze_whist(MIXED, 1, declarer=0, contract="6H", sampling=Sampling(samples=3, seed=3))
    assert {o.call for o in first.options} == {"whist", "pass"}
    d = w.to_dict()
    assert d["recommendation"]["call"] == best.call and set(d["options"]) == {"whist", "pass", "half-whist"}
    assert d["p_quota_se"] == round(w.p_quota_se, 4) and sum(d["tricks_histogram"]) == 20


def test_whist_advisor_certain_defence():
    # Four top trumps against a 7♠: the defence surely takes its 2 tricks.
    w = analyze_whist("AKQJ.A.A87.K8", 1, declarer=0, contract="7S", sampling=Sampling(samples=10, seed=1))
    assert w.p_quota == 1.0 and w.recommendation.call == "whist"


@pytest.mark.parametrize("args, error", [
    (("A.KT9.KT97.K7", 1, 0, "misere"), ContractError),
    (("A.KT9.KT97.K7", 1, 0, "6X"), ContractError),
    (("A.KT9.KT97.K7", 0, 0, "6S"), PrefsolveError),
])
def test_whist_bad_input(args, error):
    with pytest.raises(error):
        hand, seat, declarer, contract = args
        analyze_whist(hand, seat, declarer=declarer, contract=contract, sampling=Sampling(samples=2, seed=1))


def test_no_whist_on_a_checked_ten():
    # §3.4: under ten_whist="checked" (Sochi, classic) the 10 is played and caught, never
    # whisted, so there is no call to advise; where it obliges one trick it is whisted.
    with pytest.raises(ContractError, match="nobody whists on 10S"):
        analyze_whist("A.KT9.KT97.K7", 1, declarer=0, contract="10S", sampling=Sampling(samples=2, seed=1),
                      rules="sochi")
    w = analyze_whist("A.KT9.KT97.K7", 1, declarer=0, contract="10S", sampling=Sampling(samples=2, seed=1),
                      rules="leningrad")
    assert {o.call for o in w.options} == {"whist", "pass"}


def test_equivalent_discards_cover_all_66():
    rng = random.Random(8)
    for _ in range(20):
        cards = rng.sample(list(prefsolve.cards.ALL_CARDS), 12)
        hand = Hand(cards)
        classes = set(equivalent_discards(hand))
        canon = {talon.canonical_discard(p, hand) for p in itertools.combinations(sorted(cards), 2)}
        assert canon == classes


def test_equivalent_discards_solve_alike():
    hand12 = Hand.parse("AKQ.KT9.KT97.K7")
    rest = [c for c in prefsolve.cards.ALL_CARDS if c not in hand12]
    rng = random.Random(4)
    for a, b in (("SK SQ", "SA SQ"), ("D9 D7", "DT D7"), ("C9 HK", "CT HK")):
        da, db = tuple(Hand.parse(a)), tuple(Hand.parse(b))
        assert talon.canonical_discard(da, hand12) == talon.canonical_discard(db, hand12)
        rng.shuffle(rest)
        others = [Hand(rest[:10]), Hand(rest[10:20])]
        for strain in ("S", "D", "NT", "misere"):
            tx = solve(prefsolve.Deal([Hand(hand12.mask & ~Hand(da).mask)] + others), 0, strain=strain,
                       talon_mode="ignore").tricks
            ty = solve(prefsolve.Deal([Hand(hand12.mask & ~Hand(db).mask)] + others), 0, strain=strain,
                       talon_mode="ignore").tricks
            assert tx == ty


def test_analyze_talon():
    t = analyze_talon("AKQJT987.A.A.AK", 0, sampling=Sampling(samples=6, seed=2), bid="8S")
    assert all(o.stats.contract >= Contract(8, "S") for o in t.options)
    best = t.options[0]
    assert best.stats.p_make == 1.0
    assert best.stats.expected == max(o.stats.expected for o in t.options)
    assert len(set(best.discard)) == 2 and all(c in Hand.parse("AKQJT987.A.A.AK") for c in best.discard)
    rec = t.recommendation
    assert rec.contract == best.stats.contract and rec.call == str(best.stats.contract) and rec.max_bid is None
    assert set(rec.discard) == set(best.discard) and rec.expected == best.stats.expected
    d = t.to_dict()
    assert d["recommendation"]["contract"] == str(best.stats.contract) and d["samples"] == 6
    assert d["recommendation"] == rec.to_dict() and d["options"][0]["p_make_se"] == 0.0


def test_allowed_contracts():
    sochi = Rules.profile("sochi")
    assert allowed_contracts(None, sochi) == LADDER
    assert allowed_contracts(Contract.misere(), sochi) == (Contract.misere(),)
    after7 = allowed_contracts(Contract(7, "H"), sochi)
    assert Contract(7, "H") in after7 and Contract(7, "D") not in after7
    assert Contract.misere() not in after7  # binding misère
    assert Contract.misere() in allowed_contracts(Contract(7, "H"), sochi.replace(misere_binding=False))


def test_talon_bad_input():
    with pytest.raises(HandError, match="expected 12"):
        analyze_talon("A.KT9.KT97.K7", sampling=Sampling(samples=2, seed=1))
    with pytest.raises(ContractError):
        analyze_talon("AKQJT987.A.A.AK", sampling=Sampling(samples=2, seed=1), bid="11S")


def test_holdings_certain_rows_and_shape():
    t = holdings.holdings(sampling=Sampling(samples=6, seed=3), numbers=[1, 4, 8, 26])
    rows = {r.number: r for r in t.rows}
    assert [r.holding for r in t.rows] == ["A", "AKQJ", "AKQJ xxxx", "K"]
    # The whole suit: every card is a winner, as trump and in no-trump.
    assert rows[8].trump == rows[8].nt == 8.0 and rows[8].trump_sd == 0.0
    # A singleton ace wins exactly its trick; a bare king can win at most one.
    assert rows[1].nt == 1.0 and rows[1].trump == 1.0
    assert 0.0 <= rows[26].nt <= 1.0 and 0.0 <= rows[26].trump <= 1.0
    assert 3.0 <= rows[4].trump <= 4.0
    d = t.to_dict()
    assert d["samples"] == 6 and [h["seed_estimate"] for h in d["holdings"]] == ["1", "4", "8", "0"]
    assert len(holdings.SEED_HOLDINGS) == 46
    assert [h[0] for h in holdings.SEED_HOLDINGS] == list(range(1, 47))
    # Rows are independent streams: the same row gives the same numbers alone.
    alone = holdings.holdings(sampling=Sampling(samples=6, seed=3), numbers=[26])
    assert alone.rows[0] == rows[26]
    with pytest.raises(PrefsolveError, match="47"):
        holdings.holdings(sampling=Sampling(samples=2), numbers=[47])


def test_bench_workload():
    from prefsolve.bench import time_analyze

    res = time_analyze(samples=4, seed=1, jobs=1)
    assert res["samples"] == 4 and res["seconds"] > 0 and res["samples_per_s"] > 0


# -- all-pass: what passing costs -------------------------------------------------------
def test_allpass_on_rostov_equals_misere_solving_of_the_same_layouts():
    from prefsolve import solve

    hand, seat, n = "AQ7.K98.KT.QJ", 1, 12
    a = analyze_allpass(hand, seat, sampling=Sampling(samples=n, seed=5), rules="rostov", jobs=2)
    assert a.talon_mode == "ignore" and a.samples == n
    direct = [solve(d, seat, strain="misere", leader=0, talon_mode="ignore").tricks
              for d in sample_deals(hand, seat, sampling=Sampling(samples=n, seed=5))]
    assert list(a.tricks_histogram) == [direct.count(t) for t in range(11)]
    assert a.tricks_mean == pytest.approx(sum(direct) / n)


def test_allpass_with_talon_leading_is_seeded_and_consistent():
    a = analyze_allpass("987.87.87.987", 0, sampling=Sampling(samples=10, seed=3), rules="sochi", jobs=1)
    b = analyze_allpass("987.87.87.987", 0, sampling=Sampling(samples=10, seed=3), rules="sochi", jobs=2)
    assert a == b and hash(a) == hash(b) and a.talon_mode == "lead"
    assert a.p_zero == a.tricks_histogram[0] / 10 and 0 <= a.tricks_mean <= 10
    # A hand of the lowest cards can never be loaded with more than a few tricks.
    assert a.tricks_mean < 2
    strong = analyze_allpass("AK.AK.AKQ.AKQ", 0, sampling=Sampling(samples=10, seed=3), jobs=2)
    assert strong.tricks_mean > a.tricks_mean and strong.expected < a.expected


def test_allpass_bad_count():
    with pytest.raises(PrefsolveError, match="allpass_count"):
        analyze_allpass("987.87.87.987", sampling=Sampling(samples=2, seed=1), allpass_count=-1)


@pytest.mark.parametrize("kwargs, text", [
    ({"voids": "x"}, "voids must map a seat to suits"),
    ({"voids": {2: object()}}, "voids of seat 2 must be suits"),
    ({"voids": {2: "HX"}}, "unknown suit 'X' in voids of seat 2"),
    ({"voids": {2: "трч"}}, "unknown suit 'р' in voids of seat 2"),     # тр is one suit only as a word
    ({"known": ["SK"]}, "known must map a seat (or 'talon') to cards"),
    ({"seed": -1}, "seed must be a whole number 0 or more"),
])
def test_analyzer_constraints_are_checked(kwargs, text):
    with pytest.raises(PrefsolveError) as info:
        analyze(MIXED, sampling=Sampling(samples=2, **({"seed": 1} | kwargs)))
    assert text in str(info.value)


def test_analyzer_constraints_in_other_forms():
    a = analyze(MIXED, sampling=Sampling(samples=4, seed=1, voids={2: 3}, known={1: ["SK", "SQ"]}))
    b = analyze(MIXED, sampling=Sampling(samples=4, seed=1, voids={2: "H"}, known={1: "SK SQ"}))
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("profile", ["sochi", "leningrad", "rostov", "classic"])
@pytest.mark.parametrize("binding", [True, False])
def test_allowed_contracts_agree_with_the_declaration_check(profile, binding):
    # The analyzer offers after a bid exactly what the auction's rule check accepts.
    rules = Rules.profile(profile).replace(misere_binding=binding)
    for winning in ladder(rules):
        if winning.without_talon:    # the analyzer samples no game without talon
            continue
        offered = allowed_contracts(winning, rules)
        assert offered == tuple(c for c in allowed_declarations(winning, rules) if not c.without_talon)
        for declared in ladder(rules):
            legal = check_declaration(winning, declared, rules).legal
            assert (declared in offered) == (legal and not declared.without_talon), (winning, declared)
            assert (declared in allowed_declarations(winning, rules)) == legal, (winning, declared)


def test_trading_misere_sets_the_bid_limit():
    # With trading misère a game bid up to 8♠ may end in misère, so a good misère makes
    # those bids worth reaching even when every game loses.
    rules = Rules.profile("sochi").replace(misere_binding=False)
    stats = [ContractStats(c, 10, 0.0, 0.0, -5.0, 0.0, (10,) + (0,) * 10) for c in LADDER]
    stats = [ContractStats(s.contract, 10, 1.0, 0.0, 3.0, 0.0, s.tricks_histogram) if s.contract == Contract(6, "D")
             else ContractStats(s.contract, 10, 1.0, 0.0, 2.0, 0.0, s.tricks_histogram) if s.contract.is_misere
             else s for s in stats]
    rec = bid.recommend(stats, rules)
    assert rec.contract == Contract(6, "D") and rec.max_bid == Contract(8, "S")
    rec = bid.recommend(stats, Rules.profile("sochi"))   # binding misère
    assert rec.contract == Contract(6, "D") and rec.max_bid == Contract(6, "D")


def test_results_name_changed_switches():
    rules = Rules.profile("sochi").replace(ten_whist="obligation1")
    w = analyze_whist(MIXED, 1, declarer=0, contract="10H", sampling=Sampling(samples=3, seed=1), rules=rules, jobs=1)
    assert w.quota == 1 and w.rules == "sochi with ten_whist='obligation1'"
    assert "P(defence takes its 1)" in w.format() and w.to_dict()["quota"] == 1
    assert "sochi with ten_whist='obligation1' rules" in w.format()
    a = analyze(MIXED, sampling=Sampling(samples=2, seed=1), jobs=1,
                rules=Rules.profile("rostov").replace(stalingrad=True))
    assert a.rules == "rostov with stalingrad=True" and a.to_dict()["rules"] == a.rules


def test_stalingrad_whist_advice_names_the_forced_partner():
    rules = Rules.profile("sochi").replace(stalingrad=True)
    w = analyze_whist(MIXED, 1, declarer=0, contract="6S", sampling=Sampling(samples=3, seed=1), rules=rules, jobs=1)
    assert w.partner == "whist" and [o.call for o in w.options] == ["whist"]
    assert "Stalingrad" in w.format()
    with pytest.raises(ContractError, match="cannot pass on 6S"):
        analyze_whist(MIXED, 1, declarer=0, contract="6S", sampling=Sampling(samples=3, seed=1), rules=rules,
                      partner="pass")
    assert analyze_whist(MIXED, 1, declarer=0, contract="6C", sampling=Sampling(samples=3, seed=1), rules=rules,
                         jobs=1).partner == "pass"


def test_defence_model_helpers_refuse_what_they_cannot_do():
    with pytest.raises(PrefsolveError, match="no fixed calls"):
        defence.defence_calls(Contract.parse("7H"), "best", Rules())
    with pytest.raises(PrefsolveError, match="unknown defence model"):
        defence.declarer_scores(Contract.parse("7H"), np.array([5]), "bogus", Rules())
    # defence_options takes text and names the legal choices (§3.4: nobody whists on a checked 10).
    assert defence.defence_options("10H", "sochi") == ((("pass", "pass"), False), (("pass", "pass"), True))
    assert defence.defence_options("misere", "sochi") == (((), False),)


@pytest.mark.parametrize("cards", [None, 5, 2.5])
def test_known_cards_of_a_wrong_type_are_refused(cards):
    with pytest.raises(ConstraintError, match="seat 1 must be a hand text"):
        analyze(MIXED, sampling=Sampling(samples=2, seed=1, known={1: cards}), jobs=1)


def test_pass_model_says_p_make_is_for_play():
    a = analyze(MIXED, sampling=Sampling(samples=4, seed=1), jobs=1, defence="pass")
    assert "P(make if played)" in a.advice() and "though this model does not play it" in a.format()


def test_samples_may_be_numpy_integers():
    a = analyze(MIXED, sampling=Sampling(samples=np.int64(3), seed=1), jobs=1)
    assert a.samples == 3
    assert np.array_equal(a.tricks, analyze(MIXED, sampling=Sampling(samples=3, seed=1), jobs=1).tricks)
    assert analyze_whist(MIXED, 1, declarer=0, contract="7H", sampling=Sampling(samples=np.int32(2), seed=1),
                         jobs=1).samples == 2
    assert len(sample_deals(MIXED, sampling=Sampling(samples=np.uint8(2), seed=1))) == 2
    for bad in (np.float64(3.0), True, 0):
        with pytest.raises(PrefsolveError, match="samples must be a positive whole number"):
            analyze(MIXED, sampling=Sampling(samples=bad, seed=1))


def test_results_state_the_cards_and_voids_they_were_conditioned_on():
    known, voids = {1: "SK SQ", "talon": "HA"}, {2: "H"}
    a = analyze(MIXED, sampling=Sampling(samples=3, seed=1, known=known, voids=voids), jobs=1)
    d = a.to_dict()
    assert d["known"] == {"1": "SK SQ", "talon": "HA"} and d["voids"] == {"2": "H"}
    assert "(given: seat 1 holds ♠K ♠Q; the talon holds ♥A; seat 2 void in ♥)" in a.format().splitlines()
    w = analyze_whist(MIXED, 1, declarer=0, contract="7H",
                      sampling=Sampling(samples=2, seed=1, known={"talon": "SK SQ"}), jobs=1).to_dict()
    assert w["known"] == {"talon": "SK SQ"} and w["voids"] == {} and w["hand"] == MIXED
    assert set(w["options"]["whist"]) == {"expected", "expected_se"}
    plain = analyze(MIXED, sampling=Sampling(samples=3, seed=1), jobs=1)
    assert plain.to_dict()["known"] == {} and "given" not in plain.format()


def test_allpass_count_and_candidates_may_be_numpy_integers():
    a = analyze_allpass("987.87.87.987", 0, sampling=Sampling(samples=2, seed=3), allpass_count=np.int64(1), jobs=1)
    assert a.allpass_count == 1 and type(a.allpass_count) is int
    t = analyze_talon("AKQJT987.A.A.AK", 0, sampling=Sampling(samples=2, seed=2), candidates=np.int64(2), jobs=1)
    assert t == analyze_talon("AKQJT987.A.A.AK", 0, sampling=Sampling(samples=2, seed=2), candidates=2, jobs=1)


def test_whist_text_states_what_was_given():
    w = analyze_whist(MIXED, 1, declarer=0, contract="7H",
                      sampling=Sampling(samples=2, seed=1, known={"talon": "SQ SJ"}, voids={2: "C"}), jobs=1)
    assert "(given: the talon holds ♠Q ♠J; seat 2 void in ♣)" in w.format().splitlines()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_construction_counts_exactly_the_allowed_layouts(data):
    # Random known cards leave 4-7 unseen cards; random voids; the counting of
    # Sampler._ways must equal a brute-force count, and every constructed layout
    # must respect the constraints.
    cards = data.draw(st.permutations(range(32)))
    own = Hand(sum(1 << c for c in cards[:10]))
    unseen_n = data.draw(st.integers(4, 7))
    rest = cards[10:]
    # seats 1, 2 and the talon keep free slots adding up to unseen_n
    free = [0, 0, 0]
    for _ in range(unseen_n):
        k = data.draw(st.sampled_from([k for k in range(3) if free[k] < (10, 10, 2)[k]]))
        free[k] += 1
    known_cards = rest[unseen_n:]
    fixed = {0: own}
    at = 0
    for place, size, k in ((1, 10, 0), (2, 10, 1), ("talon", 2, 2)):
        n = size - free[k]
        fixed[place] = Hand(sum(1 << c for c in known_cards[at:at + n]))
        at += n
    voids = {seat: data.draw(st.sampled_from(["", "S", "H", "SC", "DH"])) for seat in (1, 2)}
    voids = {s: v for s, v in voids.items() if v and not any(
        fixed[s].suit_ranks("SCDH".index(x)) for x in v)}
    try:
        s = Sampler(fixed, seed=1, voids=voids)
    except ConstraintError:
        return
    unseen = [c.index for c in s._unseen]
    void_mask = {seat: sum(0xFF << (8 * "SCDH".index(x)) for x in v) for seat, v in voids.items()}
    count = 0
    for places in itertools.product(range(3), repeat=len(unseen)):
        if [places.count(k) for k in range(3)] != free:
            continue
        if any((void_mask.get(1 + p, 0) >> c) & 1 for p, c in zip(places, unseen) if p < 2):
            continue
        count += 1
    s._groups = None
    try:
        s._constructed()
    except ConstraintError:
        assert count == 0
        return
    assert s._ways(0, tuple(s._need)) == count > 0
    for _ in range(20):
        m = s._constructed()
        assert all(not (m[seat] & mask) for seat, mask in void_mask.items())
        assert [bin(x).count("1") for x in m] == [10, 10, 10, 2]


def test_fixed_defence_models_state_what_the_rules_impose():
    # Under "pass", a 10 the rules never let pass (sochi: checked) and the misère are
    # played: the model's text must say so, and the figures show it.
    a = analyze(MIXED, 0, sampling=Sampling(samples=6, seed=1), jobs=1, defence="pass")
    assert "misère, a 10 the rules never let pass" in a.model and "6♠ under Stalingrad" in a.model
    assert a["10NT"].expected < 0 < a["6S"].expected      # 10NT played and lost; 6♠ passed out
    best = analyze(MIXED, 0, sampling=Sampling(samples=2, seed=1), jobs=1)
    assert "split the defence's tricks evenly" in best.model


# -- one options object, one recommendation, immutable results ------------------------------
@pytest.mark.parametrize("options, text", [
    ({"samples": 0}, "samples must be a positive whole number, got 0"),
    ({"samples": 2.5}, "samples must be a positive whole number"),
    ({"samples": True}, "samples must be a positive whole number"),
    ({"seed": -1}, "seed must be a whole number 0 or more"),
    ({"adaptive": 0}, "adaptive must be a positive standard error threshold, got 0"),
    ({"adaptive": float("nan")}, "adaptive must be a positive"),
    ({"adaptive": "0.5"}, "adaptive must be a positive"),
    ({"known": {3: "SA"}}, "unknown place 3 for known cards"),
    ({"known": {"dummy": "SA"}}, "unknown place 'dummy'"),
    ({"known": {"talon": "SA", "Talon": "SK"}}, "given twice"),
    ({"voids": {5: "S"}}, "seat"),
])
def test_sampling_is_checked_on_construction(options, text):
    with pytest.raises(PrefsolveError) as info:
        Sampling(**options)
    assert text in str(info.value)


def test_sampling_is_immutable_hashable_and_normalised():
    a = Sampling(samples=np.int64(5), seed=np.int32(3), adaptive=np.float64(0.5),
                 known={"talon": ["HA"], np.int64(1): "SK SQ"}, voids={2: [3, 0], 1: "♣"})
    b = Sampling(5, 3, 0.5, known={1: Hand.parse("SQ SK"), "talon": "HA"}, voids={1: "C", 2: "HS"})
    assert a == b and hash(a) == hash(b)
    assert type(a.samples) is int and type(a.seed) is int and type(a.adaptive) is float
    assert a.known == ((1, Hand.parse("SK SQ")), ("talon", Hand.parse("HA")))
    assert a.voids == ((1, "C"), (2, "SH"))
    assert a.to_dict() == {"samples": 5, "seed": 3, "adaptive": 0.5, "known": {"1": "SK SQ", "talon": "HA"},
                           "voids": {"1": "C", "2": "SH"}, "conditions": []}
    with pytest.raises(AttributeError):
        a.samples = 6
    assert Sampling(known=a.known, voids=a.voids) == Sampling(known=dict(a.known), voids=dict(a.voids))
    with pytest.raises(PrefsolveError, match="sampling must be a Sampling"):
        analyze(MIXED, sampling={"samples": 3})


def test_results_record_their_sampling_and_are_hashable():
    s = Sampling(samples=3, known={1: "SK"})          # no seed: one is drawn and recorded
    a = analyze(MIXED, sampling=s, jobs=1)
    assert a.sampling.seed is not None and a.sampling.samples == 3 and a.sampling.known == s.known
    again = analyze(MIXED, sampling=a.sampling, jobs=1)
    assert again == a and hash(again) == hash(a) and again.to_dict()["seed"] == a.sampling.seed
    w = analyze_whist(MIXED, 1, declarer=0, contract="7H", sampling=Sampling(samples=2, seed=1), jobs=1)
    t = analyze_talon("AKQJT987.A.A.AK", sampling=Sampling(samples=2, seed=1), jobs=1)
    p = analyze_allpass(MIXED, sampling=Sampling(samples=2, seed=1), jobs=1)
    h = holdings.holdings(sampling=Sampling(samples=2, seed=1), numbers=[1], jobs=1)
    for result in (a, w, t, p, h):
        assert hash(result) == hash(result)        # no list, dict or array inside
        assert result.sampling.seed is not None
    for result in (a, w, t, p):
        rec = result.to_dict()["recommendation"]
        assert set(rec) == {"call", "contract", "discard", "max_bid", "expected", "expected_se", "card"}
        assert rec == result.recommendation.to_dict()
    assert w.recommendation.discard is None and w.recommendation.max_bid is None
    assert t.recommendation.discard is not None and len(t.recommendation.discard) == 2
    assert p.recommendation.contract is None and p.recommendation.expected == p.expected


def test_analyses_refuse_sampling_options_they_cannot_honour():
    with pytest.raises(PrefsolveError, match="holdings takes no known"):
        holdings.holdings(sampling=Sampling(samples=2, known={1: "SA"}))
    with pytest.raises(PrefsolveError, match="holdings takes no adaptive"):
        holdings.holdings(sampling=Sampling(samples=2, adaptive=1.0))
    with pytest.raises(ConstraintError, match="not adaptive"):
        analyze_talon("AKQJT987.A.A.AK", sampling=Sampling(samples=2, adaptive=1.0))
    with pytest.raises(ConstraintError, match="not adaptive"):
        analyze_allpass(MIXED, sampling=Sampling(samples=2, adaptive=1.0))


def test_whist_takes_the_shown_talon():
    shown = analyze_whist(MIXED, 1, declarer=0, contract="7H", talon="SQ SJ",
                          sampling=Sampling(samples=3, seed=1), jobs=1)
    known = analyze_whist(MIXED, 1, declarer=0, contract="7H",
                          sampling=Sampling(samples=3, seed=1, known={"talon": "SQ SJ"}), jobs=1)
    assert shown == known and shown.to_dict()["known"] == {"talon": "SQ SJ"}
    with pytest.raises(ConstraintError, match="talon card SA is in the player's own hand"):
        analyze_whist(MIXED, 1, declarer=0, contract="7H", talon="SA SQ", sampling=Sampling(samples=2))
    with pytest.raises(ConstraintError, match="the talon has two cards"):
        analyze_whist(MIXED, 1, declarer=0, contract="7H", talon="SQ", sampling=Sampling(samples=2))
    with pytest.raises(ConstraintError, match="given twice"):
        analyze_whist(MIXED, 1, declarer=0, contract="7H", talon="SQ SJ",
                      sampling=Sampling(samples=2, known={"talon": "SK ST"}))


def test_arguments_after_the_hand_and_seat_are_keyword_only():
    with pytest.raises(TypeError):
        analyze(MIXED, 0, Sampling(samples=2, seed=1))      # type: ignore[misc]
    with pytest.raises(TypeError):
        analyze_whist(MIXED, 1, 0, "7H")                      # type: ignore[misc]


@pytest.mark.parametrize("profile", ["sochi", "leningrad", "rostov", "classic"])
@pytest.mark.parametrize("half", ["no_play", "played", "off"])
@pytest.mark.parametrize("stalingrad", [False, True])
def test_whist_options_are_the_calls_the_rules_allow(profile, half, stalingrad):
    # §3.2: whist or pass beside the other defender's call; the half-whist only for the
    # second defender after a pass, on 6 and 7, where the rules play it. §3.5: against
    # 6♠ under Stalingrad only whist, beside a whisting partner.
    rules = Rules.profile(profile).replace(half_whist=half, stalingrad=stalingrad)
    for c in LADDER:
        if c.is_misere:
            continue
        for first in (True, False):
            for partner in ("pass", "whist"):
                forced = stalingrad and c == Contract(6, "S")
                if forced and partner == "pass":
                    continue
                got = whist.whist_options(c, first, partner, rules)
                want = {"whist": ("whist", partner) if first else (partner, "whist")}
                if not forced:
                    want["pass"] = ("pass", partner) if first else (partner, "pass")
                if not first and partner == "pass" and half != "off" and c.level <= 7 and not forced:
                    want["half"] = ("pass", "half", "pass")
                if c.level == 10 and rules.ten_whist == "checked":
                    want = {"pass": ("pass", "pass")} if partner == "pass" else {}   # §3.4: caught, no whist
                assert got == want, (c, first, partner)


def test_a_bid_analysis_loads_no_whist_code():
    import subprocess
    import sys

    code = ("import sys, prefsolve; prefsolve.analyze('A.KT9.KT97.K7', 0, "
            "sampling=prefsolve.Sampling(samples=2, seed=1), jobs=1); "
            "print(sorted(m for m in sys.modules if m.startswith('prefsolve.analysis')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out)
    assert "prefsolve.analysis.bid" in loaded
    assert not {"prefsolve.analysis.whist", "prefsolve.analysis.talon", "prefsolve.analysis.allpass",
                "prefsolve.analysis.holdings"} & set(loaded)


def test_the_analysis_modules_import_no_sibling_in_a_cycle():
    import ast
    from pathlib import Path

    root = Path(analysis.__file__).parent
    graph = {}
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[path.stem] = {node.module for node in ast.walk(tree)
                            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}

    def reaches(start, goal, seen=()):
        return any(n == goal or (n not in seen and reaches(n, goal, seen + (n,))) for n in graph.get(start, ()))

    assert not [m for m in graph if m != "__init__" and reaches(m, m)]
    assert "whist" not in graph["bid"] and "bid" not in graph["whist"]


@pytest.mark.parametrize("suits", ["SH", "♠♥", "пч", "ПЧ", "пики, черви", "черви пики", "п ч", ["п", "hearts"], [0, 3]])
def test_voids_are_suits_in_any_notation(suits):
    assert Sampling(voids={1: suits}).voids == Sampling(voids={1: "SH"}).voids == ((1, "SH"),)
