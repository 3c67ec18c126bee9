"""Play analysis: Position bookkeeping, legality, card values against the reference."""

import random

import pytest
from hypothesis import given, strategies as st

import prefsolve
from prefsolve import Card, Deal, solve
from prefsolve.errors import CardError, DealError, IllegalPlayError, PrefsolveError, RulesError, SeatError, StrainError
from prefsolve.play import Position, best_line, card_values, mistakes

import reference as ref
from helpers import TRUMPS, hands_text
from strategies import deals, plays, seats, strains

PLAY_STRAINS = ("S", "C", "D", "H", "NT", "misere", "allpass")


def position(deal, counted, strain, **kwargs):
    """A Position counted for ``counted``: the declarer, or the all-pass seat."""
    if strain == "allpass":
        return Position(deal, strain=strain, seat=counted, **kwargs)
    return Position(deal, counted, strain=strain, **kwargs)


def ref_trump(strain):
    return None if strain == "allpass" else TRUMPS[strain]


class RefGame:
    """Independent bookkeeping of a play with the reference's rules and card strings."""

    def __init__(self, hands, declarer, strain, leader=0, turn=()):
        self.hands = [list(h) for h in hands]
        self.declarer, self.trump = declarer, ref_trump(strain)
        self.minimize = strain in ("misere", "allpass")
        self.leader, self.queue = leader, list(turn)
        self.won = [0, 0, 0]
        self.trick = []
        self.talon_card = None
        self._start_trick()

    def _start_trick(self):
        self.talon_card = self.queue.pop(0) if self.queue else None
        if self.talon_card is not None:
            self.leader = 0

    @property
    def led(self):
        if self.talon_card is not None:
            return ref.suit(self.talon_card)
        return ref.suit(self.trick[0]) if self.trick else None

    @property
    def to_move(self):
        return (self.leader + len(self.trick)) % 3

    def legal(self):
        return ref.legal(self.hands[self.to_move], self.led, self.trump)

    def play(self, card):
        led = self.led or ref.suit(card)
        self.hands[self.to_move].remove(card)
        self.trick.append(card)
        if len(self.trick) == 3:
            plays = [((self.leader + i) % 3, c) for i, c in enumerate(self.trick)]
            winner = ref.trick_winner(plays, led, self.trump)
            if winner is None:  # nobody followed a talon card: first hand takes it
                winner = 0
            self.won[winner] += 1
            self.leader, self.trick = winner, []
            if self.hands[0]:
                self._start_trick()

    def value_after(self, card):
        """Declarer's total tricks if ``card`` is played now, by plain minimax."""
        hands = [list(h) for h in self.hands]
        hands[self.to_move].remove(card)
        rest = ref.solve(hands, self.declarer, self.trump, self.minimize, self.leader,
                         self.trick + [card], self.talon_card, self.queue)
        return self.won[self.declarer] + rest


def random_ending_position(rng, strain, talon_led):
    cards = rng.randint(2, 4)
    hands, rest = ref.deal_with_rest(rng, cards)
    turn = rest[:rng.randint(1, min(2, cards))] if talon_led else []
    declarer = rng.randrange(3)
    leader = 0 if turn else rng.randrange(3)
    game = RefGame(hands, declarer, strain, leader, turn)
    played = []
    for _ in range(rng.randint(0, 5)):
        card = rng.choice(game.legal())
        game.play(card)
        played.append(card)
    if turn:
        kwargs = {"turn": " ".join(turn)}
    else:
        kwargs = {"talon_mode": "ignore"}
    return hands, declarer, leader, played, game, kwargs


@pytest.mark.parametrize("strain", PLAY_STRAINS)
def test_card_values_agree_with_reference_on_endings_mid_trick(strain):
    rng = random.Random(hash(strain) % 1000)
    for _ in range(300):
        hands, declarer, leader, played, game, kw = random_ending_position(rng, strain, False)
        pos = position(hands_text(hands), declarer, strain, leader=leader, played=played, **kw)
        assert pos.to_move == game.to_move and list(pos.tricks_won) == game.won
        expected = {c: game.value_after(c) for c in game.legal()}
        got = {str(c): v for c, v in pos.card_values().items()}
        assert got == expected, (hands, declarer, strain, leader, played)


def test_card_values_agree_with_reference_on_talon_led_starts():
    rng = random.Random(5)
    for _ in range(600):
        hands, player, leader, played, game, kw = random_ending_position(rng, "allpass", True)
        got = card_values(hands_text(hands), strain="allpass", seat=player, leader=leader, played=played, **kw)
        expected = {c: game.value_after(c) for c in game.legal()}
        assert {str(c): v for c, v in got.items()} == expected, (hands, kw, played)


def best_of(pos, values):
    return (max if pos.maximizing(pos.to_move) else min)(values.values())


@given(deals(talon=True), strains(allpass=True), seats(), st.data())
def test_best_value_is_the_solved_value_and_best_line_replays_to_it(deal, strain, declarer, data):
    if strain != "allpass":
        deal = deal.without_talon()
    pos = position(deal, declarer, strain)
    start = pos.value()
    if strain != "allpass":
        assert start == solve(deal, declarer, strain=strain, talon_mode="ignore").tricks
    pos, _ = data.draw(plays(pos, max_cards=29))
    values = pos.card_values()
    assert set(values) == set(pos.legal_cards()) and values
    assert best_of(pos, values) == pos.value()
    line = pos.best_line()
    assert line.tricks == pos.value()
    replay = pos.copy()
    for card in line.cards:
        replay.push(card)
    assert replay.is_over()
    assert replay.tricks_won[declarer] == line.tricks and replay.tricks_won == line.tricks_won
    assert list(line.played_tricks) == list(replay.played_tricks[pos.trick_number - 1:])
    assert sum(replay.tricks_won) == 10


def test_start_values_match_solve_for_every_first_lead():
    deal = Deal.random(42).without_talon()
    for strain in ("H", "NT", "misere"):
        values = card_values(deal, 2, strain=strain, leader=1, talon_mode="ignore")
        assert set(values) == set(deal.hands[1])
        pos = Position(deal, 2, strain=strain, leader=1, talon_mode="ignore")
        assert best_of(pos, values) == solve(deal, 2, strain=strain, leader=1, talon_mode="ignore").tricks


@given(deals(talon=True), strains(allpass=True), st.data())
def test_adjacent_cards_of_one_hand_have_equal_values(deal, strain, data):
    pos = position(deal if strain == "allpass" else deal.without_talon(), 0, strain)
    pos, _ = data.draw(plays(pos, max_cards=29))
    values = pos.card_values()
    for card, value in values.items():
        if card.rank < 7:
            above = Card(card.suit, card.rank + 1)
            if above in values:
                assert values[above] == value


@given(deals(talon=True), strains(allpass=True), seats(), seats(), st.data())
def test_push_pop_and_text_round_trip(deal, strain, declarer, leader, data):
    pos = position(deal, declarer, strain, leader=0 if strain == "allpass" else leader,
                   talon_mode=None if strain == "allpass" else "ignore")
    _, cards = data.draw(plays(pos))
    k = len(cards)
    states = []
    for card in cards:
        states.append(str(pos))
        pos.push(card)
    assert Position.parse(str(pos)) == pos
    assert len(pos.played) == k and sum(pos.tricks_won) == k // 3 == len(pos.played_tricks)
    assert pos.is_over() == (k == 30) and (pos.to_move is None) == (k == 30)
    while states:
        pos.pop()
        assert str(pos) == states.pop()
    with pytest.raises(IllegalPlayError, match="nothing has been played"):
        pos.pop()


DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


@pytest.mark.parametrize("strain, played, message", [
    ("H", "SK", r"cannot play SK \(seat 0, trick 1\): it is not in seat 0's hand"),
    ("H", "SA SJ CK", r"cannot play CK \(seat 2, trick 1\): .*not in seat 2's hand"),
    ("H", "CK C7 DA", r"cannot play DA \(seat 2, trick 1\): must follow suit ♣ \(holds ♣J8\)"),
    ("H", "DK D8 DA SA", r"cannot play SA \(seat 2, trick 2\): it is not in seat 2's hand"),
    ("H", "D7 D8 DA DQ DT CA", r"cannot play CA \(seat 1, trick 2\): void in ♦, must trump "
                               r"with ♥ \(holds ♥Q98\)"),
    ("allpass", "SA SJ DA", r"cannot play DA \(seat 2, trick 1\): must follow suit ♠"),
    ("allpass", "SA SJ SK C9 D8", r"cannot play D8 \(seat 1, trick 2\): must follow suit ♣ "
                                  r"\(holds ♣A7\)"),
])
def test_illegal_cards_name_the_card_and_the_rule(strain, played, message):
    with pytest.raises(IllegalPlayError, match=message):
        position(DEAL, 0, strain, played=played, talon_mode=None if strain == "allpass" else "ignore")


def test_no_duty_to_trump_in_misere_and_a_finished_play_takes_no_card():
    pos = Position(DEAL, 0, strain="misere", played="D7 D8 DA DQ DT CA", talon_mode="ignore")
    assert pos.trick == () and pos.tricks_won == (0, 0, 2) and pos.to_move == 2
    assert [t.winner for t in pos.played_tricks] == [2, 2]
    done = Position("A.-.-.- K.-.-.- Q.-.-.-", 0, strain="NT", played="SA SK SQ")
    assert done.is_over() and done.card_values() == {} and done.legal_cards() == ()
    with pytest.raises(IllegalPlayError, match="all 1 tricks have been played"):
        done.push("SA")


def test_talon_cards_lead_tricks_one_and_two_in_the_turned_order():
    pos = Position(DEAL, seat=1, strain="allpass")
    assert [str(c) for c in pos.turn] == ["S8", "CQ"]
    assert pos.to_move == 0 and pos.led_suit == 0 and pos.trick_leader == 0
    # ♠8 is turned: seat 0 ♠A, seat 1 ♠J, seat 2 ♠K -> seat 0 wins.
    for card in ("SA", "SJ", "SK"):
        pos.push(card)
    assert pos.played_tricks[0].winner == 0 and str(pos.played_tricks[0].talon_card) == "S8"
    # ♣Q is turned, seat 0 plays first again although seat 0 won trick 1 anyway.
    assert pos.talon_card == Card.parse("CQ") and pos.to_move == 0
    for card in ("C9", "C7", "CJ"):
        pos.push(card)
    # ♣Q on the table does not win: the highest club played by a player does.
    assert pos.played_tricks[1].winner == 2 and pos.to_move == 2 and pos.talon_card is None
    other = Position(DEAL, seat=1, strain="allpass", turn="CQ S8")
    assert other.talon_card == Card.parse("CQ")


@pytest.mark.parametrize("kwargs, error, message", [
    ({"strain": "allpass", "seat": 0, "turn": "S8 CK"}, DealError, "must be the deal's two talon cards S8 CQ"),
    ({"strain": "allpass", "seat": 0, "turn": "S8"}, DealError, "must be the deal's two talon cards"),
    ({"strain": "allpass", "seat": 0, "leader": 1}, SeatError, "leader must be 0"),
    ({"strain": "allpass", "seat": 0, "talon_mode": "burn"}, RulesError, "unknown talon mode 'burn'"),
    ({"strain": "allpass", "seat": 0, "talon_mode": "take"}, RulesError, "in all-pass nobody takes"),
    ({"strain": "allpass", "declarer": 0}, SeatError, "all-pass has no declarer"),
    ({"strain": "NT", "seat": 0}, SeatError, "counted for its declarer"),
    ({"strain": "NT", "declarer": 0, "turn": "S8 CQ"}, DealError, "strain 'NT' plays no talon card"),
    ({"strain": "NT", "declarer": 0, "talon_mode": "lead"}, RulesError, "'lead' is for all-pass"),
    ({"strain": "NT", "declarer": 0, "talon_mode": "ignore", "discard": "SA S7"}, DealError,
     "goes with talon_mode='take'"),
    ({"strain": "NT", "declarer": 0, "discard": "SA S7"}, DealError, "two different cards of the declarer's 12"),
    ({"strain": "allpass", "seat": 0, "talon_mode": "ignore", "turn": "S8 CQ"}, DealError,
     "with the talon ignored"),
    ({"strain": "trumps", "declarer": 0}, StrainError, "unknown strain 'trumps'.*allpass"),
    ({"strain": "NT", "declarer": 3}, SeatError, "declarer must be a seat"),
])
def test_bad_position_arguments(kwargs, error, message):
    args = {"deal": DEAL} | kwargs
    with pytest.raises(error, match=message):
        Position(**args)


def test_allpass_ending_needs_a_talon_or_turned_cards():
    ending = "K7.-.-.- AQ.-.-.- J.A.-.-"
    hands = [["SK", "S7"], ["SA", "SQ"], ["SJ", "CA"]]
    with pytest.raises(DealError, match="needs a deal with a talon"):
        Position(ending, seat=0, strain="allpass", talon_mode="lead")
    assert Position(ending, seat=0, strain="allpass").talon_mode == "ignore"
    with pytest.raises(DealError, match="cannot also be in a hand"):
        Position(ending, seat=0, strain="allpass", turn="SA")
    with pytest.raises(DealError, match="more talon cards than the 1 tricks"):
        Position("K.-.-.- A.-.-.- J.-.-.-", seat=0, strain="allpass", turn="S8 S9")
    for player in range(3):
        assert Position(ending, seat=player, strain="allpass", talon_mode="ignore").value() == ref.solve(
            hands, player, None, True, 0)
        assert Position(ending, seat=player, strain="allpass", turn="S8 H7").value() == ref.solve(
            hands, player, None, True, 0, (), None, ["S8", "H7"])


def test_parse_rejects_bad_text():
    with pytest.raises(DealError, match="has no strain= field"):
        Position.parse("A.-.-.- K.-.-.- Q.-.-.-; declarer=0")
    with pytest.raises(DealError, match="cannot read field 'colour=red'"):
        Position.parse("A.-.-.- K.-.-.- Q.-.-.-; declarer=0; strain=NT; colour=red")
    with pytest.raises(SeatError, match="declarer must be a seat 0, 1 or 2, got '5'"):
        Position.parse("A.-.-.- K.-.-.- Q.-.-.-; declarer=5; strain=NT")
    with pytest.raises(IllegalPlayError, match="card 1 of the played cards"):
        Position.parse("A.-.-.- K.-.-.- Q.-.-.-; declarer=0; strain=NT; played=SK")


def test_mistakes_flag_the_card_that_lost_a_trick():
    deal = "K7.-.-.- AQ.-.-.- J.A.-.-"
    assert mistakes(deal, 1, strain="NT", played="SK SA SJ", talon_mode="ignore") == ()
    (m,) = mistakes(deal, 1, strain="NT", played="SK SQ SJ S7", talon_mode="ignore")
    assert (m.move, m.seat, str(m.card), m.cost, [str(c) for c in m.best_cards]) == (
        2, 1, "SQ", 1, ["SA"])
    # The defence's mistake in a misère counts too.
    deal = "K7.-.-.- A8.-.-.- QJ.-.-.-"
    vals = card_values(deal, 0, strain="misere", played=["SK"], talon_mode="ignore")
    assert {str(c): v for c, v in vals.items()} == {"SA": 0, "S8": 1}
    (m,) = mistakes(deal, 0, strain="misere", played="SK SA", talon_mode="ignore")
    assert (m.seat, m.value, m.best_value, m.cost) == (1, 0, 1, 1)


def test_best_line_from_mid_trick_includes_the_cards_on_the_table():
    line = best_line("K7.-.-.- AQ.-.-.- J.A.-.-", 1, strain="NT", played=["SK"])
    assert line.first_trick == 1 and line.tricks == 2
    assert [str(c) for c in line.played_tricks[0].cards] == ["SK", "SA", "SJ"]
    assert [str(c) for c in line.cards] == ["SA", "SJ", "SQ", "CA", "S7"]
    assert line.to_dict()["played_tricks"][1] == {
        "leader": 1, "talon_card": None, "cards": ["SQ", "CA", "S7"], "seats": [1, 2, 0], "winner": 1}


def test_a_card_played_twice_is_named_as_already_played():
    pos = Position("K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T", 2, strain="S")
    for card in ("HQ", "H7", "HT"):
        pos.push(card)
    with pytest.raises(IllegalPlayError, match="cannot play HQ .*it was already played \\(card 1"):
        pos.push("HQ")


def test_a_position_field_given_twice_is_an_error():
    with pytest.raises(DealError, match="field declarer= given twice"):
        Position.parse("AK.-.-.- QJ.-.-.- 7.7.-.-; declarer=0; declarer=1; strain=NT")


@pytest.mark.parametrize("strain", ["S", "NT", "misere"])
def test_talon_modes_of_a_game_and_of_allpass(strain):
    hands = "AK.-.-.- QJ.-.-.- 7.7.-.-"
    with pytest.raises(RulesError, match="'lead' is for all-pass"):
        card_values(hands, 0, strain=strain, talon_mode="lead")
    with pytest.raises(DealError, match="has no talon to take"):
        Position(hands, 0, strain=strain, talon_mode="take")
    pos = Position(hands, 0, strain=strain)
    assert pos.talon_mode == "ignore" and Position.parse(str(pos)) == pos and pos.copy() == pos
    assert Position(hands, seat=0, strain="allpass", talon_mode="ignore").talon_mode == "ignore"
    assert Position(DEAL, seat=0, strain="allpass").talon_mode == "lead"


@pytest.mark.parametrize("strain", ["S", "NT", "misere"])
def test_a_game_with_a_talon_is_played_after_the_best_discard(strain):
    for declarer in range(3):
        sol = solve(DEAL, declarer, strain=strain)
        pos = Position(DEAL, declarer, strain=strain)
        assert pos.talon_mode == "take" and pos.discard == sol.discard and pos.value() == sol.tricks
        assert Position.parse(str(pos)) == pos and pos.copy() == pos
        twelve = DEAL.split()[declarer]
        held = pos.hands[declarer]
        assert len(held) == 10 and not any(c in held for c in sol.discard)
        ignored = Position(DEAL, declarer, strain=strain, talon_mode="ignore")
        assert ignored.discard is None and ignored.hands[declarer] == prefsolve.Hand.parse(twelve)
        assert ignored.value() == solve(DEAL, declarer, strain=strain, talon_mode="ignore").tricks
    with pytest.raises(IllegalPlayError, match="the declarer discarded it"):
        Position(DEAL, 2, strain="NT", played=["S8"])


def test_best_cards_of_a_finished_play_refuse_foreign_values():
    p = Position("A.-.-.- K.-.-.- Q.-.-.-", 0, strain="NT", played="SA SK SQ")
    assert p.best_cards() == ()
    with pytest.raises(IllegalPlayError, match="the play is over"):
        p.best_cards({Card.parse("SA"): 1, Card.parse("S7"): 0})


def test_allpass_mistakes_judge_only_the_counted_player():
    # In all-pass the values count one seat's tricks, the others pressing him together:
    # their cards are not judged by that (each minimises his own tricks), his are.
    deal = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
    lines = ["SA S7 SK C9 CA CJ SJ SQ CK".split(), "SA S7 SK CK C7 CJ D7 D8 DJ".split()]
    others_off_best = counted_off_best = 0
    for played in lines:
        for counted in range(3):
            expected = []
            for move, text in enumerate(played, 1):
                card = Card.parse(text)
                before = Position(deal, seat=counted, strain="allpass", played=played[:move - 1])
                values = before.card_values()
                if before.to_move == counted:     # he wants his own tricks fewest
                    if values[card] != min(values.values()):
                        expected.append((move, text, values[card], min(values.values())))
                elif values[card] != max(values.values()):    # not the card that loads him most
                    others_off_best += 1
            found = Position(deal, strain="allpass", seat=counted, played=played).mistakes()
            assert [(m.move, str(m.card), m.value, m.best_value) for m in found] == expected
            assert all(m.seat == counted for m in found)
            counted_off_best += len(expected)
    # Both kinds occur on these lines, so the filter is what is tested.
    assert others_off_best > 0 and counted_off_best > 0
    from prefsolve import mistakes as exported
    played = lines[1]
    assert exported(deal, strain="allpass", seat=1, played=played) == Position(
        deal, strain="allpass", seat=1, played=played).mistakes()


def test_a_card_not_in_hand_says_who_holds_it_or_that_it_is_the_talon():
    deal = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
    with pytest.raises(IllegalPlayError, match="it is a talon card, turned to lead trick 1"):
        Position(deal, seat=1, strain="allpass", played="S8 SA")
    with pytest.raises(IllegalPlayError, match="not in seat 0's hand .*; seat 1 holds it"):
        Position(deal, 1, strain="NT", played="C7", talon_mode="ignore")
    with pytest.raises(IllegalPlayError, match="it is in the talon, out of play"):
        Position(deal, 0, strain="NT", played="S8", talon_mode="ignore")


def test_a_position_text_may_end_with_a_semicolon():
    p = Position.parse("AK.-.-.- QJ.-.-.- 7.7.-.-; declarer=0; strain=NT; played=SA SQ;")
    assert p == Position.parse(str(p)) and len(p.played) == 2


ENDING = "AK.-.-.- QJ.-.-.- 7.7.-.-"


@pytest.mark.parametrize("make", [
    lambda: Position(ENDING, 0, strain="NT", solver="x", talon_mode="ignore"),
    lambda: prefsolve.solve_allpass(DEAL, 0, solver="x"),
    lambda: prefsolve.solve(DEAL, 0, strain="S", solver=object()),
])
def test_a_solver_of_the_wrong_type_is_a_prefsolve_error(make):
    with pytest.raises(PrefsolveError, match="solver must be a prefsolve Solver or None"):
        make()


@pytest.mark.parametrize("make", [
    lambda: Position(DEAL, seat=0, strain="allpass", talon_mode=""),
    lambda: Position.parse(DEAL + "; seat=0; strain=allpass; talon_mode="),
    lambda: prefsolve.solve_allpass(DEAL, 0, talon_mode=""),
])
def test_an_empty_talon_mode_is_refused_everywhere(make):
    with pytest.raises(RulesError, match="unknown talon mode ''"):
        make()


@pytest.mark.parametrize("played", [{"SA": 1}, {"SA"}, frozenset({"SA"})])
def test_played_cards_need_an_order(played):
    with pytest.raises(CardError, match="played must be cards in order"):
        Position(ENDING, 0, strain="NT", played=played, talon_mode="ignore")


def test_a_long_position_text_is_clipped_in_the_error():
    text = ENDING + "; declarer=0; strain=NT; played=" + "SA " * 10000
    with pytest.raises(IllegalPlayError) as info:
        Position.parse(text)
    assert len(str(info.value)) < 500 and "characters) …" in str(info.value)


@given(st.integers(0, 2**32 - 1), strains(allpass=True), st.integers(0, 29), st.data())
def test_touching_cards_are_valued_once_and_every_card_as_if_searched(seed, strain, moves, data):
    """card_values searches one card of each run of touching cards (no card between them in
    another hand or on the table); every card's value is still the one a search of it gives."""
    from prefsolve.engine import solver_calls

    deal = Deal.random(seed)
    pos = (Position(deal, strain="allpass", seat=data.draw(seats())) if strain == "allpass"
           else Position(deal, data.draw(seats()), strain=strain))
    for _ in range(moves):
        pos.push(data.draw(st.sampled_from(pos.legal_cards())))
    before = solver_calls()
    values = pos.card_values()
    searched = solver_calls() - before
    for card in pos.legal_cards():
        pos.push(card)
        assert values[card] == pos.value()
        pos.pop()
    assert searched <= len(values)
