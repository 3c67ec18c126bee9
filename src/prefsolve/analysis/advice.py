"""Which card now: advice during the play, from what the seat to play has seen.

The seat knows its own ten cards, the cards played so far (and so who
played which, and who showed out of a suit), any hand played open, the talon
when it was shown, and the auction. The unseen cards are dealt at random
consistently with all of it (:class:`~prefsolve.analysis.sampling.Sampler`,
the auction model of :mod:`~prefsolve.analysis.auction_model`), every legal
card is valued by exact play in each layout (:meth:`prefsolve.Position.card_values`),
and each card's results are averaged over the layouts: the counted seat's
mean tricks, P(the contract makes) in a game, P(misère caught), each with
its standard error. This is GIB's Monte Carlo play: each layout is then played
double-dummy, so the figures are those of players who see all the cards
from the next card on.

>>> a = advise("AKQJ.AKQ.AK.A", 0, contract="10NT", declarer=0, sampling=Sampling(samples=4, seed=1))
>>> a.best.p_make, a.best.tricks_mean
(1.0, 10.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cards import SUIT_SYMBOLS, Card, Cards, Hand, cards_in_hand_order
from ..checks import check_count, check_seat
from ..contract import Contract
from ..deal import Deal
from ..errors import IllegalPlayError, PrefsolveError, SeatError
from ..i18n import N_, _, get_language, ngettext, shown
from ..play import Position, _as_cards, _winner, canonical_turn
from ..rules import Rules
from ..strains import ALLPASS, MISERE, strain_of, trump_of
from ._common import Progress, as_hand, as_rules
from .auction_model import TOLERANCE, check_won, condition_on_auction
from .recommendation import Recommendation
from .sampling import Sampler, Sampling, _check_sampling, _known_hands, describe_condition, given_line, sampling_json
from .stats import binomial_se, margin_text, mean_se

if TYPE_CHECKING:
    from ..engine import Solver

#: What a seat's showing out of suits says (English in the JSON's conditions, translated in the text).
SHOWED_OUT = N_("seat {seat} showed out of {suits}")
#: ``Advice.method``: every layout that fits searched by single-dummy play, or the sampled average.
EXACT, SAMPLED = "exact", "sampled"
#: Why an ending past the exact search's cap is sampled (English in the JSON, translated in the text).
TOO_LARGE = N_("the ending has too many layouts or points for the exact search")
#: Endings of at most this many cards a hand are searched exactly by default (:mod:`.endings`).
ENDINGS = 4
#: The layouts of an exact ending are weighed by the cards played with this chance of a card other
#: than a double-dummy best one (0: alike). 0.5 is the value measured not to misplace the cards
#: against players who do not play double-dummy and to place them better against those who play
#: near it (docs/STRENGTH.md); a smaller chance trusts the cards played more and misplaces the
#: cards of the first kind of player.
INFERENCE = 0.5
#: The default sampling of an advice: 100 layouts (each costs one solve per legal card), a fresh seed.
ADVICE_SAMPLING = Sampling(samples=100)


@dataclass(frozen=True)
class CardStats:
    """One legal card over the sampled layouts: the counted seat's tricks if it is played now."""

    card: Card
    tricks_mean: float
    tricks_mean_se: float
    p_make: float | None
    """P(the game makes) for a game, P(misère caught) is ``1 - p_make`` for misère; ``None`` in all-pass."""
    p_make_se: float | None

    def to_dict(self) -> dict:
        return {"tricks_mean": round(self.tricks_mean, 3), "tricks_mean_se": round(self.tricks_mean_se, 3),
                "p_make": None if self.p_make is None else round(self.p_make, 4),
                "p_make_se": None if self.p_make_se is None else round(self.p_make_se, 4)}


@dataclass(frozen=True)
class Advice:
    """The advice for the seat to play: every legal card's results and the recommended card."""

    seat: int
    hand: Hand
    contract: str
    """The contract (``7H``, ``misere``) or ``allpass``."""
    declarer: int | None
    played: Cards
    sampling: Sampling
    """The sampling used, with its seed (its ``known`` hands are those seen open) and the
    auction's conditions."""
    rules: str
    conditions: tuple[str, ...]
    """What the layouts met, in words: the suits seats showed out of, then the sampling's conditions."""
    acceptance: float | None
    redrawn: int
    """Layouts drawn again because no discard of the declarer fits his play in them."""
    discards_replaced: int
    """Layouts in which the declarer's double-dummy discard did not fit his play (it holds a card he
    has played, or keeps a card of a suit he showed out of), so the best discard that fits was taken."""
    cards: tuple[CardStats, ...]
    card: Card
    """The recommended card."""
    layouts: int | None = None
    """The layouts the cards were valued on, when ``agreed`` stopped the sampling before
    ``sampling.samples`` (None: all of them)."""
    sampled: tuple[Deal, ...] = field(default=(), repr=False, compare=False)
    """The layouts the cards were valued on, for ``reuse`` by the seat's next advice."""
    reused: int = 0
    """How many of them were earlier layouts given in ``reuse``."""
    shown_out: tuple[tuple[int, tuple[int, ...]], ...] = field(default=(), compare=False)
    """The suits each seat showed out of, (seat, suits 0..3): the first of ``conditions``, as data."""
    values: tuple[tuple[Card, tuple[int, ...]], ...] = field(default=(), repr=False, compare=False)
    """Each legal card with the counted seat's total tricks in each layout of ``sampled``, in
    order: the figures the cards' means come from, paired layout by layout (a card's cost
    against another is their difference on the same layouts). With ``method`` exact: in each
    layout searched (in the order of ``weighted``), by the card's best plan."""
    method: str = SAMPLED
    """``exact``: every layout that fits was searched by single-dummy play (:mod:`.endings`);
    ``sampled``: the Monte Carlo average over sampled layouts."""
    exact_layouts: int | None = None
    """With ``method`` exact: the layouts searched (every one that fits what the seat has seen)."""
    fallback: str | None = None
    """Why an ending the exact search was asked for was sampled instead (English; None otherwise)."""
    weighted: tuple[tuple[tuple[int, int, int], float], ...] = field(default=(), repr=False, compare=False)
    """With ``method`` exact: each layout searched (the card masks seats 0, 1, 2 still hold) and its
    weight (1 each without ``inference``)."""
    inference: float = 0.0
    """With ``method`` exact: the chance of a card other than a best one by which the layouts
    were weighed (``advise``'s ``inference``); 0 when they were weighed alike or sampled."""

    @property
    def samples(self) -> int:
        """The number of layouts the cards were valued on."""
        return self.sampling.samples if self.layouts is None else self.layouts

    @property
    def close(self) -> tuple[Card, ...]:
        """The other cards the figures cannot tell from the recommended one: exactly as good
        (with method exact), or within the standard error of the difference (sampled) in the
        figure that ranks them (:meth:`close_text`). Cards touching the recommended one (no
        unseen card between them) are the same card and are left out."""
        contract = None if self.contract == ALLPASS else Contract.parse(self.contract)
        first = self.best
        out = []
        for s in _ranked(self.cards, contract, self.seat, self.declarer):
            if s.card == first.card or _touching(s.card, first.card, self.hand, self.played):
                continue
            if _near(first, s, self.method == EXACT):
                out.append(s.card)
        return tuple(out)

    @property
    def best(self) -> CardStats:
        return next(s for s in self.cards if s.card == self.card)

    @property
    def recommendation(self) -> Recommendation:
        """The advice as every analysis gives it: the card to play (``call`` and ``card``) in the
        ``contract`` (``None`` in all-pass); no expected score in whists (the figures are the
        cards' tricks and chances)."""
        return Recommendation(str(self.card), None if self.contract == ALLPASS else Contract.parse(self.contract),
                              card=self.card)

    def close_text(self) -> str:
        """A note when other cards are :attr:`close` to the recommended one: those exactly as good
        by name; else the margin of the recommended card over the next best, in P(make) (P(caught)
        in misère) where their chances differ, else in tricks, which is less than the standard error
        of the difference; "" when no card is close."""
        close = self.close
        if not close:
            return ""
        lang = get_language()
        first = self.best
        equal = [c for c in close if _key(self.stats_of(c)) == _key(first)]
        if equal:
            return _("(close: {cards} as good as {card})", cards=" ".join(c.format(lang) for c in equal),
                     card=first.card.format(lang))
        second = self.stats_of(close[0])
        if first.p_make is not None and second.p_make is not None and first.p_make != second.p_make:
            assert first.p_make_se is not None and second.p_make_se is not None
            unit = _("in P(caught)") if self.contract == MISERE else _("in P(make)")
            # Oriented so that higher is better for the seat: margin_text ranks by the value.
            sign = 1 if (first.p_make > second.p_make) else -1
            return margin_text([(first.card.format(lang), sign * first.p_make, first.p_make_se),
                                (second.card.format(lang), sign * second.p_make, second.p_make_se)], unit=unit)
        sign = 1 if first.tricks_mean >= second.tricks_mean else -1
        return margin_text([(first.card.format(lang), sign * first.tricks_mean, first.tricks_mean_se),
                            (second.card.format(lang), sign * second.tricks_mean, second.tricks_mean_se)],
                           unit=_("tricks"))

    def stats_of(self, card: Card) -> CardStats:
        """The figures of one legal card."""
        return next(s for s in self.cards if s.card == card)

    @property
    def model(self) -> str:
        return _MODEL_EXACT if self.method == EXACT else _MODEL

    def to_dict(self) -> dict:
        return {"seat": self.seat, "hand": str(self.hand), "contract": self.contract,
                "declarer": self.declarer, "played": self.played.to_list(), "rules": self.rules,
                **sampling_json(self.sampling, samples=self.samples, acceptance=self.acceptance,
                                conditions=self.conditions),
                "redrawn": self.redrawn, "discards_replaced": self.discards_replaced,
                "cards": {str(s.card): s.to_dict() for s in self.cards},
                "recommendation": self.recommendation.to_dict(), "model": self.model,
                "method": self.method, "exact_layouts": self.exact_layouts, "inference": self.inference,
                "fallback": self.fallback, "close": [str(c) for c in self.close]}

    def _given(self) -> list[str]:
        """What the layouts met, in the active language: the suits shown out of, then the sampling's conditions."""
        shown = [_(SHOWED_OUT, seat=seat, suits=" ".join(SUIT_SYMBOLS[k] for k in suits))
                 for seat, suits in self.shown_out]
        return shown + [describe_condition(seat, pred) for seat, pred in self.sampling.hand_conditions]

    def format(self) -> str:
        """Each legal card's tricks and chances, and the card to play, in the active language."""
        lang = get_language()
        # The contract as the JSON has it (7H) in English, in words (7 червей) in Russian.
        contract = (self.contract if lang == "en" or self.contract == ALLPASS
                    else Contract.parse(self.contract).format(lang))
        fields = {"seat": self.seat, "contract": contract, "samples": self.samples, "played": len(self.played)}
        if self.method == EXACT:    # no samples: the next line counts the layouts searched
            if self.seat == self.declarer:
                head = _("Seat {seat} (the declarer) to play in {contract}, after {played} cards played", **fields)
            elif self.declarer is not None:
                head = _("Seat {seat} (a defender) to play in {contract}, after {played} cards played", **fields)
            else:
                head = _("Seat {seat} to play in all-pass, after {played} cards played", **fields)
        elif self.seat == self.declarer:
            head = _("Seat {seat} (the declarer) to play in {contract}, {samples} samples, after {played} cards "
                     "played", **fields)
        elif self.declarer is not None:
            head = _("Seat {seat} (a defender) to play in {contract}, {samples} samples, after {played} cards "
                     "played", **fields)
        else:
            head = _("Seat {seat} to play in all-pass, {samples} samples, after {played} cards played", **fields)
        rows = [head]
        if self.method == EXACT:
            rows.append(ngettext("exact: the one layout that fits was searched by single-dummy play",
                                 "exact: all {count} layouts that fit were searched by single-dummy play",
                                 self.exact_layouts or 0, count=self.exact_layouts or 0))
            if self.inference:
                rows.append(_("the layouts weighed by the cards played (inference {epsilon:g})",
                              epsilon=self.inference))
        elif self.fallback is not None:
            rows.append(_("sampled: {reason}", reason=_(self.fallback)))
        given = self._given()
        if self.conditions:     # the English texts, for an advice made without its shown_out
            rows.append(given_line(given if len(given) == len(self.conditions) else self.conditions, self.acceptance))
        p_head = _("P(caught)") if self.contract == MISERE else _("P(make)")
        card, tricks = _("card"), _("tricks")
        rows.append(f"{card:<6}{tricks:>16}" + (f"{p_head:>18}" if self.contract != ALLPASS else ""))
        for s in self.cards:
            mark = " <" if s.card == self.card else ""
            p = ""
            if s.p_make is not None:
                chance = 1 - s.p_make if self.contract == MISERE else s.p_make
                p = f"{chance:>10.3f} ± {s.p_make_se:.3f}"
            rows.append(f"{s.card.format(lang):<6}{s.tricks_mean:>9.2f} ± {s.tricks_mean_se:.2f}{p}{mark}")
        rows.append(_("(tricks: seat {seat}'s, the mean; {model})",
                      seat=self.declarer if self.declarer is not None else self.seat, model=_(self.model)))
        close = self.close_text()
        line = _("play {card}", card=self.card.format(lang))
        rows.append(f"{line} {close}" if close else line)
        return "\n".join(rows)


_MODEL_EXACT = N_("every layout of the unseen cards that fits the own hand, the cards played (who played them, who "
                  "showed out), the open hands and talon given, and the auction, searched by single-dummy play: the "
                  "seat plays one card for all the layouts it cannot tell apart, the others play as if they saw every "
                  "card; the layouts weighed alike or, with inference, by how likely the cards played are in each")
_MODEL = N_("the unseen cards dealt at random consistently with the own hand, the cards played (who played them, "
            "who showed out), the open hands and talon given, and the auction; in each layout every legal card is "
            "valued by exact double-dummy play from then on (the declarer's discard, when not given, is his best one "
            "in that layout among those his play fits)")


def _replay(played: list[Card], strain: str, leader: int, turn: Cards) -> tuple[list[int], dict[int, int], int]:
    """Who played each card, the suits each seat showed out of (as suit masks), and the seat to move."""
    trump = -1 if strain in (MISERE, ALLPASS) else trump_of(strain)
    seats: list[int] = []
    voids: dict[int, int] = {}
    lead = leader
    for k in range(0, len(played), 3):
        trick = played[k:k + 3]
        talon_card = turn[k // 3] if k // 3 < len(turn) else None
        first = 0 if talon_card is not None else lead
        led = talon_card.suit if talon_card is not None else trick[0].suit
        for i, card in enumerate(trick):
            seat = (first + i) % 3
            seats.append(seat)
            if card.suit != led:
                voids[seat] = voids.get(seat, 0) | 1 << led
                if trump >= 0 and card.suit != trump:
                    voids[seat] |= 1 << trump
        if len(trick) == 3:
            lead = _winner(first, tuple(trick), led, trump)
        else:
            return seats, voids, (first + len(trick)) % 3
    n = len(played) // 3
    return seats, voids, (0 if n < len(turn) else lead)


def _all_voids(shown: dict[int, int], sampling: Sampling) -> dict[int, int]:
    """The suits (as suit masks) each seat is known to hold no more of: shown out, or given void."""
    out = dict(shown)
    for s, suits in sampling.void_suits:
        for x in suits:
            out[s] = out.get(s, 0) | 1 << "SCDH".index(x)
    return out


def _won(played: list[Card], strain: str, leader: int, turn: Cards) -> list[int]:
    """The completed tricks each seat has won."""
    trump = -1 if strain in (MISERE, ALLPASS) else trump_of(strain)
    won = [0, 0, 0]
    lead = leader
    for k in range(0, len(played) - len(played) % 3, 3):
        trick = tuple(played[k:k + 3])
        talon_card = turn[k // 3] if k // 3 < len(turn) else None
        first = 0 if talon_card is not None else lead
        led = talon_card.suit if talon_card is not None else trick[0].suit
        lead = _winner(first, trick, led, trump)
        won[lead] += 1
    return won


def _exact_cards(*, hand: Hand, seat: int, contract: Contract | None, strain: str, declarer: int | None,
                 leader: int, played: list[Card], who: list[int], voids: dict[int, int], talon: Hand | None,
                 turned: Cards, discard: object, known: dict, sampler: Sampler,
                 took_talon: bool, turn: Cards | None, talon_mode: str | None, solver: Solver | None,
                 inference: float) -> tuple[list[CardStats], int, tuple, tuple]:
    """Every legal card's figures by the exact single-dummy search of :mod:`.endings` over every
    layout of the unseen cards that fits what the seat has seen, and the number of layouts.
    ``inference``: 0 weighs the layouts alike, else each by :func:`_chance` of its :func:`_played_factors`
    with that epsilon.
    Raises :class:`~.endings.TooLarge` (with the reason, English) when the ending is not searched."""
    from .endings import TooLarge, layouts, search

    played_mask = Cards(played).mask
    done = len(played) // 3
    trick = played[3 * done:]
    trick_leader = (seat - len(trick)) % 3
    left = 10 - done
    in_trick = {(trick_leader + i) % 3 for i in range(len(trick))}
    talon_mask = talon.mask if talon is not None else 0
    rem: dict[int, int] = {}
    own = hand.mask
    out_known = 0
    if seat == declarer and took_talon:
        if discard is None or talon is None:
            raise TooLarge(N_("the ending is not searched: the declarer's talon or discard is not given"))
        out_known = Cards(_as_cards(discard, "discard")).mask
        own = (own | talon_mask) & ~out_known
    rem[seat] = own & ~played_mask
    for s, h in known.items():
        if s in (0, 1, 2) and s != seat:
            if s == declarer and took_talon:
                raise TooLarge(N_("the ending is not searched: the declarer's hand after the talon is not known"))
            rem[s] = h.mask & ~played_mask
    unseen = ((1 << 32) - 1) & ~played_mask & ~out_known
    for m in rem.values():
        unseen &= ~m
    if not took_talon and talon is not None:
        unseen &= ~talon_mask       # the talon, turned or shown, plays no further part
    for s, m in rem.items():
        if m.bit_count() != left - (s in in_trick):
            raise TooLarge(N_("the ending is not searched: the known hands do not fit the cards played"))
    hidden = [s for s in range(3) if s not in rem]
    places = []
    for s in hidden:
        barred = 0
        for k in range(4):
            if voids.get(s, 0) >> k & 1:
                barred |= 0xFF << (8 * k)
        if took_talon and s != declarer:
            barred |= talon_mask    # the talon went to the declarer
        places.append((left - (s in in_trick), barred))
    spare = unseen.bit_count() - sum(n for n, _b in places)
    if spare not in (0, 2) or (spare == 2 and took_talon and seat == declarer):
        raise TooLarge(N_("the ending is not searched: the unseen cards do not fit the hands"))
    by_seat = [0, 0, 0]
    for card, s in zip(played, who):
        by_seat[s] |= 1 << card.index

    def deal_of(masks: tuple[int, ...]) -> tuple[Deal, int] | None:
        """The whole deal of a layout of the hidden places, and the declarer's discard in it."""
        holds = dict(rem)
        holds.update(zip(hidden, masks))
        out = unseen & ~sum(masks)
        dealt = []
        for s in range(3):
            m = holds[s] | by_seat[s]
            if s == declarer and took_talon:
                m = (m | (out_known if s == seat else out)) & ~talon_mask
            dealt.append(hand.mask if s == seat else m)
        pot = talon_mask if talon is not None else out
        try:
            return Deal([Hand(m) for m in dealt], Hand(pot) if pot else None), (out_known if seat == declarer else out)
        except PrefsolveError:
            return None

    def fits(masks: tuple[int, ...]) -> bool:
        if not sampler.conditions:
            return True
        whole = deal_of(masks)
        return whole is not None and sampler.fits(whole[0])

    found = layouts(unseen, places, fits)
    if not found:
        raise TooLarge(N_("the ending is not searched: no layout fits what was seen"))
    worlds = []
    for masks in found:
        w = [0, 0, 0]
        for s, m in rem.items():
            w[s] = m
        for s, m in zip(hidden, masks):
            w[s] = m
        worlds.append((w[0], w[1], w[2]))
    counted = seat if contract is None else declarer
    assert counted is not None
    minimize = contract is None or contract.is_misere

    def maximizing(s: int) -> bool:
        return (s == counted) != minimize

    up = maximizing(seat)
    side = {s for s in range(3) if maximizing(s) == up}
    searchers = {seat} | {s for s in rem if s in side}
    trump = -1 if strain in (MISERE, ALLPASS) else trump_of(strain)
    sign = 1 if up else -1
    fronts = search((0, 0, 0), worlds, seat=seat, leader=trick_leader, trick=tuple(c.index for c in trick),
                    trump=trump, counted=counted, sign=sign, searchers=searchers, side=side)
    won = _won(played, strain, leader, turned)[counted]
    level = contract.level or 0 if contract is not None else 0

    def made(total: int) -> bool:
        return total == 0 if contract is not None and contract.is_misere else total >= level

    def goal(total: int) -> float:
        """The side's goal in a layout: first the contract (none in all-pass), then the tricks."""
        if contract is None:
            return -total
        declarer_goal = 100 * made(total) + (-total if contract.is_misere else total)
        return declarer_goal if seat == declarer else -declarer_goal

    n = len(worlds)
    weights = [1.0] * n
    if inference:
        weights = []
        for masks in found:
            whole = deal_of(masks)
            assert whole is not None    # the layout was built from the cards seen
            weights.append(_chance(_played_factors(
                whole[0], whole[1] if took_talon else None, declarer=declarer, strain=strain, leader=leader,
                played=played, who=who, hidden=hidden, turn=turn, talon_mode=talon_mode, solver=solver), inference))
        if not sum(weights):
            weights = [1.0] * n
    total_weight = sum(weights)
    stats = []
    values = []
    for card in cards_in_hand_order(sum(1 << i for i in fronts)):
        front = fronts[card.index]

        def score(v: tuple[int, ...]) -> float:
            return sum(w * goal(won + sign * x) for x, w in zip(v, weights))
        vector = max(sorted(front), key=score)
        totals = [won + sign * x for x in vector]
        mean = sum(w * t for t, w in zip(totals, weights)) / total_weight
        p = None if contract is None else sum(w * made(t) for t, w in zip(totals, weights)) / total_weight
        stats.append(CardStats(card, mean, 0.0, p, None if p is None else 0.0))
        values.append((card, tuple(totals)))
    return stats, n, tuple(zip(worlds, weights)), tuple(values)


#: Inference from the cards played weighs the other players' cards of the tricks from the one at
#: whose start each hand held this many cards (earlier ones cost more solving and say less).
INFERENCE_FROM = 6


def _played_factors(deal: Deal, discard: int | None, *, declarer: int | None, strain: str, leader: int,
                    played: list[Card], who: list[int], hidden: list[int], turn: Cards | None,
                    talon_mode: str | None, solver: Solver | None) -> list[tuple[int, bool, int, int]]:
    """For each card a hidden seat played in ``deal`` from :data:`INFERENCE_FROM` cards a hand on:
    who played it, whether it was one of his double-dummy best cards, how many best cards he had
    and how many legal ones. Best is for the player's own side: in a game and misère by the
    declarer's tricks, in all-pass by the player's own."""
    start = 3 * (10 - INFERENCE_FROM)
    disc = Cards(iter(Hand(discard))) if discard is not None else None
    counted = [None] if declarer is not None else hidden
    positions = {s: Position(deal, declarer, strain=strain, seat=s, leader=leader, talon_mode=talon_mode,
                             discard=disc, turn=turn, solver=solver) for s in counted}
    out = []
    for k, (card, mover) in enumerate(zip(played, who)):
        if k >= start and mover in hidden:
            pos = positions[None if declarer is not None else mover]
            best = pos.best_cards()
            out.append((mover, card in best, len(best), len(pos.legal_cards())))
        for pos in positions.values():
            pos.push(card)
    return out


def _chance(factors: Iterable[tuple[int, bool, int, int]], epsilon: float) -> float:
    """How likely the cards of ``factors`` (:func:`_played_factors`) are if each player plays one of
    his double-dummy best cards at random (a chance ``1 - epsilon``) or any legal card at random
    (``epsilon``): the product of each card's chance."""
    like = 1.0
    for _mover, is_best, n_best, n_legal in factors:
        like *= epsilon / n_legal + ((1 - epsilon) / n_best if is_best else 0.0)
    return like


def _fitting_discard(deal: Deal, declarer: int, contract: Contract, leader: int, played: list[Card],
                     solver: Solver | None) -> Cards | None:
    """The declarer's best discard among those his play so far fits (None when none does)."""
    from itertools import combinations

    from ..solver import solve

    assert deal.talon is not None
    twelve = Hand(deal.hands[declarer].mask | deal.talon.mask)
    best: tuple[int, Cards] | None = None
    for pair in combinations(list(twelve), 2):
        if any(card in played for card in pair):
            continue
        disc = Cards(pair)
        try:
            Position(deal, declarer, strain=contract.strain, leader=leader, discard=disc, played=played,
                     solver=solver)
        except IllegalPlayError:
            continue
        hands = list(deal.hands)
        hands[declarer] = Hand(twelve.mask & ~disc.mask)
        tricks = solve(Deal(hands), declarer, strain=contract.strain, leader=leader, talon_mode="ignore",
                       solver=solver).tricks
        score = -tricks if contract.is_misere else tricks
        if best is None or score > best[0]:
            best = (score, disc)
    return None if best is None else best[1]


def _turned(turn: object, talon: Hand | None, allpass: bool, leads: bool, played: int) -> Cards:
    """The all-pass talon cards turned so far, in order: ``turn`` checked, else the
    shown ``talon`` in the canonical order; none when the talon plays no part."""
    if turn is None:
        return canonical_turn(talon) if leads and talon is not None else Cards(())
    if not leads:
        why = _("the talon plays no part in this all-pass") if allpass else _("only all-pass turns the talon")
        raise PrefsolveError(_("turn= orders the talon cards turned in all-pass; {why}", why=why))
    cards = Cards(_as_cards(turn, "turn"))
    if not 1 <= len(cards) <= 2 or len(set(cards)) != len(cards):
        raise PrefsolveError(_("turn= is the one or two talon cards turned so far, in order, got {cards}",
                               cards=shown(cards)))
    if talon is not None and any(x not in talon for x in cards):
        raise PrefsolveError(_("turn= {cards} holds a card that is not in the talon {talon}", cards=shown(cards),
                               talon=shown(talon.symbols)))
    if len(cards) == 1 and played >= 3:
        raise PrefsolveError(_("from trick 2 on both talon cards are turned: give both in turn="))
    return cards


def advise(hand: Hand | str, seat: int, *, contract: Contract | str, declarer: int | None = None,
           played: object = (), leader: int = 0,
           talon: Hand | str | None = None, turn: object = None, discard: object = None,
           auction: str | None = None,
           whist: str | None = None, tolerance: float = TOLERANCE, rules: Rules | str = "sochi",
           sampling: Sampling = ADVICE_SAMPLING, agreed: int | None = None, reuse: Sequence[Deal] = (),
           endings: int = ENDINGS, inference: float = INFERENCE, solver: Solver | None = None,
           progress: Progress | None = None) -> Advice:
    """Every legal card's expected result for ``seat``, to play now, from what it has seen.

    ``hand``: the seat's ten cards as dealt. ``contract``: a game (``7H``),
    ``misere`` or ``allpass``/``распасы`` (then ``declarer`` is None and the seat's own
    tricks are counted). ``played``: the cards played so far in order (the
    talon cards turned in all-pass not included); ``leader`` leads trick 1.
    ``sampling``: how many layouts from which seed; its ``known`` cards are the
    hands seen, e.g. a defender playing open, ``known={1: "AK.Q.-.JT9"}`` (the
    whole ten cards as dealt), its ``voids`` and ``conditions`` hold as in
    every analysis (a void: no cards of the suit beyond the known ones). ``talon``: the talon cards when shown
    (a game's talon, the all-pass talon turned); ``turn``: in all-pass, the
    talon cards turned so far in the order turned (one while trick 1 is under
    way, the other still unseen and sampled; default: the ``talon`` in the
    canonical order). The profile's ``raspasy_talon`` says whether the talon
    leads in all-pass (RULES.md §4.3), and a game without talon leaves it out.
    ``discard``: the declarer's two discards, known to himself. ``auction`` (the calls, first hand first)
    and ``whist`` (the defenders' calls) condition the other hands through the
    auction model.
    ``agreed``: stop after this many layouts (or more) as soon as one card has
    been among the best for the seat's side in every layout so far: more
    layouts could only add a layout where it is not. None: all
    ``sampling.samples`` layouts. ``reuse``: layouts of an earlier advice of
    the seat (its ``sampled``); those that fit what is known now (the known
    cards, the cards played, the voids, the conditions) are valued first, as
    if drawn now, and fresh ones only after them.
    The recommended card is the best for the seat's side: in a game the
    highest P(make) for the declarer (the lowest for a defender), then the
    mean tricks; in misère the lowest P(caught) for the declarer (highest
    for a defender); in all-pass the fewest own tricks.
    ``endings``: from the trick at whose start each hand holds this many cards or fewer
    (default 4; 0: never), every layout of the unseen cards that fits is searched by
    single-dummy play (:mod:`.endings`: the seat plays one card for all the layouts it
    cannot tell apart, the others see every card) instead of sampled; ``method`` says which
    was done, and ``fallback`` why an ending past the search's cap was sampled. ``inference``
    (0 ≤ epsilon < 1; default :data:`INFERENCE`, 0.5; 0: alike): the searched layouts are weighed
    by how likely the cards the unseen hands played are in each, each player taken to play one of
    his double-dummy best cards at random but for a chance epsilon of any legal card
    (docs/ADVICE.md); ``Advice.inference`` says the chance used.
    ``progress`` is called with 1 for each layout valued.
    """

    import numpy as np  # on use: see the note in sampling.py

    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    r = as_rules(rules)
    sampling = _check_sampling(sampling).seeded()
    if sampling.adaptive is not None:
        raise PrefsolveError(_("the play advice draws a fixed number of samples, not adaptive ones "
                               "(adaptive={adaptive})", adaptive=repr(sampling.adaptive)))
    samples = sampling.samples
    allpass = isinstance(contract, str) and strain_of(contract) == ALLPASS     # «распасы» too
    c: Contract | None = None
    if allpass:
        if declarer is not None:
            raise SeatError(_("all-pass has no declarer: leave declarer= out"))
        strain = ALLPASS
    else:
        c = contract if isinstance(contract, Contract) else Contract.parse(contract)
        if declarer is None:
            raise SeatError(_("a game or misère has a declarer: give declarer= for {contract}", contract=shown(c)))
        declarer = check_seat(declarer, "declarer")
        strain = c.strain
    leader = check_seat(leader, "leader")
    cards_played = _as_cards(played, "played")
    talon_hand = None if talon is None else (talon if isinstance(talon, Hand) else Hand.parse(talon))
    if talon_hand is not None and len(talon_hand) != 2:
        raise PrefsolveError(_("the talon has two cards, got {count}: {talon}", count=len(talon_hand),
                               talon=repr(talon)))
    talon_leads = allpass and r.raspasy_talon == "sets_suit"
    turned = _turned(turn, talon_hand, allpass, talon_leads, len(cards_played))
    if talon_leads and not turned and len(cards_played) > 0:
        raise PrefsolveError(_("all-pass advice needs the talon cards (talon= or turn=): they are turned and lead "
                               "tricks 1 and 2"))
    if talon_hand is None and turned:
        talon_hand = Hand(turned) if len(turned) == 2 else None
    who, voids, to_move = _replay(cards_played, strain, leader, turned)
    if to_move != seat:
        raise IllegalPlayError(_("after {played} cards played seat {to_move} is to play, not seat {seat}",
                                 played=len(cards_played), to_move=to_move, seat=seat))
    # What is known of each place: the open hands, the talon, and every card seen played.
    fixed_known: dict[object, Hand] = dict(sampling.known_cards)
    seen_talon = talon_hand if talon_hand is not None else Hand(turned) if turned else None
    if seen_talon is not None:
        if "talon" in fixed_known:
            raise PrefsolveError(_("the talon is given twice (talon= and sampling.known)"))
        fixed_known["talon"] = seen_talon
    extra: dict[int, int] = {}
    talon_mask = talon_hand.mask if talon_hand is not None else 0
    for card, s in zip(cards_played, who):
        if s == seat:
            if card not in hand and not (s == declarer and talon_mask >> card.index & 1):
                raise IllegalPlayError(_("card {card} was played by seat {seat}, who does not hold it ({hand})",
                                         card=shown(card), seat=seat, hand=shown(hand.symbols)))
            continue
        if s == declarer and talon_mask >> card.index & 1:
            continue    # a talon card the declarer took
        extra[s] = extra.get(s, 0) | 1 << card.index
    for s, mask in extra.items():
        have = fixed_known.get(s)
        fixed_known[s] = Hand((have.mask if have is not None else 0) | mask)
    fixed = _known_hands(fixed_known, seat, hand, (0, 1, 2, "talon"))
    shown_out = {s: [k for k in range(4) if m >> k & 1] for s, m in voids.items() if s != seat}
    # The declarer who took the talon may have put a suit away: his showing out says nothing of the
    # ten cards he was dealt. Layouts whose discard leaves him a card of it fail the replay of the
    # played cards below and are drawn again, which honours his void exactly.
    took_talon = c is not None and not c.without_talon
    void_suits = {s: ks for s, ks in shown_out.items() if allpass or s != declarer or not took_talon}
    for s, suits in sampling.void_suits:
        void_suits.setdefault(s, [])
        void_suits[s] = sorted(set(void_suits[s]) | {"SCDH".index(x) for x in suits})
    if auction is not None:
        check_won(auction, r, declarer)
        sampling = condition_on_auction(sampling, auction, seat=seat, rules=r, tolerance=tolerance, contract=c,
                                        whist=whist)
    sampler = Sampler(fixed, sampling.seed, void_suits, conditions=sampling.hand_conditions, voids_beyond_known=True)
    showed_out = tuple((s, tuple(ks)) for s, ks in sorted(shown_out.items()))
    texts = tuple(SHOWED_OUT.format(seat=s, suits=" ".join(SUIT_SYMBOLS[k] for k in ks))
                  for s, ks in showed_out) + tuple(sampling.condition_texts())
    endings = check_count(endings, "endings", 0)
    if not isinstance(inference, (int, float)) or isinstance(inference, bool) or not 0 <= inference < 1:
        raise PrefsolveError(_("inference= is the chance of a card other than a best one, from 0 up to 1 "
                               "(0: off), got {value}", value=repr(inference)))
    # All-pass with the talon ignored (RULES.md §4.3), a game without talon (RULES.md §2.5): the hands
    # as dealt.
    talon_mode = "ignore" if (allpass and not talon_leads) or (c is not None and c.without_talon) else None
    fallback = None
    if endings and 10 - len(cards_played) // 3 <= endings:
        from .endings import TooLarge

        try:
            stats_x, count, weighted, totals = _exact_cards(
                hand=hand, seat=seat, contract=c, strain=strain, declarer=declarer, leader=leader,
                played=cards_played, who=who, voids=_all_voids(voids, sampling), talon=talon_hand, turned=turned,
                discard=discard, known=dict(sampling.known_cards), sampler=sampler, took_talon=took_talon,
                turn=turned if talon_leads and turned else None, talon_mode=talon_mode, solver=solver,
                inference=inference)
        except TooLarge as exc:
            fallback = str(exc.args[0]) if exc.args else TOO_LARGE
        else:
            return Advice(seat, hand, "allpass" if allpass else str(c), declarer, Cards(cards_played), sampling,
                          r.label, texts, None, 0, 0, tuple(stats_x), _ranked(stats_x, c, seat, declarer)[0].card,
                          count, (), 0, showed_out, totals, method=EXACT, exact_layouts=count,
                          weighted=weighted, inference=float(inference))
    pool = [d for d in reuse if sampler.fits(d)]
    pool.reverse()      # popped from the end: the earlier layouts first
    reused = len(pool)
    sampled: list[Deal] = []
    rows: dict[Card, list[int]] = {}
    if agreed is not None:
        agreed = check_count(agreed, "agreed", 1)
    # The side of the seat wants the counted tricks high: the declarer of a game, the catchers of a misère.
    maximize = not allpass and c is not None and (seat == declarer) != c.is_misere
    common: set[Card] | None = None    # the cards among the best in every layout so far
    redrawn = replaced = 0
    n = 0
    while n < samples:
        deal = pool.pop() if pool else sampler.draw(1)[0]
        deal_turn = None
        if talon_leads and turned:
            assert deal.talon is not None
            deal_turn = turned if len(turned) == 2 else Cards((turned[0], *(x for x in deal.talon if x != turned[0])))
        try:
            pos = Position(deal, declarer, strain=strain, seat=seat if allpass else None, leader=leader,
                           talon_mode=talon_mode, discard=discard if seat == declarer else None,
                           turn=deal_turn, played=cards_played, solver=solver)
        except IllegalPlayError:
            # The declarer's double-dummy discard in this layout does not fit his play (it holds a card
            # he has played, or keeps a card of a suit he showed out of): he made another one, the
            # best of those that fit.
            assert declarer is not None and c is not None
            fit = _fitting_discard(deal, declarer, c, leader, cards_played, solver)
            if fit is None:     # no discard fits: the layout cannot be the real one
                redrawn += 1
                if redrawn > 20 * samples + 1000:
                    raise PrefsolveError(_("the declarer's play fits no discard in nearly every layout: check the "
                                           "played cards")) from None
                continue
            replaced += 1
            pos = Position(deal, declarer, strain=strain, leader=leader, discard=fit, played=cards_played,
                           solver=solver)
        sampled.append(deal)
        layout = pos.card_values()
        for card, v in layout.items():
            rows.setdefault(card, []).append(v)
        n += 1
        if progress:
            progress(1)
        top = (max if maximize else min)(layout.values())
        best_here = {card for card, v in layout.items() if v == top}
        common = best_here if common is None else common & best_here
        if agreed is not None and n >= agreed and common:
            break
    stats = []
    for card, values in rows.items():
        t = np.asarray(values, dtype=float)
        mean, se = mean_se(t)
        p = p_se = None
        if c is not None:
            made = (t == 0) if c.is_misere else (t >= (c.level or 0))
            p = float(made.mean())
            p_se = binomial_se(p, len(t))
        stats.append(CardStats(card, mean, se, p, p_se))
    return Advice(seat, hand, "allpass" if allpass else str(c), declarer, Cards(cards_played), sampling, r.label,
                  texts, sampler.acceptance, redrawn, replaced, tuple(stats), _ranked(stats, c, seat, declarer)[0].card,
                  None if n == samples else n, tuple(sampled), reused - len(pool), showed_out,
                  tuple((card, tuple(v)) for card, v in rows.items()), fallback=fallback)


def _key(s: CardStats) -> tuple[float, float]:
    return (round(s.p_make or 0.0, 9), round(s.tricks_mean, 9))


def _near(first: CardStats, other: CardStats, exact: bool) -> bool:
    """Whether ``other``'s figures cannot be told from ``first``'s: equal, or (sampled) differing by
    less than the standard error of the difference in the figure that ranks them."""
    if _key(first) == _key(other):
        return True
    if exact:
        return False
    if first.p_make is not None and other.p_make is not None and first.p_make != other.p_make:
        assert first.p_make_se is not None and other.p_make_se is not None
        return abs(first.p_make - other.p_make) < (first.p_make_se ** 2 + other.p_make_se ** 2) ** 0.5
    return abs(first.tricks_mean - other.tricks_mean) < (first.tricks_mean_se ** 2 + other.tricks_mean_se ** 2) ** 0.5


def _touching(a: Card, b: Card, hand: Hand, played: Cards) -> bool:
    """Whether two cards of the seat are one choice: same suit, and every card between them is
    the seat's own or already played (so no other hand can hold one)."""
    if a.suit != b.suit:
        return False
    low, high = sorted((a.index, b.index))
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    gone = hand.mask | played.mask
    return not between & ~gone


def _ranked(stats: list[CardStats] | tuple[CardStats, ...], contract: Contract | None, seat: int,
            declarer: int | None) -> list[CardStats]:
    """The cards best first for ``seat``'s side: in a game the highest P(make) for the declarer
    (the lowest for a defender), then the most tricks (the fewest); in misère P(no trick) the
    other way round; in all-pass (no contract) the fewest own tricks. Equal cards keep their order."""
    if contract is None:
        return sorted(stats, key=lambda s: s.tricks_mean)
    sign = 1 if seat == declarer else -1
    # The declarer of a misère wants no trick (p_make is P(no trick)), so fewer tricks are better.
    tricks_sign = -1 if contract.is_misere else 1
    return sorted(stats, key=lambda s: (-sign * (s.p_make or 0.0), -sign * tricks_sign * s.tricks_mean))
