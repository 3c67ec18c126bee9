"""Command-line commands ``prefsolve auction`` and ``prefsolve score``.

Two plain click commands (not a group); the main CLI registers them. Library
errors (:class:`~prefsolve.errors.PrefsolveError`) become click usage errors:
exit code 2 and a one-line ``Error: …`` message, never a traceback.

>>> from click.testing import CliRunner
>>> print(CliRunner().invoke(auction, ["6S", "pass", "pass"]).output, end="")
legal: seat 0 (first hand) wins; lowest contract to declare: 6S
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import click

from ..auction import AuctionResult, WhistResult, check_auction, check_declaration, check_whist_calls, split_whist_text
from ..contract import Contract
from ..errors import PrefsolveError
from ..game import load_session
from ..rules import Rules
from ..scoring import ScoreSheet
from ._common import command, echo, emit_json, json_option, rules_option, rules_with_settings, settings_option

_SEAT_NAMES = ("first hand", "second hand", "third hand")


@command("auction")
@click.argument("calls", nargs=-1, required=True)
@rules_option("sochi")
@settings_option
@click.option("--allpass-count", "allpass_count", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="N", help="Consecutive all-pass deals before this one (exit from all-pass, §2.6).")
@click.option("--contract", "declared", metavar="CONTRACT",
              help="Also check the contract the winner declares after the talon (§2.3, §3.1).")
@click.option("--whist", "whist_calls", metavar="CALLS",
              help='Also check the defenders\' calls on the declared contract, in speaking order '
                   '(e.g. "pass half pass"; §3.2-3.5).')
@click.option("--closed", is_flag=True, help="A lone whister plays closed (default: open).")
@json_option
def auction(calls: tuple[str, ...], profile: str, settings: tuple[str, ...], allpass_count: int,
            declared: str | None, whist_calls: str | None, closed: bool, as_json: bool) -> None:
    """Check an auction: CALLS in order from first hand (seat 0).

    Words: pass/пас, 6S 7♥ 8NT 8 БК misere/мизер, раз два три четыре
    бескозырка, семь первых … десять четвёртых, здесь (hold). Separate calls
    with spaces or commas; with spaces, "X здесь" is one hold only when X
    repeats the current bid, else X and a bare здесь. With --contract and
    --whist the rest of the bidding is checked too: the declared contract
    against the winning bid, then the whist calls on it (on the winning bid
    without --contract). Exit status 0 when everything is legal, 1 when
    something is illegal, 2 on bad input (unknown word, no calls, an empty
    item between commas, --contract after an unfinished or all-pass auction).

    \b
        prefsolve auction "раз два пас три пас" --contract 7D --whist "вист пас"
        prefsolve auction "6S pass pass" --whist "whist whist" --set stalingrad=true
    """
    rules = rules_with_settings(profile, settings)
    text = " ".join(calls)
    try:
        result = check_auction(text, rules, allpass_count)
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="CALLS") from None
    try:
        declared_c = None if declared is None else Contract.parse(declared)
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="--contract") from None
    words = None if whist_calls is None else _whist_words(whist_calls)
    if words == []:
        raise click.BadParameter("no whist call given", param_hint="--whist")
    if closed and words is None:
        raise click.UsageError("--closed goes with --whist (it is the lone whister's choice)")
    later = declared_c is not None or words is not None
    if later and result.legal and (not result.finished or result.all_pass):
        what = "--contract" if declared_c is not None else "--whist"
        state = "ended in all-pass" if result.all_pass else "is not finished"
        raise click.UsageError(f"{what} needs an auction won by a player; this one {state}")
    out: dict[str, Any] = result.to_dict()
    lines = [_auction_line(result)]
    legal = result.legal
    if legal and later:
        assert result.winner is not None and result.contract is not None
        contract = result.contract
        if declared_c is not None:
            v = check_declaration(result.contract, declared_c, rules)
            out["declaration"] = {"contract": str(declared_c), "legal": v.legal, "reason": v.reason}
            lines.append(f"declaration {declared_c}: " + ("legal" if v.legal else f"illegal: {v.reason}"))
            legal = v.legal
            contract = declared_c
        if legal and words is not None:
            try:
                w = check_whist_calls(contract, words, rules, open=not closed)
            except PrefsolveError as exc:
                raise click.BadParameter(str(exc), param_hint="--whist") from None
            out["whist"] = _whist_json(w, result.winner)
            lines.append(_whist_line(w, contract, words, result.winner))
            legal = w.legal
    if as_json:
        emit_json(out)
    else:
        echo("\n".join(lines))
    if not legal:
        click.get_current_context().exit(1)


def _whist_words(text: str) -> list[str]:
    """The whist calls as typed (for the messages), split as the API splits them."""
    try:
        return split_whist_text(text)
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="--whist") from None


def _whist_json(w: WhistResult, declarer: int) -> dict[str, Any]:
    """:meth:`WhistResult.to_dict` with table seats instead of defender numbers."""
    seat = lambda k: None if k is None else (declarer + 1 + k) % 3  # noqa: E731
    out = w.to_dict()
    if "whisters" in out:
        out["whisters"] = [seat(k) for k in w.whisters]
        out["half_whister"] = seat(w.half_whister)
    else:
        out["seat"] = seat(w.seat)
    return out


def _auction_line(result: AuctionResult) -> str:
    if not result.legal:
        assert result.call is not None
        who = ("after the end of the auction" if result.seat is None
               else f"by seat {result.seat} ({_SEAT_NAMES[result.seat]})")
        # Counted from 1 in text, as people count calls; the JSON's "call" is an index from 0.
        return f"illegal: call {result.call + 1} ({str(result.calls[result.call])!r}) {who}: {result.reason}"
    if not result.finished:
        assert result.next_seat is not None
        return (f"legal so far; the auction is not finished, seat {result.next_seat} "
                f"({_SEAT_NAMES[result.next_seat]}) speaks next")
    if result.all_pass:
        return "legal: all pass (распасы)"
    assert result.winner is not None and result.contract is not None
    return (f"legal: seat {result.winner} ({_SEAT_NAMES[result.winner]}) wins; "
            f"lowest contract to declare: {result.contract}")


_OUTCOMES = {
    "misere": "misère: no whist, both opponents catch the declarer",
    "catch": "nobody whists on a 10 here: it is played and both opponents catch the declarer",
    "pass_out": "both passed: not played, counted as made",
    "half_whist": "the half-whist stands",
    "one_whister": "one whister",
    "two_whisters": "two whisters, played closed",
}


def _whist_line(w: WhistResult, contract: Contract, words: list[str], declarer: int) -> str:
    head = f"whist calls on {contract} ({', '.join(words) or 'none'}): "
    if not w.legal:
        assert w.call is not None
        if w.seat is None:      # a call after the calls were over: nobody's turn
            who = "after the end of the whist calls"
        else:
            who = f"by seat {(declarer + 1 + w.seat) % 3} ({'first' if w.seat == 0 else 'second'} defender)"
        return f"{head}illegal: call {w.call + 1} ({words[w.call]!r}) {who}: {w.reason}"
    if not w.finished:
        return head + "legal so far, not finished"
    what = _OUTCOMES[w.outcome or ""]
    if w.outcome == "one_whister":
        seat = (declarer + 1 + w.whisters[0]) % 3
        what += f" (seat {seat}), played {w.play}"
    elif w.outcome == "half_whist":
        what += ": not played" if w.play is None else f", played {w.play}"
    return f"{head}legal; {what}"


@command("score")
@click.argument("game", type=click.File("r", encoding="utf-8-sig"))   # a BOM from Windows editors is dropped
@rules_option(None)
@settings_option
@json_option
def score(game: Any, profile: str | None, settings: tuple[str, ...], as_json: bool) -> None:
    """Score a game file: the sheet (pool, mountain, whists) and the settlement.

    GAME is a JSON file (see docs/RULES.md §9 and examples/), whose deals may
    give their cards and every move (docs/GAME_FORMAT.md: each move is checked
    by the rules), or JSON lines of one session; --rules overrides the file's
    profile, the file's "switches" still apply, and --set overrides them.

    \b
        prefsolve score examples/sochi.json --rules leningrad
    """
    try:
        text = game.read()
    except UnicodeDecodeError as exc:
        raise click.BadParameter(f"not a JSON game file: {exc}", param_hint="GAME") from None
    except OSError as exc:      # opened, but reading failed (a bad descriptor, an I/O error)
        raise click.BadParameter(f"cannot read {game.name}: {exc.strerror or exc}", param_hint="GAME") from None
    try:
        Rules.profile("sochi").with_settings(settings)     # names, types: blamed on --set, not the file
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from None
    try:
        sheet = load_session(text, profile, settings).sheet()
    except PrefsolveError as exc:
        raise click.BadParameter(str(exc), param_hint="GAME") from None
    if as_json:
        emit_json(sheet.to_dict())
    else:
        echo(format_sheet(sheet))


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
    lines = [f"rules: {r.label}; pool target {r.pool_target} ({closure}); deals: {sheet.deals}; {state}"]
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


COMMANDS = (auction, score)
