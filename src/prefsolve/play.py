"""Play analysis: a position in the play of a deal, and the value of every card.

A :class:`Position` is a deal (the hands as played: after the discard, no
talon pickup) plus the cards played so far, in playing order across trick
boundaries, in the style of python-chess's ``Board``: :meth:`Position.push`,
:meth:`Position.pop`, :meth:`Position.legal_cards`. Its analysis answers
"what is each card worth here?": :func:`card_values` maps every legal card of
the player to move to the declarer's **total** tricks for the deal (tricks
already won included) if that card is played and everyone plays perfectly
afterwards; :func:`best_line` plays one optimal continuation to the end.

Strains are those of :mod:`prefsolve.solver` plus ``"allpass"`` (all-pass,
распасы): no trump, and the "declarer" is the player P whose tricks are
counted; P plays to take as few as possible, the other two to give him as
many as possible (the guaranteed answer of RULES.md §4.4). With
``talon="lead"`` and a deal with a talon, the two talon cards are turned one
at a time and each starts one of the first two tricks: it sets the suit,
seats 0, 1, 2 play to it in that order, and the highest card of that suit
played by a player wins. ``talon="ignore"`` plays the hands as in misère.

>>> deal = "AK.-.-.- QJ.-.-.- 7.7.-.-"
>>> pos = Position(deal, declarer=0, strain="NT", played=["SA"])
>>> pos.to_move, [str(c) for c in pos.legal_cards()]
(1, ['SQ', 'SJ'])
>>> {str(c): v for c, v in pos.card_values().items()}
{'SQ': 2, 'SJ': 2}
>>> print(best_line(deal, 0, "NT").format())
Trick 1: 0 ♠A  1 ♠Q  2 ♠7   won by 0
Trick 2: 0 ♠K  1 ♠J  2 ♣7   won by 0
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, cast

from .cards import SUIT_SYMBOLS, Card, Hand, parse_cards
from .deal import Deal, check_seat
from .errors import (CardError, DealError, IllegalPlayError, PrefsolveError, RulesError, SeatError,
                     StrainError)
from .engine import Solver
from .solver import STRAIN_SYMBOLS, STRAINS, as_deal, check_solver, default_solver, parse_strain, trump_of

ALLPASS = "allpass"
PLAY_STRAINS = STRAINS + (ALLPASS,)
TALON_MODES = ("lead", "ignore")
_ALLPASS_ALIASES = {"ALLPASS", "ALL-PASS", "ALL PASS", "RASPASY", "РАСПАСЫ",
                    "РАСПАСОВКА"}


def parse_play_strain(strain: object) -> str:
    """Canonical strain for play: one of ``S C D H NT misere allpass``.

    >>> parse_play_strain("All-pass"), parse_play_strain("♠")
    ('allpass', 'S')
    """
    if isinstance(strain, str) and strain.strip().upper() in _ALLPASS_ALIASES:
        return ALLPASS
    try:
        return parse_strain(strain)
    except StrainError:
        raise StrainError(
            f"unknown strain {strain!r}: expected one of {', '.join(PLAY_STRAINS)}"
        ) from None


def canonical_turn(talon: Hand) -> tuple[Card, ...]:
    """The talon cards in the canonical turning order: by suit ♠ ♣ ♦ ♥, higher rank first.

    >>> canonical_turn(Hand.parse("8.Q.-.A"))
    (Card.parse('S8'), Card.parse('CQ'), Card.parse('HA'))
    """
    return tuple(sorted(talon, key=lambda c: (c.suit, -c.rank)))


def _as_card(card: object) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise CardError(f"expected a card such as 'SA', got {card!r}")


def _as_cards(cards: object, what: str) -> list[Card]:
    """A card sequence from text (``"SA S7"``) or an iterable of cards / card texts."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, Card):
        return [cards]
    if isinstance(cards, (Mapping, set, frozenset)):    # no order of play (a dict would give its keys)
        raise CardError(f"{what} must be cards in order, such as 'SA S7' or a list, got a "
                        f"{type(cards).__name__}")
    try:
        # Whatever is not iterable raises the TypeError caught below.
        return [_as_card(c) for c in cast("Iterable[object]", cards)]
    except TypeError:
        raise CardError(f"{what} must be cards such as 'SA S7', got {cards!r}") from None


def _clipped(text: str, limit: int = 200) -> str:
    """``repr(text)``, cut in the middle when long: an error stays one readable line."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit // 2]) + f" … ({len(text) - limit} characters) … " + repr(text[-limit // 2:])


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _symbols(cards: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def _talon_queue(deal: Deal, strain: str, leader: int, talon: str,
                 turn: object) -> tuple[Card, ...]:
    """The talon cards that lead the first tricks, in turning order (empty if none)."""
    if talon not in TALON_MODES:
        raise RulesError(f"unknown all-pass talon mode {talon!r}: expected 'lead' or 'ignore'")
    if strain != ALLPASS or talon == "ignore":
        if turn is not None:
            why = (f"strain {strain!r} plays no talon card" if strain != ALLPASS
                   else "with the talon ignored no talon card is played")
            raise DealError(f"turn {turn!r} orders the talon cards that lead tricks 1 and 2 "
                            f"of all-pass; {why}")
        return ()
    if leader != 0:
        raise SeatError(
            f"in all-pass with the talon leading, seat 0 (first hand) plays first to "
            f"tricks 1 and 2; leader must be 0, got {leader!r}"
        )
    if turn is None:
        if deal.talon is None:
            raise DealError(
                f"all-pass with talon='lead' needs a deal with a talon; deal {str(deal)!r} has "
                f"none (play it with talon='ignore' / --talon ignore, or give the turned cards "
                f"as turn= / --turn)"
            )
        return canonical_turn(deal.talon)
    cards = _as_cards(turn, "turn")
    text = turn if isinstance(turn, str) else _cards_text(cards)
    if deal.talon is not None:
        if len(cards) != 2 or set(cards) != set(deal.talon):
            raise DealError(
                f"turn {text!r} must be the deal's two talon cards "
                f"{_cards_text(canonical_turn(deal.talon))}, in the order they are turned"
            )
        return tuple(cards)
    # An ending without talon: the turned cards lead the next tricks (a study position).
    held = deal.hands[0].mask | deal.hands[1].mask | deal.hands[2].mask
    if not 1 <= len(cards) <= 2 or len(set(cards)) != len(cards):
        raise DealError(f"turn {text!r} must be one or two different talon cards")
    if any(held >> c.index & 1 for c in cards):
        raise DealError(f"turn {text!r}: a talon card cannot also be in a hand of {str(deal)!r}")
    if len(cards) > deal.tricks:
        raise DealError(f"turn {text!r}: more talon cards than the {deal.tricks} tricks to play")
    return tuple(cards)


def _beats(card: Card, best: Card, trump: int) -> bool:
    if card.suit == best.suit:
        return card.rank > best.rank
    return card.suit == trump


def _winner(leader: int, cards: tuple[Card, ...], led: int, trump: int) -> int:
    """Seat winning a complete trick; the first card of the suit led starts the race.

    Under a talon card nobody may have followed; then first hand takes the
    trick, as the engine does (cannot happen in a real 10-card deal).
    """
    best: Card | None = None
    seat = 0
    for i, card in enumerate(cards):
        if (best is None and card.suit == led) or (best is not None and _beats(card, best, trump)):
            best, seat = card, (leader + i) % 3
    return seat


@dataclass(frozen=True)
class Trick:
    """One trick: the players' cards in playing order from ``leader``.

    ``talon`` is the talon card that started it (all-pass), which sets the
    suit but cannot win; ``winner`` is None while the trick is incomplete.

    >>> t = Trick(0, (Card.parse("SA"), Card.parse("S7"), Card.parse("H8")), 0)
    >>> t.format(), t.seats
    ('0 ♠A  1 ♠7  2 ♥8   won by 0', (0, 1, 2))
    """

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None
    talon: Card | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat that played each card."""
        return tuple((self.leader + i) % 3 for i in range(len(self.cards)))

    def format(self) -> str:
        plays = "  ".join(f"{s} {c.symbol}" for s, c in zip(self.seats, self.cards))
        head = f"talon {self.talon.symbol}" + (": " if plays else "") if self.talon else ""
        tail = f"   won by {self.winner}" if self.winner is not None else ""
        return head + plays + tail

    def to_dict(self) -> dict:
        return {
            "leader": self.leader,
            "talon": str(self.talon) if self.talon else None,
            "cards": [str(c) for c in self.cards],
            "seats": list(self.seats),
            "winner": self.winner,
        }


@dataclass(frozen=True)
class Line:
    """One optimal continuation from a position to the end of the play.

    ``cards``: the continuation in playing order; ``by_trick``: every trick it
    touches, complete (a trick that was under way includes the cards already on
    the table), with its winner; ``tricks``: the declarer's total tricks at the
    end, the value of the position; ``tricks_won``: every seat's total.
    """

    declarer: int
    strain: str
    tricks: int
    cards: tuple[Card, ...]
    by_trick: tuple[Trick, ...]
    tricks_won: tuple[int, int, int]
    first_trick: int = 1

    def format(self) -> str:
        """One line per trick: ``Trick 3: 0 ♠A  1 ♠7  2 ♠8   won by 0``."""
        return "\n".join(f"Trick {self.first_trick + i}: {t.format()}"
                         for i, t in enumerate(self.by_trick))

    def to_dict(self) -> dict:
        return {
            "declarer": self.declarer,
            "strain": self.strain,
            "tricks": self.tricks,
            "tricks_won": {str(s): n for s, n in enumerate(self.tricks_won)},
            "cards": [str(c) for c in self.cards],
            "first_trick": self.first_trick,
            "by_trick": [t.to_dict() for t in self.by_trick],
        }


@dataclass(frozen=True)
class Mistake:
    """A played card that cost its side tricks against the best play.

    ``move``: 1-based index in the played cards; ``value``: the declarer's
    total tricks after this card with perfect play; ``best``: the same after
    the best card(s) ``best_cards``; ``cost``: tricks the player's side lost.
    """

    move: int
    trick: int
    seat: int
    card: Card
    value: int
    best: int
    best_cards: tuple[Card, ...]

    @property
    def cost(self) -> int:
        return abs(self.best - self.value)

    def format(self) -> str:
        s = "" if self.cost == 1 else "s"
        return (f"card {self.move} (trick {self.trick}), seat {self.seat} {self.card.symbol}: "
                f"lost {self.cost} trick{s}; best {_symbols(self.best_cards)} "
                f"(total {self.best} with the best card, {self.value} after this one)")

    def to_dict(self) -> dict:
        return {"move": self.move, "trick": self.trick, "seat": self.seat, "card": str(self.card),
                "value": self.value, "best": self.best, "cost": self.cost,
                "best_cards": [str(c) for c in self.best_cards]}


class Position:
    """A deal in play: the hands, the cards played so far, whose turn it is.

    ``deal`` holds the hands as played (after the discard); a talon in it
    takes no part except in all-pass with ``talon="lead"``, where its cards
    start tricks 1 and 2 in the order ``turn`` (default: :func:`canonical_turn`).
    For an all-pass ending without talon, ``turn`` may name 1 or 2 cards out
    of the hands that lead the next tricks (a study position). ``talon``
    (``"lead"``, the default, or ``"ignore"``) is for all-pass only; given
    in another strain it is an error, since it would change nothing.

    >>> pos = Position("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-", 1, "allpass")
    >>> [c.symbol for c in pos.turn], pos.to_move, pos.talon_card.symbol
    (['♠8', '♣Q'], 0, '♠8')
    >>> pos.push("SA"); pos.push("SJ"); pos.push("SK")
    >>> pos.tricks_won, pos.tricks[-1].format()
    ((1, 0, 0), 'talon ♠8: 0 ♠A  1 ♠J  2 ♠K   won by 0')
    >>> Position.parse(str(pos)) == pos
    True
    """

    __hash__ = None  # type: ignore[assignment]  # mutable, like chess.Board

    def __init__(self, deal: Deal | str, declarer: int, strain: str, leader: int = 0, *,
                 talon: str | None = None, turn: object = None, played: object = (),
                 solver: Solver | None = None) -> None:
        self.deal = as_deal(deal)
        self.declarer = check_seat(declarer, "declarer")
        self.strain = parse_play_strain(strain)
        self.leader = check_seat(leader, "leader")
        if talon is not None and self.strain != ALLPASS:
            raise RulesError(f"talon={talon!r} is for all-pass (strain 'allpass'); in {self.strain} "
                             f"the talon is the declarer's discard and plays no part")
        #: All-pass: "lead" (the default) or "ignore"; None in the other strains.
        self.talon: str | None = ("lead" if talon is None else talon) if self.strain == ALLPASS else None
        self.turn: tuple[Card, ...] = _talon_queue(self.deal, self.strain, self.leader,
                                                   "lead" if self.talon is None else self.talon, turn)
        self.minimize = self.strain in ("misere", ALLPASS)
        self.trump = -1 if self.minimize else trump_of(self.strain)
        if solver is not None:
            check_solver(solver)    # a bad one is named now, not at the first solve
        self._solver = solver
        self._hands = [h.mask for h in self.deal.hands]
        self._won = [0, 0, 0]
        self._tricks: list[Trick] = []
        self._cur: list[Card] = []
        self._played: list[Card] = []
        self._undo: list[tuple] = []
        for i, card in enumerate(_as_cards(played, "played"), 1):
            try:
                self.push(card)
            except IllegalPlayError as exc:
                raise IllegalPlayError(f"{exc} (card {i} of the played cards)") from None

    # -- state -------------------------------------------------------------

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far, in order (talon cards not included)."""
        return tuple(self._played)

    @property
    def hands(self) -> tuple[Hand, Hand, Hand]:
        """The cards each seat still holds."""
        return tuple(Hand(m) for m in self._hands)  # type: ignore[return-value]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, with their winners."""
        return tuple(self._tricks)

    @property
    def tricks_won(self) -> tuple[int, int, int]:
        """Completed tricks won by seats 0, 1, 2."""
        return tuple(self._won)  # type: ignore[return-value]

    @property
    def trick_number(self) -> int:
        """1-based number of the trick under way (the next one at a trick boundary)."""
        return len(self._tricks) + 1

    @property
    def talon_card(self) -> Card | None:
        """The talon card leading the current trick (all-pass), else None."""
        k = len(self._tricks)
        return self.turn[k] if k < len(self.turn) else None

    @property
    def trick_leader(self) -> int:
        """The seat that plays (or played) the first card of the current trick."""
        if self.talon_card is not None:
            return 0
        if not self._tricks:
            return self.leader
        return self._tricks[-1].winner  # type: ignore[return-value]

    @property
    def trick(self) -> tuple[Card, ...]:
        """The players' cards on the table in the current trick."""
        return tuple(self._cur)

    @property
    def current_trick(self) -> Trick:
        """The current trick as a :class:`Trick` without winner."""
        return Trick(self.trick_leader, self.trick, None, self.talon_card)

    def is_over(self) -> bool:
        """Whether every card has been played."""
        return self._hands[0] == 0 and not self._cur

    @property
    def to_move(self) -> int | None:
        """The seat to play next, or None when the play is over."""
        if self.is_over():
            return None
        return (self.trick_leader + len(self._cur)) % 3

    @property
    def led_suit(self) -> int | None:
        """The suit to follow in the current trick (set by the talon card or the lead)."""
        if self.talon_card is not None:
            return self.talon_card.suit
        return self._cur[0].suit if self._cur else None

    def maximizing(self, seat: int) -> bool:
        """Whether ``seat`` wants the declarer's count high.

        The declarer in a game, the defence in misère and all-pass.
        """
        return (seat == self.declarer) != self.minimize

    # -- moves -------------------------------------------------------------

    def legal_cards(self) -> list[Card]:
        """The cards the player to move may play, ♠ ♣ ♦ ♥ and high to low."""
        seat = self.to_move
        if seat is None:
            return []
        hand = self._hands[seat]
        led = self.led_suit
        allowed = hand
        if led is not None:
            follow = hand & (0xFF << (8 * led))
            trumps = hand & (0xFF << (8 * self.trump)) if self.trump >= 0 else 0
            allowed = follow or trumps or hand
        cards = [Card.from_index(i) for i in range(32) if allowed >> i & 1]
        return sorted(cards, key=lambda c: (c.suit, -c.rank))

    def is_legal(self, card: Card | str) -> bool:
        return _as_card(card) in self.legal_cards()

    def _check(self, card: Card) -> None:
        seat = self.to_move
        if seat is None:
            raise IllegalPlayError(
                f"cannot play {card}: all {self.deal.tricks} tricks have been played")
        where = f"cannot play {card} (seat {seat}, trick {self.trick_number})"
        hand = Hand(self._hands[seat])
        if card not in hand:
            if card in self.played:
                raise IllegalPlayError(f"{where}: it was already played "
                                       f"(card {self.played.index(card) + 1} of the play)")
            if card in self.turn:
                raise IllegalPlayError(f"{where}: it is a talon card, turned to lead trick "
                                       f"{self.turn.index(card) + 1}; list only the players' cards")
            holder = next((s for s in range(3) if self._hands[s] >> card.index & 1), None)
            if holder is not None:
                whose = f"seat {holder} holds it"
            elif self.deal.talon is not None and card in self.deal.talon:
                whose = "it is in the talon, out of play"
            else:
                whose = "nobody holds it"
            raise IllegalPlayError(
                f"{where}: it is not in seat {seat}'s hand ({hand.symbols() or 'empty'}); {whose}")
        led = self.led_suit
        if led is None or card.suit == led:
            return
        if hand.suit_ranks(led):
            raise IllegalPlayError(
                f"{where}: must follow suit {SUIT_SYMBOLS[led]} "
                f"(holds {SUIT_SYMBOLS[led]}{hand.suit_ranks(led)})")
        if self.trump >= 0 and card.suit != self.trump and hand.suit_ranks(self.trump):
            raise IllegalPlayError(
                f"{where}: void in {SUIT_SYMBOLS[led]}, must trump with {SUIT_SYMBOLS[self.trump]} "
                f"(holds {SUIT_SYMBOLS[self.trump]}{hand.suit_ranks(self.trump)})")

    def push(self, card: Card | str) -> None:
        """Play a card (a :class:`Card` or text such as ``"SA"``) for the seat to move.

        Raises :class:`IllegalPlayError` naming the card and the rule broken.
        """
        card = _as_card(card)
        self._check(card)
        seat = self.to_move
        assert seat is not None   # _check refused a card after the last trick
        self._undo.append((list(self._hands), list(self._won), len(self._tricks), list(self._cur)))
        self._hands[seat] &= ~(1 << card.index)
        self._cur.append(card)
        self._played.append(card)
        if len(self._cur) == 3:
            leader, talon_card = self.trick_leader, self.talon_card
            led = talon_card.suit if talon_card else self._cur[0].suit
            winner = _winner(leader, tuple(self._cur), led, self.trump)
            self._tricks.append(Trick(leader, tuple(self._cur), winner, talon_card))
            self._won[winner] += 1
            self._cur = []

    def pop(self) -> Card:
        """Take back the last card played and return it."""
        if not self._played:
            raise IllegalPlayError("no card to take back: nothing has been played")
        hands, won, n_tricks, cur = self._undo.pop()
        self._hands, self._won, self._cur = hands, won, cur
        del self._tricks[n_tricks:]
        return self._played.pop()

    def copy(self) -> Position:
        """An independent copy at the same point of the play."""
        other = Position(self.deal, self.declarer, self.strain, self.leader, talon=self.talon,
                         turn=self._turn_arg(), solver=self._solver)
        for card in self._played:
            other.push(card)
        return other

    # -- analysis ----------------------------------------------------------

    def _core(self) -> Solver:
        return self._solver or default_solver()

    def _engine_args(self) -> tuple:
        """The core's (leader, trick, talon_card, pending) for the current point."""
        k = len(self._tricks)
        trick = [c.index for c in self._cur]
        if k < len(self.turn):
            if trick:
                return 0, trick, self.turn[k].index, [c.index for c in self.turn[k + 1:]]
            return 0, (), -1, [c.index for c in self.turn[k:]]
        return self.trick_leader, trick, -1, ()

    def _rest(self) -> int:
        """Declarer's tricks from the current trick on, with perfect play."""
        if self.is_over():
            return 0
        leader, trick, talon_card, pending = self._engine_args()
        return self._core().value(self._hands, self.declarer, self.trump, self.minimize,
                                  leader, trick, talon_card, pending)

    def _reaches(self, total: int) -> bool:
        """Whether the declarer's total with perfect play is at least ``total``."""
        need = total - self._won[self.declarer]
        if need <= 0:
            return True
        if self.is_over() or need > self.deal.tricks - len(self._tricks):
            return False
        leader, trick, talon_card, pending = self._engine_args()
        return self._core().geq(self._hands, self.declarer, self.trump, self.minimize, need,
                                leader, trick, talon_card, pending)

    def value(self) -> int:
        """The declarer's total tricks for the deal with perfect play from here."""
        return self._won[self.declarer] + self._rest()

    def card_values(self) -> dict[Card, int]:
        """Each legal card → the declarer's total tricks if it is played, then perfect play.

        Every legal card appears (equivalent cards with equal values); empty
        when the play is over.
        """
        values = {}
        for card in self.legal_cards():
            self.push(card)
            try:
                values[card] = self.value()
            finally:
                self.pop()
        return values

    def best_cards(self, values: dict[Card, int] | None = None) -> list[Card]:
        """The legal cards that keep the best value for the side to move
        (``values``: this position's :meth:`card_values`, if already known)."""
        values = self.card_values() if values is None else values
        if not values:
            return []
        seat = self.to_move
        if seat is None:
            raise IllegalPlayError("the play is over: there are no card values to choose from")
        best = (max if self.maximizing(seat) else min)(values.values())
        return [c for c, v in values.items() if v == best]

    def best_line(self) -> Line:
        """One optimal continuation to the end (the position itself is unchanged)."""
        pos = self.copy()
        total = pos.value()
        first = pos.trick_number
        start = len(pos._played)
        while not pos.is_over():
            seat = pos.to_move
            assert seat is not None   # the play is not over
            up = pos.maximizing(seat)
            for card in pos.legal_cards():
                pos.push(card)
                # With the optimum known, a null-window probe decides whether a card keeps it.
                if pos._reaches(total) if up else not pos._reaches(total + 1):
                    break
                pos.pop()
            else:  # pragma: no cover - would mean the engine contradicts itself
                raise RuntimeError(f"no card keeps the value {total} in {pos}")
        assert pos._won[self.declarer] == total
        return Line(self.declarer, self.strain, total, tuple(pos._played[start:]),
                    tuple(pos._tricks[first - 1:]), pos.tricks_won, first)

    def mistakes(self) -> tuple[Mistake, ...]:
        """The played cards that cost their side tricks against the best play.

        In all-pass only the counted player's own cards: the values count his
        tricks alone, so the others' "best" cards are the ones that load him
        most, which need not be best for themselves.
        """
        pos = Position(self.deal, self.declarer, self.strain, self.leader, talon=self.talon,
                       turn=self._turn_arg(), solver=self._solver)
        found = []
        for move, card in enumerate(self._played, 1):
            seat = pos.to_move
            assert seat is not None   # card is still to be played
            if self.strain != ALLPASS or seat == self.declarer:
                values = pos.card_values()
                best_cards = pos.best_cards(values)
                best = values[best_cards[0]]
                if values[card] != best:
                    found.append(Mistake(move, pos.trick_number, seat, card, values[card],
                                         best, tuple(best_cards)))
            pos.push(card)
        return tuple(found)

    # -- text --------------------------------------------------------------

    def _turn_arg(self) -> tuple[Card, ...] | None:
        return self.turn if self.turn else None

    def __str__(self) -> str:
        fields = [str(self.deal), f"declarer={self.declarer}", f"strain={self.strain}",
                  f"leader={self.leader}"]
        if self.strain == ALLPASS:
            fields.append(f"talon={self.talon}")
            if self.turn:
                fields.append(f"turn={_cards_text(self.turn)}")
        fields.append(f"played={_cards_text(self._played)}")
        return "; ".join(fields)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and str(other) == str(self)

    @classmethod
    def parse(cls, text: str, *, solver: Solver | None = None) -> Position:
        """Read a position printed by ``str``: the deal, then ``key=value`` fields.

        >>> p = Position.parse("AK.-.-.- QJ.-.-.- 7.7.-.-; declarer=0; strain=NT; played=SA SQ")
        >>> p.to_move, str(p)
        (2, 'AK.-.-.- QJ.-.-.- 7.7.-.-; declarer=0; strain=NT; leader=0; played=SA SQ')
        """
        if not isinstance(text, str):
            raise DealError(f"a position is text, got {type(text).__name__}")
        deal_text, *rest = [f.strip() for f in text.split(";")]
        if rest and not rest[-1]:
            rest.pop()      # a trailing ";" ends the last field
        fields: dict[str, str] = {}
        for field in rest:
            m = re.fullmatch(r"(\w+)\s*=\s*(.*)", field)
            if not m or m.group(1) not in _POSITION_FIELDS:
                raise DealError(f"cannot read field {field!r} of position {text!r}: expected "
                                f"declarer=, strain=, leader=, talon=, turn= or played=")
            if m.group(1) in fields:
                raise DealError(f"field {m.group(1)}= given twice in position {text!r}")
            fields[m.group(1)] = m.group(2).strip()
        for key in ("declarer", "strain"):
            if key not in fields:
                raise DealError(f"position {text!r} has no {key}= field")
        seats = {}
        for key, default in (("declarer", None), ("leader", "0")):
            value = fields.get(key, default)
            assert value is not None   # declarer= is checked above; leader= defaults to "0"
            if not re.fullmatch(r"[0-2]", value):
                raise SeatError(f"{key} must be a seat 0, 1 or 2, got {value!r} in {text!r}")
            seats[key] = int(value)
        try:
            return cls(deal_text, seats["declarer"], fields["strain"], seats["leader"],
                       talon=fields.get("talon"), turn=fields.get("turn") or None,
                       played=fields.get("played", ""), solver=solver)
        except PrefsolveError as exc:
            raise type(exc)(f"{exc} (in position {_clipped(text)})") from None


_POSITION_FIELDS = ("declarer", "strain", "leader", "talon", "turn", "played")


def card_values(deal: Deal | str, declarer: int, strain: str, leader: int = 0,
                played: object = (), *, talon: str | None = None, turn: object = None,
                solver: Solver | None = None) -> dict[Card, int]:
    """For the player to move after ``played``: card → the declarer's total tricks.

    ``played`` are the cards played so far in order (tricks continue across
    boundaries). The value counts the tricks already won, assumes perfect play
    after the card, and is given for every legal card. See :class:`Position`
    for ``talon`` and ``turn`` (all-pass).

    >>> v = card_values("K7.-.-.- AQ.-.-.- J.A.-.-", 1, "NT", played=["SK"])
    >>> {str(c): n for c, n in v.items()}
    {'SA': 2, 'SQ': 1}
    """
    pos = Position(deal, declarer, strain, leader, talon=talon, turn=turn, played=played,
                   solver=solver)
    return pos.card_values()


def best_line(deal: Deal | str, declarer: int, strain: str, leader: int = 0,
              played: object = (), *, talon: str | None = None, turn: object = None,
              solver: Solver | None = None) -> Line:
    """One optimal continuation from the position after ``played`` to the end.

    >>> line = best_line("K7.-.-.- AQ.-.-.- J.A.-.-", 1, "NT")
    >>> line.tricks, [t.winner for t in line.by_trick]
    (2, [1, 1])
    """
    pos = Position(deal, declarer, strain, leader, talon=talon, turn=turn, played=played,
                   solver=solver)
    return pos.best_line()


def mistakes(deal: Deal | str, declarer: int, strain: str, leader: int = 0,
             played: object = (), *, talon: str | None = None, turn: object = None,
             solver: Solver | None = None) -> tuple[Mistake, ...]:
    """The cards of ``played`` that cost their side tricks against the best play.

    >>> for m in mistakes("K7.-.-.- AQ.-.-.- J.A.-.-", 1, "NT", played="SK SQ"):
    ...     print(m.format())
    card 2 (trick 1), seat 1 ♠Q: lost 1 trick; best ♠A (total 2 with the best card, 1 after this one)
    """
    pos = Position(deal, declarer, strain, leader, talon=talon, turn=turn, played=played,
                   solver=solver)
    return pos.mistakes()


def strain_label(strain: str) -> str:
    """Human name of a play strain: ``♥``, ``NT``, ``Misère``, ``All-pass``."""
    return "All-pass" if strain == ALLPASS else STRAIN_SYMBOLS[strain]


__all__ = ["ALLPASS", "PLAY_STRAINS", "TALON_MODES", "Trick", "Line", "Mistake", "Position",
           "card_values", "best_line", "mistakes", "parse_play_strain", "canonical_turn",
           "strain_label"]
