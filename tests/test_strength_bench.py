"""bench/strength.py: paired comparisons of two players from their matches' records."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

import pytest

from prefsolve.match import play_match

BENCH = Path(__file__).resolve().parent.parent / "bench" / "strength.py"


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("bench_strength", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_strength"] = module
    spec.loader.exec_module(module)
    return module


def test_difference_is_the_gap_between_the_gains(strength):
    # Both matches play the same B B B game, so on each deal X's result less Y's in the same
    # seats is X's gain less Y's gain; phases split it without remainder.
    x = play_match("cheater", "random", deals=4, seed=5, jobs=1)
    y = play_match("heuristic", "random", deals=4, seed=5, jobs=1)
    diffs, shares, seats, _ = strength.differences(list(x.results), list(y.results))
    assert diffs == pytest.approx([a.gain - b.gain for a, b in zip(x.results, y.results)])
    assert any(abs(d) > 0 for d in diffs)
    for k, d in enumerate(diffs):
        assert sum(v[k] for v in shares.values()) == pytest.approx(d)
    assert sum(seats.values()) == 12


def test_a_player_against_itself_differs_nowhere(strength):
    x = play_match("heuristic", "random", deals=3, seed=2, jobs=1)
    diffs, _, seats, _ = strength.differences(list(x.results), list(x.results))
    assert diffs == [0.0, 0.0, 0.0] and seats == {"none": 9}
    assert statistics.fmean(diffs) == 0.0


def test_other_baselines_are_refused(strength):
    x = play_match("heuristic", "random", deals=2, seed=2, jobs=1)
    y = play_match("heuristic", "cheater", deals=2, seed=2, jobs=1)
    with pytest.raises(SystemExit, match="B B B games differ"):
        strength.differences(list(x.results), list(y.results))
