"""How well the inference from the cards played places the unseen cards, with standard errors.

    PYTHONPATH=src python bench/inference_calibration.py --deals 400 --seed 11 --rows r.jsonl
    PYTHONPATH=src python bench/inference_calibration.py --deals 150 --seed 13 --players advisor --rows a.jsonl
    PYTHONPATH=src python bench/inference_calibration.py --summarize r.jsonl
    PYTHONPATH=src python bench/inference_calibration.py --calibration --deals 60 --seed 2 --epsilon 0.05,0.2,0.5

Deals are played by three players that are not the model (``--players heuristic``, the default:
prefsolve.players.heuristic; ``advisor``: the sampling advisor, its endings' layouts weighed
alike). At every card decision with a choice from the trick at whose start each hand holds
``--cards`` cards or fewer (default 4), the layouts the exact ending search of the seat to play
weighs (``advise(..., endings=4, inference=0)``, the advisor's view: auction model, open hands)
are weighed again, each by the probability of the cards
the hidden hands played in it from six cards a hand on, if each of them plays one of his
double-dummy best cards at random but for a chance ε of any legal card (the model of
``advise(..., inference=ε)``, docs/ADVICE.md). The double-dummy best cards of a layout do not
depend on ε, so they are found once and every ε is a product of the same factors. ``--epsilon``
takes ``1.0`` (every card played at random: only the number of legal cards counts) and ``mix``
too: each hidden player's ε unknown, every one of :data:`MIX` alike likely, so his cards' chance
is the mean of their chances under each (a Bayesian average, player by player).

Per decision and weighting (uniform, and each ε of ``--epsilon``), three figures, each a proper
score (higher is better, but for the Brier score):

* ``log2_p_real``: log₂ of the share of the weight on the real layout;
* ``log2_place``: the mean, over the cards whose place (seat 0, 1, 2, or out of play: the
  talon or discard) the layouts do not agree on, of log₂ of the weight on the card's real place;
* ``brier_place``: the mean over those cards of the Brier score of the predicted place
  (the sum over the places of (p - 1 if real else p)²; lower is better).

The summary gives each weighting's means and, for each ε, the paired differences ε minus uniform:
mean, standard error and 95% interval; the standard error is that of decisions clustered by deal
(the decisions of one ending are not independent), the plain one given besides. Decisions with a
single layout, past the search's cap, or whose real layout the search does not hold (the auction
model's conditions exclude it) are left out and counted.

``--calibration`` runs instead the earlier measure (one advice per ε, at exactly ``--cards`` cards a
hand, means without errors) that the first calibration table of docs/STRENGTH.md came from.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Iterable, Sequence

from prefsolve.analysis.advice import _chance, _played_factors
from prefsolve.cards import Card, Cards, Hand
from prefsolve.deal import Deal
from prefsolve.game import CARD, DealState, GameRecord
from prefsolve.players.advisor import Advisor
from prefsolve.players.base import seat_view
from prefsolve.players.heuristic import HeuristicPlayer
from prefsolve.players.runner import decision_seed, derive_seed, play_deal
from prefsolve.strains import ALLPASS, IGNORE, LEAD, TAKE

ALL = (1 << 32) - 1
#: The chances ``mix`` averages over, alike likely a priori for each player.
MIX = (0.05, 0.2, 0.5, 1.0)
OUT = 3     # the place of a card out of play: the talon, or the declarer's discard


def phase(state: DealState) -> str:
    """The kind of decision: game declarer or defence, misère declarer or catcher, all-pass."""
    if state.all_pass or state.contract is None:
        return "allpass"
    role = "declarer" if state.to_move == state.declarer else "defence"
    return ("misere_" if state.contract.is_misere else "game_") + role


def plays(state: DealState) -> list[tuple[Card, int]]:
    """Each card played so far (the talon cards turned in all-pass not included) and its player."""
    assert state.position is not None
    out = []
    for trick in (*state.position.played_tricks, state.position.current_trick):
        out.extend(zip(trick.cards, trick.seats))
    return out


def hidden_seats(state: DealState) -> list[int]:
    """The seats whose cards the seat to play does not see: neither its own, nor the decider's
    (the lone whister playing his partner's cards), nor a hand lying face up."""
    seen = {state.to_move, state.decider, *state.shown_hands()}
    return [s for s in range(3) if s not in seen]


def layout_deal(state: DealState, layout: Sequence[int]) -> tuple[Deal, Cards | None]:
    """The whole deal of a layout (the masks of the cards seats 0, 1, 2 still hold) with the
    cards played as played, and the declarer's discard in it (None when no talon was taken).
    The cards neither held nor played are out of play: the declarer's discard, or the talon
    where it was not taken."""
    assert state.deal.talon is not None
    by = [0, 0, 0]
    played = 0
    for card, s in plays(state):
        by[s] |= 1 << card.index
        played |= 1 << card.index
    held = layout[0] | layout[1] | layout[2]
    out = ALL & ~held & ~played
    hands = [layout[s] | by[s] for s in range(3)]
    if not state.all_pass and state.talon_taken:
        talon = state.deal.talon.mask
        d = state.declarer
        assert d is not None
        hands[d] = (hands[d] | out) & ~talon
        return Deal([Hand(m) for m in hands], state.deal.talon), Cards(iter(Hand(out)))
    return Deal([Hand(m) for m in hands], Hand(out)), None


def factors(state: DealState, layout: Sequence[int], hidden: Iterable[int]) -> list[tuple[int, bool, int, int]]:
    """The advice's factors of the cards played in the layout (``advise``'s own
    ``_played_factors``, with the play of ``state``): for each card a hidden seat played from
    ``INFERENCE_FROM`` cards a hand on, who played it, whether it was one of his double-dummy
    best cards, how many best cards he had, how many legal ones."""
    deal, discard = layout_deal(state, layout)
    moves = plays(state)
    lead = state.all_pass and state.rules.raspasy_talon == "sets_suit"
    if state.all_pass:
        declarer, strain, mode = None, ALLPASS, LEAD if lead else IGNORE
    else:
        assert state.contract is not None
        declarer, strain, mode = state.declarer, state.contract.strain, TAKE if state.talon_taken else IGNORE
    return _played_factors(deal, None if discard is None else discard.mask, declarer=declarer, strain=strain,
                           leader=state.leader, played=[c for c, _ in moves], who=[s for _, s in moves],
                           hidden=list(hidden), turn=state.turn if lead else None, talon_mode=mode, solver=None)


def weight(terms: Sequence[tuple[int, bool, int, int]], epsilon: float | str) -> float:
    """The probability of the cards played (their :func:`factors`) if each is a best card at random
    but for a chance ``epsilon`` of any legal card (``advise``'s ``_chance``); 1 for ``epsilon`` 0
    (the layouts alike); for ``"mix"``, each player's own epsilon unknown, every one of MIX alike
    likely."""
    if epsilon == "mix":
        by: dict[int, list] = {}
        for t in terms:
            by.setdefault(t[0], []).append(t)
        p = 1.0
        for own in by.values():
            p *= sum(_chance(own, e) for e in MIX) / len(MIX)
        return p
    assert isinstance(epsilon, float | int)
    return _chance(terms, epsilon) if epsilon else 1.0


def place_of(layout: Sequence[int], card: int) -> int:
    """The seat that holds ``card`` in ``layout``, or :data:`OUT`."""
    return next((s for s in range(3) if layout[s] >> card & 1), OUT)


def scores(layouts: Sequence[Sequence[int]], weights: Sequence[float], real: Sequence[int]) -> dict[str, float | None]:
    """The proper scores of one weighting of ``layouts`` for the ``real`` layout (module text);
    the card-place scores are None when every layout puts every card in the same place."""
    total = sum(weights)
    i = [tuple(x) for x in layouts].index(tuple(real))
    out: dict[str, float | None] = {"log2_p_real": math.log2(weights[i] / total)}
    moving = [c for c in range(32) if len({place_of(lay, c) for lay in layouts}) > 1]
    if not moving:
        out["log2_place"] = out["brier_place"] = None
        return out
    log_sum = brier_sum = 0.0
    for c in moving:
        p = [0.0] * 4
        for lay, w in zip(layouts, weights):
            p[place_of(lay, c)] += w / total
        where = place_of(real, c)
        log_sum += math.log2(p[where]) if p[where] > 0 else -math.inf
        brier_sum += sum((q - (k == where)) ** 2 for k, q in enumerate(p))
    out["log2_place"] = log_sum / len(moving)
    out["brier_place"] = brier_sum / len(moving)
    return out


def paired(rows: list[dict], key: str, a: str, b: str) -> dict[str, float | int] | None:
    """The paired difference ``b`` minus ``a`` of figure ``key`` over ``rows``: mean, plain
    standard error, standard error clustered by deal, 95% interval (clustered)."""
    pairs = [(r["deal"], r[b][key] - r[a][key]) for r in rows if r[a][key] is not None and r[b][key] is not None]
    return mean_ci(pairs)


def mean_ci(pairs: list[tuple[object, float]]) -> dict[str, float | int] | None:
    """Mean, plain and clustered (by the first of each pair) standard errors, 95% interval."""
    n = len(pairs)
    if n < 2:
        return None
    xs = [x for _, x in pairs]
    mean = sum(xs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)
    groups: dict[object, list[float]] = {}
    for g, x in pairs:
        groups.setdefault(g, []).append(x)
    g_n = len(groups)
    resid = sum((sum(v) - len(v) * mean) ** 2 for v in groups.values())
    se_c = math.sqrt(resid * g_n / max(g_n - 1, 1)) / n
    return {"n": n, "clusters": g_n, "mean": round(mean, 4), "se": round(se, 4), "se_clustered": round(se_c, 4),
            "low": round(mean - 1.96 * se_c, 4), "high": round(mean + 1.96 * se_c, 4)}


def decision_row(state: DealState, advice_layouts: Sequence[Sequence[int]], epsilons: Sequence[float]) -> dict:
    """The scores of every weighting at one decision (``advice_layouts``: the layouts searched)."""
    assert state.position is not None
    real = tuple(h.mask for h in state.position.hands)
    hidden = hidden_seats(state)
    terms = [factors(state, lay, hidden) for lay in advice_layouts]
    row: dict = {"phase": phase(state), "cards": 10 - len(state.position.played_tricks),
                 "layouts": len(advice_layouts)}
    for e in [0.0, *epsilons]:
        ws = [weight(t, e) for t in terms]
        if not sum(ws):
            ws = [1.0] * len(ws)
        row[str(e)] = scores(advice_layouts, ws, real)
    return row


def play(a: argparse.Namespace, k: int) -> GameRecord | None:
    """Deal ``k`` played by the population's players; its record's final state holds its moves."""
    deal = Deal.random(derive_seed(a.seed, "deal", k))
    if a.players == "advisor":
        players = [Advisor(samples=a.samples, inference=0) for _ in range(3)]
    else:
        h = HeuristicPlayer()
        players = [h, h, h]
    played = play_deal(deal, players, seed=derive_seed(a.seed, "play", k))
    if played.record.forfeit is not None:
        return None
    return played.record


def run(a: argparse.Namespace) -> tuple[list[dict], dict[str, int]]:
    epsilons = [x if x == "mix" else float(x) for x in a.epsilon.split(",")]
    out = open(a.rows, "a") if a.rows else None
    rows: list[dict] = []
    skipped = {"fallback": 0, "one_layout": 0, "real_not_searched": 0}
    t0 = time.perf_counter()
    advisor = Advisor(samples=a.samples, endings=a.cards, inference=0)     # its layouts, weighed here
    for k in range(a.first, a.deals):
        record = play(a, k)
        if record is None:
            continue
        advisor.start(0, record.rules)
        for state, _move in record.replay():
            if state.kind != CARD or state.position is None or 10 - len(state.position.played_tricks) > a.cards:
                continue
            if len(state.options()) < 2:
                continue
            view = seat_view(state, state.decider, seed=decision_seed(derive_seed(a.seed, "play", k), state.decider,
                                                                      len(state.moves) + 1))
            adv = advisor.analysis(view)
            if adv.method != "exact":
                skipped["fallback"] += 1
                continue
            lays = [w for w, _ in adv.weighted]
            if len(lays) < 2:
                skipped["one_layout"] += 1
                continue
            if tuple(h.mask for h in state.position.hands) not in lays:
                skipped["real_not_searched"] += 1
                continue
            row = decision_row(state, lays, epsilons)
            row["deal"] = k
            rows.append(row)
            if out is not None:
                print(json.dumps(row), file=out, flush=True)
        if a.progress:
            print(k, len(rows), skipped, round(time.perf_counter() - t0), flush=True)
    return rows, skipped


def summary(rows: list[dict], epsilons: Sequence[str]) -> dict:
    """Each weighting's mean figures, and each ε's paired differences against uniform."""
    keys = ("log2_p_real", "log2_place", "brier_place")
    weights = ["0.0", *epsilons]

    def means(sub: list[dict]) -> dict:
        out = {}
        for w in weights:
            out[w] = {}
            for key in keys:
                xs = [r[w][key] for r in sub if r[w][key] is not None]
                out[w][key] = round(sum(xs) / len(xs), 4) if xs else None
        return out

    def diffs(sub: list[dict]) -> dict:
        return {e: {key: paired(sub, key, "0.0", e) for key in keys} for e in epsilons}

    by_phase = {}
    for ph in sorted({r["phase"] for r in rows}):
        sub = [r for r in rows if r["phase"] == ph]
        by_phase[ph] = {"decisions": len(sub), "log2_p_real_minus_uniform": {
            e: paired(sub, "log2_p_real", "0.0", e) for e in epsilons}}
    by_cards = {}
    for n in sorted({r["cards"] for r in rows}, reverse=True):
        sub = [r for r in rows if r["cards"] == n]
        by_cards[str(n)] = {"decisions": len(sub), "means": means(sub), "epsilon_minus_uniform": diffs(sub)}
    return {"decisions": len(rows), "deals": len({r["deal"] for r in rows}),
            "decisions_4_cards": sum(r["cards"] == 4 for r in rows),
            "mean_layouts": round(sum(r["layouts"] for r in rows) / max(len(rows), 1), 1),
            "means": means(rows), "epsilon_minus_uniform": diffs(rows), "by_phase": by_phase,
            "by_cards": by_cards}


def calibration(a: argparse.Namespace) -> None:
    """The earlier measure (``--calibration``): the weight the searched layouts give the real one,
    uniform against inference, on endings of games the heuristic players played (the model takes
    players to play double-dummy: the heuristic does not), with the weights of one advice per ε,
    at exactly ``--cards`` cards a hand; means only, without errors."""
    import math

    eps = [float(x) for x in a.epsilon.split(",")]
    sums = {e: {"log2_p_real": 0.0, "p_real_card_place": 0.0} for e in [0.0, *eps]}
    n = missing = 0
    for k in range(a.deals):
        deal = Deal.random(derive_seed(a.seed, "deal", k))
        heur = HeuristicPlayer()
        played = play_deal(deal, [heur, heur, heur], seed=derive_seed(a.seed, "play", k))
        for state, _move in played.record.replay():
            if state.kind != CARD or state.position is None or 10 - len(state.position.played_tricks) != a.cards:
                continue
            if len(state.options()) < 2:
                continue
            seat = state.decider
            view = seat_view(state, seat, seed=1)
            real = tuple(h.mask for h in state.position.hands)
            got = {}
            for e in [0.0, *eps]:
                adv = Advisor(samples=a.samples, endings=a.cards, inference=e).analysis(view)
                if adv.method != "exact":
                    break
                got[e] = adv.weighted
            if len(got) != len(eps) + 1:
                continue
            layouts_ = [w for w, _ in got[0.0]]
            if real not in layouts_:
                missing += 1
                continue
            n += 1
            # The cards whose place differs between the layouts, and that a seat really holds.
            unseen = [c for c in range(32) if any((w[s] ^ real[s]) >> c & 1 for w in layouts_ for s in range(3))
                      and any(real[s] >> c & 1 for s in range(3))]
            for e, weighted in got.items():
                total = sum(w for _, w in weighted)
                p_real = next(w for lay, w in weighted if lay == real) / total
                sums[e]["log2_p_real"] += math.log2(p_real)
                if unseen:
                    place = 0.0
                    for c in unseen:
                        holder = next(s for s in range(3) if real[s] >> c & 1)
                        place += sum(w for lay, w in weighted if lay[holder] >> c & 1) / total
                    sums[e]["p_real_card_place"] += place / len(unseen)
        if a.progress:
            print(k, n, missing, flush=True)
    out = {str(e): {key: round(v / max(n, 1), 4) for key, v in d.items()} for e, d in sums.items()}
    print(json.dumps({"deals": a.deals, "seed": a.seed, "cards": a.cards, "decisions": n,
                      "real_layout_not_searched": missing, "by_epsilon": out}, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="play deals first..deals-1")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--cards", type=int, default=4)
    ap.add_argument("--players", choices=("heuristic", "advisor"), default="heuristic")
    ap.add_argument("--epsilon", default="0.05,0.2,0.5")
    ap.add_argument("--rows", default=None, help="append each decision's row to this file (JSON lines)")
    ap.add_argument("--summarize", default=None, help="only print the summary of a --rows file")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--calibration", action="store_true", help="the earlier measure, without errors, instead")
    a = ap.parse_args()
    if a.calibration:
        calibration(a)
        return
    skipped = None
    if a.summarize:
        with open(a.summarize) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    else:
        rows, skipped = run(a)
    eps = [x if x == "mix" else str(float(x)) for x in a.epsilon.split(",")]
    print(json.dumps({"seed": a.seed, "players": a.players, "cards": a.cards, "skipped": skipped,
                      **summary(rows, eps)}, indent=1))


if __name__ == "__main__":
    main()
