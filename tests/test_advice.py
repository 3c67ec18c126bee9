"""The auction model, the conditioned sampler and the advice that uses them."""

import pytest

from prefsolve.analysis import (
    NarrowConditionsError,
    Sampling,
    analyze,
    analyze_whist,
    auction_conditions,
    bid,
    sample_deals,
)
from prefsolve.analysis.auction_model import best_estimate, estimate, misere_unsafe
from prefsolve.analysis.stats import ContractStats
from prefsolve.cards import Card, Hand
from prefsolve.contract import LADDER, Contract
from prefsolve.errors import AuctionError, PrefsolveError
from prefsolve.rules import Rules


def test_estimates_follow_the_book_where_it_is_exact():
    # AKQJ xxxx is 8 as trump (RULES.md §8 #8); A xx is 1; AK xx is 3.
    assert estimate(Hand.parse("AKQJT987.-.-.AK"), "S") == 8 + 2
    assert estimate(Hand.parse("A98.KQJT.987.87"), "S") == 1
    assert estimate(Hand.parse("AK98.QJT.987.87"), "S") == 3
    assert best_estimate(Hand.parse("AKQJT987.A.A.-")) == 10
    assert misere_unsafe(Hand.parse("79J.79.79.79J")) == 0 and misere_unsafe(Hand.parse("A.A.A.AKQJT98")) == 4


def test_every_sampled_layout_meets_every_condition_and_the_seed_repeats():
    conds = auction_conditions("6S 7H pass pass", contract="7H", exclude=[2])
    assert {c.seat for c in conds} == {0, 1} and len(conds) == 5
    sampling = Sampling(samples=40, seed=5, conditions=conds)
    deals = sample_deals("JT97.A7.8.Q98", 2, sampling=sampling)
    assert len(deals) == 40
    for d in deals:
        assert str(d.hands[2]) == "JT97.A7.8.Q98"
        assert all(c(d.hands[c.seat]) for c in conds)
        assert estimate(d.hands[1], "H") >= 5 and best_estimate(d.hands[1]) >= 6
    assert [str(d) for d in sample_deals("JT97.A7.8.Q98", 2, sampling=sampling)] == [str(d) for d in deals]
    assert hash(sampling) == hash(Sampling(samples=40, seed=5, conditions=conds))


def test_user_predicates_condition_the_layouts_like_known_cards():
    def long_spades(hand):
        return len(hand.suit_ranks(0)) >= 4
    deals = sample_deals("A.KT9.KT97.K7", 0, sampling=Sampling(samples=30, seed=1, conditions={1: long_spades},
                                                                voids={2: "H"}))
    assert all(len(d.hands[1].suit_ranks(0)) >= 4 and not d.hands[2].suit_ranks(3) for d in deals)
    assert Sampling(conditions={1: long_spades}).to_dict()["conditions"] == ["seat 1: long_spades"]


def test_an_impossible_condition_is_refused_with_a_clear_error():
    with pytest.raises(NarrowConditionsError, match="no layout of 20000 tried meets the conditions"):
        sample_deals("A.KT9.KT97.K7", 0, sampling=Sampling(samples=5, seed=1,
                                                           conditions={1: lambda h: "A" in h.suit_ranks(0)}))
    with pytest.raises(PrefsolveError, match="must be a predicate"):
        Sampling(conditions={1: "long spades"})


def test_a_narrow_condition_reports_its_acceptance_rate_or_refuses_naming_it():
    # Seat 1 holds at least 6 clubs: rare, but sampled; the rate is reported.
    def five_clubs(hand):   # all five clubs seat 0 does not see: about 1% of layouts
        return len(hand.suit_ranks(1)) >= 5
    a = analyze("A.KT9.KT97.K7", 0, sampling=Sampling(samples=6, seed=2, conditions={1: five_clubs}), jobs=1)
    assert a.acceptance is not None and 0 < a.acceptance < 0.05
    assert a.to_dict()["acceptance"] == round(a.acceptance, 5) and "seat 1: five_clubs" in a.to_dict()["conditions"]
    assert "of those tried" in a.format()

    def six_clubs_four_hearts(hand):     # 245 of the 646 646 layouts of seat 1: 0.038%
        return len(hand.suit_ranks(1)) == 6 and len(hand.suit_ranks(3)) == 4
    with pytest.raises(NarrowConditionsError, match=r"accept only 0\.\d+% of layouts .* too few to sample 1000"):
        sample_deals("AKQJT98.A.A.A", 0,
                     sampling=Sampling(samples=1000, seed=1, conditions={1: six_clubs_four_hearts}))


def test_a_sure_case_stays_sure_after_the_auction():
    a = analyze("AKQJ987.A.A.A", 1, sampling=Sampling(samples=6, seed=1), auction="pass", jobs=1)
    assert a["10NT"].p_make == 1.0 and a.recommendation.max_bid == Contract(10, "NT")
    assert a.sampling.condition_texts() == ["seat 0 passed with 6♠ open: estimate < 7"]


def test_the_auction_must_be_this_seats_turn():
    with pytest.raises(AuctionError, match="seat 1 speaks, not seat 2"):
        analyze("A.KT9.KT97.K7", 2, sampling=Sampling(samples=2, seed=1), auction="6S")
    with pytest.raises(AuctionError, match="must be won by the declarer, seat 1"):
        analyze_whist("JT97.A7.8.Q98", 2, declarer=1, contract="7H", auction="6S 7H pass")


def test_the_bid_limit_takes_the_standard_error_into_account():
    # +0.77 ± 3.66 whists at 9NT carries the bidding no higher than a contract that clears its error.
    rules = Rules.profile("sochi")
    stats = [ContractStats(c, 10, 0.0, 0.0, -5.0, 0.0, (10,) + (0,) * 10) for c in LADDER]
    nine = Contract(9, "NT")
    stats = [ContractStats(s.contract, 10, 1.0, 0.0, 0.77, 3.66, s.tricks_histogram) if s.contract == nine
             else ContractStats(s.contract, 10, 1.0, 0.0, 0.5, 0.1, s.tricks_histogram)
             if s.contract == Contract(6, "D")
             else s for s in stats]
    rec = bid.recommend(stats, rules)
    assert rec.contract == Contract(9, "NT") and rec.max_bid == Contract(6, "D")


def test_whist_against_a_bid_seven_is_less_rosy_than_against_a_random_hand():
    plain = analyze_whist("JT97.A7.8.Q98", 2, declarer=1, contract="7H", sampling=Sampling(samples=60, seed=1),
                          jobs=1)
    told = analyze_whist("JT97.A7.8.Q98", 2, declarer=1, contract="7H", sampling=Sampling(samples=60, seed=1),
                         auction="6S 7H pass pass", jobs=1)
    assert told.acceptance is not None and plain.acceptance is None
    assert told.p_quota < plain.p_quota
    assert "hands are drawn as the auction shows them" in told.format()


# -- which card now --------------------------------------------------------------------------
DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def _open_advice(seat, contract, declarer, played, strain, **kw):
    import prefsolve
    from prefsolve import Position
    deal = prefsolve.Deal.parse(DEAL)
    known = {s: str(deal.hands[s]) for s in range(3) if s != seat}
    a = prefsolve.advise(str(deal.hands[seat]), seat, contract=contract, declarer=declarer, played=played,
                         talon="8.Q.-.-", sampling=Sampling(samples=3, seed=1, known=known), **kw)
    pos = Position(deal, declarer, strain=strain, seat=None if declarer is not None else seat, played=played,
                   discard=kw.get("discard"))
    return a, pos


@pytest.mark.parametrize("seat, contract, declarer, played, strain", [
    (0, "6NT", 2, [], "NT"),                        # a defender's lead
    (1, "6NT", 2, ["SA"], "NT"),                    # mid-trick
    (2, "6NT", 2, ["SA", "S7"], "NT"),              # the declarer, third to the trick
    (0, "misere", 1, [], "misere"),                 # a defender against misère
    (1, "allpass", None, ["SA"], "allpass"),        # all-pass, under the turned talon card
])
def test_with_every_hand_open_the_advised_card_is_a_double_dummy_best_card(seat, contract, declarer, played, strain):
    a, pos = _open_advice(seat, contract, declarer, played, strain)
    values = pos.card_values()
    assert {s.card for s in a.cards} == set(values)
    assert a.card in pos.best_cards(values)
    for s in a.cards:   # every layout is the real one: no spread, and the real value
        assert s.tricks_mean == values[s.card] and s.tricks_mean_se == 0


def test_a_seat_that_showed_out_is_dealt_no_more_of_the_suit():
    from prefsolve.analysis.advice import _replay
    from prefsolve.analysis.sampling import Sampler
    from prefsolve.cards import Card
    played = [Card.parse(c) for c in ("SA", "S7", "HQ")]    # seat 2 shows out of spades (and trumps: NT none)
    seats, voids, to_move = _replay(played, "NT", 0, ())
    assert seats == [0, 1, 2] and voids == {2: 1} and to_move == 0
    s = Sampler({0: Hand.parse("A.KT9.KT97.K7"), 1: Hand.parse("7.-.-.-"), 2: Hand.parse("-.-.-.Q")}, 3,
                {2: "S"}, voids_beyond_known=True)
    for d in s.draw(50):
        assert not d.hands[2].suit_ranks(0) and "7" in d.hands[1].suit_ranks(0)


def test_advice_refuses_the_wrong_seat_and_names_the_conditions():
    import prefsolve
    with pytest.raises(PrefsolveError, match="seat 1 is to play, not seat 2"):
        prefsolve.advise("KQ.J8.AQJ.AJT", 2, contract="6NT", declarer=2, played=["SA"],
                         sampling=Sampling(samples=2, seed=1))
    a = prefsolve.advise("JT97.A7.8.Q98", 1, contract="7H", declarer=2, played=["SA"],
                         sampling=Sampling(samples=4, seed=1),
                         auction="6S pass 7H pass", talon="8.Q.-.-")
    assert "seat 2 bid 7♥: estimate ≥ 6" in a.conditions and a.acceptance is not None
    rec = a.to_dict()["recommendation"]
    assert rec["call"] == rec["card"] == str(a.card) and rec["contract"] == "7H" and len(a.cards) == 4


def test_the_talon_discard_is_chosen_once_and_its_double_dummy_optimism_is_stated():
    from prefsolve.analysis import analyze_talon
    t = analyze_talon("AKJ98.AQ.K8.A87", 0, sampling=Sampling(samples=30, seed=1), bid="6S", jobs=1)
    rec = t.recommendation
    # The per-layout best of the strain's candidates can only promise more than the one chosen discard.
    assert t.discard_optimism >= 0 and t.discard_optimism_tricks >= 0
    assert rec.discard is not None and set(rec.discard) == set(t.options[0].discard)
    assert "would have promised" in t.format()
    assert t.to_dict()["discard_optimism"] == round(t.discard_optimism, 3)
    told = analyze_talon("AKJ98.AQ.K8.A87", 0, sampling=Sampling(samples=5, seed=1), bid="6S",
                         auction="6S pass pass", jobs=1)
    assert told.acceptance is not None and told.sampling.condition_texts() == [
        "seat 1 passed with 6♣ open: estimate < 7", "seat 2 passed with 6♣ open: estimate < 7"]


def test_a_declarer_who_showed_out_of_a_suit_he_discarded_gets_a_discard_that_fits():
    import prefsolve
    # The deal: AQJ.AKT.J8.AK -.J987.T97.987 K987.Q.AKQ.QT, talon T.-.-.J.
    played = "SA CJ S9 CA C9 CQ CK C8 S8 DA SQ DT CT".split()   # the declarer trumps ♦A: he put ♦J8 away
    a = prefsolve.advise("-.J987.T97.987", 1, contract="7S", declarer=0, played=played, talon="T.-.-.J",
                         sampling=Sampling(samples=10, seed=1))
    assert a.discards_replaced > 0 and a.samples == 10
    assert "seat 0 showed out of ♦" in a.conditions
    assert {str(s.card) for s in a.cards} == {"C7"}     # seat 1 must follow clubs with its last one


def test_advice_takes_open_hands_and_conditions_from_its_sampling():
    import prefsolve
    seen = Sampling(samples=6, seed=2, known={0: "A.KT9.KT97.K7"},
                    conditions={2: lambda h: len(h.suit_ranks(0)) >= 2})
    with pytest.raises(NarrowConditionsError, match="no layout of 20000 tried"):
        prefsolve.advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA"],
                         sampling=Sampling(samples=2, seed=1, conditions={2: lambda h: "T" in h.suit_ranks(0)}))
    a = prefsolve.advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA"], sampling=seen)
    assert a.sampling.seed == 2 and a.samples == 6 and len(a.conditions) == 1


def test_in_all_pass_the_second_talon_card_is_unseen_until_it_is_turned():
    from prefsolve.analysis import advise
    from prefsolve.cards import Card

    # Seat 1 plays second to trick 1, under the turned ♠8; the other talon card, ♣Q, is not seen
    # yet: the layouts deal it anywhere the unseen cards may go, and trick 2 is led by it only
    # where it lies in the talon.
    a = advise("JT97.A7.8.Q98", 1, contract="allpass", played=["SA"], turn=["S8"],
               sampling=Sampling(samples=30, seed=3))
    assert a.samples == 30 and a.card in [Card.parse(c) for c in ("ST", "S9", "S7", "SJ")]
    talons = {str(d.talon) for d in sample_deals("JT97.A7.8.Q98", 1, sampling=Sampling(
        samples=30, seed=3, known={"talon": "8.-.-.-", 0: "A.-.-.-"}))}
    assert len(talons) > 1      # the unseen talon card varies from layout to layout
    with pytest.raises(PrefsolveError, match="from trick 2 on both talon cards are turned"):
        advise("JT97.A7.8.Q98", 1, contract="allpass", played=["SA", "SJ", "SK", "CA"], turn=["S8"])
    with pytest.raises(PrefsolveError, match="only all-pass turns the talon"):
        advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, turn=["S8"])
    # Under raspasy_talon=ignored (Rostov, RULES.md §4.3) first hand leads and the talon plays no part.
    rostov = advise("JT97.A7.8.Q98", 1, contract="allpass", played=["SA"], rules="rostov",
                    sampling=Sampling(samples=5, seed=1))
    assert rostov.card.suit == 0        # following the ♠A that first hand led


def test_agreed_stops_the_layouts_once_one_card_was_best_in_every_one():
    from prefsolve.analysis import advise

    # Seven trumps from the ace and three side aces: as declarer of 10♠ on lead, a top card takes
    # all ten tricks in every layout; asked to stop on agreement, ten layouts are enough.
    full = advise("AKQJT98.A.A.A", 0, contract="10S", declarer=0, sampling=Sampling(samples=40, seed=2))
    early = advise("AKQJT98.A.A.A", 0, contract="10S", declarer=0, sampling=Sampling(samples=40, seed=2),
                   agreed=10)
    assert full.samples == 40 and early.samples == 10 and early.layouts == 10
    assert early.card in {s.card for s in full.cards if s.tricks_mean == full.best.tricks_mean}
    assert early.to_dict()["samples"] == 10
    with pytest.raises(PrefsolveError, match="agreed must be a whole number 1 or more"):
        advise("AKQJT98.A.A.A", 0, contract="10S", declarer=0, agreed=0)


def test_layouts_of_an_earlier_advice_that_still_fit_are_valued_again_first():
    from prefsolve.analysis import advise

    first = advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA"], talon="S8 CQ",
                   sampling=Sampling(samples=12, seed=4))
    again = advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA"], talon="S8 CQ",
                   sampling=Sampling(samples=12, seed=99), reuse=first.sampled)
    # Nothing new is known: every layout fits and is valued again, whatever the new seed.
    assert again.reused == 12 and again.sampled == first.sampled and again.cards == first.cards
    # Three more cards played: only the layouts where they lay in their players' hands fit.
    later = advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA", "ST", "SK", "CK"],
                   talon="S8 CQ", sampling=Sampling(samples=12, seed=5), reuse=first.sampled)
    fitting = [d for d in first.sampled if Card.parse("SK") in d.hands[2] and Card.parse("CK") in d.hands[0]]
    assert 0 < later.reused == len(fitting) < 12 and later.sampled[:len(fitting)] == tuple(fitting)
    assert all(Card.parse("SK") in d.hands[2] and Card.parse("CK") in d.hands[0] for d in later.sampled)


def test_the_engine_counts_every_search_a_thread_starts():
    from prefsolve.engine import new_solver, solver_calls, solver_nodes
    from prefsolve.play import Position

    calls, nodes = solver_calls(), solver_nodes()
    pos = Position("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-", 2, strain="NT", discard="S8 C8",
                   solver=new_solver(1))      # an empty table: the search has nodes to count
    assert solver_calls() == calls          # a discard given: nothing solved
    pos.value()
    assert solver_calls() == calls + 1 and solver_nodes() > nodes


# -- advise speaks as every analysis ----------------------------------------------------------

SAMPLING_KEYS = {"samples", "seed", "adaptive", "known", "voids", "conditions", "acceptance"}


def test_every_analysis_prints_the_same_sampling_keys_and_one_recommendation_object():
    import prefsolve
    from prefsolve.analysis import analyze_allpass, analyze_talon
    from prefsolve.analysis.recommendation import Recommendation

    s = Sampling(samples=3, seed=1, known={2: "SQ"}, voids={0: "H"})
    results = [
        analyze("A.KT9.KT97.K7", 1, sampling=s, jobs=1),
        analyze_whist("A.KT9.KT97.K7", 1, declarer=0, contract="7S", sampling=s, jobs=1),
        analyze_talon("AKJ98.AQ.K8.A87", 1, sampling=Sampling(samples=3, seed=1, known={2: "SQ"}, voids={0: "H"}),
                      jobs=1),
        analyze_allpass("A.KT9.KT97.K7", 1, sampling=s, jobs=1),
        prefsolve.advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA"],
                         sampling=Sampling(samples=3, seed=1, known={2: "SQ"}, voids={0: "H"})),
    ]
    for r in results:
        d = r.to_dict()
        assert SAMPLING_KEYS <= set(d) and "rules" in d, type(r).__name__
        assert (d["known"], d["voids"], d["seed"], d["samples"]) == ({"2": "SQ"}, {"0": "H"}, 1, 3)
        assert isinstance(r.recommendation, Recommendation)
        assert set(d["recommendation"]) == set(Recommendation("pass").to_dict())
    advice = results[-1].to_dict()["recommendation"]
    assert advice["call"] == advice["card"] == str(results[-1].card) and advice["contract"] == "6NT"
    assert advice["expected"] is None and advice["max_bid"] is None


def test_the_auction_conditions_every_analysis_through_one_helper():
    # Each analysis given an auction samples exactly as with the model's conditions given by hand.
    import ast
    import pathlib

    import prefsolve
    from prefsolve.analysis import analyze_talon
    from prefsolve.analysis.auction_model import condition_on_auction

    hand = "JT97.A7.8.Q98"
    by_hand = Sampling(samples=4, seed=3, conditions=auction_conditions("6S 7H pass pass", contract="7H",
                                                                        exclude=[2]))
    a = analyze_whist(hand, 2, declarer=1, contract="7H", auction="6S 7H pass pass", sampling=Sampling(4, 3), jobs=1)
    b = analyze_whist(hand, 2, declarer=1, contract="7H", sampling=by_hand, jobs=1)
    assert a.to_dict() == b.to_dict() and a.sampling.condition_texts() == by_hand.condition_texts()
    t = analyze_talon("AKJ98.AQ.K8.A87", 0, auction="6S pass pass", sampling=Sampling(3, 1), jobs=1)
    assert t.sampling.condition_texts() == condition_on_auction(Sampling(3, 1), "6S pass pass", seat=0,
                                                                 rules="sochi").condition_texts()
    adv = prefsolve.advise(hand, 1, contract="6NT", declarer=2, played=["SA"], auction="pass pass 6NT",
                           sampling=Sampling(3, 1))
    assert list(adv.conditions) == condition_on_auction(Sampling(3, 1), "pass pass 6NT", seat=1, rules="sochi",
                                                        contract=Contract.parse("6NT")).condition_texts()
    # and the model's conditions are made in one place: no analysis calls auction_conditions itself.
    folder = pathlib.Path(prefsolve.analysis.__file__).parent
    for path in folder.glob("*.py"):
        if path.name == "auction_model.py":
            continue
        calls = [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "auction_conditions"]
        assert not calls, f"{path.name} conditions on the auction itself"


def test_advice_refuses_an_auction_the_declarer_did_not_win():
    import prefsolve

    with pytest.raises(AuctionError, match="must be won by the declarer, seat 2: seat 0 won it"):
        prefsolve.advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA"], auction="6NT pass pass",
                         sampling=Sampling(3, 1))
    with pytest.raises(AuctionError, match="must end in all-pass"):
        prefsolve.advise("JT97.A7.8.Q98", 1, contract="allpass", played=["SA"], talon="S8 CQ",
                         auction="6S pass pass", sampling=Sampling(3, 1))


def test_advice_notes_a_close_choice_and_not_a_touching_card():
    import prefsolve

    # ♣T leads ♠A by 0.05 in P(make) on 20 layouts, with a standard error of the difference of 0.08.
    a = prefsolve.advise("A.KT9.KT97.K7", 0, contract="7H", declarer=1, sampling=Sampling(20, 1))
    first = a.best
    second = next(s for s in sorted(a.cards, key=lambda s: (s.p_make, s.tricks_mean)) if s.card != a.card
                  and s.to_dict() != first.to_dict())
    diff = second.p_make - first.p_make
    se = (first.p_make_se ** 2 + second.p_make_se ** 2) ** 0.5
    assert 0 < diff < se
    assert a.close_text() == (f"(close: {first.card.symbol} leads {second.card.symbol} by {diff:.2f} in P(make), "
                              f"less than the difference's standard error {se:.2f})")
    assert a.format().splitlines()[-1] == f"play {a.card.symbol} {a.close_text()}"
    # ♠J, ♠T and ♠9 are touching: the same choice, with the very same figures, is not "close". ♠7 has
    # the same figures but the ♠8 of the talon may lie between (the declarer took it): a tie, said so.
    b = prefsolve.advise("JT97.A7.8.Q98", 1, contract="6NT", declarer=2, played=["SA"], talon="S8 CQ",
                         sampling=Sampling(30, 1))
    seven = b.stats_of(prefsolve.Card.parse("S7"))
    assert b.card.symbol == "♠J" and seven.to_dict() == b.best.to_dict()
    assert [c.symbol for c in b.close] == ["♠7"] and b.to_dict()["close"] == ["S7"]
    assert b.close_text() == "(close: ♠7 as good as ♠J)"
    assert b.format().splitlines()[-1] == "play ♠J (close: ♠7 as good as ♠J)"


def test_the_exact_endings_weigh_their_layouts_by_the_cards_played_by_default():
    from prefsolve.analysis.advice import INFERENCE
    from prefsolve.cli import main
    from prefsolve.deal import Deal
    from prefsolve.game import CARD
    from prefsolve.players.advisor import DEFAULT_INFERENCE, Advisor
    from prefsolve.players.base import seat_view
    from prefsolve.players.heuristic import HeuristicPlayer
    from prefsolve.players.runner import derive_seed, play_deal

    option = next(p for p in main.commands["advise"].params if p.name == "inference")
    assert INFERENCE == DEFAULT_INFERENCE == option.default == Advisor().inference == 0.5
    h = HeuristicPlayer()
    record = play_deal(Deal.random(derive_seed(5, "deal", 0)), [h, h, h], seed=derive_seed(5, "play", 0)).record
    for state, _move in record.replay():
        if state.kind != CARD or 10 - len(state.position.played_tricks) != 4 or len(state.options()) < 2:
            continue
        view = seat_view(state, state.decider, seed=1)
        weighed = Advisor().analysis(view)
        if weighed.method == "exact" and len({w for _lay, w in weighed.weighted}) > 1:
            break
    else:
        raise AssertionError("no four-card ending whose cards played tell its layouts apart")
    alike = Advisor(inference=0).analysis(view)
    assert [lay for lay, _w in alike.weighted] == [lay for lay, _w in weighed.weighted]
    assert {w for _lay, w in alike.weighted} == {1.0}
    assert (weighed.inference, alike.inference) == (0.5, 0.0)
    assert weighed.to_dict()["inference"] == 0.5 and alike.to_dict()["inference"] == 0.0
    assert "the layouts weighed by the cards played (inference 0.5)" in weighed.format()
    assert "weighed by the cards played" not in alike.format()
    # The text names the model the figures come from: the exact search, not sampling.
    from prefsolve.analysis.advice import _MODEL, _MODEL_EXACT
    assert _MODEL_EXACT in weighed.format() and _MODEL not in weighed.format()
    # The figures are the weighted means: a card's tricks differ from the plain mean of its layouts.
    means = {s.card: s.tricks_mean for s in weighed.cards}
    plain = {card: sum(t) / len(t) for card, t in weighed.values}
    weights = [w for _lay, w in weighed.weighted]
    for card, totals in weighed.values:
        assert means[card] == pytest.approx(sum(w * t for w, t in zip(weights, totals)) / sum(weights))
    assert any(means[c] != pytest.approx(plain[c]) for c in means)
