"""Hand analysis by sampling: what to bid, what to discard and declare, whether to whist.

A player knows his own cards; the unseen ones are dealt at random, many
times (:mod:`~prefsolve.analysis.sampling`). Every sampled layout is solved
exactly, and every candidate action — each contract of the ladder
(:mod:`~prefsolve.analysis.bid`), each discard (:mod:`~prefsolve.analysis.talon`),
whist or pass (:mod:`~prefsolve.analysis.whist`), all-pass
(:mod:`~prefsolve.analysis.allpass`) — is scored on **the same** sample set,
the common-random-numbers design of redeal, so differences between
candidates are sharp. Scores are one deal's net whists for the seat under a
rules profile, with a stated defence model (:mod:`~prefsolve.analysis.defence`);
figures are means with their standard errors (:mod:`~prefsolve.analysis.stats`).
Every analysis returns an immutable result with one
:class:`~prefsolve.analysis.recommendation.Recommendation`.
:mod:`~prefsolve.analysis.holdings` measures the classic book's table of suit
holdings (RULES.md §8); its function is ``prefsolve.holdings`` (here the name is the module's).

The modules are loaded on first use, so that a bid analysis loads no whist code.

>>> from prefsolve.analysis import Sampling, analyze
>>> a = analyze("AKQJ987.A.A.A", 0, sampling=Sampling(samples=4, seed=1), jobs=1)
>>> a.recommendation.to_dict()["max_bid"]
'10NT'
"""

import importlib as _importlib
import typing as _typing

#: The module of each public name.
_HOME = {
    "allowed_contracts": "_common", "leader_for": "_common",
    "Sampling": "sampling", "Sampler": "sampling", "ConstraintError": "sampling",
    "NarrowConditionsError": "sampling",
    "advise": "advice", "Advice": "advice", "CardStats": "advice",
    "auction_conditions": "auction_model", "HandCondition": "auction_model",
    "sample_deals": "sampling",
    "mean_se": "stats", "binomial_se": "stats", "ContractStats": "stats",
    "Recommendation": "recommendation",
    "DEFENCES": "defence",
    "analyze": "bid", "Analysis": "bid",
    "analyze_whist": "whist", "WhistAnalysis": "whist", "OptionStats": "whist", "PARTNER_CALLS": "whist",
    "analyze_talon": "talon", "TalonAnalysis": "talon", "DiscardStats": "talon",
    "equivalent_discards": "talon",
    "analyze_allpass": "allpass", "AllpassAnalysis": "allpass",
    "HoldingsTable": "holdings", "HoldingStats": "holdings", "SEED_HOLDINGS": "holdings",
}

if _typing.TYPE_CHECKING:   # what type checkers and IDEs see: the same names, imported at once
    from ._common import allowed_contracts, leader_for
    from .advice import Advice, CardStats, advise
    from .allpass import AllpassAnalysis, analyze_allpass
    from .auction_model import HandCondition, auction_conditions
    from .bid import Analysis, analyze
    from .defence import DEFENCES
    from .holdings import SEED_HOLDINGS, HoldingsTable, HoldingStats
    from .recommendation import Recommendation
    from .sampling import ConstraintError, NarrowConditionsError, Sampler, Sampling, sample_deals
    from .stats import ContractStats, binomial_se, mean_se
    from .talon import DiscardStats, TalonAnalysis, analyze_talon, equivalent_discards
    from .whist import PARTNER_CALLS, OptionStats, WhistAnalysis, analyze_whist
else:
    def __getattr__(name: str) -> object:
        home = _HOME.get(name)
        if home is not None:
            value = getattr(_importlib.import_module(f".{home}", __name__), name)
            globals()[name] = value     # loaded once: later lookups do not come here
            return value
        try:    # a module of the package: prefsolve.analysis.holdings, .sampling
            return _importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
        raise AttributeError(f"module 'prefsolve.analysis' has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(_HOME))


__all__ = [
    "Advice", "CardStats", "advise",
    "AllpassAnalysis", "Analysis", "ConstraintError", "ContractStats", "DEFENCES", "DiscardStats",
    "HandCondition", "HoldingStats", "HoldingsTable", "NarrowConditionsError", "OptionStats", "PARTNER_CALLS",
    "Recommendation", "SEED_HOLDINGS", "Sampler", "Sampling", "TalonAnalysis", "WhistAnalysis",
    "allowed_contracts", "analyze", "analyze_allpass", "analyze_talon", "analyze_whist", "auction_conditions",
    "binomial_se", "equivalent_discards", "leader_for", "mean_se", "sample_deals",
]
