"""The inference calibration of bench/inference_calibration.py: its scores on a hand-built case,
its weights against those of ``advise(..., inference=ε)``, its standard errors."""

import importlib.util
import math
from pathlib import Path

import pytest

from prefsolve.deal import Deal
from prefsolve.game import CARD
from prefsolve.players.advisor import Advisor
from prefsolve.players.base import seat_view
from prefsolve.players.heuristic import HeuristicPlayer
from prefsolve.players.runner import derive_seed, play_deal

_spec = importlib.util.spec_from_file_location(
    "inference_calibration", Path(__file__).resolve().parent.parent / "bench" / "inference_calibration.py")
ic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ic)


def test_scores_of_a_hand_built_case():
    # Two layouts swap cards 0 and 1 between seats 0 and 1; every other card is out of play in both.
    a, b = (0b01, 0b10, 0), (0b10, 0b01, 0)
    s = ic.scores([a, b], [3.0, 1.0], a)
    assert s["log2_p_real"] == pytest.approx(math.log2(0.75))
    # Each of the two cards: 3/4 on its real seat, 1/4 on the other: Brier (1/4)² + (1/4)².
    assert s["log2_place"] == pytest.approx(math.log2(0.75))
    assert s["brier_place"] == pytest.approx(0.125)
    s = ic.scores([a, b], [3.0, 1.0], b)
    assert s["log2_p_real"] == pytest.approx(-2.0)
    assert s["brier_place"] == pytest.approx(0.75 ** 2 * 2)
    assert ic.scores([a], [1.0], a) == {"log2_p_real": 0.0, "log2_place": None, "brier_place": None}


def test_weight_is_the_product_of_the_cards_chances():
    terms = [(1, True, 2, 4), (2, False, 1, 3)]
    assert ic.weight(terms, 0.2) == pytest.approx((0.2 / 4 + 0.8 / 2) * (0.2 / 3))
    assert ic.weight(terms, 0.0) == 1.0
    assert ic.weight([], 0.5) == 1.0
    assert ic.weight(terms, 1.0) == pytest.approx(1 / 4 * 1 / 3)


def test_the_mixture_averages_each_players_epsilon_on_his_own_cards():
    one = [(1, True, 2, 4), (1, False, 1, 3)]
    two = [(2, True, 1, 2)]

    def mixed(terms):
        return sum(ic.weight(terms, e) for e in ic.MIX) / len(ic.MIX)
    assert ic.weight(one + two, "mix") == pytest.approx(mixed(one) * mixed(two))
    # Not one epsilon for both players: that would average the products instead.
    joint = sum(ic.weight(one + two, e) for e in ic.MIX) / len(ic.MIX)
    assert ic.weight(one + two, "mix") != pytest.approx(joint)
    assert ic.weight([], "mix") == 1.0


def test_paired_differences_and_clustered_errors():
    pairs = [("a", 1.0), ("a", 3.0), ("b", 2.0), ("b", 2.0)]
    r = ic.mean_ci(pairs)
    assert r["mean"] == 2.0 and r["n"] == 4 and r["clusters"] == 2
    assert r["se"] == pytest.approx(math.sqrt(2 / 3 / 4), abs=1e-4)
    assert r["se_clustered"] == 0.0     # each deal's decisions sum to the mean
    r = ic.mean_ci([("a", 1.0), ("b", 3.0), ("c", 2.0)])
    assert r["se_clustered"] == pytest.approx(math.sqrt(2 * 3 / 2) / 3, abs=1e-4)
    assert r["low"] == pytest.approx(2 - 1.96 * r["se_clustered"], abs=1e-3)
    rows = [{"deal": 0, "0.0": {"x": 1.0}, "0.2": {"x": 1.5}}, {"deal": 1, "0.0": {"x": 2.0}, "0.2": {"x": 2.0}},
            {"deal": 2, "0.0": {"x": None}, "0.2": {"x": 9.0}}]
    assert ic.paired(rows, "x", "0.0", "0.2")["mean"] == 0.25
    assert ic.mean_ci([("a", 1.0)]) is None


def test_weights_equal_the_advice_inference_on_real_endings():
    """The factors are found once for every ε: the weights must be those ``advise`` gives."""
    h = HeuristicPlayer()
    checked = 0
    for k in range(3):
        record = play_deal(Deal.random(derive_seed(5, "deal", k)), [h, h, h], seed=derive_seed(5, "play", k)).record
        for state, _move in record.replay():
            if state.kind != CARD or 10 - len(state.position.played_tricks) != 4 or len(state.options()) < 2:
                continue
            view = seat_view(state, state.decider, seed=1)
            advice = Advisor(endings=4, inference=0.2).analysis(view)
            if advice.method != "exact" or len(advice.weighted) < 2:
                continue
            hidden = ic.hidden_seats(state)
            mine = [ic.weight(ic.factors(state, lay, hidden), 0.2) for lay, _w in advice.weighted]
            theirs = [w for _lay, w in advice.weighted]
            assert len(set(theirs)) > 1
            assert [m / sum(mine) for m in mine] == pytest.approx([t / sum(theirs) for t in theirs], rel=1e-9)
            checked += 1
    assert checked >= 2


def test_a_row_of_a_real_decision():
    h = HeuristicPlayer()
    record = play_deal(Deal.random(derive_seed(5, "deal", 0)), [h, h, h], seed=derive_seed(5, "play", 0)).record
    for state, _move in record.replay():
        if state.kind == CARD and 10 - len(state.position.played_tricks) == 4 and len(state.options()) > 1:
            advice = Advisor(endings=4).analysis(seat_view(state, state.decider, seed=1))
            layouts = [w for w, _ in advice.weighted]
            if len(layouts) > 1 and tuple(x.mask for x in state.position.hands) in layouts:
                break
    else:
        raise AssertionError("no ending with a choice of layouts")
    row = ic.decision_row(state, layouts, [0.2])
    assert row["layouts"] == len(layouts) and row["cards"] == 4
    assert row["0.0"]["log2_p_real"] == pytest.approx(-math.log2(len(layouts)))
    assert row["0.2"]["log2_p_real"] <= 0 and row["0.2"]["brier_place"] is not None
