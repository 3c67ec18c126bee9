"""Players that are other programs (prefsolve.players.external) and the bot protocol (docs/BOT_PROTOCOL.md).

tests/bots/tiny_bot.py is the protocol's tiny reference bot: plain Python, no prefsolve.
"""

import json
import os
import sys
from pathlib import Path

import pytest

import prefsolve
from prefsolve.deal import Deal
from prefsolve.game import DealState, Session
from prefsolve.match import play_match, read_records, record_lines
from prefsolve.players import make_player
from prefsolve.players.base import seat_view
from prefsolve.players.external import PROTOCOL, serve
from prefsolve.players.runner import play_deal

BOT = f"cmd:{sys.executable} {Path(__file__).resolve().parent.parent / 'bots' / 'tiny_bot.py'}"


@pytest.fixture
def package_on_path(monkeypatch):
    """Child processes import this prefsolve, installed or not."""
    src = str(Path(prefsolve.__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHONPATH", src + os.pathsep + os.environ.get("PYTHONPATH", ""))


def test_the_tiny_bot_plays_a_whole_match_through_the_protocol():
    result = play_match(BOT, "random", deals=3, seed=2, time_limit=20)
    assert result.deals == 3 and result.forfeits() == {"a": 0, "b": 0}
    lines = [line for r in result.results for line in record_lines(result.settings, r)]
    assert len(lines) == 12
    again = list(read_records(lines, result.settings))         # every move checked by the rules
    assert [r.records for r in again] == [r.records for r in result.results]
    # The bot plays the first legal option: its first call is always a pass.
    first = Session.from_dict(json.loads(lines[1])).records[0]
    assert str(first.moves[0].decision) == "pass" and first.moves[0].seat == 0


@pytest.mark.parametrize("misbehaviour, reason", [
    ("--crash 2", r"the program stopped before answering move \d+ \(\w+\) \(exit status 3\): tiny bot: crashing"),
    ("--hang 1", r"no answer to move \d+ \(call\) within 1 s"),
    ("--nonsense 1", r"answered nonsense to move \d+ \(call\): unknown call 'HX'"),
    ("--garbage 1", r"answered 'this is not JSON' to move \d+ \(call\), which is not JSON"),
    ("--protocol 2", "speaks protocol 2; prefsolve speaks 1"),
])
def test_a_bot_that_fails_forfeits_the_game_with_the_move_and_the_match_goes_on(misbehaviour, reason):
    result = play_match(f"{BOT} {misbehaviour}", "random", deals=1, seed=1, time_limit=1)
    forfeits = result.forfeits()
    assert forfeits["a"] >= 1 and forfeits["b"] == 0
    assert result.stat().n == 0 and result.deals == 1       # the deal is left out of the gain
    game = next(r for r in result.results[0].records if r.forfeit is not None)
    import re
    assert re.search(reason, game.forfeit.reason), game.forfeit.reason
    assert game.forfeit.reason.startswith(BOT)


def test_a_program_that_cannot_start_forfeits_at_its_first_decision():
    game = play_deal(Deal.random(1), [make_player("cmd:/nonexistent/bot"), make_player("random"),
                                      make_player("random")], seed=1)
    assert game.forfeit is not None and game.forfeit.seat == 0 and game.forfeit.move == 1
    assert "cannot start '/nonexistent/bot'" in game.forfeit.reason


def test_a_python_player_served_over_the_protocol_plays_as_itself(package_on_path):
    # prefsolve bot cheater asks for every card in its greeting; the deal is then in its views.
    bot = f"cmd:{sys.executable} -m prefsolve bot cheater"
    deal = Deal.random(4)
    served = play_deal(deal, [make_player(bot) for _ in range(3)], seed=9)
    direct = play_deal(deal, [make_player("cheater") for _ in range(3)], seed=9)
    assert served.forfeit is None and served.record == direct.record


def test_serve_answers_each_message_and_names_what_it_cannot_read():
    state = DealState(Deal.random(3))
    view = seat_view(state, 0, seed=1)
    messages = [json.dumps({"type": "hello", "protocol": PROTOCOL}),
                json.dumps({"type": "deal", "seat": 0, "rules": "sochi", "switches": {}}),
                json.dumps({"type": "decide", "view": view.to_dict()}),
                "not json",
                json.dumps({"type": "decide", "view": {**view.to_dict(), "hand": "AKQ"}}),
                json.dumps({"type": "quit"}),
                json.dumps({"type": "hello"})]
    out = []
    serve(make_player("random"), messages, out.append)
    answers = [json.loads(line) for line in out]
    assert [a["type"] for a in answers] == ["hello", "decision", "error", "error"]
    assert answers[0] == {"type": "hello", "protocol": PROTOCOL, "name": "random", "sees_all": False}
    assert answers[1]["decision"] in [str(o) for o in view.options]
    assert "unknown message 'not json'" in answers[2]["message"]
    assert "cannot be read" in answers[3]["message"]
