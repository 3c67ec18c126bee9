"""Games against the bots over the board's API: a deal and a пуля played to the end, every move checked.

The human's moves are sent as a player's page sends them; what the server
answers is checked against the rules (prefsolve.game's DealState), the
record against ``prefsolve score`` and the bots' hidden cards against what
the seat may see. Bots are the heuristic player or an advisor of few
samples, so that the tests stay quick.
"""

import json
import warnings

import pytest
from click.testing import CliRunner

for _name in ("starlette", "httpx"):
    pytest.importorskip(_name, reason='the web extra is not installed (pip install "prefsolve[web]")')
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from prefsolve.cards import Hand
from prefsolve.cli import main
from prefsolve.errors import GameError
from prefsolve.game import DealState, load_session
from prefsolve.web import server
from prefsolve.web.tables import MAX_BOT_SAMPLES

JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def client():
    with TestClient(server.create_app(), base_url="http://127.0.0.1") as c:
        yield c


def post(client, path, body, status=200, lang=None):
    headers = {**JSON, **({"accept-language": lang} if lang else {})}
    r = client.post(path, content=json.dumps(body), headers=headers)
    assert r.status_code == status, r.text
    return r.json()


def a_move(view):
    """A legal move of the seat's: its first option (a declaration discards its first two cards)."""
    seen = view["view"]
    option = seen["options"][0]
    if seen["kind"] == "declaration":
        hand = list(Hand.parse(seen["hand"]))
        return {"contract": option, "discard": [str(c) for c in hand[:2]] if len(hand) == 12 else None}
    return option


def the_game(client, game_id):
    """The server's game (to check what the page is shown against the whole deal)."""
    return client.app.state.games.get("address:testclient", game_id)


def play_out(client, view, check=None):
    """Make the human's moves until the deal is over; every view passes ``check``."""
    while not view["over"]:
        assert view["your_move"] and view["view"]["options"], view
        if check:
            check(view)
        view = post(client, "/api/game/move", {"game": view["game"], "move": a_move(view)})
    return view


def score_json(tmp_path, record):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    r = CliRunner().invoke(main, ["score", str(path), "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_a_deal_against_two_bots_is_played_to_its_end_and_its_record_is_the_game(client, tmp_path):
    view = post(client, "/api/game", {"players": ["heuristic", "advisor:samples=2"], "seat": 1, "seed": 11})
    # the bots sit after you clockwise: the first on your left (table seat 2), the second in seat 0
    assert view["players"] == ["advisor:samples=2", "you", "heuristic"] and view["you"] == 1
    game = the_game(client, view["game"])
    deal = game.current.state.deal

    def hidden(v):
        """Until the deal ends the page sees its own cards, the hands face up and nothing else of the deal."""
        seen = v["view"]
        assert seen["deal"] is None
        me = (v["you"] - v["first_hand"]) % 3
        assert seen["seat"] == me and seen["dealt"] == str(deal.hands[me])
        text = json.dumps(v)
        for s in {0, 1, 2} - {me} - {int(k) for k in seen["shown"]}:
            assert str(deal.hands[s]) not in text
        if seen["declarer"] is not None and seen["declarer"] != me:
            assert seen["discard"] is None
        assert seen["options"] == [str(o) if seen["kind"] != "declaration" else str(o)
                                   for o in game.current.state.options()]

    end = play_out(client, view, hidden)
    assert end["over"] and end["finished"] and not end["your_move"] and end["view"]["options"] == []
    assert end["view"]["deal"] == str(deal)        # the bots' hands, shown at the end
    session = load_session(json.dumps(end["record"]))
    record, = session.records
    assert record.deal == deal and record.state().is_over()
    assert [str(b) for b in record.balances()] == [str(b) for b in end["balances"]]
    assert score_json(tmp_path, end["record"])["sheet"] == end["sheet"]["sheet"]
    # the deal is over: no move is left
    assert "over" in post(client, "/api/game/move", {"game": view["game"], "move": "pass"}, 400)["error"]


def test_a_move_the_rules_refuse_is_400_with_the_rules_message(client):
    view = post(client, "/api/game", {"players": ["heuristic", "heuristic"], "seed": 5})
    state = the_game(client, view["game"]).current.state
    assert view["your_move"] and view["view"]["kind"] == "call"
    for bad in ("SA", "11S", 7, {"contract": "6S"}):
        try:
            state.copy().apply(bad)
        except GameError as exc:
            expected = str(exc)
        else:
            pytest.fail(f"{bad!r} was accepted")
        assert post(client, "/api/game/move", {"game": view["game"], "move": bad}, 400) == {"error": expected}
    ru = post(client, "/api/game/move", {"game": view["game"], "move": "SA"}, 400, lang="ru")["error"]
    assert ru != expected and "ход" in ru
    # nothing was made of them: the same view
    assert post(client, "/api/game/view", {"game": view["game"]}) == view


def test_a_pool_is_played_deal_after_deal_to_the_end_of_the_game(client, tmp_path):
    view = post(client, "/api/game", {"players": ["heuristic", "heuristic"], "pool": True, "seed": 2,
                                      "settings": ["pool_target=2"]})
    deals = 0
    while True:
        view = play_out(client, view)
        deals += 1
        assert view["sheet"]["history"][-1]["pool"] == [view["sheet"]["sheet"][p]["pool"]
                                                        for p in view["players"]]
        if view["finished"]:
            break
        dealer = view["dealer"]
        view = post(client, "/api/game/next", {"game": view["game"]})
        assert view["number"] == deals + 1 and view["dealer"] in (dealer, (dealer + 1) % 3)
    assert view["sheet"]["finished"] and len(view["sheet"]["history"]) == deals == len(view["record"]["deals"])
    assert all(v >= 2 for v in (view["sheet"]["sheet"][p]["pool"] for p in view["players"]))
    scored = score_json(tmp_path, view["record"])
    assert scored["sheet"] == view["sheet"]["sheet"] and scored["settlement"] == view["sheet"]["settlement"]
    assert "over" in post(client, "/api/game/next", {"game": view["game"]}, 400)["error"]


@pytest.mark.parametrize("body, message", [
    ({"players": ["heuristic"]}, "two bots"),
    ({"players": "heuristic heuristic"}, "two bots"),
    ({"players": ["heuristic", "cmd:python -c 1"]}, "the board seats the players"),
    ({"players": ["heuristic", "nobody"]}, "unknown player 'nobody'"),
    ({"players": ["heuristic", f"advisor:samples={MAX_BOT_SAMPLES + 1}"]}, f"at most {MAX_BOT_SAMPLES} layouts"),
    ({"players": ["heuristic", "advisor:samples=x"]}, "takes a int"),
    ({"players": ["heuristic", "heuristic"], "seat": 3}, "seat must be a whole number from 0 to 2"),
    ({"players": ["heuristic", "heuristic"], "pool": "yes"}, "pool must be true or false"),
    ({"players": ["heuristic", "heuristic"], "rules": "moscow"}, "moscow"),
    ({"players": ["heuristic", "heuristic"], "settings": ["pool_target=0"]}, "pool_target"),
    ({"players": ["heuristic", "heuristic"], "colour": "red"}, "unknown field 'colour'"),
])
def test_a_game_that_cannot_be_set_up_is_400_naming_why(client, body, message):
    assert message in post(client, "/api/game", body, 400)["error"]


def test_a_request_of_an_unknown_game_or_without_its_fields_is_400(client):
    view = post(client, "/api/game", {"players": ["heuristic", "heuristic"], "seed": 5})
    for path, body, message in [
            ("/api/game/move", {"game": "0123456789abcdef", "move": "pass"}, "no game '0123456789abcdef'"),
            ("/api/game/move", {"game": 5, "move": "pass"}, "game must be text"),
            ("/api/game/move", {"game": view["game"]}, "the field 'move' is required"),
            ("/api/game/move", {"move": "pass"}, "the field 'game' is required"),
            ("/api/game/next", {"game": view["game"]}, "the deal under way is not over"),
            ("/api/game/view", {"game": view["game"], "seat": 1}, "unknown field 'seat'")]:
        assert message in post(client, path, body, 400)["error"], (path, body)
    # another client does not reach the game
    other = TestClient(server.create_app(), base_url="http://127.0.0.1")
    assert other.post("/api/game/view", content=json.dumps({"game": view["game"]}), headers=JSON).status_code == 400


def test_a_game_whose_bots_still_think_answers_409(client):
    view = post(client, "/api/game", {"players": ["heuristic", "heuristic"], "seed": 5})
    game = the_game(client, view["game"])
    with game.turn():
        answer = post(client, "/api/game/move", {"game": view["game"], "move": "pass"}, 409)
    assert "still thinking" in answer["error"]
    assert post(client, "/api/game/view", {"game": view["game"]}) == view


def test_the_deal_and_the_bots_decisions_come_from_the_seed(client):
    one = post(client, "/api/game", {"players": ["heuristic", "heuristic"], "seat": 2, "seed": 9})
    two = post(client, "/api/game", {"players": ["heuristic", "heuristic"], "seat": 2, "seed": 9})
    assert {k: v for k, v in one.items() if k != "game"} == {k: v for k, v in two.items() if k != "game"}
    assert one["view"]["calls"], "table seat 2 is the dealer: the bots call first"
    assert the_game(client, one["game"]).current.state.deal == DealState(
        the_game(client, two["game"]).current.state.deal).deal


def test_a_bots_forfeit_reason_is_also_said_in_the_requests_language(client, monkeypatch):
    """A bot whose move fails forfeits the deal: the game's ``reason`` is as the record has it, and
    ``reason_said`` is the same message in the request's language (the board shows that one)."""
    from prefsolve.errors import PlayerError
    from prefsolve.i18n import _, translations
    from prefsolve.players.heuristic import HeuristicPlayer

    message = "a player is named by text such as 'random' or 'advisor:samples=50', got {value}"

    def failing(self, view):
        raise PlayerError(_(message, value="'x'"))

    monkeypatch.setattr(HeuristicPlayer, "decide", failing)
    russian = translations("ru").gettext(message).format(value="'x'")
    english = message.format(value="'x'")
    assert russian != english
    for lang, said in (("ru", russian), ("en", english)):
        view = post(client, "/api/game", {"players": ["heuristic", "heuristic"], "seat": 2, "seed": 1}, lang=lang)
        forfeit = view["forfeit"]
        assert view["over"] and forfeit["reason_said"] == f"heuristic: {said}", forfeit
        assert forfeit["reason"].endswith(english)
