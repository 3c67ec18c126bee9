"""The commands of whole games: prefsolve match and prefsolve bot (prefsolve.cli.games)."""

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from prefsolve.cli import main
from prefsolve.deal import Deal
from prefsolve.game import DealState
from prefsolve.players.base import seat_view

BOT = f"cmd:{sys.executable} {Path(__file__).resolve().parent / 'bots' / 'tiny_bot.py'}"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_match_prints_the_gain_and_its_breakdown():
    r = run("match", "cheater", "random", "-n", "2", "--seed", "4", "-q")
    assert r.exit_code == 0, r.output
    assert "cheater (A) against random (B): 2 deals in duplicate, seed 4, sochi rules" in r.stdout
    assert "A's gain: +" in r.stdout and "phase of the first difference" in r.stdout
    data = json.loads(run("match", "cheater", "random", "-n", "2", "--seed", "4", "--json").stdout)
    assert data["deals"] == 2 and data["a"] == "cheater" and data["records"] is None
    assert data["gain"] > 0 and set(data["phases"]) == {"bidding", "talon", "whisting", "play", "none"}


def test_records_are_written_and_a_resumed_match_writes_the_same_file(tmp_path):
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert run("match", "cheater", "random", "-n", "3", "--records", str(full), "-q").exit_code == 0
    assert run("match", "cheater", "random", "-n", "1", "--records", str(part), "-q").exit_code == 0
    with open(part, "a", encoding="utf-8") as f:
        f.write(full.read_text(encoding="utf-8").splitlines()[4][:50])      # a line cut by a crash
    r = run("match", "cheater", "random", "-n", "3", "--records", str(part), "--resume", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["resumed"] == 1
    assert part.read_text(encoding="utf-8") == full.read_text(encoding="utf-8")
    assert len(full.read_text(encoding="utf-8").splitlines()) == 12
    # The records are game files: prefsolve score reads each line's game.
    line = tmp_path / "one.json"
    line.write_text(full.read_text(encoding="utf-8").splitlines()[0])
    assert run("score", str(line)).exit_code == 0


def test_a_resume_of_another_match_is_refused_in_one_line(tmp_path):
    path = tmp_path / "r.jsonl"
    assert run("match", "cheater", "random", "-n", "1", "--records", str(path), "-q").exit_code == 0
    r = run("match", "cheater", "random", "-n", "2", "--seed", "9", "--records", str(path), "--resume")
    assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1
    assert "resume with the first run's players, seed and rules" in r.stderr


def test_bad_input_is_one_line_and_exit_2():
    for args, message in [(["match", "chess", "random"], "unknown player 'chess'"),
                          (["match", "random", "random", "--resume"], "--resume goes with --records"),
                          (["match", "advisor:samples=x", "random"], "option 'samples' of player 'advisor'"),
                          (["match", "random", "random", "-n", "0"], "Invalid value for '--deals'"),
                          (["bot", "nobody"], "unknown player 'nobody'")]:
        r = run(*args)
        assert r.exit_code == 2 and message in r.stderr and len(r.stderr.splitlines()) == 1, (args, r.stderr)


def test_a_forfeit_is_named_on_stderr_and_counted_and_the_match_goes_on():
    r = run("match", f"{BOT} --nonsense 2", "random", "-n", "2", "--json", "--time-limit", "5")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["forfeits"]["a"] >= 1 and data["deals"] == 2 and data["counted"] < 2
    notes = [line for line in r.stderr.splitlines() if line.startswith("Forfeit:")]
    assert notes and all("deal " in n and "seat " in n and "move " in n for n in notes)
    assert "answered nonsense" in notes[0]


def test_bot_speaks_the_protocol_on_stdin_and_stdout():
    view = seat_view(DealState(Deal.random(5)), 0, seed=2)
    messages = [{"type": "hello", "protocol": 1}, {"type": "deal", "seat": 0, "rules": "sochi", "switches": {}},
                {"type": "decide", "view": view.to_dict()}, {"type": "quit"}]
    r = run("bot", "random", input="".join(json.dumps(m) + "\n" for m in messages))
    assert r.exit_code == 0, r.output
    hello, decision = (json.loads(line) for line in r.stdout.splitlines())
    assert hello == {"type": "hello", "protocol": 1, "name": "random", "sees_all": False}
    assert decision["type"] == "decision" and decision["decision"] in [str(o) for o in view.options]
