"""Scoring: one deal's entries, the score sheet (пулька) and the settlement.

Every amount is an exact :class:`fractions.Fraction`. A deal's outcome is a
:class:`GameDeal` (a contract or misère) or an :class:`AllPassDeal`
(raspasy); :func:`score_deal` turns it into a :class:`DealScore` of pool,
mountain and whist entries (RULES.md §5). A
:class:`ScoreSheet` accumulates deals, closes pools with American aid
(RULES.md §6.2) and settles (RULES.md §6.3)::

    >>> from prefsolve.rules import Rules
    >>> sheet = ScoreSheet.new(["A", "B", "C"], Rules.profile("sochi"))
    >>> sheet = sheet.add(GameDeal(0, Contract.parse("7H"), ("whist", "pass"), (6, 2, 2)))
    >>> sheet.mountain[0], sheet.whists[1][0], sheet.whists[2][0]
    (Fraction(4, 1), Fraction(20, 1), Fraction(4, 1))
    >>> [str(x) for x in sheet.settlement()], sum(sheet.settlement())
    (['-152/3', '100/3', '52/3'], Fraction(0, 1))

Seats are table positions 0..N-1 in clockwise order (N = 3 or 4 players).
``whists[i][j]`` is what player i has written on player j (j owes i).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from prefsolve.auction import (
    HALF,
    OPEN,
    PASS,
    WhistResult,
    check_whist_calls,
    parse_whist_call,
    parse_whist_calls,
    parse_whist_play,
    seniority,
)
from prefsolve.cards import Card
from prefsolve.checks import whole
from prefsolve.contract import Contract
from prefsolve.errors import AuctionError, CardError, ContractError, PrefsolveError, RulesError, ScoringError
from prefsolve.i18n import N_, _, message_of, ngettext, shown
from prefsolve.rules import Rules
from prefsolve.strains import SUITS

ZERO = Fraction(0)
TRICKS = 10


# -- deal outcomes ------------------------------------------------------------------
@dataclass(frozen=True)
class GameDeal:
    """A contract (or misère) deal.

    ``whist_calls`` are the defenders' calls in speaking order (first
    defender = declarer's left; see :func:`prefsolve.auction.check_whist_calls`),
    empty for misère. ``tricks`` gives every table seat's tricks (the
    sitting-out dealer has 0) and may be None when the hand was not played
    (both passed, or half-whist). ``dealer`` is required with 4 players;
    ``talon`` (two cards such as ``"AS"``, ``"K♠"``) feeds the dealer's
    talon whists of RULES.md §5.9. ``conceded`` is a declarer who gave up after
    seeing the talon: «без трёх», three undertricks into the mountain and
    nothing else (RULES.md §3.1); such a deal has no tricks.
    """

    declarer: int
    contract: Contract
    whist_calls: tuple[str, ...] = ()
    tricks: tuple[int, ...] | None = None
    open: bool = True
    dealer: int | None = None
    talon: tuple[str, ...] | None = None
    conceded: bool = False


@dataclass(frozen=True)
class AllPassDeal:
    """An all-pass deal (raspasy): every table seat's tricks.

    In a 4-player game the sitting-out dealer may be charged with up to two
    tricks won by the talon cards (RULES.md §5.8).
    """

    tricks: tuple[int, ...]
    dealer: int | None = None


DealOutcome = GameDeal | AllPassDeal  # one deal of a score sheet (not a card layout)


@dataclass(frozen=True)
class DealScore:
    """Entries of one deal: pool and mountain per seat, whists[i][j] written by i on j."""

    pool: tuple[Fraction, ...]
    mountain: tuple[Fraction, ...]
    whists: tuple[tuple[Fraction, ...], ...]

    @classmethod
    def empty(cls, n: int) -> DealScore:
        return cls((ZERO,) * n, (ZERO,) * n, ((ZERO,) * n,) * n)


class _Entries:
    """Mutable accumulator used while scoring one deal."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.pool = [ZERO] * n
        self.mountain = [ZERO] * n
        self.whists = [[ZERO] * n for _ in range(n)]

    def write(self, writer: int, target: int, amount: Fraction | int) -> None:
        self.whists[writer][target] += Fraction(amount)

    def freeze(self) -> DealScore:
        return DealScore(tuple(self.pool), tuple(self.mountain), tuple(tuple(r) for r in self.whists))


# -- helpers ------------------------------------------------------------------------
def _active(n: int, dealer: int | None) -> list[int]:
    """Seats of the three active players, clockwise from first hand (RULES.md §1.4)."""
    if n == 3:
        return [0, 1, 2]
    if n != 4:
        raise ScoringError(_("a game has 3 or 4 players, not {count}", count=n))
    if dealer is None or not 0 <= dealer < 4:
        raise ScoringError(_("a 4-player deal needs the dealer's seat (0..3), got {value}", value=repr(dealer)))
    return [(dealer + k) % 4 for k in (1, 2, 3)]


def _check_tricks(tricks: Sequence[int], n: int) -> tuple[int, ...]:
    if isinstance(tricks, (str, bytes)) or not hasattr(tricks, "__len__"):
        raise ScoringError(_("tricks must be a sequence of {count} numbers, got {value}", count=n, value=repr(tricks)))
    if len(tricks) != n:
        raise ScoringError(_("expected tricks for {count} players, got {value}", count=n, value=repr(list(tricks))))
    for t in tricks:
        if type(t) is not int or not 0 <= t <= TRICKS:
            raise ScoringError(_("a player's tricks must be 0..10, got {value}", value=repr(t)))
    if sum(tricks) != TRICKS:
        raise ScoringError(_("tricks must sum to 10, got {value} (sum {sum})", value=repr(list(tricks)),
                               sum=sum(tricks)))
    return tuple(tricks)


def _talon_card(text: str) -> tuple[int, str]:
    """(rank 7..14, suit letter) of a talon card written as anywhere else in
    prefsolve (``SA``, ``AS``, ``♠A``, ``H10``, ``XH``, ``Тп``): read by :meth:`Card.parse`."""
    try:
        card = Card.parse(str(text))
    except CardError as exc:
        said = exc.args[0] if exc.args else ""
        why = getattr(said, "fields", {}).get("why", exc)   # what Card.parse found, without "cannot read card"
        raise ScoringError(_("unknown talon card {text}: {reason}", text=repr(text), reason=why)) from None
    return card.rank + 7, SUITS[card.suit]


def talon_tricks(talon: Sequence[str]) -> int:
    """Tricks the talon brought the declarer, RULES.md §5.9 (highest matching row).

    Two aces 3; ace + king of one suit 2; one ace or a marriage K+Q 1.

    >>> talon_tricks(["AS", "AH"]), talon_tricks(["A♠", "K♠"]), talon_tricks(["KH", "QH"]), talon_tricks(["7S", "8S"])
    (3, 2, 1, 0)
    """
    (r1, s1), (r2, s2) = (_talon_card(c) for c in _two(talon))
    ranks = sorted((r1, r2))
    if ranks == [14, 14]:
        return 3
    if ranks == [13, 14] and s1 == s2:
        return 2
    if 14 in ranks or (ranks == [12, 13] and s1 == s2):
        return 1
    return 0


def talon_misere_whists(talon: Sequence[str]) -> int:
    """Whists (before the Leningrad ×2) for the sevens of the talon on a misère (RULES.md §5.9).

    >>> talon_misere_whists(["7S", "7H"]), talon_misere_whists(["7S", "8S"]), talon_misere_whists(["7S", "8H"])
    (20, 20, 10)
    """
    (r1, s1), (r2, s2) = (_talon_card(c) for c in _two(talon))
    if sorted((r1, r2)) == [7, 8] and s1 == s2:
        return 20
    return 10 * [r1, r2].count(7)


def _two(talon: Sequence[str]) -> Sequence[str]:
    if isinstance(talon, str) or len(talon) != 2:
        raise ScoringError(_("the talon has exactly 2 cards, got {value}", value=repr(talon)))
    if _talon_card(talon[0]) == _talon_card(talon[1]):
        raise ScoringError(_("the talon holds the same card twice: {value}", value=repr(list(talon))))
    return talon


# -- scoring one deal -----------------------------------------------------------------
def score_deal(deal: DealOutcome, rules: Rules | str | None = None, players: int = 3,
               allpass_count: int = 0) -> DealScore:
    """Entries of one deal (RULES.md §5).

    ``allpass_count`` is the number of all-pass deals right before this one
    (the raspasy progression stage is ``allpass_count + 1``).

    >>> from prefsolve.rules import Rules
    >>> s = score_deal(AllPassDeal((0, 4, 6)), Rules.profile("sochi"))
    >>> [int(x) for x in s.pool], [int(x) for x in s.mountain]
    ([1, 0, 0], [0, 4, 6])
    """
    rules = Rules.of(rules)
    if whole(players) not in (3, 4):
        raise ScoringError(_("a game has 3 or 4 players, got {value}", value=repr(players)))
    n_before = whole(allpass_count)
    if n_before is None or n_before < 0:
        raise ScoringError(_("allpass_count (the all-pass deals right before this one) must be a whole number >= 0, "
                             "got {value}", value=repr(allpass_count)))
    if isinstance(deal, AllPassDeal):
        return _score_all_pass(deal, rules, int(players), n_before)
    if isinstance(deal, GameDeal):
        return _score_game(deal, rules, int(players))
    raise ScoringError(_("not a deal outcome: {value}", value=repr(deal)))


def _parsed(deal: GameDeal) -> GameDeal:
    """The deal with its contract, whist calls and whist play in canonical
    form: a contract may be text ("7H", as everywhere else in prefsolve), the
    calls one text, ``open`` a word («закрыто»)."""
    c = deal.contract
    if isinstance(c, str):
        try:
            c = Contract.parse(c)
        except ContractError as exc:
            raise ScoringError(message_of(exc)) from None
    elif not isinstance(c, Contract):
        raise ScoringError(_("a deal's contract must be a Contract or text such as '7H', got {value}", value=repr(c)))
    try:
        calls = parse_whist_calls(deal.whist_calls)
        open_play = parse_whist_play(deal.open) == OPEN
    except AuctionError as exc:
        raise ScoringError(message_of(exc)) from None
    return replace(deal, contract=c, whist_calls=calls, open=open_play)


def _score_game(deal: GameDeal, rules: Rules, n: int) -> DealScore:
    active = _active(n, deal.dealer)
    d = deal.declarer
    if d not in active:
        raise ScoringError(_("declarer seat {seat} is not an active player of this deal (active: {active})",
                               seat=repr(d), active=active))
    deal = _parsed(deal)
    c = deal.contract
    try:
        seniority(c, rules)
    except ContractError as exc:
        raise ScoringError(message_of(exc)) from None
    k = active.index(d)
    f1, f2 = active[(k + 1) % 3], active[(k + 2) % 3]
    sitting_out = [s for s in range(n) if s not in active]
    e = _Entries(n)
    if deal.conceded:
        return _score_concession(e, deal, c, rules)
    verdict = check_whist_calls(c, deal.whist_calls, rules, deal.open)
    if not verdict.legal:
        raise ScoringError(_illegal_call(verdict, deal.whist_calls))
    if not verdict.finished:
        raise ScoringError(_("the whist calls {calls} on {contract} are incomplete",
                               calls=repr(list(deal.whist_calls)), contract=shown(c)))
    played = is_played(verdict.outcome, rules)
    if played and deal.tricks is None:
        raise ScoringError(_("{contract} was played ({outcome}): the tricks of each player are needed",
                             contract=shown(c), outcome=_(OUTCOME_WORDS[str(verdict.outcome)])))
    tricks = None
    if deal.tricks is not None:  # checked even when unplayed: bad input is never silently ignored
        tricks = _check_tricks(deal.tricks, n)
        if any(tricks[s] for s in sitting_out):
            raise ScoringError(_("the sitting-out dealer cannot take tricks in a game, got {value}",
                                   value=repr(list(tricks))))
        if not played and c.level is not None and tricks[d] < c.level:
            # An unplayed deal (both passed, or a half-whist that stood) counts as made
            # (RULES.md §5.3); tricks saying otherwise contradict the calls: rejected.
            fields = {"contract": shown(c), "tricks": tricks[d], "level": c.level}
            if verdict.outcome == "pass_out":
                raise ScoringError(_("{contract} was not played (both defenders passed) and counts as made, but the "
                                     "tricks give the declarer only {tricks} of {level}; correct or omit \"tricks\"",
                                     **fields))
            raise ScoringError(_("{contract} was not played (the half-whist stood) and counts as made, but the "
                                 "tricks give the declarer only {tricks} of {level}; correct or omit \"tricks\"",
                                 **fields))
    wv = c.value * rules.whist_price_multiplier  # whist price per trick (RULES.md §5.2)
    if c.is_misere:
        assert tricks is not None
        _score_misere(e, d, (f1, f2), sitting_out, tricks[d], rules)
    else:
        _score_contract(e, d, f1, f2, sitting_out, verdict.outcome, verdict.whisters, tricks, c, wv, rules)
    if rules.dealer_talon_whists and n == 4 and deal.talon is not None and not c.without_talon:
        # The sitting-out dealer writes on the declarer for what the talon brought
        # (RULES.md §5.9). A game or misère without talon never takes it: the talon
        # stays closed, so it brought him nothing.
        dealer = sitting_out[0]
        if c.is_misere:
            amount = (talon_misere_whists(deal.talon) * rules.whist_price_multiplier
                      if rules.dealer_talon_whists_misere else 0)
        else:
            amount = wv * talon_tricks(deal.talon)
        e.write(dealer, d, amount)
    return e.freeze()


def _illegal_call(verdict: WhistResult, calls: Sequence[str]) -> str:
    """An illegal whist call, counted from 1 as the auction's text counts calls."""
    k = verdict.call or 0
    return _("illegal whist call {number} ({call} in {calls}): {reason}", number=k + 1, call=repr(calls[k]),
             calls=repr(list(calls)), reason=verdict.reason)


#: The whist outcomes that are played, in words (an error names the one that needs the tricks).
OUTCOME_WORDS = {"misere": N_("misere"), "catch": N_("catch"), "one_whister": N_("one whister"),
                 "two_whisters": N_("two whisters"), "half_whist": N_("half whist")}


def is_played(outcome: str | None, rules: Rules | str | None = None) -> bool:
    """Whether a contract with this whist outcome is played out (RULES.md §3.2): not
    when both defenders pass, nor after a half-whist unless ``half_whist="played"``."""
    if outcome == "half_whist":
        return Rules.of(rules).half_whist == "played"
    return outcome in ("misere", "catch", "one_whister", "two_whisters")


def _score_concession(e: _Entries, deal: GameDeal, c: Contract, rules: Rules) -> DealScore:
    """«Без трёх» (RULES.md §3.1): the declarer concedes three undertricks, mountain
    only (value × mountain multiplier × 3), no whists."""
    if c.is_misere:
        raise ScoringError(_("misère cannot be conceded «без трёх» (§3.1 concedes a game's undertricks)"))
    if c.without_talon:
        raise ScoringError(_("{contract} cannot be conceded «без трёх»: the concession follows seeing the talon "
                             "(§3.1), which a game without talon never takes", contract=shown(c)))
    if deal.tricks is not None:
        raise ScoringError(_("a conceded {contract} is not played; omit \"tricks\"", contract=shown(c)))
    if deal.whist_calls:
        verdict = check_whist_calls(c, deal.whist_calls, rules, deal.open)
        if not verdict.legal:
            raise ScoringError(_illegal_call(verdict, deal.whist_calls))
    e.mountain[deal.declarer] += c.value * rules.mountain_multiplier * 3
    return e.freeze()


def _score_misere(e: _Entries, d: int, defenders: tuple[int, int], sitting_out: list[int],
                  tricks: int, rules: Rules) -> None:
    if tricks == 0:
        e.pool[d] += Contract.misere().value
        return
    per = rules.misere_fail_per_trick * tricks  # 10 (20 in Leningrad) per trick, RULES.md §5.7
    if rules.misere_fail in ("mountain", "mountain_and_consolation"):
        e.mountain[d] += per
    if rules.misere_fail == "mountain_and_consolation":
        # Every other player writes the same again on the declarer (RULES.md §5.7).
        for s in list(defenders) + (sitting_out if rules.consolation == "all" else []):
            e.write(s, d, per)
    elif rules.misere_fail == "whists":
        # No mountain: each defender writes the penalty directly (RULES.md §5.7).
        for s in defenders:
            e.write(s, d, per)


def _score_contract(e: _Entries, d: int, f1: int, f2: int, sitting_out: list[int], outcome: str | None,
                    whisters: tuple[int, ...], tricks: tuple[int, ...] | None, c: Contract, wv: int,
                    rules: Rules) -> None:
    v = c.value
    need = c.whist_obligation(rules)
    if outcome == "pass_out":  # both passed → counted as made (RULES.md §5.3)
        e.pool[d] += v
        return
    if outcome == "half_whist" and rules.half_whist != "played":  # no play; half the obligation, RULES.md §5.3
        e.pool[d] += v
        e.write(f2, d, Fraction(wv * need, 2))
        return
    assert tricks is not None and c.level is not None
    td = tricks[d]
    defence = TRICKS - td
    under = max(0, c.level - td)
    whister_seats = [(f1, f2)[i] for i in whisters]
    if under == 0:
        e.pool[d] += v
    else:
        if rules.remise_mountain:
            e.mountain[d] += v * rules.mountain_multiplier * under
        # Consolation (RULES.md §5.5): by each defender, also by the sitting-out
        # dealer, or by nobody; at the whist price (Leningrad's "value of the game"
        # read as the doubled price), the plain value v, or a fixed 10 (Rostov).
        cons = {"whist_price": wv, "value": v, "fixed10": 10}[rules.consolation_price] * under
        consolers = [] if rules.consolation == "none" else [f1, f2]
        if rules.consolation == "all":
            consolers += sitting_out
        for s in consolers:
            e.write(s, d, cons)
    price = Fraction(wv) if rules.whist_responsibility == "full" else Fraction(wv, 2)
    if outcome == "half_whist":
        # half_whist="played" (RULES.md §5.3): the hand is played; the half-whister writes
        # the defence's tricks up to his quota (half the obligation), answers for the rest.
        quota = need // 2
        e.write(f2, d, wv * min(defence, quota))
        e.mountain[f2] += price * max(0, quota - defence)
        return
    # Trick whists (RULES.md §5.4): price wv per defender trick.
    if len(whister_seats) == 1:
        w = whister_seats[0]
        p = f2 if w == f1 else f1
        total = Fraction(wv * defence)
        if rules.lone_whister == "gentleman" and under > 0:
            # Gentleman whist (RULES.md §5.4): on remise the trick whists are split equally.
            e.write(w, d, total / 2)
            e.write(p, d, total / 2)
        else:  # greedy whist (RULES.md §5.4): the whister writes for all defender tricks
            e.write(w, d, total)
    else:
        for s in whister_seats:
            e.write(s, d, wv * tricks[s])
    # Defence shortfall (RULES.md §3.6, §5.6): responsible = full price, half-responsible = half.
    if defence >= need:
        return
    if len(whister_seats) == 1:
        e.mountain[whister_seats[0]] += price * (need - defence)
    elif c.level in (6, 7):
        quota = need // 2
        for s in whister_seats:
            if tricks[s] < quota:
                # Individual shortfall or one fixed unit (RULES.md §3.6).
                units = quota - tricks[s] if rules.two_whister_shortfall == "individual" else 1
                e.mountain[s] += price * units
    elif rules.two_whister_high == "each":
        # two_whister_high="each" (RULES.md §3.6): each whister answers for it.
        for s in whister_seats:
            e.mountain[s] += price * (need - defence)
    else:
        # On 8/9/10 the second whister (declarer's right) answers for the trick (RULES.md §3.6).
        e.mountain[f2] += price * (need - defence)


def _score_all_pass(deal: AllPassDeal, rules: Rules, n: int, allpass_count: int) -> DealScore:
    active = _active(n, deal.dealer)
    tricks = _check_tricks(deal.tricks, n)
    out = [s for s in range(n) if s not in active]
    talon_taken = sum(tricks[s] for s in out)
    if talon_taken and (rules.raspasy_talon == "ignored" or talon_taken > 2):
        raise ScoringError(ngettext("the sitting-out dealer's talon cannot take {n} trick(s) on all-pass under "
                                    "raspasy_talon={mode}", "the sitting-out dealer's talon cannot take {n} trick(s) "
                                    "on all-pass under raspasy_talon={mode}", talon_taken,
                                    mode=repr(rules.raspasy_talon)))
    stage = allpass_count + 1
    price = rules.raspasy_price(stage)
    # The "stage" bonus stops growing at the last progression step, as the price does.
    bonus = {"trick_price": price, "stage": rules.raspasy_stage(stage), "one": 1}[rules.raspasy_zero_bonus]
    e = _Entries(n)
    t = {s: tricks[s] for s in active}
    low = min(t.values())
    for s in active:
        if t[s] == 0:  # 0 tricks on raspasy earns pool (RULES.md §5.8)
            e.pool[s] += bonus
    if rules.raspasy_scoring == "mountain":
        base = low if rules.raspasy_amnesty else 0  # amnesty (RULES.md §5.8)
        for s in active:
            e.mountain[s] += price * (t[s] - base)
    else:
        # Rostov (RULES.md §5.8): the player(s) with fewest tricks write 5 per trick on the others.
        per = rules.rostov_raspasy_whists * price
        winners = [s for s in active if t[s] == low]
        for s in active:
            if s in winners:
                continue
            for w in winners:
                if len(winners) == 1:
                    e.write(w, s, per * t[s])
                elif rules.rostov_raspasy_tie == "floor_half":  # each ⌊t/2⌋·5
                    e.write(w, s, per * (t[s] // 2))
                else:  # the payment is split between the tied winners
                    e.write(w, s, Fraction(per * t[s], len(winners)))
    for s in out:  # talon tricks on 4-player raspasy are charged to the dealer (RULES.md §5.8)
        e.mountain[s] += price * tricks[s]
    return e.freeze()


# -- settlement ---------------------------------------------------------------------
def settle(pool: Sequence[Fraction | int], mountain: Sequence[Fraction | int],
           whists: Sequence[Sequence[Fraction | int]], rules: Rules | str | None = None) -> tuple[Fraction, ...]:
    """Each player's balance in whists (RULES.md §6.3), exact; the balances sum to 0.

    ``balance_i = Σ_j (W[i][j] − W[j][i]) + k·g·(mean G − G_i) + k·p·(P_i − mean P)``
    with g = ``mountain_point_whists``, p = ``pool_point_whists`` and k = 1
    when a mountain point is shared among all N players, or N/(N−1) when
    the other N−1 players each get the full share
    (``settlement_divisor="N-1"``). Amnesty (subtracting the smallest
    mountain) does not change the result.

    >>> [str(b) for b in settle([0, 0, 0], [42, 96, 132], [[0] * 3] * 3)]
    ['480', '-60', '-420']
    """
    rules = Rules.of(rules)
    try:
        pool = [Fraction(x) for x in pool]
        mountain = [Fraction(x) for x in mountain]
        whists = [[Fraction(x) for x in row] for row in whists]
    except (TypeError, ValueError):
        raise ScoringError(_("pool, mountain and whists must hold numbers (whole, Fraction or decimal text)")
                           ) from None
    n = len(pool)
    if n not in (3, 4):
        raise ScoringError(_("a game has 3 or 4 players, got {count} pool entries", count=n))
    if len(mountain) != n or len(whists) != n or any(len(r) != n for r in whists):
        raise ScoringError(_("pool, mountain and whists must have one entry per player"))
    k = Fraction(n, n - 1) if rules.settlement_divisor == "N-1" else Fraction(1)
    mean_g = Fraction(sum(Fraction(x) for x in mountain), n)
    mean_p = Fraction(sum(Fraction(x) for x in pool), n)
    out = []
    for i in range(n):
        w = sum((Fraction(whists[i][j]) - Fraction(whists[j][i]) for j in range(n) if j != i), ZERO)
        out.append(w + k * rules.mountain_point_whists * (mean_g - Fraction(mountain[i]))
                   + k * rules.pool_point_whists * (Fraction(pool[i]) - mean_p))
    return tuple(out)


# -- the score sheet ----------------------------------------------------------------
@dataclass(frozen=True)
class ScoreSheet:
    """An immutable score sheet (пулька) over many deals.

    :meth:`add` returns a new sheet with one more deal scored, the all-pass
    streak updated (reset by any other deal, RULES.md §5.8) and, with
    ``pool_closure="american_aid"``, pools above the target closed by
    American aid (RULES.md §6.2).
    """

    players: tuple[str, ...]
    rules: Rules
    pool: tuple[Fraction, ...]
    mountain: tuple[Fraction, ...]
    whists: tuple[tuple[Fraction, ...], ...]
    allpass_streak: int = 0
    deals: int = 0
    scores: tuple[DealScore, ...] = field(default=(), repr=False)
    #: The number of deals after which the game first finished (None while it has not).
    finished_after: int | None = None
    #: Who must deal next under ``dealer_rotation`` (None until a deal names its dealer).
    next_dealer: int | None = None

    @classmethod
    def new(cls, players: Sequence[str], rules: Rules | str | None = None) -> ScoreSheet:
        """An empty sheet for 3 or 4 named players (seats in the order given)."""
        if isinstance(players, str) and len(players) not in (3, 4):
            players = players.split()     # "Ann Bob Cid"; "ABC" is three one-letter names
        try:
            names = tuple(str(p) for p in players)
        except TypeError:
            raise ScoringError(_("players must be 3 or 4 names, got {value}", value=repr(players))) from None
        if len(names) not in (3, 4):
            raise ScoringError(_("a game has 3 or 4 players, got {count}: {names}", count=len(names),
                                 names=repr(list(names))))
        if len(set(names)) != len(names):
            raise ScoringError(_("player names must be distinct, got {names}", names=repr(list(names))))
        n = len(names)
        rules = Rules.of(rules).replace(players=n)
        empty = DealScore.empty(n)
        return cls(names, rules, empty.pool, empty.mountain, empty.whists)

    @property
    def n(self) -> int:
        return len(self.players)

    def add(self, deal: DealOutcome) -> ScoreSheet:
        """Score one deal and return the new sheet.

        A deal added after the game finished is still scored (rescoring a file
        under other rules may close the pools earlier than the table did), but
        :attr:`finished_after` keeps the deal that ended the game, so the
        score sheet can say that later deals were played past its end.
        """
        if not isinstance(deal, (GameDeal, AllPassDeal)):
            raise ScoringError(_("not a deal outcome (GameDeal or AllPassDeal): {value}", value=repr(deal)))
        if isinstance(deal, GameDeal):
            deal = _parsed(deal)    # the dealer rotation reads the contract too
        self._check_dealer(deal.dealer)
        s = score_deal(deal, self.rules, self.n, self.allpass_streak)
        pool = [a + b for a, b in zip(self.pool, s.pool)]
        mountain = [a + b for a, b in zip(self.mountain, s.mountain)]
        whists = [[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(self.whists, s.whists)]
        if self.rules.pool_closure == "american_aid":
            _american_aid(pool, mountain, whists, self.rules)
        streak = self.allpass_streak + 1 if isinstance(deal, AllPassDeal) else 0
        sheet = replace(self, pool=tuple(pool), mountain=tuple(mountain),
                        whists=tuple(tuple(r) for r in whists), allpass_streak=streak,
                        deals=self.deals + 1, scores=self.scores + (s,))
        if sheet.finished_after is None and sheet.finished:
            sheet = replace(sheet, finished_after=sheet.deals)
        # A deal that does not name its dealer (3 players) was dealt by the one whose
        # turn it was; the rotation goes on from there.
        dealer = deal.dealer if deal.dealer is not None else self.next_dealer
        if dealer is not None:
            sheet = replace(sheet, next_dealer=dealer if self._deal_stays(deal) else (dealer + 1) % self.n)
        return sheet

    def _deal_stays(self, deal: DealOutcome) -> bool:
        """The next player deals «кроме распасов и пойманного мизера»; after
        ``allpass_dealer_limit`` all-passes in a row the deal moves on all the same
        (RULES.md §1.5). Called after this deal counted in the streak."""
        if self.rules.dealer_rotation != "stays_after_allpass_and_caught_misere":
            return False
        if isinstance(deal, AllPassDeal):
            limit = self.rules.allpass_dealer_limit
            # self is the sheet before the deal: its streak + 1 counts this one.
            return limit == 0 or (self.allpass_streak + 1) % limit != 0
        return deal.contract.is_misere and deal.tricks is not None and deal.tricks[deal.declarer] > 0

    def _check_dealer(self, dealer: int | None) -> None:
        if dealer is None:
            return
        try:    # a whole number, numpy's too
            seat = None if isinstance(dealer, bool) else operator.index(dealer)
        except TypeError:
            seat = None
        if seat is None or not 0 <= seat < self.n:
            raise ScoringError(_("the dealer must be a seat 0..{last}, got {value}", last=self.n - 1,
                                 value=repr(dealer)))
        dealer = seat
        expected = self.next_dealer
        if self.rules.dealer_rotation == "unchecked" or expected is None:
            return
        if dealer != expected:
            limit = self.rules.allpass_dealer_limit
            if self.rules.dealer_rotation != "stays_after_allpass_and_caught_misere":
                why = _("it moves clockwise after every deal")
            elif limit:
                why = _("it stays after all-pass and a caught misère, else moves clockwise; after {limit} all-passes "
                        "in a row it moves on", limit=limit)
            else:
                why = _("it stays after all-pass and a caught misère, else moves clockwise")
            raise ScoringError(_("{player} deals, but after deal {deals} the deal goes to {expected} "
                                 "(dealer_rotation={rotation}: {why})", player=repr(self.players[dealer]),
                                 deals=self.deals, expected=repr(self.players[expected]),
                                 rotation=repr(self.rules.dealer_rotation), why=why))

    def add_all(self, deals: Iterable[DealOutcome]) -> ScoreSheet:
        """Score several deals in order."""
        sheet = self
        for i, deal in enumerate(deals):
            try:
                sheet = sheet.add(deal)
            except ScoringError as exc:
                raise ScoringError(_("deal {number}: {message}", number=i + 1, message=exc)) from None
        return sheet

    @property
    def finished(self) -> bool:
        """End of game: all pools closed (American aid) or the table total reached (RULES.md §6.1)."""
        target = self.rules.pool_target
        if self.rules.pool_closure == "table_total":
            return sum(self.pool) >= target
        return all(p >= target for p in self.pool)

    def settlement(self) -> tuple[Fraction, ...]:
        """Each player's balance in whists (RULES.md §6.3), summing to 0."""
        return settle(self.pool, self.mountain, self.whists, self.rules)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"sheet": {X: {"pool", "mountain", "whists": {Y: …}}}, "settlement": {X: "…"}}``."""
        sheet = {}
        for i, name in enumerate(self.players):
            sheet[name] = {
                "pool": _num(self.pool[i]),
                "mountain": _num(self.mountain[i]),
                "whists": {other: _num(self.whists[i][j]) for j, other in enumerate(self.players) if j != i},
            }
        return {
            "sheet": sheet,
            "settlement": {name: str(b) for name, b in zip(self.players, self.settlement())},
            "finished": self.finished,
            "finished_after": self.finished_after,
            "rules": self.rules.label,     # the profile, and any switch changed from it
        }


def _num(x: Fraction) -> int | str:
    """JSON number for whole values, ``"p/q"`` otherwise."""
    return int(x) if x.denominator == 1 else str(x)


def _american_aid(pool: list[Fraction], mountain: list[Fraction], whists: list[list[Fraction]],
                  rules: Rules) -> None:
    """Close pools above the target (RULES.md §6.2), in place."""
    n = len(pool)
    target = rules.pool_target
    for helper in range(n):
        surplus = pool[helper] - target
        if surplus <= 0:
            continue
        pool[helper] = Fraction(target)
        while surplus > 0:
            open_ = [j for j in range(n) if j != helper and pool[j] < target]
            if not open_:
                break
            # Highest open pool; tie → first clockwise from the helper (RULES.md §6.2).
            j = min(open_, key=lambda s: (-pool[s], (s - helper) % n))
            give = min(surplus, target - pool[j])
            pool[j] += give
            whists[helper][j] += give * rules.aid_whists_per_point
            surplus -= give
        if surplus > 0:
            # The mountain is written off only when nobody needs help (RULES.md §6.2).
            cut = min(surplus, mountain[helper])
            mountain[helper] -= cut
            surplus -= cut
        if surplus > 0:
            # With no mountain left the rest goes into the others' mountains;
            # in the settlement this equals reducing one's own mountain further.
            for j in range(n):
                if j != helper:
                    mountain[j] += surplus


# -- single-deal balances for the bid analyzer ------------------------------------------
def contract_balance(contract: Contract | str, declarer_tricks: int, whist_calls: Sequence[str],
                     rules: Rules | str | None = None, open: bool = True,
                     defender_tricks: tuple[int, int] | None = None) -> tuple[Fraction, Fraction, Fraction]:
    """Net result in whists of one contract deal in isolation, per seat.

    Seats: (declarer, first defender, second defender), 3 players. The deal
    is scored with :func:`score_deal` and settled as a one-deal sheet with
    :func:`settle` (no American aid, no all-pass streak): a pool point is
    worth ``pool_point_whists`` and a mountain point ``mountain_point_whists``
    whists, shared among the 3 players (or N−1 per ``settlement_divisor``),
    so e.g. a made 6♠ in Sochi is worth 2·10·2/3 = 40/3 to the declarer.

    ``whist_calls`` are in speaking order (``("whist", "pass")``,
    ``("pass", "half", "pass")``); they are ignored for misère and for a 10
    under ``ten_whist="checked"`` (nobody whists, the hand is played, RULES.md §3.4).
    ``defender_tricks`` splits the defence's tricks (first, second); by
    default the first defender holds the odd trick (``ceil``/``floor``).

    >>> [str(x) for x in contract_balance("6S", 6, ("pass", "pass"))]
    ['40/3', '-20/3', '-20/3']
    >>> contract_balance("6S", 3, ("pass", "pass")) == contract_balance("6S", 6, ("pass", "pass"))
    True
    >>> [str(x) for x in contract_balance("7H", 6, ("whist", "pass"))]
    ['-152/3', '100/3', '52/3']
    """
    # players=3 records the table; no rule of one deal reads it (an equivalent mutant).
    rules = Rules.of(rules).replace(players=3)  # pragma: no mutate
    c = contract if isinstance(contract, Contract) else Contract.parse(contract)
    if type(declarer_tricks) is not int or not 0 <= declarer_tricks <= TRICKS:
        raise ScoringError(_("declarer tricks must be 0..10, got {value}", value=repr(declarer_tricks)))
    defence = TRICKS - declarer_tricks
    if defender_tricks is None:
        defender_tricks = ((defence + 1) // 2, defence // 2)
    if sum(defender_tricks) != defence:
        raise ScoringError(_("defender tricks {defence} do not make 10 with {declarer}", defence=repr(defender_tricks),
                               declarer=declarer_tricks))
    unwhisted = c.is_misere or (c.level == 10 and rules.ten_whist == "checked")
    try:
        calls = () if unwhisted else parse_whist_calls(whist_calls)
    except AuctionError as exc:
        raise ScoringError(message_of(exc)) from None
    tricks: tuple[int, ...] | None = (declarer_tricks, *defender_tricks)
    if not is_played(check_whist_calls(c, calls, rules, open).outcome, rules):
        tricks = None  # not played: counted as made whatever the cards would have given
    deal = GameDeal(0, c, calls, tricks, open)
    s = score_deal(deal, rules)     # 3 players
    return settle(s.pool, s.mountain, s.whists, rules)  # type: ignore[return-value]


def allpass_balance(tricks_per_seat: Sequence[int], rules: Rules | str | None = None,
                    allpass_count: int = 0) -> tuple[Fraction, Fraction, Fraction]:
    """Net result in whists of one all-pass deal in isolation (seats 0, 1, 2).

    Converted as in :func:`contract_balance`; ``allpass_count`` previous
    all-passes set the progression stage.

    >>> [str(x) for x in allpass_balance((0, 4, 6))]
    ['40', '-10', '-30']
    """
    rules = Rules.of(rules).replace(players=3)  # pragma: no mutate - as in contract_balance
    s = score_deal(AllPassDeal(_check_tricks(tricks_per_seat, 3)), rules, 3, allpass_count)
    return settle(s.pool, s.mountain, s.whists, rules)  # type: ignore[return-value]


# -- game files -----------------------------------------------------------------------
#: Top-level fields of a game file (RULES.md §9); any other key is an error.
GAME_FIELDS = ("players", "rules", "pool_target", "switches", "deals")
#: Fields of one deal of a game file.
DEAL_FIELDS = ("declarer", "contract", "whist", "open", "tricks", "dealer", "talon", "all_pass", "conceded")
# Fields that only a contract deal may have (an all-pass deal with them is contradictory).
_CONTRACT_ONLY = ("declarer", "contract", "whist", "open", "talon", "conceded")


def game_rules(data: Mapping[str, Any], profile: str | None = None, settings: Iterable[str] = ()) -> Rules:
    """The rules of a game file: ``--rules`` profile (or the file's ``"rules"``),
    then the file's ``"switches"`` and ``"pool_target"``, then ``settings``
    (``--set NAME=VALUE``, see :meth:`Rules.with_settings`). Unless set, the
    dealer rotation stays the file's own: it checks what happened at the table."""
    if not isinstance(data, Mapping):
        raise ScoringError(_("a game file must be a JSON object"))
    extra = set(data) - set(GAME_FIELDS)
    if extra:
        raise ScoringError(_("unknown game file field(s) {fields} (expected: {expected})",
                             fields=repr(sorted(map(str, extra))), expected=", ".join(GAME_FIELDS)))
    name = profile or data.get("rules", "sochi")
    if not isinstance(name, str):
        raise ScoringError(_("\"rules\" must be a profile name, got {value}", value=repr(name)))
    rules = Rules.profile(name)
    switches = data.get("switches", {})
    if not isinstance(switches, Mapping):
        raise RulesError(_("\"switches\" must be an object, got {value}", value=repr(switches)))
    rules = rules.replace(**switches)
    if "pool_target" in data:
        rules = rules.replace(pool_target=data["pool_target"])
    if profile is not None and "dealer_rotation" not in switches:
        # Who dealt is the recorded history of the game, played under the file's own
        # rules: rescoring it under another profile must not reject it.
        rules = rules.replace(dealer_rotation=game_rules(data).dealer_rotation)
    return rules.with_settings(settings)


def sheet_from_game(data: Mapping[str, Any], profile: str | None = None,
                    settings: Iterable[str] = ()) -> ScoreSheet:
    """Score a game file (RULES.md §9): players, rules, switches, deals.

    >>> game = {"players": ["A", "B", "C"], "rules": "sochi", "deals": [
    ...     {"declarer": "A", "contract": "7H", "whist": {"B": "whist", "C": "pass"},
    ...      "tricks": {"A": 6, "B": 2, "C": 2}}]}
    >>> sheet_from_game(game).to_dict()["sheet"]["B"]["whists"]
    {'A': 20, 'C': 0}
    """
    rules = game_rules(data, profile, settings)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScoringError(_("\"players\" must be a list of 3 or 4 names, got {value}", value=repr(players)))
    sheet = ScoreSheet.new(players, rules)
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise ScoringError(_("\"deals\" must be a list, got {value}", value=repr(deals)))
    out = []
    for i, d in enumerate(deals):
        try:
            out.append(deal_from_dict(d, sheet.players, sheet.rules))
        except PrefsolveError as exc:
            raise ScoringError(_("deal {number}: {message}", number=i + 1, message=exc)) from None
    return sheet.add_all(out)


def deal_from_dict(d: Mapping[str, Any], players: Sequence[str], rules: Rules | str | None = None) -> DealOutcome:
    """One deal of a game file, with player names resolved to seats.

    Booleans (``all_pass``, ``conceded``) must be JSON ``true``/``false``;
    ``open`` is ``true``/``false`` or a word :func:`~prefsolve.auction.parse_whist_play`
    reads (``"closed"``, ``"закрыто"``, ``"стоя"``); an all-pass deal may not
    carry contract fields. ``rules`` (default Sochi)
    decide whether a 10 needs whist calls (RULES.md §3.4).

    >>> deal_from_dict({"all_pass": True, "declarer": "A", "tricks": {"A": 10}}, "ABC")
    Traceback (most recent call last):
    ...
    prefsolve.errors.ScoringError: an all-pass deal cannot have "declarer" (contradicts "all_pass": true)
    """
    if not isinstance(d, Mapping):
        raise ScoringError(_("a deal must be an object, got {value}", value=repr(d)))
    extra = set(d) - set(DEAL_FIELDS)
    if extra:
        raise ScoringError(_("unknown deal field(s) {fields}", fields=repr(sorted(map(str, extra)))))
    for key in ("all_pass", "conceded"):
        if key in d and type(d[key]) is not bool:
            raise ScoringError(_("\"{key}\" must be true or false (a JSON boolean), got {value}", key=key,
                                   value=repr(d[key])))
    try:
        open_play = parse_whist_play(d.get("open", True)) == OPEN
    except AuctionError:
        raise ScoringError(_("\"open\" must be true or false (a JSON boolean), or a word open or closed "
                             "(открыто/закрыто, лёжа/стоя), got {value}", value=repr(d["open"]))) from None
    seat = _seat_lookup(players)
    dealer = seat(d["dealer"]) if d.get("dealer") is not None else None
    if len(players) == 4 and dealer is None:
        raise ScoringError(_("a 4-player deal needs a \"dealer\""))
    tricks = _tricks_from(d.get("tricks"), players, seat)
    if d.get("all_pass", False):
        both = [k for k in _CONTRACT_ONLY if k in d]
        if both:
            names = ", ".join(f'"{k}"' for k in both)
            raise ScoringError(_("an all-pass deal cannot have {fields} (contradicts \"all_pass\": true)",
                                 fields=names))
        if tricks is None:
            raise ScoringError(_("an all-pass deal needs \"tricks\""))
        return AllPassDeal(tricks, dealer)
    if "declarer" not in d or "contract" not in d:
        raise ScoringError(_("a deal needs \"declarer\" and \"contract\" (or \"all_pass\": true)"))
    declarer = seat(d["declarer"])
    contract = Contract.parse(d["contract"])
    conceded = d.get("conceded", False)
    calls = (() if conceded and d.get("whist") is None  # a concession may precede the calls, RULES.md §3.1
             else _whist_calls_from(d.get("whist"), declarer, dealer, players, seat, contract, Rules.of(rules)))
    talon = d.get("talon")
    if talon is not None:
        if not isinstance(talon, list) or len(talon) != 2 or not all(isinstance(x, str) for x in talon):
            raise ScoringError(_("\"talon\" must be a list of 2 cards, got {value}", value=repr(talon)))
        _two(talon)  # both cards checked even when no rule uses the talon
    return GameDeal(declarer, contract, calls, tricks, open_play, dealer,
                    tuple(talon) if talon else None, conceded)


def _seat_lookup(players: Sequence[str]):
    index = {p: i for i, p in enumerate(players)}

    def seat(name: Any) -> int:
        if not isinstance(name, str):
            raise ScoringError(_("a player must be named by a string, got {value} (players: {players})",
                                 value=repr(name), players=", ".join(players)))
        if name not in index:
            raise ScoringError(_("unknown player {name} (players: {players})", name=repr(name),
                                 players=", ".join(players)))
        return index[name]

    return seat


def _tricks_from(raw: Any, players: Sequence[str], seat) -> tuple[int, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ScoringError(_("\"tricks\" must map player names to tricks, got {value}", value=repr(raw)))
    out = [0] * len(players)
    for name, t in raw.items():
        out[seat(name)] = t
    return tuple(out)


def _whist_calls_from(raw: Any, declarer: int, dealer: int | None, players: Sequence[str], seat,
                      contract: Contract, rules: Rules) -> tuple[str, ...]:
    """Speaking-order whist calls from the file's ``{"B": "whist", "C": "pass"}``.

    A list is taken as already in speaking order. In the mapping form each
    defender gives his final word; ``"half"`` by the second defender means
    the first defender's second chance was his word in the mapping. On a 10
    under ``ten_whist="checked"`` nobody whists (RULES.md §3.4), so the calls may be
    omitted.
    """
    if contract.is_misere:
        if raw:
            raise ScoringError(_("§3.2: nobody whists on misère; omit \"whist\""))
        return ()
    if raw is None:
        if contract.level == 10 and rules.ten_whist == "checked":
            return ()
        raise ScoringError(_("a {contract} deal needs the defenders' \"whist\" calls", contract=shown(contract)))
    if isinstance(raw, list):
        return tuple(parse_whist_call(w) for w in raw)
    if not isinstance(raw, Mapping):
        raise ScoringError(_("\"whist\" must map defenders to whist/pass/half, got {value}", value=repr(raw)))
    active = _active(len(players), dealer)
    k = active.index(declarer) if declarer in active else None
    if k is None:
        raise ScoringError(_("declarer {player} sits out this deal", player=repr(players[declarer])))
    f1, f2 = active[(k + 1) % 3], active[(k + 2) % 3]
    words = {seat(name): parse_whist_call(w) for name, w in raw.items()}
    if set(words) != {f1, f2}:
        raise ScoringError(_("\"whist\" needs a call for each defender: {first} and {second}",
                               first=repr(players[f1]), second=repr(players[f2])))
    w1, w2 = words[f1], words[f2]
    if w2 == HALF:
        # The first defender's word is his second call: whist, or pass and the half-whist stands.
        return (PASS, HALF, w1)
    return (w1, w2)
