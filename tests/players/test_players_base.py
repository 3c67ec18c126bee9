"""What a seat sees (prefsolve.players.base.SeatView) and the players' names.

A view holds what the rules show the seat and nothing more: its own cards, the
calls, the talon once shown, the hands lying face up, the cards played; the
declarer's discard only to him, the whole deal only to a player that sees all.
"""

import json

import pytest
from hypothesis import given, strategies as st

from prefsolve.cards import Cards, Hand
from prefsolve.contract import Contract
from prefsolve.deal import Deal
from prefsolve.errors import PlayerError
from prefsolve.game import DealState, Declaration
from prefsolve.players import make_player, parse_spec
from prefsolve.players.base import Player, SeatView, seat_view

EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def open_defence():
    """6NT by seat 2 with ♠8 ♣8 away; seat 0 whists alone and plays open."""
    state = DealState(EXAMPLE)
    for move in ("pass", "pass", "6NT", Declaration(Contract.parse("6NT"), Cards.parse("S8 C8")),
                 "whist", "pass", "open"):
        state.apply(move)
    return state


def test_a_view_shows_the_seat_its_cards_and_the_talon_once_taken():
    state = DealState(EXAMPLE)
    view = seat_view(state, 0)
    assert view.hand == Hand.parse("A.KT9.KT97.K7") and view.talon is None and view.deal is None
    for call in ("pass", "pass", "6NT"):
        state.apply(call)
    view = seat_view(state, 2)
    assert view.kind == "declaration" and view.phase == "talon" and len(view.hand) == 12
    assert view.dealt == Hand.parse("KQ.J8.AQJ.AJT") and view.talon == Hand.parse("8.Q.-.-")
    assert view.can_concede and view.bid == Contract.parse("6NT")


def test_the_discard_is_known_to_the_declarer_and_the_whole_deal_only_to_a_player_that_sees_all():
    state = open_defence()
    declarer, defender = seat_view(state, 2), seat_view(state, 0)
    assert declarer.discard == Cards.parse("S8 C8") and defender.discard is None
    assert defender.deal is None and seat_view(state, 0, sees_all=True).deal == Deal.parse(EXAMPLE)
    assert seat_view(state, 0, sees_all=True).discard == Cards.parse("S8 C8")


def test_the_lone_whister_of_an_open_defence_plays_his_partners_cards_and_sees_them():
    state = open_defence()
    state.apply(state.options()[0])         # seat 0 leads
    assert state.decider == 0
    view = seat_view(state, state.decider)
    assert (view.seat, view.to_play) == (0, 1)
    assert view.options == state.options() and all(card in view.shown[1] for card in view.options)
    assert view.holding(1) == state.holding(1) and view.holding(2) is None
    # The declarer sees both defenders' hands from the opening lead on.
    assert set(seat_view(state, 2).shown) == {0, 1}


def test_a_view_tells_the_tricks_and_the_cards_on_the_table():
    state = open_defence()
    for _ in range(4):
        state.apply(state.options()[0])
    view = seat_view(state, state.decider)
    assert len(view.tricks) == 2 and view.tricks[0].winner is not None and view.tricks[1].winner is None
    assert view.trick == view.tricks[1].cards and len(view.trick) == 1 and view.played == state.played
    assert view.led_suit == view.trick[0].suit and view.defenders == (0, 1)


@st.composite
def states(draw):
    """A deal stopped at a move hypothesis chooses, reached by legal moves."""
    state = DealState(Deal.random(draw(st.integers(0, 2**32 - 1))))
    for _ in range(draw(st.integers(0, 40))):
        if state.is_over():
            break
        if state.kind == "declaration":
            twelve = sorted(state.holding(state.to_move))
            state.apply(Declaration(draw(st.sampled_from(state.options())), Cards(twelve[:2])))
        elif state.kind == "call" and len(state.calls) < 3 and draw(st.booleans()):
            state.apply("pass")
        else:
            state.apply(draw(st.sampled_from(state.options())))
    return state


@given(states(), st.booleans())
def test_a_view_reads_back_from_its_json(state, sees_all):
    if state.is_over():
        return
    view = seat_view(state, state.decider, seed=11, sees_all=sees_all)
    assert SeatView.from_dict(json.loads(json.dumps(view.to_dict()))) == view


def test_a_view_that_cannot_be_read_is_a_player_error():
    view = seat_view(DealState(EXAMPLE), 0).to_dict()
    with pytest.raises(PlayerError, match="a seat's view that cannot be read: .*hand"):
        SeatView.from_dict({**view, "hand": "AKQ"})
    with pytest.raises(PlayerError, match="KeyError"):
        SeatView.from_dict({k: v for k, v in view.items() if k != "kind"})


def test_players_are_named_with_their_options():
    assert parse_spec("cmd:python bot.py 'two words'") == ("cmd", {"argv": ["python", "bot.py", "two words"]})
    for spec, message in [("", "a player is named by text"), ("cmd:", "names no program"),
                          ("cmd:python 'open", "cannot read the command"),
                          ("random:fast", "takes no options, got 'fast'"),
                          ("chess", "unknown player 'chess'")]:
        with pytest.raises(PlayerError, match=message):
            make_player(spec)


def test_a_player_dispatches_each_kind_to_its_method():
    class Passer(Player):
        name = "passer"

        def call(self, view):
            return view.options[0]

    view = seat_view(DealState(EXAMPLE), 0)
    assert str(Passer().decide(view)) == "pass"
    state = open_defence()
    with pytest.raises(NotImplementedError, match="Passer does not play cards"):
        Passer().decide(seat_view(state, 0))
