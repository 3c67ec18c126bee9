"""Exact single-dummy play in endings: one card for all the layouts a seat cannot tell apart.

Monte Carlo advice (:func:`~prefsolve.analysis.advise`) values each card by
double-dummy play in each sampled layout, as if the seat would see every card
from the next card on. It then trusts the seat to guess every later guess
right (*strategy fusion*), and it judges each layout alone where a card's
worth depends on the other layouts too (*non-locality*). In an ending with
few cards this module removes both faults by search over the seat's
**information set**: every layout of the unseen cards that fits what the seat
has seen (its own cards, the cards played and who played them, the voids
shown, the open hands), each with a weight.

The seat (and a partner whose cards it sees and plays, as the lone whister
plays both defenders' hands open) must play one card for all the layouts it
cannot tell apart; it learns only from the cards the others play. The others
are assumed to see every card (the cautious assumption of the αμ search of
Cazenave and Ventos): in each layout the opponents answer the seat's whole
plan with their best card for that layout. A partner whose cards the seat
does not see is given the same sight (the optimistic one, as the Monte Carlo
advice gives it). The search is exact for that game: the value of a point is
the set of vectors (one figure a layout) that the seat's plans can reach from
there, kept to the plans not beaten in every layout at once (a Pareto front);
at the seat's turn the fronts of its cards are joined, at another seat's turn
they are combined layout by layout with that seat's choice in each. The root
chooses the plan with the best weighted result (:func:`search`).

A plan is judged layout by layout by the side's goal (docs/ADVICE.md): the
declarer of a game by whether the contract makes, then by his tricks; the
defenders the other way round; the misère declarer by whether he takes no
trick, then by his fewest tricks; the catchers the other way round; an
all-pass player by his fewest tricks. Since the goal only ever prefers more
(or fewer) tricks in each layout, the front loses no plan that could be best.

Three shortcuts leave every front as it is (``shortcuts=False`` turns them off; the tests
compare both ways on endings of real deals). Where one layout is left, the seat knows every
card and the play is double-dummy: the point's one vector is the engine's value
(:mod:`prefsolve.engine`), not a search of its own (only with more than :data:`ENGINE_FROM`
cards in the leader's and third hands, below which the search is cheaper than a call). No plan
does better in a layout than double-dummy play there, so at the seat's turn a card whose front
is the double-dummy value of every layout is the whole front of the point, and its other cards
are not searched (checked with more than :data:`STOP_FROM` cards left, the engine asked layout by
layout up to the first shortfall). At an opponent's turn just after the seat's, once every
layout has a figure and each partial vector is at most one the seat's earlier cards already
reach, the point is left (the cut of the αμ search: the opponent's further cards only lower
the figures, so nothing of it would enter the front). Touching cards of the seat (no card between them in any
other place or on the table) are searched once, and a point reached again (the same layouts
left, the same cards on the table) is taken from a table.

The work is capped (:data:`MAX_LAYOUTS` layouts, :data:`MAX_NODES` points and :data:`MAX_VECTORS` vectors of
the search): past the cap :class:`TooLarge` is raised and the advice falls
back on sampling, which it says (``method``). ``stats`` counts the points, the vectors and
the engine calls.

>>> from prefsolve.cards import Hand
>>> own, king, eight = (Hand.parse(h).mask for h in ("A7.-.-.-", "K.-.-.7", "8.-.-.8"))
>>> # ♠A ♠7 to lead at no-trump, ♠K ♥7 and ♠8 ♥8 with seats 1 and 2 either way round (two layouts):
>>> # the ace drops the king in both and the seven wins the last trick; the seven first loses both.
>>> r = search((own, 0, 0), [(own, king, eight), (own, eight, king)], seat=0, leader=0, trick=(), trump=-1,
...            counted=0, sign=1, searchers={0}, side={0})
>>> sorted((card, sorted(front)) for card, front in r.items())
[(0, [(0, 0)]), (7, [(2, 2)])]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..engine import SEARCHES, Solver, default_solver

#: The most layouts an ending is searched over: beyond it the advice samples (a closed defender's
#: four-card ending, the declarer's cards, the partner's and the discard, has at most 3 150).
MAX_LAYOUTS = 3200
#: The most points (of the seat's knowledge: the cards seen so far and the layouts they fit) one search visits.
MAX_NODES = 200_000
#: The most vectors one search builds while combining fronts (a front can grow large where many
#: plans are each best in some layouts): the cap on the search's work besides its points.
MAX_VECTORS = 500_000

#: A point with one layout left and more than this many cards in the leader's and third hands
#: together is valued by the engine (below it the search's own few points cost less than a call).
ENGINE_FROM = 4
#: At the seat's turn with more than this many cards left in all hands, a card whose plan reaches the
#: double-dummy value in every layout ends the search of the point (below it the check costs more
#: engine calls than the points it saves).
STOP_FROM = 6

Front = frozenset[tuple[int, ...]]
Layout = tuple[int, int, int]


class TooLarge(Exception):
    """The ending has more layouts or points than the cap: it is sampled instead."""


def _suit_mask(suit: int) -> int:
    return 0xFF << (8 * suit)


def _legal(hand: int, led: int | None, trump: int) -> int:
    """The cards of ``hand`` its holder may play to a trick led in suit ``led``."""
    if led is None:
        return hand
    follow = hand & _suit_mask(led)
    if follow:
        return follow
    if trump >= 0:
        ruffs = hand & _suit_mask(trump)
        if ruffs:
            return ruffs
    return hand


def _winner(leader: int, trick: Sequence[int], trump: int) -> int:
    """The seat that wins a complete trick of three cards (indexes), led by ``leader``."""
    best = trick[0]
    at = 0
    for i in (1, 2):
        c = trick[i]
        if (c >> 3 == best >> 3 and c > best) or (c >> 3 == trump and best >> 3 != trump):
            best, at = c, i
    return (leader + at) % 3


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def pareto(vectors: Iterable[tuple[int, ...]]) -> Front:
    """The vectors not beaten in every place by another (ties kept once).

    >>> sorted(pareto([(1, 0), (0, 1), (0, 0), (1, 0)]))
    [(0, 1), (1, 0)]
    """
    vs = sorted(set(vectors), key=sum, reverse=True)
    kept: list[tuple[int, ...]] = []
    for v in vs:
        if not any(all(a >= b for a, b in zip(k, v)) for k in kept):
            kept.append(v)
    return frozenset(kept)


class _Search:
    """One search: the fixed parts of the ending and the table of points already solved."""

    def __init__(self, trump: int, counted: int, sign: int, searchers: frozenset[int], side: frozenset[int],
                 max_nodes: int, shortcuts: bool = True) -> None:
        self.shortcuts = shortcuts
        self.trump = trump
        self.counted = counted
        self.sign = sign
        self.searchers = searchers
        self.side = side
        self.max_nodes = max_nodes
        self.nodes = 0
        self.vectors = 0
        self.engine = 0
        self.stops = 0
        self.cuts = 0
        self.memo: dict[tuple, Front] = {}
        self.exact: dict[tuple, int] = {}
        # The counted seat's side wants its tricks low (misère, all-pass) where the engine minimizes.
        self.minimize = (counted in side) == (sign < 0)
        self.solver: Solver | None = None

    def front(self, worlds: tuple[Layout, ...], leader: int, trick: tuple[int, ...],
              bound: Sequence[tuple[int, ...]] = ()) -> Front:
        """The front of the point where ``worlds`` are the layouts still possible and
        ``trick`` the cards on the table (the seat's side's future tricks, signed).

        ``bound``: vectors the seat's side already has at its turn just before; where the point
        can be shown to give nothing better than one of them in every layout, it may return an
        empty front instead (not kept in the table)."""
        key = (worlds, leader, trick)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooLarge
        if not worlds[0][0] | worlds[0][1] | worlds[0][2] and not trick:
            out: Front = frozenset({(0,) * len(worlds)})
            self.memo[key] = out
            return out
        if (len(worlds) == 1 and self.shortcuts
                and (worlds[0][leader] | worlds[0][(leader + 2) % 3]).bit_count() > ENGINE_FROM):
            # One layout left: the seat knows every card from here, and the others see every card
            # anyway, so the play is double-dummy and the engine's value is the point's one vector.
            out = frozenset({(self.double_dummy(worlds[0], leader, trick),)})
            self.memo[key] = out
            return out
        mover = (leader + len(trick)) % 3
        led = trick[0] >> 3 if trick else None
        if mover in self.searchers:
            out = self._choose(worlds, leader, trick, mover, led)
        else:
            cut = bound if self.shortcuts and mover not in self.side else ()
            got = self._answer(worlds, leader, trick, mover, led, cut)
            if got is None:
                self.nodes -= 1     # not a point solved: searched again when reached with another bound
                return frozenset()
            out = got
        self.memo[key] = out
        return out

    def double_dummy(self, world: Layout, leader: int, trick: tuple[int, ...]) -> int:
        """The figure of one layout with every seat seeing every card: the engine's value (the
        counted seat's tricks from the trick on the table on), signed."""
        key = (world, leader, trick)
        hit = self.exact.get(key)
        if hit is not None:
            return hit
        if self.solver is None:
            self.solver = default_solver()
        SEARCHES.count += 1
        self.engine += 1
        value = self.solver.value(list(world), self.counted, self.trump, self.minimize, leader, list(trick))
        SEARCHES.nodes += self.solver.nodes
        out = self.sign * value
        self.exact[key] = out
        return out

    def _child(self, worlds: tuple[Layout, ...], leader: int, trick: tuple[int, ...], mover: int,
               card: int, bound: Sequence[tuple[int, ...]] = ()) -> Front:
        bit = 1 << card
        keep = ~bit
        after: tuple[Layout, ...]
        if mover == 0:
            after = tuple((a & keep, b, c) for a, b, c in worlds)
        elif mover == 1:
            after = tuple((a, b & keep, c) for a, b, c in worlds)
        else:
            after = tuple((a, b, c & keep) for a, b, c in worlds)
        played = trick + (card,)
        if len(played) < 3:
            return self.front(after, leader, played, bound)
        winner = _winner(leader, played, self.trump)
        gain = self.sign if winner == self.counted else 0
        if bound and gain:
            bound = [tuple(x - gain for x in v) for v in bound]
        rest = self.front(after, winner, (), bound)
        if not gain:
            return rest
        return frozenset(tuple(x + gain for x in v) for v in rest)

    def _choose(self, worlds: tuple[Layout, ...], leader: int, trick: tuple[int, ...], mover: int,
                led: int | None) -> Front:
        """The seat's side plays one card for every layout: the fronts of its cards joined."""
        hand = worlds[0][mover]
        legal = _legal(hand, led, self.trump)
        seen = 0        # the cards in some place other than this hand, or on the table
        for w in worlds:
            for s in range(3):
                if s != mover:
                    seen |= w[s]
        for c in trick:
            seen |= 1 << c
        vectors: list[tuple[int, ...]] = []
        last = -1
        stop = self.shortcuts and (worlds[0][0] | worlds[0][1] | worlds[0][2]).bit_count() > STOP_FROM
        for card in _bits(legal):
            # Touching cards (no card between them anywhere but in this hand) give the same front.
            if last >= 0 and last >> 3 == card >> 3 and not seen & (((1 << card) - 1) & ~((1 << (last + 1)) - 1)):
                last = card
                continue
            last = card
            # The plans found so far bound the next card's: where the others can hold it below one of
            # them in every layout, its vectors would all be dropped from the front anyway.
            if self.shortcuts and vectors:
                vectors = list(pareto(vectors))
            got = self._child(worlds, leader, trick, mover, card, vectors)
            # No plan does better in a layout than double-dummy play there: a card whose front
            # holds that vector beats or ties every plan of every card, and is the whole front.
            # Such a front is that one vector (every other is below it): only a single vector
            # is checked, layout by layout, and the engine asked no further than its first shortfall.
            if stop and len(got) == 1:
                (v,) = got
                if all(x == self.double_dummy(w, leader, trick) for x, w in zip(v, worlds)):
                    self.stops += 1
                    return got
            vectors.extend(got)
        self._spend(len(vectors) ** 2)
        return pareto(vectors)

    def _spend(self, work: int) -> None:
        self.vectors += work
        if self.vectors > MAX_VECTORS:
            raise TooLarge

    def _answer(self, worlds: tuple[Layout, ...], leader: int, trick: tuple[int, ...], mover: int,
                led: int | None, bound: Sequence[tuple[int, ...]] = ()) -> Front | None:
        """Another seat plays, seeing every card: in each layout its best card for its side,
        against each plan of the seat's side (the plans after each card being independent).

        With ``bound`` (an opponent's turn: his further cards only lower a figure): None as soon
        as every layout has a figure and every partial vector is at most one of ``bound``'s in
        every layout (the αμ search's cut), since then nothing of this point reaches the front."""
        best = max if mover in self.side else min
        legal_in = [_legal(w[mover], led, self.trump) for w in worlds]
        cards = 0
        for m in legal_in:
            cards |= m
        n = len(worlds)
        partial: list[tuple[int | None, ...]] = [(None,) * n]
        for card in _bits(cards):
            bit = 1 << card
            where = [i for i in range(n) if legal_in[i] & bit]
            sub = self._child(tuple(worlds[i] for i in where), leader, trick, mover, card)
            combined = []
            self._spend(len(partial) * len(sub) * (1 + len(partial) * len(sub) // 8))
            for p in partial:
                for v in sub:
                    q = list(p)
                    for j, i in enumerate(where):
                        q[i] = v[j] if q[i] is None else best(q[i], v[j])  # type: ignore[type-var]
                    combined.append(tuple(q))
            partial = _reduce(combined)
            if bound and all(x is not None for x in partial[0]) and all(
                    any(all(a >= b for a, b in zip(k, v)) for k in bound) for v in partial):  # type: ignore[operator]
                self.cuts += 1
                return None
        return frozenset(partial)  # type: ignore[arg-type]  # every figure is decided by now


def _reduce(vectors: list[tuple[int | None, ...]]) -> list[tuple[int | None, ...]]:
    """The partial vectors worth keeping: a vector every one of whose figures is at most
    another's (None: not yet decided, in both) can be dropped, since the best or the worst of
    further answers, taken layout by layout, keeps that order."""
    unique = list(dict.fromkeys(vectors))
    kept: list[tuple[int | None, ...]] = []
    unique.sort(key=lambda v: sum(x for x in v if x is not None), reverse=True)
    for v in unique:
        dominated = False
        for k in kept:
            if all((a is None) == (b is None) and (a is None or a >= b) for a, b in zip(k, v)):  # type: ignore[operator]
                dominated = True
                break
        if not dominated:
            kept.append(v)
    return kept


def search(known: Layout, worlds: Sequence[Layout], *, seat: int, leader: int, trick: tuple[int, ...],
           trump: int, counted: int, sign: int, searchers: Iterable[int], side: Iterable[int],
           max_nodes: int = MAX_NODES, stats: dict | None = None, shortcuts: bool = True) -> dict[int, Front]:
    """Each legal card of ``seat`` → the front of its side after it (vectors over ``worlds``, in order).

    ``worlds``: the layouts of the cards still held (masks of seats 0, 1, 2), all holding
    ``known``'s cards where it has them; ``trick``: the card indexes on the table, led by
    ``leader``; ``trump``: the trump suit or -1; the figures are ``sign`` times the tricks
    ``counted`` takes from here on (``sign`` 1: the seat's side wants them high).
    ``searchers``: the seats that play one card for all layouts they cannot tell apart (the
    seat, and the partner whose cards it plays); ``side``: the seat's side. Raises
    :class:`TooLarge` past ``max_nodes`` points or :data:`MAX_VECTORS` vectors built (the
    comparisons of fronts counted as vectors); ``stats["nodes"]`` gets the points visited,
    ``stats["vectors"]`` the vectors and ``stats["engine"]`` the engine calls. ``shortcuts``: False
    searches every point (the same fronts, more work).
    """
    del known       # the seat's own cards are in every layout
    ws = tuple(tuple(w) for w in worlds)
    if not ws:
        raise TooLarge
    s = _Search(trump, counted, sign, frozenset(searchers), frozenset(side), max_nodes, shortcuts)
    led = trick[0] >> 3 if trick else None
    hand = ws[0][seat]
    out: dict[int, Front] = {}
    try:
        for card in _bits(_legal(hand, led, trump)):
            out[card] = s._child(ws, leader, trick, seat, card)  # type: ignore[arg-type]
    finally:
        if stats is not None:
            stats["nodes"] = s.nodes
            stats["vectors"] = s.vectors
            stats["engine"] = s.engine
            stats["cuts"] = s.cuts
            stats["stops"] = s.stops
    return out


def best_vector(front: Front, score: Callable[[tuple[int, ...]], float]) -> tuple[int, ...]:
    """The plan of ``front`` with the highest ``score`` (ties: the first in sorted order)."""
    return max(sorted(front), key=score)


def layouts(unseen: int, places: Sequence[tuple[int, int]], accept: Callable[[tuple[int, ...]], bool] | None = None,
            max_layouts: int = MAX_LAYOUTS) -> list[tuple[int, ...]]:
    """Every way to deal the ``unseen`` cards to ``places`` ((count, barred-cards mask) each;
    what is left over goes out of play), as masks in the places' order, that ``accept`` takes.
    Raises :class:`TooLarge` past ``max_layouts`` layouts.

    >>> [bin(m[0]) for m in layouts(0b111, [(1, 0b1)])]
    ['0b10', '0b100']
    """
    from itertools import combinations

    out: list[tuple[int, ...]] = []

    def deal(k: int, left: int, acc: tuple[int, ...]) -> None:
        if k == len(places):
            if accept is None or accept(acc):
                out.append(acc)
                if len(out) > max_layouts:
                    raise TooLarge
            return
        count, barred = places[k]
        for combo in combinations(list(_bits(left & ~barred)), count):
            m = 0
            for c in combo:
                m |= 1 << c
            deal(k + 1, left & ~m, acc + (m,))

    deal(0, unseen, ())
    return out


def mean_of(vector: Sequence[int], weights: Sequence[float], value: Callable[[int], float]) -> float:
    """The weighted mean of ``value`` of each figure of ``vector``."""
    total = sum(weights)
    return sum(w * value(x) for x, w in zip(vector, weights)) / total


__all__ = ["MAX_LAYOUTS", "MAX_NODES", "MAX_VECTORS", "ENGINE_FROM", "STOP_FROM", "TooLarge", "search", "pareto",
           "layouts", "best_vector", "mean_of"]

