"""Every command's JSON matches its schema in docs/schemas/ (JSON Schema, draft 2020-12).

Each command with ``--json`` (and ``--jsonl`` where it has one) is run on real
inputs, through the main group as a user runs it, and every object it prints is
validated. A command with a ``--json`` option and no schema fails the test.
"""

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from prefsolve.cli import EXAMPLE_DEAL, main

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
ENDING = "K7.-.-.- AQ.-.-.- J.A.-.-"
HANDS = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT"
PLAYED = "K98.AKQ.J.KQJ J.T97.QT9.A87 AQT7.J8.AK8.T"

# Real inputs for each command: every shape its JSON takes (with and without
# a talon, a line, a file of deals, an illegal call, ...).
CASES = {
    "deal": [["--seed", "1"], ["--seed", "7", "--count", "3", "--cards", "4"], ["--count", "2"]],
    "solve": [
        [EXAMPLE_DEAL, "--declarer", "2", "--strain", "S"],
        [EXAMPLE_DEAL, "--declarer", "0", "--strain", "misere", "--line"],
        [HANDS, "--declarer", "1", "--strain", "NT", "--leader", "2"],
        ["--file", "{deals}", "--declarer", "1", "--strain", "H"],
    ],
    "table": [[EXAMPLE_DEAL], [ENDING, "--leader", "1"], ["--file", "{deals}"]],
    "play": [
        [PLAYED, "--declarer", "2", "--strain", "S", "--played", "HQ H7 HT S8 SJ", "--line"],
        [EXAMPLE_DEAL, "--declarer", "1", "--strain", "C", "--played", "SA SJ"],
        [EXAMPLE_DEAL, "--declarer", "1", "--strain", "misere", "--talon-mode", "ignore"],
        [EXAMPLE_DEAL, "--seat", "1", "--strain", "allpass", "--played", "SA S7 SK C9"],
        [ENDING, "--declarer", "1", "--strain", "NT", "--played", "SK SQ SJ S7 SA CA", "--line"],
    ],
    "allpass": [[EXAMPLE_DEAL], [EXAMPLE_DEAL, "--turn", "CQ S8"], [HANDS, "--talon-mode", "ignore"],
                [EXAMPLE_DEAL, "--seat", "1"], [HANDS, "--seat", "2", "--talon-mode", "ignore"]],
    "auction": [
        ["раз два пас три пас", "--contract", "7D", "--whist", "вист пас"],
        ["6S pass pass", "--whist", "whist whist", "--set", "stalingrad=true"],
        ["pass pass pass"],
        ["6S 7S"],
        ["misere 9NT", "--rules", "classic"],
        ["6S pass pass", "--contract", "6C"],
    ],
    "score": [[str(ROOT / "examples" / "sochi.json")], [str(ROOT / "examples" / "sochi.json"), "--rules", "leningrad"]],
    "analyze": [
        ["A.KT9.KT97.K7", "-n", "6", "--seed", "1"],
        ["A.KT9.KT97.K7", "-n", "6", "--seed", "1", "--allpass", "--known", "1:SK", "--void", "2:S"],
    ],
    "analyze-talon": [["AKJ98.AQ.K8.A87", "--contract", "6S", "-n", "4", "--seed", "1"]],
    "whist": [["A.KT9.KT97.K7", "--seat", "1", "--declarer", "0", "--contract", "7H", "-n", "6", "--seed", "1"]],
    "holdings": [["-n", "2", "--only", "1", "--only", "5", "--seed", "1"]],
    "match": [["cheater", "random", "-n", "2", "--seed", "1", "-q"],
              ["random", "random", "-n", "1", "--set", "stalingrad=true", "-q"]],
    "review": [[str(ROOT / "examples" / "review-session.json"), "-n", "2", "--seed", "1", "--jobs", "1"]],
    "advise": [["JT97.A7.8.Q98", "--seat", "1", "--contract", "6NT", "--declarer", "2", "--played", "SA",
                "--talon", "S8 CQ", "-n", "3", "--seed", "1"],
               ["JT97.A7.8.Q98", "--seat", "1", "--contract", "allpass", "--played", "SA", "--talon", "S8 CQ",
                "-n", "3", "--seed", "1"],
               ["JT97.A7.8.Q98", "--seat", "1", "--contract", "6NT", "--declarer", "2", "--played", "SA",
                "--known", "2:SK SQ", "--void", "0:S", "--auction", "pass pass 6NT", "-n", "3", "--seed", "1"],
               # an exact ending, its layouts weighed by the cards played
               ["KT.AJ8.9.AJ98", "--seat", "2", "--contract", "allpass", "--talon", "SA DK", "--auction",
                "pass pass pass", "--played", "S8 S7 SK D8 DT D9 S9 ST SQ CT C7 C8 C9 CQ CJ CK CA SJ"]],
}


def json_commands():
    """The commands of the main group with a --json or --jsonl option."""
    return sorted(name for name, command in main.commands.items()
                  if any(isinstance(p, click.Option) and {"--json", "--jsonl"} & set(p.opts)
                         for p in command.params))


def has_jsonl(name):
    return any("--jsonl" in p.opts for p in main.commands[name].params if isinstance(p, click.Option))


def validator(name):
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_every_command_with_json_has_a_schema_and_cases():
    commands = json_commands()
    assert {"solve", "table", "play", "allpass", "auction", "score"} <= set(commands)
    missing = [name for name in commands if not (SCHEMAS / f"{name}.schema.json").exists()]
    assert not missing, f"commands without a schema in docs/schemas/: {missing}"
    assert sorted(CASES) == commands
    stray = {p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json")} - set(commands)
    assert stray == set(FORMATS), f"schemas of no command or file format: {stray - set(FORMATS)}"


def test_schemas_are_strict():
    """Every object of every schema names its keys and allows no others."""
    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                assert node.get("additionalProperties") is False, where
                assert node.get("required"), where
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    for path in SCHEMAS.glob("*.schema.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        walk(doc, path.name)


@pytest.mark.parametrize("name, args", [(n, a) for n, cases in CASES.items() for a in cases],
                         ids=lambda x: x if isinstance(x, str) else None)
def test_json_output_matches_the_schema(name, args, tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text(f"{EXAMPLE_DEAL}\n# an ending\n{ENDING}\n{HANDS}\n")
    args = [a.replace("{deals}", str(deals)) for a in args]
    check = validator(name)
    flags = [["--json"], ["--jsonl"]] if has_jsonl(name) else [["--json"]]
    for flag in flags:
        r = CliRunner().invoke(main, [name, *args, *flag])
        assert r.exit_code in (0, 1), r.output     # auction: 1 for an illegal call, with its JSON
        lines = r.stdout.splitlines()
        assert lines and (flag == ["--jsonl"] or len(lines) == 1)
        for line in lines:
            doc = json.loads(line)
            errors = sorted(check.iter_errors(doc), key=str)
            assert not errors, f"{name} {flag}: {errors[0].message} at {list(errors[0].absolute_path)}"


#: Schemas of file formats rather than of a command's output.
FORMATS = {"game": "docs/GAME_FORMAT.md"}


def test_game_files_and_match_records_match_the_game_schema(tmp_path):
    check = validator("game")
    for path in sorted((ROOT / "examples").glob("*.json")):
        errors = list(check.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
        assert not errors, f"{path.name}: {errors[0].message}"
    records = tmp_path / "r.jsonl"
    r = CliRunner().invoke(main, ["match", "cheater", "random", "-n", "2", "--records", str(records), "-q"])
    assert r.exit_code == 0, r.output
    for line in records.read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        assert check.is_valid(doc), next(iter(check.iter_errors(doc))).message
        assert not check.is_valid({**doc, "deals": [{**doc["deals"][0], "moves": []}]})
    text = (ROOT / "docs" / "GAME_FORMAT.md").read_text(encoding="utf-8")
    examples = [block.split("\n```", 1)[0] for block in text.split("```json\n")[1:]]
    assert len(examples) >= 3
    for example in examples:
        for line in example.splitlines() if example.startswith('{"players"') and "\n{" in example else [example]:
            errors = list(check.iter_errors(json.loads(line)))
            assert not errors, f"docs/GAME_FORMAT.md: {errors[0].message}"


def test_the_schemas_refuse_what_the_commands_never_print():
    """The schemas can fail: a renamed key, a wrong type or a missing key is caught."""
    r = CliRunner().invoke(main, ["play", PLAYED, "--declarer", "2", "--strain", "S", "--json"])
    doc = json.loads(r.stdout)
    check = validator("play")
    assert check.is_valid(doc)
    assert not check.is_valid({**doc, "extra": 1})
    assert not check.is_valid({k: v for k, v in doc.items() if k != "tricks"})
    assert not check.is_valid({**doc, "tricks_won": {"0": 1, "1": 0, "2": 0}})
    assert not check.is_valid({**doc, "values": {"S1": 3}})


def test_the_examples_of_docs_json_match_their_schemas():
    text = (ROOT / "docs" / "JSON.md").read_text(encoding="utf-8")
    sections = text.split("\n## ")[1:]
    assert sorted(s.split("\n", 1)[0] for s in sections) == json_commands()
    for section in sections:
        name = section.split("\n", 1)[0]
        example = section.split("```json\n", 1)[1].split("\n```", 1)[0]
        errors = list(validator(name).iter_errors(json.loads(example)))
        assert not errors, f"docs/JSON.md, {name}: {errors[0].message}"
