"""Reading the records of duplicate matches (docs/STRENGTH.md): paired comparisons and calibration.

    PYTHONPATH=src python bench/strength.py pair X.jsonl Y.jsonl
    PYTHONPATH=src python bench/strength.py calibration hh.jsonl ah.jsonl --views 3
    PYTHONPATH=src python bench/strength.py examples X.jsonl [Y.jsonl] --phase play --count 5
    PYTHONPATH=src python bench/strength.py allpass-play ah.jsonl --deals 300
    PYTHONPATH=src python bench/strength.py whist-calls ah.jsonl --deals 300

pair: two matches against the same B on the same seed and rules (``prefsolve match X B`` and
    ``prefsolve match Y B``, both with ``--records``) play the same ``B B B`` game on every deal and
    put X, then Y, in the same seats with the same luck; the difference of their gains on a deal is
    X's result less Y's in each seat, among the same two B players. Printed: the mean difference
    per deal with its standard error and 95% interval (Student's t), the phase of the first move in
    which X's game differs from Y's (each seat's difference counted in its phase, so the shares add
    up to the difference), and the difference by the kind of deal the ``B B B`` game was.
examples: the seats whose X and Y games first differ in ``--phase``: the deal, the moves up to the
    difference, both decisions and both results (with X alone: X's match's A against its B).
allpass-play, whist-calls: where A's game first differs from its match's ``B B B`` game in the
    all-pass play (A's card and B's valued double-dummy on the real deal) or in a whist call.
calibration: the games of the records in which every seat is the ``heuristic`` player (a
    ``heuristic heuristic`` match, or the ``B B B`` games of any match against it): the auction
    model's statements about each caller, made from the calls of a player the model did not
    write, checked against the hand he really held (for tolerances 0, 1 and 2), and the hands the
    model's sampler draws for the declarer from a defender's seat against the real declarers' hands.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence

from prefsolve.analysis import Sampling, sample_deals
from prefsolve.analysis.auction_model import auction_conditions, best_estimate, estimate, misere_unsafe, sure_tricks
from prefsolve.cards import Hand
from prefsolve.errors import PrefsolveError
from prefsolve.game import PHASES, GameRecord
from prefsolve.match import LINEUPS, SAME, DuplicateDeal, Stat, match_settings, read_records


def load(path: str, limit: int | None = None) -> tuple[dict, list[DuplicateDeal]]:
    """A match's tags (from its first record) and its deals, each checked by :func:`read_records`."""
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    tags = json.loads(lines[0])["tags"]
    rules = json.loads(lines[0])["rules"]
    deals = len(lines) // 4 if limit is None else min(limit, len(lines) // 4)
    settings = match_settings(tags["a"], tags["b"], deals=deals, seed=tags["seed"], rules=rules)
    return tags, list(read_records(lines[:4 * deals], settings))


def show(stat: Stat) -> str:
    lo, hi = stat.interval
    return f"{stat.mean:+.2f} ± {stat.se:.2f} (95%: {lo:+.2f} to {hi:+.2f}, n={stat.n})"


def first_difference(x: GameRecord, y: GameRecord) -> int | None:
    """The index of the first move in which two games of the same deal differ (None: identical)."""
    first = next((i for i, (p, q) in enumerate(zip(x.moves, y.moves)) if p != q), None)
    if first is None and len(x.moves) != len(y.moves):
        first = min(len(x.moves), len(y.moves))
    return first


def phase_of(x: GameRecord, y: GameRecord) -> str:
    first = first_difference(x, y)
    if first is None:
        return SAME
    return (x.moves if first < len(x.moves) else y.moves)[first].phase


def paired(xs: list[DuplicateDeal], ys: list[DuplicateDeal]) -> Iterator[tuple[DuplicateDeal, DuplicateDeal]]:
    for x, y in zip(xs, ys):
        if x.records[0] != y.records[0]:
            raise SystemExit(f"deal {x.number}: the B B B games differ; not the same B, seed and rules")
        if x.counted and y.counted:
            yield x, y


def differences(xs: list[DuplicateDeal], ys: list[DuplicateDeal]
                ) -> tuple[list[float], dict[str, list[float]], Counter[str], dict[str, list[float]]]:
    """Per deal, X's result less Y's in B's seats (mean over the three seats); each phase's share of
    it per deal; the seats by phase of the first difference; the differences by the kind of deal the
    ``B B B`` game was."""
    diffs: list[float] = []
    shares: dict[str, list[float]] = {p: [] for p in (*PHASES, SAME)}
    seats: Counter[str] = Counter()
    kinds: dict[str, list[float]] = defaultdict(list)
    for x, y in paired(xs, ys):
        d = [float(x.records[1 + s].balances()[s] - y.records[1 + s].balances()[s]) for s in range(3)]
        p = [phase_of(x.records[1 + s], y.records[1 + s]) for s in range(3)]
        diffs.append(statistics.fmean(d))
        seats.update(p)
        for phase in shares:
            shares[phase].append(sum(v for v, q in zip(d, p) if q == phase) / 3)
        kinds[y.records[0].deal_kind() or "?"].append(diffs[-1])
    return diffs, shares, seats, kinds


def pair(args: argparse.Namespace) -> None:
    tx, xs = load(args.x, args.deals)
    ty, ys = load(args.y, args.deals)
    if (tx["b"], tx["seed"]) != (ty["b"], ty["seed"]):
        raise SystemExit("the two matches must have the same B and seed")
    diffs, shares, seats, kinds = differences(xs, ys)
    print(f"{tx['a']} less {ty['a']}, each in B's seats among {tx['b']} (seed {tx['seed']}): "
          f"{len(diffs)} deals")
    print(f"  difference per deal {show(Stat.of(diffs))}")
    if len(diffs) > 1:
        print(f"  standard deviation per deal {statistics.stdev(diffs):.2f}")
    for phase, v in shares.items():
        print(f"  {phase:<9} seats {seats[phase]:4d}  share {show(Stat.of(v))}")
    for kind, v in sorted(kinds.items()):
        print(f"  {kind:<9} (the B B B game) {show(Stat.of(v))}")


def pair_row(args: argparse.Namespace) -> None:
    """A row of docs/STRENGTH.md's paired table: X's match's records and JSON against Y's records."""
    tx, xs = load(args.x, args.deals)
    _, ys = load(args.y, args.deals)
    diffs, shares, seats, kinds = differences(xs, ys)
    st = Stat.of(diffs)
    lo, hi = st.interval
    phases = ", ".join(f"{p} {Stat.of(v).mean:+.2f} ± {Stat.of(v).se:.2f} ({seats[p]})"
                       for p, v in shares.items() if p != SAME and seats[p])
    by_kind = ", ".join(f"{len(v)} {k} {Stat.of(v).mean:+.2f} ± {Stat.of(v).se:.2f}" for k, v in sorted(kinds.items()))
    with open(args.json, encoding="utf-8") as f:
        d = json.load(f)
    calls = d["cost"]["a"]["solver_calls_per_decision"]
    print(f"| {tx['a']} | {len(diffs)} | {st.mean:+.2f} ± {st.se:.2f} | {lo:+.2f} to {hi:+.2f} | {phases}; "
          f"{seats[SAME]} seats alike | {by_kind} | {d['gain']:+.2f} ± {d['gain_se']:.2f} | {calls:.1f} |")


def examples(args: argparse.Namespace) -> None:
    _, xs = load(args.x, args.deals)
    _, ys = load(args.y, args.deals) if args.y else (None, xs)
    shown = 0
    for x, y in paired(xs, ys):
        for s in range(3):
            gx, gy = x.records[1 + s], (y.records[1 + s] if args.y else y.records[0])
            first = first_difference(gx, gy)
            if first is None or phase_of(gx, gy) != args.phase:
                continue
            mx = gx.moves[first] if first < len(gx.moves) else None
            my = gy.moves[first] if first < len(gy.moves) else None
            before = " ".join(str(m.decision) for m in gx.moves[:first])
            rx, ry = gx.balances()[s], gy.balances()[s]
            print(f"deal {x.number} seat {s}: {gx.deal}\n  before: {before}\n  X: {mx} ({float(rx):+.2f})"
                  f"   Y: {my} ({float(ry):+.2f})   kind X {gx.deal_kind()}, Y {gy.deal_kind()}")
            shown += 1
            if shown >= args.count:
                return


def allpass_play(args: argparse.Namespace) -> None:
    """The seats of an all-pass (``B B B``) whose A game first differs in the play: A's card and B's
    valued by double-dummy play of the real deal from there (the seat's own tricks), and the
    seat's result difference by whether the two cards are equal, A's better or A's worse."""
    from prefsolve.play import ALLPASS, Position
    from prefsolve.players.base import seat_view

    _, deals = load(args.x, args.deals)
    results: dict[str, list[float]] = defaultdict(list)
    higher: Counter[str] = Counter()
    for r in deals:
        base = r.records[0]
        if base.deal_kind() != "allpass":
            continue
        for s in range(3):
            game = r.records[1 + s]
            i = first_difference(game, base)
            if i is None or i >= min(len(game.moves), len(base.moves)) or game.moves[i].phase != "play":
                continue
            view = seat_view(base.state(upto=i), game.moves[i].seat, sees_all=True)
            deal = base.deal
            assert deal is not None and deal.talon is not None and view.to_play is not None
            lead = view.rules.raspasy_talon == "sets_suit"
            turn = (view.turn[0], next(c for c in deal.talon if c != view.turn[0])) if lead else None
            pos = Position(deal, strain=ALLPASS, seat=view.to_play, talon_mode="lead" if lead else "ignore",
                           turn=turn, played=view.played)
            values = pos.card_values()
            a, b = game.moves[i].decision, base.moves[i].decision
            kind = "equal" if values[a] == values[b] else ("A better" if values[a] < values[b] else "A worse")
            results[kind].append(float(game.balances()[s] - base.balances()[s]))
            higher[kind] += a.rank > b.rank       # type: ignore[union-attr]
    for kind, v in sorted(results.items()):
        print(f"  {kind:<9} seats {len(v):4d} (A's card the higher in {higher[kind]}): A's result less B's "
              f"{show(Stat.of(v))}")


def whist_calls(args: argparse.Namespace) -> None:
    """The seats whose A game first differs from the ``B B B`` game in a whist call: A's call and
    B's, by the contract's level, with the seat's result difference."""
    _, deals = load(args.x, args.deals)
    results: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for r in deals:
        base = r.records[0]
        for s in range(3):
            game = r.records[1 + s]
            i = first_difference(game, base)
            if i is None or i >= min(len(game.moves), len(base.moves)) or game.moves[i].phase != "whisting":
                continue
            contract = base.state().contract
            level = str(contract.level) if contract is not None and contract.level else str(contract)
            key = (level, str(game.moves[i].decision), str(base.moves[i].decision))
            results[key].append(float(game.balances()[s] - base.balances()[s]))
    for (level, a, b), v in sorted(results.items(), key=lambda kv: -len(kv[1])):
        print(f"  level {level}: A {a:<6} B {b:<6} seats {len(v):4d}  A's result less B's {show(Stat.of(v))}")


# -- calibration -------------------------------------------------------------------------------
def heuristic_games(paths: Sequence[str]) -> Iterator[GameRecord]:
    """Each game whose three seats are the heuristic player, once per deal and match seed."""
    seen = set()
    for path in paths:
        tags, deals = load(path)
        for r in deals:
            for lineup, game in zip(LINEUPS, r.records):
                who = {"A": tags["a"], "B": tags["b"]}
                if all(who[c] == "heuristic" for c in lineup) and str(game.deal) not in seen:
                    seen.add(str(game.deal))
                    yield game


def calls_of(game: GameRecord) -> tuple[list[str], str | None, list[str] | None]:
    d = game.to_dict(["0", "1", "2"])
    contract = d.get("contract") if not d.get("conceded") else None
    return d["calls"], contract, d.get("whist")


def kind_label(text: str) -> str:
    """A condition's statement without its seat and numbers: what kind of call it is about."""
    words = text.split(": ")[0].split()
    return " ".join(words[2:3]) if words[2] != "passed" else "passed"


def features(hand: Hand) -> tuple[float, ...]:
    longest = max(len(hand.suit_ranks(s)) for s in range(4))
    honours = sum(hand.suit_ranks(s).count("A") + hand.suit_ranks(s).count("K") for s in range(4))
    return float(best_estimate(hand)), float(longest), float(honours), float(sure_tricks(hand))


FEATURES = ("best estimate", "longest suit", "aces+kings", "sure top tricks")


def calibration(args: argparse.Namespace) -> None:
    games = list(heuristic_games(args.records))
    print(f"calibration: {len(games)} deals bid by three heuristic players")
    kinds = Counter(g.deal_kind() for g in games)
    print(f"  kinds: {dict(kinds)}")
    for tol in (0.0, 1.0, 2.0):
        met: dict[str, list[int]] = defaultdict(list)
        whole = []
        for g in games:
            calls, contract, whist = calls_of(g)
            conds = auction_conditions(calls, rules=g.rules, contract=contract, whist=whist, tolerance=tol)
            ok = [bool(c(g.deal.hands[c.seat])) for c in conds]
            for c, v in zip(conds, ok):
                met[f"{kind_label(c.text)} ({c.kind})"].append(v)
            whole.append(all(ok))
        print(f"  tolerance {tol:g}: the real hands meet the model's statements")
        for k, v in sorted(met.items()):
            print(f"    {k:<26} {sum(v):5d} of {len(v):5d} = {sum(v) / len(v):.3f}")
        print(f"    every statement of the deal  {sum(whole):5d} of {len(whole):5d} = "
              f"{sum(whole) / len(whole):.3f}")
    # the declarer's hand: real against the model's draws from the first defender's seat
    real: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    drawn: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    free: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    failed = Counter()
    for i, g in enumerate(games):
        calls, contract, whist = calls_of(g)
        if contract is None or g.deal_kind() != "game":
            continue
        state = g.state()
        declarer = state.declarer
        assert declarer is not None
        level = contract[0] if contract[0].isdigit() else "?"
        group = f"level {level}"
        view = (declarer + 1) % 3
        conds = auction_conditions(calls, rules=g.rules, contract=contract, whist=None, exclude=[view])
        try:
            layouts = sample_deals(g.deal.hands[view], view,
                                   sampling=Sampling(samples=args.views, seed=args.seed + i, conditions=conds))
        except PrefsolveError:
            failed[group] += 1
            continue
        real[group].append(features(g.deal.hands[declarer]))
        drawn[group] += [features(x.hands[declarer]) for x in layouts]
        free[group] += [features(x.hands[declarer]) for x in sample_deals(
            g.deal.hands[view], view, sampling=Sampling(samples=args.views, seed=args.seed + i))]
        real["in strain"].append((float(estimate(g.deal.hands[declarer], contract[1:])),))
        drawn["in strain"] += [(float(estimate(x.hands[declarer], contract[1:])),) for x in layouts]
        free["in strain"] += [(float(estimate(x.hands[declarer], contract[1:])),) for x in sample_deals(
            g.deal.hands[view], view, sampling=Sampling(samples=args.views, seed=args.seed + i))]
    print(f"  the declarer's hand (games played; {args.views} draws a deal from the first defender's seat, "
          f"conditioned on the calls and the declaration at tolerance 1; 'free': not conditioned); "
          f"draws that failed: {dict(failed)}")
    for group in sorted(real):
        names = FEATURES if group != "in strain" else ("estimate in the declared strain",)
        print(f"    {group}: {len(real[group])} declarers")
        for k, name in enumerate(names):
            r = [f[k] for f in real[group]]
            d = [f[k] for f in drawn[group]]
            u = [f[k] for f in free[group]]
            gap = _se2(r, d)
            print(f"      {name:<32} real {statistics.fmean(r):5.2f}  model {statistics.fmean(d):5.2f}  "
                  f"free {statistics.fmean(u):5.2f}  real − model {statistics.fmean(r) - statistics.fmean(d):+.2f}"
                  f" ± {gap:.2f}")
    # misère bidders
    mis = [(g, calls_of(g)) for g in games if g.deal_kind() == "misere"]
    if mis:
        unsafe = [misere_unsafe(g.deal.hands[g.state().declarer]) for g, _ in mis]
        counts = dict(sorted(Counter(unsafe).items()))
        print(f"  misère declarers: {len(mis)}; unsafe cards of the dealt hand: {counts}")


def _se2(a: list[float], b: list[float]) -> float:
    """The standard error of the difference of two means (independent samples)."""
    if len(a) < 2 or len(b) < 2:
        return math.nan
    return math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))


def row(args: argparse.Namespace) -> None:
    """A row of docs/STRENGTH.md's table from a match's ``--json`` output."""
    with open(args.json, encoding="utf-8") as f:
        d = json.load(f)
    lo, hi = d["gain_interval"]
    phases = ", ".join(f"{p} {v['gain']:+.2f} ± {v['gain_se']:.2f} ({v['games']})"
                       for p, v in d["phases"].items() if p != SAME and v["games"])
    kinds = ", ".join(f"{v['deals']} {k} {v['gain']:+.2f} ± {v['gain_se']:.2f}"
                      for k, v in d["deal_kinds"].items() if v["deals"])
    print(f"| {d['a']} | {d['b']} | {d['counted']} | {d['gain']:+.2f} ± {d['gain_se']:.2f} | {lo:+.2f} to {hi:+.2f} "
          f"| {phases}; same as B: {d['phases'][SAME]['games']} | {kinds} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("pair")
    p.add_argument("x")
    p.add_argument("y")
    p.add_argument("--deals", type=int, default=None, help="only the first N deals of each")
    p.set_defaults(run=pair)
    q = sub.add_parser("pair-row")
    q.add_argument("x")
    q.add_argument("y")
    q.add_argument("json", help="X's match's --json output")
    q.add_argument("--deals", type=int, default=None)
    q.set_defaults(run=pair_row)
    e = sub.add_parser("examples")
    e.add_argument("x")
    e.add_argument("y", nargs="?", help="without it: X's games against the B B B game of its own match")
    e.add_argument("--deals", type=int, default=None)
    e.add_argument("--phase", default="bidding", choices=(*PHASES, SAME))
    e.add_argument("--count", type=int, default=5)
    e.set_defaults(run=examples)
    r = sub.add_parser("row")
    r.add_argument("json")
    r.set_defaults(run=row)
    for name, run in (("allpass-play", allpass_play), ("whist-calls", whist_calls)):
        w = sub.add_parser(name)
        w.add_argument("x")
        w.add_argument("--deals", type=int, default=None)
        w.set_defaults(run=run)
    c = sub.add_parser("calibration")
    c.add_argument("records", nargs="+")
    c.add_argument("--views", type=int, default=3, help="hands drawn for the declarer per deal")
    c.add_argument("--seed", type=int, default=1)
    c.set_defaults(run=calibration)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
