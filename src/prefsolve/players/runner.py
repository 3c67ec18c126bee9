"""Three players through one deal: the auction, the talon, the whist calls, the defence, the play.

:func:`play_deal` drives a :class:`~prefsolve.game.DealState` to its end,
asking the seat that decides each move through a
:class:`~prefsolve.players.base.SeatView` and making the moves whose only
legal option leaves nothing to decide. A player that fails — a
:class:`~prefsolve.errors.PlayerError` (a bot that crashed, hung or answered
nonsense) or a move the rules refuse — forfeits the game: the record stops
there and names the seat, the move and why.

The seed of each decision comes from the deal's seed, the seat and the move's
number (:func:`decision_seed`): the same deal played again, or with another
player in one seat, gives the others the same seeds move for move.

>>> from prefsolve.deal import Deal
>>> from prefsolve.players import make_player
>>> game = play_deal(Deal.random(1), [make_player("random") for _ in range(3)], seed=5)
>>> game.record.outcome is not None, len(game.solver_calls) == len(game.record.moves)
(True, True)
>>> play_deal(Deal.random(1), [make_player("random") for _ in range(3)], seed=5) == game
True
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..checks import check_seed
from ..deal import Deal
from ..engine import solver_calls, solver_nodes
from ..errors import GameError, PlayerError
from ..game import DealState, Forfeit, GameRecord
from ..i18n import _
from ..rules import Rules
from .base import Player, seat_view


def derive_seed(*parts: object) -> int:
    """A 32-bit seed from its parts (a match's seed, a deal's number, a seat, a move),
    the same on every machine and Python.

    >>> derive_seed(1, "deal", 7) == derive_seed(1, "deal", 7) != derive_seed(1, "deal", 8)
    True
    """
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "big")


def decision_seed(seed: int, seat: int, move: int) -> int:
    """The seed of the decision of ``seat`` at move ``move`` of a deal whose seed is ``seed``."""
    return derive_seed(seed, "seat", seat, "move", move)


@dataclass(frozen=True)
class PlayedDeal:
    """A deal played by three players: its record and, move by move, the solver
    calls the deciding player made and their search nodes (0 for a move made
    without asking, and for a program's, which are not counted) and the seconds
    it took (context only)."""

    record: GameRecord
    solver_calls: tuple[int, ...]
    seconds: tuple[float, ...] = field(compare=False)
    solver_nodes: tuple[int, ...] = field(default=(), compare=False)

    @property
    def forfeit(self) -> Forfeit | None:
        return self.record.forfeit


def play_deal(deal: Deal | str, players: Sequence[Player], *, rules: Rules | str | None = None, seed: int = 0,
              allpass_count: int = 0, turn: object = None, first_hand: int = 0) -> PlayedDeal:
    """Play one deal: ``players[s]`` holds seat ``s`` (0 = first hand). ``seed``
    seeds every decision (:func:`decision_seed`); ``turn`` orders the all-pass
    talon; ``first_hand`` is the table seat of seat 0 in the record."""
    if len(players) != 3:
        raise PlayerError(_("a deal is played by three players, got {count}", count=len(players)))
    seed = check_seed(seed) or 0
    state = DealState(deal, rules, allpass_count=allpass_count, turn=turn)
    for seat, player in enumerate(players):
        player.start(seat, state.rules)
    calls: list[int] = []
    nodes: list[int] = []
    seconds: list[float] = []
    forfeit = None
    while not state.is_over():
        forced = state.forced()
        if forced is not None:
            state.apply(forced)
            calls.append(0)
            nodes.append(0)
            seconds.append(0.0)
            continue
        by = state.decider
        assert by is not None
        player = players[by]
        view = seat_view(state, by, seed=decision_seed(seed, by, len(state.moves) + 1), sees_all=player.sees_all)
        before, before_nodes, start = solver_calls(), solver_nodes(), time.perf_counter()
        try:
            state.apply(player.decide(view))
        except (PlayerError, GameError) as exc:
            forfeit = Forfeit(by, len(state.moves) + 1, _("{player}: {reason}", player=player.name, reason=exc))
            break
        calls.append(solver_calls() - before)
        nodes.append(solver_nodes() - before_nodes)
        seconds.append(time.perf_counter() - start)
    record = GameRecord.of(state, first_hand=first_hand, forfeit=forfeit)
    return PlayedDeal(record, tuple(calls), tuple(seconds), tuple(nodes))


__all__ = ["PlayedDeal", "play_deal", "decision_seed", "derive_seed"]
