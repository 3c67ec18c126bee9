"""prefsolve: exact double-dummy solver and hand analyzer for Preferans.

>>> import prefsolve
>>> deal = prefsolve.Deal.parse("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> prefsolve.solve(deal, declarer=0, strain="D", talon=False).tricks in range(11)
True
"""

from .allpass import allpass_table, solve_allpass
from .analyzer import analyze, analyze_talon, analyze_whist, holdings
from .auction import check_auction
from .batch import solve_many, table_many
from .cards import Card, Hand
from .contract import Contract
from .deal import Deal
from .play import Position, best_line, card_values, mistakes
from .rules import Rules
from ._version import __version__
from .solver import STRAINS, DiscardHints, Solution, Table, solve, table


__all__ = [
    "Card", "Hand", "Deal", "STRAINS", "Solution", "Table", "solve", "table",
    "solve_many", "table_many", "DiscardHints", "Position", "card_values", "best_line",
    "mistakes",
    "solve_allpass", "allpass_table", "analyze", "analyze_talon", "analyze_whist", "holdings",
    "Contract", "Rules", "check_auction", "__version__",
]
