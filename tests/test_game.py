"""One deal as played (prefsolve.game): the state machine, the record and the session.

The deal of most tests is the README's example. Seat 2 holds ♠KQ ♣J8 ♦AQJ ♥AJT; after two
passes he wins on 6NT, discards ♠8 ♣8 (the solver's best) and seat 0 whists alone.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from prefsolve.auction import Call
from prefsolve.cards import Card, Cards, Hand
from prefsolve.contract import Contract
from prefsolve.deal import Deal
from prefsolve.errors import GameError, ScoringError
from prefsolve.game import (
    MOVE_FIELDS,
    DealState,
    Declaration,
    Forfeit,
    GameRecord,
    Session,
    load_session,
    parse_decision,
)
from prefsolve.rules import Rules
from prefsolve.scoring import contract_balance, sheet_from_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
SIX_NT = Declaration(Contract.parse("6NT"), Cards.parse("S8 C8"))


def bid_6nt(rules="sochi"):
    state = DealState(EXAMPLE, rules)
    for call in ("pass", "pass", "6NT"):
        state.apply(call)
    return state


def play_out(state, choose=lambda options: options[0]):
    """Play the rest of the deal, each card chosen from the legal ones."""
    while not state.is_over():
        state.apply(choose(state.options()))
    return state


def test_a_deal_asks_for_each_kind_of_move_in_the_rules_order():
    state = bid_6nt()
    assert (state.kind, state.to_move, state.declarer, str(state.bid)) == ("declaration", 2, 2, "6NT")
    assert [str(c) for c in state.options()] == ["6NT", "7S", "7C", "7D", "7H", "7NT", "8S", "8C", "8D", "8H",
                                                 "8NT", "9S", "9C", "9D", "9H", "9NT", "10S", "10C", "10D", "10H",
                                                 "10NT"]
    assert len(state.holding(2)) == 12 and state.can_concede()
    state.apply(SIX_NT)
    # The first defender (the declarer's left, seat 0) speaks, then the second.
    assert (state.kind, state.to_move, state.options()) == ("whist", 0, ("whist", "pass"))
    state.apply("whist")
    assert (state.kind, state.to_move) == ("whist", 1)
    state.apply("pass")
    # A lone whister chooses an open or closed defence (RULES.md §3.2).
    assert (state.kind, state.to_move, state.options()) == ("defence", 0, ("open", "closed"))
    state.apply("open")
    assert (state.kind, state.to_move, state.leader) == ("card", 0, 0)
    state.apply(state.options()[0])
    # Seat 1 is the passer: the whister plays his cards in the open defence.
    assert (state.to_move, state.decider, state.director) == (1, 0, 0)
    assert [m.phase for m in state.moves] == ["bidding"] * 3 + ["talon"] + ["whisting"] * 3 + ["play"]
    assert state.moves[-1].by == 0 and state.moves[-2].by == 0 and state.moves[-2].kind == "defence"


def test_illegal_moves_name_the_move_its_seat_and_the_rule():
    state = DealState(EXAMPLE)
    state.apply("6C")
    with pytest.raises(GameError, match=r"^move 2 \(call of seat 1\): 6S is illegal: §2\.2: a bid must be higher"):
        state.apply("6S")
    state = bid_6nt()
    with pytest.raises(GameError, match=r"move 4 \(declaration of seat 2\): discard ♠A ♠8 must be two different "
                                        r"cards of the declarer's 12"):
        state.apply(Declaration(Contract.parse("6NT"), Cards.parse("SA S8")))
    with pytest.raises(GameError, match="the declarer took the talon: name the two cards he discards"):
        state.apply(Declaration(Contract.parse("7NT")))
    state.apply(Declaration(Contract.parse("7NT"), Cards.parse("S8 C8")))
    with pytest.raises(GameError, match=r"move 5 \(whist of seat 0\): half is illegal: §3\.2: only the second"):
        state.apply("half")
    state.apply("pass")
    state.apply("whist")
    state.apply("closed")
    with pytest.raises(GameError, match=r"move 8 \(card of seat 0\): cannot play SK .* not in seat 0's hand "
                                        r".*; seat 2 holds it"):
        state.apply("SK")
    with pytest.raises(GameError, match="a card is text"):
        state.apply(7)


def test_the_talon_is_shown_when_taken_and_turned_card_by_card_in_all_pass():
    state = DealState(EXAMPLE)
    assert state.shown_talon() is None
    state = bid_6nt()
    assert state.shown_talon() == Hand.parse("8.Q.-.-")
    allpass = DealState(EXAMPLE, turn="CQ S8")
    for _ in range(3):
        allpass.apply("pass")
    # §4.3: the talon cards are turned one at a time, each leading one of tricks 1 and 2.
    assert allpass.shown_talon() == Hand.parse("-.Q.-.-")
    for _ in range(3):
        allpass.apply(allpass.options()[0])
    assert allpass.shown_talon() == Hand.parse("8.Q.-.-")
    rostov = DealState(EXAMPLE, "rostov")
    for _ in range(3):
        rostov.apply("pass")
    assert rostov.shown_talon() is None and rostov.position.talon_mode == "ignore"


def test_hands_lie_face_up_in_an_open_defence_and_after_the_first_trick_of_misere():
    state = bid_6nt()
    state.apply(SIX_NT)
    state.apply("whist")
    state.apply("pass")
    closed = state.copy()
    state.apply("open")
    assert set(state.shown_hands()) == {0, 1}
    closed.apply("closed")
    assert closed.shown_hands() == {} and closed.decider == closed.to_move
    misere = DealState(EXAMPLE)
    for call in ("misere", "pass", "pass"):
        misere.apply(call)
    misere.apply(Declaration(Contract.misere(), Cards.parse("HK CK")))
    assert misere.kind == "card" and misere.shown_hands() == {}     # no whist calls on misère
    for _ in range(3):
        misere.apply(misere.options()[0])
    assert set(misere.shown_hands()) == {1, 2}


def test_a_pass_out_counts_as_made_and_scores_as_the_rules_settle_it():
    state = bid_6nt()
    state.apply(SIX_NT)
    state.apply("pass")
    state.apply("pass")
    assert state.is_over() and state.position is None
    declarer, first, second = contract_balance("6NT", 6, ("pass", "pass"))
    assert state.balances() == (first, second, declarer)
    assert state.outcome().tricks is None


def test_a_played_deal_settles_its_tricks_and_a_concession_its_three_undertricks():
    state = bid_6nt()
    state.apply(SIX_NT)
    state.apply("whist")
    state.apply("whist")     # two whisters: played closed, nobody chooses
    assert state.kind == "card"
    play_out(state)
    tricks = state.tricks_won
    assert sum(tricks) == 10 and sum(state.balances()) == 0
    declarer, first, second = contract_balance("6NT", tricks[2], ("whist", "whist"), open=False,
                                               defender_tricks=(tricks[0], tricks[1]))
    assert state.balances() == (first, second, declarer)
    conceded = bid_6nt()
    conceded.apply(Declaration(Contract.parse("6NT"), None, True))
    assert conceded.is_over()
    # «без трёх»: 2 × 3 into the declarer's mountain, settled (RULES.md §3.1, §6.3): -40 and +20 each.
    assert conceded.balances() == (20, 20, -40)
    misere = DealState(EXAMPLE)
    for call in ("misere", "pass", "pass"):
        misere.apply(call)
    with pytest.raises(GameError, match="misère cannot be conceded"):
        misere.apply(Declaration(Contract.misere(), None, True))


def test_a_forced_move_has_one_option_and_a_declaration_is_forced_only_without_talon():
    stalingrad = Rules.profile("sochi").replace(stalingrad=True)
    state = DealState(EXAMPLE, stalingrad)
    for call in ("6S", "pass", "pass"):
        state.apply(call)
    assert state.forced() is None           # the discard is a choice
    state.apply(Declaration(Contract.parse("6S"), Cards.parse("S8 C9")))
    assert state.options() == ("whist",) and state.forced() == "whist"      # §3.5
    classic = DealState(EXAMPLE, "classic")
    for call in ("pass", "pass", "10NT-hand"):
        classic.apply(call)
    assert not classic.talon_taken and classic.forced() == Declaration(Contract.parse("10NT-hand"))
    assert classic.apply(classic.forced()).forced and not state.moves[3].forced


def test_the_whist_call_words_and_cards_are_read_as_the_rest_of_prefsolve_reads_them():
    assert parse_decision("call", "семь первых") == Call.parse("7S")
    assert parse_decision("whist", "полвиста") == "half"
    assert parse_decision("card", "♥10") == Card.parse("HT")
    assert parse_decision("declaration", {"contract": "мизер", "discard": ["HK", "HA"]}) == \
        Declaration(Contract.misere(), Cards.parse("HK HA"))
    with pytest.raises(GameError, match="the defence is \"open\" or \"closed\""):
        parse_decision("defence", "светлая")


# -- records and sessions ------------------------------------------------------------

@st.composite
def played_states(draw):
    """A deal played to its end by legal moves hypothesis chooses (few bids, to reach the later phases)."""
    deal = Deal.random(draw(st.integers(0, 2**32 - 1)))
    rules = Rules.profile(draw(st.sampled_from(["sochi", "leningrad", "rostov", "classic"])))
    state = DealState(deal, rules)
    while not state.is_over():
        options = state.options()
        if state.kind == "declaration":
            twelve = sorted(state.holding(state.to_move))
            discard = (Cards(draw(st.lists(st.sampled_from(twelve), min_size=2, max_size=2, unique=True)))
                       if state.talon_taken else None)
            state.apply(Declaration(draw(st.sampled_from(options)), discard))
        elif state.kind == "call" and len(state.calls) < 3 and draw(st.booleans()):
            state.apply(options[0])         # a pass: all-pass deals too
        else:
            state.apply(draw(st.sampled_from(options)))
    return state


@given(played_states(), st.integers(0, 2))
def test_a_session_reads_back_what_it_writes(state, first_hand):
    record = GameRecord.of(state, first_hand=first_hand)
    session = Session(("Ann", "Bob", "Cid"), state.rules, (record,))
    text = json.dumps(session.to_dict())
    assert Session.from_dict(json.loads(text)) == session
    assert record.balances() == tuple(state.balances()[(t - first_hand) % 3] for t in range(3))


@given(played_states())
def test_a_deal_with_its_cards_scores_as_the_same_deal_with_only_its_result(state):
    session = Session(("A", "B", "C"), state.rules, (GameRecord.of(state, first_hand=1),))
    full = session.to_dict()
    outcome_only = {**full, "deals": [{k: v for k, v in d.items() if k not in MOVE_FIELDS}
                                      for d in full["deals"]]}
    assert Session.from_dict(outcome_only).sheet() == session.sheet()
    assert sheet_from_game(outcome_only).to_dict() == session.sheet().to_dict()


@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov", "classic", "four_players"])
def test_old_game_files_still_read_and_score_as_before(name):
    data = json.loads((ROOT / "examples" / f"{name}.json").read_text(encoding="utf-8"))
    session = Session.from_dict(data)
    assert session.sheet().to_dict() == sheet_from_game(data).to_dict()
    assert Session.from_dict(session.to_dict()).sheet().to_dict() == session.sheet().to_dict()


def record_of(state, **extra):
    session = Session(("A", "B", "C"), state.rules, (GameRecord.of(state),))
    data = session.to_dict()
    data["deals"][0].update(extra)
    return data


def test_a_record_with_an_illegal_move_names_the_deal_the_move_and_the_rule():
    state = bid_6nt()
    state.apply(SIX_NT)
    state.apply("whist")
    state.apply("whist")
    play_out(state)
    data = record_of(state)
    data["deals"][0]["played"][4] = data["deals"][0]["played"][3]
    with pytest.raises(GameError, match=r"^deal 1: move 11 \(card of seat [0-2]\): cannot play .* already played"):
        Session.from_dict(data)
    with pytest.raises(GameError, match=r"^deal 1: move 4: the auction is over, but the record has 1 more call"):
        Session.from_dict(record_of(state, calls=["pass", "pass", "6NT", "7S"]))
    with pytest.raises(GameError, match=r"^deal 1: move 4 \(declaration of seat 2\): declaring 6S is illegal"):
        Session.from_dict(record_of(state, contract="6S"))


def test_a_record_whose_result_contradicts_its_moves_is_refused():
    state = bid_6nt()
    state.apply(SIX_NT)
    state.apply("pass")
    state.apply("pass")
    with pytest.raises(GameError, match="\"declarer\": 'A' does not match the moves, which give 'C'"):
        Session.from_dict(record_of(state, declarer="A"))
    state = bid_6nt()
    state.apply(SIX_NT)
    state.apply("whist")
    state.apply("whist")
    play_out(state)
    wrong = {"A": 10, "B": 0, "C": 0}
    with pytest.raises(GameError, match="\"tricks\""):
        Session.from_dict(record_of(state, tricks=wrong))


def test_an_unfinished_record_needs_a_forfeit_and_a_forfeited_one_has_no_score():
    state = bid_6nt()
    forfeit = Forfeit(state.decider, len(state.moves) + 1, "no answer")
    session = Session(("A", "B", "C"), state.rules, (GameRecord.of(state, forfeit=forfeit),))
    data = session.to_dict()
    assert data["deals"][0]["forfeit"] == {"player": "C", "move": 4, "reason": "no answer"}
    back = Session.from_dict(data)
    assert back == session
    with pytest.raises(GameError, match="deal 1 was forfeited by 'C' at move 4"):
        back.sheet()
    wrong = {**data, "deals": [{**data["deals"][0], "forfeit": {"player": "A", "move": 4, "reason": ""}}]}
    with pytest.raises(GameError, match="move 4 was seat 2's to decide, not that of 'A'"):
        Session.from_dict(wrong)
    del data["deals"][0]["forfeit"]
    with pytest.raises(GameError, match=r"the record stops at move 4 \(declaration of seat 2\)"):
        Session.from_dict(data)


def test_json_lines_of_one_session_are_joined_and_of_other_players_refused():
    one = {"players": ["A", "B", "C"], "deals": [{"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}}]}
    two = {"players": ["A", "B", "C"], "deals": [{"all_pass": True, "tricks": {"A": 2, "B": 3, "C": 5}}]}
    session = load_session(json.dumps(one) + "\n" + json.dumps(two) + "\n")
    assert len(session.records) == 2
    # The second all-pass in a row is priced at the second stage (RULES.md §5.8): 2 a trick after the
    # amnesty of 2, so 0 4 6 and then 0 2 6.
    assert session.sheet().mountain == (Fraction(0), Fraction(6), Fraction(12))
    with pytest.raises(ScoringError, match="line 2: its players or rules differ"):
        load_session(json.dumps(one) + "\n" + json.dumps({**two, "players": ["A", "B", "D"]}))
    with pytest.raises(ScoringError, match="not a JSON game file"):
        load_session("{")


def test_the_examples_of_the_game_format_read_and_score_as_it_says():
    text = (ROOT / "docs" / "GAME_FORMAT.md").read_text(encoding="utf-8")
    blocks = [b.split("\n```", 1)[0] for b in text.split("```json\n")[1:]]
    sessions = [Session.from_dict(json.loads(b)) for b in blocks]
    assert len(sessions) == 4
    # The 7♥ made by Cid with Ann whisting alone and open: 4 into his pool, Ann writes 4 × 3 whists.
    seven = sessions[1].records[0]
    assert seven.balances() == (Fraction(-4, 3), Fraction(-40, 3), Fraction(44, 3))
    assert [m.by for m in seven.moves if m.kind == "card"][1] == 0      # Ann plays Bob's ♠T
    assert sessions[0].sheet() == Session.from_dict({**json.loads(blocks[0])}).sheet()
    allpass, misere = sessions[2].records
    assert allpass.outcome.tricks == (4, 1, 5) and misere.first_hand == 1 and misere.outcome.tricks[1] == 0
    forfeited = sessions[3].records[0]
    assert forfeited.forfeit.move == 2 and forfeited.outcome is None
