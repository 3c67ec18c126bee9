"""Input checks and rules facts that every analysis shares.

A hand of the right size, a rules profile for three players, a contract the
analyzer can sample, who leads trick 1, and which contracts the auction's
winner may declare, asked of :mod:`prefsolve.auction` rather than restated.

>>> str(as_hand("A.KT9.KT97.K7")), leader_for("sochi", 2)
('A.KT9.KT97.K7', 0)
>>> [str(c) for c in allowed_contracts(Contract.parse("10H"), "sochi")]
['10H', '10NT']
"""

from __future__ import annotations

from collections.abc import Callable

from ..auction import allowed_declarations
from ..cards import Hand
from ..checks import check_seat
from ..contract import LADDER, Contract
from ..errors import ContractError, HandError
from ..i18n import N_, _, get_language, shown
from ..rules import Rules

#: Called with the number of items finished since the last call.
Progress = Callable[[int], None]


def as_hand(hand: Hand | str, size: int = 10, what: str = N_("hand")) -> Hand:
    """A :class:`Hand` of exactly ``size`` cards from a Hand or text (``what``,
    marked with ``N_``, names it in an error).

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
        raise HandError(_("expected a {what} as text or Hand, got {value}", what=_(what), value=repr(hand)))
    if len(hand) != size:
        raise HandError(_("{what} {text} has {count} cards, expected {size}", what=_(what), text=repr(text),
                          count=len(hand), size=size))
    return hand


def contract_text(contract: Contract) -> str:
    """A contract as the active language writes it in an analysis: ``7♥``, ``7 червей``."""
    lang = get_language()
    return contract.symbol if lang == "en" else contract.format(lang)


def as_rules(rules: Rules | str | None) -> Rules:
    """A rules profile by name, or the given :class:`Rules` (3 players)."""
    return Rules.of(rules).replace(players=3)


def as_contract(contract: Contract | str) -> Contract:
    """A contract the analyzer samples: any contract with the talon, or misère."""
    c = contract if isinstance(contract, Contract) else Contract.parse(contract)
    if c.without_talon:
        raise ContractError(_("contract {contract}: games without talon are not analysed",
                              contract=shown(c, repr(str(c)))))
    return c


def leader_for(rules: Rules | str, declarer: int) -> int:
    """Seat leading trick 1: first hand, or the declarer's left (profile switch ``first_lead``)."""
    return Rules.of(rules).opening_leader(check_seat(declarer, "declarer"))


def allowed_contracts(bid: Contract | None, rules: Rules | str) -> tuple[Contract, ...]:
    """The contracts with the talon (and misère) the winner of ``bid`` may
    declare, in seniority order: :func:`prefsolve.auction.allowed_declarations`
    less the games without talon, which the analyzer does not sample. With no
    bid, every one of them."""
    if bid is None:
        return LADDER
    return tuple(c for c in allowed_declarations(bid, rules) if not c.without_talon)

