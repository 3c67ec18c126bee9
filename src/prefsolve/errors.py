"""Exceptions raised by prefsolve.

Every error a user can cause is a :class:`PrefsolveError`, which is also a
:class:`ValueError`, so ``except ValueError`` keeps working. Messages name the
problem and quote the offending input.

>>> from prefsolve import Deal
>>> Deal.parse("A.-.-.- A.-.-.- K.-.-.-")
Traceback (most recent call last):
...
prefsolve.errors.DealError: duplicate card SA in deal: 'A.-.-.- A.-.-.- K.-.-.-'
>>> issubclass(DealError, ValueError)
True
"""


class PrefsolveError(ValueError):
    """Base class of every error prefsolve raises for bad input."""


class CardError(PrefsolveError):
    """A card, suit or rank could not be parsed."""


class HandError(PrefsolveError):
    """A hand could not be parsed or has the wrong number of cards."""


class DealError(PrefsolveError):
    """A deal is malformed: duplicate cards, unequal hands, bad talon, ..."""


class SeatError(PrefsolveError):
    """A seat (declarer, leader, player) is outside 0..2."""


class StrainError(PrefsolveError):
    """An unknown strain (expected S, C, D, H, NT, misere)."""


class IllegalPlayError(PrefsolveError):
    """A card that may not be played in the position (not held, revoke, ...)."""


class ContractError(PrefsolveError):
    """A contract or bid that cannot be parsed or is not on the ladder."""


class AuctionError(PrefsolveError):
    """Malformed auction input (unknown call word, wrong player count).

    An illegal *call* in a well-formed auction is not an exception: the
    auction checker returns a verdict naming the call and the rule.
    """


class RulesError(PrefsolveError):
    """An unknown rules profile or switch, or a bad switch value."""


class ScoringError(PrefsolveError):
    """A deal outcome or score sheet that is impossible under the rules."""


class GameError(PrefsolveError):
    """A game record or a move that the rules refuse: an illegal call, discard,
    declaration, whist call or card, or a record that contradicts itself. The
    message names the game, the seat and the move."""


class PlayerError(PrefsolveError):
    """A player that cannot be made or failed to decide: an unknown player name or
    option, a bot program that crashed, did not answer in time or answered
    nonsense. In a match the game is recorded as forfeited by that player."""
