"""Command-line commands ``prefsolve auction`` and ``prefsolve score``.

Two plain click commands (not a group); the main CLI registers them. Library
errors (:class:`~prefsolve.errors.PrefsolveError`) become click usage errors:
exit code 2 and a one-line ``Error: …`` message, never a traceback.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import click

from prefsolve.auction import check_auction
from prefsolve.errors import PrefsolveError
from prefsolve.rules import PROFILES, Rules
from prefsolve.scoring import ScoreSheet, sheet_from_game

_SEAT_NAMES = ("first hand", "second hand", "third hand")


def _rules_option(default: str | None):
    return click.option(
        "--rules", "profile", type=click.Choice(PROFILES, case_sensitive=False), default=default,
        show_default=default is not None, help="Rules profile (see docs/RULES.md).",
    )


@click.command("auction")
@click.argument("calls", nargs=-1, required=True)
@_rules_option("sochi")
@click.option("--allpass", "allpass_count", type=click.IntRange(min=0), default=0, show_default=True,
              help="Consecutive all-pass deals before this one (exit from all-pass, §2.6).")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def auction(calls: tuple[str, ...], profile: str, allpass_count: int, as_json: bool) -> None:
    """Check an auction: CALLS in order from first hand (seat 0).

    Words: pass/пас, 6S 7♥ 8NT 8 БК misere/мизер, раз два три четыре
    бескозырка, семь первых … десять четвёртых, здесь (hold). Separate calls
    with spaces or commas; with spaces, "X здесь" is one hold only when X
    repeats the current bid, else X and a bare здесь. Exit status 0 when
    legal, 1 when illegal, 2 on bad input (unknown word, no calls, an empty
    item between commas).

    Example: prefsolve auction "раз два пас три пас" --rules sochi
    """
    text = " ".join(calls)
    try:
        result = check_auction(text, Rules.profile(profile), allpass_count)
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="CALLS") from None
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    elif not result.legal:
        assert result.call is not None
        who = ("after the end of the auction" if result.seat is None
               else f"by seat {result.seat} ({_SEAT_NAMES[result.seat]})")
        click.echo(f"illegal: call {result.call} ({str(result.calls[result.call])!r}) {who}: {result.reason}")
    elif not result.finished:
        assert result.next_seat is not None
        click.echo(f"legal so far; the auction is not finished, seat {result.next_seat} "
                   f"({_SEAT_NAMES[result.next_seat]}) speaks next")
    elif result.all_pass:
        click.echo("legal: all pass (распасы)")
    else:
        assert result.winner is not None and result.contract is not None
        click.echo(f"legal: seat {result.winner} ({_SEAT_NAMES[result.winner]}) wins; "
                   f"lowest contract to declare: {result.contract}")
    if not result.legal:
        click.get_current_context().exit(1)


@click.command("score")
@click.argument("game", type=click.File("r", encoding="utf-8"))
@_rules_option(None)
@click.option("--json", "as_json", is_flag=True, help="Print the sheet and settlement as JSON.")
def score(game: Any, profile: str | None, as_json: bool) -> None:
    """Score a game file: the sheet (pool, mountain, whists) and the settlement.

    GAME is a JSON file (see docs/RULES.md and examples/); --rules overrides
    the file's profile, the file's "switches" still apply.

    Example: prefsolve score examples/sochi.json --rules leningrad
    """
    try:
        data = json.load(game)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"not a JSON game file: {exc}", param_hint="GAME") from None
    try:
        sheet = sheet_from_game(data, profile)
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="GAME") from None
    if as_json:
        click.echo(json.dumps(sheet.to_dict(), ensure_ascii=False))
    else:
        click.echo(format_sheet(sheet))


def _fmt(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x} (≈{float(x):.2f})"


def format_sheet(sheet: ScoreSheet) -> str:
    """The score sheet and settlement as a readable table."""
    r = sheet.rules
    names = sheet.players
    closure = "table total" if r.pool_closure == "table_total" else "per player, American aid"
    if sheet.finished_after is None:
        state = "game finished" if sheet.finished else "game not finished"
    elif sheet.finished_after == sheet.deals:
        state = "game finished"
    else:
        later = sheet.deals - sheet.finished_after
        state = (f"game finished after deal {sheet.finished_after}; "
                 f"{later} later deal{'s' if later > 1 else ''} scored anyway")
    lines = [f"rules: {r.name}; pool target {r.pool_target} ({closure}); deals: {sheet.deals}; {state}"]
    width = max(8, *(len(n) + 3 for n in names))
    head = f"{'player':<{width}}{'pool':>8}{'mountain':>10}" + "".join(f"{'on ' + n:>{width}}" for n in names)
    lines += [head, "-" * len(head)]
    for i, name in enumerate(names):
        cells = "".join(f"{'-' if i == j else str(sheet.whists[i][j]):>{width}}" for j in range(len(names)))
        lines.append(f"{name:<{width}}{str(sheet.pool[i]):>8}{str(sheet.mountain[i]):>10}{cells}")
    lines.append("(whists: what the row's player has written on each other player)")
    lines.append("settlement in whists:")
    for name, bal in zip(names, sheet.settlement()):
        sign = "+" if bal > 0 else ""
        lines.append(f"  {name:<{width}}{sign}{_fmt(bal)}")
    return "\n".join(lines)
