"""Exact solving of Preferans layouts: one contract, or the table of all contracts.

The search itself lives in the native core (:mod:`prefsolve._core`); this
module validates input, turns cards into the core's plain integers and wraps
the answers in result objects.

>>> d = Deal.parse("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> solve(d, declarer=2, strain="NT").tricks >= 0
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from .engine import DEFAULT_TT_MB, MAX_TT_MB, Solver, check_solver, default_solver, new_solver, table_size_mb
from .cards import ALL_CARDS, SUIT_SYMBOLS, Card, cards_of_mask, in_hand_order
from .deal import Deal, check_seat
from .errors import DealError, PrefsolveError, StrainError

STRAINS = ("S", "C", "D", "H", "NT", "misere")
STRAIN_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "NT", "misere": "Misère"}
_STRAIN_ALIASES = {
    "S": "S", "♠": "S", "SPADES": "S",
    "C": "C", "♣": "C", "CLUBS": "C",
    "D": "D", "♦": "D", "DIAMONDS": "D",
    "H": "H", "♥": "H", "HEARTS": "H",
    "NT": "NT", "N": "NT", "NOTRUMP": "NT", "NO-TRUMP": "NT", "БК": "NT",
    "MISERE": "misere", "MISÈRE": "misere", "МИЗЕР": "misere",
}

def parse_strain(strain: object) -> str:
    """Canonical strain name: one of ``S C D H NT misere``.

    >>> parse_strain("♥"), parse_strain("nt"), parse_strain("Misère")
    ('H', 'NT', 'misere')
    """
    if isinstance(strain, str):
        canon = _STRAIN_ALIASES.get(strain.strip().upper())
        if canon is not None:
            return canon
    hint = ""
    if isinstance(strain, str) and strain.strip().lower().replace("-", "") in ("allpass", "raspasy", "распасы"):
        hint = " (all-pass is solved by solve_allpass, prefsolve allpass, or play --strain allpass)"
    raise StrainError(f"unknown strain {strain!r}: expected one of {', '.join(STRAINS)}{hint}")


def trump_of(strain: str) -> int:
    """Core trump code: suit index 0..3, or -1 for no-trump and misère."""
    return _TRUMP_OF.get(strain, -1)


_TRUMP_OF = {"S": 0, "C": 1, "D": 2, "H": 3, "NT": -1, "misere": -1}  # canonical strain: core trump


def as_deal(deal: Deal | str) -> Deal:
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, str):
        return Deal.parse(deal)
    raise DealError(f"expected a Deal or deal text, got {type(deal).__name__}")


@dataclass(frozen=True)
class Solution:
    """The exact result of one contract.

    ``tricks``: the declarer's tricks with best play (for misère, the tricks
    he is forced to take: 0 means the misère is made). ``discard``: one best
    pair of cards to discard after taking the talon, or None without talon.
    """

    tricks: int
    discard: tuple[Card, Card] | None
    declarer: int
    strain: str
    leader: int = 0
    nodes: int = field(default=0, compare=False)

    def to_dict(self) -> dict:
        return {
            "tricks": self.tricks,
            "discard": [str(c) for c in self.discard] if self.discard else None,
            "declarer": self.declarer,
            "strain": self.strain,
            "leader": self.leader,
            "nodes": self.nodes,
        }


def _solution(tricks: int, discard: tuple[Card, Card] | None, declarer: int, strain: str,
              leader: int, nodes: int) -> Solution:
    """``Solution(tricks, discard, declarer, strain, leader, nodes)``, built in one step.

    The frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``: about 2 us a result, a tenth of a short solve's
    wrapper. The object made here is the same (its fields in ``__dict__``).
    """
    sol = _new_object(Solution)
    _set_attribute(sol, "__dict__", {"tricks": tricks, "discard": discard, "declarer": declarer,
                                     "strain": strain, "leader": leader, "nodes": nodes})
    return sol


_new_object = object.__new__
_set_attribute = object.__setattr__


def _check_talon(deal: Deal, talon: bool) -> bool:
    if not isinstance(talon, bool):
        raise DealError(f"talon must be True or False, got {talon!r}")
    if talon and deal.talon is None:
        raise DealError(
            f"deal {str(deal)!r} has no talon; pass talon=False (--no-talon) to play the hands as given"
        )
    return talon


def check_hints(hints: object) -> DiscardHints | None:
    """``hints`` itself, after checking that it is a DiscardHints or None."""
    if hints is not None and not isinstance(hints, DiscardHints):
        raise PrefsolveError(f"hints must be a DiscardHints or None, got {type(hints).__name__}")
    return hints


class DiscardHints:
    """Best discards remembered across solves of related deals, to try first.

    Monte Carlo samples keep the declarer's cards, and the discard that was
    best in one sample is often best in the next. Per declarer, leader and
    strain it keeps the last two best discards and the value for each 12
    cards (hand and talon), and the last four best discards for each 10-card
    hand, used when those 12 cards are new. Only the work changes, never the
    tricks: measured on the analyzer's 1,000 samples, nodes 252.7M -> 227.7M
    (-5.5% the last discard, -0.5% the second, -1.8% the value as the first
    guess, -2.3% the fall-back to the 10-card hand, most of it in misère).

    Shared by threads without a lock: a lost update only costs work.
    Deals that share no cards (random deals by the million) would only grow
    it, so it is emptied at ``limit`` keys (a few MiB).
    """

    def __init__(self, limit: int = 1 << 15) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise PrefsolveError(f"the hints' limit must be a positive whole number of keys, got {limit!r}")
        self._memo: dict[tuple, tuple] = {}
        self._limit = limit

    def lookup(self, hand: int, talon: int, context: tuple) -> tuple[tuple[int, ...], int]:
        """The discards to try first and the guessed value (-1: none)."""
        known = self._memo.get((hand | talon,) + context)
        if known is not None:
            return known
        return self._memo.get((hand, 10) + context, ((), -1))[0], -1

    def record(self, hand: int, talon: int, context: tuple, discard: int, tricks: int) -> None:
        if len(self._memo) >= self._limit:
            self._memo.clear()
        # New 12 cards start from the discards they were given to try first.
        tried = self.lookup(hand, talon, context)[0]
        for key, kept in (((hand | talon,) + context, 2), ((hand, 10) + context, 4)):
            old = self._memo.get(key, (tried, -1))[0]
            self._memo[key] = ((discard,) + tuple(m for m in old if m != discard))[:kept], tricks


def solve(deal: Deal | str, declarer: int, strain: str, leader: int = 0, talon: bool = True,
          *, solver: Solver | None = None, hints: DiscardHints | None = None) -> Solution:
    """Solve one contract exactly.

    Trump and no-trump: the declarer maximises his tricks against two
    cooperating defenders. Misère: he minimises them. With ``talon=True`` the
    declarer adds the talon and discards the best 2 cards of his 12 (the best
    of all 66 discards).

    ``hints``: a :class:`DiscardHints` shared by solves of related deals
    (Monte Carlo over the unseen cards) to save work. The tricks are the
    same; the discard named may be another one of equal value.
    """
    # Arguments already in canonical form are recognised inline and the checks
    # run only for the others: in a loop of short solves each Python call here
    # runs with cold caches, and the checks and the result's frozen-dataclass
    # __init__ cost about 8 us of a 100 us contract (docs/ENGINE.md, "Threading").
    if type(deal) is not Deal:
        deal = as_deal(deal)
    if type(declarer) is not int or not 0 <= declarer <= 2:
        declarer = check_seat(declarer, "declarer")
    if type(leader) is not int or not 0 <= leader <= 2:
        leader = check_seat(leader, "leader")
    trump = _TRUMP_OF.get(strain) if type(strain) is str else None
    if trump is None:
        strain = parse_strain(strain)
        trump = _TRUMP_OF[strain]
    if talon is not False:
        talon = _check_talon(deal, talon)
    if hints is not None:
        hints = check_hints(hints)
    core = check_solver(solver)
    h0, h1, h2 = deal.hands
    hands = [h0.mask, h1.mask, h2.mask]
    minimize = strain == "misere"
    if talon:
        assert deal.talon is not None   # _check_talon refused talon=True for a deal without one
        context = (declarer, leader, strain)
        first: tuple[int, ...] = ()
        guess = -1
        if hints is not None:
            first, guess = hints.lookup(hands[declarer], deal.talon.mask, context)
        tricks, mask = core.best_discard(hands, deal.talon.mask, declarer, trump, minimize, leader,
                                         first, guess)
        if hints is not None:
            hints.record(hands[declarer], deal.talon.mask, context, mask, tricks)
        # The core's discard mask has exactly two bits.
        # In the order hands are printed (high first within a suit), text and JSON alike.
        discard: tuple[Card, Card] | None = cast("tuple[Card, Card]", tuple(in_hand_order(cards_of_mask(mask))))
    else:
        tricks = core.value(hands, declarer, trump, minimize, leader)
        discard = None
    return _solution(tricks, discard, declarer, strain, leader, core.nodes)


@dataclass(frozen=True)
class Table:
    """Tricks of every declarer in every strain: ``tricks[declarer][strain]``."""

    deal: Deal
    leader: int
    talon: bool
    tricks: tuple[dict, dict, dict]
    discards: tuple[dict, dict, dict]
    nodes: int = field(default=0, compare=False)  # search nodes of all 18 solves

    def to_dict(self) -> dict:
        return {
            "deal": str(self.deal),
            "leader": self.leader,
            "talon": self.talon,
            "tricks": {str(d): dict(self.tricks[d]) for d in range(3)},
            "discards": {
                str(d): {s: ([str(c) for c in v] if v else None) for s, v in self.discards[d].items()}
                for d in range(3)
            },
        }

    def format(self) -> str:
        """The table as aligned text with suit symbols, one row per declarer."""
        width = 13 if self.talon else 7
        head = "Declarer " + "".join(f"{STRAIN_SYMBOLS[s]:<{width}}" for s in STRAINS)
        rows = [head.rstrip()]
        for d in range(3):
            cells = []
            for s in STRAINS:
                cell = str(self.tricks[d][s])
                if self.discards[d][s]:
                    cell += " " + "".join(c.symbol for c in self.discards[d][s])
                cells.append(f"{cell:<{width}}")
            rows.append(f"{d:<9}" + "".join(cells).rstrip())
        lead = f"seat {self.leader} leads trick 1"
        if self.talon:
            rows.append(f"({lead}; tricks, then the best discard; misère: tricks the declarer is "
                        f"forced to take)")
        else:
            rows.append(f"({lead}; misère: tricks the declarer is forced to take)")
        return "\n".join(rows)


def table(deal: Deal | str, leader: int = 0, talon: bool = True,
          *, solver: Solver | None = None) -> Table:
    """Solve all six strains for declarers 0, 1 and 2."""
    deal = as_deal(deal)
    leader = check_seat(leader, "leader")
    talon = _check_talon(deal, talon)
    core = check_solver(solver)
    tricks: list[dict] = []
    discards: list[dict] = []
    nodes = 0
    for declarer in range(3):
        row_t, row_d = {}, {}
        for strain in STRAINS:
            sol = solve(deal, declarer, strain, leader, talon, solver=core)
            row_t[strain] = sol.tricks
            row_d[strain] = sol.discard
            nodes += sol.nodes
        tricks.append(row_t)
        discards.append(row_d)
    return Table(deal, leader, talon, (tricks[0], tricks[1], tricks[2]),
                 (discards[0], discards[1], discards[2]), nodes)


__all__ = ["STRAINS", "Solution", "Table", "DiscardHints", "solve", "table", "parse_strain",
           "default_solver", "ALL_CARDS", "SUIT_SYMBOLS"]
