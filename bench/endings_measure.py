"""How often the Monte Carlo card is worse than the exact single-dummy optimum in endings.

    PYTHONPATH=src python bench/endings_measure.py --deals 150 --seed 1 --samples 50
    PYTHONPATH=src python bench/endings_measure.py --deals 130 --seed 3 --cards 5 --rows r5.jsonl
    PYTHONPATH=src python bench/endings_measure.py --summarize r5.jsonl --seed 3 --cards 5

Deals are played by three heuristic players (prefsolve.players.heuristic, with the match's seeds);
at every card decision from the trick at whose start each hand holds ``--cards`` cards or fewer
(default 4), the seat's advice is taken twice on what it sees (the advisor's view: auction model,
open hands, the seat's own discard): sampled (``--samples`` layouts, agreed=10, as the advisor
plays today) and exact (every layout that fits, weighed alike: ``inference=0``,
prefsolve.analysis.endings). The exact figures of
the sampled card are compared with those of the exact best card: the share of decisions where the
sampled card is worse, and what it costs (P(make), tricks and whists, each the exact weighted
figure; :func:`whist_loss`), and each decision's work (points of the search, engine calls of
each advice; wall times as context). Prints a JSON summary per phase (game declarer, game
defence, misère declarer, misère catchers, all-pass) and per ending size (``cards_N``: the
hands held N cards at the trick's start); ``--rows`` keeps each decision's row, fallbacks
included, for ``--summarize``.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

import prefsolve.analysis.endings as endings
from prefsolve.deal import Deal
from prefsolve.engine import solver_calls
from prefsolve.game import CARD
from prefsolve.players.advisor import Advisor
from prefsolve.players.base import seat_view
from prefsolve.players.heuristic import HeuristicPlayer
from prefsolve.players.runner import decision_seed, derive_seed, play_deal
from prefsolve.scoring import AllPassDeal, score_deal, settle


def phase(view) -> str:
    if view.all_pass or view.contract is None:
        return "allpass"
    role = "declarer" if view.to_play == view.declarer else "defence"
    return ("misere_" if view.contract.is_misere else "game_") + role


def side_whists(record, seat: int, counted: int, total: int) -> float:
    """The seat's side's result in whists (the deal scored and settled alone, as the match counts
    it) if the counted seat ends the deal with ``total`` tricks: the record's own contract, whist
    calls, open or closed play, rules and all-pass stage, only the tricks changed. A game's or
    misère's side is the declarer's balance (the two defenders' together are its negative); the
    defence's tricks are split with the odd one to the first defender, all-pass's other tricks
    likewise between the two others (a seat's all-pass balance does not depend on that split)."""
    assert record.first_hand == 0
    outcome = record.outcome
    rest = 10 - total
    tricks = [0, 0, 0]
    tricks[counted] = total
    tricks[(counted + 1) % 3] = (rest + 1) // 2
    tricks[(counted + 2) % 3] = rest // 2
    if isinstance(outcome, AllPassDeal):
        changed = AllPassDeal(tuple(tricks), outcome.dealer)
    else:
        changed = replace(outcome, tricks=tuple(tricks))
    rules = record.rules.replace(players=3)
    s = score_deal(changed, rules, 3, record.allpass_count)
    balance = settle(s.pool, s.mountain, s.whists, rules)
    if isinstance(outcome, AllPassDeal):
        return float(balance[seat])
    return float(balance[counted] if seat == counted else -balance[counted])


def whist_loss(record, view, ex, card) -> float:
    """The exact search's best card less ``card`` in the seat's side's whists, each card's
    per-layout totals (its best plan) turned into whists and weighted like the other figures."""
    counted = view.to_play if view.contract is None or view.all_pass else view.declarer
    weights = [w for _, w in ex.weighted]
    totals = dict(ex.values)
    cache: dict[int, float] = {}

    def mean(c) -> float:
        out = 0.0
        for t, w in zip(totals[c], weights):
            if t not in cache:
                cache[t] = side_whists(record, view.to_play, counted, t)
            out += w * cache[t]
        return out / sum(weights)
    return mean(ex.card) - mean(card)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--cards", type=int, default=4)
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--rows", default=None, help="write each decision's row to this file (JSON lines) as it goes")
    ap.add_argument("--summarize", default=None, help="only print the summary of a --rows file")
    ap.add_argument("--check", action="store_true",
                    help="also run the plain search (no shortcut) and count the endings whose fronts differ")
    a = ap.parse_args()
    if a.summarize:
        with open(a.summarize) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        summary(a, rows, None, None, None, None)
        return
    out = open(a.rows, "w") if a.rows else None
    sampled = Advisor(samples=a.samples, endings=0)
    exact = Advisor(samples=a.samples, endings=a.cards, inference=0)
    rows = []
    t_exact = t_sampled = 0.0
    fallbacks = 0
    work: dict = {}
    plain_search = endings.search

    checked = [0, 0]        # searches compared with the plain search (--check), and those that differ

    def counted_search(*args, **kwargs):
        kwargs["stats"] = work
        got = plain_search(*args, **kwargs)
        if a.check:
            # The plain search (no shortcut, the same caps) must give the very same fronts.
            try:
                plain = plain_search(*args, **{**kwargs, "stats": {}, "shortcuts": False})
            except endings.TooLarge:
                return got
            checked[0] += 1
            checked[1] += plain != got
        return got
    endings.search = counted_search
    for k in range(a.deals):
        deal = Deal.random(derive_seed(a.seed, "deal", k))
        heur = HeuristicPlayer()
        played = play_deal(deal, [heur, heur, heur], seed=derive_seed(a.seed, "play", k))
        for p in (sampled, exact):
            p.start(0, played.record.rules)
        for state, _move in played.record.replay():
            if state.kind != CARD:
                continue
            pos = state.position
            if pos is None or 10 - len(pos.played_tricks) > a.cards:
                continue
            seat = state.decider
            view = seat_view(state, seat, seed=decision_seed(derive_seed(a.seed, "play", k), seat,
                                                             len(state.moves) + 1))
            if len(state.options()) < 2:
                continue
            work.clear()
            t0 = time.perf_counter()
            calls0 = solver_calls()
            ex = exact.analysis(view)
            t1 = time.perf_counter()
            calls1 = solver_calls()
            sa = sampled.analysis(view)
            t2 = time.perf_counter()
            calls2 = solver_calls()
            t_exact += t1 - t0
            t_sampled += t2 - t1
            cost = {"points": work.get("nodes", 0), "vectors": work.get("vectors", 0),
                    "exact_calls": calls1 - calls0, "sampled_calls": calls2 - calls1,
                    "exact_seconds": round(t1 - t0, 3), "sampled_seconds": round(t2 - t1, 3)}
            if ex.method != "exact":
                fallbacks += 1
                if out is not None:
                    print(json.dumps({"phase": phase(view), "cards": 10 - len(pos.played_tricks), "fallback": True,
                                      "deal": k, **cost}), file=out, flush=True)
                continue
            best = ex.best
            mine = ex.stats_of(sa.card)
            if view.contract is None or view.all_pass:
                loss_p, loss_t = 0.0, mine.tricks_mean - best.tricks_mean     # all-pass: own tricks, fewer is better
            else:
                declarer_side = view.to_play == view.declarer
                dp = (best.p_make or 0) - (mine.p_make or 0)
                dt = best.tricks_mean - mine.tricks_mean
                # Declarer's side wants p_make (P(no trick) in misère) high; a game's tricks high, a misère's low.
                if view.contract.is_misere:
                    dt = -dt
                loss_p, loss_t = (dp, dt) if declarer_side else (-dp, -dt)
            # Worse: lower by the side's goal, the contract first, then the tricks.
            worse = loss_p > 1e-9 or (abs(loss_p) <= 1e-9 and loss_t > 1e-9)
            rows.append({"phase": phase(view), "cards": 10 - len(pos.played_tricks), "layouts": ex.exact_layouts,
                         "worse": worse,
                         "loss_p": round(loss_p, 4), "loss_tricks": round(loss_t, 4),
                         "loss_whists": round(whist_loss(played.record, view, ex, sa.card), 4), "deal": k, **cost})
            if out is not None:
                print(json.dumps(rows[-1]), file=out, flush=True)
        if a.progress:
            print(k, len(rows), fallbacks, round(t_exact, 1), round(t_sampled, 1), flush=True)
    summary(a, rows, fallbacks, t_exact, t_sampled, a.deals)
    if a.check:
        print(json.dumps({"checked_against_plain_search": checked[0], "fronts_differ": checked[1]}))


def summary(a: argparse.Namespace, rows: list[dict], fallbacks: int | None, t_exact: float | None,
            t_sampled: float | None, deals: int | None) -> None:
    """Per phase and per ending size (cards a hand at the trick's start): the decisions, how many
    the sampled card is worse in, its mean loss (P(make), tricks, whists with a 95% interval) and
    the cost of each decision (points of the search, engine calls of each advice)."""
    searched = [r for r in rows if not r.get("fallback")]
    if fallbacks is None:
        fallbacks = len(rows) - len(searched)
    by: dict[str, dict] = {}
    for r in searched:
        for key in (r["phase"], f"cards_{r['cards']}", "all"):
            b = by.setdefault(key, {"decisions": 0, "worse": 0, "loss_p": 0.0, "loss_tricks": 0.0,
                                    "whists": []})
            b["decisions"] += 1
            b["worse"] += r["worse"]
            b["loss_p"] += r["loss_p"]
            b["loss_tricks"] += r["loss_tricks"]
            b["whists"].append(r.get("loss_whists", 0.0))
    for b in by.values():
        n = b["decisions"]
        b["loss_p_per_decision"] = round(b.pop("loss_p") / n, 5)
        b["loss_tricks_per_decision"] = round(b.pop("loss_tricks") / n, 5)
        w = b.pop("whists")
        mean = sum(w) / n
        se = (sum((x - mean) ** 2 for x in w) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
        b["loss_whists_per_decision"] = round(mean, 4)
        b["loss_whists_95"] = [round(mean - 1.96 * se, 4), round(mean + 1.96 * se, 4)]
    cost: dict = {}
    if searched and "points" in searched[0]:
        for key in ("points", "vectors", "exact_calls", "sampled_calls", "exact_seconds", "sampled_seconds"):
            xs = sorted(r[key] for r in rows)
            cost[key] = {"mean": round(sum(xs) / len(xs), 3), "max": xs[-1]}
    print(json.dumps({"deals": deals if deals is not None else len({r["deal"] for r in rows}), "seed": a.seed,
                      "samples": a.samples, "cards": a.cards, "endings_searched": len(searched), "fallbacks": fallbacks,
                      "seconds_exact": t_exact and round(t_exact, 1),
                      "seconds_sampled": t_sampled and round(t_sampled, 1),
                      "cost_per_decision": cost, "by": by}, indent=1))


if __name__ == "__main__":
    main()
