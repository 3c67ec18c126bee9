"""A game record stepped through move by move, as the board's review viewer shows it.

For every deal of a record (docs/GAME_FORMAT.md), the deal replayed by the
rules (:meth:`~prefsolve.game.GameRecord.replay`) gives one step per move and
one for the start: the move made, every hand as it stands, the calls, the
contract, the whist calls, the talon shown, the tricks, and in the play the
position's text (:class:`~prefsolve.play.Position`), which the board's play
by clicking takes to try another card from there. Nothing here prices a
move: the costs and marks are the review's (:mod:`prefsolve.analysis.review`).

>>> from prefsolve.game import Session
>>> s = Session.from_dict({"players": ["Ann", "Bob", "Cid"], "deals": [{"first_hand": "Ann",
...     "deal": "AJ7.QJ.AKJT.Q T98.AT987.Q.8 KQ.K.987.AK97 -.-.-.JT", "calls": ["7D", "pass", "7H", "pass"],
...     "contract": "7H", "discard": ["D8", "D7"], "whist": ["whist", "pass"], "open": True,
...     "played": "SA ST SK SJ S9 SQ CK CQ CA S8 HA S7 D9 DA DQ CJ CT HJ HK HQ H8 HT DK C9 H9 DJ C8 H7 DT C7"}]})
>>> deal, = replay_json([s])["deals"]
>>> len(deal["steps"]), deal["steps"][8]["move"]["decision"], deal["steps"][8]["position"].split("; ")[1:]
(39, 'open', ['declarer=2', 'strain=H', 'leader=0', 'talon_mode=take', 'discard=D8 D7', 'played='])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import GameRecord, Session


def _step(record: GameRecord, state: Any, move: Any) -> dict[str, Any]:
    position = state.position
    tricks = []
    if position is not None:
        done = position.played_tricks + ((position.current_trick,) if not position.is_over() else ())
        tricks = [t.to_dict() for t in done]
    talon = state.shown_talon()
    return {
        "move": None if move is None else move.to_dict(),
        "kind": state.kind,
        "to_move": state.to_move,
        "hands": [str(state.holding(s)) for s in range(3)],
        "calls": [str(c) for c in state.calls],
        "declarer": state.declarer,
        "contract": None if state.contract is None else str(state.contract),
        "whist_calls": list(state.whist_calls),
        "talon": None if talon is None else str(talon),
        "tricks": tricks,
        "tricks_won": list(state.tricks_won),
        "strain": ("allpass" if state.all_pass else None if state.contract is None else state.contract.strain),
        "position": None if position is None or position.is_over() else str(position),
    }


def replay_json(sessions: Sequence[Session]) -> dict[str, Any]:
    """Every deal of ``sessions`` with its steps, numbered as ``prefsolve review`` numbers them."""
    deals: list[dict[str, Any]] = []
    for session in sessions:
        for record in session.records:
            if record.deal is None:
                continue
            steps = []
            last = None
            for state, move in record.replay():
                steps.append(_step(record, state, last))
                last = move
            final = record.state()
            steps.append(_step(record, final, last))
            deals.append({"number": len(deals) + 1, "deal": str(record.deal),
                          "players": [session.players[record.seat_of(s)] for s in range(3)],
                          "talon": None if record.deal.talon is None else str(record.deal.talon),
                          "steps": steps})
    return {"deals": deals}


__all__ = ["replay_json"]
