"""Defence models and the scores of one deal: who whists against the declarer.

The bid and talon analyses score a contract by the declarer's net whists for
his tricks in each sample, under a model of the defenders' calls. Every call
sequence a model may choose is one that :func:`prefsolve.auction.check_whist_calls`
accepts, and each score is :func:`prefsolve.scoring.contract_balance`'s.

>>> defence_calls(Contract.parse("7H"), "one", Rules())
(('whist', 'pass'), True)
>>> [round(x) for x in balance_row(Contract.parse("6S"), ("pass", "pass"), Rules(), False, 0)][6]
13
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import TYPE_CHECKING

from ..auction import HALF, PASS, WHIST, check_whist_calls
from ..contract import Contract
from ..errors import PrefsolveError
from ..i18n import N_, _
from ..rules import Rules
from ..scoring import contract_balance
from ._common import as_contract

# numpy is imported where it is used (see sampling.py).
if TYPE_CHECKING:
    import numpy as np

#: Defence models of the bid evaluation: who whists against the declarer.
#: ``best`` (the default) lets the defence call, in each layout, what is best
#: for it as a side; the fixed models whist or pass whatever the cards, so
#: they make a sure 10 look worse than a 9 that a lone whister cannot defeat.
DEFENCES = ("best", "pass", "one", "both")
# What the rules impose stays imposed under every model (defence_calls): a misère
# and a 10 under ten_whist="checked" are always played, both defenders whist
# against 6♠ under Stalingrad; two whisters split the defence's tricks evenly.
_IMPOSED = N_("misère, a 10 the rules never let pass (ten_whist='checked') and 6♠ under Stalingrad "
              "are played as the rules require")
_DEFENCE_SAID = {
    "best": N_("the defenders call what is best for them as a side in each layout (pass, whist, "
               "half-whist where the rules allow it; open or closed), seeing the cards as "
               "double-dummy play does; two whisters split the defence's tricks evenly (the odd "
               "one to the first defender)"),
    "pass": N_("both defenders pass where the rules allow it (no play: the contract counts as made)"),
    "one": N_("one defender whists and plays open, the other passes"),
    "both": N_("both defenders whist and play closed (the odd defence trick to the first defender)"),
}


def defence_text(defence: str, translated: bool = False) -> str:
    """A defence model in words: in English (the JSON's ``model``), or
    ``translated`` into the active language (the text output)."""
    say = _ if translated else str
    text = say(_DEFENCE_SAID[defence])
    return text if defence == "best" else f"{text}; {say(_IMPOSED)}"


#: Each defence model in words, in English.
DEFENCE_TEXT = {d: defence_text(d) for d in DEFENCES}


def check_defence(defence: str) -> str:
    """The defence model's name, checked."""
    if defence not in DEFENCES:
        raise PrefsolveError(_("unknown defence model {defence} (expected one of: {defences})", defence=repr(defence),
                               defences=", ".join(DEFENCES)))
    return defence


@lru_cache(maxsize=4096)
def balance_row(contract: Contract, calls: tuple[str, ...], rules: Rules, open_play: bool,
                who: int) -> tuple[float, ...]:
    """Net whists of position ``who`` (0 declarer, 1/2 defenders) for 0..10 declarer tricks."""
    return tuple(float(contract_balance(contract, t, calls, rules, open_play)[who]) for t in range(11))


def defence_calls(contract: Contract, defence: str, rules: Rules | str) -> tuple[tuple[str, ...], bool]:
    """Whist calls (speaking order) and open play of a fixed defence model.

    Stalingrad forces both defenders to whist against 6♠ (RULES.md §3.5).
    The ``best`` model has no fixed calls (see :func:`defence_options`).

    >>> defence_calls(Contract.parse("7H"), "one", Rules())
    (('whist', 'pass'), True)
    """
    if check_defence(defence) == "best":
        raise PrefsolveError(_("the defence model 'best' has no fixed calls: it chooses among defence_options() in "
                               "each layout"))
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
    the defenders may choose against ``contract`` (RULES.md §3.2–3.5, as
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
    rows = [balance_row(contract, calls, rules, open_play, 0)
            for calls, open_play in _defence_options(contract, rules)]
    return tuple(min(col) for col in zip(*rows))


def declarer_scores(contract: Contract, tricks: np.ndarray, defence: str, rules: Rules | str) -> np.ndarray:
    """Per-sample net whists of the declarer for his tricks in each sample."""
    import numpy as np  # on use: see the note at the module's imports
    rules = Rules.of(rules)
    if check_defence(defence) == "best":
        row = np.asarray(_best_defence_row(contract, rules))
    else:
        calls, open_play = defence_calls(contract, defence, rules)
        row = np.asarray(balance_row(contract, calls, rules, open_play, 0))
    return row[tricks.astype(np.int64)]

