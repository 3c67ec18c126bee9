"""The command line through click's CliRunner: output, JSON and exit codes."""

import json
import os
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

import prefsolve
from prefsolve import Deal, Position, solve, table
from prefsolve.cards import Card, Hand
from prefsolve.cli import EXAMPLE_DEAL, main


def without_nodes(doc):
    """A result's JSON without its node counts, which depend on what the
    solver's table held from earlier solves in the same process."""
    if isinstance(doc, dict):
        return {k: without_nodes(v) for k, v in doc.items() if k != "nodes"}
    if isinstance(doc, list):
        return [without_nodes(v) for v in doc]
    return doc

def run(*args):
    return CliRunner().invoke(main, list(args))


def test_deal_prints_a_parseable_seeded_deal():
    r = run("deal", "--seed", "7")
    assert r.exit_code == 0
    assert Deal.parse(r.output.strip()) == Deal.random(7)
    r = run("deal", "--seed", "1", "--cards", "4", "--count", "3")
    lines = r.output.split("\n")[:3]
    assert [Deal.parse(x).tricks for x in lines] == [4, 4, 4]


def test_table_json_matches_api():
    r = run("table", EXAMPLE_DEAL, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert without_nodes(doc) == without_nodes(table(EXAMPLE_DEAL).to_dict()) and doc["nodes"] > 0


def test_table_text_has_diagram_and_rows():
    r = run("table")
    assert r.exit_code == 0
    assert "Seat 0 (first hand)" in r.output and "Talon ♠8 ♣Q" in r.output
    assert "Misère" in r.output
    t = table(EXAMPLE_DEAL)
    row0 = next(line for line in r.output.splitlines() if line.startswith("0 "))
    assert row0.split()[1] == str(t.tricks[0]["S"])


def test_table_without_talon_for_an_ending():
    r = run("table", "AK.-.-.- QJ.-.-.- T9.-.-.-", "--json")
    assert r.exit_code == 0
    assert json.loads(r.output)["talon_mode"] == "ignore"


def test_solve_json():
    r = run("solve", EXAMPLE_DEAL, "--declarer", "1", "--strain", "NT", "--json")
    assert r.exit_code == 0
    doc = json.loads(r.output)
    sol = solve(EXAMPLE_DEAL, 1, strain="NT")
    assert doc["tricks"] == sol.tricks and doc["discard"] == [str(c) for c in sol.discard]


def test_solve_no_talon_json_has_null_discard():
    r = run("solve", EXAMPLE_DEAL, "--declarer", "0", "--strain", "misere", "--talon-mode", "ignore", "--json")
    assert r.exit_code == 0
    doc = json.loads(r.output)
    assert doc["discard"] is None
    assert doc["tricks"] == solve(EXAMPLE_DEAL, 0, strain="misere", talon_mode="ignore").tricks


@pytest.mark.parametrize("args, message", [
    (["solve", EXAMPLE_DEAL, "--declarer", "0", "--strain", "Z"], "unknown strain 'Z'"),
    (["table", "A.-.-.- A.-.-.- K.-.-.-"], "duplicate card SA"),
    (["table", "AK.-.-.- Q.-.-.- T9.-.-.-"], "unequal size"),
    (["table", "SA SK SQ"], "cannot read deal"),
    (["solve", "A.-.-.- K.-.-.- Q.-.-.-", "--declarer", "0", "--strain", "S", "--talon-mode", "take"],
     "has no talon"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    r = run(*args)
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args, english_error, russian", [
    (["solve", EXAMPLE_DEAL, "--declarer", "0", "--strain", "Z"], "unknown strain 'Z'", "'Z'"),
    (["table", "A.-.-.- A.-.-.- K.-.-.-"], "duplicate card SA", "♠Т"),
    (["play", "AK.-.-.- QJ.-.-.- 87.-.-.-", "--declarer", "0", "--strain", "NT", "--played", "SQ"],
     "cannot play SQ", "♠Д"),
    (["auction", "6S pass", "--contract", "7S"], "needs an auction won by a player", "--contract"),
])
def test_a_library_error_is_one_line_in_russian_with_lang_ru(args, english_error, russian):
    english, speaks_russian = run(*args), run(*args, "--lang", "ru")
    assert english.exit_code == speaks_russian.exit_code == 2 and english_error in english.stderr
    line, = speaks_russian.stderr.strip().splitlines()
    assert russian in line and english_error not in line and "Traceback" not in speaks_russian.output
    assert any("а" <= ch <= "я" for ch in line.lower()), line


def test_seat_out_of_range_is_a_usage_error():
    r = run("solve", EXAMPLE_DEAL, "--declarer", "3", "--strain", "S")
    assert r.exit_code == 2 and "0<=x<=2" in r.output


def test_version():
    from prefsolve import __version__

    r = run("--version")
    assert r.exit_code == 0 and __version__ in r.output


def test_solve_text_line_counts_tricks():
    r = run("solve", "AK.-.-.- QJ.-.-.- T9.-.-.-", "--declarer", "0", "--strain", "misere")
    assert r.exit_code == 0
    assert r.output.strip().splitlines()[-1] == (
        "Declarer seat 0, Misère, seat 0 leads: 2 tricks forced on the declarer")
    r = run("solve", "A.-.-.- K.-.-.- Q.-.-.-", "--declarer", "0", "--strain", "NT")
    assert r.exit_code == 0
    assert r.output.strip().splitlines()[-1] == "Declarer seat 0, NT, seat 0 leads: 1 trick"
    r = run("solve", "A.-.-.- K.-.-.- Q.-.-.-", "--declarer", "1", "--strain", "S")
    assert r.output.strip().splitlines()[-1] == "Declarer seat 1, ♠ trumps, seat 0 leads: 0 tricks"


VOID_FIRST = "-.K98.-.7 QT8.-.-.J -.QJ.KQ.-"     # seat 0 void in spades: starts with '-'


@pytest.mark.parametrize("args", [
    ["solve", VOID_FIRST, "--declarer", "1", "--strain", "NT", "--json"],
    ["solve", "--declarer", "1", VOID_FIRST, "--strain", "NT", "--json"],
    ["solve", "--declarer", "1", "--strain", "NT", "--json", VOID_FIRST],
    ["solve", "--declarer", "1", "--strain", "NT", "--json", "--", VOID_FIRST],
])
def test_a_deal_that_starts_with_a_void_is_an_argument_anywhere(args):
    r = run(*args)
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["tricks"] == solve(VOID_FIRST, 1, strain="NT", talon_mode="ignore").tricks


def test_a_seeded_deal_with_a_void_first_can_be_pasted_back():
    seeds = [s for s in range(200) if str(Deal.random(s)).startswith("-.")]
    assert seeds                                   # about 3% of deals
    text = run("deal", "--seed", str(seeds[0])).output.strip()
    r = run("table", text, "--jsonl")
    assert r.exit_code == 0, r.output
    assert without_nodes(json.loads(r.output)) == without_nodes(table(text).to_dict())


def test_a_hand_that_starts_with_a_void_reaches_the_analyzer():
    r = run("analyze", "-.AKQ.J98.T987", "-j", "1", "--samples", "4", "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["hand"] == "-.AKQ.J98.T987"


def test_unknown_options_are_still_named():
    r = run("solve", VOID_FIRST, "--declarer", "1", "--strain", "NT", "--jsn")
    assert r.exit_code == 2 and "No such option" in r.output and "--jsn" in r.output


@pytest.mark.parametrize("options", [
    ["-qn", "4", "--seed", "1", "-j1"],
    ["-qj", "1", "-n4", "--seed=1"],
    ["--seed", "1", "-q", "-n", "4", "-j", "1"],
])
def test_short_option_clusters_next_to_a_void_first_hand(options):
    r = run("analyze", "-.AKQ.J98.T987", *options, "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["hand"] == "-.AKQ.J98.T987" and doc["samples"] == 4


def test_a_void_first_hand_right_after_an_attached_value():
    r = run("analyze", "-qn4", "-.AKQ.J98.T987", "-j1", "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["samples"] == 4


def test_an_option_value_that_starts_with_a_void_stays_the_value():
    """whist's --talon takes cards: '-.-.J8.-' is its value, not a positional deal."""
    base = ["whist", "A.KT9.KT97.K7", "--seat", "1", "--declarer", "0", "--contract", "7H"]
    tail = ["-qn", "4", "--seed", "1", "-j", "1", "--json"]
    r = run(*base, "--talon", "-.-.J8.-", *tail)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == json.loads(run(*base, "--talon=-.-.J8.-", *tail).stdout)


def test_an_option_without_its_value_next_to_a_void_first_deal_is_named():
    r = run("solve", VOID_FIRST, "--strain", "NT", "--declarer")
    assert r.exit_code == 2 and "Option '--declarer' requires an argument" in r.output
    assert "(see 'prefsolve solve --help')" in r.output or "(see 'main solve --help')" in r.output


def test_void_first_as_argument_keeps_option_values_in_place():
    from prefsolve.cli import solve_cmd, void_first_as_argument

    args = ["--strain", "NT", VOID_FIRST, "--declarer=1", "--json"]
    assert void_first_as_argument(solve_cmd, args) == ["--strain", "NT", "--declarer=1", "--json",
                                                       "--", VOID_FIRST]
    assert void_first_as_argument(solve_cmd, ["x", "--json"]) == ["x", "--json"]   # no void: as is
    two = ["-.A", "--json", "B", "-", "-.C"]                    # positionals keep their order
    assert void_first_as_argument(solve_cmd, two) == ["--json", "--", "-.A", "B", "-", "-.C"]
    assert void_first_as_argument(solve_cmd, ["--strain", "-.x"]) == ["--strain", "-.x"]  # a value


@pytest.mark.parametrize("command", [["table"], ["solve", "--declarer", "0", "--strain", "S"]])
@pytest.mark.parametrize("option", [["--jobs", "2"], ["--quiet"]])
def test_file_only_options_without_a_file_are_an_error(command, option):
    r = run(*command, EXAMPLE_DEAL, *option)
    assert r.exit_code == 2 and "go with --file" in r.output


@pytest.mark.parametrize("args", [
    ["table", "--leader", "5"], ["solve", "--strain", "S"], ["solve", "--declarer", "0", "--strain", "X"],
    ["table", "--jobs", "2"], ["table", "--json", "--jsonl", "--file", "-"], ["nosuch"],
    ["analyze", "A.KT9.KT97.K7", "--samples", "0"], ["auction"], ["score"], ["deal", "--cards", "11"],
])
def test_every_usage_error_is_one_line_on_stderr(args):
    r = run(*args)
    assert r.exit_code == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("Error: ")
    assert "Usage:" not in r.stderr and "Traceback" not in r.stderr


def test_a_bare_prefsolve_prints_its_help():
    r = run()
    assert "Commands:" in r.output and "Error" not in r.output
    assert r.exit_code in (0, 2)       # click before 8.2 exits 0 here, later versions 2


@pytest.mark.parametrize("args, hinted", [
    (["table", "A.KT9.KT97.K7", "JT97.A7.8.Q98", "KQ.J8.AQJ.AJT"], True),
    (["analyze", "A.KT9.KT97.K7", "x"], True),
    (["deal", "5"], False), (["bench", "extra"], False),
])
def test_the_quoting_hint_only_where_cards_are_an_argument(args, hinted):
    r = run(*args)
    assert r.exit_code == 2 and "Got unexpected extra argument" in r.stderr
    assert ("so quote it" in r.stderr) == hinted


def test_a_bad_table_size_is_one_line(monkeypatch):
    import threading

    from prefsolve import engine as solver

    monkeypatch.setattr(solver, "_local", threading.local())   # no solver made yet in this thread
    monkeypatch.setenv("PREFSOLVE_TT_MB", "99999999999999999999")
    r = run("table", "--talon-mode", "ignore", "A.-.-.- K.-.-.- Q.-.-.-")
    assert r.exit_code == 2 and r.stderr.startswith("Error: PREFSOLVE_TT_MB must be")
    assert len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize("args", [["table", ""], ["solve", "", "--declarer", "0", "--strain", "S"],
                                  ["table", "  "]])
def test_an_empty_deal_is_an_error_not_the_example(args):
    r = run(*args)
    assert r.exit_code == 2 and "a deal has 3 hands" in r.stderr and r.stdout == ""


def test_an_empty_deal_with_a_file_is_an_error(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text(EXAMPLE_DEAL + "\n")
    r = run("table", "", "--file", str(path))
    assert r.exit_code == 2 and "give either DEAL or --file, not both" in r.stderr


def _help_examples():
    import shlex

    for name, command in sorted(main.commands.items()):
        for line in (command.help or "").splitlines():
            line = line.strip()
            if line.startswith("Example:"):
                line = line.removeprefix("Example:").strip()
            if line.startswith(f"prefsolve {name} "):
                yield pytest.param(shlex.split(line)[1:], id=line)


def test_every_command_has_an_example_in_its_help():
    named = {p.id.split()[1] for p in _help_examples()}
    assert named == set(main.commands)


@pytest.mark.parametrize("args", list(_help_examples()))
def test_every_example_in_a_commands_help_runs(args):
    if "--samples" in args:   # the same command on fewer samples: the example's syntax is what counts
        args = args + ["--samples", "3"]
    if args[0] == "bench":    # the bench's syntax on a quick workload
        args = ["bench", "--quick", "--only", "contract"]
    if args[0] == "serve":    # a server runs until stopped: its options are checked, not run
        args = [*args, "--help"]
    r = run(*args)
    assert r.exit_code == 0, r.output


def test_an_argument_that_is_not_utf8_is_named():
    # Undecodable bytes of argv reach Python as lone surrogates (PEP 383).
    r = run("table", "-.7.9.-\udcff")
    assert r.exit_code == 2 and r.stderr.startswith("Error: argument '-.7.9.-\ufffd' is not UTF-8 text")


def test_a_bad_table_size_is_named_before_a_file_is_read(tmp_path, monkeypatch):
    path = tmp_path / "d.txt"
    path.write_text(EXAMPLE_DEAL + "\nnot a deal\n")
    monkeypatch.setenv("PREFSOLVE_TT_MB", "abc")
    r = run("table", "--file", str(path), "--json", "--quiet")
    # Nothing half-written on stdout, and the table size is named before the bad line.
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.startswith("Error: PREFSOLVE_TT_MB must be")


def prefsolve_process(args, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "prefsolve", *args], stderr=subprocess.PIPE,
                            text=True, **kwargs)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["deal", "--seed", "1"], ["table", "--json"],
                                  ["table", "--file", "-", "--jsonl", "--quiet"]])
def test_a_failed_write_is_one_line_and_exit_1(args):
    with open("/dev/full", "w") as full:
        p = prefsolve_process(args, stdin=subprocess.PIPE, stdout=full)
        err = p.communicate(EXAMPLE_DEAL + "\n")[1]
    assert p.returncode == 1 and err == "Error: cannot write the output: No space left on device\n"


@pytest.mark.skipif(os.name != "posix", reason="closes a descriptor before exec (POSIX)")
def test_a_closed_stdout_is_an_error():
    p = prefsolve_process(["table"], stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    err = p.communicate()[1]
    assert p.returncode == 1 and err == "Error: the standard output is closed, so no result could be written\n"


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT (POSIX)")
def test_ctrl_c_stops_a_batch_with_exit_130(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text("\n".join(str(Deal.random(seed)) for seed in range(3000)) + "\n")
    p = prefsolve_process(["table", "--file", str(path), "--jsonl", "--jobs", "2"], stdout=subprocess.PIPE,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = p.stdout.readline()      # solving has started
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert json.loads(first)["deal"] and p.returncode == 130
    assert err.endswith("Aborted!\n") and "Traceback" not in err
    assert all(json.loads(line) for line in out.splitlines())    # whole lines only


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT (POSIX)")
def test_ctrl_c_at_the_play_prompt_exits_130():
    p = prefsolve_process(["play", "K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T", "--declarer", "2",
                           "--strain", "S", "-i"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    p.stdin.write("hq\n")
    p.stdin.flush()
    seen = ""
    while not seen.endswith("seat 1> "):     # the card is played and the prompt is up
        ch = p.stdout.read(1)
        assert ch, seen
        seen += ch
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err == "Aborted!\n"


def test_a_file_that_cannot_be_read_is_named_with_exit_2(tmp_path):
    path = tmp_path / "out.txt"
    with open(path, "w") as write_only:     # stdin open for writing only: reading it fails
        p = prefsolve_process(["table", "--file", "-"], stdin=write_only, stdout=subprocess.PIPE)
        err = p.communicate()[1]
    assert p.returncode == 2 and err.startswith("Error: Invalid value for '--file': cannot read <stdin>: ")
    assert len(err.splitlines()) == 1


def test_lone_cr_line_ends_are_lines(tmp_path):
    path = tmp_path / "mac.txt"
    path.write_bytes(b"# header\r" + EXAMPLE_DEAL.encode() + b"\rnot a deal\r")
    r = run("table", "--file", str(path), "--jsonl")
    assert r.exit_code == 2 and r.stderr.startswith("Error: line 3: ")
    path.write_bytes(b"# header\r" + EXAMPLE_DEAL.encode() + b"\r")
    r = run("table", "--file", str(path), "--jsonl")
    assert r.exit_code == 0 and json.loads(r.stdout)["deal"] == EXAMPLE_DEAL


def test_the_command_line_starts_without_numpy():
    # numpy's import was about half of the CLI's start-up; only sampling and batches need it.
    code = "import sys, prefsolve.cli, prefsolve; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "False\n"


def test_short_options_and_rules_choices_match_across_commands(tmp_path):
    path = tmp_path / "d.txt"
    path.write_text(EXAMPLE_DEAL + "\n")
    assert run("table", "--file", str(path), "-q", "-j", "1", "--jsonl").exit_code == 0
    # --rules lists the profiles in the analyzer's commands as in auction and score.
    for args in (["analyze", "A.KT9.KT97.K7"], ["auction", "pass pass pass"]):
        r = run(*args, "--rules", "moscow")
        assert r.exit_code == 2 and "'moscow' is not one of 'classic', 'sochi'" in r.stderr


def test_ctrl_c_while_the_command_line_loads_is_one_line_and_exit_130():
    # A stand-in for prefsolve.cli whose loading is interrupted, as by a Ctrl-C at start-up.
    code = ("import sys, types\n"
            "class Loading(types.ModuleType):\n"
            "    def __getattr__(self, name):\n"
            "        raise KeyboardInterrupt\n"
            "sys.modules['prefsolve.cli'] = Loading('prefsolve.cli')\n"
            "from prefsolve._entry import main\n"
            "main()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 130 and r.stderr == "\nAborted!\n"


def test_import_prefsolve_loads_names_on_use():
    code = ("import sys, prefsolve\n"
            "before = sorted(m for m in sys.modules if m.startswith('prefsolve'))\n"
            "deal = prefsolve.Deal.random(1)\n"
            "solved = prefsolve.solve(deal, 0, strain='S').tricks in range(11)\n"
            "print(before, solved, 'prefsolve.solver' in sys.modules)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout == "['prefsolve', 'prefsolve._version'] True True\n"
    import prefsolve
    assert set(prefsolve.__all__) <= set(dir(prefsolve))
    assert all(getattr(prefsolve, name) is not None for name in prefsolve.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        _ = prefsolve.nosuch
    # Submodules are attributes right after "import prefsolve", as when it loaded them all.
    code = ("import prefsolve\n"
            "print(prefsolve.errors.PrefsolveError.__name__, prefsolve.batch.iter_tables.__name__,"
            " prefsolve.scoring.score_deal.__name__)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout == "PrefsolveError iter_tables score_deal\n"


# -- audit 34: messages in the command line's own words -------------------------------------
NO_TALON = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT"


@pytest.mark.parametrize("args, text", [
    (["table", NO_TALON, "--talon-mode", "take"],
     "has no talon to take; talon_mode='ignore' (--talon-mode ignore) plays the hands as given"),
    (["solve", EXAMPLE_DEAL, "--declarer", "0", "--strain", "allpass"],
     "which has no declarer: solve it with solve_allpass (prefsolve allpass, or play --strain allpass)"),
    (["table", "--", "-.K98.-.7 QT8.-.-.J -.QJ.KQ.-", "--json"],
     "after '--' every word is an argument, so put the options before it"),
    (["table", "A.KT9.KT97.K7", "JT97.A7.8.Q98"], "a deal or hand holds spaces, so quote it"),
    (["table", "--", "-.K98.-.7", "-.QJ.KQ.-"], "a deal or hand holds spaces, so quote it"),
])
def test_errors_speak_of_the_command_line(args, text):
    r = run(*args)
    assert r.exit_code == 2 and text in r.stderr, r.stderr
    assert "talon=False" not in r.stderr and len(r.stderr.splitlines()) == 1


def test_an_empty_deal_file_is_noted(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("# nothing yet\n\n")
    for mode in ([], ["--json"], ["--jsonl"]):
        r = run("table", "--file", str(path), *mode)
        assert r.exit_code == 0 and "holds no deal" in r.stderr
        assert r.stdout == ('{"tables": []}\n' if mode == ["--json"] else "")


def test_discards_print_high_card_first_as_hands_do():
    sol = solve(EXAMPLE_DEAL, 1, strain="misere")
    cards = list(sol.discard)
    assert cards == sorted(cards, key=lambda c: (c.suit, -c.rank))
    t = table(EXAMPLE_DEAL)
    for row in t.discards:
        for d in row.values():
            assert list(d) == sorted(d, key=lambda c: (c.suit, -c.rank))
    same_suit = [d for row in t.discards for d in row.values() if d[0].suit == d[1].suit]
    assert same_suit and all(d[0].rank > d[1].rank for d in same_suit)


@pytest.mark.parametrize("strain", ["S", "NT", "misere"])
def test_solve_line_plays_the_solved_value_after_the_discard(strain):
    r = run("solve", EXAMPLE_DEAL, "--declarer", "2", "--strain", strain, "--line", "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["line"]["tricks"] == d["tricks"] == d["line"]["tricks_won"][2]
    assert len(d["line"]["played_tricks"]) == 10 and len(d["line"]["cards"]) == 30
    r = run("solve", EXAMPLE_DEAL, "--declarer", "2", "--strain", strain, "--line")
    text = r.stdout.splitlines()
    assert text[-12].startswith(f"An optimal line (total {d['tricks']} for seat 2)")
    position = text[-1].split(": ", 1)[1]
    assert d["position"] == position
    # The position text is the deal with its talon and the discard: play goes on from it.
    assert position.startswith(EXAMPLE_DEAL + ";") and f"discard={' '.join(d['discard'])};" in position
    deal = Deal.parse(EXAMPLE_DEAL)
    kept = (deal.hands[2].mask | deal.talon.mask) & ~sum(1 << Card.parse(c).index for c in d["discard"])
    assert Position.parse(position).hands[2] == Hand(kept)


def test_solve_line_without_a_talon_and_not_with_a_file(tmp_path):
    r = run("solve", "A.-.-.- K.-.-.- Q.-.-.-", "--declarer", "0", "--strain", "NT", "--line")
    assert r.exit_code == 0 and "Trick 1: 0 ♠A  1 ♠K  2 ♠Q   won by 0" in r.stdout
    path = tmp_path / "d.txt"
    path.write_text(EXAMPLE_DEAL + "\n")
    r = run("solve", "--file", str(path), "--declarer", "0", "--strain", "S", "--line")
    assert r.exit_code == 2 and "--line goes with one deal" in r.stderr


# -- a console that cannot show ♠♣♦♥ ------------------------------------------------------------
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Every command, with text output and (where it has one) with --json.
EVERY_COMMAND = [
    ["deal", "--seed", "1"],
    ["solve", EXAMPLE_DEAL, "--declarer", "2", "--strain", "misere", "--line"],
    ["table", EXAMPLE_DEAL],
    ["play", EXAMPLE_DEAL, "--declarer", "2", "--strain", "S", "--played", "SA"],
    ["play", EXAMPLE_DEAL, "--seat", "1", "--strain", "allpass"],
    ["allpass", EXAMPLE_DEAL],
    ["auction", "6S pass pass", "--whist", "whist pass"],
    ["score", os.path.join(ROOT, "examples", "sochi.json")],
    ["analyze", "A.KT9.KT97.K7", "-n", "8", "--seed", "1", "--quiet"],
    ["analyze-talon", "AKJ98.AQ.K8.A87", "--contract", "6S", "-n", "4", "--seed", "1", "--quiet"],
    ["whist", "A.KT9.KT97.K7", "--seat", "1", "--declarer", "0", "--contract", "7H", "-n", "8", "--seed", "1",
     "--quiet"],
    ["holdings", "-n", "2", "--only", "1", "--seed", "1", "--quiet"],
]


def console_run(args, encoding="cp1251"):
    src = os.path.dirname(os.path.dirname(prefsolve.__file__))    # the tested package, in the child too
    env = dict(os.environ, PYTHONIOENCODING=encoding, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "prefsolve", *args], capture_output=True, env=env, timeout=120)


@pytest.mark.parametrize("encoding", ["cp1251", "ascii"])
@pytest.mark.parametrize("args", EVERY_COMMAND, ids=lambda a: a[0])
def test_every_command_prints_on_a_console_without_suit_symbols(args, encoding):
    r = console_run(args, encoding)
    assert r.returncode == 0, r.stderr.decode(encoding, "replace")
    text = r.stdout.decode(encoding)       # every byte is of the console's encoding: ASCII on an ASCII one
    assert "Traceback" not in r.stderr.decode(encoding) and "?" not in text.replace("(?)", "")
    utf8 = CliRunner().invoke(main, args)
    assert utf8.exit_code == 0
    # The same text, with the small letters s c d h in place of the suit symbols.
    for symbol, letter in zip("♠♣♦♥", "scdh"):
        assert text.count(letter) == utf8.stdout.count(symbol) + utf8.stdout.count(letter)
    if not any(a in args for a in ("--line",)):   # --json has no line text
        json_run = console_run([*args, "--json"], encoding)
        assert json_run.returncode == 0
        # JSON is exact on any console: what the encoding lacks is escaped, not replaced.
        assert without_nodes(json.loads(json_run.stdout.decode(encoding))) == without_nodes(json.loads(
            CliRunner().invoke(main, [*args, "--json"]).stdout))


def test_an_ascii_console_gets_ascii_bytes_a_player_reads():
    r = console_run(["table"], "ascii")
    assert r.returncode == 0 and max(r.stdout) < 128
    lines = r.stdout.decode("ascii").splitlines()
    # The suit apart from the ranks: seat 1's spades JT97, the talon ♠8 ♣Q; the columns keep their width.
    assert lines[1].split() == ["s", "JT97", "s", "KQ"] and "Talon s8 cQ" in r.stdout.decode("ascii")
    assert [len(x) for x in lines] == [len(x) for x in CliRunner().invoke(main, ["table"]).stdout.splitlines()]
    help_text = console_run(["--help"], "ascii")
    assert help_text.returncode == 0 and max(help_text.stdout) < 128 and b"s.c.d.h" in help_text.stdout


def test_the_board_and_errors_print_on_a_cp1251_stream():
    r = CliRunner(charset="cp1251").invoke(
        main, ["play", EXAMPLE_DEAL, "--declarer", "2", "--strain", "misere", "-i"], input="SA\nHZ\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Declarer seat 2, Misere, seat 0 leads" in r.stdout
    assert "takes the talon s8 cQ and discards dA hA" in r.stdout
    assert "On the table: seat 0 sA; seat 1 to play" in r.stdout
    assert "Error: cannot read card 'HZ'" in r.stderr
    r = CliRunner(charset="cp1251").invoke(main, ["play", EXAMPLE_DEAL, "--declarer", "2", "--strain", "H",
                                                  "--played", "SA SJ CJ"])
    assert r.exit_code == 2 and "it is not in seat 2's hand (sKQ8 cQ dAQJ hAJT)" in r.stderr


def test_command_modules_import_only_the_shared_module():
    """cli/solve.py, play.py, rules.py and analyze.py import _common, never each other."""
    import ast
    import pathlib

    import prefsolve.cli as cli

    folder = pathlib.Path(cli.__file__).parent
    commands = {"solve", "play", "rules", "analyze"}
    for name in commands:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                imported = {node.module} if node.module else {a.name for a in node.names}
                assert not imported & commands, f"{name}.py imports {imported & commands}"


def test_the_examples_of_docs_cli_run():
    """Every example command in docs/CLI.md runs and exits 0 (bench is left out: it runs for a minute)."""
    import shlex

    text = open(os.path.join(ROOT, "docs", "CLI.md"), encoding="utf-8").read()
    examples = [line.strip() for line in text.splitlines() if line.startswith("    prefsolve ")]
    assert len(examples) >= 25
    for example in examples:
        if example.startswith("prefsolve bench"):
            continue
        stages = [shlex.split(stage) for stage in example.split(" | ")]
        given = None
        for args in stages:
            assert args[0] == "prefsolve", example
            args = [os.path.join(ROOT, a) if a.startswith("examples/") else a for a in args[1:]]
            r = CliRunner().invoke(main, args, input="quit\n" if "-i" in args else given)
            assert r.exit_code == 0, (example, r.output)
            given = r.stdout


def test_the_commands_of_the_readme_run(tmp_path, monkeypatch):
    """Every command line of README.md's first examples runs as written and exits 0."""
    import re
    import shlex

    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    block = re.search(r"## A few things to try\n.*?```sh\n(.*?)```", text, re.S)
    assert block is not None
    lines = [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert len(lines) >= 6
    monkeypatch.chdir(tmp_path)
    for line in lines:
        for stage in line.split(" && "):
            args = shlex.split(stage)
            out = None
            if ">" in args:
                out = tmp_path / args[args.index(">") + 1]
                args = args[:args.index(">")]
            assert args[0] == "prefsolve", line
            args = args[1:]
            if args[0] in ("analyze", "whist", "advise"):   # fewer samples (the last --samples counts)
                args += ["--samples", "20", "-q"]
            r = CliRunner().invoke(main, args, input="quit\n" if "-i" in args else None)
            assert r.exit_code == 0, (stage, r.output)
            if out is not None:
                out.write_text(r.stdout)


# -- the Russian notation: the first trial of a Russian-speaking player ----------------------

#: One deal in Russian letters (Т is туз, the ace) and in Latin letters.
RU_DEAL = "ТК7.A8.KQ.AKQ Д.К109.В9.В987 В8.ДВ7.Т1087.10 109.-.-.-"
LATIN_DEAL = "AK7.A8.KQ.AKQ Q.KT9.J9.J987 J8.QJ7.AT87.T T9.-.-.-"


def json_of(*args):
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return without_nodes(json.loads(r.stdout))


def test_the_russian_deal_is_the_latin_deal():
    assert Deal.parse(RU_DEAL) == Deal.parse(LATIN_DEAL)
    assert Deal.parse(RU_DEAL).hands[0].symbols() == "♠AK7 ♣A8 ♦KQ ♥AKQ"


@pytest.mark.parametrize("russian, latin", [
    ("п", "S"), ("пики", "S"), ("т", "C"), ("тр", "C"), ("трефы", "C"), ("бубны", "D"), ("черви", "H"),
    ("червей", "H"), ("бк", "NT"), ("бескозырка", "NT"), ("мизер", "misere"),
])
def test_solve_reads_russian_deals_and_strains(russian, latin):
    assert json_of("solve", RU_DEAL, "--declarer", "0", "--strain", russian) == \
        json_of("solve", LATIN_DEAL, "--declarer", "0", "--strain", latin)


def test_table_and_allpass_read_a_russian_deal():
    assert json_of("table", RU_DEAL) == json_of("table", LATIN_DEAL)
    assert json_of("allpass", RU_DEAL, "--turn", "9п 10п") == json_of("allpass", LATIN_DEAL, "--turn", "S9 ST")


def test_play_reads_russian_cards_strains_and_position_texts():
    assert json_of("play", RU_DEAL, "--declarer", "2", "--strain", "бк", "--played", "пТ пД") == \
        json_of("play", LATIN_DEAL, "--declarer", "2", "--strain", "NT", "--played", "SA SQ")
    assert json_of("play", RU_DEAL, "--seat", "1", "--strain", "распасы", "--played", "пТ") == \
        json_of("play", LATIN_DEAL, "--seat", "1", "--strain", "allpass", "--played", "SA")
    ru = json_of("play", f"{RU_DEAL}; declarer=0; strain=пики; discard=8т Дб; played=Тп Дп 8п")
    assert ru == json_of("play", f"{LATIN_DEAL}; declarer=0; strain=S; discard=C8 DQ; played=SA SQ S8")
    assert ru["played"] == ["SA", "SQ", "S8"]       # the output keeps the canonical Latin letters


def test_auction_reads_russian_contracts_and_calls():
    r = run("auction", "шесть пик семь червей пас пас", "--contract", "8 бубен", "--whist", "вист пас")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        "legal: seat 1 (second hand) wins; lowest contract to declare: 7H",
        "declaration 8D: legal",
        "whist calls on 8D (вист, пас): legal; one whister (seat 2), played open"]
    assert json_of("auction", "шесть пик пас пас", "--whist", "пас полвиста пас") == \
        json_of("auction", "6S pass pass", "--whist", "pass half pass")
    assert json_of("auction", "6 п 10 бк пас пас", "--contract", "10 бк") == \
        json_of("auction", "6S 10NT pass pass", "--contract", "10NT")


@pytest.mark.parametrize("args, message", [
    (["solve", "ТКХ.A8.KQ.AKQ Д.К109.В9.В987 В8.ДВ7.Т1087.10 109.-.-.-", "--declarer", "0", "--strain", "S"],
     "'Х' can be read two ways: the ten"),
    (["solve", "ТКТ.A8.KQ.AKQ Д.К109.В9.В987 В8.ДВ7.Т1087.10 109.-.-.-", "--declarer", "0", "--strain", "S"],
     "duplicate card SA in hand 'ТКТ.A8.KQ.AKQ' (Cyrillic Т is туз, the ace; the ten is 10 or T)"),
    (["solve", RU_DEAL, "--declarer", "0", "--strain", "распасы"], "is all-pass, which has no declarer"),
    (["auction", "шесть пик", "--contract", "распасы"], "'распасы' is all-pass, which is not a contract"),
])
def test_russian_input_that_cannot_be_read_is_one_line_and_exit_2(args, message):
    r = run(*args)
    assert r.exit_code == 2 and r.stdout == ""
    line, = r.stderr.strip().splitlines()
    assert message in line


def test_score_reads_a_russian_game_file(tmp_path):
    game = {"players": ["A", "B", "C"], "deals": [
        {"declarer": "A", "contract": "семь червей", "whist": {"B": "вист", "C": "пас"}, "open": "закрыто",
         "tricks": {"A": 6, "B": 2, "C": 2}}]}
    latin = dict(game, deals=[dict(game["deals"][0], contract="7H", whist={"B": "whist", "C": "pass"}, open=False)])
    (tmp_path / "ru.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "en.json").write_text(json.dumps(latin), encoding="utf-8")
    assert json_of("score", str(tmp_path / "ru.json")) == json_of("score", str(tmp_path / "en.json"))


def test_the_command_line_raises_no_deprecation_warning():
    # click 8.5 deprecates get_text_stream (gone in click 9): a command that used it warned on every run.
    src = os.path.dirname(os.path.dirname(prefsolve.__file__))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for args in (["table"], ["deal", "--seed", "1", "--json"], ["solve", "--declarer", "0", "--strain", "S", "--json"]):
        r = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-m", "prefsolve", *args],
                           capture_output=True, text=True, env=env, timeout=60)
        assert r.returncode == 0 and r.stderr == "", (args, r.stderr)


def test_the_suite_turns_the_packages_own_warnings_into_errors():
    import tomllib

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        filters = tomllib.load(f)["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert "error:::prefsolve" in filters
    import warnings

    with pytest.raises(DeprecationWarning):     # the filter is in force in this very run
        warnings.warn_explicit("old", DeprecationWarning, "x.py", 1, module="prefsolve.cli")


# -- a narrow terminal ----------------------------------------------------------------------------
NARROW = [
    ["table"],
    ["solve", "--declarer", "2", "--strain", "NT", "--line"],
    ["play", EXAMPLE_DEAL, "--declarer", "2", "--strain", "S", "--played", "SA"],
    ["analyze", "A.KT9.KT97.K7", "-n", "20", "--seed", "1", "-q"],
    ["whist", "A.KT9.KT97.K7", "--seat", "1", "--declarer", "0", "--contract", "7H", "-n", "20", "--seed", "1", "-q"],
    ["analyze-talon", "AKJ98.AQ.K8.A87", "--contract", "6S", "-n", "6", "--seed", "1", "-q"],
    ["holdings", "-n", "2", "--only", "1", "--only", "30", "--seed", "1", "-q"],
]


def on_terminal(args, columns):
    """What a command prints on a terminal of ``columns`` columns (a pseudo-terminal)."""
    import pexpect

    src = os.path.dirname(os.path.dirname(prefsolve.__file__))
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("COLUMNS", None)
    child = pexpect.spawn(sys.executable, ["-m", "prefsolve", *args], env=env, encoding="utf-8",
                          dimensions=(50, columns), timeout=120)
    try:
        out = child.read()
    finally:
        child.close()
    assert child.exitstatus == 0, out
    return out.replace("\r\n", "\n")


@pytest.mark.parametrize("args", NARROW, ids=lambda a: a[0])
def test_the_output_fits_a_terminal_of_60_columns(args):
    out = on_terminal(args, 60)
    # The position text is printed whole, to be copied (a terminal folds it without new lines).
    lines = [line for line in out.splitlines() if not line.startswith("Position (DEAL")]
    assert max(len(line) for line in lines) <= 60, "\n".join(line for line in lines if len(line) > 60)
    whole = CliRunner().invoke(main, args).stdout   # not a terminal: every line whole
    if args[0] == "table":
        # Two blocks, the four suits and then NT and misère, with the same cells.
        assert [line.split() for line in lines if line.startswith("Declarer")] == [
            ["Declarer", "♠", "♣", "♦", "♥"], ["Declarer", "NT", "Misère"]]
        assert sorted(out.split()) == sorted(whole.split() + ["Declarer", "0", "1", "2"])
    else:
        assert out.split() == whole.split()     # the same words, wrapped
    assert max(len(line) for line in whole.splitlines()) > 60


def test_a_wide_terminal_keeps_the_table_in_one_block():
    out = on_terminal(["table"], 120)
    assert out.count("Declarer") == 1 and "NT           Misère" in out
