"""Hand analysis by sampling: what to bid, what to discard and declare, whether to whist.

A player knows his own cards; the unseen ones are dealt at random, many
times, into the two other hands and the talon (a :class:`Sampler` with a
seeded :class:`random.Random`). Every sampled layout is solved exactly, and
every candidate action (each contract of the ladder, each discard, whist or
pass) is scored on **the same** sample set — the common-random-numbers
design of redeal — so differences between candidates are sharp. Results are
immutable and report mean ± standard error.

Scores are one deal's net whists for the player under a rules profile
(:func:`prefsolve.scoring.contract_balance`: pool and mountain converted at
the profile's settlement values), with a stated defence model.

>>> a = analyze("AKQJ987.A.A.A", seat=0, samples=4, seed=1, jobs=1)
>>> a["8S"].p_make, a["8S"].tricks[10] + a["8S"].tricks[9] + a["8S"].tricks[8] == 4
(1.0, True)
"""

from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, Sequence, cast

from .auction import HALF, PASS, TRADING_MISERE_CAP, WHIST, check_whist_calls, seniority
from .batch import map_deals, resolve_jobs, solve_many, table_many
from .cards import ALL_CARDS, SUIT_SYMBOLS, SUITS, Card, Hand, cards_of_mask, in_hand_order
from .contract import LADDER, Contract
from .checks import check_seat, check_seed, whole as _whole
from .deal import Deal
from .errors import ContractError, DealError, HandError, PrefsolveError
from .rules import Rules
from .scoring import contract_balance
from .solver import STRAINS, DiscardHints, solve

# numpy is imported where it is used, not here: `import prefsolve` (and so every
# command line run, even one that never samples) would otherwise pay its import,
# about half of the CLI's start-up (batch.py does the same).
if TYPE_CHECKING:
    import numpy as np

Progress = Callable[[int], None]

#: Defence models of the bid evaluation: who whists against the declarer.
#: ``best`` (the default) lets the defence call, in each layout, what is best
#: for it as a side; the fixed models whist or pass whatever the cards, so
#: they make a sure 10 look worse than a 9 that a lone whister cannot defeat.
DEFENCES = ("best", "pass", "one", "both")
# What the rules impose stays imposed under every model (defence_calls): a misère
# and a 10 under ten_whist="checked" are always played, both defenders whist
# against 6♠ under Stalingrad; two whisters split the defence's tricks evenly.
_IMPOSED = ("; misère, a 10 the rules never let pass (ten_whist='checked') and 6♠ under Stalingrad "
            "are played as the rules require")
DEFENCE_TEXT = {
    "best": ("the defenders call what is best for them as a side in each layout (pass, whist, "
             "half-whist where the rules allow it; open or closed), seeing the cards as "
             "double-dummy play does; two whisters split the defence's tricks evenly (the odd "
             "one to the first defender)"),
    "pass": "both defenders pass where the rules allow it (no play: the contract counts as made)" + _IMPOSED,
    "one": "one defender whists and plays open, the other passes" + _IMPOSED,
    "both": "both defenders whist and play closed (the odd defence trick to the first defender)" + _IMPOSED,
}
#: Whist advisor: the other defender's call.
PARTNER_CALLS = (PASS, WHIST)
#: Adaptive sampling adds samples in batches of this size.
BATCH = 100
# Voids are first honoured by rejection (cheap while most layouts pass); after
# this many rejected draws for one layout the exact construction takes over, for
# that layout and every later one of the sampler. Either way a layout is uniform
# among the allowed ones, whatever the earlier draws were, so the stream is too.
REJECTION_TRIES = 200


class ConstraintError(DealError):
    """Known cards or voids that contradict the hand or each other, or leave no layout."""


# -- input helpers -------------------------------------------------------------------
def as_hand(hand: Hand | str, size: int = 10, what: str = "hand") -> Hand:
    """A :class:`Hand` of exactly ``size`` cards from a Hand or text.

    >>> str(as_hand("A.KT9.KT97.K7"))
    'A.KT9.KT97.K7'
    >>> as_hand("A.K.-.-")
    Traceback (most recent call last):
    ...
    prefsolve.errors.HandError: hand 'A.K.-.-' has 2 cards, expected 10
    """
    if isinstance(hand, str):
        text = hand
        hand = Hand.parse(hand)
    elif isinstance(hand, Hand):
        text = str(hand)
    else:
        raise HandError(f"expected a {what} as text or Hand, got {hand!r}")
    if len(hand) != size:
        raise HandError(f"{what} {text!r} has {len(hand)} cards, expected {size}")
    return hand


def as_rules(rules: Rules | str | None) -> Rules:
    """A rules profile by name, or the given :class:`Rules` (3 players)."""
    return Rules.of(rules).replace(players=3)


def as_contract(contract: Contract | str) -> Contract:
    c = contract if isinstance(contract, Contract) else Contract.parse(contract)
    if c.without_talon:
        raise ContractError(f"contract {str(c)!r}: games without talon are not analysed")
    return c


def leader_for(rules: Rules | str, declarer: int) -> int:
    """Seat leading trick 1: first hand, or the declarer's left (profile switch ``first_lead``)."""
    return 0 if Rules.of(rules).first_lead == "first_hand" else (check_seat(declarer, "declarer") + 1) % 3


def contract_key(contract: Contract) -> str:
    """Canonical key of a contract in results: ``6S`` … ``10NT``, ``misere``."""
    return str(contract)


def _check_defence(defence: str) -> str:
    if defence not in DEFENCES:
        raise PrefsolveError(f"unknown defence model {defence!r} (expected one of: {', '.join(DEFENCES)})")
    return defence


def _check_samples(samples: object) -> int:
    value = _whole(samples)     # numpy integers too, as for seats and seeds
    if value is None or value < 1:
        raise PrefsolveError(f"samples must be a positive whole number, got {samples!r}")
    return value


def _suits(value: object, seat: object) -> int:
    """A suit mask (bit per suit) from ``"SH"``, ``"♠♥"``, ``[0, 3]`` ..."""
    symbols = {"S": 0, "C": 1, "D": 2, "H": 3, "♠": 0, "♣": 1, "♦": 2, "♥": 3}
    items: list[object]
    if isinstance(value, str):
        items = list(value.replace(",", "").replace(" ", "").upper())
    elif isinstance(value, int):
        items = [value]
    else:
        try:
            items = list(value)    # type: ignore[call-overload]
        except TypeError:
            raise ConstraintError(f"voids of seat {seat!r} must be suits such as 'SH' or [0, 3], "
                                  f"got {value!r}") from None
    mask = 0
    for item in items:
        suit = symbols.get(item) if isinstance(item, str) else item
        if isinstance(suit, bool) or suit not in (0, 1, 2, 3):
            raise ConstraintError(f"unknown suit {item!r} in voids of seat {seat!r}: expected the "
                                  f"letters S C D H (or ♠ ♣ ♦ ♥, or 0..3), e.g. 'SH'")
        mask |= 1 << suit
    return mask


# -- sampling ------------------------------------------------------------------------
def _splits(n: int, allowed: tuple[int, ...], caps: tuple[int, ...]) -> Iterator[dict[int, int]]:
    """Every way to split n cards among the ``allowed`` places within their
    ``caps``, as {place: count} in the order of ``allowed``."""
    if not allowed:
        if n == 0:
            yield {}
        return
    first, rest = allowed[0], allowed[1:]
    room = sum(caps[k] for k in rest)
    for x in range(max(0, n - room), min(n, caps[first]) + 1):
        for tail in _splits(n - x, rest, caps):
            yield {first: x, **tail}


def _multinomial(n: int, counts: Iterable[int]) -> int:
    out = math.factorial(n)
    for x in counts:
        out //= math.factorial(x)
    return out


@dataclass(frozen=True)
class Given:
    """What the sampled layouts were conditioned on besides the player's own
    hand: cards known to be in a place, and seats known to be void. Results
    carry it, so that a saved result says what it assumed."""

    known: tuple[tuple[str, tuple[Card, ...]], ...] = ()    # (place, cards): "1", "2", "talon"
    voids: tuple[tuple[int, str], ...] = ()                 # (seat, suit letters)

    def to_dict(self) -> dict:
        return {"known": {place: " ".join(map(str, cards)) for place, cards in self.known},
                "voids": {str(seat): suits for seat, suits in self.voids}}

    def text(self) -> str:
        """One line for the text output ("" when nothing was given)."""
        parts = [f"{'the talon' if place == 'talon' else 'seat ' + place} holds "
                 + " ".join(c.symbol for c in cards) for place, cards in self.known]
        parts += [f"seat {seat} void in " + " ".join(SUIT_SYMBOLS["SCDH".index(x)] for x in suits)
                  for seat, suits in self.voids]
        return f"(given: {'; '.join(parts)})" if parts else ""


class Sampler:
    """Random layouts of the unseen cards consistent with what one player knows.

    ``fixed`` maps a place (seat 0..2 or ``"talon"``) to cards it surely
    holds: the player's own hand, cards known to be elsewhere (``known``).
    The rest of the 32 cards is dealt uniformly at random to fill every seat
    to 10 cards and the talon to 2 (``talon=False``: no talon place; then
    ``sizes`` must make the places hold every unseen card, e.g. ``{seat: 12}``
    for a declarer who took the talon). ``voids`` maps
    a seat to suits it cannot hold; they are honoured by rejection while it
    succeeds quickly, else by an exact construction (``_constructed``),
    each of which keeps the layouts exactly uniform among those allowed.

    The same seed gives the same stream of layouts, in batches of any size.

    >>> s = Sampler({0: Hand.parse("A.KT9.KT97.K7")}, seed=3, voids={1: "H"})
    >>> deals = s.draw(5)
    >>> all(str(d.hands[0]) == "A.KT9.KT97.K7" and not d.hands[1].suit_ranks(3) for d in deals)
    True
    """

    def __init__(self, fixed: Mapping[object, Hand], seed: int | None = None,
                 voids: Mapping[int, object] | None = None, talon: bool = True,
                 sizes: Mapping[object, int] | None = None) -> None:
        places: list[object] = [0, 1, 2] + (["talon"] if talon else [])
        size = {0: 10, 1: 10, 2: 10, "talon": 2}
        if sizes:
            size.update(sizes)
        taken = 0
        self._fixed = {p: 0 for p in places}
        for place, hand in fixed.items():
            if place not in places:
                raise ConstraintError(f"unknown place {place!r} for known cards: expected a seat 0, 1, 2"
                                      + (" or 'talon'" if talon else ""))
            dup = taken & hand.mask
            if dup:
                card = ALL_CARDS[(dup & -dup).bit_length() - 1]
                raise ConstraintError(f"card {card} is known to be in two places (again in {place!r})")
            taken |= hand.mask
            self._fixed[place] |= hand.mask
            if len(Hand(self._fixed[place])) > size[place]:
                where = "the talon" if place == "talon" else f"seat {place}"
                raise ConstraintError(f"{where} cannot hold {len(Hand(self._fixed[place]))} known cards "
                                      f"(it has {size[place]})")
        self._voids = {}
        for seat, suits in _mapping(voids, "voids").items():
            check_seat(seat, "a void's seat")
            smask = _suits(suits, seat)
            cmask = 0
            for s in range(4):
                if smask >> s & 1:
                    cmask |= 0xFF << (8 * s)
            if self._fixed[seat] & cmask:
                card = ALL_CARDS[((self._fixed[seat] & cmask) & -(self._fixed[seat] & cmask)).bit_length() - 1]
                raise ConstraintError(f"seat {seat} is void in {suits!r} but holds {card}")
            if cmask:
                self._voids[seat] = cmask
        self._places = places
        self._need = [size[p] - self._fixed[p].bit_count() for p in places]
        self._unseen = [c for c in ALL_CARDS if not taken >> c.index & 1]
        if sum(self._need) != len(self._unseen):
            raise ConstraintError(f"{len(self._unseen)} unseen cards cannot fill the "
                                  f"{sum(self._need)} places left")
        self.seed = seed
        self._rng = random.Random(seed)
        self.drawn = 0
        self._groups: list[tuple[tuple[int, ...], list[int]]] | None = None   # see _constructed
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def given(self, own: object) -> Given:
        """The constraints of this sampler, the hand of place ``own`` left out."""
        known = tuple((str(place), tuple(in_hand_order(cards_of_mask(self._fixed[place]))))
                      for place in self._places if place != own and self._fixed[place])
        voids = tuple((int(seat), "".join("SCDH"[k] for k in range(4) if mask >> (8 * k) & 0xFF))   # type: ignore[call-overload]
                      for seat, mask in sorted(self._voids.items()))
        return Given(known, voids)

    def _one(self) -> list[int]:
        if self._groups is not None:
            # Rejection failed once: the voids are rare, so construct from now on
            # (each layout is uniform whichever method draws it).
            return self._constructed()
        for _ in range(REJECTION_TRIES if self._voids else 1):
            self._rng.shuffle(self._unseen)
            masks, i = [], 0
            for place, need in zip(self._places, self._need):
                m = self._fixed[place]
                for c in self._unseen[i:i + need]:
                    m |= 1 << c.index
                i += need
                masks.append(m)
            if all(not masks[s] & v for s, v in self._voids.items()):
                return masks
        return self._constructed()

    def _constructed(self) -> list[int]:
        """One layout drawn exactly uniformly among those the voids allow, by
        counting: the unseen cards of a suit may go to the same places, so the
        cards fall into at most four groups; how many of a group each place
        gets is drawn with weight (ways to choose those cards) × (ways to
        place the remaining groups), then which cards, uniformly."""
        if self._groups is None:
            groups: dict[tuple[int, ...], list[int]] = {}
            for c in self._unseen:
                allowed = tuple(k for k, place in enumerate(self._places) if self._need[k]
                                and not (self._voids.get(place, 0) >> c.index) & 1)   # type: ignore[call-overload]
                groups.setdefault(allowed, []).append(c.index)
            self._groups = sorted(groups.items())
        if self._ways(0, tuple(self._need)) == 0:     # memoised: every call says so, not just the first
            raise ConstraintError("no layout fits the voids and known cards: the unseen cards "
                                  "cannot fill every place without breaking a void")
        caps = tuple(self._need)
        masks = [self._fixed[place] for place in self._places]
        for g, (allowed, group) in enumerate(self._groups):
            pick = self._rng.randrange(self._ways(g, caps))
            for counts in _splits(len(group), allowed, caps):
                rest = tuple(c - counts.get(k, 0) for k, c in enumerate(caps))
                weight = _multinomial(len(group), counts.values()) * self._ways(g + 1, rest)
                if pick < weight:
                    break
                pick -= weight
            cards = list(group)
            self._rng.shuffle(cards)
            i = 0
            for k, n in counts.items():
                for index in cards[i:i + n]:
                    masks[k] |= 1 << index
                i += n
            caps = rest
        return masks

    def _ways(self, g: int, caps: tuple[int, ...]) -> int:
        """Layouts of groups g, g+1, … into places with ``caps`` free slots."""
        assert self._groups is not None
        if g == len(self._groups):
            return 1 if not any(caps) else 0
        key = (g, caps)
        if key not in self._memo:
            n = len(self._groups[g][1])
            total = 0
            for counts in _splits(n, self._groups[g][0], caps):
                rest = tuple(c - counts.get(k, 0) for k, c in enumerate(caps))
                total += _multinomial(n, counts.values()) * self._ways(g + 1, rest)
            self._memo[key] = total
        return self._memo[key]

    def draw_masks(self, n: int) -> list[list[int]]:
        """The next ``n`` layouts as card masks of seats 0, 1, 2 (and the talon)."""
        out = [self._one() for _ in range(n)]
        self.drawn += n
        return out

    def draw(self, n: int) -> list[Deal]:
        """The next ``n`` layouts of the stream as deals."""
        return [Deal([Hand(m) for m in ms[:3]], Hand(ms[3]) if len(ms) == 4 else None)
                for ms in self.draw_masks(n)]


def _mapping(value: object, what: str) -> Mapping:
    """``known`` and ``voids`` map a place to cards or suits; None is empty."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        example = "a seat (or 'talon') to cards, e.g. {1: 'SA SK'}" if what == "known" else \
            "a seat to suits, e.g. {2: 'H'}"
        raise ConstraintError(f"{what} must map {example}, got {value!r}")
    return value


def _known_hands(known: Mapping[object, object] | None, own_seat: int, own: Hand,
                 places: Sequence[object]) -> dict:
    """Known cards of other places as Hands; a card of the player's own hand is an error."""
    out: dict = {own_seat: own}
    for place, cards in _mapping(known, "known").items():
        if place == own_seat:
            raise ConstraintError(f"known cards for seat {place}: that is the player's own seat")
        if place not in places:
            raise ConstraintError(f"unknown place {place!r} for known cards: expected one of "
                                  f"{', '.join(repr(p) for p in places if p != own_seat)}")
        if isinstance(cards, Hand):
            hand = cards
        elif isinstance(cards, str):
            hand = Hand.parse(cards)
        elif isinstance(cards, (list, tuple, set, frozenset)):
            hand = Hand(cards)      # a collection of cards (Card or text)
        else:   # an integer would be read as a bit mask, None as nothing
            where = "the talon" if place == "talon" else f"seat {place}"
            raise ConstraintError(f"known cards for {where} must be a hand text, a Hand or a list of "
                                  f"cards, got {cards!r}")
        dup = hand.mask & own.mask
        if dup:
            card = ALL_CARDS[(dup & -dup).bit_length() - 1]
            where = "the talon" if place == "talon" else f"seat {place}"
            raise ConstraintError(f"known card {card} for {where} is in the player's own hand {str(own)!r}")
        out[place] = hand
    return out


def _seed(seed: int | None) -> int:
    """The seed to use: a fresh one is drawn (and reported) when none is given."""
    if seed is None:
        return random.SystemRandom().randrange(2**32)
    checked = check_seed(seed)
    assert checked is not None   # check_seed gives None only for None
    return checked


# -- statistics ----------------------------------------------------------------------
def mean_se(values: np.ndarray) -> tuple[float, float]:
    """Mean and its standard error (sample std / √n; 0 for one value).

    >>> import numpy as np
    >>> mean_se(np.array([1.0, 3.0]))
    (2.0, 1.0)
    """
    n = len(values)
    mean = float(values.mean())
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    return mean, se


def binomial_se(p: float, n: int) -> float:
    """Standard error of a proportion: √(p(1−p)/n).

    >>> binomial_se(0.5, 100)
    0.05
    """
    return math.sqrt(p * (1 - p) / n)


@lru_cache(maxsize=4096)
def _balance_row(contract: Contract, calls: tuple[str, ...], rules: Rules, open_play: bool,
                 who: int) -> tuple[float, ...]:
    """Net whists of position ``who`` (0 declarer, 1/2 defenders) for 0..10 declarer tricks."""
    return tuple(float(contract_balance(contract, t, calls, rules, open_play)[who]) for t in range(11))


def defence_calls(contract: Contract, defence: str, rules: Rules | str) -> tuple[tuple[str, ...], bool]:
    """Whist calls (speaking order) and open play of a fixed defence model.

    §3.5 Stalingrad forces both defenders to whist against 6♠. The ``best``
    model has no fixed calls (see :func:`defence_options`).

    >>> defence_calls(Contract.parse("7H"), "one", Rules())
    (('whist', 'pass'), True)
    """
    if _check_defence(defence) == "best":
        raise PrefsolveError("the defence model 'best' has no fixed calls: it chooses among "
                             "defence_options() in each layout")
    rules = Rules.of(rules)
    if contract.is_misere:
        return (), False
    if rules.stalingrad and contract == Contract(6, "S"):
        return (WHIST, WHIST), False
    return {"pass": ((PASS, PASS), False), "one": ((WHIST, PASS), True),
            "both": ((WHIST, WHIST), False)}[defence]


def defence_options(contract: Contract | str,
                    rules: Rules | str | None = None) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """Every complete, legal sequence of whist calls (with open or closed play)
    the defenders may choose against ``contract`` (§3.2-3.5, as
    :func:`prefsolve.auction.check_whist_calls` rules).

    >>> [c for c, o in defence_options("8S", "sochi") if not o]
    [('pass', 'pass'), ('pass', 'whist'), ('whist', 'pass'), ('whist', 'whist')]
    """
    return _defence_options(as_contract(contract), Rules.of(rules))


@lru_cache(maxsize=1024)
def _defence_options(contract: Contract, rules: Rules) -> tuple[tuple[tuple[str, ...], bool], ...]:
    if contract.is_misere:
        return (((), False),)
    words = (PASS, WHIST, HALF)
    seqs = [*itertools.product(words, repeat=2), *itertools.product(words, repeat=3)]
    out = []
    for calls in seqs:
        for open_play in (False, True):
            r = check_whist_calls(contract, calls, rules, open_play)
            if r.legal and r.finished:
                out.append((calls, open_play))
    return tuple(out)


@lru_cache(maxsize=4096)
def _best_defence_row(contract: Contract, rules: Rules) -> tuple[float, ...]:
    """The declarer's net whists for 0..10 tricks when the defence chooses its
    calls to suit it best: the game is zero-sum, so its best is his least."""
    rows = [_balance_row(contract, calls, rules, open_play, 0)
            for calls, open_play in _defence_options(contract, rules)]
    return tuple(min(col) for col in zip(*rows))


def declarer_scores(contract: Contract, tricks: np.ndarray, defence: str, rules: Rules | str) -> np.ndarray:
    """Per-sample net whists of the declarer for his tricks in each sample."""
    import numpy as np  # on use: see the note at the module's imports
    rules = Rules.of(rules)
    if _check_defence(defence) == "best":
        row = np.asarray(_best_defence_row(contract, rules))
    else:
        calls, open_play = defence_calls(contract, defence, rules)
        row = np.asarray(_balance_row(contract, calls, rules, open_play, 0))
    return row[tricks.astype(np.int64)]


def made(contract: Contract, tricks: np.ndarray) -> np.ndarray:
    """Boolean per sample: the contract is made (misère: no trick taken)."""
    return tricks == 0 if contract.is_misere else tricks >= contract.level


def strain_index(contract: Contract) -> int:
    return STRAINS.index(contract.strain)


# -- bid evaluation ------------------------------------------------------------------
@dataclass(frozen=True)
class ContractStats:
    """One candidate on one sample set: P(make) ± se, expected whists ± se, tricks histogram."""

    contract: Contract
    samples: int
    p_make: float
    se: float
    expected: float
    expected_se: float
    tricks: tuple[int, ...]

    @classmethod
    def of(cls, contract: Contract, tricks: np.ndarray, scores: np.ndarray) -> ContractStats:
        import numpy as np  # on use: see the note at the module's imports
        n = len(tricks)
        p = float(made(contract, tricks).mean())
        mean, se = mean_se(scores)
        hist = tuple(int(x) for x in np.bincount(tricks.astype(np.int64), minlength=11)[:11])
        return cls(contract, n, p, binomial_se(p, n), mean, se, hist)

    @property
    def mean_tricks(self) -> float:
        return sum(t * c for t, c in enumerate(self.tricks)) / self.samples

    def to_dict(self) -> dict:
        return {"p_make": round(self.p_make, 4), "se": round(self.se, 4),
                "expected": round(self.expected, 3), "expected_se": round(self.expected_se, 3),
                "tricks": list(self.tricks)}


def _recommend(stats: Sequence[ContractStats], rules: Rules) -> tuple[ContractStats, Contract | None]:
    """The best contract by expected whists and the highest bid still worth reaching.

    Passing is valued at 0 whists. Winning the auction at a game bid X lets
    the declarer name any contract allowed after X (:func:`allowed_contracts`:
    games ≥ X, and misère after a bid up to 8♠ with trading misère), so X is
    worth at least the best E among those (at least: he names it after
    seeing the talon, while each E is for one contract fixed in advance), and
    the limit is the most senior game bid worth ≥ 0. Misère is the bid when
    it is the best choice.
    """
    best = max(stats, key=lambda s: (s.expected, -seniority(s.contract, rules)))
    if best.expected < 0:
        return best, None
    if best.contract.is_misere:
        return best, best.contract
    value = {s.contract: s.expected for s in stats}
    worth = [c for c in value if not c.is_misere
             and max(value[x] for x in allowed_contracts(c, rules) if x in value) >= 0]
    return best, max(worth, key=lambda c: seniority(c, rules))


@dataclass(frozen=True)
class Analysis:
    """The bid evaluation of one hand: every contract of the ladder on one sample set.

    ``tricks`` is the per-sample table (n × 6, strains S C D H NT misère) of
    the player's tricks as declarer with the talon and best discard.
    """

    hand: Hand
    seat: int
    seed: int
    rules: str
    defence: str
    leader: int
    contracts: tuple[ContractStats, ...]
    best: Contract
    max_bid: Contract | None
    tricks: np.ndarray = field(compare=False, repr=False)
    given: Given = Given()

    def __post_init__(self) -> None:
        self.tricks.setflags(write=False)

    @property
    def samples(self) -> int:
        return len(self.tricks)

    @property
    def passes(self) -> bool:
        """True when no contract is expected to beat passing (0 whists)."""
        return self.max_bid is None

    def __getitem__(self, key: str | Contract) -> ContractStats:
        c = as_contract(key)
        for s in self.contracts:
            if s.contract == c:
                return s
        raise ContractError(f"contract {key!r} is not in this analysis")

    @property
    def model(self) -> str:
        return (f"double-dummy play with the talon and the best discard; seat {self.leader} leads; "
                f"defence: {DEFENCE_TEXT[self.defence]}; score: one deal's net whists under the "
                f"{self.rules} rules (pool and mountain settled); passing counts as 0")

    def to_dict(self) -> dict:
        return {
            "samples": self.samples,
            "contracts": {contract_key(s.contract): s.to_dict() for s in self.contracts},
            "recommendation": {
                "contract": contract_key(self.best),
                "max_bid": contract_key(self.max_bid) if self.max_bid else None,
                "pass": self.passes,
            },
            "hand": str(self.hand), "seat": self.seat, "seed": self.seed, "rules": self.rules,
            "defence": self.defence, "model": self.model, **self.given.to_dict(),
        }

    def recommendation(self) -> str:
        """One line: the best contract, the bidding limit, or pass."""
        b = self[self.best]
        # Under "pass" nothing is played: P(make) is what play would have given.
        played = " if played" if self.defence == "pass" else ""
        head = (f"best: {self.best.symbol} (expected {b.expected:+.1f} whists, "
                f"P(make{played}) {b.p_make:.0%})")
        if self.passes:
            return f"pass: no contract is expected to gain; {head}"
        assert self.max_bid is not None   # not self.passes
        return f"bid up to {self.max_bid.symbol}; {head}"

    def format(self) -> str:
        """An aligned table: contract, P(make) ± se, expected whists ± se, mean tricks."""
        rows = [f"Hand {self.hand.symbols()}, seat {self.seat}, {self.samples} samples, "
                f"{self.rules} rules"] + ([self.given.text()] if self.given.text() else []) + [
                f"{'contract':<9}{'P(make)':>17}{'expected whists':>20}{'tricks':>7}"]
        for s in self.contracts:
            mark = " <" if s.contract == self.best else ""
            t = s.mean_tricks
            rows.append(f"{s.contract.symbol:<9}{s.p_make:>9.3f} ± {s.se:.3f}"
                        f"{s.expected:>+12.2f} ± {s.expected_se:<5.2f}{t:>7.2f}{mark}")
        played = ("; a game the defence may pass shows the P(make) and tricks that play would give, "
                  "though this model does not play it" if self.defence == "pass" else "")
        rows.append(f"(defence: {DEFENCE_TEXT[self.defence]}; the tricks column is the mean; misère's "
                    f"P(make) is the chance of taking no trick{played})")
        rows.append(self.recommendation())
        return "\n".join(rows)


def _evaluate(tricks: np.ndarray, rules: Rules, defence: str) -> list[ContractStats]:
    return [ContractStats.of(c, tricks[:, strain_index(c)], declarer_scores(c, tricks[:, strain_index(c)],
                                                                          defence, rules))
            for c in LADDER]


def _adaptive_loop(samples: int, adaptive: float | None, draw: Callable[[int], np.ndarray],
                   lead_se: Callable[[np.ndarray], float]) -> np.ndarray:
    """Draw all ``samples`` at once, or in batches until the leading choice's se ≤ ``adaptive``."""
    import numpy as np  # on use: see the note at the module's imports
    if adaptive is None:
        return draw(samples)
    if (isinstance(adaptive, bool) or not isinstance(adaptive, (int, float)) or not math.isfinite(adaptive)
            or adaptive <= 0):
        raise PrefsolveError(f"adaptive must be a positive standard error threshold, got {adaptive!r}")
    parts: list[np.ndarray] = []
    n = 0
    while n < samples:
        k = min(BATCH, samples - n)
        parts.append(draw(k))
        n += k
        values = np.concatenate(parts)
        if n >= 2 and lead_se(values) <= adaptive:
            break
    return np.concatenate(parts)


def analyze(hand: Hand | str, seat: int = 0, samples: int = 1000, seed: int | None = None,
            rules: Rules | str = "sochi", jobs: int | None = None, defence: str = "best",
            known: Mapping[object, object] | None = None, voids: Mapping[int, object] | None = None,
            adaptive: float | None = None, progress: Progress | None = None) -> Analysis:
    """Evaluate every contract (6♠ … 10NT, misère) for a player's 10 cards.

    ``samples`` layouts of the 22 unseen cards (other seats and talon) are
    drawn with ``seed``; in each, the player is solved as declarer in all six
    strains with the talon and best discard (one table per sample), and every
    contract is scored on those same tricks. ``known`` maps a seat or
    ``"talon"`` to cards known to be there, ``voids`` a seat to suits it
    lacks. ``adaptive``: sample in batches of 100 and stop as soon as the
    standard error of the best contract's expected score is at most this
    many whists (``samples`` is then the maximum).

    "This player passed" is not offered as a constraint: it would need a
    model of how opponents bid, which double-dummy solving cannot supply.

    >>> a = analyze("-.-.87.T987", seat=0, samples=3, seed=2, jobs=1)
    Traceback (most recent call last):
    ...
    prefsolve.errors.HandError: hand '-.-.87.T987' has 6 cards, expected 10
    """
    import numpy as np  # on use: see the note at the module's imports
    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    samples = _check_samples(samples)
    defence = _check_defence(defence)
    r = as_rules(rules)
    seed = _seed(seed)
    fixed = _known_hands(known, seat, hand, (0, 1, 2, "talon"))
    sampler = Sampler(fixed, seed, voids)
    leader = leader_for(r, seat)

    hints = DiscardHints()    # shared by the batches of an adaptive run

    def draw(k: int) -> np.ndarray:
        deals = sampler.draw(k)
        return table_many(deals, leader=leader, talon_mode="take", jobs=jobs, progress=progress,
                          declarers=(seat,), hints=hints)[:, 0, :]

    def lead_se(t: np.ndarray) -> float:
        stats = _evaluate(t, r, defence)
        return max(stats, key=lambda s: s.expected).expected_se

    tricks = _adaptive_loop(samples, adaptive, draw, lead_se)
    stats = _evaluate(tricks, r, defence)
    best, max_bid = _recommend(stats, r)
    return Analysis(hand, seat, seed, r.label, defence, leader, tuple(stats), best.contract, max_bid,
                    np.ascontiguousarray(tricks), sampler.given(seat))


def sample_deals(hand: Hand | str, seat: int = 0, samples: int = 1000, seed: int | None = None,
                 known: Mapping[object, object] | None = None,
                 voids: Mapping[int, object] | None = None) -> list[Deal]:
    """The layouts :func:`analyze` uses for the same arguments (for checks and reuse).

    >>> len(sample_deals("A.KT9.KT97.K7", samples=3, seed=1))
    3
    """
    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    fixed = _known_hands(known, seat, hand, (0, 1, 2, "talon"))
    return Sampler(fixed, _seed(seed), voids).draw(_check_samples(samples))


# -- all-pass ------------------------------------------------------------------------
#: How the all-pass score of one sample is modelled (stated in every result).
ALLPASS_MODEL = ("the player takes his guaranteed tricks (the fewest he can be sure of against "
                 "two opponents playing to load him); the other two share the rest as evenly as "
                 "possible; one all-pass deal scored alone")


@dataclass(frozen=True)
class AllpassAnalysis:
    """What passing costs: the player's all-pass tricks over sampled layouts."""

    hand: Hand
    seat: int
    seed: int
    rules: str
    talon: str
    allpass_count: int
    tricks: tuple[int, ...]
    mean: float
    mean_se: float
    p_zero: float
    p_zero_se: float
    expected: float
    expected_se: float
    given: Given = Given()

    @property
    def samples(self) -> int:
        return sum(self.tricks)

    def to_dict(self) -> dict:
        return {"samples": self.samples, "hand": str(self.hand), "seat": self.seat, "seed": self.seed,
                "rules": self.rules, "talon": self.talon, "allpass_count": self.allpass_count,
                "tricks": list(self.tricks), "mean": round(self.mean, 3),
                "mean_se": round(self.mean_se, 3), "p_zero": round(self.p_zero, 4),
                "p_zero_se": round(self.p_zero_se, 4), "expected": round(self.expected, 3),
                "expected_se": round(self.expected_se, 3), "model": ALLPASS_MODEL, **self.given.to_dict()}

    def format(self) -> str:
        hist = " ".join(f"{t}:{c}" for t, c in enumerate(self.tricks) if c)
        return "\n".join([
            f"All-pass for seat {self.seat} ({self.samples} samples, talon {self.talon}, "
            f"rules {self.rules}):",
            f"  guaranteed tricks  {self.mean:.2f} ± {self.mean_se:.2f}   (tricks:count {hist})",
            f"  no trick at all    {self.p_zero:.3f} ± {self.p_zero_se:.3f}",
            f"  expected whists    {self.expected:+.2f} ± {self.expected_se:.2f}",
            f"  model: {ALLPASS_MODEL}",
        ] + ([f"  {self.given.text()}"] if self.given.text() else []))


def allpass_talon_mode(rules: Rules | str) -> str:
    """The talon's part in all-pass under a profile (§4.7): ``lead`` or ``ignore``."""
    rules = Rules.of(rules)
    return "ignore" if rules.raspasy_talon == "ignored" else "lead"


def analyze_allpass(hand: Hand | str, seat: int = 0, samples: int = 1000, seed: int | None = None,
                    rules: Rules | str = "sochi", jobs: int | None = None, allpass_count: int = 0,
                    known: Mapping[object, object] | None = None,
                    voids: Mapping[int, object] | None = None,
                    progress: Progress | None = None) -> AllpassAnalysis:
    """The distribution of a player's all-pass tricks over sampled layouts.

    The layouts are those :func:`analyze` draws for the same arguments, so
    the two can be compared sample for sample. Each is solved exactly for
    the player's guarantee (:func:`prefsolve.allpass.solve_allpass`); the
    talon leads tricks 1 and 2 or is ignored as the profile says, turned in
    a random (seeded) order. The expected score uses :data:`ALLPASS_MODEL`.

    >>> a = analyze_allpass("A.AKQ.AKQ.AKQ", seat=0, samples=3, seed=1, jobs=1)
    >>> a.tricks[0], a.samples
    (0, 3)
    """
    import numpy as np  # on use: see the note at the module's imports
    from .allpass import solve_allpass
    from .scoring import allpass_balance

    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    samples = _check_samples(samples)
    count = _whole(allpass_count)     # numpy integers too
    if count is None or count < 0:
        raise PrefsolveError(f"allpass_count must be a whole number >= 0, got {allpass_count!r}")
    allpass_count = count
    r = as_rules(rules)
    seed = _seed(seed)
    mode = allpass_talon_mode(r)
    fixed = _known_hands(known, seat, hand, (0, 1, 2, "talon"))
    sampler = Sampler(fixed, seed, voids)
    deals = sampler.draw(samples)
    # The talon cards lie in a random order; a separate stream keeps the layouts
    # identical to analyze()'s for the same seed.
    order = random.Random(seed ^ 0x5A11)
    # The Sampler deals a talon (talon=True).
    turns = [tuple(order.sample(list(cast(Hand, d.talon)), 2)) for d in deals]

    def work(item, solver):
        deal, turn = item
        return solve_allpass(deal, seat, talon_mode=mode, turn=turn if mode == "lead" else None,
                             solver=solver).tricks

    tricks = np.asarray(map_deals(list(zip(deals, turns)), work, jobs=jobs, progress=progress), dtype=np.int64)
    scores = []
    for t in tricks:
        rest = 10 - int(t)
        share = [0, 0, 0]
        share[seat] = int(t)
        share[(seat + 1) % 3] = (rest + 1) // 2
        share[(seat + 2) % 3] = rest // 2
        scores.append(float(allpass_balance(share, r, allpass_count)[seat]))
    mean, mse = mean_se(tricks.astype(float))
    p0 = float((tricks == 0).mean())
    exp, exp_se = mean_se(np.asarray(scores))
    hist = tuple(int(x) for x in np.bincount(tricks, minlength=11)[:11])
    return AllpassAnalysis(hand, seat, seed, r.label, mode, allpass_count, hist, mean, mse, p0,
                           binomial_se(p0, samples), exp, exp_se, sampler.given(seat))


# -- whist advisor -------------------------------------------------------------------
@dataclass(frozen=True)
class OptionStats:
    """Expected net whists ± se of one call of the defender."""

    call: str
    expected: float
    se: float

    def to_dict(self) -> dict:
        # expected_se, as analyze's contracts name the se of their expected score
        return {"expected": round(self.expected, 3), "expected_se": round(self.se, 3)}


@dataclass(frozen=True)
class WhistAnalysis:
    """Whist or pass against a contract, for one defender's hand."""

    hand: Hand
    seat: int
    declarer: int
    contract: Contract
    partner: str
    seed: int
    rules: str
    leader: int
    p_quota: float
    p_quota_se: float
    declarer_tricks: tuple[int, ...]
    options: tuple[OptionStats, ...]
    best: str
    quota: int      # the defence's obligation under the rules used (§3.2)
    given: Given = Given()

    @property
    def samples(self) -> int:
        return sum(self.declarer_tricks)

    @property
    def first_defender(self) -> bool:
        return self.seat == (self.declarer + 1) % 3

    @property
    def model(self) -> str:
        return (f"double-dummy play, the declarer with the talon and his best discard; seat "
                f"{self.leader} leads; the other defender's call: {self.partner}; two whisters split "
                f"the defence tricks evenly (odd one to the first defender); one deal's net whists "
                f"under the {self.rules} rules; the declarer's hand is not conditioned on his bid")

    def to_dict(self) -> dict:
        return {
            "samples": self.samples, "hand": str(self.hand), "contract": contract_key(self.contract),
            "seat": self.seat, "declarer": self.declarer, "partner": self.partner,
            "quota": self.quota, "p_quota": round(self.p_quota, 4), "se": round(self.p_quota_se, 4),
            "declarer_tricks": list(self.declarer_tricks),
            "options": {o.call: o.to_dict() for o in self.options},
            "recommendation": self.best, "seed": self.seed, "rules": self.rules, "model": self.model,
            **self.given.to_dict(),
        }

    def format(self) -> str:
        need = self.quota
        rows = [f"Hand {self.hand.symbols()}, seat {self.seat} "
                f"({'first' if self.first_defender else 'second'} defender) against "
                f"{self.contract.symbol} by seat {self.declarer}, {self.samples} samples, {self.rules} rules"] + (
                [self.given.text()] if self.given.text() else []) + [
                f"P(defence takes its {need}) = {self.p_quota:.3f} ± {self.p_quota_se:.3f}",
                f"{'call':<8}{'expected whists':>20}"]
        for o in self.options:
            mark = " <" if o.call == self.best else ""
            rows.append(f"{o.call:<8}{o.expected:>+12.2f} ± {o.se:.2f}{mark}")
        # Only Stalingrad leaves a single call (whist_options).
        forced = " (Stalingrad, §3.5: both defenders whist on 6♠)" if len(self.options) == 1 else ""
        rows.append(f"(the other defender: {self.partner}{forced}; the declarer's hand is drawn at random, "
                    f"not from what his bid says, so weigh P against the bid)")
        rows.append(f"recommendation: {self.best}")
        return "\n".join(rows)


def whist_options(contract: Contract, first: bool, partner: str, rules: Rules | str) -> dict[str, tuple]:
    """The defender's possible calls → the speaking-order calls of both defenders.

    Half-whist (§3.2) is open only to the second defender after a pass, on 6
    and 7, where the rules play it; the first defender is assumed to pass
    again (the half-whist stands: no play, or played out under
    ``half_whist="played"``).

    >>> sorted(whist_options(Contract.parse("6H"), False, "pass", Rules()))
    ['half', 'pass', 'whist']
    """
    rules = Rules.of(rules)
    if rules.stalingrad and contract == Contract(6, "S"):
        return {WHIST: (WHIST, WHIST)}
    opts: dict[str, tuple] = {}
    for call in (WHIST, PASS):
        opts[call] = (call, partner) if first else (partner, call)
    if (not first and partner == PASS and rules.half_whist != "off"
            and contract.level is not None and contract.level <= 7):
        opts[HALF] = (PASS, HALF, PASS)
    return opts


def analyze_whist(hand: Hand | str, seat: int, declarer: int, contract: Contract | str,
                  samples: int = 1000, seed: int | None = None, rules: Rules | str = "sochi",
                  jobs: int | None = None, partner: str | None = None,
                  known: Mapping[object, object] | None = None,
                  voids: Mapping[int, object] | None = None, adaptive: float | None = None,
                  progress: Progress | None = None) -> WhistAnalysis:
    """Whist, pass or half-whist for a defender's 10 cards against ``contract`` by ``declarer``.

    The 22 unseen cards are sampled; the declarer takes the talon and
    discards his best two (double-dummy). ``partner`` is the other
    defender's call (``pass`` or ``whist``; by default ``pass``, and
    ``whist`` against 6♠ under Stalingrad, where he must). P(quota) is the chance that the
    defence takes its obligation; each call is scored in net whists for
    this defender on the same samples.

    >>> analyze_whist("AKQJ.AKQ.A.A8", seat=1, declarer=0, contract="misere", samples=2)
    Traceback (most recent call last):
    ...
    prefsolve.errors.ContractError: nobody whists on misère (§3.2): both opponents catch the declarer
    """
    import numpy as np  # on use: see the note at the module's imports
    hand = as_hand(hand)
    seat = check_seat(seat, "seat")
    declarer = check_seat(declarer, "declarer")
    if seat == declarer:
        raise PrefsolveError(f"the whisting seat {seat} is the declarer's seat")
    c = as_contract(contract)
    if c.is_misere:
        raise ContractError("nobody whists on misère (§3.2): both opponents catch the declarer")
    if partner is not None and partner not in PARTNER_CALLS:
        raise PrefsolveError(f"the other defender's call must be one of {', '.join(PARTNER_CALLS)}, "
                             f"got {partner!r}")
    samples = _check_samples(samples)
    r = as_rules(rules)
    if c.level == 10 and r.ten_whist == "checked":
        raise ContractError(f"nobody whists on {c} under the {r.label} rules (§3.4, ten_whist='checked'): "
                            f"the hand is always played and both opponents catch the declarer")
    if r.stalingrad and c == Contract(6, "S"):
        if partner == PASS:
            raise ContractError(f"the other defender cannot pass on {c} under the {r.label} rules "
                                f"(§3.5 Stalingrad: both defenders whist against 6♠)")
        partner = WHIST
    elif partner is None:
        partner = PASS
    seed = _seed(seed)
    fixed = _known_hands(known, seat, hand, (0, 1, 2, "talon"))
    sampler = Sampler(fixed, seed, voids)
    leader = leader_for(r, declarer)
    first = seat == (declarer + 1) % 3
    who = 1 if first else 2
    options = whist_options(c, first, partner, r)

    def scores(t: np.ndarray) -> dict[str, np.ndarray]:
        out = {}
        for call, calls in options.items():
            open_play = calls.count(WHIST) == 1
            row = np.asarray(_balance_row(c, calls, r, open_play, who))
            out[call] = row[t.astype(np.int64)]
        return out

    hints = DiscardHints()    # shared by the batches of an adaptive run

    def draw(k: int) -> np.ndarray:
        return solve_many(sampler.draw(k), declarer, strain=c.strain, leader=leader, talon_mode="take",
                          jobs=jobs, progress=progress, hints=hints)

    def lead_se(t: np.ndarray) -> float:
        stats = [mean_se(v) for v in scores(t).values()]
        return max(stats)[1]

    tricks = _adaptive_loop(samples, adaptive, draw, lead_se)
    n = len(tricks)
    need = c.whist_obligation(r)
    p = float(((10 - tricks) >= need).mean())
    opts = tuple(OptionStats(call, *mean_se(v)) for call, v in scores(tricks).items())
    best = max(opts, key=lambda o: o.expected).call
    hist = tuple(int(x) for x in np.bincount(tricks.astype(np.int64), minlength=11)[:11])
    return WhistAnalysis(hand, seat, declarer, c, partner, seed, r.label, leader, p, binomial_se(p, n),
                         hist, opts, best, need, sampler.given(seat))


# -- after the talon -----------------------------------------------------------------
def equivalent_discards(hand12: Hand) -> list[tuple[Card, Card]]:
    """One discard per class of equivalent discards of a 12-card hand.

    Cards of one suit with no outside card between them are interchangeable
    once the talon is known (every other card is with the opponents), so
    discarding either is the same; the lowest cards of each run stand for it.

    >>> [" ".join(map(str, d)) for d in equivalent_discards(Hand.parse("AKQJT987.-.-.AK"))]
    ['S7 S8', 'S7 HK', 'HK HA']
    """
    runs: list[list[Card]] = []
    for s in range(4):
        run: list[Card] = []
        for r in range(8):
            card = ALL_CARDS[s * 8 + r]
            if card in hand12:
                run.append(card)
            elif run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    out = []
    for i, a in enumerate(runs):
        if len(a) >= 2:
            out.append((a[0], a[1]))
        for b in runs[i + 1:]:
            out.append((a[0], b[0]))
    return sorted(out)


def _canonical(discard: Iterable[Card], hand12: Hand) -> tuple[Card, Card]:
    """The representative in :func:`equivalent_discards` of a discard."""
    chosen: list[Card] = []
    for card in sorted(discard):
        # Walk down the run to its lowest card not yet chosen.
        r = card.rank
        while r > 0 and ALL_CARDS[card.suit * 8 + r - 1] in hand12:
            r -= 1
        while ALL_CARDS[card.suit * 8 + r] in chosen:
            r += 1
        chosen.append(ALL_CARDS[card.suit * 8 + r])
    return tuple(sorted(chosen))  # type: ignore[return-value]


@dataclass(frozen=True)
class DiscardStats:
    """A (discard, contract) candidate on the sample set."""

    discard: tuple[Card, Card]
    stats: ContractStats

    def to_dict(self) -> dict:
        return {"discard": [str(c) for c in in_hand_order(self.discard)],     # a list, as in solve() and table()
                "contract": contract_key(self.stats.contract), **self.stats.to_dict()}


@dataclass(frozen=True)
class TalonAnalysis:
    """Discards and contracts for a declarer holding 12 cards (his 10 and the talon)."""

    hand12: Hand
    seat: int
    bid: Contract | None
    seed: int
    rules: str
    defence: str
    leader: int
    samples: int
    pilot: int
    options: tuple[DiscardStats, ...]
    given: Given = Given()

    @property
    def best(self) -> DiscardStats:
        return self.options[0]

    @property
    def model(self) -> str:
        return (f"candidate discards: per strain, the discards most often best double-dummy on the "
                f"first {self.pilot} samples; each candidate played double-dummy on every sample; "
                f"seat {self.leader} leads; defence: {DEFENCE_TEXT[self.defence]}; score: one deal's "
                f"net whists under the {self.rules} rules")

    def to_dict(self) -> dict:
        b = self.best
        return {
            "samples": self.samples, "hand": str(self.hand12), "seat": self.seat,
            "bid": contract_key(self.bid) if self.bid else None,
            "options": [o.to_dict() for o in self.options],
            "recommendation": {"discard": [str(c) for c in in_hand_order(b.discard)],
                               "contract": contract_key(b.stats.contract)},
            "seed": self.seed, "rules": self.rules, "defence": self.defence, "model": self.model,
            **self.given.to_dict(),
        }

    def format(self, top: int = 15) -> str:
        rows = [f"Hand {self.hand12.symbols()} (12 cards), seat {self.seat}, {self.samples} samples"
                + (f", bid {self.bid.symbol}" if self.bid else "")] + (
                [self.given.text()] if self.given.text() else []) + [
                f"{'discard':<9}{'contract':<9}{'P(make)':>16}{'expected whists':>20}"]
        for o in self.options[:top]:
            s = o.stats
            rows.append(f"{''.join(c.symbol for c in in_hand_order(o.discard)):<9}{s.contract.symbol:<9}"
                        f"{s.p_make:>9.3f} ± {s.se:.3f}{s.expected:>+12.2f} ± {s.expected_se:.2f}")
        if len(self.options) > top:
            rows.append(f"... {len(self.options) - top} more (--json lists all)")
        b = self.best
        rows.append(f"recommendation: discard {' '.join(c.symbol for c in in_hand_order(b.discard))}, declare "
                    f"{b.stats.contract.symbol} (expected {b.stats.expected:+.1f} whists, "
                    f"P(make) {b.stats.p_make:.0%})")
        return "\n".join(rows)


def allowed_contracts(bid: Contract | None, rules: Rules | str) -> list[Contract]:
    """Contracts the auction winner may declare after a winning ``bid`` (§3.1).

    Not lower than the bid; after a game bid misère only with trading
    (non-binding) misère and a bid up to 8♠ (the auction's
    ``TRADING_MISERE_CAP``, as :func:`check_declaration` rules); after
    misère, misère only.

    >>> [str(c) for c in allowed_contracts(Contract.parse("10H"), Rules())]
    ['10H', '10NT']
    """
    rules = Rules.of(rules)
    if bid is None:
        return list(LADDER)
    if bid.is_misere:
        return [Contract.misere()]
    out = [c for c in LADDER if not c.is_misere and seniority(c, rules) >= seniority(bid, rules)]
    if not rules.misere_binding and seniority(bid, rules) <= seniority(TRADING_MISERE_CAP, rules):
        out.append(Contract.misere())
    return out


def analyze_talon(hand12: Hand | str, seat: int = 0, samples: int = 200, seed: int | None = None,
                  rules: Rules | str = "sochi", jobs: int | None = None, defence: str = "best",
                  bid: Contract | str | None = None, candidates: int = 4,
                  known: Mapping[object, object] | None = None,
                  voids: Mapping[int, object] | None = None,
                  progress: Progress | None = None) -> TalonAnalysis:
    """Which two cards to discard and what to declare, holding 12 cards.

    The 20 unseen cards are dealt to the two other seats. For each strain
    the ``candidates`` discards most often best double-dummy on a pilot
    (the first samples, up to 40) are kept — equivalent discards counted as
    one — and each is played on every sample; every (discard, contract) pair
    allowed after ``bid`` is scored on the same samples. Options are sorted
    by expected whists, best first.

    >>> best = analyze_talon("AKQJ.AKQJ.AK.AK", seat=0, samples=2, seed=1, jobs=1, bid="7S").best
    >>> str(best.stats.contract), best.stats.p_make
    ('10S', 1.0)
    """
    import numpy as np  # on use: see the note at the module's imports
    hand12 = as_hand(hand12, 12, "12-card hand")
    seat = check_seat(seat, "seat")
    samples = _check_samples(samples)
    defence = _check_defence(defence)
    count = _whole(candidates)     # numpy integers too
    if count is None or count < 1:
        raise PrefsolveError(f"candidates must be a positive whole number, got {candidates!r}")
    candidates = count
    r = as_rules(rules)
    b = as_contract(bid) if bid is not None else None
    if b is not None:
        seniority(b, r)
    contracts = allowed_contracts(b, r)
    strains = [s for s in STRAINS if any(c.strain == s for c in contracts)]
    seed = _seed(seed)
    fixed = _known_hands(known, seat, hand12, (0, 1, 2))
    sampler = Sampler(fixed, seed, voids, talon=False, sizes={seat: 12})
    leader = leader_for(r, seat)
    full = sampler.draw_masks(samples)
    first10 = Hand(cards_of_mask(hand12.mask)[:10])
    talon = Hand(hand12.mask & ~first10.mask)

    def with_talon(masks: list[int]) -> Deal:
        # Any 10 of the 12 as the hand and the other 2 as the talon: the
        # solver tries all 66 discards of the 12 anyway.
        hands = [Hand(m) for m in masks]
        hands[seat] = first10
        return Deal(hands, talon)

    def with_discard(masks: list[int], discard: tuple[Card, Card]) -> Deal:
        hands = [Hand(m) for m in masks]
        hands[seat] = Hand(hand12.mask & ~(1 << discard[0].index) & ~(1 << discard[1].index))
        return Deal(hands)

    # Pilot: the double-dummy best discard per strain names the candidates.
    pilot = min(samples, 40)
    jobs_n = resolve_jobs(jobs)

    def pilot_work(d: list[int], solver) -> list:
        td = with_talon(d)
        # With the talon every solution has a discard.
        out = [_canonical(cast("tuple[Card, Card]",
                               solve(td, seat, strain=s, leader=leader, talon_mode="take", solver=solver).discard), hand12)
               for s in strains]
        if progress:
            progress(1)
        return out

    found = map_deals(full[:pilot], pilot_work, jobs=jobs_n)
    cands: dict[str, list[tuple[Card, Card]]] = {}
    for i, s in enumerate(strains):
        counts: dict[tuple[Card, Card], int] = {}
        for row in found:
            counts[row[i]] = counts.get(row[i], 0) + 1
        cands[s] = [d for d, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][:candidates]

    work = [(s, d) for s in strains for d in cands[s]]

    def eval_work(d: list[int], solver) -> list[int]:
        out = [solve(with_discard(d, disc), seat, strain=s, leader=leader, talon_mode="ignore", solver=solver).tricks
               for s, disc in work]
        if progress:
            progress(1)
        return out

    table = np.asarray(map_deals(full, eval_work, jobs=jobs_n), dtype=np.int8).reshape(samples, len(work))
    options = []
    for j, (s, disc) in enumerate(work):
        t = table[:, j]
        for c in contracts:
            if c.strain == s:
                options.append(DiscardStats(disc, ContractStats.of(c, t, declarer_scores(c, t, defence, r))))
    options.sort(key=lambda o: (-o.stats.expected, -o.stats.p_make, seniority(o.stats.contract, r), o.discard))
    return TalonAnalysis(hand12, seat, b, seed, r.label, defence, leader, samples, pilot, tuple(options),
                         sampler.given(seat))


# -- the seed's hand-evaluation table, measured ------------------------------------
#: The seed's 46 suit holdings and its trick estimates (SEED_RULES.md): number,
#: holding ("x" = a small card, 7..10), estimate as printed, estimate range.
SEED_HOLDINGS: tuple[tuple[int, str, str], ...] = (
    (1, "A", "1"), (2, "AK", "2"), (3, "AKQ", "3"), (4, "AKQJ", "4"), (5, "AKQJ x", "5"),
    (6, "AKQJ xx", "6"), (7, "AKQJ xxx", "7"), (8, "AKQJ xxxx", "8"), (9, "AK xx", "3"),
    (10, "AK xxx", "4.5"), (11, "AK xxxx", "6"), (12, "AQ", "1"), (13, "AQJ", "1"),
    (14, "AQJ x", "2.5"), (15, "AQJ xx", "3.5"), (16, "AQJ xxx", "6.5"), (17, "AQJ xxxx", "7"),
    (18, "AJ", "1"), (19, "AJ x", "1"), (20, "AJ xx", "2"), (21, "AJ xxx", "4.5"),
    (22, "AJ xxxx", "5.5"), (23, "A xx", "1"), (24, "A xxx", "1.5"), (25, "A xxxx", "2.5"),
    (26, "K", "0"), (27, "KQ", "0.7–1"), (28, "KQJ", "1.5–2"), (29, "KQJ x", "3"),
    (30, "KQ xx", "3"), (31, "KQ xxx", "4"), (32, "KQ xxxx", "5"), (33, "KQJ xxxx", "6"),
    (34, "KJ", "0"), (35, "KJ x", "0"), (36, "KJ xx", "0.5–2"), (37, "KJ xxx", "2.5"),
    (38, "KJ xxxx", "4.5"), (39, "QJ", "0"), (40, "QJ x", "0–0.3"), (41, "QJ xx", "0.5–1.5"),
    (42, "QJ xxx", "3"), (43, "QJ xxxx", "4.5"), (44, "J xx", "0"), (45, "J xxx", "0–1"),
    (46, "J xxxx", "0–2"),
)
_SMALL = (0, 1, 2, 3)  # ranks of 7 8 9 10: the seed's "x"


@dataclass(frozen=True)
class HoldingStats:
    """Measured tricks of one holding: mean ± se and sd, as trump and in no-trump."""

    number: int
    holding: str
    seed_estimate: str
    samples: int
    trump: float
    trump_se: float
    trump_sd: float
    nt: float
    nt_se: float
    nt_sd: float

    def to_dict(self) -> dict:
        return {"number": self.number, "holding": self.holding, "seed_estimate": self.seed_estimate,
                "samples": self.samples,
                "trump": {"mean": round(self.trump, 3), "se": round(self.trump_se, 3),
                          "sd": round(self.trump_sd, 3)},
                "nt": {"mean": round(self.nt, 3), "se": round(self.nt_se, 3), "sd": round(self.nt_sd, 3)}}


@dataclass(frozen=True)
class HoldingsTable:
    """The seed's 46 holdings next to what exact play makes of them."""

    rows: tuple[HoldingStats, ...]
    samples: int
    seed: int

    @property
    def model(self) -> str:
        return ("the holding in a random suit of seat 0's 10 cards, 'x' = random cards 7..10, the "
                "other cards random, the talon out of play; seat 0 declares (holding's suit as trump, "
                "or no-trump) and leads; counted: the tricks seat 0 wins with the holding's cards "
                "along one optimal double-dummy line")

    def to_dict(self) -> dict:
        return {"samples": self.samples, "seed": self.seed, "model": self.model,
                "holdings": [r.to_dict() for r in self.rows]}

    def format(self) -> str:
        out = [f"{'#':>2}  {'holding':<10}{'seed':>8}{'as trump':>16}{'sd':>6}{'no-trump':>16}{'sd':>6}"]
        for r in self.rows:
            out.append(f"{r.number:>2}  {r.holding:<10}{r.seed_estimate:>8}"
                       f"{r.trump:>9.2f} ± {r.trump_se:.2f}{r.trump_sd:>6.2f}"
                       f"{r.nt:>9.2f} ± {r.nt_se:.2f}{r.nt_sd:>6.2f}")
        out.append(f"({self.samples} samples per holding, seed {self.seed}; {self.model})")
        return "\n".join(out)


def _holding_deal(rng: random.Random, honours: str, small: int) -> tuple[Deal, int]:
    """A random deal with the holding in a random suit of seat 0; talon cards out of play."""
    suit = rng.randrange(4)
    ranks = ["789TJQKA".index(h) for h in honours] + rng.sample(_SMALL, small)
    mine = [ALL_CARDS[suit * 8 + r] for r in ranks]
    others = [c for c in ALL_CARDS if c.suit != suit]
    rng.shuffle(others)
    mine += others[:10 - len(mine)]
    rest = [c for c in ALL_CARDS if c not in mine]
    rng.shuffle(rest)
    return Deal([Hand(mine), Hand(rest[:10]), Hand(rest[10:20])]), suit


def _holding_tricks(deal: Deal, suit: int, strain: str, solver) -> int:
    """Tricks seat 0 wins with cards of ``suit`` along one optimal line (declarer 0, 0 leads)."""
    from .play import best_line

    line = best_line(deal, 0, strain=strain, solver=solver)
    return sum(1 for t in line.played_tricks
               if t.winner == 0 and t.cards[t.seats.index(0)].suit == suit)


def holdings(samples: int = 200, seed: int | None = None, jobs: int | None = None,
             numbers: Iterable[int] | None = None, progress: Progress | None = None) -> HoldingsTable:
    """Measure the seed's holding table by sampling and exact play.

    For each holding, ``samples`` deals give seat 0 the holding in a random
    suit (the suit is random so that no suit order of the engine favours
    it), "x" as random small cards 7..10, and 10 cards in all; the rest is
    dealt at random and the talon stays out of play (the seed's estimate is
    for the hand as dealt). Seat 0 declares, with the holding's suit as trump
    and in no-trump, and leads; the count is the tricks he wins with the
    holding's cards along one optimal line. ``numbers`` picks rows (1..46).

    >>> t = holdings(samples=2, seed=1, numbers=[8], jobs=1)
    >>> t.rows[0].holding, t.rows[0].trump, t.rows[0].nt
    ('AKQJ xxxx', 8.0, 8.0)
    """
    import numpy as np  # on use: see the note at the module's imports
    samples = _check_samples(samples)
    seed = _seed(seed)
    chosen = list(SEED_HOLDINGS)
    if numbers is not None:
        if isinstance(numbers, (int, str)):
            raise PrefsolveError(f"numbers must be a sequence of holding numbers (1..46), e.g. [8], "
                                 f"got {numbers!r}")
        wanted = list(numbers)
        bad = [n for n in wanted if not any(n == h[0] for h in SEED_HOLDINGS)]
        if bad:
            raise PrefsolveError(f"no holding number {bad[0]!r} in the seed's table (1..46)")
        chosen = [h for h in SEED_HOLDINGS if h[0] in wanted]
    work = []
    for number, text, _ in chosen:
        honours, _, xs = text.partition(" ")
        rng = random.Random(seed * 1000 + number)  # one stream per row: rows are independent
        for _ in range(samples):
            deal, suit = _holding_deal(rng, honours, len(xs))
            work.append((number, deal, suit))

    def one(item, solver) -> tuple[int, int]:
        number, deal, suit = item
        out = (_holding_tricks(deal, suit, SUITS[suit], solver),
               _holding_tricks(deal, suit, "NT", solver))
        if progress:
            progress(1)
        return out

    results = map_deals(work, one, jobs=jobs)
    rows = []
    for number, text, est in chosen:
        vals = np.asarray([r for (n, _, _), r in zip(work, results) if n == number], dtype=float)
        t_mean, t_se = mean_se(vals[:, 0])
        n_mean, n_se = mean_se(vals[:, 1])
        rows.append(HoldingStats(number, text, est, samples, t_mean, t_se, float(vals[:, 0].std()),
                                 n_mean, n_se, float(vals[:, 1].std())))
    return HoldingsTable(tuple(rows), samples, seed)


# -- benchmark -----------------------------------------------------------------------
BENCH_HAND = "A.KT9.KT97.K7"


def bench_workload(samples: int = 1000, seed: int = 2026, jobs: int | None = None) -> dict:
    """Time one bid evaluation (all contracts, talon and best discard per sample).

    >>> sorted(bench_workload(samples=2, jobs=1))
    ['jobs', 'samples', 'samples_per_s', 'seconds', 'workload']
    """
    t0 = time.perf_counter()
    analyze(BENCH_HAND, seat=0, samples=samples, seed=seed, jobs=jobs)
    dt = time.perf_counter() - t0
    return {"workload": f"analyze {BENCH_HAND} seat 0", "samples": samples, "jobs": resolve_jobs(jobs),
            "seconds": round(dt, 3), "samples_per_s": round(samples / dt, 2)}


__all__ = ["analyze", "analyze_whist", "analyze_talon", "holdings", "sample_deals", "Sampler", "Analysis",
           "HoldingsTable", "HoldingStats", "SEED_HOLDINGS",
           "ContractStats", "WhistAnalysis", "TalonAnalysis", "DiscardStats", "ConstraintError",
           "DEFENCES", "bench_workload", "equivalent_discards", "allowed_contracts"]
