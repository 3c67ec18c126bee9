"""The random player: any legal decision, drawn from the decision's seed.

Each legal option is equally likely: a call, a contract to declare with any
two of the twelve cards put away (and, where the rules allow it, the
concession counted as one more option), a whist call, an open or closed
defence, a card.

>>> from prefsolve.game import DealState
>>> from prefsolve.players.base import seat_view
>>> view = seat_view(DealState("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-"), 0, seed=3)
>>> RandomPlayer().decide(view) in view.options
True
"""

from __future__ import annotations

import random

from ..cards import Cards
from ..game import DECLARATION, Decision, Declaration
from .base import Player, SeatView


class RandomPlayer(Player):
    """Any legal decision, uniformly, from ``view.seed``."""

    name = "random"

    def decide(self, view: SeatView) -> Decision:
        rng = random.Random(view.seed)
        if view.kind != DECLARATION:
            return rng.choice(view.options)
        concede = view.can_concede and rng.randrange(len(view.options) + 1) == 0
        games = [c for c in view.options if not c.is_misere] if concede else list(view.options)
        contract = rng.choice(games or list(view.options))
        discard = Cards(sorted(rng.sample(list(view.hand), 2))) if len(view.hand) == 12 else None
        return Declaration(contract, discard, concede and not contract.is_misere)


__all__ = ["RandomPlayer"]
