"""Long cross-checks, run with ``python -m pytest -m slow`` (several minutes).

The default suite checks the same properties on fewer and smaller cases.
"""

import random

import pytest
from test_engine import (
    SOLVER,
    brute_force_discard,
    check_run_families,
    check_table_families,
    check_trick_families,
    engine_value,
)

from prefsolve import Deal, solve
from prefsolve.strains import STRAINS

import reference as ref
from helpers import TRUMPS

pytestmark = pytest.mark.slow


def test_six_card_endings_against_memo_reference():
    rng = random.Random(6006)
    for _ in range(120):
        hands = ref.random_ending(rng, 6)
        declarer, leader = rng.randrange(3), rng.randrange(3)
        for strain in STRAINS:
            expected = ref.solve_memo(hands, declarer, TRUMPS[strain], strain == "misere", leader)
            assert engine_value(hands, declarer, strain, leader) == expected, (hands, declarer, strain)


def test_best_discard_against_all_66_on_many_deals():
    rng = random.Random(66)
    for _ in range(25):
        d = Deal.random(rng.randrange(2**32))
        declarer, leader = rng.randrange(3), rng.randrange(3)
        for strain in STRAINS:
            got = solve(d, declarer, strain=strain, leader=leader, solver=SOLVER).tricks
            assert got == brute_force_discard(d, declarer, strain, leader), (str(d), declarer, strain)


def test_game_table_entries_on_longer_endings():
    # Rarer bounds (a defender's entry to his partner) decide only in longer
    # endings.
    check_table_families(4006, 150, 4, 6)


@pytest.mark.parametrize("seed", [1, 3])
def test_game_cards_skipped_by_lowest_win_on_longer_endings(seed):
    # Families of endings with a trick in progress, up to five cards each.
    check_trick_families(seed, 150, 2, 5)


@pytest.mark.parametrize("seed", [11, 12])
def test_bounds_on_part_of_a_run_on_longer_endings(seed):
    # Families of up to six cards whose variants split a top run.
    check_run_families(seed, 300, 3, 6)
