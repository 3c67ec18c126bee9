"""All-pass (распасы): the fewest tricks each player can be sure of.

All-pass is played without trump and everyone tries to take as few tricks as
possible. A three-way game has no single exact value, so prefsolve answers the
guaranteed question (RULES.md §4.4): for a seat P, the fewest tricks P can be
sure of taking when the two others play to make P take as many as possible,
which is the misère search with P in the declarer's place and no talon pickup.

The talon (a switch of the rules profile) takes part by ``talon_mode``: with
``lead`` (the default for a deal with a talon: Sochi, Leningrad, classic) the
two talon cards are turned one at a time, in the order ``turn`` (default: ♠ ♣
♦ ♥, higher rank first, as the deal text writes the talon), and each starts
one of the first two tricks; seats 0, 1, 2 play to it and the highest card of
its suit played by a player wins, and the winner of trick 2 leads trick 3.
With ``ignore`` (Rostov) first hand leads trick 1 and the talon plays no part.

>>> deal = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
>>> t = allpass_table(deal)
>>> t.tricks == tuple(solve_allpass(deal, p).tricks for p in range(3))
True
>>> [line.tricks for line in t.lines] == list(t.tricks)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Cards
from .checks import check_seat
from .deal import Deal
from .engine import Solver, check_solver
from .i18n import _, get_language, ngettext
from .play import Line, Position
from .solver import as_deal
from .strains import ALLPASS


@dataclass(frozen=True)
class AllpassSolution:
    """The fewest tricks ``seat`` can be sure of taking in all-pass.

    ``talon_mode``: ``lead`` or ``ignore``; ``turn``: the talon cards in the
    order turned (empty when the talon plays no part); ``nodes``: the
    search's nodes (not compared).
    """

    seat: int
    talon_mode: str
    turn: Cards
    tricks: int
    nodes: int = field(default=0, compare=False)

    def to_dict(self) -> dict:
        return {"seat": self.seat, "talon_mode": self.talon_mode, "turn": self.turn.to_list(),
                "tricks": self.tricks, "nodes": self.nodes}


def solve_allpass(deal: Deal | str, seat: int, *, talon_mode: str | None = None, turn: object = None,
                  solver: Solver | None = None) -> AllpassSolution:
    """The fewest tricks ``seat`` can be sure of taking in all-pass.

    ``turn``: the talon cards, the first turned first (``"HK SQ"`` or a
    sequence of cards); only with ``talon_mode="lead"``.

    >>> solve_allpass("K7.-.-.- AQ.-.-.- J.A.-.-", 0).tricks
    1
    """
    seat = check_seat(seat, "seat")
    core = check_solver(solver)
    pos = Position(as_deal(deal), strain=ALLPASS, seat=seat, talon_mode=talon_mode, turn=turn, solver=core)
    tricks = pos.value()
    return AllpassSolution(seat, pos.talon_mode, pos.turn, tricks, core.nodes)


@dataclass(frozen=True)
class AllpassTable:
    """The guarantees of seats 0, 1, 2 and one optimal line for each.

    ``tricks[seat]``: the fewest tricks the seat can be sure of; ``lines[seat]``:
    a play where the seat holds himself to that number and the others do
    their worst to him; ``turn``: the talon cards in the order turned (empty
    when the talon plays no part); ``nodes``: the nodes of the three
    guarantees' searches (not compared).
    """

    deal: Deal
    talon_mode: str
    turn: Cards
    tricks: tuple[int, int, int]
    lines: tuple[Line, Line, Line]
    nodes: int = field(default=0, compare=False)

    def to_dict(self) -> dict:
        return {
            "deal": str(self.deal),
            "talon_mode": self.talon_mode,
            "turn": self.turn.to_list(),
            "tricks": list(self.tricks),
            "lines": [line.to_dict() for line in self.lines],
            "nodes": self.nodes,
        }

    def format(self) -> str:
        """The guarantees as an aligned table, then each line trick by trick (in the active language)."""
        lang = get_language()
        cards = [c.format(lang) for c in self.turn]
        if not cards:
            head = _("All-pass, the talon plays no part; seat 0 leads")
        elif len(cards) == 1:
            head = _("All-pass, the talon leads trick 1: {card} turned", card=cards[0])
        else:
            head = _("All-pass, the talon leads tricks 1-2: {first} then {second} turned", first=cards[0],
                     second=cards[1])
        seat = _("Seat")
        width = max(6, len(seat) + 2)
        rows = [head, "", f"{seat:<{width}}" + _("Tricks (the fewest the seat can be sure of)")]
        rows += [f"{p:<{width}}{n}" for p, n in enumerate(self.tricks)]
        for p, line in enumerate(self.lines):
            rows += ["", ngettext("Seat {seat} holds himself to {n} trick:", "Seat {seat} holds himself to {n} tricks:",
                                  self.tricks[p], seat=p)]
            rows += ["  " + row for row in line.format().splitlines()]
        return "\n".join(rows)


def allpass_table(deal: Deal | str, *, talon_mode: str | None = None, turn: object = None,
                  solver: Solver | None = None) -> AllpassTable:
    """Guarantees and one optimal line for all three players."""
    deal = as_deal(deal)
    core = check_solver(solver)
    positions = [Position(deal, strain=ALLPASS, seat=p, talon_mode=talon_mode, turn=turn, solver=core)
                 for p in range(3)]
    tricks, nodes = [], 0
    for pos in positions:
        tricks.append(pos.value())
        nodes += core.nodes
    lines = tuple(pos.best_line() for pos in positions)
    return AllpassTable(deal, positions[0].talon_mode, positions[0].turn,
                        (tricks[0], tricks[1], tricks[2]), lines, nodes)  # type: ignore[arg-type]


__all__ = ["AllpassSolution", "AllpassTable", "solve_allpass", "allpass_table"]
