"""The board's review over its API: ``review --json`` of a record, and the record stepped through.

POST /api/review answers what ``prefsolve review --json`` prints for the
same record and settings (the pricing is the review module's, called once
by the server); POST /api/replay gives every step of every deal as the
rules replay it, with the position text the board's play by clicking takes.
Bad input is HTTP 400 with the review's own message. Reviews use a few
samples so that the tests stay quick.
"""

import json
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

for _name in ("starlette", "httpx"):
    pytest.importorskip(_name, reason='the web extra is not installed (pip install "prefsolve[web]")')
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from prefsolve.cli import main
from prefsolve.game import load_session
from prefsolve.web import server

JSON = {"content-type": "application/json"}
RECORD = Path(__file__).resolve().parent.parent / "examples" / "review-session.json"


@pytest.fixture(scope="module")
def client():
    with TestClient(server.create_app(), base_url="http://127.0.0.1") as c:
        yield c


def post(client, path, body, status=200):
    r = client.post(path, content=json.dumps(body), headers=JSON)
    assert r.status_code == status, r.text
    return r


def cli_review(path, *args):
    r = CliRunner().invoke(main, ["review", str(path), "--json", *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_review_is_review_json_of_the_same_record(client):
    expected = cli_review(RECORD, "--samples", "3", "--seed", "2")
    for game in (RECORD.read_text(), json.loads(RECORD.read_text())):        # its text or its object
        got = post(client, "/api/review", {"game": game, "samples": 3, "seed": 2}).json()
        assert got == {k: v for k, v in expected.items() if k not in ("game", "plot")}
    assert any(d["mark"] for deal in expected["deals"] for d in deal["decisions"]), "a record with marks"


def test_the_reviews_defaults_are_the_commands():
    command = {p.name: p.default for p in main.commands["review"].params}
    assert (server.REVIEW_SAMPLES, server.REVIEW_TOLERANCE) == (command["samples"], command["tolerance"])


def test_the_review_streams_its_progress_by_deal_and_ends_with_the_result(client):
    r = post(client, "/api/review", {"game": RECORD.read_text(), "samples": 2, "stream": True})
    lines = [json.loads(line) for line in r.text.splitlines()]
    deals = len(load_session(RECORD.read_text()).records)
    assert all(line["samples"] == deals for line in lines[:-1])
    assert lines[-1]["result"] == post(client, "/api/review", {"game": RECORD.read_text(), "samples": 2}).json()


def test_a_players_review_is_review_json_with_player(client):
    name = json.loads(RECORD.read_text())["players"][1]
    got = post(client, "/api/review", {"game": RECORD.read_text(), "samples": 2, "player": name}).json()
    assert got == {k: v for k, v in cli_review(RECORD, "--samples", "2", "--player", name).items()
                   if k not in ("game", "plot")}


def test_replay_steps_through_every_move_as_the_rules_replay_it(client):
    session = load_session(RECORD.read_text())
    deals = post(client, "/api/replay", {"game": RECORD.read_text()}).json()["deals"]
    assert len(deals) == len(session.records)
    for deal, record in zip(deals, session.records):
        assert deal["deal"] == str(record.deal) and len(deal["steps"]) == len(record.moves) + 1
        assert deal["players"] == [session.players[record.seat_of(s)] for s in range(3)]
        for i, step in enumerate(deal["steps"]):
            state = record.state(upto=i)
            assert step["hands"] == [str(state.holding(s)) for s in range(3)]
            assert step["move"] == (None if i == 0 else record.moves[i - 1].to_dict())
            if step["position"] is not None:     # what the board's play by clicking takes from there
                played = post(client, "/api/play", {"position": step["position"]}).json()
                assert played["played"] == [str(c) for c in state.played]


@pytest.mark.parametrize("body, message", [
    ({"game": "not json"}, "not a game record"),
    ({"game": {"players": ["A", "B", "C"]}}, "not a game record"),
    ({"game": {"players": ["A", "B", "C"], "deals": [{"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}}]}},
     "holds only its result"),
    ({"game": 5}, "game must be a game record"),
    ({}, "game must be a game record"),
    ({"game": "RECORD", "samples": 0}, "samples must be a whole number from 1 to 500"),
    ({"game": "RECORD", "samples": 501}, "samples must be a whole number from 1 to 500"),
    ({"game": "RECORD", "tolerance": -1}, "tolerance must be a number at least 0"),
    ({"game": "RECORD", "player": "Nobody"}, "unknown player 'Nobody'"),
    ({"game": "RECORD", "jobs": 4}, "unknown field 'jobs'"),
])
def test_a_review_that_cannot_be_made_is_400_naming_why(client, body, message):
    if body.get("game") == "RECORD":
        body = {**body, "game": RECORD.read_text()}
    assert message in post(client, "/api/review", body, 400).json()["error"]
    if set(body) <= {"game"}:
        assert message in post(client, "/api/replay", body, 400).json()["error"]


def test_too_many_deals_are_400(client):
    data = json.loads(RECORD.read_text())
    data["deals"] = data["deals"] * (server.MAX_REVIEW_DEALS // len(data["deals"]) + 1)
    for path in ("/api/review", "/api/replay"):
        assert f"at most {server.MAX_REVIEW_DEALS} deals" in post(client, path, {"game": data}, 400).json()["error"]


def test_an_unpriced_decisions_note_is_also_said_in_the_requests_language(client, monkeypatch):
    """The note stays English, as in ``review --json``; ``note_said`` is the same message in the
    language of the request's Accept-Language (the board shows that one)."""
    from prefsolve.analysis.sampling import ConstraintError
    from prefsolve.i18n import _, translations
    from prefsolve.players.advisor import Advisor

    message = "known cards for place {place} are given twice"
    real = Advisor.analysis

    def failing(self, view):
        if view.kind == "card" and view.move == 20:
            raise ConstraintError(_(message, place=repr("talon")))
        return real(self, view)

    monkeypatch.setattr(Advisor, "analysis", failing)
    first = json.dumps({**json.loads(RECORD.read_text()), "deals": json.loads(RECORD.read_text())["deals"][:1]})
    english = message.format(place="'talon'")
    russian = translations("ru").gettext(message).format(place="'talon'")
    assert russian != english
    for lang, said in (("ru", russian), ("en", english)):
        r = client.post("/api/review", content=json.dumps({"game": first, "samples": 2}),
                        headers={**JSON, "accept-language": lang})
        assert r.status_code == 200, r.text
        noted = [d for deal in r.json()["deals"] for d in deal["decisions"] if d["note"] is not None]
        assert [(d["move"], d["note"], d["note_said"]) for d in noted] == [(20, english, said)]
        assert all("note_said" not in d for deal in r.json()["deals"] for d in deal["decisions"] if d["note"] is None)
