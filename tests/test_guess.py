"""The first guess of the value: the fitted misère and game tables are read
the way they were fitted, and the guesses are good enough to save probes."""

import importlib.util
import random
import re
import sys
from pathlib import Path

import pytest

from prefsolve import Deal
from prefsolve._core import Solver

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "src" / "prefsolve" / "_misere_guess.h"
GAME_HEADER = ROOT / "src" / "prefsolve" / "_game_guess.h"


def load_fit_script(name="fit_misere_guess"):
    sys.path.insert(0, str(ROOT / "bench"))     # the game script imports the misère one
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return module


def header_weights(header=HEADER):
    body = header.read_text().split("{", 1)[1].split("}", 1)[0]
    return [int(x) for x in re.findall(r"-?\d+", body)]


def random_positions(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        yield [h.mask for h in Deal.random(rng.randrange(2**32)).hands], rng.randrange(3)


def test_engine_reads_the_table_as_the_fit_script_numbers_it():
    fit = load_fit_script()
    weights = header_weights()
    assert len(weights) == fit.N_WEIGHTS
    solver = Solver(1)
    for masks, declarer in random_positions(5, 200):
        for leader in range(3):
            total = sum(weights[i] for i in fit.features(masks, declarer, leader)) + 1000
            expected = max(total, 0) // 1000
            assert solver.first_guess(masks, declarer, -1, True, leader) == expected


def test_engine_reads_the_game_table_as_the_fit_script_numbers_it():
    fit = load_fit_script("fit_game_guess")
    weights = header_weights(GAME_HEADER)
    assert len(weights) == fit.N_WEIGHTS
    solver = Solver(1)
    for masks, declarer in random_positions(6, 100):
        for trump in (-1, 0, 1, 2, 3):
            for leader in range(3):
                total = sum(weights[i] for i in fit.features(masks, declarer, trump, leader))
                expected = max(total + fit.UNIT, 0) // fit.UNIT
                assert solver.first_guess(masks, declarer, trump, False, leader) == expected


def test_suit_layouts_are_numbered_without_gaps():
    fit = load_fit_script()
    seen = set()
    for k in range(9):
        for digits in range(3**k):
            d = left = right = 0
            for rank in range(k):
                who = digits // 3**rank % 3
                if who == 0:
                    d |= 1 << rank
                elif who == 1:
                    left |= 1 << rank
                else:
                    right |= 1 << rank
            seen.add(fit.suit_layout(d, left, right))
    assert seen == set(range(fit.N_LAYOUTS))


@pytest.mark.parametrize("strain", ["misere", "game"])
def test_guess_is_usually_the_value_or_one_above(strain):
    # The driver needs two probes when the guess is the value or one above
    # it. Measured on these deals: misère 79%, games 93% (the formulas the
    # fits replaced: about 50% and 70% on the bench's deals).
    solver = Solver(1)
    rng = random.Random(8)
    hits = total = 0
    for masks, declarer in random_positions(2101, 400):
        trump = -1 if strain == "misere" else rng.choice([-1, 0, 1, 2, 3])
        minimize = strain == "misere"
        value = solver.value(masks, declarer, trump, minimize, 0)
        guess = solver.first_guess(masks, declarer, trump, minimize, 0)
        hits += guess in (value, value + 1)
        total += 1
    assert hits / total >= (0.70 if strain == "misere" else 0.85)
