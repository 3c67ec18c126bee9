"""Exact solving of Preferans layouts: one contract, or the table of all contracts.

The search itself lives in the native core, reached through
:mod:`prefsolve.engine`; this module checks input, turns cards into the
core's plain integers and wraps the answers in immutable result objects.

>>> d = Deal.parse("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> sol = solve(d, 2, strain="NT")
>>> print(sol.tricks, sol.discard)
4 ♠8 ♣8
>>> table(d).tricks[2]["NT"] == sol.tricks
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._frozen import FrozenMap
from .cards import Cards, cards_in_hand_order
from .checks import check_seat
from .deal import Deal
from .engine import SEARCHES, Solver, check_solver
from .errors import DealError, PrefsolveError
from .i18n import _, get_language
from .strains import ALLPASS, IGNORE, MISERE, STRAINS, TAKE, check_talon_mode, parse_strain, strain_label, trump_of


def as_deal(deal: Deal | str) -> Deal:
    """A :class:`Deal`, read from text if need be."""
    if isinstance(deal, Deal):
        return deal
    if isinstance(deal, str):
        return Deal.parse(deal)
    raise DealError(_("expected a Deal or deal text, got {kind}", kind=type(deal).__name__))


@dataclass(frozen=True)
class Solution:
    """The exact result of one contract.

    ``tricks``: the declarer's tricks with best play (in misère, the tricks
    he is forced to take: 0 means the misère is made). ``talon_mode``:
    ``take`` when the declarer took the talon, ``ignore`` when the hands
    were played as given. ``discard``: one best pair of cards to put away
    after taking the talon (in hand order), None when he took none.
    ``nodes``: the search's nodes (not compared).
    """

    strain: str
    declarer: int
    leader: int
    talon_mode: str
    tricks: int
    discard: Cards | None
    nodes: int = field(default=0, compare=False)

    def to_dict(self) -> dict:
        return {
            "strain": self.strain,
            "declarer": self.declarer,
            "leader": self.leader,
            "talon_mode": self.talon_mode,
            "tricks": self.tricks,
            "discard": self.discard.to_list() if self.discard is not None else None,
            "nodes": self.nodes,
        }


def _solution(strain: str, declarer: int, leader: int, talon_mode: str, tricks: int,
              discard: Cards | None, nodes: int) -> Solution:
    """``Solution(...)``, built in one step.

    The frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``: about 2 us a result, a tenth of a short solve's
    wrapper. The object made here is the same (its fields in ``__dict__``).
    """
    sol = _new_object(Solution)
    _set_attribute(sol, "__dict__", {"strain": strain, "declarer": declarer, "leader": leader,
                                     "talon_mode": talon_mode, "tricks": tricks, "discard": discard,
                                     "nodes": nodes})
    return sol


_new_object = object.__new__
_set_attribute = object.__setattr__


def game_talon_mode(deal: Deal, talon_mode: object, strain: str = "S") -> str:
    """The talon mode of a game or misère on ``deal``: ``take`` or ``ignore``
    (None: ``take`` when the deal has a talon). Asking to take a talon the
    deal does not have is an error."""
    if strain == ALLPASS:
        raise PrefsolveError(_("all-pass has no declarer: solve it with solve_allpass"))
    mode = check_talon_mode(talon_mode, strain, deal.talon is not None)
    if mode == TAKE and deal.talon is None:
        raise DealError(_("deal {deal} has no talon to take; talon_mode='ignore' (--talon-mode ignore) plays the "
                          "hands as given", deal=repr(str(deal))))
    return mode


def check_hints(hints: object) -> DiscardHints | None:
    """``hints`` itself, after checking that it is a DiscardHints or None."""
    if hints is not None and not isinstance(hints, DiscardHints):
        raise PrefsolveError(_("hints must be a DiscardHints or None, got {kind}", kind=type(hints).__name__))
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
            raise PrefsolveError(_("the hints' limit must be a positive whole number of keys, got {value}",
                                   value=repr(limit)))
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


def solve(deal: Deal | str, declarer: int, *, strain: str, leader: int = 0, talon_mode: str | None = None,
          solver: Solver | None = None, hints: DiscardHints | None = None) -> Solution:
    """Solve one contract exactly.

    Trump and no-trump: the declarer maximises his tricks against two
    cooperating defenders. Misère: he minimises them. With ``talon_mode``
    ``take`` (the default for a deal with a talon) the declarer adds the
    talon to his hand and discards the best 2 cards of his 12 (the best of
    all 66 discards); with ``ignore`` the hands are played as given.

    ``hints``: a :class:`DiscardHints` shared by solves of related deals
    (Monte Carlo over the unseen cards) to save work. The tricks are the
    same; the discard named may be another one of equal value.

    >>> solve("AK.-.-.- QJ.-.-.- 7.7.-.-", 0, strain="NT").tricks
    2
    """
    # Arguments already in canonical form are recognised inline and the checks
    # run only for the others: in a loop of short solves each Python call here
    # runs with cold caches, and the checks and the result's frozen-dataclass
    # __init__ would cost about 8 us of a 100 us contract (docs/ENGINE.md, "Threading").
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
    talon = deal.talon
    if talon_mode is None:
        talon_mode = IGNORE if talon is None else TAKE
    elif talon_mode is not IGNORE:
        talon_mode = game_talon_mode(deal, talon_mode, strain)
    if hints is not None:
        hints = check_hints(hints)
    core = check_solver(solver)
    h0, h1, h2 = deal.hands
    hands = [h0.mask, h1.mask, h2.mask]
    minimize = strain == MISERE
    SEARCHES.count += 1
    if talon_mode == TAKE:
        assert talon is not None   # game_talon_mode refused a take without a talon
        context = (declarer, leader, strain)
        first: tuple[int, ...] = ()
        guess = -1
        if hints is not None:
            first, guess = hints.lookup(hands[declarer], talon.mask, context)
        tricks, mask = core.best_discard(hands, talon.mask, declarer, trump, minimize, leader,
                                         first, guess)
        if hints is not None:
            hints.record(hands[declarer], talon.mask, context, mask, tricks)
        # The core's discard mask has exactly two bits; named in the order hands
        # are printed (high first within a suit), in text and JSON alike.
        discard: Cards | None = cards_in_hand_order(mask)
    else:
        tricks = core.value(hands, declarer, trump, minimize, leader)
        discard = None
    SEARCHES.nodes += core.nodes
    return _solution(strain, declarer, leader, talon_mode, tricks, discard, core.nodes)


_TRUMP_OF = {s: trump_of(s) for s in STRAINS}   # canonical strain: the core's trump code


@dataclass(frozen=True)
class Table:
    """Tricks of every declarer in every strain: ``tricks[declarer][strain]``,
    and the best discard that goes with each: ``discards[declarer][strain]``
    (None when the talon was not taken). Immutable and hashable."""

    deal: Deal
    leader: int
    talon_mode: str
    tricks: tuple[FrozenMap[str, int], FrozenMap[str, int], FrozenMap[str, int]]
    discards: tuple[FrozenMap[str, Cards | None], FrozenMap[str, Cards | None], FrozenMap[str, Cards | None]]
    nodes: int = field(default=0, compare=False)  # search nodes of all 18 solves

    def to_dict(self) -> dict:
        return {
            "deal": str(self.deal),
            "leader": self.leader,
            "talon_mode": self.talon_mode,
            "tricks": [dict(row) for row in self.tricks],
            "discards": [{s: (v.to_list() if v is not None else None) for s, v in row.items()}
                         for row in self.discards],
            "nodes": self.nodes,
        }

    def format(self, width: int | None = None) -> str:
        """The table as aligned text with suit symbols, one row per declarer.

        ``width``: the columns of the terminal. When the six strains do not
        fit in it side by side, the table is printed in blocks of as many
        strains as fit, one under the other (at least one a block).
        """
        took = self.talon_mode == TAKE
        lang = get_language()
        declarer = _("Declarer")
        seat_width = max(9, len(declarer) + 1)   # the column of the declarers' seats
        cell_width = 13 if took else 7
        per_block = len(STRAINS) if width is None else max(1, min(len(STRAINS), (width - seat_width + 2) // cell_width))
        rows = []
        for first in range(0, len(STRAINS), per_block):
            strains = STRAINS[first:first + per_block]
            head = f"{declarer:<{seat_width}}" + "".join(f"{strain_label(s, lang):<{cell_width}}" for s in strains)
            rows += ([""] if first else []) + [head.rstrip()]
            for d in range(3):
                cells = []
                for s in strains:
                    cell = str(self.tricks[d][s])
                    discard = self.discards[d][s]
                    if discard:
                        cell += " " + "".join(c.format(lang) for c in discard)
                    cells.append(f"{cell:<{cell_width}}")
                rows.append(f"{d:<{seat_width}}" + "".join(cells).rstrip())
        if took:
            rows.append(_("(seat {seat} leads trick 1; tricks, then the best discard; misère: tricks the declarer is "
                          "forced to take)", seat=self.leader))
        else:
            rows.append(_("(seat {seat} leads trick 1; misère: tricks the declarer is forced to take)",
                          seat=self.leader))
        return "\n".join(rows)


def table(deal: Deal | str, *, leader: int = 0, talon_mode: str | None = None,
          solver: Solver | None = None) -> Table:
    """Solve all six strains for declarers 0, 1 and 2.

    >>> t = table("AK.-.-.- QJ.-.-.- 7.7.-.-")
    >>> t.tricks[0]["NT"], t.tricks[1]["misere"], t.talon_mode
    (2, 0, 'ignore')
    """
    deal = as_deal(deal)
    leader = check_seat(leader, "leader")
    talon_mode = game_talon_mode(deal, talon_mode)
    core = check_solver(solver)
    tricks: list[FrozenMap[str, int]] = []
    discards: list[FrozenMap[str, Cards | None]] = []
    nodes = 0
    for declarer in range(3):
        row_t, row_d = {}, {}
        for strain in STRAINS:
            sol = solve(deal, declarer, strain=strain, leader=leader, talon_mode=talon_mode, solver=core)
            row_t[strain] = sol.tricks
            row_d[strain] = sol.discard
            nodes += sol.nodes
        tricks.append(FrozenMap(row_t))
        discards.append(FrozenMap(row_d))
    return Table(deal, leader, talon_mode, (tricks[0], tricks[1], tricks[2]),
                 (discards[0], discards[1], discards[2]), nodes)


__all__ = ["Solution", "Table", "DiscardHints", "solve", "table", "as_deal", "game_talon_mode"]
