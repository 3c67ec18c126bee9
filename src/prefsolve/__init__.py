"""prefsolve: exact double-dummy solver and hand analyzer for Preferans.

>>> import prefsolve
>>> deal = prefsolve.Deal.parse("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> sol = prefsolve.solve(deal, 0, strain="D")
>>> sol.tricks in range(11), len(sol.discard)
(True, 2)

The public names are loaded from their modules on first use (PEP 562), so
that ``import prefsolve`` is quick and the command line's entry point
(``_entry``) is running before the rest loads.
"""

import importlib as _importlib
import typing as _typing

from ._version import __version__

#: The module of each public name.
_HOME = {
    "AllpassSolution": "allpass", "AllpassTable": "allpass", "allpass_table": "allpass",
    "solve_allpass": "allpass",
    "analyze": "analysis", "analyze_talon": "analysis", "analyze_whist": "analysis",
    "analyze_allpass": "analysis", "advise": "analysis", "Sampling": "analysis", "Recommendation": "analysis",
    "holdings": "analysis.holdings",
    "check_auction": "auction",
    "solve_many": "batch", "table_many": "batch", "iter_tables": "batch",
    "Card": "cards", "Cards": "cards", "Hand": "cards",
    "Contract": "contract",
    "Deal": "deal",
    "CardValues": "play", "Line": "play", "Mistake": "play", "Position": "play", "Trick": "play",
    "best_line": "play", "card_values": "play", "mistakes": "play",
    "Rules": "rules",
    "DiscardHints": "solver", "Solution": "solver", "Table": "solver", "solve": "solver",
    "table": "solver",
    "STRAINS": "strains", "TALON_MODES": "strains",
}

if _typing.TYPE_CHECKING:   # what type checkers and IDEs see: the same names, imported at once
    from .allpass import AllpassSolution, AllpassTable, allpass_table, solve_allpass
    from .analysis import (
        Recommendation,
        Sampling,
        advise,
        analyze,
        analyze_allpass,
        analyze_talon,
        analyze_whist,
    )
    from .analysis.holdings import holdings
    from .auction import check_auction
    from .batch import iter_tables, solve_many, table_many
    from .cards import Card, Cards, Hand
    from .contract import Contract
    from .deal import Deal
    from .play import CardValues, Line, Mistake, Position, Trick, best_line, card_values, mistakes
    from .rules import Rules
    from .solver import DiscardHints, Solution, Table, solve, table
    from .strains import STRAINS, TALON_MODES


if not _typing.TYPE_CHECKING:   # type checkers see the imports above, and no catch-all
    def __getattr__(name: str) -> object:
        home = _HOME.get(name)
        if home is not None:
            value = getattr(_importlib.import_module(f".{home}", __name__), name)
            globals()[name] = value     # loaded once: later lookups do not come here
            return value
        try:    # a submodule, as "import prefsolve" always gave: prefsolve.errors, prefsolve.scoring
            return _importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
        raise AttributeError(f"module 'prefsolve' has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(_HOME))


__all__ = [
    "Card", "Cards", "Hand", "Deal", "STRAINS", "TALON_MODES", "Solution", "Table", "solve", "table",
    "solve_many", "table_many", "iter_tables", "DiscardHints", "Position", "Trick", "Line", "Mistake",
    "CardValues", "card_values", "best_line", "mistakes",
    "AllpassSolution", "AllpassTable", "solve_allpass", "allpass_table",
    "analyze", "analyze_talon", "analyze_whist", "analyze_allpass", "advise", "holdings", "Sampling", "Recommendation",
    "Contract", "Rules", "check_auction", "__version__",
]
