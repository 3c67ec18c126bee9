"""The cautious assumption of the exact endings measured against another: opponents who play by a model.

    PYTHONPATH=src python bench/endings_assumption.py --deals 120 --seed 21 --rows r.jsonl
    PYTHONPATH=src python bench/endings_assumption.py --summarize r.jsonl

The exact ending search (prefsolve.analysis.endings, ``advise(..., endings=4, inference=0)``) plays one card
for all the layouts the seat cannot tell apart and assumes the **opponents see every card** (the
cautious assumption of the αμ search). The alternative here assumes they do not: each other seat
plays the **heuristic player's card** (prefsolve.players.heuristic) from what it sees in each
layout. That model is deterministic (the same view, the same card), it is what a book player
does, and, unlike double-dummy play, it is a different kind of player from the one the cautious
search assumes (double-dummy opponents see every card too, only without knowing the seat's plan).
With the others' cards fixed in each layout the seat's problem is an exact expectimax over its
information set (:func:`alternative_values`): at the seat's turn one card for every layout still
possible; at another seat's turn each layout's model card splits the layouts into groups by what
the seat sees played; a card's value is the sum over the groups of each group's best value. Every
layout weighs alike and is judged by the side's goal as the exact search judges it (the contract
first, then the tricks; all-pass: the fewest own tricks). A partner whose cards the seat does not
see plays the model's card too; a partner whose cards it sees and plays is the seat's own choice.

The measurement: deals played by three heuristic players; at every card decision with a choice
from the trick at whose start each hand holds ``--cards`` cards or fewer (default 4) that the
exact search covers, three cards are taken on what the seat sees (the advisor's view): (a) the
cautious search's, (b) the alternative's (ties go to the cautious card), (c) the Monte Carlo
advice's (``endings=0``). Where they differ, the ending is **played out on the true layout** from
that point: the seat's side plays the card, then every later card of the side by the same method;
the other seats by real opponents: the sampling ``advisor`` (``endings=0``: neither model, it does
not see the cards), the ``cheater`` (sees every card: near the cautious assumption's world) and
the ``heuristic`` (the alternative's own world). Where two methods choose the same card their
difference is counted 0 (their later cards are not played out). Each result is the side's
tricks, oriented so that more is better (the declarer's tricks in a game; fewer of his in
misère or of one's own in all-pass), and the side's whists (the sum over its seats of the deal
scored and settled alone, docs/RULES.md §6.4). The summary gives the paired differences per phase
with 95% intervals (standard errors clustered by deal) and the share of decisions that differ.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence

from inference_calibration import layout_deal, mean_ci, phase

from prefsolve.analysis.endings import TooLarge
from prefsolve.cards import Card
from prefsolve.deal import Deal
from prefsolve.game import CARD, DECLARATION, DealState, Declaration
from prefsolve.players.advisor import Advisor
from prefsolve.players.base import Player, SeatView, seat_view
from prefsolve.players.cheater import Cheater
from prefsolve.players.heuristic import HeuristicPlayer
from prefsolve.players.runner import decision_seed, derive_seed, play_deal

#: The most model cards one alternative search asks for before it gives up (it raises the exact
#: search's TooLarge; the cautious card is then taken as the alternative's).
MAX_CALLS = 150_000
METHODS = ("cautious", "alternative", "montecarlo")
OPPONENTS = ("advisor", "cheater", "heuristic")


def layout_state(state: DealState, layout: Sequence[int]) -> DealState:
    """``state`` in another layout of the cards still held (seats 0, 1, 2): the same moves, the
    declarer's discard being the cards out of play in that layout."""
    deal, discard = layout_deal(state, layout)
    lead = state.all_pass and state.rules.raspasy_talon == "sets_suit"
    s = DealState(deal, state.rules, allpass_count=state.allpass_count, turn=state.turn if lead else None)
    for move in state.moves:
        decision = move.decision
        if move.kind == DECLARATION and isinstance(decision, Declaration) and decision.discard is not None:
            decision = Declaration(decision.contract, discard, decision.conceded)
        s.apply(decision)
    return s


def _undo(state: DealState) -> None:
    """Take back the last card of ``state`` (a card move)."""
    assert state.position is not None
    state.position.pop()
    state.moves.pop()
    state.kind = CARD


def side_of(state: DealState, seat: int) -> tuple[int, int, frozenset[int]]:
    """The seat whose tricks are counted, the sign that makes them the side's good (1: more is
    better), and the seats of ``seat``'s side."""
    counted = seat if state.all_pass else state.declarer
    assert counted is not None
    minimize = state.all_pass or (state.contract is not None and state.contract.is_misere)

    def maximizing(s: int) -> bool:
        return (s == counted) != minimize

    up = maximizing(seat)
    return counted, 1 if up else -1, frozenset(s for s in range(3) if maximizing(s) == up)


def goal_of(state: DealState, seat: int) -> Callable[[int], float]:
    """The side's goal in one layout from the counted seat's total tricks, as the exact search
    judges it: the contract first, then the tricks; all-pass: the fewest own tricks."""
    contract = None if state.all_pass else state.contract
    level = contract.level or 0 if contract is not None else 0

    def goal(total: int) -> float:
        if contract is None:
            return -total
        made = total == 0 if contract.is_misere else total >= level
        declarer_goal = 100 * made + (-total if contract.is_misere else total)
        return declarer_goal if seat == state.declarer else -declarer_goal

    return goal


def alternative_values(states: Sequence[DealState], *, searchers: frozenset[int], goal: Callable[[int], float],
                       counted: int, model: Player, max_calls: int = MAX_CALLS) -> dict[Card, float]:
    """Each legal card of the seat to play → its value (the sum over ``states``, one a layout, of
    the side's ``goal``) when the seats in ``searchers`` play one card for every layout they
    cannot tell apart, best for the side, and the others ``model``'s card in each layout.
    The states are played on and taken back: they are as given on return."""
    calls = [0]

    def value(group: list[DealState]) -> float:
        first = group[0]
        if first.is_over():
            return float(sum(goal(s.tricks_won[counted]) for s in group))
        mover = first.to_move
        if mover in searchers:
            return max(choices(group).values())
        split: dict[Card, list[DealState]] = {}
        for s in group:
            decider = s.decider
            assert decider is not None
            options = s.options()
            if len(options) == 1:
                card = options[0]
            else:
                calls[0] += 1
                if calls[0] > max_calls:
                    raise TooLarge
                card = model.decide(seat_view(s, decider, seed=0))
            split.setdefault(card, []).append(s)
        total = 0.0
        for card, sub in split.items():
            total += played(sub, card)
        return total

    def played(group: list[DealState], card: Card) -> float:
        for s in group:
            s.apply(card)
        try:
            return value(group)
        finally:
            for s in group:
                _undo(s)

    def choices(group: list[DealState]) -> dict[Card, float]:
        return {card: played(group, card) for card in group[0].options()}

    return choices(list(states))


def alternative_card(state: DealState, layouts: Sequence[Sequence[int]], prefer: Card,
                     model: Player | None = None, max_calls: int = MAX_CALLS) -> tuple[Card, dict[Card, float]]:
    """The alternative's card at ``state`` over ``layouts`` (the seat's information set), ties
    going to ``prefer`` and then to the first legal card; and every card's value."""
    seat = state.to_move
    assert seat is not None
    counted, _sign, side = side_of(state, seat)
    searchers = frozenset({seat, state.decider, *(s for s in state.shown_hands() if s in side)})
    states = [layout_state(state, lay) for lay in layouts]
    values = alternative_values(states, searchers=searchers, goal=goal_of(state, seat), counted=counted,
                                model=model or HeuristicPlayer(), max_calls=max_calls)
    top = max(values.values())
    if values.get(prefer, -1e18) >= top - 1e-9:
        return prefer, values
    return next(c for c, v in values.items() if v >= top - 1e-9), values


class Method:
    """One way for the seat's side to choose its cards from what it sees."""

    def __init__(self, name: str, samples: int, cards: int) -> None:
        self.name = name
        self.samples = samples
        self.cards = cards
        self.fallbacks = 0
        self.start()

    def start(self) -> None:
        """A fresh player for a new ending played out."""
        self.advisor = Advisor(samples=self.samples, endings=0 if self.name == "montecarlo" else self.cards,
                               inference=0)

    def card(self, state: DealState, view: SeatView) -> Card:
        advice = self.advisor.analysis(view)
        if self.name != "alternative" or advice.method != "exact":
            return advice.card
        try:
            return alternative_card(state, [w for w, _ in advice.weighted], advice.card)[0]
        except TooLarge:
            self.fallbacks += 1
            return advice.card


def opponent(name: str) -> Player:
    if name == "advisor":
        return Advisor(endings=0)
    return Cheater() if name == "cheater" else HeuristicPlayer()


def play_out(state: DealState, first: Card, method: Method, opp: Player, seed: int) -> tuple[int, float]:
    """The ending from ``state`` on the true layout: ``first`` now, then the side's cards by
    ``method`` and the others' by ``opp``. The side's tricks (oriented) and whists."""
    seat = state.to_move
    assert seat is not None
    counted, sign, side = side_of(state, seat)
    s = state.copy()
    s.apply(first)
    method.start()
    for k in range(3):
        opp.start(k, s.rules)
    while not s.is_over():
        forced = s.forced()
        if forced is not None:
            s.apply(forced)
            continue
        by = s.decider
        assert by is not None and s.to_move is not None
        ours = s.to_move in side
        view = seat_view(s, by, seed=decision_seed(seed, by, len(s.moves) + 1), sees_all=not ours and opp.sees_all)
        s.apply(method.card(s, view) if ours else opp.decide(view))
    balances = s.balances()
    return sign * s.tricks_won[counted], float(sum(balances[x] for x in side))


def run(a: argparse.Namespace) -> list[dict]:
    out = open(a.rows, "a") if a.rows else None
    rows: list[dict] = []
    t0 = time.perf_counter()
    cautious = Advisor(samples=a.samples, endings=a.cards, inference=0)
    sampled = Advisor(samples=a.samples, endings=0)
    methods = {m: Method(m, a.samples, a.cards) for m in METHODS}
    opponents = {o: opponent(o) for o in OPPONENTS}
    skipped = {"fallback": 0, "alternative_too_large": 0}
    for k in range(a.first, a.deals):
        h = HeuristicPlayer()
        play_seed = derive_seed(a.seed, "play", k)
        record = play_deal(Deal.random(derive_seed(a.seed, "deal", k)), [h, h, h], seed=play_seed).record
        if record.forfeit is not None:
            continue
        for p in (cautious, sampled):
            p.start(0, record.rules)
        for state, _move in record.replay():
            if state.kind != CARD or state.position is None or 10 - len(state.position.played_tricks) > a.cards:
                continue
            if len(state.options()) < 2:
                continue
            seat = state.decider
            view = seat_view(state, seat, seed=decision_seed(play_seed, seat, len(state.moves) + 1))
            ex = cautious.analysis(view)
            if ex.method != "exact":
                skipped["fallback"] += 1
                continue
            mc = sampled.analysis(view)
            layouts = [w for w, _ in ex.weighted]
            t1 = time.perf_counter()
            try:
                alt, _values = alternative_card(state, layouts, ex.card)
            except TooLarge:
                skipped["alternative_too_large"] += 1
                continue
            cards = {"cautious": ex.card, "alternative": alt, "montecarlo": mc.card}
            row: dict = {"deal": k, "phase": phase(state), "cards": 10 - len(state.position.played_tricks),
                         "layouts": len(layouts), "chosen": {m: str(c) for m, c in cards.items()},
                         "alternative_seconds": round(time.perf_counter() - t1, 3), "results": {}}
            fixed = state.copy()
            for m in METHODS:
                if all(cards[m] == cards[x] for x in METHODS):
                    continue
                row["results"][m] = {o: play_out(fixed, cards[m], methods[m], opponents[o], play_seed)
                                     for o in OPPONENTS}
            rows.append(row)
            if out is not None:
                print(json.dumps(row), file=out, flush=True)
        if a.progress:
            print(k, len(rows), sum(bool(r["results"]) for r in rows), skipped, round(time.perf_counter() - t0),
                  flush=True)
    return rows


PAIRS = (("cautious", "montecarlo"), ("alternative", "cautious"), ("alternative", "montecarlo"))


def difference(row: dict, x: str, y: str, opp: str, what: int) -> float:
    """``x``'s result less ``y``'s at one decision (0 where they chose the same card)."""
    if row["chosen"][x] == row["chosen"][y]:
        return 0.0
    return float(row["results"][x][opp][what] - row["results"][y][opp][what])


def summary(rows: list[dict]) -> dict:
    out: dict = {"decisions": len(rows), "deals": len({r["deal"] for r in rows}),
                 "mean_layouts": round(sum(r["layouts"] for r in rows) / max(len(rows), 1), 1),
                 "alternative_seconds_mean": round(sum(r["alternative_seconds"] for r in rows) / max(len(rows), 1),
                                                   3)}
    groups = {"all": rows}
    for ph in sorted({r["phase"] for r in rows}):
        groups[ph] = [r for r in rows if r["phase"] == ph]
    for name, sub in groups.items():
        g: dict = {"decisions": len(sub),
                   "differ": {f"{x}_vs_{y}": sum(r["chosen"][x] != r["chosen"][y] for r in sub) for x, y in PAIRS}}
        for x, y in PAIRS:
            for opp in OPPONENTS:
                for what, label in ((0, "tricks"), (1, "whists")):
                    g[f"{x}_minus_{y}:{opp}:{label}"] = mean_ci([(r["deal"], difference(r, x, y, opp, what))
                                                                 for r in sub])
        out[name] = g
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=120, help="play deals first..deals-1")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--cards", type=int, default=4)
    ap.add_argument("--rows", default=None, help="append each decision's row to this file (JSON lines)")
    ap.add_argument("--summarize", default=None, help="only print the summary of a --rows file")
    ap.add_argument("--progress", action="store_true")
    a = ap.parse_args()
    if a.summarize:
        with open(a.summarize) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    else:
        rows = run(a)
    print(json.dumps({"seed": a.seed, "cards": a.cards, **summary(rows)}, indent=1))


if __name__ == "__main__":
    main()
