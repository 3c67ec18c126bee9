"""Tests of the `auction` and `score` commands (prefsolve.cli.rules)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from prefsolve.cli.rules import auction, score

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture()
def runner():
    return CliRunner()


def test_auction_text_and_json(runner):
    r = runner.invoke(auction, ["раз два пас три пас", "--rules", "sochi"])
    assert r.exit_code == 0 and "seat 0" in r.output and "6D" in r.output
    r = runner.invoke(auction, ["6S", "6C", "pass", "6D", "pass", "--json"])
    assert r.exit_code == 0
    assert json.loads(r.output) == {"legal": True, "finished": True, "winner": 0, "contract": "6D",
                                    "all_pass": False, "next_seat": None}
    r = runner.invoke(auction, ["пас пас пас", "--json"])
    assert json.loads(r.output)["all_pass"] is True and r.exit_code == 0
    r = runner.invoke(auction, ["6S 6C", "--json"])
    assert json.loads(r.output)["next_seat"] == 2 and "seat 2 (third hand) speaks next" in \
        runner.invoke(auction, ["6S 6C"]).output


# -- the declaration and the whist calls after the auction ------------------------------
@pytest.mark.parametrize("args, code, lines", [
    (["раз два пас три пас", "--contract", "7D", "--whist", "вист пас"], 0,
     ["declaration 7D: legal", "whist calls on 7D (вист, пас): legal; one whister (seat 1), played open"]),
    (["раз два пас три пас", "--contract", "6S"], 1,
     ["declaration 6S: illegal: §3.1: the declared contract 6S is lower than the winning bid 6D"]),
    (["pass 6S pass", "--whist", "pass пол виста пас"], 0,
     ["whist calls on 6S (pass, пол виста, пас): legal; the half-whist stands: not played"]),
    (["pass pass 6S", "--contract", "8H", "--whist", "pass half"], 1,
     ["declaration 8H: legal", "whist calls on 8H (pass, half): illegal: call 2 ('half') by seat 1 "
      "(second defender): §3.2: half-whist is allowed only on 6- and 7-level contracts, not on 8H"]),
    (["6S pass pass", "--contract", "10S", "--whist", "pass pass"], 0,
     ["declaration 10S: legal", "whist calls on 10S (pass, pass): legal; nobody whists on a 10 here: "
      "it is played and both opponents catch the declarer"]),
    (["6S pass pass", "--contract", "misere", "--whist", "whist"], 1,   # binding: no misère after 6S
     ["declaration misere: illegal: §2.3 binding misère: a player who won on 6S cannot declare misère"]),
    (["6S pass pass", "--contract", "7S", "--whist", "whist"], 0,
     ["declaration 7S: legal", "whist calls on 7S (whist): legal so far, not finished"]),
])
def test_auction_checks_the_declaration_and_the_whist_calls(runner, args, code, lines):
    r = runner.invoke(auction, args)
    assert r.exit_code == code and r.output.splitlines()[1:] == lines


def test_auction_whist_json_names_table_seats(runner):
    # Seat 1 declares: seat 2 is the first defender, seat 0 the second.
    out = json.loads(runner.invoke(auction, ["pass 6S pass", "--whist", "pass half pass", "--json"]).output)
    assert out["whist"] == {"legal": True, "finished": True, "outcome": "half_whist", "whisters": [],
                            "half_whister": 0, "play": None}
    r = runner.invoke(auction, ["pass 6S pass", "--contract", "7S", "--whist", "whist whist", "--closed", "--json"])
    out = json.loads(r.output)
    assert out["declaration"] == {"contract": "7S", "legal": True, "reason": None}
    assert out["whist"]["whisters"] == [2, 0] and out["whist"]["play"] == "closed"
    r = runner.invoke(auction, ["pass 6S pass", "--whist", "half", "--json"])
    assert r.exit_code == 1 and json.loads(r.output)["whist"]["seat"] == 2
    r = runner.invoke(auction, ["pass 6S pass", "--whist", "pass whist", "--closed", "--json"])
    assert json.loads(r.output)["whist"]["whisters"] == [0] and json.loads(r.output)["whist"]["play"] == "closed"


@pytest.mark.parametrize("args, text", [
    (["6S pass", "--contract", "7S"], "--contract needs an auction won by a player; this one is not finished"),
    (["pass pass pass", "--whist", "pass"], "--whist needs an auction won by a player; this one ended in all-pass"),
    (["6S pass pass", "--contract", "6X"], "Invalid value for --contract: unknown contract '6X'"),
    (["6S pass pass", "--whist", "foo"], "Invalid value for --whist: unknown whist call 'foo'"),
])
def test_auction_declare_and_whist_bad_input_exits_2(runner, args, text):
    r = runner.invoke(auction, args)
    assert r.exit_code == 2 and text in r.output and "Traceback" not in r.output


def test_auction_illegal_exits_1(runner):
    r = runner.invoke(auction, ["6S 6C pass misere", "--json"])
    assert r.exit_code == 1
    out = json.loads(r.output)
    assert out["legal"] is False and out["call"] == 3 and "binding misère" in out["reason"]
    r = runner.invoke(auction, ["misere 9NT"])
    assert r.exit_code == 0
    r = runner.invoke(auction, ["misere 9NT", "--rules", "classic"])
    assert r.exit_code == 1 and "illegal: call 2 ('9NT')" in r.output    # counted from 1 in text
    r = runner.invoke(auction, ["6S", "--allpass-count", "1", "--json"])
    assert r.exit_code == 1 and "§2.6" in json.loads(r.output)["reason"]


@pytest.mark.parametrize("args", [["раз foo"], ["6S", "--rules", "moscow"], [], ["6S", "--allpass-count", "-1"]])
def test_auction_bad_input_exits_2(runner, args):
    r = runner.invoke(auction, args)
    assert r.exit_code == 2 and "Error:" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov", "classic", "four_players"])
def test_score_examples(runner, name):
    r = runner.invoke(score, [str(EXAMPLES / f"{name}.json"), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    from fractions import Fraction
    assert sum(Fraction(v) for v in out["settlement"].values()) == 0
    assert set(out["sheet"]) == set(out["settlement"])
    r = runner.invoke(score, [str(EXAMPLES / f"{name}.json")])
    assert r.exit_code == 0 and "settlement" in r.output


def test_score_leningrad_worked_example(runner):
    r = runner.invoke(score, [str(EXAMPLES / "leningrad.json"), "--json"])
    out = json.loads(r.output)
    assert out["settlement"] == {"A": "-524/3", "B": "652/3", "C": "-128/3"}
    assert out["sheet"]["B"] == {"pool": 6, "mountain": 6, "whists": {"A": 24, "C": 0}}


def test_score_rules_override(runner):
    r = runner.invoke(score, [str(EXAMPLES / "sochi.json"), "--rules", "leningrad", "--json"])
    # The file's own target:
    assert r.exit_code == 0 and json.loads(r.output)["rules"] == "leningrad with pool_target=10"
    assert json.loads(r.output)["sheet"]["B"]["whists"]["A"] >= 24
    # Leningrad closes on the table's total: this file's pools reach 10 at deal 7 of 8.
    assert json.loads(r.output)["finished_after"] == 7
    r = runner.invoke(score, [str(EXAMPLES / "sochi.json"), "--rules", "leningrad"])
    assert "game finished after deal 7; 1 later deal scored anyway" in r.output.splitlines()[0]
    r = runner.invoke(score, [str(EXAMPLES / "sochi.json")])
    assert r.output.splitlines()[0].endswith("deals: 8; game not finished")


@pytest.mark.parametrize("content,msg", [
    ("{not json", "not a JSON"),
    ('{"players": ["A", "B"], "deals": []}', "3 or 4"),
    ('{"players": ["A", "B", "C"], "deals": [{"all_pass": true, "tricks": {"A": 3, "B": 3, "C": 3}}]}', "sum to 10"),
    ('{"players": ["A", "B", "C"], "deals": [{"declarer": "A", "contract": "6X", "whist": {}}]}', "unknown contract"),
    ('{"players": ["A", "B", "C"], "switches": {"foo": 1}, "deals": []}', "unknown switch"),
    ('{"players": ["A", "B", "C"], "deals": [{"declarer": "A", "contract": "8S",'
     ' "whist": {"B": "pass", "C": "half"}}]}', "6- and 7-level"),
])
def test_score_bad_input_exits_2(runner, tmp_path, content, msg):
    f = tmp_path / "game.json"
    f.write_text(content, encoding="utf-8")
    r = runner.invoke(score, [str(f)])
    assert r.exit_code == 2 and msg in r.output and "Traceback" not in r.output
    assert sum(1 for line in r.output.splitlines() if line.startswith("Error:")) == 1


# -- reviewed defects ----------------------------------------------------------------
def test_auction_bare_here_after_a_bid(runner):
    r = runner.invoke(auction, ["pass 6C 6D здесь"])
    assert r.exit_code == 0 and r.output.startswith("legal so far")
    r = runner.invoke(auction, ["6S 6C pass здесь 6D здесь pass", "--json"])
    assert r.exit_code == 0
    assert json.loads(r.output) == {"legal": True, "finished": True, "winner": 0, "contract": "6D",
                                    "all_pass": False, "next_seat": None}


def test_auction_call_after_the_end(runner):
    r = runner.invoke(auction, ["6S pass pass 6C"])
    assert r.exit_code == 1 and "by seat" not in r.output and "already over" in r.output
    assert "after the end of the auction" in r.output
    r = runner.invoke(auction, ["6S pass pass 6C", "--json"])
    assert json.loads(r.output)["seat"] is None and json.loads(r.output)["call"] == 3


def test_whist_call_after_the_end_has_no_seat(runner):
    r = runner.invoke(auction, ["6S pass pass", "--whist", "whist whist whist"])
    assert r.exit_code == 1 and "by seat" not in r.output
    assert "call 3 ('whist') after the end of the whist calls: §3.2: the whist calls are already over" in r.output
    r = runner.invoke(auction, ["6S pass pass", "--whist", "whist whist whist", "--json"])
    assert json.loads(r.output)["whist"] == {"legal": False, "call": 2, "seat": None,
                                            "reason": "§3.2: the whist calls are already over"}


@pytest.mark.parametrize("text", ["", " ", ",", "6S,,pass"])
def test_auction_empty_input_exits_2(runner, text):
    r = runner.invoke(auction, [text])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert sum(1 for line in r.output.splitlines() if line.startswith("Error:")) == 1


@pytest.mark.parametrize("content,msg", [
    ('{"players":["A","B","C"],"deals":[{"declarer":["A"],"contract":"6S","whist":{"B":"pass","C":"pass"}}]}',
     "player must be named"),
    ('{"players":["A","B","C"],"deals":[{"dealer":{"x":1},"all_pass":true,"tricks":{"A":10}}]}',
     "player must be named"),
    ('{"players":["A","B","C"],"deals":[{"all_pass":"false","tricks":{"A":10}}]}', "true or false"),
    ('{"players":["A","B","C"],"deals":[{"all_pass":true,"declarer":"A","contract":"6S","tricks":{"A":10}}]}',
     "contradict"),
    ('{"players":["A","B","C"],"deals":[{"declarer":"A","contract":"6S","whist":{"B":"whist","C":"pass"},'
     '"open":"no","tricks":{"A":6,"B":4}}]}', "true or false"),
    ('{"players":["A","B","C"],"pool_traget":10,"deals":[]}', "pool_traget"),
    ('{"players":["A","B","C"],"deals":[{"declarer":"A","contract":"6S","whist":{"B":"pass","C":"pass"},'
     '"tricks":{"A":5,"B":5}}]}', "not played"),
])
def test_score_wrong_types_exit_2(runner, tmp_path, content, msg):
    f = tmp_path / "game.json"
    f.write_text(content, encoding="utf-8")
    r = runner.invoke(score, [str(f)])
    assert r.exit_code == 2 and msg in r.output and "Traceback" not in r.output, r.output
    assert sum(1 for line in r.output.splitlines() if line.startswith("Error:")) == 1


def test_score_ten_checked_failed(runner, tmp_path):
    f = tmp_path / "game.json"
    f.write_text('{"players":["A","B","C"],"rules":"classic","deals":[{"declarer":"A","contract":"10S",'
                 '"whist":{"B":"pass","C":"pass"},"tricks":{"A":9,"B":1,"C":0}}]}', encoding="utf-8")
    r = runner.invoke(score, [str(f), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)["sheet"]["A"]
    assert out["pool"] == 0 and out["mountain"] == 10


def test_classic_example_has_a_caught_ten_that_fails(runner):
    # examples/classic.json ends with «десять первых», both pass, B takes 9:
    # played (§3.4 checked), failed: mountain 10 and consolation 10 from A and C
    out = json.loads(runner.invoke(score, [str(EXAMPLES / "classic.json"), "--json"]).output)
    assert out["sheet"]["B"]["mountain"] == 21 and out["sheet"]["A"]["whists"]["B"] == 10
    assert out["sheet"]["C"]["whists"]["B"] == 22 and out["settlement"] == {"A": "72", "B": "-134", "C": "62"}


@pytest.mark.parametrize("args, text", [
    (["6S pass pass", "--closed"], "--closed goes with --whist"),
    (["6S pass pass", "--whist", ""], "no whist call given"),
    (["6S pass pass", "--whist", " , "], "no whist call given"),
])
def test_auction_options_that_would_do_nothing_are_refused(runner, args, text):
    r = runner.invoke(auction, args)
    assert r.exit_code == 2 and text in r.output


def test_score_reads_a_game_file_with_a_byte_order_mark(runner, tmp_path):
    f = tmp_path / "game.json"
    f.write_bytes(b"\xef\xbb\xbf" + (EXAMPLES / "sochi.json").read_bytes())
    with_bom = runner.invoke(score, [str(f), "--json"])
    assert with_bom.exit_code == 0, with_bom.output
    assert with_bom.output == runner.invoke(score, [str(EXAMPLES / "sochi.json"), "--json"]).output


def test_auction_set_changes_a_switch(runner):
    r = runner.invoke(auction, ["6S pass pass", "--whist", "pass pass"])
    assert r.exit_code == 0 and "both passed" in r.output
    r = runner.invoke(auction, ["6S pass pass", "--whist", "pass pass", "--set", "stalingrad=true"])
    assert r.exit_code == 1 and "§3.5 Stalingrad: both defenders must whist against 6♠" in r.output
    r = runner.invoke(auction, ["6S misere", "--set", "misere_binding=false", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["legal"] is True


@pytest.mark.parametrize("setting, text", [
    ("stalingrad", "a setting is NAME=VALUE"),
    ("bogus=1", "unknown switch 'bogus'"),
    ("stalingrad=maybe", "switch 'stalingrad' is true or false, got 'maybe'"),
    ("pool_target=x", "switch 'pool_target' takes a whole number"),
    ("hold=nope", "bad value 'nope' for switch 'hold'"),
    ("players=4", "the number of players is not a setting"),
])
def test_bad_set_exits_2_naming_it(runner, setting, text):
    r = runner.invoke(auction, ["6S pass pass", "--set", setting])
    assert r.exit_code == 2 and text in r.output and "--set" in r.output


def test_score_set_overrides_the_files_switches(runner, tmp_path):
    game = json.loads((EXAMPLES / "sochi.json").read_text(encoding="utf-8"))
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(game), encoding="utf-8")
    switched = tmp_path / "switched.json"
    switched.write_text(json.dumps({**game, "switches": {"consolation": "none"}}), encoding="utf-8")
    base = json.loads(runner.invoke(score, [str(plain), "--json"]).output)
    in_file = json.loads(runner.invoke(score, [str(switched), "--json"]).output)
    assert in_file["sheet"] != base["sheet"] and in_file["rules"] == "sochi with consolation='none'"
    r = runner.invoke(score, [str(switched), "--json", "--set", "consolation=defenders"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["sheet"] == base["sheet"] and json.loads(r.output)["rules"] == "sochi"
    r = runner.invoke(score, [str(plain), "--set", "consolation=none"])
    assert r.output.startswith("rules: sochi with consolation='none';")
    path = str(plain)
    r = runner.invoke(score, [path, "--set", "nope=1"])
    assert r.exit_code == 2 and "Invalid value for --set: unknown switch 'nope'" in r.output


def test_with_settings_takes_one_setting_as_text_too():
    from prefsolve.rules import Rules

    sochi = Rules.profile("sochi")
    assert sochi.with_settings("stalingrad=true") == sochi.with_settings(["stalingrad=true"])
