"""One deal as played, and a session of them: the record, its validation by the rules, its score.

A :class:`DealState` is one deal in progress, in the style of python-chess's
``Board``: the auction (RULES.md §2), the talon, discard and declaration
(RULES.md §3.1), the whist calls and the choice of an open or closed defence
(RULES.md §3.2), the play (RULES.md §4) and the settlement of the deal alone
(RULES.md §6.4). Each step asks one seat for one **move** of a **kind** — a
``call``, a ``declaration``, a ``whist`` call, the ``defence`` (open or
closed) or a ``card`` — whose legal options :meth:`DealState.options` lists;
:meth:`DealState.apply` makes a move or raises
:class:`~prefsolve.errors.GameError` naming it and the rule it breaks.
The rules are asked of :mod:`prefsolve.auction`, :mod:`prefsolve.play` and
:mod:`prefsolve.scoring`, never restated here.

A :class:`GameRecord` is one deal as played (the cards, every move in order,
the result as the rules settle it), or, as the game files of RULES.md §9 have
it, only the result; a :class:`Session` (пуля) is a list of records with the
players, the rules and the score sheet. Both read and write the JSON of
docs/GAME_FORMAT.md; :func:`load_session` also reads JSON lines.

>>> state = DealState("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
>>> state.kind, state.to_move, [str(c) for c in state.options()][:3]
('call', 0, ['pass', '6S', '6C'])
>>> for call in ("pass", "pass", "6NT"):
...     _ = state.apply(call)
>>> state.kind, state.declarer, state.holding(2).symbols()
('declaration', 2, '♠KQ8 ♣QJ8 ♦AQJ ♥AJT')
>>> state.apply(Declaration(Contract.parse("6S"), Cards.parse("S8 C8")))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
prefsolve.errors.GameError: move 4 (declaration of seat 2): declaring 6S is illegal: §3.1: the declared ... bid 6NT
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ._frozen import FrozenMap
from .auction import (
    HALF,
    HOLD,
    PASS,
    WHIST,
    AuctionResult,
    Call,
    WhistResult,
    allowed_declarations,
    check_auction,
    check_declaration,
    check_whist_calls,
    legal_calls,
    parse_whist_call,
    play_chooser,
)
from .cards import Card, Cards, Hand, cards_in_hand_order
from .checks import check_count
from .contract import Contract
from .deal import Deal
from .errors import GameError, IllegalPlayError, PrefsolveError, ScoringError
from .i18n import _, english, message_of, ngettext, pgettext, shown
from .play import Position, canonical_turn
from .rules import Rules
from .scoring import (
    AllPassDeal,
    DealOutcome,
    GameDeal,
    ScoreSheet,
    deal_from_dict,
    game_rules,
    is_played,
    score_deal,
    settle,
)
from .solver import as_deal
from .strains import ALLPASS, IGNORE, LEAD, TAKE

# -- moves ---------------------------------------------------------------------------
CALL, DECLARATION, WHIST_CALL, DEFENCE, CARD = "call", "declaration", "whist", "defence", "card"
#: The kinds of move, in the order a deal asks for them.
KINDS = (CALL, DECLARATION, WHIST_CALL, DEFENCE, CARD)
#: The phases of a deal: the auction, the talon (discard and declaration), the whist
#: calls with the choice of an open or closed defence, and the play.
PHASES = ("bidding", "talon", "whisting", "play")
#: The phase each kind of move belongs to.
PHASE_OF = {CALL: "bidding", DECLARATION: "talon", WHIST_CALL: "whisting", DEFENCE: "whisting", CARD: "play"}
OPEN, CLOSED = "open", "closed"
#: The choices of a lone whister (RULES.md §3.2).
DEFENCES = (OPEN, CLOSED)
#: The kinds of deal a result is counted under: a game, a misère, an all-pass.
DEAL_KINDS = ("game", "misere", "allpass")


def _move_words(number: int, kind: str, seat: int, by: int) -> str:
    """A move as an error names it: its number, kind and seat (and who played it for the seat)."""
    if by == seat:
        return _("move {number} ({kind} of seat {seat})", number=number, kind=kind_word(kind), seat=seat)
    return _("move {number} ({kind} of seat {seat}, played by seat {by})", number=number, kind=kind_word(kind),
             seat=seat, by=by)


def kind_word(kind: str) -> str:
    """A kind of move as a message names it, in the active language (in English, its name)."""
    if kind == CALL:
        return pgettext("move", "call")
    if kind == DECLARATION:
        return pgettext("move", "declaration")
    if kind == WHIST_CALL:
        return pgettext("move", "whist")
    if kind == DEFENCE:
        return pgettext("move", "defence")
    return pgettext("move", "card") if kind == CARD else kind


@dataclass(frozen=True)
class Declaration:
    """What the winner of the auction does with the talon (RULES.md §3.1): the two
    cards he puts away (``None`` when he took no talon: a game without talon), the
    contract he declares, and whether he concedes it «без трёх» instead of playing.

    >>> d = Declaration(Contract.parse("7H"), Cards.parse("S8 C8"))
    >>> str(d), d.to_dict()
    ('7H, discard ♠8 ♣8', {'contract': '7H', 'discard': ['S8', 'C8'], 'conceded': False})
    >>> Declaration.from_dict({"contract": "8S", "conceded": True}).conceded
    True
    """

    contract: Contract
    discard: Cards | None = None
    conceded: bool = False

    def __str__(self) -> str:
        text = str(self.contract)
        if self.discard is not None:
            text += f", discard {self.discard}"
        return text + (", conceded" if self.conceded else "")

    def to_dict(self) -> dict[str, Any]:
        return {"contract": str(self.contract),
                "discard": None if self.discard is None else self.discard.to_list(),
                "conceded": self.conceded}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Declaration:
        """A declaration from its JSON object (``contract``, optional ``discard`` and ``conceded``)."""
        if not isinstance(data, Mapping):
            raise GameError(_("a declaration is an object with \"contract\" and \"discard\", got {value}",
                              value=repr(data)))
        extra = set(data) - {"contract", "discard", "conceded"}
        if extra:
            raise GameError(_("unknown field(s) {fields} of a declaration", fields=repr(sorted(map(str, extra)))))
        if not isinstance(data.get("contract"), str):
            raise GameError(_("a declaration names its \"contract\" as text, got {value}",
                              value=repr(data.get("contract"))))
        conceded = data.get("conceded", False)
        if type(conceded) is not bool:
            raise GameError(_("\"conceded\" must be true or false, got {value}", value=repr(conceded)))
        discard = data.get("discard")
        return cls(Contract.parse(data["contract"]), None if discard is None else _cards_of(discard, "discard"),
                   conceded)


#: A decision of any kind: a call, a declaration, a whist call or a defence word, a card.
Decision = Call | Declaration | str | Card


def _cards_of(value: object, what: str) -> Cards:
    if isinstance(value, str):
        return Cards.parse(value)
    if isinstance(value, (list, tuple)) and all(isinstance(c, (str, Card)) for c in value):
        return Cards(value)
    raise GameError(_("{what} must be cards such as [\"S8\", \"C8\"], got {value}", what=what, value=repr(value)))


def parse_decision(kind: str, value: object) -> Decision:
    """A decision of ``kind`` from its value or its JSON/text form: a call
    (``"6S"``, ``"pass"``, ``"здесь"``), a declaration (a :class:`Declaration` or
    its JSON object), a whist call (``whist``, ``pass``, ``half``), ``open`` or
    ``closed``, a card (``"SA"``). Raises :class:`GameError` when it is not one.

    >>> parse_decision("call", "семь первых"), parse_decision("card", "♠A"), parse_decision("whist", "вист")
    (Call(bid 7S), Card.parse('SA'), 'whist')
    """
    try:
        if kind == CALL:
            if isinstance(value, Call):
                return value
            if not isinstance(value, str):
                raise GameError(_("a call is text such as \"6S\" or \"pass\", got {value}", value=repr(value)))
            return Call.parse(value)
        if kind == DECLARATION:
            return value if isinstance(value, Declaration) else Declaration.from_dict(value)  # type: ignore[arg-type]
        if kind == WHIST_CALL:
            return parse_whist_call(value)  # type: ignore[arg-type]
        if kind == DEFENCE:
            if isinstance(value, str) and value in DEFENCES:
                return value
            raise GameError(_("the defence is \"open\" or \"closed\", got {value}", value=repr(value)))
        if kind == CARD:
            if isinstance(value, Card):
                return value
            if not isinstance(value, str):
                raise GameError(_("a card is text such as \"SA\", got {value}", value=repr(value)))
            return Card.parse(value)
    except GameError:
        raise
    except PrefsolveError as exc:
        raise GameError(message_of(exc)) from None
    raise GameError(_("unknown kind of move {kind} (expected one of: {kinds})", kind=repr(kind),
                      kinds=", ".join(KINDS)))


def decision_json(kind: str, decision: Decision) -> object:
    """A decision's JSON value: text, or a declaration's object."""
    if kind == DECLARATION:
        assert isinstance(decision, Declaration)
        return decision.to_dict()
    return str(decision)


@dataclass(frozen=True)
class Move:
    """One move of a deal: its number (from 1), its kind, the seat it is for and the
    seat that decided it (the lone whister plays his partner's cards in an open
    defence, RULES.md §3.2), the decision, and whether it was forced (one legal option).

    >>> m = Move(1, "call", 0, 0, Call.parse("6S"))
    >>> m.phase, m.to_dict()["decision"], str(m)
    ('bidding', '6S', 'move 1, seat 0, call 6S')
    """

    number: int
    kind: str
    seat: int
    by: int
    decision: Decision
    forced: bool = False

    @property
    def phase(self) -> str:
        return PHASE_OF[self.kind]

    def __str__(self) -> str:
        if self.by != self.seat:
            return _("move {number}, seat {seat} (by seat {by}), {kind} {decision}", number=self.number,
                     seat=self.seat, by=self.by, kind=kind_word(self.kind), decision=self.decision)
        return _("move {number}, seat {seat}, {kind} {decision}", number=self.number, seat=self.seat,
                 kind=kind_word(self.kind), decision=self.decision)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "phase": self.phase, "kind": self.kind, "seat": self.seat,
                "by": self.by, "decision": decision_json(self.kind, self.decision), "forced": self.forced}


# -- one deal in progress ------------------------------------------------------------
class DealState:
    """One deal in progress between three seats (seat 0 is first hand), from the
    first call to the settlement. Mutable, like python-chess's ``Board``.

    ``allpass_count``: the all-pass deals right before this one (the exit rule of
    RULES.md §2.6 and the price of an all-pass, RULES.md §5.8). ``turn``: in all-pass, the
    order in which the talon cards are turned to lead tricks 1 and 2 (default:
    :func:`~prefsolve.play.canonical_turn`).

    >>> s = DealState("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-")
    >>> for call in ("pass", "pass", "pass"):
    ...     _ = s.apply(call)
    >>> s.kind, s.all_pass, s.to_move, str(s.shown_talon())
    ('card', True, 0, '8.-.-.-')
    """

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __init__(self, deal: Deal | str, rules: Rules | str | None = None, *, allpass_count: int = 0,
                 turn: object = None) -> None:
        self.deal = as_deal(deal)
        if self.deal.talon is None:
            raise GameError(_("a deal to play needs its talon: {deal} has none", deal=repr(str(self.deal))))
        self.rules = Rules.of(rules).replace(players=3)
        self.allpass_count = check_count(allpass_count, "allpass_count", 0)
        talon = self.deal.talon
        self.turn: Cards = canonical_turn(talon) if turn is None else _cards_of(turn, "turn")
        if len(self.turn) != 2 or set(self.turn) != set(talon):
            raise GameError(_("turn {turn} must be the deal's two talon cards {talon} in the order they are turned",
                              turn=shown(self.turn), talon=shown(canonical_turn(talon))))
        self.calls: list[Call] = []
        self.auction: AuctionResult | None = None
        self.declaration: Declaration | None = None
        self.whist_calls: list[str] = []
        self.whist: WhistResult | None = None
        self.defence: str | None = None
        self.position: Position | None = None
        self.moves: list[Move] = []
        self.kind: str | None = CALL

    # -- what the deal has come to --------------------------------------------------
    def is_over(self) -> bool:
        """Whether no move is left: played out, passed out, half-whisted or conceded."""
        return self.kind is None

    @property
    def all_pass(self) -> bool:
        return self.auction is not None and self.auction.all_pass

    @property
    def declarer(self) -> int | None:
        return None if self.auction is None or self.auction.all_pass else self.auction.winner

    @property
    def bid(self) -> Contract | None:
        """The winning bid (the lowest contract the declarer may declare)."""
        return None if self.auction is None else self.auction.contract

    @property
    def contract(self) -> Contract | None:
        """The declared contract."""
        return None if self.declaration is None else self.declaration.contract

    @property
    def talon_taken(self) -> bool:
        """Whether the declarer takes the talon (every contract but one without talon)."""
        return self.bid is not None and not self.bid.without_talon

    @property
    def defenders(self) -> tuple[int, int]:
        """The first defender (declarer's left) and the second."""
        d = self.declarer
        if d is None:
            raise GameError(_("all-pass has no declarer and no defenders"))
        return (d + 1) % 3, (d + 2) % 3

    @property
    def played(self) -> Cards:
        """The cards played so far, in order (talon cards turned in all-pass not included)."""
        return self.position.played if self.position is not None else Cards(())

    @property
    def tricks_won(self) -> tuple[int, int, int]:
        return self.position.tricks_won if self.position is not None else (0, 0, 0)

    @property
    def leader(self) -> int:
        """The seat that leads (or led) trick 1."""
        return self.rules.opening_leader(self.declarer)

    def deal_kind(self) -> str | None:
        """``game``, ``misere`` or ``allpass`` once the auction is over."""
        if self.auction is None:
            return None
        if self.all_pass:
            return "allpass"
        return "misere" if self.bid is not None and self.bid.is_misere else "game"

    # -- whose move -----------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat the next move is for (None when the deal is over)."""
        if self.kind == CALL:
            return check_auction(self.calls, self.rules, self.allpass_count).next_seat if self.calls else 0
        if self.kind == DECLARATION:
            return self.declarer
        if self.kind == WHIST_CALL:
            return self.defenders[(0, 1, 0)[len(self.whist_calls)]]
        if self.kind == DEFENCE:
            assert self.whist is not None
            return self.defenders[play_chooser(self.whist) or 0]
        if self.kind == CARD:
            assert self.position is not None
            return self.position.to_move
        return None

    @property
    def director(self) -> int | None:
        """The lone whister who plays both defenders' cards in an open defence, else None."""
        if self.defence != OPEN or self.whist is None:
            return None
        chooser = play_chooser(self.whist)
        return None if chooser is None else self.defenders[chooser]

    @property
    def decider(self) -> int | None:
        """The seat that decides the next move: :attr:`to_move`, except that in an open
        defence the lone whister plays his partner's cards (RULES.md §3.2)."""
        seat = self.to_move
        director = self.director
        if self.kind == CARD and director is not None and seat in self.defenders:
            return director
        return seat

    # -- what may be done -----------------------------------------------------------
    def options(self) -> tuple:
        """The legal decisions of the next move: calls, the contracts the declarer may
        declare (the discard is any two of his twelve cards), whist calls, ``open`` /
        ``closed``, cards. Empty when the deal is over."""
        if self.kind == CALL:
            return legal_calls(self.calls, self.rules, self.allpass_count)
        if self.kind == DECLARATION:
            assert self.bid is not None
            return allowed_declarations(self.bid, self.rules)
        if self.kind == WHIST_CALL:
            assert self.contract is not None
            return tuple(w for w in (WHIST, PASS, HALF)
                         if check_whist_calls(self.contract, [*self.whist_calls, w], self.rules).legal)
        if self.kind == DEFENCE:
            return DEFENCES
        if self.kind == CARD:
            assert self.position is not None
            return self.position.legal_cards()
        return ()

    def can_concede(self) -> bool:
        """Whether the declarer may concede «без трёх» now: after taking the talon,
        with a game (RULES.md §3.1)."""
        return self.kind == DECLARATION and self.talon_taken and self.bid is not None and not self.bid.is_misere

    def forced(self) -> Decision | None:
        """The next move's decision when the rules leave only one, else None. A
        declaration is forced only without a talon to discard from and with one
        contract to declare."""
        if self.kind == DECLARATION:
            options = self.options()
            if self.talon_taken or len(options) != 1:
                return None
            return Declaration(options[0])
        options = self.options()
        return options[0] if len(options) == 1 else None

    def holding(self, seat: int) -> Hand:
        """The cards ``seat`` holds now: the ten dealt, the declarer's twelve while he
        discards, less the discard and the cards played."""
        if self.position is not None:
            return self.position.hands[seat]
        hand = self.deal.hands[seat]
        if seat == self.declarer and self.talon_taken and self.deal.talon is not None:
            if self.declaration is None:
                return Hand(hand.mask | self.deal.talon.mask)
            discard = self.declaration.discard
            return Hand((hand.mask | self.deal.talon.mask) & ~(discard.mask if discard is not None else 0))
        return hand

    def shown_talon(self) -> Hand | None:
        """The talon cards shown to every seat so far: the whole talon once the
        declarer takes it (RULES.md §3.1), in all-pass the cards turned to lead
        (one at trick 1, both from trick 2, RULES.md §4.3), else None."""
        if self.auction is None:
            return None
        if self.all_pass:
            if self.position is None or self.position.talon_mode != LEAD:
                return None
            turned = min(len(self.position.played_tricks) + 1, 2)
            return Hand(self.turn[:turned])
        return self.deal.talon if self.talon_taken else None

    def shown_hands(self) -> dict[int, Hand]:
        """The hands lying face up for every seat, as dealt: the defenders' in an open
        defence and on a checked 10 from the opening lead (RULES.md §3.2 and §3.4),
        the catchers' in misère after the first trick (RULES.md §4.2)."""
        if self.position is None or self.all_pass or self.whist is None:
            return {}
        misere = self.contract is not None and self.contract.is_misere
        face_up = (len(self.played) >= 3) if misere else self.whist.play == OPEN
        return {s: self.deal.hands[s] for s in self.defenders} if face_up else {}

    # -- making a move --------------------------------------------------------------
    def apply(self, decision: object) -> Move:
        """Make the next move: a :class:`~prefsolve.auction.Call`, a
        :class:`Declaration`, a whist word, ``open``/``closed`` or a card (or
        their text). Raises :class:`GameError` naming the move and the rule."""
        kind = self.kind
        if kind is None:
            raise GameError(_("move {number}: the deal is over, no move is left", number=len(self.moves) + 1))
        seat, by = self.to_move, self.decider
        assert seat is not None and by is not None
        number = len(self.moves) + 1
        try:
            value = parse_decision(kind, decision)
        except GameError as exc:
            raise GameError(_("{where}: {message}", where=_move_words(number, kind, seat, by), message=exc)) from None
        forced = self.forced() is not None
        try:
            getattr(self, f"_{kind}")(value)
        except GameError as exc:
            raise GameError(_("{where}: {message}", where=_move_words(number, kind, seat, by), message=exc)) from None
        move = Move(number, kind, seat, by, value, forced)
        self.moves.append(move)
        return move

    def _call(self, call: Call) -> None:
        highest = next((c.contract for c in reversed(self.calls) if c.contract is not None), None)
        if call.kind == HOLD and call.contract is None and highest is not None:
            call = Call(HOLD, highest)      # «здесь» holds the current bid
        elif call.kind != PASS and call.contract == highest and highest is not None:
            call = Call(HOLD, highest)      # repeating the current bid is a hold (RULES.md §2.7)
        verdict = check_auction([*self.calls, call], self.rules, self.allpass_count)
        if not verdict.legal:
            raise GameError(_("{call} is illegal: {reason}", call=call, reason=verdict.reason))
        self.calls.append(call)
        if not verdict.finished:
            return
        self.auction = verdict
        if verdict.all_pass:
            self._start_allpass()
        else:
            self.kind = DECLARATION

    def _declaration(self, declaration: Declaration) -> None:
        bid, declarer = self.bid, self.declarer
        assert bid is not None and declarer is not None
        verdict = check_declaration(bid, declaration.contract, self.rules)
        if not verdict.legal:
            raise GameError(_("declaring {contract} is illegal: {reason}", contract=shown(declaration.contract),
                              reason=verdict.reason))
        discard = declaration.discard
        if not self.talon_taken:
            if discard is not None or declaration.conceded:
                raise GameError(_("{bid} was won without talon (RULES.md §2.5): no talon is taken, so nothing is "
                                  "discarded and nothing conceded", bid=shown(bid)))
        elif declaration.conceded:
            if declaration.contract.is_misere:
                raise GameError(_("misère cannot be conceded «без трёх» (RULES.md §3.1 concedes a game)"))
        elif discard is None:
            raise GameError(_("the declarer took the talon: name the two cards he discards"))
        if discard is not None:
            twelve = self.holding(declarer)
            if len(discard) != 2 or len(set(discard)) != 2 or any(c not in twelve for c in discard):
                raise GameError(_("discard {discard} must be two different cards of the declarer's 12 ({twelve})",
                                  discard=shown(discard), twelve=shown(twelve.symbols)))
            discard = cards_in_hand_order(discard.mask)
        self.declaration = Declaration(declaration.contract, discard, declaration.conceded)
        if declaration.conceded:
            self.kind = None
            return
        verdict_w = check_whist_calls(declaration.contract, (), self.rules)
        if verdict_w.finished:      # misère and a checked 10: no whist calls (RULES.md §3.2, §3.4)
            self.whist = verdict_w
            self._start_play()
        else:
            self.kind = WHIST_CALL

    def _whist(self, word: str) -> None:
        assert self.contract is not None
        verdict = check_whist_calls(self.contract, [*self.whist_calls, word], self.rules)
        if not verdict.legal:
            raise GameError(_("{call} is illegal: {reason}", call=word, reason=verdict.reason))
        self.whist_calls.append(word)
        if not verdict.finished:
            return
        self.whist = verdict
        if not is_played(verdict.outcome, self.rules):
            self.kind = None        # passed out, or a half-whist that stands unplayed (RULES.md §5.3)
        elif play_chooser(verdict) is not None:
            self.kind = DEFENCE
        else:
            self._start_play()

    def _defence(self, word: str) -> None:
        assert self.contract is not None
        self.defence = word
        self.whist = check_whist_calls(self.contract, self.whist_calls, self.rules, word == OPEN)
        self._start_play()

    def _card(self, card: Card) -> None:
        assert self.position is not None
        try:
            self.position.push(card)
        except IllegalPlayError as exc:
            raise GameError(message_of(exc)) from None
        if self.position.is_over():
            self.kind = None

    def _start_play(self) -> None:
        assert self.declaration is not None and self.declarer is not None
        c = self.declaration.contract
        self.position = Position(self.deal, self.declarer, strain=c.strain, leader=self.leader,
                                 talon_mode=TAKE if self.talon_taken else IGNORE,
                                 discard=self.declaration.discard)
        self.kind = CARD

    def _start_allpass(self) -> None:
        # The talon cards lead tricks 1 and 2, or play no part (RULES.md §4.3); the
        # counted seat of the position is only for its values, which are not used.
        lead = self.rules.raspasy_talon == "sets_suit"
        self.position = Position(self.deal, strain=ALLPASS, seat=0, talon_mode=LEAD if lead else IGNORE,
                                 turn=self.turn if lead else None)
        self.kind = CARD

    # -- the result -----------------------------------------------------------------
    def outcome(self) -> DealOutcome:
        """The result as the score sheet takes it, in the deal's seats (RULES.md §5)."""
        if not self.is_over():
            raise GameError(_("the deal is not over: move {number} ({kind} of seat {seat}) is still to be made",
                              number=len(self.moves) + 1, kind=kind_word(str(self.kind)), seat=self.to_move))
        if self.all_pass:
            return AllPassDeal(self.tricks_won)
        assert self.declarer is not None and self.declaration is not None
        talon = tuple(str(c) for c in canonical_turn(self.deal.talon)) if self.deal.talon else None
        if self.declaration.conceded:
            return GameDeal(self.declarer, self.declaration.contract, (), None, True, None, talon, True)
        tricks = self.tricks_won if self.position is not None else None
        # Recorded, it changes no score (RULES.md §3.2): how the hand was played, open unless said otherwise.
        open_play = self.whist is None or self.whist.play != CLOSED or self.declaration.contract.is_misere
        return GameDeal(self.declarer, self.declaration.contract, tuple(self.whist_calls), tricks,
                        open_play, None, talon)

    def balances(self) -> tuple[Fraction, Fraction, Fraction]:
        """Each seat's result in whists, the deal scored and settled alone (RULES.md §6.4)."""
        s = score_deal(self.outcome(), self.rules, 3, self.allpass_count)
        return settle(s.pool, s.mountain, s.whists, self.rules)  # type: ignore[return-value]

    def copy(self) -> DealState:
        """An independent copy at the same point of the deal."""
        other = DealState(self.deal, self.rules, allpass_count=self.allpass_count, turn=self.turn)
        for move in self.moves:
            other.apply(move.decision)
        return other


# -- records -------------------------------------------------------------------------
@dataclass(frozen=True)
class Forfeit:
    """A game that stopped because a player failed to make a move: the seat (of the
    deal) that was to decide, the number of the move it did not make, and why."""

    seat: int
    move: int
    #: In the active language when the game stopped; the record's JSON says it in English.
    reason: str


#: Fields of a deal in a game file that hold the moves (docs/GAME_FORMAT.md).
MOVE_FIELDS = ("first_hand", "deal", "calls", "discard", "played", "turn", "forfeit")
#: Fields that hold the result (RULES.md §9); in a record with moves they are checked against them.
OUTCOME_FIELDS = ("declarer", "contract", "whist", "open", "tricks", "talon", "all_pass", "conceded")


@dataclass(frozen=True)
class GameRecord:
    """One deal as played: the rules, the cards (seat 0 first hand), every move in
    order and the result; or, as in RULES.md §9's game files, the result alone
    (``deal`` None, no moves).

    Seats of ``deal`` and ``moves`` are the deal's (0 = first hand); ``first_hand``
    is the table seat (the index in the session's players) that sits in seat 0,
    and :attr:`outcome` is in table seats, as the score sheet takes it.
    ``forfeit``: the game stopped there, with no result.
    """

    rules: Rules
    outcome: DealOutcome | None
    deal: Deal | None = None
    moves: tuple[Move, ...] = ()
    first_hand: int = 0
    turn: Cards | None = None
    forfeit: Forfeit | None = None
    allpass_count: int = 0
    players: int = 3
    dealer: int | None = None

    @classmethod
    def of(cls, state: DealState, *, first_hand: int = 0, forfeit: Forfeit | None = None,
           dealer: int | None = None) -> GameRecord:
        """The record of a deal played (or stopped by a forfeit) on ``state``."""
        outcome = None
        if forfeit is None:
            outcome = _to_table(state.outcome(), first_hand, dealer)
        turn = state.turn if state.all_pass and state.position is not None and state.position.turn else None
        return cls(state.rules, outcome, state.deal, tuple(state.moves), first_hand, turn, forfeit,
                   state.allpass_count, 3, dealer)

    def seat_of(self, seat: int) -> int:
        """The table seat of the deal's ``seat``."""
        return (self.first_hand + seat) % self.players

    def replay(self) -> Iterator[tuple[DealState, Move]]:
        """Each move with the state of the deal right before it (the live state,
        changed by the next step: :meth:`DealState.copy` keeps one)."""
        if self.deal is None:
            return
        state = self.state(upto=0)
        for move in self.moves:
            yield state, move
            state.apply(move.decision)

    def state(self, upto: int | None = None) -> DealState:
        """The deal after its first ``upto`` moves (all by default)."""
        if self.deal is None:
            raise GameError(_("this record holds only the result of the deal, not its cards and moves"))
        state = DealState(self.deal, self.rules, allpass_count=self.allpass_count, turn=self.turn)
        for move in self.moves[:upto]:
            state.apply(move.decision)
        return state

    def balances(self) -> tuple[Fraction, ...]:
        """Each table seat's result in whists, the deal scored and settled alone (RULES.md §6.4)."""
        if self.outcome is None:
            assert self.forfeit is not None
            raise GameError(_("the game was forfeited at move {move}: it has no result", move=self.forfeit.move))
        rules = self.rules.replace(players=self.players)
        s = score_deal(self.outcome, rules, self.players, self.allpass_count)
        return settle(s.pool, s.mountain, s.whists, rules)

    def deal_kind(self) -> str | None:
        """``game``, ``misere`` or ``allpass`` (None for a game forfeited in the auction)."""
        if isinstance(self.outcome, AllPassDeal):
            return "allpass"
        if isinstance(self.outcome, GameDeal):
            return "misere" if self.outcome.contract.is_misere else "game"
        return self.state().deal_kind() if self.deal is not None else None

    def to_dict(self, players: Sequence[str]) -> dict[str, Any]:
        """The deal's JSON object in a session of ``players`` (docs/GAME_FORMAT.md)."""
        out: dict[str, Any] = {}
        if self.dealer is not None:
            out["dealer"] = players[self.dealer]
        if self.deal is not None:
            out.update(self._moves_dict(players))
        if self.outcome is not None:
            out.update(_outcome_dict(self.outcome, players))
        return out

    def _moves_dict(self, players: Sequence[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"first_hand": players[self.first_hand], "deal": str(self.deal)}
        by_kind: dict[str, list[Move]] = {k: [] for k in KINDS}
        for move in self.moves:
            by_kind[move.kind].append(move)
        out["calls"] = [str(m.decision) for m in by_kind[CALL]]
        for m in by_kind[DECLARATION]:
            d = m.decision
            assert isinstance(d, Declaration)
            out["contract"] = str(d.contract)
            if d.discard is not None:
                out["discard"] = d.discard.to_list()
            if d.conceded:
                out["conceded"] = True
        if by_kind[WHIST_CALL]:
            out["whist"] = [str(m.decision) for m in by_kind[WHIST_CALL]]
        for m in by_kind[DEFENCE]:
            out["open"] = m.decision == OPEN
        if by_kind[CARD]:
            out["played"] = [str(m.decision) for m in by_kind[CARD]]
        if self.turn is not None:
            out["turn"] = self.turn.to_list()
        if self.forfeit is not None:
            out["forfeit"] = {"player": players[self.seat_of(self.forfeit.seat)], "move": self.forfeit.move,
                              "reason": english(self.forfeit.reason)}
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], players: Sequence[str], rules: Rules,
                  allpass_count: int = 0) -> GameRecord:
        """One deal of a game file: the result alone (RULES.md §9), or the cards and
        the moves (docs/GAME_FORMAT.md), replayed by the rules and checked against
        whatever result the deal also gives."""
        if not isinstance(d, Mapping):
            raise ScoringError(_("a deal must be an object, got {value}", value=repr(d)))
        n = len(players)
        if not any(k in d for k in MOVE_FIELDS):
            outcome = deal_from_dict(d, players, rules)
            return cls(rules, outcome, players=n, dealer=outcome.dealer, allpass_count=allpass_count)
        return _record_with_moves(d, players, rules, allpass_count)


def _to_table(outcome: DealOutcome, first_hand: int, dealer: int | None, n: int = 3) -> DealOutcome:
    """An outcome in the deal's seats moved to table seats (first hand at ``first_hand``)."""
    def seat(s: int) -> int:
        return (first_hand + s) % n

    tricks = None if outcome.tricks is None else tuple(outcome.tricks[(t - first_hand) % n] for t in range(n))
    if isinstance(outcome, AllPassDeal):
        assert tricks is not None
        return AllPassDeal(tricks, dealer)
    return replace(outcome, declarer=seat(outcome.declarer), tricks=tricks, dealer=dealer)


def _outcome_dict(outcome: DealOutcome, players: Sequence[str]) -> dict[str, Any]:
    """The result's fields of RULES.md §9, in the speaking-order form of the whist calls."""
    tricks = None if outcome.tricks is None else {p: t for p, t in zip(players, outcome.tricks)}
    if isinstance(outcome, AllPassDeal):
        return {"all_pass": True, "tricks": tricks}
    out: dict[str, Any] = {"declarer": players[outcome.declarer], "contract": str(outcome.contract)}
    if outcome.whist_calls:
        out["whist"] = list(outcome.whist_calls)
    if not outcome.contract.is_misere and outcome.tricks is not None:
        out["open"] = outcome.open      # how the hand was played (RULES.md §3.2): recorded, scores nothing
    if outcome.talon is not None:
        out["talon"] = list(outcome.talon)
    if outcome.conceded:
        out["conceded"] = True
    if tricks is not None:
        out["tricks"] = tricks
    return out


def _record_with_moves(d: Mapping[str, Any], players: Sequence[str], rules: Rules,
                       allpass_count: int) -> GameRecord:
    """A deal given with its cards and moves: replayed move by move, each checked."""
    extra = set(d) - set(MOVE_FIELDS) - set(OUTCOME_FIELDS) - {"dealer"}
    if extra:
        raise GameError(_("unknown deal field(s) {fields}", fields=repr(sorted(map(str, extra)))))
    if len(players) != 3:
        raise GameError(_("a deal with its cards and moves is recorded for three players"))
    index = {p: i for i, p in enumerate(players)}

    def seat_of_name(key: str) -> int | None:
        name = d.get(key)
        if name is None:
            return None
        if not isinstance(name, str) or name not in index:
            raise GameError(_("\"{key}\": unknown player {name} (players: {players})", key=key, name=repr(name),
                              players=", ".join(players)))
        return index[name]

    dealer = seat_of_name("dealer")
    first = seat_of_name("first_hand")
    if first is None:
        if dealer is None:
            raise GameError(_("a deal with its cards names its \"first_hand\" (or its \"dealer\")"))
        first = (dealer + 1) % 3
    elif dealer is not None and first != (dealer + 1) % 3:
        raise GameError(_("first hand {first} is not on the left of the dealer {dealer}", first=repr(players[first]),
                          dealer=repr(players[dealer])))
    if not isinstance(d.get("deal"), str):
        raise GameError(_("\"deal\" must be the deal's text, seat 0 (first hand) first, got {value}",
                          value=repr(d.get("deal"))))
    state = DealState(d["deal"], rules, allpass_count=allpass_count, turn=d.get("turn"))
    for value in _recorded_moves(d, state):
        state.apply(value)
    forfeit = _forfeit_of(d.get("forfeit"), state, index, first)
    if forfeit is None and not state.is_over():
        raise GameError(_("the record stops at move {number} ({kind} of seat {seat}), but the deal is not over and "
                          "no \"forfeit\" says why", number=len(state.moves) + 1, kind=kind_word(str(state.kind)),
                          seat=state.to_move))
    record = GameRecord.of(state, first_hand=first, forfeit=forfeit, dealer=dealer)
    if record.outcome is not None:
        _check_outcome(d, record.outcome, players, rules)
    return record


def _recorded_moves(d: Mapping[str, Any], state: DealState) -> Iterator[object]:
    """The moves of a deal's JSON in the order the deal asks for them; a move
    left over when its phase is over is an error naming the move it would be."""
    def items(key: str) -> list:
        value = d.get(key, [])
        if isinstance(value, str):
            value = value.split()
        if not isinstance(value, list):
            raise GameError(_("\"{key}\" must be a list, got {value}", key=key, value=repr(value)))
        return list(value)

    queues = {CALL: items("calls"), WHIST_CALL: items("whist"), CARD: items("played")}
    declared = "contract" in d and not d.get("all_pass", False)
    while True:
        _left_over(state, queues)
        if state.is_over():
            return
        kind = state.kind
        if kind in queues:
            if not queues[kind]:
                return
            yield queues[kind].pop(0)
        elif kind == DECLARATION:
            if not declared:
                return
            declared = False
            yield {k: d[k] for k in ("contract", "discard", "conceded") if k in d}
        elif kind == DEFENCE:
            value = d.get("open", True)
            if type(value) is not bool:
                raise GameError(_("\"open\" must be true or false, got {value}", value=repr(value)))
            yield OPEN if value else CLOSED


def _left_over(state: DealState, queues: Mapping[str, list]) -> None:
    over = {CALL: state.auction is not None,
            WHIST_CALL: state.whist is not None or state.is_over() or state.kind == CARD,
            CARD: state.is_over()}
    for kind, queue in queues.items():
        if queue and over[kind]:
            if state.is_over():
                what = _("the deal is over")
            else:
                what = {CALL: _("the auction is over"), WHIST_CALL: _("the whist calls are over"),
                        CARD: _("the play is over")}[kind]
            more = ", ".join(map(str, queue[:3])) + (" …" if len(queue) > 3 else "")
            raise GameError(ngettext("move {number}: {what}, but the record has {n} more {kind}(s) ({more})",
                                     "move {number}: {what}, but the record has {n} more {kind}(s) ({more})",
                                     len(queue), number=len(state.moves) + 1, what=what, kind=kind_word(kind),
                                     more=more))


def _forfeit_of(raw: object, state: DealState, index: Mapping[str, int], first: int) -> Forfeit | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(raw) - {"player", "move", "reason"}:
        raise GameError(_("\"forfeit\" is an object with \"player\", \"move\" and \"reason\", got {value}",
                          value=repr(raw)))
    if state.is_over():
        raise GameError(_("the record has a \"forfeit\", but its deal is over"))
    seat = state.decider
    assert seat is not None
    name = raw.get("player")
    if not isinstance(name, str) or name not in index or (index[name] - first) % 3 != seat:
        raise GameError(_("\"forfeit\": move {number} was seat {seat}'s to decide, not that of {name}",
                          number=len(state.moves) + 1, seat=seat, name=repr(name)))
    if raw.get("move") != len(state.moves) + 1:
        raise GameError(_("\"forfeit\": the record stops before move {number}, not {value}",
                          number=len(state.moves) + 1, value=repr(raw.get("move"))))
    reason = raw.get("reason", "")
    if not isinstance(reason, str):
        raise GameError(_("\"forfeit\": the reason is text, got {value}", value=repr(reason)))
    return Forfeit(seat, len(state.moves) + 1, reason)


def _check_outcome(d: Mapping[str, Any], outcome: DealOutcome, players: Sequence[str], rules: Rules) -> None:
    """The result fields a deal gives beside its moves must be those the moves lead to."""
    derived = _outcome_dict(outcome, players)
    if "all_pass" in d and d["all_pass"] != isinstance(outcome, AllPassDeal):
        if isinstance(outcome, AllPassDeal):
            raise GameError(_("\"all_pass\": {value} does not match the moves, which give an all-pass",
                              value=repr(d["all_pass"])))
        raise GameError(_("\"all_pass\": {value} does not match the moves, which give a contract",
                          value=repr(d["all_pass"])))
    for key in OUTCOME_FIELDS:
        if key not in d or key in ("contract", "conceded", "all_pass") or (key == "whist" and isinstance(d[key], list)):
            continue        # the declaration and the whist calls as a list are moves, replayed above
        given = deal_from_dict({**derived, key: d[key]}, players, rules)
        if not _same_outcome(given, outcome):
            raise GameError(_("\"{key}\": {value} does not match the moves, which give {derived}", key=key,
                              value=repr(d[key]), derived=repr(derived.get(key))))


def _same_outcome(a: DealOutcome, b: DealOutcome) -> bool:
    if isinstance(a, GameDeal) and isinstance(b, GameDeal):
        return replace(a, talon=None, dealer=None) == replace(b, talon=None, dealer=None) and \
            _talon_set(a.talon) == _talon_set(b.talon)
    return type(a) is type(b) and a.tricks == b.tricks


def _talon_set(talon: Sequence[str] | None) -> frozenset[Card] | None:
    return None if talon is None else frozenset(Card.parse(c) for c in talon)


# -- sessions ------------------------------------------------------------------------
#: Scalar values of a session's tags.
Tag = str | int | float | bool | None


@dataclass(frozen=True)
class Session:
    """A session (пуля): the players in clockwise order, the rules and the records of
    its deals, with optional ``tags`` (a match's name, the deal's number, …) that
    no score reads.

    >>> s = Session.from_dict({"players": ["A", "B", "C"], "deals": [
    ...     {"all_pass": True, "tricks": {"A": 0, "B": 4, "C": 6}}]})
    >>> [str(x) for x in s.sheet().settlement()]
    ['40', '-10', '-30']
    >>> Session.from_dict(s.to_dict()) == s
    True
    """

    players: tuple[str, ...]
    rules: Rules
    records: tuple[GameRecord, ...] = ()
    tags: FrozenMap[str, Tag] = field(default_factory=FrozenMap)

    def sheet(self) -> ScoreSheet:
        """The score sheet of every deal (RULES.md §5, §6); a forfeited game is an error."""
        outcomes = []
        for i, record in enumerate(self.records):
            if record.outcome is None:
                assert record.forfeit is not None
                who = self.players[record.seat_of(record.forfeit.seat)]
                raise GameError(_("deal {number} was forfeited by {player} at move {move}: it has no result to score",
                                  number=i + 1, player=repr(who), move=record.forfeit.move))
            outcomes.append(record.outcome)
        return ScoreSheet.new(self.players, self.rules).add_all(outcomes)

    def to_dict(self) -> dict[str, Any]:
        """The session's JSON object (docs/GAME_FORMAT.md)."""
        out: dict[str, Any] = {"players": list(self.players), "rules": self.rules.name}
        base = Rules.profile(self.rules.name)
        switches = {k: v for k, v in self.rules.to_dict().items()
                    if k not in ("name", "players", "pool_target") and getattr(base, k) != v}
        if switches:
            out["switches"] = switches
        if self.rules.pool_target != base.pool_target:
            out["pool_target"] = self.rules.pool_target
        if self.tags:
            out["tags"] = dict(self.tags)
        out["deals"] = [r.to_dict(self.players) for r in self.records]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], profile: str | None = None,
                  settings: Iterable[str] = ()) -> Session:
        """A session from its JSON object: a game file of RULES.md §9, whose deals
        may also give their cards and moves (docs/GAME_FORMAT.md). ``profile`` and
        ``settings`` override the file's rules as ``prefsolve score`` does."""
        if not isinstance(data, Mapping):
            raise ScoringError(_("a game file must be a JSON object"))
        header = {k: v for k, v in data.items() if k != "tags"}
        rules = game_rules(header, profile, settings)
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ScoringError(_("\"players\" must be a list of 3 or 4 names, got {value}", value=repr(players)))
        names = ScoreSheet.new(players, rules).players      # 3 or 4 distinct names
        rules = rules.replace(players=len(names))
        deals = data.get("deals", [])
        if not isinstance(deals, list):
            raise ScoringError(_("\"deals\" must be a list, got {value}", value=repr(deals)))
        records, streak = [], 0
        for i, d in enumerate(deals):
            try:
                record = GameRecord.from_dict(d, names, rules, streak)
            except GameError as exc:
                raise GameError(_("deal {number}: {message}", number=i + 1, message=exc)) from None
            except PrefsolveError as exc:
                raise ScoringError(_("deal {number}: {message}", number=i + 1, message=exc)) from None
            records.append(record)
            streak = streak + 1 if isinstance(record.outcome, AllPassDeal) else 0
        return cls(names, rules, tuple(records), _tags(data.get("tags", {})))


def _tags(raw: object) -> FrozenMap[str, Tag]:
    if not isinstance(raw, Mapping) or not all(isinstance(k, str) and (v is None or isinstance(v, (str, int, float)))
                                               for k, v in raw.items()):
        raise ScoringError(_("\"tags\" must map names to text, numbers, true/false or null, got {value}",
                             value=repr(raw)))
    return FrozenMap(raw)


def load_session(text: str, profile: str | None = None, settings: Iterable[str] = ()) -> Session:
    """A session from a file's text: one JSON object, or JSON lines, each a session
    object of the same players and rules whose deals follow one another (a session
    written deal by deal). Raises :class:`~prefsolve.errors.ScoringError` naming
    the line of a bad one."""
    documents = json_documents(text, lambda exc: ScoringError(_("not a JSON game file: {reason}", reason=exc)))
    data = documents[0][1] if documents[0][0] is None else _joined_lines(documents)
    return Session.from_dict(data, profile, settings)


def json_documents(text: str, not_json: Callable[[ValueError], PrefsolveError]) -> list[tuple[int | None, Any]]:
    """The JSON of a game file's text: ``[(None, value)]`` when the text is one JSON document,
    or ``(line number, value)`` for each non-blank line of JSON lines (two lines or more).
    Raises ``not_json(reason)`` when the text is neither, and the same class naming the line
    when a line is not JSON."""
    try:
        return [(None, json.loads(text))]
    except ValueError as exc:
        lines = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise not_json(exc) from None
        error = type(not_json(exc))
    documents: list[tuple[int | None, Any]] = []
    for number, line in lines:
        try:
            documents.append((number, json.loads(line)))
        except ValueError as exc:
            raise error(_("line {number}: not JSON: {reason}", number=number, reason=exc)) from None
    return documents


def _joined_lines(lines: list[tuple[int | None, Any]]) -> dict[str, Any]:
    """JSON lines of one session: the same header on each line, the deals joined."""
    head: dict[str, Any] | None = None
    deals: list = []
    for number, data in lines:
        if not isinstance(data, dict):
            raise ScoringError(_("line {number}: a line is a session object, got {value}", number=number,
                                 value=repr(json.dumps(data, ensure_ascii=False)[:60])))
        line_head = {k: v for k, v in data.items() if k not in ("deals", "tags")}
        if head is None:
            head = line_head
        elif line_head != head:
            raise ScoringError(_("line {number}: its players or rules differ from line {first}'s: the lines of one "
                                 "session share them (a match's records are separate games)", number=number,
                                 first=lines[0][0]))
        more = data.get("deals", [])
        if not isinstance(more, list):
            raise ScoringError(_("line {number}: \"deals\" must be a list", number=number))
        deals += more
    assert head is not None
    return {**head, "deals": deals}


def dump_session(session: Session) -> str:
    """A session as one line of JSON (a line of a JSON lines file)."""
    return json.dumps(session.to_dict(), ensure_ascii=False)


__all__ = ["KINDS", "PHASES", "PHASE_OF", "DEFENCES", "DEAL_KINDS", "Declaration", "Decision", "Move",
           "DealState", "Forfeit", "GameRecord", "Session", "parse_decision", "decision_json", "load_session",
           "dump_session"]
