"""The cheater (prefsolve.players.cheater): exact double-dummy decisions with every card in sight."""

import pytest

from prefsolve.auction import BID
from prefsolve.contract import Contract
from prefsolve.deal import Deal
from prefsolve.errors import PlayerError
from prefsolve.game import DealState
from prefsolve.play import Position
from prefsolve.players import make_player
from prefsolve.players.base import seat_view
from prefsolve.players.runner import play_deal

# Seat 0 holds eight spades from the ace down and the aces of clubs and diamonds: ten sure tricks
# in spades and in no-trump; seat 1 holds the kings and queens of the other suits.
STRONG = Deal.parse("AKQJT987.A.A.- -.KQJT8.KQJ.KQ -.97.T987.JT98 -.-.-.A7")


def test_it_needs_the_whole_deal():
    view = seat_view(DealState(Deal.random(2)), 0)      # not sees_all: no deal in the view
    with pytest.raises(PlayerError, match="needs the whole deal"):
        make_player("cheater").decide(view)


def test_it_bids_a_contract_that_makes_double_dummy():
    call = make_player("cheater").decide(seat_view(DealState(STRONG), 0, sees_all=True))
    assert call.kind == BID and call.contract.level == 10
    pos = Position(STRONG, 0, strain=call.contract.strain)      # with the talon and the best discard
    assert pos.value() >= call.contract.level


def test_it_declares_what_its_discard_makes():
    state = DealState(STRONG)
    for call in ("6S", "pass", "pass"):
        state.apply(call)
    declaration = make_player("cheater").decide(seat_view(state, 0, sees_all=True))
    assert declaration.contract in state.options() and not declaration.conceded
    assert declaration.contract >= Contract.parse("10S")      # ten sure tricks: a 10 is declared
    pos = Position(STRONG, 0, strain=declaration.contract.strain, discard=declaration.discard)
    assert pos.value() >= declaration.contract.level


@pytest.mark.parametrize("seed", range(8))
def test_as_declarer_against_random_defenders_it_takes_at_least_its_double_dummy_tricks(seed):
    deal = Deal.random(seed)
    game = play_deal(deal, [make_player("cheater"), make_player("random"), make_player("random")], seed=seed)
    state = game.record.state()
    if state.declarer != 0 or state.position is None:
        return      # the cheater did not declare a contract that was played on this deal
    start = Position(deal, 0, strain=state.contract.strain, leader=state.leader, discard=state.declaration.discard)
    # Perfect play against defenders who may err: never fewer tricks than the double-dummy value
    # (in misère never more).
    if state.contract.is_misere:
        assert state.tricks_won[0] <= start.value()
    else:
        assert state.tricks_won[0] >= start.value()


def test_its_cards_are_best_cards_of_the_position():
    checked = 0
    for seed in range(30):
        game = play_deal(Deal.random(seed), [make_player("cheater") for _ in range(3)], seed=seed)
        for state, move in game.record.replay():
            if move.kind == "card" and not move.forced and not state.all_pass:
                assert move.decision in state.position.best_cards(state.position.card_values())
                checked += 1
        if checked:
            break
    assert checked > 0      # some deal of the 30 was played as a contract
