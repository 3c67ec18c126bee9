"""The alternative ending search of bench/endings_assumption.py: opponents who play by a fixed
model instead of seeing every card. On real three-card endings its values equal those of a brute
force over every plan of the seat (one card for each point the seat can tell apart)."""

import importlib.util
import itertools
import sys
from pathlib import Path

import pytest

from prefsolve.deal import Deal
from prefsolve.game import CARD
from prefsolve.players.advisor import Advisor
from prefsolve.players.base import Player, seat_view
from prefsolve.players.heuristic import HeuristicPlayer
from prefsolve.players.runner import derive_seed, play_deal

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name):
    sys.path.insert(0, str(BENCH))      # the script imports inference_calibration
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


ea = _load("endings_assumption")


class Lowest(Player):
    """A fixed model: the lowest legal card by index."""

    name = "lowest"

    def card(self, view):
        return min(view.options, key=lambda c: c.index)


def _model_card(state, model):
    options = state.options()
    return options[0] if len(options) == 1 else model.decide(seat_view(state, state.decider, seed=0))


def brute_force(states, searchers, goal, counted, model):
    """Each root card → the best total goal over every plan of the searchers: a plan gives one
    card at each sequence of cards played since the root where a searcher is to play."""
    points = {}

    def explore(s, history):
        if s.is_over():
            return
        cards = s.options() if s.to_move in searchers else (_model_card(s, model),)
        if s.to_move in searchers:
            points.setdefault(history, cards)
        for c in cards:
            s.apply(c)
            explore(s, history + (c,))
            ea._undo(s)

    for s in states:
        explore(s, ())
    keys = list(points)
    best = {}
    for combo in itertools.product(*(points[k] for k in keys)):
        plan = dict(zip(keys, combo))
        total = 0.0
        for s in states:
            history = ()
            while not s.is_over():
                c = plan[history] if s.to_move in searchers else _model_card(s, model)
                s.apply(c)
                history += (c,)
            total += goal(s.tricks_won[counted])
            for _ in history:
                ea._undo(s)
        best[plan[()]] = max(best.get(plan[()], float("-inf")), total)
    return best


def decision(seed, k, moves):
    """The state before move ``moves + 1`` of deal ``k`` played by three heuristic players."""
    h = HeuristicPlayer()
    record = play_deal(Deal.random(derive_seed(seed, "deal", k)), [h, h, h], seed=derive_seed(seed, "play", k)).record
    for state, _move in record.replay():
        if len(state.moves) == moves:
            assert state.kind == CARD
            return state.copy()
    raise AssertionError("no such move")


def information_set(state):
    advice = Advisor(endings=4).analysis(seat_view(state, state.decider, seed=1))
    assert advice.method == "exact"
    return [w for w, _ in advice.weighted], advice.card


@pytest.mark.parametrize("seed, k, moves, model", [
    (3, 5, 24, Lowest()),               # all-pass, 3 cards a hand, 4 layouts
    (3, 5, 24, HeuristicPlayer()),
    pytest.param(3, 6, 27, Lowest(), marks=pytest.mark.slow),  # a game's declarer, 3 cards, 19 layouts
    (3, 2, 31, HeuristicPlayer()),      # a defender, 2 cards, 30 layouts
])
def test_alternative_search_equals_brute_force_over_plans(seed, k, moves, model):
    state = decision(seed, k, moves)
    layouts, _card = information_set(state)
    assert len(layouts) >= 4
    seat = state.to_move
    counted, _sign, side = ea.side_of(state, seat)
    searchers = frozenset({seat, state.decider, *(s for s in state.shown_hands() if s in side)})
    goal = ea.goal_of(state, seat)
    states = [ea.layout_state(state, lay) for lay in layouts]
    values = ea.alternative_values(states, searchers=searchers, goal=goal, counted=counted, model=model)
    assert values == brute_force(states, searchers, goal, counted, model)
    assert set(values) == set(state.options())
    # The states are given back as they were.
    assert [tuple(h.mask for h in s.position.hands) for s in states] == [tuple(lay) for lay in layouts]


def test_the_real_layout_rebuilds_the_real_state():
    state = decision(3, 6, 27)
    real = tuple(h.mask for h in state.position.hands)
    rebuilt = ea.layout_state(state, real)
    assert rebuilt.deal == state.deal
    assert rebuilt.declaration == state.declaration
    assert rebuilt.position.hands == state.position.hands and rebuilt.tricks_won == state.tricks_won


def test_sides_and_goals():
    allpass = decision(3, 5, 24)
    seat = allpass.to_move
    counted, sign, side = ea.side_of(allpass, seat)
    assert (counted, sign, side) == (seat, -1, frozenset({seat}))
    assert ea.goal_of(allpass, seat)(2) == -2
    game = decision(3, 6, 27)
    declarer = game.declarer
    level = game.contract.level
    counted, sign, side = ea.side_of(game, declarer)
    assert (counted, sign, side) == (declarer, 1, frozenset({declarer}))
    assert ea.goal_of(game, declarer)(level) == 100 + level
    assert ea.goal_of(game, declarer)(level - 1) == level - 1
    defender = (declarer + 1) % 3
    assert ea.side_of(game, defender) == (declarer, -1, frozenset(set(range(3)) - {declarer}))
    assert ea.goal_of(game, defender)(level - 1) == -(level - 1)


def test_ties_go_to_the_preferred_card_and_past_the_cap_the_search_gives_up():
    state = decision(3, 5, 24)
    layouts, _card = information_set(state)
    card, values = ea.alternative_card(state, layouts, state.options()[-1], model=Lowest())
    top = max(values.values())
    tied = [c for c, v in values.items() if v == top]
    assert card == (state.options()[-1] if state.options()[-1] in tied else tied[0])
    for other in tied:
        assert ea.alternative_card(state, layouts, other, model=Lowest())[0] == other
    with pytest.raises(ea.TooLarge):
        ea.alternative_card(state, layouts, card, model=HeuristicPlayer(), max_calls=2)
