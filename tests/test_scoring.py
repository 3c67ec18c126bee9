"""Tests of prefsolve.scoring: the worked examples of RULES.md §5.10 and §6.5, and invariants."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from prefsolve.auction import check_whist_calls, parse_whist_calls
from prefsolve.contract import LADDER, Contract
from prefsolve.errors import RulesError, ScoringError
from prefsolve.rules import PROFILES, Rules
from prefsolve.scoring import (
    AllPassDeal,
    GameDeal,
    ScoreSheet,
    allpass_balance,
    contract_balance,
    deal_from_dict,
    game_rules,
    is_played,
    score_deal,
    settle,
    sheet_from_game,
    talon_tricks,
)

SOCHI = Rules.profile("sochi")
LENINGRAD = Rules.profile("leningrad")
ROSTOV = Rules.profile("rostov")
A, B, C = 0, 1, 2


def game(declarer, contract, calls, tricks=None, **kw):
    return GameDeal(declarer, Contract.parse(contract), tuple(calls), tricks, **kw)


def w(score, writer, target):
    return score.whists[writer][target]


# -- Sochi worked example (RULES.md §5.10) --------------------------------------------
def test_sochi_1_remise_greedy_with_consolation():
    s = score_deal(game(A, "7H", ["whist", "pass"], (6, 2, 2)), SOCHI)
    assert s.mountain == (4, 0, 0) and s.pool == (0, 0, 0)
    assert w(s, B, A) == 20 and w(s, C, A) == 4
    # greedy: the split of the defence's tricks does not matter
    assert score_deal(game(A, "7H", ["whist", "pass"], (6, 0, 4)), SOCHI) == s


def test_sochi_2_two_whisters_and_shortfall_variants():
    s = score_deal(game(B, "6S", ["whist", "whist"], (1, 6, 3)), SOCHI)  # B's defenders: C then A
    assert s.pool == (0, 2, 0) and w(s, C, B) == 6 and w(s, A, B) == 2 and s.mountain == (0, 0, 0)
    s = score_deal(game(B, "6S", ["whist", "whist"], (0, 7, 3)), SOCHI)
    assert s.pool == (0, 2, 0) and w(s, C, B) == 6 and s.mountain == (4, 0, 0)  # individual (RULES.md §3.6)
    s = score_deal(game(B, "6S", ["whist", "whist"], (0, 7, 3)), SOCHI.replace(two_whister_shortfall="one_unit"))
    assert s.mountain == (2, 0, 0)  # one unit


def test_sochi_3_4_raspasy_progression_and_amnesty():
    s = score_deal(AllPassDeal((0, 4, 6)), SOCHI, allpass_count=0)
    assert s.pool == (1, 0, 0) and s.mountain == (0, 4, 6)
    no_amnesty = SOCHI.replace(raspasy_amnesty=False)
    s = score_deal(AllPassDeal((2, 3, 5)), no_amnesty, allpass_count=1)
    assert s.mountain == (4, 6, 10) and s.pool == (0, 0, 0)
    s = score_deal(AllPassDeal((2, 3, 5)), SOCHI, allpass_count=1)
    assert s.mountain == (0, 2, 6)
    # the third and later all-passes cost 3 (1-2-3, then 3); 0 tricks = price of one trick
    s = score_deal(AllPassDeal((0, 5, 5)), SOCHI, allpass_count=5)
    assert s.pool == (3, 0, 0) and s.mountain == (0, 15, 15)


def test_sochi_5_misere_and_made_contracts():
    s = score_deal(game(C, "misere", [], (5, 4, 1)), SOCHI)
    assert s.mountain == (0, 0, 10) and s.pool == (0, 0, 0)
    assert score_deal(game(C, "misere", [], (5, 5, 0)), SOCHI).pool == (0, 0, 10)
    s = score_deal(game(A, "8NT", ["pass", "pass"]), SOCHI)  # both pass: counted made
    assert s.pool == (6, 0, 0)
    s = score_deal(game(A, "7S", ["pass", "half", "pass"]), SOCHI)  # half-whist: 4·1
    assert s.pool == (4, 0, 0) and w(s, C, A) == 4
    s = score_deal(game(A, "6S", ["pass", "half", "pass"]), SOCHI)  # 2·2
    assert w(s, C, A) == 4


def test_sochi_lone_whister_shortfall_and_eight_level_second_whister():
    s = score_deal(game(A, "6S", ["whist", "pass"], (7, 2, 1)), SOCHI)  # D=3 < 4
    assert s.pool == (2, 0, 0) and w(s, B, A) == 6 and s.mountain == (0, 2, 0)
    s = score_deal(game(A, "8D", ["whist", "whist"], (10, 0, 0)), SOCHI)
    assert s.mountain == (0, 0, 6)  # RULES.md §3.6: the second whister answers on 8/9/10
    each = SOCHI.replace(two_whister_high="each")   # RULES.md §3.6 alternative: each answers for it
    assert score_deal(game(A, "8D", ["whist", "whist"], (10, 0, 0)), each).mountain == (0, 6, 6)
    assert score_deal(game(A, "8D", ["whist", "whist"], (9, 1, 0)), each).mountain == (0, 0, 0)
    s = score_deal(game(A, "6S", ["whist", "whist"], (7, 3, 0)), each)   # 6 and 7 keep their quota
    assert s == score_deal(game(A, "6S", ["whist", "whist"], (7, 3, 0)), SOCHI)


def test_half_whist_played_c1():
    played = SOCHI.replace(half_whist="played")
    half = ["pass", "half", "pass"]   # A declares: B passes, C half-whists, B passes again
    s = score_deal(game(A, "6S", half, (6, 2, 2)), played)   # the defence's 4 tricks, quota 2
    assert s.pool == (2, 0, 0) and w(s, C, A) == 4 and s.mountain == (0, 0, 0) and w(s, B, A) == 0
    s = score_deal(game(A, "6S", half, (9, 1, 0)), played)   # 1 trick of 2: whists 2, shortfall 1
    assert s.pool == (2, 0, 0) and w(s, C, A) == 2 and s.mountain == (0, 0, 2)
    s = score_deal(game(A, "7S", half, (6, 0, 4)), played)   # 7S fails: remise and consolation
    assert s.mountain == (4, 0, 0) and w(s, B, A) == 4 and w(s, C, A) == 4 + 4  # quota 1 trick
    with pytest.raises(ScoringError, match="tricks of each player are needed"):
        score_deal(game(A, "6S", half), played)
    # Without play (the default) the same calls count the 6 as made, whatever the tricks say.
    s = score_deal(game(A, "6S", half, (9, 1, 0)), SOCHI)
    assert s.pool == (2, 0, 0) and w(s, C, A) == 4 and s.mountain == (0, 0, 0)
    assert check_whist_calls("6S", half, played, open=False).play == "closed"
    assert check_whist_calls("6S", half, SOCHI).play is None
    assert [str(x) for x in contract_balance("6S", 9, half, played)] != \
        [str(x) for x in contract_balance("6S", 9, half, SOCHI)]


@pytest.mark.parametrize("profile, mountain", [("sochi", 12), ("leningrad", 24)])
def test_concession_without_three(profile, mountain):
    r = Rules.profile(profile)
    s = score_deal(game(A, "7S", [], conceded=True), r)   # RULES.md §3.1: three undertricks, mountain only
    assert s.mountain == (mountain, 0, 0) and s.pool == (0, 0, 0)
    assert all(x == 0 for row in s.whists for x in row)
    assert score_deal(game(A, "7S", ["whist", "pass"], conceded=True), r) == s
    with pytest.raises(ScoringError, match="not played"):
        score_deal(game(A, "7S", [], (4, 3, 3), conceded=True), r)
    with pytest.raises(ScoringError, match="misère cannot be conceded"):
        score_deal(game(A, "misere", [], conceded=True), r)
    sheet = sheet_from_game({"players": ["A", "B", "C"], "rules": profile,
                             "deals": [{"declarer": "A", "contract": "7S", "conceded": True}]})
    assert sheet.mountain[A] == mountain
    with pytest.raises(ScoringError, match="true or false"):
        sheet_from_game({"players": ["A", "B", "C"],
                         "deals": [{"declarer": "A", "contract": "7S", "conceded": 1}]})


def _four(rotation):
    return ScoreSheet.new("NESW", Rules.profile("sochi").replace(dealer_rotation=rotation))


def test_dealer_rotation_every_deal():
    sheet = _four("every_deal").add(AllPassDeal((0, 3, 3, 4), dealer=0))
    assert sheet.next_dealer == 1
    with pytest.raises(ScoringError, match="'N' deals, but after deal 1 the deal goes to 'E'"):
        sheet.add(AllPassDeal((2, 0, 4, 4), dealer=0))
    sheet = sheet.add(AllPassDeal((2, 0, 4, 4), dealer=1))
    assert sheet.next_dealer == 2
    assert _four("unchecked").add(AllPassDeal((0, 3, 3, 4), dealer=0)).add(
        AllPassDeal((0, 3, 3, 4), dealer=0)).deals == 2


def test_dealer_rotation_of_the_seed():
    # RULES.md §1.5: the deal stays after all-pass and a caught misère, else moves on.
    sheet = _four("stays_after_allpass_and_caught_misere").add(AllPassDeal((0, 3, 3, 4), dealer=0))
    assert sheet.next_dealer == 0
    sheet = sheet.add(GameDeal(1, Contract.misere(), (), (0, 1, 4, 5), dealer=0))   # caught
    assert sheet.next_dealer == 0
    sheet = sheet.add(GameDeal(1, Contract.misere(), (), (0, 0, 4, 6), dealer=0))   # made
    assert sheet.next_dealer == 1
    sheet = sheet.add(GameDeal(2, Contract.parse("6S"), ("pass", "pass"), None, dealer=1))
    assert sheet.next_dealer == 2
    with pytest.raises(ScoringError, match="stays after all-pass and a caught misère"):
        sheet.add(AllPassDeal((0, 3, 3, 4), dealer=1))
    assert Rules.profile("classic").dealer_rotation == "stays_after_allpass_and_caught_misere"


def test_classic_dealer_deals_at_most_three_allpasses_in_a_row():
    # RULES.md §1.5: the same dealer deals three times in a row, then the deal moves on.
    sheet = ScoreSheet.new("ABC", "classic")
    dealers = []
    for tricks in [(1, 4, 5), (2, 3, 5), (3, 3, 4), (2, 4, 4), (0, 5, 5), (4, 4, 2), (3, 3, 4)]:
        sheet = sheet.add(AllPassDeal(tricks, sheet.next_dealer if sheet.next_dealer is not None else 0))
        dealers.append(sheet.next_dealer)
    assert dealers == [0, 0, 1, 1, 1, 2, 2]
    assert sheet.allpass_streak == 7        # the price goes on rising under the next dealer
    with pytest.raises(ScoringError, match="after 3 all-passes in a row it moves on"):
        ScoreSheet.new("ABC", "classic").add_all([AllPassDeal((1, 4, 5), 0), AllPassDeal((2, 3, 5), 0),
                                                  AllPassDeal((3, 3, 4), 0), AllPassDeal((2, 4, 4), 0)])
    unlimited = ScoreSheet.new("ABC", Rules.profile("classic").replace(allpass_dealer_limit=0))
    unlimited = unlimited.add_all([AllPassDeal((1, 4, 5), 0)] * 5)
    assert unlimited.next_dealer == 0
    with pytest.raises(RulesError, match="allpass_dealer_limit"):
        Rules.profile("classic").replace(allpass_dealer_limit=-1)


def test_consolation_switches():
    s = score_deal(game(A, "7H", ["whist", "pass"], (6, 2, 2)), SOCHI.replace(consolation="none"))
    assert w(s, B, A) == 16 and w(s, C, A) == 0


# -- Leningrad worked example (RULES.md §5.10, §6.5) -----------------------------------
def test_leningrad_worked_example_sheet_and_settlement():
    sheet = ScoreSheet.new("ABC", LENINGRAD)
    s1 = score_deal(game(A, "7H", ["whist", "pass"], (6, 2, 2)), LENINGRAD)
    assert s1.mountain == (8, 0, 0) and w(s1, B, A) == 24 and w(s1, C, A) == 24
    s2 = score_deal(game(B, "8D", ["whist", "pass"], (0, 10, 0)), LENINGRAD)  # C whists alone
    assert s2.pool == (0, 6, 0) and s2.mountain == (0, 0, 6)
    s3 = score_deal(AllPassDeal((0, 3, 7)), LENINGRAD)
    assert s3.pool == (1, 0, 0) and s3.mountain == (0, 6, 14)
    assert score_deal(AllPassDeal((0, 3, 7)), LENINGRAD.replace(raspasy_zero_bonus="trick_price")).pool == (2, 0, 0)
    s4 = score_deal(game(A, "misere", [], (1, 4, 5)), LENINGRAD)
    assert s4.mountain == (20, 0, 0)
    sheet = sheet.add_all([game(A, "7H", ["whist", "pass"], (6, 2, 2)),
                           game(B, "8D", ["whist", "pass"], (0, 10, 0)),
                           AllPassDeal((0, 3, 7)),
                           game(A, "misere", [], (1, 4, 5))])
    # RULES.md §5.5: consolation read as the plain value v instead of 2v
    s1v = score_deal(game(A, "7H", ["whist", "pass"], (6, 2, 2)), LENINGRAD.replace(consolation_price="value"))
    assert w(s1v, B, A) == 20 and w(s1v, C, A) == 20
    assert sheet.pool == (1, 6, 0) and sheet.mountain == (28, 6, 20)
    assert sheet.whists[B][A] == 24 and sheet.whists[C][A] == 24
    bal = sheet.settlement()
    assert bal == (F(-524, 3), F(652, 3), F(-128, 3))  # −174⅔, +217⅓, −42⅔
    assert sum(bal) == 0
    assert not sheet.finished  # table total 30 not reached


# -- Rostov worked examples (RULES.md §5.10) -------------------------------------------
def test_rostov_raspasy():
    s = score_deal(AllPassDeal((1, 3, 6)), ROSTOV)
    assert w(s, A, B) == 15 and w(s, A, C) == 30 and s.pool == (0, 0, 0) and s.mountain == (0, 0, 0)
    s = score_deal(AllPassDeal((0, 0, 10)), ROSTOV)
    assert s.pool == (1, 1, 0) and w(s, A, C) == 25 and w(s, B, C) == 25
    s = score_deal(AllPassDeal((3, 3, 4)), ROSTOV)
    assert w(s, A, C) == 10 and w(s, B, C) == 10  # floor_half: ⌊4/2⌋·5 each
    s = score_deal(AllPassDeal((3, 4, 3)), ROSTOV.replace(rostov_raspasy_tie="split"))
    assert w(s, A, B) == 10 and w(s, C, B) == 10
    s = score_deal(AllPassDeal((2, 3, 5)), ROSTOV.replace(rostov_raspasy_tie="split"))
    assert w(s, A, B) == 15


def test_rostov_remise_c2_and_c3():
    deal = game(A, "7S", ["whist", "pass"], (5, 3, 2))
    s = score_deal(deal, ROSTOV)  # the savanto/pref reading
    assert s.mountain == (8, 0, 0) and w(s, B, A) == 30 and w(s, C, A) == 30
    c3 = ROSTOV.replace(remise_mountain=False, lone_whister="greedy")
    s = score_deal(deal, c3)
    assert s.mountain == (0, 0, 0) and w(s, B, A) == 40 and w(s, C, A) == 20


def test_rostov_half_responsible_and_misere():
    s = score_deal(game(A, "6S", ["whist", "pass"], (7, 2, 1)), ROSTOV)
    assert s.mountain == (0, 1, 0)  # v/2 per missing trick
    s = score_deal(game(A, "misere", [], (2, 4, 4)), ROSTOV)
    assert s.mountain == (20, 0, 0) and w(s, B, A) == 20 and w(s, C, A) == 20
    s = score_deal(game(A, "misere", [], (2, 4, 4)), ROSTOV.replace(misere_fail="whists"))
    assert s.mountain == (0, 0, 0) and w(s, B, A) == 20


# -- settlement (RULES.md §6.3, §6.5) ---------------------------------------------------
def test_settlement_s16_mountains():
    assert settle([0, 0, 0], [42, 96, 132], [[0] * 3] * 3) == (480, -60, -420)


def test_settlement_complete_sochi_sheet():
    whists = [[0, 30, 16], [40, 0, 10], [6, 22, 0]]
    assert settle([10, 10, 10], [12, 4, 20], whists, SOCHI) == (0, 78, -78)


def test_settlement_four_players_and_divisor():
    assert settle([0] * 4, [8, 20, 0, 12], [[0] * 4] * 4) == (20, -100, 100, -20)
    nm1 = SOCHI.replace(settlement_divisor="N-1")
    assert settle([0] * 3, [0, 0, 3], [[0] * 3] * 3, nm1) == (15, 15, -30)
    assert settle([0] * 3, [0, 0, 3], [[0] * 3] * 3, SOCHI) == (10, 10, -20)


def test_leningrad_pool_point_cross_check_s15():
    # RULES.md §6.5: 3 players, Leningrad, 2 in the pool → 2·20 − 2·20/3 = 26⅔ whists
    assert settle([2, 0, 0], [0, 0, 0], [[0] * 3] * 3, LENINGRAD)[0] == F(80, 3)


# -- American aid (RULES.md §6.2) -------------------------------------------------------
def test_american_aid_closes_highest_open_pool():
    r = SOCHI.replace(pool_target=10)
    sheet = ScoreSheet.new("ABC", r).add_all([game(A, "8S", ["pass", "pass"])] * 2)  # A 12 → 2 surplus
    assert sheet.pool == (10, 2, 0) and sheet.whists[A][B] == 20  # tie → next clockwise (B)
    sheet = ScoreSheet.new("ABC", r).add_all([game(C, "6S", ["pass", "pass"]), game(A, "10S", [], (10, 0, 0)),
                                              game(A, "6S", ["pass", "pass"])])  # RULES.md §3.4: a 10 is played
    assert sheet.pool == (10, 0, 4) and sheet.whists[A][C] == 20  # C had the higher open pool


def test_american_aid_reduces_own_mountain_when_nobody_needs():
    r = SOCHI.replace(pool_target=4)
    sheet = ScoreSheet.new("ABC", r).add_all([
        game(B, "7S", ["pass", "pass"]), game(C, "7S", ["pass", "pass"]),
        game(A, "7S", ["whist", "pass"], (6, 2, 2)),  # A: mountain 4
        game(A, "6S", ["pass", "pass"]), game(A, "7S", ["pass", "pass"])])
    assert sheet.pool == (4, 4, 4) and sheet.mountain[A] == 2 and sheet.finished


@pytest.mark.parametrize("closure, target, ends_after", [("american_aid", 4, 3), ("table_total", 8, 2)])
def test_the_sheet_keeps_the_deal_that_finished_the_game(closure, target, ends_after):
    r = SOCHI.replace(pool_target=target, pool_closure=closure)
    sheet = ScoreSheet.new("ABC", r)
    for i, who in enumerate((A, B, C, A), 1):
        sheet = sheet.add(game(who, "7S", ["pass", "pass"]))
        assert sheet.finished == (i >= ends_after)
        assert sheet.finished_after == (ends_after if i >= ends_after else None)
    assert sheet.to_dict()["finished_after"] == ends_after


# -- 4 players and the dealer's talon whists (RULES.md §5.9) ------------------------------
@pytest.mark.parametrize("contract, talon, tricks", [
    ("9S-hand", ("AS", "AH"), (0, 9, 1, 0)), ("misere-hand", ("7S", "7H"), (0, 0, 5, 5))])
def test_no_talon_whists_when_the_declarer_never_took_the_talon(contract, talon, tricks):
    r = Rules.profile("classic").replace(dealer_talon_whists_misere=True)   # RULES.md §5.9, misère too
    with_talon = contract.removesuffix("-hand")
    calls = ("pass", "pass") if with_talon != "misere" else ()
    taken = score_deal(GameDeal(1, Contract.parse(with_talon), calls, tricks, dealer=0, talon=talon), r, 4)
    closed = score_deal(GameDeal(1, Contract.parse(contract), calls, tricks, dealer=0, talon=talon), r, 4)
    assert taken.whists[0][1] > 0 and closed.whists[0][1] == 0


@pytest.mark.parametrize("talon, tricks", [(["SA", "SK"], 2), (["♠A", "AH"], 3), (["s10", "HQ"], 0),
                                           (["KH", "HQ"], 1), (["10S", "XH"], 0), (["A♥", "♥K"], 2),
                                           (["KS", "QH"], 0), (["AS", "KH"], 1),
                                           (["Тп", "чТ"], 3), (["Кч", "Дч"], 1), (["Тт", "Кт"], 2),
                                           (["10п", "Вб"], 0)])
def test_talon_cards_are_read_in_every_notation(talon, tricks):
    assert talon_tricks(talon) == tricks


def test_a_talon_with_the_same_card_twice_is_an_error():
    with pytest.raises(ScoringError, match="same card twice"):
        talon_tricks(["AS", "♠A"])
    deal = GameDeal(1, Contract.parse("7H"), ("pass", "pass"), None, dealer=0, talon=("AS", "AS"))
    with pytest.raises(ScoringError, match="same card twice"):
        score_deal(deal, Rules.profile("classic"), players=4)


def test_four_players_dealer_sits_out_and_talon_whists():
    r = Rules.profile("classic")
    deal = GameDeal(1, Contract.parse("7H"), ("whist", "pass"), (0, 7, 2, 1), dealer=0, talon=("AS", "KS"))
    s = score_deal(deal, r, players=4)
    assert s.pool == (0, 4, 0, 0) and s.whists[2][1] == 12  # first defender of seat 1 is seat 2
    assert s.whists[0][1] == 8  # dealer: A+K of one suit = 2 tricks × 4
    misere = GameDeal(1, Contract.misere(), (), (0, 0, 5, 5), dealer=0, talon=("7S", "8S"))
    s = score_deal(misere, r.replace(dealer_talon_whists_misere=True), players=4)
    assert s.whists[0][1] == 20 and s.pool[1] == 10     # RULES.md §5.9: 10 per seven, a suited 7-8 20
    s = score_deal(misere, r, players=4)
    assert s.whists[0][1] == 0 and s.pool[1] == 10      # the classic book prices only tricks the talon brought
    # The classic dealer earns no consolation; consolation="all" has him console too (RULES.md §5.5).
    failed = GameDeal(1, Contract.parse("7H"), ("whist", "pass"), (0, 6, 2, 2), dealer=0)
    s = score_deal(failed, r, players=4)
    assert s.whists[0][1] == 0 and s.whists[2][1] == 20 and s.whists[3][1] == 4
    s = score_deal(failed, r.replace(consolation="all"), players=4)
    assert s.whists[0][1] == 4 and s.whists[2][1] == 20 and s.whists[3][1] == 4
    with pytest.raises(ScoringError):
        score_deal(GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (7, 1, 1, 1), dealer=0), r, players=4)
    s = score_deal(AllPassDeal((1, 2, 3, 4), dealer=0), SOCHI, players=4)
    assert s.mountain == (1, 0, 1, 2)  # talon trick charged to the dealer; amnesty on the 3 active
    with pytest.raises(ScoringError):
        score_deal(AllPassDeal((1, 2, 3, 4), dealer=0), ROSTOV, players=4)


# -- impossible outcomes ---------------------------------------------------------------
@pytest.mark.parametrize("deal,msg", [
    (GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (6, 2, 1)), "sum to 10"),
    (GameDeal(0, Contract.parse("7H"), ("whist", "pass"), None), "tricks"),
    (GameDeal(0, Contract.parse("7H"), ("whist",), (6, 2, 2)), "incomplete"),
    (GameDeal(0, Contract.parse("8H"), ("pass", "half", "pass"), None), "6- and 7-level"),
    (GameDeal(0, Contract.misere(), ("whist", "pass"), (0, 5, 5)), "misère"),
    (GameDeal(0, Contract.parse("9S-hand"), ("whist", "pass"), (9, 1, 0)), "ladder"),
    (AllPassDeal((0, 4, 5)), "sum to 10"),
])
def test_impossible_outcomes_raise(deal, msg):
    with pytest.raises(ScoringError) as exc:
        score_deal(deal, SOCHI)
    assert msg in str(exc.value)


# -- game files ------------------------------------------------------------------------
ISSUE_GAME = {"players": ["A", "B", "C"], "rules": "sochi", "pool_target": 10, "deals": [
    {"declarer": "A", "contract": "7H", "whist": {"B": "whist", "C": "pass"}, "open": True,
     "tricks": {"A": 6, "B": 2, "C": 2}},
    {"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}},
    {"declarer": "C", "contract": "misere", "tricks": {"A": 5, "B": 4, "C": 1}}]}


def test_issue_game_file():
    sheet = sheet_from_game(ISSUE_GAME)
    d = sheet.to_dict()
    assert d["sheet"]["A"] == {"pool": 1, "mountain": 4, "whists": {"B": 0, "C": 0}}
    assert d["sheet"]["B"] == {"pool": 0, "mountain": 4, "whists": {"A": 20, "C": 0}}
    assert d["sheet"]["C"] == {"pool": 0, "mountain": 16, "whists": {"A": 4, "B": 0}}
    assert sum(F(x) for x in d["settlement"].values()) == 0
    assert d["settlement"] == {"A": "68/3", "B": "170/3", "C": "-238/3"}
    # --rules overrides the file's profile, switches apply on top
    lenin = sheet_from_game(ISSUE_GAME, "leningrad").to_dict()
    assert lenin["sheet"]["B"]["whists"]["A"] == 24 and lenin["rules"] == "leningrad with pool_target=10"
    sw = dict(ISSUE_GAME, switches={"consolation": "none"})
    assert sheet_from_game(sw).to_dict()["sheet"]["C"]["whists"]["A"] == 0
    with pytest.raises(RulesError):
        sheet_from_game(dict(ISSUE_GAME, switches={"greedy": True}))


RUSSIAN_GAME = {"players": ["A", "B", "C"], "rules": "sochi", "pool_target": 10, "deals": [
    {"declarer": "A", "contract": "7 червей", "whist": {"B": "вист", "C": "пас"}, "open": "лёжа",
     "tricks": {"A": 6, "B": 2, "C": 2}},
    {"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}},
    {"declarer": "C", "contract": "мизер", "tricks": {"A": 5, "B": 4, "C": 1}}]}


def test_a_game_file_in_russian_scores_as_in_english():
    assert sheet_from_game(RUSSIAN_GAME).to_dict() == sheet_from_game(ISSUE_GAME).to_dict()


@pytest.mark.parametrize("play, is_open", [(True, True), (False, False), ("open", True), ("closed", False),
                                           ("открыто", True), ("закрыто", False), ("стоя", False),
                                           ("в светлую", True), ("втёмную", False)])
def test_a_game_file_s_open_is_a_boolean_or_a_word(play, is_open):
    deal = {"declarer": "A", "contract": "6S", "whist": {"B": "whist", "C": "pass"}, "open": play,
            "tricks": {"A": 6, "B": 4}}
    assert deal_from_dict(deal, ["A", "B", "C"]).open is is_open
    # The play is recorded: it changes no score (RULES.md §3.2).
    assert sheet_from_game(dict(BASE, deals=[deal])).to_dict() == \
        sheet_from_game(dict(BASE, deals=[dict(deal, open=True)])).to_dict()


def test_a_game_deal_s_open_given_as_a_word_is_read_once():
    deal = GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (6, 2, 2), "закрыто")
    assert score_deal(deal, SOCHI) == score_deal(GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (6, 2, 2),
                                                          False), SOCHI)
    with pytest.raises(ScoringError, match="unknown whist play 'maybe'"):
        score_deal(GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (6, 2, 2), "maybe"), SOCHI)


def test_game_file_errors():
    with pytest.raises(ScoringError, match="3 or 4"):
        sheet_from_game({"players": ["A", "B"], "deals": []})
    with pytest.raises(ScoringError, match="unknown player 'D'"):
        sheet_from_game(dict(ISSUE_GAME, deals=[{"all_pass": True, "tricks": {"D": 10}}]))
    with pytest.raises(ScoringError, match="deal 1"):
        sheet_from_game(dict(ISSUE_GAME, deals=[{"all_pass": True, "tricks": {"A": 9}}]))
    with pytest.raises(ScoringError, match="dealer"):
        sheet_from_game({"players": ["A", "B", "C", "D"], "deals": [{"all_pass": True, "tricks": {"A": 10}}]})


def test_half_whist_in_game_file_mapping():
    g = {"players": ["A", "B", "C"], "deals": [
        {"declarer": "A", "contract": "6H", "whist": {"B": "pass", "C": "half"}}]}
    d = sheet_from_game(g).to_dict()
    assert d["sheet"]["A"]["pool"] == 2 and d["sheet"]["C"]["whists"]["A"] == 4


# -- single-deal balances for the bid analyzer ---------------------------------------------
def test_contract_and_allpass_balance():
    assert contract_balance("6S", 6, ("pass", "pass")) == (F(40, 3), F(-20, 3), F(-20, 3))
    bal = contract_balance("7H", 6, ("whist", "pass"), SOCHI)
    assert bal == (F(-152, 3), F(100, 3), F(52, 3)) and sum(bal) == 0
    assert contract_balance("misere", 0, (), SOCHI) == (F(200, 3), F(-100, 3), F(-100, 3))
    assert allpass_balance((0, 4, 6), SOCHI) == (40, -10, -30)
    assert sum(contract_balance("8D", 10, ("whist", "whist"), LENINGRAD)) == 0


# -- hypothesis invariants -----------------------------------------------------------------
@st.composite
def tricks3(draw):
    a = draw(st.integers(0, 10))
    b = draw(st.integers(0, 10 - a))
    return (a, b, 10 - a - b)


@st.composite
def deals(draw, rules):
    if draw(st.booleans()):
        return AllPassDeal(draw(tricks3()))
    c = draw(st.sampled_from(LADDER))
    declarer = draw(st.integers(0, 2))
    t = draw(tricks3())
    if c.is_misere:
        return GameDeal(declarer, c, (), t)
    options = [("whist", "pass"), ("pass", "whist"), ("whist", "whist"), ("pass", "pass"),
               ("pass", "half", "pass"), ("pass", "half", "whist")]
    legal = [o for o in options if check_whist_calls(c, o, rules).legal]
    calls = draw(st.sampled_from(legal))
    if draw(st.integers(0, 9)) == 0:
        return GameDeal(declarer, c, calls, None, conceded=True)   # RULES.md §3.1 «без трёх»
    if not is_played(check_whist_calls(c, calls, rules).outcome, rules):
        t = None  # not played: tricks that contradict "counted as made" are rejected
    return GameDeal(declarer, c, calls, t, draw(st.booleans()))


@settings(max_examples=80, deadline=None)
@given(st.data(), st.sampled_from(PROFILES), st.integers(1, 30), st.sampled_from(["N", "N-1"]),
       st.sampled_from(["no_play", "played", "off"]), st.sampled_from(["second", "each"]))
def test_settlement_sums_to_zero_and_pools_never_exceed_target(data, profile, target, divisor, half, high):
    rules = Rules.profile(profile).replace(pool_target=target, settlement_divisor=divisor,
                                           half_whist=half, two_whister_high=high)
    sheet = ScoreSheet.new("ABC", rules)
    for deal in data.draw(st.lists(deals(rules), max_size=12)):
        sheet = sheet.add(deal)
        if rules.pool_closure == "american_aid":
            assert all(p <= target for p in sheet.pool)
        assert all(m >= 0 for m in sheet.mountain)
    assert sheet.settlement() == _settle_pairwise(sheet)
    assert all(type(b) is F for b in sheet.settlement())   # exact, never a float


def _settle_pairwise(sheet):
    """RULES.md §6.3's classic method, written out pair by pair (independent of settle()'s closed
    formula): amnesty, then every remaining mountain point makes each other
    player write g/N whists on its owner and every pool point makes its owner
    write p/N on each other player (N-1 instead of N with settlement_divisor
    "N-1"); a balance is what one has written on the others minus what they
    have written on him."""
    r, n = sheet.rules, sheet.n
    share = n - 1 if r.settlement_divisor == "N-1" else n
    low = min(sheet.mountain)
    written = [[F(x) for x in row] for row in sheet.whists]
    for i in range(n):
        for j in range(n):
            if i != j:
                written[j][i] += F(r.mountain_point_whists) * (sheet.mountain[i] - low) / share
                written[i][j] += F(r.pool_point_whists) * sheet.pool[i] / share
    return tuple(sum((written[i][j] - written[j][i] for j in range(n) if j != i), F(0)) for i in range(n))


# -- reviewed defects ----------------------------------------------------------------------
@pytest.mark.parametrize("profile", ["classic", "sochi"])
def test_ten_checked_is_played_and_can_fail(profile):
    rules = Rules.profile(profile)
    # RULES.md §3.4 checked: both pass → still played; 9 of 10 is a failed contract
    s = score_deal(game(A, "10S", ["pass", "pass"], (9, 1, 0)), rules)
    assert s.pool == (0, 0, 0) and s.mountain == (10, 0, 0)
    # consolation 10 per undertrick by each defender; no trick whists, no obligation
    assert w(s, B, A) == 10 and w(s, C, A) == 10 and w(s, A, B) == 0 and s.mountain[B] == s.mountain[C] == 0
    assert score_deal(game(A, "10S", [], (9, 0, 1)), rules) == s  # whist calls are optional
    made = score_deal(game(A, "10NT", [], (10, 0, 0)), rules)
    assert made.pool == (10, 0, 0) and made.mountain == (0, 0, 0) and made.whists == s.empty(3).whists
    with pytest.raises(ScoringError, match="tricks"):
        score_deal(game(A, "10S", ["pass", "pass"]), rules)  # played: the tricks are needed
    with pytest.raises(ScoringError, match="§3.4"):
        score_deal(game(A, "10S", ["whist", "pass"], (9, 1, 0)), rules)
    g = {"players": ["A", "B", "C"], "rules": profile, "deals": [
        {"declarer": "A", "contract": "10S", "whist": {"B": "pass", "C": "pass"},
         "tricks": {"A": 9, "B": 1, "C": 0}}]}
    d = sheet_from_game(g).to_dict()["sheet"]
    assert d["A"]["pool"] == 0 and d["A"]["mountain"] == 10 and d["B"]["whists"]["A"] == 10
    del g["deals"][0]["whist"]
    assert sheet_from_game(g).to_dict()["sheet"] == d


def test_ten_obligation1_keeps_the_whist_decision():
    s = score_deal(game(A, "10S", ["pass", "pass"]), LENINGRAD)
    assert s.pool == (10, 0, 0)
    s = score_deal(game(A, "10S", ["whist", "pass"], (10, 0, 0)), ROSTOV)
    assert s.pool == (10, 0, 0) and s.mountain[B] == 5  # half-responsible: 10/2 for the missing trick


def test_contract_balance_ten_checked_ignores_calls():
    assert contract_balance("10S", 9, ("pass", "pass"), SOCHI) == contract_balance("10S", 9, ("whist", "pass"), SOCHI)
    assert contract_balance("10S", 9, ("pass", "pass"), SOCHI)[0] < 0  # not counted as made


def test_stage_zero_bonus_is_capped_like_the_price():
    assert score_deal(AllPassDeal((0, 3, 7)), LENINGRAD, 3, 2).pool == (3, 0, 0)
    assert score_deal(AllPassDeal((0, 3, 7)), LENINGRAD, 3, 3).pool == (3, 0, 0)
    assert score_deal(AllPassDeal((0, 3, 7)), LENINGRAD, 3, 9).pool == (3, 0, 0)
    flat = SOCHI.replace(raspasy_progression="flat", raspasy_zero_bonus="stage")
    assert score_deal(AllPassDeal((0, 3, 7)), flat, 3, 4).pool == (1, 0, 0)
    assert LENINGRAD.raspasy_stage(7) == 3


BASE = {"players": ["A", "B", "C"]}


@pytest.mark.parametrize("deal,msg", [
    ({"declarer": ["A"], "contract": "6S", "whist": {"B": "pass", "C": "pass"}}, "player must be named"),
    ({"dealer": {"x": 1}, "all_pass": True, "tricks": {"A": 10}}, "player must be named"),
    ({"declarer": "A", "contract": ["6S"], "whist": {"B": "pass", "C": "pass"}}, "contract must be text"),
    ({"declarer": "A", "contract": 6, "whist": {"B": "pass", "C": "pass"}}, "contract must be text"),
    ({"all_pass": "false", "tricks": {"A": 10}}, "\"all_pass\" must be true or false"),
    ({"all_pass": 1, "tricks": {"A": 10}}, "\"all_pass\" must be true or false"),
    ({"all_pass": True, "declarer": "A", "contract": "6S", "tricks": {"A": 10}}, "contradict"),
    ({"all_pass": True, "open": True, "tricks": {"A": 10}}, "contradict"),
    ({"declarer": "A", "contract": "6S", "whist": {"B": "whist", "C": "pass"}, "open": "no",
      "tricks": {"A": 6, "B": 4}}, "\"open\" must be true or false"),
    ({"declarer": "A", "contract": "6S", "whist": {"B": "whist", "C": "pass"}, "open": "false",
      "tricks": {"A": 6, "B": 4}}, "\"open\" must be true or false (a JSON boolean), or a word open or closed"),
    ({"declarer": "A", "contract": "6S", "whist": {"B": "whist", "C": "pass"}, "open": 1,
      "tricks": {"A": 6, "B": 4}}, "\"open\" must be true or false"),
    ({"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"},
      "tricks": {"A": 5, "B": 5}}, "not played"),
    ({"declarer": "A", "contract": "7S", "whist": {"B": "pass", "C": "half"},
      "tricks": {"A": 6, "B": 2, "C": 2}}, "not played"),
    ({"declarer": "A", "contract": "6S", "whist": [["pass"], "pass"]}, "a whist call is a word"),
    ({"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"}, "tricks": [6, 4, 0]}, "tricks"),
])
def test_game_file_wrong_types_and_contradictions(deal, msg):
    with pytest.raises(ScoringError) as exc:
        sheet_from_game(dict(BASE, deals=[deal]))
    assert msg in str(exc.value) and "deal 1" in str(exc.value)


def test_game_file_consistent_tricks_on_unplayed_deal_and_false_all_pass():
    g = dict(BASE, deals=[{"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"},
                           "tricks": {"A": 7, "B": 3}},
                          {"all_pass": False, "declarer": "B", "contract": "6S", "open": False,
                           "whist": {"C": "whist", "A": "pass"}, "tricks": {"B": 6, "C": 4}}])
    d = sheet_from_game(g).to_dict()["sheet"]
    assert d["A"]["pool"] == 2 and d["B"]["pool"] == 2 and d["C"]["whists"]["B"] == 8


@pytest.mark.parametrize("data,msg", [
    (dict(BASE, pool_traget=10, deals=[]), "unknown game file field(s) ['pool_traget']"),
    (dict(BASE, deals=[], comment="x"), "unknown game file field(s) ['comment']"),
    ({"players": ["A", "B", ["C"]], "deals": []}, "players"),
    (dict(BASE, rules=["sochi"], deals=[]), "rules"),
])
def test_game_file_top_level_errors(data, msg):
    with pytest.raises((ScoringError, RulesError)) as exc:
        sheet_from_game(data)
    assert msg in str(exc.value)


def test_contract_balance_of_an_unplayed_deal_ignores_the_tricks():
    # the analyzer asks for every declarer trick count, also under pass/pass and a standing half-whist
    assert contract_balance("6H", 0, ("pass", "pass"), SOCHI) == contract_balance("6H", 10, ("pass", "pass"), SOCHI)
    assert contract_balance("7H", 2, ("pass", "half", "pass"), SOCHI)[0] > 0


def test_scoring_takes_a_profile_name():
    deal = game(A, "7H", ["whist", "pass"], (6, 2, 2))
    assert score_deal(deal, "leningrad") == score_deal(deal, Rules.profile("leningrad"))
    assert ScoreSheet.new("ABC", "rostov").rules.name == "rostov"
    assert contract_balance("6S", 6, ("pass", "pass"), "sochi") == contract_balance("6S", 6, ("pass", "pass"))
    with pytest.raises(RulesError, match="got 2"):
        score_deal(deal, 2)


def test_dealer_rotation_goes_on_through_a_deal_that_names_no_dealer():
    # 3 players: the dealer is optional; a deal without one was dealt by the one whose turn it was.
    sheet = ScoreSheet.new("ABC", SOCHI).add(AllPassDeal((2, 4, 4), dealer=A))
    sheet = sheet.add(AllPassDeal((2, 4, 4)))
    assert sheet.next_dealer == C
    sheet = sheet.add(AllPassDeal((2, 4, 4), dealer=C))
    with pytest.raises(ScoringError, match="the deal goes to 'A'"):
        sheet.add(AllPassDeal((2, 4, 4), dealer=B))


@pytest.mark.parametrize("players, dealer", [("NESW", 9), ("NESW", -1), ("ABC", 5), ("ABC", True), ("ABC", 3),
                                             ("NESW", 4), ("ABC", "A")])
def test_a_dealer_outside_the_table_is_an_error(players, dealer):
    first = AllPassDeal((0, 3, 3, 4), dealer=0) if len(players) == 4 else AllPassDeal((2, 4, 4), dealer=0)
    sheet = ScoreSheet.new(players, SOCHI).add(first)
    tricks = (0, 3, 3, 4) if len(players) == 4 else (2, 4, 4)
    with pytest.raises(ScoringError, match=f"the dealer must be a seat 0..{len(players) - 1}"):
        sheet.add(AllPassDeal(tricks, dealer=dealer))


@pytest.mark.parametrize("profile", ["sochi", "leningrad", "classic"])
def test_rescoring_keeps_the_files_own_dealer_rotation(profile):
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parents[1] / "examples" / "four_players.json").read_text())
    sheet = sheet_from_game(data, profile)     # dealt by the classic rotation (RULES.md §1.5)
    assert sheet.deals == 4 and sheet.rules.dealer_rotation == "stays_after_allpass_and_caught_misere"
    assert sheet.rules.name == profile
    data["switches"] = {"dealer_rotation": "every_deal"}
    with pytest.raises(ScoringError, match="deal 3: 'E' deals"):
        sheet_from_game(data, profile)


def test_a_game_without_talon_cannot_be_conceded():
    with pytest.raises(ScoringError, match="9S-hand cannot be conceded"):
        score_deal(game(A, "9S-hand", [], conceded=True), Rules.profile("classic"))


def test_every_rules_parameter_takes_a_profile_name():
    from prefsolve.analysis import allowed_contracts, leader_for
    from prefsolve.auction import ladder, seniority

    assert Contract.parse("10S").whist_obligation("leningrad") == 1
    assert Contract.parse("10S").whist_obligation("sochi") == 0
    assert Contract.parse("10S").whist_obligation() == 1          # no rules: the table of RULES.md §3.3
    assert len(ladder("classic")) == 52 and seniority(Contract.parse("misere"), "sochi") == 15
    assert is_played("half_whist", "sochi") is False
    assert is_played("half_whist", SOCHI.replace(half_whist="played")) is True
    assert leader_for("sochi", 2) == 0 and allowed_contracts(None, "classic")[0] == Contract.parse("6S")
    with pytest.raises(RulesError):
        ladder(3)


def test_contract_as_text_and_whist_calls_as_text():
    by_text = score_deal(GameDeal(0, "7H", "whist pass", (6, 2, 2)))
    assert by_text == score_deal(GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (6, 2, 2)))
    assert by_text.mountain[0] == 4 and by_text.whists[1][0] == 20     # RULES.md §5.10, Sochi example 1


@pytest.mark.parametrize("call, text", [
    (lambda: score_deal(GameDeal(0, "xx", ("whist", "pass"), (6, 2, 2))), "unknown contract 'xx'"),
    (lambda: score_deal(GameDeal(0, 7, ("whist", "pass"), (6, 2, 2))), "must be a Contract or text"),
    (lambda: score_deal(GameDeal(0, "7H", "wp", (6, 2, 2))), "unknown whist call 'wp'"),
    (lambda: score_deal(GameDeal(0, "7H", None, (6, 2, 2))), "whist calls must be text or a sequence"),
    (lambda: score_deal(AllPassDeal(None)), "tricks must be a sequence of 3 numbers"),
    (lambda: score_deal(AllPassDeal((0, 4, 6)), None, 3, -1), "allpass_count"),
    (lambda: score_deal(AllPassDeal((0, 4, 6)), None, 3, 1.5), "allpass_count"),
    (lambda: score_deal(AllPassDeal((0, 4, 6)), None, 5), "3 or 4 players, got 5"),
    (lambda: allpass_balance(None), "tricks must be a sequence"),
    (lambda: contract_balance("7H", 6, None), "whist calls must be text or a sequence"),
    (lambda: ScoreSheet.new(None), "players must be 3 or 4 names"),
    (lambda: ScoreSheet.new("ABC").add("junk"), "not a deal outcome"),
    (lambda: ScoreSheet.new("ABC").add(None), "not a deal outcome"),
    (lambda: settle([], [], []), "3 or 4 players, got 0"),
    (lambda: settle([0, 0], [0, 0], [[0, 0], [0, 0]]), "3 or 4 players, got 2"),
    (lambda: settle(["a", 0, 0], [0, 0, 0], [[0] * 3] * 3), "must hold numbers"),
])
def test_bad_arguments_to_the_scoring_api_are_scoring_errors(call, text):
    with pytest.raises(ScoringError, match=text):
        call()


def test_players_may_be_one_text_of_names():
    assert ScoreSheet.new("Ann Bob Cid").players == ("Ann", "Bob", "Cid")
    assert ScoreSheet.new("NESW").players == ("N", "E", "S", "W")


# -- audit 35: cases no test pinned (each was a surviving mutant) ---------------------------
def test_two_whisters_short_on_a_seven_each_answer_for_their_own_quota():
    # RULES.md §3.6: 7♠ (v = 4, obligation 2, quota 1 each), both whist, B takes 0 and C 1:
    # B alone falls short of his quota and pays 4 (one trick at the full price, Sochi).
    s = score_deal(game(A, "7S", ["whist", "whist"], (9, 0, 1)), SOCHI)
    assert s.pool == (4, 0, 0) and s.mountain == (0, 4, 0)
    assert w(s, C, A) == 4 and w(s, B, A) == 0


def test_four_player_allpass_talon_may_take_two_tricks_charged_to_the_dealer():
    # RULES.md §4.3: the sitting-out dealer owns the talon cards; both may win, never three.
    s = score_deal(AllPassDeal((2, 3, 3, 2), dealer=0), SOCHI, 4)
    assert s.mountain[0] == 2                       # price 1 × the talon's 2 tricks
    assert s.mountain[1:] == (1, 1, 0)              # amnesty: the fewest (2) are free
    with pytest.raises(ScoringError, match="cannot take 3 trick"):
        score_deal(AllPassDeal((3, 3, 2, 2), dealer=0), SOCHI, 4)


def test_gentleman_whist_splits_only_on_remise():
    # RULES.md §5.4: on a made contract the lone whister writes for all the defence's tricks.
    s = score_deal(game(A, "6S", ["whist", "pass"], (7, 2, 1)), LENINGRAD)
    assert w(s, B, A) == 12 and w(s, C, A) == 0     # 3 tricks × 4 (6♠'s price, doubled)
    # On remise (one under) they share the 5 tricks' 20 whists, plus 4 consolation each.
    s = score_deal(game(A, "6S", ["whist", "pass"], (5, 3, 2)), LENINGRAD)
    assert w(s, B, A) == 14 and w(s, C, A) == 14


def test_failed_misere_consolation_by_all_includes_the_sitting_out_dealer():
    rules = Rules.profile("rostov").replace(consolation="all")
    s = score_deal(GameDeal(1, Contract.misere(), (), (0, 1, 5, 4), dealer=0), rules, 4)
    assert s.mountain == (0, 10, 0, 0)
    assert [s.whists[x][1] for x in (0, 2, 3)] == [10, 10, 10]


@pytest.mark.parametrize("switch, value", [("stalingrad", 1), ("players", 3.0), ("pool_target", 10.0),
                                           ("half_whist", None), ("raspasy_amnesty", "true")])
def test_switch_values_of_the_wrong_type_are_refused(switch, value):
    with pytest.raises(RulesError, match=f"bad value .* for switch '{switch}'"):
        Rules().replace(**{switch: value})


def test_leningrad_is_a_table_total_of_thirty():
    # RULES.md §6.1: Leningrad closes on the table total, 30 for 3 players.
    rules = Rules.profile("leningrad")
    assert (rules.pool_closure, rules.pool_target) == ("table_total", 30)
    sheet = ScoreSheet.new("ABC", rules)
    for _ in range(2):                      # 10♠ passed out: made, 10 pool points each time
        sheet = sheet.add(game(A, "10S", ["pass", "pass"]))
    assert not sheet.finished and sheet.pool == (20, 0, 0)
    assert sheet.add(game(B, "10S", ["pass", "pass"])).finished


def test_scoring_messages_count_calls_from_one_and_name_outcomes_in_words():
    with pytest.raises(ScoringError, match=r"^illegal whist call 3 \('whist' in \['whist', 'whist', 'whist'\]\)"):
        score_deal(game(A, "7H", ["whist", "whist", "whist"], (7, 2, 1)))
    with pytest.raises(ScoringError, match=r"^7H was played \(one whister\): the tricks"):
        score_deal(game(A, "7H", ["whist", "pass"]))
    with pytest.raises(RulesError, match=r"bad value 'yes' for switch 'stalingrad' \(expected true or false\)"):
        Rules().replace(stalingrad="yes")


@pytest.mark.parametrize("contract", ["7H", "misere"])
def test_a_sheet_takes_a_contract_as_text_under_every_dealer_rotation(contract):
    calls, tricks = ("whist pass", (2, 7, 1)) if contract == "7H" else ((), (2, 1, 7))
    text = ScoreSheet.new("ABC", "classic").add(GameDeal(1, contract, calls, tricks, dealer=0))
    parsed = ScoreSheet.new("ABC", "classic").add(
        GameDeal(1, Contract.parse(contract), parse_whist_calls(calls), tricks, dealer=0))
    assert text == parsed
    assert text.next_dealer == (0 if contract == "misere" else 1)   # a caught misère keeps the deal


def test_classic_defenders_say_whist_or_pass_only():
    # The classic book (RULES.md §3.2): «будут ли они пытаться забрать у игрока оставшиеся взятки (вист) или
    # отказываются играть данный роббер (пас)»: no half-whist in its reading.
    r = check_whist_calls("6S", ["pass", "half"], Rules.profile("classic"))
    assert not r.legal and "half-whist is not played in the classic rules" in r.reason
    assert check_whist_calls("6S", ["pass", "half"], SOCHI).legal


# -- rules the mutation tests found unpinned (docs/TESTING.md) -----------------------------
def test_american_aid_overflows_past_the_open_pools_then_writes_off_the_mountain():
    # RULES.md §6.2, target 10. B's pool 6, C's 8; A's mountain 4 (7♥ one under, §5.10 Sochi 1),
    # A's pool exactly 10 (a made 10, §3.4), then a 9♠ passed out (v = 8): A's pool 18, surplus 8.
    # The highest open pool first: C (8) needs 2, then B (6) needs 4; A writes 10 whists a point on
    # each he helped, C 20 and B 40. Nobody needs the last 2: they come off A's mountain, 4 -> 2.
    sheet = ScoreSheet.new("ABC", SOCHI.replace(pool_target=10)).add_all([
        game(B, "8S", ["pass", "pass"]), game(C, "9S", ["pass", "pass"]),
        game(A, "7H", ["whist", "pass"], (6, 2, 2)), game(A, "10S", [], (10, 0, 0)),
        game(A, "9S", ["pass", "pass"])])
    assert sheet.pool == (10, 10, 10) and sheet.mountain == (2, 0, 0) and sheet.finished
    assert sheet.whists[A] == (0, 40, 20)
    assert (sheet.whists[B][A], sheet.whists[C][A]) == (20, 4)         # the 7♥'s whists, untouched by the aid


def test_american_aid_tie_goes_first_clockwise_from_the_helper():
    # RULES.md §6.2: C (seat 2) helps; A and B tie at 2. Clockwise from C comes A (seat 0)
    # before B: A's pool 2 -> 4 and C writes 2 × 10 = 20 on A, nothing on B.
    sheet = ScoreSheet.new("ABC", SOCHI.replace(pool_target=10)).add_all([
        game(A, "6S", ["pass", "pass"]), game(B, "6S", ["pass", "pass"]),
        game(C, "10S", [], (0, 0, 10)), game(C, "6S", ["pass", "pass"])])
    assert sheet.pool == (4, 2, 10) and sheet.whists[C] == (20, 0, 0)
    # Four players, target 2: B (seat 1) makes 7♠ passed out, pool 4, surplus 2, and the three
    # others tie at 0: clockwise from B, seat 2 takes the 2 points (20 whists), seats 3 and 0 none.
    four = ScoreSheet.new("ABCD", SOCHI.replace(pool_target=2)).add(
        GameDeal(1, Contract.parse("7S"), ("pass", "pass"), dealer=0))
    assert four.pool == (0, 2, 2, 0) and four.whists[1] == (0, 0, 20, 0)


def test_american_aid_writes_into_the_others_mountains_what_the_own_mountain_cannot_take():
    # RULES.md §6.2, target 4: B and C closed (7♠ passed out, v = 4). A's mountain 2 (6♠ one
    # under); then a made 10 (v = 10): surplus 10 - 4 = 6, nobody needs it, the mountain takes 2
    # (down to 0) and the other 4 go into B's and C's mountains.
    deals = [game(B, "7S", ["pass", "pass"]), game(C, "7S", ["pass", "pass"]),
             game(A, "6S", ["whist", "pass"], (5, 3, 2)), game(A, "10S", [], (10, 0, 0))]
    sheet = ScoreSheet.new("ABC", SOCHI.replace(pool_target=4)).add_all(deals)
    assert sheet.pool == (4, 4, 4) and sheet.mountain == (0, 4, 4)
    # ... which settles as A's own mountain taken down by all 6, to -4 (RULES.md §6.2).
    assert sheet.settlement() == settle(sheet.pool, (-4, 0, 0), sheet.whists, sheet.rules)


def test_rostov_allpass_tie_with_an_odd_number_of_tricks():
    # Three players who tie share an even remainder (10 - 2t); with four, the talon's trick
    # makes it odd. Dealer A sits out, the talon takes 1 (charged to him at price 1, RULES.md
    # §5.8); B and C take 2 each, D 5. floor_half: each writes ⌊5/2⌋ × 5 = 10 on D; split: they
    # share 5 × 5 = 25, 25/2 each.
    rules = ROSTOV.replace(raspasy_talon="sets_suit")
    s = score_deal(AllPassDeal((1, 2, 2, 5), dealer=0), rules, 4)
    assert s.whists[1][3] == 10 and s.whists[2][3] == 10 and s.mountain == (1, 0, 0, 0)
    assert sum(map(sum, s.whists)) == 20 and s.pool == (0, 0, 0, 0)
    s = score_deal(AllPassDeal((1, 2, 2, 5), dealer=0), rules.replace(rostov_raspasy_tie="split"), 4)
    assert s.whists[1][3] == F(25, 2) and s.whists[2][3] == F(25, 2) and sum(map(sum, s.whists)) == 25


@pytest.mark.parametrize("talon, whists", [
    (("7S", "7H"), 20),     # two sevens: 10 each
    (("8S", "7S"), 20),     # a seven and an eight of one suit, in either order
    (("7S", "8H"), 10),     # seven and eight of different suits: the seven alone
    (("AH", "7D"), 10),     # an ace brings nothing on a misère
    (("8S", "9S"), 0), (("AS", "AH"), 0)])
def test_dealer_talon_whists_on_a_misere(talon, whists):
    # RULES.md §5.9: the sitting-out dealer (seat 0) writes on the misère player (seat 1)
    # 10 per seven of the talon, 20 for a seven and an eight of one suit, × whist_price_multiplier.
    deal = GameDeal(1, Contract.misere(), (), (0, 0, 5, 5), dealer=0, talon=talon)
    classic = Rules.profile("classic")
    s = score_deal(deal, classic.replace(dealer_talon_whists_misere=True), 4)
    assert s.whists[0][1] == whists and s.pool == (0, 10, 0, 0)
    leningrad = LENINGRAD.replace(dealer_talon_whists=True)           # whist_price_multiplier 2
    assert score_deal(deal, leningrad, 4).whists[0][1] == 2 * whists
    assert score_deal(deal, classic, 4).whists[0][1] == 0             # the classic book: tricks only


def test_defence_shortfall_of_more_than_one_trick():
    # RULES.md §3.6, §5.6. 6♠ (need 4), B whists alone, the defence takes 1: B answers for 3
    # tricks at wv = 2 (Sochi, full): 6; he writes 2 for the one trick.
    s = score_deal(game(A, "6S", ["whist", "pass"], (9, 0, 1)), SOCHI)
    assert s.mountain == (0, 6, 0) and w(s, B, A) == 2 and s.pool == (2, 0, 0)
    # 7♠ (need 2, wv 4) taken 10-0 by A in Rostov (half-responsible): 2 × 2 = 4.
    s = score_deal(game(A, "7S", ["whist", "pass"], (10, 0, 0)), ROSTOV)
    assert s.mountain == (0, 4, 0) and s.pool == (4, 0, 0)
    # Two whisters on 6♠ (quota 2 each), B 0 and C 1: B misses 2 (4), C 1 (2) individually;
    # one unit each (2 and 2) under one_unit.
    s = score_deal(game(A, "6S", ["whist", "whist"], (9, 0, 1)), SOCHI)
    assert s.mountain == (0, 4, 2) and w(s, C, A) == 2
    s = score_deal(game(A, "6S", ["whist", "whist"], (9, 0, 1)), SOCHI.replace(two_whister_shortfall="one_unit"))
    assert s.mountain == (0, 2, 2)
    # A half-whist played on 6♠ (quota 2) with no defence trick: 2 missing tricks, 4.
    s = score_deal(game(A, "6S", ["pass", "half", "pass"], (10, 0, 0)), SOCHI.replace(half_whist="played"))
    assert s.mountain == (0, 0, 4) and w(s, C, A) == 0


def test_gentleman_whist_when_the_lone_whister_sits_second():
    # RULES.md §5.4: B passes, C whists; 6♠ one under in Leningrad (wv = 4): the 5 defence tricks'
    # 20 whists are split 10 and 10, and each adds the consolation of 4: 14 each; A's mountain 4.
    s = score_deal(game(A, "6S", ["pass", "whist"], (5, 3, 2)), LENINGRAD)
    assert w(s, B, A) == 14 and w(s, C, A) == 14 and s.mountain == (4, 0, 0)
    # Made, it is scored greedily: C writes for the 4 defence tricks, 16; B nothing.
    s = score_deal(game(A, "6S", ["pass", "whist"], (6, 3, 1)), LENINGRAD)
    assert w(s, C, A) == 16 and w(s, B, A) == 0 and s.pool == (2, 0, 0)
    # Greedy (Sochi 7♥ one under, §5.10 Sochi 1 with the calls the other way): C 20, B 4.
    s = score_deal(game(A, "7H", ["pass", "whist"], (6, 2, 2)), SOCHI)
    assert w(s, C, A) == 20 and w(s, B, A) == 4


def test_the_allpass_streak_of_a_running_sheet():
    # RULES.md §5.8, Sochi (1-2-3, amnesty): four all-passes in a row are priced 1, 2, 3, 3; a
    # contract passed out by both defenders resets the streak, and the next all-pass is priced 1.
    #   1. (0, 4, 6) at 1: A's pool +1 (no trick), mountains B +4, C +6
    #   2. (2, 3, 5) at 2, 2 off each: B +2, C +6
    #   3. (1, 4, 5) at 3, 1 off each: B +9, C +12
    #   4. (1, 4, 5) at 3 again: B +9, C +12
    #   5. B's 6♠ passed out: B's pool +2
    #   6. (1, 4, 5) at 1: B +3, C +4
    deals = [AllPassDeal((0, 4, 6)), AllPassDeal((2, 3, 5)), AllPassDeal((1, 4, 5)), AllPassDeal((1, 4, 5)),
             game(B, "6S", ["pass", "pass"]), AllPassDeal((1, 4, 5))]
    sheet = ScoreSheet.new("ABC", SOCHI)
    streaks = []
    for deal in deals:
        sheet = sheet.add(deal)
        streaks.append(sheet.allpass_streak)
    assert streaks == [1, 2, 3, 4, 0, 1]
    assert sheet.pool == (1, 2, 0) and sheet.mountain == (0, 27, 40)


def test_a_game_file_s_talon_and_open():
    # RULES.md §9: "talon" feeds the dealer's talon whists (§5.9); "open" defaults to true,
    # and it is recorded: open or closed, the same score.
    deal = {"declarer": "B", "contract": "7H", "whist": {"C": "whist", "D": "pass"}, "dealer": "A",
            "tricks": {"B": 7, "C": 2, "D": 1}, "talon": ["AS", "KS"]}
    data = {"players": ["A", "B", "C", "D"], "rules": "classic", "deals": [deal]}
    sheet = sheet_from_game(data)
    assert sheet.whists[0][1] == 8 and sheet.whists[2][1] == 12      # A+K of one suit: 2 × wv 4
    assert sheet.pool == (0, 4, 0, 0)
    no_talon = dict(deal)
    del no_talon["talon"]
    assert sheet_from_game(dict(data, deals=[no_talon])).whists[0][1] == 0
    parsed = deal_from_dict(deal, ["A", "B", "C", "D"])
    assert parsed.open is True and parsed.talon == ("AS", "KS") and parsed.dealer == 0
    closed = deal_from_dict(dict(deal, open="стоя"), ["A", "B", "C", "D"])
    assert closed.open is False and score_deal(closed, "classic", 4) == score_deal(parsed, "classic", 4)
    for bad in (["AS"], "AS KS", ["AS", 7]):
        with pytest.raises(ScoringError, match="\"talon\" must be a list of 2 cards"):
            deal_from_dict(dict(deal, talon=bad), ["A", "B", "C", "D"])


@pytest.mark.parametrize("call, message", [
    (lambda: talon_tricks(["AS", "KS", "QS"]), "the talon has exactly 2 cards, got ['AS', 'KS', 'QS']"),
    (lambda: talon_tricks("ASKS"), "the talon has exactly 2 cards, got 'ASKS'"),
    (lambda: talon_tricks(["AS", "ZZ"]), "unknown talon card 'ZZ': expected a suit (S C D H, ♠ ♣ ♦ ♥ or п т б ч) and a "
                                         "rank (7 8 9 10 J Q K A or В Д К Т), e.g. 'SA', 'H10' or 'Тп'"),
    (lambda: talon_tricks(["AS", "♠A"]), "the talon holds the same card twice: ['AS', '♠A']"),
    (lambda: deal_from_dict(["x"], "ABC"), "a deal must be an object, got ['x']"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S", "x": 2, "bid": 1}, "ABC"),
     "unknown deal field(s) ['bid', 'x']"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "misere", "whist": {"B": "pass"}}, "ABC"),
     "§3.2: nobody whists on misère; omit \"whist\""),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S"}, "ABC"),
     "a 6S deal needs the defenders' \"whist\" calls"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S", "whist": "pass pass"}, "ABC"),
     "\"whist\" must map defenders to whist/pass/half, got 'pass pass'"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S", "whist": {"B": "pass"}}, "ABC"),
     "\"whist\" needs a call for each defender: 'B' and 'C'"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S", "whist": {"B": "pass"}, "dealer": "A"}, "ABCD"),
     "declarer 'A' sits out this deal"),
    (lambda: deal_from_dict({"declarer": 5, "contract": "6S"}, "ABC"),
     "a player must be named by a string, got 5 (players: A, B, C)"),
    (lambda: deal_from_dict({"declarer": "Z", "contract": "6S"}, "ABC"), "unknown player 'Z' (players: A, B, C)"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"},
                             "tricks": [6, 2, 2]}, "ABC"),
     "\"tricks\" must map player names to tricks, got [6, 2, 2]"),
    (lambda: contract_balance("6S", True, ("pass", "pass")), "declarer tricks must be 0..10, got True"),
    (lambda: contract_balance("6S", 6, ("pass", "pass"), defender_tricks=(2, 1)),
     "defender tricks (2, 1) do not make 10 with 6"),
    (lambda: score_deal(GameDeal(0, Contract.misere(), ("pass",), (0, 5, 5))),
     "illegal whist call 1 ('pass' in ['pass']): §3.2: misère has no whist calls, not even passes: both opponents "
     "catch the declarer; give no calls"),
])
def test_scoring_errors_say_exactly_what_is_wrong(call, message):
    with pytest.raises(ScoringError) as info:
        call()
    assert str(info.value) == message


def test_a_game_file_s_whist_calls_in_speaking_order():
    # RULES.md §9: the mapping gives each defender's final word; C's defenders are A (his
    # left, first) then B. A list is the calls in speaking order.
    deal = {"declarer": "C", "contract": "6S", "whist": {"B": "pass", "A": "whist"}}
    assert deal_from_dict(deal, "ABC").whist_calls == ("whist", "pass")
    assert deal_from_dict(dict(deal, whist={"A": "pass", "B": "half"}), "ABC").whist_calls == ("pass", "half", "pass")
    assert deal_from_dict(dict(deal, whist={"A": "whist", "B": "half"}), "ABC").whist_calls == \
        ("pass", "half", "whist")
    assert deal_from_dict(dict(deal, whist=["пас", "полвиста", "вист"]), "ABC").whist_calls == \
        ("pass", "half", "whist")
    # A 10 under ten_whist="checked" (Sochi) needs no calls; under obligation1 (Leningrad) it does.
    ten = {"declarer": "A", "contract": "10S", "tricks": {"A": 10}}
    assert deal_from_dict(ten, "ABC").whist_calls == ()
    with pytest.raises(ScoringError, match="a 10S deal needs the defenders' \"whist\" calls"):
        deal_from_dict(ten, "ABC", "leningrad")


def test_single_deal_balances_follow_the_rules_given():
    # RULES.md §6.4 and §6.5: a 6♠ passed out in Leningrad puts 2 in the pool, worth 20 whists a
    # point: 2 × 20 × 2/3 = 80/3 to the declarer, -40/3 to each defender.
    assert contract_balance(Contract.parse("6S"), 6, ("pass", "pass"), "leningrad") == (F(80, 3), F(-40, 3), F(-40, 3))
    # A 10 passed out in Leningrad (ten_whist=obligation1, §3.4) is not played: made, whatever
    # the tricks; in Sochi the 10 is always played, so 8 tricks are two under.
    made = contract_balance("10S", 10, ("pass", "pass"), "leningrad")
    assert contract_balance("10S", 8, ("pass", "pass"), "leningrad") == made == (F(400, 3), F(-200, 3), F(-200, 3))
    assert contract_balance("10S", 8, ("pass", "pass"), "sochi") != contract_balance("10S", 10, (), "sochi")
    # All-pass (RULES.md §5.8) in Leningrad at the second stage (price 4): A (no trick) earns the
    # stage, 2 pool points; B and C take 16 and 24 into the mountain. Mean mountain 40/3, mean
    # pool 2/3: A 10 × 40/3 + 20 × (2 - 2/3) = 160, B 10 × (40/3 - 16) - 40/3 = -40, C -120.
    assert allpass_balance((0, 4, 6), "leningrad", allpass_count=1) == (160, -40, -120)


def test_a_sheet_s_json_form_keeps_fractions_and_says_when_it_is_finished():
    # The Rostov split of an odd payment (RULES.md §5.8) makes half whists: "25/2" in JSON.
    rules = ROSTOV.replace(raspasy_talon="sets_suit", rostov_raspasy_tie="split")
    sheet = ScoreSheet.new("ABCD", rules).add(AllPassDeal((1, 2, 2, 5), dealer=0))
    d = sheet.to_dict()
    assert d["sheet"]["B"]["whists"] == {"A": 0, "C": 0, "D": "25/2"} and d["sheet"]["A"]["mountain"] == 1
    assert d["finished"] is False and d["finished_after"] is None
    passed_out = [game(p, "6S", ["pass", "pass"]) for p in (A, B, C)]
    done = ScoreSheet.new("ABC", SOCHI.replace(pool_target=2)).add_all(passed_out)
    assert done.to_dict()["finished"] is True and done.to_dict()["finished_after"] == 3



@pytest.mark.parametrize("call, message", [
    (lambda: score_deal(game(A, "6S", ["pass", "pass"]), SOCHI, 5), "a game has 3 or 4 players, got 5"),
    (lambda: score_deal(game(A, "6S", ["pass", "pass"]), SOCHI, 4),
     "a 4-player deal needs the dealer's seat (0..3), got None"),
    (lambda: score_deal(game(B, "6S", ["pass", "pass"], dealer=4), SOCHI, 4),
     "a 4-player deal needs the dealer's seat (0..3), got 4"),
    (lambda: score_deal(AllPassDeal("0046"), SOCHI), "tricks must be a sequence of 3 numbers, got '0046'"),
    (lambda: score_deal(AllPassDeal((5, 5)), SOCHI), "expected tricks for 3 players, got [5, 5]"),
    (lambda: score_deal(AllPassDeal((11, -1, 0)), SOCHI), "a player's tricks must be 0..10, got 11"),
    (lambda: score_deal(AllPassDeal((5, 5, -0.0)), SOCHI), "a player's tricks must be 0..10, got -0.0"),
    (lambda: score_deal(AllPassDeal((5, 5, 1)), SOCHI), "tricks must sum to 10, got [5, 5, 1] (sum 11)"),
    (lambda: score_deal(AllPassDeal((5, 5, 0)), SOCHI, 2), "a game has 3 or 4 players, got 2"),
    (lambda: score_deal(AllPassDeal((5, 5, 0)), SOCHI, 3, -1),
     "allpass_count (the all-pass deals right before this one) must be a whole number >= 0, got -1"),
    (lambda: score_deal("x", SOCHI), "not a deal outcome: 'x'"),
    (lambda: score_deal(GameDeal(0, 7, ("pass", "pass")), SOCHI),
     "a deal's contract must be a Contract or text such as '7H', got 7"),
    (lambda: score_deal(GameDeal(0, "6X", ("pass", "pass")), SOCHI), "unknown contract '6X'"),
    (lambda: score_deal(GameDeal(0, "6S", ("maybe", "pass")), SOCHI),
     "unknown whist call 'maybe' (expected whist, pass or half: вист, пас, полвиста)"),
    (lambda: score_deal(game(A, "6S", ["pass", "pass"], dealer=0), SOCHI, 4),
     "declarer seat 0 is not an active player of this deal (active: [1, 2, 3])"),
    (lambda: score_deal(game(A, "9S-hand", ["pass", "pass"]), SOCHI),
     "contract '9S-hand' is not on the sochi ladder (§2.5: games without talon need ladder_extensions='hand_games')"),
    (lambda: score_deal(game(A, "6S", ["pass"]), SOCHI), "the whist calls ['pass'] on 6S are incomplete"),
    (lambda: score_deal(game(B, "6S", ["pass", "pass"], (1, 6, 2, 1), dealer=0), SOCHI, 4),
     "the sitting-out dealer cannot take tricks in a game, got [1, 6, 2, 1]"),
    (lambda: score_deal(game(A, "6S", ["pass", "pass"], (5, 3, 2)), SOCHI),
     "6S was not played (both defenders passed) and counts as made, but the tricks give the declarer only 5 of 6; "
     "correct or omit \"tricks\""),
    (lambda: score_deal(game(A, "6S", ["pass", "half", "pass"], (5, 3, 2)), SOCHI),
     "6S was not played (the half-whist stood) and counts as made, but the tricks give the declarer only 5 of 6; "
     "correct or omit \"tricks\""),
    (lambda: score_deal(game(A, "misere", [], conceded=True), SOCHI),
     "misère cannot be conceded «без трёх» (§3.1 concedes a game's undertricks)"),
    (lambda: score_deal(game(A, "9S-hand", [], conceded=True), "classic"),
     "9S-hand cannot be conceded «без трёх»: the concession follows seeing the talon (§3.1), which a game without "
     "talon never takes"),
    (lambda: score_deal(game(A, "7S", [], (5, 3, 2), conceded=True), SOCHI),
     "a conceded 7S is not played; omit \"tricks\""),
    (lambda: score_deal(game(A, "7S", ["whist", "whist", "whist"], conceded=True), SOCHI),
     "illegal whist call 3 ('whist' in ['whist', 'whist', 'whist']): §3.2: the whist calls are already over"),
    (lambda: score_deal(AllPassDeal((1, 3, 3, 3), dealer=0), ROSTOV, 4),
     "the sitting-out dealer's talon cannot take 1 trick(s) on all-pass under raspasy_talon='ignored'"),
    (lambda: settle(["x", 0, 0], [0, 0, 0], [[0] * 3] * 3),
     "pool, mountain and whists must hold numbers (whole, Fraction or decimal text)"),
    (lambda: settle([0, 0], [0, 0], [[0] * 2] * 2), "a game has 3 or 4 players, got 2 pool entries"),
    (lambda: settle([0, 0, 0], [0, 0], [[0] * 3] * 3), "pool, mountain and whists must have one entry per player"),
    (lambda: settle([0, 0, 0], [0, 0, 0], [[0] * 3] * 2), "pool, mountain and whists must have one entry per player"),
    (lambda: settle([0, 0, 0], [0, 0, 0], [[0] * 3, [0] * 3, [0] * 2]),
     "pool, mountain and whists must have one entry per player"),
    (lambda: ScoreSheet.new(["A", "B"]), "a game has 3 or 4 players, got 2: ['A', 'B']"),
    (lambda: ScoreSheet.new(5), "players must be 3 or 4 names, got 5"),
    (lambda: ScoreSheet.new(["A", "A", "B"]), "player names must be distinct, got ['A', 'A', 'B']"),
    (lambda: ScoreSheet.new("ABC").add("x"), "not a deal outcome (GameDeal or AllPassDeal): 'x'"),
    (lambda: ScoreSheet.new("ABC").add(AllPassDeal((5, 5, 0), dealer=7)), "the dealer must be a seat 0..2, got 7"),
    (lambda: ScoreSheet.new("ABC").add(AllPassDeal((5, 5, 0), dealer=0)).add(AllPassDeal((5, 5, 0), dealer=0)),
     "'A' deals, but after deal 1 the deal goes to 'B' (dealer_rotation='every_deal': it moves clockwise after "
     "every deal)"),
    (lambda: ScoreSheet.new("ABC", "classic").add_all([game(A, "6S", ["pass", "pass"], dealer=0)] * 2),
     "deal 2: 'A' deals, but after deal 1 the deal goes to 'B' (dealer_rotation='stays_after_allpass_and_caught_"
     "misere': it stays after all-pass and a caught misère, else moves clockwise; after 3 all-passes in a row it "
     "moves on)"),
    (lambda: ScoreSheet.new("ABC", Rules.profile("classic").replace(allpass_dealer_limit=0)).add_all(
        [game(A, "6S", ["pass", "pass"], dealer=0)] * 2),
     "deal 2: 'A' deals, but after deal 1 the deal goes to 'B' (dealer_rotation='stays_after_allpass_and_caught_"
     "misere': it stays after all-pass and a caught misère, else moves clockwise)"),
    (lambda: game_rules([]), "a game file must be a JSON object"),
    (lambda: game_rules({"players": [], "foo": 1}),
     "unknown game file field(s) ['foo'] (expected: players, rules, pool_target, switches, deals)"),
    (lambda: game_rules({"rules": 5}), "\"rules\" must be a profile name, got 5"),
    (lambda: sheet_from_game({"players": "ABC"}), "\"players\" must be a list of 3 or 4 names, got 'ABC'"),
    (lambda: sheet_from_game({"players": ["A", "B", 3]}),
     "\"players\" must be a list of 3 or 4 names, got ['A', 'B', 3]"),
    (lambda: sheet_from_game({"players": ["A", "B", "C"], "deals": {}}), "\"deals\" must be a list, got {}"),
    (lambda: sheet_from_game({"players": ["A", "B", "C"], "deals": [{"all_pass": True}]}),
     "deal 1: an all-pass deal needs \"tricks\""),
    (lambda: deal_from_dict({"all_pass": 1}, "ABC"), "\"all_pass\" must be true or false (a JSON boolean), got 1"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S", "conceded": "yes"}, "ABC"),
     "\"conceded\" must be true or false (a JSON boolean), got 'yes'"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S", "open": "maybe"}, "ABC"),
     "\"open\" must be true or false (a JSON boolean), or a word open or closed (открыто/закрыто, лёжа/стоя), "
     "got 'maybe'"),
    (lambda: deal_from_dict({"declarer": "A", "contract": "6S"}, "ABCD"), "a 4-player deal needs a \"dealer\""),
    (lambda: deal_from_dict({"all_pass": True, "contract": "6S", "whist": 1}, "ABC"),
     "an all-pass deal cannot have \"contract\", \"whist\" (contradicts \"all_pass\": true)"),
    (lambda: deal_from_dict({"all_pass": True}, "ABC"), "an all-pass deal needs \"tricks\""),
    (lambda: deal_from_dict({"contract": "6S"}, "ABC"),
     "a deal needs \"declarer\" and \"contract\" (or \"all_pass\": true)"),
])
def test_every_scoring_error_says_what_is_wrong(call, message):
    with pytest.raises(ScoringError) as info:
        call()
    assert str(info.value) == message


def test_a_game_file_s_switches_must_be_an_object():
    with pytest.raises(RulesError) as info:
        game_rules({"switches": 5})
    assert str(info.value) == "\"switches\" must be an object, got 5"


def test_a_half_whist_that_stood_is_half_the_obligation():
    # RULES.md §5.3: not played, made; the half-whister writes wv × need / 2: on a 7 (need 2)
    # wv × 1, on a 6 (need 4) wv × 2.
    s = score_deal(game(A, "7S", ["pass", "half", "pass"]), SOCHI)
    assert s.pool == (4, 0, 0) and w(s, C, A) == 4 and w(s, B, A) == 0 and s.mountain == (0, 0, 0)
    s = score_deal(game(A, "6S", ["pass", "half", "pass"]), LENINGRAD)     # wv = 4 (doubled)
    assert s.pool == (2, 0, 0) and w(s, C, A) == 8


@pytest.mark.parametrize("switches, each, mountain", [
    # Leningrad 7♥ (v 4, wv 8), B whists alone, A takes 5: two under. The 5 defence tricks' 40
    # whists split 20 and 20 (gentleman); consolation per undertrick by the switch (RULES.md §5.5);
    # the mountain v × 2 × 2 = 16 unless remise_mountain=false.
    ({}, 20 + 8 * 2, 16),
    ({"consolation_price": "value"}, 20 + 4 * 2, 16),
    ({"consolation_price": "fixed10"}, 20 + 10 * 2, 16),
    ({"consolation": "none"}, 20, 16),
    ({"remise_mountain": False}, 20 + 8 * 2, 0),
])
def test_remise_consolation_and_mountain_switches(switches, each, mountain):
    s = score_deal(game(A, "7H", ["whist", "pass"], (5, 3, 2)), LENINGRAD.replace(**switches))
    assert w(s, B, A) == each and w(s, C, A) == each and s.mountain == (mountain, 0, 0) and s.pool == (0, 0, 0)


def test_rostov_allpass_three_tied_and_the_price_of_a_stage():
    # RULES.md §5.8: when all three tie, nobody pays (four players: the talon took 1, the dealer's).
    s = score_deal(AllPassDeal((1, 3, 3, 3), dealer=0), ROSTOV.replace(raspasy_talon="sets_suit"), 4)
    assert sum(map(sum, s.whists)) == 0 and s.mountain == (1, 0, 0, 0)
    # 5 × r per trick: at the second stage of 1-2-3, r = 2: A (1 trick) writes 10 × 3 on B, 10 × 6 on C.
    s = score_deal(AllPassDeal((1, 3, 6)), ROSTOV.replace(raspasy_progression="1-2-3"), allpass_count=1)
    assert w(s, A, B) == 30 and w(s, A, C) == 60 and sum(map(sum, s.whists)) == 90


def test_dealer_talon_whists_on_a_game_at_the_doubled_price():
    # RULES.md §5.9: wv × the talon's tricks; two aces 3, wv of a 7 in Leningrad 8: 24.
    deal = GameDeal(1, Contract.parse("7H"), ("whist", "pass"), (0, 7, 2, 1), dealer=0, talon=("AS", "AH"))
    assert score_deal(deal, LENINGRAD.replace(dealer_talon_whists=True), 4).whists[0][1] == 24
    assert score_deal(deal, LENINGRAD, 4).whists[0][1] == 0           # the switch off: nothing
    three = GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (7, 2, 1), talon=("AS", "AH"))
    assert score_deal(three, LENINGRAD.replace(dealer_talon_whists=True)).whists == score_deal(three, LENINGRAD).whists


def test_a_game_file_s_deals_read_with_the_file_s_rules():
    # RULES.md §9: a conceded deal may give its whist calls; a deal says when it was not conceded.
    conceded = deal_from_dict({"declarer": "A", "contract": "7S", "conceded": True, "whist": ["whist", "pass"]}, "ABC")
    assert conceded.conceded is True and conceded.whist_calls == ("whist", "pass")
    played = deal_from_dict({"declarer": "A", "contract": "7S", "whist": ["pass", "pass"]}, "ABC")
    assert played.conceded is False and played.talon is None and played.open is True
    # No deals: an empty sheet. Settings (--set) apply over the file.
    empty = sheet_from_game({"players": ["A", "B", "C"]}, settings=["pool_target=4"])
    assert empty.deals == 0 and empty.rules.pool_target == 4 and empty.pool == (0, 0, 0)
    # A deal is read under the file's rules: a 10 needs whist calls in Leningrad (§3.4).
    ten = {"players": ["A", "B", "C"], "rules": "leningrad",
           "deals": [{"declarer": "A", "contract": "10S", "tricks": {"A": 10}}]}
    with pytest.raises(ScoringError) as info:
        sheet_from_game(ten)
    assert str(info.value) == "deal 1: a 10S deal needs the defenders' \"whist\" calls"
    assert sheet_from_game(ten, "sochi").pool == (10, 0, 0)      # Sochi: the 10 is caught, not whisted


def test_american_aid_of_a_single_point():
    # RULES.md §6.2, target 10. B makes 7♠ (pool 4) against A's lone whist: A writes 4 × 3 = 12 on
    # B. A makes a 10 (pool 10, closed). On the all-pass (0, 4, 6) A's trick-less bonus (1) is a
    # surplus of one point: the highest open pool is B's (4 > 0), so B gets it, and A writes 10
    # more on B: 22 in all.
    sheet = ScoreSheet.new("ABC", SOCHI.replace(pool_target=10)).add_all([
        game(B, "7S", ["pass", "whist"], (2, 7, 1)), game(A, "10S", [], (10, 0, 0)), AllPassDeal((0, 4, 6))])
    assert sheet.pool == (10, 5, 0) and sheet.whists[A] == (0, 22, 0) and sheet.mountain == (0, 4, 6)


@pytest.mark.parametrize("remise, mountain", [
    # A's mountain 4 (7♥ one under) takes the point off: 3; B's and C's keep the all-pass's 4 and 6.
    (True, (3, 4, 6)),
    # No mountain to take it: the point goes into each other player's mountain, 5 and 7.
    (False, (0, 5, 7)),
])
def test_american_aid_of_a_single_point_nobody_needs(remise, mountain):
    # RULES.md §6.2, target 4: every pool closed (B and C by 7♠ passed out, A by two 6♠), then A's
    # trick-less bonus on the all-pass (0, 4, 6) is one point over.
    deals = [game(B, "7S", ["pass", "pass"]), game(C, "7S", ["pass", "pass"]),
             game(A, "6S", ["pass", "pass"]), game(A, "6S", ["pass", "pass"])]
    if remise:
        deals.append(game(A, "7H", ["whist", "pass"], (6, 2, 2)))
    sheet = ScoreSheet.new("ABC", SOCHI.replace(pool_target=4)).add_all(deals + [AllPassDeal((0, 4, 6))])
    assert sheet.pool == (4, 4, 4) and sheet.mountain == mountain


def test_a_failed_misere_s_consolation_is_the_defenders_alone_unless_all():
    # RULES.md §5.7 (Rostov, mountain_and_consolation): the two defenders each write the 10 on
    # the declarer, the sitting-out dealer only under consolation=all.
    deal = GameDeal(1, Contract.misere(), (), (0, 1, 5, 4), dealer=0)
    s = score_deal(deal, ROSTOV, 4)
    assert s.mountain == (0, 10, 0, 0) and [s.whists[x][1] for x in (0, 2, 3)] == [0, 10, 10]


def test_a_concession_s_whist_calls_are_judged_by_the_rules_given():
    # RULES.md §3.1, §3.2: a half-whist is no call in the classic rules, conceded deal or not.
    conceded = game(A, "7S", ["pass", "half", "pass"], conceded=True)
    with pytest.raises(ScoringError) as info:
        score_deal(conceded, "classic")
    assert str(info.value) == ("illegal whist call 2 ('half' in ['pass', 'half', 'pass']): §3.2: half-whist is not "
                               "played in the classic rules")
    assert score_deal(conceded, SOCHI).mountain == (12, 0, 0)      # «без трёх»: 4 × 3


def test_the_talon_takes_two_tricks_at_most_on_all_pass():
    with pytest.raises(ScoringError) as info:
        score_deal(AllPassDeal((3, 3, 2, 2), dealer=0), SOCHI, 4)
    assert str(info.value) == ("the sitting-out dealer's talon cannot take 3 trick(s) on all-pass under "
                               "raspasy_talon='sets_suit'")


def test_every_amount_is_an_exact_fraction():
    # RULES.md §5.1: every amount is exact. The halves of an obligation (a quota, §3.6) are whole
    # tricks, and no amount is ever a float.
    deals = [(game(A, "6S", ["pass", "half", "pass"], (10, 0, 0)), SOCHI.replace(half_whist="played")),
             (game(A, "6S", ["whist", "whist"], (9, 0, 1)), SOCHI),
             (game(A, "7S", ["pass", "half", "pass"], (9, 1, 0)), SOCHI.replace(half_whist="played")),
             (game(A, "7H", ["whist", "pass"], (5, 3, 2)), LENINGRAD), (AllPassDeal((1, 3, 6)), ROSTOV)]
    for deal, rules in deals:
        s = score_deal(deal, rules)
        amounts = [*s.pool, *s.mountain, *(x for row in s.whists for x in row)]
        assert all(type(x) is F for x in amounts), (deal, amounts)
    assert score_deal(deals[0][0], deals[0][1]).mountain == (0, 0, 4)


def test_one_unit_is_for_a_whister_below_his_quota_only():
    # RULES.md §3.6: 6♠, both whist (quota 2 each); B takes exactly 2, C none: the defence is short,
    # and only C, below his quota, answers: one unit (2) under one_unit, two tricks (4) individually.
    s = score_deal(game(A, "6S", ["whist", "whist"], (8, 2, 0)), SOCHI.replace(two_whister_shortfall="one_unit"))
    assert s.mountain == (0, 0, 2)
    assert score_deal(game(A, "6S", ["whist", "whist"], (8, 2, 0)), SOCHI).mountain == (0, 0, 4)


def test_a_sheet_keeps_each_deal_s_entries():
    deals = [game(A, "7H", ["whist", "pass"], (6, 2, 2)), AllPassDeal((0, 4, 6))]
    sheet = ScoreSheet.new("ABC", SOCHI).add_all(deals)
    assert sheet.deals == 2 and sheet.scores == (score_deal(deals[0], SOCHI), score_deal(deals[1], SOCHI))
