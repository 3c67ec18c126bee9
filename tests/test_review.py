"""The review of a played game: every decision priced (prefsolve.analysis.review, prefsolve review)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from prefsolve.analysis.review import (
    MARKS,
    THRESHOLDS,
    ReviewSettings,
    mark_of,
    read_games,
    review_games,
    review_record,
    summarize,
)
from prefsolve.cli import main
from prefsolve.errors import GameError
from prefsolve.game import PHASES, Session
from prefsolve.play import Position
from prefsolve.strains import ALLPASS

ROOT = Path(__file__).resolve().parent.parent
SESSION = ROOT / "examples" / "review-session.json"
MATCH = ROOT / "examples" / "review-match.jsonl"
SAMPLES = 3


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture(scope="module")
def session():
    return read_games(SESSION.read_text(encoding="utf-8"))[0]


@pytest.fixture(scope="module")
def review(session):
    return review_games(session, settings=ReviewSettings(samples=SAMPLES, seed=2), jobs=1)


def test_every_choice_is_reviewed_and_forced_moves_are_not(session, review):
    assert len(review.deals) == 2
    for deal, record in zip(review.deals, session.records):
        chosen = [m.number for m in record.moves if not m.forced]
        assert [d.move for d in deal.decisions] == chosen
        assert deal.deal == str(record.deal)
        assert deal.balances == tuple(float(b) for b in record.state().balances())


def test_a_card_is_marked_with_the_tricks_position_mistakes_gives(session, review):
    found = 0
    for deal, record in zip(review.deals, session.records):
        pos = record.state().position
        lost = {m.move: m for m in pos.mistakes()}
        cards = [m for m in record.moves if m.kind == "card"]
        by_move = {d.move: d for d in deal.decisions}
        for k, move in enumerate(cards, 1):
            d = by_move.get(move.number)
            if d is None:
                continue            # forced
            want = lost[k].cost if k in lost else 0
            assert d.dd_cost == want, (deal.number, move)
            if k in lost:
                assert d.dd_best == tuple(lost[k].best_cards.to_list())
                assert d.dd_value == lost[k].value
                found += 1
    assert found >= 2      # the fixture's games hold cards that lose a trick double-dummy


def test_the_double_dummy_value_moves_by_the_tricks_each_card_lost(session, review):
    for deal, record in zip(review.deals, session.records):
        pos = record.state().position
        start = Position(pos.deal, pos.declarer, strain=pos.strain, leader=pos.leader, talon_mode=pos.talon_mode,
                         discard=pos.discard).value()
        before = start
        for d in (x for x in deal.decisions if x.kind == "card"):
            # A forced card is the best one: it leaves the value as it was.
            assert abs(d.dd_value - before) == d.dd_cost, (deal.number, d.move)
            before = d.dd_value
        assert before == pos.tricks_won[pos.declarer]


def test_all_pass_cards_are_judged_by_each_seats_own_tricks():
    games = read_games(MATCH.read_text(encoding="utf-8"))
    allpass = next(s for s in games if s.records[0].deal_kind() == "allpass")
    record = allpass.records[0]
    deal = review_record(record, players=allpass.players, settings=ReviewSettings(samples=2, seed=1))
    pos = record.state().position
    assert pos.strain == ALLPASS
    lost = {}
    for seat in range(3):
        own = Position(pos.deal, strain=ALLPASS, seat=seat, talon_mode=pos.talon_mode, turn=pos.turn,
                       played=pos.played)
        lost.update({m.move: m.cost for m in own.mistakes()})
    cards = [m for m in record.moves if m.kind == "card"]
    by_move = {d.move: d for d in deal.decisions}
    for k, move in enumerate(cards, 1):
        if move.number in by_move:
            assert by_move[move.number].dd_cost == lost.get(k, 0)


def test_the_best_move_costs_nothing_and_a_cost_is_the_gap_to_the_best(review):
    priced = [d for d in review.decisions if d.cost is not None]
    assert priced and any(d.cost > 0 for d in priced) and any(d.cost == 0 for d in priced)
    for d in priced:
        assert d.cost >= 0 and d.cost_se >= 0
        assert d.options[0].decision == d.best
        if d.decision == d.best:
            assert d.cost == 0 and d.cost_se == 0
            assert d.mark is None
        else:
            made = next(o for o in d.options if o.decision == d.decision)
            # Paired or not, the mean of the differences is the difference of the means.
            assert d.cost == pytest.approx(d.options[0].expected - made.expected, abs=1e-9)
        assert d.mark == mark_of(d.cost)
    rules = [d for d in review.decisions if d.cost is None]
    assert {d.kind for d in rules} == {"defence"} and all(d.best == "open" for d in rules)


def test_marks_follow_the_thresholds():
    assert [mark_of(THRESHOLDS[m] - 1e-9) for m in MARKS] == [None, "inaccuracy", "mistake"]
    assert [mark_of(THRESHOLDS[m]) for m in MARKS] == list(MARKS)


def test_the_summary_adds_up(review):
    summary = review.summary()
    assert [s.player for s in summary] == ["Ann", "Bob", "Cid"]
    for s in summary:
        mine = [d for d in review.decisions if d.player == s.player]
        priced = [d for d in mine if d.cost is not None]
        assert s.decisions == len(priced) and s.unpriced == len(mine) - len(priced)
        assert s.best == sum(1 for d in priced if d.cost == 0)
        assert s.cost == pytest.approx(sum(d.cost for d in priced))
        assert s.cost == pytest.approx(sum(c for _p, c in s.phases))
        assert [p for p, _c in s.phases] == list(PHASES)
        for phase, cost in s.phases:
            assert cost == pytest.approx(sum(d.cost for d in priced if d.phase == phase))
        assert sum(n for _m, n in s.marks) == sum(1 for d in priced if d.mark)
        assert s.dd_tricks == sum(d.dd_cost for d in mine if d.dd_cost is not None)
    assert sum(s.decisions + s.unpriced for s in summary) == len(review.decisions)


def test_the_same_seed_gives_the_same_review_and_another_seed_samples_again(session, review):
    again = review_games(session, settings=ReviewSettings(samples=SAMPLES, seed=2), jobs=1)
    assert again.to_dict() == review.to_dict()
    other = review_games(session, settings=ReviewSettings(samples=SAMPLES, seed=3), jobs=1)
    assert [d.dd_cost for d in other.decisions] == [d.dd_cost for d in review.decisions]
    assert [d.options for d in other.decisions] != [d.options for d in review.decisions]


def test_two_jobs_review_as_one_does(review):
    r = run("review", str(SESSION), "-n", str(SAMPLES), "--seed", "2", "--jobs", "2", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["deals"] == review.to_dict()["deals"]
    assert doc["summary"] == review.to_dict()["summary"]


def test_the_json_matches_its_schema(tmp_path):
    schema = json.loads((ROOT / "docs" / "schemas" / "review.schema.json").read_text(encoding="utf-8"))
    check = Draft202012Validator(schema)
    r = run("review", str(MATCH), "-n", "2", "--jobs", "1", "--player", "A1", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    errors = sorted(check.iter_errors(doc), key=str)
    assert not errors, errors[0]
    assert {d["player"] for deal in doc["deals"] for d in deal["decisions"]} == {"A1"}
    assert [s["player"] for s in doc["summary"]] == ["A1"]
    assert len(doc["deals"]) == 12 and doc["deals"][2]["tags"]["lineup"] == "BAB"


def test_text_in_english_and_russian():
    r = run("review", str(SESSION), "-n", "2", "--jobs", "1", "--lang", "en")
    assert r.exit_code == 0, r.output
    assert "Deal 1:" in r.stdout and "Summary" in r.stdout and "blunder" in r.stdout
    ru = run("review", str(SESSION), "-n", "2", "--jobs", "1", "--lang", "ru")
    assert ru.exit_code == 0, ru.output
    assert "Сдача 1:" in ru.stdout and "Итог" in ru.stdout and "зевок" in ru.stdout
    assert "Summary" not in ru.stdout and "blunder" not in ru.stdout


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "review.png"
    r = run("review", str(SESSION), "-n", "2", "--jobs", "1", "--plot", str(out), "-q")
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run("review", str(SESSION), "-n", "1", "--plot", str(tmp_path / "no" / "x.png"), "-q")
    assert r.exit_code == 2 and "no folder" in r.stderr


def test_plot_without_matplotlib_is_one_clear_line(tmp_path, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    r = run("review", str(SESSION), "-n", "1", "--jobs", "1", "--plot", str(tmp_path / "x.png"), "-q")
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines() == ['Error: --plot needs matplotlib: pip install "prefsolve[plot]"']
    r = run("review", str(SESSION), "-n", "1", "--plot", str(tmp_path / "x.png"), "--lang", "ru", "-q")
    assert r.exit_code == 1 and "нужен matplotlib" in r.stderr


def bad(tmp_path, text):
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    r = run("review", str(path), "-n", "1", "--jobs", "1")
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_bad_input_is_one_line_naming_the_game_and_the_move(tmp_path):
    data = json.loads(SESSION.read_text(encoding="utf-8"))
    data["deals"][1]["played"][4] = "SA"        # not Bob's card, nor his to play
    line = bad(tmp_path, json.dumps(data))
    assert line.startswith(f"Error: {tmp_path / 'game.json'}: deal 2: move 12 (card of seat ")
    assert "SA" in line
    assert "not a game record" in bad(tmp_path, "[1, 2]")
    assert "not a game record" in bad(tmp_path, "{\"deals\": 3")
    results = {"players": ["A", "B", "C"], "deals": [{"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}}]}
    assert "deal 1 holds only its result" in bad(tmp_path, json.dumps(results))
    r = run("review", str(SESSION), "-n", "1", "--player", "Zed")
    assert r.exit_code == 2 and r.stderr.strip() == (f"Error: {SESSION}: unknown player 'Zed' (players: Ann, Bob, "
                                                     "Cid)")


def test_api_errors_are_game_errors(session):
    with pytest.raises(GameError, match="unknown player 'Zed'"):
        review_record(session.records[0], players=session.players, player="Zed")
    with pytest.raises(GameError, match="only the result"):
        review_record(Session.from_dict({"players": ["A", "B", "C"], "deals": [
            {"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}}]}).records[0])
    with pytest.raises(ValueError):
        ReviewSettings(samples=0)


def test_a_decision_whose_analysis_fails_is_left_unpriced_with_the_reason(session, monkeypatch):
    from prefsolve.analysis.sampling import ConstraintError
    from prefsolve.players.advisor import Advisor

    real = Advisor.analysis

    def failing(self, view):
        if view.kind == "card" and view.move == 20:
            raise ConstraintError("no layout fits")
        return real(self, view)

    monkeypatch.setattr(Advisor, "analysis", failing)
    deal = review_record(session.records[0], players=session.players, settings=ReviewSettings(samples=2, seed=1))
    d = next(x for x in deal.decisions if x.move == 20)
    assert d.cost is None and d.best is None and d.note == "no layout fits"
    assert d.dd_cost == 0           # the exact judgement needs no sampling: ♦K lost nothing
    assert d.to_dict()["note"] == "no layout fits"
    summary = {s.player: s for s in summarize(deal.decisions)}
    assert summary[d.player].unpriced == 1 and summary[d.player].cards == 7


def test_a_review_on_a_dask_cluster_equals_the_local_one(session, review):
    pytest.importorskip("distributed")
    from prefsolve.cluster import local_cluster

    cluster, client = local_cluster(1)
    try:
        remote = review_games(session, settings=ReviewSettings(samples=SAMPLES, seed=2), scheduler=client)
    finally:
        client.close()
        cluster.close()
    assert remote.to_dict() == review.to_dict()     # the solver calls too: each deal counts its own


def test_stdin_and_one_players_decisions_as_the_full_review_prices_them(review):
    text = SESSION.read_text(encoding="utf-8")
    r = run("review", "-", "-n", str(SAMPLES), "--seed", "2", "--jobs", "1", "--player", "Bob", "--json", input=text)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["game"] == "-" and doc["player"] == "Bob"
    bob = [d.to_dict() for d in review.decisions if d.player == "Bob"]
    assert [d for deal in doc["deals"] for d in deal["decisions"]] == bob
