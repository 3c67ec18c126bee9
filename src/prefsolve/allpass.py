"""All-pass (распасы): the fewest tricks each player can be sure of.

All-pass is played without trump and everyone tries to take as few tricks as
possible. A three-way game has no single exact value, so prefsolve answers the
guaranteed question (RULES.md §4.4): for a player P, the fewest tricks P can
be sure of taking when the two others play to make P take as many as
possible, which is the misère search with P in the declarer's seat and no
talon pickup.

The talon (a switch of the rules profile): with ``talon="lead"`` (Sochi,
Leningrad, classic) the two talon cards are turned one at a time, in the order
``turn`` (default: ♠ ♣ ♦ ♥, higher rank first, as the deal text writes the
talon), and each starts one of the first two tricks; seats 0, 1, 2 play to it
and the highest card of its suit played by a player wins, and the winner of
trick 2 leads trick 3. With ``talon="ignore"`` (Rostov) first hand leads
trick 1 and the talon plays no part.

>>> deal = "A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"
>>> t = allpass_table(deal)
>>> t.tricks == tuple(solve_allpass(deal, p).tricks for p in range(3))
True
>>> [line.tricks for line in t.lines] == list(t.tricks)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .deal import Deal, check_seat
from .errors import DealError, RulesError
from .play import ALLPASS, TALON_MODES, Line, Position
from .engine import Solver
from .solver import Solution, as_deal, check_solver, default_solver


def _position(deal: Deal, player: int, talon: str, turn: object,
              solver: Solver | None) -> Position:
    if talon not in TALON_MODES:
        raise RulesError(f"unknown all-pass talon mode {talon!r}: expected 'lead' or 'ignore'")
    if talon == "lead" and deal.talon is None and turn is None:
        raise DealError(
            f"all-pass with talon='lead' needs a deal with a talon (10-card hands); "
            f"deal {str(deal)!r} has none (talon='ignore' / --talon ignore plays the hands alone, "
            f"turn= / --turn gives the turned cards of a study position)"
        )
    return Position(deal, player, ALLPASS, talon=talon, turn=turn, solver=solver)


def solve_allpass(deal: Deal | str, player: int, talon: str = "lead", turn: object = None,
                  *, solver: Solver | None = None) -> Solution:
    """The fewest tricks ``player`` can be sure of taking in all-pass.

    ``turn``: the two talon cards, the first turned first (``"HK SQ"`` or a
    sequence of cards); only with ``talon="lead"``. The result's ``tricks`` is
    the guarantee, ``strain`` is ``"allpass"`` and ``discard`` is None.

    >>> solve_allpass("K7.-.-.- AQ.-.-.- J.A.-.-", 0, talon="ignore").tricks
    1
    """
    deal = as_deal(deal)
    player = check_seat(player, "player")
    core = check_solver(solver)
    tricks = _position(deal, player, talon, turn, core).value()
    return Solution(tricks, None, player, ALLPASS, 0, core.nodes)


@dataclass(frozen=True)
class AllpassTable:
    """The guarantees of seats 0, 1, 2 and one optimal line for each.

    ``tricks[p]``: the fewest tricks seat p can be sure of; ``lines[p]``: a
    play where p holds himself to that number and the others do their worst
    to him; ``turn``: the talon cards in the order turned (empty when the
    talon plays no part).
    """

    deal: Deal
    talon: str
    turn: tuple[Card, ...]
    tricks: tuple[int, int, int]
    lines: tuple[Line, Line, Line]

    def to_dict(self) -> dict:
        return {
            "deal": str(self.deal),
            "talon": self.talon,
            "turn": [str(c) for c in self.turn],
            "tricks": {str(p): n for p, n in enumerate(self.tricks)},
            "lines": {str(p): line.to_dict() for p, line in enumerate(self.lines)},
        }

    def format(self) -> str:
        """The guarantees as an aligned table, then each line trick by trick."""
        if self.turn:
            which = "trick 1" if len(self.turn) == 1 else f"tricks 1-{len(self.turn)}"
            head = (f"All-pass, the talon leads {which}: "
                    f"{' then '.join(c.symbol for c in self.turn)} turned")
        else:
            head = "All-pass, the talon plays no part; seat 0 leads"
        rows = [head, "", "Seat  Tricks (the fewest the seat can be sure of)"]
        rows += [f"{p:<6}{n}" for p, n in enumerate(self.tricks)]
        for p, line in enumerate(self.lines):
            s = "" if self.tricks[p] == 1 else "s"
            rows += ["", f"Seat {p} holds himself to {self.tricks[p]} trick{s}:"]
            rows += ["  " + row for row in line.format().splitlines()]
        return "\n".join(rows)


def allpass_table(deal: Deal | str, talon: str = "lead", turn: object = None,
                  *, solver: Solver | None = None) -> AllpassTable:
    """Guarantees and one optimal line for all three players."""
    deal = as_deal(deal)
    core = check_solver(solver)
    positions = [_position(deal, p, talon, turn, core) for p in range(3)]
    lines = tuple(pos.best_line() for pos in positions)
    return AllpassTable(deal, talon, positions[0].turn,
                        tuple(line.tricks for line in lines),  # type: ignore[arg-type]
                        lines)  # type: ignore[arg-type]


__all__ = ["solve_allpass", "allpass_table", "AllpassTable"]
