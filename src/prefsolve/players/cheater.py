"""The cheater: sees every card and decides by exact double-dummy play.

The upper bound of what a player can reach with the cards alone. It is given
the whole deal (``sees_all``: the runner puts it in every view it gets) and

* bids as the analyzer does (:func:`prefsolve.analysis.bid.recommend`), on the
  exact tricks of the deal instead of sampled ones: each contract's score is
  its declarer's net whists for those tricks with the defence calling what
  suits it best (the ``best`` model of :mod:`prefsolve.analysis.defence`),
  passing counts 0;
* discards and declares the contract whose exact score is best, or concedes
  «без трёх» when that costs less (RULES.md §3.1);
* whists or passes on the exact tricks the declarer will take, scored as the
  whist analysis scores a call (:func:`prefsolve.analysis.whist.whist_options`,
  the other defender's call as said, or a pass while unsaid);
* plays open when it whists alone (it then plays both defenders' cards);
* plays a best card of the position (:meth:`prefsolve.play.Position.best_cards`):
  in a game the declarer's tricks, in all-pass its own guaranteed tricks.

Its opponents do not see all, so its results are what perfect sight is worth
against them, not a game-theoretic value.

>>> from prefsolve.game import DealState
>>> from prefsolve.players.base import seat_view
>>> state = DealState("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> str(Cheater().decide(seat_view(state, 0, sees_all=True)))
'pass'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..auction import BID, HOLD, PASS, WHIST, Call, check_whist_calls
from ..cards import Card
from ..contract import LADDER, Contract
from ..deal import Deal
from ..errors import PlayerError
from ..game import DEFENCES, Declaration
from ..i18n import _
from ..play import Position
from ..scoring import GameDeal, score_deal, settle
from ..solver import solve
from ..strains import ALLPASS, IGNORE, LEAD, STRAINS, TAKE
from .base import Player, SeatView, call_for

if TYPE_CHECKING:
    from ..rules import Rules


class Cheater(Player):
    """Exact double-dummy decisions with every card in sight."""

    name = "cheater"
    sees_all = True

    def __init__(self) -> None:
        self._tricks: dict[tuple, tuple[int, ...]] = {}

    def _deal(self, view: SeatView) -> Deal:
        if view.deal is None:
            raise PlayerError(_("the cheater needs the whole deal in its view (its sees_all)"))
        return view.deal

    def _strain_tricks(self, deal: Deal, seat: int, rules: Rules) -> tuple[int, ...]:
        """The seat's exact tricks as declarer in each strain (S C D H NT misère), talon and best discard."""
        key = (deal, seat, rules.opening_leader(seat))
        if key not in self._tricks:
            self._tricks[key] = tuple(solve(deal, seat, strain=s, leader=key[2], talon_mode=TAKE).tricks
                                      for s in STRAINS)
        return self._tricks[key]

    def call(self, view: SeatView) -> Call:
        import numpy as np

        from ..analysis.bid import recommend
        from ..analysis.defence import declarer_scores
        from ..analysis.stats import ContractStats

        tricks = self._strain_tricks(self._deal(view), view.seat, view.rules)
        stats = []
        for c in LADDER:
            t = np.asarray([tricks[STRAINS.index(c.strain)]])
            stats.append(ContractStats.of(c, t, declarer_scores(c, t, "best", view.rules)))
        open_bids = tuple(o.contract for o in view.options if o.kind in (BID, HOLD))
        rec = recommend(stats, view.rules, open_bids)
        return call_for(rec.call, view.options)

    def declare(self, view: SeatView) -> Declaration:
        deal = self._deal(view)
        seat = view.seat
        taken = len(view.hand) == 12
        best: tuple[float, int, Declaration] | None = None
        for k, c in enumerate(view.options):
            solution = solve(deal, seat, strain=c.strain, leader=view.rules.opening_leader(seat),
                             talon_mode=TAKE if taken else IGNORE)
            value = _declarer_value(c, solution.tricks, view.rules)
            if best is None or value > best[0]:
                best = (value, -k, Declaration(c, solution.discard))
        assert best is not None
        if view.can_concede:
            contract = best[2].contract
            conceded = GameDeal(0, contract, (), None, True, conceded=True)
            s = score_deal(conceded, view.rules, 3)
            if float(settle(s.pool, s.mountain, s.whists, view.rules)[0]) > best[0]:
                return Declaration(contract, best[2].discard, True)
        return best[2]

    def whist(self, view: SeatView) -> str:
        from ..analysis.defence import balance_row

        deal = self._deal(view)
        assert view.declarer is not None and view.contract is not None
        c = view.contract
        pos = Position(deal, view.declarer, strain=c.strain, leader=view.leader,
                       talon_mode=TAKE if view.discard is not None else IGNORE, discard=view.discard)
        tricks = pos.value()
        who = 1 if view.seat == (view.declarer + 1) % 3 else 2
        best: tuple[float, str] | None = None
        for word in view.options:
            calls = _completed([*view.whist_calls, word], c, view.rules)
            value = balance_row(c, calls, view.rules, calls.count("whist") == 1, who)[tricks]
            if best is None or value > best[0]:
                best = (value, word)
        assert best is not None
        return best[1]

    def defence(self, view: SeatView) -> str:
        return DEFENCES[0]      # open: the lone whister then plays his partner's cards too

    def card(self, view: SeatView) -> Card:
        deal = self._deal(view)
        seat = view.to_play
        assert seat is not None
        if view.all_pass:
            lead = view.rules.raspasy_talon == "sets_suit"
            turn = None
            if lead:
                assert deal.talon is not None
                first = view.turn[0]
                turn = (first, next(c for c in deal.talon if c != first))
            pos = Position(deal, strain=ALLPASS, seat=seat, talon_mode=LEAD if lead else IGNORE, turn=turn,
                           played=view.played)
        else:
            assert view.contract is not None and view.declarer is not None
            pos = Position(deal, view.declarer, strain=view.contract.strain, leader=view.leader,
                           talon_mode=TAKE if view.discard is not None else IGNORE, discard=view.discard,
                           played=view.played)
        return pos.best_cards()[0]


def _declarer_value(contract: Contract, tricks: int, rules: Rules) -> float:
    """The declarer's net whists for ``tricks`` when the defence calls what suits it best."""
    import numpy as np

    from ..analysis.defence import declarer_scores

    return float(declarer_scores(contract, np.asarray([tricks]), "best", rules)[0])


def _completed(calls: list[str], contract: Contract, rules: Rules) -> tuple[str, ...]:
    """The whist calls with the other defender's calls still unsaid taken as passes (as
    whists where he may not pass: 6♠ under Stalingrad, RULES.md §3.5)."""
    while not check_whist_calls(contract, calls, rules).finished:
        word = PASS if check_whist_calls(contract, [*calls, PASS], rules).legal else WHIST
        calls.append(word)
    return tuple(calls)


__all__ = ["Cheater"]
