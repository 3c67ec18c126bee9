"""The exact single-dummy search of endings (prefsolve.analysis.endings), against references
that share none of its code: the engine's double-dummy values when one layout is left, and every
plan of the seat enumerated one by one on tiny endings."""

from __future__ import annotations

import random

import pytest

import prefsolve
from prefsolve.analysis.endings import TooLarge, layouts, search
from prefsolve.cards import Hand
from prefsolve.deal import Deal
from prefsolve.play import Position


def _deal_ending(rng: random.Random, n: int) -> list[int]:
    cards = list(range(32))
    rng.shuffle(cards)
    return [sum(1 << c for c in cards[k * n:(k + 1) * n]) for k in range(3)]


def _setup(strain: str, counted: int, seat: int) -> tuple[int, int, set[int]]:
    """trump, sign (1: the seat's side wants the counted tricks high), the seat's side."""
    minimize = strain in ("misere", "allpass")

    def up(s: int) -> bool:
        return (s == counted) != minimize
    trump = 0 if strain == "S" else -1
    return trump, 1 if up(seat) else -1, {s for s in range(3) if up(s) == up(seat)}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_one_layout_is_double_dummy(n):
    rng = random.Random(n)
    for _ in range(15):
        hs = _deal_ending(rng, n)
        strain = rng.choice(["S", "NT", "misere", "allpass"])
        leader = rng.randrange(3)
        d = Deal([Hand(m) for m in hs])
        if strain == "allpass":
            pos = Position(d, strain="allpass", seat=0, leader=leader, talon_mode="ignore")
        else:
            pos = Position(d, 0, strain=strain, leader=leader, talon_mode="ignore")
        trump, sign, side = _setup(strain, 0, leader)
        fronts = search(tuple(hs), [tuple(hs)], seat=leader, leader=leader, trick=(), trump=trump, counted=0,
                        sign=sign, searchers={leader}, side=side)
        for card, value in pos.card_values().items():
            (vector,) = fronts[card.index]
            assert sign * vector[0] == value


# -- the reference: every plan of the seat, each judged layout by layout --------------------------------

class _Need(Exception):
    def __init__(self, history: tuple[int, ...], cards: list[int]) -> None:
        self.history, self.cards = history, cards


def _legal(hand: int, led: int | None, trump: int) -> list[int]:
    follow = hand & (0xFF << 8 * led) if led is not None else 0
    ruff = hand & (0xFF << 8 * trump) if led is not None and trump >= 0 else 0
    allowed = follow or ruff or hand
    return [c for c in range(32) if allowed >> c & 1]


def _wins(leader: int, trick: list[int], trump: int) -> int:
    best = 0
    for i in (1, 2):
        a, b = trick[i], trick[best]
        if (a // 8 == b // 8 and a > b) or (a // 8 == trump and b // 8 != trump):
            best = i
    return (leader + best) % 3


def _value(hands: list[int], leader: int, trick: list[int], history: tuple[int, ...], plan: dict, searchers: set,
           side: set, trump: int, counted: int, sign: int) -> int:
    """The counted seat's tricks from here in one layout, the searchers playing ``plan`` (history →
    card), every other seat its best card for its side seeing everything."""
    if not any(hands) and not trick:
        return 0
    mover = (leader + len(trick)) % 3
    led = trick[0] // 8 if trick else None
    options = _legal(hands[mover], led, trump)
    if mover in searchers:
        if history not in plan:
            raise _Need(history, options)
        options = [plan[history]]
    results = []
    for c in options:
        h = list(hands)
        h[mover] &= ~(1 << c)
        t = trick + [c]
        if len(t) == 3:
            w = _wins(leader, t, trump)
            after = _value(h, w, [], history + (c,), plan, searchers, side, trump, counted, sign)
            results.append((w == counted) + after)
        else:
            results.append(_value(h, leader, t, history + (c,), plan, searchers, side, trump, counted, sign))
    if mover in searchers:
        return results[0]
    # The seat's side wants the counted tricks high when sign is 1; the others the other way.
    return max(results) if (mover in side) == (sign == 1) else min(results)


def _best_plan_value(worlds, seat, first, searchers, side, trump, counted, sign, goal, limit=300):
    """The best total of ``goal`` over the layouts, over every plan starting with ``first``."""
    best = None
    stack = [{(): first}]
    plans = 0
    while stack:
        plan = stack.pop()
        try:
            total = sum(goal(_value(list(w), seat, [], (), plan, searchers, side, trump, counted, sign))
                        for w in worlds)
        except _Need as need:
            for c in need.cards:
                stack.append({**plan, need.history: c})
            continue
        plans += 1
        if plans > limit:
            return None
        best = total if best is None else max(best, total)
    return best


@pytest.mark.parametrize("cases", [10, pytest.param(60, marks=pytest.mark.slow)])
def test_search_finds_the_best_plan_of_all(cases):
    """On 2- and 3-card endings with a few layouts, the best plan after each first card, found by
    trying every plan of the seat (one card for each history it can see), equals the best of the
    search's front by the same goal: contract first, then tricks."""
    rng = random.Random(7)
    checked = 0
    while checked < cases:
        n = rng.choice([2, 3, 3])
        hs = _deal_ending(rng, n)
        strain = rng.choice(["S", "NT", "misere", "allpass"])
        seat = rng.randrange(3)
        counted = seat if strain == "allpass" else rng.randrange(3)
        trump, sign, side = _setup(strain, counted, seat)
        # The seat sees its own hand and, when its partner's cards are open, plays them too.
        partner_open = len(side) == 2 and rng.random() < 0.5
        searchers = side if partner_open else {seat}
        hidden = [s for s in range(3) if s not in searchers]
        unseen = sum(hs[s] for s in hidden)
        every = layouts(unseen, [(n, 0)] * len(hidden))
        chosen = rng.sample(every, min(len(every), rng.choice([2, 3, 4])))
        worlds = []
        for masks in chosen:
            w = list(hs)
            for s, m in zip(hidden, masks):
                w[s] = m
            worlds.append(tuple(w))
        level = rng.randrange(n + 1)

        def goal(t: int, strain: str = strain, level: int = level, seat: int = seat, counted: int = counted) -> float:
            if strain == "allpass":
                return -t
            made = t == 0 if strain == "misere" else t >= level
            g = 100 * made + (-t if strain == "misere" else t)
            return g if seat == counted else -g

        fronts = search(worlds[0], worlds, seat=seat, leader=seat, trick=(), trump=trump, counted=counted,
                        sign=sign, searchers=searchers, side=side)
        for first, front in fronts.items():
            ref = _best_plan_value(worlds, seat, first, searchers, side, trump, counted, sign, goal)
            if ref is None:
                continue
            got = max(sum(goal(sign * x) for x in v) for v in front)
            assert got == ref, (hs, strain, seat, counted, worlds, first)
            checked += 1


def test_cap_raises():
    hs = (0xF, 0xF0, 0xF00)
    with pytest.raises(TooLarge):
        layouts(0xFFFF00, [(4, 0), (4, 0)], max_layouts=10)
    with pytest.raises(TooLarge):
        search(hs, [hs, (0xF, 0xF00, 0xF0)], seat=0, leader=0, trick=(), trump=-1, counted=0, sign=1,
               searchers={0}, side={0}, max_nodes=3)


def test_advice_in_an_ending_is_exact_and_says_so():
    """A declarer's 4-card ending from a whole deal: the advice searches every layout (the 8 unseen
    cards split 4-4, 70 layouts, fewer where a void was shown) and says so; with endings=0 it samples."""
    import prefsolve.analysis.advice as adv

    deal = Deal.random(11)
    pos = Position(deal, 0, strain="NT", leader=0, discard=None)
    while len(pos.played_tricks) < 6:
        pos.push(pos.best_cards()[0])
    seat = pos.to_move
    assert seat == 0 or seat is not None
    played = list(pos.played)
    hand = deal.hands[seat]
    kwargs = dict(contract="6NT", declarer=0, played=played, leader=0, talon=deal.talon,
                  discard=pos.discard if seat == 0 else None, sampling=prefsolve.analysis.Sampling(20, 1))
    exact = adv.advise(hand, seat, **kwargs)
    assert exact.method == "exact" and exact.to_dict()["method"] == "exact"
    assert 1 <= exact.exact_layouts <= 3150 and exact.fallback is None
    sampled = adv.advise(hand, seat, endings=0, **kwargs)
    assert sampled.method == "sampled" and sampled.exact_layouts is None
    assert {s.card for s in exact.cards} == {s.card for s in sampled.cards}


def test_monte_carlo_fuses_strategies_where_the_search_does_not():
    """An ending found by search among random 4-card no-trump endings (seat 0 declares and leads,
    needs one trick; ♣K9 ♦KT against ♦AQJ7 and ♣AJ7 ♦9, the 8 unseen cards split 4-4 in 70 ways).
    Averaged double-dummy over all 70 layouts (the engine's values, no code of the search), ♣9 and
    ♣K make in as many layouts and ♣9 takes more tricks: Monte Carlo plays ♣9. Played by one
    plan for all the layouts, which the declarer cannot tell apart until he sees the cards, ♣9
    makes in fewer layouts than ♣K: after ♣9 he must guess what double-dummy play knows."""
    hs = [Hand.parse(h).mask for h in ("-.K9.KT.-", "-.-.AQJ7.-", "-.AJ7.9.-")]
    worlds = [(hs[0], a, b) for a, b in layouts(hs[1] | hs[2], [(4, 0), (4, 0)])]
    assert len(worlds) == 70
    dd = [Position(Deal([Hand(m) for m in w]), 0, strain="NT", leader=0, talon_mode="ignore").card_values()
          for w in worlds]
    ck, c9 = prefsolve.Card.parse("CK"), prefsolve.Card.parse("C9")
    made = {c: sum(v[c] >= 1 for v in dd) for c in dd[0]}
    tricks = {c: sum(v[c] for v in dd) for c in dd[0]}
    monte_carlo = max(dd[0], key=lambda c: (made[c], tricks[c]))
    assert monte_carlo == c9 and made[c9] == made[ck] and tricks[c9] > tricks[ck]
    fronts = search(worlds[0], worlds, seat=0, leader=0, trick=(), trump=-1, counted=0, sign=1, searchers={0},
                    side={0})
    exact = {c: max(sum(x >= 1 for x in v) for v in fronts[c.index]) for c in dd[0]}
    assert exact[ck] == made[ck]        # ♣K needs no later guess
    assert exact[c9] < exact[ck] == max(exact.values())


def _real_endings(cards: int, count: int, seed: int) -> list[tuple]:
    """Endings of whole deals played double-dummy down to ``cards`` cards a hand, seen by the
    hand to move with the other two closed: every split of their cards, the layouts searched."""
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        deal = Deal.random(rng.randrange(1 << 30))
        strain = rng.choice(["S", "NT", "misere", "allpass"])
        if strain == "allpass":
            pos = Position(deal, strain="allpass", seat=0, leader=0, talon_mode="ignore")
        else:
            pos = Position(deal, 0, strain=strain, leader=0, talon_mode="ignore")
        while 10 - len(pos.played_tricks) > cards or pos.played_tricks and len(pos.played) % 3:
            pos.push(pos.best_cards()[0])
        for _ in range(rng.randrange(3)):       # sometimes from inside the trick
            pos.push(pos.best_cards()[0])
        seat = pos.to_move
        hands = [h.mask & ~sum(1 << c.index for c in pos.played) for h in deal.hands]
        trick = tuple(c.index for c in pos.played[3 * len(pos.played_tricks):])
        leader = (seat - len(trick)) % 3
        others = [s for s in range(3) if s != seat]
        counts = [hands[s].bit_count() for s in others]
        worlds = []
        for a, b in layouts(hands[others[0]] | hands[others[1]], [(counts[0], 0), (counts[1], 0)]):
            w = list(hands)
            w[others[0]], w[others[1]] = a, b
            worlds.append(tuple(w))
        trump, sign, side = _setup(strain, 0, seat)
        out.append((worlds, dict(seat=seat, leader=leader, trick=trick, trump=trump, counted=0, sign=sign,
                                 searchers={seat}, side=side)))
    return out


@pytest.mark.parametrize("cards, count", [(4, 6), pytest.param(5, 3, marks=pytest.mark.slow)])
def test_shortcuts_change_no_front(cards, count):
    """The engine's value where one layout is left and the stop at a card that reaches the
    double-dummy value in every layout give the very fronts of the plain search, card by card, on
    endings of real deals; and they are used (engine calls made, fewer points visited)."""
    engine = saved = 0
    for worlds, kw in _real_endings(cards, count, seed=cards):
        plain: dict = {}
        fast: dict = {}
        try:
            ref = search(worlds[0], worlds, shortcuts=False, stats=plain, **kw)
        except TooLarge:
            continue
        got = search(worlds[0], worlds, stats=fast, **kw)
        assert got == ref
        assert fast["nodes"] <= plain["nodes"]
        engine += fast["engine"]
        saved += plain["nodes"] - fast["nodes"]
    assert engine > 0 and saved > 0


def test_a_closed_defenders_ending_is_searched():
    """A defender's four-card ending of a closed whist, from a deal the heuristic players played:
    the declarer's and the partner's cards and the discard are unseen (450 layouts fit, more than
    the 400 a search once took); the advice searches them all and says so."""
    from prefsolve.game import CARD
    from prefsolve.players.advisor import Advisor
    from prefsolve.players.base import seat_view
    from prefsolve.players.heuristic import HeuristicPlayer
    from prefsolve.players.runner import derive_seed, play_deal

    heur = HeuristicPlayer()
    played = play_deal(Deal.random(derive_seed(1, "deal", 37)), [heur, heur, heur], seed=derive_seed(1, "play", 37))
    state = next(s for s, _m in played.record.replay() if len(s.moves) == 25)
    assert state.kind == CARD and 10 - len(state.position.played_tricks) == 4
    view = seat_view(state, state.decider, seed=1)
    assert view.declarer != view.to_play and view.contract is not None and not view.contract.is_misere
    advisor = Advisor(samples=10, endings=4)
    advisor.start(0, played.record.rules)
    advice = advisor.analysis(view)
    assert advice.method == "exact" and advice.exact_layouts == 450 and advice.fallback is None
    assert len(advice.weighted) == 450 and all(len(totals) == 450 for _card, totals in advice.values)
