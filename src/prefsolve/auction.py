"""Auction, declaration and whist-call validation (RULES.md §2, §3.1–3.5).

Calls are given in order starting with first hand (seat 0), then seats 1 and
2 clockwise. An illegal call is a *verdict*, not an exception: the result
names the first illegal call, its seat and the rule it breaks. Malformed
input (an unknown word) raises :class:`~prefsolve.errors.AuctionError`.

    >>> from prefsolve.rules import Rules
    >>> r = check_auction("раз два пас три пас", Rules.profile("sochi"))
    >>> r.legal, r.finished, r.winner, str(r.contract)
    (True, True, 0, '6D')
    >>> bad = check_auction("6S 6C 6S", Rules.profile("sochi"))
    >>> bad.legal, bad.call, bad.seat
    (False, 2, 2)
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from prefsolve.contract import LEVELS, Contract
from prefsolve.errors import AuctionError, ContractError
from prefsolve.i18n import _, english, shown
from prefsolve.notation import normal
from prefsolve.rules import Rules
from prefsolve.strains import GAME_STRAINS

PASS = "pass"
BID = "bid"
HOLD = "hold"
SEATS = 3

_PASS_WORDS = {"pass", "пас", "p", "-"}
_HOLD_WORDS = {"здесь", "here", "hold", "держу", "поддерживаю"}
_MAX_PHRASE = 5  # longest spoken call: «семирик на червях без прикупа»


@dataclass(frozen=True)
class Call:
    """One auction call: a pass, a bid, or a hold («здесь») of the current bid.

    A hold may name its contract («два здесь») or not («здесь»).

    >>> Call.parse("семь первых")
    Call(bid 7S)
    >>> Call.parse("два здесь")
    Call(hold 6C)
    """

    kind: str
    contract: Contract | None = None

    def __post_init__(self) -> None:
        # A Call built by hand is checked as a parsed one would be: the replay
        # relies on a bid having a contract and a pass having none.
        if self.kind not in (PASS, BID, HOLD):
            raise AuctionError(_("unknown kind of call {kind} (expected 'pass', 'bid' or 'hold')",
                                 kind=repr(self.kind)))
        if self.contract is not None and not isinstance(self.contract, Contract):
            raise AuctionError(_("a call's contract must be a Contract, got {value}", value=repr(self.contract)))
        if self.kind == BID and self.contract is None:
            raise AuctionError(_("a bid needs its contract, e.g. Call('bid', Contract.parse('6S'))"))
        if self.kind == PASS and self.contract is not None:
            raise AuctionError(_("a pass has no contract, got {contract}", contract=shown(self.contract)))

    @classmethod
    def parse(cls, word: str) -> Call:
        """Parse one call; raises :class:`AuctionError` on an unknown word."""
        norm = normal(str(word))
        if norm in _PASS_WORDS:
            return cls(PASS)
        if norm in _HOLD_WORDS:
            return cls(HOLD)
        parts = norm.rsplit(" ", 1)
        try:
            if len(parts) == 2 and parts[1] in _HOLD_WORDS:
                return cls(HOLD, Contract.parse(parts[0]))
            return cls(BID, Contract.parse(norm))
        except ContractError:
            raise AuctionError(_("unknown call {word}", word=repr(word))) from None

    def __str__(self) -> str:
        if self.kind == PASS:
            return "pass"
        if self.kind == HOLD:
            return f"{self.contract} here" if self.contract else "here"
        return str(self.contract)

    def __repr__(self) -> str:
        return f"Call({self.kind}{' ' + str(self.contract) if self.contract else ''})"


def parse_calls(text: str | Iterable[str | Call]) -> tuple[Call, ...]:
    """Split an auction into calls.

    Text is split on commas when it has any, otherwise on spaces with
    multi-word calls («семь первых», «8 БК», «два здесь») matched greedily.
    An empty item between commas is an error.

    In the space-separated form a phrase «<bid> здесь» is one call, the
    explicit hold of RULES.md §2.4, only when ``<bid>`` repeats the current highest
    bid (the contract of the last bid or hold before it), e.g. «два здесь»
    after «два». Otherwise the bid and a bare «здесь» are two calls: the
    bid, then the next player's hold of it. A comma-separated item is taken
    as written (``6D здесь`` is always one explicit hold).

    >>> [str(c) for c in parse_calls("раз семь первых пас 8 БК пас")]
    ['6S', '7S', 'pass', '8NT', 'pass']
    >>> [str(c) for c in parse_calls("два три пас три здесь")]
    ['6C', '6D', 'pass', '6D here']
    >>> [str(c) for c in parse_calls("pass 6C 6D здесь")]
    ['pass', '6C', '6D', 'here']
    >>> parse_calls("раз foo")
    Traceback (most recent call last):
    ...
    prefsolve.errors.AuctionError: unknown call 'foo' in 'раз foo'
    >>> parse_calls("6S,,pass")
    Traceback (most recent call last):
    ...
    prefsolve.errors.AuctionError: empty call #2 in '6S,,pass' (two separators with nothing between them)
    """
    if not isinstance(text, str):
        try:
            items = list(text)
        except TypeError:
            raise AuctionError(_("calls must be text or a sequence of calls, got {value}", value=repr(text))) from None
        return tuple(c if isinstance(c, Call) else Call.parse(c) for c in items)
    if "," in text or ";" in text:
        parts = re.split(r"[,;]", text)
        for k, item in enumerate(parts):
            if not item.strip():
                raise AuctionError(_("empty call #{number} in {text} (two separators with nothing between them)",
                                     number=k + 1, text=repr(text)) if 0 < k < len(parts) - 1 else
                                   _("empty call #{number} in {text} (a separator at the start or the end)",
                                     number=k + 1, text=repr(text)))
        return tuple(Call.parse(p) for p in parts)
    words = text.split()
    calls: list[Call] = []
    highest: Contract | None = None  # contract of the last bid or hold so far
    i = 0
    while i < len(words):
        for n in range(min(_MAX_PHRASE, len(words) - i), 0, -1):
            try:
                call = Call.parse(" ".join(words[i : i + n]))
            except AuctionError:
                continue
            if call.kind == HOLD and call.contract is not None and call.contract != highest:
                # «6D здесь» after 6C: the bid 6D, then a bare hold «здесь» (see above)
                calls += [Call(BID, call.contract), Call(HOLD)]
            else:
                calls.append(call)
            if call.contract is not None:
                highest = call.contract
            i += n
            break
        else:
            raise AuctionError(_("unknown call {word} in {text}", word=repr(words[i]), text=repr(text)))
    return tuple(calls)


@cache
def _ladder(extensions: str) -> tuple[Contract, ...]:
    games = lambda level, hand: [Contract(level, s, hand) for s in GAME_STRAINS]  # noqa: E731
    if extensions == "none":
        return tuple(sorted([c for lv in LEVELS for c in games(lv, False)] + [Contract.misere()]))
    # The classic ladder (RULES.md §2.5): misère is overcalled only by a 9
    # without talon or any 10, misère without talon only by a 10 without talon;
    # a game without talon outranks the same game with talon, so each level's
    # hand games follow its talon games.
    out: list[Contract] = []
    for lv in (6, 7, 8):
        out += games(lv, False) + games(lv, True)
    out += games(9, False) + [Contract.misere()] + games(9, True)
    out += games(10, False) + [Contract.misere(True)] + games(10, True)
    return tuple(out)


def ladder(rules: Rules | str | None = None) -> tuple[Contract, ...]:
    """All biddable contracts of a profile in seniority order.

    >>> len(ladder(Rules.profile("sochi"))), len(ladder(Rules.profile("classic")))
    (26, 52)
    """
    return _ladder(Rules.of(rules).ladder_extensions)


def seniority(contract: Contract, rules: Rules | str | None = None) -> int:
    """Index of a contract on the profile's ladder; raises ContractError if absent."""
    rules = Rules.of(rules)
    table = _seniority_table(rules.ladder_extensions)
    try:
        return table[contract]
    except KeyError:
        raise ContractError(_("contract {contract} is not on the {rules} ladder (§2.5: games without talon need "
                              "ladder_extensions='hand_games')", contract=repr(str(contract)), rules=rules.name)
                            ) from None


@cache
def _seniority_table(extensions: str) -> dict[Contract, int]:
    return {c: i for i, c in enumerate(_ladder(extensions))}


@dataclass(frozen=True)
class AuctionResult:
    """Verdict on an auction.

    Legal auctions: ``finished``, ``winner`` (seat 0..2), ``contract`` (the
    lowest contract the winner may declare), ``all_pass``, ``next_seat``
    (who speaks next when unfinished). Illegal ones: ``call`` (index from 0),
    ``seat`` and a one-sentence ``reason`` naming the rule; ``seat`` is None
    for a call made after the end of the auction (nobody's turn).
    """

    legal: bool
    calls: tuple[Call, ...]
    finished: bool = False
    winner: int | None = None
    contract: Contract | None = None
    all_pass: bool = False
    next_seat: int | None = None
    call: int | None = None
    seat: int | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by ``prefsolve auction --json``."""
        if not self.legal:
            return {"legal": False, "call": self.call, "seat": self.seat, "reason": english(self.reason)}
        return {
            "legal": True,
            "finished": self.finished,
            "winner": self.winner,
            "contract": str(self.contract) if self.contract else None,
            "all_pass": self.all_pass,
            "next_seat": self.next_seat,
        }


@dataclass
class _State:
    """Mutable auction state used while replaying the calls."""

    rules: Rules
    min_level: int
    passed: set[int] = field(default_factory=set)
    highest: Contract | None = None
    highest_bidder: int | None = None
    bids: dict[int, list[Contract]] = field(default_factory=dict)
    turn: int = 0
    finished: bool = False

    @property
    def all_pass(self) -> bool:
        return self.finished and self.highest is None

    def reason(self, seat: int, call: Call) -> str | None:
        """Why ``call`` by ``seat`` is illegal now, or None when it is legal."""
        if self.finished:
            return self.over_reason()
        if call.kind == PASS:
            return None
        r = self.rules
        if call.kind == HOLD:
            if self.highest is None or self.highest.is_misere or (call.contract is not None
                                                                  and call.contract != self.highest):
                return self._hold_reason(seat, call)    # never a hold of misère (RULES.md §2.4)
            call = Call(BID, self.highest)  # a hold is a repeat of the current bid
        c = call.contract
        assert c is not None
        try:
            pos = seniority(c, r)
        except ContractError:
            return _("§2.5: {contract} (a contract without talon) is not biddable under the {rules} rules",
                     contract=shown(c), rules=r.name)
        own = self.bids.get(seat, [])
        if c.is_misere:
            if r.misere_binding and own:
                return _("§2.3 binding misère: misère may only be a player's first bid, but seat {seat} already "
                         "bid {contract}", seat=seat, contract=shown(own[-1]))
        else:
            if r.misere_binding and own and own[0].is_misere:
                return _("§2.3 binding misère: seat {seat} bid misère and may only pass afterwards", seat=seat)
            assert c.level is not None
            if c.level < self.min_level:
                return _("§2.6 exit from all-pass ({exit}): the lowest game after the all-pass deals is {level}, "
                         "not {contract}", exit=r.raspasy_exit, level=self.min_level, contract=shown(c))
        if self.highest is None:
            return None
        top = seniority(self.highest, r)
        if pos > top:
            return None
        if pos == top and not c.is_misere:
            why = self._hold_reason(seat, Call(HOLD, c))
            return None if why is None else why
        if self.highest.is_misere and not c.is_misere:
            if self.highest.without_talon:
                return _("§2.3: {contract} does not overcall misère without talon on the {rules} ladder",
                         contract=shown(c), rules=r.name)
            return _("§2.3: {contract} does not overcall misère on the {rules} ladder", contract=shown(c),
                     rules=r.name)
        return _("§2.2: a bid must be higher than the current bid {current}, {contract} is not",
                 current=shown(self.highest), contract=shown(c))

    def over_reason(self) -> str:
        """Why no call is allowed after the end of the auction (RULES.md §2.2)."""
        if self.highest is None:
            return _("§2.2: the auction is already over (all three passed), no further call is allowed")
        return _("§2.2: the auction is already over (seat {seat} won it with {contract}), no further call is allowed",
                 seat=self.highest_bidder, contract=shown(self.highest))

    def _hold_reason(self, seat: int, call: Call) -> str | None:
        r = self.rules
        if self.highest is None:
            return _("§2.4: «здесь» holds the current bid, but nobody has bid yet")
        if call.contract is not None and call.contract != self.highest:
            return _("§2.4: «здесь» must repeat the current bid {current}, not {contract}",
                     current=shown(self.highest), contract=shown(call.contract))
        if r.hold == "off":
            return _("§2.2: a bid must be higher than the current bid {current} (holding «здесь» is off in the "
                     "{rules} rules)", current=shown(self.highest), rules=r.name)
        if self.highest.is_misere:
            return _("§2.4: misère cannot be held («здесь»)")
        if self.highest == Contract(6, "S") and not r.hold_6s_allowed:
            return _("§2.4: 6♠ («раз») cannot be held («здесь»)")
        assert self.highest_bidder is not None
        if r.hold == "first_hand_only" and seat != 0:
            return _("§2.4: only first hand may hold («здесь») a bid")
        if r.hold == "senior_when_two_left" and SEATS - len(self.passed) != 2:
            return _("§2.4: «здесь» is allowed only when exactly two players are left in the auction")
        if seat > self.highest_bidder:
            return _("§2.4: only the senior hand may hold («здесь»); seat {seat} is junior to seat {senior}",
                     seat=seat, senior=self.highest_bidder)
        return None

    def apply(self, seat: int, call: Call) -> None:
        if call.kind == PASS:
            self.passed.add(seat)
        else:
            c = call.contract if call.kind == BID else self.highest
            assert c is not None
            self.highest, self.highest_bidder = c, seat
            self.bids.setdefault(seat, []).append(c)
        left = SEATS - len(self.passed)
        if left == 0 or (left == 1 and self.highest is not None):
            self.finished = True
            return
        nxt = (seat + 1) % SEATS
        while nxt in self.passed:
            nxt = (nxt + 1) % SEATS
        self.turn = nxt


def _replay(calls: Sequence[Call], rules: Rules, allpass_count: int) -> tuple[_State, AuctionResult | None]:
    st = _State(rules, rules.min_game_level(allpass_count))
    for i, call in enumerate(calls):
        if st.finished:
            # Nobody speaks after the end of the auction, so the call has no seat.
            return st, AuctionResult(False, tuple(calls), call=i, seat=None, reason=st.over_reason())
        seat = st.turn
        why = st.reason(seat, call)
        if why is not None:
            return st, AuctionResult(False, tuple(calls), call=i, seat=seat, reason=why)
        st.apply(seat, call)
    return st, None


def _check_allpass_count(allpass_count: object) -> None:
    """The all-pass deals before this one: a whole number >= 0 (numpy's too)."""
    try:
        n = None if isinstance(allpass_count, bool) else operator.index(allpass_count)  # type: ignore[arg-type]
    except TypeError:
        n = None
    if n is None or n < 0:
        raise AuctionError(_("allpass_count must be a whole number >= 0, got {value}", value=repr(allpass_count)))


def check_auction(calls: str | Iterable[str | Call], rules: Rules | str | None = None,
                  allpass_count: int = 0) -> AuctionResult:
    """Validate calls starting with first hand (RULES.md §2.2–2.7).

    ``allpass_count`` is the number of consecutive all-pass deals before
    this one (exit from all-pass, RULES.md §2.6).

    >>> r = check_auction("pass pass pass")
    >>> r.finished, r.all_pass
    (True, True)
    >>> late = check_auction("6S pass pass 6C")
    >>> late.seat is None, late.reason
    (True, '§2.2: the auction is already over (seat 0 won it with 6S), no further call is allowed')
    >>> check_auction("6S", allpass_count=1).reason
    '§2.6 exit from all-pass (strict): the lowest game after the all-pass deals is 7, not 6S'
    """
    rules = Rules.of(rules)
    _check_allpass_count(allpass_count)
    parsed = parse_calls(calls)
    if not parsed:
        raise AuctionError(_("no calls given: an auction has at least one call (pass or a bid)"))
    st, bad = _replay(parsed, rules, allpass_count)
    if bad is not None:
        return bad
    if not st.finished:
        return AuctionResult(True, parsed, next_seat=st.turn)
    return AuctionResult(True, parsed, finished=True, winner=st.highest_bidder,
                         contract=st.highest, all_pass=st.highest is None)


def legal_calls(calls: str | Iterable[str | Call], rules: Rules | str | None = None,
                allpass_count: int = 0) -> tuple[Call, ...]:
    """Every legal next call after a legal, unfinished auction (empty otherwise).

    >>> calls = [str(c) for c in legal_calls("6S 6C pass")]
    >>> calls[:3], "misere" in calls, calls[-1]
    (['pass', '6D', '6H'], False, '6C here')
    """
    rules = Rules.of(rules)
    _check_allpass_count(allpass_count)
    st, bad = _replay(parse_calls(calls), rules, allpass_count)
    if bad is not None or st.finished:
        return ()
    seat = st.turn
    cands = [Call(PASS)] + [Call(BID, c) for c in ladder(rules)]
    out = [c for c in cands if st.reason(seat, c) is None and not
           (c.kind == BID and st.highest is not None and c.contract == st.highest)]
    if st.highest is not None and st.reason(seat, Call(HOLD)) is None:     # a hold of the current bid
        out.append(Call(HOLD, st.highest))
    return tuple(out)


@dataclass(frozen=True)
class Verdict:
    """A yes/no answer with the rule that decided a "no"."""

    legal: bool
    reason: str | None = None


#: The highest game bid after which trading misère may still be declared (RULES.md §2.3).
TRADING_MISERE_CAP = Contract(8, "S")


def check_declaration(bid: Contract | str, declared: Contract | str, rules: Rules | str | None = None) -> Verdict:
    """Check the contract declared by the auction winner against his winning bid.

    Never lower than the winning bid (RULES.md §3.1); the misère winner plays
    misère, and a game bid may turn into misère only with trading misère
    (RULES.md §2.3).

    >>> check_declaration("6D", "6S").reason
    '§3.1: the declared contract 6S is lower than the winning bid 6D'
    >>> check_declaration("misere", "10NT").legal
    False
    >>> check_declaration("7S", "misere", Rules().replace(misere_binding=False)).legal
    True
    """
    rules = Rules.of(rules)
    bid = bid if isinstance(bid, Contract) else Contract.parse(bid)
    declared = declared if isinstance(declared, Contract) else Contract.parse(declared)
    for c in (bid, declared):
        if c not in _seniority_table(rules.ladder_extensions):
            fields = {"contract": shown(c), "rules": rules.name, "extensions": repr(rules.ladder_extensions)}
            return Verdict(False, _("§2.5: the winning bid {contract} (without talon) is not played under the "
                                    "{rules} rules (ladder_extensions={extensions})", **fields) if c is bid else
                           _("§2.5: the declared contract {contract} (without talon) is not played under the "
                             "{rules} rules (ladder_extensions={extensions})", **fields))
    if bid.is_misere:
        if declared != bid:
            return Verdict(False, _("§2.3: the winner of a {bid} auction must play {bid}, not {declared}",
                                    bid=shown(bid), declared=shown(declared)))
        return Verdict(True)
    if declared.is_misere:
        if rules.misere_binding:
            return Verdict(False, _("§2.3 binding misère: a player who won on {bid} cannot declare misère",
                                    bid=shown(bid)))
        # Trading misère (RULES.md §2.3): games are bid «раз, два, … up to восемь
        # первых» and misère is declared after the talon, so the winning bid is at
        # most 8♠ and was won with the talon.
        if bid.without_talon:
            return Verdict(False, _("§2.3 trading misère: misère is declared after taking the talon, which a player "
                                    "who won on {bid} does not take", bid=shown(bid)))
        if seniority(bid, rules) > seniority(TRADING_MISERE_CAP, rules):
            return Verdict(False, _("§2.3 trading misère: games are traded up to {cap} only, so a player who won "
                                    "on {bid} cannot declare misère", cap=shown(TRADING_MISERE_CAP),
                                    bid=shown(bid)))
        if declared.without_talon:
            return Verdict(False, _("§2.3 trading misère: the talon was taken, misère without talon is "
                                    "impossible"))
        return Verdict(True)
    if declared.without_talon != bid.without_talon:
        if bid.without_talon:
            return Verdict(False, _("§2.5: the auction was won without talon, so the game must be declared "
                                    "without talon"))
        return Verdict(False, _("§2.5: the auction was won with talon, so the game must be declared with talon"))
    if seniority(declared, rules) < seniority(bid, rules):
        return Verdict(False, _("§3.1: the declared contract {declared} is lower than the winning bid {bid}",
                                declared=shown(declared), bid=shown(bid)))
    return Verdict(True)


def allowed_declarations(bid: Contract | str, rules: Rules | str | None = None) -> tuple[Contract, ...]:
    """The contracts of the profile's ladder the winner of ``bid`` may declare,
    in seniority order: exactly those :func:`check_declaration` accepts.

    >>> [str(c) for c in allowed_declarations("10H", "sochi")]
    ['10H', '10NT']
    >>> Contract.misere() in allowed_declarations("8S", Rules().replace(misere_binding=False))
    True
    """
    rules = Rules.of(rules)
    bid = bid if isinstance(bid, Contract) else Contract.parse(bid)
    seniority(bid, rules)       # a bid off the profile's ladder is an error, not an empty answer
    return _allowed_declarations(bid, rules)


@lru_cache(maxsize=1024)
def _allowed_declarations(bid: Contract, rules: Rules) -> tuple[Contract, ...]:
    return tuple(c for c in ladder(rules) if check_declaration(bid, c, rules).legal)


# -- whist calls (RULES.md §3.2) ------------------------------------------------
WHIST = "whist"
HALF = "half"
_WHIST_WORDS = {"whist": WHIST, "вист": WHIST, "w": WHIST, "pass": PASS, "пас": PASS, "p": PASS,
                "half": HALF, "полвиста": HALF, "half-whist": HALF, "пол виста": HALF, "half whist": HALF,
                "пол-виста": HALF}


def parse_whist_call(word: str) -> str:
    """``whist``, ``pass`` or ``half`` (also вист, пас, полвиста, пол-виста)."""
    if not isinstance(word, str):
        raise AuctionError(_("a whist call is a word (whist, pass or half), got {value}", value=repr(word)))
    norm = normal(word)
    if norm not in _WHIST_WORDS:
        raise AuctionError(_("unknown whist call {word} (expected whist, pass or half: вист, пас, полвиста)",
                              word=repr(word)))
    return _WHIST_WORDS[norm]


#: How a lone whister plays (RULES.md §3.2): cards open on the table, or closed.
OPEN, CLOSED = "open", "closed"
_PLAY_WORDS = {
    "open": OPEN, "открыто": OPEN, "в открытую": OPEN, "лежа": OPEN, "в светлую": OPEN,
    "closed": CLOSED, "закрыто": CLOSED, "в закрытую": CLOSED, "стоя": CLOSED, "втемную": CLOSED,
    "в темную": CLOSED,
}


def parse_whist_play(play: object) -> str:
    """How a lone whister plays, ``open`` or ``closed``: from a word (open,
    открыто, лёжа, в светлую; closed, закрыто, стоя, втёмную) or a boolean,
    True for open (a game file's ``"open": true``, ``check_whist_calls(open=)``).

    >>> parse_whist_play("Лёжа"), parse_whist_play("закрыто"), parse_whist_play(True)
    ('open', 'closed', 'open')
    >>> parse_whist_play("false")       # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    prefsolve.errors.AuctionError: unknown whist play 'false': expected true or false, or open or closed ...
    """
    if isinstance(play, bool):
        return OPEN if play else CLOSED
    word = _PLAY_WORDS.get(normal(play)) if isinstance(play, str) else None
    if word is None:
        raise AuctionError(_("unknown whist play {play}: expected true or false, or open or closed "
                             "(открыто/закрыто, лёжа/стоя)", play=repr(play)))
    return word


def split_whist_text(text: str) -> list[str]:
    """The calls of one text, as written: separated by commas (each item one
    call, «half whist» included), else by spaces, where «пол виста» is one
    call and «half whist» is refused as ambiguous (the half-whist, or a
    half-whist and then a whist?).

    >>> split_whist_text("пас Пол виста вист"), split_whist_text("pass, half whist")
    (['пас', 'Пол виста', 'вист'], ['pass', 'half whist'])
    """
    if "," in text or ";" in text:
        items = [item.strip() for item in re.split(r"[,;]", text)]
        if not any(items):      # separators only: no call at all
            return []
        if any(not item for item in items):
            raise AuctionError(_("empty whist call in {text} (a separator with nothing on one side)", text=repr(text)))
        return items
    words = text.split()
    out: list[str] = []
    for word in words:
        if out and normal(out[-1]) == "пол" and normal(word) == "виста":
            out[-1] += " " + word
        elif out and normal(out[-1]) == "half" and normal(word) == "whist":
            raise AuctionError(_("'half whist' in {text} is ambiguous without commas: write 'half' (or "
                                 "'half-whist') for the half-whist, or separate calls with commas", text=repr(text)))
        else:
            out.append(word)
    return out


def parse_whist_calls(calls: str | Iterable[str]) -> tuple[str, ...]:
    """The defenders' calls as ``whist``/``pass``/``half`` words: a sequence of
    calls, or one text (see :func:`split_whist_text`).

    >>> parse_whist_calls("пас, пол виста, вист")
    ('pass', 'half', 'whist')
    """
    if isinstance(calls, str):
        words = split_whist_text(calls)
    else:
        try:
            words = list(calls)
        except TypeError:
            raise AuctionError(_("whist calls must be text or a sequence of calls, got {value}",
                                 value=repr(calls))) from None
    return tuple(parse_whist_call(w) for w in words)


@dataclass(frozen=True)
class WhistResult:
    """Verdict on the defenders' whist calls.

    ``seat`` is 0 for the first defender (declarer's left), 1 for the second,
    None for a call made after the calls were over.
    ``outcome`` is ``"misere"`` (no whist, both catch), ``"catch"`` (a 10 under
    ``ten_whist="checked"``: no whist, both catch, always played, RULES.md §3.4),
    ``"pass_out"`` (both passed: counted as made), ``"half_whist"`` (no play,
    unless ``half_whist="played"``),
    ``"one_whister"`` or ``"two_whisters"``; ``whisters`` lists the whisting
    defenders; ``play`` is ``"open"``/``"closed"`` when the hand is played,
    else None.
    """

    legal: bool
    finished: bool = False
    outcome: str | None = None
    whisters: tuple[int, ...] = ()
    half_whister: int | None = None
    play: str | None = None
    call: int | None = None
    seat: int | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form used by ``prefsolve auction --whist … --json``."""
        if not self.legal:
            return {"legal": False, "call": self.call, "seat": self.seat, "reason": english(self.reason)}
        return {"legal": True, "finished": self.finished, "outcome": self.outcome,
                "whisters": list(self.whisters), "half_whister": self.half_whister, "play": self.play}


def check_whist_calls(contract: Contract | str, calls: str | Iterable[str], rules: Rules | str | None = None,
                      open: bool | str = True) -> WhistResult:
    """Validate the defenders' calls in speaking order (RULES.md §3.2 and §3.5).

    The first defender speaks, then the second; after «пас, полвиста» the
    first defender speaks again (his second chance: whist, or pass and the
    half-whist stands). ``open`` is the lone whister's choice to play open:
    True or False, or a word :func:`parse_whist_play` reads (``"закрыто"``).

    >>> r = check_whist_calls("7S", ["pass", "half", "pass"])
    >>> r.outcome, r.half_whister
    ('half_whist', 1)
    >>> check_whist_calls("8S", ["pass", "half"]).reason
    '§3.2: half-whist is allowed only on 6- and 7-level contracts, not on 8S'
    >>> check_whist_calls("10S", ["pass", "pass"], Rules.profile("classic")).outcome
    'catch'
    """
    rules = Rules.of(rules)
    c = contract if isinstance(contract, Contract) else Contract.parse(contract)
    words = parse_whist_calls(calls)
    lone = parse_whist_play(open)     # how a lone whister (or a played half-whist) plays
    if c.is_misere:
        if words:
            return WhistResult(False, call=0, seat=0,
                               reason=_("§3.2: misère has no whist calls, not even passes: both opponents catch "
                                        "the declarer; give no calls"))
        return WhistResult(True, True, "misere", (0, 1), play=CLOSED)
    if c.level == 10 and rules.ten_whist == "checked":
        # ten_whist="checked" (RULES.md §3.4): nobody whists on a 10, both
        # defenders "catch" the declarer, so the hand is always played, open, and
        # never passed out, with no trick whists. Calls are optional; only «пас»
        # may be said.
        for i, w in enumerate(words):
            if i >= 2:     # nobody speaks after the calls are over, so the call has no seat
                return WhistResult(False, call=i, reason=_("§3.2: the whist calls are already over"))
            if w != PASS:
                return WhistResult(False, call=i, seat=i, reason=_(
                    "§3.4: nobody whists on {contract} (ten_whist='checked'): both defenders catch the declarer and "
                    "the hand is played", contract=shown(c)))
        return WhistResult(True, True, "catch", play=OPEN)
    seq_seats = (0, 1, 0)
    for i, w in enumerate(words):
        if i >= 3 or (i == 2 and words[1] != HALF):     # nobody speaks after the end: no seat
            return WhistResult(False, call=i, reason=_("§3.2: the whist calls are already over"))
        seat = seq_seats[i]
        why = None
        if w == HALF:
            if seat == 0:
                why = _("§3.2: only the second defender may half-whist")
            elif rules.half_whist == "off":
                why = _("§3.2: half-whist is not played in the {rules} rules", rules=rules.name)
            elif words[0] != PASS:
                why = _("§3.2: half-whist is allowed only after the first defender passed")
            elif c.level is not None and c.level > 7:
                why = _("§3.2: half-whist is allowed only on 6- and 7-level contracts, not on {contract}",
                        contract=shown(c))
        if why is None and w != WHIST and rules.stalingrad and c == Contract(6, "S"):
            why = _("§3.5 Stalingrad: both defenders must whist against 6♠")
        if why is not None:
            return WhistResult(False, call=i, seat=seat, reason=why)
    if len(words) < 2 or (words[1] == HALF and len(words) < 3):
        return WhistResult(True)        # legal so far, not finished
    if words[1] == HALF:
        if words[2] == WHIST:  # second chance taken: whist + pass, the half-whist lapses
            return WhistResult(True, True, "one_whister", (0,), play=lone)
        # The half-whist stands (RULES.md §3.2): no play by default, played out under
        # half_whist="played", the half-whister then choosing open or closed.
        play = lone if rules.half_whist == "played" else None
        return WhistResult(True, True, "half_whist", half_whister=1, play=play)
    whisters = tuple(i for i in (0, 1) if words[i] == WHIST)
    if not whisters:
        return WhistResult(True, True, "pass_out")
    if len(whisters) == 2:  # both whist → played closed (RULES.md §3.2)
        return WhistResult(True, True, "two_whisters", whisters, play=CLOSED)
    return WhistResult(True, True, "one_whister", whisters, play=lone)


def play_chooser(result: WhistResult) -> int | None:
    """The defender who chooses to play open or closed (RULES.md §3.2), or None
    when nobody chooses: 0 is the first defender (declarer's left), 1 the second.

    A lone whister chooses; so does a half-whister whose half-whist stands and is
    played (``half_whist="played"``). Two whisters play closed, a misère and a
    checked 10 are played as the rules say, and a hand that is not played has no
    play to choose.

    >>> play_chooser(check_whist_calls("7S", ["pass", "whist"]))
    1
    >>> play_chooser(check_whist_calls("7S", ["whist", "whist"])) is None
    True
    >>> play_chooser(check_whist_calls("7S", ["pass", "half", "pass"], Rules().replace(half_whist="played")))
    1
    """
    if not result.legal or not result.finished:
        return None
    if result.outcome == "one_whister":
        return result.whisters[0]
    if result.outcome == "half_whist" and result.play is not None:
        return result.half_whister
    return None
