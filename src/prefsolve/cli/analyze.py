"""Command-line front ends of the analyzer: ``analyze``, ``analyze-talon``, ``whist``, ``holdings``.

These are plain click commands (not a group); the main ``prefsolve`` group
registers them. Each one turns a :class:`~prefsolve.errors.PrefsolveError`
into one ``Error: ...`` line on stderr and exit code 2 by itself, so it
behaves the same in any group. Human output is an aligned table and a
recommendation line; ``--json`` prints one JSON object; long runs show a
progress bar on stderr unless ``--quiet`` or ``--json``.

>>> import json
>>> from click.testing import CliRunner
>>> result = CliRunner().invoke(analyze, ["A.KT9.KT97.K7", "--samples", "4", "--seed", "1", "--json", "--jobs", "1"])
>>> result.exit_code, json.loads(result.output)["samples"]
(0, 4)
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from .. import analyzer
from ..batch import MAX_JOBS
from ..cards import Hand
from ..errors import PrefsolveError
from ._common import (
    emit_json as _emit,
    errors_to_exit2 as _errors_to_exit2,
    jobs_option,
    json_option,
    progress_bar as _bar,
    quiet_option,
    rules_option,
    rules_with_settings,
    seed_option,
    settings_option,
)

PLOT_HINT = 'Error: --plot needs matplotlib: pip install "prefsolve[plot]"'


def _constraints(known: tuple[str, ...], void: tuple[str, ...]) -> tuple[dict, dict]:
    """``--known 1:SA,SK`` / ``--known talon:HA`` and ``--void 2:H`` into mappings."""
    kn: dict = {}
    for item in known:
        place, sep, cards = item.partition(":")
        if not sep or not cards.strip():
            raise analyzer.ConstraintError(f"cannot read --known {item!r}: expected SEAT:CARDS, "
                                           f"e.g. '1:SA SK' or 'talon:HA'")
        key: int | str = place.strip().lower()
        key = int(key) if key in ("0", "1", "2") else key
        if key in kn:
            raise analyzer.ConstraintError(f"--known {item!r}: place {place!r} given twice")
        kn[key] = cards.replace(",", " ")
    vo: dict = {}
    for item in void:
        seat, sep, suits = item.partition(":")
        if not sep or seat.strip() not in ("0", "1", "2") or not suits.strip():
            raise analyzer.ConstraintError(f"cannot read --void {item!r}: expected SEAT:SUITS, e.g. '2:H'")
        vo[int(seat)] = vo.get(int(seat), "") + suits
    return kn, vo


def _check_plot(plot: str | None) -> None:
    """Fail before sampling: without matplotlib (exit 1), or with a file it cannot
    write, an unknown format or a missing folder (exit 2)."""
    if plot is None:
        return
    try:
        import matplotlib  # noqa: F401
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        click.echo(PLOT_HINT, err=True)
        sys.exit(1)
    path = Path(plot)
    kinds = FigureCanvasBase.get_supported_filetypes()
    kind = path.suffix.lower().lstrip(".")
    if kind and kind not in kinds:     # no suffix: a PNG, under the very name given
        raise click.BadParameter(f"cannot draw a .{kind} file; use one of: {', '.join(sorted(kinds))}",
                                 param_hint="--plot")
    if not path.parent.is_dir():
        raise click.BadParameter(f"no folder {str(path.parent)!r} to write {path.name!r} in",
                                 param_hint="--plot")


def plot_analysis(a: analyzer.Analysis, path: str) -> None:
    """P(make) and expected whists per contract, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [analyzer.contract_key(s.contract) for s in a.contracts]
    x = range(len(labels))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 6), sharex=True)
    top.bar(x, [s.p_make for s in a.contracts], yerr=[s.se for s in a.contracts], color="tab:blue")
    top.set_ylabel("P(make)")
    top.set_ylim(0, 1)
    top.set_title(f"{a.hand.symbols()} — seat {a.seat}, {a.samples} samples, {a.rules}")
    colors = ["tab:green" if s.expected >= 0 else "tab:red" for s in a.contracts]
    bottom.bar(x, [s.expected for s in a.contracts], yerr=[s.expected_se for s in a.contracts],
               color=colors)
    bottom.axhline(0, color="black", linewidth=0.8)
    bottom.set_ylabel("expected whists")
    bottom.set_xticks(list(x), labels, rotation=60)
    fig.tight_layout()
    # The format named explicitly: left to matplotlib, a name without a suffix
    # would be written as NAME.png, not where the user asked.
    kind = Path(path).suffix.lower().lstrip(".") or "png"
    try:
        fig.savefig(path, dpi=100, format=kind)
    except OSError as exc:
        raise PrefsolveError(f"cannot write plot {path!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def _common(command):
    """Options shared by the sampling commands; ``--rules`` and ``--set``
    reach the command as one ``rules`` (a Rules object)."""
    @functools.wraps(command)
    def f(*args, rules: str = "sochi", settings: tuple[str, ...] = (), **kwargs):
        return command(*args, rules=rules_with_settings(rules, settings), **kwargs)

    f = quiet_option(f)
    f = json_option(f)
    f = jobs_option()(f)
    f = settings_option(f)
    f = rules_option("sochi", dest="rules")(f)
    f = seed_option()(f)
    return f


def _constraint_options(f):
    f = click.option("--void", multiple=True, metavar="SEAT:SUITS",
                     help="A seat known to lack suits, e.g. '2:H' (repeatable).")(f)
    f = click.option("--known", multiple=True, metavar="PLACE:CARDS",
                     help="Cards known to be in a seat or the talon, e.g. '1:SA SK' or 'talon:HA' "
                          "(repeatable).")(f)
    return f


defence_option = click.option("--defence", type=click.Choice(analyzer.DEFENCES), default="best",
                              show_default=True,
                              help="Defence model: best (the defence calls what suits it in each layout), "
                                   "pass (both pass), one (one whists, open), both (both whist).")


@click.command("analyze")
@click.argument("hand")
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True,
              help="The player's seat (0 = first hand, leads trick 1).")
@click.option("--samples", "-n", type=click.IntRange(1), default=1000, show_default=True,
              help="Sampled layouts (the maximum with --adaptive).")
@defence_option
@click.option("--adaptive", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SE",
              help="Stop once the best contract's expected score has a standard error ≤ SE whists.")
@_constraint_options
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.png",
              help="Draw P(make) and expected whists per contract (needs matplotlib).")
@click.option("--allpass", "with_allpass", is_flag=True,
              help="Also solve all-pass on the same layouts: what passing costs.")
@_common
@_errors_to_exit2
def analyze(hand, seat, samples, defence, adaptive, known, void, plot, with_allpass, seed, rules,
            jobs, as_json, quiet):
    """Which contract to bid with a 10-card HAND: P(make) and expected whists for each.

    \b
        prefsolve analyze "A.KT9.KT97.K7" --seat 0 --samples 1000 --seed 1
    """
    _check_plot(plot)
    kn, vo = _constraints(known, void)
    with _bar(samples, "analyzing", quiet or as_json) as bar:
        a = analyzer.analyze(hand, seat=seat, samples=samples, seed=seed, rules=rules, jobs=jobs,
                             defence=defence, known=kn, voids=vo, adaptive=adaptive,
                             progress=bar.update)
    ap = None
    if with_allpass:
        # The same seed draws the same layouts: all-pass is judged on the very samples.
        n = a.samples
        with _bar(n, "all-pass", quiet or as_json) as bar:
            ap = analyzer.analyze_allpass(hand, seat=seat, samples=n, seed=a.seed, rules=rules,
                                          jobs=jobs, known=kn, voids=vo, progress=bar.update)
    # The results first: a plot that cannot be written must not lose the sampling.
    if as_json:
        doc = a.to_dict()
        if ap is not None:
            doc["allpass"] = ap.to_dict()
        _emit(doc)
    else:
        click.echo(a.format())
        if ap is not None:
            click.echo()
            click.echo(ap.format())
        click.echo(f"(seed {a.seed})")
    if plot:
        try:
            plot_analysis(a, plot)
        except PrefsolveError as exc:   # output that failed (exit 1), as for stdout; not bad input
            click.echo(f"Error: {exc}", err=True)
            sys.exit(1)


@click.command("analyze-talon")
@click.argument("hand12", metavar="HAND12")
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True,
              help="The declarer's seat (0 = first hand, leads trick 1).")
@click.option("--samples", "-n", type=click.IntRange(1), default=200, show_default=True,
              help="Sampled layouts of the 20 unseen cards.")
@click.option("--bid", default=None, help="The winning bid: declare nothing lower.")
@click.option("--candidates", type=click.IntRange(1), default=4, show_default=True,
              help="Discards kept per strain (the most often best on a pilot).")
@click.option("--top", type=click.IntRange(1), default=15, show_default=True,
              help="Rows of the table.")
@defence_option
@_constraint_options
@_common
@_errors_to_exit2
def analyze_talon(hand12, seat, samples, bid, candidates, top, defence, known, void, seed, rules, jobs,
                  as_json, quiet):
    """What to discard and declare with HAND12: the declarer's 10 cards and the talon.

    \b
        prefsolve analyze-talon "AKJ98.AQ.K8.A87" --bid 6S --samples 200 --seed 1
    """
    kn, vo = _constraints(known, void)
    with _bar(samples + min(samples, 40), "analyzing", quiet or as_json) as bar:
        t = analyzer.analyze_talon(hand12, seat=seat, samples=samples, seed=seed, rules=rules, jobs=jobs,
                                   defence=defence, bid=bid, candidates=candidates, known=kn, voids=vo,
                                   progress=bar.update)
    if as_json:
        _emit(t.to_dict())
        return
    click.echo(t.format(top))
    click.echo(f"(seed {t.seed})")


@click.command("whist")
@click.argument("hand")
@click.option("--seat", type=click.IntRange(0, 2), required=True, help="The defender's seat.")
@click.option("--declarer", type=click.IntRange(0, 2), required=True, help="The declarer's seat.")
@click.option("--contract", required=True, help="The declared contract, e.g. 7H.")
@click.option("--partner", type=click.Choice(analyzer.PARTNER_CALLS), default=None,
              help="The other defender's call [default: pass; whist on 6S under Stalingrad].")
@click.option("--talon", "talon_cards", default=None, metavar="CARDS",
              help="The talon the declarer showed (§3.1), e.g. 'SA D7'.")
@click.option("--samples", "-n", type=click.IntRange(1), default=1000, show_default=True,
              help="Sampled layouts (the maximum with --adaptive).")
@click.option("--adaptive", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SE",
              help="Stop once the best call's expected score has a standard error ≤ SE whists.")
@_constraint_options
@_common
@_errors_to_exit2
def whist(hand, seat, declarer, contract, partner, talon_cards, samples, adaptive, known, void, seed, rules,
          jobs, as_json, quiet):
    """Whist or pass with a defender's 10-card HAND against a contract.

    \b
        prefsolve whist "A.KT9.KT97.K7" --seat 1 --declarer 0 --contract 7H --seed 1
    """
    kn, vo = _constraints(known, void)
    if talon_cards is not None:
        if "talon" in kn:
            raise analyzer.ConstraintError("the talon is given twice (--talon and --known talon:...)")
        text = talon_cards.replace(",", " ")
        shown = len(Hand.parse(text))      # a card list or a dotted hand
        if shown != 2:
            raise analyzer.ConstraintError(f"--talon takes both talon cards (the declarer shows the talon, "
                                           f"§3.1), got {shown}: {talon_cards!r}")
        own = Hand.parse(text).mask & Hand.parse(hand).mask
        if own:
            card = next(c for c in Hand.parse(text) if c.index == (own & -own).bit_length() - 1)
            raise analyzer.ConstraintError(f"--talon card {card} is in the player's own hand {hand!r}")
        kn["talon"] = text
    with _bar(samples, "analyzing", quiet or as_json) as bar:
        w = analyzer.analyze_whist(hand, seat, declarer, contract, samples=samples, seed=seed, rules=rules,
                                   jobs=jobs, partner=partner, known=kn, voids=vo, adaptive=adaptive,
                                   progress=bar.update)
    if as_json:
        _emit(w.to_dict())
        return
    click.echo(w.format())
    click.echo(f"(seed {w.seed})")


@click.command("holdings")
@click.option("--samples", "-n", type=click.IntRange(1), default=200, show_default=True,
              help="Deals per holding.")
@click.option("--only", "numbers", type=click.IntRange(1, 46), multiple=True, metavar="N",
              help="Measure only row N of the seed's table (repeatable).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Random seed (repeatable answers).")
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help="Threads [default: all usable cores].")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@_errors_to_exit2
def holdings(samples, numbers, seed, jobs, as_json, quiet):
    """The classic book's 46 suit holdings (RULES.md §8): its trick estimates next to exact double-dummy play.

    \b
        prefsolve holdings --samples 200 --seed 1
    """
    rows = len(numbers) if numbers else len(analyzer.SEED_HOLDINGS)
    with _bar(rows * samples, "measuring", quiet or as_json) as bar:
        t = analyzer.holdings(samples=samples, seed=seed, jobs=jobs, numbers=numbers or None,
                              progress=bar.update)
    if as_json:
        _emit(t.to_dict())
        return
    click.echo(t.format())


__all__ = ["analyze", "analyze_talon", "whist", "holdings", "plot_analysis"]
