"""The heuristic player: a book player of Preferans rules of thumb, without a solver.

It plays the way a solid club player is taught to play, from what its seat
sees, with no search and no sampling: every decision is a few table look-ups
and comparisons (microseconds to a millisecond), and the same view always gets
the same decision. Its rules, in a player's words:

**Counting a hand** (:func:`declarer_count`, :func:`defender_count`). The
declarer's tricks in a strain are the auction model's estimate
(:func:`~prefsolve.analysis.auction_model.estimate`: trumps count their length
less the missing Т, К, Д among the top three places; a side suit its top run,
two at most) plus the part-tricks the book gives the honours it leaves out:
КД ¾, КДВ 1½, К x ¼, ТД ½; ½ for ТК xxx(x) trumps missing the Д; and, with
trumps that draw the defenders' (four trump tricks or more), ¾ for each side
master after the second and ½ for each card of a side suit beyond the fourth.
No-trump needs every suit stopped (Т, К x, Д xx) unless the declarer leads
first with the tricks in hand. A defender counts his tricks against the
contract: Т 1, ТК 2, К x ¾, КД 1, Д xx ¼ in a side suit; trump honours that
survive (Т 1, К x ¾, Д xx ½, В xxx ¼) and ½ a trump beyond the third; ½ for a
void or singleton he can ruff with.

**Bidding** (:func:`bid_limit`, :func:`misere_hand`). The talon is worth
about one trick: the player bids up to the highest game whose level his count
plus one reaches (no-trump only with every suit stopped), the cheapest call
first, a hold («здесь») where he may, and passes when the auction goes above
it. Misère («мизер») is bid as the first call with a hand that one card put
away makes clean: every card safe by the 7-9-В-К ladder of each suit (the
i-th card from the bottom is safe up to the 7, 9, В, К), the other card of
the discard spare for a bad talon. With
nothing to bid while no game has been bid, so that his pass may end in
all-pass («распасы»), a player whose hand would take four tricks or more
there (eight cards unsafe by the ladder) bids a six half a trick thinner.
The exit rule after all-pass (RULES.md §2.6) and who may bid what are the
legal calls' business: he only chooses among them.

**Talon and declaration** (:func:`choose_declaration`, :func:`misere_discard`).
With the twelve cards he tries every discard in every strain, declares the
strain of the best count, at the winning bid's level or higher when the count
has a trick to spare per level, and never below the bid. With a hand three
tricks short he concedes «без трёх» where the rules allow it. On misère he
puts away the two cards that leave the fewest unsafe ones, the highest first.

**Whisting** (:func:`whist_call`). Against a six each whister's quota is 2,
against a seven 1, against 8 and more the pair needs one trick: the first
defender whists when his count reaches the quota; the second whists after a
whist on the same count, and alone (after a pass) with half a trick more,
since his partner's cards then count for him. A half-whist that stands is
not played and earns half the obligation without risk, so the second
defender says it whenever he does not whist. A lone whister plays **open**
(«в светлую»): seeing both defenders' hands he directs the partner's cards,
which is what a weak passer is for; the declarer sees them too, but it is
the defence that needs coordination, not the declarer.

**The declarer's play** (:func:`declarer_lead`, :func:`declarer_follow`).
Take the tricks in hand when they make the contract (in no-trump, also when
the defenders hold a suit he cannot stop); draw trumps with the master while
the defenders have any, or, two trumps up on them, drive out their honour with
a sequence, keeping weaker trumps for ruffs; drive out the defenders' high
cards in a side suit with a sequence (К from КДВ); set up the longest
suit (cash its master, else give up its small card); cash masters; otherwise
exit with a small card of a suit without honours. Following, second hand, he
takes with the lowest card sure to hold the trick and plays low otherwise;
last, he wins as cheaply as he can; void, he ruffs with the lowest trump that
wins, or throws a card of his weakest suit.

**The defence** (:func:`defender_lead`, :func:`defender_follow`). Lead
partner's suit back; cash a master when its suit is short or headed by ТК;
lead a singleton for a ruff when holding trumps; the top of a sequence (К
from КД, Д from ДВ10); «под игрока — с семака, под вистующего — с туза»: when
the declarer plays right after the leader lead small, when he plays last lead
high; never away from a tenace (ТД, КВ, К x) or from trumps while other leads
exist. Following: second hand low, covering an honour with an honour; third
hand high (the lowest of touching cards), or the lowest card sure to beat
the declarer; nothing wasted on a trick partner already holds; ruff the
declarer's winners with the lowest trump that wins; throw from the weak suit.
A hand lying face up (an open defence) is used as it is.

**Misère** (:func:`misere_declarer_card`, :func:`catcher_card`). The
declarer leads the highest card no catcher can stay under (a bare unsafe card
at once, before the catchers' hands are laid down), ducks with the highest
card that still loses, wins (when he must) with his highest, and throws his
most dangerous card when void. The catchers look for the declarer's hole:
they play out each suit in their minds, the leader's lowest card and his
partner's lowest under the declarer's highest duck, and lead the suit that
catches him soonest, from the bottom; following, they stay under the
declarer's card with their highest such card, keep their small cards (the
partner's way back in) and throw their highest cards; before the hands are
known they lead from their shortest suit.

**All-pass** (:func:`allpass_card`). Duck with the highest card that loses;
when a trick must be won, win it with the highest card; lead the card least
likely to win (one no other card in play can stay under), shedding high cards
of short suits while it is safe; when void, throw the most dangerous card (the
one with more unseen cards below it than own cards).

Throughout, the player uses what its seat sees: its hand, the cards played,
who showed out of which suit (and, in a game, out of trumps when he did not
ruff), the talon once shown, the hands lying face up; it never looks at a
card it is not shown.

>>> from prefsolve.game import DealState
>>> from prefsolve.players.base import seat_view
>>> state = DealState("AKQJ8.A7.A8.8 9.JT8.KQJ9.Q9 T7.K9.T7.AKT7 -.Q.-.J")
>>> declarer_count(state.deal.hands[0], "S"), str(HeuristicPlayer().decide(seat_view(state, 0)))
(7.0, '6S')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..analysis.auction_model import estimate, misere_unsafe
from ..auction import BID, HOLD, PASS, WHIST, Call, check_auction, seniority
from ..cards import ALL_CARDS, Card, Cards, Hand, cards_in_hand_order
from ..contract import Contract
from ..game import CARD, DECLARATION, DEFENCE, OPEN, WHIST_CALL, Decision, Declaration
from ..rules import Rules
from ..strains import SUITS
from .base import Player, SeatView

# -- ranks and suits as bits -------------------------------------------------------
_A, _K, _Q, _J = 7, 6, 5, 4
_SUIT_BITS = 0xFF
#: The talon's expected help to a bidder, in tricks (the book counts on it for "the rest").
TALON_HELP = 1.0
#: Tricks a count must exceed a level by, per level, before the declarer declares above his bid.
UPGRADE_MARGIN = 1.0
#: Trump tricks (length less the top losers) that draw the defenders' trumps, so that side
#: masters after the second and long side suits count.
SOLID_TRUMPS = 4
#: Cards unsafe by the 7-9-В-К ladder (:func:`~prefsolve.analysis.auction_model.misere_unsafe`)
#: of a hand that takes four tricks or more in all-pass, and so bids a six half a trick thinner.
ALLPASS_DANGER = 8
#: A declarer this many tricks short of every contract he may declare concedes «без трёх».
CONCEDE_SHORT = 3.0


def _suit(mask: int, s: int) -> int:
    return mask >> (8 * s) & _SUIT_BITS


def _has(m: int, rank: int) -> bool:
    return bool(m >> rank & 1)


def _run(m: int) -> int:
    """The top sequence of a suit from the ace: Т 1, ТК 2, ТКД 3 …"""
    n = 0
    for r in range(_A, -1, -1):
        if not m >> r & 1:
            break
        n += 1
    return n


def _above(rank: int) -> int:
    """The ranks above ``rank`` as an 8-bit mask."""
    return _SUIT_BITS & ~((1 << (rank + 1)) - 1)


def _below(rank: int) -> int:
    return (1 << rank) - 1


def _top(m: int) -> int:
    return m.bit_length() - 1


def _low(m: int) -> int:
    return (m & -m).bit_length() - 1


def _card(s: int, rank: int) -> Card:
    return ALL_CARDS[8 * s + rank]


def _trump_of(strain: str | None) -> int:
    return SUITS.index(strain) if strain is not None and strain in SUITS else -1


# -- counting a hand ---------------------------------------------------------------
def _side_part(m: int) -> float:
    """Part-tricks of a side suit's honours that the model's top run leaves out: КД ¾,
    КДВ 1½, К x ¼, ТД ½."""
    n, run = m.bit_count(), _run(m)
    if run == 1 and _has(m, _Q):
        return 0.5
    if run == 0 and _has(m, _K) and n >= 2:
        return (1.5 if _has(m, _J) and n >= 3 else 0.75) if _has(m, _Q) else 0.25
    return 0.0


def _side_length(m: int) -> float:
    """What a side suit adds once trumps are drawn: ¾ for each master after the second,
    ½ for each card beyond the fourth of a suit with a top honour."""
    n, run = m.bit_count(), _run(m)
    extra = 0.75 * (run - 2) if run >= 3 else 0.0
    if n >= 5 and (run or _has(m, _K)):
        extra += 0.5 * (n - 4)
    return extra


def _trump_extra(m: int) -> float:
    """ТК xxx(x) trumps: the missing Д often falls (the book's 4½ for ТК xxx)."""
    return 0.5 if m.bit_count() >= 5 and _has(m, _A) and _has(m, _K) and not _has(m, _Q) else 0.0


def _losers(m: int) -> int:
    return sum(1 for r in (_A, _K, _Q)[:min(m.bit_count(), 3)] if not m >> r & 1)


def _nt_extra(m: int) -> float:
    """Part-tricks in no-trump of a suit the model counts by its top run only (it has losers)."""
    n = m.bit_count()
    if not n or not _losers(m):
        return 0.0
    extra = _side_part(m) if n < 5 else 0.0
    if n >= 4:
        extra = max(extra, 0.75 * (n - _losers(m)) - _run(m))
    return extra


def _stopped(m: int) -> bool:
    """A stopper in no-trump: Т, К x or Д xx."""
    n = m.bit_count()
    return _has(m, _A) or (_has(m, _K) and n >= 2) or (_has(m, _Q) and n >= 3)


_SIDE_PART = tuple(_side_part(m) for m in range(256))
_SIDE_LENGTH = tuple(_side_length(m) for m in range(256))
_TRUMP_EXTRA = tuple(_trump_extra(m) for m in range(256))
_NT_EXTRA = tuple(_nt_extra(m) for m in range(256))


def declarer_count(hand: Hand, strain: str) -> float:
    """The tricks a declarer counts on with ``hand`` in a game ``strain`` (``S C D H NT``):
    the auction model's estimate plus the book's part-tricks (see the module's text).

    >>> declarer_count(Hand.parse("KQJ98.A.KQ8.8"), "S"), declarer_count(Hand.parse("A7.A.AK.AKQJT"), "NT")
    (5.75, 9.0)
    """
    suits = [_suit(hand.mask, s) for s in range(4)]
    base = float(estimate(hand, strain))
    if strain == "NT":
        return min(10.0, base + sum(_NT_EXTRA[m] for m in suits))
    t = SUITS.index(strain)
    trumps = suits[t]
    extra = _TRUMP_EXTRA[trumps] + sum(_SIDE_PART[m] for k, m in enumerate(suits) if k != t)
    if trumps.bit_count() - _losers(trumps) >= SOLID_TRUMPS:
        extra += sum(_SIDE_LENGTH[m] for k, m in enumerate(suits) if k != t)
    return min(10.0, base + extra)


def nt_playable(hand: Hand, *, leads: bool) -> bool:
    """No-trump is played with every suit stopped, or by a declarer who leads first
    with as many master tricks as the contract's lowest level."""
    suits = [_suit(hand.mask, s) for s in range(4)]
    if all(_stopped(m) for m in suits):
        return True
    return leads and sum(m.bit_count() if not _losers(m) else _run(m) for m in suits) >= 6


def strain_counts(hand: Hand, *, leads: bool = False) -> dict[str, float]:
    """The count of ``hand`` in each game strain it may be played in."""
    counts = {s: declarer_count(hand, s) for s in SUITS}
    if nt_playable(hand, leads=leads):
        counts["NT"] = declarer_count(hand, "NT")
    return counts


def _def_side(m: int) -> float:
    n = m.bit_count()
    if _has(m, _A):
        v = 1.0
        if _has(m, _K):
            v += 1.0 if n <= 5 else 0.5
            if _has(m, _Q) and n <= 4:
                v += 0.5
        elif _has(m, _Q) and n >= 2:
            v += 0.25
        return v
    if _has(m, _K):
        return 1.0 if _has(m, _Q) else 0.75 if n >= 2 else 0.0
    return 0.25 if _has(m, _Q) and n >= 3 else 0.0


def _def_trump(m: int) -> float:
    n = m.bit_count()
    v = 0.0
    held_above = 0
    for rank, guard, value in ((_A, 1, 1.0), (_K, 2, 0.75), (_Q, 3, 0.5), (_J, 4, 0.25)):
        if _has(m, rank):
            v += 1.0 if held_above == _A - rank else value if n >= guard else 0.0
            held_above += 1
    return v + 0.5 * max(0, n - 3)


def _def_nt(m: int) -> float:
    n = m.bit_count()
    v = _def_side(m) if _has(m, _A) else (1.0 if _has(m, _K) and _has(m, _Q) else
                                         0.75 if _has(m, _K) and n >= 2 else
                                         0.5 if _has(m, _Q) and n >= 3 else 0.0)
    if n >= 5 and (_has(m, _A) or _has(m, _K)):
        v += 0.5 * (n - 4)
    return v


_DEF_SIDE = tuple(_def_side(m) for m in range(256))
_DEF_TRUMP = tuple(_def_trump(m) for m in range(256))
_DEF_NT = tuple(_def_nt(m) for m in range(256))


def defender_count(hand: Hand, strain: str) -> float:
    """The tricks a defender counts on against a game in ``strain`` (see the module's text).

    >>> defender_count(Hand.parse("87.A8.A97.K98"), "S"), defender_count(Hand.parse("87.98.T98.987"), "S")
    (2.75, 0.0)
    """
    suits = [_suit(hand.mask, s) for s in range(4)]
    if strain == "NT":
        return sum(_DEF_NT[m] for m in suits)
    t = SUITS.index(strain)
    side = sum(_DEF_SIDE[m] for k, m in enumerate(suits) if k != t)
    ruff = 0.5 if suits[t] and any(m.bit_count() <= 1 for k, m in enumerate(suits) if k != t) else 0.0
    return _DEF_TRUMP[suits[t]] + side + ruff


def misere_hand(hand: Hand) -> bool:
    """Whether ``hand`` is one for misère: one card away from clean by the 7-9-В-К ladder,
    so that the discard fixes it and has a card to spare for a bad talon.

    >>> misere_hand(Hand.parse("79J.79.79.79J")), misere_hand(Hand.parse("8TQ.79.79.79J"))
    (True, False)
    """
    if misere_unsafe(hand) == 0:
        return True
    return any(misere_unsafe(Hand(hand.mask & ~(1 << c.index))) == 0 for c in hand)


# -- bidding -----------------------------------------------------------------------
def bid_limit(hand: Hand, rules: Rules, *, leads: bool = False, slack: float = 0.0) -> Contract | None:
    """The highest game the player bids up to with ``hand``: in each strain, the level his
    count plus the talon's help (and ``slack``) reaches; None below a six."""
    best: Contract | None = None
    for strain, count in strain_counts(hand, leads=leads).items():
        level = min(10, int(count + TALON_HELP + slack))
        if level < 6:
            continue
        c = Contract(level, strain)
        if best is None or seniority(c, rules) > seniority(best, rules):
            best = c
    return best


def allpass_danger(hand: Hand) -> bool:
    """A hand that would take four tricks or more in all-pass: eight cards or more unsafe
    by the 7-9-В-К ladder (all-pass takes about four tricks fewer than that count).

    >>> allpass_danger(Hand.parse("AQJ.KT.K.AQJ9")), allpass_danger(Hand.parse("AK987.87.87.87"))
    (True, False)
    """
    return misere_unsafe(hand) >= ALLPASS_DANGER


def choose_call(view: SeatView) -> Call:
    """The call: misère as a first call with a misère hand; else the cheapest bid (or a
    hold) up to the bid limit; else pass (see the module's text)."""
    options = view.options
    first_call = not any(view.calls[i].kind != PASS for i in range(len(view.calls))
                         if _caller(view, i) == view.seat)
    misere = next((o for o in options if o.kind == BID and o.contract.is_misere
                   and not o.contract.without_talon), None)
    if misere is not None and first_call and misere_hand(view.hand):
        return misere
    leads = view.rules.opening_leader(view.seat) == view.seat
    limit = bid_limit(view.hand, view.rules, leads=leads)
    if limit is None and _allpass_possible(view) and allpass_danger(view.hand):
        limit = bid_limit(view.hand, view.rules, leads=leads, slack=0.5)
    if limit is not None:
        top = seniority(limit, view.rules)
        games = [o for o in options if o.kind in (BID, HOLD) and o.contract is not None
                 and not o.contract.is_misere and not o.contract.without_talon
                 and seniority(o.contract, view.rules) <= top]
        hold = next((o for o in games if o.kind == HOLD), None)
        if hold is not None:
            return hold
        if games:
            return games[0]
    return next(o for o in options if o.kind == PASS)


def _caller(view: SeatView, i: int) -> int:
    """The seat that made call ``i`` (passed players are skipped in the turn)."""
    if i == 0:
        return 0
    result = check_auction(view.calls[:i], view.rules, view.allpass_count)
    return result.next_seat if result.next_seat is not None else 0


def _allpass_possible(view: SeatView) -> bool:
    """Whether no game has been bid, so that this pass may end the deal in all-pass."""
    return all(c.kind == PASS for c in view.calls)


# -- talon and declaration ---------------------------------------------------------
def _without(hand: Hand, cards: Iterable[Card]) -> Hand:
    mask = hand.mask
    for c in cards:
        mask &= ~(1 << c.index)
    return Hand(mask)


def discard_for(twelve: Hand, strain: str) -> tuple[Cards, float]:
    """The two cards whose discard leaves the best count in ``strain``, and that count."""
    best: tuple[float, int, Cards] | None = None
    for pair in combinations(cards_in_hand_order(twelve.mask), 2):
        ten = _without(twelve, pair)
        count = declarer_count(ten, strain)
        key = (count, -sum(c.rank for c in pair))     # equal counts: throw the smaller cards
        if best is None or key > best[:2]:
            best = (count, key[1], Cards(pair))
    assert best is not None
    return best[2], best[0]


def choose_declaration(view: SeatView) -> Declaration:
    """The discard and contract after the talon (see the module's text)."""
    options = view.options
    if options[0].is_misere:
        discard = misere_discard(view.hand) if len(view.hand) == 12 else None
        return Declaration(options[0], discard)
    leads = view.rules.opening_leader(view.seat) == view.seat
    twelve = view.hand
    choices: list[tuple[float, Contract, Cards | None]] = []
    for strain in (*SUITS, "NT"):
        discard, count = discard_for(twelve, strain) if len(twelve) == 12 else (None, declarer_count(twelve, strain))
        contract = _declared(options, strain, count)
        if contract is None:
            continue
        if strain == "NT" and choices and not nt_playable(_without(twelve, discard or ()), leads=leads):
            continue                        # no-trump with a suit open: only when nothing else is allowed
        choices.append((count - contract.level, contract, discard))   # type: ignore[operator]
    spare, contract, discard = max(choices, key=lambda x: (x[0], -seniority(x[1], view.rules)))
    if spare <= -CONCEDE_SHORT and view.can_concede:
        return Declaration(options[0], discard, True)
    return Declaration(contract, discard)


def _declared(options: Sequence[Contract], strain: str, count: float) -> Contract | None:
    """The contract of ``strain`` to declare among ``options``: its lowest level allowed,
    higher by a level for each trick the count has to spare."""
    mine = [c for c in options if c.strain == strain]
    if not mine:
        return None
    chosen = mine[0]
    for c in mine[1:]:
        if count >= c.level + UPGRADE_MARGIN:       # type: ignore[operator]
            chosen = c
    return chosen


def misere_discard(twelve: Hand) -> Cards:
    """The misère discard: the two cards whose absence leaves the fewest unsafe cards,
    the highest such pair.

    >>> print(misere_discard(Hand.parse("79JA.79.79.79JQ")))
    ♠A ♥Q
    """
    best: tuple[int, int, Cards] | None = None
    for pair in combinations(cards_in_hand_order(twelve.mask), 2):
        key = (-misere_unsafe(_without(twelve, pair)), sum(c.rank for c in pair))
        if best is None or key > best[:2]:
            best = (key[0], key[1], Cards(pair))
    assert best is not None
    return best[2]


# -- whisting ----------------------------------------------------------------------
def whist_call(view: SeatView) -> str:
    """``whist``, ``half`` or ``pass`` by the defender's count against the quota (see the
    module's text)."""
    options = view.options
    if len(options) == 1:
        return options[0]
    contract = view.contract
    assert contract is not None and contract.level is not None and view.declarer is not None
    count = defender_count(view.dealt, contract.strain)
    quota = {6: 2.0, 7: 1.0}.get(contract.level, 1.0)
    first = view.seat == (view.declarer + 1) % 3
    said = view.whist_calls
    if first and said:                       # the second chance after a half-whist
        need = quota + 0.5
    elif first or said[:1] == (WHIST,):
        need = quota
    else:                                    # the second defender after a pass: alone
        need = quota + (0.5 if contract.level <= 7 else 0.0)
    if count >= need and WHIST in options:
        return WHIST
    if "half" in options:
        return "half"
    return PASS if PASS in options else options[0]


# -- what a seat sees of the play ----------------------------------------------------
@dataclass(frozen=True)
class Knowledge:
    """What the seat to play knows at a card decision: its cards, the hands it sees,
    the cards nobody has shown it, who is void in what, the trick on the table."""

    seat: int
    """The seat whose card is asked (the lone whister of an open defence plays his partner's too)."""
    me: int
    """Its cards, as a 32-bit mask."""
    legal: tuple[Card, ...]
    trump: int
    """The trump suit 0..3, or -1 (no-trump, misère, all-pass)."""
    kind: str
    """``game``, ``misere`` or ``allpass``."""
    declarer: int | None
    level: int
    tricks_won: tuple[int, int, int]
    known: Mapping[int, int]
    """The current cards of the other seats whose hands it sees."""
    unseen: int
    """The cards in play it has not seen (the declarer's discard among them, for a defender)."""
    voids: tuple[int, int, int]
    """Per seat, the suits (bits 0..3) it has shown out of."""
    led: int | None
    """The suit to follow, None when the seat leads."""
    trick: tuple[tuple[int, Card], ...]
    """The cards of the current trick with their seats."""
    later: tuple[int, ...]
    """The seats still to play to the trick after this one."""
    talon: int = 0
    """The talon cards shown, as a mask."""
    partner_led: int = 0
    """The suits (bits 0..3) partner has led."""

    def possible(self, seat: int) -> int:
        """The cards ``seat`` may hold (all of them, if his hand is known)."""
        if seat in self.known:
            return self.known[seat]
        mask = self.unseen
        for s in range(4):
            if self.voids[seat] >> s & 1:
                mask &= ~(_SUIT_BITS << (8 * s))
        return mask

    def opponents(self, seat: int | None = None) -> list[int]:
        seat = self.seat if seat is None else seat
        if self.kind == "allpass":
            return [s for s in range(3) if s != seat]
        if seat == self.declarer:
            return [s for s in range(3) if s != seat]
        return [self.declarer] if self.declarer is not None else []

    def partner(self) -> int | None:
        if self.kind == "allpass" or self.seat == self.declarer or self.declarer is None:
            return None
        return 3 - self.seat - self.declarer

    def against(self, seat: int | None = None) -> int:
        """The cards ``seat``'s opponents may hold."""
        mask = 0
        for s in self.opponents(seat):
            mask |= self.possible(s)
        return mask

    def mine(self, s: int) -> int:
        return _suit(self.me, s)

    def winner(self) -> tuple[int, Card] | None:
        """The seat and card winning the trick so far (None before a card of the led suit)."""
        best: tuple[int, Card] | None = None
        for seat, card in self.trick:
            if best is None:
                if card.suit == self.led:
                    best = (seat, card)
            elif _beats(card, best[1], self.trump):
                best = (seat, card)
        return best

    def is_master(self, card: Card, seat: int | None = None) -> bool:
        """No card of its suit that ``seat``'s opponents may hold is higher."""
        return not _suit(self.against(seat), card.suit) & _above(card.rank)

    def cards_of(self, s: int) -> list[Card]:
        """The seat's cards of suit ``s``, low to high."""
        m = self.mine(s)
        return [_card(s, r) for r in range(8) if m >> r & 1]


def _beats(card: Card, best: Card, trump: int) -> bool:
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump


def read_knowledge(view: SeatView) -> Knowledge:
    """The :class:`Knowledge` of a card decision, from the view alone."""
    seat = view.to_play if view.to_play is not None else view.seat
    me_hand = view.holding(seat)
    assert me_hand is not None
    known = {s: h.mask for s in range(3) if s != seat and (h := view.holding(s)) is not None}
    gone = view.played.mask | view.turn.mask
    if seat == view.declarer and view.discard is not None:
        gone |= view.discard.mask
    unseen = 0xFFFFFFFF & ~me_hand.mask & ~gone
    for mask in known.values():
        unseen &= ~mask
    trump = -1 if view.all_pass or view.contract is None else _trump_of(view.contract.strain)
    kind = "allpass" if view.all_pass else "misere" if view.contract is not None and view.contract.is_misere \
        else "game"
    current = view.tricks[-1] if view.tricks and view.tricks[-1].winner is None else None
    trick = tuple(zip(current.seats, current.cards)) if current is not None else ()
    later = tuple((seat + k) % 3 for k in range(1, 3 - len(trick)))
    level = view.contract.level if view.contract is not None and view.contract.level is not None else 0
    return Knowledge(seat, me_hand.mask, tuple(view.options), trump, kind, view.declarer, level, view.tricks_won,
                     known, unseen, _voids(view, trump), view.led_suit, trick, later,
                     view.talon.mask if view.talon is not None else 0, _partner_leads(view, seat))


def _voids(view: SeatView, trump: int) -> tuple[int, int, int]:
    """The suits each seat has shown out of; in a game, also trumps when it did not ruff."""
    voids = [0, 0, 0]
    for done in view.tricks:
        led = done.talon_card.suit if done.talon_card is not None else (done.cards[0].suit if done.cards else None)
        for s, c in zip(done.seats, done.cards):
            if led is not None and c.suit != led:
                voids[s] |= 1 << led
                if trump >= 0 and c.suit != trump:
                    voids[s] |= 1 << trump
    return voids[0], voids[1], voids[2]


def _partner_leads(view: SeatView, seat: int) -> int:
    """The suits a defender's partner has led so far."""
    if view.all_pass or view.declarer is None or seat == view.declarer:
        return 0
    partner = 3 - seat - view.declarer
    out = 0
    for done in view.tricks:
        if done.cards and done.leader == partner and done.talon_card is None:
            out |= 1 << done.cards[0].suit
    return out


# -- small choices shared by every role ----------------------------------------------
def _lowest(cards: Iterable[Card]) -> Card:
    return min(cards, key=lambda c: (c.rank, c.suit))


def _highest(cards: Iterable[Card]) -> Card:
    return max(cards, key=lambda c: (c.rank, -c.suit))


def _sequence_bottom(k: Knowledge, card: Card) -> Card:
    """The lowest of the seat's cards equal in play to ``card``: touching it from below,
    the cards between them all played."""
    s = card.suit
    mine, out = k.mine(s), _suit(k.unseen | _known_mask(k), s)
    for r in range(card.rank - 1, -1, -1):
        if out >> r & 1:
            break
        if mine >> r & 1:
            card = _card(s, r)
    return card


def _known_mask(k: Knowledge) -> int:
    mask = 0
    for m in k.known.values():
        mask |= m
    return mask


#: The cards an honour needs beside it to stand up: К x, Д xx, В xxx.
_GUARDS = {_K: 1, _Q: 2, _J: 3}


def _keep_value(k: Knowledge, card: Card) -> float:
    """How much the seat wants to keep ``card`` in a trick game: trumps, masters, a
    guarded honour and the small cards that guard it."""
    v = float(card.rank)
    if card.suit == k.trump:
        v += 40
    if k.is_master(card):
        return v + 20
    cards = k.cards_of(card.suit)
    for honour in cards:
        guards = _GUARDS.get(honour.rank)
        if guards is None or k.is_master(honour) or len(cards) <= guards:
            continue
        if card == honour:
            v += 12
        elif card in cards[:guards]:
            v += 10
    return v


def _throw(k: Knowledge, cards: Sequence[Card]) -> Card:
    """A discard in a trick game: the card the seat least needs, from its weakest suit."""
    return min(cards, key=lambda c: (_keep_value(k, c), k.mine(c.suit).bit_count()))


def _cheapest_winner(k: Knowledge, cards: Sequence[Card], over: Card) -> Card | None:
    """The lowest of ``cards`` that beats ``over``."""
    wins = [c for c in cards if _beats(c, over, k.trump)]
    return min(wins, key=lambda c: (c.suit == k.trump, c.rank)) if wins else None


def _sure_of(k: Knowledge, cards: Sequence[Card], over: Card | None, seats: Sequence[int]) -> Card | None:
    """The lowest of ``cards`` that beats ``over`` and whatever ``seats`` may still play
    of its suit (a seat void in it that may ruff makes nothing sure)."""
    sure = []
    for c in cards:
        if over is not None and not _beats(c, over, k.trump):
            continue
        ok = True
        for s in seats:
            theirs = k.possible(s)
            if _suit(theirs, c.suit) & _above(c.rank):
                ok = False
            elif (not _suit(theirs, c.suit) and k.trump >= 0 and c.suit != k.trump
                  and _suit(theirs, k.trump)):
                ok = False
        if ok:
            sure.append(c)
    return _lowest(sure) if sure else None


# -- the declarer ------------------------------------------------------------------
def _masters(k: Knowledge, s: int) -> list[Card]:
    """The seat's cards of suit ``s`` that are masters now, from the top."""
    out = []
    for c in reversed(k.cards_of(s)):
        if not k.is_master(c):
            break
        out.append(c)
        # the next lower card of the seat is a master only if nothing between is out
    return out


def _sure_tricks(k: Knowledge) -> int:
    return sum(len(_masters(k, s)) for s in range(4))


def declarer_lead(k: Knowledge) -> Card:
    """The declarer's lead (see the module's text)."""
    legal = k.legal
    need = k.level - k.tricks_won[k.seat]
    against = k.against()
    opp_trumps = _suit(against, k.trump) if k.trump >= 0 else 0
    sure = _sure_tricks(k)
    if (sure >= need and (not opp_trumps or _masters(k, k.trump))) or (sure and _open_suit(k, against)):
        return _cash(k) or _lowest(legal)
    if opp_trumps and k.mine(k.trump):
        card = _draw_trumps(k, opp_trumps)
        if card is not None:
            return card
    for step in (_knock_out, _long_suit, _cash):
        card = step(k)
        if card is not None:
            return card
    return _exit(k)


def _open_suit(k: Knowledge, against: int) -> bool:
    """In no-trump: a suit the defenders hold and the declarer cannot stop (no master
    in it), so that losing the lead may lose it all."""
    return k.trump < 0 and any(_suit(against, s) and not _masters(k, s) for s in range(4))


def _draw_trumps(k: Knowledge, opp_trumps: int) -> Card | None:
    """Draw trumps with the master; with two trumps more than the defenders, drive out
    their honour with a sequence; weaker trumps are kept for ruffing."""
    top = _card(k.trump, _top(k.mine(k.trump)))
    if k.is_master(top):
        return top
    if k.mine(k.trump).bit_count() >= opp_trumps.bit_count() + 2:
        return _sequence_head(k, k.trump)
    return None


def _sequence_head(k: Knowledge, s: int) -> Card | None:
    """The top of a sequence of two or more honours (В and up) that is not yet master."""
    cards = k.cards_of(s)
    if len(cards) < 2:
        return None
    top = cards[-1]
    if top.rank < _Q or k.is_master(top) or _sequence_bottom(k, top) == top:
        return None
    return top


def _knock_out(k: Knowledge) -> Card | None:
    """Drive out a defender's higher card with a sequence: К from КДВ, Д from ДВ10."""
    heads = [(k.mine(s).bit_count(), h) for s in range(4) if s != k.trump and (h := _sequence_head(k, s))]
    return max(heads, key=lambda x: (x[0], x[1].rank))[1] if heads else None


def _long_suit(k: Knowledge) -> Card | None:
    """Set up the longest side suit of four or more: cash its master, else give up its small card."""
    suits = [s for s in range(4) if s != k.trump and k.mine(s).bit_count() >= 4 and
             len(_masters(k, s)) < k.mine(s).bit_count()]
    if not suits:
        return None
    s = max(suits, key=lambda x: k.mine(x).bit_count())
    masters = _masters(k, s)
    return masters[0] if masters else k.cards_of(s)[0]


def _cash(k: Knowledge) -> Card | None:
    """A master card: trumps first while the defenders hold any, then the side suit with
    the most masters, trumps last."""
    suits = [s for s in range(4) if _masters(k, s)]
    if not suits:
        return None
    drawing = k.trump >= 0 and bool(_suit(k.against(), k.trump))
    s = max(suits, key=lambda x: ((x == k.trump) == drawing, len(_masters(k, x))))
    return _masters(k, s)[0]


def _exit(k: Knowledge) -> Card:
    """Give up the lead with a small card of a suit without honours to lose."""
    def cost(c: Card) -> tuple:
        m = k.mine(c.suit)
        return (c.suit == k.trump, bool(m & (1 << _K | 1 << _Q)), c.rank, -m.bit_count())
    return min((k.cards_of(s)[0] for s in range(4) if k.mine(s)), key=cost)


def declarer_follow(k: Knowledge) -> Card:
    """The declarer's card to a trick led by a defender (see the module's text)."""
    win = k.winner()
    legal = list(k.legal)
    if k.led is not None and legal[0].suit == k.led:
        if not k.later:
            return (_cheapest_winner(k, legal, win[1]) if win else None) or _lowest(legal)
        sure = _sure_of(k, legal, win[1] if win else None, k.later)
        return sure or _lowest(legal)
    if k.trump >= 0 and legal[0].suit == k.trump:
        over = win[1] if win else None
        sure = _sure_of(k, legal, over, k.later)
        if sure is not None:
            return sure
        return (_cheapest_winner(k, legal, over) if over else _lowest(legal)) or _lowest(legal)
    return _throw(k, legal)


# -- the defence -------------------------------------------------------------------
def defender_lead(k: Knowledge) -> Card:
    """A defender's lead against a game (see the module's text)."""
    for step in (_partner_master, _partner_suit, _cash_master, _nt_long_suit, _ruff_lead, _sequence_lead,
                 _positional_lead):
        card = step(k)
        if card is not None:
            return card
    return _exit(k)


def _side_suits(k: Knowledge) -> list[int]:
    return [s for s in range(4) if s != k.trump and k.mine(s)]


def _partner_master(k: Knowledge) -> Card | None:
    """With partner's hand in sight: a small card to a suit where partner holds the master
    (and the declarer cannot ruff it)."""
    partner = k.partner()
    if partner is None or partner not in k.known:
        return None
    for s in _side_suits(k):
        theirs = _suit(k.known[partner], s)
        if theirs and k.is_master(_card(s, _top(theirs))) and _top(theirs) > _top(k.mine(s)) \
                and not _ruffs(k, k.declarer, s):
            return k.cards_of(s)[0]
    return None


def _ruffs(k: Knowledge, seat: int | None, s: int) -> bool:
    """Whether ``seat`` may ruff a lead of suit ``s`` (void in it, trumps possible)."""
    if seat is None or k.trump < 0 or s == k.trump:
        return False
    theirs = k.possible(seat)
    return not _suit(theirs, s) and bool(_suit(theirs, k.trump))


def _partner_suit(k: Knowledge) -> Card | None:
    """Back to the suit partner led: the higher of two cards, else the lowest."""
    for s in _side_suits(k):
        if k.partner_led >> s & 1 and not _ruffs(k, k.declarer, s):
            cards = k.cards_of(s)
            return cards[-1] if len(cards) <= 2 else cards[0]
    return None


def _cash_master(k: Knowledge) -> Card | None:
    """Cash a master of a side suit that is short or headed by ТК (in no-trump, any)."""
    best = None
    for s in _side_suits(k):
        masters = _masters(k, s)
        if not masters or _ruffs(k, k.declarer, s):
            continue
        if k.trump < 0 or k.mine(s).bit_count() <= 2 or len(masters) >= 2:
            key = (len(masters), -k.mine(s).bit_count())
            if best is None or key > best[0]:
                best = (key, masters[0])
    return best[1] if best else None


def _nt_long_suit(k: Knowledge) -> Card | None:
    """Against no-trump: the longest suit of four or more, the top of its sequence or its lowest."""
    if k.trump >= 0:
        return None
    suits = [s for s in range(4) if k.mine(s).bit_count() >= 4]
    if not suits:
        return None
    s = max(suits, key=lambda x: (k.mine(x).bit_count(), k.mine(x)))
    return _sequence_head(k, s) or k.cards_of(s)[0]


def _ruff_lead(k: Knowledge) -> Card | None:
    """A singleton side card (not a master) to ruff the suit later, holding trumps."""
    if k.trump < 0 or not k.mine(k.trump):
        return None
    singles = [k.cards_of(s)[0] for s in _side_suits(k) if k.mine(s).bit_count() == 1
               and not k.is_master(k.cards_of(s)[0])]
    return _lowest(singles) if singles else None


def _sequence_lead(k: Knowledge) -> Card | None:
    """The top of a side sequence: К from КД, Д from ДВ."""
    heads = [h for s in _side_suits(k) if (h := _sequence_head(k, s)) is not None and not _ruffs(k, k.declarer, s)]
    return max(heads, key=lambda c: c.rank) if heads else None


def _tenace(m: int) -> bool:
    """ТД, КВ or a guarded К without the Т: a holding that wants the suit led to it."""
    return (_has(m, _A) and _has(m, _Q) and not _has(m, _K)) or (_has(m, _K) and not _has(m, _A))


def _positional_lead(k: Knowledge) -> Card | None:
    """«Под игрока — с семака, под вистующего — с туза»: small when the declarer plays next
    (through his strength: the suit the talon helped), high when he plays last."""
    suits = [s for s in _side_suits(k) if not _tenace(k.mine(s)) and not _ruffs(k, k.declarer, s)]
    if not suits:
        return None
    if k.declarer == (k.seat + 1) % 3:
        s = max(suits, key=lambda x: (_suit(k.talon, x).bit_count(), k.mine(x).bit_count()))
        return k.cards_of(s)[0]
    s = min(suits, key=lambda x: (_suit(k.talon, x).bit_count(), k.mine(x).bit_count()))
    return k.cards_of(s)[-1]


def _holds(k: Knowledge, card: Card, seats: Sequence[int]) -> bool:
    """Whether ``card`` beats whatever ``seats`` may still play to the trick."""
    return _sure_of(k, [card], None, seats) is not None


def defender_follow(k: Knowledge) -> Card:
    """A defender's card to a trick under way (see the module's text)."""
    win = k.winner()
    legal = list(k.legal)
    partner, decl = k.partner(), k.declarer
    assert decl is not None
    if k.led is not None and legal[0].suit == k.led:
        if not k.later:
            if win and win[0] == partner:
                return _lowest(legal)
            return (_cheapest_winner(k, legal, win[1]) if win else None) or _lowest(legal)
        if k.later == (decl,):
            return _second_before_declarer(k, legal, win, partner)
        return _second_before_partner(k, legal, win, partner)
    if k.trump >= 0 and legal[0].suit == k.trump:
        if win and win[0] == partner and _holds(k, win[1], [s for s in k.later if s == decl]):
            return _lowest(legal)
        over = win[1] if win else None
        sure = _sure_of(k, legal, over, [s for s in k.later if s == decl])
        return sure or (_cheapest_winner(k, legal, over) if over else None) or _lowest(legal)
    return _throw(k, legal)


def _second_before_declarer(k: Knowledge, legal: list[Card], win: tuple[int, Card] | None,
                            partner: int | None) -> Card:
    """Partner led and the declarer plays last: nothing wasted on partner's winner; the
    lowest card sure to beat the declarer; else third hand high (the lowest of touching cards)."""
    decl = [k.declarer] if k.declarer is not None else []
    if win and win[0] == partner and _holds(k, win[1], decl):
        return _lowest(legal)
    sure = _sure_of(k, legal, win[1] if win else None, decl)
    if sure is not None:
        return sure
    top = _highest(legal)
    if top.rank >= _J and (win is None or _beats(top, win[1], k.trump)) and \
            not (win and win[0] == partner and win[1].rank > top.rank):
        return _sequence_bottom(k, top)
    return _lowest(legal)


def _second_before_partner(k: Knowledge, legal: list[Card], win: tuple[int, Card] | None,
                           partner: int | None) -> Card:
    """The declarer led and partner plays last: second hand low, but cover an honour with
    an honour, and win when partner (seen, or void) cannot."""
    if win is None:
        return _lowest(legal)
    over = win[1]
    mine = _cheapest_winner(k, legal, over)
    if mine is None:
        return _lowest(legal)
    if over.rank >= _J and mine.rank >= _Q:
        return mine
    if partner is not None:
        theirs = k.possible(partner)
        can = bool(_suit(theirs, over.suit) & _above(over.rank)) or _ruffs(k, partner, over.suit)
        if not can:
            return mine
    return _lowest(legal)


# -- misère ------------------------------------------------------------------------
def _danger(k: Knowledge, card: Card) -> int:
    """Cards of the suit the others may hold below ``card`` less the seat's own cards
    below it: above 0, the card may be forced to win (the dynamic form of the 7-9-В-К
    ladder)."""
    below = _below(card.rank)
    return (_suit(k.against(), card.suit) & below).bit_count() - (k.mine(card.suit) & below).bit_count()


def _lead_risk(k: Knowledge, card: Card, others: Sequence[int]) -> tuple[int, int]:
    """How likely a lead (or the first card to a talon-led trick) is to win: 0 when some
    other player must play over it; else the cards that can stay under it."""
    s = card.suit
    over = False
    under = 0
    for seat in others:
        theirs = _suit(k.possible(seat), s)
        if theirs and not theirs & _below(card.rank) and (seat in k.known or not _suit(k.unseen, s) & _below(
                card.rank)):
            over = True
        under += (theirs & _below(card.rank)).bit_count()
    if over:
        return (0, 0)
    if not any(_suit(k.possible(seat), s) for seat in others):
        return (99, 0)                          # nobody can follow: the card wins
    return (1, under)


def misere_declarer_card(k: Knowledge) -> Card:
    """The misère declarer's card (see the module's text)."""
    legal = list(k.legal)
    others = [s for s in range(3) if s != k.seat]
    if not k.trick:
        if not k.known:
            bare = [c for c in legal if k.mine(c.suit).bit_count() == 1 and _danger(k, c) > 0]
            if bare:
                return _lowest(bare)
        return min(legal, key=lambda c: (_lead_risk(k, c, others), -c.rank))
    return _duck_or_shed(k, legal)


def _duck_or_shed(k: Knowledge, legal: list[Card]) -> Card:
    """Play to lose a trick: the highest card under the winner; forced over it, the highest
    card when nobody after can go over, else the lowest; void, the most dangerous card."""
    win = k.winner()
    if k.led is not None and legal[0].suit == k.led:
        if win is not None:
            under = [c for c in legal if c.rank < win[1].rank]
            if under:
                return _highest(under)
            if not any(_suit(k.possible(s), k.led) & _above(_lowest(legal).rank) for s in k.later):
                return _highest(legal)
            return _lowest(legal)
        return min(legal, key=lambda c: (_lead_risk(k, c, k.later), -c.rank))
    return max(legal, key=lambda c: (_danger(k, c), c.rank))


def catcher_card(k: Knowledge) -> Card:
    """A catcher's card against misère (see the module's text)."""
    legal = list(k.legal)
    if not k.trick:
        return _catching_lead(k, legal)
    win = k.winner()
    decl = k.declarer
    if k.led is None or legal[0].suit != k.led:
        return _catcher_throw(k, legal)
    if win is not None and win[0] == decl:
        under = [c for c in legal if c.rank < win[1].rank]
        return _highest(under) if under else _highest(legal)
    if decl in k.later:
        if win is not None and _lowest(legal).rank < win[1].rank:
            return _highest([c for c in legal if c.rank < win[1].rank])
        return _lowest(legal)
    under = [c for c in legal if win is not None and c.rank < win[1].rank]
    return _highest(under) if under else _highest(legal)


def _catcher_throw(k: Knowledge, legal: list[Card]) -> Card:
    """Throw the highest card, first from a suit the declarer has no cards in."""
    decl = k.possible(k.declarer) if k.declarer is not None else 0
    return max(legal, key=lambda c: (not _suit(decl, c.suit), c.rank))


def catch_rounds(mine: int, partner: int | None, declarer: int) -> int | None:
    """The rounds of a suit the catchers lead (each the leader's lowest card and his partner's
    lowest, the declarer ducking with his highest card under both) until the declarer must
    win one; None when he ducks them all. Masks are one suit's 8 bits; ``partner`` None:
    not seen, taken as void.

    >>> catch_rounds(0b1, 0, 0b10)          # the 7 led: the declarer's bare 8 wins
    1
    >>> catch_rounds(0b110, 0, 0b10001), catch_rounds(0b100000, 0b1000000, 0b101)
    (2, None)
    """
    if not declarer:
        return None
    hands = [mine, partner or 0]
    leader, rounds = 0, 0
    while hands[leader] and declarer:
        cards = [_low(h) for h in hands if h]
        top = max(cards)
        rounds += 1
        under = declarer & _below(top)
        if not under:
            return rounds
        declarer &= ~(1 << _top(under))
        for k in range(2):
            if hands[k]:
                hands[k] &= ~(1 << _low(hands[k]))
        leader = 0 if hands[0] else 1
    return None


def _catching_lead(k: Knowledge, legal: list[Card]) -> Card:
    """Lead the suit that catches the declarer soonest, from the bottom; before any hand is
    known, lead from the shortest suit."""
    decl = k.declarer
    assert decl is not None
    partner = k.partner()
    theirs = k.possible(decl)
    best = None
    if k.known:
        for s in range(4):
            if not k.mine(s):
                continue
            p = _suit(k.known[partner], s) if partner is not None and partner in k.known else None
            rounds = catch_rounds(k.mine(s), p, _suit(theirs, s))
            if rounds is not None and (best is None or rounds < best[0]):
                best = (rounds, k.cards_of(s)[0])
    if best is not None:
        return best[1]
    live = [c for c in legal if _suit(theirs, c.suit)] or legal
    return min(live, key=lambda c: (k.mine(c.suit).bit_count(), c.rank))


# -- all-pass ----------------------------------------------------------------------
def allpass_card(k: Knowledge) -> Card:
    """A card in all-pass (see the module's text)."""
    legal = list(k.legal)
    others = [s for s in range(3) if s != k.seat]
    if not k.trick and k.led is None:
        return min(legal, key=lambda c: (_lead_risk(k, c, others), -c.rank, k.mine(c.suit).bit_count()))
    return _duck_or_shed(k, legal)


# -- the player --------------------------------------------------------------------
def choose_card(view: SeatView) -> Card:
    """The card for ``view.to_play`` by its role (see the module's text)."""
    k = read_knowledge(view)
    if k.kind == "allpass":
        card = allpass_card(k)
    elif k.kind == "misere":
        card = misere_declarer_card(k) if k.seat == k.declarer else catcher_card(k)
    elif k.seat == k.declarer:
        card = declarer_follow(k) if k.trick else declarer_lead(k)
    else:
        card = defender_follow(k) if k.trick else defender_lead(k)
    return card if card in view.options else view.options[0]


class HeuristicPlayer(Player):
    """A book player of Preferans rules of thumb (see the module's text)."""

    name = "heuristic"

    def decide(self, view: SeatView) -> Decision:
        if view.kind == CARD:
            return choose_card(view)
        if view.kind == DECLARATION:
            return choose_declaration(view)
        if view.kind == WHIST_CALL:
            return whist_call(view)
        if view.kind == DEFENCE:
            return OPEN
        return choose_call(view)


__all__ = ["HeuristicPlayer", "Knowledge", "declarer_count", "defender_count", "strain_counts", "nt_playable",
           "misere_hand", "bid_limit", "allpass_danger", "choose_call", "discard_for", "choose_declaration",
           "misere_discard", "whist_call", "read_knowledge", "declarer_lead", "declarer_follow", "defender_lead",
           "defender_follow", "misere_declarer_card", "catcher_card", "catch_rounds", "allpass_card", "choose_card",
           "TALON_HELP", "UPGRADE_MARGIN", "SOLID_TRUMPS", "ALLPASS_DANGER", "CONCEDE_SHORT"]
