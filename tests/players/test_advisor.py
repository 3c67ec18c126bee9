"""The advisor (prefsolve.players.advisor): the analyzer's recommendation at each decision."""

import pytest

from prefsolve.cards import Cards
from prefsolve.contract import Contract
from prefsolve.deal import Deal
from prefsolve.errors import PlayerError
from prefsolve.game import DealState, Declaration
from prefsolve.players import make_player
from prefsolve.players.advisor import Advisor
from prefsolve.players.base import seat_view
from prefsolve.players.runner import play_deal

EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def test_its_options_are_read_from_its_name():
    a = make_player("advisor:samples=7,tolerance=0.5,auction=off,seed=2,endings=0,inference=0.2")
    assert (a.samples, a.tolerance, a.auction, a.seed, a.endings, a.inference) == (7, 0.5, False, 2, 0, 0.2)
    for spec, message in [("advisor:samples=0", "samples must be a whole number 1 or more"),
                          ("advisor:samples=many", "takes a int, got 'many'"),
                          ("advisor:auction=maybe", "is on or off"),
                          ("advisor:tolerance=-1", "tolerance must be a number of tricks 0 or more"),
                          ("advisor:agreed=-1", "agreed must be a whole number 0 or more"),
                          ("advisor:endings=-1", "endings must be a whole number 0 or more"),
                          ("advisor:inference=1", "inference option is a chance from 0 up to 1"),
                          ("advisor:depth=3", "takes the options samples, tolerance, auction, seed, agreed, "
                                              "endings, inference, not 'depth'")]:
        with pytest.raises(PlayerError, match=message):
            make_player(spec)


def test_its_decision_is_the_recommendation_of_the_analysis_it_rests_on():
    state = DealState(EXAMPLE)
    for call in ("pass", "pass"):
        state.apply(call)
    view = seat_view(state, 2, seed=5)
    advisor = Advisor(samples=20)
    analysis = advisor.analysis(view)
    assert analysis.seat == 2 and analysis.samples == 20 and analysis.sampling.seed == 5
    call = advisor.decide(view)
    assert call in view.options
    assert str(call) == analysis.recommendation.call or str(call.contract) == analysis.recommendation.call


def test_the_declarer_concedes_when_the_best_contract_is_expected_to_cost_more():
    state = DealState(EXAMPLE)
    for call in ("pass", "pass", "6NT"):
        state.apply(call)
    view = seat_view(state, 2, seed=1)
    advisor = Advisor(samples=8)
    analysis = advisor.analysis(view)
    decision = advisor.decide(view)
    rec = analysis.recommendation
    # Conceding 6NT «без трёх» writes 2 × 3 into the mountain: -40 whists settled (RULES.md §3.1, §6.3).
    # Seat 2 takes 4 tricks in no-trump double-dummy: the advice is expected to lose more than that.
    assert rec.expected < -40
    assert decision == Declaration(Contract.parse("6NT"), rec.discard, True)
    assert len(decision.discard) == 2


def test_the_lone_whister_plays_open_and_advises_his_partners_card_with_both_hands_known():
    state = DealState(EXAMPLE)
    for move in ("pass", "pass", "6NT", Declaration(Contract.parse("6NT"), Cards.parse("S8 C8")), "whist", "pass"):
        state.apply(move)
    advisor = Advisor(samples=6)
    assert advisor.decide(seat_view(state, 0)) == "open"
    state.apply("open")
    state.apply("SA")
    view = seat_view(state, state.decider, seed=2)
    assert (view.seat, view.to_play) == (0, 1)
    advice = advisor.analysis(view)
    assert advice.seat == 1 and dict(advice.sampling.known_cards)[0] == state.deal.hands[0]
    assert advisor.decide(view) in view.options


@pytest.mark.parametrize("spec", ["advisor:samples=6", "advisor:samples=6,auction=off"])
def test_three_advisors_play_a_deal_the_same_way_twice(spec):
    deal = Deal.random(11)
    first = play_deal(deal, [make_player(spec) for _ in range(3)], seed=4)
    assert first.forfeit is None and first.record.outcome is not None
    assert play_deal(deal, [make_player(spec) for _ in range(3)], seed=4).record == first.record
    asked = [c for m, c in zip(first.record.moves, first.solver_calls) if not m.forced]
    assert asked and all(c > 0 for c in asked[:3])     # each bid is an analysis that solves layouts


def test_calls_that_fit_no_hand_are_dropped_from_the_model_not_a_failure():
    # Random players bid whatever they like; the advisor's auction model may then find no hand
    # that fits their calls. It decides all the same, without the model for that decision.
    for seed in range(3):
        game = play_deal(Deal.random(seed), [make_player("random"), make_player("advisor:samples=4"),
                                             make_player("random")], seed=seed)
        assert game.forfeit is None
