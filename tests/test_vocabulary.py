"""One concept, one option: every command's options read against the command line's vocabulary.

The concepts are the data of :mod:`prefsolve.cli.vocabulary` (the command
line's part of docs/VOCABULARY.md). The checks walk the real click group, so
a command added later is read too: an old or second spelling of a concept, a
concept's value in another format, a command that lacks a concept it must
take, or one without ``--json``, fails here.
"""

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from prefsolve.cli import main
from prefsolve.cli.vocabulary import RETIRED, WITHOUT_JSON, WORDS, OptionWord, retired_message

ROOT = Path(__file__).resolve().parent.parent


def options(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option)]


def spelling_problems(group: click.Group, words: dict[str, OptionWord], without_json: tuple[str, ...]) -> list[str]:
    """What in ``group``'s commands breaks the vocabulary ``words``."""
    retired = {old: w for w in words.values() for old in w.retired}
    by_option = {w.option: w for w in words.values()}
    problems = []
    for name, command in sorted(group.commands.items()):
        flags = {flag for p in options(command) for flag in p.opts + p.secondary_opts}
        for p in options(command):
            for flag in p.opts + p.secondary_opts:
                if flag in retired:
                    w = retired[flag]
                    problems.append(f"{name} {flag}: a second spelling of the {w.concept}, which is {w.option}")
                w = by_option.get(flag)
                if w is not None and w.metavar is not None and p.metavar != w.metavar:
                    problems.append(f"{name} {flag} takes {p.metavar or p.type.name!r}, the {w.concept} is "
                                    f"{w.metavar} in every command")
        for w in words.values():
            if name in w.commands and w.option not in flags:
                problems.append(f"{name} has no {w.option} (the {w.concept})")
        if name not in without_json and "--json" not in flags:
            problems.append(f"{name} has no --json")
    return problems


def test_every_command_spells_each_concept_one_way():
    assert spelling_problems(main, WORDS, WITHOUT_JSON) == []


def test_the_check_catches_a_second_spelling_another_format_and_a_missing_option():
    # A group as the commands once were: --bid beside --contract, --known SEAT:CARDS, allpass
    # without --seat, deal without --json.
    group = click.Group(commands=[
        click.Command("analyze-talon", params=[click.Option(["--bid"]), click.Option(["--json"], is_flag=True)]),
        click.Command("advise", params=[click.Option(["--known"], metavar="SEAT:CARDS"),
                                        click.Option(["--json"], is_flag=True)]),
        click.Command("allpass", params=[click.Option(["--json"], is_flag=True)]),
        click.Command("deal", params=[click.Option(["--seed"])]),
    ])
    words = {k: WORDS[k] for k in ("contract", "known", "seat")}
    problems = spelling_problems(group, words, WITHOUT_JSON)
    assert "analyze-talon --bid: a second spelling of the contract, which is --contract" in problems
    assert "advise --known takes 'SEAT:CARDS', the known is PLACE:CARDS in every command" in problems
    assert "allpass has no --seat (the seat)" in problems
    assert "deal has no --json" in problems


def test_every_concept_is_in_the_vocabulary_document():
    text = (ROOT / "docs" / "VOCABULARY.md").read_text(encoding="utf-8")
    for w in WORDS.values():
        assert f"`{w.option}" in text, w
        for old in w.retired:
            assert f"`{old}`" in text, old      # the old spelling is named where the new one is documented


@pytest.mark.parametrize("args, new", [
    (["analyze-talon", "AKJ98.AQ.K8.A87", "--bid", "6S"], "--contract"),
    (["auction", "6S pass pass", "--declare=7S"], "--contract"),
    (["advise", "JT97.A7.8.Q98", "--seat", "1", "--contract", "6NT", "--declarer", "2", "--whist-calls", "pass"],
     "--whist"),
])
def test_an_old_spelling_is_one_line_naming_the_new_option(args, new):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and r.stdout == ""
    old = next(a.split("=")[0] for a in args if a.split("=")[0] in RETIRED)
    assert r.stderr == f"Error: {retired_message(old)}\n" and f"{old} is now {new}:" in r.stderr
