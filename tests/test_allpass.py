"""All-pass guarantees: reference agreement, the guarantee property, talon modes."""

import random

import pytest
from hypothesis import given, strategies as st

from prefsolve import Card, Deal, Hand, solve
from prefsolve.allpass import allpass_table, solve_allpass
from prefsolve.engine import Solver
from prefsolve.errors import DealError, RulesError, SeatError
from prefsolve.play import Position, canonical_turn

import reference as ref
from helpers import hands_text
from strategies import deals, seats

SOLVER = Solver(16)
DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def test_endings_agree_with_reference_with_and_without_turned_talon_cards():
    rng = random.Random(21)
    for _ in range(150):
        cards = rng.randint(1, 4)
        hands, rest = ref.deal_with_rest(rng, cards)
        turn = rest[:rng.randint(1, min(2, cards))]
        for player in range(3):
            assert solve_allpass(hands_text(hands), player, talon_mode="ignore").tricks == ref.solve(
                hands, player, None, True, 0)
            assert Position(hands_text(hands), seat=player, strain="allpass", turn=turn).value() == ref.solve(
                hands, player, None, True, 0, (), None, turn)


def talon_led_minimax(deal, player, turn):
    """All-pass value with the two talon-led tricks searched here, card by card.

    Tricks 1 and 2 follow the reference's rules (seats 0, 1, 2 play to the
    talon card; the highest card of its suit played by a player wins); the
    remaining 8 tricks are a plain misère position for the core, so the
    core's own talon handling is not used.
    """
    hands = [[str(c) for c in h] for h in deal.hands]
    turn = [str(c) for c in turn]

    def trick(k, plays, won):
        if len(plays) == 3:
            winner = ref.trick_winner(plays, ref.suit(turn[k]), None)
            won = won + (winner == player)
            if k == 1:
                masks = [Hand.parse(" ".join(h)).mask for h in hands]
                return won + SOLVER.value(masks, player, -1, True, winner)
            return trick(1, [], won)
        seat = len(plays)
        values = []
        for card in ref.legal(hands[seat], ref.suit(turn[k]), None):
            hands[seat].remove(card)
            values.append(trick(k, plays + [(seat, card)], won))
            hands[seat].append(card)
        return min(values) if seat == player else max(values)

    return trick(0, [], 0)


def leaves(deal, turn):
    n = 1
    for card in turn:
        for h in deal.hands:
            n *= sum(c.suit == card.suit for c in h)
    return n


def test_talon_led_starts_of_real_deals_agree_with_a_separate_search():
    checked = 0
    for seed in range(200):
        deal = Deal.random(seed)
        turn = canonical_turn(deal.talon)
        if any(not any(c.suit == t.suit for c in h) for t in turn for h in deal.hands):
            continue  # a void means 10 choices: too slow for this test
        if leaves(deal, turn) > 2000:
            continue
        for player in range(3):
            assert solve_allpass(deal, player).tricks == talon_led_minimax(deal, player, turn)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def play_out(pos, player, player_best, choose):
    """Play to the end: ``player`` best if player_best else the others best; the
    rest play ``choose(legal cards)``."""
    while not pos.is_over():
        seat = pos.to_move
        if (seat == player) == player_best:
            card = pos.best_cards()[0]
        else:
            card = choose(pos.legal_cards())
        pos.push(card)
    return pos.tricks_won[player]


@given(deals(talon=True), seats(), st.sampled_from(["lead", "ignore"]), st.data())
def test_guarantee_holds_against_any_play_and_is_forced_by_best_play(deal, player, talon, data):
    def choose(cards):
        return data.draw(st.sampled_from(cards))

    guarantee = solve_allpass(deal, player, talon_mode=talon).tricks
    # P playing for the guarantee never takes more, whatever the others do ...
    assert play_out(Position(deal, seat=player, strain="allpass", talon_mode=talon), player, True, choose) <= guarantee
    # ... and the others playing against P give him at least as many, whatever P does.
    assert play_out(Position(deal, seat=player, strain="allpass", talon_mode=talon), player, False, choose) >= guarantee


@pytest.mark.parametrize("seed", range(8))
def test_talon_ignore_is_misere_solving_with_first_hand_leading(seed):
    deal = Deal.random(seed)
    for player in range(3):
        sol = solve_allpass(deal, player, talon_mode="ignore")
        assert sol.tricks == solve(deal, player, strain="misere", leader=0, talon_mode="ignore").tricks
        assert (sol.seat, sol.talon_mode, sol.turn) == (player, "ignore", ())


def test_without_a_talon_the_hands_are_played_alone():
    ending = "AK.-.-.- QJ.-.-.- T9.-.-.-"
    for p in range(3):
        sol = solve_allpass(ending, p)
        assert sol.talon_mode == "ignore" and sol.tricks == solve_allpass(ending, p, talon_mode="ignore").tricks


def test_turn_order_matters_and_defaults_to_the_canonical_order():
    deal = Deal.parse(DEAL)
    assert canonical_turn(deal.talon) == (Card.parse("S8"), Card.parse("CQ"))
    assert canonical_turn(Hand.parse("-.-.7K.-")) == (Card.parse("DK"), Card.parse("D7"))
    for player in range(3):
        default = solve_allpass(deal, player).tricks
        assert default == solve_allpass(deal, player, turn="S8 CQ").tricks
    assert [solve_allpass(deal, 0, turn=t).tricks for t in ("S8 CQ", "CQ S8")] == [4, 3]
    assert allpass_table(deal, turn=[Card.parse("CQ"), "S8"]).tricks == (3, 2, 7)


def test_table_guarantees_and_lines():
    t = allpass_table(DEAL)
    assert t.tricks == (4, 2, 7)
    assert [str(c) for c in t.turn] == ["S8", "CQ"]
    for p, line in enumerate(t.lines):
        assert line.tricks == t.tricks[p] == line.tricks_won[p]
        assert [str(x.talon_card) for x in line.played_tricks[:2]] == ["S8", "CQ"]
        assert all(x.talon_card is None for x in line.played_tricks[2:]) and len(line.played_tricks) == 10
        pos = Position(DEAL, seat=p, strain="allpass")
        for card in line.cards:
            pos.push(card)
        assert pos.tricks_won == line.tricks_won
    doc = t.to_dict()
    assert doc["tricks"] == [4, 2, 7] and doc["talon_mode"] == "lead" and doc["turn"] == ["S8", "CQ"]
    assert doc["nodes"] == t.nodes > 0 and t == allpass_table(DEAL) and hash(t) == hash(allpass_table(DEAL))
    text = t.format()
    assert "♠8 then ♣Q turned" in text and "Seat 2 holds himself to 7 tricks:" in text


def test_turned_cards_of_a_study_position_as_in_play():
    # An ending without talon with turned cards: the same position as `play --strain allpass --turn`.
    ending, turn = "AK.-.-.- QJ.-.-.- T9.-.-.-", "S8"
    for p in range(3):
        position = Position(ending, seat=p, strain="allpass", turn=turn)
        assert solve_allpass(ending, p, turn=turn).tricks == position.value()
    t = allpass_table(ending, turn=turn)
    assert [str(c) for c in t.turn] == ["S8"] and t.tricks == tuple(solve_allpass(ending, p, turn=turn).tricks
                                                                   for p in range(3))


@pytest.mark.parametrize("call, error, message", [
    (lambda: solve_allpass(DEAL, 0, turn="S8 CK"), DealError, "must be the deal's two talon cards"),
    (lambda: solve_allpass(DEAL, 0, turn="S8 CQ HA"), DealError, "two talon cards"),
    (lambda: solve_allpass(DEAL, 0, turn="S8 S8"), DealError, "two talon cards"),
    (lambda: solve_allpass(DEAL, 3), SeatError, "seat must be a seat 0, 1 or 2, got 3"),
    (lambda: solve_allpass(DEAL, 0, talon_mode="first"), RulesError, "unknown talon mode 'first'"),
    (lambda: solve_allpass(DEAL, 0, talon_mode="take"), RulesError, "in all-pass nobody takes the talon"),
    (lambda: solve_allpass(DEAL, 0, talon_mode="ignore", turn="S8 CQ"), DealError,
     "with the talon ignored no talon card is played"),
    (lambda: solve_allpass("AK.-.-.- QJ.-.-.- T9.-.-.-", 0, talon_mode="lead"), DealError,
     "needs a deal with a talon"),
    (lambda: solve_allpass("AK.-.-.- QJ.-.-.- T9.-.-.-", 0, turn="SA"), DealError,
     "a talon card cannot also be in a hand"),
    (lambda: allpass_table(DEAL.rsplit(" ", 1)[0], talon_mode="lead"), DealError, "needs a deal with a talon"),
])
def test_bad_allpass_input(call, error, message):
    with pytest.raises(error, match=message):
        call()
