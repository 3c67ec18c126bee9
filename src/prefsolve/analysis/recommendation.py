"""The analyzer's advice: one object, the same in every analysis.

>>> r = Recommendation("9S", Contract.parse("9S"), max_bid=Contract.parse("9NT"), expected=12.5,
...                    expected_se=0.75)
>>> r.to_dict()
{'call': '9S', 'contract': '9S', 'discard': None, 'max_bid': '9NT', 'expected': 12.5, 'expected_se': 0.75, 'card': None}
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, Cards
from ..contract import Contract


@dataclass(frozen=True)
class Recommendation:
    """What the analyzer advises; a field that does not apply to an analysis is ``None``."""

    call: str
    """What to say: a bid (``7H``, ``misere``) or ``pass`` in the bid and
    talon analyses; a whist call (``whist``, ``half-whist``, ``pass``) in the
    whist analysis; ``pass`` in all-pass; the card to play (``SA``) in the play advice."""

    contract: Contract | None = None
    """The contract the advice is about: the one to declare (the least bad one
    when the call is ``pass``), or the one the defender faces; ``None`` in all-pass."""

    discard: Cards | None = None
    """The two cards to put away, high card first (the talon analysis only)."""

    max_bid: Contract | None = None
    """The highest bid still worth reaching; ``None`` when no contract is
    expected to gain (the bid analysis only)."""

    expected: float | None = None
    """The advice's expected score in whists for the seat."""

    expected_se: float | None = None
    """The standard error of ``expected``."""

    card: Card | None = None
    """The card to play now (the play advice only, whose ``call`` is that card too)."""

    def to_dict(self) -> dict:
        """The JSON object: all seven keys, ``null`` where a field does not apply."""
        return {"call": self.call,
                "contract": None if self.contract is None else str(self.contract),
                "discard": None if self.discard is None else self.discard.to_list(),
                "max_bid": None if self.max_bid is None else str(self.max_bid),
                "expected": None if self.expected is None else round(self.expected, 3),
                "expected_se": None if self.expected_se is None else round(self.expected_se, 3),
                "card": None if self.card is None else str(self.card)}
