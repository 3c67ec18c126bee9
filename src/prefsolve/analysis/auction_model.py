"""What the auction says about the hands: the calls as conditions on each player's cards.

A player who bid 7♥ holds a hand worth about seven tricks; one who passed
when 6♠ was open to him does not hold a sure six; a misère bidder holds a
hand a misère is plausible with. The model turns these statements into
:class:`HandCondition` predicates on a seat's ten dealt cards, through a
hand evaluation in the manner of the classic book's table (RULES.md §8,
measured by :mod:`~prefsolve.analysis.holdings`) and one ``tolerance``:

* **estimated tricks** in a strain: the trump suit's length less its losers
  among its top three places (A, K, Q: "AK xx" 3, "A xxx" 2, "KQ xxx" 4), plus
  each side suit's top run capped at two (A 1, AK 2; the third round is ruffed);
  in no-trump a suit without such losers runs to its length, else gives its top run.
  A hand's estimate is its best strain's.
* a game **bid** at level L (or a hold at L): estimate ≥ L − tolerance (the
  talon and the bidding steps make up the rest);
* a **pass** when the lowest game open to the seat was at level L:
  estimate < L + tolerance (a hand surely worth more would have bid);
* a **misère** bid: at most 1 + tolerance unsafe cards (in each suit from the
  lowest up, the i-th card, counting from 0, is safe when its rank is at most
  7 + 2i steps: 7, 9, J, K); the talon's discard removes two of them;
* the **declared** contract in strain s at level L: the estimate in s is ≥
  L − tolerance − 1 (the talon's two cards count for the one more) and the
  hand's best estimate is < L + 1 + tolerance (a sure higher game is declared);
* a **whist**: the defender holds at least one sure top trick (an ace, or a
  guarded king behind an ace, is worth one); a pass says nothing.

>>> h = Hand.parse("AKQJ98.A.A7.87")
>>> estimate(h, "S"), best_estimate(h), misere_unsafe(Hand.parse("79J.79.79.79J"))
(8, 8, 0)
>>> conds = auction_conditions("6S 7H pass pass", tolerance=1.0)
>>> [c.text for c in conds]  # doctest: +NORMALIZE_WHITESPACE
['seat 0 bid 6♠: estimate ≥ 5', 'seat 1 bid 7♥: estimate ≥ 6',
 'seat 2 passed with 7NT open: estimate < 8', 'seat 0 passed with 7NT open: estimate < 8']
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..auction import BID, HOLD, PASS, check_auction, legal_calls, parse_calls, parse_whist_calls
from ..cards import Hand
from ..checks import check_seat
from ..contract import Contract
from ..errors import AuctionError, PrefsolveError
from ..i18n import N_, _, get_language
from ..rules import Rules
from ..strains import strain_label

if TYPE_CHECKING:
    from .sampling import Sampling

#: The default tolerance of the model, in estimated tricks.
TOLERANCE = 1.0
_ACE, _KING, _QUEEN = 7, 6, 5


def _top_run(m: int) -> int:
    n = 0
    for r in range(7, -1, -1):
        if not m >> r & 1:
            break
        n += 1
    return n


def _losers(m: int) -> int:
    length = m.bit_count()
    return sum(1 for r in (_ACE, _KING, _QUEEN)[:min(length, 3)] if not m >> r & 1)


# Per suit, indexed by the 8-bit mask of ranks 7..A held.
_TRUMP = tuple(m.bit_count() - _losers(m) for m in range(256))
_SIDE = tuple(min(_top_run(m), 2) for m in range(256))
_NT = tuple(m.bit_count() if m and not _losers(m) else _top_run(m) for m in range(256))
_SURE = tuple(1 if m >> _ACE & 1 or (m >> _KING & 1 and m.bit_count() >= 2) else 0 for m in range(256))


def _unsafe(m: int) -> int:
    ranks = [r for r in range(8) if m >> r & 1]
    return sum(1 for i, r in enumerate(ranks) if r > 2 * i)


_UNSAFE = tuple(_unsafe(m) for m in range(256))


def _suits(hand: Hand) -> tuple[int, int, int, int]:
    m = hand.mask
    return (m & 0xFF, m >> 8 & 0xFF, m >> 16 & 0xFF, m >> 24 & 0xFF)


def estimate(hand: Hand, strain: str) -> int:
    """The model's tricks for ``hand`` as declarer in a game ``strain`` (``S C D H NT``)."""
    suits = _suits(hand)
    if strain == "NT":
        return sum(_NT[m] for m in suits)
    t = "SCDH".index(strain)
    return _TRUMP[suits[t]] + sum(_SIDE[m] for k, m in enumerate(suits) if k != t)


def best_estimate(hand: Hand) -> int:
    """The hand's estimate in its best game strain."""
    suits = _suits(hand)
    side = [_SIDE[m] for m in suits]
    total = sum(side)
    return max(max(_TRUMP[m] + total - side[k] for k, m in enumerate(suits)), sum(_NT[m] for m in suits))


def misere_unsafe(hand: Hand) -> int:
    """Cards of the hand a misère cannot duck safely (RULES.md-style 7, 9, J, K ladder per suit)."""
    return sum(_UNSAFE[m] for m in _suits(hand))


def sure_tricks(hand: Hand) -> int:
    """Suits in which a defender holds a sure top trick: an ace, or a guarded king."""
    return sum(_SURE[m] for m in _suits(hand))


@dataclass(frozen=True)
class HandCondition:
    """One statement of the auction about one seat's ten dealt cards, as a predicate.

    ``kind`` is ``at_least`` (best estimate ≥ value), ``below`` (best estimate
    < value), ``strain_at_least`` (estimate in ``strain`` ≥ value), ``misere``
    (unsafe cards ≤ value) or ``sure_tricks`` (sure top tricks ≥ value);
    ``text`` says it in words, in English (the JSON's ``conditions``), and
    :meth:`describe` in the active language: ``message`` is the sentence,
    ``contract`` the call it is about. Called with a :class:`Hand`, it answers
    whether the hand meets it.
    """

    seat: int
    kind: str
    value: float
    text: str
    strain: str | None = None
    message: str = ""
    contract: Contract | None = None

    @classmethod
    def stated(cls, seat: int, kind: str, value: float, message: str, contract: Contract | None = None,
               strain: str | None = None) -> HandCondition:
        """The condition that ``message`` (a sentence with the fields ``seat``,
        ``contract``, ``suit`` and ``value``) states."""
        made = cls(seat, kind, value, "", strain, message, contract)
        return replace(made, text=made._words("en"))

    def _words(self, lang: str) -> str:
        c = self.contract
        fields: dict[str, object] = {"seat": self.seat, "value": _num(self.value)}
        if c is not None:
            fields["contract"] = c.symbol if lang == "en" else c.format(lang)
            fields["suit"] = strain_label(c.strain, lang)
        return self.message.format_map(fields) if lang == "en" else _(self.message, **fields)

    def describe(self) -> str:
        """The condition in words, in the active language."""
        return self._words(get_language()) if self.message else self.text

    def __call__(self, hand: Hand) -> bool:
        if self.kind == "at_least":
            return best_estimate(hand) >= self.value
        if self.kind == "below":
            return best_estimate(hand) < self.value
        if self.kind == "strain_at_least":
            assert self.strain is not None
            return estimate(hand, self.strain) >= self.value
        if self.kind == "misere":
            return misere_unsafe(hand) <= self.value
        if self.kind == "sure_tricks":
            return sure_tricks(hand) >= self.value
        raise PrefsolveError(_("unknown kind of hand condition {kind}", kind=repr(self.kind)))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def check_tolerance(tolerance: object) -> float:
    """A tolerance: a finite number of tricks ≥ 0."""
    ok = not isinstance(tolerance, bool) and isinstance(tolerance, (int, float))
    value = float(tolerance) if ok else math.nan    # type: ignore[arg-type]
    if not math.isfinite(value) or value < 0:
        raise PrefsolveError(_("tolerance must be a number of tricks 0 or more, got {value}", value=repr(tolerance)))
    return value


def auction_conditions(calls: str | Iterable[str], *, rules: Rules | str = "sochi",
                       contract: Contract | str | None = None, whist: str | Iterable[str] | None = None,
                       tolerance: float = TOLERANCE, allpass_count: int = 0,
                       exclude: Iterable[int] = ()) -> tuple[HandCondition, ...]:
    """The auction model's conditions for the calls of a deal (first hand, seat 0, speaks first).

    ``calls`` may be unfinished (the calls so far, before a bid decision).
    ``contract`` is the declarer's declaration (the auction must be won);
    ``whist`` the defenders' calls in speaking order (first defender first).
    Conditions on the seats in ``exclude`` (the player's own, whose cards are
    known) are left out. Illegal calls raise :class:`~prefsolve.errors.AuctionError`.

    >>> [c.text for c in auction_conditions("misere pass pass", contract="misere", exclude=[1])]
    ['seat 0 bid misère: at most 2 unsafe cards', 'seat 2 passed with 9♠ open: estimate < 10']
    """
    tol = check_tolerance(tolerance)
    r = Rules.of(rules)
    parsed = parse_calls(calls) if not isinstance(calls, tuple) else calls
    result = check_auction(parsed, r, allpass_count) if parsed else None
    if result is not None and not result.legal:
        raise AuctionError(_("auction {auction}: {reason}", auction=repr(" ".join(str(c) for c in parsed)),
                             reason=result.reason))
    skip = {check_seat(s, "seat") for s in exclude}
    out: list[HandCondition] = []
    misere_bidders: set[int] = set()
    for i, call in enumerate(parsed):
        before = parsed[:i]
        seat = check_auction(before, r, allpass_count).next_seat if before else 0
        assert seat is not None
        if call.kind in (BID, HOLD):
            c = call.contract
            if c is None:   # a hold without its contract holds the current highest bid
                c = next((x.contract for x in reversed(before) if x.kind == BID), None)
            if c is None:
                continue
            if c.is_misere:
                misere_bidders.add(seat)
                out.append(HandCondition.stated(seat, "misere", 1 + tol,
                                                N_("seat {seat} bid misère: at most {value} unsafe cards")))
            else:
                assert c.level is not None
                said = (N_("seat {seat} held {contract}: estimate ≥ {value}") if call.kind == HOLD
                        else N_("seat {seat} bid {contract}: estimate ≥ {value}"))
                out.append(HandCondition.stated(seat, "at_least", c.level - tol, said, c))
        elif call.kind == PASS and seat not in misere_bidders:
            games = [x.contract for x in legal_calls(before, r, allpass_count)
                     if x.kind in (BID, HOLD) and x.contract is not None and not x.contract.is_misere]
            if games:
                low = games[0]
                assert low.level is not None
                out.append(HandCondition.stated(seat, "below", low.level + tol,
                                                N_("seat {seat} passed with {contract} open: estimate < {value}"),
                                                low))
    if contract is not None or whist is not None:
        if result is None or not result.finished or result.winner is None:
            raise AuctionError(_("a declaration and whist calls need a won auction, got {auction}",
                                 auction=repr(" ".join(str(c) for c in parsed))))
        declarer = result.winner
        if contract is not None:
            c = contract if isinstance(contract, Contract) else Contract.parse(contract)
            if not c.is_misere and c.level is not None:
                lo, hi = c.level - tol - 1, c.level + 1 + tol
                out.append(HandCondition.stated(declarer, "strain_at_least", lo,
                                                N_("seat {seat} declared {contract}: estimate in {suit} ≥ {value}"),
                                                c, c.strain))
                out.append(HandCondition.stated(declarer, "below", hi,
                                                N_("seat {seat} declared {contract}: estimate < {value}"), c))
            elif c.is_misere and declarer not in misere_bidders:
                out.append(HandCondition.stated(declarer, "misere", 1 + tol,
                                                N_("seat {seat} declared misère: at most {value} unsafe cards")))
        if whist is not None:
            words = parse_whist_calls(whist)
            defenders = [(declarer + 1) % 3, (declarer + 2) % 3]
            for k, word in enumerate(words):
                seat = defenders[k % 2]
                if word == "whist":
                    out.append(HandCondition.stated(seat, "sure_tricks", 1,
                                                    N_("seat {seat} whisted: at least {value} sure top trick")))
    return tuple(c for c in out if c.seat not in skip)


def check_won(auction: str, rules: Rules | str, declarer: int | None, allpass_count: int = 0) -> None:
    """The auction of a deal being played: finished, and won by ``declarer`` (``None``:
    ended in all-pass); an :class:`~prefsolve.errors.AuctionError` naming why not.

    >>> check_won("6S pass pass", "sochi", 1)
    Traceback (most recent call last):
    ...
    prefsolve.errors.AuctionError: auction '6S pass pass' must be won by the declarer, seat 1: seat 0 won it
    """
    verdict = check_auction(auction, rules, allpass_count)
    if declarer is None:
        if not verdict.legal or not verdict.all_pass:
            why = verdict.reason if not verdict.legal else (
                _("it is not over") if not verdict.finished else _("seat {seat} won it", seat=verdict.winner))
            raise AuctionError(_("auction {auction} must end in all-pass: {why}", auction=repr(auction), why=why))
        return
    if not verdict.legal or not verdict.finished or verdict.winner != declarer:
        why = verdict.reason if not verdict.legal else (
            _("it is not over") if not verdict.finished else
            _("it ended in all-pass") if verdict.all_pass else _("seat {seat} won it", seat=verdict.winner))
        raise AuctionError(_("auction {auction} must be won by the declarer, seat {declarer}: {why}",
                             auction=repr(auction), declarer=declarer, why=why))


def condition_on_auction(sampling: Sampling, auction: str, *, seat: int, rules: Rules | str,
                         tolerance: float = TOLERANCE, allpass_count: int = 0,
                         contract: Contract | None = None, whist: str | None = None) -> Sampling:
    """``sampling`` with the model's conditions on the other seats' hands
    (:func:`auction_conditions`: the calls, the declared ``contract``, the
    defenders' ``whist`` calls) added to its own, the way every analysis
    conditions its layouts on the auction; ``seat``'s own hand is known.

    >>> from prefsolve.analysis.sampling import Sampling
    >>> s = condition_on_auction(Sampling(samples=10, seed=1), "6S 7H pass pass", seat=2, rules="sochi")
    >>> s.condition_texts()[:2], s.seed
    (['seat 0 bid 6♠: estimate ≥ 5', 'seat 1 bid 7♥: estimate ≥ 6'], 1)
    """
    from dataclasses import replace

    from .sampling import _check_sampling

    sampling = _check_sampling(sampling)
    conditions = auction_conditions(auction, rules=rules, contract=contract, whist=whist, tolerance=tolerance,
                                    allpass_count=allpass_count, exclude=[seat])
    return replace(sampling, conditions=sampling.hand_conditions + conditions)
