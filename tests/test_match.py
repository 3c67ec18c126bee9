"""Matches in duplicate (prefsolve.match): the gain, its breakdown, reproducibility, records, resume."""

import json
import math
import statistics

import pytest

from prefsolve.errors import GameError, PlayerError
from prefsolve.game import Session
from prefsolve.match import (
    LINEUPS,
    Stat,
    match_settings,
    play_match,
    read_records,
    record_lines,
    t_975,
)


@pytest.fixture(scope="module")
def three_deals():
    """The suite's match: the cheater against the random player, 3 deals."""
    return play_match("cheater", "random", deals=3, seed=5)


def test_the_gain_is_as_against_b_in_the_same_seat_of_the_same_deal(three_deals):
    gains = []
    for result in three_deals.results:
        base, *others = result.records
        assert all(r.deal == base.deal for r in others)       # the same cards in all four games
        diffs = [float(others[s].balances()[s] - base.balances()[s]) for s in range(3)]
        gains.append(sum(diffs) / 3)
    stat = three_deals.stat()
    assert stat.n == 3 and math.isclose(stat.mean, statistics.fmean(gains))
    assert math.isclose(stat.se, statistics.stdev(gains) / math.sqrt(3))
    lo, hi = stat.interval
    assert math.isclose(hi - stat.mean, 4.303 * stat.se) and math.isclose(stat.mean - lo, hi - stat.mean)


def test_the_phases_add_up_to_the_gain_and_count_every_seat(three_deals):
    phases = three_deals.phase_stats()
    assert sum(games for games, _ in phases.values()) == 3 * 3
    assert math.isclose(sum(st.mean for _, st in phases.values()), three_deals.gain, abs_tol=1e-9)
    kinds = three_deals.deal_kind_stats()
    assert sum(st.n for st in kinds.values()) == 3
    assert math.isclose(sum(st.n * st.mean for st in kinds.values()) / 3, three_deals.gain, abs_tol=1e-9)


def test_a_player_against_itself_plays_every_game_as_b_does():
    # The same player in every seat gets the same seeds: the four games of a deal are one.
    result = play_match("random", "random", deals=4, seed=1)
    assert result.gain == 0 and result.stat().se == 0
    assert all(r.phases() == ("none", "none", "none") for r in result.results)
    assert all(len(set(r.records[i].moves for i in range(4))) == 1 for r in result.results)


def test_the_first_difference_is_a_decision_of_a_and_its_phase_is_counted():
    result = play_match("cheater", "random", deals=4, seed=3)
    for r in result.results:
        for s, phase in enumerate(r.phases()):
            base, other = r.records[0].moves, r.records[1 + s].moves
            if phase == "none":
                assert base == other
                continue
            i = next(i for i, (x, y) in enumerate(zip(base, other)) if x != y)
            assert other[i].phase == phase and base[:i] == other[:i]
            # Until then B decided as in B B B (the same seeds, the same views): A made the first change.
            assert other[i].by == s and base[i].by == s


def test_a_match_played_again_or_resumed_gives_the_same_games(three_deals):
    again = play_match("cheater", "random", deals=3, seed=5, jobs=2)
    assert [r.records for r in again.results] == [r.records for r in three_deals.results]
    settings = three_deals.settings
    first = play_match("cheater", "random", deals=1, seed=5)
    lines = record_lines(settings, first.results[0])
    done = list(read_records(lines, settings))
    resumed = play_match("cheater", "random", deals=3, seed=5, done=done)
    assert resumed.resumed == 1 and [r.records for r in resumed.results] == [r.records for r in three_deals.results]


def test_records_are_one_deal_sessions_tagged_with_the_match(three_deals):
    lines = record_lines(three_deals.settings, three_deals.results[0])
    assert len(lines) == 4
    for lineup, line in zip(LINEUPS, lines):
        data = json.loads(line)
        assert data["players"] == [f"{who}{s}" for s, who in enumerate(lineup)]
        assert data["tags"] == {"event": "match", "a": "cheater", "b": "random", "seed": 5, "deal": 1,
                                "lineup": lineup}
        session = Session.from_dict(data)
        assert session.sheet().settlement() == session.records[0].balances()


def test_records_of_another_match_or_with_an_illegal_move_are_refused(three_deals):
    lines = record_lines(three_deals.settings, three_deals.results[0])
    other = match_settings("cheater", "random", deals=3, seed=6)
    with pytest.raises(GameError, match="record 1 is .* but this match's game 1 of deal 1 is"):
        list(read_records(lines, other))
    data = json.loads(lines[1])
    data["deals"][0]["calls"][0] = "10NT" if data["deals"][0]["calls"][0] != "10NT" else "pass"
    with pytest.raises(GameError, match=r"^record 2: deal 1: "):
        list(read_records([lines[0], json.dumps(data)], three_deals.settings))
    assert list(read_records(lines[:3], three_deals.settings)) == []     # a deal without its 4 games


def test_a_bad_player_or_count_is_named_before_anything_is_played():
    with pytest.raises(PlayerError, match="unknown player 'chess'"):
        play_match("chess", "random", deals=1)
    with pytest.raises(PlayerError, match="player 'random' takes no options"):
        play_match("random:x=1", "random", deals=1)
    with pytest.raises(Exception, match="deals must be a whole number 1 or more"):
        play_match("random", "random", deals=0)
    with pytest.raises(PlayerError, match="time limit"):
        play_match("random", "random", deals=1, time_limit=0)


def test_student_t_and_the_interval_of_a_mean():
    assert t_975(1) == 12.706 and t_975(9) == 2.262 and abs(t_975(10_000) - 1.96) < 0.001
    s = Stat.of([1.0, 3.0])
    assert (s.n, s.mean, s.se) == (2, 2.0, 1.0) and s.interval == (2.0 - 12.706, 2.0 + 12.706)
    assert Stat.of([]).n == 0 and Stat.of([4.0]).interval == (-math.inf, math.inf)


def test_a_match_on_a_dask_cluster_plays_the_same_games(three_deals):
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        remote = play_match("cheater", "random", deals=3, seed=5, scheduler=client)
    assert [r.records for r in remote.results] == [r.records for r in three_deals.results]
