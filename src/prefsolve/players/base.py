"""The Player protocol: what one seat sees, and the decision it returns.

A deal asks its seats for moves one at a time (:class:`~prefsolve.game.DealState`).
For each, the seat that decides gets a :class:`SeatView` — its own cards, the
calls, the declaration, the whist calls, the hands lying face up, the talon
when shown, the cards played, the legal options and a seed — and returns the
decision its ``kind`` asks for:

=============== ========= ===================================================
kind            phase     decision
=============== ========= ===================================================
``call``        bidding   a :class:`~prefsolve.auction.Call` among ``options``
``declaration`` talon     a :class:`~prefsolve.game.Declaration`: a contract of
                          ``options``, two cards of ``hand`` to discard (none
                          without talon), or a concession where ``can_concede``
``whist``       whisting  ``"whist"``, ``"pass"`` or ``"half"`` among ``options``
``defence``     whisting  ``"open"`` or ``"closed"`` (a lone whister's choice)
``card``        play      a :class:`~prefsolve.cards.Card` among ``options``,
                          for the seat ``to_play``
=============== ========= ===================================================

A move with a single legal option is made by the deal's runner without asking
(:mod:`prefsolve.players.runner`). Decisions may also be given as text
(``"6S"``, ``"SA"``), read by :func:`~prefsolve.game.parse_decision`.

A player subclasses :class:`Player` and overrides :meth:`Player.decide`, or
one method per kind (:meth:`~Player.call`, :meth:`~Player.declare`,
:meth:`~Player.whist`, :meth:`~Player.defence`, :meth:`~Player.card`).
Every random choice must come from ``view.seed`` (derived from the match's
seed, the deal, the seat and the move), so that a match played again gives
the same games. A player whose ``sees_all`` is true is given the whole deal
in ``view.deal`` (the cheater); no other player ever is.

>>> from prefsolve.game import DealState
>>> state = DealState("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> view = seat_view(state, 0, seed=7)
>>> view.kind, view.phase, str(view.hand), [str(c) for c in view.options[:3]], view.deal is None
('call', 'bidding', 'A.KT9.KT97.K7', ['pass', '6S', '6C'], True)
>>> SeatView.from_dict(view.to_dict()) == view
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .._frozen import FrozenMap
from ..auction import BID, HOLD, PASS, Call, parse_calls
from ..cards import Card, Cards, Hand
from ..contract import Contract
from ..deal import Deal
from ..errors import ContractError, GameError, PlayerError, PrefsolveError
from ..game import (
    CALL,
    CARD,
    DECLARATION,
    DEFENCE,
    KINDS,
    PHASE_OF,
    WHIST_CALL,
    DealState,
    Decision,
    Declaration,
    decision_json,
    parse_decision,
)
from ..i18n import _
from ..play import Trick
from ..rules import Rules
from ..strains import ALLPASS


@dataclass(frozen=True)
class SeatView:
    """What the deciding seat sees when it is asked for a move (seats of the deal:
    0 is first hand, then 1 and 2 clockwise)."""

    seat: int
    """The seat that decides."""
    kind: str
    """What is asked: ``call``, ``declaration``, ``whist``, ``defence`` or ``card``."""
    options: tuple
    """The legal decisions: calls, the contracts that may be declared, whist words,
    ``open``/``closed``, cards."""
    rules: Rules
    hand: Hand
    """The cards the seat holds now (the declarer's twelve while he discards)."""
    dealt: Hand
    """The ten cards dealt to the seat."""
    calls: tuple[Call, ...] = ()
    """The auction so far, first hand first."""
    allpass_count: int = 0
    """The all-pass deals right before this one (RULES.md §2.6)."""
    declarer: int | None = None
    bid: Contract | None = None
    """The winning bid."""
    contract: Contract | None = None
    """The declared contract."""
    can_concede: bool = False
    """The declarer may concede «без трёх» instead of playing (RULES.md §3.1)."""
    talon: Hand | None = None
    """The talon cards shown to every seat so far (all-pass: those turned)."""
    discard: Cards | None = None
    """The declarer's discard, where this seat knows it (the declarer himself)."""
    whist_calls: tuple[str, ...] = ()
    """The defenders' calls, in speaking order."""
    defence: str | None = None
    """``open`` or ``closed``, as the lone whister chose; None when nobody chose."""
    shown: FrozenMap[int, Hand] = field(default_factory=FrozenMap)
    """Other seats' hands lying face up, as dealt (an open defence, misère after trick 1)."""
    leader: int = 0
    """The seat that leads trick 1."""
    played: Cards = Cards(())
    """The cards played so far, in order."""
    tricks: tuple[Trick, ...] = ()
    """The tricks so far, each with its leader, cards and winner; the current one last (no winner)."""
    turn: Cards = Cards(())
    """All-pass: the talon cards turned so far, in order (each leads one of tricks 1 and 2)."""
    to_play: int | None = None
    """The seat whose card is asked; the lone whister of an open defence plays his partner's too."""
    tricks_won: tuple[int, int, int] = (0, 0, 0)
    seed: int = 0
    """The seed of this decision's random choices."""
    move: int = 1
    """The number of the move asked for, from 1."""
    deal: Deal | None = None
    """Every card: given only to a player that sees all (the cheater)."""
    strain: str | None = None
    """The strain of the play once it is known: the declared contract's, or ``allpass``."""

    @property
    def phase(self) -> str:
        """``bidding``, ``talon``, ``whisting`` or ``play``."""
        return PHASE_OF[self.kind]

    @property
    def all_pass(self) -> bool:
        return self.strain == ALLPASS

    @property
    def defenders(self) -> tuple[int, int] | None:
        """The first defender (the declarer's left) and the second, once there is a declarer."""
        if self.declarer is None:
            return None
        return (self.declarer + 1) % 3, (self.declarer + 2) % 3

    @property
    def led_suit(self) -> int | None:
        """The suit to follow in the current trick (0..3 for ♠ ♣ ♦ ♥; set by the lead or the
        turned talon card), None when the seat leads."""
        if not self.tricks or self.tricks[-1].winner is not None:
            return None
        current = self.tricks[-1]
        if current.talon_card is not None:
            return current.talon_card.suit
        return current.cards[0].suit if current.cards else None

    def holding(self, seat: int) -> Hand | None:
        """The cards ``seat`` holds now, where this seat sees them (its own hand, a hand
        lying face up, every hand for a player that sees all); else None."""
        if seat == self.seat:
            return self.hand
        dealt = self.shown.get(seat)
        if dealt is None and self.deal is not None:
            dealt = self.deal.hands[seat]
            if seat == self.declarer and self.talon is not None and self.discard is not None:
                dealt = Hand((dealt.mask | self.deal.talon.mask) & ~self.discard.mask)  # type: ignore[union-attr]
        if dealt is None:
            return None
        return Hand(dealt.mask & ~self.played.mask)

    @property
    def trick(self) -> Cards:
        """The cards on the table in the current trick."""
        if self.tricks and self.tricks[-1].winner is None:
            return self.tricks[-1].cards
        return Cards(())

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the bot protocol (docs/BOT_PROTOCOL.md)."""
        return {
            "seat": self.seat, "kind": self.kind, "phase": self.phase,
            "options": [_option_json(self.kind, o) for o in self.options],
            "rules": self.rules.name, "switches": _switches(self.rules),
            "hand": str(self.hand), "dealt": str(self.dealt),
            "calls": [str(c) for c in self.calls], "allpass_count": self.allpass_count,
            "declarer": self.declarer, "bid": _text(self.bid), "contract": _text(self.contract),
            "can_concede": self.can_concede, "talon": _text(self.talon),
            "discard": None if self.discard is None else self.discard.to_list(),
            "whist_calls": list(self.whist_calls), "defence": self.defence,
            "shown": {str(s): str(h) for s, h in self.shown.items()}, "leader": self.leader,
            "played": self.played.to_list(), "tricks": [t.to_dict() for t in self.tricks],
            "turn": self.turn.to_list(), "to_play": self.to_play, "tricks_won": list(self.tricks_won),
            "seed": self.seed, "move": self.move, "deal": _text(self.deal), "strain": self.strain,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatView:
        """A view from its JSON object; a malformed one is a :class:`PlayerError`."""
        try:
            return _view_from_dict(data)
        except PrefsolveError as exc:
            raise PlayerError(_("a seat's view that cannot be read: {reason}", reason=exc)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PlayerError(_("a seat's view that cannot be read: {kind}: {reason}", kind=type(exc).__name__,
                                reason=exc)) from None


def _text(x: object) -> str | None:
    return None if x is None else str(x)


def _switches(rules: Rules) -> dict[str, Any]:
    base = Rules.profile(rules.name)
    return {k: v for k, v in rules.to_dict().items() if k not in ("name", "players") and getattr(base, k) != v}


def _option_json(kind: str, option: object) -> object:
    return str(option) if kind == DECLARATION else decision_json(kind, option)  # type: ignore[arg-type]


def _contract(text: str | None) -> Contract | None:
    return None if text is None else Contract.parse(text)


def _view_from_dict(d: Mapping[str, Any]) -> SeatView:
    kind = d["kind"]
    if kind not in KINDS:
        raise GameError(_("unknown kind of move {kind}", kind=repr(kind)))
    options = tuple(Contract.parse(o) if kind == DECLARATION else parse_decision(kind, o) for o in d["options"])
    trick_list = []
    for t in d.get("tricks", []):
        trick_list.append(Trick(int(t["leader"]), Cards(t["cards"]), t["winner"],
                                None if t.get("talon_card") is None else Card.parse(t["talon_card"])))
    return SeatView(
        seat=int(d["seat"]), kind=kind, options=options,
        rules=Rules.profile(d.get("rules", "sochi")).replace(**d.get("switches", {}), players=3),
        hand=Hand.parse(d["hand"]), dealt=Hand.parse(d["dealt"]),
        calls=parse_calls(list(d.get("calls", []))), allpass_count=int(d.get("allpass_count", 0)),
        declarer=d.get("declarer"), bid=_contract(d.get("bid")), contract=_contract(d.get("contract")),
        can_concede=bool(d.get("can_concede", False)), talon=None if d.get("talon") is None else Hand.parse(d["talon"]),
        discard=None if d.get("discard") is None else Cards(d["discard"]),
        whist_calls=tuple(d.get("whist_calls", [])), defence=d.get("defence"),
        shown=FrozenMap({int(s): Hand.parse(h) for s, h in d.get("shown", {}).items()}),
        leader=int(d.get("leader", 0)), played=Cards(d.get("played", [])), tricks=tuple(trick_list),
        turn=Cards(d.get("turn", [])), to_play=d.get("to_play"), tricks_won=tuple(d.get("tricks_won", (0, 0, 0))),
        seed=int(d.get("seed", 0)), move=int(d.get("move", 1)),
        deal=None if d.get("deal") is None else Deal.parse(d["deal"]), strain=d.get("strain"))


def seat_view(state: DealState, seat: int, *, seed: int = 0, sees_all: bool = False) -> SeatView:
    """What ``seat`` sees of ``state`` when it decides the next move (``sees_all``:
    the whole deal too)."""
    declarer = state.declarer
    discard = None
    if state.declaration is not None and (seat == declarer or sees_all):
        discard = state.declaration.discard
    position = state.position
    tricks: tuple[Trick, ...] = ()
    if position is not None:
        tricks = position.played_tricks + ((position.current_trick,) if not position.is_over() else ())
    shown_talon = state.shown_talon()
    return SeatView(
        seat=seat, kind=state.kind or "", options=tuple(state.options()), rules=state.rules,
        hand=state.holding(seat), dealt=state.deal.hands[seat], calls=tuple(state.calls),
        allpass_count=state.allpass_count, declarer=declarer, bid=state.bid, contract=state.contract,
        can_concede=state.can_concede(), talon=shown_talon, discard=discard,
        whist_calls=tuple(state.whist_calls), defence=state.defence,
        shown=FrozenMap({s: h for s, h in state.shown_hands().items() if s != seat}),
        leader=state.leader, played=state.played, tricks=tricks,
        turn=_turned(state, shown_talon),
        to_play=state.to_move if state.kind == CARD else None, tricks_won=state.tricks_won,
        seed=seed, move=len(state.moves) + 1, deal=state.deal if sees_all else None,
        strain=ALLPASS if state.all_pass else None if state.contract is None else state.contract.strain)


def _turned(state: DealState, shown: Hand | None) -> Cards:
    """The all-pass talon cards turned so far, in order."""
    if not state.all_pass or shown is None:
        return Cards(())
    return Cards(c for c in state.turn if c in shown)


class Player:
    """A player of one seat: given a :class:`SeatView`, the decision its kind asks for.

    Subclasses override :meth:`decide`, or the method of each kind it dispatches
    to. ``name`` names the player in records and errors; ``sees_all`` asks the
    runner for the whole deal in every view (only the cheater may). One player
    object plays one seat of one deal at a time; :meth:`start` is called before
    its first decision of each deal, :meth:`close` when it is no longer needed.
    """

    name: str = "player"
    sees_all: bool = False
    #: The options a player takes in its name (``advisor:samples=50``), with their types.
    OPTIONS: ClassVar[dict[str, type]] = {}

    def start(self, seat: int, rules: Rules) -> None:
        """A new deal begins, in which this player holds ``seat``."""

    def decide(self, view: SeatView) -> Decision:
        """The decision ``view.kind`` asks for."""
        return getattr(self, _METHODS[view.kind])(view)

    def call(self, view: SeatView) -> Call:
        """A call of the auction, among ``view.options``."""
        raise NotImplementedError(_("{player} does not bid", player=type(self).__name__))

    def declare(self, view: SeatView) -> Declaration:
        """The discard (two cards of ``view.hand``, or None without talon) and a contract of ``view.options``."""
        raise NotImplementedError(_("{player} does not declare", player=type(self).__name__))

    def whist(self, view: SeatView) -> str:
        """``whist``, ``pass`` or ``half``, among ``view.options``."""
        raise NotImplementedError(_("{player} does not whist", player=type(self).__name__))

    def defence(self, view: SeatView) -> str:
        """``open`` or ``closed``: how the lone whister plays (RULES.md §3.2)."""
        raise NotImplementedError(_("{player} does not choose a defence", player=type(self).__name__))

    def card(self, view: SeatView) -> Card:
        """A card of ``view.options`` for the seat ``view.to_play``."""
        raise NotImplementedError(_("{player} does not play cards", player=type(self).__name__))

    def close(self) -> None:
        """Release what the player holds (a bot's process)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def call_for(word: str, options: tuple) -> Call:
    """The legal call of ``options`` that says ``word`` (a contract, bid or held, or
    ``pass``, as the analyses' recommendations say it); a pass when none does.

    >>> from prefsolve.auction import legal_calls
    >>> call_for("6C", legal_calls("6S 6C pass")), call_for("7NT", legal_calls(""))
    (Call(hold 6C), Call(bid 7NT))
    """
    if word != PASS:
        try:
            contract = Contract.parse(word)
        except ContractError:
            contract = None
        for option in options:
            if option.kind in (BID, HOLD) and option.contract == contract:
                return option
    return next(o for o in options if o.kind == PASS)


_METHODS = {CALL: "call", DECLARATION: "declare", WHIST_CALL: "whist", DEFENCE: "defence", CARD: "card"}


__all__ = ["SeatView", "Player", "seat_view", "call_for"]
