"""Measurements of the advice from what a player sees (docs/ADVICE.md), on fixed seeds.

    PYTHONPATH=src python bench/advice_measure.py calibration --deals 400
    PYTHONPATH=src python bench/advice_measure.py whist --deals 60 --samples 60
    PYTHONPATH=src python bench/advice_measure.py bidding --deals 100 --samples 60
    PYTHONPATH=src python bench/advice_measure.py play --positions 40 --samples 20
    PYTHONPATH=src python bench/advice_measure.py cost

calibration: deals whose first hand opens 6♠ by the model (and the others pass by it); the hands
    the conditioned sampler draws for the opener, from seat 1's view, against the real openers'.
whist: a duplicate of whist decisions on the same deals, with the auction model and without it,
    scored on the real deal's double-dummy play under the sochi rules: whists gained per deal.
bidding: the same for a bid decision of the second seat after a 6♠ opening.
play: positions along the double-dummy line of random games; the tricks the advised card loses
    against the best double-dummy card, against a random legal card and the highest card.
cost: solver calls (counted) and wall time of a 500-sample whist decision with the auction model
    against today's 1000-sample bid analysis.

What these do not show. They are checks of the machinery, not of the advice's strength:
``calibration`` compares deals bid by the auction model with layouts drawn from the same model,
equal by construction (bench/strength.py's ``calibration`` uses hands bid by the heuristic
player instead); ``whist`` compares against the same analyzer without the model, whose calls
whist on nearly every deal, not against a player a good player accepts; ``play`` scores the advice
by the double-dummy criterion it optimises, on positions where most cards are equal; ``bidding``
shows no gain. The advice's strength is measured by duplicate matches against the heuristic player
(docs/STRENGTH.md).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import numpy as np

import prefsolve
from prefsolve.analysis import Sampling, analyze, analyze_whist, sample_deals
from prefsolve.analysis.auction_model import auction_conditions, best_estimate, estimate
from prefsolve.analysis.defence import balance_row
from prefsolve.analysis.whist import CALL_NAMES, whist_options
from prefsolve.cards import ALL_CARDS, Hand
from prefsolve.contract import Contract
from prefsolve.deal import Deal
from prefsolve.rules import Rules


def random_deal(rng: random.Random) -> Deal:
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    return Deal([Hand(cards[0:10]), Hand(cards[10:20]), Hand(cards[20:30])], Hand(cards[30:32]))


def features(hand: Hand) -> tuple[int, int, int]:
    longest = max(len(hand.suit_ranks(s)) for s in range(4))
    honours = sum(hand.suit_ranks(s).count("A") + hand.suit_ranks(s).count("K") for s in range(4))
    return longest, honours, best_estimate(hand)


def opened_deals(rng: random.Random, n: int) -> list[Deal]:
    """Deals the model bids "6S pass pass": seat 0 is worth ≥ 5, seats 1 and 2 < 7."""
    conds = auction_conditions("6S pass pass")
    out = []
    while len(out) < n:
        d = random_deal(rng)
        if all(c(d.hands[c.seat]) for c in conds):
            out.append(d)
    return out


def mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{m:+.3f} ± {1.96 * se:.3f} (95% CI, n={len(xs)})"


def calibration(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    deals = opened_deals(rng, args.deals)
    real = [features(d.hands[0]) for d in deals]
    sampled = []
    uncond = []
    for i, d in enumerate(deals):
        s = Sampling(samples=3, seed=args.seed + i, conditions=auction_conditions("6S pass pass", exclude=[1]))
        sampled += [features(x.hands[0]) for x in sample_deals(d.hands[1], 1, sampling=s)]
        uncond += [features(x.hands[0]) for x in sample_deals(d.hands[1], 1,
                                                              sampling=Sampling(samples=3, seed=args.seed + i))]
    names = ("longest suit", "aces+kings", "estimate")
    print(f"calibration: {len(deals)} deals opened 6♠ by the model, 3 sampled opener hands per deal")
    for k, name in enumerate(names):
        r = [f[k] for f in real]
        s = [f[k] for f in sampled]
        u = [f[k] for f in uncond]
        print(f"  {name:<13} real {statistics.fmean(r):5.2f}   sampled with model {statistics.fmean(s):5.2f}"
              f"   sampled without {statistics.fmean(u):5.2f}")
    for k, name in ((2, "estimate"), (0, "longest suit")):
        values = sorted({f[k] for f in real + sampled})
        gap = max(abs(sum(f[k] <= v for f in real) / len(real) - sum(f[k] <= v for f in sampled) / len(sampled))
                  for v in values)
        print(f"  largest gap between the CDFs of {name}: {gap:.3f}")


def _declared(d: Deal) -> Contract:
    hand = d.hands[0]
    strain = max("SCDH", key=lambda s: estimate(hand, s))
    return Contract(min(9, max(6, estimate(hand, strain) + 1)), strain)


def whist(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    rules = Rules.profile("sochi")
    gains = []
    changed = 0
    for i, d in enumerate(opened_deals(rng, args.deals)):
        c = _declared(d)
        t = prefsolve.solve(d, 0, strain=c.strain, talon_mode="take").tricks
        auction = "6S pass pass"
        calls = {}
        for label, auc in (("model", auction), ("plain", None)):
            w = analyze_whist(d.hands[1], 1, declarer=0, contract=c, auction=auc, jobs=1,
                              sampling=Sampling(samples=args.samples, seed=args.seed + i))
            calls[label] = w.recommendation.call
        opts = {CALL_NAMES[k]: v for k, v in whist_options(c, True, "pass", rules).items()}

        def score(call: str, c: Contract = c, t: int = t, opts: dict = opts) -> float:
            seq = opts[call]
            return float(balance_row(c, seq, rules, seq.count("whist") == 1, 1)[t])
        gains.append(score(calls["model"]) - score(calls["plain"]))
        changed += calls["model"] != calls["plain"]
    print(f"whist duplicate: {len(gains)} deals (seat 0 opens 6♠ and declares by the model, seat 1 decides; "
          f"{args.samples} samples each); decisions changed by the model: {changed}")
    print(f"  whists gained per deal with the auction model: {mean_ci(gains)}")


def bidding(args: argparse.Namespace) -> None:
    """Second seat after the model's 6♠ opening (``--seat 2``: third seat after "6S pass"): the
    analyzer's bid with the auction model against the
    same analyzer with its conditions made void (tolerance 20: every hand passes them), the same bids
    open. The bid is scored as if it won the auction and was played: double-dummy with the talon and
    best discard, the defence calling best; a pass scores 0."""
    from prefsolve.analysis.defence import declarer_scores
    rng = random.Random(args.seed)
    rules = Rules.profile("sochi")
    gains = []
    changed = 0
    seat = args.seat
    calls = "6S" if seat == 1 else "6S pass"
    for i, d in enumerate(opened_deals(rng, args.deals)):
        table = prefsolve.table(d)
        score = {}
        for label, tol in (("model", 1.0), ("plain", 20.0)):
            a = analyze(d.hands[seat], seat, auction=calls, tolerance=tol, jobs=1,
                        sampling=Sampling(samples=args.samples, seed=args.seed + i))
            rec = a.recommendation
            if rec.call == "pass" or rec.contract is None:
                score[label] = (rec.call, 0.0)
                continue
            t = table.tricks[seat][rec.contract.strain]
            score[label] = (rec.call, float(declarer_scores(rec.contract, np.array([t]), "best", rules)[0]))
        gains.append(score["model"][1] - score["plain"][1])
        changed += score["model"][0] != score["plain"][0]
    print(f"bid duplicate, seat {seat} after {calls!r}: {len(gains)} deals, {args.samples} samples each; "
          f"decisions changed by the model: {changed}")
    print(f"  whists gained per deal with the auction model: {mean_ci(gains)}")


def play(args: argparse.Namespace) -> None:
    from prefsolve import Position
    rng = random.Random(args.seed)
    loss = {"advised": [], "random": [], "highest": []}
    for i, d in enumerate(opened_deals(rng, args.positions)):
        c = _declared(d)
        line = prefsolve.best_line(d, 0, strain=c.strain)
        played = [card for trick in line.played_tricks for card in trick.cards][:rng.randrange(0, 15)]
        pos = Position(d, 0, strain=c.strain, played=played)
        seat = pos.to_move
        values = pos.card_values()
        maxim = pos.maximizing(seat)
        best = max(values.values()) if maxim else min(values.values())

        def cost(card, best: int = best, values=values) -> int:
            return abs(best - values[card])
        a = prefsolve.advise(d.hands[seat], seat, contract=c, declarer=0, played=played, talon=d.talon,
                             discard=pos.discard if seat == 0 else None,
                             sampling=Sampling(samples=args.samples, seed=args.seed + i))
        legal = list(values)
        loss["advised"].append(cost(a.card))
        loss["random"].append(statistics.fmean(cost(x) for x in legal))
        loss["highest"].append(cost(max(legal, key=lambda x: (x.rank, -x.suit))))
    print(f"play advice: {args.positions} positions (games declared by the model, 0..14 cards into the "
          f"double-dummy line; {args.samples} samples per advice)")
    for k, v in loss.items():
        print(f"  tricks lost against the best double-dummy card, {k:<8}: {mean_ci([float(x) for x in v])}")


def cost(args: argparse.Namespace) -> None:
    import prefsolve.analysis.bid as bid_mod
    import prefsolve.analysis.whist as whist_mod
    counted = {"n": 0}
    real_solve_many, real_table_many = whist_mod.solve_many, bid_mod.table_many

    def solve_many(deals, *a, **k):
        counted["n"] += len(deals)
        return real_solve_many(deals, *a, **k)

    def table_many(deals, *a, **k):
        counted["n"] += len(deals) * 6   # one declarer, six strains: six solves per layout
        return real_table_many(deals, *a, **k)
    whist_mod.solve_many, bid_mod.table_many = solve_many, table_many
    t = time.perf_counter()
    w = analyze_whist("JT97.A7.8.Q98", 2, declarer=1, contract="7H", auction="6S 7H pass pass", jobs=1,
                      sampling=Sampling(samples=500, seed=1))
    whist_time, whist_calls = time.perf_counter() - t, counted["n"]
    counted["n"] = 0
    t = time.perf_counter()
    analyze("A.KT9.KT97.K7", 0, sampling=Sampling(samples=1000, seed=1), jobs=1)
    bid_time, bid_calls = time.perf_counter() - t, counted["n"]
    counted["n"] = 0
    t = time.perf_counter()
    b = analyze("A.KT9.KT97.K7", 2, auction="6S 7H", sampling=Sampling(samples=500, seed=1), jobs=1)
    bid500_time, bid500_calls = time.perf_counter() - t, counted["n"]
    print(f"cost: whist decision, 500 samples with the auction model (acceptance {w.acceptance:.3%}): "
          f"{whist_calls} solver calls, {whist_time:.1f} s")
    print(f"      bid decision, 500 samples after '6S 7H' (acceptance {b.acceptance:.3%}): "
          f"{bid500_calls} solver calls (one table = 6 solves), {bid500_time:.1f} s")
    print(f"      today's bid analysis, 1000 samples, no auction: {bid_calls} solver calls, {bid_time:.1f} s")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=("calibration", "whist", "bidding", "play", "cost"))
    p.add_argument("--deals", type=int, default=60)
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--samples", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seat", type=int, choices=(1, 2), default=1, help="bidding: the second or the third seat")
    args = p.parse_args()
    np.seterr(all="ignore")
    {"calibration": calibration, "whist": whist, "bidding": bidding, "play": play, "cost": cost}[args.what](args)


if __name__ == "__main__":
    main()
