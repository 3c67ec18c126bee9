"""Command-line front ends of the analyzer: ``analyze``, ``analyze-talon``, ``whist``, ``holdings``.

These are commands of the shared :class:`~._common.Command` class (not a
group); the main ``prefsolve`` group registers them. Each one turns a
:class:`~prefsolve.errors.PrefsolveError` into one ``Error: ...`` line on
stderr and exit code 2 by itself, so it behaves the same in any group, and
takes ``--lang``. Human output is an aligned table and a
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .. import analysis
from ..batch import MAX_JOBS
from ..cards import Cards, Hand
from ..errors import PrefsolveError
from ..i18n import N_, _, get_language
from ._common import (
    command,
    echo,
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

PLOT_HINT = N_('--plot needs matplotlib: pip install "prefsolve[plot]"')


def _constraints(known: tuple[str, ...], void: tuple[str, ...]) -> tuple[dict, dict]:
    """``--known 1:SA,SK`` / ``--known talon:HA`` and ``--void 2:H`` into mappings."""
    kn: dict = {}
    for item in known:
        place, sep, cards = item.partition(":")
        if not sep or not cards.strip():
            raise analysis.ConstraintError(_("cannot read --known {item!r}: expected PLACE:CARDS, e.g. '1:SA SK' "
                                             "or 'talon:HA'", item=item))
        key: int | str = place.strip().lower()
        key = int(key) if key in ("0", "1", "2") else key
        if key in kn:
            raise analysis.ConstraintError(_("--known {item!r}: place {place!r} given twice", item=item, place=place))
        kn[key] = cards
    vo: dict = {}
    for item in void:
        seat, sep, suits = item.partition(":")
        if not sep or seat.strip() not in ("0", "1", "2") or not suits.strip():
            raise analysis.ConstraintError(_("cannot read --void {item!r}: expected SEAT:SUITS, e.g. '2:H'", item=item))
        vo[int(seat)] = f"{vo[int(seat)]},{suits}" if int(seat) in vo else suits
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
        click.echo(_("Error: {message}", message=_(PLOT_HINT)), err=True)
        sys.exit(1)
    path = Path(plot)
    kinds = FigureCanvasBase.get_supported_filetypes()
    kind = path.suffix.lower().lstrip(".")
    if kind and kind not in kinds:     # no suffix: a PNG, under the very name given
        raise click.BadParameter(_("cannot draw a .{kind} file; use one of: {kinds}", kind=kind,
                                   kinds=", ".join(sorted(kinds))), param_hint="--plot")
    if not path.parent.is_dir():
        raise click.BadParameter(_("no folder {folder!r} to write {file!r} in", folder=str(path.parent),
                                   file=path.name), param_hint="--plot")


def plot_analysis(a: analysis.Analysis, path: str) -> dict:
    """P(make) and expected whists per contract, drawn to ``path`` (PNG unless its suffix says otherwise).

    The expected-whists axis spans the contracts that matter to the decision
    (those within max(30, |E|) whists of the best contract's E, and 0); a
    bar beyond it is cut at the edge, hatched and labelled with its value,
    so that 10-level losses do not dwarf the choice.
    The recommended contract's bars are outlined and named. Returns what was
    drawn: ``{"recommended", "labels", "clipped": {label: value}, "ylim"}``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stats = a.contracts
    rec = a.recommendation
    labels = [s.contract.symbol for s in stats]
    chosen = [s.contract == rec.contract for s in stats]
    x = list(range(len(labels)))
    assert rec.contract is not None and rec.expected is not None    # the bid analysis names its best contract
    reach = max(30.0, abs(rec.expected))
    relevant = [s.expected for s in stats if s.expected >= rec.expected - reach]
    lo, hi = min(relevant + [0.0]), max(relevant + [0.0])
    pad = max(0.15 * (hi - lo), 2.0)
    lo, hi = lo - pad, hi + pad
    clipped = {label: s.expected for label, s in zip(labels, stats) if not lo <= s.expected <= hi}
    red = {"♦", "♥"}
    with plt.rc_context({"font.family": "DejaVu Sans"}):    # a font with ♠ ♣ ♦ ♥
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(13, 6.5), sharex=True)
        edge = ["black" if c else "none" for c in chosen]
        top.bar(x, [s.p_make for s in stats], yerr=[s.p_make_se for s in stats],
                color=["tab:orange" if c else "tab:blue" for c in chosen], edgecolor=edge, linewidth=2)
        top.set_ylabel(_("P(make)"))
        top.set_ylim(0, 1.2)
        if rec.call == "pass":
            what = _("pass")
        else:
            what = _("bid up to {contract}", contract=rec.max_bid.symbol) if rec.max_bid else rec.call
        top.set_title(_("{hand} — seat {seat}, {samples} samples, {rules}\nrecommendation: {what}; best {contract} "
                        "(expected {expected:+.1f} whists)", hand=a.hand.symbols(get_language()), seat=a.seat,
                        samples=a.samples, rules=a.rules, what=what, contract=rec.contract.symbol,
                        expected=rec.expected))
        values = [min(max(s.expected, lo), hi) for s in stats]
        colors = ["tab:orange" if c else "tab:green" if s.expected >= 0 else "tab:red"
                  for s, c in zip(stats, chosen)]
        bars = bottom.bar(x, values, yerr=[0 if lb in clipped else s.expected_se for lb, s in zip(labels, stats)],
                          color=colors, edgecolor=edge, linewidth=2)
        for bar, label in zip(bars, labels):
            if label in clipped:
                bar.set_hatch("//")
                value = clipped[label]
                below = value < lo
                bottom.annotate(f"{value:+.0f}", (bar.get_x() + bar.get_width() / 2, lo if below else hi),
                                xytext=(0, 4 if below else -4), textcoords="offset points", ha="center",
                                va="bottom" if below else "top", fontsize=8, rotation=90,
                                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none"})
        i = chosen.index(True)
        top.annotate(_("recommended\n{contract}", contract=rec.contract.symbol),
                     (i, stats[i].p_make + stats[i].p_make_se),
                     xytext=(0, 6), textcoords="offset points", ha="center", va="bottom", fontsize=9,
                     fontweight="bold")
        bottom.set_ylim(lo, hi)
        bottom.axhline(0, color="black", linewidth=0.8)
        bottom.set_ylabel(_("expected whists (cut: hatched bars)") if clipped else _("expected whists"))
        bottom.set_xticks(x, labels, fontsize=9)
        for tick, label, c in zip(bottom.get_xticklabels(), labels, chosen):
            tick.set_color("tab:red" if label[-1:] in red else "black")
            if c:
                tick.set_fontweight("bold")
        fig.tight_layout()
    # The format named explicitly: left to matplotlib, a name without a suffix
    # would be written as NAME.png, not where the user asked.
    kind = Path(path).suffix.lower().lstrip(".") or "png"
    try:
        fig.savefig(path, dpi=100, format=kind)
    except OSError as exc:
        raise PrefsolveError(_("cannot write plot {file!r}: {reason}", file=path, reason=exc.strerror or exc)) from None
    finally:
        plt.close(fig)
    return {"recommended": rec.contract.symbol, "labels": labels, "clipped": clipped, "ylim": (lo, hi)}


def _common(command, jobs: bool = True):
    """Options shared by the sampling commands; ``--rules`` and ``--set``
    reach the command as one ``rules`` (a Rules object). ``jobs=False``: a
    command that runs on one thread takes no ``--jobs``."""
    @functools.wraps(command)
    def f(*args, rules: str = "sochi", settings: tuple[str, ...] = (), **kwargs):
        return command(*args, rules=rules_with_settings(rules, settings), **kwargs)

    f = quiet_option(f)
    f = json_option(f)
    if jobs:
        f = jobs_option()(f)
    f = settings_option(f)
    f = rules_option("sochi", dest="rules")(f)
    f = seed_option()(f)
    return f


def samples_option(default: int, help: str) -> Callable:
    """``--samples``/``-n``: ``help``, which names the most an analysis draws (``{most_samples}``)."""
    return click.option("--samples", "-n", type=click.IntRange(1), default=default, show_default=True, help=help)


def _constraint_options(f):
    f = click.option("--void", multiple=True, metavar="SEAT:SUITS",
                     help=N_("A seat known to lack suits, e.g. '2:H' (repeatable)."))(f)
    f = click.option("--known", multiple=True, metavar="PLACE:CARDS",
                     help=N_("Cards known to be in a seat or the talon, e.g. '1:SA SK' or 'talon:HA'; a hand "
                          "played open is all its cards, e.g. '1:SA CA C7 DK HQ' (repeatable)."))(f)
    return f


def _auction_options(help: str):
    def wrap(f):
        f = click.option("--tolerance", type=click.FloatRange(min=0), default=1.0, show_default=True,
                         metavar="TRICKS",
                         help=N_("How far a hand may be from what its calls say, in estimated tricks."))(f)
        f = click.option("--auction", default=None, metavar="CALLS",
                         help=help)(f)
        return f
    return wrap


defence_option = click.option("--defence", type=click.Choice(analysis.DEFENCES), default="best",
                              show_default=True,
                              help=N_("Defence model: best (the defence calls what suits it in each layout), "
                                   "pass (both pass), one (one whists, open), both (both whist)."))


def _print_result(result: Any, as_json: bool, text: str) -> None:
    """An analysis on stdout: its JSON, or ``text`` and the seed it drew
    (which repeats the answer)."""
    if as_json:
        _emit(result.to_dict())
        return
    echo(text)
    echo(_("(seed {seed})", seed=result.sampling.seed))


@command("analyze")
@click.argument("hand")
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True,
              help=N_("The player's seat (0 = first hand, leads trick 1)."))
@samples_option(1000, N_("Sampled layouts (the maximum with --adaptive). At most {most_samples}."))
@defence_option
@click.option("--adaptive", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SE",
              help=N_("Stop once the best contract's expected score has a standard error ≤ SE whists."))
@_constraint_options
@_auction_options(N_("The calls made before this seat's turn, first hand first, e.g. '6S 7H pass pass': "
                   "the other hands are drawn as the calls show them (docs/ADVICE.md)."))
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.png",
              help=N_("Draw P(make) and expected whists per contract (needs matplotlib)."))
@click.option("--allpass", "with_allpass", is_flag=True,
              help=N_("Also solve all-pass on the same layouts: what passing costs."))
@click.option("--allpass-count", type=click.IntRange(0), default=None, metavar="N",
              help=N_("All-passes played in a row before this deal, for --allpass's score "
                   "(implies --allpass) [default: 0]."))
@_common
@_errors_to_exit2
def analyze(hand, seat, samples, defence, adaptive, known, void, auction, tolerance, plot, with_allpass,
            allpass_count, seed, rules, jobs, as_json, quiet):
    """Which contract to bid with a 10-card HAND: P(make) and expected whists for each.

    \b
        prefsolve analyze "A.KT9.KT97.K7" --seat 0 --samples 1000 --seed 1
    """
    _check_plot(plot)
    kn, vo = _constraints(known, void)
    sampling = analysis.Sampling(samples, seed, adaptive, kn, vo)
    with _bar(samples, _("analyzing"), quiet or as_json) as bar:
        a = analysis.analyze(hand, seat, sampling=sampling, rules=rules, defence=defence, auction=auction,
                             tolerance=tolerance, allpass_count=allpass_count or 0, jobs=jobs,
                             progress=bar.update)
    ap = None
    if with_allpass or allpass_count is not None:
        # The same seed draws the same layouts: all-pass is judged on the very samples.
        same = analysis.Sampling(a.samples, a.sampling.seed, known=kn, voids=vo,
                                 conditions=a.sampling.conditions)
        with _bar(a.samples, _("all-pass"), quiet or as_json) as bar:
            ap = analysis.analyze_allpass(hand, seat, sampling=same, rules=rules,
                                          allpass_count=allpass_count or 0, jobs=jobs, progress=bar.update)
    # The results first: a plot that cannot be written must not lose the sampling.
    if as_json:
        doc = a.to_dict()
        if ap is not None:
            doc["allpass"] = ap.to_dict()
        _emit(doc)
    else:
        _print_result(a, False, a.format() + ("" if ap is None else "\n\n" + ap.format()))
    if plot:
        try:
            plot_analysis(a, plot)
        except PrefsolveError as exc:   # output that failed (exit 1), as for stdout; not bad input
            click.echo(_("Error: {message}", message=exc), err=True)
            sys.exit(1)


@command("analyze-talon")
@click.argument("hand12", metavar="HAND12")
@click.option("--seat", type=click.IntRange(0, 2), default=0, show_default=True,
              help=N_("The declarer's seat (0 = first hand, leads trick 1)."))
@samples_option(200, N_("Sampled layouts of the 20 unseen cards. At most {most_samples}."))
@click.option("--contract", "bid", default=None, metavar="CONTRACT",
              help=N_("The contract that won the auction: declare nothing lower."))
@click.option("--candidates", type=click.IntRange(1), default=4, show_default=True,
              help=N_("Discards kept per strain (the most often best on a pilot)."))
@click.option("--top", type=click.IntRange(1), default=15, show_default=True,
              help=N_("Rows of the table."))
@defence_option
@_constraint_options
@_auction_options(N_("The calls of the deal, won by this seat, first hand first, e.g. '6S 7H pass pass': "
                   "the other hands are drawn as the calls show them (docs/ADVICE.md)."))
@_common
@_errors_to_exit2
def analyze_talon(hand12, seat, samples, bid, candidates, top, defence, known, void, auction, tolerance, seed,
                  rules, jobs, as_json, quiet):
    """What to discard and declare with HAND12: the declarer's 10 cards and the talon.

    \b
        prefsolve analyze-talon "AKJ98.AQ.K8.A87" --contract 6S --samples 200 --seed 1
    """
    kn, vo = _constraints(known, void)
    with _bar(samples + min(samples, 40), _("analyzing"), quiet or as_json) as bar:
        t = analysis.analyze_talon(hand12, seat, sampling=analysis.Sampling(samples, seed, known=kn, voids=vo),
                                   rules=rules, defence=defence, bid=bid, candidates=candidates,
                                   auction=auction, tolerance=tolerance, jobs=jobs, progress=bar.update)
    _print_result(t, as_json, t.format(top))


@command("whist")
@click.argument("hand")
@click.option("--seat", type=click.IntRange(0, 2), required=True, help=N_("The defender's seat."))
@click.option("--declarer", type=click.IntRange(0, 2), required=True, help=N_("The declarer's seat."))
@click.option("--contract", required=True, metavar="CONTRACT", help=N_("The declared contract, e.g. 7H."))
@click.option("--partner", default=None, metavar="CALL",
              help=N_("The other defender's call, pass or whist (пас, вист) [default: pass; whist on 6S "
                   "under Stalingrad]."))
@click.option("--talon", "talon_cards", default=None, metavar="CARDS",
              help=N_("The talon the declarer showed (§3.1), e.g. 'SA D7'."))
@samples_option(1000, N_("Sampled layouts (the maximum with --adaptive). At most {most_samples}."))
@click.option("--adaptive", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SE",
              help=N_("Stop once the best call's expected score has a standard error ≤ SE whists."))
@_constraint_options
@_auction_options(N_("The calls of the deal, won by the declarer, first hand first, e.g. '6S 7H pass "
                   "pass': the other hands are drawn as the calls show them (docs/ADVICE.md)."))
@_common
@_errors_to_exit2
def whist(hand, seat, declarer, contract, partner, talon_cards, samples, adaptive, known, void, auction,
          tolerance, seed, rules, jobs, as_json, quiet):
    """Whist or pass with a defender's 10-card HAND against a contract.

    \b
        prefsolve whist "A.KT9.KT97.K7" --seat 1 --declarer 0 --contract 7H --seed 1
    """
    kn, vo = _constraints(known, void)
    talon = None
    if talon_cards is not None:
        if "talon" in kn:
            raise analysis.ConstraintError(_("the talon is given twice (--talon and --known talon:...)"))
        talon = Hand.parse(talon_cards)      # a card list or a dotted hand
        if len(talon) != 2:
            raise analysis.ConstraintError(_("--talon takes both talon cards (the declarer shows the talon, §3.1), "
                                             "got {count}: {cards!r}", count=len(talon), cards=talon_cards))
        own = talon.mask & Hand.parse(hand).mask
        if own:
            card = next(c for c in talon if c.index == (own & -own).bit_length() - 1)
            raise analysis.ConstraintError(_("--talon card {card} is in the player's own hand {hand!r}",
                                             card=str(card), hand=hand))
    with _bar(samples, _("analyzing"), quiet or as_json) as bar:
        w = analysis.analyze_whist(hand, seat, declarer=declarer, contract=contract,
                                   sampling=analysis.Sampling(samples, seed, adaptive, kn, vo), rules=rules,
                                   partner=partner, talon=talon, auction=auction, tolerance=tolerance,
                                   jobs=jobs, progress=bar.update)
    _print_result(w, as_json, w.format())


@command("advise")
@click.argument("hand")
@click.option("--seat", type=click.IntRange(0, 2), required=True, help=N_("The seat to play now."))
@click.option("--contract", required=True, metavar="CONTRACT", help=N_("The contract (7H, misere) or allpass."))
@click.option("--declarer", type=click.IntRange(0, 2), default=None, help=N_("The declarer's seat (not in all-pass)."))
@click.option("--played", default="", metavar="CARDS", help=N_("The cards played so far, in order, e.g. 'SA S7 S8'."))
@click.option("--leader", type=click.IntRange(0, 2), default=0, show_default=True,
              help=N_("The seat that led trick 1."))
@click.option("--talon", "talon_cards", default=None, metavar="CARDS",
              help=N_("The talon cards when shown (a game's talon, the all-pass talon turned)."))
@click.option("--discard", default=None, metavar="CARDS", help=N_("The declarer's discard (known to himself)."))
@_constraint_options
@_auction_options(N_("The calls of the deal, first hand first, e.g. '6S 7H pass pass': the other hands are "
                   "drawn as the calls show them (docs/ADVICE.md)."))
@click.option("--whist", "whist_calls", default=None, metavar="CALLS",
              help=N_("The defenders' calls, first defender first, e.g. 'whist pass'."))
@click.option("--endings", type=click.IntRange(0, 10), default=4, show_default=True, metavar="CARDS",
              help=N_("From the trick at whose start each hand holds this many cards or fewer, search every layout "
                      "exactly by single-dummy play instead of sampling (0: never; docs/ADVICE.md)."))
@click.option("--inference", type=click.FloatRange(0, 1, max_open=True), default=0.5, show_default=True,
              metavar="EPSILON",
              help=N_("Weigh the searched layouts by the cards played, each player taken to play a double-dummy "
                      "best card but for this chance of any card (0: alike; docs/ADVICE.md)."))
@samples_option(100, N_("Sampled layouts (each costs one solve per legal card). At most {most_samples}."))
@functools.partial(_common, jobs=False)
@_errors_to_exit2
def advise(hand, seat, contract, declarer, played, leader, talon_cards, discard, known, void, auction, tolerance,
           whist_calls, endings, inference, samples, seed, rules, as_json, quiet):
    """Which card to play now with HAND (the seat's ten cards as dealt), from what the seat has seen.

    \b
        prefsolve advise "JT97.A7.8.Q98" --seat 1 --contract 6NT --declarer 2 --played "SA" --seed 1
    """
    kn, vo = _constraints(known, void)
    if "talon" in kn:
        raise analysis.ConstraintError(_("give the talon with --talon, not --known talon:..."))
    sampling = analysis.Sampling(samples, seed, known=kn, voids=vo)
    with _bar(samples, _("advising"), quiet or as_json) as bar:
        a = analysis.advise(hand, seat, contract=contract, declarer=declarer,
                            played=Cards.parse(played), leader=leader, talon=talon_cards,
                            discard=None if discard is None else Cards.parse(discard),
                            auction=auction, whist=whist_calls, tolerance=tolerance, rules=rules,
                            sampling=sampling, endings=endings, inference=inference, progress=bar.update)
    _print_result(a, as_json, a.format())


@command("holdings")
@samples_option(200, N_("Deals per holding. At most {most_samples}."))
@click.option("--only", "numbers", type=click.IntRange(1, 46), multiple=True, metavar="N",
              help=N_("Measure only row N of the book's table (RULES.md §8; repeatable)."))
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help=N_("Random seed (repeatable answers)."))
@click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=None,
              help=N_("Threads [default: all usable cores]."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object."))
@click.option("--quiet", "-q", is_flag=True, help=N_("No progress bar."))
@_errors_to_exit2
def holdings(samples, numbers, seed, jobs, as_json, quiet):
    """The classic book's 46 suit holdings (RULES.md §8): its trick estimates next to exact double-dummy play.

    \b
        prefsolve holdings --samples 200 --seed 1
    """
    rows = len(numbers) if numbers else len(analysis.SEED_HOLDINGS)
    with _bar(rows * samples, _("measuring"), quiet or as_json) as bar:
        t = analysis.holdings.holdings(sampling=analysis.Sampling(samples, seed), numbers=numbers or None, jobs=jobs,
                              progress=bar.update)
    if as_json:
        _emit(t.to_dict())
        return
    echo(t.format())


__all__ = ["analyze", "analyze_talon", "whist", "holdings", "plot_analysis"]
