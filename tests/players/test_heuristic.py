"""The heuristic player (prefsolve.players.heuristic): book rules of thumb, case by case.

Each case sets up a position by the rules (a deal, the calls, the declaration,
the whist calls, the cards played) and asks the player for the next decision,
which the case states from the book: the count of a hand, the bid, the whist,
the discard, second hand low, covering an honour, third hand high, misère
and all-pass technique. A property plays whole deals by three heuristics
under every profile: every move legal, the same games twice, no solver call.
"""

from hypothesis import given, settings, strategies as st

from prefsolve.auction import Call, seniority
from prefsolve.cards import ALL_CARDS, Card, Cards, Hand
from prefsolve.contract import Contract
from prefsolve.deal import Deal
from prefsolve.game import DealState, Declaration
from prefsolve.match import play_match
from prefsolve.players import make_player
from prefsolve.players.base import seat_view
from prefsolve.players.heuristic import (
    HeuristicPlayer,
    catch_rounds,
    declarer_count,
    defender_count,
    misere_discard,
    misere_hand,
)
from prefsolve.players.runner import play_deal
from prefsolve.rules import Rules

#: Seat 0 holds five top spades and the ♣A; seat 1 ♦K8 under the declarer's ♦QJ7.
SPADES = "AKQJT.A.QJ7.9 987.KQ.K8.AKQ -.JT98.AT9.JT8 -.7.-.7"


def decision(state: DealState, seat: int | None = None):
    """The heuristic's decision for the seat that decides next (or ``seat``)."""
    seat = state.decider if seat is None else seat
    return HeuristicPlayer().decide(seat_view(state, seat, seed=1))


def played(deal: str, *moves, rules: str | Rules = "sochi") -> DealState:
    state = DealState(deal, rules)
    for move in moves:
        state.apply(move)
    return state


def spades_defended(*cards: str) -> DealState:
    """6♠ by first hand on SPADES, both defenders whisting, then ``cards``."""
    return played(SPADES, "6S", "pass", "pass", Declaration(Contract.parse("6S"), Cards.parse("H9 H7")),
                  "whist", "whist", *cards)


def deal_around(hand: str, seat: int = 0, seed: int = 0) -> str:
    """A deal in which ``seat`` holds ``hand``, the other cards dealt from ``seed``."""
    import random

    mine = Hand.parse(hand)
    assert len(mine) == 10, hand
    rest = [c for c in ALL_CARDS if c not in mine]
    random.Random(seed).shuffle(rest)
    hands = [Hand(rest[:10]), Hand(rest[10:20])]
    hands.insert(seat, mine)
    return str(Deal(hands, Hand(rest[20:])))


# -- counting ----------------------------------------------------------------------
def test_a_hand_counts_its_trumps_and_aces_with_the_books_part_tricks():
    # ♠AKQJ8 five tricks, two side aces: seven.
    assert declarer_count(Hand.parse("AKQJ8.A7.A8.8"), "S") == 7
    # ♠KQJ98 loses the ace (4), ♣A 1, ♦KQ8 the marriage ¾.
    assert declarer_count(Hand.parse("KQJ98.A.KQ8.8"), "S") == 5.75
    # A defender: ♣A, ♦A, a guarded ♥K ¾; a void or singleton with a trump to ruff adds ½.
    assert defender_count(Hand.parse("87.A8.A97.K98"), "S") == 2.75
    assert defender_count(Hand.parse("87.A.A97.K987"), "S") == 3.25
    assert defender_count(Hand.parse("87.98.T98.987"), "S") == 0


def test_a_misere_hand_is_clean_by_the_ladder_or_one_discard_away():
    assert misere_hand(Hand.parse("79J.79.79.79J"))
    assert misere_hand(Hand.parse("79J.79.79.79A"))       # the ace goes into the discard
    assert not misere_hand(Hand.parse("8TQ.79.79.79J"))   # no seven under ♠8: two cards to fix
    # The discard puts away the dangerous cards, highest first.
    assert misere_discard(Hand.parse("79JA.79.79.79JQ")) == Cards.parse("SA HQ")


# -- bidding -----------------------------------------------------------------------
def test_it_bids_six_spades_with_a_clear_six_and_passes_with_a_weak_hand():
    strong = played(deal_around("AKQJ8.A7.A8.8"))
    assert decision(strong) == Call.parse("6S")
    weak = played(deal_around("J98.T97.KJ8.T"))
    assert decision(weak) == Call.parse("pass")


def test_it_stops_when_the_auction_goes_above_its_hand():
    # Seat 1 counts six (five spades to the ♠AKQ and an ace) and a trick of talon: up to 7♠.
    deal = deal_around("AKQ87.A7.87.8", seat=1, seed=3)
    assert decision(played(deal, "6S")) == Call.parse("6C")
    assert decision(played(deal, "7S")) == Call.parse("pass")


def test_a_hand_that_would_take_tricks_in_all_pass_bids_a_thinner_six_while_nobody_has_bid():
    hand = "KT8.Q.AQJ.AK8"      # counts 4½, every card unsafe in all-pass (about six tricks there)
    assert decision(played(deal_around(hand, seat=0))) == Call.parse("6S")
    assert decision(played(deal_around(hand, seat=2), "pass", "pass")) == Call.parse("6S")
    assert decision(played(deal_around(hand, seat=1), "6S")) == Call.parse("pass")   # no all-pass to fear


def test_it_holds_where_the_rules_let_a_senior_hand_hold():
    deal = deal_around("AKQ87.A7.87.8", seat=0, seed=3)
    state = played(deal, "6S", "pass", "6C")          # seat 0 is senior to seat 2
    assert decision(state).kind == "hold"


def test_it_bids_misere_as_its_first_call_with_a_perfect_misere_hand():
    state = played(deal_around("79J.79.79.79J", seat=2), "6S", "pass")
    assert decision(state) == Call.parse("misere")


# -- talon and declaration -----------------------------------------------------------
def test_it_declares_its_best_strain_never_below_the_bid_and_discards_its_losers():
    state = played(SPADES, "6S", "pass", "pass")
    d = decision(state)
    assert d.contract == Contract.parse("6S") and not d.conceded
    assert set(d.discard) <= {Card.parse(c) for c in ("H9", "H7", "C7", "D7")}
    # Won at 7♥ with the same cards it declares a contract the rules allow, never below 7♥.
    state = played(SPADES, "7H", "pass", "pass")
    assert seniority(decision(state).contract, state.rules) >= seniority(Contract.parse("7H"), state.rules)


def test_with_a_trick_to_spare_per_level_it_declares_above_its_bid():
    # Seven solid spades and two aces count nine (the talon, ♣87, adds nothing): 8♠ has one
    # to spare, 9♠ none.
    state = played(deal_around("AKQJT98.A.A7.-", seed=2), "6S", "pass", "pass")
    assert decision(state).contract == Contract.parse("8S")


def test_a_hopeless_declarer_concedes_without_three():
    # Seat 2 holds rags and won 8♠ (others passed): three tricks short of any contract.
    deal = deal_around("9.JT98.T9.JT8", seat=2, seed=5)
    state = played(deal, "pass", "pass", "8S")
    d = decision(state)
    assert d.conceded and d.contract == Contract.parse("8S")


def test_the_misere_declarer_discards_his_unsafe_cards():
    deal = deal_around("79J.79.79.79K", seat=0, seed=2)
    state = played(deal, "misere", "pass", "pass")
    d = decision(state)
    assert d.contract.is_misere and Card.parse("HK") in d.discard


# -- whisting ----------------------------------------------------------------------
def test_it_whists_with_two_aces_and_a_guarded_king_against_six_and_passes_with_rags():
    whister = played(deal_around("87.A8.A97.K98", seat=1, seed=1), "6S", "pass", "pass")
    state = whister.copy()
    state.apply(Declaration(Contract.parse("6S"), Cards(sorted(state.holding(0))[:2])))
    assert decision(state) == "whist"
    rags = played(deal_around("87.98.T98.987", seat=1, seed=1), "6S", "pass", "pass")
    rags.apply(Declaration(Contract.parse("6S"), Cards(sorted(rags.holding(0))[:2])))
    assert decision(rags) == "pass"


def test_the_second_defender_half_whists_after_a_pass_where_the_rules_allow_it():
    def second(rules):
        state = played(deal_around("87.98.T98.987", seat=2, seed=1), "6S", "pass", "pass", rules=rules)
        state.apply(Declaration(Contract.parse("6S"), Cards(sorted(state.holding(0))[:2])))
        state.apply("pass")
        return decision(state)

    assert second("sochi") == "half"
    assert second("classic") == "pass"


def test_a_lone_whister_plays_open():
    state = played(SPADES, "6S", "pass", "pass", Declaration(Contract.parse("6S"), Cards.parse("H9 H7")),
                   "whist", "pass")
    assert state.kind == "defence" and decision(state) == "open"


# -- play ----------------------------------------------------------------------------
def test_the_declarer_draws_trumps_with_his_masters_first():
    assert decision(spades_defended()) == Card.parse("SA")


def test_second_hand_plays_low_and_covers_an_honour_with_an_honour():
    assert decision(spades_defended("D7")) == Card.parse("D8")      # second hand low
    assert decision(spades_defended("DQ")) == Card.parse("DK")      # cover the queen


def test_nothing_is_wasted_on_a_trick_partner_already_wins():
    # The declarer leads ♦J, seat 1 covers with the king: seat 2, last with ♦AT9, plays the nine.
    assert decision(spades_defended("DJ", "DK")) == Card.parse("D9")


def test_third_hand_plays_the_lowest_of_touching_honours():
    # Seat 2 declares; seat 0 leads a low diamond; seat 1 holds ♦KQ9 with the declarer last: the queen.
    deal = "87.A98.87.AK9 9.K.KQ9.QJT87 AKQJT.JT.AJT.- -.Q7.-.-"
    state = played(deal, "pass", "pass", "6S", Declaration(Contract.parse("6S"), Cards.parse("C7 CQ")),
                   "whist", "whist", "D7")
    assert decision(state) == Card.parse("DQ")


# -- misère ------------------------------------------------------------------------
#: Seat 1's misère has one hole, a bare ♠8; seat 0 holds the ♠7 and seat 2 no spade.
MISERE = "79TJQKA.AKQ.-.- 8.79J.79J.79J -.T8.KQT8.KQT8 -.-.A.A"


def test_the_catchers_lead_the_suit_that_catches_the_declarer_from_the_bottom():
    state = played(MISERE, "pass", "misere", "pass", Declaration(Contract.misere(), Cards.parse("DA HA")),
                   "CA", "CJ", "CT")
    assert state.to_move == 0 and state.shown_hands()
    assert decision(state) == Card.parse("S7")
    assert catch_rounds(0b11111101, 0, 0b10) == 1


def test_the_misere_declarer_ducks_with_his_highest_card_under_the_trick():
    state = played(MISERE, "pass", "misere", "pass", Declaration(Contract.misere(), Cards.parse("DA HA")), "CQ")
    assert decision(state) == Card.parse("CJ")


# -- all-pass ----------------------------------------------------------------------
#: Seat 1 holds ♠K98 under seat 0's ♠T; seat 2 only ♠AQJ above it.
ALLPASS = "T7.AKQJ.AKQJ.- K98.T987.T98.- AQJ.-.7.AKQJT9 -.-.-.87"


def test_in_all_pass_it_ducks_with_its_highest_card_and_wins_a_forced_trick_with_its_highest():
    rostov = Rules.profile("rostov")            # the talon plays no part: first hand leads trick 1
    assert decision(played(ALLPASS, "pass", "pass", "pass", "ST", rules=rostov)) == Card.parse("S9")
    assert decision(played(ALLPASS, "pass", "pass", "pass", "ST", "S9", rules=rostov)) == Card.parse("SA")


# -- whole deals -------------------------------------------------------------------
PROFILES = [Rules.profile(p) for p in ("sochi", "leningrad", "rostov", "classic")] + [
    Rules().replace(stalingrad=True), Rules().replace(misere_binding=False),
    Rules().replace(first_lead="left_of_declarer", ten_whist="obligation1")]


@settings(max_examples=40)
@given(order=st.permutations(range(32)), rules=st.sampled_from(PROFILES), allpass_count=st.integers(0, 2),
       seed=st.integers(0, 2 ** 32 - 1))
def test_three_heuristics_play_any_deal_legally_the_same_way_twice_and_without_the_solver(order, rules,
                                                                                         allpass_count, seed):
    cards = [ALL_CARDS[i] for i in order]
    deal = Deal([Hand(cards[0:10]), Hand(cards[10:20]), Hand(cards[20:30])], Hand(cards[30:]))
    game = play_deal(deal, [make_player("heuristic") for _ in range(3)], rules=rules, seed=seed,
                     allpass_count=allpass_count)
    assert game.forfeit is None and game.record.outcome is not None     # every move legal, to the end
    assert not any(game.solver_calls)
    again = play_deal(deal, [make_player("heuristic") for _ in range(3)], rules=rules, seed=seed,
                      allpass_count=allpass_count)
    assert again.record == game.record


def test_over_duplicate_deals_it_clearly_beats_the_random_player():
    result = play_match("heuristic", "random", deals=12, seed=1, jobs=1)
    low, _ = result.stat().interval
    assert result.counted and low > 0
