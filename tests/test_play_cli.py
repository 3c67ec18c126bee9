"""The play and allpass commands: CliRunner output, JSON, exit codes, a pty session."""

import json
import os
import re
import sys

import pexpect
import pytest
from click.testing import CliRunner

import prefsolve
from prefsolve.allpass import allpass_table
from prefsolve.cards import Card, Hand
from prefsolve.cli import PrefsolveGroup
from prefsolve.cli.play import allpass, play
from prefsolve.deal import Deal
from prefsolve.play import Position, card_values
from prefsolve.solver import solve, table

DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
HANDS = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT"
# The directory the tested prefsolve was imported from (site-packages in CI,
# src/ in a development run), so the child process runs the same package.
SRC = os.path.dirname(os.path.dirname(prefsolve.__file__))


def group():
    g = PrefsolveGroup()
    g.add_command(play)
    g.add_command(allpass)
    return g


def run(*args, input=None):
    return CliRunner().invoke(group(), list(args), input=input)


def test_play_json_values_and_mistakes():
    r = run("play", HANDS, "--declarer", "2", "--strain", "H", "--played", "SA S7 SQ CK", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    expected = card_values(HANDS, 2, strain="H", played="SA S7 SQ CK", talon_mode="ignore")
    assert doc["values"] == {str(c): v for c, v in expected.items()}
    assert doc["to_move"] == 1 and doc["trick"]["cards"] == ["CK"]
    position = Position(HANDS, 2, strain="H", played="SA S7 SQ CK", talon_mode="ignore")
    assert doc["tricks_won"] == [1, 0, 0] and doc["hands"] == [str(h) for h in position.hands]
    # Seat 0's ♠A lead gave the declarer a trick: ♣T or ♣9 would have held him to 3.
    assert doc["mistakes"] == [{"move": 1, "trick": 1, "seat": 0, "card": "SA", "value": 4,
                                "best_value": 3, "cost": 1, "best_cards": ["CT", "C9"]}]
    assert Position.parse(doc["position"]).played == position.played


def test_play_text_marks_best_cards_and_flags_mistakes():
    r = run("play", HANDS, "--declarer", "2", "--strain", "H", "--played", "SA S7 SQ")
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Trick 1: 0 ♠A  1 ♠7  2 ♠Q   won by 0" in out
    assert "Seat 0 to play" in out and "card 1 (trick 1), seat 0 ♠A: lost 1 trick" in out
    values = card_values(HANDS, 2, strain="H", played="SA S7 SQ", talon_mode="ignore")
    best = min(values.values())
    for card, value in values.items():
        row = next(line for line in out.splitlines() if line.strip().startswith(card.symbol + " "))
        assert row.split()[1] == str(value) and row.rstrip().endswith("*") == (value == best)


def test_play_allpass_with_turned_talon():
    r = run("play", DEAL, "--seat", "1", "--strain", "allpass", "--turn", "CQ S8", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["turn"] == ["CQ", "S8"] and doc["trick"]["talon_card"] == "CQ"
    assert doc["values"] == {"CK": 2, "CT": 2, "C9": 2}
    assert doc["tricks"] == allpass_table(DEAL, turn="CQ S8").tricks[1] == 2
    assert doc["seat"] == 1 and doc["declarer"] is None and doc["talon_mode"] == "lead"


@pytest.mark.parametrize("args, message", [
    (["--declarer", "0", "--strain", "H", "--played", "SA S7 CJ"],
     "cannot play CJ (seat 2, trick 1): must follow suit ♠ (holds ♠KQ)"),
    (["--declarer", "0", "--strain", "D", "--played", "SA SK"], "cannot play SK (seat 1, trick 1): it is not in"),
    (["--declarer", "0", "--strain", "H", "--played", "D7 D8 DA DQ DT CA"], "must trump with ♥"),
    (["--declarer", "0", "--strain", "H", "--played", "SA XX"], "cannot read card 'XX'"),
    (["--declarer", "0", "--strain", "trumps"], "unknown strain 'trumps'"),
    (["--seat", "0", "--strain", "allpass", "--talon-mode", "lead"], "needs a deal with a talon"),
    (["--declarer", "0", "--strain", "allpass"], "all-pass has no declarer: give --seat"),
    (["--seat", "0", "--strain", "S"], "--seat is for all-pass; in S give --declarer"),
    (["--seat", "0", "--strain", "allpass", "--talon-mode", "take"], "in all-pass nobody takes the talon"),
    (["--declarer", "0", "--strain", "NT", "--turn", "S8 CQ"], "strain 'NT' plays no talon card"),
])
def test_play_bad_input_is_one_line_and_exit_2(args, message):
    r = run("play", HANDS, *args)
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_allpass_json_and_text():
    r = run("allpass", DEAL, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    table = allpass_table(DEAL)
    assert {**doc, "nodes": 0} == {**table.to_dict(), "nodes": 0} and doc["nodes"] > 0
    assert doc["tricks"] == [4, 2, 7] and doc["turn"] == ["S8", "CQ"]
    for p in range(3):
        assert doc["lines"][p]["tricks_won"][p] == doc["tricks"][p]
    r = run("allpass", DEAL)
    assert r.exit_code == 0
    rows = r.output.splitlines()
    i = rows.index("Seat  Tricks (the fewest the seat can be sure of)")
    assert [row.split() for row in rows[i + 1:i + 4]] == [["0", "4"], ["1", "2"], ["2", "7"]]
    assert "Seat 1 holds himself to 2 tricks:" in r.output
    assert "Trick 1: talon ♠8: 0 ♠A  1 ♠J  2 ♠K   won by 0" in r.output


def test_allpass_bad_input():
    r = run("allpass", DEAL, "--turn", "CQ SK")
    assert r.exit_code == 2 and "must be the deal's two talon cards S8 CQ" in r.output
    r = run("allpass", HANDS, "--talon-mode", "lead")
    assert r.exit_code == 2 and "needs a deal with a talon" in r.output
    r = run("allpass", HANDS, "--json")     # no talon to turn: the hands are played alone
    assert r.exit_code == 0 and json.loads(r.output)["talon_mode"] == "ignore"
    r = run("allpass", HANDS, "--talon-mode", "ignore", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["turn"] == []
    r = run("allpass", DEAL, "--talon-mode", "burn")
    assert r.exit_code == 2 and "Invalid value for '--talon-mode'" in r.output
    r = run("allpass", DEAL, "--talon", "lead")
    assert r.exit_code == 2 and "No such option '--talon'" in r.output


def test_interactive_through_clirunner_input():
    r = run("play", "K7.-.-.- AQ.-.-.- J.A.-.-", "--declarer", "1", "--strain", "NT",
            "--interactive", input="SK\nSQ\nundo\nS8\nSA\nbest\nquit\n")
    assert r.exit_code == 0, r.output
    assert "♠A   2  *" in r.output and "♠Q   1" in r.output
    assert "Seat 1 ♠Q lost 1 trick; best was ♠A." in r.output
    assert "Took back ♠Q." in r.output
    assert "Error: cannot play S8 (seat 1, trick 1): it is not in seat 1's hand" in r.output
    assert "An optimal line (total 2 for seat 1):" in r.output


def test_interactive_session_through_a_pseudo_terminal():
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = pexpect.spawn(sys.executable, ["-m", "prefsolve", "play", DEAL,
                                           "--seat", "1", "--strain", "allpass",
                                           "--interactive"],
                          env=env, encoding="utf-8", timeout=30)
    try:
        child.expect("seat 0> ")
        assert "♠A   2  *" in child.before  # seat 0's only spade under the turned ♠8
        child.sendline("SA")
        child.expect("seat 1> ")
        assert "Trick 1 on the table: talon ♠8: 0 ♠A" in child.before
        child.sendline("S7")
        child.expect("seat 2> ")
        child.sendline("HA")  # a revoke: seat 2 holds ♠KQ
        child.expect("seat 2> ")
        assert "must follow suit ♠ (holds ♠KQ)" in child.before
        child.sendline("SK")
        child.expect("seat 0> ")
        assert "Trick 1: talon ♠8: 0 ♠A  1 ♠7  2 ♠K   won by 0" in child.before
        assert "Trick 2 on the table: talon ♣Q" in child.before
        child.sendline("undo")
        child.expect("seat 2> ")
        assert "Took back ♠K." in child.before
        child.sendline("best")
        child.expect("seat 2> ")
        assert re.search(r"An optimal line \(total \d+ for seat 1\):", child.before)
        assert "Trick 10:" in child.before
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("args, text", [
    (["play", HANDS, "--declarer", "2", "--strain", "S", "--talon-mode", "lead"],
     "talon mode 'lead' is for all-pass"),
    (["play", HANDS, "--declarer", "2", "--strain", "S", "-i", "--json"],
     "--json and --interactive do not go together"),
])
def test_play_options_that_would_do_nothing_are_refused(args, text):
    r = run(*args)
    assert r.exit_code == 2 and text in r.stderr and r.stdout == ""


def test_allpass_turned_cards_of_a_study_position_as_in_play():
    # A deal without talon and turned cards: allpass agrees with play --strain allpass.
    r = run("allpass", HANDS, "--turn", "S8 CQ", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    for p in range(3):
        assert doc["tricks"][p] == Position(HANDS, seat=p, strain="allpass", turn="S8 CQ").value()


def test_interactive_line_is_played_whole_or_not_at_all():
    # ♥Q and ♥7 are legal, ♠7 is not (seat 2 holds ♥T): nothing of the line is played.
    r = run("play", "K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T", "--declarer", "2", "--strain", "S",
            "-i", input="hq h7 s7\nhq\nquit\n")
    assert r.exit_code == 0
    assert ("Error: cannot play S7 (seat 2, trick 1): must follow suit ♥ (holds ♥T) "
            "(none of the line's cards was played)") in r.stderr
    assert "Trick 1 on the table: 0 ♥Q\n" in r.stdout and "♥7" not in r.stdout.split("Trick 1 on the table")[1]


def test_play_line_option_prints_an_optimal_line():
    args = ["play", "K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T", "--declarer", "2", "--strain", "S",
            "--played", "HQ H7 HT S8 SJ", "--line"]
    r = run(*args)
    assert r.exit_code == 0 and "An optimal line (total " in r.stdout
    d = json.loads(run(*args, "--json").stdout)
    # The line keeps the position's value and starts where the position is.
    assert d["line"]["tricks"] == d["tricks"] and d["line"]["first_trick"] == 2
    assert d["line"]["cards"][0] in d["best_cards"]
    assert run(*args, "-i").exit_code == 2


def test_the_printed_position_text_is_a_deal_for_play():
    args = ["play", "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-", "--seat", "1",
            "--strain", "allpass", "--played", "SA S7 SK C9"]
    r = run(*args)
    prefix = "Position (DEAL for play, or Position.parse): "
    last = r.stdout.splitlines()[-1]
    assert r.exit_code == 0 and last.startswith(prefix)
    again = run("play", last[len(prefix):])
    assert again.exit_code == 0 and again.stdout == r.stdout
    text = last[len(prefix):]
    assert json.loads(run("play", text, "--json").stdout) == json.loads(run(*args, "--json").stdout)
    # The text carries the options: giving one again is an error, as is a deal without them.
    r = run("play", last[len(prefix):], "--leader", "1")
    assert r.exit_code == 2 and "--leader: a position text carries" in r.stderr
    r = run("play", "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT", "--strain", "S")
    assert r.exit_code == 2 and "Missing option '--declarer'" in r.stderr


# -- the talon in a game or misère: taken as solve takes it, or ignored on request ------------

@pytest.mark.parametrize("declarer, strain", [(2, "misere"), (0, "NT"), (1, "C"), (2, "H")])
def test_play_takes_the_talon_as_table_does(declarer, strain):
    t = table(DEAL)
    r = run("play", DEAL, "--declarer", str(declarer), "--strain", strain, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["talon_mode"] == "take" and doc["deal"] == DEAL
    assert doc["tricks"] == t.tricks[declarer][strain]
    assert doc["discard"] == [str(c) for c in t.discards[declarer][strain]]
    # The play goes on from the declarer's hand after the discard: the talon is in it, the discard not.
    kept = Hand.parse(doc["hands"][declarer])
    assert len(kept) == 10 and not any(Card.parse(c) in kept for c in doc["discard"])
    assert all(c in kept for c in Deal.parse(DEAL).talon if str(c) not in doc["discard"])
    text = run("play", DEAL, "--declarer", str(declarer), "--strain", strain).stdout
    assert text.startswith(f"Declarer seat {declarer} takes the talon ♠8 ♣Q and discards ")
    # The printed position goes on from there, without the talon.
    again = json.loads(run("play", text.splitlines()[-1].split(": ", 1)[1], "--json").stdout)
    assert again["tricks"] == doc["tricks"] and again["hands"] == doc["hands"]


def test_play_ignores_the_talon_only_when_asked_and_says_so():
    r = run("play", DEAL, "--declarer", "2", "--strain", "misere", "--talon-mode", "ignore", "--json")
    doc = json.loads(r.stdout)
    assert doc["talon_mode"] == "ignore" and doc["discard"] is None
    assert doc["tricks"] == solve(DEAL, 2, strain="misere", talon_mode="ignore").tricks == 7
    assert table(DEAL).tricks[2]["misere"] == 6                 # 7 as given, 6 after the talon
    r = run("play", DEAL, "--declarer", "2", "--strain", "misere", "--talon-mode", "ignore")
    assert r.stdout.startswith("The talon ♠8 ♣Q is ignored: the hands are played as given.")
    r = run("play", HANDS, "--declarer", "2", "--strain", "NT", "--talon-mode", "take")
    assert r.exit_code == 2 and "has no talon to take" in r.stderr


# -- the interactive board ---------------------------------------------------------------------

def test_the_board_shows_the_trick_on_the_table_and_answers_unknown_words():
    r = run("play", DEAL, "--seat", "1", "--strain", "allpass", "-i", input="SA\nhello\nS7\nquit\n")
    assert r.exit_code == 0, r.output
    assert "On the table: talon ♠8, seat 0 ♠A; seat 1 to play" in r.stdout
    assert "On the table: talon ♠8, seat 0 ♠A, seat 1 ♠7; seat 2 to play" in r.stdout
    assert "Error: cannot read card 'hello'" in r.stderr
    assert "'undo' takes the last card back" in r.stderr.split("cannot read card 'hello'")[1]
    assert "\x1b" not in r.stdout      # not a terminal: plain lines, no redrawing


def test_the_board_is_redrawn_in_place_on_a_terminal():
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = pexpect.spawn(sys.executable, ["-m", "prefsolve", "play", DEAL, "--declarer", "2",
                                           "--strain", "NT", "-i"],
                          env=env, encoding="utf-8", timeout=30)
    try:
        child.expect("seat 0> ")
        first = child.before
        assert first.count("\x1b[H\x1b[2J") == 1 and "takes the talon ♠8 ♣Q" in first
        child.sendline("DK")
        child.expect("seat 1> ")
        board = child.before
        # One board per card: the screen is cleared, then redrawn from the top.
        assert board.count("\x1b[H\x1b[2J") == 1
        after = board.split("\x1b[H\x1b[2J")[1]
        assert after.lstrip().startswith("Type a card") and "takes the talon" in after
        assert "On the table: seat 0 ♦K; seat 1 to play" in after
        assert "Seat 0 ♦K lost 1 trick" in after
        child.sendline("bogus")
        child.expect("seat 1> ")
        assert "cannot read card 'bogus'" in child.before and "'best' shows an optimal line" in child.before
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
