"""The ``prefsolve`` command line: one subcommand per job.

Human output is aligned text with suit symbols; ``--json`` prints one JSON
object on stdout (docs/JSON.md, docs/schemas/). Bad input gives one line on
stderr and exit code 2. Each command lives in the module of its concept
(:mod:`.solve`, :mod:`.play`, :mod:`.rules`, :mod:`.analyze`); what they share
is in :mod:`._common`; whole games (``match``, ``bot``) are in :mod:`.games`;
this module builds the group. docs/CLI.md lists every
command and option.

>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(main, ["solve", "A.-.-.- K.-.-.- Q.-.-.-", "--declarer", "9"])
>>> result.exit_code, len(result.output.splitlines())      # bad input: one line, exit code 2
(2, 1)
"""

from __future__ import annotations

import click

from .._version import __version__
from . import analyze, games, play, rules, serve, solve
from ._common import EXAMPLE_DEAL, PrefsolveGroup, emit_stream, progress_bar, void_first_as_argument
from .solve import solve_cmd


@click.group(cls=PrefsolveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="prefsolve")
def main() -> None:
    """Exact double-dummy solver and analyzer for Preferans.

    A deal is written as the hands of seats 0, 1, 2 and an optional 2-card
    talon, each as dotted suits ♠.♣.♦.♥ with ranks high to low, e.g.

    \b
        prefsolve table "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
    """


for _command in (*solve.COMMANDS, *rules.COMMANDS, *play.COMMANDS,
                 analyze.analyze, analyze.analyze_talon, analyze.whist, analyze.advise, analyze.holdings,
                 *games.COMMANDS, *serve.COMMANDS):
    main.add_command(_command)


def run() -> None:  # pragma: no cover - entry point for python -m
    main(prog_name="prefsolve")


__all__ = ["EXAMPLE_DEAL", "PrefsolveGroup", "emit_stream", "main", "progress_bar", "run", "solve_cmd",
           "void_first_as_argument"]
