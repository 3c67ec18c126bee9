"""The analyzer commands through click's CliRunner and the prefsolve command group."""

import json
import sys

import pytest
from click.testing import CliRunner

from prefsolve.analysis import Sampling, analyze as analyze_api, analyze_allpass
from prefsolve.cards import Card, Hand
from prefsolve.cli import main
from prefsolve.cli.analyze import analyze, analyze_talon, holdings, whist
from prefsolve.contract import LADDER

MIXED = "A.KT9.KT97.K7"
KEYS = [str(c) for c in LADDER]
#: The plot extra's reason to skip a test that draws (.ci/run installs every extra, so they run there).
PLOT_EXTRA = 'the plot extra is not installed (pip install "prefsolve[plot]")'


def needs_matplotlib():
    pytest.importorskip("matplotlib", reason=PLOT_EXTRA)


@pytest.fixture(scope="module")
def group():
    """The real command group, which prints every error as one line."""
    for cmd in (analyze, analyze_talon, whist, holdings):
        assert main.commands[cmd.name] is cmd
    return main


def _runner():
    try:  # click 8.1 mixes stderr into stdout unless told not to; 8.2 keeps them apart
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def run(group, *args):
    return _runner().invoke(group, list(args))


def test_commands_are_named():
    names = (analyze.name, analyze_talon.name, whist.name, holdings.name)
    assert names == ("analyze", "analyze-talon", "whist", "holdings")


def test_analyze_json_matches_the_api(group):
    r = run(group, "analyze", MIXED, "--seat", "1", "--samples", "12", "--seed", "5", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["samples"] == 12 and list(d["contracts"]) == KEYS
    for c in d["contracts"].values():
        assert 0 <= c["p_make"] <= 1 and len(c["tricks_histogram"]) == 11 and sum(c["tricks_histogram"]) == 12
    assert set(d["recommendation"]) == {"call", "contract", "discard", "max_bid", "expected", "expected_se", "card"}
    assert d == analyze_api(MIXED, 1, sampling=Sampling(samples=12, seed=5)).to_dict()
    assert r.stderr == ""  # --json: no progress bar


def test_analyze_table_output(group):
    r = run(group, "analyze", "987.87.87.987", "--samples", "8", "--seed", "1", "--quiet")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].split()[:2] == ["contract", "P(make)"]
    rows = [ln for ln in lines if ln[:1].isdigit() or ln.startswith("misère")]
    assert len(rows) == 26
    assert len({ln.index("±") for ln in rows}) == 1  # aligned
    assert "bid up to misère" in r.stdout
    assert r.stderr == ""


def test_analyze_progress_on_stderr(group):
    r = run(group, "analyze", MIXED, "--samples", "3", "--seed", "1", "--jobs", "1")
    assert r.exit_code == 0
    assert "analyzing" in r.stderr and "analyzing" not in r.stdout


def test_analyze_constraints(group):
    r = run(group, "analyze", MIXED, "--samples", "3", "--seed", "1", "--known", "1:SK,SQ",
            "--void", "2:H", "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["samples"] == 3


@pytest.mark.parametrize("args, text", [
    (["analyze", "A.KT9.KT97.K"], "9 cards"),
    (["analyze", "AA.KT9.KT97.K"], "duplicate"),
    (["analyze", MIXED, "--known", "1:SA"], "own hand"),
    (["analyze", MIXED, "--known", "1"], "PLACE:CARDS"),
    (["analyze", MIXED, "--void", "x:H"], "SEAT:SUITS"),
    (["analyze", MIXED, "--rules", "moscow"], "moscow"),
    (["whist", MIXED, "--seat", "1", "--declarer", "0", "--contract", "6X"], "unknown contract"),
    (["whist", MIXED, "--seat", "1", "--declarer", "0", "--contract", "misere"], "misère"),
    (["whist", MIXED, "--seat", "1", "--declarer", "0", "--contract", "10S"], "nobody whists on 10S"),
    (["analyze-talon", MIXED], "expected 12"),
    (["whist", MIXED, "--seat", "1", "--declarer", "0", "--contract", "6S", "--talon", "HA HQ HJ"],
     "--talon takes both talon cards (the declarer shows the talon, §3.1), got 3"),
    (["whist", MIXED, "--seat", "1", "--declarer", "0", "--contract", "6S", "--talon", "SA HQ"],
     "own hand"),
    (["analyze-talon", "AKQJT987.A.A.AK", "--contract", "7Z"], "unknown contract"),
    pytest.param(["analyze", MIXED, "--plot", "out.txt"], "cannot draw a .txt file", marks=pytest.mark.plot),
    pytest.param(["analyze", MIXED, "--plot", "no/such/folder/p.png"], "no folder", marks=pytest.mark.plot),
    (["analyze", MIXED, "--adaptive", "nan"], "adaptive must be a positive"),
    (["whist", MIXED, "--seat", "1", "--declarer", "0", "--contract", "6S", "--talon", "SK"],
     "--talon takes both talon cards"),
    (["analyze", MIXED, "--adaptive", "inf"], "adaptive must be a positive"),
])
def test_bad_input_one_line_exit_2(group, args, text, request):
    if request.node.get_closest_marker("plot"):
        needs_matplotlib()
    r = run(group, *args, "--samples", "2", "--seed", "1")
    assert r.exit_code == 2
    assert text in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("Error:")
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_plot_without_matplotlib(group, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    r = run(group, "analyze", MIXED, "--samples", "2", "--plot", str(tmp_path / "p.png"))
    assert r.exit_code == 1
    assert 'pip install "prefsolve[plot]"' in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "p.png").exists()


def test_plot_writes_png(group, tmp_path):
    needs_matplotlib()
    out = tmp_path / "p.png"
    r = run(group, "analyze", MIXED, "--samples", "3", "--seed", "1", "--quiet", "--plot", str(out))
    assert r.exit_code == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_marks_the_recommendation_and_cuts_the_far_losses(tmp_path):
    needs_matplotlib()
    from prefsolve.cli.analyze import plot_analysis

    a = analyze_api(MIXED, 0, sampling=Sampling(samples=12, seed=1), jobs=1)
    out = tmp_path / "p.png"
    drawn = plot_analysis(a, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rec = a.recommendation.contract
    assert drawn["recommended"] == rec.symbol and drawn["labels"] == [s.contract.symbol for s in a.contracts]
    assert "6♠" in drawn["labels"] and "misère" in drawn["labels"]     # suit symbols, as in the text
    lo, hi = drawn["ylim"]
    assert lo <= min(0.0, a[rec].expected) and max(0.0, a[rec].expected) <= hi
    # The 10-level losses of this hand lie far below the contracts that matter: cut, with their values.
    assert drawn["clipped"] and all(not lo <= v <= hi for v in drawn["clipped"].values())
    assert drawn["clipped"] == {s.contract.symbol: s.expected for s in a.contracts if not lo <= s.expected <= hi}
    assert rec.symbol not in drawn["clipped"]


def test_allpass_count_reaches_the_allpass_analysis(group):
    r = run(group, "analyze", MIXED, "--samples", "4", "--seed", "4", "--allpass-count", "2", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    want = analyze_allpass(MIXED, sampling=Sampling(samples=4, seed=4), allpass_count=2).to_dict()
    assert d["allpass"] == want and d["allpass"]["allpass_count"] == 2
    assert d["allpass"]["recommendation"]["call"] == "pass"
    r = run(group, "analyze", MIXED, "--samples", "4", "--allpass", "--allpass-count", "-1")
    assert r.exit_code == 2


def test_plot_without_suffix_is_a_png_under_that_name(group, tmp_path):
    needs_matplotlib()
    out = tmp_path / "chart"
    r = run(group, "analyze", MIXED, "--samples", "3", "--seed", "1", "--quiet", "--plot", str(out))
    assert r.exit_code == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list(tmp_path.iterdir()) == [out]


def test_plot_write_failure_is_an_error(group):
    needs_matplotlib()
    r = run(group, "analyze", MIXED, "--samples", "3", "--seed", "1", "--quiet", "--plot", "/dev/full")
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: cannot write plot '/dev/full'")
    assert "Traceback" not in r.stderr
    assert "best:" in r.stdout      # the results are printed before the plot is drawn


def test_whist_command(group):
    r = run(group, "whist", MIXED, "--seat", "2", "--declarer", "0", "--contract", "6H",
            "--samples", "6", "--seed", "2", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["contract"] == "6H" and set(d["options"]) == {"whist", "pass", "half-whist"}
    assert 0 <= d["p_quota"] <= 1 and d["recommendation"]["call"] in d["options"]
    assert set(d["recommendation"]) == {"call", "contract", "discard", "max_bid", "expected", "expected_se", "card"}
    assert d["recommendation"]["contract"] == "6H" and d["recommendation"]["discard"] is None
    r = run(group, "whist", MIXED, "--seat", "2", "--declarer", "0", "--contract", "6H",
            "--samples", "6", "--seed", "2", "--quiet")
    assert r.exit_code == 0 and "recommendation: " in r.stdout


def test_analyze_talon_command(group):
    r = run(group, "analyze-talon", "AKQJT987.A.A.AK", "--contract", "8S", "--samples", "4", "--seed", "2",
            "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["recommendation"]["contract"] in {"8S", "9S", "10S", "8NT", "9NT", "10NT"}
    assert d["options"][0]["p_make"] == 1.0
    # Discards are lists of cards in the JSON, as in solve and table.
    assert len(d["recommendation"]["discard"]) == 2 and all(len(o["discard"]) == 2 for o in d["options"])
    assert set(d["recommendation"]) == {"call", "contract", "discard", "max_bid", "expected", "expected_se", "card"}
    assert all(Card.parse(c) in Hand.parse("AKQJT987.A.A.AK") for c in d["recommendation"]["discard"])
    r = run(group, "analyze-talon", "AKQJT987.A.A.AK", "--samples", "4", "--seed", "2", "--quiet")
    assert r.exit_code == 0 and "recommendation: discard" in r.stdout


def test_whist_with_the_shown_talon(group):
    r = run(group, "whist", MIXED, "--seat", "1", "--declarer", "2", "--contract", "7S", "--talon", "SA,SK",
            "--samples", "4", "--seed", "2", "--json")
    assert r.exit_code == 2 and "own hand" in r.stderr  # ♠A is the defender's own card
    r = run(group, "whist", MIXED, "--seat", "1", "--declarer", "2", "--contract", "7S", "--talon", "SQ,SK",
            "--samples", "4", "--seed", "2", "--json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["declarer"] == 2


def test_holdings_command(group):
    r = run(group, "holdings", "--samples", "3", "--only", "8", "--only", "1", "--seed", "1", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert [h["holding"] for h in d["holdings"]] == ["A", "AKQJ xxxx"]
    assert d["holdings"][1]["trump"] == 8.0 and d["holdings"][1]["trump_sd"] == 0.0
    assert {"trump", "trump_se", "trump_sd", "nt", "nt_se", "nt_sd"} <= set(d["holdings"][0])
    r = run(group, "holdings", "--samples", "3", "--only", "2", "--seed", "1", "--quiet")
    assert r.exit_code == 0 and "AK" in r.stdout and "as trump" in r.stdout
    r = run(group, "holdings", "--only", "47")
    assert r.exit_code == 2


def test_analyze_with_allpass_uses_the_same_layouts(group):
    r = run(group, "analyze", MIXED, "--samples", "8", "--seed", "4", "--allpass", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["allpass"] == analyze_allpass(MIXED, sampling=Sampling(samples=8, seed=4)).to_dict()
    assert sum(d["allpass"]["tricks_histogram"]) == d["samples"] == 8
    r = run(group, "analyze", MIXED, "--samples", "4", "--seed", "4", "--allpass", "--quiet")
    assert r.exit_code == 0 and "All-pass for seat 0 (4 samples, talon lead" in r.stdout


def test_whist_talon_card_in_own_hand_names_the_option():
    r = CliRunner().invoke(main, ["whist", "A.KT9.KT97.K7", "--seat", "1", "--declarer", "0",
                                  "--contract", "7H", "--talon", "SA SQ"])
    assert r.exit_code == 2 and "--talon card SA is in the player's own hand" in r.stderr


def test_set_reaches_the_analyzer(group):
    r = run(group, "analyze", MIXED, "--samples", "4", "--seed", "1", "--json", "--set", "stalingrad=true")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["rules"] == "sochi with stalingrad=True"
    r = run(group, "whist", MIXED, "--seat", "2", "--declarer", "0", "--contract", "6S", "--samples", "4",
            "--seed", "1", "--json", "--set", "stalingrad=true")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["rules"] == "sochi with stalingrad=True"
    r = run(group, "analyze", MIXED, "--samples", "4", "--set", "stalingrad=perhaps")
    assert r.exit_code == 2 and "switch 'stalingrad' is true or false" in r.stderr


def test_the_lazy_bar_starts_once_when_threads_report_together(monkeypatch):
    import threading
    import time

    from prefsolve.cli import _common

    started = []

    class SlowBar:
        def __enter__(self):
            time.sleep(0.01)        # widens the window in which a second thread could start one too
            started.append(self)
            return self

        def update(self, n):
            pass

        def __exit__(self, *exc):
            pass

    monkeypatch.setattr(_common, "_start_bar", lambda total, label: SlowBar())
    bar = _common.ProgressBar(100, "measuring", False)
    threads = [threading.Thread(target=bar.update, args=(1,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(started) == 1


# -- the Russian notation ------------------------------------------------------------------

#: The first trial's hand in Russian letters (Т is туз, the ace) and in Latin letters.
RU_HAND, LATIN_HAND = "ТК7.A8.KQ.AKQ", "AK7.A8.KQ.AKQ"


def _json(group, *args):
    r = run(group, *args, "--seed", "3", "--json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_analyze_reads_a_russian_hand_known_cards_and_voids(group):
    ru = _json(group, "analyze", RU_HAND, "--samples", "6", "--known", "2:пВ, 9п", "--void", "1:ч",
               "--void", "1:пики")
    latin = _json(group, "analyze", LATIN_HAND, "--samples", "6", "--known", "2:SJ S9", "--void", "1:HS")
    assert ru == latin and ru["hand"] == LATIN_HAND
    assert ru["voids"] == {"1": "SH"} and ru["known"] == {"2": "SJ S9"}


def test_whist_reads_russian_contracts_partner_calls_and_talon(group):
    ru = _json(group, "whist", "Д.К109.В9.В987", "--seat", "1", "--declarer", "0", "--contract", "7 червей",
               "--partner", "вист", "--talon", "10п 9п", "--samples", "4")
    latin = _json(group, "whist", "Q.KT9.J9.J987", "--seat", "1", "--declarer", "0", "--contract", "7H",
                  "--partner", "whist", "--talon", "ST S9", "--samples", "4")
    assert ru == latin and ru["partner"] == "whist"
    r = run(group, "whist", "Д.К109.В9.В987", "--seat", "1", "--declarer", "0", "--contract", "7H",
            "--partner", "полвиста", "--samples", "2")
    assert r.exit_code == 2 and "the other defender's call must be one of pass, whist, got 'полвиста'" in r.stderr


def test_analyze_talon_reads_a_russian_hand_and_bid(group):
    ru = _json(group, "analyze-talon", "ТКДВ10987.Т.Т.ТК", "--contract", "восемь пик", "--samples", "4")
    assert ru == _json(group, "analyze-talon", "AKQJT987.A.A.AK", "--contract", "8S", "--samples", "4")
    assert ru["bid"] == "8S"


def test_advise_reads_russian_contracts_and_cards(group):
    ru = _json(group, "advise", "Д.К109.В9.В987", "--seat", "1", "--contract", "шесть бк", "--declarer", "2",
               "--played", "пТ", "--talon", "10п, 9п", "--samples", "3")
    latin = _json(group, "advise", "Q.KT9.J9.J987", "--seat", "1", "--contract", "6NT", "--declarer", "2",
                  "--played", "SA", "--talon", "ST S9", "--samples", "3")
    assert ru == latin
    ru = _json(group, "advise", RU_HAND, "--seat", "0", "--contract", "распасы", "--talon", "10п 9п",
               "--played", "", "--samples", "3")
    assert ru == _json(group, "advise", LATIN_HAND, "--seat", "0", "--contract", "allpass", "--talon", "ST S9",
                       "--samples", "3")


# -- the maximum sample count and the progress bar ---------------------------------------------

@pytest.mark.parametrize("args", [
    ["analyze", MIXED],
    ["whist", MIXED, "--seat", "1", "--declarer", "0", "--contract", "7H"],
    ["analyze-talon", "AKJ98.AQ.K8.A87"],
    ["advise", "JT97.A7.8.Q98", "--seat", "1", "--contract", "6NT", "--declarer", "2", "--played", "SA"],
    ["holdings"],
], ids=lambda a: a[0])
def test_an_absurd_sample_count_is_one_line_at_once(group, args):
    import os
    import resource
    import subprocess

    import prefsolve

    def limit_memory():     # without the maximum, the layouts fill the memory: stop at 4 GB
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    src = os.path.dirname(os.path.dirname(prefsolve.__file__))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "prefsolve", *args, "--samples", "100000000000"], env=env,
                       capture_output=True, text=True, timeout=60, preexec_fn=limit_memory)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "Error: 100000000000 samples is more than the maximum of 1000000 samples\n"
    assert " ".join(run(group, *args, "--help").stdout.split()).count("At most 1000000.") == 1


def test_the_maximum_sample_count_is_the_apis_too():
    from prefsolve.analysis.sampling import MAX_SAMPLES

    assert Sampling(samples=MAX_SAMPLES).samples == MAX_SAMPLES
    with pytest.raises(ValueError, match="1000001 samples is more than the maximum of 1000000 samples"):
        Sampling(samples=MAX_SAMPLES + 1)


@pytest.mark.parametrize("args, label", [
    # The layouts are drawn before the first is solved: several seconds without a finished item.
    (["analyze", MIXED, "--samples", "400000", "--jobs", "1"], "analyzing"),
    (["advise", "JT97.A7.8.Q98", "--seat", "1", "--contract", "6NT", "--declarer", "2", "--played", "SA",
      "--samples", "3000"], "advising"),
], ids=lambda a: a[0] if isinstance(a, list) else None)
def test_a_long_analysis_shows_its_bar_within_a_second_on_a_terminal(args, label):
    import os
    import time

    import pexpect

    import prefsolve

    src = os.path.dirname(os.path.dirname(prefsolve.__file__))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.monotonic()
    child = pexpect.spawn(sys.executable, ["-m", "prefsolve", *args], env=env, encoding="utf-8",
                          dimensions=(24, 100), timeout=30)
    try:
        child.expect(label + r"\s+\[")      # click's bar: "analyzing  [####------]   12%  00:00:41"
        shown = time.monotonic() - start
        assert child.isalive()             # the run goes on: the bar came long before its end
    finally:
        child.terminate(force=True)
    # The start of Python and the package, then one second (SHOW_AFTER), on a busy shared host.
    assert shown < 8, shown


# An all-pass four-card ending of a game the heuristic players played (seat 2 to play, 70 layouts).
ALLPASS_ENDING = ["KT.AJ8.9.AJ98", "--seat", "2", "--contract", "allpass", "--talon", "SA DK",
                  "--auction", "pass pass pass",
                  "--played", "S8 S7 SK D8 DT D9 S9 ST SQ CT C7 C8 C9 CQ CJ CK CA SJ"]


def test_advise_weighs_an_exact_ending_by_the_cards_played_unless_told_not_to():
    def advice(*extra):
        r = CliRunner().invoke(main, ["advise", *ALLPASS_ENDING, *extra, "--json"])
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)

    weighed, alike = advice(), advice("--inference", "0")
    assert (weighed["method"], weighed["exact_layouts"], weighed["inference"]) == ("exact", 70, 0.5)
    assert (alike["method"], alike["exact_layouts"], alike["inference"]) == ("exact", 70, 0.0)
    means = {card: s["tricks_mean"] for card, s in weighed["cards"].items()}
    plain = {card: s["tricks_mean"] for card, s in alike["cards"].items()}
    assert means.keys() == plain.keys() and means != plain
    r = CliRunner().invoke(main, ["advise", *ALLPASS_ENDING, "--lang", "ru"])
    assert "расклады взвешены по сыгранным картам (вывод из розыгрыша 0.5)" in r.output
    assert "перебраны все 70 подходящих раскладов" in r.output
    assert r.output.splitlines()[0] == "Ход места 2 на распасах, сыграно карт: 18"     # no samples drawn
    r = CliRunner().invoke(main, ["advise", *ALLPASS_ENDING])
    assert r.output.splitlines()[:2] == ["Seat 2 to play in all-pass, after 18 cards played",
                                         "exact: all 70 layouts that fit were searched by single-dummy play"]
