"""The web board's API over HTTP: the command line's JSON, its error lines, its limits.

Most tests talk to the application through Starlette's TestClient (real
HTTP requests, in process); the ones about connections (a client that goes
away, one job per client, the ``serve`` command) run a real uvicorn server
on a free port of the loopback. What every request passes first (the host,
the origin, the body's kind, size and time) is tests/test_web_guard.py's;
the queue of quick requests is tests/test_web_pool.py's.
"""

import json
import re
import subprocess
import sys
import threading
import time
import tomllib
import warnings
from fnmatch import fnmatch
from pathlib import Path

import pytest
from click.testing import CliRunner

# The web extra's tests (.ci/run installs every extra, so they run there).
WEB_EXTRA = 'the web extra is not installed (pip install "prefsolve[web]"; httpx comes with ".[test]")'
for _name in ("starlette", "uvicorn", "httpx"):
    pytest.importorskip(_name, reason=WEB_EXTRA)
import httpx

with warnings.catch_warnings():     # newer Starlette would rather have httpx2; httpx serves the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import EXAMPLE, SMALL, child_env, wait_for

from prefsolve import Deal, Position, allpass_table, card_values
from prefsolve.cli import main
from prefsolve.i18n import _ as say, use_language
from prefsolve.web import STATIC, guard, listen, server
from prefsolve.web.local import LocalServer

ROOT = Path(__file__).resolve().parent.parent


JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def client():
    with TestClient(server.create_app(), base_url="http://127.0.0.1") as c:
        yield c


def cli(*args):
    """The command line's result: (exit code, stdout, stderr)."""
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def cli_json(*args):
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def cli_error(*args):
    """The message of the command line's one error line (without "Error: ")."""
    code, out, err = cli(*args)
    assert code == 2 and out == "", (code, out, err)
    line, = err.strip().splitlines()
    return line.removeprefix("Error: ")


def without_nodes(obj):
    return {k: v for k, v in obj.items() if k != "nodes"}


# -- the command line's JSON -----------------------------------------------------------

@pytest.mark.parametrize("deal", [EXAMPLE, SMALL])
def test_table_is_table_json(client, deal):
    r = client.post("/api/table", json={"deal": deal})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    # The search nodes depend on what the solving thread solved before; the tricks do not.
    assert without_nodes(r.json()) == without_nodes(cli_json("table", deal))
    r = client.post("/api/table", json={"deal": deal, "leader": 1, "talon_mode": "ignore"})
    assert without_nodes(r.json()) == without_nodes(cli_json("table", deal, "--leader", "1",
                                                             "--talon-mode", "ignore"))


def test_a_list_of_deals_is_table_file_json(client, tmp_path):
    deals = [str(Deal.random(s)) for s in range(3)] + [SMALL]
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(deals) + "\n")
    r = client.post("/api/table", json={"deals": deals})
    assert r.status_code == 200
    assert r.json() == cli_json("table", "--file", str(path))


def test_solve_is_solve_json_with_its_line(client):
    r = client.post("/api/solve", json={"deal": EXAMPLE, "declarer": 2, "strain": "NT", "line": True})
    assert without_nodes(r.json()) == without_nodes(cli_json("solve", EXAMPLE, "--declarer", "2", "--strain",
                                                             "NT", "--line"))


def test_play_is_play_json_from_fields_and_from_a_position_text(client):
    args = ["--declarer", "2", "--strain", "NT", "--played", "SA SJ SK CT"]
    expected = cli_json("play", EXAMPLE, *args)
    r = client.post("/api/play", json={"deal": EXAMPLE, "declarer": 2, "strain": "NT",
                                       "played": ["SA", "SJ", "SK", "CT"]})
    assert r.status_code == 200 and r.json() == expected
    # the played cards as text, as --played takes them
    r = client.post("/api/play", json={"deal": EXAMPLE, "declarer": 2, "strain": "NT", "played": "SA SJ SK CT"})
    assert r.json() == expected
    r = client.post("/api/play", json={"position": expected["position"]})
    assert r.json() == expected
    r = client.post("/api/play", json={"position": expected["position"], "line": True})
    assert r.json() == cli_json("play", expected["position"], "--line")
    # the values are card_values' for the same position
    values = card_values(EXAMPLE, 2, strain="NT", played="SA SJ SK CT")
    assert expected["values"] == values.to_dict()


@pytest.mark.parametrize("played", ["", "SK SA SJ", "SK SA SJ SQ CA S7"])
def test_play_is_play_json_to_the_end_of_the_play(client, played):
    r = client.post("/api/play", json={"deal": SMALL, "declarer": 1, "strain": "NT", "played": played})
    assert r.json() == cli_json("play", SMALL, "--declarer", "1", "--strain", "NT", "--played", played)


def test_allpass_is_allpass_json_in_both_talon_modes(client):
    for mode in ("lead", "ignore"):
        r = client.post("/api/allpass", json={"deal": EXAMPLE, "talon_mode": mode})
        assert without_nodes(r.json()) == without_nodes(cli_json("allpass", EXAMPLE, "--talon-mode", mode))
        assert r.json()["tricks"] == list(allpass_table(EXAMPLE, talon_mode=mode).tricks)
    r = client.post("/api/play", json={"deal": EXAMPLE, "seat": 1, "strain": "allpass", "talon_mode": "lead",
                                       "played": ["SA"]})
    assert r.json() == cli_json("play", EXAMPLE, "--seat", "1", "--strain", "allpass", "--played", "SA")


def test_a_deal_by_seed_is_the_deal_command_s(client):
    r = client.get("/api/deal?seed=7")
    code, out, _ = cli("deal", "--seed", "7")
    assert r.json() == {"deal": out.strip(), "seed": 7}
    assert client.get("/api/deal?seed=3&cards=4").json()["deal"] == str(Deal.random(3, cards=4))
    fresh = client.get("/api/deal").json()     # a fresh seed, told so the deal can be dealt again
    assert fresh["deal"] == str(Deal.random(fresh["seed"]))


def test_analyze_is_analyze_json_and_the_stream_ends_with_it(client):
    body = {"hand": "A.KT9.KT97.K7", "seat": 1, "samples": 12, "seed": 3, "rules": "leningrad"}
    r = client.post("/api/analyze", json=body)
    expected = cli_json("analyze", "A.KT9.KT97.K7", "--seat", "1", "-n", "12", "--seed", "3", "--rules",
                        "leningrad")
    assert r.status_code == 200 and r.json() == expected
    with client.stream("POST", "/api/analyze", json={**body, "stream": True}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in r.iter_lines() if line]
    progress, last = lines[:-1], lines[-1]
    assert last == {"result": expected}
    assert progress and all(set(p) == {"done", "samples"} and p["samples"] == 12 for p in progress)
    done = [p["done"] for p in progress]
    assert done == sorted(done) and 1 <= done[0] and done[-1] <= 12


#: The first trial's deal in Russian letters (Т is туз, the ace) and in Latin letters.
RU_DEAL = "ТК7.A8.KQ.AKQ Д.К109.В9.В987 В8.ДВ7.Т1087.10 109.-.-.-"
LATIN_DEAL = "AK7.A8.KQ.AKQ Q.KT9.J9.J987 J8.QJ7.AT87.T T9.-.-.-"


def test_the_api_reads_the_russian_notation_as_the_command_line_does(client):
    r = client.post("/api/table", json={"deal": RU_DEAL})
    assert r.status_code == 200 and r.json()["deal"] == LATIN_DEAL
    assert without_nodes(r.json()) == without_nodes(cli_json("table", LATIN_DEAL))
    r = client.post("/api/solve", json={"deal": RU_DEAL, "declarer": 0, "strain": "черви", "line": True})
    assert without_nodes(r.json()) == without_nodes(cli_json("solve", LATIN_DEAL, "--declarer", "0", "--strain",
                                                             "H", "--line"))
    expected = cli_json("play", LATIN_DEAL, "--declarer", "2", "--strain", "NT", "--played", "SA SQ")
    for body in ({"deal": RU_DEAL, "declarer": 2, "strain": "бк", "played": "пТ пД"},
                 {"deal": RU_DEAL, "declarer": 2, "strain": "бескозырка", "played": ["Тп", "Дп"]},
                 {"position": RU_DEAL + "; declarer=2; strain=БК; played=Тп, пД"}):
        r = client.post("/api/play", json=body)
        assert r.status_code == 200 and r.json() == expected, body
    r = client.post("/api/play", json={"deal": RU_DEAL, "seat": 1, "strain": "распасы", "turn": "9п 10п"})
    assert r.json() == cli_json("play", LATIN_DEAL, "--seat", "1", "--strain", "allpass", "--turn", "S9 ST")
    r = client.post("/api/allpass", json={"deal": RU_DEAL, "turn": ["9п", "п10"]})
    assert without_nodes(r.json()) == without_nodes(cli_json("allpass", LATIN_DEAL, "--turn", "S9 ST"))
    r = client.post("/api/analyze", json={"hand": "ТК7.A8.KQ.AKQ", "samples": 4, "seed": 2})
    assert r.status_code == 200 and r.json() == cli_json("analyze", "AK7.A8.KQ.AKQ", "-n", "4", "--seed", "2")


@pytest.mark.parametrize("path, body, message", [
    ("/api/table", {"deal": RU_DEAL.replace("ТК7", "ТКХ")}, "'Х' can be read two ways: the ten"),
    ("/api/table", {"deal": RU_DEAL.replace("ТК7", "ТКТ")}, "duplicate card SA in hand 'ТКТ.A8.KQ.AKQ' "
                                                           "(Cyrillic Т is туз, the ace"),
    ("/api/solve", {"deal": RU_DEAL, "declarer": 0, "strain": "распасы"}, "is all-pass, which has no declarer"),
    ("/api/analyze", {"hand": "ТКХ.A8.KQ.AKQ", "samples": 2}, "'Х' can be read two ways"),
])
def test_russian_input_that_cannot_be_read_is_400_naming_why(client, path, body, message):
    r = client.post(path, json=body)
    assert r.status_code == 400 and message in r.json()["error"]


def test_info_names_the_profiles_and_limits(client):
    info = client.get("/api/info").json()
    assert info["profiles"] == ["classic", "sochi", "leningrad", "rostov"]
    assert info["limits"] == {"body_bytes": guard.MAX_BODY, "json_depth": server.MAX_DEPTH,
                              "number_chars": server.MAX_NUMBER, "deals": server.MAX_DEALS,
                              "samples": server.MAX_SAMPLES, "running_analyses": server.MAX_RUNNING_JOBS,
                              "queued_requests": server.MAX_QUEUED, "head_seconds": listen.HEAD_TIMEOUT,
                              "body_seconds": guard.BODY_TIMEOUT}


def test_messages_give_the_pages_catalogue_in_russian_and_none_in_english(client):
    pytest.importorskip("babel", reason='without compiled catalogues Babel reads the .po (pip install ".[test]")')
    from prefsolve.i18n import catalogue

    r = client.get("/api/messages?lang=ru")
    assert r.status_code == 200
    doc = r.json()
    assert doc["lang"] == "ru" and doc["messages"]["prefsolve board"] == "доска prefsolve"
    assert doc["messages"] == catalogue("ru")
    assert "unknown player {name} (players: {players})" not in doc["messages"]   # the command line's stay on the server
    assert client.get("/api/messages?lang=en").json() == {"lang": "en", "messages": {}}
    assert client.get("/api/messages").json()["lang"] == "en"
    for query, error in (("lang=de", "lang must be one of en, ru, got 'de'"),
                         ("language=ru", "unknown parameter 'language' (expected: lang)")):
        r = client.get(f"/api/messages?{query}")
        assert r.status_code == 400 and r.json() == {"error": error}


# -- bad input: HTTP 400 with the command line's line -----------------------------------

@pytest.mark.parametrize("path, body, args", [
    ("/api/table", {"deal": "K7.-.-.- AQ.-.-.- J.A.-"}, ["table", "K7.-.-.- AQ.-.-.- J.A.-"]),
    ("/api/table", {"deal": "AK.-.-.- QJ.-.-.- T9.-.-"}, ["table", "AK.-.-.- QJ.-.-.- T9.-.-"]),
    ("/api/table", {"deal": "AKQ.-.-.- QJ.-.-.- T9.-.-.-"}, ["table", "AKQ.-.-.- QJ.-.-.- T9.-.-.-"]),
    ("/api/play", {"deal": EXAMPLE, "declarer": 2, "strain": "NT", "played": ["SA", "CA"]},
     ["play", EXAMPLE, "--declarer", "2", "--strain", "NT", "--played", "SA CA"]),
    ("/api/play", {"deal": EXAMPLE, "declarer": 2, "strain": "NT", "played": "SA SZ"},
     ["play", EXAMPLE, "--declarer", "2", "--strain", "NT", "--played", "SA SZ"]),
    ("/api/play", {"position": SMALL + "; declarer=1; strain=NT; played=SK SK"},
     ["play", SMALL + "; declarer=1; strain=NT; played=SK SK"]),
    ("/api/play", {"deal": EXAMPLE, "declarer": 1, "strain": "trumps"},
     ["play", EXAMPLE, "--declarer", "1", "--strain", "trumps"]),
    ("/api/allpass", {"deal": EXAMPLE, "turn": "HK SQ"}, ["allpass", EXAMPLE, "--turn", "HK SQ"]),
    ("/api/analyze", {"hand": "A.KT9.KT97", "samples": 5}, ["analyze", "A.KT9.KT97", "-n", "5"]),
    ("/api/analyze", {"hand": "A.KT9.KT97.K", "samples": 5}, ["analyze", "A.KT9.KT97.K", "-n", "5"]),
])
def test_bad_input_is_400_with_the_command_line_s_message(client, path, body, args):
    r = client.post(path, json=body)
    assert r.status_code == 400, r.text
    assert r.json() == {"error": cli_error(*args)}


@pytest.mark.parametrize("raw, message", [
    (b"not json", "the request body is not JSON"),
    (b"[1, 2]", "the request body must be a JSON object, got list"),
    (b'{"deal": 5}', "deal must be text, got 5"),
    (b'{"deals": ["' + EXAMPLE.encode() + b'"], "deal": "x"}', "give either deal or deals, not both"),
    (b'{"deal": "' + EXAMPLE.encode() + b'", "declarer": 0}', "unknown field 'declarer' (expected: deal, deals, "
                                                              "leader, talon_mode)"),
    (b"{}", "the field 'deal' is required"),
    (b'{"deal": "' + EXAMPLE.encode() + b'", "leader": 3}', "leader must be a seat 0, 1 or 2, got 3"),
    (b'{"deals": ["AK.-.-.- QJ.-.-.- T9.-.-.-", "x"]}', "deal 2: cannot read deal 'x'"),
])
def test_a_request_the_api_cannot_read_is_400_naming_the_problem(client, raw, message):
    r = client.post("/api/table", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith(message), r.text


NESTED = b"[" * 30000
DEEP = b'{"deal": ' + b"[" * 8 + b'"x"' + b"]" * 8 + b"}"       # 9 levels: the object and 8 arrays


@pytest.mark.parametrize("path", ["/api/table", "/api/solve", "/api/play", "/api/allpass", "/api/analyze"])
@pytest.mark.parametrize("raw, message", [
    (NESTED, f"the request body nests arrays and objects more than {server.MAX_DEPTH} deep"),
    (DEEP, f"the request body nests arrays and objects more than {server.MAX_DEPTH} deep"),
    (b'{"seed": ' + b"9" * 5000 + b"}", f"a number in the request has 5000 characters; at most {server.MAX_NUMBER}"),
    (b'{"seed": 1' + b"0" * 20 + b"}", f"a number in the request has 21 characters; at most {server.MAX_NUMBER}"),
    (b'{"seed": 1.' + b"5" * 30 + b"}", f"a number in the request has 32 characters; at most {server.MAX_NUMBER}"),
    (b'{"seed": NaN}', "the request body is not JSON: NaN is not a JSON number"),
    (b'{"seed": -Infinity}', "the request body is not JSON: -Infinity is not a JSON number"),
    (b'{"deal": "\xff"}', "the request body is not JSON: 'utf-8' codec can't decode byte 0xff"),
])
def test_json_too_deep_or_with_a_huge_number_is_400(client, path, raw, message):
    r = client.post(path, content=raw, headers=JSON)
    assert r.status_code == 400 and r.json()["error"].startswith(message), r.text


def test_the_json_limits_leave_what_the_api_sends_alone(client):
    # eight levels are read (the deal is then the wrong kind); brackets inside text do not nest
    r = client.post("/api/table", content=b'{"deal": ' + b"[" * 7 + b'"x"' + b"]" * 7 + b"}", headers=JSON)
    assert r.status_code == 400 and r.json()["error"].startswith("deal must be text")
    r = client.post("/api/table", content=b'{"deal": "' + b"[{" * 100 + b'"}', headers=JSON)
    assert r.status_code == 400 and r.json()["error"] == cli_error("table", "[{" * 100)
    r = client.post("/api/analyze", content=b'{"hand": "A.KT9.KT97.K7", "samples": 2, "seed": 12345678901234567890}',
                    headers=JSON)
    assert r.status_code == 200 and r.json()["seed"] == 12345678901234567890


def test_the_limits_are_400_or_413(client):
    deals = [SMALL] * (server.MAX_DEALS + 1)
    r = client.post("/api/table", json={"deals": deals})
    assert r.status_code == 400 and r.json()["error"] == f"at most {server.MAX_DEALS} deals a request, got 21"
    r = client.post("/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": server.MAX_SAMPLES + 1})
    assert r.status_code == 400
    assert r.json()["error"] == f"samples must be a whole number from 1 to {server.MAX_SAMPLES}, got 5001"
    for bad in (0, -1, 2.5, "10", True):
        r = client.post("/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": bad})
        assert r.status_code == 400 and r.json()["error"].startswith("samples must be a whole number")
    big = json.dumps({"deal": SMALL, "pad": "x" * guard.MAX_BODY}).encode()
    r = client.post("/api/table", content=big, headers=JSON)
    assert r.status_code == 413 and r.json() == {"error": f"the request body is over {guard.MAX_BODY} bytes"}

    def chunks():   # no Content-Length: the body is counted as it arrives
        for _ in range(guard.MAX_BODY // 1000 + 2):
            yield b" " * 1000

    r = client.post("/api/table", content=chunks(), headers=JSON)
    assert r.status_code == 413
    assert client.post("/api/table", json={"deal": SMALL}).status_code == 200
    r = client.get("/api/deal?seed=x")
    assert r.status_code == 400 and r.json()["error"] == "seed must be a whole number, got 'x'"
    r = client.get("/api/deal?seed=1&cards=11")
    assert r.status_code == 400 and r.json()["error"] == "hands must hold 1 to 10 cards, got 11"
    assert client.get("/api/deal?seed=1&pad=1").status_code == 400


def test_a_failure_is_one_line_500_and_the_server_goes_on(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the engine broke")

    with TestClient(server.create_app(), base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        monkeypatch.setattr(server, "table", broken)
        r = client.post("/api/table", json={"deal": SMALL})
        assert r.status_code == 500 and r.json() == {"error": "internal error: RuntimeError: the engine broke"}
        monkeypatch.undo()
        assert client.post("/api/table", json={"deal": SMALL}).status_code == 200


def test_a_failing_analysis_is_one_line_and_the_server_goes_on(client, monkeypatch):
    def broken(*args, progress, **kwargs):
        progress(1)
        raise RuntimeError("sampling broke")

    monkeypatch.setattr(server, "run_analysis", broken)
    r = client.post("/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": 3, "stream": True})
    lines = [json.loads(line) for line in r.text.splitlines()]
    assert lines[-1] == {"error": "internal error: RuntimeError: sampling broke"}
    monkeypatch.undo()
    assert client.post("/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": 2}).status_code == 200


# -- the language of the errors --------------------------------------------------------

RUSSIAN = {"accept-language": "ru-RU,ru;q=0.9,en;q=0.5"}


def russian_cli_error(*args):
    """The message of the command line's one error line in Russian (without its "Error: ")."""
    code, out, err = cli(*args, "--lang", "ru")
    assert code == 2 and out == "", (code, out, err)
    line, = err.strip().splitlines()
    with use_language("ru"):
        return line.removeprefix(say("Error: {message}", message=""))


def test_an_error_comes_in_the_language_the_request_asks_for(client):
    bad = "AK.-.-.- QJ.-.-.- T9.-.-"
    args = ["table", bad]
    r = client.post("/api/table", json={"deal": bad}, headers=RUSSIAN)
    assert r.status_code == 400 and r.json() == {"error": russian_cli_error(*args)}
    assert russian_cli_error(*args) != cli_error(*args)
    # An analysis's error is said on its job's thread, and in the request's language when answered.
    r = client.post("/api/analyze", json={"hand": "A.KT9.KT97", "samples": 5}, headers=RUSSIAN)
    assert r.status_code == 400 and r.json() == {"error": russian_cli_error("analyze", "A.KT9.KT97", "-n", "5")}
    # The server's own words and the guard's refusals too.
    r = client.post("/api/table", json={"deal": bad, "pad": 1}, headers=RUSSIAN)
    assert r.status_code == 400 and r.json()["error"].startswith("неизвестное поле 'pad'")
    r = client.post("/api/table", content=b"{}", headers={"content-type": "text/plain", **RUSSIAN})
    assert r.status_code == 415 and "Content-Type: application/json" in r.json()["error"]
    assert r.json()["error"].startswith("тело запроса")


def test_without_a_language_asked_for_errors_are_english_whatever_the_server_speaks(client):
    bad = "AK.-.-.- QJ.-.-.- T9.-.-"
    with use_language("ru"):   # the process's language, as `prefsolve serve` on a Russian machine sets it
        r = client.post("/api/table", json={"deal": bad})
        busy = client.post("/api/analyze", json={"hand": "A.KT9.KT97", "samples": 5})
        german = client.post("/api/table", json={"deal": bad}, headers={"accept-language": "de-DE"})
    assert r.json() == german.json() == {"error": cli_error("table", bad)}
    assert busy.json() == {"error": cli_error("analyze", "A.KT9.KT97", "-n", "5")}


def test_requests_in_two_languages_at_once_each_get_their_own():
    bad = "AK.-.-.- QJ.-.-.- T9.-.-"
    wanted = {"ru": russian_cli_error("table", bad), "en": cli_error("table", bad)}
    answers: dict[str, list] = {"ru": [], "en": []}
    with LocalServer() as url:
        def ask(lang):
            with httpx.Client(timeout=30) as c:
                for _ in range(15):
                    r = c.post(f"{url}/api/table", json={"deal": bad}, headers={"accept-language": lang})
                    answers[lang].append(r.json()["error"])

        threads = [threading.Thread(target=ask, args=(lang,)) for lang in ("ru", "en")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert answers == {lang: [text] * 15 for lang, text in wanted.items()}


# -- files ------------------------------------------------------------------------------

def test_the_page_and_its_files_are_served_with_a_client_cookie_and_a_strict_policy(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in r.text
    assert re.fullmatch(r"[0-9a-f]{32}", r.cookies[server.COOKIE])
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    for path in STATIC.iterdir():
        r = client.get(f"/static/{path.name}")
        assert r.status_code == 200 and r.content == path.read_bytes()
        assert r.headers["content-type"].split(";")[0] == server.MEDIA_TYPES[path.suffix].split(";")[0]


def test_the_page_fetches_nothing_from_elsewhere():
    for path in STATIC.iterdir():
        if path.suffix in (".html", ".css", ".js"):
            # the SVG namespace is a name, not an address anything is fetched from
            text = path.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")
            assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), path.name


@pytest.mark.parametrize("path", [
    "/static/../server.py", "/static/..%2fserver.py", "/static/%2e%2e/server.py", "/static/%2e%2e%2fserver.py",
    "/static/..%2F..%2F..%2Fpyproject.toml", "/static/server.py", "/static/__init__.py", "/static/",
    "/static/.%2Findex.html", "/../../../../etc/passwd", "/static/..%5cserver.py", "/static//etc/passwd",
    "/static/%2Fetc%2Fpasswd", "/server.py", "/web/server.py", "/index.html",
])
def test_no_file_outside_the_assets_is_served(client, path):
    r = client.get(path)
    assert r.status_code == 404, (path, r.status_code)
    assert b"import" not in r.content and b"root:" not in r.content


def test_path_traversal_over_a_raw_socket_gets_nothing():
    """The same with the request line sent as is, which an HTTP client would normalise."""
    import socket

    with LocalServer() as url:
        port = int(url.rsplit(":", 1)[1])
        for target in ("/static/../server.py", "/static/../../prefsolve/web/server.py", "/../../etc/passwd"):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
                answer = b""
                while chunk := s.recv(65536):
                    answer += chunk
            status = answer.split(b"\r\n", 1)[0]
            assert b" 404 " in status or b" 400 " in status, (target, status)
            assert b"import" not in answer and b"root:" not in answer


def test_the_wheel_ships_the_page():
    """Every file of the page is matched by the package data of pyproject.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["prefsolve"]
    package = STATIC.parent.parent
    files = [str(p.relative_to(package)) for p in STATIC.iterdir()]
    assert "web/static/index.html" in files
    assert [f for f in files if not any(fnmatch(f, g) for g in globs)] == []
    assert sorted(server.static_files()) == sorted(p.name for p in STATIC.iterdir())
    extras = config["project"]["optional-dependencies"]
    assert {"starlette", "uvicorn"} <= {re.split(r"[<>=\[]", d)[0] for d in extras["web"]}


# -- long jobs: one per client, cancelled when the client goes away -----------------------

def _stream(url, cookie, samples, stop):
    """Open a streamed analysis; return the first progress line, then hold the stream until ``stop``."""
    got = {}

    def run():
        try:
            with httpx.Client(cookies={server.COOKIE: cookie}, timeout=30) as c, \
                    c.stream("POST", f"{url}/api/analyze",
                             json={"hand": "A.KT9.KT97.K7", "samples": samples, "seed": 1, "stream": True}) as r:
                got["status"] = r.status_code
                for line in r.iter_lines():
                    got.setdefault("first", json.loads(line))
                    if stop.is_set():
                        break       # leaving the block closes the connection
        except httpx.HTTPError as exc:
            got["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    deadline = time.monotonic() + 30
    while "first" not in got and t.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    return t, got


def test_one_job_per_client_and_a_client_that_goes_away_stops_its_job():
    board = LocalServer()
    with board as url:
        jobs = board.app.state.jobs
        stop = threading.Event()
        a = "a" * 32
        t, got = _stream(url, a, server.MAX_SAMPLES, stop)
        assert got.get("status") == 200 and set(got["first"]) == {"done", "samples"}, got
        (job,) = jobs.running()
        # the same client again: refused while its job runs
        with httpx.Client(cookies={server.COOKIE: a}, timeout=30) as c:
            r = c.post(f"{url}/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": 5})
        assert r.status_code == 409 and "already running" in r.json()["error"]
        # another client is served
        with httpx.Client(cookies={server.COOKIE: "b" * 32}, timeout=60) as c:
            r = c.post(f"{url}/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": 3, "seed": 2})
        assert r.status_code == 200 and r.json()["samples"] == 3
        # the first client goes away: its job stops long before its 5000 samples
        stop.set()
        t.join(30)
        assert job.wait(15), "the job of a client that went away is still running"
        snap = job.snapshot()
        assert snap.cancelled and snap.result is None and snap.done < server.MAX_SAMPLES
        assert jobs.running() == []
        # and the client may start again
        with httpx.Client(cookies={server.COOKIE: a}, timeout=60) as c:
            r = c.post(f"{url}/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": 2, "seed": 1})
        assert r.status_code == 200


def test_a_client_that_gives_up_waiting_for_a_whole_answer_stops_its_job():
    board = LocalServer()
    with board as url:
        with pytest.raises(httpx.ReadTimeout), httpx.Client(timeout=1.5) as c:
            c.post(f"{url}/api/analyze", json={"hand": "A.KT9.KT97.K7", "samples": server.MAX_SAMPLES})
        assert wait_for(lambda: not board.app.state.jobs.running()), "the job outlived its client"


def test_a_job_without_a_cookie_belongs_to_its_address():
    from starlette.requests import Request

    scope = {"type": "http", "headers": [], "client": ("127.0.0.5", 4000)}
    assert server.client_of(Request(scope)) == "address:127.0.0.5"
    scope["headers"] = [(b"cookie", f"{server.COOKIE}={'c' * 32}".encode())]
    assert server.client_of(Request(scope)) == "cookie:" + "c" * 32
    scope["headers"] = [(b"cookie", f"{server.COOKIE}=../../x".encode())]
    assert server.client_of(Request(scope)) == "address:127.0.0.5"


# -- the serve command -------------------------------------------------------------------

def test_serve_without_the_web_extra_names_it_in_one_line(monkeypatch):
    import prefsolve.cli.serve as serve

    monkeypatch.setattr(serve, "missing_module", lambda: "uvicorn")
    code, out, err = cli("serve")
    assert code == 1 and out == ""
    assert err == 'Error: prefsolve serve needs the web extra (uvicorn is missing): pip install "prefsolve[web]"\n'


def serve(*args):
    """``prefsolve serve --port 0 ARGS`` in a process of its own, as a user runs it."""
    env = child_env()
    return subprocess.Popen([sys.executable, "-m", "prefsolve", "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def stop(proc):
    """Stop a server; what it wrote on stderr."""
    proc.terminate()
    return proc.communicate(timeout=10)[1]


def printed_url(proc, host_pattern):
    line = proc.stdout.readline()
    m = re.fullmatch(rf"prefsolve board at (http://({host_pattern}):(\d+)/) \(Ctrl-C stops it\)\n", line)
    assert m, line
    return m.group(1), m.group(2)


@pytest.mark.parametrize("host, shown", [("127.0.0.1", r"127\.0\.0\.1"), ("127.0.0.2", r"127\.0\.0\.2"),
                                         ("::1", r"\[::1\]")])
def test_serve_prints_the_address_it_listens_on_and_serves_the_board_there(host, shown):
    proc = serve("--host", host)
    try:
        url, _ = printed_url(proc, shown)
        # the Host a browser sends for that address is one the board answers
        r = httpx.get(url, timeout=10)
        assert r.status_code == 200 and "prefsolve" in r.text
        assert httpx.post(url + "api/table", json={"deal": SMALL}, timeout=10).json()["tricks"][1]["NT"] == 2
        assert httpx.get(url + "api/info", headers={"host": "attacker.example"}, timeout=10).status_code == 400
    finally:
        assert stop(proc) == ""     # on the loopback: no warning


def test_serve_on_every_address_warns_in_one_line_and_prints_where_it_is_reached():
    proc = serve("--host", "0.0.0.0")
    try:
        warning = proc.stderr.readline()
        assert warning == ("Warning: the board listens on every address of this machine, so other machines on the "
                           "network can use it; --host 127.0.0.1 keeps it on this computer\n")
        url, address = printed_url(proc, r"[0-9.]+")
        assert address == listen.network_address() and address != "0.0.0.0"
        assert httpx.get(url + "api/info", timeout=10).status_code == 200
        port = url.rsplit(":", 1)[1].strip("/")
        # any address of the machine, and its own names, are answered; another name is not
        for host, status in (("127.0.0.1", 200), ("localhost", 200), ("board.example", 400)):
            r = httpx.get(f"http://127.0.0.1:{port}/api/info", headers={"host": f"{host}:{port}"}, timeout=10)
            assert r.status_code == status, host
    finally:
        assert stop(proc) == ""


def test_the_position_of_a_table_cell_is_the_table_s_contract(client):
    """What the page sends when a cell is chosen: the contract after the table's discard."""
    t = client.post("/api/table", json={"deal": EXAMPLE}).json()
    for declarer in range(3):
        for strain in ("S", "NT", "misere"):
            discard = t["discards"][declarer][strain]
            r = client.post("/api/play", json={"deal": EXAMPLE, "declarer": declarer, "strain": strain,
                                               "talon_mode": "take", "discard": discard})
            pos = r.json()
            assert pos["tricks"] == t["tricks"][declarer][strain]
            assert pos["position"] == str(Position(EXAMPLE, declarer, strain=strain, talon_mode="take",
                                                   discard=discard))
