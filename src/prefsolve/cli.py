"""The ``prefsolve`` command line: one subcommand per job.

Human output is aligned text with suit symbols; ``--json`` prints one JSON
object on stdout. Bad input gives one line on stderr and exit code 2.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from typing import Callable, Iterable

import click

from ._version import __version__
from .batch import MAX_JOBS, imap_deals, stream_tables
from .bench import WORKLOADS
from .cards import Card, Hand
from .deal import Deal, split_deal_lines
from .errors import DealError, PrefsolveError
from .analyze_cli import analyze, analyze_talon, holdings, whist
from .play_cli import allpass, play
from .rules_cli import auction, score
from .engine import DEFAULT_TT_MB, MAX_TT_MB, table_size_mb
from .solver import Table, solve, table
from .strains import STRAIN_SYMBOLS, parse_strain

EXAMPLE_DEAL = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"


def _value_counts(command: click.Command) -> dict[str, int]:
    """How many values each option name of ``command`` takes (flags: none)."""
    counts = {}
    for param in command.params:
        if isinstance(param, click.Option) and not param.is_flag and not param.count:
            for name in param.opts + param.secondary_opts:
                counts[name] = max(param.nargs, 1)
    return counts


def void_first_as_argument(command: click.Command, args: list[str],
                           ctx: click.Context | None = None) -> list[str]:
    """Let a deal or hand that starts with a void (``-.KT9.A8.7 ...``, as
    ``prefsolve deal`` prints one in about 3% of deals) be given like any
    other: click would read it as an unknown option.

    The tokens are read as click reads them: ``--opt value``, ``--opt=value``,
    short options and clusters (``-q``, ``-n4``, ``-qn 4``). When a token that
    is not an option's value starts with ``-.``, the options and their values
    keep their places and every such positional token goes, in order, after
    a ``--``. Arguments that already contain ``--`` are left alone. An option
    left without its value is the usage error click would give.
    """
    if "--" in args or not any(a.startswith("-.") for a in args):
        return args
    counts = _value_counts(command)
    options, positional, due, waiting = [], [], 0, ""
    for a in args:
        if due:
            options.append(a)
            due -= 1
        elif a.startswith("-.") or a == "-" or not a.startswith("-"):
            positional.append(a)
        elif a.startswith("--"):
            options.append(a)
            due, waiting = (0 if "=" in a else counts.get(a, 0)), a
        else:                       # short options, maybe clustered: the first that
            options.append(a)       # takes a value takes the rest of the token
            due = 0
            for k, ch in enumerate(a[1:], 2):
                n = counts.get("-" + ch, 0)
                if n:
                    due, waiting = (n if k == len(a) else n - 1), "-" + ch
                    break
    if not any(p.startswith("-.") for p in positional):
        return args
    if due:
        raise click.UsageError(f"Option '{waiting}' requires an argument.", ctx)
    return options + ["--"] + positional


_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())
# Arguments that hold a deal or a hand: unquoted, their spaces split them.
CARD_ARGUMENTS = ("deal_text", "hand", "hand12")


class PrefsolveGroup(click.Group):
    """A group that turns prefsolve's input errors into one line and exit 2."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        for arg in args:
            # Bytes that are not UTF-8 reach Python as lone surrogates (PEP 383).
            if any("\udc80" <= ch <= "\udcff" for ch in arg):
                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                raise click.UsageError(f"argument {shown!r} is not UTF-8 text")
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            rest = void_first_as_argument(command, rest, click.Context(command, ctx, name))
        return name, command, rest

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except PrefsolveError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(2)

    def main(self, *args, **kwargs):
        """Every error is one line on stderr: click's usage errors would add a
        "Usage:" and a "Try --help" line, which scripts then have to skip."""
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        if sys.stdout is None:      # started with stdout closed (">&-"): every result would vanish
            click.echo("Error: the standard output is closed, so no result could be written", err=True)
            sys.exit(1)
        try:
            code = super().main(*args, **{**kwargs, "standalone_mode": False})
        except _NO_ARGS_IS_HELP as exc:     # a bare "prefsolve" (click 8.2+): the help, as ever
            click.echo(exc.format_message(), err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            ctx = getattr(exc, "ctx", None)   # usage errors know their command: name its help
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            takes_cards = ctx is not None and any(
                isinstance(p, click.Argument) and p.name in CARD_ARGUMENTS for p in ctx.command.params)
            message = exc.format_message()
            if takes_cards and message.startswith("Got unexpected extra argument"):
                extra = message[message.find("(") + 1:message.rfind(")")].split()
                if extra and all(word.startswith("-") and "." not in word for word in extra):
                    # only after "--" does an option arrive here as an argument
                    hint = "; after '--' every word is an argument, so put the options before it"
                else:
                    hint = ("; a deal or hand holds spaces, so quote it: "
                            "\"A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-\"")
            click.echo(f"Error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            click.echo("Aborted!", err=True)
            # Ctrl-C exits as a shell reports SIGINT (128 + 2), apart from errors (1, 2);
            # click.prompt raises Abort "from None", leaving the interrupt as the context.
            sys.exit(130 if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt) else 1)
        except OSError as exc:      # click handles a broken pipe inside; a full disk is left
            if exc.filename is None:
                _stdout_failed(exc)
            else:
                click.echo(f"Error: {exc.filename}: {exc.strerror or exc}", err=True)
            sys.exit(1)
        # Without standalone mode click returns ctx.exit()'s code (the commands return None).
        if _stdout_failed():    # what is still buffered fails here, not at exit with a traceback
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _stdout_failed(exc: OSError | None = None) -> bool:
    """Whether writing stdout failed: ``exc`` says it did (an OSError naming
    no file: input files are read, and named, before any output), else
    stdout is flushed to find out, since a failed write would otherwise
    surface at exit as a traceback. When it failed, say so in one line and
    send whatever is still buffered to the null device, so that the
    interpreter's own flush at exit cannot fail again."""
    if exc is None:
        try:
            sys.stdout.flush()
            return False
        except OSError as failed:
            exc = failed
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    if exc.errno != errno.EPIPE:    # a closed pipe is the reader's choice (head), not an error
        click.echo(f"Error: cannot write the output: {exc.strerror or exc}", err=True)
    return True


def emit_json(obj: object) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def _mode(talon: bool | None) -> str | None:
    return None if talon is None else ("take" if talon else "ignore")


def talon_choice(deal: Deal, talon: bool | None) -> str:
    """``--talon/--no-talon`` default: use the talon when the deal has one.
    An explicit --talon on a deal without one is refused in the command
    line's own words (the API's message names ``talon=False``)."""
    if talon and deal.talon is None:
        raise DealError(f"deal {str(deal)!r} has no talon, which --talon asks for; "
                        f"leave --talon out to play the hands as given")
    return "take" if (deal.talon is not None if talon is None else talon) else "ignore"


deal_argument = click.argument("deal_text", metavar="[DEAL]", required=False)
leader_option = click.option("--leader", type=click.IntRange(0, 2), default=0, show_default=True,
                             help="Seat that leads trick 1 (0 = first hand).")
talon_option = click.option("--talon/--no-talon", default=None,
                            help="Take the talon and discard the best 2 cards "
                                 "[default: when the deal has a talon].")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


@click.group(cls=PrefsolveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="prefsolve")
def main() -> None:
    """Exact double-dummy solver and analyzer for Preferans.

    A deal is written as the hands of seats 0, 1, 2 and an optional 2-card
    talon, each as dotted suits ♠.♣.♦.♥ with ranks high to low, e.g.

    \b
        prefsolve table "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
    """


@main.command()
@click.option("--seed", type=click.IntRange(min=0), default=None, help="Random seed (repeatable deals).")
@click.option("--cards", type=click.IntRange(1, 10), default=10, show_default=True,
              help="Cards per hand; fewer than 10 gives an ending without talon.")
@click.option("--count", type=click.IntRange(1), default=1, show_default=True,
              help="Number of deals, one per line (seeds seed, seed+1, ...).")
def deal(seed: int | None, cards: int, count: int) -> None:
    """Print random deals in canonical text.

    \b
        prefsolve deal --seed 1 --count 1000 --cards 10
    """
    for i in range(count):
        s = None if seed is None else seed + i
        click.echo(str(Deal.random(s, cards=cards)))


file_option = click.option("--file", "deal_file", type=click.File("rb"),
                           help="Solve every deal of a file (one per line, '-' for stdin).")
jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
                           help="Threads for --file [default: all usable cores].")
quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
jsonl_option = click.option("--jsonl", "as_jsonl", is_flag=True,
                            help="Print one JSON object per line: one per deal "
                                 "(for a single deal, the same as --json).")


@main.command()
@deal_argument
@click.option("--declarer", type=click.IntRange(0, 2), required=True, help="Declarer's seat.")
@click.option("--strain", required=True, help="S, C, D, H, NT or misere.")
@leader_option
@talon_option
@click.option("--line", "with_line", is_flag=True,
              help="Also print an optimal line of play (after the best discard).")
@file_option
@jobs_option
@quiet_option
@json_option
@jsonl_option
def solve_cmd(deal_text, declarer, strain, leader, talon, with_line, deal_file, jobs, quiet, as_json,
              as_jsonl):
    """Solve one contract: the declarer's tricks with best play.

    Without DEAL (and without --file), the built-in example deal is solved.
    With --file, one line per deal ("deal: tricks"), printed in the file's
    order as they are solved; with --json as {"solutions": [...]}, with
    --jsonl one solution per line.

    \b
        prefsolve solve "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-" --declarer 2 --strain NT
    """
    strain = parse_strain(strain)
    if with_line and deal_file is not None:
        raise click.UsageError("--line goes with one deal, not --file")
    texts = file_deals(deal_text, deal_file, talon, as_json, as_jsonl, jobs, quiet)
    if texts is not None:
        def work(text: str, sv) -> dict:
            d = Deal.parse(text)
            found = solve(d, declarer, strain=strain, leader=leader, talon_mode=talon_choice(d, talon),
                          solver=sv).to_dict()
            # Not "nodes": they depend on what the thread's table holds from the deals
            # before, so the same file would give different output from run to run.
            del found["nodes"]
            return {"deal": str(d), **found}

        with file_progress(len(texts), quiet) as bar:
            emit_stream(imap_deals(texts, work, jobs=jobs, progress=bar.update), "solutions", lambda x: x,
                        lambda x: f"{x['deal']}: {solution_text(x['tricks'], x['discard'], strain)}",
                        as_json, as_jsonl)
        return
    d = Deal.parse(EXAMPLE_DEAL if deal_text is None else deal_text)   # "" is an error, not the example
    sol = solve(d, declarer, strain=strain, leader=leader, talon_mode=talon_choice(d, talon))
    pos = line = None
    if with_line:
        from .play import Position     # on use: solve alone needs none of the play module

        pos = Position(d, declarer, strain=strain, leader=leader, talon_mode=sol.talon_mode,
                       discard=sol.discard)
        line = pos.best_line()
    if as_json or as_jsonl:
        out = {"deal": str(d), **sol.to_dict()}
        if line is not None:
            out["line"] = line.to_dict()
            out["position"] = str(pos)     # the DEAL that play takes to go on from here
        emit_json(out)
        return
    click.echo(d.diagram())
    click.echo()
    # The header as play prints it: "Declarer seat 2, ♠ trumps, seat 0 leads".
    trumps = " trumps" if strain in ("S", "C", "D", "H") else ""
    click.echo(f"Declarer seat {declarer}, {STRAIN_SYMBOLS[strain]}{trumps}, seat {leader} leads: "
               + solution_text(sol.tricks, sol.discard and [str(c) for c in sol.discard], strain))
    if line is not None:
        click.echo(f"An optimal line (total {line.tricks} for seat {declarer}):")
        click.echo(line.format())
        click.echo(f"Position (DEAL for play, or Position.parse): {pos}")


def played_deal(deal: Deal, declarer: int, discard) -> Deal:
    """The hands as played: the declarer's with the talon taken and ``discard``
    put away (the deal itself when no talon was taken)."""
    if not discard:
        return Deal(list(deal.hands)) if deal.talon is not None else deal
    assert deal.talon is not None
    hands = list(deal.hands)
    kept = (hands[declarer].mask | deal.talon.mask) & ~sum(1 << c.index for c in discard)
    hands[declarer] = Hand(kept)
    return Deal(hands)


def solution_text(tricks: int, discard: list[str] | None, strain: str) -> str:
    noun = "trick" if tricks == 1 else "tricks"
    what = f"{noun} forced on the declarer" if strain == "misere" else noun
    line = f"{tricks} {what}"
    if discard:
        line += f", discard {' '.join(Card.parse(c).symbol for c in discard)}"
    return line


solve_cmd.name = "solve"


@main.command("table")
@deal_argument
@leader_option
@talon_option
@file_option
@jobs_option
@quiet_option
@json_option
@jsonl_option
def table_cmd(deal_text, leader, talon, deal_file, jobs, quiet, as_json, as_jsonl):
    """Tricks for every declarer in ♠ ♣ ♦ ♥ NT and misère, with the best discard.

    Without DEAL (and without --file), the built-in example deal is solved.
    With --file, the tables are printed in the file's order as they are
    solved, so memory stays flat on millions of deals; with --json as
    {"tables": [...]}, with --jsonl one table per line.

    \b
        prefsolve table "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-" --leader 1
    """
    texts = file_deals(deal_text, deal_file, talon, as_json, as_jsonl, jobs, quiet)
    if texts is not None:
        with file_progress(len(texts), quiet) as bar:
            emit_stream(stream_tables(texts, leader=leader, talon_mode=_mode(talon), jobs=jobs, progress=bar.update),
                        "tables",
                        Table.to_dict, lambda t: f"{t.deal}\n{t.format()}", as_json, as_jsonl,
                        blank_between=True)
        return
    d = Deal.parse(EXAMPLE_DEAL if deal_text is None else deal_text)   # "" is an error, not the example
    t = table(d, leader=leader, talon_mode=talon_choice(d, talon))
    if as_json or as_jsonl:
        emit_json(t.to_dict())
        return
    click.echo(d.diagram())
    click.echo()
    click.echo(t.format())


def file_deals(deal_text: str | None, deal_file, talon: bool | None, as_json: bool,
               as_jsonl: bool, jobs: int | None, quiet: bool) -> list[str] | None:
    """The deal lines of ``--file`` (None without it), each checked before any is
    solved, so that a bad one is named by its line in the file (blank lines and
    ``#`` comments count) before any output: its cards, and a talon when
    ``--talon`` asks for one. ``--jobs`` and ``--quiet`` without ``--file``
    are an error rather than silently ignored."""
    if as_json and as_jsonl:
        raise click.UsageError("give either --json or --jsonl, not both")
    if deal_file is None:
        if jobs is not None or quiet:
            raise click.UsageError("--jobs and --quiet go with --file (one deal solves on one thread)")
        return None
    if deal_text is not None:
        raise click.UsageError("give either DEAL or --file, not both")
    table_size_mb()     # a bad PREFSOLVE_TT_MB is named now, before any line is read or printed
    texts = []
    try:
        data = deal_file.read()
    except OSError as exc:      # opened, but reading failed (a bad descriptor, an I/O error)
        raise click.BadParameter(f"cannot read {deal_file.name}: {exc.strerror or exc}",
                                 param_hint="'--file'") from None
    lines = split_deal_lines(decode_deal_file(data))
    # Checking takes about 31 us a line: half a minute for a million deals.
    with file_progress(len(lines), quiet or len(lines) < CHECK_BAR_LINES, "checking") as bar:
        for number, line in lines:
            try:
                d = Deal.parse(line)
            except PrefsolveError as exc:
                raise PrefsolveError(f"line {number}: {exc}") from None
            if talon and d.talon is None:
                raise DealError(f"line {number}: deal {line!r} has no talon, which --talon asks for")
            texts.append(line)
            bar.update(1)
    if not texts:   # not an error (a batch may come out empty), but never silent
        click.echo(f"Note: {deal_file.name} holds no deal (only blank lines and # comments), "
                   f"so nothing was solved", err=True)
    return texts


def decode_deal_file(data: bytes) -> str:
    """A deal file's text: UTF-8, a leading byte-order mark dropped (Windows editors
    write one); other bytes are an error naming their line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise DealError(f"line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                        f"save the file as UTF-8") from None


CHECK_BAR_LINES = 20_000    # files shorter than this are checked in under a second


def emit_stream(results: Iterable, key: str, to_dict: Callable, to_text: Callable,
                as_json: bool, as_jsonl: bool, blank_between: bool = False) -> None:
    """Print results as they come: with ``as_json`` the bytes of one
    ``{key: [...]}`` object, with ``as_jsonl`` one object per line, else each
    result's text (with ``blank_between``, a blank line between two)."""
    if as_json:
        click.echo(f'{{"{key}": [', nl=False)
    for i, x in enumerate(results):
        if as_json:
            click.echo((", " if i else "") + json.dumps(to_dict(x), ensure_ascii=False), nl=False)
        elif as_jsonl:
            emit_json(to_dict(x))
        else:
            if i and blank_between:
                click.echo()
            click.echo(to_text(x))
    if as_json:
        click.echo("]}")


def file_progress(total: int, quiet: bool, label: str = "solving"):
    """A progress bar of ``--file``; none when stdout is a terminal, where the
    results, printed as they come, show the progress and would tear the bar."""
    return progress_bar(total, label, quiet or sys.stdout.isatty())


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


def progress_bar(total: int, label: str, quiet: bool):
    """A progress bar on stderr (just its label when stderr is not a terminal); none with --quiet."""
    if quiet or total < 2:
        return _NoBar()
    return click.progressbar(length=total, label=label, file=sys.stderr)


@main.command("bench")
@click.option("--quick", is_flag=True, help="Small sizes: under a minute.")
@click.option("--seed", type=click.IntRange(min=0), default=2026, show_default=True)
@click.option("--only", multiple=True, type=click.Choice(WORKLOADS),
              help="Workload to run (repeatable) [default: all].")
@click.option("--tt-mb", type=click.IntRange(1, MAX_TT_MB), default=DEFAULT_TT_MB, show_default=True)
def bench_cmd(quick, seed, only, tt_mb):
    """Speed benchmarks on fixed seeds; prints one JSON object.

    \b
        prefsolve bench --quick --only contract --only misere
    """
    from .bench import run as run_bench

    res = run_bench(quick, seed, list(only) or None, tt_mb,
                    progress=lambda name: click.echo(f"running {name} ...", err=True))
    click.echo(json.dumps(res, indent=2))


main.add_command(auction)
main.add_command(score)
main.add_command(play)
main.add_command(allpass)
for command in (analyze, analyze_talon, whist, holdings):
    main.add_command(command)


def run() -> None:  # pragma: no cover - entry point for python -m
    main(prog_name="prefsolve")


if __name__ == "__main__":  # pragma: no cover
    run()   # click's standalone main() exits the process itself
