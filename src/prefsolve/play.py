"""Play analysis: a position in the play of a deal, and the value of every card.

A :class:`Position` is a deal plus the cards played so far, in playing order
across trick boundaries, in the style of python-chess's ``Board``:
:meth:`Position.push`, :meth:`Position.pop`, :meth:`Position.legal_cards`.
Its analysis answers "what is each card worth here?": :func:`card_values`
maps every legal card of the player to move to the counted seat's **total**
tricks for the deal (tricks already won included) if that card is played and
everyone plays perfectly afterwards; :func:`best_line` plays one optimal
continuation to the end.

The counted seat is the declarer in a game or misère and, in all-pass
(распасы: no trump), the ``seat`` asked about: he plays to take as few tricks
as possible, the other two to give him as many as possible (the guaranteed
answer of RULES.md §4.4). The talon takes part as its ``talon_mode`` says
(docs/VOCABULARY.md): in a game or misère the declarer takes it and puts away
his best discard (or the ``discard`` given); in all-pass its cards are turned
one at a time and each starts one of the first two tricks: it sets the suit,
seats 0, 1, 2 play to it in that order, and the highest card of that suit
played by a player wins.

>>> deal = "AK.-.-.- QJ.-.-.- 7.7.-.-"
>>> pos = Position(deal, 0, strain="NT", played=["SA"])
>>> pos.to_move, pos.legal_cards()
(1, Cards.parse('SQ SJ'))
>>> {str(c): v for c, v in pos.card_values().items()}
{'SQ': 2, 'SJ': 2}
>>> print(best_line(deal, 0, strain="NT").format())
Trick 1: 0 ♠A  1 ♠Q  2 ♠7   won by 0
Trick 2: 0 ♠K  1 ♠J  2 ♣7   won by 0
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from ._frozen import FrozenMap
from .cards import SUIT_SYMBOLS, Card, Cards, Hand, _cards, cards_in_hand_order, parse_cards
from .checks import check_optional_seat, check_seat
from .deal import Deal
from .engine import SEARCHES, Solver, check_solver, default_solver
from .errors import CardError, DealError, IllegalPlayError, PrefsolveError, SeatError
from .i18n import _, get_language, ngettext, say_in, shown
from .solver import as_deal, game_talon_mode, solve
from .strains import ALLPASS, IGNORE, MISERE, TAKE, check_talon_mode, parse_strain, trump_of


def canonical_turn(talon: Hand) -> Cards:
    """The talon cards in the canonical turning order: by suit ♠ ♣ ♦ ♥, higher rank first.

    >>> canonical_turn(Hand.parse("8.Q.-.A"))
    Cards.parse('S8 CQ HA')
    """
    return cards_in_hand_order(talon.mask)


def _as_card(card: object) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise CardError(_("expected a card such as 'SA', got {value}", value=repr(card)))


def _as_cards(cards: object, what: str) -> list[Card]:
    """A card sequence from text (``"SA S7"``) or an iterable of cards / card texts."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, Card):
        return [cards]
    if isinstance(cards, (Mapping, set, frozenset)):    # no order of play (a dict would give its keys)
        raise CardError(_("{what} must be cards in order, such as 'SA S7' or a list, got a {kind}", what=what,
                          kind=type(cards).__name__))
    try:
        # Whatever is not iterable raises the TypeError caught below.
        return [_as_card(c) for c in cast("Iterable[object]", cards)]
    except TypeError:
        raise CardError(_("{what} must be cards such as 'SA S7', got {value}", what=what, value=repr(cards))) from None


def _clipped(text: str, limit: int = 200) -> str:
    """``repr(text)``, cut in the middle when long: an error stays one readable line."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit // 2]) + f" … ({len(text) - limit} characters) … " + repr(text[-limit // 2:])


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _talon_queue(deal: Deal, strain: str, leader: int, talon_mode: str, turn: object) -> Cards:
    """The talon cards that lead the first tricks of all-pass, in turning order (empty if none)."""
    if strain != ALLPASS or talon_mode == IGNORE:
        if turn is not None:
            why = (_("strain {strain} plays no talon card", strain=repr(strain)) if strain != ALLPASS
                   else _("with the talon ignored no talon card is played"))
            raise DealError(_("turn {turn} orders the talon cards that lead tricks 1 and 2 of all-pass; {why}",
                              turn=repr(turn), why=why))
        return _cards(())
    if leader != 0:
        raise SeatError(_("in all-pass with the talon leading, seat 0 (first hand) plays first to tricks 1 and 2; "
                          "leader must be 0, got {value}", value=repr(leader)))
    if turn is None:
        if deal.talon is None:
            raise DealError(_("all-pass with talon_mode='lead' needs a deal with a talon; deal {deal} has none (play "
                              "it with talon_mode='ignore' / --talon-mode ignore, or give the turned cards as turn= / "
                              "--turn)", deal=repr(str(deal))))
        return canonical_turn(deal.talon)
    cards = _as_cards(turn, "turn")
    text = turn if isinstance(turn, str) else _cards_text(cards)
    if deal.talon is not None:
        if len(cards) != 2 or set(cards) != set(deal.talon):
            talon = canonical_turn(deal.talon)
            raise DealError(_("turn {turn} must be the deal's two talon cards {talon}, in the order they are turned",
                              turn=repr(text), talon=shown(talon, _cards_text(talon))))
        return _cards(cards)
    # An ending without talon: the turned cards lead the next tricks (a study position).
    held = deal.hands[0].mask | deal.hands[1].mask | deal.hands[2].mask
    if not 1 <= len(cards) <= 2 or len(set(cards)) != len(cards):
        raise DealError(_("turn {turn} must be one or two different talon cards", turn=repr(text)))
    if any(held >> c.index & 1 for c in cards):
        raise DealError(_("turn {turn}: a talon card cannot also be in a hand of {deal}", turn=repr(text),
                          deal=repr(str(deal))))
    if len(cards) > deal.tricks:
        raise DealError(_("turn {turn}: more talon cards than the {tricks} tricks to play", turn=repr(text),
                          tricks=deal.tricks))
    return _cards(cards)


def _between(low: int, high: int) -> int:
    """The card mask of the ranks strictly between two cards of one suit (by their indexes)."""
    return ((1 << high) - 1) & ~((1 << (low + 1)) - 1)


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

    ``talon_card`` is the talon card that started it (all-pass), which sets
    the suit but cannot win; ``winner`` is None while the trick is incomplete.

    >>> t = Trick(0, Cards.parse("SA S7 H8"), 0)
    >>> t.format(), t.seats
    ('0 ♠A  1 ♠7  2 ♥8   won by 0', (0, 1, 2))
    """

    leader: int
    cards: Cards
    winner: int | None = None
    talon_card: Card | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat that played each card."""
        return tuple((self.leader + i) % 3 for i in range(len(self.cards)))

    def format(self) -> str:
        """The trick in the active language: each seat and its card, then the winner."""
        lang = get_language()
        plays = "  ".join(f"{s} {c.format(lang)}" for s, c in zip(self.seats, self.cards))
        if self.talon_card:
            talon = _("talon {card}", card=self.talon_card.format(lang))
            plays = f"{talon}: {plays}" if plays else talon
        return plays + ("   " + _("won by {seat}", seat=self.winner) if self.winner is not None else "")

    def to_dict(self) -> dict:
        return {
            "leader": self.leader,
            "talon_card": str(self.talon_card) if self.talon_card else None,
            "cards": self.cards.to_list(),
            "seats": list(self.seats),
            "winner": self.winner,
        }


@dataclass(frozen=True)
class Line:
    """One optimal continuation from a position to the end of the play.

    ``cards``: the continuation in playing order; ``played_tricks``: every
    trick it touches, complete (a trick that was under way includes the cards
    already on the table), with its winner; ``tricks``: the counted seat's
    total tricks at the end, the value of the position; ``tricks_won``: every
    seat's total. ``declarer`` is the game's declarer, ``seat`` the counted
    seat of an all-pass (the other one is None).
    """

    strain: str
    declarer: int | None
    seat: int | None
    tricks: int
    cards: Cards
    played_tricks: tuple[Trick, ...]
    tricks_won: tuple[int, int, int]
    first_trick: int = 1

    def format(self) -> str:
        """One line per trick: ``Trick 3: 0 ♠A  1 ♠7  2 ♠8   won by 0`` (in the active language)."""
        return "\n".join(_("Trick {number}: {cards}", number=self.first_trick + i, cards=t.format())
                         for i, t in enumerate(self.played_tricks))

    def to_dict(self) -> dict:
        return {
            "strain": self.strain,
            "declarer": self.declarer,
            "seat": self.seat,
            "tricks": self.tricks,
            "tricks_won": list(self.tricks_won),
            "cards": self.cards.to_list(),
            "first_trick": self.first_trick,
            "played_tricks": [t.to_dict() for t in self.played_tricks],
        }


@dataclass(frozen=True)
class Mistake:
    """A played card that cost its side tricks against the best play.

    ``move``: 1-based index in the played cards; ``value``: the counted
    seat's total tricks after this card with perfect play; ``best_value``:
    the same after the best card(s) ``best_cards``; ``cost``: tricks the
    player's side lost.
    """

    move: int
    trick: int
    seat: int
    card: Card
    value: int
    best_value: int
    best_cards: Cards

    @property
    def cost(self) -> int:
        return abs(self.best_value - self.value)

    def format(self) -> str:
        """The mistake in words, in the active language."""
        lang = get_language()
        return ngettext("card {move} (trick {trick}), seat {seat} {card}: lost {n} trick; best {best} (total "
                        "{best_value} with the best card, {value} after this one)",
                        "card {move} (trick {trick}), seat {seat} {card}: lost {n} tricks; best {best} (total "
                        "{best_value} with the best card, {value} after this one)", self.cost, move=self.move,
                        trick=self.trick, seat=self.seat, card=self.card.format(lang),
                        best=self.best_cards.format(lang), best_value=self.best_value, value=self.value)

    def to_dict(self) -> dict:
        return {"move": self.move, "trick": self.trick, "seat": self.seat, "card": str(self.card),
                "value": self.value, "best_value": self.best_value, "cost": self.cost,
                "best_cards": self.best_cards.to_list()}


class CardValues(FrozenMap[Card, int]):
    """Each legal card of the seat to move → the counted seat's total tricks
    if it is played now and everyone plays perfectly afterwards.

    >>> v = card_values("K7.-.-.- AQ.-.-.- J.A.-.-", 1, strain="NT", played=["SK"])
    >>> v.to_dict(), hash(v) == hash(CardValues(dict(v)))
    ({'SA': 2, 'SQ': 1}, True)
    """

    __slots__ = ()

    def to_dict(self) -> dict[str, int]:
        return {str(c): v for c, v in self.items()}


class Position:
    """A deal in play: the hands, the cards played so far, whose turn it is.

    A game or misère has a ``declarer``; an all-pass has the ``seat`` whose
    tricks are counted (give one of them). ``talon_mode`` (default: the
    deal's, docs/VOCABULARY.md): in a game or misère ``take`` — the declarer
    takes the talon and puts away ``discard`` (default: a best discard, as
    :func:`~prefsolve.solver.solve` finds it) — or ``ignore``, the hands
    played as given; in all-pass ``lead`` — the talon cards start tricks 1
    and 2 in the order ``turn`` (default: :func:`canonical_turn`) — or
    ``ignore``. For an all-pass ending without talon, ``turn`` may name 1 or
    2 cards out of the hands that lead the next tricks (a study position).

    >>> pos = Position("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-", strain="allpass", seat=1)
    >>> pos.turn, pos.to_move, pos.talon_card
    (Cards.parse('S8 CQ'), 0, Card.parse('S8'))
    >>> pos.push("SA"); pos.push("SJ"); pos.push("SK")
    >>> pos.tricks_won, pos.played_tricks[-1].format()
    ((1, 0, 0), 'talon ♠8: 0 ♠A  1 ♠J  2 ♠K   won by 0')
    >>> Position.parse(str(pos)) == pos
    True
    >>> game = Position("A.KT9.KT97.K7 JT97.A7.8.Q98 KQ.J8.AQJ.AJT 8.Q.-.-", 2, strain="NT")
    >>> game.talon_mode, game.discard, game.value()
    ('take', Cards.parse('S8 C8'), 4)
    """

    __hash__ = None  # type: ignore[assignment]  # mutable, like chess.Board

    def __init__(self, deal: Deal | str, declarer: int | None = None, *, strain: str,
                 seat: int | None = None, leader: int = 0, talon_mode: str | None = None,
                 discard: object = None, turn: object = None, played: object = (),
                 solver: Solver | None = None) -> None:
        self.deal = as_deal(deal)
        self.strain = parse_strain(strain, allpass=True)
        self.declarer = check_optional_seat(declarer, "declarer")
        self.seat = check_optional_seat(seat, "seat")
        if self.strain == ALLPASS:
            if self.declarer is not None or self.seat is None:
                raise SeatError(_("all-pass has no declarer: give the seat whose tricks are counted (seat=, --seat)"))
            # Turned cards given for an ending without talon (a study position) lead as a talon would.
            has_talon = self.deal.talon is not None or turn is not None
            self.talon_mode = check_talon_mode(talon_mode, ALLPASS, has_talon)
        else:
            if self.seat is not None or self.declarer is None:
                raise SeatError(_("a game or misère is counted for its declarer: give declarer= (--declarer), not "
                                  "seat=, in strain {strain}", strain=repr(self.strain)))
            self.talon_mode = game_talon_mode(self.deal, talon_mode, self.strain)
        self.leader = check_seat(leader, "leader")
        if solver is not None:
            check_solver(solver)    # a bad one is named now, not at the first solve
        self._solver = solver
        self.minimize = self.strain in (MISERE, ALLPASS)
        self.trump = -1 if self.minimize else trump_of(self.strain)
        self.turn: Cards = _talon_queue(self.deal, self.strain, self.leader, self.talon_mode, turn)
        self.discard: Cards | None = self._discard(discard)
        hands = [h.mask for h in self.deal.hands]
        if self.discard is not None:
            assert self.deal.talon is not None and self.declarer is not None   # talon mode take
            hands[self.declarer] = (hands[self.declarer] | self.deal.talon.mask) & ~self.discard.mask
        self._hands = hands
        self._won = [0, 0, 0]
        self._tricks: list[Trick] = []
        self._cur: list[Card] = []
        self._played: list[Card] = []
        self._undo: list[tuple] = []
        for i, card in enumerate(_as_cards(played, "played"), 1):
            try:
                self.push(card)
            except IllegalPlayError as exc:
                raise IllegalPlayError(_("{message} (card {number} of the played cards)", message=exc,
                                         number=i)) from None

    def _discard(self, discard: object) -> Cards | None:
        """The declarer's discard when he takes the talon: ``discard`` checked,
        or a best one found by the solver."""
        if self.talon_mode != TAKE:
            if discard is not None:
                raise DealError(_("discard {discard} goes with talon_mode='take': nobody took the talon",
                                  discard=repr(discard)))
            return None
        assert self.deal.talon is not None and self.declarer is not None   # game_talon_mode checked
        if discard is None:
            return solve(self.deal, self.declarer, strain=self.strain, leader=self.leader,
                         talon_mode=TAKE, solver=self._solver).discard
        cards = _as_cards(discard, "discard")
        twelve = Hand(self.deal.hands[self.declarer].mask | self.deal.talon.mask)
        text = discard if isinstance(discard, str) else _cards_text(cards)
        if len(cards) != 2 or len(set(cards)) != 2 or any(c not in twelve for c in cards):
            raise DealError(_("discard {discard} must be two different cards of the declarer's 12 ({twelve})",
                              discard=repr(text), twelve=shown(twelve.symbols)))
        return cards_in_hand_order(_cards(cards).mask)

    # -- state -------------------------------------------------------------

    @property
    def counted_seat(self) -> int:
        """The seat whose tricks the values count: the declarer, or the all-pass seat."""
        return self.seat if self.declarer is None else self.declarer   # type: ignore[return-value]

    @property
    def played(self) -> Cards:
        """Every card played so far, in order (talon cards not included)."""
        return _cards(self._played)

    @property
    def hands(self) -> tuple[Hand, Hand, Hand]:
        """The cards each seat still holds."""
        return tuple(Hand(m) for m in self._hands)  # type: ignore[return-value]

    @property
    def played_tricks(self) -> tuple[Trick, ...]:
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
    def trick(self) -> Cards:
        """The players' cards on the table in the current trick."""
        return _cards(self._cur)

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
        """Whether ``seat`` wants the counted seat's tricks high.

        The declarer in a game, the defence in misère and all-pass.
        """
        return (seat == self.counted_seat) != self.minimize

    # -- moves -------------------------------------------------------------

    def legal_cards(self) -> Cards:
        """The cards the player to move may play, ♠ ♣ ♦ ♥ and high to low."""
        seat = self.to_move
        if seat is None:
            return _cards(())
        hand = self._hands[seat]
        led = self.led_suit
        allowed = hand
        if led is not None:
            follow = hand & (0xFF << (8 * led))
            trumps = hand & (0xFF << (8 * self.trump)) if self.trump >= 0 else 0
            allowed = follow or trumps or hand
        return cards_in_hand_order(allowed)

    def is_legal(self, card: Card | str) -> bool:
        return _as_card(card) in self.legal_cards()

    def _check(self, card: Card) -> None:
        seat = self.to_move
        if seat is None:
            raise IllegalPlayError(ngettext("cannot play {card}: all {n} tricks have been played",
                                            "cannot play {card}: all {n} tricks have been played", self.deal.tricks,
                                            card=shown(card)))
        hand = Hand(self._hands[seat])
        if card not in hand:
            if card in self._played:
                raise IllegalPlayError(_("{where}: it was already played (card {number} of the play)",
                                         where=self._where(card, seat), number=self._played.index(card) + 1))
            if card in self.turn:
                raise IllegalPlayError(_("{where}: it is a talon card, turned to lead trick {trick}; list only the "
                                         "players' cards", where=self._where(card, seat),
                                         trick=self.turn.index(card) + 1))
            holder = next((s for s in range(3) if self._hands[s] >> card.index & 1), None)
            if holder is not None:
                whose = _("seat {seat} holds it", seat=holder)
            elif self.discard is not None and card in self.discard:
                whose = _("the declarer discarded it ({discard})", discard=shown(self.discard))
            elif self.deal.talon is not None and card in self.deal.talon:
                whose = _("it is in the talon, out of play")
            else:
                whose = _("nobody holds it")
            raise IllegalPlayError(_("{where}: it is not in seat {seat}'s hand ({hand}); {whose}",
                                     where=self._where(card, seat), seat=seat,
                                     hand=shown(lambda lang: hand.symbols(lang) or say_in(_("empty"), lang)),
                                     whose=whose))
        led = self.led_suit
        if led is None or card.suit == led:
            return
        if hand.suit_ranks(led):
            raise IllegalPlayError(_("{where}: must follow suit {suit} (holds {holding})",
                                     where=self._where(card, seat), suit=SUIT_SYMBOLS[led],
                                     holding=shown(lambda lang: SUIT_SYMBOLS[led] + hand.suit_ranks(led, lang))))
        if self.trump >= 0 and card.suit != self.trump and hand.suit_ranks(self.trump):
            trump = self.trump
            raise IllegalPlayError(_("{where}: void in {suit}, must trump with {trump} (holds {holding})",
                                     where=self._where(card, seat), suit=SUIT_SYMBOLS[led], trump=SUIT_SYMBOLS[trump],
                                     holding=shown(lambda lang: SUIT_SYMBOLS[trump] + hand.suit_ranks(trump, lang))))

    def _where(self, card: Card, seat: int) -> str:
        """The card an error refuses, said only for the error: a legal card costs no message."""
        return _("cannot play {card} (seat {seat}, trick {trick})", card=shown(card), seat=seat,
                 trick=self.trick_number)

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
            self._tricks.append(Trick(leader, _cards(self._cur), winner, talon_card))
            self._won[winner] += 1
            self._cur = []

    def pop(self) -> Card:
        """Take back the last card played and return it."""
        if not self._played:
            raise IllegalPlayError(_("no card to take back: nothing has been played"))
        hands, won, n_tricks, cur = self._undo.pop()
        self._hands, self._won, self._cur = hands, won, cur
        del self._tricks[n_tricks:]
        return self._played.pop()

    def _start(self) -> Position:
        """A new position at the start of this one's play (the same deal and settings)."""
        return Position(self.deal, self.declarer, strain=self.strain, seat=self.seat, leader=self.leader,
                        talon_mode=self.talon_mode, discard=self.discard, turn=self._turn_arg(),
                        solver=self._solver)

    def copy(self) -> Position:
        """An independent copy at the same point of the play."""
        other = self._start()
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
        """The counted seat's tricks from the current trick on, with perfect play."""
        if self.is_over():
            return 0
        leader, trick, talon_card, pending = self._engine_args()
        SEARCHES.count += 1
        core = self._core()
        value = core.value(self._hands, self.counted_seat, self.trump, self.minimize, leader, trick, talon_card,
                           pending)
        SEARCHES.nodes += core.nodes
        return value

    def _reaches(self, total: int) -> bool:
        """Whether the counted seat's total with perfect play is at least ``total``."""
        need = total - self._won[self.counted_seat]
        if need <= 0:
            return True
        if self.is_over() or need > self.deal.tricks - len(self._tricks):
            return False
        leader, trick, talon_card, pending = self._engine_args()
        SEARCHES.count += 1
        core = self._core()
        reached = core.geq(self._hands, self.counted_seat, self.trump, self.minimize, need, leader, trick,
                           talon_card, pending)
        SEARCHES.nodes += core.nodes
        return reached

    def value(self) -> int:
        """The counted seat's total tricks for the deal with perfect play from here."""
        return self._won[self.counted_seat] + self._rest()

    def card_values(self) -> CardValues:
        """Each legal card → the counted seat's total tricks if it is played, then perfect play.

        Every legal card appears (equivalent cards with equal values); empty
        when the play is over. Cards of one suit with no card between them in
        another hand or on the table are equivalent (touching cards: whichever
        is played, the same tricks follow), so one of each run is searched.
        """
        values: dict[Card, int] = {}
        seat = self.to_move
        if seat is None:
            return CardValues(values)
        rivals = 0      # cards that a card of the mover may have to beat, or may beat
        for s in range(3):
            if s != seat:
                rivals |= self._hands[s]
        for card in self._cur:
            rivals |= 1 << card.index
        last: Card | None = None
        for card in self.legal_cards():     # high to low within a suit
            if last is not None and last.suit == card.suit and not rivals & _between(card.index, last.index):
                values[card] = values[last]
            else:
                self.push(card)
                try:
                    values[card] = self.value()
                finally:
                    self.pop()
            last = card
        return CardValues(values)

    def best_cards(self, values: Mapping[Card, int] | None = None) -> Cards:
        """The legal cards that keep the best value for the side to move
        (``values``: this position's :meth:`card_values`, if already known)."""
        values = self.card_values() if values is None else values
        if not values:
            return _cards(())
        seat = self.to_move
        if seat is None:
            raise IllegalPlayError(_("the play is over: there are no card values to choose from"))
        best = (max if self.maximizing(seat) else min)(values.values())
        return _cards(c for c, v in values.items() if v == best)

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
                raise RuntimeError(_("no card keeps the value {value} in {position}", value=total, position=pos))
        assert pos._won[self.counted_seat] == total
        return Line(self.strain, self.declarer, self.seat, total, _cards(pos._played[start:]),
                    tuple(pos._tricks[first - 1:]), pos.tricks_won, first)

    def mistakes(self) -> tuple[Mistake, ...]:
        """The played cards that cost their side tricks against the best play.

        In all-pass only the counted seat's own cards: the values count his
        tricks alone, so the others' "best" cards are the ones that load him
        most, which need not be best for themselves.
        """
        pos = self._start()
        found = []
        for move, card in enumerate(self._played, 1):
            seat = pos.to_move
            assert seat is not None   # card is still to be played
            if self.strain != ALLPASS or seat == self.seat:
                values = pos.card_values()
                best_cards = pos.best_cards(values)
                best = values[best_cards[0]]
                if values[card] != best:
                    found.append(Mistake(move, pos.trick_number, seat, card, values[card],
                                         best, best_cards))
            pos.push(card)
        return tuple(found)

    def to_dict(self, values: Mapping[Card, int] | None = None,
                mistakes: tuple[Mistake, ...] | None = None) -> dict:
        """The position and its analysis as ``prefsolve play --json`` prints it
        (docs/JSON.md): the deal as given, the seats, the talon's part, the
        cards played, the hands left, the tricks, the counted seat's total
        with best play, every legal card's value and the mistakes.
        ``values`` and ``mistakes``: this position's, when already known."""
        values = self.card_values() if values is None else values
        mistakes = self.mistakes() if mistakes is None else mistakes
        return {
            "position": str(self),
            "deal": str(self.deal),
            "declarer": self.declarer,
            "seat": self.seat,
            "strain": self.strain,
            "leader": self.leader,
            "talon_mode": self.talon_mode,
            "discard": self.discard.to_list() if self.discard is not None else None,
            "turn": self.turn.to_list(),
            "played": self.played.to_list(),
            "hands": [str(h) for h in self.hands],
            "played_tricks": [t.to_dict() for t in self.played_tricks],
            "trick": self.current_trick.to_dict() if not self.is_over() else None,
            "tricks_won": list(self.tricks_won),
            "to_move": self.to_move,
            "tricks": self.value(),
            "values": {str(c): v for c, v in values.items()},
            "best_cards": self.best_cards(values).to_list(),
            "mistakes": [m.to_dict() for m in mistakes],
        }

    # -- text --------------------------------------------------------------

    def _turn_arg(self) -> Cards | None:
        return self.turn if self.turn else None

    def __str__(self) -> str:
        fields = [str(self.deal)]
        fields.append(f"seat={self.seat}" if self.declarer is None else f"declarer={self.declarer}")
        fields += [f"strain={self.strain}", f"leader={self.leader}", f"talon_mode={self.talon_mode}"]
        if self.discard is not None:
            fields.append(f"discard={_cards_text(self.discard)}")
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
        (2, 'AK.-.-.- QJ.-.-.- 7.7.-.-; declarer=0; strain=NT; leader=0; talon_mode=ignore; played=SA SQ')

        The deal, the strain and the cards are read in any notation the parsers
        read, the Russian one too (docs/GLOSSARY.md):

        >>> Position.parse("ТК.-.-.- ДВ.-.-.- 7.7.-.-; declarer=0; strain=бк; played=Тп Дп") == p
        True
        """
        if not isinstance(text, str):
            raise DealError(_("a position is text, got {kind}", kind=type(text).__name__))
        deal_text, *rest = [f.strip() for f in text.split(";")]
        if rest and not rest[-1]:
            rest.pop()      # a trailing ";" ends the last field
        fields: dict[str, str] = {}
        for field in rest:
            m = re.fullmatch(r"(\w+)\s*=\s*(.*)", field)
            if not m or m.group(1) not in _POSITION_FIELDS:
                raise DealError(_("cannot read field {field} of position {text}: expected {fields}", field=repr(field),
                                  text=repr(text), fields=", ".join(f + "=" for f in _POSITION_FIELDS)))
            if m.group(1) in fields:
                raise DealError(_("field {field}= given twice in position {text}", field=m.group(1), text=repr(text)))
            fields[m.group(1)] = m.group(2).strip()
        if "strain" not in fields:
            raise DealError(_("position {text} has no strain= field", text=repr(text)))
        seats: dict[str, int | None] = {}
        for key, default in (("declarer", None), ("seat", None), ("leader", "0")):
            value = fields.get(key, default)
            if value is not None and not re.fullmatch(r"[0-2]", value):
                raise SeatError(_("{what} must be a seat 0, 1 or 2, got {value} in {text}", what=key, value=repr(value),
                                  text=repr(text)))
            seats[key] = None if value is None else int(value)
        try:
            return cls(deal_text, seats["declarer"], strain=fields["strain"], seat=seats["seat"],
                       leader=seats["leader"] or 0, talon_mode=fields.get("talon_mode"),
                       discard=fields.get("discard") or None, turn=fields.get("turn") or None,
                       played=fields.get("played", ""), solver=solver)
        except PrefsolveError as exc:
            raise type(exc)(_("{message} (in position {text})", message=exc, text=_clipped(text))) from None


_POSITION_FIELDS = ("declarer", "seat", "strain", "leader", "talon_mode", "discard", "turn", "played")


def card_values(deal: Deal | str, declarer: int | None = None, *, strain: str, seat: int | None = None,
                leader: int = 0, played: object = (), talon_mode: str | None = None,
                discard: object = None, turn: object = None, solver: Solver | None = None) -> CardValues:
    """For the player to move after ``played``: card → the counted seat's total tricks.

    ``played`` are the cards played so far in order (tricks continue across
    boundaries). The value counts the tricks already won, assumes perfect play
    after the card, and is given for every legal card. See :class:`Position`
    for the other arguments.

    >>> v = card_values("K7.-.-.- AQ.-.-.- J.A.-.-", 1, strain="NT", played=["SK"])
    >>> {str(c): n for c, n in v.items()}
    {'SA': 2, 'SQ': 1}
    """
    return Position(deal, declarer, strain=strain, seat=seat, leader=leader, talon_mode=talon_mode,
                    discard=discard, turn=turn, played=played, solver=solver).card_values()


def best_line(deal: Deal | str, declarer: int | None = None, *, strain: str, seat: int | None = None,
              leader: int = 0, played: object = (), talon_mode: str | None = None,
              discard: object = None, turn: object = None, solver: Solver | None = None) -> Line:
    """One optimal continuation from the position after ``played`` to the end.

    >>> line = best_line("K7.-.-.- AQ.-.-.- J.A.-.-", 1, strain="NT")
    >>> line.tricks, [t.winner for t in line.played_tricks]
    (2, [1, 1])
    """
    return Position(deal, declarer, strain=strain, seat=seat, leader=leader, talon_mode=talon_mode,
                    discard=discard, turn=turn, played=played, solver=solver).best_line()


def mistakes(deal: Deal | str, declarer: int | None = None, *, strain: str, seat: int | None = None,
             leader: int = 0, played: object = (), talon_mode: str | None = None,
             discard: object = None, turn: object = None,
             solver: Solver | None = None) -> tuple[Mistake, ...]:
    """The cards of ``played`` that cost their side tricks against the best play.

    >>> for m in mistakes("K7.-.-.- AQ.-.-.- J.A.-.-", 1, strain="NT", played="SK SQ"):
    ...     print(m.format())
    card 2 (trick 1), seat 1 ♠Q: lost 1 trick; best ♠A (total 2 with the best card, 1 after this one)
    """
    return Position(deal, declarer, strain=strain, seat=seat, leader=leader, talon_mode=talon_mode,
                    discard=discard, turn=turn, played=played, solver=solver).mistakes()


__all__ = ["Trick", "Line", "Mistake", "CardValues", "Position", "card_values", "best_line",
           "mistakes", "canonical_turn"]
