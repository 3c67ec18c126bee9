"""The solving commands: ``deal``, ``solve``, ``table`` and ``bench``.

``solve`` and ``table`` take one DEAL (the built-in example without one) or
``--file`` of deals, solved on every core (or a Dask cluster's: ``--scheduler``,
``--cluster``) and printed in the file's order as they come (``--json``: one
object, ``--jsonl [FILE]``: one object per line, on stdout or in FILE, which
``--resume`` goes on with).

>>> import json
>>> from click.testing import CliRunner
>>> from prefsolve import solve
>>> deal = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
>>> out = json.loads(CliRunner().invoke(solve_cmd, [deal, "--declarer", "2", "--strain", "NT", "--json"]).output)
>>> out["tricks"] == solve(deal, 2, strain="NT").tricks
True
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator

import click

from ..batch import imap_deals, stream_tables
from ..bench import WORKLOADS, run as run_bench
from ..cards import Card
from ..deal import Deal
from ..engine import DEFAULT_TT_MB, MAX_TT_MB
from ..i18n import N_, _, get_language, ngettext
from ..play import Position
from ..solver import solve, table
from ..strains import parse_strain
from ._common import (
    EXAMPLE_DEAL,
    check_file_options,
    cluster_client,
    cluster_options,
    command,
    echo,
    emit_json,
    emit_stream,
    file_deals,
    file_option,
    file_progress,
    jobs_option,
    json_option,
    jsonl_file,
    jsonl_option,
    jsonl_output,
    jsonl_target,
    leader_option,
    optional_deal_argument,
    play_header,
    progress_bar,
    quiet_option,
    resume_option,
    resume_point,
    seed_option,
    talon_mode_option,
    terminal_width,
)

talon_mode = talon_mode_option(
    ("take", "ignore"),
    N_("take: the declarer takes the talon and discards the best 2 cards; ignore: the hands are "
       "played as given [default: take when the deal has a talon]."))
file_jobs_option = jobs_option(N_("Threads for --file [default: all usable cores]."))


def file_batch_options(f: Callable) -> Callable:
    """The options of a batch of deals, shared by solve and table: --file,
    --jobs, --quiet, --json, --jsonl, --resume and the cluster's."""
    for option in reversed((file_option, file_jobs_option, quiet_option, json_option, jsonl_option,
                            resume_option, cluster_options)):
        f = option(f)
    return f


@command("deal")
@seed_option(help=N_("Random seed (repeatable deals)."))
@click.option("--cards", type=click.IntRange(1, 10), default=10, show_default=True,
              help=N_("Cards per hand; fewer than 10 gives an ending without talon."))
@click.option("--count", type=click.IntRange(1), default=1, show_default=True,
              help=N_("Number of deals, one per line (seeds seed, seed+1, ...)."))
@json_option
def deal(seed: int | None, cards: int, count: int, as_json: bool) -> None:
    """Print random deals in canonical text.

    With --json, one object: {"seed": ..., "cards": ..., "deals": [...]}.

    \b
        prefsolve deal --seed 1 --count 1000 --cards 10
    """
    texts = (str(Deal.random(None if seed is None else seed + i, cards=cards)) for i in range(count))
    if as_json:
        emit_stream(texts, "deals", str, str, True, False, head={"seed": seed, "cards": cards})
        return
    for text in texts:
        click.echo(text)


@command("solve")
@optional_deal_argument
@click.option("--declarer", type=click.IntRange(0, 2), required=True, help=N_("Declarer's seat."))
@click.option("--strain", required=True, help=N_("S, C, D, H, NT or misere."))
@leader_option()
@talon_mode
@click.option("--line", "with_line", is_flag=True,
              help=N_("Also print an optimal line of play (after the best discard)."))
@file_batch_options
def solve_cmd(deal_text, declarer, strain, leader, talon_mode, with_line, deal_file, jobs, quiet, as_json,
              jsonl, resume, scheduler, cluster, connect_timeout):
    """Solve one contract: the declarer's tricks with best play.

    Without DEAL (and without --file), the built-in example deal is solved.
    With --file, one line per deal ("deal: tricks"), printed in the file's
    order as they are solved; with --json as {"solutions": [...]}, with
    --jsonl one solution per line (--jsonl FILE: in FILE; --resume goes on
    with an interrupted run's FILE). --scheduler or --cluster solve the file
    on a Dask cluster (docs/CLUSTER.md).

    \b
        prefsolve solve "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-" --declarer 2 --strain NT
    """
    strain = parse_strain(strain)
    if with_line and deal_file is not None:
        raise click.UsageError(_("--line goes with one deal, not --file"))
    deal_text, jsonl = jsonl_target(deal_text, jsonl)
    as_jsonl = jsonl is not None
    check_file_options(deal_file, jsonl, resume, scheduler, cluster, jobs)
    texts = file_deals(deal_text, deal_file, talon_mode, as_json, as_jsonl, jobs, quiet)
    if texts is not None:
        expect = {"declarer": declarer, "strain": strain, "leader": leader}

        def work(text: str, sv) -> dict:
            d = Deal.parse(text)
            found = solve(d, declarer, strain=strain, leader=leader, talon_mode=talon_mode, solver=sv).to_dict()
            return {"deal": str(d), **without_nodes(found)}

        def solve_texts(texts: list[str], client, progress) -> Iterator[dict]:
            if client is None:
                return imap_deals(texts, work, jobs=jobs, progress=progress)
            from ..cluster import run_deals  # the deals travel as card masks

            params = {"declarer": declarer, "strain": strain, "leader": leader, "talon_mode": talon_mode}
            found = (sol for chunk in run_deals(client, texts, "solution", params, progress=progress)
                     for sol in chunk)
            return ({"deal": str(Deal.parse(text)), **without_nodes(sol.to_dict())}
                    for text, sol in zip(texts, found))

        run_file(texts, jsonl, resume, expect, talon_mode, scheduler, cluster, connect_timeout, quiet, solve_texts,
                 "solutions", lambda x: x,
                 lambda x: f"{x['deal']}: {solution_text(x['tricks'], x['discard'], strain)}", as_json, as_jsonl)
        return
    d = Deal.parse(EXAMPLE_DEAL if deal_text is None else deal_text)   # "" is an error, not the example
    sol = solve(d, declarer, strain=strain, leader=leader, talon_mode=talon_mode)
    pos = line = None
    if with_line:
        pos = Position(d, declarer, strain=strain, leader=leader, talon_mode=sol.talon_mode,
                       discard=sol.discard)
        line = pos.best_line()
    if as_json or as_jsonl:
        out = {"deal": str(d), **sol.to_dict()}
        if line is not None:
            out["line"] = line.to_dict()
            out["position"] = str(pos)     # the DEAL that play takes to go on from here
        emit_one(out, jsonl)
        return
    echo(d.diagram())
    echo()
    # The header as play prints it: "Declarer seat 2, ♠ trumps, seat 0 leads".
    echo(_("{header}: {solution}", header=play_header(declarer, strain, leader),
           solution=solution_text(sol.tricks, sol.discard.to_list() if sol.discard else None, strain)))
    if line is not None:
        echo(_("An optimal line (total {tricks} for seat {seat}):", tricks=line.tricks, seat=declarer))
        echo(line.format())
        # The position text whole, even on a narrow terminal: it is copied as it is.
        click.echo(_("Position (DEAL for play, or Position.parse): {position}", position=pos))


def run_file(texts: list[str], jsonl: str | None, resume: bool, expect: dict, talon_mode: str | None,
             scheduler: str | None,
             cluster: int | None, connect_timeout: float, quiet: bool, solve_texts, key: str, to_dict,
             to_text, as_json: bool, as_jsonl: bool, blank_between: bool = False) -> None:
    """Solve the checked deal lines of ``--file`` and print the results as they
    come: on this machine's threads or the Dask cluster of ``--scheduler`` or
    ``--cluster``; to stdout or to ``--jsonl FILE``, after the results that
    FILE already holds with ``--resume``. The cluster is reached before FILE
    is opened, so a scheduler that does not answer leaves FILE as it was."""
    path = jsonl_file(jsonl)
    skip = resume_point(path, texts, expect, talon_mode) if resume and path is not None else 0
    if resume and texts and skip == len(texts):
        click.echo(ngettext("Note: {path} already holds the result of the {n} deal",
                            "Note: {path} already holds the results of all {n} deals", len(texts), path=path),
                   err=True)
        return
    todo = texts[skip:]
    with cluster_client(scheduler, cluster, connect_timeout) as client:
        # Written to a file, the results no longer show the progress on a terminal: the bar does.
        bar = file_progress(len(todo), quiet) if path is None else progress_bar(len(todo), _("solving"), quiet)
        with bar, \
                (jsonl_output(path, resume) if path is not None else contextlib.nullcontext()) as out:
            emit_stream(solve_texts(todo, client, bar.update), key, to_dict, to_text, as_json, as_jsonl,
                        blank_between=blank_between, out=out)


def emit_one(result: dict, jsonl: str | None) -> None:
    """The JSON of one deal: on stdout, or as the one line of ``--jsonl FILE``."""
    path = jsonl_file(jsonl)
    if path is None:
        emit_json(result)
        return
    with jsonl_output(path, False) as out:
        emit_stream([result], "", lambda x: x, str, False, True, out=out)


def without_nodes(result: dict) -> dict:
    """A result of ``--file`` without its node count: the nodes depend on what
    the thread's table holds from the deals solved before, so the same file
    would print differently from run to run; the tricks do not."""
    return {k: v for k, v in result.items() if k != "nodes"}


def solution_text(tricks: int, discard: list[str] | None, strain: str) -> str:
    if strain == "misere":
        line = ngettext("{n} trick forced on the declarer", "{n} tricks forced on the declarer", tricks)
    else:
        line = ngettext("{n} trick", "{n} tricks", tricks)
    if discard:
        line = _("{tricks}, discard {discard}", tricks=line,
                 discard=" ".join(Card.parse(c).format(get_language()) for c in discard))
    return line


@command("table")
@optional_deal_argument
@leader_option()
@talon_mode
@file_batch_options
def table_cmd(deal_text, leader, talon_mode, deal_file, jobs, quiet, as_json, jsonl, resume, scheduler, cluster,
              connect_timeout):
    """Tricks for every declarer in ♠ ♣ ♦ ♥ NT and misère, with the best discard.

    Without DEAL (and without --file), the built-in example deal is solved.
    With --file, the tables are printed in the file's order as they are
    solved, so memory stays flat on millions of deals; with --json as
    {"tables": [...]}, with --jsonl one table per line (--jsonl FILE: in
    FILE; --resume goes on with an interrupted run's FILE). --scheduler or
    --cluster solve the file on a Dask cluster (docs/CLUSTER.md).

    \b
        prefsolve table "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-" --leader 1
    """
    deal_text, jsonl = jsonl_target(deal_text, jsonl)
    as_jsonl = jsonl is not None
    check_file_options(deal_file, jsonl, resume, scheduler, cluster, jobs)
    texts = file_deals(deal_text, deal_file, talon_mode, as_json, as_jsonl, jobs, quiet)
    if texts is not None:
        expect: dict[str, object] = {"leader": leader}

        def solve_texts(texts: list[str], client, progress) -> object:
            return stream_tables(texts, leader=leader, talon_mode=talon_mode, jobs=jobs, progress=progress,
                                 scheduler=client)

        run_file(texts, jsonl, resume, expect, talon_mode, scheduler, cluster, connect_timeout, quiet, solve_texts,
                 "tables", lambda t: without_nodes(t.to_dict()), lambda t: f"{t.deal}\n{t.format()}", as_json, as_jsonl,
                 blank_between=True)
        return
    d = Deal.parse(EXAMPLE_DEAL if deal_text is None else deal_text)   # "" is an error, not the example
    t = table(d, leader=leader, talon_mode=talon_mode)
    if as_json or as_jsonl:
        emit_one(t.to_dict(), jsonl)
        return
    echo(d.diagram())
    echo()
    echo(t.format(terminal_width()))


@command("bench")
@click.option("--quick", is_flag=True, help=N_("Small sizes: under a minute."))
@seed_option(2026, help=N_("Random seed of the workloads."))
@click.option("--only", multiple=True, type=click.Choice(WORKLOADS),
              help=N_("Workload to run (repeatable) [default: all]."))
@click.option("--tt-mb", type=click.IntRange(1, MAX_TT_MB), default=DEFAULT_TT_MB, show_default=True,
              help=N_("Size of the transposition table in MB."))
def bench_cmd(quick, seed, only, tt_mb):
    """Speed benchmarks on fixed seeds; prints one JSON object.

    \b
        prefsolve bench --quick --only contract --only misere
    """
    res = run_bench(quick, seed, list(only) or None, tt_mb,
                    progress=lambda name: click.echo(_("running {name} ...", name=name), err=True))
    click.echo(json.dumps(res, indent=2))


COMMANDS = (deal, solve_cmd, table_cmd, bench_cmd)
