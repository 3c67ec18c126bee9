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
from ..i18n import N_, _, english, get_language, ngettext
from ..rules import Rules
from ..scoring import ScoreSheet
from ._common import command, echo, emit_json, json_option, rules_option, rules_with_settings, settings_option

_SEAT_NAMES = (N_("first hand"), N_("second hand"), N_("third hand"))


def _seat(seat: int) -> str:
    """"seat 1 (second hand)", in the active language."""
    return _("seat {seat} ({hand})", seat=seat, hand=_(_SEAT_NAMES[seat]))


@command("auction")
@click.argument("calls", nargs=-1, required=True)
@rules_option("sochi")
@settings_option
@click.option("--allpass-count", "allpass_count", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="N", help=N_("Consecutive all-pass deals before this one (exit from all-pass, §2.6)."))
@click.option("--contract", "declared", metavar="CONTRACT",
              help=N_("Also check the contract the winner declares after the talon (§2.3, §3.1)."))
@click.option("--whist", "whist_calls", metavar="CALLS",
              help=N_('Also check the defenders\' calls on the declared contract, in speaking order '
                      '(e.g. "pass half pass"; §3.2-3.5).'))
@click.option("--closed", is_flag=True, help=N_("A lone whister plays closed (default: open)."))
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
        raise click.BadParameter(_("no whist call given"), param_hint="--whist")
    if closed and words is None:
        raise click.UsageError(_("--closed goes with --whist (it is the lone whister's choice)"))
    later = declared_c is not None or words is not None
    if later and result.legal and (not result.finished or result.all_pass):
        what = "--contract" if declared_c is not None else "--whist"
        if result.all_pass:
            raise click.UsageError(_("{option} needs an auction won by a player; this one ended in all-pass",
                                     option=what))
        raise click.UsageError(_("{option} needs an auction won by a player; this one is not finished", option=what))
    out: dict[str, Any] = result.to_dict()
    lines = [_auction_line(result)]
    legal = result.legal
    if legal and later:
        assert result.winner is not None and result.contract is not None
        contract = result.contract
        if declared_c is not None:
            v = check_declaration(result.contract, declared_c, rules)
            out["declaration"] = {"contract": str(declared_c), "legal": v.legal, "reason": english(v.reason)}
            shown = _contract(declared_c)
            lines.append(_("declaration {contract}: legal", contract=shown) if v.legal else
                         _("declaration {contract}: illegal: {reason}", contract=shown, reason=v.reason))
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


def _contract(contract: Contract) -> str:
    """A contract as the active language writes it: ``7H`` (the canonical text), ``7 червей``."""
    lang = get_language()
    return str(contract) if lang == "en" else contract.format(lang)


def _auction_line(result: AuctionResult) -> str:
    if not result.legal:
        assert result.call is not None
        call = str(result.calls[result.call])
        # Counted from 1 in text, as people count calls; the JSON's "call" is an index from 0.
        if result.seat is None:
            return _("illegal: call {number} ({call!r}) after the end of the auction: {reason}",
                     number=result.call + 1, call=call, reason=result.reason)
        return _("illegal: call {number} ({call!r}) by {seat}: {reason}", number=result.call + 1, call=call,
                 seat=_seat(result.seat), reason=result.reason)
    if not result.finished:
        assert result.next_seat is not None
        return _("legal so far; the auction is not finished, {seat} speaks next", seat=_seat(result.next_seat))
    if result.all_pass:
        return _("legal: all pass (all-pass)")
    assert result.winner is not None and result.contract is not None
    return _("legal: {seat} wins; lowest contract to declare: {contract}", seat=_seat(result.winner),
             contract=_contract(result.contract))


_OUTCOMES = {
    "misere": N_("misère: no whist, both opponents catch the declarer"),
    "catch": N_("nobody whists on a 10 here: it is played and both opponents catch the declarer"),
    "pass_out": N_("both passed: not played, counted as made"),
    "half_whist": N_("the half-whist stands"),
    "one_whister": N_("one whister"),
    "two_whisters": N_("two whisters, played closed"),
}
#: How the lone whister plays, as the text output says it (the JSON keeps "open" and "closed").
_PLAYS = {"open": N_("open"), "closed": N_("closed")}


def _whist_outcome(w: WhistResult, declarer: int) -> str:
    """What a legal, finished sequence of whist calls comes to, in words."""
    what = _(_OUTCOMES[w.outcome or ""])
    if w.outcome == "one_whister":
        return _("{outcome} (seat {seat}), played {play}", outcome=what, seat=(declarer + 1 + w.whisters[0]) % 3,
                 play=_(_PLAYS[w.play or "open"]))
    if w.outcome == "half_whist":
        if w.play is None:
            return _("{outcome}: not played", outcome=what)
        return _("{outcome}, played {play}", outcome=what, play=_(_PLAYS[w.play]))
    return what


def _whist_line(w: WhistResult, contract: Contract, words: list[str], declarer: int) -> str:
    head = _("whist calls on {contract} ({calls})", contract=_contract(contract),
             calls=", ".join(words) or _("none"))
    if not w.legal:
        assert w.call is not None
        if w.seat is None:      # a call after the calls were over: nobody's turn
            return _("{head}: illegal: call {number} ({call!r}) after the end of the whist calls: {reason}",
                     head=head, number=w.call + 1, call=words[w.call], reason=w.reason)
        seat = (declarer + 1 + w.seat) % 3
        if w.seat == 0:
            return _("{head}: illegal: call {number} ({call!r}) by seat {seat} (first defender): {reason}",
                     head=head, number=w.call + 1, call=words[w.call], seat=seat, reason=w.reason)
        return _("{head}: illegal: call {number} ({call!r}) by seat {seat} (second defender): {reason}",
                 head=head, number=w.call + 1, call=words[w.call], seat=seat, reason=w.reason)
    if not w.finished:
        return _("{head}: legal so far, not finished", head=head)
    return _("{head}: legal; {outcome}", head=head, outcome=_whist_outcome(w, declarer))


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
        raise click.BadParameter(_("not a JSON game file: {reason}", reason=exc), param_hint="GAME") from None
    except OSError as exc:      # opened, but reading failed (a bad descriptor, an I/O error)
        raise click.BadParameter(_("cannot read {file}: {reason}", file=game.name, reason=exc.strerror or exc),
                                 param_hint="GAME") from None
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


def _sheet_state(sheet: ScoreSheet) -> str:
    """Whether the game is finished, and after which deal."""
    if sheet.finished_after is None:
        return _("game finished") if sheet.finished else _("game not finished")
    if sheet.finished_after == sheet.deals:
        return _("game finished")
    return ngettext("game finished after deal {deal}; {n} later deal scored anyway",
                    "game finished after deal {deal}; {n} later deals scored anyway",
                    sheet.deals - sheet.finished_after, deal=sheet.finished_after)


def format_sheet(sheet: ScoreSheet) -> str:
    """The score sheet and settlement as a readable table."""
    r = sheet.rules
    names = sheet.players
    closure = _("table total") if r.pool_closure == "table_total" else _("per player, American aid")
    lines = [_("rules: {rules}; pool target {target} ({closure}); deals: {deals}; {state}", rules=r.label,
               target=r.pool_target, closure=closure, deals=sheet.deals, state=_sheet_state(sheet))]
    on = [_("on {player}", player=n) for n in names]
    width = max(8, *(len(n) + 3 for n in names), *(len(n) + 1 for n in on))
    player, pool, mountain = _("player"), _("pool"), _("mountain")
    pool_w, mountain_w = max(8, len(pool) + 2), max(10, len(mountain) + 2)
    head = f"{player:<{width}}{pool:>{pool_w}}{mountain:>{mountain_w}}" + "".join(f"{o:>{width}}" for o in on)
    lines += [head, "-" * len(head)]
    for i, name in enumerate(names):
        cells = "".join(f"{'-' if i == j else str(sheet.whists[i][j]):>{width}}" for j in range(len(names)))
        lines.append(f"{name:<{width}}{str(sheet.pool[i]):>{pool_w}}{str(sheet.mountain[i]):>{mountain_w}}{cells}")
    lines.append(_("(whists: what the row's player has written on each other player)"))
    lines.append(_("settlement in whists:"))
    for name, bal in zip(names, sheet.settlement()):
        sign = "+" if bal > 0 else ""
        lines.append(f"  {name:<{width}}{sign}{_fmt(bal)}")
    return "\n".join(lines)


COMMANDS = (auction, score)
