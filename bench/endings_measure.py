"""How often the Monte Carlo card is worse than the exact single-dummy optimum in endings.

    PYTHONPATH=src python bench/endings_measure.py --deals 150 --seed 1 --samples 50

Deals are played by three heuristic players (prefsolve.players.heuristic, with the match's seeds);
at every card decision from the trick at whose start each hand holds ``--cards`` cards or fewer
(default 4), the seat's advice is taken twice on what it sees (the advisor's view: auction model,
open hands, the seat's own discard): sampled (``--samples`` layouts, agreed=10, as the advisor
plays today) and exact (every layout that fits, prefsolve.analysis.endings). The exact figures of
the sampled card are compared with those of the exact best card: the share of decisions where the
sampled card is worse, and what it costs (P(make) and tricks, each the exact weighted figure).
Prints a JSON summary (and per-phase counts: game declarer, game defence, misère declarer,
misère catchers, all-pass).
"""

from __future__ import annotations

import argparse
import json
import time

from prefsolve.deal import Deal
from prefsolve.game import CARD
from prefsolve.players.advisor import Advisor
from prefsolve.players.base import seat_view
from prefsolve.players.heuristic import HeuristicPlayer
from prefsolve.players.runner import decision_seed, derive_seed, play_deal


def phase(view) -> str:
    if view.all_pass or view.contract is None:
        return "allpass"
    role = "declarer" if view.to_play == view.declarer else "defence"
    return ("misere_" if view.contract.is_misere else "game_") + role


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--cards", type=int, default=4)
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--rows", default=None, help="write each decision's row to this file (JSON lines) as it goes")
    ap.add_argument("--summarize", default=None, help="only print the summary of a --rows file")
    a = ap.parse_args()
    if a.summarize:
        with open(a.summarize) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        summary(a, rows, None, None, None, None)
        return
    out = open(a.rows, "w") if a.rows else None
    sampled = Advisor(samples=a.samples, endings=0)
    exact = Advisor(samples=a.samples, endings=a.cards)
    rows = []
    t_exact = t_sampled = 0.0
    fallbacks = 0
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
            t0 = time.perf_counter()
            ex = exact.analysis(view)
            t1 = time.perf_counter()
            sa = sampled.analysis(view)
            t2 = time.perf_counter()
            t_exact += t1 - t0
            t_sampled += t2 - t1
            if ex.method != "exact":
                fallbacks += 1
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
                         "loss_p": round(loss_p, 4), "loss_tricks": round(loss_t, 4), "deal": k})
            if out is not None:
                print(json.dumps(rows[-1]), file=out, flush=True)
        if a.progress:
            print(k, len(rows), fallbacks, round(t_exact, 1), round(t_sampled, 1), flush=True)
    summary(a, rows, fallbacks, t_exact, t_sampled, a.deals)


def summary(a: argparse.Namespace, rows: list[dict], fallbacks: int | None, t_exact: float | None,
            t_sampled: float | None, deals: int | None) -> None:
    by: dict[str, dict] = {}
    for r in rows:
        for key in (r["phase"], "all"):
            b = by.setdefault(key, {"decisions": 0, "worse": 0, "loss_p": 0.0, "loss_tricks": 0.0})
            b["decisions"] += 1
            b["worse"] += r["worse"]
            b["loss_p"] += r["loss_p"]
            b["loss_tricks"] += r["loss_tricks"]
    for b in by.values():
        n = b["decisions"]
        b["loss_p_per_decision"] = round(b.pop("loss_p") / n, 5)
        b["loss_tricks_per_decision"] = round(b.pop("loss_tricks") / n, 5)
    print(json.dumps({"deals": deals if deals is not None else len({r["deal"] for r in rows}), "seed": a.seed,
                      "samples": a.samples, "cards": a.cards, "endings_searched": len(rows), "fallbacks": fallbacks,
                      "seconds_exact": t_exact and round(t_exact, 1),
                      "seconds_sampled": t_sampled and round(t_sampled, 1),
                      "by": by}, indent=1))


if __name__ == "__main__":
    main()
